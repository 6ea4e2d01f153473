// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted modinfo reader (src/formats/pasted-modinfo.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_modinfo)
