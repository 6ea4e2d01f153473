// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted toolkit reader (src/formats/pasted-toolkit.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_toolkit)
