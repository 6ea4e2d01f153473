// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The `--target` string (target-spec.h): fields split at ',', each KEY=VALUE, checked one by
 * one so that an error points at its field and column.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "formats/target-spec.h"
#include "shared/macro.h"
#include "shared/parse.h"

static int fail(struct target_spec_error *err, unsigned field, size_t col, const char *fmt, ...)
	_printf_(4, 5);
static int fail(struct target_spec_error *err, unsigned field, size_t col, const char *fmt, ...)
{
	va_list ap;

	err->field = field;
	err->column = (unsigned)col + 1;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof(err->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* n digits and dots, starting and ending with a digit, no ".." */
static bool dotted(const char *v, size_t n, unsigned min_parts, unsigned max_parts)
{
	unsigned parts = 1;

	if (n == 0 || v[0] == '.' || v[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '.') {
			if (v[i - 1] == '.')
				return false;
			parts++;
		} else if (v[i] < '0' || v[i] > '9') {
			return false;
		}
	}
	return parts >= min_parts && parts <= max_parts;
}

static int hex4(const char *v, size_t n, uint16_t *ret)
{
	unsigned x = 0;

	if (n == 0 || n > 4)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int d = parse_hex_digit((unsigned char)v[i]);

		if (d < 0)
			return -EINVAL;
		x = x * 16 + (unsigned)d;
	}
	*ret = (uint16_t)x;
	return 0;
}

/* A GPU: "9.0" (CC), "10de:2335" / "0x2335" (PCI), else a name of printable ASCII. */
static int gpu_value(const char *v, size_t n, struct target_gpu *g, struct target_spec_error *err,
		     unsigned field, size_t col)
{
	const char *colon = memchr(v, ':', n);

	memset(g, 0, sizeof(*g));
	if (n >= sizeof(g->text))
		return fail(err, field, col, "gpu: longer than %u characters",
			    TARGET_SPEC_MAX_NAME - 1);
	memcpy(g->text, v, n);
	if (dotted(v, n, 2, 2)) {
		const char *dot = memchr(v, '.', n);

		if ((size_t)(dot - v) > 2 || n - (size_t)(dot - v) - 1 != 1)
			return fail(err, field, col,
				    "gpu: compute capability '%s' is not MAJOR.MINOR (9.0, 12.0)",
				    g->text);
		g->kind = TARGET_GPU_CC;
		g->cc_major = (unsigned)(v[0] - '0');
		if (dot - v == 2)
			g->cc_major = g->cc_major * 10 + (unsigned)(v[1] - '0');
		g->cc_minor = (unsigned)(dot[1] - '0');
		return 0;
	}
	if (colon) {
		size_t a = (size_t)(colon - v);

		if (hex4(v, a, &g->vendor) < 0 || hex4(colon + 1, n - a - 1, &g->device) < 0)
			return fail(err, field, col,
				    "gpu: PCI id '%s' is not VENDOR:DEVICE in hex (10de:2335)",
				    g->text);
		g->kind = TARGET_GPU_PCI;
		return 0;
	}
	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		if (hex4(v + 2, n - 2, &g->device) < 0)
			return fail(err, field, col,
				    "gpu: PCI device id '%s' is not 0x and 1-4 hex digits",
				    g->text);
		g->kind = TARGET_GPU_PCI;
		g->vendor = 0x10de;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || (unsigned char)v[i] >= 0x7f)
			return fail(err, field, col + i,
				    "gpu: a name is printable ASCII (byte 0x%02x)",
				    (unsigned char)v[i]);
	g->kind = TARGET_GPU_NAME;
	return 0;
}

int target_spec_parse(const char *s, size_t len, struct target_spec *ret,
		      struct target_spec_error *err)
{
	struct target_spec t;
	size_t pos = 0;
	unsigned field = 0;
	bool seen_driver = false, seen_compat = false, seen_brand = false;

