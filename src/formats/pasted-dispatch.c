// SPDX-License-Identifier: LGPL-2.1-or-later
/* One pass over pasted text for every reader: see pasted-dispatch.h. */
#include "formats/pasted-dispatch.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int add_needle(struct pasted_dispatch *d, struct pasted_needle nd, size_t reader)
{
	if (d->scan.n >= PASTED_SCAN_MAX)
		return -EINVAL;
	d->tags[d->scan.n] = (uint64_t)1 << reader;
	d->needles[d->scan.n++] = nd;
	return 0;
}

int pasted_dispatch_init(struct pasted_dispatch *d, const struct pasted_reader *readers)
{
	struct pasted_needle more[PASTED_SCAN_MAX];
	size_t n;
	int r = 0;

	*d = (struct pasted_dispatch){ .readers = readers };
	while (readers[d->n_readers].name)
		d->n_readers++;
	if (d->n_readers > PASTED_DISPATCH_READERS_MAX)
		return -EINVAL;
	for (size_t i = 0; i < d->n_readers && r >= 0; i++) {
		const struct pasted_reader *rd = &readers[i];
		uint64_t bit = (uint64_t)1 << i;

		for (size_t k = 0; rd->signs && rd->signs[k] && r >= 0; k++)
			r = add_needle(d, (struct pasted_needle){ rd->signs[k], false }, i);
		n = rd->more_signs ? rd->more_signs(more, PASTED_SCAN_MAX) : 0;
		for (size_t k = 0; k < n && r >= 0; k++)
			r = add_needle(d, more[k], i);
		if (rd->takes && rd->reach != PASTED_REACH_LINES &&
		    rd->reach != PASTED_REACH_INDENTED) {
			r = -EINVAL; /* a test of its own lines hands it lines (or the blocks
				      * they open) */
		} else if (rd->reach == PASTED_REACH_TEXT) {
			d->text |= bit;
			if (rd->signs || n)
				d->signed_text |= bit;
		} else if (!rd->signs && !n && !rd->takes) {
			r = -EINVAL; /* a reader of some lines names them */
		} else if (rd->reach == PASTED_REACH_BLOCK) {
			d->block |= bit;
		} else if (rd->reach == PASTED_REACH_NEXT) {
			d->next |= bit;
		} else if (rd->reach == PASTED_REACH_INDENTED) {
			d->indented |= bit;
		}
		if (rd->takes)
			d->takers |= bit;
	}
	n = d->scan.n;
	if (r >= 0)
		r = pasted_scan_init(&d->scan, d->needles, n);
	if (r < 0)
		return r;
	d->parts = calloc(d->n_readers, sizeof(*d->parts));
	return d->parts ? 0 : -ENOMEM;
}

void pasted_dispatch_done(struct pasted_dispatch *d)
{
	for (size_t i = 0; d->parts && i < d->n_readers; i++)
		free(d->parts[i].v);
	free(d->parts);
	d->parts = NULL;
	free(d->buf);
	d->buf = NULL;
	free(d->map);
	d->map = NULL;
}

static bool grow(void **p, size_t *cap, size_t want, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *np;

	if (want <= *cap)
		return true;
	while (c < want)
		c *= 2;
	np = realloc(*p, c * size);
	if (!np)
		return false;
	*p = np;
	*cap = c;
	return true;
}

/* Hands line `no` (at off, l bytes, without its "\n") to the part, after a gap standing for
 * the lines skipped since the last one handed; end: only that gap (the lines after the last
 * one handed), where some were skipped. Only the line's place is kept: see put_part. */
static int part_add(struct pasted_part *pt, size_t off, size_t l, unsigned no, bool end)
{
	bool gap = pt->last + 1 != no;

	if (end && !gap)
		return 0;
	if (!grow((void **)&pt->v, &pt->cap, pt->n + 2, sizeof(*pt->v)))
		return -ENOMEM;
	if (gap) {
		pt->v[pt->n++] = (struct pasted_part_line){ 0, PASTED_PART_GAP, pt->last + 1 };
		pt->len++;
	}
	if (!end) {
		pt->v[pt->n++] = (struct pasted_part_line){ (uint32_t)off, (uint32_t)l, no };
		pt->len += l + 1;
		pt->last = no;
	}
	return 0;
}

/* The part's text (its lines, each with its "\n", a gap as an empty line, NUL-terminated)
 * and line map, copied from the window into the dispatcher's buffers. */
