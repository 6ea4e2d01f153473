// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layered virtual tree (layers.h): lookups and reads. Paths resolve as the kernel would
 * inside a chroot (path_resolution(7)): component by component, ".." stopping at the top,
 * absolute link targets restarting from it, at most ROOT_MAX_SYMLINKS links. A file stored in
 * a plain tar is its bytes in the layer's own file, handed out as a descriptor and an offset
 * (nothing copied, and a mapping maps the image file itself); a file of a compressed layer is
 * decompressed into an anonymous memory file of exactly its size, or, past LAYERS_SPILL_MIN,
 * into an unlinked temporary file, whose pages the kernel writes back and drops as it needs:
 * the memory a read costs stays bounded whatever the member's size. A reader that needs the
 * bytes once, in order (the fatbin stream scanner), takes a large member chunk by chunk
 * instead (layers_stream_file()), and nothing is written anywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "archive-api.h"
#include "layers-internal.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define LAYERS_MAX_SYMLINKS 40	   /* MAXSYMLINKS, path_resolution(7) */
#define LAYERS_DEV	    0x6c79 /* st_dev of every entry: one tree, one device */

uint32_t layers_lookup_plain(const struct layers *t, const char *path)
{
	uint32_t cur = t->top;

	for (const char *p = path; *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		cur = layers_child(t, cur, p, n);
		if (!cur)
			return 0;
		p += n;
		if (*p)
			p++;
	}
	return cur;
}

/* The node path names, following a last link when follow_last; its index or -errno. */
static int64_t lookup(const struct layers *t, const char *path, bool follow_last)
{
	_cleanup_free_ char *todo = NULL;
	uint32_t cur = t->top;
	unsigned links = 0;
	char *p;

	if (!path || path[0] != '/')
		return -EINVAL;
	todo = strdup(path);
	if (!todo)
		return -ENOMEM;
	p = todo;
	for (;;) {
		const struct lnode *c;
		uint32_t ci;
		bool last;
		char *comp = path_next_component(&p, &last);

		if (!comp)
			return cur;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			if (cur != t->top)
				cur = t->nodes[cur].parent;
			continue;
		}
		if (!S_ISDIR(t->nodes[cur].mode))
			return -ENOTDIR;
		if (strlen(comp) > UINT16_MAX)
			return -ENAMETOOLONG;
		ci = layers_child(t, cur, comp, strlen(comp));
		if (!ci)
			return -ENOENT;
		c = &t->nodes[ci];
		if (S_ISLNK(c->mode) && (!last || follow_last)) {
			const char *target = t->names + c->link_off;
			char *rest;

			if (++links > LAYERS_MAX_SYMLINKS)
				return -ELOOP;
			if (asprintf(&rest, "%s/%s", target, p) < 0)
				return -ENOMEM;
			if (target[0] == '/')
				cur = t->top;
			free(todo);
			todo = rest;
			p = todo;
			continue;
		}
		cur = ci;
	}
}

int layers_stat(struct layers *t, const char *path, bool follow, struct stat *ret)
{
	int64_t i = lookup(t, path, follow);
	const struct lnode *n;

	if (i < 0)
		return (int)i;
	n = &t->nodes[i];
	*ret = (struct stat){ .st_dev = LAYERS_DEV,
			      .st_ino = (ino_t)n->ino + 1,
			      .st_mode = n->mode,
			      .st_nlink = 1,
			      .st_uid = n->uid,
			      .st_gid = n->gid,
			      .st_rdev = S_ISCHR(n->mode) || S_ISBLK(n->mode) ? (dev_t)n->rdev : 0,
			      .st_size = (off_t)n->size,
			      .st_blksize = 4096,
			      .st_blocks = (blkcnt_t)((n->size + 511) / 512) };
	return 0;
}

int layers_readlink(struct layers *t, const char *path, char **ret)
{
	int64_t i = lookup(t, path, false);

	if (i < 0)
		return (int)i;
	if (!S_ISLNK(t->nodes[i].mode))
		return -EINVAL;
	*ret = strdup(t->names + t->nodes[i].link_off);
	return *ret ? 0 : -ENOMEM;
}

int layers_resolve(struct layers *t, const char *path, char **ret)
{
	int64_t i = lookup(t, path, true);
	size_t len = 0, pos;
	char *s;

	if (i < 0)
		return (int)i;
	if ((uint32_t)i == t->top) {
		*ret = strdup("/");
		return *ret ? 0 : -ENOMEM;
	}
	for (uint32_t c = (uint32_t)i; c != t->top; c = t->nodes[c].parent)
		len += 1u + t->nodes[c].name_len;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	pos = len;
	s[pos] = '\0';
	for (uint32_t c = (uint32_t)i; c != t->top; c = t->nodes[c].parent) {
		pos -= t->nodes[c].name_len;
		memcpy(s + pos, layers_name(t, &t->nodes[c]), t->nodes[c].name_len);
		s[--pos] = '/';
	}
	*ret = s;
	return 0;
}

