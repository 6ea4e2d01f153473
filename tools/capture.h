/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `gpuenv capture` (docs/fleet.md, "Capture"): what the probes read, as a tree to replay.
 * capture-tree.c turns the trace of a collection (gpuenv_ctx_get_trace() with
 * GPUENV_CTX_TRACE_READS) into entries: every path read, each symlink met on the way to it,
 * the names of each directory listed, and for a regular file the byte ranges to keep.
 * capture-archive.c writes them, with snapshot.json and capture.json, as a tar.zst.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* A file up to this size is kept whole; a larger one keeps the ranges that were read. */
#define CAPTURE_WHOLE_MAX ((uint64_t)1 << 20)
/* procfs and sysfs report sizes that are not their contents': read up to this. */
#define CAPTURE_PSEUDO_MAX ((size_t)1 << 20)

enum capture_kind {
	CAPTURE_DIR,
	CAPTURE_FILE,
	CAPTURE_LINK,
	CAPTURE_DEVICE, /* a character or block device: its node, never its contents */
};

struct capture_range {
	uint64_t off, len;
};

struct capture_entry {
	char *path; /* absolute inside the root */
	enum capture_kind kind;
	mode_t mode; /* type and permission bits as lstat(2) gave them */
	dev_t rdev;
	uid_t uid;
	gid_t gid;
	struct timespec mtime;
	uint64_t size; /* the real size (a pseudo file's: what reading it gave) */
	char *target;  /* CAPTURE_LINK: the link's text */
	bool contents; /* CAPTURE_FILE: a probe read it (else a stand-in: a name in a listing) */
	bool pseudo;   /* under /proc or /sys: contents read to the end, not by st_size */
	struct capture_range *ranges; /* read ranges, sorted and merged */
	size_t n_ranges;
	char *data; /* contents made by the capture itself (the pci.ids lines used), or NULL */
	size_t data_len;
};

struct capture_tree {
	char *host_root; /* the root on this machine: "/" or the --sysroot directory */
	struct capture_entry *entries;
	size_t n, cap;
	struct strmap *index; /* path → entry */
	char **skipped;	      /* "path\twhy" for what cannot be kept (FIFOs, sockets) */
};

/* Fills tree from trace over host_root. 0 or -errno. */
int capture_tree_build(struct capture_tree *tree, const char *host_root, const char *trace);
void capture_tree_done(struct capture_tree *tree);
/* path (inside the root) as a path on this machine, in buf. */
const char *capture_host_path(const struct capture_tree *t, const char *path, char *buf,
			      size_t size);
/* Adds (or replaces the contents of) a regular file at path holding data (taken). */
int capture_tree_add_data(struct capture_tree *tree, const char *path, char *data, size_t len);
/* Sorts the entries by path (parents before children). */
void capture_tree_sort(struct capture_tree *tree);

/* What capture-archive.c writes besides the tree. */
struct capture_bundle {
	const char *snapshot_json; /* snapshot.json */
	const char *environment;   /* "environment": KEY=VALUE lines for --env-file, or NULL */
	const char *version;
	bool live, redact;
	/* --redact: strings replaced in every name, link and file (hostnames, serials),
	 * NULL-terminated; UUIDs and home directories' user names are found by their form. */
	char **secrets;
};

/* Writes the bundle to fd as a zstd-compressed pax tar. 0, or -errno with *ret_why (static or
 * libarchive's text, valid until the next call) saying what failed. */
int capture_write(int fd, const struct capture_tree *tree, const struct capture_bundle *b,
		  const char **ret_why);
/* --redact of one buffer in place, length kept: each secret and UUID. */
void capture_scrub(char *buf, size_t len, char *const *secrets);
/* The same for binary contents, and the user name of each home directory in a path
 * (/home/<user>/, /Users/<user>/: an RPATH, a string in a library) as as many 'x'. */
void capture_scrub_binary(char *buf, size_t len, char *const *secrets);

/* Does path start as a tar archive, plain or compressed (a capture bundle, perhaps)? */
bool capture_is_archive(const char *path);
/* The snapshot.json of the capture bundle at path (capture-read.c), at most max bytes,
 * NUL-terminated. 0; -ENOENT when the archive holds none (not a bundle); -EBADMSG when it is
 * not a readable archive, with *ret_why (static or NULL); -EFBIG; -errno; a dl_lazy_load()
 * error when libarchive cannot be loaded, *ret_why saying why. */
int capture_read_snapshot(const char *path, size_t max, char **ret, size_t *ret_len,
			  const char **ret_why);
