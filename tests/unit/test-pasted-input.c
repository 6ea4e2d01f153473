// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-input: what `gpuenv explain` makes of the bytes users paste: UTF-8 and
 * UTF-16 with BOM, CRLF and CR, terminal escapes, Markdown fences and quotes with the user's
 * line numbers kept, and the refusals (size, binary, not text).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-input.h"

static char *clean_ok(const char *data, size_t len)
{
	char *out = NULL;
	size_t n = 0;
	const char *why = NULL;

	assert_int_equal(pasted_input_clean(data, len, &out, &n, &why), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), n);
	return out;
}

/* pasted_input_clean_take's text of a malloc()ed copy of data[0..len): what `gpuenv explain`
 * reads from a file, cleaned in the file's own buffer. */
static char *take_ok(const char *data, size_t len)
{
	char *copy = malloc(len ? len : 1), *out = NULL;
	size_t n = 0;

	assert_non_null(copy);
	memcpy(copy, data, len);
	assert_int_equal(pasted_input_clean_take(copy, len, &out, &n, NULL), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), n);
	return out;
}

/* Both ways of cleaning give want: a copy (pasted_input_clean), in place (_take). */
static void expect(const char *data, size_t len, const char *want)
{
	char *out = clean_ok(data, len);

	assert_string_equal(out, want);
	free(out);
	out = take_ok(data, len);
	assert_string_equal(out, want);
	free(out);
}

static void test_plain_and_line_ends(void **state)
{
	(void)state;
	expect("a\nb\n", 4, "a\nb\n");
	expect("a\r\nb\r\n", 6, "a\nb\n");
	expect("a\rb\r\nc", 6, "a\nb\nc");
	expect("", 0, "");
	/* a UTF-8 BOM (Notepad) is dropped */
	expect("\xEF\xBB\xBFnvidia-smi\n", 14, "nvidia-smi\n");
}

static void test_utf16(void **state)
{
	/* PowerShell 5.1 `nvidia-smi > out.txt`: UTF-16LE with BOM, CRLF */
	static const char le[] = "\xFF\xFE"
				 "N\0V\0\r\0\n\0\xE9\0!\0";
	static const char be[] = "\xFE\xFF\0N\0V\0\n\xD8\x3D\xDE\x00";

	(void)state;
	expect(le, sizeof(le) - 1, "NV\n\xC3\xA9!");
	/* a surrogate pair: U+1F600 */
	expect(be, sizeof(be) - 1, "NV\n\xF0\x9F\x98\x80");
}

/* Text longer in UTF-8 than as it came: CJK in UTF-16 (2 bytes a character, 3 in UTF-8), as
 * PowerShell writes a Chinese or Japanese Windows's output, and bytes that are not UTF-8
 * (each kept as U+FFFD, 3 bytes). The output is not capped at the input's length. */
static void test_text_that_grows(void **state)
{
	char in[2 + 2 * 601], want[3 * 600 + 2], lat[64 + 4];
	char *out;

	(void)state;
	memcpy(in, "\xFF\xFE", 2);
	for (size_t i = 0; i < 600; i++) {
		in[2 + 2 * i] = 0x3E, in[3 + 2 * i] = 0x66; /* U+663E 显 */
		memcpy(want + 3 * i, "\xE6\x98\xBE", 3);
	}
	in[2 + 2 * 600] = '\n', in[3 + 2 * 600] = 0;
	want[3 * 600] = '\n', want[3 * 600 + 1] = '\0';
	expect(in, sizeof(in), want);
	/* four bytes not UTF-8 in 64 of text, as few as test_few_invalid_bytes_kept keeps */
	memset(lat, 'a', sizeof(lat));
	memcpy(lat, "\xE9\xE8\xE0\xE7", 4);
	out = clean_ok(lat, sizeof(lat));
	assert_int_equal(strlen(out), sizeof(lat) + 4 * 2);
	free(out);
}

static void test_escapes(void **state)
{
	static const char colour[] = "\x1b[1;31mERROR\x1b[0m: no kernel image\n"
				     "\x1b]0;title\x07prompt$ \x1b(Bls\n"
				     "ba\bbold\n";

	(void)state;
	expect(colour, sizeof(colour) - 1, "ERROR: no kernel image\nprompt$ ls\nbbold\n");
	/* a sequence cut at a line end does not join lines */
	expect("a\x1b[12\nb\n", 8, "a\nb\n");
}

static void test_markdown(void **state)
{
	static const char md[] = "```\n"
				 "nvidia-smi\n"
				 "```\n"
				 "> Failed to initialize NVML\n"
				 "> > ```text\n"
				 ">>>> x\n"
				 "   ~~~\n"
				 "a > b\n";

	(void)state;
	/* same number of lines; fences empty, quote markers gone */
	expect(md, sizeof(md) - 1, "\nnvidia-smi\n\nFailed to initialize NVML\n\nx\n\na > b\n");
}

/* Text pasted on a fence's line is kept (a GitHub issue: "```NVIDIA GeForce RTX 5090 with CUDA
 * capability sm_120 is not compatible …"); a language tag, one word, is not. */
static void test_markdown_text_on_fence(void **state)
{
	static const char md[] = "```NVIDIA GeForce RTX 5090 with CUDA capability sm_120\n"
				 "```c++\n"
				 "~~~~ {.bash}\n"
				 "> ```text UserWarning: x \n"
				 "```python  \n";

	(void)state;
	expect(md, sizeof(md) - 1,
	       "NVIDIA GeForce RTX 5090 with CUDA capability sm_120\n\n\ntext UserWarning: x \n\n");
}

