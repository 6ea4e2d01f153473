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

/* A range kept at its file offset in the image. */
struct kept {
	uint64_t off, len;
	bool full;   /* every byte of it is in the image */
	bool armed;  /* filled in this pass: its first byte was still ahead when it was planned */
	bool string; /* no stage waits for it: its completion plans nothing */
};

/* Sort keys: kept[idx] by where it starts (looked up by off and len) or by where it ends. */
struct by_key {
	uint64_t a, b;
	uint32_t idx;
};

struct stream {
	uint8_t *img;
	uint64_t max, size, pos;
	const elf_stream_wanted *wanted;
	size_t n_wanted;
	struct kept kept[KEPT_MAX];
	size_t n_kept;
	/* Every kept range by (off, len): a lookup costs log(n), not n (plan() looks up every
	 * range the stages name, and they may name a thousand). */
	struct by_key by_off[KEPT_MAX];
	size_t n_sorted; /* by_off[0..n_sorted) in order: those planned before this plan() */
	/* The ranges this pass fills: their union in file order, each byte copied once however
	 * many ranges hold it, and the ranges by end, completed in order as the stream passes
	 * them. Each chunk costs what it overlaps, not the number of ranges: a thousand strings
	 * at nearby offsets handed out byte by byte took minutes (fuzz-elf-dynamic-stream). */
	struct elf_range cover[KEPT_MAX];
	size_t n_cover, at_cover;
	struct by_key by_end[KEPT_MAX];
	size_t n_by_end, at_end;
	struct elf_range want[WANT_MAX];
	bool string[WANT_MAX];
	bool overflow;
	bool size_known; /* a pass has ended: size is the file's */
	elf_stream_gate gate;
	void *gate_userdata;
	int gate_answer; /* the gate's answer, -1 until it is asked */
};

static _Thread_local struct elf_stream_work work;

const struct elf_stream_work *elf_stream_work(void)
{
	return &work;
}

static int cmp_key(const void *a, const void *b)
{
	const struct by_key *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return 0;
}

static struct kept *find(struct stream *s, uint64_t off, uint64_t len)
{
	struct by_key key = { .a = off, .b = len };
	struct by_key *k = bsearch(&key, s->by_off, s->n_sorted, sizeof(key), cmp_key);

	return k ? &s->kept[k->idx] : NULL;
}

static int have_range(void *userdata, uint64_t off, uint64_t len)
{
	struct stream *s = userdata;
	struct kept *k;

	if (len == 0)
		return 1;
	k = find(s, off, len);
	return k && k->full;
}

/* The ranges still to fill in this pass, by start (their union) and by end. */
static void plan_fill(struct stream *s)
{
	s->n_cover = s->at_cover = s->n_by_end = s->at_end = 0;
	for (size_t i = 0; i < s->n_kept; i++) {
		const struct kept *k = &s->kept[s->by_off[i].idx];
		struct elf_range *last = s->n_cover ? &s->cover[s->n_cover - 1] : NULL;

		if (!k->armed || k->full)
			continue;
		s->by_end[s->n_by_end++] =
			(struct by_key){ .a = k->off + k->len, .idx = s->by_off[i].idx };
		if (last && k->off <= last->off + last->len)
			last->len = MAX(last->len, k->off + k->len - last->off);
		else
			s->cover[s->n_cover++] = (struct elf_range){ k->off, k->len };
	}
	qsort(s->by_end, s->n_by_end, sizeof(*s->by_end), cmp_key);
	while (s->at_cover < s->n_cover &&
	       s->cover[s->at_cover].off + s->cover[s->at_cover].len <= s->pos)
		s->at_cover++;
}

/* Whether the parsers after the first are asked now: the gate's answer, asked once the first
 * one's n ranges (complete: all it will want) are kept in a file of known size. */
static bool gate_open(struct stream *s, int complete, size_t n)
{
	bool kept = complete && s->size_known;

	if (!s->gate || s->gate_answer >= 0)
		return !s->gate || s->gate_answer;
	for (size_t i = 0; i < n && kept; i++)
		kept = have_range(s, s->want[i].off, s->want[i].len);
	if (kept)
		s->gate_answer = s->gate(s->gate_userdata, s->img, (size_t)s->size);
	return s->gate_answer > 0;
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
		if (j == 0 && !gate_open(s, c, n)) {
			*complete =
				*complete && s->gate_answer == 0; /* shut: nothing more to read */
			break;
		}
	}
	return n;
}

/* Adds what the stages want now and were not kept yet; those still ahead fill in this pass.
 * Returns whether all of it is kept; *added: whether a range was added. */
