/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finds CUDA fatbin containers in a byte stream that cannot be mapped (a deflated member of
 * a Python wheel), holding only the 16-byte container headers and the entry headers in
 * memory: a search for the container pattern (magic 0xBA55ED50, version 1, header size 16),
 * then the same validation as the in-memory walk (entry header version 0x0101, header size
 * a multiple of 8, every entry inside its container). Payloads are skipped, never buffered.
 * Format: docs/formats/fatbin.md §1, §3–§5. The same bytes go to the offload bundle scanners
 * (fatbin-stream-bundle.c, fatbin-stream-ccob.c).
 */
#include <errno.h>
#include <string.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

enum st_state { S_SEARCH, S_CHDR, S_EHDR, S_SKIP };

struct fatbin_stream {
	struct fatbin_result *r;
	enum st_state state;
	uint64_t pos;	/* stream offset of the next byte */
	unsigned match; /* bytes of the pattern matched so far (S_SEARCH) */
	uint8_t hdr[FATBIN_MAX_ENTRY_HEADER];
	size_t hlen, hwant;
	uint64_t cont_left; /* bytes of the current container not yet consumed */
	uint64_t skip;	    /* payload bytes left to skip */
	uint64_t ent_off;   /* stream offset of the current entry header */
	size_t keep;	    /* entries before the current container */
	uint8_t head[64];   /* the first bytes of the stream (file type) */
	size_t head_len;
	struct bundle_stream *bundles;
	struct ccob_stream *ccob;
};

int fatbin_stream_new(struct fatbin_stream **ret)
{
	struct fatbin_stream *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->r = calloc(1, sizeof(*st->r));
	if (!st->r || fb_bundle_stream_new(&st->bundles) < 0 || fb_ccob_stream_new(&st->ccob) < 0) {
		fatbin_stream_free(st);
		return -ENOMEM;
	}
	*ret = st;
	return 0;
}

struct fatbin_stream *fatbin_stream_free(struct fatbin_stream *st)
{
	if (!st)
		return NULL;
	fatbin_result_free(st->r);
	fb_bundle_stream_free(st->bundles);
	fb_ccob_stream_free(st->ccob);
	free(st);
	return NULL;
}

/* The current container failed validation: forget its entries and search again. */
static void reject(struct fatbin_stream *st)
{
	fatbin_truncate_entries(st->r, st->keep);
	st->state = S_SEARCH;
	st->match = 0;
}

/* The next thing in the container is an entry header. */
static void next_entry(struct fatbin_stream *st)
{
	st->state = S_EHDR;
	st->hlen = 0;
	st->hwant = 64;
}

static void container_done(struct fatbin_stream *st)
{
	st->r->n_containers++;
	st->state = S_SEARCH;
	st->match = 0;
}

/* An entry header is complete in st->hdr (hlen == hsz). */
static int entry_done(struct fatbin_stream *st)
{
	uint32_t hsz = (uint32_t)st->hlen;
	uint64_t psz = fatbin_rd64(st->hdr + 8);
	struct fatbin_entry *x;
	int rv;

	st->cont_left -= hsz;
	if (psz > st->cont_left) {
		reject(st);
		return 0;
	}
	rv = fatbin_push_entry(st->r, &x);
	if (rv < 0)
		return rv;
	rv = fatbin_entry_decode(x, st->hdr, hsz, psz, false);
	if (rv == -ENOMEM)
		return rv;
	if (rv < 0) {
		reject(st);
		return 0;
	}
	x->container = (unsigned)st->r->n_containers;
	x->origin = FATBIN_ORIGIN_STREAM;
	x->offset = st->ent_off;
	st->skip = psz;
	st->state = S_SKIP;
	if (psz == 0) {
		if (st->cont_left == 0)
			container_done(st);
		else
			next_entry(st);
	}
	return 0;
}

