// SPDX-License-Identifier: LGPL-2.1-or-later
/* A gzip input's windows made a window ahead of the readers: see pasted-gz-windows.h. */
#include "formats/pasted-gz-windows.h"
#include "formats/pasted-input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/page-drop.h"
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

/* How much of a window the maker splits before it hands the window over, the readers' thread
 * splitting the rest (pasted_dispatch_run): as much as it can before that thread asks for the
 * window (split_while_unasked), a step of this many bytes at a time. A fixed share (half of
 * each window, none of the first, all of the last) left one thread or the other waiting,
 * which one with the load of the machine: traced, the maker waited for the readers' thread in
 * one run and that thread for the maker in the next (docs/explain.md). The split is the same
 * wherever it stops. */
#define SPLIT_STEP ((size_t)64 << 10)

/* Whether the readers' thread waits for the window being made (the maker is a window ahead at
 * most, so it is this one). */
static bool asked(struct pasted_gz_windows *w)
{
	bool a;

	pthread_mutex_lock(&w->lock);
	a = w->waiting;
	pthread_mutex_unlock(&w->lock);
	return a;
}

/* Window s's lines split until the readers' thread asks for it; in line (no thread), none. */
static int split_while_unasked(struct pasted_gz_windows *w, struct pasted_gz_window *s)
{
	int r = pasted_dispatch_split_start(w->d, s->text, s->n, 0, &s->split);

	while (r >= 0 && w->threaded_maker && s->split.at < s->n && !asked(w))
		r = pasted_dispatch_split_more(w->d, s->text, s->n, s->split.at + SPLIT_STEP,
					       &s->split);
	return r;
}

/* What the readers' thread has touched for the maker so far (touch_ahead): the raw window's
 * second half, then the first slot's buffer, then the second's. */
enum { TOUCHED_RAW = 1, TOUCHED_SLOT0, TOUCHED_SLOT1 };

