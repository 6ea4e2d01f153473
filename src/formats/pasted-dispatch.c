// SPDX-License-Identifier: LGPL-2.1-or-later
/* One pass over pasted text for every reader: see pasted-dispatch.h. */
#include "formats/pasted-dispatch.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
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

	/* All but the needles, their tags and the scan, which are written below where they are
	 * used (the first scan.n of each, the scan's filters by pasted_scan_init): zeroing them
	 * too stored 15 KB at every run. */
	memset(d, 0, offsetof(struct pasted_dispatch, needles));
	memset(&d->own, 0, sizeof(*d) - offsetof(struct pasted_dispatch, own));
	d->scan.n = 0;
	d->readers = readers;
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
	return r;
}

void pasted_split_done(struct pasted_split *s)
{
	for (size_t i = 0; s->parts && i < s->n_parts; i++)
		free(s->parts[i].v);
	free(s->parts);
	s->parts = NULL;
	s->n_parts = 0;
}

void pasted_dispatch_done(struct pasted_dispatch *d)
{
	pasted_split_done(&d->own);
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

/* Hands line `no` (at off, l bytes, then its "\n" where nl) to the part, after a gap standing
 * for the lines skipped since the last one handed; end: only that gap (the lines after the
 * last one handed), where some were skipped. Only the line's place is kept, joined to the run
 * of lines it follows: see put_part. */
static int part_add(struct pasted_part *pt, size_t off, size_t l, bool nl, unsigned no, bool end)
{
	bool gap = pt->last + 1 != no;

	if (end && !gap)
		return 0;
	if (!grow((void **)&pt->v, &pt->cap, pt->n + 2, sizeof(*pt->v)))
		return -ENOMEM;
	if (gap) {
		pt->v[pt->n++] = (struct pasted_part_line){ no, PASTED_PART_GAP, 0 };
		pt->len++;
		pt->lines++;
	}
	if (!end) {
		struct pasted_part_line *run = pt->n ? &pt->v[pt->n - 1] : NULL;

		if (!gap && run && run->len != PASTED_PART_GAP) {
			/* the line after the run's last */
			run->len += (uint32_t)(l + nl);
			run->lines++;
		} else {
			pt->v[pt->n++] =
				(struct pasted_part_line){ (uint32_t)off, (uint32_t)(l + nl), 1 };
		}
		pt->len += l + 1;
		pt->lines++;
		pt->last = no;
	}
	return 0;
}

/* Whether the part's text is the window's from one of its lines to its end: one run, to the
 * window's last line, which ends with a "\n", after at most a gap, which is then the "\n"
 * before the run. A section a block reader takes to the end of the window is read where it
 * is, not copied (on a log without empty lines, that is most of the window). */
static const char *part_in_window(const struct pasted_part *pt, const char *text, size_t n)
{
	size_t first = pt->n && pt->v[0].len == PASTED_PART_GAP;
	const struct pasted_part_line *run = &pt->v[first];

	if (pt->n != first + 1 || n == 0 || text[n - 1] != '\n' || (size_t)run->off + run->len != n)
		return NULL;
	return text + run->off - first; /* a gap: the "\n" before the run */
}

/* The part's text (its lines, each with its "\n", a gap as an empty line, NUL-terminated) into
 * *ret, and its line map into the dispatcher's, from the window: in place where it is a piece
 * of the window to its end (part_in_window), else copied into the dispatcher's buffer. */
static int put_part(struct pasted_dispatch *d, const struct pasted_part *pt, const char *text,
		    size_t n, const char **ret)
{
	const char *in = part_in_window(pt, text, n);
	unsigned no = 0; /* the line before */
	size_t o = 0, k = 0;

	if (!grow((void **)&d->map, &d->map_cap, pt->lines, sizeof(*d->map)) ||
	    (!in && !grow((void **)&d->buf, &d->buf_cap, pt->len + 1, 1)))
		return -ENOMEM;
	for (size_t i = 0; i < pt->n; i++) {
		const struct pasted_part_line *run = &pt->v[i];

		if (run->len == PASTED_PART_GAP) {
			d->map[k++] = no + 1;
			no = run->off - 1; /* the run after is from the line the gap names */
			if (!in)
				d->buf[o++] = '\n';
			continue;
		}
		for (uint32_t j = 0; j < run->lines; j++)
			d->map[k++] = ++no;
		if (in)
			continue;
		memcpy(d->buf + o, text + run->off, run->len);
		o += run->len;
		if (run->len && text[run->off + run->len - 1] != '\n')
			d->buf[o++] = '\n'; /* the window's last line, without its "\n" */
	}
	if (!in)
		d->buf[o] = '\0';
	*ret = in ? in : d->buf;
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
static uint64_t indented_blocks(const struct pasted_dispatch *d, struct pasted_split *s,
				uint64_t in_block, uint64_t hit, const char *p, size_t l)
{
	unsigned ind;

	hit &= d->indented;
	if (!in_block && !hit)
		return 0;
	if (in_block && blank_line(p, l))
		in_block = 0;
	ind = indent_of(p, l);
	for (uint64_t t = in_block; t; t &= t - 1)
		if (ind <= s->indent[__builtin_ctzll(t)])
			in_block &= ~(t & -t);
	for (uint64_t t = hit; t; t &= t - 1) {
		size_t i = (size_t)__builtin_ctzll(t);

		if (!(in_block & (t & -t)) || ind < s->indent[i])
			s->indent[i] = ind;
	}
	return in_block | hit;
}

/* The window's lines that start before `upto` (from where the split stopped), each handed to
 * the readers it is for; what is kept from line to line stays in s. */
static int split_lines(const struct pasted_dispatch *d, const char *text, size_t n, size_t upto,
		       struct pasted_split *s)
{
	const char *p = text + s->at, *end = text + n, *stop = text + upto;
	int r;

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		size_t l = (size_t)(e - p);
		uint64_t hit = pasted_scan_tags(&d->scan, d->tags, p, l), want;

		s->no++;
		s->seen |= hit;
		for (uint64_t t = d->takers; t; t &= t - 1)
			if (d->readers[__builtin_ctzll(t)].takes(p, l))
				hit |= t & -t;
		if (s->in_block && blank_line(p, l))
			s->in_block = 0;
		hit &= ~d->text;
		s->in_block |= hit & d->block;
		s->in_indented = indented_blocks(d, s, s->in_indented, hit, p, l);
		want = hit | s->in_block | s->in_indented | s->after;
		s->after = hit & d->next;
		for (; want; want &= want - 1) {
			r = part_add(&s->parts[__builtin_ctzll(want)], (size_t)(p - text), l,
				     nl != NULL, s->no, false);
			if (r < 0)
				return r;
		}
		p = nl ? nl + 1 : end;
	}
	s->at = (size_t)(p - text);
	return 0;
}

int pasted_dispatch_split_start(const struct pasted_dispatch *d, const char *text, size_t n,
				size_t upto, struct pasted_split *s)
{
	if (n > PASTED_PART_GAP - 1) /* a line's place is a uint32_t */
		return -EFBIG;
	if (!s->parts) {
		s->parts = calloc(d->n_readers, sizeof(*s->parts));
		if (!s->parts)
			return -ENOMEM;
		s->n_parts = d->n_readers;
	}
	for (size_t i = 0; i < s->n_parts; i++) {
		s->parts[i].len = s->parts[i].n = 0;
		s->parts[i].lines = s->parts[i].last = 0;
	}
	s->seen = s->in_block = s->after = s->in_indented = 0;
	s->no = s->newlines = 0;
	s->at = 0;
	s->done = false;
	return split_lines(d, text, n, upto < n ? upto : n, s);
}

int pasted_dispatch_split_more(const struct pasted_dispatch *d, const char *text, size_t n,
			       size_t upto, struct pasted_split *s)
{
	return split_lines(d, text, n, upto < n ? upto : n, s);
}

int pasted_dispatch_split_finish(const struct pasted_dispatch *d, const char *text, size_t n,
				 struct pasted_split *s)
{
	int r = split_lines(d, text, n, n, s);

	for (size_t i = 0; i < d->n_readers && r >= 0; i++)
		if (s->parts[i].n)
			r = part_add(&s->parts[i], 0, 0, false, s->no + 1, true);
	if (r < 0)
		return r;
	s->newlines = s->no - (n && text[n - 1] != '\n');
	s->done = true;
	return 0;
}

int pasted_dispatch_split(const struct pasted_dispatch *d, const char *text, size_t n,
			  struct pasted_split *s)
{
	int r = pasted_dispatch_split_start(d, text, n, n, s);

	return r < 0 ? r : pasted_dispatch_split_finish(d, text, n, s);
}

uint64_t pasted_dispatch_whole(const struct pasted_dispatch *d)
{
	return d->text & ~d->signed_text;
}

int pasted_dispatch_run_whole(const struct pasted_dispatch *d, uint64_t which, const char *text,
			      size_t n, unsigned line_base, struct pasted_facts *each)
{
	int r = 0;

	for (uint64_t t = which & pasted_dispatch_whole(d); t && r >= 0; t &= t - 1) {
		size_t i = (size_t)__builtin_ctzll(t);

		each[i].line_base = line_base;
		r = d->readers[i].read(text, n, &each[i]);
	}
	return r < 0 ? r : 0;
}

int pasted_dispatch_run(struct pasted_dispatch *d, struct pasted_split *s, const char *text,
			size_t n, unsigned line_base, struct pasted_facts *each)
{
	return pasted_dispatch_run_some(d, s, text, n, line_base, each, UINT64_MAX);
}

int pasted_dispatch_run_some(struct pasted_dispatch *d, struct pasted_split *s, const char *text,
			     size_t n, unsigned line_base, struct pasted_facts *each,
			     uint64_t which)
{
	int r = s->done ? 0 : pasted_dispatch_split_finish(d, text, n, s);

	for (size_t i = 0; i < d->n_readers && r >= 0; i++) {
		const struct pasted_reader *rd = &d->readers[i];
		const struct pasted_part *pt = &s->parts[i];
		uint64_t bit = (uint64_t)1 << i;

		if (!(which & bit))
			continue;
		each[i].line_base = line_base;
		if (d->text & bit) {
			if (!(d->signed_text & bit) || (s->seen & bit))
				r = rd->read(text, n, &each[i]);
		} else if (pt->n) {
			const char *part;

			r = put_part(d, pt, text, n, &part);
			if (r < 0)
				break;
			each[i].line_map = d->map;
			each[i].line_map_n = pt->lines;
			r = rd->read(part, pt->len, &each[i]);
			each[i].line_map = NULL;
			each[i].line_map_n = 0;
		}
	}
	return r < 0 ? r : 0;
}

int pasted_dispatch_read(struct pasted_dispatch *d, const char *text, size_t n, unsigned line_base,
			 struct pasted_facts *each)
{
	int r = pasted_dispatch_split(d, text, n, &d->own);

	if (r < 0)
		return r;
	d->newlines = d->own.newlines;
	return pasted_dispatch_run(d, &d->own, text, n, line_base, each);
}
