// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted kernel-log reader (src/formats/pasted-kernel-log.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_kernel_log)
