// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The parse result: entries pushed and trimmed, warnings, the names of the enums, and one
 * entry header decoded (fatbin-internal.h, fatbin.c for the format).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

const char *fatbin_compression_name(enum fatbin_compression c)
{
	switch (c) {
	case FATBIN_COMPRESS_NONE:
		return "none";
	case FATBIN_COMPRESS_LZ4:
		return "lz4";
	case FATBIN_COMPRESS_ZSTD:
		return "zstd";
	default:
		return "unknown";
	}
}

const char *fatbin_kind_name(enum fatbin_kind k)
{
	switch (k) {
	case FATBIN_KIND_PTX:
		return "ptx";
	case FATBIN_KIND_ELF:
		return "sass";
	case FATBIN_KIND_OLDCUBIN:
		return "old-cubin";
	case FATBIN_KIND_LTO:
		return "lto-ir";
	default:
		return "unknown";
	}
}

const char *fatbin_file_type_name(enum fatbin_file_type t)
{
	switch (t) {
	case FATBIN_FILE_HOST_ELF:
		return "elf";
	case FATBIN_FILE_FATBIN:
		return "fatbin";
	case FATBIN_FILE_CUBIN:
		return "cubin";
	case FATBIN_FILE_PTX:
		return "ptx";
	case FATBIN_FILE_OFFLOAD_BUNDLE:
		return "offload-bundle";
	case FATBIN_FILE_AMDGPU_ELF:
		return "amdgpu-elf";
	default:
		return "unknown";
	}
}

int fatbin_set_warning(struct fatbin_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->warning)
		return 0; /* keep the first */
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->warning = s;
	return 0;
}

