/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * snprintf, vsnprintf and vasprintf with the same output, formatting the conversions the
 * project's keys and messages are made of (%s, %.Ns, %.*s, %c, %d, %i, %u with the length
 * modifiers l, ll and z, %%) without stdio's set-up of a string stream for every call:
 * glibc's snprintf costs some 700 instructions before it writes a byte, and explain of a
 * 20 KB paste made some 500 such calls (docs/explain.md, "Performance: a typical paste").
 * Any other format (a flag, a width, another conversion or modifier) goes to libc's
 * vsnprintf as it is, the arguments untouched.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>

#include "macro.h"

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) _printf_(3, 0);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...) _printf_(3, 4);
/* vasprintf's contract: *ret a malloc'ed string and its length, or -1 (*ret undefined). */
int fmt_vasprintf(char **ret, const char *fmt, va_list ap) _printf_(2, 0);
int fmt_asprintf(char **ret, const char *fmt, ...) _printf_(2, 3);
