// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Input planning: the bytes of the input seen through view(), from the buffer or read into a
 * window planned from the container starts (fatbin-internal.h, fatbin.c for the format).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

/* The read to make at off when the container starts are known (see WINDOW_MIN), else 0. */
size_t fb_plan_window(const struct parse *ps, uint64_t off)
{
	const uint64_t *st = ps->starts;
	size_t lo = 0, hi = ps->n_starts, i;
	uint64_t end;

	if (ps->n_starts < 2 || off < st[0] || off >= st[ps->n_starts - 1])
		return 0;
	while (hi - lo > 1) { /* lo: the last start <= off */
		size_t mid = lo + (hi - lo) / 2;

		if (st[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	if (st[lo] != off)
		return PLAN_HEAD; /* an entry of a large container */
	end = off;
	for (i = lo;
	     i + 1 < ps->n_starts && st[i + 1] - st[i] <= PLAN_SMALL && st[i + 1] - off <= PLAN_MAX;
	     i++)
		end = st[i + 1];
	return (size_t)(end - off) + PLAN_HEAD;
}

/* Bytes [off, off + n) of the input, valid until the next fb_view(): in the buffer, or read into
 * the window. NULL when out of range or unreadable (ps->io_err then says why). */
const uint8_t *fb_view(struct parse *ps, uint64_t off, size_t n)
{
	uint64_t end;
	size_t want, planned;
	ssize_t got;

	if (!fatbin_range_ok(ps->len, off, n))
		return NULL;
	if (!ps->read || n == 0)
		return ps->base + off;
	if (ps->win_len > 0 && off >= ps->win_off &&
	    fatbin_range_ok(ps->win_len, off - ps->win_off, n))
		return ps->win + (off - ps->win_off);
	if (ps->sb_len > 0 && off >= ps->sb_off && fatbin_range_ok(ps->sb_len, off - ps->sb_off, n))
		return ps->sb + (off - ps->sb_off);
	end = ps->win_off + ps->win_len;
	planned = fb_plan_window(ps, off);
	if (planned)
		ps->win_size = planned;
	else if (ps->win_len == 0 || off < ps->win_off || (off >= end && off - end >= WINDOW_MAX))
		ps->win_size = WINDOW_MIN;
	else if (off >= end && off - end < ps->win_size)
		ps->win_size = MIN(ps->win_size * 2, (size_t)WINDOW_MAX);
	want = MIN(MAX(n, ps->win_size), (size_t)(ps->len - off));
	if (want > ps->win_cap) {
		uint8_t *w = realloc(ps->win, want);

		if (!w) {
			ps->io_err = -ENOMEM;
			return NULL;
		}
		ps->win = w;
		ps->win_cap = want;
	}
	ps->win_len = 0;
	got = ps->read(ps->userdata, off, ps->win, want);
	if (got < 0 || (size_t)got < n) {
		ps->io_err = got < 0 ? (int)got : -EIO;
		return NULL;
	}
	ps->win_off = off;
	ps->win_len = MIN((size_t)got, want);
	return ps->win;
}

/* A fb_view() that failed: the read error (recorded as the reason), or -EBADMSG. */
int fb_view_error(struct parse *ps, uint64_t off)
{
	if (!ps->io_err)
		return -EBADMSG;
	if (ps->io_err != -ENOMEM)
		fatbin_set_warning(ps->r, "cannot read offset 0x%" PRIx64 ": %s", off,
				   strerror(-ps->io_err));
	return ps->io_err;
}

/* The ranges are kept sorted by start and disjoint (overlapping or touching ones merged: all
 * that is asked is whether an offset was walked), so both are binary searches: a
 * hand-registered library adds one per container found (23 983 in libcufft.so.12), and a
 * linear search made its search quadratic. */
static size_t range_upper(const struct parse *ps, size_t off)
{
	size_t lo = 0, hi = ps->n_ranges;

	while (lo < hi) { /* the first range starting after off */
		size_t mid = lo + (hi - lo) / 2;

		if (ps->ranges[mid].a <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct range *fb_range_find(const struct parse *ps, size_t off)
{
	size_t i = range_upper(ps, off);

	return i > 0 && off < ps->ranges[i - 1].b ? &ps->ranges[i - 1] : NULL;
}

int fb_range_add(struct parse *ps, size_t a, size_t b)
{
	size_t i, j;

	if (b <= a)
		return 0;
	if (ps->n_ranges == ps->cap_ranges) {
		size_t cap = ps->cap_ranges ? ps->cap_ranges * 2 : 16;
		struct range *n = reallocarray(ps->ranges, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		ps->ranges = n;
		ps->cap_ranges = cap;
	}
	i = range_upper(ps, a);
	if (i > 0 && ps->ranges[i - 1].b >= a) {
		struct range *m = &ps->ranges[--i];

		m->b = MAX(m->b, b);
	} else {
		memmove(&ps->ranges[i + 1], &ps->ranges[i],
			(ps->n_ranges - i) * sizeof(*ps->ranges));
		ps->ranges[i] = (struct range){ a, b };
		ps->n_ranges++;
	}
	for (j = i + 1; j < ps->n_ranges && ps->ranges[j].a <= ps->ranges[i].b; j++)
		ps->ranges[i].b = MAX(ps->ranges[i].b, ps->ranges[j].b);
	memmove(&ps->ranges[i + 1], &ps->ranges[j], (ps->n_ranges - j) * sizeof(*ps->ranges));
	ps->n_ranges -= j - (i + 1);
	return 0;
}
