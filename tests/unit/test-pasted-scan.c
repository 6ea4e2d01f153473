// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one-pass needle scan of pasted text (src/formats/pasted-scan.c): every needle found
 * wherever it stands (line start and end, overlapping others, sharing its first four bytes
 * with another, at every offset of a text of any length), case folded only where asked, and
 * nothing found that is not there; and the same needles found as a search at every position
 * finds, over random needle sets and texts of few letters (where needles overlap and share
 * their first bytes often).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "formats/pasted-scan.h"

static const struct pasted_needle needles[] = {
	{ "NVRM: Xid (", false },
	{ "NVRM: API mismatch", false }, /* the same first four bytes as the one before */
	{ "cuda", true },
	{ "Required key not available", false },
};

static void found_of(const char *text, bool found[4])
{
	struct pasted_scan sc;

	memset(found, 0, 4 * sizeof(bool));
	assert_int_equal(pasted_scan_init(&sc, needles, 4), 0);
	pasted_scan_mark(&sc, text, strlen(text), found);
	assert_int_equal(pasted_scan_any(&sc, text, strlen(text)),
			 found[0] || found[1] || found[2] || found[3]);
}

static void test_each_needle_where_it_stands(void **state)
{
	bool f[4];

	(void)state;
	found_of("[ 5.1] NVRM: Xid (PCI:0000:01:00): 79", f);
	assert_true(f[0] && !f[1] && !f[2] && !f[3]);
	found_of("NVRM: API mismatch: the client has the version 535", f);
	assert_true(!f[0] && f[1]);
	found_of("x NVRM: API mismatch NVRM: Xid (", f); /* both, the second at the very end */
	assert_true(f[0] && f[1]);
	found_of("modprobe: ERROR: could not insert 'nvidia': Required key not available", f);
	assert_true(f[3] && !f[0] && !f[1] && !f[2]);
}

static void test_case_folded_only_where_asked(void **state)
{
	bool f[4];

	(void)state;
	found_of("/usr/local/CUDA-12.4/lib64", f);
	assert_true(f[2]);
	found_of("CuDa", f);
	assert_true(f[2]);
	found_of("nvrm: xid (", f); /* a case-sensitive needle in other case */
	assert_false(f[0] || f[1] || f[2] || f[3]);
	found_of("required key not available", f);
	assert_false(f[3]);
}

static void test_nothing_that_is_not_there(void **state)
{
	bool f[4];

	(void)state;
	found_of("", f);
	assert_false(f[0] || f[1] || f[2] || f[3]);
	found_of("cud", f); /* shorter than the needle */
	assert_false(f[2]);
	found_of("NVRM: Xid", f); /* cut before its end */
	assert_false(f[0]);
	found_of("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05", f);
	assert_false(f[0] || f[1] || f[2] || f[3]);
}

/* The scan reads eight bytes at a time where it can and one at a time near the end: a needle
 * is found at every offset of texts of every length around those edges, and tags name it. */
static void test_every_offset_and_length(void **state)
{
	static const uint64_t tags[4] = { 1, 2, 4, 8 };
	struct pasted_scan sc;
	char text[40];

	(void)state;
	assert_int_equal(pasted_scan_init(&sc, needles, 4), 0);
	for (size_t len = 4; len < sizeof(text); len++)
		for (size_t at = 0; at + 4 <= len; at++) {
			bool f[4] = { false };

			memset(text, '.', len);
			memcpy(text + at, "CUDA", 4);
			pasted_scan_mark(&sc, text, len, f);
			assert_true(f[2] && !f[0] && !f[1] && !f[3]);
			assert_true(pasted_scan_any(&sc, text, len));
			assert_int_equal(pasted_scan_tags(&sc, tags, text, len), 4);
			/* cut one byte short of its end: not there */
			assert_false(pasted_scan_any(&sc, text, at + 3));
			assert_int_equal(pasted_scan_tags(&sc, tags, text, at + 3), 0);
		}
}

/* A small generator of its own (xorshift64), so that the texts are the same on every run. */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The scan tests every second position's three bytes first (pasted-scan.h): against a
 * comparison at every position, over 20,000 random sets of 1-40 needles of 4-8 bytes and
 * texts of 0-79 bytes, each text in a buffer of its own size (a read past it is
 * AddressSanitizer's). */
static void test_same_as_a_search_at_every_position(void **state)
{
	static const char letters[] = "abcAB ";
	char store[40][9];
	struct pasted_needle set[40];
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n = 1 + next_random(&x) % 40, len = next_random(&x) % 80;
		bool found[40] = { false }, want[40] = { false };
		uint64_t tags[40], want_tags = 0;
		struct pasted_scan sc;
		char *text = test_malloc(len + 1);

		for (size_t i = 0; i < n; i++) {
			size_t l = 4 + next_random(&x) % 5;

			for (size_t k = 0; k < l; k++)
				store[i][k] = letters[next_random(&x) % 6];
			store[i][l] = '\0';
			set[i] = (struct pasted_needle){ store[i], next_random(&x) % 2 };
			tags[i] = (uint64_t)1 << i;
		}
		for (size_t k = 0; k < len; k++)
			text[k] = letters[next_random(&x) % 6];
		assert_int_equal(pasted_scan_init(&sc, set, n), 0);
		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(store[i]);

			for (size_t at = 0; at + l <= len && !want[i]; at++)
				want[i] = set[i].nocase ? strncasecmp(text + at, store[i], l) == 0
							: memcmp(text + at, store[i], l) == 0;
			if (want[i])
				want_tags |= tags[i];
		}
		pasted_scan_mark(&sc, text, len, found);
		assert_memory_equal(found, want, sizeof(found));
		assert_int_equal(pasted_scan_tags(&sc, tags, text, len), want_tags);
		assert_int_equal(pasted_scan_any(&sc, text, len), want_tags != 0);
		test_free(text);
	}
}

static void test_bad_sets_refused(void **state)
{
	static const struct pasted_needle short_one[] = { { "abc", false } };
	struct pasted_scan sc;

	(void)state;
	assert_int_equal(pasted_scan_init(&sc, short_one, 1), -EINVAL);
	assert_int_equal(pasted_scan_init(&sc, needles, PASTED_SCAN_MAX + 1), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_needle_where_it_stands),
		cmocka_unit_test(test_case_folded_only_where_asked),
		cmocka_unit_test(test_nothing_that_is_not_there),
		cmocka_unit_test(test_every_offset_and_length),
		cmocka_unit_test(test_same_as_a_search_at_every_position),
		cmocka_unit_test(test_bad_sets_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
