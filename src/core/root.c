// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sysroot-aware file API (see root.h). Resolution:
 *  - openat2(2) with RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS (Linux 5.6, openat2(2) man page)
 *    makes ".." and absolute symlinks stop at the root fd;
 *  - when the kernel lacks it (ENOSYS) or a seccomp filter refuses it (EPERM, Docker's default
 *    profile: moby/moby#42871), a userspace walk does the same component by component, as
 *    libnvidia-container's path_resolve() does, with the kernel's 40-link limit (ELOOP).
 * This is the only file in src/ that calls open/openat/readlinkat/fstatat.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "layers.h"
#include "root-listing.h"
#include "root.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define ROOT_MAX_SYMLINKS 40 /* MAXSYMLINKS, path_resolution(7) */

/* A directory's sorted names, kept by device and inode (root_cache_listings()). */
struct root_listing {
	dev_t dev;
	ino_t ino;
	size_t n;
	char **names; /* one block: the vector, then the strings */
};

struct root {
	int fd;		       /* O_PATH | O_DIRECTORY of the root; -1 for a layered tree */
	struct layers *layers; /* --image: a virtual tree of tar layers (layers.h) */
	char *host_path;       /* as given, for messages */
	bool live;
	unsigned flags;
	bool openat2_broken;	 /* learnt at run time: ENOSYS / EPERM seen */
	bool noatime_refused;	 /* learnt at run time: O_NOATIME gave EPERM (root_open_regular) */
	bool cache_listings;	 /* root_cache_listings() */
	root_access_hook_t hook; /* root_set_access_hook(): consulted first on every path */
	void *hook_data;
	void (*hook_free)(void *data);
	struct strbuf trace;
	/* Listings kept while root_cache_listings() is on, by directory identity. */
	struct root_listing *listings;
	size_t n_listings, cap_listings;
};

int root_new(const char *path, unsigned flags, struct root **ret)
{
	_cleanup_free_ struct root *r = NULL;
	struct stat st;
	int fd;

	if (!path || !*path)
		path = "/";
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		/* A plain file given as the root is ENOTDIR; say so rather than ENOENT. */
		if (err == -ENOTDIR || (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)))
			return -ENOTDIR;
		return err;
	}
	r->fd = fd;
	r->host_path = strdup(path);
	if (!r->host_path) {
		close(fd);
		return -ENOMEM;
	}
	r->live = strcmp(path, "/") == 0;
	r->flags = flags;
	strbuf_init(&r->trace, (size_t)8 << 20);
	/* Fail early on an unreadable root: an O_PATH fd opens even without permission. */
	{
		int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0) {
			int err = -errno;

			close(fd);
			free(r->host_path);
			return err;
		}
		close(dfd);
	}
	*ret = TAKE_PTR(r);
	return 0;
}

int root_new_layers(struct layers *t, const char *name, unsigned flags, struct root **ret)
{
	struct root *r = calloc(1, sizeof(*r));

	if (!r || !(r->host_path = strdup(name))) {
		free(r);
		layers_free(t);
		return -ENOMEM;
	}
	r->fd = -1;
	r->layers = t;
	r->flags = flags | ROOT_NO_OPENAT2;
	strbuf_init(&r->trace, (size_t)8 << 20);
	*ret = r;
	return 0;
}

struct root *root_free(struct root *r)
{
	if (!r)
		return NULL;
	if (r->fd >= 0)
		close(r->fd);
	layers_free(r->layers);
	if (r->hook_free)
		r->hook_free(r->hook_data);
	strbuf_done(&r->trace);
	root_cache_listings(r, false);
	free(r->host_path);
	free(r);
	return NULL;
}

bool root_is_live(const struct root *r)
{
	return r->live;
}

const char *root_host_path(const struct root *r)
{
	return r->host_path;
}

void root_set_access_hook(struct root *r, root_access_hook_t hook, void *data,
			  void (*free_data)(void *data))
{
	if (r->hook_free)
		r->hook_free(r->hook_data);
	r->hook = hook;
	r->hook_data = data;
	r->hook_free = free_data;
}

void *root_access_hook_data(const struct root *r, root_access_hook_t hook)
{
	return r->hook == hook ? r->hook_data : NULL;
}

