// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Slurm's configuration syntax and its host/device lists (see slurm-conf.h).
 */
#include "formats/slurm-conf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool slurm_conf_key_is(const char *key, size_t key_len, const char *name)
{
	size_t i;

	for (i = 0; i < key_len && name[i]; i++)
		if (lower(key[i]) != lower(name[i]))
			return false;
	return i == key_len && !name[i];
}

/* A '\' that ends the physical line (before "\n" or "\r\n"): the line continues. Returns
 * the length of the continuation (its '\' and line end), 0 when p is not one. */
static size_t continuation(const char *p, const char *end)
{
	if (p >= end || *p != '\\')
		return 0;
	if (p + 1 < end && p[1] == '\n')
		return 2;
	if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
		return 3;
	return 0;
}

/* The end of a word: a blank, the line's end, a comment, a continuation; '=' too where
 * stop_eq. A "\#" is part of the word. */
static const char *word_end(const char *p, const char *end, bool stop_eq)
{
	while (p < end && !is_blank(*p) && *p != '\n' && *p != '#' && !continuation(p, end) &&
	       !(stop_eq && *p == '=')) {
		if (*p == '\\' && p + 1 < end && p[1] == '#')
			p++;
		p++;
	}
	return p;
}

/* "Include <file>": the rest of the physical line up to a comment, without blanks around. */
static const char *include_value(const char *p, const char *end, const char **vend)
{
	const char *e;

	while (p < end && is_blank(*p))
		p++;
	e = p;
	while (e < end && *e != '\n' && *e != '#')
		e++;
	while (e > p && is_blank(e[-1]))
		e--;
	*vend = e;
	return p;
}

uint64_t slurm_conf_parse(const char *text, size_t len, slurm_conf_pair_fn fn, void *data)
{
	const char *p, *end;
	uint64_t line = 1, start_line = 1, lines = 0;
	size_t index = 0;
	const char *nul = memchr(text, '\0', len);

	end = nul ? nul : text + len;
	p = text;
	while (p < end) {
		const char *key, *kend, *val, *vend;
		size_t c;

		if (is_blank(*p)) {
			p++;
			continue;
		}
		if ((c = continuation(p, end))) {
			p += c;
			line++;
			continue;
		}
		if (*p == '\n') {
			p++;
			line++;
			start_line = line;
			index = 0;
			continue;
		}
		if (*p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		key = p;
		kend = word_end(p, end, true);
		if (kend == key) { /* a lone '\' not at the line's end */
			p++;
			continue;
		}
		if (kend < end && *kend == '=') {
			val = kend + 1;
			if (val < end && *val == '"') {
				val++;
				vend = val;
				while (vend < end && *vend != '"' && *vend != '\n')
					vend++;
				p = vend < end && *vend == '"' ? vend + 1 : vend;
			} else {
				vend = word_end(val, end, false);
				p = vend;
			}
		} else if (index == 0 && slurm_conf_key_is(key, (size_t)(kend - key), "Include")) {
			val = include_value(kend, end, &vend);
			key = "Include";
			kend = key + 7;
			p = vend;
			while (p < end && *p != '\n' && *p != '#')
				p++;
		} else {
			p = kend; /* a word without '=': not a setting */
			continue;
		}
		if (index == 0)
			lines++;
		if (!fn(data, start_line, index++, key, (size_t)(kend - key), val,
			(size_t)(vend - val)))
			break;
	}
	return lines;
}

/* Appends one name (prefix, number of width digits, suffix) to out. */
static int emit(char (*out)[SLURM_CONF_NAME_MAX], size_t max, size_t *n, const char *pre,
		size_t pre_len, const char *num, const char *suf, size_t suf_len)
{
	size_t num_len = strlen(num);

	if (pre_len + num_len + suf_len >= SLURM_CONF_NAME_MAX)
		return -EINVAL;
	if (*n >= max)
		return -E2BIG;
	memcpy(out[*n], pre, pre_len);
	memcpy(out[*n] + pre_len, num, num_len);
	memcpy(out[*n] + pre_len + num_len, suf, suf_len);
	out[*n][pre_len + num_len + suf_len] = '\0';
	(*n)++;
	return 0;
}

/* A bound of a range: 1 to 9 digits. */
static bool parse_bound(const char *p, size_t len, unsigned long *ret)
{
	unsigned long v = 0;

	if (len == 0 || len > 9)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(p[i] - '0');
	}
	*ret = v;
	return true;
}

/* The ranges between the brackets of one name ("0-3", "01-04,07"). */
static int expand_ranges(const char *pre, size_t pre_len, const char *r, size_t r_len,
			 const char *suf, size_t suf_len, char (*out)[SLURM_CONF_NAME_MAX],
			 size_t max, size_t *n)
{
	const char *p = r, *end = r + r_len;

	if (r_len == 0)
		return -EINVAL;
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *dash;
		const char *item_end = comma ? comma : end;
		unsigned long lo, hi;
		size_t width;

		dash = memchr(p, '-', (size_t)(item_end - p));
		if (!parse_bound(p, (size_t)((dash ? dash : item_end) - p), &lo))
			return -EINVAL;
		width = (size_t)((dash ? dash : item_end) - p);
		hi = lo;
		if (dash && (!parse_bound(dash + 1, (size_t)(item_end - dash - 1), &hi) || hi < lo))
			return -EINVAL;
		for (unsigned long v = lo; v <= hi; v++) {
			char num[16];
			int err;

			snprintf(num, sizeof(num), "%0*lu", (int)width, v);
			err = emit(out, max, n, pre, pre_len, num, suf, suf_len);
			if (err < 0)
				return err;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

int slurm_conf_expand(const char *list, size_t len, char (*out)[SLURM_CONF_NAME_MAX], size_t max,
		      size_t *n)
{
	const char *p = list, *end = list + len;

	*n = 0;
	while (p < end) {
		const char *item = p, *lbrack = NULL, *rbrack = NULL;
		int err;

		/* the item ends at a comma outside brackets */
		while (p < end && (*p != ',' || (lbrack && !rbrack))) {
			if (*p == '[') {
				if (lbrack)
					return -EINVAL; /* nested, or a second bracket */
				lbrack = p;
			} else if (*p == ']') {
				if (!lbrack || rbrack)
					return -EINVAL;
				rbrack = p;
			}
			p++;
		}
		if (lbrack && !rbrack)
			return -EINVAL;
		if (p == item)
			return -EINVAL; /* an empty name: ",," or a trailing comma */
		if (lbrack)
			err = expand_ranges(item, (size_t)(lbrack - item), lbrack + 1,
					    (size_t)(rbrack - lbrack - 1), rbrack + 1,
					    (size_t)(p - rbrack - 1), out, max, n);
		else
			err = emit(out, max, n, item, (size_t)(p - item), "", "", 0);
		if (err < 0)
			return err;
		if (p < end) {
			p++; /* the comma */
			if (p == end)
				return -EINVAL;
		}
	}
	return 0;
}
