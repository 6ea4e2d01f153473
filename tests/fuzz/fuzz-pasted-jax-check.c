// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted jax-check reader (src/formats/pasted-jax-check.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_jax_check)
