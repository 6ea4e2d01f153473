// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of src/core/child.c: the deadline seam for vendor calls. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/child.h"

static int say_hello(int fd, void *userdata)
{
	const char *msg = userdata;

	return write(fd, msg, strlen(msg)) == (ssize_t)strlen(msg) ? 7 : 1;
}

static int hang(int fd, void *userdata)
{
	for (;;)
		pause();
	return 0;
}

static int close_and_hang(int fd, void *userdata)
{
	(void)!write(fd, "x", 1);
	close(fd);
	for (;;)
		pause();
	return 0;
}

static int flood(int fd, void *userdata)
{
	char buf[1024];

	memset(buf, 'a', sizeof(buf));
	for (int i = 0; i < 64; i++)
		if (write(fd, buf, sizeof(buf)) < 0)
			return 1;
	return 0;
}

static void test_fn_output_and_exit_code(void **state)
{
	struct child_result r;

	char hello[] = "hello";

	assert_int_equal(child_run_fn(say_hello, hello, 5000, 64, &r), 0);
	assert_false(r.timed_out);
	assert_true(r.reaped);
	assert_int_equal(r.exit_status, 7);
	assert_string_equal(r.output, "hello");
	assert_false(r.truncated);
	child_result_done(&r);
}

static void test_fn_hang_is_killed(void **state)
{
	struct child_result r;

	assert_int_equal(child_run_fn(hang, NULL, 200, 64, &r), 0);
	assert_true(r.timed_out);
	assert_true(r.reaped);
	assert_int_equal(r.term_signal, 9);
	assert_true(r.elapsed_ms >= 200 && r.elapsed_ms < 3000);
	child_result_done(&r);
}

static void test_fn_eof_without_exit(void **state)
{
	struct child_result r;

	/* Closing the pipe is not finishing: the deadline still applies. */
	assert_int_equal(child_run_fn(close_and_hang, NULL, 200, 64, &r), 0);
	assert_true(r.timed_out);
	assert_string_equal(r.output, "x");
	child_result_done(&r);
}

static void test_fn_output_capped(void **state)
{
	struct child_result r;

	assert_int_equal(child_run_fn(flood, NULL, 5000, 100, &r), 0);
	assert_false(r.timed_out);
	assert_int_equal(r.output_len, 100);
	assert_true(r.truncated);
	assert_int_equal(r.exit_status, 0);
	child_result_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fn_output_and_exit_code),
		cmocka_unit_test(test_fn_hang_is_killed),
		cmocka_unit_test(test_fn_eof_without_exit),
		cmocka_unit_test(test_fn_output_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
