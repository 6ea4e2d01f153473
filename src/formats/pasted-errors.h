/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The "errors" reader of pasted text: error messages and codes (pasted-errors.c names them).
 * A pasted_reader_fn (pasted.h); fuzzed by tests/fuzz/fuzz-pasted-errors.c. */
#pragma once

#include <stdbool.h>

#include "formats/pasted.h"

int pasted_read_errors(const char *text, size_t len, struct pasted_facts *out);

struct pasted_needle;
/* Every word one of its line readers needs on a line to read anything from it: the symptoms'
 * needles, "cuda" in any case (every CUDA error name, and a code counts only on a line naming
 * CUDA), and the marks of the readers that have no symptom row ("NVRM: " for the kernel log's
 * Xid and API mismatch lines and the wrapped messages). Writes at most max; returns how many.
 * Its signs in pasted_readers[]. */
size_t pasted_errors_signs(struct pasted_needle *needles, size_t max);

/* A version JAX's check prints as the library's own number (cudaRuntimeGetVersion's 12010,
 * cuDNN's CUDNN_VERSION 8906 or 90100) as major.minor(.patch): "12.1", "8.9.6", "9.1.0". */
void pasted_jax_version_text(bool cudnn, unsigned v, char *buf, size_t len);
