// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of src/core/child-stuck.c: a task in uninterruptible sleep in a child's tree,
 * on /proc trees laid out as proc(5) describes (a fake library cannot enter D state), and on
 * the live /proc. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/child.h"

/* The fields after the state, as a 6.1 kernel writes them for a sleeping thread. */
#define STAT_TAIL                                                                                  \
	" 4200 4200 4200 0 -1 4194560 1532 0 0 0 3 1 0 0 20 0 2 0 81234 2818048 1207 "             \
	"18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"

static void test_stat_parse(void **state)
{
	const char *line = "4242 (nvidia-smi) D" STAT_TAIL;
	const char *odd = "77 (a) b (c) S" STAT_TAIL; /* comm "a) b (c" */
	char comm[16], st;

	(void)state;
	assert_int_equal(proc_stat_parse(line, strlen(line), comm, &st), 0);
	assert_string_equal(comm, "nvidia-smi");
	assert_int_equal(st, 'D');
	assert_int_equal(proc_stat_parse(odd, strlen(odd), comm, &st), 0);
	assert_string_equal(comm, "a) b (c");
	assert_int_equal(st, 'S');
	/* the comm is at most 15 characters; longer text is cut, not overflowed */
	line = "9 (0123456789abcdefXYZ) R 1";
	assert_int_equal(proc_stat_parse(line, strlen(line), comm, &st), 0);
	assert_string_equal(comm, "0123456789abcde");
	assert_int_equal(proc_stat_parse("5 (x)", 5, comm, &st), -EBADMSG);
	assert_int_equal(proc_stat_parse("5 (x)  D", 8, comm, &st), -EBADMSG);
	assert_int_equal(proc_stat_parse("5 x D", 5, comm, &st), -EBADMSG);
	assert_int_equal(proc_stat_parse(")(", 2, comm, &st), -EBADMSG);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* keeper 100 → init 101 → NVML child 102 with a second thread 103 stuck in the driver */
static void make_tree(const char *root, const char *wchan)
{
	put(root, "100/task/100/stat", "100 (gpuenv) S" STAT_TAIL);
	put(root, "100/task/100/children", "101 ");
	put(root, "101/task/101/stat", "101 (gpuenv) S" STAT_TAIL);
	put(root, "101/task/101/children", "102 ");
	put(root, "102/task/102/stat", "102 (gpuenv) S" STAT_TAIL);
	put(root, "102/task/102/children", "");
	put(root, "102/task/103/stat", "103 (nvml-worker) D" STAT_TAIL);
	put(root, "102/task/103/wchan", wchan);
	put(root, "102/task/103/children", "");
}

static void test_tree(void **state)
{
	char root[] = "/tmp/gpuenv-test-stuck-XXXXXX";
	struct child_stuck s = { 0 };
	char cmd[64];

	(void)state;
	assert_non_null(mkdtemp(root));
	make_tree(root, "os_acquire_mutex");
	assert_int_equal(child_tree_find_stuck(root, 100, &s), 1);
	assert_int_equal(s.pid, 103);
	assert_string_equal(s.comm, "nvml-worker");
	assert_string_equal(s.wchan, "os_acquire_mutex");
	/* "0": the kernel hides the address from this reader */
	put(root, "102/task/103/wchan", "0");
	assert_int_equal(child_tree_find_stuck(root, 100, &s), 1);
	assert_string_equal(s.wchan, "");
	/* not a symbol: never copied into a label */
	put(root, "102/task/103/wchan", "x\"} 1\n");
	assert_int_equal(child_tree_find_stuck(root, 100, &s), 1);
	assert_string_equal(s.wchan, "");
	/* a tree whose tasks sleep interruptibly has none */
	put(root, "102/task/103/stat", "103 (nvml-worker) S" STAT_TAIL);
	assert_int_equal(child_tree_find_stuck(root, 100, &s), 0);
	/* a child that lists itself does not loop */
	put(root, "102/task/102/children", "100 101 102 ");
	assert_int_equal(child_tree_find_stuck(root, 100, &s), 0);
	assert_int_equal(child_tree_find_stuck(root, 99, &s), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* The live /proc: a child asleep in pause() is interruptible (S), so not stuck; with the
 * test hook's stand-in state it reads as stuck, as the exporter's test uses it. */
static void test_live(void **state)
{
	char dir[] = "/tmp/gpuenv-test-stuck-XXXXXX", cmd[64], line[256];
	struct child_stuck s = { 0 };
	pid_t pid = fork();

	(void)state;
	assert_true(pid >= 0);
	if (pid == 0) {
		/* a failed assertion below must not leave it holding the test's output open */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	usleep(100 * 1000);
	assert_int_equal(child_tree_find_stuck("/proc", pid, &s), 0);
	assert_non_null(mkdtemp(dir));
	/* the stand-in stat line names the task (child-stuck.c): here the forked child */
	snprintf(line, sizeof(line), "%d (fake) D" STAT_TAIL, (int)pid);
	put(dir, "stat", line);
	put(dir, "wchan", "nv_wait");
	child_stuck_state_override = dir;
	assert_int_equal(child_tree_find_stuck("/proc", pid, &s), 1);
	assert_int_equal(s.pid, pid);
	assert_string_equal(s.wchan, "nv_wait");
	assert_true(child_stuck_still("/proc", &s));
	child_stuck_state_override = NULL;
	assert_false(child_stuck_still("/proc", &s));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_false(child_stuck_still("/proc", &s));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static int hang(int fd, void *userdata)
{
	(void)fd, (void)userdata;
	for (;;)
		pause();
	return 0;
}

/* A one-shot child past its deadline: the keeper's reaper looks before it kills, and the
 * result carries what it saw (a child asleep in pause() is not stuck; the stand-in state
 * makes its tree read as stuck). */
static void test_one_shot(void **state)
{
	struct child_opts o = { .timeout_ms = 200, .max_output = 64, .max_stderr = 64 };
	char dir[] = "/tmp/gpuenv-test-stuck-XXXXXX", cmd[64];
	struct child_result r;

	(void)state;
	assert_int_equal(child_run_fn(hang, NULL, &o, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.stuck.pid, 0);
	child_result_done(&r);
	assert_non_null(mkdtemp(dir));
	put(dir, "stat", "1 (fake) D" STAT_TAIL);
	put(dir, "wchan", "nv_wait");
	child_stuck_state_override = dir;
	assert_int_equal(child_run_fn(hang, NULL, &o, &r), 0);
	child_stuck_state_override = NULL;
	assert_true(r.timed_out);
	assert_true(r.stuck.pid > 0);
	assert_string_equal(r.stuck.wchan, "nv_wait");
	child_result_done(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_parse),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_one_shot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
