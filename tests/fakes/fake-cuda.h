/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the files of the fake libcuda (test code): fake-cuda.c (versions, cuInit, the
 * devices, error names) and fake-cuda-launch.c (contexts, modules, memory, launches).
 */
#pragma once

#include <stdio.h>

#include "fake-scenario.h"
#include "vendor/cuda-abi.h"

#define S "cuda"

extern int fake_cuda_initialized; /* a cuInit succeeded */
/* [cuda] device_count, else the [cuda.device.N] sections, else the [nvml.device.N] ones. */
int fake_cuda_count(void);
/* "CUDA_ERROR_NO_DEVICE" → 100 (999 when unknown). */
int fake_cuda_code_of(const char *name);
/* A device value: [cuda.device.N] first, then the same board's [nvml.device.N]; sec gets the
 * cuda section's name. */
const char *fake_cuda_dev_get(int dev, const char *key, char *sec, size_t size);

/* The injection of fake-scenario.h for fn, in [cuda] and dev_section (may be NULL). */
#define ENTER(fn, dev_section)                                                                     \
	do {                                                                                       \
		int _code;                                                                         \
		if (fake_inject(S, dev_section, fn, fake_cuda_code_of, &_code))                    \
			return _code;                                                              \
	} while (0)

/* A call on device dev: NOT_INITIALIZED before cuInit, INVALID_DEVICE out of range, then the
 * injection of [cuda.device.<dev>]. */
#define DEV_ENTER(fn, dev, sec)                                                                    \
	do {                                                                                       \
		char _s[32];                                                                       \
		if (!fake_cuda_initialized)                                                        \
			return 3;                                                                  \
		if ((dev) < 0 || (dev) >= fake_cuda_count())                                       \
			return 101;                                                                \
		snprintf(_s, sizeof(_s), "cuda.device.%d", dev);                                   \
		ENTER(fn, _s);                                                                     \
	} while (0)
