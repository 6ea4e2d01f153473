// SPDX-License-Identifier: LGPL-2.1-or-later
/* gzip input of gpuenv explain: see pasted-gzip.h. */
#include "formats/pasted-gzip.h"
#include "formats/pasted-input.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	/* 16 + MAX_WBITS: gzip only (zlib.h inflateInit2) */
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	g->live = true;
	g->z.next_in = (Bytef *)(uintptr_t)data;
	g->z.avail_in = (uInt)len;
	return 0;
}

int pasted_gz_read(struct pasted_gz *g, char *buf, size_t cap, size_t *ret_n, const char **ret_why)
{
	size_t n = 0;

	*ret_n = 0;
	if (cap > UINT_MAX)
		cap = UINT_MAX;
	while (!g->end && n < cap) {
		int zr;

		g->z.next_out = (Bytef *)buf + n;
		g->z.avail_out = (uInt)(cap - n);
		zr = inflate(&g->z, Z_NO_FLUSH);
		n = (size_t)((char *)g->z.next_out - buf);
		if (zr == Z_STREAM_END) {
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
			return fail(-EBADMSG, "the gzip file is corrupt", ret_why);
		if (zr == Z_BUF_ERROR && g->z.avail_in == 0)
			return fail(-EBADMSG, "the gzip file is truncated", ret_why);
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
