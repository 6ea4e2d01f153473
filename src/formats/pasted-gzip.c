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

int pasted_gz_init(struct pasted_gz *g, const char *data, size_t len, size_t max,
		   const char **ret_why)
{
	*g = (struct pasted_gz){ .max = max,
				 .too_large = max == PASTED_GZ_WINDOWED_MAX ? TOO_LARGE("256 MiB")
					      : max == PASTED_INPUT_MAX	    ? TOO_LARGE("64 MiB")
									: TOO_LARGE("its cap") };
	if (!pasted_is_gzip(data, len) || len > UINT_MAX)
		return fail(-EBADMSG, "the input is not a gzip file", ret_why);
	/* -MAX_WBITS: raw deflate (zlib.h inflateInit2), the gzip framing read here */
	if (inflateInit2(&g->z, -MAX_WBITS) != Z_OK)
		return -ENOMEM;
	g->live = true;
	g->z.next_in = (Bytef *)(uintptr_t)data;
	g->z.avail_in = (uInt)len;
	return 0;
}

#define CORRUPT	  "the gzip file is corrupt"
#define TRUNCATED "the gzip file is truncated"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Past a member's header at the input (RFC 1952 2.3: ID1 ID2 CM FLG MTIME XFL OS, then
 * FEXTRA's XLEN and bytes, FNAME's and FCOMMENT's zero-terminated strings, FHCRC's CRC16: the
 * low 16 bits of the header's CRC-32), what zlib's gzip mode accepts and refuses alike: a
 * method other than deflate (8), a reserved flag (0xe0) or a wrong header CRC is corrupt, a
 * header cut short truncated. */
static int skip_header(struct pasted_gz *g, const char **ret_why)
{
	const unsigned char *p = g->z.next_in, *e = p + g->z.avail_in, *h = p;

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
	g->z.next_in = (Bytef *)(uintptr_t)p;
	g->z.avail_in = (uInt)(e - p);
	g->crc = 0;
	g->isize = 0;
	g->member = true;
	return 0;
}

/* A member's trailer (RFC 1952 2.3.1: CRC32 and ISIZE, the input's length mod 2^32, each
 * little-endian) against what was inflated of it. */
static int check_trailer(struct pasted_gz *g, const char **ret_why)
{
	const unsigned char *p = g->z.next_in;

	/* in zlib's order: the CRC-32 judged as soon as it is there, then the length */
	if (g->z.avail_in >= 4 && le32(p) != g->crc)
		return fail(-EBADMSG, CORRUPT, ret_why);
	if (g->z.avail_in < 8)
		return fail(-EBADMSG, TRUNCATED, ret_why);
	if (le32(p + 4) != g->isize)
		return fail(-EBADMSG, CORRUPT, ret_why);
	g->z.next_in += 8;
	g->z.avail_in -= 8;
	g->member = false;
	return 0;
}

int pasted_gz_read(struct pasted_gz *g, char *buf, size_t cap, size_t *ret_n, const char **ret_why)
{
	size_t n = 0;
	int r;

	*ret_n = 0;
	if (cap > UINT_MAX)
		cap = UINT_MAX;
	while (!g->end && n < cap) {
		int zr;

		if (!g->member && (r = skip_header(g, ret_why)) < 0)
			return r;
		g->z.next_out = (Bytef *)buf + n;
		g->z.avail_out = (uInt)(cap - n);
		zr = inflate(&g->z, Z_NO_FLUSH);
		/* the check zlib's gzip mode would make with its own crc32, here libdeflate's (a
		 * tenth of the instructions: docs/explain.md) */
		g->crc = libdeflate_crc32(g->crc, buf + n,
					  (size_t)((char *)g->z.next_out - buf) - n);
		g->isize += (uint32_t)((size_t)((char *)g->z.next_out - buf) - n);
		n = (size_t)((char *)g->z.next_out - buf);
		if (zr == Z_STREAM_END) {
			r = check_trailer(g, ret_why);
			if (r < 0)
				return r;
			/* another member (gzip -c a b > c) follows, or trailing zeros: tape padding */
			if (g->z.avail_in >= 2 && g->z.next_in[0] == 0x1f &&
			    g->z.next_in[1] == 0x8b) {
				if (inflateReset(&g->z) != Z_OK)
					return -ENOMEM;
				continue;
			}
			g->end = true;
			break;
		}
		if (zr == Z_MEM_ERROR)
			return -ENOMEM;
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			return fail(-EBADMSG, CORRUPT, ret_why);
		if (zr == Z_BUF_ERROR && g->z.avail_in == 0)
			return fail(-EBADMSG, TRUNCATED, ret_why);
	}
	if (n > g->max - g->out)
		return fail(-EFBIG, g->too_large, ret_why);
	g->out += n;
	*ret_n = n;
	return 0;
}

void pasted_gz_done(struct pasted_gz *g)
{
	if (g->live)
		inflateEnd(&g->z);
	g->live = false;
}

int pasted_gunzip(const char *data, size_t len, size_t max, char **ret, size_t *ret_len,
		  const char **ret_why)
{
	struct pasted_gz g;
	size_t cap = len * 4 + 4096, out = 0;
	char *buf = NULL;
	int r;

	r = pasted_gz_init(&g, data, len, max, ret_why);
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
