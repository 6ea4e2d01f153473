/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two images `gpuenv doctor --launch` loads on each GPU (cuda-launch.c), embedded at
 * build time by embed.py: the SASS-only fat binary made by gen-probe-kernel.sh (sm_75, 80,
 * 86, 89, 90, 100, 120) and the hand-written PTX (ISA 6.0, target sm_30). Both define
 * gpuenv_probe(unsigned *out, unsigned n): out[i] = i * 3 + 1.
 */
#pragma once

#include <stddef.h>

#define LAUNCH_MODULE_KERNEL	 "gpuenv_probe"
#define LAUNCH_MODULE_SASS_ARCHS "sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120"

extern const unsigned char launch_module_sass[];
extern const size_t launch_module_sass_len;
extern const char launch_module_ptx[];