static void await_touched(struct pasted_gz_windows *w, unsigned k)
{
	if (!w->touch_ahead || w->made > 1) /* (the slots are touched before the third window) */
		return;
	pthread_mutex_lock(&w->lock);
	while (w->touched < k)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* The raw window filled up from what the last one left (pasted_gz_read). The first one in two
 * steps: its first half, faulted in here, while the readers' thread touches the rest
 * (touch_ahead), then the rest. The bytes are the same either way. */
static int read_raw(struct pasted_gz_windows *w, size_t *ret_got, const char **ret_why)
{
	size_t half = PASTED_GZ_WINDOW, got = 0, more = 0;
	int r;

	if (w->made > 0 || !w->touch_ahead)
		return pasted_gz_read(&w->g, w->raw + w->have, PASTED_GZ_WINDOW * 2 - w->have,
				      ret_got, ret_why);
	prefault_write(w->raw, w->prefault < half ? w->prefault : half);
	r = pasted_gz_read(&w->g, w->raw, half, &got, ret_why);
	if (r >= 0 && got == half) { /* (less: the input's end) */
		await_touched(w, TOUCHED_RAW);
		r = pasted_gz_read(&w->g, w->raw + half, half, &more, ret_why);
	}
	*ret_got = got + more;
	return r;
}

/* The input's pages read so far by the inflater given back, where it was handed over
 * (drop_input): on a 5 MB report the whole input was most of the peak memory, held to the end
 * (docs/explain.md). Only bytes before the inflater's next input byte: none is read again. */
static void drop_read_input(struct pasted_gz_windows *w)
{
	const char *at = pasted_gz_release_input(&w->g);

	if (!w->drop_input || at <= w->dropped)
		return;
	page_drop(w->dropped, (size_t)(at - w->dropped));
	w->dropped = at;
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
	memmove(w->raw, w->raw + w->used, w->have - w->used);
	w->have -= w->used;
	w->used = 0;
	r = read_raw(w, &got, &s->why);
	if (r < 0)
		goto fail;
	w->have += got;
	if (w->first && w->have >= 2 &&
	    (memcmp(w->raw, "\xFF\xFE", 2) == 0 || memcmp(w->raw, "\xFE\xFF", 2) == 0)) {
		s->utf16 = w->over = true;
		return;
	}
	w->first = false;
	drop_read_input(w);
	if (got == 0 || w->have < PASTED_GZ_WINDOW * 2) { /* the end: the rest is one window */
		cut = w->have;
		w->over = true;
	} else {
		cut = pasted_gz_window_cut(w->raw, w->have);
	}
	await_touched(w, w->made == 0 ? TOUCHED_SLOT0 : TOUCHED_SLOT1);
	r = pasted_input_clean_into(w->raw, cut, &s->buf, &s->why);
	s->text = s->buf.buf;
	s->n = s->buf.len;
	if (r >= 0)
		r = split_while_unasked(w, s);
	if (r < 0)
		goto fail;
	w->used = cut; /* moved out of the raw window when the next one is made */
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

/* The buffers' pages faulted in at once (prefault_write): where no thread is started, on the
 * thread that then writes them. */
static void prefault_all(struct pasted_gz_windows *w)
{
	prefault_write(w->raw, w->prefault);
	for (size_t i = 0; i < ARRAY_SIZE(w->slot); i++)
		if (w->slot[i].buf.buf)
			prefault_write(w->slot[i].buf.buf, w->prefault);
}

static void set_touched(struct pasted_gz_windows *w, unsigned k)
{
	pthread_mutex_lock(&w->lock);
	w->touched = k;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* On the readers' thread, which has nothing else to do until the first window is made: the
 * pages the maker writes after the first half of the raw window, each touched first here, in
 * the order the maker comes to them (await_touched). */
static void touch_ahead(struct pasted_gz_windows *w)
{
	if (w->prefault > PASTED_GZ_WINDOW)
		prefault_touch(w->raw + PASTED_GZ_WINDOW, w->prefault - PASTED_GZ_WINDOW);
	set_touched(w, TOUCHED_RAW);
	for (size_t i = 0; i < ARRAY_SIZE(w->slot); i++) {
		if (w->slot[i].buf.buf)
			prefault_touch(w->slot[i].buf.buf, w->prefault);
		set_touched(w, TOUCHED_SLOT0 + (unsigned)i);
	}
}

int pasted_gz_windows_start(struct pasted_gz_windows *w, const struct isal_inflate_api *isal,
			    const char *data, size_t len, const struct pasted_dispatch *d,
			    uint64_t apart, struct pasted_facts *each, bool drop_input,
			    const char **ret_why)
{
	size_t prefault = PASTED_GZ_WINDOW * 2;
	int r;

	*w = (struct pasted_gz_windows){
		.d = d, .first = true, .dropped = data, .drop_input = drop_input
	};
	if (len >= 4) {
		const unsigned char *t = (const unsigned char *)data + len - 4;
		size_t isize =
			(size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;

		if (isize < prefault)
			prefault = isize + 1;
	}
	r = pasted_gz_init(&w->g, isal, data, len, PASTED_GZ_WINDOWED_MAX, ret_why);
	if (r < 0)
		return r;
	w->raw = malloc(PASTED_GZ_WINDOW * 2);
	if (!w->raw) {
		pasted_gz_done(&w->g);
		return -ENOMEM;
	}
	/* The raw window and both slots' buffers, as large as the text will take of them, are
	 * faulted in before the maker writes them: each page first written was a fault of its
	 * own on the maker, the thread the readers wait for (docs/explain.md). How large: the
	 * input's last 4 bytes, the last member's ISIZE (RFC 1952 2.3.1, the text's length
	 * modulo 2^32), only a guess (another member's, a wrong one) of how many pages to fault
	 * in now. The second window's slot only where there will be one: a text longer than the
	 * raw window. */
	w->prefault = prefault;
	/* (failing, nothing is touched ahead there: pasted_input_clean_into reserves) */
	(void)strbuf_reserve(&w->slot[0].buf, prefault);
	if (prefault == PASTED_GZ_WINDOW * 2)
		(void)strbuf_reserve(&w->slot[1].buf, prefault);
	if (pthread_mutex_init(&w->lock, NULL) != 0) {
		prefault_all(w);
		return 0; /* no thread: made in line */
	}
	if (pthread_cond_init(&w->cond, NULL) != 0) {
		pthread_mutex_destroy(&w->lock);
		prefault_all(w);
		return 0;
	}
	if (each) /* before the thread starts: it reads them */
		w->apart = apart & pasted_dispatch_whole(d);
	w->each = each;
	w->touch_ahead = true; /* before the thread starts: it waits for the touches */
	w->threaded_maker = true;
	w->threaded = pthread_create(&w->thread, NULL, maker, w) == 0;
	if (!w->threaded) {
		w->apart = 0;
		w->touch_ahead = w->threaded_maker = false;
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		prefault_all(w);
		return 0;
	}
	touch_ahead(w);
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
		w->waiting = true; /* the maker splits no more of it (split_while_unasked) */
		while (!s->full)
			pthread_cond_wait(&w->cond, &w->lock);
		w->waiting = false;
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
