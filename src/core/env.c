// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Environment overlay; see env.h for the rules. The only file in src/ that reads the
 * process environment (environ).
 *
 * The variables are one array of "KEY=VALUE" strings sorted by key, so a lookup is a binary
 * search. An env file is read in one pass into a list of its own, which is sorted once and
 * merged into the array: loading n lines costs O(n log n), where setting them one by one
 * (a search and a sort per line) cost O(n^2 log n).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "shared/macro.h"

extern char **environ;

struct env {
	char **vars; /* "KEY=VALUE", sorted by key (the part before the first '='), NULL-ended */
	size_t n, cap;
};

/*
 * Key order: the bytes up to the first '=', compared as unsigned, a shorter key first. Keys
 * hold no '=', so this is also strcmp() order of the whole "KEY=VALUE" strings (they differ
 * first within "KEY=").
 */
static int key_cmp(const char *a, size_t alen, const char *entry)
{
	for (size_t i = 0;; i++) {
		unsigned char ca = i < alen ? (unsigned char)a[i] : '=';
		unsigned char cb = (unsigned char)entry[i];

		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca == '=')
			return 0;
	}
}

static size_t key_len(const char *entry)
{
	return strcspn(entry, "=");
}

/* Index of key's entry (*found) or where it would go. */
static size_t env_search(const struct env *e, const char *key, size_t klen, bool *found)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(key, klen, e->vars[mid]);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	*found = false;
	return lo;
}

static int env_reserve(struct env *e, size_t n)
{
	char **p;
	size_t cap;

	if (n + 1 <= e->cap)
		return 0;
	cap = MAX(n + 1, e->cap * 2);
	p = reallocarray(e->vars, cap, sizeof(char *));
	if (!p)
		return -ENOMEM;
	e->vars = p;
	e->cap = cap;
	return 0;
}

/* Takes entry ("KEY=VALUE"): replaces KEY's entry or inserts it in order. */
static int env_put(struct env *e, char *entry)
{
	bool found;
	size_t i = env_search(e, entry, key_len(entry), &found);

	if (found) {
		free(e->vars[i]);
		e->vars[i] = entry;
		return 0;
	}
	if (env_reserve(e, e->n + 1) < 0) {
		free(entry);
		return -ENOMEM;
	}
	memmove(e->vars + i + 1, e->vars + i, (e->n - i + 1) * sizeof(char *));
	e->vars[i] = entry;
	e->n++;
	return 0;
}

int env_new(bool live, struct env **ret)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e || env_reserve(e, 0) < 0) {
		free(e);
		return -ENOMEM;
	}
	e->vars[0] = NULL;
	for (char **p = live ? environ : NULL; p && *p; p++) {
		char *dup;

		if (!strchr(*p, '='))
			continue;
		dup = strdup(*p);
		/* A duplicate key in environ: the later one wins, as getenv() would not say. */
		if (!dup || env_put(e, dup) < 0) {
			env_free(e);
			return -ENOMEM;
		}
	}
	*ret = e;
	return 0;
}

struct env *env_free(struct env *e)
{
	if (!e)
		return NULL;
	for (size_t i = 0; i < e->n; i++)
		free(e->vars[i]);
	free(e->vars);
	free(e);
	return NULL;
}

int env_set(struct env *e, const char *key, const char *value)
{
	char *entry;

	if (!*key || strchr(key, '='))
		return -EINVAL;
	if (asprintf(&entry, "%s=%s", key, value) < 0)
		return -ENOMEM;
	return env_put(e, entry);
}

const char *env_get(const struct env *e, const char *key)
{
	bool found;
	size_t i = env_search(e, key, strlen(key), &found);

	return found ? e->vars[i] + strlen(key) + 1 : NULL;
}

char *const *env_list(const struct env *e)
{
	return e->vars;
}

/* ---- env files --------------------------------------------------------------------- */

struct pending {
	char *entry;
	size_t order; /* line order: of two lines setting one key, the later wins */
};

struct reader {
	struct pending *v;
	size_t n, cap;
	unsigned lineno;
	const char *reason;
};

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	int c = key_cmp(x->entry, key_len(x->entry), y->entry);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int reader_fail(struct reader *r, int err, const char *reason)
{
	r->reason = reason;
	return err;
}

static bool is_blank(char c)
{
	/* Go's unicode.IsSpace for ASCII, which docker trims at the start of a line. */
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n';
}

