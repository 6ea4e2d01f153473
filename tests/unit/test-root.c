// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of src/core/root.c: absolute and relative symlinks resolve inside the root,
 * ".." never escapes it, loops end in ELOOP, caps give EFBIG, injected errors surface —
 * each through openat2 and through the forced userspace walk; and errno-name.c's names.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/root.h"
#include "shared/strv.h"
#include "testhooks/testhooks.h"
#include "tmptree.h"

static char dir[TMPTREE_DIR_MAX];

static void put(const char *rel, const char *text)
{
	tmptree_puts(dir, rel, text);
}

static void mk(const char *rel)
{
	tmptree_mkdir(dir, rel);
}

static void ln(const char *target, const char *rel)
{
	tmptree_symlink(dir, rel, target);
}

static int setup(void **state)
{
	assert_non_null(tmptree_new(dir, "test-root"));
	mk("etc");
	mk("etc/alternatives");
	mk("usr");
	mk("usr/local");
	mk("usr/local/cuda-12.4");
	put("usr/local/cuda-12.4/version.json", "{\"cuda\":{\"version\":\"12.4.1\"}}\n");
	/* The real layout: /usr/local/cuda -> /etc/alternatives/cuda -> /usr/local/cuda-12.4 */
	ln("/etc/alternatives/cuda", "usr/local/cuda");
	ln("/usr/local/cuda-12.4", "etc/alternatives/cuda");
	ln("../../../../../../etc/passwd-in-root", "usr/local/escape");
	put("etc/passwd-in-root", "inside\n");
	ln("loop-b", "etc/loop-a");
	ln("loop-a", "etc/loop-b");
	put("etc/value", "0x10de\n");
	put("etc/bad-value", "zz\n");
	return 0;
}

static int teardown(void **state)
{
	return tmptree_remove(dir) == 0 ? 0 : -1;
}

static void check_root(unsigned flags)
{
	struct root *r;
	char *text = NULL, *resolved = NULL;
	uint64_t v;

	assert_int_equal(root_new(dir, flags, &r), 0);
	assert_false(root_is_live(r));
	/* Absolute links stay inside the root: the host has no /usr/local/cuda-12.4. */
	assert_int_equal(root_read_text(r, "/usr/local/cuda/version.json", 4096, &text), 0);
	assert_string_equal(text, "{\"cuda\":{\"version\":\"12.4.1\"}}");
	free(text);
	assert_int_equal(root_resolve(r, "/usr/local/cuda", &resolved), 0);
	assert_string_equal(resolved, "/usr/local/cuda-12.4");
	free(resolved);
	/* ".." past the top stays at the top. */
	assert_int_equal(root_read_text(r, "/usr/local/escape", 4096, &text), 0);
	assert_string_equal(text, "inside");
	free(text);
	assert_int_equal(root_read_text(r, "/etc/loop-a", 4096, &text), -ELOOP);
	assert_int_equal(root_read_text(r, "/etc/missing", 4096, &text), -ENOENT);
	assert_int_equal(root_read_text(r, "/usr/local/cuda/version.json", 8, &text), -EFBIG);
	assert_int_equal(root_read_u64(r, "/etc/value", &v), 0);
	assert_int_equal(v, 0x10de);
	assert_int_equal(root_read_u64(r, "/etc/bad-value", &v), -EBADMSG);
	assert_int_equal(root_readlink(r, "/usr/local/cuda", &text), 0);
	assert_string_equal(text, "/etc/alternatives/cuda");
	free(text);
	assert_int_equal(testhooks_root_inject_errors(r, "/etc/value=EACCES"), 0);
	assert_int_equal(root_read_u64(r, "/etc/value", &v), -EACCES);
	root_free(r);
}

static void test_openat2(void **state)
{
	check_root(0);
}

static void test_userspace_walk(void **state)
{
	check_root(ROOT_NO_OPENAT2);
}

/* Renames, anywhere on the system, while the other thread resolves "..": what makes openat2
 * with RESOLVE_IN_ROOT fail with EAGAIN (openat2(2), ERRORS). */
static volatile int renaming;

