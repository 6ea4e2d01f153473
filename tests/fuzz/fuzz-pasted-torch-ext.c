// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted torch-ext reader (src/formats/pasted-torch-ext.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_torch_ext)
