/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A read-only virtual file tree made of tar layers applied in order, without extracting
 * anything: the root backend of `--image` (root.h, root_new_layers()). Each layer is indexed in
 * one pass (names, types, sizes, link targets, where each file's bytes start in the layer's
 * tar stream); contents are read on demand. Whiteouts follow the OCI image-spec (layer.md,
 * "Whiteouts"): a `.wh.NAME` entry hides NAME of the layers below, a `.wh..wh..opq` entry
 * hides every lower entry of its directory; entries of the same layer are kept.
 *
 * Every limit is a cap, and a cap hit, a truncated or corrupt layer, an unsafe entry name
 * (`..`) or a broken hard link is recorded as an issue (layers_issues()) and the tree marked
 * incomplete: the probes then read what the index holds, and the image probe says what is
 * missing. Symbolic links resolve inside the tree only (absolute targets from its top, ".."
 * never above it), at most 40 of them per lookup (path_resolution(7)'s MAXSYMLINKS).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define LAYERS_MAX_LAYERS      128u
#define LAYERS_MAX_NODES       1000000u		  /* files, directories and links in all */
#define LAYERS_MAX_PATH	       4096u		  /* PATH_MAX: a longer entry name is skipped */
#define LAYERS_MAX_INDEX_BYTES ((size_t)48 << 20) /* the index's own memory */
/* A decompression bomb: past LAYERS_BOMB_FLOOR bytes out, more than LAYERS_MAX_RATIO bytes
 * out per byte in (real layers compress 2-10:1; gzip's own ceiling is about 1032:1), or past
 * LAYERS_MAX_STREAM bytes out at all. */
#define LAYERS_MAX_RATIO  256u
#define LAYERS_BOMB_FLOOR ((uint64_t)64 << 20)
#define LAYERS_MAX_STREAM ((uint64_t)256 << 30)
/* A wheel's entries (pip's own largest wheels hold some 30,000; scan's cap is the same). */
#define LAYERS_MAX_ZIP_ENTRIES 200000u

struct archive_api;
struct layers;

int layers_new(const struct archive_api *api, struct layers **ret);
struct layers *layers_free(struct layers *t);
static inline void layers_freep(struct layers **t)
{
	layers_free(*t);
}

/*
 * Indexes one layer, a tar stream (plain, gzip, zstd, xz or bzip2) held in bytes
 * [off, off + size) of fd, over the layers added before. fd is duplicated (the caller keeps
 * its own). name: how messages name the layer. Returns 0 (problems inside the layer are
 * recorded as issues), -E2BIG past LAYERS_MAX_LAYERS, -ENOMEM.
 */
int layers_add(struct layers *t, int fd, uint64_t off, uint64_t size, const char *name);
/*
 * Indexes a Python wheel (a zip: PKWARE APPNOTE, PEP 427), held in bytes [off, off + size) of
 * fd, as pip would install it: its entries under prefix (a site-packages directory, relative
 * to the top), over what is there. Its central directory is what counts, as for pip's
 * zipfile; whiteout names are plain files; symbolic-link entries are left out and counted;
 * the sizes its entries declare are held to the decompression-bomb caps above, reads never
 * go past them, and at most LAYERS_MAX_ZIP_ENTRIES entries are read. Returns as
 * layers_add(); -EINVAL for an unsafe prefix.
 */
int layers_add_zip(struct layers *t, int fd, uint64_t off, uint64_t size, const char *prefix,
		   const char *name);
/* layers_add_zip() of a whole host file: -EINVAL / -EISDIR when it is not a regular file,
 * -errno when it cannot be opened. */
int layers_add_zip_file(struct layers *t, const char *host_path, const char *prefix,
			const char *name);
/* The same for a whole host file (an image archive, a root tree's tar): -EINVAL when it is
 * not a regular file, -errno when it cannot be opened. */
int layers_add_file(struct layers *t, const char *host_path, const char *name);
/* Records an issue about the image (a missing layer) and marks the tree incomplete. */
void layers_issue(struct layers *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes the directory at path the top of the tree (a capture bundle's root/). -ENOTDIR,
 * -ENOENT. */
int layers_set_top(struct layers *t, const char *path);
/* Newline-separated messages ("" when none); borrowed. */
const char *layers_issues(const struct layers *t);
bool layers_complete(const struct layers *t);
unsigned layers_count(const struct layers *t);
/* Entries in the tree now (whiteouts applied). */
size_t layers_entries(const struct layers *t);
/* Whether layer i (0-based) is stored compressed (its bytes are read by decompressing). */
bool layers_compressed(const struct layers *t, unsigned i);

/* The root.h operations, on paths absolute inside the tree; results as root.h's. */
int layers_stat(struct layers *t, const char *path, bool follow, struct stat *ret);
int layers_readlink(struct layers *t, const char *path, char **ret);
int layers_resolve(struct layers *t, const char *path, char **ret);
int layers_list_dir(struct layers *t, const char *path, size_t max, char ***ret);
/*
 * The regular files of the tree (whiteouts applied; a file and its hard links once) whose last
 * name component match() accepts, as absolute paths in the order their bytes lie in the
 * layers: the lowest layer first, each in its tar's order, so that reading them one after the
 * other reads each layer once, forwards. At most max of them (*ret_total counts all that
 * match); *ret is a NULL-terminated strv (strv_free). 0, -ENOMEM.
 */
int layers_list_files(const struct layers *t, bool (*match)(const char *name, size_t len),
		      size_t max, char ***ret, size_t *ret_total);
/*
 * The bytes of the regular file at path (links followed): *ret_fd (the caller closes it)
 * holds them from *ret_base on, *ret_size of them. A file stored uncompressed is the layer's
 * own file (a duplicate descriptor); a compressed one is decompressed into an anonymous
 * memory file, or past LAYERS_SPILL_MIN into an unlinked temporary file in TMPDIR (-errno
 * when none can be made there). -EISDIR, -EINVAL (not a regular file), -EFBIG above max, -EIO (the layer
 * cannot be read again).
 */
int layers_open_file(struct layers *t, const char *path, uint64_t max, int *ret_fd,
		     uint64_t *ret_base, uint64_t *ret_size);
/*
 * The bytes of the regular file at path handed to chunk in order, in pieces of at most 64 KiB,
 * as they are decompressed: nothing is kept or written (chunk returns a negative errno to
 * stop, and that is returned). Only for what layers_open_file() would spill to TMPDIR (a
 * compressed member over LAYERS_SPILL_MIN): -EOPNOTSUPP otherwise, and the caller opens it.
 * *ret_size gets its size before the first chunk. Errors as layers_open_file()'s.
 */
int layers_stream_file(struct layers *t, const char *path, uint64_t max,
		       int (*chunk)(void *userdata, const uint8_t *p, size_t len), void *userdata,
		       uint64_t *ret_size);
