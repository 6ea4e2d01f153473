// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * gpuenv_explain_render_to() and gpuenv_explain_text_take() (include/gpuenv/gpuenv.h): the
 * output given to the caller's function as it is made is, byte for byte, what
 * gpuenv_explain_render() returns whole, in whole lines; a failing function stops it with its
 * error; a buffer handed over explains as the same text borrowed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpuenv/gpuenv.h"
#include "shared/strbuf.h"

/* Machine-generated lines of the kind a paste holds (nvidia-smi's and the kernel's messages,
 * PyTorch's warning, as the corpus cases under tests/explain-corpus/ show them). */
static const char paste[] =
	"Failed to initialize NVML: Driver/library version mismatch\n"
	"NVRM: API mismatch: the client has the version 535.129.03, but\r\n"
	"NVRM: this kernel module has the version 535.104.05.  Please\n"
	"NVRM: make sure that this kernel module and all NVIDIA driver\n"
	"> UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found "
	"version 11040).\n"
	"```\n"
	"Linux gpu01 5.15.0-91-generic #101-Ubuntu SMP x86_64 GNU/Linux\n";

struct seen {
	struct strbuf all;
	size_t pieces;
	bool piece_not_at_line_end;
	size_t fail_at; /* the piece that fails (1-based); 0: none */
};

static int collect(void *userdata, const char *p, size_t n)
{
	struct seen *s = userdata;

	if (++s->pieces == s->fail_at)
		return -ENOSPC;
	if (n && p[n - 1] != '\n')
		s->piece_not_at_line_end = true;
	return strbuf_add(&s->all, p, n);
}

static struct gpuenv_explain *explained(void)
{
	struct gpuenv_explain *e = NULL;

	assert_int_equal(gpuenv_explain_text(paste, sizeof(paste) - 1, &e, NULL), 0);
	assert_non_null(e);
	return e;
}

static void test_render_to_same_bytes(void **state)
{
	static const enum gpuenv_format formats[] = { GPUENV_FORMAT_TEXT, GPUENV_FORMAT_JSON,
						      GPUENV_FORMAT_MARKDOWN };
	struct gpuenv_explain *e = explained();

	(void)state;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct seen s = { .all = STRBUF_INIT };
		char *whole = NULL;

		assert_int_equal(gpuenv_explain_render(e, formats[i], 0, &whole), 0);
		assert_int_equal(gpuenv_explain_render_to(e, formats[i], 0, collect, &s), 0);
		assert_string_equal(strbuf_str(&s.all), whole);
		assert_false(s.piece_not_at_line_end);
		/* the JSON document is several KiB: given in more than one piece */
		if (formats[i] == GPUENV_FORMAT_JSON)
			assert_true(s.pieces > 1);
		free(whole);
		strbuf_done(&s.all);
	}
	gpuenv_explain_free(e);
}

static void test_render_to_failing_writer(void **state)
{
	struct gpuenv_explain *e = explained();
	struct seen s = { .all = STRBUF_INIT, .fail_at = 2 };

	(void)state;
	assert_int_equal(gpuenv_explain_render_to(e, GPUENV_FORMAT_JSON, 0, collect, &s), -ENOSPC);
	assert_int_equal(s.pieces, 2); /* nothing given after the failure */
	assert_int_equal(gpuenv_explain_render_to(e, 99, 0, collect, &s), -EOPNOTSUPP);
	assert_int_equal(gpuenv_explain_render_to(NULL, GPUENV_FORMAT_TEXT, 0, collect, &s),
			 -EINVAL);
	assert_int_equal(gpuenv_explain_render_to(e, GPUENV_FORMAT_TEXT, 0, NULL, NULL), -EINVAL);
	strbuf_done(&s.all);
	gpuenv_explain_free(e);
}

static void test_text_take(void **state)
{
	struct gpuenv_explain *borrowed = explained(), *taken = NULL;
	char *copy = malloc(sizeof(paste)), *a = NULL, *b = NULL;
	const char *why = NULL;

	(void)state;
	assert_non_null(copy);
	memcpy(copy, paste, sizeof(paste));
	assert_int_equal(gpuenv_explain_text_take(copy, sizeof(paste) - 1, &taken, NULL), 0);
	assert_int_equal(gpuenv_explain_render(borrowed, GPUENV_FORMAT_JSON, 0, &a), 0);
	assert_int_equal(gpuenv_explain_render(taken, GPUENV_FORMAT_JSON, 0, &b), 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	gpuenv_explain_free(taken);
	gpuenv_explain_free(borrowed);
	/* refused input: freed too (ASan's leak check), the reason given */
	copy = malloc(8);
	assert_non_null(copy);
	memcpy(copy, "a\0b\0c\0d\0", 8);
	taken = NULL;
	assert_int_equal(gpuenv_explain_text_take(copy, 8, &taken, &why), -EBADMSG);
	assert_null(taken);
	assert_non_null(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_to_same_bytes),
		cmocka_unit_test(test_render_to_failing_writer),
		cmocka_unit_test(test_text_take),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