static void test_refusals(void **state)
{
	static const char bin[] = "\x7f"
				  "ELF\x02\x01\x01\0\0\0\0\0";
	static const char u16[] = "N\0V\0I\0D\0I\0A\0-\0S\0M\0I\0";
	char *out = NULL, noise[400];
	size_t n;
	const char *why = NULL;

	(void)state;
	assert_int_equal(pasted_input_clean(bin, sizeof(bin) - 1, &out, &n, &why), -EBADMSG);
	assert_non_null(strstr(why, "binary"));
	why = NULL;
	assert_int_equal(pasted_input_clean(u16, sizeof(u16) - 1, &out, &n, &why), -EBADMSG);
	assert_non_null(strstr(why, "UTF-16 without a byte order mark"));
	for (size_t i = 0; i < sizeof(noise); i++)
		noise[i] = (char)(0x80 + i % 0x40);
	why = NULL;
	assert_int_equal(pasted_input_clean(noise, sizeof(noise), &out, &n, &why), -EBADMSG);
	assert_non_null(strstr(why, "not text"));
	why = NULL;
	assert_int_equal(pasted_input_clean(noise, PASTED_INPUT_MAX + 1, &out, &n, &why), -EFBIG);
	assert_non_null(strstr(why, "64 MiB"));
	assert_null(out);
	/* the same refusals cleaning in place, the input freed */
	for (size_t i = 0; i < 3; i++) {
		const char *data = i == 0 ? bin : i == 1 ? u16 : noise;
		size_t len = i == 0 ? sizeof(bin) - 1 : i == 1 ? sizeof(u16) - 1 : sizeof(noise);
		char *copy = malloc(len);

		assert_non_null(copy);
		memcpy(copy, data, len);
		why = NULL;
		assert_int_equal(pasted_input_clean_take(copy, len, &out, &n, &why), -EBADMSG);
		/* the sentence asked of the input's start before the text was written over it */
		assert_non_null(strstr(why, i == 0   ? "binary"
					    : i == 1 ? "UTF-16 without a byte order mark"
						     : "not text"));
		assert_null(out);
	}
}

/* Cleaned in place, the text is written over the bytes read: a byte that is not UTF-8, which
 * becomes three (U+FFFD), moves the text to a buffer of its own where it would overtake the
 * reading (at the start, after a line end that took one byte of two), and stays where escapes
 * or CRLFs left it room; the text after it is the input's, unharmed. */
static void test_in_place_overtaking(void **state)
{
	static const char *const in[] = {
		"\xFF",
		"\xFF"
		"abc\n\xFE\xFF"
		"d",
		"ab\r\n\xFF"
		"cd\r\nef",
		"\x1b[31mred\x1b[0m\xFF\xFFx\n",
		"a\r\nb\r\nc\r\n\xC3\xA9\xE9z",
		"\xEF\xBB\xBF\xFF"
		"bom",
		"> q\n\xFF> r\n",
	};
	static const char *const want[] = {
		"\xEF\xBF\xBD",
		"\xEF\xBF\xBD"
		"abc\n\xEF\xBF\xBD\xEF\xBF\xBD"
		"d",
		"ab\n\xEF\xBF\xBD"
		"cd\nef",
		"red\xEF\xBF\xBD\xEF\xBF\xBDx\n",
		"a\nb\nc\n\xC3\xA9\xEF\xBF\xBDz",
		"\xEF\xBF\xBD"
		"bom",
		"q\n\xEF\xBF\xBD> r\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		expect(in[i], strlen(in[i]), want[i]);
}

static void test_few_invalid_bytes_kept(void **state)
{
	/* Latin-1 "é" in a path: kept as U+FFFD, not refused */
	static const char t[] =
		"Could not load dynamic library '/home/jos\xE9/libcudart.so.11.0'\n";

	(void)state;
	expect(t, sizeof(t) - 1,
	       "Could not load dynamic library '/home/jos\xEF\xBF\xBD/libcudart.so.11.0'\n");
}

/* Plain lines are copied a run of them at a time (pasted_input_clean): a quote marker or a
 * fence among them still comes off, where the line starts after plain lines, after three
 * spaces, after an escape sequence or after spaces and an escape sequence; four spaces are
 * text; a backspace after a run of lines takes the last line's character only. */
static void test_markdown_among_plain_lines(void **state)
{
	static const char *const in[] = {
		"a\nb\n> c\nd\n",     "a\n   > b\n",
		"a\n\x1b[0m> b\n",    "a\n \x1b[0m  > b\n",
		"a\n    > b\n",	      "a\n```\nb\n```\nc\n",
		"a\n~~~ python\nb",   "a\nb\bc\n",
		"a\n\n> \n> x",	      "ab\n>",
		"a\n  ~~~ NVRM: x\n",
	};
	static const char *const want[] = {
		"a\nb\nc\nd\n", "a\nb\n", "a\nb\n",   "a\nb\n", "a\n    > b\n", "a\n\nb\n\nc\n",
		"a\n\nb",	"a\nc\n", "a\n\n\nx", "ab\n",	"a\nNVRM: x\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		expect(in[i], strlen(in[i]), want[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_line_ends),
		cmocka_unit_test(test_utf16),
		cmocka_unit_test(test_text_that_grows),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_markdown_text_on_fence),
		cmocka_unit_test(test_markdown_among_plain_lines),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_few_invalid_bytes_kept),
		cmocka_unit_test(test_in_place_overtaking),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
