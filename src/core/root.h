/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sysroot-aware file API: the only way gpuenv reads the machine's files
 * (util-linux include/path.h, with systemd chase() / libnvidia-container root semantics).
 * A root is "/" on the live system or a directory (fixture tree, unpacked image, capture
 * bundle). Paths are absolute as seen from inside the root, and absolute symlinks resolve
 * inside it: openat2(RESOLVE_IN_ROOT) when the kernel allows, a userspace walk when it
 * answers ENOSYS or EPERM (seccomp in containers) or when the test flag forces it.
 * Every read has a cap; every result is 0 or a negative errno.
 */
#pragma once

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "shared/macro.h"

/* Read caps: every read is capped (docs/design.md §3). */
#define ROOT_CAP_ATTR	     ((size_t)4 << 10)	/* a sysfs attribute */
#define ROOT_CAP_TEXT	     ((size_t)1 << 20)	/* a /proc or config text file */
#define ROOT_CAP_BIG	     ((size_t)16 << 20) /* ld.so.cache and similar */
#define ROOT_DIR_MAX_ENTRIES 65536u

enum {
	ROOT_NO_OPENAT2 = 1u << 0,  /* always use the userspace walk */
	ROOT_TRACE = 1u << 1,	    /* record each access for --trace-paths */
	ROOT_TRACE_READS = 1u << 2, /* with ROOT_TRACE: also the byte ranges read (capture) */
};

struct root;

int root_new(const char *path, unsigned flags, struct root **ret);
/*
 * A root over a layered virtual tree (layers.h: a container image's layers, a capture bundle),
 * read-only and never extracted. Takes t (freed on failure too); name: the image's path, for
 * messages. root_open() and root_opendir() answer -EOPNOTSUPP on it (no descriptor for a
 * virtual directory); everything else works as on a directory.
 */
struct layers;
int root_new_layers(struct layers *t, const char *name, unsigned flags, struct root **ret);
/* The layered tree of a root made by root_new_layers(), NULL for any other. */
struct layers *root_layers(const struct root *r);
struct root *root_free(struct root *r);
static inline void root_freep(struct root **r)
{
	root_free(*r);
}

bool root_is_live(const struct root *r);
/* The directory this root stands for on the host ("/" when live). */
const char *root_host_path(const struct root *r);

/*
 * A check run first on every access (before the path is resolved): a negative errno makes the
 * access fail with it, 0 lets it through. One per root; setting another (or NULL) frees the
 * previous data with its free_data, as root_free() does. libgpuenv sets none: the test build's
 * fault injection (testhooks_root_inject_error(), src/testhooks/) is what uses it, so no
 * injected error can exist in the shipped library or CLI.
 */
typedef int (*root_access_hook_t)(void *data, const char *path);
void root_set_access_hook(struct root *r, root_access_hook_t hook, void *data,
			  void (*free_data)(void *data));
/* The data set with hook, NULL when hook is not this root's. */
void *root_access_hook_data(const struct root *r, root_access_hook_t hook);

/* Newline-separated "<errno name or ok>\t<path>" records (ROOT_TRACE), with ROOT_TRACE_READS
 * also "read <offset> <length>\t<path>" for each range of a file's bytes read: what a whole
 * read returned, each root_file_pread(), and the pages of a mapping that were touched
 * (root-reads.c). Borrowed. */
const char *root_trace(const struct root *r);

/* open(2) inside the root; O_CLOEXEC is added. Returns the fd. */
int root_open(struct root *r, const char *path, int flags);
/* Whole file, NUL-terminated, one trailing newline stripped; -EFBIG above max bytes. */
int root_read_text(struct root *r, const char *path, size_t max, char **ret);
int root_readf_text(struct root *r, size_t max, char **ret, const char *fmt, ...) _printf_(4, 5);
/* Whole file as bytes (+ a NUL after them for convenience). */
int root_read_file(struct root *r, const char *path, size_t max, char **ret, size_t *ret_len);
/* "0x10de\n", "4096\n" → value (strict, base 0). -EBADMSG when not a number. */
int root_read_u64(struct root *r, const char *path, uint64_t *ret);
/* The link's target text as stored. */
int root_readlink(struct root *r, const char *path, char **ret);
/* Canonical absolute path inside the root, all symlinks resolved. */
int root_resolve(struct root *r, const char *path, char **ret);
/* stat following links / not following the last one. */
int root_stat(struct root *r, const char *path, struct stat *ret);
int root_lstat(struct root *r, const char *path, struct stat *ret);
/* Is path a file of this type (S_IFREG, S_IFDIR …; links followed)? 1 yes; 0 no: missing
 * (ENOENT, ENOTDIR) or another type; the negative errno when it could not be looked at
 * (EACCES, ELOOP, EIO …), which is never "missing". */
