// SPDX-License-Identifier: LGPL-2.1-or-later
/* gzip input of gpuenv explain: see pasted-gzip.h. */
#include "formats/pasted-gzip.h"
#include "formats/pasted-input.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <zlib.h>

#include "shared/isal-inflate-api.h"

#define TOO_LARGE(cap)                                                                             \
	"the gzip file decompresses to more than " cap "; give gpuenv explain the sections "       \
	"that matter instead"

_Static_assert(PASTED_INPUT_MAX == (size_t)64 << 20 && PASTED_GZ_WINDOWED_MAX == (size_t)256 << 20,
	       "the sentences name the caps");

bool pasted_is_gzip(const char *data, size_t len)
{
	return data && len >= 2 && (unsigned char)data[0] == 0x1f && (unsigned char)data[1] == 0x8b;
}

static int fail(int err, const char *why, const char **ret_why)
{
	if (ret_why)
		*ret_why = why;
	return err;
}

int pasted_gz_init(struct pasted_gz *g, const struct isal_inflate_api *isal, const char *data,
		   size_t len, size_t max, const char **ret_why)
{
	*g = (struct pasted_gz){ .isal = isal,
				 .max = max,
				 .too_large = max == PASTED_GZ_WINDOWED_MAX ? TOO_LARGE("256 MiB")
					      : max == PASTED_INPUT_MAX	    ? TOO_LARGE("64 MiB")
									: TOO_LARGE("its cap") };
	if (!pasted_is_gzip(data, len) || len > UINT_MAX)
		return fail(-EBADMSG, "the input is not a gzip file", ret_why);
	g->start = g->released = data;
	g->end_in = data + len;
	if (!isal) { /* zlib's inflate, raw deflate (zlib.h inflateInit2, windowBits -15) */
		g->zs = calloc(1, sizeof(*g->zs));
		if (!g->zs)
			return -ENOMEM;
		if (inflateInit2(g->zs, -MAX_WBITS) != Z_OK) {
			free(g->zs);
			g->zs = NULL;
			return -ENOMEM;
		}
		g->live = true;
		g->zs->next_in = (Bytef *)(uintptr_t)data;
		g->zs->avail_in = (uInt)len;
		return 0;
	}
	/* ISA-L's inflate state (its Huffman tables and a 64 KiB history) is 85 KiB: on the
	 * heap, not the caller's stack; zeroed, because isal_inflate_init (2.30) leaves fields
	 * of it unset: on a reused heap chunk the release build read a 966-byte dmesg .gz (the
	 * readers' sample dmesg-525-k8s.txt.gz) as text with nothing in it, where the debug build
	 * and `gzip -dc` read its NVRM line */
	g->z = calloc(1, sizeof(*g->z));
	if (!g->z)
		return -ENOMEM;
	/* crc_flag ISAL_DEFLATE (isal_inflate_init's): raw deflate, the gzip framing read here */
	isal->isal_inflate_init(g->z);
	g->live = true;
	g->z->next_in = (uint8_t *)(uintptr_t)data;
	g->z->avail_in = (uint32_t)len;
	return 0;
}

const char *pasted_gz_release_input(struct pasted_gz *g)
{
	const char *at;

	if (g->zs) /* zlib holds no byte it has taken in for a second reading */
		return g->released = (const char *)g->zs->next_in;
	if (!g->z)
		return NULL;
	/* at a member's end the whole bytes of ISA-L's 64-bit bit buffer are given back to the
	 * input (pasted_gz_read), read again as the trailer's: up to 8 bytes before next_in */
	at = (const char *)g->z->next_in;
	at = (size_t)(at - g->start) > sizeof(g->z->read_in) ? at - sizeof(g->z->read_in)
							     : g->start;
	if (at > g->released)
		g->released = at;
	return g->released;
}

#define CORRUPT	  "the gzip file is corrupt"
#define TRUNCATED "the gzip file is truncated"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The input not yet taken by the inflater, ISA-L's or zlib's. */
static const unsigned char *in_next(const struct pasted_gz *g, size_t *ret_avail)
{
	if (g->zs) {
		*ret_avail = g->zs->avail_in;
		return g->zs->next_in;
	}
	*ret_avail = g->z->avail_in;
	return g->z->next_in;
}

