// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Text parsers of the toolkit probes (see toolkit-parse.h for the formats and where they are
 * defined). Pure functions over (text, len): no I/O, every output bounded by its buffer,
 * the text read only up to len or an embedded NUL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/parse.h"
#include "toolkit-parse.h"

#define DEFINE_MAX_DEPTH 2 /* "#define A B" then "#define B 10": one indirection */

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t bounded_len(const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);

	return nul ? (size_t)(nul - text) : len;
}

/* Finds "#define name" at a line start (spaces allowed around '#'); returns the value span. */
static bool find_define(const char *t, size_t len, const char *name, const char **ret_v,
			size_t *ret_vlen)
{
	size_t nlen = strlen(name), i = 0;

	while (i < len) {
		size_t e = i, p = i;

		while (e < len && t[e] != '\n')
			e++;
		while (p < e && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p < e && t[p] == '#') {
			p++;
			while (p < e && (t[p] == ' ' || t[p] == '\t'))
				p++;
			if (e - p > 6 && memcmp(t + p, "define", 6) == 0 &&
			    (t[p + 6] == ' ' || t[p + 6] == '\t')) {
				p += 6;
				while (p < e && (t[p] == ' ' || t[p] == '\t'))
					p++;
				if (e - p >= nlen && memcmp(t + p, name, nlen) == 0 &&
				    (p + nlen == e || !is_ident(t[p + nlen]))) {
					size_t v, ve;

					/* A function-like macro "NAME(x)" is not a value. */
					if (p + nlen < e && t[p + nlen] == '(')
						goto next;
					v = p + nlen;
					while (v < e && (t[v] == ' ' || t[v] == '\t'))
						v++;
					ve = v;
					while (ve < e && t[ve] != ' ' && t[ve] != '\t' &&
					       t[ve] != '\r' && t[ve] != '/')
						ve++;
					*ret_v = t + v;
					*ret_vlen = ve - v;
					return true;
				}
			}
		}
	next:
		i = e + 1;
	}
	return false;
}

int probe_header_define(const char *text, size_t len, const char *name, char *buf, size_t buflen)
{
	char cur[128];

	if (!text || !name || !buf || buflen == 0)
		return -EINVAL;
	len = bounded_len(text, len);
	if (strlen(name) >= sizeof(cur))
		return -EINVAL;
	strcpy(cur, name);
	for (unsigned depth = 0; depth < DEFINE_MAX_DEPTH; depth++) {
		const char *v;
		size_t vlen;
		bool ident = true;

		if (!find_define(text, len, cur, &v, &vlen))
			return depth == 0 ? -ENOENT : -EBADMSG;
		if (vlen == 0)
			return -EBADMSG;
		for (size_t k = 0; k < vlen; k++)
			ident = ident && is_ident(v[k]);
		/* Another macro's name: look that one up (TensorRT 10 NV_TENSORRT_MAJOR). */
		if (ident && !is_digit(v[0]) && vlen < sizeof(cur) &&
		    depth + 1 < DEFINE_MAX_DEPTH) {
			memcpy(cur, v, vlen);
			cur[vlen] = '\0';
			continue;
		}
		if (vlen >= buflen)
			return -EBADMSG;
		memcpy(buf, v, vlen);
		buf[vlen] = '\0';
		return 0;
	}
	return -EBADMSG;
}

int probe_header_version(const char *text, size_t len, const char *const *names, size_t n,
			 char *buf, size_t buflen)
{
	char out[PROBE_VERSION_MAX] = "";
	size_t used = 0;

	if (!names || n == 0 || n > 4 || !buf)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char v[24];
		unsigned u;
		int r = probe_header_define(text, len, names[i], v, sizeof(v));

		if (r < 0)
			return r;
		if (parse_uint(v, 10, &u) < 0)
			return -EBADMSG;
		r = snprintf(out + used, sizeof(out) - used, "%s%u", i ? "." : "", u);
		if (r < 0 || (size_t)r >= sizeof(out) - used)
			return -EBADMSG;
		used += (size_t)r;
	}
	if (used >= buflen)
		return -EBADMSG;
	memcpy(buf, out, used + 1);
	return 0;
}

