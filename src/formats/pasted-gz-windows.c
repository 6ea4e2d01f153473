// SPDX-License-Identifier: LGPL-2.1-or-later
/* A gzip input's windows made a window ahead of the readers: see pasted-gz-windows.h. */
#include "formats/pasted-gz-windows.h"
#include "formats/pasted-input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/prefault.h"
#include "shared/strbuf.h"

size_t pasted_gz_window_cut(const char *p, size_t n)
{
	static const char *const marks[] = { "\n____", "\n\n", "\n" };
	size_t half = n / 2;

	/* each mark starts at a line end: from line end to line end backwards (memrchr), not a
	 * comparison at every byte of half a window */
	for (size_t m = 0; m < ARRAY_SIZE(marks); m++) {
		size_t k = strlen(marks[m]);
		const char *nl;

		for (size_t e = n; e > half + 1 && (nl = memrchr(p + half + 1, '\n', e - half - 1));
		     e = (size_t)(nl - p))
			if ((size_t)(nl - p) + k <= n && memcmp(nl, marks[m], k) == 0)
				return (size_t)(nl - p) + 1;
	}
	return n; /* no line end at all: a line longer than half a window is cut */
}

/* The lines of a window split here, the rest by the readers' thread before they read it
 * (pasted_dispatch_run), so that each thread has about half of the work: on the bug-report
 * stand-in (callgrind, per thread) splitting all of it here left 2,017 M instructions here
 * and 1,727 M to the readers, two thirds 1,669 M and 2,065 M; five sixths was about even.
 * Since the readers of the whole text without signs run here too (w->apart, 232 M of the
 * 5,030 KiB stand-in's), half (the readers' thread 912 M, this one 879 M; five sixths: 788 M
 * and 1,003 M). */
#define SPLIT_HERE(n) ((n) / 2)

/* How much of a window of n bytes to split here: none of the first, which the readers wait
 * for with nothing else to do (handed over unsplit, they begin a split sooner, while the
 * next window is made); all of the last, which they read while the maker has nothing else
 * to do (and the readers' thread is the busier one: its split is hidden behind their reading
 * of the window before). Measured with chrt -f 10 on a loaded machine, the 5,008 KiB
 * stand-in: 261-304 ms median against 284-310 ms with the same share of every window
 * (docs/explain.md). The split is the same wherever it stops. */
static size_t split_here(const struct pasted_gz_windows *w, size_t n)
{
	if (w->made == 0)
		return 0;
	return w->over ? n : SPLIT_HERE(n);
}

/* The next window into s (not full): inflated to PASTED_GZ_WINDOW * 2 bytes with what the last
 * one left, cut, cleaned and split; the rest, once the input ends, is the last window. */
static void make(struct pasted_gz_windows *w, struct pasted_gz_window *s)
{
	size_t got = 0, cut;
	int r;

	s->text = NULL;
	s->n = 0;
	s->err = 0;
	s->why = NULL;
	s->end = s->utf16 = false;
	if (w->over) {
		s->end = true;
		return;
	}
	r = pasted_gz_read(&w->g, w->raw + w->have, PASTED_GZ_WINDOW * 2 - w->have, &got, &s->why);
	if (r < 0)
		goto fail;
	w->have += got;
	if (w->first && w->have >= 2 &&
	    (memcmp(w->raw, "\xFF\xFE", 2) == 0 || memcmp(w->raw, "\xFE\xFF", 2) == 0)) {
		s->utf16 = w->over = true;
		return;
	}
	w->first = false;
	if (got == 0 || w->have < PASTED_GZ_WINDOW * 2) { /* the end: the rest is one window */
		cut = w->have;
		w->over = true;
	} else {
		cut = pasted_gz_window_cut(w->raw, w->have);
	}
	r = pasted_input_clean_into(w->raw, cut, &s->buf, &s->why);
	s->text = s->buf.buf;
	s->n = s->buf.len;
	if (r >= 0)
		r = pasted_dispatch_split_start(w->d, s->text, s->n, split_here(w, s->n),
						&s->split);
	if (r < 0)
		goto fail;
	memmove(w->raw, w->raw + cut, w->have - cut);
	w->have -= cut;
	return;
fail:
	s->text = NULL;
	s->err = r;
	w->over = true;
}

static bool last(const struct pasted_gz_window *s)
{
	return s->end || s->utf16 || s->err < 0;
}

/* The readers the maker runs itself (w->apart) over window s, handed over already: the
 * readers' thread gives it back only once the next one is made, after this. */
