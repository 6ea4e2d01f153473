// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted hung-task reader (src/formats/pasted-hung-task.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_hung_task)
