// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: explain's gzip input (src/formats/pasted-gzip.c) on any bytes, under a
 * 1 MiB cap: what it accepts is NUL-terminated at the length it says, never past the cap; a
 * refusal says why. Then its windows (src/formats/pasted-gz-windows.c, made on a thread of
 * their own): they end, each NUL-terminated, its split counting its lines; an error says
 * why; a gzip input read whole without error is not found corrupt or truncated by them. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-dispatch.h"
#include "formats/pasted-gz-windows.h"
#include "formats/pasted-gzip.h"
#include "formats/pasted.h"

#define CAP ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	r = pasted_gz_windows_start(&w, data, size, &d, 0, NULL, &why);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t n = 0;
	const char *why = NULL, *wwhy = NULL;
	int r, w;

	if (!pasted_is_gzip((const char *)data, size))
		return 0;
	r = pasted_gunzip((const char *)data, size, CAP, &out, &n, &why);
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