/* Copies the dotted-decimal prefix of [p, e) into buf; its length, 0 when none. */
static size_t copy_version(const char *p, const char *e, char *buf, size_t buflen)
{
	size_t n = 0;

	while (p + n < e &&
	       (is_digit(p[n]) || (p[n] == '.' && n > 0 && p + n + 1 < e && is_digit(p[n + 1]))))
		n++;
	if (n == 0 || n >= buflen)
		return 0;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

static const char *memmem_str(const char *t, size_t len, const char *needle)
{
	return memmem(t, len, needle, strlen(needle));
}

int probe_parse_nvcc_version(const char *text, size_t len, char *release, size_t rlen, char *full,
			     size_t flen)
{
	static const char rel[] = "release ";
	const char *p, *e;

	if (!text || !release || !full)
		return -EINVAL;
	len = bounded_len(text, len);
	e = text + len;
	/* "Cuda compilation tools, release 13.0, V13.0.88" (nvcc prints it since CUDA 1.x). */
	p = memmem_str(text, len, "Cuda compilation tools, ");
	if (!p)
		return -EBADMSG;
	p = memmem_str(p, (size_t)(e - p), rel);
	if (!p || !copy_version(p + strlen(rel), e, release, rlen))
		return -EBADMSG;
	p += strlen(rel);
	while (p < e && *p != '\n' && *p != 'V')
		p++;
	if (p < e && *p == 'V' && copy_version(p + 1, e, full, flen))
		return 0;
	if (strlen(release) >= flen)
		return -EBADMSG;
	strcpy(full, release);
	return 0;
}

unsigned probe_version_fields(const char *ver)
{
	unsigned n = 0;

	if (!ver || !*ver)
		return 0;
	for (const char *p = ver; *p; p++)
		if (*p == '.')
			n++;
	return n + 1;
}

bool probe_lib_best(char **const *names, char *const *dirs, size_t n, const char *base,
		    const char **ret_name, const char **ret_dir, const char **ret_ver)
{
	const char *best = NULL, *best_dir = NULL, *best_v = NULL;
	unsigned best_k = 0;

	for (size_t i = 0; i < n; i++)
		for (char **nm = names[i]; nm && *nm; nm++) {
			const char *v;
			unsigned k;

			if (!probe_lib_name_match(*nm, base, &v))
				continue;
			k = probe_version_fields(v);
			if (!best || k > best_k) {
				best = *nm;
				best_dir = dirs[i];
				best_v = v;
				best_k = k;
			}
		}
	if (!best)
		return false;
	*ret_name = best;
	*ret_dir = best_dir;
	if (ret_ver)
		*ret_ver = best_v;
	return true;
}

bool probe_lib_name_match(const char *name, const char *base, const char **ret_ver)
{
	size_t bl = strlen(base);
	const char *v;

	if (strncmp(name, base, bl) != 0)
		return false;
	v = name + bl;
	if (*v == '\0') {
		*ret_ver = v;
		return true;
	}
	if (*v != '.' || !is_digit(v[1]))
		return false;
	v++;
	/* Dotted decimal to the end; a git suffix like "6.2.41134-65d174c3e" is allowed last. */
	for (const char *p = v; *p; p++) {
		if (is_digit(*p))
			continue;
		if (*p == '.' && is_digit(p[1]))
			continue;
		if (*p == '-' && p[1] && p > v)
			break;
		return false;
	}
	*ret_ver = v;
	return true;
}

/* "<version><suffix>" → version into buf when it starts with a digit and is followed by suffix. */
static bool version_before(const char *p, const char *suffix, char *ver, size_t len)
{
	size_t sl = strlen(suffix), pl = strlen(p), vl;

	if (pl <= sl || strcmp(p + pl - sl, suffix) != 0 || !is_digit(p[0]))
		return false;
	vl = pl - sl;
	if (vl >= len)
		return false;
	for (size_t i = 0; i < vl; i++)
		if (!is_ident(p[i]) && p[i] != '.' && p[i] != '+' && p[i] != '!')
			return false;
	memcpy(ver, p, vl);
	ver[vl] = '\0';
	return true;
}

bool probe_dist_info_match(const char *name, const char *base, char *ver, size_t len)
{
	size_t bl = strlen(base);
	const char *p;

	if (strncmp(name, base, bl) != 0)
		return false;
	p = name + bl;
	/* The wheel's CUDA-major suffix (nvidia_cudnn_cu13) and TensorRT's "_libs". */
	if (strncmp(p, "_cu", 3) == 0 && is_digit(p[3])) {
		p += 3;
		while (is_digit(*p))
			p++;
	}
	if (strncmp(p, "_libs", 5) == 0)
		p += 5;
	if (*p != '-')
		return false;
	return version_before(p + 1, ".dist-info", ver, len);
}

bool probe_conda_meta_match(const char *name, const char *base, char *ver, size_t len)
{
	size_t bl = strlen(base);
	const char *p, *dash, *json;

	if (strncmp(name, base, bl) != 0 || name[bl] != '-' || !is_digit(name[bl + 1]))
		return false;
	p = name + bl + 1;
	dash = strchr(p, '-');
	json = strrchr(p, '.');
	if (!dash || !json || strcmp(json, ".json") != 0 || dash > json ||
	    (size_t)(dash - p) >= len)
		return false;
	/* The version has no '-' (conda forbids it); the build string is the rest. */
	if (strchr(dash + 1, '-'))
		return false;
	memcpy(ver, p, (size_t)(dash - p));
	ver[dash - p] = '\0';
	return true;
}

int probe_kv_value(const char *text, size_t len, const char *key, char *buf, size_t buflen)
{
	size_t kl = strlen(key), i = 0;

	if (!text || !buf || buflen == 0)
		return -EINVAL;
	len = bounded_len(text, len);
	while (i < len) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		if (e - i > kl && memcmp(text + i, key, kl) == 0 && text[i + kl] == '=') {
			size_t v = i + kl + 1, ve = e;

			while (v < ve && (text[v] == ' ' || text[v] == '\t'))
				v++;
			while (ve > v && (text[ve - 1] == ' ' || text[ve - 1] == '\t' ||
					  text[ve - 1] == '\r'))
				ve--;
			if (ve == v || ve - v >= buflen)
				return -EBADMSG;
			memcpy(buf, text + v, ve - v);
			buf[ve - v] = '\0';
			return 0;
		}
		i = e + 1;
	}
	return -ENOENT;
}

