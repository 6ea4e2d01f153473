// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted docker context ls reader (src/formats/pasted-docker-context.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_docker_context)
