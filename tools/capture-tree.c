// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree of a capture (capture.h): from the trace of one collection ("<result>\t<path>",
 * "read <offset> <length>\t<path>" and "keep <bytes>\t<path>" records,
 * gpuenv_ctx_get_trace()) to the entries to keep.
 * Each path read is resolved component by component as gpuenv resolves it (core/root.c:
 * absolute link targets inside the root, ".." never above it), keeping every link met as a
 * link, so a replay under --sysroot takes the same steps. A directory that was read keeps its
 * names (a listing is data: node0, 0000:18:00.0, libcudart.so.12.4.127): a file named there
 * and never read is kept as an empty stand-in, a link with where it leads. Links read with
 * ELOOP (a loop is what the probe recorded) are kept as links. /proc/self of a live run is a
 * plain directory: the pid it names is the capturing process's.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "shared/macro.h"
#include "shared/strmap.h"
#include "shared/strv.h"

#define WALK_DEPTH_MAX 40 /* links followed per path, as the kernel's ELOOP limit */

/* The read ranges of one traced path. */
struct traced_ranges {
	struct capture_range *v;
	size_t n, cap;
};

struct walk {
	struct capture_tree *t;
	struct strmap ranges_of; /* traced path → index in ranges */
	struct traced_ranges *ranges;
	size_t n_ranges, cap_ranges;
	bool live;
};

const char *capture_host_path(const struct capture_tree *t, const char *path, char *buf,
			      size_t size)
{
	snprintf(buf, size, "%s%s", streq(t->host_root, "/") ? "" : t->host_root, path);
	return buf;
}

static int host_lstat(const struct capture_tree *t, const char *path, struct stat *st)
{
	char host[PATH_MAX * 2];

	return lstat(capture_host_path(t, path, host, sizeof(host)), st) < 0 ? -errno : 0;
}

/* The entry for path, added when absent (kind and mode from st). Its index, or -ENOMEM. */
static ssize_t entry_get(struct capture_tree *t, const char *path, enum capture_kind kind,
			 const struct stat *st)
{
	size_t i;

	if (strmap_get(t->index, path, &i))
		return (ssize_t)i;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct capture_entry *v = reallocarray(t->entries, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->entries = v;
		t->cap = cap;
	}
	t->entries[t->n] = (struct capture_entry){
		.path = strdup(path),
		.kind = kind,
		.mode = st->st_mode,
		.rdev = st->st_rdev,
		.size = (uint64_t)st->st_size,
		.uid = st->st_uid,
		.gid = st->st_gid,
		.mtime = st->st_mtim,
	};
	if (!t->entries[t->n].path || strmap_put(t->index, path, t->n) < 0)
		return -ENOMEM;
	return (ssize_t)t->n++;
}

/* The link at path, added: its entry's index, or -errno. */
static ssize_t add_link(struct capture_tree *t, const char *path, const struct stat *st)
{
	char host[PATH_MAX * 2], target[PATH_MAX];
	ssize_t i, n;

	n = readlink(capture_host_path(t, path, host, sizeof(host)), target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	i = entry_get(t, path, CAPTURE_LINK, st);
	if (i < 0)
		return (int)i;
	if (!t->entries[i].target && !(t->entries[i].target = strdup(target)))
		return -ENOMEM;
	return i;
}

/* parts[from…] joined by '/'. */
static char *join_rest(char **parts, size_t from)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = from; parts[i]; i++)
		len += strlen(parts[i]) + 1;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = from; parts[i]; i++)
		p += sprintf(p, "%s%s", i > from ? "/" : "", parts[i]);
	return s;
}

static int skip(struct capture_tree *t, const char *path, const char *why)
{
	char *line;

	if (asprintf(&line, "%s\t%s", path, why) < 0)
		return -ENOMEM;
	return strv_consume(&t->skipped, line);
}

static int walk(struct walk *w, const char *path, const char *traced, bool contents,
		unsigned depth);

