/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/core/env.c, the environment overlay and the --env-file reader: docker's rules
 * (KEY=VALUE, leading white space, comments, blank lines, CRLF, a BOM, a bare KEY from the
 * caller's environment, the last of a repeated key), the errors (path-free reason and line
 * number), the caps (a line of 64 KiB, 100,000 lines, 16 MiB; /dev/zero, a FIFO, a
 * directory) and linear time: 100,000 distinct keys must load in well under a second, where
 * the old set-and-sort per line took minutes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/env.h"

static struct env *load(const char *text, size_t len, int want, struct env_file_error *fe)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct env *e;

	assert_non_null(f);
	assert_int_equal(env_new(false, &e), 0);
	assert_int_equal(env_load_stream(e, f, fe), want);
	fclose(f);
	return e;
}

static void test_docker_rules(void **state)
{
	static const char text[] = "\xef\xbb\xbf"
				   "# comment\n"
				   "\n"
				   "   \t\n"
				   "A=1\r\n"
				   "  B= two words  \n"
				   "C==x=y\n"
				   "D=\n"
				   "A=last\n"
				   "GPUENV_TEST_BARE\n"
				   "GPUENV_TEST_UNSET_BARE\n"
				   "E=no newline at the end";
	struct env_file_error fe;
	struct env *e;

	setenv("GPUENV_TEST_BARE", "from-caller", 1);
	unsetenv("GPUENV_TEST_UNSET_BARE");
	e = load(text, sizeof(text) - 1, 0, &fe);
	assert_string_equal(env_get(e, "A"), "last");
	assert_string_equal(env_get(e, "B"), " two words  ");
	assert_string_equal(env_get(e, "C"), "=x=y");
	assert_string_equal(env_get(e, "D"), "");
	assert_string_equal(env_get(e, "E"), "no newline at the end");
	assert_string_equal(env_get(e, "GPUENV_TEST_BARE"), "from-caller");
	assert_null(env_get(e, "GPUENV_TEST_UNSET_BARE"));
	assert_null(env_get(e, "# comment"));
	env_free(e);
}

/* env_list() stays sorted (strcmp order of "KEY=VALUE") and env_set/env_get agree with it. */
static void test_sorted_merge(void **state)
{
	static const char text[] = "B=file\nA!=x\nZ=1\nA=file\n";
	struct env *e;
	char *const *l;
	size_t n = 0;

	assert_int_equal(env_new(false, &e), 0);
	assert_int_equal(env_set(e, "B", "old"), 0);
	assert_int_equal(env_set(e, "AB", "ab"), 0);
	assert_int_equal(env_set(e, "A", "old"), 0);
	{
		FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

		assert_int_equal(env_load_stream(e, f, NULL), 0);
		fclose(f);
	}
	assert_int_equal(env_set(e, "M", "m"), 0);
	l = env_list(e);
	for (; l[n]; n++)
		if (n)
			assert_true(strcmp(l[n - 1], l[n]) < 0);
	assert_int_equal(n, 6);
	assert_string_equal(env_get(e, "A"), "file");
	assert_string_equal(env_get(e, "A!"), "x");
	assert_string_equal(env_get(e, "AB"), "ab");
	assert_string_equal(env_get(e, "B"), "file");
	assert_null(env_get(e, "Q"));
	assert_int_equal(env_set(e, "", "x"), -EINVAL);
	assert_int_equal(env_set(e, "X=Y", "x"), -EINVAL);
	env_free(e);
}

static void expect_error(const char *text, size_t len, int err, unsigned line, const char *reason)
{
	struct env_file_error fe = { 0 };
	struct env *e = load(text, len, err, &fe);

	assert_int_equal(fe.line, line);
	assert_non_null(fe.reason);
	assert_non_null(strstr(fe.reason, reason));
	/* Nothing from a refused file is kept. */
	assert_null(env_get(e, "A"));
	env_free(e);
}

static void test_bad_lines(void **state)
{
	static const char nul[] = "A=1\nB=x\0y\n";

	expect_error("A=1\n=value\n", 11, -EBADMSG, 2, "no variable name");
	expect_error("A=1\n\n  BAD KEY=1\n", 17, -EBADMSG, 3, "white space");
	expect_error("A=1\nBARE KEY\n", 13, -EBADMSG, 2, "white space");
	expect_error(nul, sizeof(nul) - 1, -EBADMSG, 2, "NUL");
}

