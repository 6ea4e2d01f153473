/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Small language helpers shared by every layer: cleanup attributes and ownership transfer
 * (the kmod shared/macro.h and systemd idiom), array sizes, attribute shorthands.
 * Knows nothing about GPUs.
 */
#pragma once

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define _cleanup_(f)   __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _must_check_   __attribute__((warn_unused_result))
#define _nonnull_(...) __attribute__((nonnull(__VA_ARGS__)))
#define _unused_       __attribute__((unused))
#define _pure_	       __attribute__((pure))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)     ((a) < (b) ? (a) : (b))
#define MAX(a, b)     ((a) > (b) ? (a) : (b))

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
#define _cleanup_close_ _cleanup_(closep)

/* Hand ownership out of a _cleanup_ variable: the variable becomes NULL. */
#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		typeof(p) _take_tmp_ = (p);                                                        \
		(p) = NULL;                                                                        \
		_take_tmp_;                                                                        \
	})
#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int _take_fd_ = (fd);                                                              \
		(fd) = -1;                                                                         \
		_take_fd_;                                                                         \
	})

#define streq(a, b)	(strcmp((a), (b)) == 0)
#define strneq(a, b, n) (strncmp((a), (b), (n)) == 0)

/* Does s start with prefix? Its first byte is compared before strncmp is called: most strings
 * tested so (a pasted line against a reader's prefixes) differ there, and the call is what
 * costs (docs/explain.md, "Performance: a typical paste"). */
static inline bool startswith(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return n == 0 || (s[0] == prefix[0] && strncmp(s, prefix, n) == 0);
}
