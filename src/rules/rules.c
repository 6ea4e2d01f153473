// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * THE rule table (docs/design.md §5): every rule gpuenv knows, one row each,
 * in output order, bottom layer first. A row says what the user sees (the exact error texts,
 * quoted from NVIDIA's driver messages, the CUDA runtime/driver API error strings in cuda.h /
 * cuda_runtime_api.h, nvidia-smi, modprobe, PyTorch and the NVIDIA Container Toolkit), why,
 * which snapshot keys it needs (docs/snapshot-schema.md), and the commands that fix and verify
 * it. Each layer's rows are in rules-table-<layer>.inc, included below in layer order (one
 * table and one index space, in files a reader can hold). The check functions live in
 * rules-<layer>.c; docs/rules.md is generated from this table (`gpuenv doctor --list-rules
 * --markdown`). Thresholds are facts (src/facts/data), not here.
 */
#include "rules/rules-intel.h"
#include "rules/rules-internal.h"

#define STRV(...) ((const char *const[]){ __VA_ARGS__, NULL })

const struct rule rule_table[] = {
#include "rules-table-hardware.inc"
#include "rules-table-driver.inc"
#include "rules-table-driver-amd.inc"
#include "rules-table-intel-driver.inc"
#include "rules-table-runtime.inc"
#include "rules-table-runtime-amd.inc"
#include "rules-table-intel-runtime.inc"
#include "rules-table-opencl.inc"
#include "rules-table-framework.inc"
#include "rules-table-intel-framework.inc"
#include "rules-table-container.inc"
};

const size_t rule_table_len = ARRAY_SIZE(rule_table);
