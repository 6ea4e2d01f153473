// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted lspci reader (src/formats/pasted-lspci.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_lspci)
