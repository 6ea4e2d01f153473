// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the pasted ollama server log reader (src/formats/pasted-ollama-log.c). */
#include "formats/pasted-readers.h"
#include "fuzz-pasted.h"

FUZZ_PASTED_TARGET(pasted_read_ollama_log)