/* The input taken up to p (the framing's bytes, read here). */
static void in_take(struct pasted_gz *g, const unsigned char *p)
{
	size_t avail;
	const unsigned char *at = in_next(g, &avail);
	size_t left = avail - (size_t)(p - at);

	if (g->zs) {
		g->zs->next_in = (Bytef *)(uintptr_t)p;
		g->zs->avail_in = (uInt)left;
	} else {
		g->z->next_in = (uint8_t *)(uintptr_t)p;
		g->z->avail_in = (uint32_t)left;
	}
}

/* Past a member's header at the input (RFC 1952 2.3: ID1 ID2 CM FLG MTIME XFL OS, then
 * FEXTRA's XLEN and bytes, FNAME's and FCOMMENT's zero-terminated strings, FHCRC's CRC16: the
 * low 16 bits of the header's CRC-32), what zlib's gzip mode accepts and refuses alike: a
 * method other than deflate (8), a reserved flag (0xe0) or a wrong header CRC is corrupt, a
 * header cut short truncated. */
static int skip_header(struct pasted_gz *g, const char **ret_why)
{
	size_t avail;
	const unsigned char *p = in_next(g, &avail), *e = p + avail, *h = p;

	/* in zlib's order: CM and FLG judged as soon as they are there, a header cut after them
	 * being corrupt rather than truncated */
	if (e - p >= 4 && (p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 || (p[3] & 0xe0)))
		return fail(-EBADMSG, CORRUPT, ret_why);
	if (e - p < 10)
		return fail(-EBADMSG, TRUNCATED, ret_why);
	p += 10;
	if (h[3] & 0x04) { /* FEXTRA */
		size_t xlen;

		if (e - p < 2)
			return fail(-EBADMSG, TRUNCATED, ret_why);
		xlen = (size_t)p[0] | (size_t)p[1] << 8;
		p += 2;
		if ((size_t)(e - p) < xlen)
			return fail(-EBADMSG, TRUNCATED, ret_why);
		p += xlen;
	}
	for (unsigned flag = 0x08; flag <= 0x10; flag <<= 1) { /* FNAME, FCOMMENT */
		const unsigned char *z;

		if (!(h[3] & flag))
			continue;
		z = memchr(p, 0, (size_t)(e - p));
		if (!z)
			return fail(-EBADMSG, TRUNCATED, ret_why);
		p = z + 1;
	}
	if (h[3] & 0x02) { /* FHCRC */
		if (e - p < 2)
			return fail(-EBADMSG, TRUNCATED, ret_why);
		if (((size_t)p[0] | (size_t)p[1] << 8) !=
		    (libdeflate_crc32(0, h, (size_t)(p - h)) & 0xffff))
			return fail(-EBADMSG, CORRUPT, ret_why);
		p += 2;
	}
	in_take(g, p);
	g->crc = 0;
	g->isize = 0;
	g->member = true;
	g->member_in = (const char *)p;
	g->member_out = 0;
	return 0;
}

/* A member's trailer (RFC 1952 2.3.1: CRC32 and ISIZE, the input's length mod 2^32, each
 * little-endian) against what was inflated of it. */
static int check_trailer(struct pasted_gz *g, const char **ret_why)
{
	size_t avail;
	const unsigned char *p = in_next(g, &avail);

	/* in zlib's order: the CRC-32 judged as soon as it is there, then the length */
	if (avail >= 4 && le32(p) != g->crc)
		return fail(-EBADMSG, CORRUPT, ret_why);
	if (avail < 8)
		return fail(-EBADMSG, TRUNCATED, ret_why);
	if (le32(p + 4) != g->isize)
		return fail(-EBADMSG, CORRUPT, ret_why);
	in_take(g, p + 8);
	g->member = false;
	return 0;
}

/* Where ISA-L refused the member's deflate data (corrupt, or cut short): zlib's verdict on it
 * instead, so that a file both cut and corrupt is called what zlib's gzip mode called it
 * (whichever it meets first; ISA-L reads ahead and judges a block's header whole), and one
 * whose text runs past the cap before that is too large. zlib inflates the member again from
 * its start into a scratch buffer, on this error path only, where that start is still the
 * caller's (pasted_gz_release_input), else ISA-L's verdict stands (isal_truncated: no input
 * was left). total: the bytes given so far, the member's included. */