int fatbin_push_entry(struct fatbin_result *r, struct fatbin_entry **ret)
{
	struct fatbin_entry *n;

	if (r->n_entries + r->n_handed >= FATBIN_MAX_ENTRIES)
		return -E2BIG;
	/* capacity: 8, then doubled (files with 20 000+ entries exist) */
	if (r->n_entries >= r->cap_entries) {
		size_t cap = r->cap_entries ? r->cap_entries * 2 : 8;

		n = reallocarray(r->entries, cap, sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->entries = n;
		r->cap_entries = cap;
	}
	*ret = &r->entries[r->n_entries++];
	memset(*ret, 0, sizeof(**ret));
	(*ret)->ptx_major = (*ret)->ptx_minor = (*ret)->cubin_sm = (*ret)->has_kernels = -1;
	(*ret)->lto_major = (*ret)->lto_minor = -1;
	return 0;
}

void fatbin_truncate_entries(struct fatbin_result *r, size_t keep)
{
	for (size_t i = keep; i < r->n_entries; i++) {
		free(r->entries[i].ident);
		free(r->entries[i].options);
	}
	if (keep < r->n_entries)
		r->n_entries = keep;
}

/* Appends the decimal digits of v at p; returns the end. */
static char *put_uint(char *p, unsigned v)
{
	char d[10];
	size_t n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

void fatbin_entry_fill_target(struct fatbin_entry *e)
{
	const char *pfx = e->kind == FATBIN_KIND_PTX ? "compute_"
			  : e->kind == FATBIN_KIND_ELF || e->kind == FATBIN_KIND_OLDCUBIN ? "sm_"
			  : e->kind == FATBIN_KIND_LTO					  ? "lto_"
											  : "kind";
	char *p = e->target;

	/* what snprintf("%s%u%s") wrote, without its cost at 5 000+ entries a file: at most
	 * "compute_" + 5 digits + 1 (or "kind" + 5 + "_" + 5) < sizeof(target) */
	_Static_assert(sizeof(e->target) >= 16, "target holds the longest name");
	p = stpcpy(p, pfx);
	if (e->kind == FATBIN_KIND_UNKNOWN) {
		p = put_uint(p, e->raw_kind & 0xffff);
		*p++ = '_';
	}
	p = put_uint(p, e->arch % 100000);
	if (e->kind != FATBIN_KIND_UNKNOWN && e->variant)
		*p++ = e->variant;
	/* zero to the end: equal names compare equal as whole arrays (scan's target_index) */
	memset(p, 0, sizeof(e->target) - (size_t)(p - e->target));
}

/* A string stored inside the entry header at [off, off+len): copied (capped), trailing
 * NULs and blanks dropped; NULL when empty or out of range. */
static int header_string(const uint8_t *e, uint32_t hsz, uint32_t off, uint32_t len, char **ret)
{
	char *s;
	size_t n;

	*ret = NULL;
	if (off == 0 || len == 0 || !fatbin_range_ok(hsz, off, len))
		return 0;
	n = MIN((size_t)len, (size_t)FATBIN_MAX_STRING);
	while (n > 0 && (e[off + n - 1] == 0 || e[off + n - 1] == ' '))
		n--;
	if (n == 0)
		return 0;
	s = malloc(n + 1);
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = e[off + i];
		s[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	s[n] = '\0';
	*ret = s;
	return 0;
}

int fatbin_entry_decode(struct fatbin_entry *x, const uint8_t *e, uint32_t hsz, uint64_t psz,
			bool strings)
{
	uint32_t csize, optoff;
	int rv;

	x->raw_kind = fatbin_rd16(e);
	switch (x->raw_kind) {
	case FATBIN_KIND_PTX:
	case FATBIN_KIND_ELF:
	case FATBIN_KIND_OLDCUBIN:
	case FATBIN_KIND_LTO:
		x->kind = (enum fatbin_kind)x->raw_kind;
		break;
	default:
		x->kind = FATBIN_KIND_UNKNOWN;
	}
	x->header_size = hsz;
	x->stored_size = psz;
	x->ver_minor = fatbin_rd16(e + 0x18);
	x->ver_major = fatbin_rd16(e + 0x1a);
	x->arch = fatbin_rd32(e + 0x1c);
	x->flags = fatbin_rd64(e + 0x28);
	x->is64 = x->flags & FLAG_64BIT;
	x->debug = x->flags & FLAG_DEBUG;
	x->variant = (x->flags & FLAG_ARCH_A) ? 'a' : (x->flags & FLAG_ARCH_F) ? 'f' : 0;
	if (x->flags & FLAG_ZSTD)
		x->compression = FATBIN_COMPRESS_ZSTD;
	else if (x->flags & FLAG_LZ4)
		x->compression = FATBIN_COMPRESS_LZ4;
	else if (x->flags & FLAG_COMPRESS_OLD)
		x->compression = FATBIN_COMPRESS_OTHER;
	csize = fatbin_rd32(e + 0x10);
	if (x->compression) {
		if (csize > psz)
			return -EBADMSG;
		x->compressed_size = csize;
		x->uncompressed_size = fatbin_rd64(e + 0x38);
	} else {
		x->uncompressed_size = psz;
	}
	if (x->kind == FATBIN_KIND_PTX && x->ver_major > 0) {
		x->ptx_major = (int)x->ver_major;
		x->ptx_minor = (int)x->ver_minor;
	}
	/* LTO-IR: the header repeats the NVVM IR container's version (nvcc 13.0: 1.65), the
	 * one nvJitLink checks (docs/formats/fatbin.md §4) */
	x->lto_major = x->lto_minor = -1;
	if (x->kind == FATBIN_KIND_LTO && x->ver_major > 0) {
		x->lto_major = (int)x->ver_major;
		x->lto_minor = (int)x->ver_minor;
	}
	fatbin_entry_fill_target(x);
	if (!strings)
		return 0;
	/* identifier (0x20/0x24) and options descriptor (0x14 → {u32 off, u32 len}) */
	rv = header_string(e, hsz, fatbin_rd32(e + 0x20), fatbin_rd32(e + 0x24), &x->ident);
	if (rv < 0)
		return rv;
	optoff = fatbin_rd32(e + 0x14);
	if (optoff >= 0x40 && fatbin_range_ok(hsz, optoff, 8)) {
		rv = header_string(e, hsz, fatbin_rd32(e + optoff), fatbin_rd32(e + optoff + 4),
				   &x->options);
		if (rv < 0)
			return rv;
	}
	return 0;
}

struct fatbin_result *fatbin_result_free(struct fatbin_result *r)
{
	if (!r)
		return NULL;
	fatbin_truncate_entries(r, 0);
	free(r->entries);
	for (size_t i = 0; i < r->n_bundle_entries; i++)
		free(r->bundle_entries[i].id);
	free(r->bundle_entries);
	free(r->module_id);
	free(r->elsewhere_sections);
	free(r->warning);
	free(r);
	return NULL;
}
