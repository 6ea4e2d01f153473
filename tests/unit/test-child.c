// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of src/core/child.c: the deadline seam for vendor calls. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/child.h"

#define OPTS(t, max)                                                                               \
	((struct child_opts){ .timeout_ms = (t), .max_output = (max), .max_stderr = 64 })

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

	assert_int_equal(child_run_fn(say_hello, hello, &OPTS(5000, 64), &r), 0);
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

	assert_int_equal(child_run_fn(hang, NULL, &OPTS(200, 64), &r), 0);
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
	assert_int_equal(child_run_fn(close_and_hang, NULL, &OPTS(200, 64), &r), 0);
	assert_true(r.timed_out);
	assert_string_equal(r.output, "x");
	child_result_done(&r);
}

static void test_fn_output_capped(void **state)
{
	struct child_result r;

	assert_int_equal(child_run_fn(flood, NULL, &OPTS(5000, 100), &r), 0);
	assert_false(r.timed_out);
	assert_int_equal(r.output_len, 100);
	assert_true(r.truncated);
	assert_int_equal(r.exit_status, 0);
	child_result_done(&r);
}

/* 15 children that leave the process group, each holding the output pipe and the test's
 * witness pipe: the child itself exits at once. */
static int escape(int fd, void *userdata)
{
	for (int i = 0; i < 15; i++)
		if (fork() == 0) {
			setsid();
			for (;;)
				pause();
		}
	(void)!write(fd, "ok", 2);
	return 0;
}

