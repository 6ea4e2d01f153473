// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted collect-env reader (src/formats/pasted-collect-env.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_collect_env)