static void *rename_storm(void *arg)
{
	char a[TMPTREE_DIR_MAX + 16], b[TMPTREE_DIR_MAX + 16];

	snprintf(a, sizeof(a), "%s/storm-a", (const char *)arg);
	snprintf(b, sizeof(b), "%s/storm-b", (const char *)arg);
	close(open(a, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	while (renaming) {
		(void)rename(a, b);
		(void)rename(b, a);
	}
	return NULL;
}

/* A read through a link with ".." (as every /sys/bus/pci/devices/<bdf> is) never fails because
 * something else renamed a file meanwhile: that is a retry, not an unreadable fact. */
static void test_openat2_rename_race(void **state)
{
	struct root *r;
	pthread_t t;
	unsigned failed = 0;
	int last = 0;

	assert_int_equal(root_new(dir, 0, &r), 0);
	renaming = 1;
	assert_int_equal(pthread_create(&t, NULL, rename_storm, dir), 0);
	for (unsigned i = 0; i < 20000; i++) {
		char *text = NULL;
		int err = root_read_text(r, "/usr/local/escape", 4096, &text);

		if (err < 0) {
			failed++;
			last = err;
		}
		free(text);
	}
	renaming = 0;
	pthread_join(t, NULL);
	root_free(r);
	if (failed)
		fail_msg("%u of 20000 reads failed (last: %s)", failed, strerror(-last));
}

static void test_list_dir_sorted(void **state)
{
	struct root *r;
	char **names;

	assert_int_equal(root_new(dir, 0, &r), 0);
	assert_int_equal(root_list_dir(r, "/etc", 100, &names), 0);
	assert_string_equal(names[0], "alternatives");
	assert_string_equal(names[1], "bad-value");
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
	assert_int_equal(root_list_dir(r, "/etc", 2, &names), -E2BIG);
	root_free(r);
}

/* While listings are kept, a directory is read once per collection, whatever name it is asked
 * by (merged /usr): a later change is not seen, an alias gets the same names, a smaller max
 * still says -E2BIG. Off again, it is read afresh. */
static void test_list_dir_cached(void **state)
{
	struct root *r;
	char **names, **alias;

	mk("cached");
	put("cached/a", "");
	ln("cached", "cached-alias");
	assert_int_equal(root_new(dir, ROOT_TRACE, &r), 0);
	root_cache_listings(r, true);
	assert_int_equal(root_list_dir(r, "/cached", 100, &names), 0);
	strv_free(names);
	put("cached/b", "");
	assert_int_equal(root_list_dir(r, "/cached-alias", 100, &alias), 0);
	assert_int_equal(strv_length(alias), 1);
	assert_string_equal(alias[0], "a");
	strv_free(alias);
	assert_int_equal(root_list_dir(r, "/cached", 0, &names), -E2BIG);
	/* Still opened each time: what --trace-paths shows does not change. */
	assert_non_null(strstr(root_trace(r), "/cached-alias\n"));
	root_cache_listings(r, false);
	assert_int_equal(root_list_dir(r, "/cached", 100, &names), 0);
	assert_int_equal(strv_length(names), 2);
	strv_free(names);
	root_free(r);
}

/* Borrowed listings: the kept names themselves (an alias gets the very same vector, a copy
 * is never made), sorted, with their count; -E2BIG and errors as root_list_dir(). Not cached,
 * each stays valid until the root is freed (ASan sees a use after free otherwise). */
static void test_list_dir_borrowed_not_copied(void **state)
{
	const char *const *names, *const *alias, *const *fresh, *const *again;
	struct root *r;
	size_t n = 0;

	mk("borrowed");
	put("borrowed/b", "");
	put("borrowed/a", "");
	put("borrowed/c", "");
	ln("borrowed", "borrowed-alias");
	assert_int_equal(root_new(dir, 0, &r), 0);
	root_cache_listings(r, true);
	assert_int_equal(root_list_dir_borrow(r, "/borrowed", 100, &names, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "b");
	assert_string_equal(names[2], "c");
	assert_null(names[3]);
	assert_int_equal(root_list_dir_borrow(r, "/borrowed-alias", 100, &alias, NULL), 0);
	assert_ptr_equal(alias, names);
	assert_int_equal(root_list_dir_borrow(r, "/borrowed", 2, &alias, NULL), -E2BIG);
	assert_int_equal(root_list_dir_borrow(r, "/no-such-dir", 100, &alias, NULL), -ENOENT);
	root_cache_listings(r, false);
	put("borrowed/d", "");
	assert_int_equal(root_list_dir_borrow(r, "/borrowed", 100, &fresh, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(root_list_dir_borrow(r, "/borrowed", 100, &again, &n), 0);
	assert_ptr_not_equal(again, fresh);
	assert_string_equal(fresh[3], "d");
	assert_string_equal(again[3], "d");
	assert_int_equal(root_list_dir_borrow(r, "/borrowed", 3, &again, NULL), -E2BIG);
	root_free(r);
}

static void test_bad_root(void **state)
{
	struct root *r;

	assert_int_equal(root_new("/nonexistent-gpuenv-root", 0, &r), -ENOENT);
	assert_int_equal(root_new("/etc/hostname", 0, &r), -ENOTDIR);
}

static void test_trace(void **state)
{
	struct root *r;
	char *text;

	assert_int_equal(root_new(dir, ROOT_TRACE, &r), 0);
	assert_int_equal(root_read_text(r, "/etc/missing", 10, &text), -ENOENT);
	assert_non_null(strstr(root_trace(r), "ENOENT\t/etc/missing\n"));
	root_free(r);
}

/* Files are opened with O_NOATIME (reading changes not even access times) where the kernel
 * allows it, the owner's or CAP_FOWNER's; anyone else still reads them, without it. */
static void test_open_noatime(void **state)
{
	struct root_file f = ROOT_FILE_NULL;
	struct root *r;
	pid_t pid;
	int status;

	assert_int_equal(root_new(dir, 0, &r), 0);
	assert_int_equal(root_file_open(r, "/usr/local/cuda/version.json", 4096, &f), 0);
	assert_true(fcntl(f.fd, F_GETFL) & O_NOATIME); /* our own file */
	root_file_close(&f);
	root_free(r);
	if (geteuid() != 0) {
		printf("SKIP O_NOATIME refused to another user: not root, cannot become "
		       "another user\n");
		return;
	}
	/* as nobody: O_NOATIME is refused (EPERM), the file is read all the same */
	assert_int_equal(chmod(dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = setresgid(65534, 65534, 65534) == 0 &&
			 setresuid(65534, 65534, 65534) == 0 && root_new(dir, 0, &r) == 0 &&
			 root_file_open(r, "/usr/local/cuda/version.json", 4096, &f) == 0 &&
			 !(fcntl(f.fd, F_GETFL) & O_NOATIME) &&
			 root_file_open(r, "/etc/value", 4096, &f) == 0;
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* root_file: opened inside the root (through the link), read at offsets, mapped; caps,
 * directories and injected errors refused at open, each open one trace record. */
static void test_file_pread(void **state)
{
	struct root_file f = ROOT_FILE_NULL;
	struct root_map m = { 0 };
	struct root *r;
	char buf[16];

	assert_int_equal(root_new(dir, ROOT_TRACE, &r), 0);
	assert_int_equal(root_file_open(r, "/usr/local/cuda/version.json", 4096, &f), 0);
	assert_true(f.fd >= 0);
	assert_int_equal(f.size, 30);
	assert_int_equal(root_file_pread(&f, buf, 7, 10), 7);
	assert_memory_equal(buf, "version", 7);
	/* short only at the end of the file */
	assert_int_equal(root_file_pread(&f, buf, 16, 26), 4);
	assert_memory_equal(buf, "\"}}\n", 4);
	assert_int_equal(root_file_pread(&f, buf, 16, 30), 0);
	assert_int_equal(root_file_map(&f, &m), 0);
	assert_int_equal(m.len, 30);
	assert_memory_equal(m.data, "{\"cuda\"", 7);
	root_unmap(&m);
	root_file_close(&f);
	assert_int_equal(f.fd, -1);
	root_file_close(&f); /* twice: harmless */
	assert_int_equal(root_file_pread(&f, buf, 1, 0), -EBADF);
	assert_non_null(strstr(root_trace(r), "ok\t/usr/local/cuda/version.json\n"));

	assert_int_equal(root_file_open(r, "/usr/local/cuda/version.json", 8, &f), -EFBIG);
	assert_int_equal(root_file_open(r, "/etc", 4096, &f), -EISDIR);
	assert_int_equal(root_file_open(r, "/etc/missing", 4096, &f), -ENOENT);
	assert_int_equal(root_file_open(r, "/etc/loop-a", 4096, &f), -ELOOP);
	assert_int_equal(testhooks_root_inject_errors(r, "/etc/value=EIO"), 0);
	assert_int_equal(root_file_open(r, "/etc/value", 4096, &f), -EIO);
	assert_non_null(strstr(root_trace(r), "EIO\t/etc/value\n"));
	assert_int_equal(f.fd, -1); /* untouched on failure */
	root_free(r);
}

/* The names the trace and the snapshot print, and back (src/core/errno-name.c): the longest
 * name fills its table's array, an unknown number or name has its own answer. */
static void test_errno_names(void **state)
{
	static const int known[] = { EPERM, ENOENT,    EACCES,	     ENOTDIR,	      EINVAL,
				     ELOOP, ETIMEDOUT, ENAMETOOLONG, EPROTONOSUPPORT, ESRCH };

	(void)state;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_int_equal(errno_from_name(errno_name(known[i])), known[i]);
		assert_string_equal(errno_name(-known[i]), errno_name(known[i]));
	}
	assert_string_equal(errno_name(EACCES), "EACCES");
	assert_string_equal(errno_name(-EPROTONOSUPPORT), "EPROTONOSUPPORT");
	assert_string_equal(errno_name(0), "ok");
	assert_string_equal(errno_name(EHWPOISON), "EUNKNOWN");
	assert_int_equal(errno_from_name("ENAMETOOLONG"), ENAMETOOLONG);
	assert_int_equal(errno_from_name("EPROTONOSUPPORTX"), 0);
	assert_int_equal(errno_from_name("ok"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openat2),
		cmocka_unit_test(test_userspace_walk),
		cmocka_unit_test(test_list_dir_sorted),
		cmocka_unit_test(test_list_dir_cached),
		cmocka_unit_test(test_list_dir_borrowed_not_copied),
		cmocka_unit_test(test_bad_root),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_file_pread),
		cmocka_unit_test(test_open_noatime),
		cmocka_unit_test(test_openat2_rename_race),
		cmocka_unit_test(test_errno_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
