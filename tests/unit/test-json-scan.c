// SPDX-License-Identifier: LGPL-2.1-or-later
/* The streaming JSON reader (src/formats/json-scan.c): the events and paths of a document,
 * skipping, the grammar it refuses (RFC 8259), the depth cap, and string decoding. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/json-scan.h"

struct trace {
	char out[2048];
	size_t len;
	const char *skip_key; /* containers under this key are skipped */
};

static int record(void *userdata, const struct json_scan_item *it)
{
	static const char *const names[] = {
		"{", "[", "end", "str", "num", "true", "false", "null"
	};
	struct trace *t = userdata;

	t->len +=
		(size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len, "%s:", names[it->event]);
	for (unsigned i = 0; i < it->depth; i++) {
		if (it->path[i].key)
			t->len +=
				(size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len, "/%.*s",
						 (int)it->path[i].key_len, it->path[i].key);
		else
			t->len += (size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len, "/%zu",
						   it->path[i].index);
	}
	if (it->value)
		t->len += (size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len, "=%.*s",
					   (int)it->value_len, it->value);
	t->len += (size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len, " ");
	if (t->skip_key && it->depth &&
	    json_scan_seg_is(&it->path[it->depth - 1], t->skip_key, strlen(t->skip_key)))
		return JSON_SCAN_SKIP;
	return JSON_SCAN_DESCEND;
}

static void test_events(void **state)
{
	struct trace t = { 0 };
	const char *doc =
		" {\"a\": [1, \"x\\\"y\"], \"b\": {\"c\": true, \"d\": null}, \"e\": {}} ";

	assert_int_equal(json_scan(doc, strlen(doc), record, &t, NULL), 0);
	assert_string_equal(t.out, "{: [:/a num:/a/0=1 str:/a/1=x\\\"y end:/a {:/b true:/b/c=true "
				   "null:/b/d=null end:/b {:/e end:/e end: ");
}

static void test_skip(void **state)
{
	struct trace t = { .skip_key = "b" };
	const char *doc = "{\"b\": {\"c\": [1, {\"]\": \"}\"}]}, \"z\": -0.5e+3}";

	assert_int_equal(json_scan(doc, strlen(doc), record, &t, NULL), 0);
	assert_string_equal(t.out, "{: {:/b num:/z=-0.5e+3 end: ");
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"",   "{",	     "{\"a\":1,}", "[1,]", "{\"a\" 1}",	   "{a:1}", "[1 2]",
		"01", "-",	     "1.",	   "1e",   "tru",	   "\"abc", "{} {}",
		"[}", "{\"b\":[}]}", "{\"b\":{]}", "nul",  "[\"a\"\"b\"]",
	};
	struct trace t = { .skip_key = "b" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct json_scan_error e = { 0 };

		t.len = 0;
		print_message("%s\n", bad[i]);
		assert_int_equal(json_scan(bad[i], strlen(bad[i]), record, &t, &e), -EBADMSG);
		assert_non_null(e.reason);
	}
}

/* descends everywhere except under the key "b" */
static int descend(void *userdata, const struct json_scan_item *it)
{
	if (it->depth && json_scan_seg_is(&it->path[it->depth - 1], "b", 1))
		return JSON_SCAN_SKIP;
	return JSON_SCAN_DESCEND;
}

static void test_depth(void **state)
{
	char doc[2 * (JSON_SCAN_MAX_DEPTH + 1) + 1];

	memset(doc, '[', JSON_SCAN_MAX_DEPTH + 1);
	memset(doc + JSON_SCAN_MAX_DEPTH + 1, ']', JSON_SCAN_MAX_DEPTH + 1);
	doc[sizeof(doc) - 1] = '\0';
	assert_int_equal(json_scan(doc, strlen(doc), descend, NULL, NULL), -E2BIG);
	/* the same depth inside a skipped container is refused too */
	{
		char wrapped[sizeof(doc) + 16];

		snprintf(wrapped, sizeof(wrapped), "{\"b\":%s}", doc);
		assert_int_equal(json_scan(wrapped, strlen(wrapped), descend, NULL, NULL), -E2BIG);
	}
	/* one level less is fine */
	doc[JSON_SCAN_MAX_DEPTH] = ' ';
	doc[JSON_SCAN_MAX_DEPTH + 1] = ' ';
	assert_int_equal(json_scan(doc, strlen(doc), descend, NULL, NULL), 0);
}

static int stop(void *userdata, const struct json_scan_item *it)
{
	return it->event == JSON_SCAN_NUMBER ? -ECANCELED : 0;
}

static void test_callback_stops(void **state)
{
	assert_int_equal(json_scan("[\"a\", 2, 3]", 11, stop, NULL, NULL), -ECANCELED);
}

static void test_unescape(void **state)
{
	char out[32];
	size_t len;

	assert_int_equal(
		json_scan_unescape("a\\n\\\"\\u00e9\\ud83d\\ude00", 23, out, sizeof(out), &len), 0);
	assert_string_equal(out, "a\n\"\xc3\xa9\xf0\x9f\x98\x80");
	assert_int_equal(len, 9);
	assert_int_equal(json_scan_unescape("\\ud800", 6, out, sizeof(out), NULL), -EBADMSG);
	assert_int_equal(json_scan_unescape("\\ude00", 6, out, sizeof(out), NULL), -EBADMSG);
	assert_int_equal(json_scan_unescape("\\u0000", 6, out, sizeof(out), NULL), -EBADMSG);
	assert_int_equal(json_scan_unescape("\\x", 2, out, sizeof(out), NULL), -EBADMSG);
	assert_int_equal(json_scan_unescape("a\tb", 3, out, sizeof(out), NULL), -EBADMSG);
	assert_int_equal(json_scan_unescape("abcd", 4, out, 4, NULL), -ENOSPC);
	assert_int_equal(json_scan_unescape("abc", 3, out, 4, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),	       cmocka_unit_test(test_skip),
		cmocka_unit_test(test_refused),	       cmocka_unit_test(test_depth),
		cmocka_unit_test(test_callback_stops), cmocka_unit_test(test_unescape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
