// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted module-signature reader (src/formats/pasted-module-sig.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_module_sig)
