/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The "\n" in p[0..n): what a line number is made of. Counted 255 bytes at a time into a byte,
 * a loop the compiler vectorises (SSE2 on x86-64, plain bytes elsewhere); byte by byte into a
 * size_t it cost eight instructions a byte, this under one (docs/explain.md).
 */
#pragma once

#include <limits.h>
#include <stddef.h>

static inline size_t count_newlines(const char *p, size_t n)
{
	size_t lines = 0;

	for (size_t i = 0; i < n;) {
		unsigned char in_run = 0;

		for (size_t e = i + (n - i < UCHAR_MAX ? n - i : UCHAR_MAX); i < e; i++)
			in_run += p[i] == '\n';
		lines += in_run;
	}
	return lines;
}
