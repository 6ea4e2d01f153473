/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finds compressed clang offload bundles (CCOB, what `--offload-compress` writes: PyTorch's
 * ROCm builds since pytorch/pytorch#143986) in a byte stream that cannot be mapped, beside
 * fatbin-stream-bundle.c's uncompressed ones. The header (LLVM
 * clang/include/clang/Driver/OffloadBundler.h, CompressedOffloadBundle; the layout is
 * fatbin-bundle.c's): "CCOB", u16 version, u16 method (zlib 0, zstd 1), then v1: u32
 * uncompressed size, u64 hash (20 bytes in all); v2: u32 file size, u32 uncompressed size,
 * u64 hash (24); v3: u64 file size, u64 uncompressed size, u64 hash (32). The compressed bytes
 * are inflated as they pass, only as far as the in-memory parse inflates them
 * (FATBIN_CCOB_HEAD_MAX bytes: the uncompressed bundle's entry table), then skipped. Memory:
 * that head and the decoder's state, whatever the bundle's size. A "CCOB" that is not
 * followed by a known version and method is not a bundle (the stream is searched everywhere,
 * not only in .hip_fatbin): it is passed over silently; one whose payload does not give a
 * table that parses is skipped to its end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

/* C_DONE: after a version 1 bundle, whose size is not in its header, nothing more is
 * searched (as the in-memory parse of .hip_fatbin stops there), so that where the search
 * would go on never depends on how far the decoder read, which the chunks decide. */
enum cs_state { C_SEARCH, C_HEAD, C_DATA, C_SKIP, C_DONE };

struct ccob_stream {
	enum cs_state state;
	struct fb_match magic;
	uint64_t pos;	/* stream offset of the next byte */
	uint64_t start; /* stream offset of the current bundle */
	uint8_t hdr[36];
	size_t hlen, hwant;
	unsigned method;
	uint64_t usize, left; /* compressed bytes left; UINT64_MAX unknown (v1) */
	uint8_t *head;
	size_t head_len, head_want;
	ZSTD_DStream *zds;
	z_stream zs;
	bool zs_open;
	struct fatbin_result *pend; /* the current bundle's entries, moved to r at its end */
};

int fb_ccob_stream_new(struct ccob_stream **ret)
{
	*ret = calloc(1, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	(*ret)->magic = (struct fb_match){ "CCOB", 4, 0 };
	(*ret)->pend = calloc(1, sizeof(*(*ret)->pend));
	if (!(*ret)->pend) {
		free(*ret);
		return -ENOMEM;
	}
	return 0;
}

static void close_decoder(struct ccob_stream *cs)
{
	if (cs->zs_open)
		inflateEnd(&cs->zs);
	cs->zs_open = false;
	free(cs->head);
	cs->head = NULL;
}

void fb_ccob_stream_free(struct ccob_stream *cs)
{
	if (!cs)
		return;
	close_decoder(cs);
	ZSTD_freeDStream(cs->zds);
	fatbin_result_free(cs->pend);
	free(cs);
}

static void search_again(struct ccob_stream *cs)
{
	close_decoder(cs);
	cs->state = C_SEARCH;
	cs->magic.match = 0;
}

/* The bundle whose header parsed is malformed: the search goes on at its end (a position the
 * header gives, not where the decoder stopped), or, version 1, not at all. */
static void fail(struct ccob_stream *cs)
{
	fatbin_bundle_drop_entries(cs->pend, 0);
	close_decoder(cs);
	cs->state = cs->left == UINT64_MAX ? C_DONE : cs->left ? C_SKIP : C_SEARCH;
	cs->magic.match = 0;
}

/* The header is complete: a known version and method start the decoder; else no bundle. */
static int header_done(struct ccob_stream *cs)
{
	uint16_t version = fatbin_rd16(cs->hdr + 4);
	size_t hdr = version == 1 ? 20 : version == 2 ? 24 : 32;
	uint64_t fsize = version == 1	? 0
			 : version == 2 ? fatbin_rd32(cs->hdr + 8)
					: fatbin_rd64(cs->hdr + 8);

	cs->usize = version == 1   ? fatbin_rd32(cs->hdr + 8)
		    : version == 2 ? fatbin_rd32(cs->hdr + 12)
				   : fatbin_rd64(cs->hdr + 16);
	if ((fsize && fsize < hdr) || cs->usize == 0) {
		search_again(cs);
		return 0;
	}
	cs->left = fsize ? fsize - hdr : UINT64_MAX;
	if (cs->left == 0) {
		search_again(cs);
		return 0;
	}
	cs->head_want = (size_t)MIN(cs->usize, (uint64_t)FATBIN_CCOB_HEAD_MAX);
	cs->head_len = 0;
	cs->head = malloc(cs->head_want);
	if (!cs->head)
		return -ENOMEM;
	if (cs->method == 1) {
		if (!cs->zds && !(cs->zds = ZSTD_createDStream()))
			return -ENOMEM;
		if (ZSTD_isError(ZSTD_DCtx_reset(cs->zds, ZSTD_reset_session_only))) {
			fail(cs);
			return 0;
		}
	} else {
		memset(&cs->zs, 0, sizeof(cs->zs));
		if (inflateInit(&cs->zs) != Z_OK)
			return -ENOMEM;
		cs->zs_open = true;
	}
	cs->state = C_DATA;
	return 0;
}

/* The head is inflated (or the data ended): its table into r. A bundle that parses is
 * skipped to its end where the header gives its size. */
static int head_done(struct ccob_stream *cs, struct fatbin_result *r)
{
	int rv = cs->head_len ? fatbin_bundle_parse_head(cs->pend, cs->head, cs->head_len,
							 cs->head_len < cs->usize)
			      : -EBADMSG;

	if (rv == -ENOMEM)
		return rv;
	if (rv < 0) {
		fail(cs);
		return 0;
	}
	cs->pend->n_bundles_compressed = 1;
	close_decoder(cs);
	cs->magic.match = 0;
	if (cs->left != UINT64_MAX && cs->left > 0) {
		cs->state = C_SKIP;
		return 0;
	}
	cs->state = cs->left == UINT64_MAX ? C_DONE : C_SEARCH;
	return fb_stream_take(r, cs->pend);
}

/* Compressed bytes p[0..n) (n <= cs->left) into the head; how many the decoder took. */
static int inflate_some(struct ccob_stream *cs, struct fatbin_result *r, const uint8_t *p, size_t n,
			size_t *used)
{
	bool ended = false, bad = false;

	if (cs->method == 1) {
		ZSTD_inBuffer in = { p, n, 0 };
		ZSTD_outBuffer out = { cs->head, cs->head_want, cs->head_len };

		while (!ended && !bad && in.pos < in.size && out.pos < out.size) {
			size_t z = ZSTD_decompressStream(cs->zds, &out, &in);

			bad = ZSTD_isError(z);
			ended = z == 0;
		}
		*used = in.pos;
		cs->head_len = out.pos;
	} else {
		int z;

		cs->zs.next_in = (Bytef *)(uintptr_t)p;
		cs->zs.avail_in = (uInt)MIN(n, (size_t)UINT32_MAX);
		cs->zs.next_out = cs->head + cs->head_len;
		cs->zs.avail_out = (uInt)(cs->head_want - cs->head_len);
		z = inflate(&cs->zs, Z_SYNC_FLUSH);
		*used = (size_t)(cs->zs.next_in - p);
		cs->head_len = cs->head_want - cs->zs.avail_out;
		ended = z == Z_STREAM_END;
		bad = z != Z_OK && z != Z_STREAM_END && z != Z_BUF_ERROR;
	}
	if (cs->left != UINT64_MAX)
		cs->left -= *used;
	/* as the in-memory parse: a decoder error keeps what came out before it */
	if (bad && cs->head_len == 0) {
		fail(cs);
		return 0;
	}
	if (bad || ended || cs->head_len == cs->head_want || cs->left == 0)
		return head_done(cs, r);
	return 0;
}

/* The next bytes while a bundle is read; how many were used. */
static int feed_ccob(struct ccob_stream *cs, struct fatbin_result *r, const uint8_t *p, size_t n,
		     size_t *used)
{
	size_t k;

	switch (cs->state) {
	case C_HEAD:
		k = MIN(n, cs->hwant - cs->hlen);
		memcpy(cs->hdr + cs->hlen, p, k);
		cs->hlen += k;
		*used = k;
		if (cs->hlen < cs->hwant)
			return 0;
		if (cs->hwant == 8) {
			uint16_t version = fatbin_rd16(cs->hdr + 4);

			cs->method = fatbin_rd16(cs->hdr + 6);
			if (version < 1 || version > 3 || cs->method > 1) {
				search_again(cs);
				return 0;
			}
			cs->hwant = version == 1 ? 20 : version == 2 ? 24 : 32;
			return 0;
		}
		return header_done(cs);
	case C_DATA:
		k = (size_t)MIN((uint64_t)n, cs->left);
		return inflate_some(cs, r, p, k, used);
	case C_SKIP:
		k = (size_t)MIN((uint64_t)n, cs->left);
		cs->left -= k;
		*used = k;
		if (cs->left > 0)
			return 0;
		search_again(cs);
		return fb_stream_take(r, cs->pend);
	case C_DONE:
		*used = n;
		return 0;
	case C_SEARCH:
		break;
	}
	return -EINVAL;
}

int fb_ccob_stream_feed(struct ccob_stream *cs, struct fatbin_result *r, const uint8_t *p, size_t n)
{
	while (n > 0) {
		size_t used = 0;

		if (cs->state != C_SEARCH) {
			int rv = feed_ccob(cs, r, p, n, &used);

			if (rv < 0)
				return rv;
		} else {
			used = fb_match_feed(&cs->magic, p, n);
			if (cs->magic.match == cs->magic.len) {
				cs->state = C_HEAD;
				cs->start = cs->pos + used - cs->magic.len;
				memcpy(cs->hdr, "CCOB", 4);
				cs->hlen = 4;
				cs->hwant = 8;
			}
		}
		p += used;
		n -= used;
		cs->pos += used;
	}
	return 0;
}

int fb_ccob_stream_finish(struct ccob_stream *cs, struct fatbin_result *r)
{
	int rv = 0;

	/* the stream ended inside a bundle: the in-memory parse finds a bundle that ends past
	 * its section malformed, so it goes, said */
	if (cs->state == C_SKIP || (cs->state == C_DATA && cs->left != UINT64_MAX)) {
		if (cs->state == C_SKIP) {
			fatbin_bundle_drop_entries(cs->pend, 0);
			cs->pend->n_bundles = cs->pend->n_bundles_compressed = 0;
		}
		rv = fatbin_set_warning(
			r, "stream ended inside the compressed offload bundle at 0x%llx",
			(unsigned long long)cs->start);
	} else if (cs->state == C_DATA) {
		rv = head_done(cs, r); /* v1 (no size): the bundle ends with the stream */
	}
	search_again(cs);
	return rv < 0 ? rv : 0;
}