int layers_list_dir(struct layers *t, const char *path, size_t max, char ***ret)
{
	_cleanup_strv_free_ char **names = NULL;
	int64_t i = lookup(t, path, true);
	size_t n = 0;

	if (i < 0)
		return (int)i;
	if (!S_ISDIR(t->nodes[i].mode))
		return -ENOTDIR;
	for (uint32_t c = t->nodes[i].first_child; c; c = t->nodes[c].next_sibling)
		if (++n > max)
			return -E2BIG;
	names = calloc(n + 1, sizeof(char *));
	if (!names)
		return -ENOMEM;
	n = 0;
	for (uint32_t c = t->nodes[i].first_child; c; c = t->nodes[c].next_sibling)
		if (!(names[n++] = strdup(layers_name(t, &t->nodes[c]))))
			return -ENOMEM;
	strv_sort(names);
	*ret = TAKE_PTR(names);
	return 0;
}

int layers_set_top(struct layers *t, const char *path)
{
	int64_t i = lookup(t, path, true);

	if (i < 0)
		return (int)i;
	if (!S_ISDIR(t->nodes[i].mode))
		return -ENOTDIR;
	t->top = (uint32_t)i;
	return 0;
}

/* Positions t->cursor just after the header of entry number `entry` of layer `layer`:
 * going on from where it is when that entry is still ahead, from the start otherwise. */
static int cursor_seek(struct layers *t, unsigned layer, uint32_t entry)
{
	struct layer_reader *rd = &t->cursor;
	struct archive_entry *e;

	if (!rd->a || rd->layer != layer || rd->next_entry > entry) {
		int err;

		layer_reader_close(rd);
		err = layer_reader_open(t, layer, rd);
		if (err < 0)
			return err;
		rd->layer = layer;
	}
	while (rd->next_entry <= entry) {
		int r = t->api->archive_read_next_header(rd->a, &e);

		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			layer_reader_close(rd);
			return -EIO;
		}
		rd->next_entry++;
	}
	return 0;
}

/* Inflates node n of a compressed layer (or a sparse file) chunk by chunk into sink, which
 * returns a negative errno to stop; -EIO when the layer holds more or fewer bytes than the
 * entry's header said. */
static int inflate_node(struct layers *t, const struct lnode *n,
			int (*sink)(void *userdata, const uint8_t *p, size_t len), void *userdata)
{
	_cleanup_free_ uint8_t *buf = NULL;
	uint64_t got = 0;
	int err = cursor_seek(t, n->layer, n->entry);

	if (err < 0)
		return err;
	buf = malloc(64 << 10);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		la_ssize_t k = t->api->archive_read_data(t->cursor.a, buf, 64 << 10);

		if (k < 0) {
			layer_reader_close(&t->cursor);
			return -EIO;
		}
		if (k == 0)
			break;
		if (got + (uint64_t)k > n->size) /* more than the header said */
			return -EIO;
		err = sink(userdata, buf, (size_t)k);
		if (err < 0)
			return err;
		got += (uint64_t)k;
	}
	return got == n->size ? 0 : -EIO;
}

static int write_sink(void *userdata, const uint8_t *p, size_t len)
{
	int fd = *(int *)userdata;

	for (size_t w = 0; w < len;) {
		ssize_t d = write(fd, p + w, len - w);

		if (d < 0 && errno == EINTR)
			continue;
		if (d < 0)
			return -errno;
		w += (size_t)d;
	}
	return 0;
}

/* The bytes of node n of a compressed layer (or a sparse file) in a memory file, or a
 * temporary one when large. */
