/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A large buffer about to be written whole (a file read into it, a window inflated into it)
 * faulted in writable in one call, madvise(MADV_POPULATE_WRITE) (Linux 5.14), its bytes
 * unchanged: on the virtual machines measured, a trap at each page as it is first written
 * cost more than the writing (docs/explain.md, "Performance: a whole
 * nvidia-bug-report.log.gz"). The same pages, the same memory, only taken at once.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The whole pages inside buf[0..n), [*ret_from, *ret_to): whether there is one. */
bool whole_pages(const void *buf, size_t n, uintptr_t *ret_from, uintptr_t *ret_to);

/* The whole pages of buf[0..n) faulted in writable. Where the kernel has no such advice,
 * nothing: they fault in as they are written, as without it. */
void prefault_write(void *buf, size_t n);
/* The same for pages only to be read (a program's code about to run):
 * madvise(MADV_POPULATE_READ); here every page buf[0..n) touches, the partial ones too. */
void prefault_read(const void *buf, size_t n);
/* The pages of buf[0..n), about to be written, faulted in (prefault_write) and each then
 * written once (a zero byte: buf's bytes are the caller's to write after): on the virtual
 * machine measured (shadow paging, it seems), a page's first touch by the process, not the
 * fault, was the cost, however it was faulted in (~10 us a page, measured:
 * docs/explain.md, "Performance: a whole nvidia-bug-report.log.gz"), and it falls on the
 * thread that touches first: one that has nothing else to do yet. */
void prefault_touch(void *buf, size_t n);
