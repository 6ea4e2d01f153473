/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A gzip input inflated on a thread of its own, one chunk ahead of its reader: explain's
 * windows of a large nvidia-bug-report.log.gz are read by the pasted readers while zlib
 * inflates the next chunk, so that inflating (a sixth of the work on a bug report) is no
 * longer in line with reading. pasted_gz_feed_read gives the same bytes, and the same errors,
 * as pasted_gz_read (pasted-gzip.h) would at the same caps; only the point where a stream past
 * its cap is found can differ, by a chunk. Where no thread can be started it inflates in
 * line, as pasted_gz_read. Memory: one chunk (PASTED_GZ_FEED_CHUNK) besides zlib's.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "formats/pasted-gzip.h"

#define PASTED_GZ_FEED_CHUNK ((size_t)256 << 10)

struct pasted_gz_feed {
	struct pasted_gz g; /* the inflater's alone once its thread runs */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *chunk;
	size_t n, taken; /* bytes in chunk, and those given to the reader */
	bool full;	 /* chunk holds what the inflater read last, not all taken */
	bool stop;	 /* the reader wants no more */
	bool threaded;	 /* the inflater runs on its thread (else pasted_gz_read in line) */
	int err;	 /* the inflater's last return, with its sentence */
	const char *why;
};

/* As pasted_gz_init (0; -EBADMSG with *ret_why; -ENOMEM), and starts the inflater. */
int pasted_gz_feed_init(struct pasted_gz_feed *f, const char *data, size_t len, size_t max,
			const char **ret_why);
/* As pasted_gz_read: up to cap bytes into buf, fewer only at the end. */
int pasted_gz_feed_read(struct pasted_gz_feed *f, char *buf, size_t cap, size_t *ret_n,
			const char **ret_why);
/* Stops the inflater (at its chunk's end) and frees everything. */
void pasted_gz_feed_done(struct pasted_gz_feed *f);
