// SPDX-License-Identifier: LGPL-2.1-or-later
/* gzip input of gpuenv explain: see pasted-gzip.h. */
#include "formats/pasted-gzip.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

int pasted_gunzip(const char *data, size_t len, size_t max, char **ret, size_t *ret_len,
		  const char **ret_why)
{
	z_stream z = { 0 };
	size_t cap = len * 4 + 4096, out = 0;
	char *buf;
	int zr = Z_OK, r = 0;

	if (!pasted_is_gzip(data, len) || len > UINT_MAX)
		return fail(-EBADMSG, "the input is not a gzip file", ret_why);
	if (cap > max + 1)
		cap = max + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	/* 16 + MAX_WBITS: gzip only (zlib.h inflateInit2) */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	for (;;) {
		if (out == cap) {
			if (cap > max) {
				r = fail(-EFBIG,
					 "the gzip file decompresses to more than 64 MiB; give "
					 "gpuenv explain the sections that matter instead",
					 ret_why);
				break;
			}
			size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			char *nb = realloc(buf, ncap + 1);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t room = cap - out;
		z.next_out = (Bytef *)buf + out;
		z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
		zr = inflate(&z, Z_NO_FLUSH);
		out = (size_t)((char *)z.next_out - buf);
		if (zr == Z_STREAM_END) {
			/* another member (gzip -c a b > c) follows, or trailing zeros: tape padding */
			if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b) {
				if (inflateReset(&z) != Z_OK) {
					r = -ENOMEM;
					break;
				}
				continue;
			}
			break;
		}
		if (zr == Z_MEM_ERROR) {
			r = -ENOMEM;
			break;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			r = fail(-EBADMSG, "the gzip file is corrupt", ret_why);
			break;
		}
		if (zr == Z_BUF_ERROR && z.avail_in == 0) {
			r = fail(-EBADMSG, "the gzip file is truncated", ret_why);
			break;
		}
	}
	inflateEnd(&z);
	if (r == 0 && out > max)
		r = fail(-EFBIG,
			 "the gzip file decompresses to more than 64 MiB; give gpuenv explain the "
			 "sections that matter instead",
			 ret_why);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[out] = '\0';
	*ret = buf;
	*ret_len = out;
	return 0;
}
