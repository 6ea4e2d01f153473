// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted torch-arch reader (src/formats/pasted-torch-arch.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_torch_arch)
