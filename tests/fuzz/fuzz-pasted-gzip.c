// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: explain's gzip input (src/formats/pasted-gzip.c) on any bytes, under a
 * 1 MiB cap: what it accepts is NUL-terminated at the length it says, never past the cap; a
 * refusal says why. Then its windows (src/formats/pasted-gz-windows.c, made on a thread of
 * their own): they end, each NUL-terminated, its split counting its lines; an error says
 * why; a gzip input read whole without error is not found corrupt or truncated by them.
 * And pasted_gunzip, which reads the gzip framing itself around ISA-L's raw inflate, gives
 * what zlib's own gzip mode gives: the same text, or the same error. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/pasted-dispatch.h"
#include "formats/pasted-gz-windows.h"
#include "formats/pasted-gzip.h"
#include "formats/pasted.h"
#include "vendor/lazy-isal.h"

#define CAP ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* zlib's own gzip mode (inflateInit2 16 + MAX_WBITS) over every member, as pasted-gzip.c used
 * it before it read the framing itself: 0 with the bytes inflated into *ret_n (compared at
 * most CAP + 1 of them), "corrupt", "truncated" or -ENOMEM. pasted_gunzip must agree. */
static int zlib_verdict(const uint8_t *data, size_t size, char *out, size_t *ret_n,
			const char **ret_what)
{
	z_stream z = { 0 };
	size_t n = 0;
	int zr = Z_OK;

	*ret_what = NULL;
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)size;
	for (;;) {
		z.next_out = (Bytef *)out + n;
		z.avail_out = (uInt)(CAP + 1 - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = (size_t)((char *)z.next_out - out);
		if (zr == Z_STREAM_END) {
			if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b &&
			    inflateReset(&z) == Z_OK)
				continue;
			break;
		}
		if (zr == Z_MEM_ERROR) {
			inflateEnd(&z);
			return -ENOMEM;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			*ret_what = "corrupt";
			break;
		}
		if (zr == Z_BUF_ERROR && z.avail_in == 0) {
			*ret_what = "truncated";
			break;
		}
		if (n == CAP + 1) /* past the cap: pasted_gunzip says so, whatever follows */
			break;
	}
	inflateEnd(&z);
	*ret_n = n;
	return 0;
}

/* ISA-L's inflate, as explain loads it (src/vendor/lazy-isal.h). */
static const struct isal_inflate_api *isal(void)
{
	const struct isal_inflate_api *api = NULL;
	const char *why = NULL;

	if (vendor_isal(&api, &why) < 0)
		abort();
	return api;
}

/* The windows of a gzip input: 0, or the error they end with (and *ret_why). */
static int windows(const char *data, size_t size, const char **ret_why)
{
	static struct pasted_dispatch d;
	static bool ready;
	struct pasted_gz_windows w;
	struct pasted_gz_window *win;
	const char *why = NULL;
	int r;

	if (!ready) {
		if (pasted_dispatch_init(&d, pasted_readers) < 0)
			abort();
		ready = true;
	}
	r = pasted_gz_windows_start(&w, isal(), data, size, &d, 0, NULL, false, &why);
	if (r < 0)
		abort(); /* pasted_gz_init took it */
	while ((r = pasted_gz_windows_next(&w, &win, &why)) >= 0 && !win->end && !win->utf16) {
		unsigned lines = 0;

		if (win->text[win->n] != '\0' ||
		    pasted_dispatch_split_finish(&d, win->text, win->n, &win->split) < 0)
			abort();
		for (size_t i = 0; i < win->n; i++)
			lines += win->text[i] == '\n';
		if (win->split.newlines != lines)
			abort();
	}
	if (r < 0 && r != -ENOMEM && !why)
		abort();
	pasted_gz_windows_done(&w);
	*ret_why = why;
	return r;
}

/* Does pasted_gunzip's answer (r, its text out[0..n) or why) match zlib's gzip mode's? The
 * gzip framing is read in pasted-gzip.c and the deflate data by ISA-L there, all by zlib here. */
static bool zlib_agrees(const uint8_t *data, size_t size, int r, const char *out, size_t n,
			const char *why)
{
	static char z[CAP + 1];
	const char *what;
	size_t zn = 0;

	if (r == -ENOMEM || zlib_verdict(data, size, z, &zn, &what) < 0)
		return true; /* out of memory, either: nothing to compare */
	if (what)	     /* the same error, or the cap met before it */
		return r == -EBADMSG ? strstr(why, what) != NULL : r == -EFBIG && zn > CAP;
	if (zn > CAP)
		return r == -EFBIG;
	return r == 0 && n == zn && memcmp(out, z, n) == 0;
}

/* Does the fallback where libisal cannot be loaded (no ISA-L table: zlib's inflate inside
 * pasted-gzip.c) give pasted_gunzip's answer with ISA-L, its text or its sentence? */
static bool fallback_agrees(const char *data, size_t size, int r, const char *out, size_t n,
			    const char *why)
{
	char *zout = NULL;
	size_t zn = 0;
	const char *zwhy = NULL;
	int zr = pasted_gunzip(NULL, data, size, CAP, &zout, &zn, &zwhy);
	bool same;

	if (zr == -ENOMEM || r == -ENOMEM)
		same = true;
	else if (zr < 0 || r < 0)
		same = zr == r && zwhy && why && strcmp(zwhy, why) == 0;
	else
		same = zn == n && memcmp(zout, out, n) == 0;
	if (zr == 0)
		free(zout);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t n = 0;
	const char *why = NULL, *wwhy = NULL;
	int r, w;

	if (!pasted_is_gzip((const char *)data, size))
		return 0;
	r = pasted_gunzip(isal(), (const char *)data, size, CAP, &out, &n, &why);
	if (zlib_agrees(data, size, r, out, n, why) == false)
		abort();
	if (!fallback_agrees((const char *)data, size, r, out, n, why))
		abort();
	w = windows((const char *)data, size, &wwhy);
	if (r == 0 && w < 0 && wwhy && strstr(wwhy, "gzip")) /* read whole, it was good gzip */
		abort();
	if (r < 0) {
		if (r != -ENOMEM && !why)
			abort();
		return 0;
	}
	if (n > CAP || out[n] != '\0')
		abort();
	free(out);
	return 0;
}
