/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The "cudnn" reader of pasted text: cuDNN's cudnnStatus_t names (pasted-cudnn.c). A
 * pasted_reader_fn (pasted.h); its one sign is "CUDNN_STATUS_"; fuzzed by
 * tests/fuzz/fuzz-pasted-cudnn.c. */
#pragma once

#include <stddef.h>

#include "formats/pasted.h"

int pasted_read_cudnn(const char *text, size_t len, struct pasted_facts *out);
