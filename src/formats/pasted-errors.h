/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The "errors" reader of pasted text: error messages and codes (pasted-errors.c names them).
 * A pasted_reader_fn (pasted.h); fuzzed by tests/fuzz/fuzz-pasted-errors.c. */
#pragma once

#include "formats/pasted.h"

int pasted_read_errors(const char *text, size_t len, struct pasted_facts *out);
