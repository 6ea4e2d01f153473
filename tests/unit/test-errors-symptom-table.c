// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The errors reader's symptom table as the build generates it (gen-errors-symptoms.c:
 * pasted-errors-symptoms-table.h, offsets into one string array) against the rows of
 * pasted-errors-symptoms.inc compiled as they are written: the same rows in the same order,
 * every string (needle, rule ids, also, unless) and flag equal, NULL where the row has none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-errors-symptom.h"
#include "shared/macro.h"

static const struct symptom written[] = {
#include "formats/pasted-errors-symptoms.inc"
};

#include "formats/pasted-errors-symptoms-table.h"

/* The generated string at off is the row's string s (0 for NULL). */
static void assert_same(const char *s, uint16_t off, size_t row)
{
	if (!s) {
		if (off)
			fail_msg("row %zu: \"%s\" where the row has none", row, symptom_text + off);
		return;
	}
	if (!off)
		fail_msg("row %zu: none where the row has \"%s\"", row, s);
	assert_true(off < sizeof(symptom_text));
	assert_string_equal(symptom_text + off, s);
}

static void test_rows_equal(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(symptoms), ARRAY_SIZE(written));
	assert_int_equal(symptom_text[0], '\0');
	for (size_t i = 0; i < ARRAY_SIZE(written); i++) {
		assert_non_null(written[i].needle);
		assert_same(written[i].needle, symptoms[i].needle, i + 1);
		assert_same(written[i].also, symptoms[i].also, i + 1);
		assert_same(written[i].unless, symptoms[i].unless, i + 1);
		for (size_t k = 0; k < ERRORS_MAX_IDS; k++)
			assert_same(written[i].rules[k], symptoms[i].rules[k], i + 1);
		assert_int_equal(written[i].unsure, symptoms[i].unsure);
		assert_int_equal(written[i].last, symptoms[i].last);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