int probe_version_line(const char *text, size_t len, char *buf, size_t buflen)
{
	size_t s = 0, e;

	if (!text || !buf || buflen == 0)
		return -EINVAL;
	len = bounded_len(text, len);
	while (s < len && (text[s] == ' ' || text[s] == '\t' || text[s] == '\n' || text[s] == '\r'))
		s++;
	e = s;
	while (e < len && text[e] != '\n' && text[e] != '\r' && text[e] != ' ' && text[e] != '\t')
		e++;
	if (e == s || !is_digit(text[s]) || e - s >= buflen)
		return -EBADMSG;
	for (size_t i = s; i < e; i++)
		if (!is_ident(text[i]) && text[i] != '.' && text[i] != '-' && text[i] != '+' &&
		    text[i] != '~')
			return -EBADMSG;
	memcpy(buf, text + s, e - s);
	buf[e - s] = '\0';
	{
		struct version v;

		if (version_parse_prefix(buf, &v, NULL) < 0)
			return -EBADMSG;
	}
	return 0;
}

int probe_dpkg_status_version(const char *text, size_t len, const char *package, char *buf,
			      size_t buflen)
{
	char key[256];
	size_t kl;
	const char *p;

	if (!text || !package || !buf || buflen == 0)
		return -EINVAL;
	len = bounded_len(text, len);
	kl = (size_t)snprintf(key, sizeof(key), "Package: %s\n", package);
	if (kl >= sizeof(key))
		return -EINVAL;
	/* deb-control(5) stanzas separated by blank lines; fields "Name: value". The status file
	 * is megabytes: find the stanza with memmem(3) (a package may have one per architecture),
	 * then read only its fields. */
	for (p = text; (p = memmem(p, len - (size_t)(p - text), key, kl)); p += kl) {
		bool installed = false;
		const char *ver = NULL, *line = p + kl;
		size_t ver_len = 0;

		if (p != text && p[-1] != '\n')
			continue;
		while (line < text + len && *line != '\n') {
			const char *e = memchr(line, '\n', len - (size_t)(line - text));
			size_t n = e ? (size_t)(e - line) : len - (size_t)(line - text);

			/* "install ok installed": the want, error and status words (dpkg-query(1)).
			 */
			if (n > 8 && memcmp(line, "Status: ", 8) == 0)
				installed =
					n >= 8 + 10 && memcmp(line + n - 10, " installed", 10) == 0;
			else if (n > 9 && memcmp(line, "Version: ", 9) == 0) {
				ver = line + 9;
				ver_len = n - 9;
			}
			line += n + (e ? 1 : 0);
		}
		if (installed && ver) {
			if (ver_len >= buflen || ver_len >= PROBE_VERSION_MAX)
				return -EBADMSG;
			memcpy(buf, ver, ver_len);
			buf[ver_len] = '\0';
			return 0;
		}
	}
	return -ENOENT;
}

