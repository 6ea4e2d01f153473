// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted nccl reader (src/formats/pasted-nccl.c). */
#include "formats/pasted-nccl.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_nccl)
