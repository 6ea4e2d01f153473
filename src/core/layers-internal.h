/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The layered tree's representation, shared by its index (layers.c) and its reads
 * (layers-read.c). Not for other files: layers.h is the interface. */
#pragma once

#include <stdarg.h>
#include <sys/types.h>

#include "layers.h"
#include "shared/strbuf.h"

#define LAYERS_MAX_ISSUES 64u

enum {
	LNODE_SPARSE = 1u << 0, /* a GNU/pax sparse file: its bytes are not stored in one run */
	LNODE_BROKEN = 1u << 1, /* a hard link to nothing: reads fail with EIO */
};

/* One name in the tree; mode 0 once removed. Index 0 is the top directory. */
struct lnode {
	uint32_t parent;
	uint32_t first_child, next_sibling; /* 0: none */
	uint32_t hash_next;
	uint32_t name_off; /* in the names arena */
	uint16_t name_len;
	uint16_t layer;	   /* the layer that last wrote it */
	uint32_t mode;	   /* S_IFMT | permissions */
	uint32_t entry;	   /* its entry's number in that layer's tar */
	uint32_t link_off; /* symbolic link: its target in the names arena */
	uint32_t ino;	   /* st_ino: hard links share their file's */
	uint32_t flags;	   /* LNODE_* */
	uint32_t uid, gid; /* the entry's owner (tar's uid/gid fields) */
	uint64_t size;
	union {
		uint64_t data_off; /* a file: where its bytes start in the (decompressed) tar */
		uint64_t rdev;	   /* a character or block device: tar's devmajor/devminor */
	};
};

struct layer {
	int fd;
	uint64_t off, size; /* the tar's bytes in fd */
	bool compressed;
	bool zip;     /* a wheel: a zip archive, its entries under prefix, no whiteouts */
	char *prefix; /* where a wheel's entries go ("usr/local/lib/python3.12/site-packages") */
	char *name;
};

/* One pass over a layer's tar stream. */
struct layer_reader {
	const struct archive_api *api;
	struct archive *a;
	int fd;
	uint64_t start, pos, end;
	bool bomb; /* stopped: it decompressed past the caps (layers.h) */
	bool zip;  /* seeks (the zip's central directory), no decompression ratio to watch */
	void *buf;
	unsigned layer;
	uint32_t next_entry; /* the number of the entry next_header() returns next */
};

struct layers {
	const struct archive_api *api;
	struct lnode *nodes;
	uint32_t n_nodes, cap_nodes, n_live;
	uint32_t *buckets; /* node indices, chained through hash_next */
	size_t n_buckets;
	char *names;
	size_t names_len, names_cap;
	uint32_t top; /* layers_set_top() */
	struct layer *layers;
	unsigned n_layers;
	bool stopped;	 /* a cap was hit: later layers are not read */
	bool incomplete; /* an issue was recorded */
	size_t unsafe_names, broken_hardlinks, zip_links;
	uint64_t zip_declared; /* the sizes the zip being indexed declares, summed */
	struct strbuf issues;
	unsigned n_issues;
	/* reads of compressed layers go on from where the last one stopped when they can */
	struct layer_reader cursor;
};

/* A compressed member larger than this is decompressed into an unlinked file in TMPDIR
 * (layers_spill_open()), not into memory: a wheel's 1.5 GB libtorch_cuda.so held in an
 * anonymous memory file cost 1.5 GB of shared memory (bench/bench-wheel-memory.sh). */
#define LAYERS_SPILL_MIN ((uint64_t)16 << 20)

const char *layers_name(const struct layers *t, const struct lnode *n);
/* An unlinked read-write file in child_tmp_base() (O_TMPFILE: gone when closed, whatever
 * happens to the process); -errno (-EOPNOTSUPP on a file system without O_TMPFILE). */
int layers_spill_open(int *ret_fd);
uint32_t layers_child(const struct layers *t, uint32_t parent, const char *name, size_t len);
/* The node at a clean relative path ("a/b"), links not followed; 0 when there is none. */
uint32_t layers_lookup_plain(const struct layers *t, const char *path);
int layer_reader_open(const struct layers *t, unsigned layer, struct layer_reader *rd);
void layer_reader_close(struct layer_reader *rd);
