/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LTO-IR against nvJitLink (src/facts/ltoir.c) on a table of (LTO-IR version, nvJitLink
 * version) → verdict, from src/facts/data/ltoir.tsv's rows: CUDA 13.0 writes 1.65 and its
 * nvJitLink refuses 1.66 (observed), CUDA 11.7 writes 1.54 (a public cuobjdump listing).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "facts/facts.h"
#include "facts/ltoir.h"
#include "fatbin/fatbin.h"
#include "fatbin/fatbin-targets.h"

struct row {
	int ma, mi;	       /* the LTO-IR's version; -1 none */
	const char *nvjitlink; /* NULL: none found */
	const char *verdict;
	bool unconfirmed;
	const char *reason_has;
};

static const struct row rows[] = {
	/* the release the table has: its own bound, both ways */
	{ 1, 65, "13.0", "new-enough", false, "nvJitLink 13.0 is new enough" },
	{ 1, 65, "13.0.88", "new-enough", false, "up to 1.65, what CUDA 13.0 writes" },
	{ 1, 61, "13.0", "new-enough", false, "LTO-IR 1.61" },
	{ 1, 66, "13.0", "too-old", false, "may need newer version of nvJitLink library" },
	{ 2, 0, "13.0", "too-old", false, "too old to link it" },
	/* a later release, bounded by 13.0 from below within major 13 */
	{ 1, 65, "13.1", "new-enough", true, "CUDA 13.0 already writes LTO-IR 1.65" },
	{ 1, 66, "13.1", "unknown", false, "not in the knowledge base" },
	/* an earlier release, bounded by 13.0 from above */
	{ 1, 66, "12.4.127", "too-old", true, "even CUDA 13.0 writes only LTO-IR 1.65" },
	{ 1, 66, "12", "too-old", true, "nvJitLink 12.x too old" },
	{ 1, 65, "12.4", "unknown", false, "could not tell whether nvJitLink 12.4" },
	{ 1, 54, "12.4", "unknown", false, "not in the knowledge base" },
	/* 11.7's row is of another major: no lower bound for 12.x */
	{ 1, 50, "12", "unknown", false, "could not tell" },
	/* nothing to judge with */
	{ 1, 65, NULL, "none-found", false, "no libnvJitLink found" },
	{ -1, -1, "13.0", "unknown", false, "not in its header" },
	{ -1, -1, NULL, "unknown", false, "not in its header" },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct ltoir_result res;

		assert_int_equal(ltoir_judge("lto_90", r->ma, r->mi, r->nvjitlink, &res), 0);
		if (strcmp(ltoir_verdict_name(res.verdict), r->verdict) != 0 ||
		    res.unconfirmed != r->unconfirmed || !strstr(res.reason, r->reason_has) ||
		    !strstr(res.reason, "lto_90"))
			fail_msg("row %zu (%d.%d vs %s): got %s%s: %s", i, r->ma, r->mi,
				 r->nvjitlink ? r->nvjitlink : "none",
				 ltoir_verdict_name(res.verdict),
				 res.unconfirmed ? " (unconfirmed)" : "", res.reason);
	}
}

/* A row data/ltoir.tsv marks unconfirmed makes every answer resting on it unconfirmed, the
 * exact release's too; confirmed rows keep theirs (as the table test above shows). The rows
 * are made up here: the table has no unconfirmed row to test with. */
static void test_unconfirmed_row(void **state)
{
	static const struct facts_ltoir tab[] = {
		{ "12.8", 12, 8, "1.63", 1, 63, "unconfirmed", "", "" },
		{ "13.0", 13, 0, "1.65", 1, 65, "confirmed", "", "" },
	};
	struct ltoir_result res;

	(void)state;
	/* the release's own row, unconfirmed: both ways */
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", 1, 63, "12.8.93", &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "new-enough");
	assert_true(res.unconfirmed);
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", 1, 64, "12.8", &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "too-old");
	assert_true(res.unconfirmed);
	/* a lower bound from it within major 12 */
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", 1, 60, "12.9", &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "new-enough");
	assert_true(res.unconfirmed);
	/* the confirmed row alone: confirmed */
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", 1, 65, "13.0", &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "new-enough");
	assert_false(res.unconfirmed);
	/* no nvJitLink, no version: nothing rests on a row */
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", 1, 63, NULL, &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "none-found");
	assert_false(res.unconfirmed);
	assert_int_equal(ltoir_judge_on(tab, 2, "lto_90", -1, -1, "12.8", &res), 0);
	assert_string_equal(ltoir_verdict_name(res.verdict), "unknown");
	assert_false(res.unconfirmed);
}

static void test_inputs(void **state)
{
	struct ltoir_result res;

	(void)state;
	assert_int_equal(ltoir_judge(NULL, 1, 65, "13.0", &res), -EINVAL);
	assert_int_equal(ltoir_judge("lto_90", 1, 65, "13.0", NULL), -EINVAL);
	assert_int_equal(ltoir_judge("lto_90", 1, 65, "thirteen", &res), -EINVAL);
	assert_int_equal(ltoir_judge("lto_90", 1, 65, "", &res), -EINVAL);
}