static int plan(struct stream *s, int *complete, bool *added)
{
	size_t n = wanted_now(s, complete), was = s->n_kept;
	int all = 1;

	for (size_t i = 0; i < n; i++) {
		struct elf_range *r = &s->want[i];
		struct kept *k;

		if (r->len == 0)
			continue;
		k = find(s, r->off, r->len);
		if (k && k->full)
			continue;
		all = 0;
		if (k)
			continue;
		if (s->n_kept == KEPT_MAX || r->len > ELF_STREAM_MAX_RANGE) {
			s->overflow = true;
			continue;
		}
		s->kept[s->n_kept] = (struct kept){ .off = r->off,
						    .len = r->len,
						    .armed = r->off >= s->pos,
						    .string = s->string[i] };
		s->by_off[s->n_kept] =
			(struct by_key){ .a = r->off, .b = r->len, .idx = (uint32_t)s->n_kept };
		s->n_kept++;
	}
	/* A range named twice in one call (both parsers read the ELF header) is kept twice:
	 * the copies fill together. */
	*added = s->n_kept != was;
	if (*added) {
		qsort(s->by_off, s->n_kept, sizeof(*s->by_off), cmp_key);
		s->n_sorted = s->n_kept;
		plan_fill(s);
	}
	return all;
}

/* Copies what the ranges filling in this pass hold of [pos, end) and marks those that end
 * in it full: true when one a stage waits for completed. */
static bool fill(struct stream *s, const uint8_t *p, uint64_t end)
{
	bool stage = false;

	for (size_t c = s->at_cover; c < s->n_cover && s->cover[c].off < end; c++) {
		uint64_t from = MAX(s->pos, s->cover[c].off);
		uint64_t to = MIN(end, s->cover[c].off + s->cover[c].len);

		work.ranges_visited++;
		if (from < to) {
			memcpy(s->img + from, p + (from - s->pos), (size_t)(to - from));
			work.bytes_copied += to - from;
		}
	}
	for (; s->at_end < s->n_by_end && s->by_end[s->at_end].a <= end; s->at_end++) {
		struct kept *k = &s->kept[s->by_end[s->at_end].idx];

		work.ranges_visited++;
		k->full = true;
		stage = stage || !k->string;
	}
	return stage;
}

static int take_chunk(void *userdata, const uint8_t *p, size_t len)
{
	struct stream *s = userdata;
	uint64_t end = s->pos + len;
	bool added = true;
	int complete;

	if (len > s->max || s->pos > s->max - len)
		return -EFBIG;
	/* A range that completes may make the stages want one that starts later in this same
	 * chunk (the program headers right after the ELF header): taken from it at once. */
	while (added && s->at_cover < s->n_cover && s->cover[s->at_cover].off < end) {
		added = false;
		if (fill(s, p, end))
			(void)plan(s, &complete, &added);
	}
	while (s->at_cover < s->n_cover &&
	       s->cover[s->at_cover].off + s->cover[s->at_cover].len <= end)
		s->at_cover++;
	s->pos = end;
	return 0;
}
int elf_stream_parse(elf_stream_source source, void *userdata, uint64_t max,
		     const elf_stream_wanted *wanted, size_t n,
		     int (*parse)(void *parse_userdata, const uint8_t *img, size_t size),
		     void *parse_userdata)
{
	return elf_stream_parse_gated(source, userdata, max, wanted, n, NULL, parse,
				      parse_userdata);
}

int elf_stream_parse_gated(elf_stream_source source, void *userdata, uint64_t max,
			   const elf_stream_wanted *wanted, size_t n, elf_stream_gate gate,
			   int (*parse)(void *parse_userdata, const uint8_t *img, size_t size),
			   void *parse_userdata)
{
	struct stream *s;
	int err = -EFBIG, complete;

	if (max == 0 || max > SIZE_MAX || n == 0 || n > ELF_STREAM_MAX_WANTED)
		return -EINVAL;
	/* Mapped, not calloc()ed: the tables are sized for the most ranges the stages may name,
	 * and only the pages of those they do name are touched (malloc would zero them all once
	 * its mmap threshold has grown past the size). */
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return -ENOMEM;
	/* Untouched pages of a private anonymous mapping take no memory: only the kept ranges
	 * do, and the rest reads as zeros the parsers never look at. */
	s->img = mmap(NULL, (size_t)max, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->img == MAP_FAILED) {
		munmap(s, sizeof(*s)); /* no address space (strict overcommit, a ulimit -v) */
		return -ENOBUFS;
	}
	s->max = max;
	s->size = max; /* until the first pass has told */
	s->wanted = wanted;
	s->n_wanted = n;
	s->gate = gate;
	s->gate_userdata = parse_userdata;
	s->gate_answer = -1;
	for (unsigned pass = 0; pass < ELF_STREAM_MAX_PASSES; pass++) {
		bool added;

		s->pos = 0;
		for (size_t i = 0; i < s->n_kept; i++)
			s->kept[i].armed = !s->kept[i].full;
		plan_fill(s);
		(void)plan(s, &complete, &added);
		err = source(userdata, take_chunk, s, &s->size);
		if (err < 0)
			break;
		err = -EFBIG;
		if (s->size > max)
			break;
		s->size_known = true;
		if (plan(s, &complete, &added) && complete) {
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
	munmap(s, sizeof(*s));
	return err;
}