static int put_part(struct pasted_dispatch *d, const struct pasted_part *pt, const char *text)
{
	size_t o = 0;

	if (!grow((void **)&d->buf, &d->buf_cap, pt->len + 1, 1) ||
	    !grow((void **)&d->map, &d->map_cap, pt->n, sizeof(*d->map)))
		return -ENOMEM;
	for (size_t i = 0; i < pt->n; i++) {
		const struct pasted_part_line *ln = &pt->v[i];

		if (ln->len != PASTED_PART_GAP) {
			memcpy(d->buf + o, text + ln->off, ln->len);
			o += ln->len;
		}
		d->buf[o++] = '\n';
		d->map[i] = ln->no;
	}
	d->buf[o] = '\0';
	return 0;
}

static bool blank_line(const char *p, size_t l)
{
	for (size_t i = 0; i < l; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

/* A line's indentation as the readers of indented sections count it: blanks, a tab as eight. */
static unsigned indent_of(const char *p, size_t l)
{
	unsigned n = 0;

	for (size_t i = 0; i < l && (p[i] == ' ' || p[i] == '\t'); i++)
		n += p[i] == '\t' ? 8 : 1;
	return n;
}

/* The indented blocks (PASTED_REACH_INDENTED) among `in_block` that line p, l does not end
 * (an empty line, or one no deeper than the block's sign line, ends one), and those its signs
 * (hit) open or keep open, at the shallower indentation. */
static uint64_t indented_blocks(struct pasted_dispatch *d, uint64_t in_block, uint64_t hit,
				const char *p, size_t l)
{
	unsigned ind;

	hit &= d->indented;
	if (!in_block && !hit)
		return 0;
	if (in_block && blank_line(p, l))
		in_block = 0;
	ind = indent_of(p, l);
	for (uint64_t t = in_block; t; t &= t - 1)
		if (ind <= d->indent[__builtin_ctzll(t)])
			in_block &= ~(t & -t);
	for (uint64_t t = hit; t; t &= t - 1) {
		size_t i = (size_t)__builtin_ctzll(t);

		if (!(in_block & (t & -t)) || ind < d->indent[i])
			d->indent[i] = ind;
	}
	return in_block | hit;
}

/* The window's lines, each handed to the readers it is for. */
static int split(struct pasted_dispatch *d, const char *text, size_t n, uint64_t *ret_seen)
{
	const char *p = text, *end = text + n;
	uint64_t seen = 0, in_block = 0,
		 after = 0;    /* after: the readers this line is the next of */
	uint64_t indented = 0; /* the in_block PASTED_REACH_INDENTED blocks */
	unsigned no = 0;
	int r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		size_t l = (size_t)(e - p);
		uint64_t hit = pasted_scan_tags(&d->scan, d->tags, p, l), want;

		no++;
		seen |= hit;
		for (uint64_t t = d->takers; t; t &= t - 1)
			if (d->readers[__builtin_ctzll(t)].takes(p, l))
				hit |= t & -t;
		if (in_block && blank_line(p, l))
			in_block = 0;
		hit &= ~d->text;
		in_block |= hit & d->block;
		indented = indented_blocks(d, indented, hit, p, l);
		want = hit | in_block | indented | after;
		after = hit & d->next;
		for (; want; want &= want - 1) {
			r = part_add(&d->parts[__builtin_ctzll(want)], (size_t)(p - text), l, no,
				     false);
			if (r < 0)
				return r;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	for (size_t i = 0; i < d->n_readers; i++) {
		if (!d->parts[i].n)
			continue;
		r = part_add(&d->parts[i], 0, 0, no + 1, true);
		if (r < 0)
			return r;
	}
	*ret_seen = seen;
	d->newlines = no - (n && text[n - 1] != '\n');
	return 0;
}

int pasted_dispatch_read(struct pasted_dispatch *d, const char *text, size_t n, unsigned line_base,
			 struct pasted_facts *each)
{
	uint64_t seen = 0;
	int r;

	for (size_t i = 0; i < d->n_readers; i++) {
		d->parts[i].len = d->parts[i].n = 0;
		d->parts[i].last = 0;
	}
	if (n > PASTED_PART_GAP - 1) /* a line's place is a uint32_t */
		return -EFBIG;
	r = split(d, text, n, &seen);
	for (size_t i = 0; i < d->n_readers && r >= 0; i++) {
		const struct pasted_reader *rd = &d->readers[i];
		const struct pasted_part *pt = &d->parts[i];
		uint64_t bit = (uint64_t)1 << i;

		each[i].line_base = line_base;
		if (d->text & bit) {
			if (!(d->signed_text & bit) || (seen & bit))
				r = rd->read(text, n, &each[i]);
		} else if (pt->n) {
			r = put_part(d, pt, text);
			if (r < 0)
				break;
			each[i].line_map = d->map;
			each[i].line_map_n = pt->n;
			r = rd->read(d->buf, pt->len, &each[i]);
			each[i].line_map = NULL;
			each[i].line_map_n = 0;
		}
	}
	return r < 0 ? r : 0;
}
