// SPDX-License-Identifier: LGPL-2.1-or-later
/* A gzip input inflated a chunk ahead on a thread of its own: see pasted-gz-feed.h. */
#include "formats/pasted-gz-feed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The inflater: a chunk, handed over, then the next once the reader has taken it all; it
 * ends after handing over the end (0 bytes) or an error, or when the reader stops it. The
 * chunk is written only while not full, and read only while full, under the lock's order. */
static void *inflater(void *arg)
{
	struct pasted_gz_feed *f = arg;

	for (;;) {
		const char *why = NULL;
		size_t got = 0;
		int r = pasted_gz_read(&f->g, f->chunk, PASTED_GZ_FEED_CHUNK, &got, &why);
		bool last = r < 0 || got == 0, stop;

		pthread_mutex_lock(&f->lock);
		f->n = got;
		f->taken = 0;
		f->err = r;
		f->why = why;
		f->full = true;
		pthread_cond_broadcast(&f->cond);
		while (f->full && !f->stop && !last)
			pthread_cond_wait(&f->cond, &f->lock);
		stop = f->stop;
		pthread_mutex_unlock(&f->lock);
		if (last || stop)
			return NULL;
	}
}

int pasted_gz_feed_init(struct pasted_gz_feed *f, const char *data, size_t len, size_t max,
			const char **ret_why)
{
	int r;

	*f = (struct pasted_gz_feed){ 0 };
	r = pasted_gz_init(&f->g, data, len, max, ret_why);
	if (r < 0)
		return r;
	f->chunk = malloc(PASTED_GZ_FEED_CHUNK);
	if (!f->chunk) {
		pasted_gz_done(&f->g);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&f->lock, NULL) != 0)
		return 0; /* no thread: inflated in line */
	if (pthread_cond_init(&f->cond, NULL) != 0) {
		pthread_mutex_destroy(&f->lock);
		return 0;
	}
	f->threaded = pthread_create(&f->thread, NULL, inflater, f) == 0;
	if (!f->threaded) {
		pthread_cond_destroy(&f->cond);
		pthread_mutex_destroy(&f->lock);
	}
	return 0;
}

int pasted_gz_feed_read(struct pasted_gz_feed *f, char *buf, size_t cap, size_t *ret_n,
			const char **ret_why)
{
	size_t n = 0;
	int r = 0;

	if (!f->threaded)
		return pasted_gz_read(&f->g, buf, cap, ret_n, ret_why);
	*ret_n = 0;
	pthread_mutex_lock(&f->lock);
	while (n < cap) {
		size_t k;

		while (!f->full)
			pthread_cond_wait(&f->cond, &f->lock);
		if (f->err < 0) { /* as pasted_gz_read: the call's bytes are not given */
			r = f->err;
			if (ret_why && f->why)
				*ret_why = f->why;
			break;
		}
		if (f->n == 0) /* the end: it stays full, later reads give 0 */
			break;
		k = f->n - f->taken < cap - n ? f->n - f->taken : cap - n;
		memcpy(buf + n, f->chunk + f->taken, k);
		f->taken += k;
		n += k;
		if (f->taken == f->n) {
			f->full = false;
			pthread_cond_broadcast(&f->cond);
		}
	}
	pthread_mutex_unlock(&f->lock);
	if (r == 0)
		*ret_n = n;
	return r;
}

void pasted_gz_feed_done(struct pasted_gz_feed *f)
{
	if (f->threaded) {
		pthread_mutex_lock(&f->lock);
		f->stop = true;
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
		pthread_join(f->thread, NULL);
		pthread_cond_destroy(&f->cond);
		pthread_mutex_destroy(&f->lock);
		f->threaded = false;
	}
	pasted_gz_done(&f->g);
	free(f->chunk);
	f->chunk = NULL;
}
