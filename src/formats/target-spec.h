/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser of a `gpuenv check --target` string (docs/policy.md, "Targets"): comma-separated
 * key=value fields naming a machine that is not here,
 *
 *     gpu=H100,driver=550.54.15
 *     gpu=10de:2335,gpu=8.6,driver=570.86.10
 *
 * `gpu` (repeatable, one GPU each) is a product name, a PCI id (`10de:2335`, or the device id
 * alone, `0x2335`) or a compute capability (`9.0`); `driver` a driver version (`550.54.15`,
 * or a branch `550`); `brand` the GPUs' brand as NVML reports it (`GeForce`, `Tesla`, `Quadro`,
 * `NVS`, `GRID`, `TITAN`; what NVIDIA_REQUIRE_CUDA's brand= terms test); `host-cuda-compat` a
 * CUDA version (`12.8`): the forward-compatibility package the target has installed. Only the
 * syntax is checked here; names are resolved by the knowledge base (src/check/check-target.c). An error names the field (1-based) and
 * the column (1-based, of the first byte at fault) of the string.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TARGET_SPEC_MAX_LEN  1024u /* characters */
#define TARGET_SPEC_MAX_GPUS 16u
#define TARGET_SPEC_MAX_NAME 96u

enum target_gpu_kind {
	TARGET_GPU_NAME = 0, /* a product name, resolved by the knowledge base */
	TARGET_GPU_PCI,	     /* vendor:device (vendor 0x10de when only the device was given) */
	TARGET_GPU_CC,	     /* a compute capability */
};

struct target_gpu {
	enum target_gpu_kind kind;
	char text[TARGET_SPEC_MAX_NAME]; /* as given */
	uint16_t vendor, device;	 /* TARGET_GPU_PCI */
	unsigned cc_major, cc_minor;	 /* TARGET_GPU_CC */
};

struct target_spec {
	struct target_gpu gpus[TARGET_SPEC_MAX_GPUS];
	size_t n_gpus;
	char driver[32];	   /* "" when not given */
	char host_cuda_compat[16]; /* "" when not given */
	char brand[24];		   /* "" when not given */
};

struct target_spec_error {
	unsigned field;	 /* 1-based; 0 for the string as a whole */
	unsigned column; /* 1-based */
	char why[160];
};

/* Parses s[0..len). 0, or -EINVAL with *err filled (a field without '=', an unknown or
 * repeated key, an empty or malformed value, no gpu, too long). */
int target_spec_parse(const char *s, size_t len, struct target_spec *ret,
		      struct target_spec_error *err);
