/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic section of an ELF file read from a stream (see elf-dynamic-stream.h). The
 * stages mirror what elf-dynamic.c and libelf read, field by field from the System V gABI
 * layouts ("ELF Header", "Section Header", "Program Header", "Dynamic Section"): any byte the
 * parser reads is kept, so a range computed here that is too large only costs memory, one
 * that is too small would change the result (the differential fuzz target checks both
 * parsers agree on any bytes).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "formats/elf-dynamic-stream.h"
#include "shared/macro.h"

#define WANT_MAX (ELF_DYNAMIC_MAX_NEEDED + 8u) /* header, tables, dynamic, three strings */
#define KEPT_MAX (4u * WANT_MAX)

static bool range_ok(uint64_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

/* An unsigned field of n bytes (1..8) at img + off in the file's byte order. */
static uint64_t field(const uint8_t *img, uint64_t off, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)img[off + i] << (8 * (msb ? n - 1 - i : i));
	return v;
}

struct wants {
	struct elf_range *r;
	size_t n, cap;
	int (*have)(void *, uint64_t, uint64_t);
	void *userdata;
};

/* Adds [off, off + len) to the wanted ranges; true when it is kept already. */
static bool want(struct wants *w, uint64_t off, uint64_t len)
{
	if (w->n < w->cap)
		w->r[w->n++] = (struct elf_range){ off, len };
	return w->have(w->userdata, off, len) > 0;
}

struct layout {
	bool is64, msb;
	uint64_t size;
};

/* The file offset of addr through the first PT_LOAD that holds it (elf-dynamic.c's
 * vaddr_to_offset()). */
static bool strtab_offset(const uint8_t *img, const struct layout *l, uint64_t phoff,
			  uint64_t phnum, uint64_t addr, uint64_t *ret)
{
	unsigned phsz = l->is64 ? 56 : 32, w = l->is64 ? 8 : 4;

	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t ph = phoff + i * phsz;
		uint64_t off = field(img, ph + (l->is64 ? 8 : 4), w, l->msb);
		uint64_t vaddr = field(img, ph + (l->is64 ? 16 : 8), w, l->msb);
		uint64_t filesz = field(img, ph + (l->is64 ? 32 : 16), w, l->msb);

		if (field(img, ph, 4, l->msb) != 1 /* PT_LOAD */)
			continue;
		if (addr < vaddr || addr - vaddr >= filesz)
			continue;
		if (!range_ok(l->size, off, addr - vaddr))
			return false;
		*ret = off + (addr - vaddr);
		return true;
	}
	return false;
}

/* The last stage: each DT_STRTAB string the parser takes, up to its cap. */
static void want_strings(struct wants *w, const uint8_t *img, const struct layout *l,
			 uint64_t phoff, uint64_t phnum, uint64_t dyn, uint64_t n)
{
	unsigned esz = l->is64 ? 16 : 8, vw = l->is64 ? 8 : 4;
	uint64_t idx[WANT_MAX], strtab = 0, strsz = 0, off;
	bool has_strtab = false, has_strsz = false;
	size_t n_idx = 0, n_needed = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t tag = field(img, dyn + i * esz, vw, l->msb);
		uint64_t val = field(img, dyn + i * esz + vw, vw, l->msb);

		if (tag == 0 /* DT_NULL */)
			break;
		if (tag == 5 /* DT_STRTAB */) {
			strtab = val;
			has_strtab = true;
		} else if (tag == 10 /* DT_STRSZ */) {
			strsz = val;
			has_strsz = true;
		} else if ((tag == 14 || tag == 15 || tag == 29) /* SONAME, RPATH, RUNPATH */ ||
			   (tag == 1 /* DT_NEEDED */ && n_needed++ < ELF_DYNAMIC_MAX_NEEDED)) {
			/* A repeated SONAME/RPATH/RUNPATH: the last one counts, keeping all is
			 * only more bytes. */
			if (n_idx < ARRAY_SIZE(idx))
				idx[n_idx++] = val;
		}
	}
	if (n_idx == 0 || !has_strtab || !has_strsz ||
	    !strtab_offset(img, l, phoff, phnum, strtab, &off) || !range_ok(l->size, off, strsz))
		return;
	for (size_t i = 0; i < n_idx; i++)
		if (idx[i] < strsz)
			want(w, off + idx[i],
			     MIN(strsz - idx[i], (uint64_t)ELF_DYNAMIC_MAX_STRING + 1));
}