/* One line, without its '\n'. */
static int reader_line(struct reader *r, const char *line, size_t len)
{
	const char *eq;
	size_t klen;
	char *entry;

	if (++r->lineno > ENV_FILE_MAX_LINES)
		return reader_fail(r, -EFBIG, "more than 100000 lines");
	/* bufio.ScanLines drops the '\r' of a "\r\n" ending; docker strips a leading UTF-8 BOM. */
	if (len && line[len - 1] == '\r')
		len--;
	if (r->lineno == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	if (memchr(line, '\0', len))
		return reader_fail(r, -EBADMSG, "a NUL byte (no environment string can hold one)");
	while (len && is_blank(*line)) {
		line++;
		len--;
	}
	if (len == 0 || line[0] == '#')
		return 0;
	eq = memchr(line, '=', len);
	klen = eq ? (size_t)(eq - line) : len;
	if (klen == 0)
		return reader_fail(r, -EBADMSG, "no variable name before '='");
	for (size_t i = 0; i < klen; i++)
		if (is_blank(line[i]))
			return reader_fail(r, -EBADMSG, "white space in the variable name");
	if (eq) {
		entry = strndup(line, len);
	} else {
		/* Bare KEY: docker copies it from the caller's environment, and skips it if unset.
		 */
		_cleanup_free_ char *key = strndup(line, len);
		const char *v = key ? getenv(key) : NULL;

		if (!key)
			return -ENOMEM;
		if (!v)
			return 0;
		if (asprintf(&entry, "%s=%s", key, v) < 0)
			entry = NULL;
	}
	if (!entry)
		return -ENOMEM;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct pending *p = reallocarray(r->v, cap, sizeof(*p));

		if (!p) {
			free(entry);
			return -ENOMEM;
		}
		r->v = p;
		r->cap = cap;
	}
	r->v[r->n] = (struct pending){ entry, r->n };
	r->n++;
	return 0;
}

/* Reads lines of at most ENV_FILE_MAX_LINE bytes through one fixed buffer: each byte is
 * looked at once and moved at most once, and a file with no newline (/dev/zero) stops at the
 * line cap instead of growing one line without end. */
static int reader_run(struct reader *r, FILE *f)
{
	const size_t size = ENV_FILE_MAX_LINE + 1; /* a longest line and its '\n' */
	_cleanup_free_ char *buf = malloc(size);
	size_t have = 0, total = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t n = fread(buf + have, 1, size - have, f), start = 0;
		char *nl;
		int err;

		if (n == 0 && ferror(f))
			return reader_fail(r, -EIO, NULL);
		total += n;
		if (total > ENV_FILE_MAX_BYTES) {
			r->lineno++;
			return reader_fail(r, -EFBIG, "the file is larger than 16 MiB");
		}
		have += n;
		while ((nl = memchr(buf + start, '\n', have - start))) {
			err = reader_line(r, buf + start, (size_t)(nl - (buf + start)));
			if (err < 0)
				return err;
			start = (size_t)(nl - buf) + 1;
		}
		if (n == 0) /* end of file: what is left is a last line without '\n' */
			return have > start ? reader_line(r, buf + start, have - start) : 0;
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == size) {
			r->lineno++;
			return reader_fail(r, -EFBIG, "a line longer than 65536 bytes");
		}
	}
}

/* Merges the file's variables (sorted, the last of each key kept) into e in one pass. */
static int env_merge(struct env *e, struct reader *r)
{
	char **out;
	size_t i = 0, j = 0, k = 0, m = 0, cap;

	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), pending_cmp);
	for (size_t x = 0; x < r->n; x++) {
		if (x + 1 < r->n &&
		    key_cmp(r->v[x].entry, key_len(r->v[x].entry), r->v[x + 1].entry) == 0) {
			free(r->v[x].entry); /* an earlier line of the same key */
			continue;
		}
		r->v[m++] = r->v[x];
	}
	r->n = m;
	cap = e->n + r->n + 1;
	out = reallocarray(NULL, cap, sizeof(char *));
	if (!out)
		return -ENOMEM;
	while (i < e->n || j < r->n) {
		int c = i == e->n   ? 1
			: j == r->n ? -1
				    : key_cmp(e->vars[i], key_len(e->vars[i]), r->v[j].entry);

		if (c < 0) {
			out[k++] = e->vars[i++];
		} else {
			if (c == 0)
				free(e->vars[i++]);
			out[k++] = r->v[j++].entry;
		}
	}
	out[k] = NULL;
	free(e->vars);
	e->vars = out;
	e->n = k;
	e->cap = cap;
	r->n = 0;
	return 0;
}

static void reader_done(struct reader *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].entry);
	free(r->v);
}

int env_load_stream(struct env *e, FILE *f, struct env_file_error *ret_err)
{
	struct reader r = { 0 };
	int err = reader_run(&r, f);

	if (err == 0)
		err = env_merge(e, &r);
	if (err < 0 && ret_err)
		*ret_err = (struct env_file_error){ .line = r.reason ? r.lineno : 0,
						    .reason = r.reason };
	reader_done(&r);
	return err;
}

int env_load_file(struct env *e, const char *host_path, struct env_file_error *ret_err)
{
	int fd = open(host_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st = { 0 };
	FILE *f;
	int err;

	if (ret_err)
		*ret_err = (struct env_file_error){ 0 };
	if (fd < 0)
		return -errno;
	/* A FIFO (`--env-file <(…)`) is fine, a directory is not (read() would say EISDIR). */
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		err = errno;
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -err;
	}
	f = fdopen(fd, "r");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	err = env_load_stream(e, f, ret_err);
	fclose(f);
	return err;
}
