// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of src/shared/fmt.c: every output, return value and truncation the same as libc's
 * snprintf and asprintf, for the conversions it formats and for those it hands to libc. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <wchar.h>
#include <cmocka.h>

#include "shared/fmt.h"

/* fmt_snprintf against snprintf into buffers of every size from 0 to two bytes past the
 * output (a canary after each), and fmt_asprintf against asprintf. */
#define SAME(...)                                                                                  \
	do {                                                                                       \
		char want[512], got[512], *wa = NULL, *ga = NULL;                                  \
		int wn = snprintf(NULL, 0, __VA_ARGS__), gn, wan, gan;                             \
                                                                                                   \
		assert_true(wn >= 0 && wn < 500);                                                  \
		assert_int_equal(fmt_snprintf(NULL, 0, __VA_ARGS__), wn);                          \
		for (size_t size = 1; size <= (size_t)wn + 2; size++) {                            \
			memset(want, 'X', sizeof(want));                                           \
			memset(got, 'X', sizeof(got));                                             \
			assert_int_equal(snprintf(want, size, __VA_ARGS__), wn);                   \
			gn = fmt_snprintf(got, size, __VA_ARGS__);                                 \
			assert_int_equal(gn, wn);                                                  \
			assert_memory_equal(got, want, size + 1);                                  \
		}                                                                                  \
		wan = asprintf(&wa, __VA_ARGS__);                                                  \
		gan = fmt_asprintf(&ga, __VA_ARGS__);                                              \
		assert_int_equal(gan, wan);                                                        \
		assert_memory_equal(ga, wa, (size_t)wan + 1);                                      \
		free(wa);                                                                          \
		free(ga);                                                                          \
	} while (0)

static void test_fmt_simple(void **state)
{
	const char *volatile none = NULL; /* a null %s, which gcc would see if it were a literal */
	static const char utf8[] = "caf\xc3\xa9 \xe2\x9c\x93";

	(void)state;
	SAME("plain text");
	SAME("%s", "");
	SAME("%%");
	SAME("100%% of %s", "it");
	SAME("%s.%s.%zu.bus_id", "driver", "kernel_log", (size_t)3);
	SAME("framework.python_envs.%zu.packages.%s", (size_t)12, "torch");
	SAME("%.80s/bin/python", "/opt/conda/envs/a-very-long-environment-name-that-goes-on/and-on-"
				 "and-on-past-the-eighty-bytes-of-the-precision");
	SAME("/usr/bin/python%.16s", "3.10");
	SAME("%.0s|%.1s|%.s|%.6s|%.5s", "abc", "abc", "abc", none, none);
	SAME("%s and %.3s", none, none);
	SAME("%.*s|%.*s|%.*s", 3, "abcdef", -1, "abcdef", 0, "abcdef");
	SAME("%.*s", 2, utf8 + 3); /* precision in bytes, a character cut as libc cuts it */
	SAME("%s", utf8);
	SAME("%c%c%c", 'a', 0xe9, '\n');
	SAME("[%c]", 0); /* a NUL written and counted */
	SAME("%d %i %d %d", 0, -1, INT_MAX, INT_MIN);
	SAME("%u %u", 0u, UINT_MAX);
	SAME("%ld %lu %ld", LONG_MIN, ULONG_MAX, 42L);
	SAME("%lld %llu %lld", LLONG_MIN, ULLONG_MAX, LLONG_MAX);
	SAME("%zu %zd %zd", SIZE_MAX, (ssize_t)-5, (ssize_t)SSIZE_MAX);
	SAME("line %u: %s (%d)", 12u, "text", -209);
	SAME("%s%s%s%s%s%s%s%s%s%s", "a", "bb", "", "ccc", "d", "", "eeeee", "f", "gg", "h");
}

/* What fmt.c leaves to libc: the same output because it is libc's. */
static void test_fmt_handed_on(void **state)
{
	(void)state;
	SAME("%5s|%-5s|", "ab", "cd");
	SAME("%05d %+d % d %x %X %#x %o", 42, 42, 42, 255, 255, 255, 8);
	SAME("%.2d %3u", 7, 9u);
	SAME("%.2f %g %e", 3.14159, 0.5, 12345.678);
	SAME("%p", (void *)0x1000);
	SAME("%hhu %hu %hd", 300, 70000, -3);
	SAME("%jd %td", (intmax_t)-7, (ptrdiff_t)8);
	SAME("%2$s %1$s", "world", "hello");
	SAME("%ls", L"wide");
	SAME("%lc", (wint_t)L'w');
	SAME("%.*d", 4, 12);
	SAME("%s %08.3f", "mixed", 2.5);
}

/* Random values through the formats the project's keys and messages use. */
static void test_fmt_random(void **state)
{
	static const char *const words[] = { "",
					     "a",
					     "torch",
					     "NVRM: Xid",
					     "caf\xc3\xa9",
					     "0000:8a:00.0",
					     "a longer text with spaces in it" };
	unsigned seed = 12345;

	(void)state;
	for (int i = 0; i < 2000; i++) {
		long long v;
		const char *w1, *w2;
		int prec;

		seed = seed * 1103515245u + 12345u;
		/* the top bit from the seed too: negative values, LLONG_MIN's neighbours */
		v = (long long)((((unsigned long long)seed << 33) ^ (seed * 2654435761u)) +
				(unsigned long long)(seed % 3) * (unsigned long long)LLONG_MAX);
		w1 = words[seed % (sizeof(words) / sizeof(words[0]))];
		w2 = words[(seed >> 8) % (sizeof(words) / sizeof(words[0]))];
		prec = (int)(seed >> 16) % 12 - 2;
		SAME("%s.%zu.%s", w1, (size_t)v, w2);
		SAME("%d|%u|%ld|%lu", (int)v, (unsigned)v, (long)v, (unsigned long)v);
		SAME("%lld %llu %zd", v, (unsigned long long)v, (ssize_t)v);
		SAME("%.*s|%.3s|%c", prec, w1, w2, (int)(v & 0xff));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_simple),
		cmocka_unit_test(test_fmt_handed_on),
		cmocka_unit_test(test_fmt_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