static int decompress_to_file(struct layers *t, const struct lnode *n, int *ret_fd)
{
	_cleanup_close_ int fd = -1;
	int err;

	if (n->size > LAYERS_SPILL_MIN) {
		/* TMPDIR missing: not -ENOENT or -ENOTDIR, which would say the member is not
		 * there */
		err = layers_spill_open(&fd);
		if (err < 0)
			return err == -ENOENT || err == -ENOTDIR ? -EIO : err;
	} else {
		fd = memfd_create("gpuenv-layer-file", MFD_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	err = inflate_node(t, n, write_sink, &fd);
	if (err < 0)
		return err;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* The regular file at path (links followed) of at most max bytes, as layers_open_file()
 * checks it. */
static int file_node(struct layers *t, const char *path, uint64_t max, const struct lnode **ret)
{
	int64_t i = lookup(t, path, true);
	const struct lnode *n;

	/* Set on every path: GCC -O3 cannot tell that (int)i of a negative i stays negative,
	 * and warns that the callers' node may be read unset (-Wmaybe-uninitialized). */
	*ret = NULL;
	if (i < 0)
		return (int)i;
	n = &t->nodes[i];
	if (S_ISDIR(n->mode))
		return -EISDIR;
	if (!S_ISREG(n->mode))
		return -EINVAL;
	if (n->size > max)
		return -EFBIG;
	if (n->flags & LNODE_BROKEN)
		return -EIO;
	*ret = n;
	return 0;
}

int layers_stream_file(struct layers *t, const char *path, uint64_t max,
		       int (*chunk)(void *userdata, const uint8_t *p, size_t len), void *userdata,
		       uint64_t *ret_size)
{
	const struct lnode *n;
	int err = file_node(t, path, max, &n);

	if (err < 0)
		return err;
	if (n->size <= LAYERS_SPILL_MIN ||
	    (!t->layers[n->layer].compressed && !(n->flags & LNODE_SPARSE)))
		return -EOPNOTSUPP; /* stored as is, or small: layers_open_file() costs little */
	*ret_size = n->size;
	return inflate_node(t, n, chunk, userdata);
}

int layers_open_file(struct layers *t, const char *path, uint64_t max, int *ret_fd,
		     uint64_t *ret_base, uint64_t *ret_size)
{
	const struct lnode *n;
	const struct layer *l;
	int fd, err = file_node(t, path, max, &n);

	if (err < 0)
		return err;
	l = &t->layers[n->layer];
	if (!l->compressed && !(n->flags & LNODE_SPARSE)) {
		/* stored as is: the layer's own bytes, unless the layer ends before them */
		if (n->data_off > l->size || n->size > l->size - n->data_off)
			return -EIO;
		fd = fcntl(l->fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return -errno;
		*ret_fd = fd;
		*ret_base = l->off + n->data_off;
		*ret_size = n->size;
		return 0;
	}
	fd = -1;
	err = decompress_to_file(t, n, &fd);
	if (err < 0)
		return err;
	*ret_fd = fd;
	*ret_base = 0;
	*ret_size = n->size;
	return 0;
}

/* A matching file: where its bytes lie, for layers_list_files()'s order. */
struct file_at {
	uint64_t off;
	uint32_t node, ino;
	uint16_t layer;
};

static int by_position(const void *a, const void *b)
{
	const struct file_at *x = a, *y = b;

	if (x->layer != y->layer)
		return x->layer < y->layer ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Node i's absolute path, or NULL when it is not under the top (or on OOM: *oom set). */
static char *node_path(const struct layers *t, uint32_t i, bool *oom)
{
	size_t len = 0;
	char *p;

	for (uint32_t k = i; k != t->top; k = t->nodes[k].parent) {
		if (k == 0)
			return NULL; /* above the top (layers_set_top()) */
		len += 1u + t->nodes[k].name_len;
	}
	p = malloc(len + 1);
	if (!p) {
		*oom = true;
		return NULL;
	}
	p[len] = '\0';
	for (uint32_t k = i; k != t->top; k = t->nodes[k].parent) {
		len -= t->nodes[k].name_len;
		memcpy(p + len, layers_name(t, &t->nodes[k]), t->nodes[k].name_len);
		p[--len] = '/';
	}
	return p;
}

int layers_list_files(const struct layers *t, bool (*match)(const char *name, size_t len),
		      size_t max, char ***ret, size_t *ret_total)
{
	_cleanup_free_ struct file_at *at = NULL;
	size_t n = 0, cap = 0, kept = 0;
	char **v;

	*ret_total = 0;
	for (uint32_t i = 1; i < t->n_nodes; i++) {
		const struct lnode *nd = &t->nodes[i];

		if (!S_ISREG(nd->mode) || (nd->flags & LNODE_BROKEN) ||
		    !match(layers_name(t, nd), nd->name_len))
			continue;
		if (n == cap) {
			struct file_at *a = reallocarray(at, cap ? cap * 2 : 64, sizeof(*a));

			if (!a)
				return -ENOMEM;
			at = a;
			cap = cap ? cap * 2 : 64;
		}
		at[n++] = (struct file_at){
			.off = nd->data_off, .node = i, .ino = nd->ino, .layer = nd->layer
		};
	}
	if (n > 1)
		qsort(at, n, sizeof(*at), by_position);
	v = calloc(MIN(n, max) + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		bool oom = false;
		char *p;

		if (i > 0 && at[i].ino == at[i - 1].ino && at[i].layer == at[i - 1].layer &&
		    at[i].off == at[i - 1].off)
			continue; /* a hard link of the file before */
		p = node_path(t, at[i].node, &oom);
		if (oom) {
			strv_free(v);
			return -ENOMEM;
		}
		if (!p)
			continue;
		++*ret_total;
		if (kept < max)
			v[kept++] = p;
		else
			free(p);
	}
	*ret = v;
	return 0;
}
