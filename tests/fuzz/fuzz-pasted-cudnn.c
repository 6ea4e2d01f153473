// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted cudnn reader (src/formats/pasted-cudnn.c). */
#include "formats/pasted-cudnn.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_cudnn)
