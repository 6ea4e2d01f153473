// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The layered virtual tree (layers.h): the index. One node per name, in a hash table keyed by
 * (parent, name) and linked into its parent's child list, so that a whiteout or an opaque
 * directory removes a whole subtree without visiting the rest of the tree. Names are kept once
 * each, as components, in one arena. Each layer is read once with libarchive, skipping the
 * file contents (a plain tar skips by seeking: nothing but the headers is read). Lookups and
 * reads are in layers-read.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive-api.h"
#include "child.h"
#include "layers-internal.h"
#include "shared/macro.h"

/* ---- the tree ---- */

static uint32_t name_hash(uint32_t parent, const char *name, size_t len)
{
	uint32_t h = 2166136261u ^ parent; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	return h;
}

const char *layers_name(const struct layers *t, const struct lnode *n)
{
	return t->names + n->name_off;
}

static size_t layers_bytes(const struct layers *t)
{
	return t->cap_nodes * sizeof(struct lnode) + t->names_cap + t->n_buckets * sizeof(uint32_t);
}

void layers_issue(struct layers *t, const char *fmt, ...)
{
	va_list ap;

	t->incomplete = true;
	if (t->n_issues++ >= LAYERS_MAX_ISSUES) {
		if (t->n_issues == LAYERS_MAX_ISSUES + 1)
			strbuf_puts(&t->issues, "(more issues not listed)\n");
		return;
	}
	va_start(ap, fmt);
	strbuf_vprintf(&t->issues, fmt, ap);
	va_end(ap);
	strbuf_putc(&t->issues, '\n');
}

static int rehash(struct layers *t, size_t n_buckets)
{
	uint32_t *b = calloc(n_buckets, sizeof(uint32_t));

	if (!b)
		return -ENOMEM;
	free(t->buckets);
	t->buckets = b;
	t->n_buckets = n_buckets;
	for (uint32_t i = 1; i < t->n_nodes; i++) {
		struct lnode *n = &t->nodes[i];
		uint32_t h;

		if (!n->mode)
			continue;
		h = name_hash(n->parent, layers_name(t, n), n->name_len) & (n_buckets - 1);
		n->hash_next = b[h];
		b[h] = i;
	}
	return 0;
}

uint32_t layers_child(const struct layers *t, uint32_t parent, const char *name, size_t len)
{
	uint32_t i = t->buckets[name_hash(parent, name, len) & (t->n_buckets - 1)];

	for (; i; i = t->nodes[i].hash_next) {
		const struct lnode *n = &t->nodes[i];

		if (n->parent == parent && n->name_len == len &&
		    memcmp(layers_name(t, n), name, len) == 0)
			return i;
	}
	return 0;
}

/* Appends bytes (plus a NUL) to the names arena; the offset, or -E2BIG / -ENOMEM. */
static int64_t arena_add(struct layers *t, const char *s, size_t len)
{
	size_t need = t->names_len + len + 1;

	if (need > t->names_cap) {
		size_t cap = MAX(need, t->names_cap ? t->names_cap * 2 : (size_t)64 << 10);
		char *p;

		if (layers_bytes(t) + (cap - t->names_cap) > LAYERS_MAX_INDEX_BYTES)
			return -E2BIG;
		p = realloc(t->names, cap);
		if (!p)
			return -ENOMEM;
		t->names = p;
		t->names_cap = cap;
	}
	memcpy(t->names + t->names_len, s, len);
	t->names[t->names_len + len] = '\0';
	t->names_len = need;
	return (int64_t)(need - len - 1);
}

