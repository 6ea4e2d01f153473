/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A large buffer about to be written whole (a file read into it, a window inflated into it)
 * faulted in writable in one call, madvise(MADV_POPULATE_WRITE) (Linux 5.14), its bytes
 * unchanged: on the virtual machines measured, a trap at each page as it is first written
 * cost more than the writing (docs/explain.md, "Performance: a whole
 * nvidia-bug-report.log.gz"). The same pages, the same memory, only taken at once.
 */
#pragma once

#include <stddef.h>

/* The whole pages of buf[0..n) faulted in writable. Where the kernel has no such advice,
 * nothing: they fault in as they are written, as without it. */
void prefault_write(void *buf, size_t n);
/* The same for pages only to be read (a program's code about to run):
 * madvise(MADV_POPULATE_READ); here every page buf[0..n) touches, the partial ones too. */
void prefault_read(const void *buf, size_t n);
