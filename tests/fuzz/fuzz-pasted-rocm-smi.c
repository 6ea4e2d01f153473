// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted rocm-smi reader (src/formats/pasted-rocm-smi.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_rocm_smi)
