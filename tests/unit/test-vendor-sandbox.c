// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of src/vendor/'s containment of a library: the sandbox that keeps it from
 * creating device nodes (sandbox.c), and a hostile fake library (tests/fakes/, its scenario
 * written here) that writes, truncates, forks, allocates without bound, floods stderr or
 * exits: each is stopped or recorded, and the seccomp filter and Landlock rules refuse what
 * they must. The sessions' values and failure paths: test-vendor.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "vendor/lazy-zip.h"
#include "vendor/sandbox.h"
#include "vendor/session.h"
#include "vendor/vendor.h"

#include "vendor-test-util.h"

/* The real libraries mknod /dev/nvidiactl when it is missing; the sandbox must stop that. */
static void test_sandbox_blocks_mknod(void **state)
{
	char dir[] = "/tmp/gpuenv-vendor-XXXXXX", node[300], text[400];
	struct stat st;
	bool created;
	json_t *t;

	if (geteuid() != 0) {
		print_message("SKIP: not root, mknod is refused anyway\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	/* Control: without the sandbox, root can create the node here (or the test proves nothing).
	 */
	snprintf(node, sizeof(node), "%s/control", dir);
	if (mknod(node, S_IFCHR | 0666, makedev(195, 255)) < 0) {
		print_message("SKIP: mknod refused even outside the sandbox: %s\n",
			      strerror(errno));
		rmdir(dir);
		skip();
	}
	unlink(node);
	snprintf(node, sizeof(node), "%s/nvidiactl", dir);
	snprintf(text, sizeof(text), "[nvml]\ndriver_version = 550.54.15\nmknod.nvmlInit_v2 = %s\n",
		 node);
	set_scenario(text);
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	created = stat(node, &st) == 0;
	unlink(node);
	rmdir(dir);
	assert_str(t, "init", "NVML_SUCCESS");
	assert_false(created);
	json_decref(t);
}

/* ---- a hostile library ------------------------------------------------------------ */

static struct vendor_result hostile_run(const char *scenario_text)
{
	struct vendor_req req = { .library = fake("libnvidia-ml.so.1"), .timeout_ms = 10000 };
	struct vendor_result r;

	set_scenario(scenario_text);
	assert_int_equal(vendor_run(vendor_nvml_start, &req, &r), 0);
	return r;
}

/* Whether this kernel offers Landlock (landlock_create_ruleset(2), the version query). */
static bool kernel_has_landlock(void)
{
	return syscall(SYS_landlock_create_ruleset, NULL, 0, 1u /* ..._VERSION */) >= 1;
}

/* Whether the child ran under Landlock (its "sandbox" fact says which ABI). */
static bool under_landlock(const struct vendor_result *r)
{
	const char *v = json_string_value(jget(r->tree, "sandbox.value"));

	return v && strstr(v, "landlock ABI ");
}

/* It may not create a file, nor grow one that exists. */
static void test_hostile_writes(void **state)
{
	char dir[] = "/tmp/gpuenv-test-hostile-XXXXXX", made[300], grown[300], text[800];
	struct vendor_result r;
	struct stat st;
	bool created;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(made, sizeof(made), "%s/created", dir);
	snprintf(grown, sizeof(grown), "%s/existing", dir);
	fd = open(grown, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(text, sizeof(text),
		 "[nvml]\ndriver_version = 550.54.15\nwrite_file.nvmlInit_v2 = %s\n"
		 "write_file.nvmlSystemGetDriverVersion = %s\n",
		 made, grown);
	r = hostile_run(text);
	created = stat(made, &st) == 0;
	unlink(made);
	assert_int_equal(stat(grown, &st), 0);
	unlink(grown);
	rmdir(dir);
	if (created)
		fail_msg("the library created %s (stderr: %s)", made, stderr_text(&r));
	if (st.st_size != 0)
		fail_msg("the library grew %s to %lld bytes", grown, (long long)st.st_size);
	assert_null(r.failure);
	assert_str(r.tree, "init", "NVML_SUCCESS");
	/* The open that would create it: the filter refuses it, or Landlock (ABI 3 on), to
	 * which the filter then leaves it. */
	snprintf(text, sizeof(text), "write_file %s: open: %s", made,
		 landlock_abi(&r) >= 3 ? "Permission denied" : "Operation not permitted");
	assert_non_null(strstr(stderr_text(&r), text));
	/* Landlock refuses the open; without it RLIMIT_FSIZE refuses the write. */
	if (under_landlock(&r)) {
		/* The open for appending is refused, then the one that would create it. */
		snprintf(text, sizeof(text), "write_file %s: open: ", grown);
		assert_non_null(strstr(stderr_text(&r), text));
	} else
		assert_non_null(strstr(stderr_text(&r), "write: File too large"));
	vendor_result_done(&r);
}

/* Nor empty one that exists (ftruncate shrinks past RLIMIT_FSIZE; Landlock stops it). */
static void test_hostile_truncate(void **state)
{
	char path[] = "/tmp/gpuenv-test-truncate-XXXXXX", text[400];
	struct vendor_result r;
	struct stat st;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep\n", 5), 5);
	close(fd);
	snprintf(text, sizeof(text),
		 "[nvml]\ndriver_version = 550.54.15\ntruncate_file.nvmlInit_v2 = %s\n", path);
	r = hostile_run(text);
	assert_int_equal(stat(path, &st), 0);
	unlink(path);
	if (!kernel_has_landlock()) {
		vendor_result_done(&r);
		print_message("SKIP truncate containment: no Landlock in this kernel\n");
		skip();
	}
	if (st.st_size != 5)
		fail_msg("the library emptied %s (stderr: %s)", path, stderr_text(&r));
	assert_non_null(strstr(stderr_text(&r), "open: Permission denied"));
	assert_str(r.tree, "init", "NVML_SUCCESS");
	vendor_result_done(&r);
}

/* Processes it starts do not outlive the session, nor hold it up until the deadline. */
static void test_hostile_fork(void **state)
{
	struct vendor_result r = hostile_run("[nvml]\ndriver_version = 550.54.15\n"
					     "fork.nvmlShutdown = 15\n");
	const char *err = stderr_text(&r);

	assert_true(r.elapsed_ms < 5000);
	if (strstr(err, "forked ")) {
		/* No seccomp here: the keeper killed them. */
		assert_non_null(r.failure);
		assert_non_null(strstr(r.failure, "left 15 process(es) running (killed)"));
	} else {
		assert_non_null(strstr(err, "fork: Operation not permitted"));
		assert_null(r.failure);
	}
	assert_str(r.tree, "driver_version", "550.54.15");
	vendor_result_done(&r);
}

/* Its memory is capped: 1.5 GiB is refused (malloc fails in the child). */
static void test_hostile_alloc(void **state)
{
	struct vendor_result r = hostile_run("[nvml]\ndriver_version = 550.54.15\n"
					     "alloc.nvmlInit_v2 = 1610612736\n");

	assert_non_null(strstr(stderr_text(&r), "alloc of 1610612736 bytes: failed"));
	assert_str(r.tree, "init", "NVML_SUCCESS");
	vendor_result_done(&r);
}

/* Its stderr is kept (64 KiB, escaped) and counted, not sent to the terminal. */
static void test_hostile_stderr(void **state)
{
	struct vendor_result r = hostile_run("[nvml]\ndriver_version = 550.54.15\n"
					     "stderr_flood.nvmlInit_v2 = 10000000\n");
	const char *err = stderr_text(&r);

	if (r.failure) /* say why: a fresh root's run once failed here with no reason shown */
		fail_msg("the session failed after %u ms: %s", r.elapsed_ms, r.failure);
	assert_non_null(strstr(err, "\\x1b[31mflood"));
	assert_non_null(strstr(err, "\\x07\\x00"));
	assert_null(strchr(err, '\x1b'));
	assert_non_null(strstr(err, "more bytes not kept]"));
	assert_true(strlen(err) < 64 * 1024 * 4 + 100);
	vendor_result_done(&r);
}

/* exit() in the middle of a call is not a completed session. */
static void test_hostile_exit(void **state)
{
	struct vendor_result r = hostile_run("[nvml]\ndriver_version = 550.54.15\n"
					     "exit.nvmlDeviceGetCount_v2 = 0\n");

	assert_non_null(r.failure);
	assert_string_equal(r.failure, "session ended early: exit(0) during nvmlDeviceGetCount_v2");
	assert_error_contains(r.tree, "device_count", "error", "session ended early");
	vendor_result_done(&r);
	r = hostile_run("[nvml]\ndriver_version = 550.54.15\nexit.nvmlDeviceGetCount_v2 = 3\n");
	assert_non_null(r.failure);
	assert_string_equal(r.failure,
			    "the vendor child exited with status 3 in nvmlDeviceGetCount_v2");
	vendor_result_done(&r);
}

static void *thread_fn(void *arg)
{
	return arg;
}

/* The filter itself, call by call, in a forked child: what a library needs passes, what would
 * change the machine fails with EPERM. landlock_guards_paths: O_CREAT and O_TRUNC pass the
 * filter (Landlock judges them; none in this child), O_TMPFILE still fails. */
static void seccomp_filter_run(bool landlock_guards_paths)
{
	char dir[] = "/tmp/gpuenv-test-seccomp-XXXXXX";
	int status;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char path[300];
		pthread_t t;
		int fd, fails = 0;

#define EXPECT(what, ok)                                                                           \
	do {                                                                                       \
		if (!(ok)) {                                                                       \
			fprintf(stderr, "seccomp: %s: unexpected (%s)\n", what, strerror(errno));  \
			fails++;                                                                   \
		}                                                                                  \
	} while (0)
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (vendor_sandbox_seccomp(landlock_guards_paths) < 0)
			_exit(77);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		EXPECT("opendir", fd >= 0);
		close(fd);
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		EXPECT("open O_RDWR", fd >= 0);
		close(fd);
		snprintf(path, sizeof(path), "%s/new", dir);
		if (landlock_guards_paths) {
			/* Left to Landlock (none in this child): they reach the file system, so
			 * only on paths that are not there (ENOENT) or in the test's directory. */
			char made[320], missing[320];

			snprintf(made, sizeof(made), "%s/made", dir);
			snprintf(missing, sizeof(missing), "%s/missing/x", dir);
			fd = open(made, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			EXPECT("open O_CREAT | O_TRUNC", fd >= 0);
			close(fd);
			EXPECT("unlink", unlink(missing) < 0 && errno == ENOENT);
			EXPECT("rmdir", rmdir(missing) < 0 && errno == ENOENT);
			EXPECT("truncate", truncate(missing, 0) < 0 && errno == ENOENT);
			EXPECT("rename", rename(missing, path) < 0 && errno == ENOENT);
			EXPECT("symlink", symlink(dir, missing) < 0 && errno == ENOENT);
		} else {
			EXPECT("open O_CREAT",
			       open(path, O_WRONLY | O_CREAT, 0600) < 0 && errno == EPERM);
			EXPECT("creat", creat(path, 0600) < 0 && errno == EPERM);
			EXPECT("O_TRUNC", open(scenario, O_WRONLY | O_TRUNC) < 0 && errno == EPERM);
			EXPECT("rmdir", rmdir(dir) < 0 && errno == EPERM);
			EXPECT("unlink", unlink(scenario) < 0 && errno == EPERM);
			EXPECT("truncate", truncate(scenario, 0) < 0 && errno == EPERM);
			EXPECT("rename", rename(scenario, path) < 0 && errno == EPERM);
			EXPECT("symlink", symlink(dir, path) < 0 && errno == EPERM);
		}
		EXPECT("O_TMPFILE", open(dir, O_TMPFILE | O_RDWR, 0600) < 0 && errno == EPERM);
		EXPECT("mkdir", mkdir(path, 0700) < 0 && errno == EEXIST);
		EXPECT("chmod", chmod(dir, 0777) < 0 && errno == EPERM);
		EXPECT("fork", fork() < 0 && errno == EPERM);
		EXPECT("execve", execl("/bin/true", "true", (char *)NULL) < 0 && errno == EPERM);
		EXPECT("kill other", kill(getppid(), 0) < 0 && errno == EPERM);
		EXPECT("kill self", kill(getpid(), 0) == 0);
		EXPECT("thread", pthread_create(&t, NULL, thread_fn, NULL) == 0 &&
					 pthread_join(t, NULL) == 0);
#undef EXPECT
		_exit(fails ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (landlock_guards_paths) { /* what the child made */
		char made[320];

		snprintf(made, sizeof(made), "%s/made", dir);
		unlink(made);
	}
	rmdir(dir);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		print_message("SKIP: no seccomp filter on this kernel or architecture\n");
		skip();
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_seccomp_filter(void **state)
{
	seccomp_filter_run(false);
}

static void test_seccomp_filter_with_landlock(void **state)
{
	seccomp_filter_run(true);
}

/* How it was held is recorded. */
static void test_sandbox_recorded(void **state)
{
	struct vendor_result r = hostile_run("[nvml]\ndriver_version = 550.54.15\n");
	const char *v = json_string_value(jget(r.tree, "sandbox.value"));

	assert_non_null(v);
	assert_true(strstr(v, "pid namespace") == v || strstr(v, "subreaper") == v);
	if (getenv("GPUENV_TEST_CONTAINMENT"))
		assert_ptr_equal(strstr(v, getenv("GPUENV_TEST_CONTAINMENT")), v);
	assert_non_null(strstr(v, "RLIMIT_FSIZE 0"));
	assert_non_null(strstr(v, "private HOME"));
#if defined(__x86_64__) || defined(__aarch64__)
	assert_non_null(strstr(v, ", seccomp,"));
#endif
	assert_null(jget(r.tree, "stderr"));
	vendor_result_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandbox_blocks_mknod),
		cmocka_unit_test(test_hostile_writes),
		cmocka_unit_test(test_hostile_truncate),
		cmocka_unit_test(test_hostile_fork),
		cmocka_unit_test(test_hostile_alloc),
		cmocka_unit_test(test_hostile_stderr),
		cmocka_unit_test(test_hostile_exit),
		cmocka_unit_test(test_sandbox_recorded),
		cmocka_unit_test(test_seccomp_filter),
		cmocka_unit_test(test_seccomp_filter_with_landlock),
	};
	int r = vendor_test_init();

	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