/* The names of a directory that was read. */
static int add_listing(struct walk *w, const char *dir)
{
	char host[PATH_MAX * 2];
	_cleanup_strv_free_ char **names = NULL;
	struct dirent *de;
	DIR *d;
	int err = 0;

	d = opendir(capture_host_path(w->t, dir, host, sizeof(host)));
	if (!d)
		return 0; /* gone or unreadable since: the directory stays, empty */
	while ((de = readdir(d)) && err >= 0)
		if (!streq(de->d_name, ".") && !streq(de->d_name, ".."))
			err = strv_push(&names, de->d_name);
	closedir(d);
	for (char **n = names; n && *n && err >= 0; n++) {
		char child[PATH_MAX];
		struct stat st;

		snprintf(child, sizeof(child), "%s/%s", streq(dir, "/") ? "" : dir, *n);
		if (host_lstat(w->t, child, &st) < 0)
			continue;
		if (S_ISLNK(st.st_mode))
			err = walk(w, child, NULL, false, 0);
		else if (S_ISDIR(st.st_mode))
			err = (int)MIN(entry_get(w->t, child, CAPTURE_DIR, &st), 0);
		else if (S_ISREG(st.st_mode))
			err = (int)MIN(entry_get(w->t, child, CAPTURE_FILE, &st), 0);
		else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			err = (int)MIN(entry_get(w->t, child, CAPTURE_DEVICE, &st), 0);
	}
	return err;
}

/* The end of a walk: the object path names, read (contents) or only passed through. */
static int add_final(struct walk *w, const char *path, const char *traced, bool contents)
{
	struct capture_entry *e;
	struct stat st;
	size_t r;
	ssize_t i;

	if (host_lstat(w->t, path, &st) < 0)
		return 0; /* gone since the probe read it */
	if (S_ISDIR(st.st_mode)) {
		i = entry_get(w->t, path, CAPTURE_DIR, &st);
		return i < 0 ? (int)i : contents ? add_listing(w, path) : 0;
	}
	if (!contents)
		return 0;
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		/* the kernel log is read live only; a replay reads it from /var/log */
		if (streq(path, "/dev/kmsg"))
			return skip(w->t, path, "the live kernel log (a replay reads /var/log)");
		return (int)MIN(entry_get(w->t, path, CAPTURE_DEVICE, &st), 0);
	}
	if (!S_ISREG(st.st_mode))
		return skip(w->t, path, S_ISFIFO(st.st_mode) ? "a FIFO" : "a socket");
	i = entry_get(w->t, path, CAPTURE_FILE, &st);
	if (i < 0)
		return (int)i;
	e = &w->t->entries[i];
	e->contents = true;
	e->pseudo = !strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5);
	if (!traced || !strmap_get(&w->ranges_of, traced, &r))
		return 0;
	for (size_t k = 0; k < w->ranges[r].n; k++) {
		struct capture_range *v;

		if (e->n_ranges % 16 == 0) {
			v = reallocarray(e->ranges, e->n_ranges + 16, sizeof(*v));
			if (!v)
				return -ENOMEM;
			e->ranges = v;
		}
		e->ranges[e->n_ranges++] = w->ranges[r].v[k];
	}
	return 0;
}

/* Resolves path inside the root as core/root.c does, adding each directory and link met;
 * traced is the name the probe used (its read ranges go to the file reached). */
static int walk(struct walk *w, const char *path, const char *traced, bool contents, unsigned depth)
{
	_cleanup_strv_free_ char **parts = NULL;
	char cur[PATH_MAX] = "/";
	int err;

	if (depth > WALK_DEPTH_MAX)
		return 0;
	err = strv_split(path, "/", &parts);
	if (err < 0)
		return err;
	for (size_t i = 0; parts && parts[i]; i++) {
		char next[PATH_MAX];
		struct stat st;
		ssize_t k;

		if (!*parts[i] || streq(parts[i], "."))
			continue;
		if (streq(parts[i], "..")) {
			char *slash = strrchr(cur, '/');

			slash[slash == cur ? 1 : 0] = '\0';
			continue;
		}
		if (snprintf(next, sizeof(next), "%s/%s", streq(cur, "/") ? "" : cur, parts[i]) >=
		    (int)sizeof(next))
			return 0;
		if (host_lstat(w->t, next, &st) < 0)
			return 0;
		if (w->live && (streq(next, "/proc/self") || streq(next, "/proc/thread-self"))) {
			struct stat dir = st;

			dir.st_mode = S_IFDIR | 0555;
			k = entry_get(w->t, next, CAPTURE_DIR, &dir);
			if (k < 0)
				return (int)k;
			strcpy(cur, next);
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			_cleanup_free_ char *rest = NULL, *again = NULL;
			const char *target;

			k = add_link(w->t, next, &st);
			if (k < 0)
				return (int)k;
			target = w->t->entries[k].target;
			rest = join_rest(parts, i + 1);
			if (!rest || asprintf(&again, "%s/%s/%s", target[0] == '/' ? "" : cur,
					      target, rest) < 0)
				return -ENOMEM;
			return walk(w, again, traced, contents, depth + 1);
		}
		if (parts[i + 1] && !S_ISDIR(st.st_mode))
			return 0;
		if (parts[i + 1]) {
			k = entry_get(w->t, next, CAPTURE_DIR, &st);
			if (k < 0)
				return (int)k;
		}
		strcpy(cur, next);
	}
	return add_final(w, cur, traced, contents);
}

