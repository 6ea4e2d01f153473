/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libzip, loaded on first use (dl.h, struct dl_lazy): only `gpuenv scan` of a Python wheel
 * needs it, and linking it would load libcrypto into every run. The pointers have the types
 * of libzip's own <zip.h> declarations.
 */
#pragma once

#include <zip.h>

#include "dl.h"

#define VENDOR_ZIP_SYMBOLS(X, T)                                                                   \
	X(T, zip_discard)                                                                          \
	X(T, zip_error_fini)                                                                       \
	X(T, zip_error_init)                                                                       \
	X(T, zip_error_strerror)                                                                   \
	X(T, zip_fclose)                                                                           \
	X(T, zip_file_strerror)                                                                    \
	X(T, zip_fopen_index)                                                                      \
	X(T, zip_fread)                                                                            \
	X(T, zip_get_num_entries)                                                                  \
	X(T, zip_open_from_source)                                                                 \
	X(T, zip_source_buffer_create)                                                             \
	X(T, zip_source_free)                                                                      \
	X(T, zip_stat_index)                                                                       \
	X(T, zip_strerror)

struct vendor_zip {
	VENDOR_ZIP_SYMBOLS(DL_LAZY_FIELD, _)
};

/* libzip's functions: 0 and *ret, or a dl_lazy_load() error with *ret_error saying why. */
int vendor_zip(const struct vendor_zip **ret, const char **ret_error);
