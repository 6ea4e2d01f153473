// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted OS package listing reader (src/formats/pasted-os-packages.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_os_packages)
