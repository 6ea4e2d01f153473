// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The text renderers' word wrapping (src/output/out-wrap.c): lines fit the width, a word is
 * never cut, a character is one column (UTF-8) and a colour sequence none, continuation lines
 * hang under their indent and prefix, the first word moves down where that gives it more room
 * (and the label before it keeps no trailing blank). Words of eight bytes and more, ASCII and
 * not, with and without a colour sequence, run through each way a word is measured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "output/output.h"
#include "shared/strbuf.h"

/* out_wrap() of text after `before`, as one string. */
static void check(const char *before, const char *text, size_t first, size_t indent, size_t width,
		  const char *prefix, size_t min_gap, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, before);
	out_wrap(&sb, text, first, indent, width, prefix, min_gap);
	assert_int_equal(sb.err, 0);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_done(&sb);
}

static void test_fits(void **state)
{
	check("", "a b  c", 0, 4, 80, NULL, 1, "a b  c\n");
	check("", "  a  ", 0, 4, 80, NULL, 1, "a\n"); /* blanks around the text dropped */
	check("", "", 0, 4, 80, NULL, 1, "\n");
	check("", "   ", 0, 4, 80, NULL, 1, "\n");
}

static void test_breaks_at_blanks(void **state)
{
	check("", "aaaa bbbb cccc", 0, 2, 10, NULL, 1, "aaaa bbbb\n  cccc\n");
	/* a word longer than any line stands alone, uncut */
	check("", "x verylongwordthatdoesnotfit y", 0, 0, 10, NULL, 1,
	      "x\nverylongwordthatdoesnotfit\ny\n");
	/* a word that fills the line exactly stays on it */
	check("", "abcd efgh", 0, 0, 9, NULL, 1, "abcd efgh\n");
}

static void test_columns_not_bytes(void **state)
{
	/* ten bytes, five columns each */
	check("", "ééééé ééééé", 0, 0, 11, NULL, 1, "ééééé ééééé\n");
	check("", "ééééé ééééé", 0, 0, 10, NULL, 1, "ééééé\nééééé\n");
	/* a colour sequence takes no room */
	check("", "\033[1mabcd\033[0m efgh", 0, 0, 9, NULL, 1, "\033[1mabcd\033[0m efgh\n");
	check("", "\033[1mcudaErrorNoKernelImageForDevice\033[0m x", 0, 0, 33, NULL, 1,
	      "\033[1mcudaErrorNoKernelImageForDevice\033[0m x\n");
	check("", "\033[1mcudaErrorNoKernelImageForDevice\033[0m x", 0, 0, 32, NULL, 1,
	      "\033[1mcudaErrorNoKernelImageForDevice\033[0m\nx\n");
	/* long words, ASCII and not */
	check("", "/usr/lib/x86_64-linux-gnu/libcuda.so.1 and ÜberlangeWörterkette", 0, 0, 40, NULL,
	      1, "/usr/lib/x86_64-linux-gnu/libcuda.so.1\nand ÜberlangeWörterkette\n");
	check("", "ÜberlangeWörterkette ÜberlangeWörterkette", 0, 0, 41, NULL, 1,
	      "ÜberlangeWörterkette ÜberlangeWörterkette\n");
	check("", "ÜberlangeWörterkette ÜberlangeWörterkette", 0, 0, 40, NULL, 1,
	      "ÜberlangeWörterkette\nÜberlangeWörterkette\n");
}

static void test_first_word_moves_down(void **state)
{
	/* after a 10-column label, a word that fits only on a line of its own moves down,
	 * and the label keeps no trailing blank */
	check("label     ", "abcdefghijklmno", 10, 2, 20, NULL, 1, "label\n  abcdefghijklmno\n");
	/* not where the next line gives it no more room */
	check("label ", "abcdefghijklmnopqrstuvwxyz", 6, 6, 20, NULL, 1,
	      "label abcdefghijklmnopqrstuvwxyz\n");
}

static void test_prefix_and_min_gap(void **state)
{
	check("", "one two three", 4, 2, 12, "# ", 1, "one two\n  # three\n");
	/* fields separated by two blanks; one blank does not break ("71.25 W") */
	check("", "71.25 W  cap 300 W", 0, 0, 12, NULL, 2, "71.25 W\ncap 300 W\n");
	check("", "71.25 W  cap 300 W", 0, 0, 18, NULL, 2, "71.25 W  cap 300 W\n");
}

static void test_text_cols(void **state)
{
	const char *s = "é日\033[1mx\033[0m";

	assert_int_equal(out_text_cols(s, strlen(s)), 3);
	s = "\033[1mcudaErrorNoKernelImageForDevice\033[0m and ÜberlangeWörterkette";
	assert_int_equal(out_text_cols(s, strlen(s)), 31 + 5 + 20);
	/* a sequence cut off at the end of the text */
	s = "abcdefghij\033[1";
	assert_int_equal(out_text_cols(s, strlen(s)), 10);
	assert_int_equal(out_text_cols("abcdefgh", 4), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_breaks_at_blanks),
		cmocka_unit_test(test_columns_not_bytes),
		cmocka_unit_test(test_first_word_moves_down),
		cmocka_unit_test(test_prefix_and_min_gap),
		cmocka_unit_test(test_text_cols),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