static uint8_t *slurp_data(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	uint8_t *buf;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/ltoir/%s", GPUENV_TEST_SOURCE_ROOT, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The LTO-IR version of nvcc 13.0's fat binaries (tests/data/ltoir/README.md), read from the
 * entry header and, stored uncompressed, from the payload's own NVVM IR container; its
 * target carries it; nvJitLink 13.0 links it, 12.4 is not known. */
static void check_file(const char *name, bool from_payload, const char *target)
{
	struct fatbin_targets ts = { 0 };
	struct fatbin_result *r = NULL;
	struct ltoir_result lr;
	size_t len;
	uint8_t *buf = slurp_data(name, &len);

	assert_int_equal(fatbin_parse(buf, len, FATBIN_PARSE_PAYLOAD_HEADS, &r, NULL), 0);
	assert_int_equal(r->n_entries, 1);
	assert_int_equal(r->entries[0].kind, FATBIN_KIND_LTO);
	assert_string_equal(r->entries[0].target, target);
	assert_int_equal(r->entries[0].lto_major, 1);
	assert_int_equal(r->entries[0].lto_minor, 65);
	assert_int_equal(r->entries[0].lto_from_payload, from_payload);
	/* without the payload heads only the header is read: the same version */
	fatbin_result_free(r);
	r = NULL;
	assert_int_equal(fatbin_parse(buf, len, 0, &r, NULL), 0);
	assert_int_equal(r->entries[0].lto_major, 1);
	assert_int_equal(r->entries[0].lto_minor, 65);
	assert_false(r->entries[0].lto_from_payload);
	assert_int_equal(fatbin_targets_add_result(&ts, r), 0);
	assert_int_equal(ts.n, 1);
	assert_int_equal(ts.t[0].kind, FATBIN_TARGET_LTO);
	assert_int_equal(ts.t[0].lto_major, 1);
	assert_int_equal(ts.t[0].lto_minor, 65);
	assert_int_equal(
		ltoir_judge(ts.t[0].name, ts.t[0].lto_major, ts.t[0].lto_minor, "13.0.88", &lr), 0);
	assert_int_equal(lr.verdict, LTOIR_NVJITLINK_NEW_ENOUGH);
	assert_int_equal(
		ltoir_judge(ts.t[0].name, ts.t[0].lto_major, ts.t[0].lto_minor, "12.4.127", &lr),
		0);
	assert_int_equal(lr.verdict, LTOIR_CANNOT_TELL);
	fatbin_targets_done(&ts);
	fatbin_result_free(r);
	free(buf);
}

static void test_nvcc13_files(void **state)
{
	(void)state;
	check_file("lto90-nvcc13.0-uncompressed.fatbin", true, "lto_90");
	check_file("lto80-nvcc13.0.fatbin", false, "lto_80");
}

/* A payload whose container says another version than the header: the payload's wins (it is
 * what nvJitLink reads); a payload that is no container leaves the header's. */
static void test_payload_wins(void **state)
{
	struct fatbin_result *r = NULL;
	size_t len, pl;
	uint8_t *buf = slurp_data("lto90-nvcc13.0-uncompressed.fatbin", &len);

	(void)state;
	pl = 16 + (buf[16 + 4] | (size_t)buf[16 + 5] << 8); /* container + entry header */
	assert_int_equal(buf[pl], 0xed);
	buf[pl + 5] = 66;
	assert_int_equal(fatbin_parse(buf, len, FATBIN_PARSE_PAYLOAD_HEADS, &r, NULL), 0);
	assert_int_equal(r->entries[0].lto_minor, 66);
	assert_true(r->entries[0].lto_from_payload);
	fatbin_result_free(r);
	r = NULL;
	buf[pl] = 0; /* no magic */
	assert_int_equal(fatbin_parse(buf, len, FATBIN_PARSE_PAYLOAD_HEADS, &r, NULL), 0);
	assert_int_equal(r->entries[0].lto_minor, 65);
	assert_false(r->entries[0].lto_from_payload);
	fatbin_result_free(r);
	r = NULL;
	/* a header without a version: -1, judged "could not tell" */
	buf[16 + 0x18] = buf[16 + 0x19] = buf[16 + 0x1a] = buf[16 + 0x1b] = 0;
	assert_int_equal(fatbin_parse(buf, len, 0, &r, NULL), 0);
	assert_int_equal(r->entries[0].lto_major, -1);
	fatbin_result_free(r);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	     cmocka_unit_test(test_unconfirmed_row),
		cmocka_unit_test(test_inputs),	     cmocka_unit_test(test_nvcc13_files),
		cmocka_unit_test(test_payload_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