int root_test(struct root *r, const char *path, mode_t type);
int root_opendir(struct root *r, const char *path, DIR **ret);
/* Sorted entry names (no "." / ".."), at most max entries (-E2BIG beyond). */
int root_list_dir(struct root *r, const char *path, size_t max, char ***ret);
/* While on, root_list_dir() reads and sorts each directory (by device and inode, whatever the
 * name) once and answers later calls from a copy: one collection sees one state of each
 * directory. Turning it off drops what was kept. The path is still opened on every call, so
 * what it records (--trace-paths) and how it fails stay the same. */
void root_cache_listings(struct root *r, bool on);
/* root_list_dir() without copying: the root's own names (n of them, then NULL), not to be
 * changed or freed, valid until root_cache_listings(r, false) or root_free(). While
 * listings are not cached each call keeps one more listing until then: for probes, not for
 * walks of whole trees. ret_n may be NULL. */
int root_list_dir_borrow(struct root *r, const char *path, size_t max, const char *const **ret,
			 size_t *ret_n);

/*
 * The regular files of the whole tree whose last name component match() accepts, as
 * absolute paths: for a layered root, layers_list_files()'s answer; for a directory, a walk
 * from its top (root-walk.c): each directory's files in name order, then its subdirectories,
 * depth first; symbolic links never followed (a link to a directory is not entered, a link
 * to a file is not listed: its file is, under its own name, if it is inside the root); a file
 * and its hard links once (the first name); the top's proc, sys and dev not entered. At most
 * max paths (*ret_total counts all), at most ROOT_WALK_MAX_ENTRIES entries looked at.
 * *ret_unread: NULL when the whole tree was read, else what was not ("DIR: Permission
 * denied (and 2 more)"; free()). *ret is a NULL-terminated strv. 0, -ENOMEM.
 */
#define ROOT_WALK_MAX_ENTRIES 1000000u /* as layers.h's LAYERS_MAX_NODES */
int root_list_files(struct root *r, bool (*match)(const char *name, size_t len), size_t max,
		    char ***ret, size_t *ret_total, char **ret_unread);

/* A read-only mapping of a whole file (ELF files: never copied). */
struct root_map {
	const uint8_t *data;
	size_t len;
	struct root *trace_root; /* ROOT_TRACE_READS: where root_unmap() records the pages read */
	char *trace_path;
};
int root_map(struct root *r, const char *path, size_t max, struct root_map *ret);
void root_unmap(struct root_map *m);

/*
 * A regular file held open for reads at chosen offsets: a header-only parser that reads a few
 * hundred scattered windows of a large file pays one pread each, where a mapping faults in
 * pages for each and unmapping them costs as much again (gpuenv scan, bench/bench-scan.sh);
 * also the head of a header or the tail of a log without reading the whole file. Opening it
 * is one access in the trace and fails like root_map() (injected errors included).
 */
struct root_file {
	int fd;
	uint64_t size;
	struct root *trace_root; /* ROOT_TRACE_READS: where each pread is recorded */
	char *trace_path;
	uint64_t base; /* where its bytes start in fd: non-zero inside an image layer */
};
#define ROOT_FILE_NULL ((struct root_file){ .fd = -1 })
/* Opens path (a regular file of at most max bytes, else -EISDIR / -EINVAL / -EFBIG). */
int root_file_open(struct root *r, const char *path, size_t max, struct root_file *ret);
/* Reads n bytes at off into buf. Returns n, fewer only at the end of the file, or -errno. */
ssize_t root_file_pread(const struct root_file *f, void *buf, size_t n, uint64_t off);
/* Its reads and mappings are no longer recorded (ROOT_TRACE_READS): a capture that keeps what
 * was derived from them instead of the bytes (probe/kernel-scan-kept.c). */
static inline void root_file_untraced(struct root_file *f)
{
	f->trace_root = NULL;
}
/* Maps the whole opened file read-only, as root_map() would (no second trace record). */
int root_file_map(const struct root_file *f, struct root_map *ret);
void root_file_close(struct root_file *f);
/*
 * The bytes of path handed to chunk in order, in pieces, without a copy anywhere: for a
 * reader that needs them once, from the start (the fatbin stream scanner), of a file that
 * root_file_open() could only give as a decompressed copy (a large compressed member of an
 * image layer or a wheel, layers_stream_file()). -EOPNOTSUPP (nothing read, nothing
 * recorded) for every other file: open it. Errors otherwise as root_file_open()'s, or
 * chunk's own negative return.
 */
int root_stream(struct root *r, const char *path, size_t max,
		int (*chunk)(void *userdata, const uint8_t *p, size_t len), void *userdata);
static inline void root_file_closep(struct root_file *f)
{
	root_file_close(f);
}

/* ROOT_TRACE_READS (root-reads.c): records that len bytes at off of path were read, and
 * the pages of a mapping of path the process touched (/proc/self/pagemap). */
void root_trace_read(struct root *r, const char *path, uint64_t off, uint64_t len);
void root_trace_mapped(struct root *r, const char *path, const void *data, size_t len);

/* A name for an errno as the trace and the snapshot print it ("EACCES"). */
const char *errno_name(int err);
int errno_from_name(const char *name);
