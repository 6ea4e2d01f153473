/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Intel ISA-L functions explain's gzip input is inflated with (src/formats/pasted-gzip.c),
 * as a table of pointers with the types of ISA-L's own <isa-l/igzip_lib.h>: its inflate takes
 * about half zlib's instructions on a bug report (docs/explain.md). formats/ may not load
 * libraries itself, so the caller hands it the table (src/vendor/lazy-libs.c loads libisal
 * on first use: linked, it cost every run, a paste's too, its mapping and its relocations).
 */
#pragma once

#include <isa-l/igzip_lib.h>

#define ISAL_INFLATE_API_SYMBOLS(X, T)                                                             \
	X(T, isal_inflate_init)                                                                    \
	X(T, isal_inflate_reset)                                                                   \
	X(T, isal_inflate)

#define ISAL_INFLATE_API_FIELD(table, f) __typeof__(f) *f;

struct isal_inflate_api {
	ISAL_INFLATE_API_SYMBOLS(ISAL_INFLATE_API_FIELD, _)
};
