/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A large buffer's pages that will never be read again given back to the system while the
 * buffer lives on, madvise(MADV_DONTNEED): the process's resident memory shrinks by them at
 * once, not when the whole buffer is freed. Used on a gzip input already inflated, which
 * explain holds whole (tools/cmd-explain.c reads the file at once): its consumed part was
 * most of the peak memory of a large report's reading (docs/explain.md).
 */
#pragma once

#include <stddef.h>

/* The whole pages inside buf[0..n) dropped: read again, they would read as zeros (private
 * anonymous memory, as malloc() gives), so the caller reads none of buf[0..n) after this.
 * Where the kernel refuses, nothing: the pages stay as they were. */
void page_drop(const void *buf, size_t n);