	if (!s || !ret || !err)
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	memset(err, 0, sizeof(*err));
	if (len > TARGET_SPEC_MAX_LEN)
		return fail(err, 0, TARGET_SPEC_MAX_LEN, "longer than %u characters",
			    TARGET_SPEC_MAX_LEN);
	if (len == 0)
		return fail(err, 0, 0, "empty: expected gpu=NAME|PCI-ID|CC[,driver=VERSION]");
	while (pos <= len) {
		const char *f = s + pos, *comma = memchr(f, ',', len - pos), *eq;
		size_t flen = comma ? (size_t)(comma - f) : len - pos, klen, vlen;
		const char *v;

		field++;
		if (memchr(f, '\0', flen))
			return fail(err, field,
				    pos + (size_t)((const char *)memchr(f, '\0', flen) - f),
				    "a NUL byte");
		eq = memchr(f, '=', flen);
		if (flen == 0)
			return fail(err, field, pos, "empty field");
		if (!eq)
			return fail(err, field, pos, "'%.*s' is not KEY=VALUE", (int)MIN(flen, 40u),
				    f);
		klen = (size_t)(eq - f);
		v = eq + 1;
		vlen = flen - klen - 1;
		if (vlen == 0)
			return fail(err, field, pos + klen + 1, "%.*s: empty value",
				    (int)MIN(klen, 40u), f);
		if (klen == 3 && memcmp(f, "gpu", 3) == 0) {
			int r;

			if (t.n_gpus == TARGET_SPEC_MAX_GPUS)
				return fail(err, field, pos, "more than %u gpu fields",
					    TARGET_SPEC_MAX_GPUS);
			r = gpu_value(v, vlen, &t.gpus[t.n_gpus], err, field, pos + klen + 1);
			if (r < 0)
				return r;
			t.n_gpus++;
		} else if (klen == 6 && memcmp(f, "driver", 6) == 0) {
			if (seen_driver)
				return fail(err, field, pos, "driver given twice");
			if (vlen >= sizeof(t.driver) || !dotted(v, vlen, 1, 4))
				return fail(err, field, pos + klen + 1,
					    "driver: '%.*s' is not a driver version (550.54.15)",
					    (int)MIN(vlen, 40u), v);
			memcpy(t.driver, v, vlen);
			seen_driver = true;
		} else if (klen == 16 && memcmp(f, "host-cuda-compat", 16) == 0) {
			if (seen_compat)
				return fail(err, field, pos, "host-cuda-compat given twice");
			if (vlen >= sizeof(t.host_cuda_compat) || !dotted(v, vlen, 2, 3))
				return fail(err, field, pos + klen + 1,
					    "host-cuda-compat: '%.*s' is not a CUDA version (12.8)",
					    (int)MIN(vlen, 40u), v);
			memcpy(t.host_cuda_compat, v, vlen);
			seen_compat = true;
		} else if (klen == 5 && memcmp(f, "brand", 5) == 0) {
			if (seen_brand)
				return fail(err, field, pos, "brand given twice");
			if (vlen >= sizeof(t.brand))
				return fail(err, field, pos + klen + 1,
					    "brand: longer than %zu bytes", sizeof(t.brand) - 1);
			for (size_t i = 0; i < vlen; i++)
				if (!isalnum((unsigned char)v[i]) && v[i] != ' ' && v[i] != '-')
					return fail(err, field, pos + klen + 1 + i,
						    "brand: letters, digits, spaces and '-' only");
			memcpy(t.brand, v, vlen);
			seen_brand = true;
		} else {
			return fail(err, field, pos,
				    "unknown key '%.*s' (gpu, driver, brand, host-cuda-compat)",
				    (int)MIN(klen, 40u), f);
		}
		if (!comma)
			break;
		pos += flen + 1;
	}
	if (t.n_gpus == 0)
		return fail(err, 0, 0, "no gpu= field: a target names its GPUs");
	*ret = t;
	return 0;
}
