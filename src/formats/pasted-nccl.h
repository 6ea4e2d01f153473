/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The "nccl" reader of pasted text: NCCL's INFO/WARN lines and return codes (pasted-nccl.c).
 * A pasted_reader_fn (pasted.h); its signs are "NCCL", "nccl" and "Cuda failure "; fuzzed by
 * tests/fuzz/fuzz-pasted-nccl.c. */
#pragma once

#include <stddef.h>

#include "formats/pasted.h"

int pasted_read_nccl(const char *text, size_t len, struct pasted_facts *out);
