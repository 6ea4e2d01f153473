/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pages a short run (`gpuenv explain` of a paste) is about to touch first, mapped in a
 * few madvise(MADV_POPULATE_READ/WRITE) calls (Linux 5.14) at its start instead of a trap at
 * each: the program's code, the heap's first pages and the stack's next ones. On the virtual
 * machines measured, a trap cost 10-27 us and a page mapped by the call under 5 us
 * (docs/explain.md, "Performance: a typical paste"). Nothing is read or written: the same
 * pages, only taken at once; where the kernel has no such advice, they fault in as before.
 */
#pragma once

void start_prefault(void);