static void read_apart(struct pasted_gz_windows *w, const struct pasted_gz_window *s)
{
	unsigned lines = 0;
	int r;

	if (!w->apart || last(s))
		return;
	r = pasted_dispatch_run_whole(w->d, w->apart, s->text, s->n, w->lines, w->each);
	if (r < 0 && w->apart_err == 0)
		w->apart_err = r;
	for (const char *p = s->text, *e = p + s->n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		lines++;
	w->lines += lines;
}

/* The maker: the next window into the next slot once the reader has given it back; it ends
 * after the last window, or when the reader stops it. A slot is written only while not full
 * and read only while full, in the lock's order; the readers run apart read it once full. */
static void *maker(void *arg)
{
	struct pasted_gz_windows *w = arg;

	for (;;) {
		struct pasted_gz_window *s = &w->slot[w->made % 2];
		bool stop, end;

		pthread_mutex_lock(&w->lock);
		while (s->full && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		stop = w->stop;
		pthread_mutex_unlock(&w->lock);
		if (stop)
			return NULL;
		make(w, s);
		end = last(s);
		pthread_mutex_lock(&w->lock);
		s->full = true;
		w->made++;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		read_apart(w, s);
		if (end)
			return NULL;
	}
}

int pasted_gz_windows_start(struct pasted_gz_windows *w, const char *data, size_t len,
			    const struct pasted_dispatch *d, uint64_t apart,
			    struct pasted_facts *each, const char **ret_why)
{
	size_t prefault = PASTED_GZ_WINDOW * 2;
	int r;

	*w = (struct pasted_gz_windows){ .d = d, .first = true };
	if (len >= 4) {
		const unsigned char *t = (const unsigned char *)data + len - 4;
		size_t isize =
			(size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;

		if (isize < prefault)
			prefault = isize + 1;
	}
	r = pasted_gz_init(&w->g, data, len, PASTED_GZ_WINDOWED_MAX, ret_why);
	if (r < 0)
		return r;
	w->raw = malloc(PASTED_GZ_WINDOW * 2);
	if (!w->raw) {
		pasted_gz_done(&w->g);
		return -ENOMEM;
	}
	/* The raw window and both slots' buffers, as large as the text will take of them,
	 * faulted in before the maker starts: each page first written was a fault of its own
	 * on the maker, the thread the readers wait for; the first window (which the readers
	 * wait for with nothing else to do) was made in 46 ms, now 34 ms (docs/explain.md).
	 * The windows write most of these pages anyway (peak RSS 24,040 KiB, 23,900 KiB
	 * before, on the 5,029 KiB stand-in). How large: the input's last
	 * 4 bytes, the last member's ISIZE (RFC 1952 2.3.1, the text's length modulo 2^32),
	 * only a guess (another member's, a wrong one) of how many pages to fault in now. */
	prefault_write(w->raw, prefault);
	if (strbuf_reserve(&w->slot[0].buf, prefault) >= 0)
		prefault_write(w->slot[0].buf.buf, prefault);
	/* the second window's slot where there will be one: a text longer than the raw window */
	if (prefault == PASTED_GZ_WINDOW * 2 && strbuf_reserve(&w->slot[1].buf, prefault) >= 0)
		prefault_write(w->slot[1].buf.buf, prefault);
	if (pthread_mutex_init(&w->lock, NULL) != 0)
		return 0; /* no thread: made in line */
	if (pthread_cond_init(&w->cond, NULL) != 0) {
		pthread_mutex_destroy(&w->lock);
		return 0;
	}
	if (each) /* before the thread starts: it reads them */
		w->apart = apart & pasted_dispatch_whole(d);
	w->each = each;
	w->threaded = pthread_create(&w->thread, NULL, maker, w) == 0;
	if (!w->threaded) {
		w->apart = 0;
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
	}
	return 0;
}

int pasted_gz_windows_next(struct pasted_gz_windows *w, struct pasted_gz_window **ret,
			   const char **ret_why)
{
	struct pasted_gz_window *s;

	if (w->taken > 0) {
		s = &w->slot[(w->taken - 1) % 2];
		if (last(s)) /* nothing after it: the same again */
			goto out;
		if (!w->threaded) { /* given back: the maker may fill it again */
			s->text = NULL;
			s->full = false;
		}
	}
	s = &w->slot[w->taken % 2];
	if (w->threaded) {
		struct pasted_gz_window *back = w->taken > 0 ? &w->slot[(w->taken - 1) % 2] : NULL;

		pthread_mutex_lock(&w->lock);
		while (!s->full)
			pthread_cond_wait(&w->cond, &w->lock);
		pthread_mutex_unlock(&w->lock);
		/* given back only now: the maker has read it (w->apart) before making this one */
		if (back) {
			back->text = NULL;
			pthread_mutex_lock(&w->lock);
			back->full = false;
			pthread_cond_broadcast(&w->cond);
			pthread_mutex_unlock(&w->lock);
		}
	} else {
		make(w, s);
		s->full = true;
		w->made++;
	}
	w->taken++;
out:
	*ret = s;
	if (s->err < 0 && ret_why && s->why)
		*ret_why = s->why;
	return s->err < 0 ? s->err : 0;
}

void pasted_gz_windows_done(struct pasted_gz_windows *w)
{
	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		w->threaded = false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(w->slot); i++) {
		strbuf_done(&w->slot[i].buf);
		w->slot[i].text = NULL;
		pasted_split_done(&w->slot[i].split);
	}
	pasted_gz_done(&w->g);
	free(w->raw);
	w->raw = NULL;
}