/* "read OFF LEN\tPATH" → the ranges of PATH. */
static int note_range(struct walk *w, const char *spec, const char *path)
{
	struct capture_range range;
	size_t i;

	if (sscanf(spec, "read %" SCNu64 " %" SCNu64, &range.off, &range.len) != 2)
		return 0;
	if (!strmap_get(&w->ranges_of, path, &i)) {
		if (w->n_ranges == w->cap_ranges) {
			size_t cap = w->cap_ranges ? w->cap_ranges * 2 : 64;
			void *v = reallocarray(w->ranges, cap, sizeof(*w->ranges));

			if (!v)
				return -ENOMEM;
			w->ranges = v;
			w->cap_ranges = cap;
		}
		i = w->n_ranges++;
		w->ranges[i].v = NULL;
		w->ranges[i].n = w->ranges[i].cap = 0;
		if (strmap_put(&w->ranges_of, path, i) < 0)
			return -ENOMEM;
	}
	if (w->ranges[i].n == w->ranges[i].cap) {
		size_t cap = w->ranges[i].cap ? w->ranges[i].cap * 2 : 8;
		struct capture_range *v = reallocarray(w->ranges[i].v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->ranges[i].v = v;
		w->ranges[i].cap = cap;
	}
	w->ranges[i].v[w->ranges[i].n++] = range;
	return 0;
}

static int by_off(const void *a, const void *b)
{
	const struct capture_range *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Sorts a file's ranges, widens them to whole 4 KiB blocks (tar holes and file systems work
 * in blocks) within the file and merges those that touch. */
static void merge_ranges(struct capture_entry *e)
{
	size_t n = 0;

	for (size_t i = 0; i < e->n_ranges; i++) {
		uint64_t end = e->ranges[i].off + e->ranges[i].len;

		e->ranges[i].off &= ~(uint64_t)4095;
		end = MIN((end + 4095) & ~(uint64_t)4095, e->size);
		e->ranges[i].len = end > e->ranges[i].off ? end - e->ranges[i].off : 0;
	}
	if (e->n_ranges > 1)
		qsort(e->ranges, e->n_ranges, sizeof(*e->ranges), by_off);
	for (size_t i = 0; i < e->n_ranges; i++) {
		struct capture_range *last = n ? &e->ranges[n - 1] : NULL;

		if (!e->ranges[i].len)
			continue;
		if (last && e->ranges[i].off <= last->off + last->len)
			last->len = MAX(last->len, e->ranges[i].off + e->ranges[i].len - last->off);
		else
			e->ranges[n++] = e->ranges[i];
	}
	e->n_ranges = n;
}

/* The bytes of a "keep" record, %XX-escaped (core/kept.c), decoded in place: their length. */
static size_t unescape(char *s)
{
	size_t n = 0;

	for (size_t i = 0; s[i]; i++) {
		unsigned v;

		if (s[i] == '%' && sscanf(s + i + 1, "%2x", &v) == 1 && s[i + 1] && s[i + 2]) {
			s[n++] = (char)v;
			i += 2;
		} else {
			s[n++] = s[i];
		}
	}
	return n;
}

/* The directories above path, as directories of the bundle (mode 0755, now). */
static int add_parents(struct capture_tree *t, const char *path)
{
	struct stat st = { .st_mode = S_IFDIR | 0755 };
	char dir[PATH_MAX];

	clock_gettime(CLOCK_REALTIME, &st.st_mtim);
	for (const char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		ssize_t i;

		if ((size_t)(slash - path) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		i = entry_get(t, dir, CAPTURE_DIR, &st);
		if (i < 0)
			return (int)i;
	}
	return 0;
}

/* A "keep <bytes>\tPATH" record: what a replay reads besides the files (core/kept.c) as the
 * file PATH. The GPU code found in a library the bundle keeps whole is found again by the
 * replay, so its result is left out. */
static int add_kept(struct capture_tree *t, char *bytes, const char *path)
{
	static const char scans[] = "/.gpuenv-capture/scans/";
	char host[PATH_MAX * 2], *data;
	size_t len = unescape(bytes);
	struct stat st;
	int err;

	if (!strncmp(path, scans, strlen(scans)) &&
	    stat(capture_host_path(t, path + strlen(scans) - 1, host, sizeof(host)), &st) == 0 &&
	    S_ISREG(st.st_mode) && (uint64_t)st.st_size <= CAPTURE_WHOLE_MAX)
		return 0;
	err = add_parents(t, path);
	if (err < 0)
		return err;
	data = malloc(len + 1);
	if (!data)
		return -ENOMEM;
	memcpy(data, bytes, len);
	data[len] = '\0';
	return capture_tree_add_data(t, path, data, len);
}

int capture_tree_build(struct capture_tree *t, const char *host_root, const char *trace)
{
	struct walk w = { .t = t, .live = streq(host_root, "/") };
	_cleanup_strv_free_ char **ok = NULL, **loops = NULL;
	_cleanup_free_ char *copy = strdup(trace);
	char *state = copy, *line;
	int err = 0;

	t->host_root = strdup(host_root);
	t->index = calloc(1, sizeof(*t->index));
	if (!copy || !t->host_root || !t->index)
		return -ENOMEM;
	while (err >= 0 && (line = line_next(&state))) {
		char *tab = strchr(line, '\t');

		if (!tab || tab[1] != '/')
			continue;
		*tab = '\0';
		if (streq(line, "ok"))
			err = strv_push(&ok, tab + 1);
		else if (streq(line, "ELOOP"))
			err = strv_push(&loops, tab + 1);
		else if (!strncmp(line, "read ", 5))
			err = note_range(&w, line, tab + 1);
		else if (!strncmp(line, "keep ", 5))
			err = add_kept(t, line + 5, tab + 1);
	}
	strv_sort(ok);
	for (size_t i = 0; err >= 0 && ok && ok[i]; i++)
		if (i == 0 || !streq(ok[i], ok[i - 1]))
			err = walk(&w, ok[i], ok[i], true, 0);
	for (size_t i = 0; err >= 0 && loops && loops[i]; i++)
		err = walk(&w, loops[i], NULL, false, 0);
	for (size_t i = 0; i < t->n; i++)
		merge_ranges(&t->entries[i]);
	for (size_t i = 0; i < w.n_ranges; i++)
		free(w.ranges[i].v);
	free(w.ranges);
	strmap_done(&w.ranges_of);
	return err;
}

int capture_tree_add_data(struct capture_tree *t, const char *path, char *data, size_t len)
{
	struct stat st = { .st_mode = S_IFREG | 0644 };
	ssize_t i;

	clock_gettime(CLOCK_REALTIME, &st.st_mtim);
	i = entry_get(t, path, CAPTURE_FILE, &st);
	if (i < 0) {
		free(data);
		return (int)i;
	}
	free(t->entries[i].data);
	t->entries[i].kind = CAPTURE_FILE;
	t->entries[i].mode = st.st_mode;
	t->entries[i].contents = true;
	t->entries[i].size = len;
	t->entries[i].data = data;
	t->entries[i].data_len = len;
	return 0;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct capture_entry *)a)->path,
		      ((const struct capture_entry *)b)->path);
}

void capture_tree_sort(struct capture_tree *t)
{
	if (t->n > 1)
		qsort(t->entries, t->n, sizeof(*t->entries), by_path);
	/* the index is by position: rebuilt on demand by no one after this */
}

void capture_tree_done(struct capture_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->entries[i].path);
		free(t->entries[i].target);
		free(t->entries[i].ranges);
		free(t->entries[i].data);
	}
	free(t->entries);
	if (t->index)
		strmap_done(t->index);
	free(t->index);
	free(t->host_root);
	strv_free(t->skipped);
	*t = (struct capture_tree){ 0 };
}
