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

const struct range *fb_range_find(const struct parse *ps, size_t off)
{
	for (size_t i = 0; i < ps->n_ranges; i++)
		if (off >= ps->ranges[i].a && off < ps->ranges[i].b)
			return &ps->ranges[i];
	return NULL;
}

int fb_range_add(struct parse *ps, size_t a, size_t b)
{
	struct range *n;

	if (b <= a)
		return 0;
	n = reallocarray(ps->ranges, ps->n_ranges + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	ps->ranges = n;
	n[ps->n_ranges++] = (struct range){ a, b };
	return 0;
}
