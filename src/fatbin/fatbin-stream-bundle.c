/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finds uncompressed clang offload bundles in a byte stream that cannot be mapped (a large
 * deflated member of a wheel or an image layer: libtorch_hip.so's .hip_fatbin), as
 * fatbin-stream.c finds CUDA containers. The layout (LLVM clang/docs/ClangOffloadBundler.rst,
 * "Bundled Binary File Layout"): the 24-byte magic "__CLANG_OFFLOAD_BUNDLE__", a u64 entry
 * count, then per entry a u64 offset and a u64 size of its code object (both from the
 * bundle's start), a u64 id length and the id. The table is read one entry at a time, then
 * the code objects pass by and only the first 64 bytes of each are kept: its ELF header, whose
 * e_machine must be EM_AMDGPU and whose e_flags name the processor (EF_AMDGPU_MACH) and, code
 * object v4+, the xnack/sramecc settings (LLVM docs/AMDGPUUsage.rst, "ELF Header"), checked
 * against the entry id. Memory: one table entry (at most 24 + FATBIN_BUNDLE_ID_MAX bytes) and
 * 64 bytes per code object, whatever the bundle's size; nothing is spilled. A compressed
 * bundle (CCOB) needs its payload inflated to show its table: it is not found here, and
 * the caller reads such a library whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

#define MAGIC_LEN 24u
#define EHDR_LEN  64u

static const char magic[MAGIC_LEN + 1] = "__CLANG_OFFLOAD_BUNDLE__";

enum bs_state { B_SEARCH, B_COUNT, B_ENTRY, B_BODY };

/* The first bytes of one code object, gathered as the stream passes them. */
struct code_head {
	uint64_t off, want; /* from the bundle's start; min(size, EHDR_LEN) */
	size_t entry;	    /* index in pend->bundle_entries */
	uint8_t h[EHDR_LEN];
};

struct bundle_stream {
	enum bs_state state;
	struct fb_match magic;	    /* B_SEARCH */
	uint64_t pos;		    /* stream offset of the next byte */
	uint64_t start;		    /* stream offset of the current bundle */
	uint64_t at;		    /* bytes of the current bundle consumed */
	uint64_t n, i;		    /* entries in its table, entries read */
	uint64_t span;		    /* the end of its farthest code object, from its start */
	struct fatbin_result *pend; /* its entries, moved to r once it is whole */
	uint8_t buf[24 + FATBIN_BUNDLE_ID_MAX];
	size_t blen, bwant;
	struct code_head *heads; /* sorted by offset */
	size_t n_heads, next_head;
};

int fb_stream_take(struct fatbin_result *r, struct fatbin_result *pend)
{
	struct fatbin_bundle_entry *v;

	if (pend->n_bundle_entries) {
		v = reallocarray(r->bundle_entries, r->n_bundle_entries + pend->n_bundle_entries,
				 sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->bundle_entries = v;
		for (size_t i = 0; i < pend->n_bundle_entries; i++) {
			v[r->n_bundle_entries] = pend->bundle_entries[i];
			v[r->n_bundle_entries++].bundle += (unsigned)r->n_bundles;
		}
	}
	r->n_bundles += pend->n_bundles;
	r->n_bundles_compressed += pend->n_bundles_compressed;
	pend->n_bundle_entries = pend->n_bundles = pend->n_bundles_compressed = 0;
	return 0;
}

int fb_bundle_stream_new(struct bundle_stream **ret)
{
	*ret = calloc(1, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	(*ret)->magic = (struct fb_match){ magic, MAGIC_LEN, 0 };
	(*ret)->pend = calloc(1, sizeof(*(*ret)->pend));
	if (!(*ret)->pend) {
		free(*ret);
		return -ENOMEM;
	}
	return 0;
}

void fb_bundle_stream_free(struct bundle_stream *bs)
{
	if (!bs)
		return;
	free(bs->heads);
	fatbin_result_free(bs->pend);
	free(bs);
}

/* The longest prefix of m's needle that ends its first m->match bytes followed by c. */
static unsigned match_next(const struct fb_match *m, uint8_t c)
{
	for (unsigned k = m->match + 1; k > 0; k--)
		if ((uint8_t)m->needle[k - 1] == c &&
		    memcmp(m->needle, &m->needle[m->match + 1 - k], k - 1) == 0)
			return k;
	return 0;
}

size_t fb_match_feed(struct fb_match *m, const uint8_t *p, size_t n)
{
	const uint8_t *q;
	size_t used = 0;

	if (m->match == m->len)
		m->match = 0;
	while (m->match > 0 && used < n) { /* a needle begun in the previous chunk */
		m->match = match_next(m, p[used++]);
		if (m->match == m->len)
			return used;
	}
	if (used == n)
		return used;
	q = memmem(p + used, n - used, m->needle, m->len);
	if (q) {
		m->match = m->len;
		return (size_t)(q - p) + m->len;
	}
	/* the chunk may end with the needle's first bytes */
	for (size_t k = MIN(n - used, (size_t)m->len - 1); k > 0 && !m->match; k--)
		if (memcmp(p + n - k, m->needle, k) == 0)
			m->match = (unsigned)k;
	return n;
}

static void search_again(struct bundle_stream *bs)
{
	free(bs->heads);
	bs->heads = NULL;
	bs->n_heads = bs->next_head = 0;
	bs->state = B_SEARCH;
	bs->magic.match = 0;
}

/* The bundle is malformed: its entries go, and the search goes on after its magic. */
static void reject(struct bundle_stream *bs)
{
	fatbin_bundle_drop_entries(bs->pend, 0);
	search_again(bs);
}

static int cmp_head(const void *a, const void *b)
{
	const struct code_head *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Every code object has passed: each AMDGPU entry's must be an AMDGPU ELF file, whose header
 * is checked against the entry's id (the id is what the runtime matches; a header that
 * disagrees is reported, the id kept). */
static int bundle_done(struct bundle_stream *bs, struct fatbin_result *r)
{
	for (size_t i = 0; i < bs->n_heads; i++) {
		const struct code_head *c = &bs->heads[i];
		const struct fatbin_bundle_entry *e = &bs->pend->bundle_entries[c->entry];
		struct fatbin_bundle_entry elf = { 0 };

		if (strncmp(e->triple, "amdgcn", 6) != 0)
			continue;
		if (c->want < EHDR_LEN || memcmp(c->h, "\177ELF", 4) != 0 || c->h[4] != 2 ||
		    fatbin_rd16(c->h + 18) != EM_AMDGPU_) {
			int rv = fatbin_set_warning(r,
						    "offload bundle at 0x%llx: the code object of "
						    "%s is not an AMDGPU ELF file",
						    (unsigned long long)bs->start, e->id);

			reject(bs);
			return rv < 0 ? rv : 0;
		}
		fb_amdgpu_target(c->h, &elf);
		if ((e->gfx[0] && strcmp(elf.gfx, e->gfx) != 0) ||
		    (e->xnack >= 0 && elf.xnack >= 0 && e->xnack != elf.xnack) ||
		    (e->sramecc >= 0 && elf.sramecc >= 0 && e->sramecc != elf.sramecc)) {
			int rv = fatbin_set_warning(r,
						    "offload bundle at 0x%llx: entry %s holds code "
						    "for %s%s%s",
						    (unsigned long long)bs->start, e->id, elf.gfx,
						    elf.xnack == 1   ? ":xnack+"
						    : elf.xnack == 0 ? ":xnack-"
								     : "",
						    elf.sramecc == 1   ? ":sramecc+"
						    : elf.sramecc == 0 ? ":sramecc-"
								       : "");

			if (rv < 0)
				return rv;
		}
	}
	bs->pend->n_bundles = 1;
	search_again(bs);
	return fb_stream_take(r, bs->pend);
}

/* The table is read: the code objects to watch for, which must lie after it. */
static int table_done(struct bundle_stream *bs, struct fatbin_result *r)
{
	size_t n = bs->pend->n_bundle_entries;

	bs->heads = calloc(n ? n : 1, sizeof(*bs->heads));
	if (!bs->heads)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct fatbin_bundle_entry *e = &bs->pend->bundle_entries[i];

		if (e->size == 0)
			continue;
		if (e->offset < bs->at) { /* inside the table: not what clang writes */
			reject(bs);
			return 0;
		}
		bs->heads[bs->n_heads++] = (struct code_head){ .off = e->offset,
							       .want = MIN(e->size, EHDR_LEN),
							       .entry = i };
	}
	qsort(bs->heads, bs->n_heads, sizeof(*bs->heads), cmp_head);
	bs->state = B_BODY;
	return bs->span <= bs->at ? bundle_done(bs, r) : 0;
}

/* k bytes of the current bundle's body at p (from bs->at): the code objects' first bytes. */
static void gather_heads(struct bundle_stream *bs, const uint8_t *p, uint64_t k)
{
	uint64_t end = bs->at + k;

	for (size_t j = bs->next_head; j < bs->n_heads && bs->heads[j].off < end; j++) {
		struct code_head *c = &bs->heads[j];
		uint64_t from = MAX(c->off, bs->at), to = MIN(c->off + c->want, end);

		if (from < to)
			memcpy(c->h + (from - c->off), p + (from - bs->at), to - from);
	}
	while (bs->next_head < bs->n_heads &&
	       bs->heads[bs->next_head].off + bs->heads[bs->next_head].want <= end)
		bs->next_head++;
}

/* A table entry is complete in bs->buf (24 bytes, then the id). */
static int entry_done(struct bundle_stream *bs, struct fatbin_result *r)
{
	uint64_t off = fatbin_rd64(bs->buf), size = fatbin_rd64(bs->buf + 8);
	int rv;

	if (off > UINT64_MAX - size) {
		reject(bs);
		return 0;
	}
	rv = fatbin_bundle_add_entry(bs->pend, (const char *)bs->buf + 24, bs->blen - 24, off, size,
				     0);
	if (rv == -ENOMEM)
		return rv;
	if (rv < 0) {
		reject(bs);
		return 0;
	}
	bs->span = MAX(bs->span, off + size);
	bs->blen = 0;
	bs->bwant = 24;
	return ++bs->i == bs->n ? table_done(bs, r) : 0;
}

/* Bytes of the header or table into bs->buf; 0 until bs->bwant are there. */
static size_t take(struct bundle_stream *bs, const uint8_t *p, size_t n)
{
	size_t k = MIN(n, bs->bwant - bs->blen);

	memcpy(bs->buf + bs->blen, p, k);
	bs->blen += k;
	return k;
}

/* The next bytes of the stream while a bundle is read; how many were used. */
static int feed_bundle(struct bundle_stream *bs, struct fatbin_result *r, const uint8_t *p,
		       size_t n, size_t *used)
{
	uint64_t k;

	switch (bs->state) {
	case B_COUNT:
		k = take(bs, p, n);
		bs->at += k;
		*used = (size_t)k;
		if (bs->blen < bs->bwant)
			return 0;
		bs->n = fatbin_rd64(bs->buf);
		if (bs->n == 0 || bs->n > FATBIN_MAX_BUNDLE_ENTRIES - r->n_bundle_entries) {
			search_again(bs);
			return 0;
		}
		bs->state = B_ENTRY;
		bs->blen = 0;
		bs->bwant = 24;
		return 0;
	case B_ENTRY:
		k = take(bs, p, n);
		bs->at += k;
		*used = (size_t)k;
		if (bs->blen < bs->bwant)
			return 0;
		if (bs->bwant == 24) {
			uint64_t idlen = fatbin_rd64(bs->buf + 16);

			if (idlen == 0 || idlen > FATBIN_BUNDLE_ID_MAX) {
				reject(bs);
				return 0;
			}
			bs->bwant = 24 + (size_t)idlen;
			return 0;
		}
		return entry_done(bs, r);
	case B_BODY:
		k = MIN((uint64_t)n, bs->span > bs->at ? bs->span - bs->at : 0);
		gather_heads(bs, p, k);
		bs->at += k;
		*used = (size_t)k;
		return bs->at >= bs->span ? bundle_done(bs, r) : 0;
	case B_SEARCH:
		break;
	}
	return -EINVAL;
}

static void found(struct bundle_stream *bs)
{
	bs->state = B_COUNT;
	bs->start = bs->pos - MAGIC_LEN;
	bs->at = MAGIC_LEN;
	bs->n = bs->i = bs->span = 0;
	bs->blen = 0;
	bs->bwant = 8;
}

int fb_bundle_stream_feed(struct bundle_stream *bs, struct fatbin_result *r, const uint8_t *p,
			  size_t n)
{
	while (n > 0) {
		size_t used = 0;
		int rv;

		if (bs->state != B_SEARCH) {
			rv = feed_bundle(bs, r, p, n, &used);
			if (rv < 0)
				return rv;
		} else {
			used = fb_match_feed(&bs->magic, p, n);
		}
		p += used;
		n -= used;
		bs->pos += used;
		if (bs->state == B_SEARCH && bs->magic.match == MAGIC_LEN)
			found(bs);
	}
	return 0;
}

int fb_bundle_stream_finish(struct bundle_stream *bs, struct fatbin_result *r)
{
	int rv = 0;

	if (bs->state != B_SEARCH) {
		rv = fatbin_set_warning(r, "stream ended inside the offload bundle at 0x%llx",
					(unsigned long long)bs->start);
		reject(bs);
	}
	return rv < 0 ? rv : 0;
}
