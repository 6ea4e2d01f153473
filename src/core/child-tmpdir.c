// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The private directories of vendor children (HOME, XDG_CACHE_HOME, POCL_CACHE_DIR: see
 * child.h): made under $TMPDIR or /tmp, removed with everything in it when the session ends.
 * gpuenv leaves the machine as it was even when it is stopped mid-session:
 * - SIGTERM, SIGINT, SIGHUP: while a directory exists, a handler (installed only over the
 *   default action, never over the host program's own) removes it, then the signal takes its
 *   default course (the process still ends by that signal);
 * - SIGKILL cannot be caught: the directory is named after its process
 *   (gpuenv-vendor-<pid>-<pid namespace>-XXXXXX), and the next gpuenv run removes those of
 *   processes that are gone. Only this user's own directories, only in this PID namespace
 *   (a process of another one, a container's sharing /tmp, cannot be told dead from here),
 *   never following a symbolic link.
 * The removal uses only async-signal-safe calls (openat, getdents64, unlinkat: signal-safety(7)).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "child.h"
#include "shared/macro.h"

#define TMPDIR_PREFIX "gpuenv-vendor-"
#define SLOTS	      16  /* directories alive at once (a doctor run keeps a few) */
#define SLOT_PATH     512 /* longer paths are removed normally, not from a handler */
#define REMOVE_DEPTH  64  /* against a hostile tree */

/* ---- removal, async-signal-safe ------------------------------------------------------ */

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Removes what dirfd holds, depth first, never following a symbolic link (unlinkat removes the
 * link itself); closes dirfd. Entries are read again after a pass that removed some, since
 * removing while reading may skip entries. */
static int remove_contents(int dirfd, unsigned depth)
{
	_Alignas(8) char buf[1024];
	int err = 0;
	bool removed = true;

	if (depth > REMOVE_DEPTH) {
		close(dirfd);
		return -ELOOP;
	}
	for (int pass = 0; removed && pass < 8; pass++) {
		removed = false;
		if (lseek(dirfd, 0, SEEK_SET) < 0)
			break;
		for (;;) {
			long n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf));

			if (n <= 0) {
				if (n < 0 && !err)
					err = -errno;
				break;
			}
			for (long off = 0; off < n;) {
				struct linux_dirent64 *e = (struct linux_dirent64 *)(buf + off);
				const char *name = e->d_name;
				int fd;

				off += e->d_reclen;
				if (!strcmp(name, ".") || !strcmp(name, ".."))
					continue;
				if (unlinkat(dirfd, name, 0) == 0) {
					removed = true;
					continue;
				}
				fd = openat(dirfd, name,
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (fd >= 0) {
					int r = remove_contents(fd, depth + 1);

					if (r < 0 && !err)
						err = r;
				}
				if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0)
					removed = true;
				else if (!err)
					err = -errno;
			}
		}
	}
	close(dirfd);
	return err;
}

/* Removes path (relative to at) and what it holds; ENOENT is success. */
static int remove_tree_at(int at, const char *path)
{
	int fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), err;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	err = remove_contents(fd, 0);
	if (unlinkat(at, path, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	return err == -ENOENT ? 0 : err;
}

/* ---- the directories alive now, for the signal handler -------------------------------- */

static struct {
	char path[SLOT_PATH];
	int used; /* atomic: published after path is written */
} slots[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t slots_owner; /* a forked child inherits the handler, not the directories */
static unsigned slots_alive;
static const int caught[] = { SIGTERM, SIGINT, SIGHUP };
static bool installed[ARRAY_SIZE(caught)];

static void on_signal(int sig)
{
	int saved = errno;

	for (size_t i = 0; i < SLOTS && getpid() == __atomic_load_n(&slots_owner, __ATOMIC_ACQUIRE);
	     i++)
		if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE))
			remove_tree_at(AT_FDCWD, slots[i].path);
	/* then what the signal would have done: the process ends by it */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

/* Called with slots_lock held: handlers while any directory exists, the defaults after. */
static void handlers_update(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
		struct sigaction old, sa = { .sa_handler = on_signal };

		if (slots_alive && !installed[i]) {
			if (sigaction(caught[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL ||
			    (old.sa_flags & SA_SIGINFO))
				continue; /* the host program's own handler (or SIG_IGN) stays */
			sigfillset(&sa.sa_mask);
			installed[i] = sigaction(caught[i], &sa, NULL) == 0;
		} else if (!slots_alive && installed[i]) {
			if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == on_signal)
				signal(caught[i], SIG_DFL);
			installed[i] = false;
		}
	}
}

static void slot_add(const char *path)
{
	if (strlen(path) >= SLOT_PATH)
		return;
	pthread_mutex_lock(&slots_lock);
	for (size_t i = 0; i < SLOTS; i++)
		if (!__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE)) {
			memcpy(slots[i].path, path, strlen(path) + 1);
			__atomic_store_n(&slots_owner, getpid(), __ATOMIC_RELEASE);
			__atomic_store_n(&slots[i].used, 1, __ATOMIC_RELEASE);
			slots_alive++;
			handlers_update();
			break;
		}
	pthread_mutex_unlock(&slots_lock);
}