static int zlib_verdict(struct pasted_gz *g, size_t total, bool isal_truncated,
			const char **ret_why)
{
	z_stream z = { 0 };
	char scratch[16384];
	size_t before = total - g->member_out, out = 0;
	int zr;

	if (before > g->max) /* an earlier member of this read past the cap already */
		return fail(-EFBIG, g->too_large, ret_why);
	if (g->member_in < g->released) /* its start given back: ISA-L's verdict */
		return fail(-EBADMSG, isal_truncated ? TRUNCATED : CORRUPT, ret_why);
	if (inflateInit2(&z, -MAX_WBITS) != Z_OK) /* raw deflate (zlib.h inflateInit2) */
		return -ENOMEM;
	z.next_in = (Bytef *)(uintptr_t)g->member_in;
	z.avail_in = (uInt)(g->end_in - g->member_in);
	do {
		z.next_out = (Bytef *)scratch;
		z.avail_out = sizeof(scratch);
		zr = inflate(&z, Z_NO_FLUSH);
		out += sizeof(scratch) - z.avail_out;
		if (out > g->max - before) {
			inflateEnd(&z);
			return fail(-EFBIG, g->too_large, ret_why);
		}
	} while (zr == Z_OK);
	inflateEnd(&z);
	if (zr == Z_MEM_ERROR)
		return -ENOMEM;
	/* Z_STREAM_END: data zlib takes and ISA-L does not, refused all the same */
	return fail(-EBADMSG, zr == Z_BUF_ERROR && z.avail_in == 0 ? TRUNCATED : CORRUPT, ret_why);
}

/* The bytes inflated into buf: counted into the member's CRC-32 and length. */
static void took(struct pasted_gz *g, const char *buf, size_t got)
{
	/* the check zlib's gzip mode would make with its own crc32, here libdeflate's (a
	 * tenth of the instructions: docs/explain.md) */
	g->crc = libdeflate_crc32(g->crc, buf, got);
	g->isize += (uint32_t)got;
	g->member_out += got;
}