const char *root_trace(const struct root *r)
{
	return strbuf_str(&r->trace);
}

static int root_record(struct root *r, const char *path, int result)
{
	if (r->flags & ROOT_TRACE)
		strbuf_printf(&r->trace, "%s\t%s\n", result < 0 ? errno_name(result) : "ok", path);
	return result;
}

void root_trace_read(struct root *r, const char *path, uint64_t off, uint64_t len)
{
	if ((r->flags & (ROOT_TRACE | ROOT_TRACE_READS)) == (ROOT_TRACE | ROOT_TRACE_READS) && len)
		strbuf_printf(&r->trace, "read %" PRIu64 " %" PRIu64 "\t%s\n", off, len, path);
}

/* ROOT_TRACE_READS: f remembers its root and path, so its reads and mappings are recorded. */
static int trace_reads_of(struct root *r, const char *path, struct root_file *f)
{
	if ((r->flags & (ROOT_TRACE | ROOT_TRACE_READS)) != (ROOT_TRACE | ROOT_TRACE_READS))
		return 0;
	f->trace_path = strdup(path);
	if (!f->trace_path)
		return -ENOMEM;
	f->trace_root = r;
	return 0;
}

/* Relative form of an absolute in-root path ("/" → "."). */
static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

/* Every entry point that takes a path starts here: absolute paths only, then the access hook
 * (whose answer therefore applies the same on every resolution path below). */
static int root_check(const struct root *r, const char *path)
{
	if (!path || path[0] != '/')
		return -EINVAL;
	return r->hook ? r->hook(r->hook_data, path) : 0;
}

/* Live, the root is "/": the kernel resolves exactly as the walk would, in one call instead of
 * one fstatat per component (a report stats a few thousand paths). ROOT_NO_OPENAT2 forces the
 * walk here too, so the tests exercise it on the live root. */
static bool root_kernel_resolves(const struct root *r)
{
	return r->live && !(r->flags & ROOT_NO_OPENAT2);
}

/*
 * Userspace resolution inside the root. Produces the canonical relative path of `path`
 * (following a final symlink too when follow_last). Components are kept in a strbuf as
 * "a/b/c"; ".." pops one, never past the root.
 */
static int walk_resolve(struct root *r, const char *path, bool follow_last, char **ret)
{
	_cleanup_free_ char *todo = strdup(path);
	struct strbuf done = STRBUF_INIT;
	unsigned links = 0;
	char *p;
	int err = 0;

	if (!todo)
		return -ENOMEM;
	strbuf_init(&done, PATH_MAX * 4);
	p = todo;
	for (;;) {
		struct stat st;
		size_t keep;
		bool last;
		char *comp = path_next_component(&p, &last);

		if (!comp)
			break;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *s = done.len ? strrchr(done.buf, '/') : NULL;

			done.len = s ? (size_t)(s - done.buf) : 0;
			if (done.buf)
				done.buf[done.len] = '\0';
			continue;
		}
		keep = done.len;
		if (done.len)
			strbuf_putc(&done, '/');
		strbuf_puts(&done, comp);
		if (done.err) {
			err = done.err == -EFBIG ? -ENAMETOOLONG : done.err;
			goto out;
		}
		if (fstatat(r->fd, done.buf, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			err = -errno;
			/* A missing last component is fine for the caller to report. */
			if (err == -ENOENT && last)
				err = 0;
			if (err < 0)
				goto out;
			break;
		}
		if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
			char target[PATH_MAX];
			ssize_t n;
			char *rest;

			if (++links > ROOT_MAX_SYMLINKS) {
				err = -ELOOP;
				goto out;
			}
			n = readlinkat(r->fd, done.buf, target, sizeof(target) - 1);
			if (n < 0) {
				err = -errno;
				goto out;
			}
			target[n] = '\0';
			/* Drop the link itself; an absolute target restarts at the root. */
			done.len = target[0] == '/' ? 0 : keep;
			done.buf[done.len] = '\0';
			if (asprintf(&rest, "%s/%s", target, p) < 0) {
				err = -ENOMEM;
				goto out;
			}
			free(todo);
			todo = rest;
			p = todo;
			continue;
		}
		if (!last && !S_ISDIR(st.st_mode)) {
			err = -ENOTDIR;
			goto out;
		}
	}
	if (asprintf(ret, "%s", done.len ? done.buf : ".") < 0)
		err = -ENOMEM;
