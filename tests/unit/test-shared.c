// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of src/shared: strict number/version parsing, the capped strbuf, strv helpers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "shared/parse.h"
#include "shared/strbuf.h"
#include "shared/strv.h"
#include "locale-fx.h"
#include "shared/utf8.h"

static void test_parse_u64(void **state)
{
	uint64_t v;

	assert_int_equal(parse_u64("0x10de\n", 0, &v), 0);
	assert_int_equal(v, 0x10de);
	assert_int_equal(parse_u64("4096", 10, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_u64("10de", 16, &v), 0);
	assert_int_equal(v, 0x10de);
	assert_int_equal(parse_u64("-1", 10, &v), -EINVAL);
	assert_int_equal(parse_u64("12abc", 10, &v), -EINVAL);
	assert_int_equal(parse_u64("", 10, &v), -EINVAL);
	assert_int_equal(parse_u64("99999999999999999999999", 10, &v), -ERANGE);
	assert_int_equal(parse_u64("1\n\n", 10, &v), -EINVAL);
}

static void test_parse_decimal_prefix(void **state)
{
	const char *end;
	uint64_t v;

	assert_int_equal(parse_decimal_prefix("2.5 GT/s PCIe", 3, &v, &end), 0);
	assert_int_equal(v, 2500);
	assert_string_equal(end, " GT/s PCIe");
	assert_int_equal(parse_decimal_prefix("16.0", 3, &v, &end), 0);
	assert_int_equal(v, 16000);
	assert_int_equal(parse_decimal_prefix("64", 3, &v, &end), 0);
	assert_int_equal(v, 64000);
	assert_int_equal(parse_decimal_prefix("8.125x", 3, &v, &end), 0);
	assert_int_equal(v, 8125);
	assert_string_equal(end, "x");
	assert_int_equal(parse_decimal_prefix("0.5", 0, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("1.2345", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("2,5", 3, &v, &end),
			 0); /* the comma is not a point */
	assert_int_equal(v, 2000);
	assert_string_equal(end, ",5");
	assert_int_equal(parse_decimal_prefix("2.", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix(".5", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("-1", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("Unknown", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("", 3, &v, &end), -EINVAL);
	assert_int_equal(parse_decimal_prefix("18446744073709551615", 0, &v, &end), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_decimal_prefix("18446744073709551616", 0, &v, &end), -ERANGE);
	assert_int_equal(parse_decimal_prefix("18446744073709551615", 1, &v, &end), -ERANGE);
}

static void test_parse_hex_digit(void **state)
{
	assert_int_equal(parse_hex_digit('0'), 0);
	assert_int_equal(parse_hex_digit('9'), 9);
	assert_int_equal(parse_hex_digit('a'), 10);
	assert_int_equal(parse_hex_digit('F'), 15);
	assert_int_equal(parse_hex_digit('g'), -1);
	assert_int_equal(parse_hex_digit('\0'), -1);
	assert_int_equal(parse_hex_digit((char)0xe1), -1);
}

static void test_version(void **state)
{
	struct version a, b;
	const char *end;

	assert_int_equal(version_parse("570.124.06", &a), 0);
	assert_int_equal(version_parse("570.86.10", &b), 0);
	assert_true(version_cmp(&a, &b) > 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.part[2], 6);
	assert_int_equal(version_cmp_str("12.4", "12.4.0"), 0);
	assert_true(version_cmp_str("12.10", "12.9") > 0);
	assert_int_equal(version_parse("12.", &a), -EINVAL);
	assert_int_equal(version_parse("x12", &a), -EINVAL);
	assert_int_equal(version_parse_prefix("2.4.0+cu124", &a, &end), 0);
	assert_string_equal(end, "+cu124");
	assert_int_equal(a.n, 3);
	assert_int_equal(version_parse("1.2.3.4.5.6", &a), -EINVAL);
}

static void test_cuda_version_format(void **state)
{
	char buf[16];

	cuda_version_format(12040, buf, sizeof(buf));
	assert_string_equal(buf, "12.4");
	cuda_version_format(13000, buf, sizeof(buf));
	assert_string_equal(buf, "13.0");
}

/* Control bytes from a file's text are written as \xHH; UTF-8 and the rest stay. */
static void test_strbuf_put_printable(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_put_printable(&sb, "lib\033[31mred\t.so \xc3\xa9\x7f"), 0);
	assert_string_equal(strbuf_str(&sb), "lib\\x1b[31mred\\x09.so \xc3\xa9\\x7f");
	strbuf_reset(&sb);
	assert_int_equal(strbuf_put_printable(&sb, ""), 0);
	assert_string_equal(strbuf_str(&sb), "");
	assert_int_equal(strbuf_put_printable(&sb, "\n"), 0);
	assert_string_equal(strbuf_str(&sb), "\\x0a");
	strbuf_reset(&sb);
	/* U+009B (C2 9B) is CSI to xterm; U+00A0 (C2 A0) is an ordinary character */
	assert_int_equal(strbuf_put_printable(&sb, "a\xc2\x9b"
						   "31m\xc2\xa0\xc2"),
			 0);
	assert_string_equal(strbuf_str(&sb), "a\\xc2\\x9b"
					     "31m\xc2\xa0\xc2");
	strbuf_done(&sb);
}

/* What a buffer with a sink was given, each piece's end recorded. */
struct sink_seen {
	struct strbuf all;
	size_t pieces;
	bool piece_not_at_line_end;
	int fail_after; /* pieces accepted before the sink fails (0: never fails) */
};

static int sink_collect(void *userdata, const char *p, size_t n)
{
	struct sink_seen *s = userdata;

	if (s->fail_after && s->pieces == (size_t)s->fail_after)
		return -EPIPE;
	s->pieces++;
	if (n && p[n - 1] != '\n')
		s->piece_not_at_line_end = true;
	return strbuf_add(&s->all, p, n);
}

static void test_strbuf_sink(void **state)
{
	struct strbuf plain = STRBUF_INIT, sb;
	struct sink_seen seen = { .all = STRBUF_INIT };

	(void)state;
	strbuf_init_sink(&sb, 0, sink_collect, &seen);
	for (unsigned i = 0; i < 3000; i++) {
		/* lines of every length, some made of several appends, one long */
		strbuf_printf(&plain, "line %u: %*s", i, (int)(i % 97), "");
		strbuf_printf(&sb, "line %u: %*s", i, (int)(i % 97), "");
		if (i == 1500) {
			for (unsigned k = 0; k < 2000; k++) {
				strbuf_puts(&plain, "word ");
				strbuf_puts(&sb, "word ");
			}
		}
		strbuf_putc(&plain, '\n');
		strbuf_putc(&sb, '\n');
		/* the line being made stays in the buffer, to be looked back along */
		strbuf_puts(&sb, "ab  ");
		assert_true(sb.len >= 4);
		assert_memory_equal(sb.buf + sb.len - 4, "ab  ", 4);
		sb.len -= 4;
		sb.buf[sb.len] = '\0';
	}
	assert_int_equal(strbuf_flush(&sb), 0);
	assert_int_equal(sb.len, 0);
	assert_true(sb.alloc <= 16384); /* the long line's 10 KB, not the whole 150 KB */
	assert_true(seen.pieces > 10);
	assert_false(seen.piece_not_at_line_end);
	assert_int_equal(seen.all.len, plain.len);
	assert_string_equal(strbuf_str(&seen.all), strbuf_str(&plain));
	assert_int_equal(sb.written, plain.len);
	strbuf_done(&sb);
	strbuf_done(&seen.all);
	strbuf_done(&plain);

	/* the cap counts what was written out too */
	seen = (struct sink_seen){ .all = STRBUF_INIT };
	strbuf_init_sink(&sb, 10000, sink_collect, &seen);
	for (unsigned i = 0; i < 1000 && !sb.err; i++)
		strbuf_puts(&sb, "0123456789abcdef\n");
	assert_int_equal(sb.err, -EFBIG);
	assert_true(seen.all.len <= 10000);
	strbuf_done(&sb);
	strbuf_done(&seen.all);

	/* a sink's error is the buffer's, kept */
	seen = (struct sink_seen){ .all = STRBUF_INIT, .fail_after = 1 };
	strbuf_init_sink(&sb, 0, sink_collect, &seen);
	for (unsigned i = 0; i < 2000; i++)
		strbuf_puts(&sb, "0123456789abcdef\n");
	assert_int_equal(sb.err, -EPIPE);
	assert_int_equal(strbuf_flush(&sb), -EPIPE);
	assert_int_equal(strbuf_puts(&sb, "x"), -EPIPE);
	strbuf_done(&sb);
	strbuf_done(&seen.all);
}

static void test_strbuf_put_home_redacted(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_put_home_redacted(&sb, "/home/alice/venv:/Users/bob "
						       "[/home/carol] /root/x /opt/home/dave "
						       "/home/ /home/<user>/x PATH=/home/eve"),
			 0);
	assert_string_equal(strbuf_str(&sb), "/home/<user>/venv:/Users/<user> [/home/<user>] "
					     "/root/x /opt/home/dave /home/ /home/<user>/x "
					     "PATH=/home/<user>");
	strbuf_done(&sb);
}

static void test_strbuf_put_escaped(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(
		strbuf_put_escaped(&sb, "NAME=\"De\033[2Jbian\"\nID=x\r\t\x7f\xc2\x85\xc3\xa9"), 0);
	assert_string_equal(strbuf_str(&sb),
			    "NAME=\"De\\x1b[2Jbian\"\\nID=x\\r\\t\\x7f\\xc2\\x85\xc3\xa9");
	strbuf_done(&sb);
}

static void test_strbuf_cap(void **state)
{
	struct strbuf sb;

	strbuf_init(&sb, 8);
	assert_int_equal(strbuf_puts(&sb, "1234"), 0);
	assert_int_equal(strbuf_printf(&sb, "%d", 5678), 0);
	assert_string_equal(strbuf_str(&sb), "12345678");
	assert_int_equal(strbuf_putc(&sb, 'x'), -EFBIG);
	/* The first error sticks. */
	assert_int_equal(strbuf_puts(&sb, ""), -EFBIG);
	strbuf_done(&sb);
}

static void test_strv(void **state)
{
	_cleanup_strv_free_ char **l = NULL;
	char line[] = "  KEY = value  ";
	char *v;

	assert_int_equal(strv_split("/a::/b:", ":", &l), 0);
	assert_int_equal(strv_length(l), 2);
	assert_string_equal(l[0], "/a");
	assert_string_equal(l[1], "/b");
	assert_true(strv_contains(l, "/b"));
	v = kv_split(line, '=');
	assert_non_null(v);
	assert_string_equal(v, "value");
	assert_string_equal(strstrip(line), "KEY");
}

static void test_kv_next(void **state)
{
	char buf[] = "a: 1\nno separator\n\nb :  two words \nc:", *st = buf, *k, *v;

	assert_true(kv_next(&st, ':', &k, &v));
	assert_string_equal(k, "a");
	assert_string_equal(v, "1");
	assert_true(kv_next(&st, ':', &k, &v));
	assert_string_equal(k, "b ");
	assert_string_equal(v, "two words");
	assert_true(kv_next(&st, ':', &k, &v));
	assert_string_equal(k, "c");
	assert_string_equal(v, "");
	assert_false(kv_next(&st, ':', &k, &v));
	assert_false(kv_next(&st, ':', &k, &v));
}

/* RFC 3629 / Unicode Table 3-7: overlongs, surrogates, > U+10FFFF and cut sequences are
 * invalid; each of their bytes becomes U+FFFD. */
static void test_utf8(void **state)
{
	static const struct {
		const char *in, *fixed;
	} cases[] = {
		{ "plain", "plain" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
		{ "\xe9t\xe9", "\xef\xbf\xbdt\xef\xbf\xbd" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },		    /* overlong '/' */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* surrogate */
		{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd" }, /* cut */
	};
	char *out;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *fixed = utf8_make_valid(cases[i].in, strlen(cases[i].in));

		assert_non_null(fixed);
		assert_string_equal(fixed, cases[i].fixed);
		assert_true(utf8_valid(fixed, strlen(fixed)));
		assert_int_equal(utf8_valid(cases[i].in, strlen(cases[i].in)),
				 streq(cases[i].in, cases[i].fixed));
		free(fixed);
	}
	out = hex_encode("\x01\xff"
			 "A",
			 3);
	assert_string_equal(out, "01ff41");
	free(out);
	assert_int_equal(hex_decode_text("01fF41", &out), 0);
	assert_string_equal(out, "\x01\xff"
				 "A");
	free(out);
	assert_int_equal(hex_decode_text("0", &out), -EINVAL);
	assert_int_equal(hex_decode_text("zz", &out), -EINVAL);
	assert_int_equal(hex_decode_text("4100", &out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_decimal_prefix),
		cmocka_unit_test(test_parse_hex_digit),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_cuda_version_format),
		cmocka_unit_test(test_strbuf_cap),
		cmocka_unit_test(test_strbuf_put_printable),
		cmocka_unit_test(test_strbuf_put_escaped),
		cmocka_unit_test(test_strbuf_put_home_redacted),
		cmocka_unit_test(test_strbuf_sink),
		cmocka_unit_test(test_strv),
		cmocka_unit_test(test_kv_next),
		cmocka_unit_test(test_utf8),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
