/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AMD clang offload bundles over (ptr, len): the uncompressed layout (24-byte magic
 * "__CLANG_OFFLOAD_BUNDLE__", u64 entry count, then per entry u64 offset, u64 size, u64 id
 * length and the id) and the compressed "CCOB" header (u16 version, u16 method — zlib 0,
 * zstd 1 — then v1: u32 uncompressed size, u64 hash (20 bytes in all); v2: u32 file size,
 * u32 uncompressed size, u64 hash (24); v3: u64 file size, u64 uncompressed size, u64 hash
 * (32)), whose payload head is
 * decompressed only as far as the entry table. Entry ids are
 * `<kind>-<arch>-<vendor>-<os>-<env>[-<target id>]`, target id = processor plus
 * `:feature+`/`:feature-` (sramecc, xnack). Formats: llvm/llvm-project
 * clang/docs/ClangOffloadBundler.rst and clang/include/clang/Driver/OffloadBundler.h
 * (CompressedOffloadBundle); summary in docs/formats/fatbin.md §12.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "fatbin/fatbin.h"
#include "shared/macro.h"

#define BUNDLE_MAGIC	 "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24

static void copy_field(char *dst, size_t dlen, const char *s, size_t n)
{
	n = MIN(n, dlen - 1);
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int fatbin_bundle_id_parse(const char *id, size_t len, struct fatbin_bundle_entry *e)
{
	const char *dash[5];
	size_t nd = 0;
	const char *rest = NULL;

	if (!id || len == 0)
		return -EBADMSG;
	for (size_t i = 0; i < len && nd < 5; i++) {
		if (id[i] == '\0')
			return -EBADMSG;
		if (id[i] == '-')
			dash[nd++] = id + i;
	}
	e->xnack = e->sramecc = -1;
	if (nd == 0) {
		copy_field(e->kind, sizeof(e->kind), id, len);
		return 0;
	}
	copy_field(e->kind, sizeof(e->kind), id, (size_t)(dash[0] - id));
	/* a 4-component triple (arch-vendor-os-env, env possibly empty), then the target id;
	 * older ids used 3 components ("hip-amdgcn-amd-amdhsa-gfx906") */
	if (nd >= 4 && id + len - (dash[3] + 1) >= 3 && memcmp(dash[3] + 1, "gfx", 3) == 0) {
		copy_field(e->triple, sizeof(e->triple), dash[0] + 1,
			   (size_t)(dash[3] - dash[0] - 1));
		rest = dash[3] + 1;
	} else if (nd >= 5) {
		copy_field(e->triple, sizeof(e->triple), dash[0] + 1,
			   (size_t)(dash[4] - dash[0] - 1));
		rest = dash[4] + 1;
	} else {
		copy_field(e->triple, sizeof(e->triple), dash[0] + 1,
			   (size_t)(id + len - dash[0] - 1));
	}
	if (!rest || rest >= id + len)
		return 0;
	copy_field(e->target, sizeof(e->target), rest, (size_t)(id + len - rest));
	copy_field(e->gfx, sizeof(e->gfx), rest, strcspn(e->target, ":"));
	for (const char *f = strchr(e->target, ':'); f; f = strchr(f + 1, ':')) {
		size_t fl = strcspn(f + 1, ":");
		char sign;

		if (fl < 2)
			continue;
		sign = f[fl];
		if (sign != '+' && sign != '-')
			continue;
		if (fl - 1 == 7 && strncmp(f + 1, "sramecc", 7) == 0)
			e->sramecc = sign == '+';
		else if (fl - 1 == 5 && strncmp(f + 1, "xnack", 5) == 0)
			e->xnack = sign == '+';
	}
	return 0;
}

int fatbin_bundle_add_entry(struct fatbin_result *r, const char *id, size_t idlen, uint64_t off,
			    uint64_t size, unsigned bundle)
{
	struct fatbin_bundle_entry *v, *e;

	v = reallocarray(r->bundle_entries, r->n_bundle_entries + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->bundle_entries = v;
	e = &v[r->n_bundle_entries];
	memset(e, 0, sizeof(*e));
	e->id = strndup(id, idlen);
	if (!e->id)
		return -ENOMEM;
	r->n_bundle_entries++;
	e->offset = off;
	e->size = size;
	e->bundle = bundle;
	return fatbin_bundle_id_parse(e->id, strlen(e->id), e);
}

void fatbin_bundle_drop_entries(struct fatbin_result *r, size_t keep)
{
	for (size_t i = keep; i < r->n_bundle_entries; i++)
		free(r->bundle_entries[i].id);
	r->n_bundle_entries = MIN(keep, r->n_bundle_entries);
}

/* The entry table of an uncompressed bundle at p (len bytes available; full_len = the
 * bundle's real length when p is only a decompressed head). */
static int parse_plain(struct fatbin_result *r, const uint8_t *p, size_t len, size_t *ret_size,
		       bool head_only)
{
	uint64_t n, pos = BUNDLE_MAGIC_LEN + 8, span = 0;
	unsigned bundle = (unsigned)r->n_bundles;
	size_t first = r->n_bundle_entries;

	if (len < BUNDLE_MAGIC_LEN + 8 || memcmp(p, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN) != 0)
		return -EBADMSG;
	n = fatbin_rd64(p + BUNDLE_MAGIC_LEN);
	if (n == 0 || n > FATBIN_MAX_BUNDLE_ENTRIES ||
	    r->n_bundle_entries + n > FATBIN_MAX_BUNDLE_ENTRIES)
		return -EBADMSG;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t off, size, idlen;
		int rv;

		if (!fatbin_range_ok(len, pos, 24)) {
			if (head_only)
				break;
			goto bad;
		}
		off = fatbin_rd64(p + pos);
		size = fatbin_rd64(p + pos + 8);
		idlen = fatbin_rd64(p + pos + 16);
		if (idlen == 0 || idlen > FATBIN_BUNDLE_ID_MAX ||
		    !fatbin_range_ok(len, pos + 24, idlen)) {
			if (head_only && idlen <= FATBIN_BUNDLE_ID_MAX)
				break;
			goto bad;
		}
		if (!head_only && !fatbin_range_ok(len, off, size))
			goto bad;
		rv = fatbin_bundle_add_entry(r, (const char *)p + pos + 24, (size_t)idlen, off,
					     size, bundle);
		if (rv == -ENOMEM)
			return rv;
		if (rv < 0)
			goto bad;
		if (off + size > span)
			span = off + size;
		pos += 24 + idlen;
	}
	r->n_bundles++;
	if (ret_size)
		*ret_size = (size_t)span;
	return 0;
bad:
	fatbin_bundle_drop_entries(r, first);
	return -EBADMSG;
}

static ssize_t inflate_head(int method, const uint8_t *src, size_t slen, uint8_t *dst, size_t want)
{
	if (method == 1) {
		ZSTD_DStream *ds;
		ZSTD_inBuffer in = { src, slen, 0 };
		ZSTD_outBuffer out = { dst, want, 0 };
		ssize_t rv = 0;

		if (!fatbin_zstd_frame_ok(src, slen))
			return -EBADMSG;
		ds = ZSTD_createDStream();
		if (!ds)
			return -ENOMEM;
		while (out.pos < out.size && in.pos < in.size) {
			size_t z = ZSTD_decompressStream(ds, &out, &in);

			if (ZSTD_isError(z)) {
				rv = -EBADMSG;
				break;
			}
			if (z == 0)
				break;
		}
		ZSTD_freeDStream(ds);
		return rv < 0 && out.pos == 0 ? rv : (ssize_t)out.pos;
	}
	if (method == 0) {
		z_stream zs = { 0 };
		int z;

		if (inflateInit(&zs) != Z_OK)
			return -ENOMEM;
		zs.next_in = (Bytef *)(uintptr_t)src;
		zs.avail_in = (uInt)MIN(slen, (size_t)UINT32_MAX);
		zs.next_out = dst;
		zs.avail_out = (uInt)want;
		z = inflate(&zs, Z_SYNC_FLUSH);
		inflateEnd(&zs);
		if (z != Z_OK && z != Z_STREAM_END && z != Z_BUF_ERROR)
			return -EBADMSG;
		return (ssize_t)(want - zs.avail_out);
	}
	return -EOPNOTSUPP;
}

static int parse_ccob(struct fatbin_result *r, const uint8_t *p, size_t len, size_t *ret_size)
{
	uint16_t version, method;
	uint64_t fsize = 0, usize;
	size_t hdr;
	_cleanup_free_ uint8_t *head = NULL;
	ssize_t got;
	int rv;

	if (len < 8 || memcmp(p, "CCOB", 4) != 0)
		return -EBADMSG;
	version = fatbin_rd16(p + 4);
	method = fatbin_rd16(p + 6);
	switch (version) {
	case 1:
		hdr = 20;
		if (len < hdr)
			return -EBADMSG;
		usize = fatbin_rd32(p + 8);
		break;
	case 2:
		hdr = 24;
		if (len < hdr)
			return -EBADMSG;
		fsize = fatbin_rd32(p + 8);
		usize = fatbin_rd32(p + 12);
		break;
	case 3:
		hdr = 32;
		if (len < hdr)
			return -EBADMSG;
		fsize = fatbin_rd64(p + 8);
		usize = fatbin_rd64(p + 16);
		break;
	default:
		fatbin_set_warning(r, "compressed offload bundle version %u not known", version);
		return -EPROTONOSUPPORT;
	}
	if (fsize && (fsize < hdr || fsize > len))
		return -EBADMSG;
	r->n_bundles_compressed++;
	if (ret_size)
		*ret_size = (size_t)fsize;
	if (usize == 0)
		return -EBADMSG;
	head = malloc(MIN(usize, (uint64_t)FATBIN_CCOB_HEAD_MAX));
	if (!head)
		return -ENOMEM;
	got = inflate_head(method, p + hdr, (fsize ? fsize : len) - hdr, head,
			   (size_t)MIN(usize, (uint64_t)FATBIN_CCOB_HEAD_MAX));
	if (got == -EOPNOTSUPP) {
		fatbin_set_warning(r, "compressed offload bundle: compression method %u not known",
				   method);
		return -EPROTONOSUPPORT;
	}
	if (got < 0)
		return (int)got;
	rv = parse_plain(r, head, (size_t)got, NULL, (uint64_t)got < usize);
	return rv;
}

int fatbin_bundle_parse_head(struct fatbin_result *r, const uint8_t *p, size_t len, bool partial)
{
	return parse_plain(r, p, len, NULL, partial);
}

int fatbin_bundle_parse(struct fatbin_result *r, const uint8_t *p, size_t len, size_t *ret_size)
{
	if (!r || !p)
		return -EINVAL;
	if (len >= 4 && memcmp(p, "CCOB", 4) == 0)
		return parse_ccob(r, p, len, ret_size);
	return parse_plain(r, p, len, ret_size, false);
}