size_t elf_dynamic_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want_out, size_t cap, int *complete,
			  size_t *strings_from)
{
	struct wants w = { .r = want_out, .cap = cap, .have = have, .userdata = userdata };
	struct layout l = { .size = size };
	uint64_t phoff, shoff, phnum, shnum, phentsize, shsz, dyn = 0, dynsz = 0, n;
	bool found = false;

	*complete = 0;
	*strings_from = cap;
	if (!want(&w, 0, MIN(size, (uint64_t)64)))
		return w.n;
	*complete = 1;
	if (size < 52 || memcmp(img, "\177ELF", 4) != 0 || (img[4] != 1 && img[4] != 2) ||
	    (img[5] != 1 && img[5] != 2))
		return w.n;
	l.is64 = img[4] == 2;
	l.msb = img[5] == 2;
	if (l.is64 && size < 64)
		return w.n;
	phoff = field(img, l.is64 ? 32 : 28, l.is64 ? 8 : 4, l.msb);
	shoff = field(img, l.is64 ? 40 : 32, l.is64 ? 8 : 4, l.msb);
	phentsize = field(img, l.is64 ? 54 : 42, 2, l.msb);
	phnum = field(img, l.is64 ? 56 : 44, 2, l.msb);
	shnum = field(img, l.is64 ? 60 : 48, 2, l.msb);
	shsz = l.is64 ? 64 : 40;
	/* libelf reads the section header table when it opens the file (and entry 0 for the
	 * real counts past PN_XNUM): kept whole when it is not huge, else entry 0. */
	if (shoff != 0 && shoff < size) {
		uint64_t len = MAX(shnum, (uint64_t)1) * shsz;

		if (len > ELF_STREAM_MAX_SHDR_TABLE)
			len = shsz;
		/* Only the PN_XNUM count waits for it: the table usually ends the file. */
		if (!want(&w, shoff, MIN(len, size - shoff)) && phnum == 0xffff) {
			*complete = 0;
			return w.n;
		}
		if (phnum == 0xffff /* PN_XNUM */ && range_ok(size, shoff, shsz))
			phnum = field(img, shoff + (l.is64 ? 44 : 28), 4, l.msb);
	}
	if (phnum == 0 || phnum > ELF_DYNAMIC_MAX_PHDRS || phentsize != (l.is64 ? 56u : 32u) ||
	    !range_ok(size, phoff, phnum * phentsize))
		return w.n;
	if (!want(&w, phoff, phnum * phentsize)) {
		*complete = 0;
		return w.n;
	}
	for (uint64_t i = 0; i < phnum && !found; i++) {
		uint64_t ph = phoff + i * phentsize;
		unsigned fw = l.is64 ? 8 : 4;

		if (field(img, ph, 4, l.msb) == 2 /* PT_DYNAMIC */) {
			dyn = field(img, ph + (l.is64 ? 8 : 4), fw, l.msb);
			dynsz = field(img, ph + (l.is64 ? 32 : 16), fw, l.msb);
			found = true;
		}
	}
	if (!found || !range_ok(size, dyn, dynsz))
		return w.n;
	n = MIN(dynsz / (l.is64 ? 16 : 8), (uint64_t)ELF_DYNAMIC_MAX_ENTRIES);
	if (n == 0)
		return w.n;
	if (!want(&w, dyn, n * (l.is64 ? 16 : 8))) {
		*complete = 0;
		return w.n;
	}
	*strings_from = w.n;
	want_strings(&w, img, &l, phoff, phnum, dyn, n);
	return w.n;
}

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
	struct kept kept[KEPT_MAX];
	size_t n_kept;
	struct elf_range want[WANT_MAX];
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

/* Adds what the stages want now and were not kept yet; those still ahead fill in this pass. */
static int plan(struct stream *s, int *complete)
{
	size_t strings_from;
	size_t n = elf_dynamic_wanted(s->img, s->size, have_range, s, s->want, WANT_MAX, complete,
				      &strings_from);
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
		if (s->n_kept == KEPT_MAX) {
			s->overflow = true;
			continue;
		}
		s->next = 0; /* look again */
		s->kept[s->n_kept++] = (struct kept){ .off = r->off,
						      .len = r->len,
						      .armed = r->off >= s->pos,
						      .string = i >= strings_from };
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

int elf_dynamic_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     struct elf_dynamic **ret)
{
	struct stream *s;
	int err = -EFBIG, complete;

	if (max == 0 || max > SIZE_MAX)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	/* Untouched pages of a private anonymous mapping take no memory: only the kept ranges
	 * do, and the rest reads as zeros the parser never looks at. */
	s->img = mmap(NULL, (size_t)max, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->img == MAP_FAILED) {
		free(s); /* no address space for it (strict overcommit, a ulimit -v) */
		return -ENOBUFS;
	}
	s->max = max;
	s->size = max; /* until the first pass has told */
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
			err = elf_dynamic_parse(s->img, (size_t)s->size, ret);
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
