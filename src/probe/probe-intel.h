/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Intel GPU probes (probe-intel.c: driver.intel, runtime.level_zero, runtime.oneapi)
 * and what they borrow from the kernel log probe. Keys: docs/snapshot-schema.md "driver.intel", "runtime.level_zero",
 * "runtime.oneapi".
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "probe.h"

int probe_intel(struct probe_env *pe, struct gpuenv_snapshot *s);

/* The live kernel ring buffer as dmesg text (probe-kernel-log.c). */
int probe_read_kmsg(struct probe_env *pe, char **ret, size_t *ret_len, bool *ret_truncated);
