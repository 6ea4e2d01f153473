// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * root_list_files() (root.h): the regular files of a whole tree whose names match, for a
 * directory root (an unpacked image) as layers_list_files() gives them for a layered one.
 * Directories are opened through root_opendir(), so every path stays inside the root, and
 * symbolic links are never followed: a link to a directory is not entered (no loop, no
 * second copy of /usr/lib under /lib), a link to a file is not a file (the file it names is
 * listed under its own name, when it is inside the root at all).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layers.h"
#include "root.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

/* Kernel file systems a live root mounts there (hier(7)): nothing of an image's own. */
static const char *const virtual_tops[] = { "/proc", "/sys", "/dev" };

/* The (device, inode) of files with more than one name, to list each once. */
struct seen {
	uint64_t *keys; /* dev, ino pairs; open addressing; ino 0 is free */
	size_t cap, n;
};

static uint64_t mix(uint64_t dev, uint64_t ino)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15u) ^ ino;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	return h ^ (h >> 33);
}

/* 1 when (dev, ino) was seen before, 0 when added now, -ENOMEM. */
static int seen_add(struct seen *s, uint64_t dev, uint64_t ino)
{
	if ((s->n + 1) * 2 > s->cap) {
		struct seen bigger = { .cap = s->cap ? s->cap * 2 : 256 };

		bigger.keys = calloc(bigger.cap, 2 * sizeof(uint64_t));
		if (!bigger.keys)
			return -ENOMEM;
		for (size_t i = 0; i < s->cap; i++)
			if (s->keys[2 * i + 1])
				(void)seen_add(&bigger, s->keys[2 * i], s->keys[2 * i + 1]);
		free(s->keys);
		*s = bigger;
	}
	ino = ino ?: UINT64_MAX; /* 0 marks a free slot */
	for (size_t i = mix(dev, ino) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (!s->keys[2 * i + 1]) {
			s->keys[2 * i] = dev;
			s->keys[2 * i + 1] = ino;
			s->n++;
			return 0;
		}
		if (s->keys[2 * i] == dev && s->keys[2 * i + 1] == ino)
			return 1;
	}
}

struct walk {
	struct root *r;
	bool (*match)(const char *name, size_t len);
	size_t max, entries;
	char **found; /* the first max paths */
	size_t n_found, total;
	char **dirs; /* still to read, the next one last */
	size_t n_dirs, cap_dirs;
	struct seen seen;
	size_t unread; /* directories (or entries) not read */
	struct strbuf why;
};

static void walk_unread(struct walk *w, const char *path, const char *reason)
{
	if (w->unread++ == 0)
		strbuf_printf(&w->why, "%s: %s", path, reason);
}

/* Copies path onto the stack of directories still to read. */
static int push_dir(struct walk *w, const char *path)
{
	if (w->n_dirs == w->cap_dirs) {
		size_t cap = w->cap_dirs ? w->cap_dirs * 2 : 64;
		char **v = reallocarray(w->dirs, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->dirs = v;
		w->cap_dirs = cap;
	}
	if (!(w->dirs[w->n_dirs] = strdup(path)))
		return -ENOMEM;
	w->n_dirs++;
	return 0;
}

static bool virtual_top(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(virtual_tops); i++)
		if (streq(path, virtual_tops[i]))
			return true;
	return false;
}

