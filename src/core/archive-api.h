/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libarchive functions the image backend (layers.c) calls, as a table of pointers with
 * the types of libarchive's own <archive.h>: core/ may not load libraries itself, so the
 * caller hands it the table (src/vendor/lazy-libs.c loads libarchive on first use, as it
 * loads libzip: only --image needs it, and linking it would map libxml2 and nettle into
 * every run).
 */
#pragma once

#include <archive.h>
#include <archive_entry.h>

#define ARCHIVE_API_SYMBOLS(X, T)                                                                  \
	X(T, archive_read_new)                                                                     \
	X(T, archive_read_free)                                                                    \
	X(T, archive_read_support_format_tar)                                                      \
	X(T, archive_read_support_format_zip_seekable)                                             \
	X(T, archive_read_set_seek_callback)                                                       \
	X(T, archive_read_support_filter_gzip)                                                     \
	X(T, archive_read_support_filter_zstd)                                                     \
	X(T, archive_read_support_filter_xz)                                                       \
	X(T, archive_read_support_filter_bzip2)                                                    \
	X(T, archive_read_open2)                                                                   \
	X(T, archive_read_next_header)                                                             \
	X(T, archive_read_data)                                                                    \
	X(T, archive_read_data_skip)                                                               \
	X(T, archive_error_string)                                                                 \
	X(T, archive_filter_bytes)                                                                 \
	X(T, archive_filter_count)                                                                 \
	X(T, archive_filter_code)                                                                  \
	X(T, archive_entry_pathname)                                                               \
	X(T, archive_entry_filetype)                                                               \
	X(T, archive_entry_perm)                                                                   \
	X(T, archive_entry_size)                                                                   \
	X(T, archive_entry_symlink)                                                                \
	X(T, archive_entry_hardlink)                                                               \
	X(T, archive_entry_sparse_count)

#define ARCHIVE_API_FIELD(table, f) __typeof__(f) *f;

struct archive_api {
	ARCHIVE_API_SYMBOLS(ARCHIVE_API_FIELD, _)
};