int fatbin_stream_feed(struct fatbin_stream *st, const uint8_t *p, size_t n)
{
	int rv;

	if (!st || (!p && n))
		return -EINVAL;
	if (st->head_len < sizeof(st->head)) {
		size_t k = MIN(n, sizeof(st->head) - st->head_len);

		memcpy(st->head + st->head_len, p, k);
		st->head_len += k;
	}
	rv = fb_bundle_stream_feed(st->bundles, st->r, p, n);
	if (rv >= 0)
		rv = fb_ccob_stream_feed(st->ccob, st->r, p, n);
	if (rv < 0)
		return rv;
	while (n > 0) {
		switch (st->state) {
		case S_SEARCH: {
			if (st->match == 0) {
				const uint8_t *q = memchr(p, fatbin_container_pattern[0], n);
				size_t k;

				if (!q) {
					st->pos += n;
					return 0;
				}
				k = (size_t)(q - p);
				p += k + 1;
				n -= k + 1;
				st->pos += k + 1;
				st->match = 1;
				continue;
			}
			if (*p == fatbin_container_pattern[st->match]) {
				st->match++;
			} else {
				st->match = *p == fatbin_container_pattern[0] ? 1 : 0;
			}
			p++;
			n--;
			st->pos++;
			if (st->match == sizeof(fatbin_container_pattern)) {
				memcpy(st->hdr, fatbin_container_pattern,
				       sizeof(fatbin_container_pattern));
				st->hlen = sizeof(fatbin_container_pattern);
				st->state = S_CHDR;
				st->keep = st->r->n_entries;
			}
			break;
		}
		case S_CHDR:
		case S_EHDR: {
			size_t want = st->state == S_CHDR ? 16 : st->hwant;
			size_t k = MIN(n, want - st->hlen);

			if (st->state == S_EHDR && st->hlen == 0)
				st->ent_off = st->pos;
			memcpy(st->hdr + st->hlen, p, k);
			st->hlen += k;
			p += k;
			n -= k;
			st->pos += k;
			if (st->hlen < want)
				break;
			if (st->state == S_CHDR) {
				if (st->r->n_containers >= FATBIN_MAX_CONTAINERS)
					return -E2BIG;
				st->cont_left = fatbin_rd64(st->hdr + 8);
				if (st->cont_left == 0) {
					container_done(st);
					break;
				}
				next_entry(st);
				break;
			}
			if (st->hwant == 64) {
				uint32_t hsz = fatbin_rd32(st->hdr + 4);

				if (!fatbin_entry_header_ok(st->hdr) || hsz > st->cont_left) {
					reject(st);
					break;
				}
				if (hsz > 64) {
					st->hwant = hsz;
					break;
				}
			}
			rv = entry_done(st);
			if (rv < 0)
				return rv;
			break;
		}
		case S_SKIP: {
			uint64_t k = MIN((uint64_t)n, st->skip);

			p += k;
			n -= (size_t)k;
			st->pos += k;
			st->skip -= k;
			st->cont_left -= k;
			if (st->skip > 0)
				break;
			if (st->cont_left == 0)
				container_done(st);
			else
				next_entry(st);
			break;
		}
		}
	}
	return 0;
}

int fatbin_stream_finish(struct fatbin_stream *st, struct fatbin_result **ret)
{
	struct fatbin_result *r;
	int rv;

	if (!st || !ret)
		return -EINVAL;
	r = st->r;
	if (st->state != S_SEARCH) {
		reject(st);
		rv = fatbin_set_warning(r, "stream ended inside a fatbin container");
		if (rv < 0) {
			fatbin_stream_free(st);
			return rv;
		}
	}
	rv = fb_bundle_stream_finish(st->bundles, r);
	if (rv >= 0)
		rv = fb_ccob_stream_finish(st->ccob, r);
	if (rv < 0) {
		fatbin_stream_free(st);
		return rv;
	}
	if (st->head_len >= 4 && memcmp(st->head, "\177ELF", 4) == 0) {
		r->type = FATBIN_FILE_HOST_ELF;
		r->is_elf = true;
		r->elf_class = st->head_len > 4 && st->head[4] == 1 ? 32 : 64;
	} else if (st->head_len >= 4 && fatbin_rd32(st->head) == FATBIN_MAGIC) {
		r->type = FATBIN_FILE_FATBIN;
	} else if (st->head_len >= 24 && memcmp(st->head, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0) {
		r->type = FATBIN_FILE_OFFLOAD_BUNDLE;
	}
	r->searched = true;
	*ret = r;
	st->r = NULL;
	fatbin_stream_free(st);
	return 0;
}