/* A matching regular file: listed unless a hard link of it was. */
static int take_file(struct walk *w, const char *path)
{
	struct stat st;
	int r = root_lstat(w->r, path, &st);

	if (r < 0) {
		walk_unread(w, path, strerror(-r));
		return r == -ENOMEM ? r : 0;
	}
	if (!S_ISREG(st.st_mode))
		return 0; /* replaced since it was listed */
	if (st.st_nlink > 1) {
		r = seen_add(&w->seen, st.st_dev, st.st_ino);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	w->total++;
	if (w->n_found < w->max && !(w->found[w->n_found++] = strdup(path)))
		return -ENOMEM;
	return 0;
}

/* A growing string vector that knows its length (strv_consume() counts it on every call). */
struct names {
	char **v; /* NULL-terminated */
	size_t n, cap;
};

static int names_take(struct names *l, char *s)
{
	if (l->n + 2 > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		char **v = reallocarray(l->v, cap, sizeof(*v));

		if (!v) {
			free(s);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
	return 0;
}

/* What a directory entry is, without following it: DT_DIR, DT_REG, or DT_UNKNOWN for
 * anything else (a symbolic link, a FIFO, a device: never followed or opened). */
static unsigned char entry_type(struct walk *w, const struct dirent *de, const char *path)
{
	struct stat st;

	if (de->d_type == DT_DIR || de->d_type == DT_REG)
		return de->d_type;
	if (de->d_type != DT_UNKNOWN) /* a file system without d_type: ask */
		return DT_UNKNOWN;
	if (root_lstat(w->r, path, &st) < 0)
		return DT_REG; /* take_file() says why it cannot be read */
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
}

/* One directory: its matching files now, in name order, its subdirectories pushed so that
 * they are read next, in name order. */
static int walk_dir(struct walk *w, const char *dir)
{
	struct names subdirs = { 0 }, files = { 0 };
	struct dirent *de;
	DIR *d = NULL;
	int r = root_opendir(w->r, dir, &d);

	if (r < 0) {
		walk_unread(w, dir, strerror(-r));
		return r == -ENOMEM ? r : 0;
	}
	while (r >= 0) {
		unsigned char type;
		char *path;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno != 0) /* as readdir(3): an error ends the listing */
				walk_unread(w, dir, strerror(errno));
			break;
		}
		if (streq(de->d_name, ".") || streq(de->d_name, ".."))
			continue;
		if (++w->entries > ROOT_WALK_MAX_ENTRIES) {
			walk_unread(w, dir, "past the cap on entries looked at");
			break;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN &&
		    (de->d_type != DT_REG || !w->match(de->d_name, strlen(de->d_name))))
			continue;
		if (asprintf(&path, "%s/%s", streq(dir, "/") ? "" : dir, de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (strlen(path) >= LAYERS_MAX_PATH) {
			walk_unread(w, path, "a name longer than PATH_MAX");
			free(path);
			continue;
		}
		type = entry_type(w, de, path);
		if (type == DT_DIR)
			r = names_take(&subdirs, path);
		else if (type == DT_REG && w->match(de->d_name, strlen(de->d_name)))
			r = names_take(&files, path);
		else
			free(path);
	}
	closedir(d);
	strv_sort(files.v);
	strv_sort(subdirs.v);
	for (size_t i = 0; r >= 0 && i < files.n; i++)
		r = take_file(w, files.v[i]);
	for (size_t i = subdirs.n; r >= 0 && i-- > 0;)
		if (!virtual_top(subdirs.v[i]))
			r = push_dir(w, subdirs.v[i]);
	strv_free(files.v);
	strv_free(subdirs.v);
	return r;
}

int root_list_files(struct root *r, bool (*match)(const char *name, size_t len), size_t max,
		    char ***ret, size_t *ret_total, char **ret_unread)
{
	struct walk w = { .r = r, .match = match, .max = max };
	int err;

	*ret_unread = NULL;
	if (root_layers(r))
		return layers_list_files(root_layers(r), match, max, ret, ret_total);
	w.found = calloc(max + 1, sizeof(char *));
	err = w.found ? push_dir(&w, "/") : -ENOMEM;
	while (err >= 0 && w.n_dirs > 0) {
		char *dir = w.dirs[--w.n_dirs];

		err = walk_dir(&w, dir);
		free(dir);
	}
	while (w.n_dirs > 0)
		free(w.dirs[--w.n_dirs]);
	free(w.dirs);
	free(w.seen.keys);
	if (err >= 0 && w.unread > 1)
		strbuf_printf(&w.why, " (and %zu more)", w.unread - 1);
	if (err >= 0 && w.why.err)
		err = w.why.err;
	if (err < 0) {
		strv_free(w.found);
		strbuf_done(&w.why);
		return err;
	}
	*ret = w.found;
	*ret_total = w.total;
	*ret_unread = w.unread ? strdup(strbuf_str(&w.why)) : NULL;
	strbuf_done(&w.why);
	return w.unread && !*ret_unread ? -ENOMEM : 0;
}