static void slot_drop(const char *path)
{
	pthread_mutex_lock(&slots_lock);
	for (size_t i = 0; i < SLOTS; i++)
		if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE) &&
		    !strcmp(slots[i].path, path)) {
			__atomic_store_n(&slots[i].used, 0, __ATOMIC_RELEASE);
			slots_alive--;
			handlers_update();
			break;
		}
	pthread_mutex_unlock(&slots_lock);
}

/* ---- directories left by killed runs -------------------------------------------------- */

/* This process's PID namespace (its inode number), or 0 where /proc does not tell. */
static uint64_t pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* Removes the directories under tmp of this user's gpuenv processes of this PID namespace
 * that no longer exist (killed by SIGKILL mid-session). Once a process. */
static void remove_stale(const char *tmp, uint64_t ns)
{
	static int done;
	DIR *d;
	struct dirent *e;

	if (!ns || __atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	d = opendir(tmp);
	if (!d)
		return;
	while ((e = readdir(d))) {
		unsigned long long pid, dir_ns;
		struct stat st;
		int end = 0;

		if (strncmp(e->d_name, TMPDIR_PREFIX, strlen(TMPDIR_PREFIX)) != 0 ||
		    sscanf(e->d_name + strlen(TMPDIR_PREFIX), "%llu-%llu-%n", &pid, &dir_ns,
			   &end) != 2 ||
		    !end || dir_ns != ns || pid == 0 || pid > INT32_MAX || (pid_t)pid == getpid())
			continue;
		/* ESRCH: no such process; EPERM means one is there (another user's) */
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		remove_tree_at(dirfd(d), e->d_name);
	}
	closedir(d);
}

/* ---- the API (child.h) ---------------------------------------------------------------- */

const char *child_tmp_base(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && tmp[0] == '/' ? tmp : "/tmp";
}

int child_tmpdir_create(char **ret_path)
{
	const char *tmp = child_tmp_base();
	uint64_t ns = pid_namespace();
	char *path;

	remove_stale(tmp, ns);
	if (asprintf(&path, "%s/" TMPDIR_PREFIX "%ld-%" PRIu64 "-XXXXXX", tmp, (long)getpid(), ns) <
	    0)
		return -ENOMEM;
	if (!mkdtemp(path)) {
		int err = -errno;

		free(path);
		return err;
	}
	slot_add(path);
	*ret_path = path;
	return 0;
}

int child_tmpdir_put(const char *dir, const char *name, const char *text)
{
	_cleanup_free_ char *sub = NULL;
	const char *slash = strchr(name, '/');
	int dfd, fd, err = 0;

	if (!*name || name[0] == '/' || (slash && strchr(slash + 1, '/')) || strstr(name, ".."))
		return -EINVAL;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (slash) {
		sub = strndup(name, (size_t)(slash - name));
		if (!sub) {
			close(dfd);
			return -ENOMEM;
		}
		if (mkdirat(dfd, sub, 0700) < 0 && errno != EEXIST)
			err = -errno;
	}
	fd = err < 0 ? -1
		     : openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      0600);
	if (fd < 0 && !err)
		err = -errno;
	close(dfd);
	if (fd >= 0) {
		for (size_t len = strlen(text); len > 0;) {
			ssize_t k = write(fd, text, len);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break; /* a short file: the library finds less configuration */
			text += k;
			len -= (size_t)k;
		}
		if (close(fd) < 0)
			err = -errno;
	}
	return err;
}

int child_tmpdir_remove(const char *path)
{
	int err;

	if (!path)
		return 0;
	err = remove_tree_at(AT_FDCWD, path);
	slot_drop(path);
	return err;
}