/* Whether another member follows (gzip -c a b > c), else trailing bytes: tape padding. */
static bool member_follows(const struct pasted_gz *g)
{
	size_t avail;
	const unsigned char *p = in_next(g, &avail);

	return avail >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* pasted_gz_read where ISA-L could not be loaded (lazy-isal.h): zlib's inflate, the same
 * framing, caps and verdicts; zlib's is the verdict ISA-L's path gives too (zlib_verdict).
 * *n: the bytes given so far. */
static int zlib_read(struct pasted_gz *g, char *buf, size_t cap, size_t *n, const char **ret_why)
{
	z_stream *z = g->zs;
	int r;

	while (!g->end && *n < cap) {
		size_t got;
		int zr;

		if (!g->member && (r = skip_header(g, ret_why)) < 0)
			return r;
		z->next_out = (Bytef *)buf + *n;
		z->avail_out = (uInt)(cap - *n);
		zr = inflate(z, Z_NO_FLUSH);
		got = (size_t)((char *)z->next_out - buf) - *n;
		took(g, buf + *n, got);
		*n += got;
		if (zr == Z_MEM_ERROR)
			return -ENOMEM;
		if (zr == Z_STREAM_END) {
			r = check_trailer(g, ret_why);
			if (r < 0)
				return r;
			if (member_follows(g)) {
				inflateReset(z);
				continue;
			}
			g->end = true;
			break;
		}
		/* Z_DATA_ERROR (Z_NEED_DICT: a preset dictionary, which gzip never has), or
		 * Z_BUF_ERROR: no progress, the input all taken (truncated); past the cap
		 * before either, too large (zlib_verdict's order) */
		if (zr != Z_OK || (got == 0 && z->avail_in == 0)) {
			if (*n > g->max - g->out)
				return fail(-EFBIG, g->too_large, ret_why);
			return fail(-EBADMSG,
				    zr == Z_DATA_ERROR || zr == Z_NEED_DICT || z->avail_in
					    ? CORRUPT
					    : TRUNCATED,
				    ret_why);
		}
	}
	return 0;
}

int pasted_gz_read(struct pasted_gz *g, char *buf, size_t cap, size_t *ret_n, const char **ret_why)
{
	size_t n = 0;
	int r;

	*ret_n = 0;
	if (cap > UINT_MAX)
		cap = UINT_MAX;
	if (g->zs && (r = zlib_read(g, buf, cap, &n, ret_why)) < 0)
		return r;
	while (!g->zs && !g->end && n < cap) {
		struct inflate_state *z = g->z;
		enum isal_block_state state;
		uint32_t in;
		int32_t bits;
		int16_t held;
		size_t got;
		int zr;

		if (!g->member && (r = skip_header(g, ret_why)) < 0)
			return r;
		in = z->avail_in;
		bits = z->read_in_length;
		held = z->tmp_in_size;
		state = z->block_state;
		z->next_out = (uint8_t *)buf + n;
		z->avail_out = (uint32_t)(cap - n);
		zr = g->isal->isal_inflate(z);
		got = (size_t)((char *)z->next_out - buf) - n;
		took(g, buf + n, got);
		n += got;
		/* ISAL_INVALID_BLOCK, _SYMBOL, _LOOKBACK: what zlib calls a data error */
		if (zr < 0)
			return zlib_verdict(g, g->out + n, false, ret_why);
		if (z->block_state == ISAL_BLOCK_FINISH) {
			/* the whole bytes past the deflate data still in the bit buffer given
			 * back to the input, the trailer's: as later ISA-L's isal_inflate does
			 * itself (igzip_inflate.c, "Undo count stuff of bytes read into the read
			 * buffer"), 2.30's not */
			z->next_in -= z->read_in_length / 8;
			z->avail_in += (uint32_t)(z->read_in_length / 8);
			z->read_in_length = 0;
			z->read_in = 0;
			r = check_trailer(g, ret_why);
			if (r < 0)
				return r;
			/* another member (gzip -c a b > c) follows, or trailing zeros: tape padding */
			if (z->avail_in >= 2 && z->next_in[0] == 0x1f && z->next_in[1] == 0x8b) {
				g->isal->isal_inflate_reset(z);
				continue;
			}
			g->end = true;
			break;
		}
		/* nothing taken, nothing given, the state as it was: the member cannot go on
		 * (truncated where no input is left: zlib's Z_BUF_ERROR with avail_in 0), never
		 * a loop. Output may stop short of the buffer's end with the input all taken
		 * into the bit buffer: not yet an end. */
		if (got == 0 && z->avail_in == in && z->read_in_length == bits &&
		    z->tmp_in_size == held && z->block_state == state)
			return zlib_verdict(g, g->out + n, in == 0, ret_why);
	}
	if (n > g->max - g->out)
		return fail(-EFBIG, g->too_large, ret_why);
	g->out += n;
	*ret_n = n;
	return 0;
}

void pasted_gz_done(struct pasted_gz *g)
{
	free(g->z);
	g->z = NULL;
	if (g->zs) {
		inflateEnd(g->zs);
		free(g->zs);
		g->zs = NULL;
	}
	g->live = false;
}

int pasted_gunzip(const struct isal_inflate_api *isal, const char *data, size_t len, size_t max,
		  char **ret, size_t *ret_len, const char **ret_why)
{
	struct pasted_gz g;
	size_t cap = len * 4 + 4096, out = 0;
	char *buf = NULL;
	int r;

	r = pasted_gz_init(&g, isal, data, len, max, ret_why);
	if (r < 0)
		return r;
	if (cap > max + 1)
		cap = max + 1;
	for (;;) {
		size_t n;

		if (!buf || out == cap) {
			size_t ncap = !buf ? cap : cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb;

			if (buf && ncap == cap) { /* one byte past max read: too large */
				r = fail(-EFBIG, g.too_large, ret_why);
				break;
			}
			nb = realloc(buf, ncap + 1);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		r = pasted_gz_read(&g, buf + out, cap - out, &n, ret_why);
		if (r < 0 || n == 0)
			break;
		out += n;
	}
	pasted_gz_done(&g);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[out] = '\0';
	*ret = buf;
	*ret_len = out;
	return 0;
}