/* A new node named name under parent, linked in; its index, or -E2BIG / -ENOMEM. */
static int64_t node_add(struct layers *t, uint32_t parent, const char *name, size_t len)
{
	int64_t off;
	uint32_t i, h;

	if (t->n_nodes >= LAYERS_MAX_NODES || len > UINT16_MAX)
		return -E2BIG;
	if (t->n_nodes == t->cap_nodes) {
		size_t cap = t->cap_nodes * 2;
		struct lnode *v;

		if (layers_bytes(t) + (cap - t->cap_nodes) * sizeof(*v) > LAYERS_MAX_INDEX_BYTES)
			return -E2BIG;
		v = reallocarray(t->nodes, cap, sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->nodes = v;
		t->cap_nodes = cap;
	}
	if (t->n_nodes >= t->n_buckets && rehash(t, t->n_buckets * 2) < 0)
		return -ENOMEM;
	off = arena_add(t, name, len);
	if (off < 0)
		return off;
	i = t->n_nodes++;
	t->nodes[i] = (struct lnode){ .parent = parent,
				      .name_off = (uint32_t)off,
				      .name_len = (uint16_t)len,
				      .next_sibling = t->nodes[parent].first_child,
				      .mode = S_IFDIR | 0755,
				      .layer = (uint16_t)t->n_layers,
				      .ino = i };
	t->nodes[parent].first_child = i;
	h = name_hash(parent, name, len) & (t->n_buckets - 1);
	t->nodes[i].hash_next = t->buckets[h];
	t->buckets[h] = i;
	t->n_live++;
	return i;
}

static void unlink_from(uint32_t *head, struct lnode *nodes, uint32_t i, bool hash)
{
	for (uint32_t *p = head; *p; p = hash ? &nodes[*p].hash_next : &nodes[*p].next_sibling)
		if (*p == i) {
			*p = hash ? nodes[i].hash_next : nodes[i].next_sibling;
			return;
		}
}

/* Removes node i and everything below it. The walk uses the links of the nodes it removes,
 * so it needs no stack whatever the depth. */
static void subtree_remove(struct layers *t, uint32_t i)
{
	struct lnode *nodes = t->nodes;
	uint32_t cur = i;

	unlink_from(&nodes[nodes[i].parent].first_child, nodes, i, false);
	for (;;) {
		uint32_t up;

		while (nodes[cur].first_child)
			cur = nodes[cur].first_child;
		/* cur is a leaf: take it out of its parent's list and of the hash table */
		up = nodes[cur].parent;
		if (cur != i)
			nodes[up].first_child = nodes[cur].next_sibling;
		unlink_from(&t->buckets[name_hash(nodes[cur].parent, layers_name(t, &nodes[cur]),
						  nodes[cur].name_len) &
					(t->n_buckets - 1)],
			    nodes, cur, true);
		nodes[cur].mode = 0;
		nodes[cur].first_child = 0;
		t->n_live--;
		if (cur == i)
			return;
		cur = up;
	}
}

/* Hides what the layers below the current one put under directory dir (an opaque
 * directory, or a whiteout of something this layer also holds). Bounded recursion: the
 * depth is at most LAYERS_MAX_PATH / 2. */
static void prune_lower(struct layers *t, uint32_t dir)
{
	uint32_t c = t->nodes[dir].first_child;

	while (c) {
		uint32_t next = t->nodes[c].next_sibling;

		if (t->nodes[c].layer < t->n_layers)
			subtree_remove(t, c);
		else if (S_ISDIR(t->nodes[c].mode))
			prune_lower(t, c);
		c = next;
	}
}

/* ---- reading a layer ---- */

#define LAYER_READ_BLOCK ((size_t)64 << 10)

static ssize_t region_read(struct archive *a, void *data, const void **ret)
{
	struct layer_reader *rd = data;
	size_t n = (size_t)MIN((uint64_t)LAYER_READ_BLOCK, rd->end - rd->pos);
	ssize_t k;

	if (n == 0)
		return 0;
	/* Checked as the bytes come in, not per entry: one entry of zeros can be the bomb. A
	 * zip seeks and inflates inside its format: its entries are checked by their declared
	 * sizes (entry_apply()) and read no further than them (layers-read.c). */
	if (rd->pos - rd->start > 0 && !rd->zip) {
		uint64_t out = (uint64_t)rd->api->archive_filter_bytes(a, 0);

		if (out > LAYERS_MAX_STREAM ||
		    (out > LAYERS_BOMB_FLOOR && out / (rd->pos - rd->start) > LAYERS_MAX_RATIO)) {
			rd->bomb = true;
			return -1;
		}
	}
	do
		k = pread(rd->fd, rd->buf, n, (off_t)rd->pos);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return -1;
	rd->pos += (uint64_t)k;
	*ret = rd->buf;
	return k;
}

static int64_t region_skip(struct archive *a, void *data, int64_t request)
{
	struct layer_reader *rd = data;
	uint64_t n = MIN((uint64_t)(request < 0 ? 0 : request), rd->end - rd->pos);

	rd->pos += n;
	return (int64_t)n;
}

static int64_t region_seek(struct archive *a, void *data, int64_t offset, int whence)
{
	struct layer_reader *rd = data;
	int64_t base = whence == SEEK_SET   ? 0
		       : whence == SEEK_CUR ? (int64_t)(rd->pos - rd->start)
					    : (int64_t)(rd->end - rd->start);
	int64_t to = base + offset;

	(void)a;
	if (to < 0 || (uint64_t)to > rd->end - rd->start)
		return ARCHIVE_FATAL;
	rd->pos = rd->start + (uint64_t)to;
	return to;
}

void layer_reader_close(struct layer_reader *rd)
{
	if (rd->a)
		rd->api->archive_read_free(rd->a);
	free(rd->buf);
	*rd = (struct layer_reader){ 0 };
}

int layer_reader_open(const struct layers *t, unsigned layer, struct layer_reader *rd)
{
	const struct archive_api *api = t->api;
	const struct layer *l = &t->layers[layer];

	*rd = (struct layer_reader){ .api = api,
				     .fd = l->fd,
				     .pos = l->off,
				     .start = l->off,
				     .end = l->off + l->size,
				     .zip = l->zip };
	rd->buf = malloc(LAYER_READ_BLOCK);
	rd->a = api->archive_read_new();
	if (!rd->buf || !rd->a) {
		layer_reader_close(rd);
		return -ENOMEM;
	}
	/* Built-in decompressors only: a filter libarchive lacks would run an external program
	 * instead (archive_read_support_filter_gzip(3): ARCHIVE_WARN), and gpuenv runs none. A
	 * wheel is read from its central directory, as pip's zipfile reads it (the seekable
	 * reader; the streaming one would trust local headers the directory does not list). */
	if (l->zip) {
		if (api->archive_read_support_format_zip_seekable(rd->a) != ARCHIVE_OK ||
		    api->archive_read_set_seek_callback(rd->a, region_seek) != ARCHIVE_OK) {
			layer_reader_close(rd);
			return -ENOTSUP;
		}
	} else if (api->archive_read_support_format_tar(rd->a) != ARCHIVE_OK ||
		   api->archive_read_support_filter_gzip(rd->a) != ARCHIVE_OK ||
		   api->archive_read_support_filter_zstd(rd->a) != ARCHIVE_OK ||
		   api->archive_read_support_filter_xz(rd->a) != ARCHIVE_OK ||
		   api->archive_read_support_filter_bzip2(rd->a) != ARCHIVE_OK) {
		layer_reader_close(rd);
		return -ENOTSUP;
	}
	if (api->archive_read_open2(rd->a, rd, NULL, region_read, region_skip, NULL) !=
	    ARCHIVE_OK) {
		layer_reader_close(rd);
		return -EBADMSG;
	}
	return 0;
}

/* name with the leading "./" and "/" gone, "." components dropped; false when a ".."
 * component or an empty result leaves nothing safe to apply. */
static bool entry_name_clean(const char *name, char *buf, size_t size)
{
	size_t len = 0;

	for (const char *p = name; *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		if (n > 0 && !(n == 1 && p[0] == '.')) {
			if (len + n + 2 > size)
				return false;
			if (len)
				buf[len++] = '/';
			memcpy(buf + len, p, n);
			len += n;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	buf[len] = '\0';
	return true;
}

/*
 * The node for path's parent directories, made as directories where missing (a tar may
 * omit them) or where a lower layer had something else there. *ret_base: the last
 * component. Returns the parent's index or -errno.
 */
static int64_t parents_make(struct layers *t, char *path, const char **ret_base)
{
	uint32_t cur = t->top;
	char *p = path;

	for (char *slash; (slash = strchr(p, '/')); p = slash + 1) {
		uint32_t c = layers_child(t, cur, p, (size_t)(slash - p));

		if (c && !S_ISDIR(t->nodes[c].mode)) {
			subtree_remove(t, c);
			c = 0;
		}
		if (!c) {
			int64_t n = node_add(t, cur, p, (size_t)(slash - p));

			if (n < 0)
				return n;
			c = (uint32_t)n;
		}
		cur = c;
	}
	*ret_base = p;
	return cur;
}

#define WHITEOUT_PREFIX ".wh."
#define WHITEOUT_OPAQUE ".wh..wh..opq"

/* Applies one tar entry of the layer being read. Returns 0, or -E2BIG / -ENOMEM (stop). */
static int entry_apply(struct layers *t, struct layer_reader *rd, struct archive_entry *e,
		       uint32_t number)
{
	const struct archive_api *api = t->api;
	const char *raw = api->archive_entry_pathname(e), *base, *hard, *sym;
	char path[LAYERS_MAX_PATH + 2];
	unsigned type = api->archive_entry_filetype(e);
	uint64_t data_off = (uint64_t)api->archive_filter_bytes(rd->a, 0);
	int64_t parent, i;
	struct lnode *n;

	const struct layer *l = &t->layers[t->n_layers];

	if (!raw || !entry_name_clean(raw, path, sizeof(path))) {
		t->unsafe_names++;
		return 0;
	}
	if (!*path) /* "./" itself */
		return 0;
	if (l->zip) {
		/* pip writes a symbolic link's entry as a file holding its target (zipfile);
		 * libarchive would make it a link: left out, and said */
		if (type == AE_IFLNK || (type && type != AE_IFREG && type != AE_IFDIR)) {
			t->zip_links++;
			return 0;
		}
		if (strlen(l->prefix) + strlen(path) + 2 > sizeof(path)) {
			t->unsafe_names++;
			return 0;
		}
		memmove(path + strlen(l->prefix) + 1, path, strlen(path) + 1);
		memcpy(path, l->prefix, strlen(l->prefix));
		path[strlen(l->prefix)] = '/';
		if (type != AE_IFDIR) {
			t->zip_declared += (uint64_t)MAX(api->archive_entry_size(e), 0);
			if (t->zip_declared > LAYERS_BOMB_FLOOR &&
			    t->zip_declared / MAX(l->size, 1u) > LAYERS_MAX_RATIO) {
				rd->bomb = true;
				return -E2BIG;
			}
		}
	}
	parent = parents_make(t, path, &base);
	if (parent < 0)
		return (int)parent;
	if (l->zip) {
		/* a wheel's ".wh." names are files like any other */
	} else if (strcmp(base, WHITEOUT_OPAQUE) == 0) {
		prune_lower(t, (uint32_t)parent);
		return 0;
	} else if (startswith(base, WHITEOUT_PREFIX)) {
		const char *victim = base + strlen(WHITEOUT_PREFIX);
		uint32_t c;

		if (startswith(victim, WHITEOUT_PREFIX)) /* other AUFS metadata (.wh..wh.plnk) */
			return 0;
		c = layers_child(t, (uint32_t)parent, victim, strlen(victim));
		if (c && t->nodes[c].layer < t->n_layers)
			subtree_remove(t, c);
		else if (c && S_ISDIR(t->nodes[c].mode))
			prune_lower(t, c);
		return 0;
	}
	i = layers_child(t, (uint32_t)parent, base, strlen(base));
	/* A directory over a directory merges; anything else replaces what was there. */
	if (i && !(type == AE_IFDIR && S_ISDIR(t->nodes[i].mode))) {
		subtree_remove(t, (uint32_t)i);
		i = 0;
	}
	if (!i) {
		i = node_add(t, (uint32_t)parent, base, strlen(base));
		if (i < 0)
			return (int)i;
	}
	n = &t->nodes[i];
	n->layer = (uint16_t)t->n_layers;
	n->entry = number;
	n->mode = (type ? type : AE_IFREG) | (api->archive_entry_perm(e) & 07777);
	n->size = 0;
	n->data_off = data_off;
	n->ino = (uint32_t)i;
	/* A device node's numbers and every entry's owner, as ls -l would show them after
	 * extraction as root: what the device-node probe reads (a capture keeps /dev's nodes). */
	n->uid = (uint32_t)MIN(MAX(api->archive_entry_uid(e), 0), (la_int64_t)UINT32_MAX);
	n->gid = (uint32_t)MIN(MAX(api->archive_entry_gid(e), 0), (la_int64_t)UINT32_MAX);
	if (S_ISCHR(n->mode) || S_ISBLK(n->mode))
		n->rdev = (uint64_t)api->archive_entry_rdev(e);
	hard = api->archive_entry_hardlink(e);
	sym = type == AE_IFLNK ? api->archive_entry_symlink(e) : NULL;
	if (hard) {
		/* A hard link names an earlier entry of the same tar (POSIX ustar, typeflag '1'):
		 * it shares that file's bytes. */
		char target[LAYERS_MAX_PATH + 2];
		uint32_t ti = 0;

		if (entry_name_clean(hard, target, sizeof(target)) && *target)
			ti = layers_lookup_plain(t, target);
		if (!ti || !S_ISREG(t->nodes[ti].mode) || t->nodes[ti].layer != t->n_layers) {
			t->broken_hardlinks++;
			n->mode = S_IFREG | (n->mode & 07777);
			n->flags |= LNODE_BROKEN;
			return 0;
		}
		n->mode = t->nodes[ti].mode;
		n->size = t->nodes[ti].size;
		n->data_off = t->nodes[ti].data_off;
		n->entry = t->nodes[ti].entry;
		n->flags = t->nodes[ti].flags;
		n->ino = t->nodes[ti].ino;
		return 0;
	}
	if (sym) {
		int64_t off = arena_add(t, sym, strlen(sym));

		if (off < 0)
			return (int)off;
		n = &t->nodes[i]; /* arena_add() does not move nodes, but keep it obvious */
		n->link_off = (uint32_t)off;
		n->size = strlen(sym);
		return 0;
	}
	if (S_ISREG(n->mode)) {
		n->size = (uint64_t)api->archive_entry_size(e);
		n->flags = api->archive_entry_sparse_count(e) > 0 ? LNODE_SPARSE : 0;
	}
	return 0;
}

static int layer_index(struct layers *t, int fd, uint64_t off, uint64_t size, const char *name,
		       const char *prefix)
{
	struct layer_reader rd;
	struct archive_entry *e;
	struct layer *l;
	uint32_t number = 0;
	size_t unsafe = t->unsafe_names, broken = t->broken_hardlinks, links = t->zip_links;
	int err, r;

	if (t->n_layers >= LAYERS_MAX_LAYERS) {
		layers_issue(t, "more than %u layers: layer %s and those after it not read",
			     LAYERS_MAX_LAYERS, name);
		return -E2BIG;
	}
	if (t->stopped) {
		layers_issue(t, "layer %s not read: the index is full", name);
		return 0;
	}
	l = &t->layers[t->n_layers];
	*l = (struct layer){ .fd = fcntl(fd, F_DUPFD_CLOEXEC, 3), .off = off, .size = size };
	if (l->fd < 0)
		return -errno;
	l->name = strdup(name);
	l->zip = prefix != NULL;
	l->compressed = l->zip; /* each entry is read through libarchive */
	l->prefix = prefix ? strdup(prefix) : NULL;
	if (!l->name || (prefix && !l->prefix)) {
		free(l->name);
		free(l->prefix);
		close(l->fd);
		return -ENOMEM;
	}
	t->zip_declared = 0;
	err = layer_reader_open(t, t->n_layers, &rd);
	if (err < 0) {
		layers_issue(t, "layer %s: cannot be read: %s", name, strerror(-err));
		free(l->name);
		free(l->prefix);
		close(l->fd);
		return err == -ENOMEM ? err : 0;
	}
	err = 0;
	while ((r = t->api->archive_read_next_header(rd.a, &e)) == ARCHIVE_OK ||
	       r == ARCHIVE_WARN) {
		if (number == 0 && !l->zip)
			l->compressed = t->api->archive_filter_count(rd.a) > 1;
		if (l->zip && number == LAYERS_MAX_ZIP_ENTRIES) {
			layers_issue(t, "wheel %s: more than %u entries: the rest not read", name,
				     LAYERS_MAX_ZIP_ENTRIES);
			r = ARCHIVE_EOF;
			break;
		}
		err = entry_apply(t, &rd, e, number++);
		if (err < 0)
			break;
	}
	if (rd.bomb) {
		layers_issue(t,
			     "layer %s: decompresses to more than %u times its size or past %llu "
			     "GiB (a decompression bomb?): indexing stopped after %u entries",
			     name, LAYERS_MAX_RATIO, (unsigned long long)(LAYERS_MAX_STREAM >> 30),
			     number);
		t->stopped = true;
	}
	if (err == -E2BIG && rd.bomb) {
		err = 0;
	} else if (err == -E2BIG) {
		layers_issue(t,
			     "layer %s: the index is full (%u entries, %zu MiB at most): "
			     "indexing stopped",
			     name, LAYERS_MAX_NODES, LAYERS_MAX_INDEX_BYTES >> 20);
		t->stopped = true;
	} else if (err == 0 && r != ARCHIVE_EOF && !t->stopped) {
		const char *why = t->api->archive_error_string(rd.a);

		/* a truncated or corrupt tar: what came before the damage stays indexed */
		layers_issue(t, "layer %s: %s after %u entries", name, why ? why : "unreadable",
			     number);
	}
	if (t->unsafe_names > unsafe)
		layers_issue(t,
			     "layer %s: %zu entries with an unsafe or unreadable name (\"..\", "
			     "or longer than %u bytes) skipped",
			     name, t->unsafe_names - unsafe, LAYERS_MAX_PATH);
	if (t->zip_links > links)
		layers_issue(t,
			     "wheel %s: %zu symbolic-link or special entries left out (pip "
			     "installs a link's entry as a file holding its target)",
			     name, t->zip_links - links);
	if (t->broken_hardlinks > broken)
		layers_issue(t, "layer %s: %zu hard links to no earlier file of the layer", name,
			     t->broken_hardlinks - broken);
	layer_reader_close(&rd);
	t->n_layers++;
	return err == -ENOMEM ? err : 0;
}

int layers_add(struct layers *t, int fd, uint64_t off, uint64_t size, const char *name)
{
	return layer_index(t, fd, off, size, name, NULL);
}

int layers_add_zip(struct layers *t, int fd, uint64_t off, uint64_t size, const char *prefix,
		   const char *name)
{
	char clean[LAYERS_MAX_PATH + 2];

	if (!entry_name_clean(prefix, clean, sizeof(clean)) || !*clean)
		return -EINVAL;
	return layer_index(t, fd, off, size, name, clean);
}

int layers_new(const struct archive_api *api, struct layers **ret)
{
	_cleanup_(layers_freep) struct layers *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->api = api;
	t->cap_nodes = 1024;
	t->nodes = calloc(t->cap_nodes, sizeof(*t->nodes));
	t->layers = calloc(LAYERS_MAX_LAYERS, sizeof(*t->layers));
	strbuf_init(&t->issues, (size_t)64 << 10);
	if (!t->nodes || !t->layers || rehash(t, 1024) < 0 || arena_add(t, "", 0) < 0)
		return -ENOMEM;
	/* node 0: the top directory, its own parent */
	t->nodes[0] = (struct lnode){ .mode = S_IFDIR | 0755 };
	t->n_nodes = 1;
	t->n_live = 1;
	*ret = TAKE_PTR(t);
	return 0;
}

struct layers *layers_free(struct layers *t)
{
	if (!t)
		return NULL;
	layer_reader_close(&t->cursor);
	for (unsigned i = 0; i < t->n_layers; i++) {
		close(t->layers[i].fd);
		free(t->layers[i].name);
		free(t->layers[i].prefix);
	}
	free(t->layers);
	free(t->nodes);
	free(t->names);
	free(t->buckets);
	strbuf_done(&t->issues);
	free(t);
	return NULL;
}

const char *layers_issues(const struct layers *t)
{
	return strbuf_str(&t->issues);
}

bool layers_complete(const struct layers *t)
{
	return !t->incomplete;
}

unsigned layers_count(const struct layers *t)
{
	return t->n_layers;
}

bool layers_compressed(const struct layers *t, unsigned i)
{
	return i < t->n_layers && t->layers[i].compressed;
}

size_t layers_entries(const struct layers *t)
{
	return t->n_live;
}

/* A whole host file's tar (prefix NULL) or wheel. */
static int add_host_file(struct layers *t, const char *host_path, const char *prefix,
			 const char *name)
{
	_cleanup_close_ int fd = open(host_path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	/* a FIFO or a device could block or never end */
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	return prefix ? layers_add_zip(t, fd, 0, (uint64_t)st.st_size, prefix, name)
		      : layers_add(t, fd, 0, (uint64_t)st.st_size, name);
}

int layers_add_file(struct layers *t, const char *host_path, const char *name)
{
	return add_host_file(t, host_path, NULL, name);
}

int layers_add_zip_file(struct layers *t, const char *host_path, const char *prefix,
			const char *name)
{
	return add_host_file(t, host_path, prefix, name);
}

int layers_spill_open(int *ret_fd)
{
	int fd = open(child_tmp_base(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	*ret_fd = fd;
	return 0;
}
