// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted tf-device reader (src/formats/pasted-tf-device.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_tf_device)
