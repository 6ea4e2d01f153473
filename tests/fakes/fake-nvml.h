/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the two files of the fake libnvidia-ml share (test code): the device handles, the
 * state of nvmlInit, and the entry checks every export starts with (fake-nvml.c says what
 * the scenario file holds). Not exported: the library's symbols are hidden by default.
 */
#pragma once

#include <stdbool.h>

#include "fake-scenario.h"
#include "vendor/nvml-abi.h"

#define S "nvml"

struct nvmlDevice_st {
	unsigned index;
	unsigned replay_reads; /* reads of the PCIe replay counter so far */
	char section[64];      /* "nvml.device.N" or "nvml.device.N.mig.M" */
};

extern int nv_initialized;
bool nv_valid_handle(nvmlDevice_t d);
/* "NVML_ERROR_GPU_IS_LOST" → 15 */
int nv_code_of(const char *name);
/* An unsigned device value of the scenario; NOT_SUPPORTED when the board lacks it. */
nvmlReturn_t nv_dev_uint(nvmlDevice_t d, const char *key, unsigned *ret);

#define ENTER(fn, dev_section)                                                                     \
	do {                                                                                       \
		int _code;                                                                         \
		if (fake_inject(S, dev_section, fn, nv_code_of, &_code))                           \
			return _code;                                                              \
	} while (0)

/* Every device query starts here: valid handle, initialised, then injection. */
#define DEV_ENTER(fn, d)                                                                           \
	do {                                                                                       \
		if (!nv_initialized)                                                               \
			return NVML_ERROR_UNINITIALIZED;                                           \
		if (!nv_valid_handle(d))                                                           \
			return NVML_ERROR_INVALID_ARGUMENT;                                        \
		ENTER(fn, (d)->section);                                                           \
	} while (0)
