/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libarchive functions gpuenv calls, as a table of pointers with the types of
 * libarchive's own <archive.h>: the image backend (layers.c) reads tar layers with them,
 * `gpuenv capture` writes its bundles (tools/capture-archive.c) and --from reads a bundle's
 * snapshot.json (tools/capture-read.c). core/ may not load libraries itself, so the caller
 * hands it the table (src/vendor/lazy-libs.c loads libarchive on first use, as it loads
 * libzip: only --image and capture bundles need it, and linking it would map libxml2 and
 * nettle into every run).
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
	X(T, archive_entry_sparse_count)                                                           \
	X(T, archive_entry_rdev)                                                                   \
	X(T, archive_entry_uid)                                                                    \
	X(T, archive_entry_gid)                                                                    \
	X(T, archive_read_open_fd)                                                                 \
	X(T, archive_write_new)                                                                    \
	X(T, archive_write_set_format_pax_restricted)                                              \
	X(T, archive_write_add_filter_zstd)                                                        \
	X(T, archive_write_open_fd)                                                                \
	X(T, archive_write_header)                                                                 \
	X(T, archive_write_data)                                                                   \
	X(T, archive_write_close)                                                                  \
	X(T, archive_write_free)                                                                   \
	X(T, archive_entry_new)                                                                    \
	X(T, archive_entry_free)                                                                   \
	X(T, archive_entry_clear)                                                                  \
	X(T, archive_entry_set_pathname)                                                           \
	X(T, archive_entry_set_filetype)                                                           \
	X(T, archive_entry_set_perm)                                                               \
	X(T, archive_entry_set_size)                                                               \
	X(T, archive_entry_set_symlink)                                                            \
	X(T, archive_entry_set_rdev)                                                               \
	X(T, archive_entry_set_uid)                                                                \
	X(T, archive_entry_set_gid)                                                                \
	X(T, archive_entry_set_mtime)                                                              \
	X(T, archive_entry_sparse_add_entry)

#define ARCHIVE_API_FIELD(table, f) __typeof__(f) *f;

struct archive_api {
	ARCHIVE_API_SYMBOLS(ARCHIVE_API_FIELD, _)
};