static void test_fn_tree_killed(void **state)
{
	int witness[2];
	struct pollfd pfd;
	struct child_result r;

	assert_int_equal(pipe2(witness, O_CLOEXEC), 0);
	/* The witness's write end without O_CLOEXEC is inherited by the whole tree. */
	assert_int_equal(fcntl(witness[1], F_SETFD, 0), 0);
	assert_int_equal(child_run_fn(escape, NULL, &OPTS(10000, 64), &r), 0);
	close(witness[1]);
	/* Not "timed out" because someone else held the pipe: the child ended, and the rest
	 * was killed at once. */
	assert_false(r.timed_out);
	assert_true(r.reaped);
	assert_int_equal(r.exit_status, 0);
	assert_string_equal(r.output, "ok");
	assert_int_equal(r.strays, 15);
	assert_int_equal(r.strays_left, 0);
	assert_true(r.elapsed_ms < 5000);
	assert_non_null(r.containment);
	print_message("contained by: %s\n", r.containment);
	if (getenv("GPUENV_TEST_CONTAINMENT"))
		assert_string_equal(r.containment, getenv("GPUENV_TEST_CONTAINMENT"));
	/* Every holder of the witness is gone: EOF at once. */
	pfd = (struct pollfd){ .fd = witness[0], .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	assert_true(pfd.revents & POLLHUP);
	close(witness[0]);
	child_result_done(&r);
}

static int chatter(int fd, void *userdata)
{
	char buf[1000];

	memset(buf, 'e', sizeof(buf));
	for (int i = 0; i < 1000; i++)
		if (write(STDERR_FILENO, buf, sizeof(buf)) < 0)
			return 1;
	return 0;
}

static void test_fn_stderr_captured(void **state)
{
	struct child_result r;

	assert_int_equal(child_run_fn(chatter, NULL, &OPTS(10000, 64), &r), 0);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(r.errout_len, 64);
	assert_int_equal(r.errout_total, 1000000);
	assert_string_equal(r.errout,
			    "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
	child_result_done(&r);
}

/* Under the limits: a private writable mapping past the budget, and growing a file, fail. */
static int greedy(int fd, void *userdata)
{
	const char *path = userdata;
	void *p = mmap(NULL, (size_t)256 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	int f = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	char msg[64];

	snprintf(msg, sizeof(msg), "%s %s", p == MAP_FAILED ? "refused" : "mapped",
		 f >= 0 && write(f, "x", 1) == 1 ? "written" : "not-written");
	(void)!write(fd, msg, strlen(msg));
	return 0;
}

static void test_fn_limits(void **state)
{
	char path[] = "/tmp/gpuenv-test-child-XXXXXX";
	struct child_opts o = { .timeout_ms = 10000,
				.max_output = 64,
				.data_budget = (uint64_t)64 << 20,
				.no_file_growth = true };
	struct child_result r;
	struct stat st;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(child_run_fn(greedy, path, &o, &r), 0);
	assert_int_equal(stat(path, &st), 0);
	unlink(path);
	assert_string_equal(r.output, "refused not-written");
	assert_int_equal(st.st_size, 0);
	child_result_done(&r);
	/* Control: without the limits both succeed (or the test proves nothing). */
	fd = mkstemp(strcpy(path, "/tmp/gpuenv-test-child-XXXXXX"));
	close(fd);
	assert_int_equal(child_run_fn(greedy, path, &OPTS(10000, 64), &r), 0);
	unlink(path);
	assert_string_equal(r.output, "mapped written");
	child_result_done(&r);
}

/* The private directory goes with what was put in it, and a link in it is not followed. */
static void test_tmpdir(void **state)
{
	char outside[] = "/tmp/gpuenv-test-outside-XXXXXX", link[600], keep[600];
	char *dir = NULL;
	struct stat st;

	assert_non_null(mkdtemp(outside));
	snprintf(keep, sizeof(keep), "%s/keep", outside);
	assert_int_equal(child_tmpdir_put(outside, "keep", "x"), 0);
	assert_int_equal(child_tmpdir_create(&dir), 0);
	assert_int_equal(child_tmpdir_put(dir, "vendors/a.icd", "libx.so\n"), 0);
	assert_int_equal(child_tmpdir_put(dir, "../escape", "x"), -EINVAL);
	assert_int_equal(child_tmpdir_put(dir, "a/b/c", "x"), -EINVAL);
	snprintf(link, sizeof(link), "%s/vendors/out", dir);
	assert_int_equal(symlink(outside, link), 0);
	assert_int_equal(child_tmpdir_remove(dir), 0);
	assert_int_equal(stat(dir, &st), -1);
	assert_int_equal(stat(keep, &st), 0);
	unlink(keep);
	rmdir(outside);
	free(dir);
}

/* A child that stays: answers "n\n" for each request, hangs at the third when told to. */
static int echo_server(int fd, void *userdata)
{
	const bool *hang_third = userdata;
	unsigned n = 0;
	char c, line[16];

	while (read(child_request_fd(), &c, 1) == 1) {
		if (++n == 3 && *hang_third)
			for (;;)
				pause();
		snprintf(line, sizeof(line), "%u\n", n);
		if (write(fd, line, strlen(line)) < 0)
			return 1;
	}
	return 5; /* the request pipe closed: the end */
}

static bool has_line(const char *buf, size_t len, void *userdata)
{
	return len > 0 && buf[len - 1] == '\n';
}

static int ask_once(struct child_proc *p, unsigned timeout_ms)
{
	int r;

	p->out.len = p->out.total = 0;
	assert_int_equal(write(p->in_fd, "s", 1), 1);
	r = child_proc_read(p, child_now_ms() + timeout_ms, has_line, NULL);
	return r;
}

static void test_start_serves_requests_then_ends(void **state)
{
	bool hang_third = false;
	struct child_proc p;
	struct child_result r;

	assert_int_equal(child_proc_start(echo_server, &hang_third, &OPTS(0, 64), &p), 0);
	for (unsigned i = 1; i <= 4; i++) {
		char want[8];

		assert_int_equal(ask_once(&p, 10000), 1);
		snprintf(want, sizeof(want), "%u\n", i);
		assert_int_equal(p.out.len, strlen(want));
		assert_memory_equal(p.out.buf, want, strlen(want));
	}
	assert_non_null(p.containment);
	child_proc_stop(&p, 5000, &r);
	assert_false(r.timed_out);
	assert_true(r.reaped);
	assert_int_equal(r.exit_status, 5);
	child_result_done(&r);
}

static void test_start_hang_is_killed(void **state)
{
	bool hang_third = true;
	struct child_proc p;
	struct child_result r;
	uint64_t t0;

	assert_int_equal(child_proc_start(echo_server, &hang_third, &OPTS(0, 64), &p), 0);
	assert_int_equal(ask_once(&p, 10000), 1);
	assert_int_equal(ask_once(&p, 10000), 1);
	t0 = child_now_ms();
	assert_int_equal(ask_once(&p, 300), -ETIME);
	assert_true(child_now_ms() - t0 < 3000);
	child_proc_stop(&p, 0, &r);
	assert_true(r.timed_out);
	assert_true(child_now_ms() - t0 < 5000);
	child_result_done(&r);
}

/* Waits for the file named by userdata to appear (another child makes it), then says so. */
static int wait_for_file(int fd, void *userdata)
{
	struct stat st;

	while (stat(userdata, &st) < 0)
		usleep(1000);
	return write(fd, "seen", 4) == 4 ? 0 : 1;
}

static int make_file(int fd, void *userdata)
{
	int f = open(userdata, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (f < 0)
		return 1;
	close(f);
	return write(fd, "made", 4) == 4 ? 0 : 1;
}

/* Two started children run at once: the first can only finish once the second, started
 * after it, has run (run one after the other, the first would wait until its deadline). */
static void test_started_children_overlap(void **state)
{
	char dir[] = "/tmp/gpuenv-test-child-XXXXXX", path[64];
	struct child_job *a, *b;
	struct child_result ra, rb;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/flag", dir);
	assert_int_equal(child_start_fn(wait_for_file, path, &OPTS(20000, 64), &a), 0);
	assert_int_equal(child_start_fn(make_file, path, &OPTS(20000, 64), &b), 0);
	assert_int_equal(child_collect(a, &ra), 0);
	assert_int_equal(child_collect(b, &rb), 0);
	assert_false(ra.timed_out);
	assert_string_equal(ra.output, "seen");
	assert_int_equal(ra.exit_status, 0);
	assert_string_equal(rb.output, "made");
	child_result_done(&ra);
	child_result_done(&rb);
	unlink(path);
	rmdir(dir);
}

/* Writes the descriptors it holds above stderr, but its own answer's, as " N" each. */
static int list_fds(int fd, void *userdata)
{
	char out[512] = "", name[32];
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		int n = atoi(e->d_name);

		if (e->d_name[0] != '.' && n > STDERR_FILENO && n != fd && n != dirfd(d)) {
			snprintf(name, sizeof(name), " %d", n);
			strncat(out, name, sizeof(out) - strlen(out) - 1);
		}
	}
	closedir(d);
	return write(fd, out, strlen(out)) == (ssize_t)strlen(out) ? 0 : 1;
}

static unsigned count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* A child started while another is pending holds nothing of it (its pipes would otherwise
 * stay open in the second child's tree), and collecting and cancelling close everything. */
static void test_started_child_fds(void **state)
{
	unsigned before = count_fds();
	struct child_job *a, *b;
	struct child_result rb;

	assert_int_equal(child_start_fn(hang, NULL, &OPTS(300, 64), &a), 0);
	assert_int_equal(child_start_fn(list_fds, NULL, &OPTS(20000, 64), &b), 0);
	child_pump(a);
	assert_int_equal(child_collect(b, &rb), 0);
	assert_int_equal(rb.exit_status, 0);
	assert_string_equal(rb.output, "");
	child_result_done(&rb);
	child_cancel(a);
	assert_int_equal(count_fds(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fn_output_and_exit_code),
		cmocka_unit_test(test_fn_hang_is_killed),
		cmocka_unit_test(test_fn_eof_without_exit),
		cmocka_unit_test(test_fn_output_capped),
		cmocka_unit_test(test_fn_tree_killed),
		cmocka_unit_test(test_fn_stderr_captured),
		cmocka_unit_test(test_fn_limits),
		cmocka_unit_test(test_tmpdir),
		cmocka_unit_test(test_start_serves_requests_then_ends),
		cmocka_unit_test(test_start_hang_is_killed),
		cmocka_unit_test(test_started_children_overlap),
		cmocka_unit_test(test_started_child_fds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
