// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The passes over a streamed ELF file that keep only what its parsers read (see
 * elf-stream.h). Each parser's wanted function says, from the bytes kept so far, which
 * ranges it reads; a range that completes may make a stage want one that starts later in
 * the same pass, so most files settle in two passes whatever the number of parsers.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "formats/elf-stream.h"
#include "shared/macro.h"

#define WANT_MAX (ELF_STREAM_MAX_WANTED * ELF_STREAM_MAX_WANT)
#define KEPT_MAX (4u * WANT_MAX)

/* A range kept at its file offset in the image; filled up to `filled` in this pass. */
struct kept {
	uint64_t off, len, filled;
	bool armed;  /* its first byte is still ahead in this pass */
	bool string; /* no stage waits for it: its completion plans nothing */
};

struct stream {
	uint8_t *img;
	uint64_t max, size, pos;
	uint64_t next; /* no range waits for a byte before this one in this pass */
	const elf_stream_wanted *wanted;
	size_t n_wanted;
	struct kept kept[KEPT_MAX];
	size_t n_kept;
	struct elf_range want[WANT_MAX];
	bool string[WANT_MAX];
	bool overflow;
};

static int have_range(void *userdata, uint64_t off, uint64_t len)
{
	struct stream *s = userdata;

	if (len == 0)
		return 1;
	for (size_t i = 0; i < s->n_kept; i++)
		if (s->kept[i].off == off && s->kept[i].len == len &&
		    s->kept[i].filled == s->kept[i].len)
			return 1;
	return 0;
}

/* What every parser's stages want now, one after the other in s->want: the count. */
static size_t wanted_now(struct stream *s, int *complete)
{
	size_t n = 0;

	*complete = 1;
	for (size_t j = 0; j < s->n_wanted; j++) {
		size_t strings_from, k;
		int c;

		k = s->wanted[j](s->img, s->size, have_range, s, s->want + n,
				 MIN((size_t)ELF_STREAM_MAX_WANT, WANT_MAX - n), &c, &strings_from);
		for (size_t i = 0; i < k; i++)
			s->string[n + i] = i >= strings_from;
		n += k;
		*complete = *complete && c;
	}
	return n;
}

/* Adds what the stages want now and were not kept yet; those still ahead fill in this pass. */
static int plan(struct stream *s, int *complete)
{
	size_t n = wanted_now(s, complete);
	int all = 1;

	for (size_t i = 0; i < n; i++) {
		struct elf_range *r = &s->want[i];
		bool known = false;

		for (size_t k = 0; k < s->n_kept && !known; k++)
			known = s->kept[k].off == r->off && s->kept[k].len == r->len;
		if (!have_range(s, r->off, r->len))
			all = 0;
		if (known || r->len == 0)
			continue;
		if (s->n_kept == KEPT_MAX || r->len > ELF_STREAM_MAX_RANGE) {
			s->overflow = true;
			continue;
		}
		s->next = 0; /* look again */
		s->kept[s->n_kept++] = (struct kept){ .off = r->off,
						      .len = r->len,
						      .armed = r->off >= s->pos,
						      .string = s->string[i] };
	}
	return all;
}

static int take_chunk(void *userdata, const uint8_t *p, size_t len)
{
	struct stream *s = userdata;
	uint64_t end = s->pos + len;
	bool done_one = false;
	int complete;

	if (len > s->max || s->pos > s->max - len)
		return -EFBIG;
	if (end <= s->next) {
		s->pos = end; /* nothing kept in it: the bulk of a large file */
		return 0;
	}
	/* A range that completes may make the stages want one that starts later in this same
	 * chunk (the program headers right after the ELF header): taken from it at once. */
	do {
		done_one = false;
		s->next = UINT64_MAX;
		for (size_t i = 0; i < s->n_kept; i++) {
			struct kept *k = &s->kept[i];
			uint64_t from, to;

			if (!k->armed || k->filled == k->len)
				continue;
			if (k->off + k->filled >= end) {
				s->next = MIN(s->next, k->off + k->filled);
				continue;
			}
			from = MAX(s->pos, k->off + k->filled);
			to = MIN(end, k->off + k->len);
			if (from >= to)
				continue;
			memcpy(s->img + from, p + (from - s->pos), (size_t)(to - from));
			k->filled = to - k->off;
			if (k->filled < k->len)
				s->next = MIN(s->next, k->off + k->filled);
			/* Planning costs a pass over every range: only after a stage's own. */
			done_one = done_one || (k->filled == k->len && !k->string);
		}
		if (done_one)
			(void)plan(s, &complete);
	} while (done_one);
	s->pos = end;
	return 0;
}

int elf_stream_parse(elf_stream_source source, void *userdata, uint64_t max,
		     const elf_stream_wanted *wanted, size_t n,
		     int (*parse)(void *parse_userdata, const uint8_t *img, size_t size),
		     void *parse_userdata)
{
	struct stream *s;
	int err = -EFBIG, complete;

	if (max == 0 || max > SIZE_MAX || n == 0 || n > ELF_STREAM_MAX_WANTED)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* Untouched pages of a private anonymous mapping take no memory: only the kept ranges
	 * do, and the rest reads as zeros the parsers never look at. */
	s->img = mmap(NULL, (size_t)max, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->img == MAP_FAILED) {
		free(s); /* no address space for it (strict overcommit, a ulimit -v) */
		return -ENOBUFS;
	}
	s->max = max;
	s->size = max; /* until the first pass has told */
	s->wanted = wanted;
	s->n_wanted = n;
	for (unsigned pass = 0; pass < ELF_STREAM_MAX_PASSES; pass++) {
		s->pos = 0;
		s->next = 0;
		for (size_t i = 0; i < s->n_kept; i++)
			if (s->kept[i].filled < s->kept[i].len)
				s->kept[i] = (struct kept){ .off = s->kept[i].off,
							    .len = s->kept[i].len,
							    .armed = true,
							    .string = s->kept[i].string };
		(void)plan(s, &complete);
		err = source(userdata, take_chunk, s, &s->size);
		if (err < 0)
			break;
		err = -EFBIG;
		if (s->size > max)
			break;
		if (plan(s, &complete) && complete) {
			err = parse(parse_userdata, s->img, (size_t)s->size);
			break;
		}
		if (s->overflow) {
			err = -ENOBUFS;
			break;
		}
		err = -ELOOP; /* the stages did not settle: never for a file that stays the same */
	}
	munmap(s->img, (size_t)max);
	free(s);
	return err;
}