out:
	strbuf_done(&done);
	return err;
}

/*
 * Where path is, for an *at() call on r->fd: the path itself when the kernel resolves (it
 * follows the last link unless told AT_SYMLINK_NOFOLLOW), else the walk's canonical path
 * (stored in *storage), whose last component is never a link left to follow. Returns the
 * AT_* flags for the call, or -errno.
 */
static int root_locate(struct root *r, const char *path, bool follow_last, char **storage,
		       const char **ret)
{
	int err;

	if (root_kernel_resolves(r)) {
		*ret = rel(path);
		return follow_last ? 0 : AT_SYMLINK_NOFOLLOW;
	}
	err = walk_resolve(r, path, follow_last, storage);
	if (err < 0)
		return err;
	*ret = *storage;
	return AT_SYMLINK_NOFOLLOW;
}

#define ROOT_OPENAT2_TRIES 8

static int root_openat2(struct root *r, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if ((r->flags & ROOT_NO_OPENAT2) || r->openat2_broken)
		return -ENOSYS;
	/* EAGAIN: a ".." was resolved while something anywhere on the system renamed or mounted,
	 * and the kernel could not prove it stayed inside (openat2(2), ERRORS: "the caller may
	 * choose to retry"). A busy machine does that all the time; after a few tries the
	 * userspace walk resolves it instead. Never an unreadable fact. */
	for (unsigned tries = 0;; tries++) {
		fd = syscall(SYS_openat2, r->fd, rel(path), &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
		if (tries == ROOT_OPENAT2_TRIES)
			return -ENOSYS;
	}
	if (fd < 0) {
		int err = -errno;

		if (err == -ENOSYS || err == -EPERM || err == -E2BIG) {
			/* EPERM may also be a real permission error: the walk will tell. */
			if (err != -EPERM)
				r->openat2_broken = true;
			return -ENOSYS;
		}
		return err;
	}
	return (int)fd;
}

static int root_open_internal(struct root *r, const char *path, int flags)
{
	_cleanup_free_ char *resolved = NULL;
	int fd, err;

	err = root_check(r, path);
	if (err < 0)
		return err;
	if (r->layers) /* no descriptor for a directory or link of a virtual tree */
		return -EOPNOTSUPP;
	fd = root_openat2(r, path, flags);
	if (fd != -ENOSYS)
		return fd;
	err = walk_resolve(r, path, !(flags & O_NOFOLLOW), &resolved);
	if (err < 0)
		return err;
	fd = openat(r->fd, resolved, flags | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	return fd;
}

int root_open(struct root *r, const char *path, int flags)
{
	return root_record(r, path, root_open_internal(r, path, flags));
}

/* size_hint: st_size of a regular file (0 for sysfs/procfs, which report none). The bytes
 * are read straight into the result, sized for the hint: a regular file is one read(2) and
 * one copy out of the page cache, not a copy through a bounce buffer besides. */
static int read_fd_all(int fd, size_t max, size_t size_hint, char **ret, size_t *ret_len)
{
	/* Room for the hint, the one byte over the cap that tells "too big" from "exactly
	 * max", and the NUL. */
	size_t alloc = MAX((size_t)8192, MIN(size_hint, max) + 2), len = 0;
	_cleanup_free_ char *buf = malloc(alloc);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (alloc - len < 2) { /* full: grow, at most to max + 2 */
			size_t grown = alloc > (max + 2) / 2 ? max + 2 : alloc * 2;
			char *p = realloc(buf, grown);

			if (!p)
				return -ENOMEM;
			buf = p;
			alloc = grown;
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return -EFBIG;
	}
	buf[len] = '\0';
	*ret_len = len;
	*ret = TAKE_PTR(buf);
	return 0;
}

/*
 * Opens path for reading when it is a regular file of at most max bytes: -EISDIR, -EINVAL for
 * anything else (FIFOs and devices could block or never end; sysfs and procfs files are
 * regular), -EFBIG. Not traced: each caller records the outcome of its whole operation.
 */
static int root_open_regular(struct root *r, const char *path, uint64_t max, struct root_file *ret)
{
	const int flags = O_RDONLY | O_NOCTTY | O_NONBLOCK;
	_cleanup_close_ int fd = -EPERM;
	struct stat st;

	if (r->layers) {
		int err = root_check(r, path);

		if (err >= 0)
			err = layers_open_file(r->layers, path, max, &fd, &ret->base, &ret->size);
		if (err < 0)
			return err;
		ret->fd = TAKE_FD(fd);
		return 0;
	}
	/* O_NOATIME: reading leaves even the access times of what is inspected as they were,
	 * and spares the kernel its atime check on each of a scan's thousand reads. Only the
	 * owner or CAP_FOWNER may ask (open(2): EPERM); after one refusal, no more asking. */
	if (!r->noatime_refused) {
		fd = root_open_internal(r, path, flags | O_NOATIME);
		if (fd == -EPERM)
			r->noatime_refused = true;
	}
	if (fd == -EPERM)
		fd = root_open_internal(r, path, flags);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	*ret = (struct root_file){ .fd = TAKE_FD(fd), .size = (uint64_t)st.st_size };
	return 0;
}

/* A file of a layered tree: its size is exact, and its bytes start at f->base. */
static int read_file_at(const struct root_file *f, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	ssize_t n;

	if (f->size > max)
		return -EFBIG;
	buf = malloc((size_t)f->size + 1);
	if (!buf)
		return -ENOMEM;
	n = root_file_pread(f, buf, (size_t)f->size, 0);
	if (n < 0)
		return (int)n;
	if ((uint64_t)n != f->size)
		return -EIO;
	buf[n] = '\0';
	*ret_len = (size_t)n;
	*ret = TAKE_PTR(buf);
	return 0;
}

int root_read_file(struct root *r, const char *path, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	/* No size check at open: sysfs reports 4096 for every attribute, procfs 0; the read
	 * itself stops one byte past max. */
	int err = root_open_regular(r, path, UINT64_MAX, &f);

	if (err >= 0 && r->layers)
		err = read_file_at(&f, max, ret, ret_len);
	else if (err >= 0)
		err = read_fd_all(f.fd, max, (size_t)f.size, ret, ret_len);
	if (err >= 0 || err == -EFBIG) /* EFBIG: max + 1 bytes were read */
		root_trace_read(r, path, 0, err >= 0 ? *ret_len : (uint64_t)max + 1);
	return root_record(r, path, err);
}

int root_read_text(struct root *r, const char *path, size_t max, char **ret)
{
	char *buf;
	size_t len;
	int err = root_read_file(r, path, max, &buf, &len);

	if (err < 0)
		return err;
	if (memchr(buf, '\0', len)) {
		/* Keep text functions honest: embedded NULs make a malformed text file. */
		free(buf);
		return -EBADMSG;
	}
	if (len > 0 && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*ret = buf;
	return 0;
}

int root_readf_text(struct root *r, size_t max, char **ret, const char *fmt, ...)
{
	_cleanup_free_ char *path = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&path, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	return root_read_text(r, path, max, ret);
}

int root_read_u64(struct root *r, const char *path, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(r, path, ROOT_CAP_ATTR, &text);

	if (err < 0)
		return err;
	err = parse_u64(text, 0, ret);
	if (err < 0)
		return -EBADMSG;
	return err;
}

int root_readlink(struct root *r, const char *path, char **ret)
{
	_cleanup_free_ char *resolved = NULL;
	const char *at;
	char target[PATH_MAX];
	ssize_t n;
	int err;

	if (!path || path[0] != '/')
		return -EINVAL;
	err = root_check(r, path); /* the access hook: the link itself is not resolved */
	if (err < 0 || r->layers)
		return root_record(r, path, err < 0 ? err : layers_readlink(r->layers, path, ret));
	/* Resolve the parent directories, but not the link itself. */
	err = root_locate(r, path, false, &resolved, &at);
	if (err < 0)
		return root_record(r, path, err);
	n = readlinkat(r->fd, at, target, sizeof(target) - 1);
	if (n < 0)
		return root_record(r, path, -errno);
	target[n] = '\0';
	*ret = strdup(target);
	return root_record(r, path, *ret ? 0 : -ENOMEM);
}

int root_resolve(struct root *r, const char *path, char **ret)
{
	_cleanup_free_ char *resolved = NULL;
	struct stat st;
	int err;

	err = root_check(r, path);
	if (err < 0 || r->layers)
		return err < 0 ? err : layers_resolve(r->layers, path, ret);
	if (root_kernel_resolves(r)) {
		/* Let the kernel resolve (O_PATH) and name what it found (proc(5)
		 * /proc/self/fd/N), three calls instead of a stat and readlink per component. */
		char proc[64], target[PATH_MAX];
		int fd = openat(r->fd, rel(path), O_PATH | O_CLOEXEC);
		ssize_t n;

		if (fd < 0)
			return -errno;
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		n = readlink(proc, target, sizeof(target) - 1);
		close(fd);
		if (n > 0 && target[0] == '/') {
			target[n] = '\0';
			*ret = strdup(target);
			return *ret ? 0 : -ENOMEM;
		}
		/* No /proc: fall back to the walk. */
	}
	err = walk_resolve(r, path, true, &resolved);
	if (err < 0)
		return err;
	if (fstatat(r->fd, resolved, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (strcmp(resolved, ".") == 0)
		*ret = strdup("/");
	else if (asprintf(ret, "/%s", resolved) < 0)
		*ret = NULL;
	return *ret ? 0 : -ENOMEM;
}

static int root_stat_internal(struct root *r, const char *path, bool follow, struct stat *ret)
{
	_cleanup_free_ char *resolved = NULL;
	const char *at;
	int flags = root_check(r, path);

	if (flags < 0 || r->layers)
		return flags < 0 ? flags : layers_stat(r->layers, path, follow, ret);
	flags = root_locate(r, path, follow, &resolved, &at);
	if (flags < 0)
		return flags;
	if (fstatat(r->fd, at, ret, flags) < 0)
		return -errno;
	return 0;
}

int root_stat(struct root *r, const char *path, struct stat *ret)
{
	return root_record(r, path, root_stat_internal(r, path, true, ret));
}

int root_lstat(struct root *r, const char *path, struct stat *ret)
{
	return root_record(r, path, root_stat_internal(r, path, false, ret));
}

int root_test(struct root *r, const char *path, mode_t type)
{
	struct stat st;
	int err = root_stat(r, path, &st);

	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	return err < 0 ? err : (st.st_mode & S_IFMT) == type;
}

int root_opendir(struct root *r, const char *path, DIR **ret)
{
	int fd = root_open_internal(r, path, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0)
		return root_record(r, path, fd);
	d = fdopendir(fd);
	if (!d) {
		int err = -errno;

		close(fd);
		return root_record(r, path, err);
	}
	*ret = d;
	return root_record(r, path, 0);
}

void root_cache_listings(struct root *r, bool on)
{
	if (!on) {
		for (size_t i = 0; i < r->n_listings; i++)
			free(r->listings[i].names);
		free(r->listings);
		r->listings = NULL;
		r->n_listings = r->cap_listings = 0;
	}
	r->cache_listings = on;
}

/* The cached listing of the directory fd is open on, or NULL. */
static const struct root_listing *listing_find(const struct root *r, int fd, struct stat *st)
{
	if (!r->cache_listings || fstat(fd, st) < 0) {
		st->st_ino = 0;
		return NULL;
	}
	for (size_t i = 0; i < r->n_listings; i++)
		if (r->listings[i].ino != 0 && r->listings[i].dev == st->st_dev &&
		    r->listings[i].ino == st->st_ino)
			return &r->listings[i];
	return NULL;
}

/* Keeps block (n names) for the directory st describes, or, with st NULL, as a loan
 * (root_list_dir_borrow()) that no lookup finds. false when out of memory: block is then
 * still the caller's. */
static bool listing_keep(struct root *r, const struct stat *st, char **block, size_t n)
{
	if (r->n_listings == r->cap_listings) {
		size_t cap = r->cap_listings ? r->cap_listings * 2 : 32;
		struct root_listing *v = reallocarray(r->listings, cap, sizeof(*v));

		if (!v)
			return false;
		r->listings = v;
		r->cap_listings = cap;
	}
	r->listings[r->n_listings++] = (struct root_listing){
		.dev = st ? st->st_dev : 0, .ino = st ? st->st_ino : 0, .n = n, .names = block
	};
	return true;
}

/* Outside --image: the listing kept for path's directory (*ret_kept), else a block read now
 * (*ret_block, *ret_n; st then names the directory, st_ino 0 when listings are not cached). */
static int listing_lookup(struct root *r, const char *path, size_t max,
			  const struct root_listing **ret_kept, char ***ret_block, size_t *ret_n,
			  struct stat *st)
{
	int fd = root_open_internal(r, path, O_RDONLY | O_DIRECTORY), err;

	/* recorded as root_opendir() records it */
	if (root_record(r, path, fd < 0 ? fd : 0) < 0)
		return fd;
	/* The same directory under another name (merged /usr: /lib and /usr/lib, /bin and
	 * /usr/bin) or asked for again by another probe: one read and one sort per collection. */
	*ret_kept = listing_find(r, fd, st);
	if (*ret_kept)
		err = (*ret_kept)->n > max ? -E2BIG : 0;
	else
		err = listing_read(fd, max, ret_block, ret_n);
	close(fd);
	return err;
}

int root_list_dir(struct root *r, const char *path, size_t max, char ***ret)
{
	const struct root_listing *kept;
	char **block = NULL, **names;
	struct stat st;
	size_t n = 0;
	int err;

	if (r->layers) {
		err = root_check(r, path);
		return root_record(r, path,
				   err < 0 ? err : layers_list_dir(r->layers, path, max, ret));
	}
	err = listing_lookup(r, path, max, &kept, &block, &n, &st);
	if (err < 0)
		return err;
	names = kept ? listing_names_copy(kept->names, kept->n) : listing_names_copy(block, n);
	if (!kept && !(st.st_ino != 0 && listing_keep(r, &st, block, n)))
		free(block);
	if (!names)
		return -ENOMEM;
	*ret = names;
	return 0;
}

int root_list_dir_borrow(struct root *r, const char *path, size_t max, const char *const **ret,
			 size_t *ret_n)
{
	const struct root_listing *kept;
	char **block = NULL;
	struct stat st;
	size_t n = 0;
	int err;

	if (r->layers) {
		_cleanup_strv_free_ char **names = NULL;

		err = root_list_dir(r, path, max, &names);
		if (err < 0)
			return err;
		n = strv_length(names);
		block = listing_block_of(names, n);
		st.st_ino = 0;
		kept = NULL;
	} else {
		err = listing_lookup(r, path, max, &kept, &block, &n, &st);
		if (err < 0)
			return err;
	}
	if (kept) {
		block = kept->names;
		n = kept->n;
	} else if (!block || !listing_keep(r, st.st_ino != 0 ? &st : NULL, block, n)) {
		free(block);
		return -ENOMEM;
	}
	*ret = (const char *const *)block;
	if (ret_n)
		*ret_n = n;
	return 0;
}

int root_map(struct root *r, const char *path, size_t max, struct root_map *ret)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	int err = root_open_regular(r, path, max, &f);

	if (err >= 0)
		err = trace_reads_of(r, path, &f);
	if (err >= 0)
		err = root_file_map(&f, ret);
	return root_record(r, path, err);
}

int root_file_open(struct root *r, const char *path, size_t max, struct root_file *ret)
{
	int err = root_open_regular(r, path, max, ret);

	if (err >= 0) {
		err = trace_reads_of(r, path, ret);
		if (err < 0)
			root_file_close(ret);
	}
	return root_record(r, path, err);
}

int root_stream(struct root *r, const char *path, size_t max,
		int (*chunk)(void *userdata, const uint8_t *p, size_t len), void *userdata)
{
	uint64_t size = 0;
	int err;

	if (!r->layers)
		return -EOPNOTSUPP;
	err = root_check(r, path);
	if (err >= 0)
		err = layers_stream_file(r->layers, path, max, chunk, userdata, &size);
	if (err == -EOPNOTSUPP)
		return err; /* not read: the caller opens it, and that is recorded */
	if (err >= 0)
		root_trace_read(r, path, 0, size);
	return root_record(r, path, err);
}

struct layers *root_layers(const struct root *r)
{
	return r->layers;
}
