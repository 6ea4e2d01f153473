// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted nvidia-smi nvlink -s reader (src/formats/pasted-nvlink.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_nvlink)