/* A line may be 65536 bytes, not one more; a file with no newline at all stops there. */
static void test_line_cap(void **state)
{
	char *text = malloc(4 + ENV_FILE_MAX_LINE + 2), *zeros = calloc(1, (size_t)1 << 20);
	struct env *e;

	assert_non_null(text);
	assert_non_null(zeros);
	memcpy(text, "A=1\n", 4);
	text[4] = 'L';
	text[5] = '=';
	memset(text + 6, 'v', ENV_FILE_MAX_LINE - 2);
	/* "L=vvv…" is exactly ENV_FILE_MAX_LINE bytes, then '\n' */
	text[4 + ENV_FILE_MAX_LINE] = '\n';
	e = load(text, 4 + ENV_FILE_MAX_LINE + 1, 0, NULL);
	assert_int_equal(strlen(env_get(e, "L")), ENV_FILE_MAX_LINE - 2);
	env_free(e);
	text[4 + ENV_FILE_MAX_LINE] = 'v';
	text[4 + ENV_FILE_MAX_LINE + 1] = '\n';
	expect_error(text, 4 + ENV_FILE_MAX_LINE + 2, -EFBIG, 2, "longer than 65536");
	/* /dev/zero: one endless line (the old reader grew it to 2 GB, then set nothing). */
	expect_error(zeros, (size_t)1 << 20, -EFBIG, 1, "longer than 65536");
	free(text);
	free(zeros);
}

static void test_count_and_size_caps(void **state)
{
	size_t len = (size_t)(ENV_FILE_MAX_LINES + 1) * 2;
	char *text = malloc(len), *big;
	struct env *e;

	assert_non_null(text);
	for (size_t i = 0; i < len; i += 2)
		memcpy(text + i, "#\n", 2);
	expect_error(text, len, -EFBIG, ENV_FILE_MAX_LINES + 1, "more than 100000 lines");
	e = load(text, len - 2, 0, NULL);
	env_free(e);
	free(text);
	/* 17 MiB of comment lines of 32 KiB: under the line cap, over the size cap. */
	len = ENV_FILE_MAX_BYTES + ((size_t)1 << 20);
	big = malloc(len);
	assert_non_null(big);
	memset(big, '#', len);
	for (size_t i = 32767; i < len; i += 32768)
		big[i] = '\n';
	{
		struct env_file_error fe = { 0 };

		e = load(big, len, -EFBIG, &fe);
		assert_non_null(strstr(fe.reason, "larger than 16 MiB"));
		assert_true(fe.line >= 500 && fe.line <= 520);
		env_free(e);
	}
	free(big);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 100,000 distinct keys, out of order: linear time (the old loader: minutes). */
static void test_linear(void **state)
{
	size_t cap = (size_t)ENV_FILE_MAX_LINES * 24, len = 0;
	char *text = malloc(cap);
	struct env *e;
	char key[32];
	double t;

	assert_non_null(text);
	for (unsigned i = 0; i < ENV_FILE_MAX_LINES; i++)
		len += (size_t)snprintf(text + len, cap - len, "K%u=%u\n",
					(i * 7919u) % ENV_FILE_MAX_LINES, i);
	t = now();
	e = load(text, len, 0, NULL);
	t = now() - t;
	printf("# 100000 lines loaded in %.3f s\n", t);
	/* Generous for ASan on a shared machine; the quadratic loader took > 100 s. */
	assert_true(t < 5.0);
	snprintf(key, sizeof(key), "K%u", 4242u);
	assert_non_null(env_get(e, key));
	assert_null(env_get(e, "K100000"));
	env_free(e);
	free(text);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/test-env-XXXXXX", path[64];
	struct env_file_error fe;
	struct env *e;
	FILE *f;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(env_new(false, &e), 0);
	assert_int_equal(env_load_file(e, dir, &fe), -EISDIR);
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(env_load_file(e, path, &fe), -ENOENT);
	assert_int_equal(fe.line, 0);
	/* A FIFO (`--env-file <(…)`) is read like a file. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		f = fopen(path, "w");
		fputs("FROM_FIFO=yes\n", f);
		_exit(fclose(f) != 0);
	}
	assert_int_equal(env_load_file(e, path, &fe), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_string_equal(env_get(e, "FROM_FIFO"), "yes");
	if (access("/dev/zero", R_OK) == 0) {
		assert_int_equal(env_load_file(e, "/dev/zero", &fe), -EFBIG);
		assert_int_equal(fe.line, 1);
	}
	unlink(path);
	rmdir(dir);
	env_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker_rules),
		cmocka_unit_test(test_sorted_merge),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_line_cap),
		cmocka_unit_test(test_count_and_size_caps),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