/* The end of the line at p (its '\n', or end). */
static const char *line_end(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	return e ? e : end;
}

static int stanza_cmp(const void *x, const void *y, void *data)
{
	const struct dpkg_index_entry *a = x, *b = y;
	const char *text = data;
	int d = memcmp(text + a->name_off, text + b->name_off, MIN(a->name_len, b->name_len));

	if (d)
		return d;
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

int dpkg_status_index_build(const char *text, size_t len, struct dpkg_status_index *ret)
{
	const char *end, *p;
	struct dpkg_index_entry *v = NULL;
	size_t n = 0, cap = 0, first = 0;
	/* the stanza's last Status and Version lines (offsets; 0: none yet) */
	size_t st_off = 0, ver_off = 0, ver_len = 0;
	bool inst = false;

	*ret = (struct dpkg_status_index){ 0 };
	if (!text)
		return -EINVAL;
	len = bounded_len(text, len);
	if (len > UINT32_MAX)
		return -E2BIG;
	end = text + len;
	/* Line by line; a stanza ends at an empty line. probe_dpkg_status_version() reads the
	 * fields after a "Package: NAME\n" line up to the next empty line, the last Status and
	 * Version there winning: when the stanza ends, each of its Package lines gets the
	 * stanza's last Status and Version if they come after it (one pass, so a hostile stanza
	 * of many Package and Status lines stays linear). */
	for (p = text; p <= end; p++) {
		const char *e = p < end ? line_end(p, end) : end;
		size_t ln = (size_t)(e - p);

		if (p == end || ln == 0) { /* the stanza [first, n) ends */
			for (size_t i = first; i < n; i++) {
				if (st_off > v[i].name_off)
					v[i].installed = inst;
				if (ver_off > v[i].name_off) {
					v[i].has_version = true;
					v[i].ver_off = (uint32_t)ver_off;
					v[i].ver_len = (uint32_t)ver_len;
				}
			}
			first = n;
			st_off = ver_off = 0;
			if (p == end)
				break;
			p = e;
			continue;
		}
		if (ln >= 9 && e < end && memcmp(p, "Package: ", 9) == 0) {
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct dpkg_index_entry *nv;

				if (n >= DPKG_INDEX_MAX) {
					free(v);
					return -E2BIG;
				}
				nv = reallocarray(v, nc, sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap = nc;
			}
			v[n] = (struct dpkg_index_entry){ .name_off = (uint32_t)(p + 9 - text),
							  .name_len = (uint32_t)(ln - 9),
							  .order = (uint32_t)n };
			n++;
		} else if (ln > 8 && memcmp(p, "Status: ", 8) == 0) {
			st_off = (size_t)(p - text);
			inst = ln >= 8 + 10 && memcmp(e - 10, " installed", 10) == 0;
		} else if (ln > 9 && memcmp(p, "Version: ", 9) == 0) {
			ver_off = (size_t)(p + 9 - text);
			ver_len = ln - 9;
		}
		p = e;
	}
	if (n)
		qsort_r(v, n, sizeof(*v), stanza_cmp, (void *)text);
	ret->v = v;
	ret->n = n;
	return 0;
}

void dpkg_status_index_done(struct dpkg_status_index *idx)
{
	free(idx->v);
	*idx = (struct dpkg_status_index){ 0 };
}

int dpkg_status_index_version(const struct dpkg_status_index *idx, const char *text,
			      const char *package, char *buf, size_t buflen)
{
	size_t lo = 0, hi, pl;

	if (!idx || !text || !package || !buf || buflen == 0)
		return -EINVAL;
	pl = strlen(package);
	if (pl + strlen("Package: \n") >= 256) /* the key probe_dpkg_status_version() makes */
		return -EINVAL;
	hi = idx->n;
	while (lo < hi) { /* the first name not below package */
		size_t mid = lo + (hi - lo) / 2;
		const struct dpkg_index_entry *s = &idx->v[mid];
		int d = memcmp(text + s->name_off, package, MIN((size_t)s->name_len, pl));

		if (d < 0 || (d == 0 && s->name_len < pl))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < idx->n; lo++) {
		const struct dpkg_index_entry *s = &idx->v[lo];

		if (s->name_len != pl || memcmp(text + s->name_off, package, pl) != 0)
			break;
		if (!s->installed || !s->has_version)
			continue;
		if (s->ver_len >= buflen || s->ver_len >= PROBE_VERSION_MAX)
			return -EBADMSG;
		memcpy(buf, text + s->ver_off, s->ver_len);
		buf[s->ver_len] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* Whether a Depends/Pre-Depends value ("libc6 (>= 2.34), libamdhip64-5 | foo, bar:any") names
 * package as one of its alternatives (deb-control(5): ',' between, '|' among alternatives, an
 * optional ":arch" qualifier and "(relation version)" after the name). */
static bool depends_names(const char *v, size_t n, const char *package, size_t pl)
{
	size_t i = 0;

	while (i < n) {
		size_t s, e;

		while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ',' || v[i] == '|'))
			i++;
		s = i;
		while (i < n && v[i] != ' ' && v[i] != '\t' && v[i] != ',' && v[i] != '|' &&
		       v[i] != '(' && v[i] != ':')
			i++;
		e = i;
		if (e - s == pl && memcmp(v + s, package, pl) == 0)
			return true;
		while (i < n && v[i] != ',' && v[i] != '|')
			i++;
	}
	return false;
}

static bool field_is(const char *line, size_t n, const char *name, size_t *vstart)
{
	size_t l = strlen(name);

	if (n <= l + 1 || memcmp(line, name, l) != 0 || line[l] != ':')
		return false;
	*vstart = l + 1;
	return true;
}

/* One stanza's Package, installed Status and whether its Depends name the package. */
struct dpkg_stanza {
	const char *name;
	size_t name_len;
	bool installed, depends;
};

static void required_by_add(const struct dpkg_stanza *st, char *buf, size_t buflen, size_t *used,
			    int *count)
{
	static const char more[] = ", …";
	size_t sep = *count ? 2 : 0;

	if (!st->name || !st->installed || !st->depends)
		return;
	(*count)++;
	if (*used == SIZE_MAX)
		return; /* already truncated */
	if (*used + sep + st->name_len + sizeof(more) > buflen) {
		size_t skip = *used ? 0 : 2; /* nothing listed yet: "…" alone */

		if (*used + sizeof(more) - skip <= buflen)
			memcpy(buf + *used, more + skip, sizeof(more) - skip);
		*used = SIZE_MAX;
		return;
	}
	memcpy(buf + *used, ", ", sep);
	memcpy(buf + *used + sep, st->name, st->name_len);
	*used += sep + st->name_len;
	buf[*used] = '\0';
}

int probe_dpkg_status_required_by(const char *text, size_t len, const char *package, char *buf,
				  size_t buflen)
{
	struct dpkg_stanza st = { 0 };
	size_t pl, used = 0;
	int count = 0;
	const char *line;

	if (!text || !package || !buf || buflen < 8)
		return -EINVAL;
	pl = strlen(package);
	buf[0] = '\0';
	len = bounded_len(text, len);
	/* One pass over the stanzas (deb-control(5)); a blank line ends one. dpkg writes each
	 * Depends field on a single line; continuation lines (leading blank) are not fields. */
	for (line = text; line < text + len;) {
		const char *e = memchr(line, '\n', len - (size_t)(line - text));
		size_t n = e ? (size_t)(e - line) : len - (size_t)(line - text), v;

		if (n == 0) {
			required_by_add(&st, buf, buflen, &used, &count);
			st = (struct dpkg_stanza){ 0 };
		} else if (field_is(line, n, "Package", &v)) {
			while (v < n && line[v] == ' ')
				v++;
			st.name = line + v;
			st.name_len = n - v;
		} else if (field_is(line, n, "Status", &v)) {
			st.installed = n >= 10 && memcmp(line + n - 10, " installed", 10) == 0;
		} else if (field_is(line, n, "Depends", &v) ||
			   field_is(line, n, "Pre-Depends", &v)) {
			st.depends = st.depends || depends_names(line + v, n - v, package, pl);
		}
		line += n + (e ? 1 : 0);
	}
	required_by_add(&st, buf, buflen, &used, &count);
	return count;
}
