/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin over hand-built clang offload bundles (the uncompressed
 * __CLANG_OFFLOAD_BUNDLE__ and the compressed CCOB forms) and AMD GPU code objects (ELF
 * EM_AMDGPU with its e_flags target features), in memory and streamed. Formats:
 * docs/formats/fatbin.md.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include <cmocka.h>

#include "fatbin-test-util.h"
#include "fatbin/fatbin.h"

static struct buf make_bundle(const char *const *ids, size_t n)
{
	struct buf b = { 0 };
	size_t table = 24 + 8, data;

	for (size_t i = 0; i < n; i++)
		table += 24 + strlen(ids[i]);
	data = (table + 4095) & ~(size_t)4095;
	put(&b, "__CLANG_OFFLOAD_BUNDLE__", 24);
	put_u64(&b, n);
	for (size_t i = 0; i < n; i++) {
		put_u64(&b, i == 0 ? data : data + 16 * i);
		put_u64(&b, i == 0 ? 0 : 16);
		put_u64(&b, strlen(ids[i]));
		put(&b, ids[i], strlen(ids[i]));
	}
	put(&b, NULL, data + 16 * n - b.len);
	return b;
}

/* p fed to the stream scanner in chunks of `chunk` bytes. */
static struct fatbin_result *stream(const uint8_t *p, size_t len, size_t chunk)
{
	struct fatbin_stream *st;
	struct fatbin_result *r;

	assert_int_equal(fatbin_stream_new(&st), 0);
	for (size_t at = 0; at < len; at += chunk)
		assert_int_equal(
			fatbin_stream_feed(st, p + at, chunk < len - at ? chunk : len - at), 0);
	assert_int_equal(fatbin_stream_finish(st, &r), 0);
	return r;
}

/* A CCOB bundle cut before its end: no entries, and a warning. */
static void sr_cut(const uint8_t *p, size_t len)
{
	struct fatbin_result *r = stream(p, len, 4096);

	assert_int_equal(r->n_bundle_entries, 0);
	assert_int_equal(r->n_bundles, 0);
	assert_int_equal(r->n_bundles_compressed, 0);
	assert_non_null(strstr(r->warning, "stream ended inside the compressed offload bundle"));
	fatbin_result_free(r);
}

static void test_offload_bundle(void **state)
{
	static const char *const ids[] = {
		"host-x86_64-unknown-linux-gnu-",
		"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
		"hipv4-amdgcn-amd-amdhsa--gfx1100",
		"hip-amdgcn-amd-amdhsa-gfx906",
	};
	struct buf b = make_bundle(ids, 4);
	struct fatbin_result *r = parse_ok(b.p, b.len, 0);
	struct fatbin_bundle_entry *e;

	assert_int_equal(r->type, FATBIN_FILE_OFFLOAD_BUNDLE);
	assert_int_equal(r->n_bundle_entries, 4);
	e = r->bundle_entries;
	assert_string_equal(e[0].kind, "host");
	assert_string_equal(e[0].triple, "x86_64-unknown-linux-gnu");
	assert_string_equal(e[0].target, "");
	assert_string_equal(e[1].kind, "hipv4");
	assert_string_equal(e[1].triple, "amdgcn-amd-amdhsa-");
	assert_string_equal(e[1].target, "gfx90a:sramecc+:xnack-");
	assert_string_equal(e[1].gfx, "gfx90a");
	assert_int_equal(e[1].sramecc, 1);
	assert_int_equal(e[1].xnack, 0);
	assert_string_equal(e[2].gfx, "gfx1100");
	assert_int_equal(e[2].xnack, -1);
	assert_string_equal(e[3].kind, "hip");
	assert_string_equal(e[3].triple, "amdgcn-amd-amdhsa");
	assert_string_equal(e[3].gfx, "gfx906");
	fatbin_result_free(r);

	/* CCOB v2 (zstd) and v3 (zlib) around the same bundle */
	for (int v = 2; v <= 3; v++) {
		struct buf c = { 0 };
		uint8_t hdr[32] = { 0 };
		size_t hl = v == 2 ? 24 : 32, cap = b.len + 1024, cn;
		uint8_t *z = malloc(cap);

		if (v == 2) {
			cn = ZSTD_compress(z, cap, b.p, b.len, 3);
			assert_false(ZSTD_isError(cn));
		} else {
			uLongf zl = cap;
			assert_int_equal(compress2(z, &zl, b.p, b.len, 6), Z_OK);
			cn = zl;
		}
		memcpy(hdr, "CCOB", 4);
		w16(hdr + 4, (uint16_t)v);
		w16(hdr + 6, v == 2 ? 1 : 0);
		if (v == 2) {
			w32(hdr + 8, (uint32_t)(hl + cn));
			w32(hdr + 12, (uint32_t)b.len);
		} else {
			w64(hdr + 8, hl + cn);
			w64(hdr + 16, b.len);
		}
		put(&c, hdr, hl);
		put(&c, z, cn);
		r = parse_ok(c.p, c.len, 0);
		assert_int_equal(r->n_bundles_compressed, 1);
		assert_int_equal(r->n_bundle_entries, 4);
		assert_string_equal(r->bundle_entries[1].gfx, "gfx90a");
		/* streamed (fatbin-stream-ccob.c) after other bytes with a stray "CCOB", in
		 * chunks of every size: the same entries */
		{
			static const size_t chunks[] = { 1, 5, 33, 4096, 1 << 20 };
			struct buf in = { 0 };

			put(&in,
			    "CCOBCC\x01\x00\x09\x00"
			    "CCO",
			    13);
			put(&in, c.p, c.len);
			put(&in, NULL, 100);
			for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
				struct fatbin_result *sr = stream(in.p, in.len, chunks[k]);

				assert_int_equal(sr->n_bundles_compressed, 1);
				assert_int_equal(sr->n_bundles, 1);
				assert_int_equal(sr->n_bundle_entries, 4);
				for (size_t i = 0; i < 4; i++)
					assert_string_equal(sr->bundle_entries[i].id,
							    r->bundle_entries[i].id);
				assert_null(sr->warning);
				fatbin_result_free(sr);
			}
			/* the bundle ends the stream: kept (fuzz-offload-bundle found this one) */
			{
				struct fatbin_result *sr = stream(c.p, c.len, c.len);

				assert_int_equal(sr->n_bundle_entries, 4);
				assert_null(sr->warning);
				fatbin_result_free(sr);
			}
			/* the stream ends before the file size the header gives: not kept */
			sr_cut(c.p, c.len - 1);
			free(in.p);
		}
		fatbin_result_free(r);
		/* unknown method, unknown version, file size past the end */
		w16(c.p + 6, 7);
		parse_bad(c.p, c.len, -EPROTONOSUPPORT);
		w16(c.p + 6, v == 2 ? 1 : 0);
		w16(c.p + 4, 9);
		parse_bad(c.p, c.len, -EPROTONOSUPPORT);
		w16(c.p + 4, (uint16_t)v);
		parse_bad(c.p, c.len - 1, -EBADMSG);
		free(c.p);
		free(z);
	}
	/* a bundle in a host ELF's .hip_fatbin */
	{
		struct sec_spec secs[] = { { ".hip_fatbin", 1, 2, 0x4000, b.p, b.len } };
		struct buf el = make_elf(true, 62, 0, 0, secs, 1);

		r = parse_ok(el.p, el.len, 0);
		assert_int_equal(r->n_bundles, 1);
		assert_int_equal(r->n_bundle_entries, 4);
		fatbin_result_free(r);
		free(el.p);
	}
	/* malformed: huge count, entry past the end, id past the end */
	w64(b.p + 24, (uint64_t)1 << 40);
	parse_bad(b.p, b.len, -EBADMSG);
	w64(b.p + 24, 4);
	w64(b.p + 32 + 8, (uint64_t)1 << 40); /* size of entry 0 */
	parse_bad(b.p, b.len, -EBADMSG);
	w64(b.p + 32 + 8, 0);
	w64(b.p + 32 + 16, 100000); /* id length */
	parse_bad(b.p, b.len, -EBADMSG);
	free(b.p);
}

static void test_amdgpu_elf(void **state)
{
	/* gfx942, code object v5 (ABI 3), xnack off (0x200), sramecc on (0xc00) */
	struct buf el = make_elf(true, 224, 0x4c | 0x200 | 0xc00, 3, NULL, 0);
	struct fatbin_result *r = parse_ok(el.p, el.len, 0);

	assert_int_equal(r->type, FATBIN_FILE_AMDGPU_ELF);
	assert_string_equal(r->bundle_entries[0].target, "gfx942:sramecc+:xnack-");
	fatbin_result_free(r);
	free(el.p);
}

/* A bundle of AMDGPU code objects (make_elf(): real ELF64 headers with EM_AMDGPU and e_flags)
 * for ids[1..n-1] and an empty host entry ids[0], code objects 4096-aligned as clang writes. */
static struct buf make_code_bundle(const char *const *ids, const uint32_t *flags, size_t n)
{
	struct buf b = { 0 }, el[8];
	size_t table = 24 + 8, at;

	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++)
		table += 24 + strlen(ids[i]);
	at = (table + 4095) & ~(size_t)4095;
	put(&b, "__CLANG_OFFLOAD_BUNDLE__", 24);
	put_u64(&b, n);
	for (size_t i = 0; i < n; i++) {
		el[i] = i ? make_elf(true, 224, flags[i], 2, NULL, 0) : (struct buf){ 0 };
		put_u64(&b, i ? at : 0);
		put_u64(&b, el[i].len);
		put_u64(&b, strlen(ids[i]));
		put(&b, ids[i], strlen(ids[i]));
		at += (el[i].len + 4095) & ~(size_t)4095;
	}
	for (size_t i = 1; i < n; i++) {
		put(&b, NULL, ((b.len + 4095) & ~(size_t)4095) - b.len);
		put(&b, el[i].p, el[i].len);
		free(el[i].p);
	}
	return b;
}

/* fatbin-stream-bundle.c: the bundle inside other bytes (a host library), read from a stream
 * in chunks of every size, the magic split anywhere, gives the in-memory parse's entries;
 * each code object's ELF header is checked against its id. */
static void test_stream_bundle(void **state)
{
	static const char *const ids[] = {
		"host-x86_64-unknown-linux-gnu-",
		"hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
		"hipv4-amdgcn-amd-amdhsa--gfx1100",
	};
	/* gfx90a (0x3f) sramecc on (0xc00) xnack off (0x200); gfx1100 (0x41) xnack and sramecc
	 * unsupported */
	static const uint32_t flags[] = { 0, 0x3f | 0xc00 | 0x200, 0x41 };
	static const size_t chunks[] = { 1, 3, 23, 24, 25, 4096, 1 << 20 };
	struct buf bundle = make_code_bundle(ids, flags, 3), in = { 0 };
	struct fatbin_result *mem = calloc(1, sizeof(*mem)), *r;
	uint8_t *last; /* the ELF header of the last code object */

	assert_non_null(mem);
	assert_int_equal(fatbin_bundle_parse(mem, bundle.p, bundle.len, NULL), 0);
	last = bundle.p + mem->bundle_entries[2].offset;
	put(&in, "\177ELF__CLANG_OFFLOAD_BUND __CLANG", 32); /* near misses */
	put(&in, NULL, 1000);
	put(&in, bundle.p, bundle.len);
	put(&in, "__CLANG_OFFLOAD_BUNDLE__", 24); /* a magic in a string table: count 0 */
	put(&in, NULL, 64);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		r = stream(in.p, in.len, chunks[c]);
		assert_int_equal(r->n_bundles, 1);
		assert_int_equal(r->n_bundle_entries, 3);
		for (size_t i = 0; i < 3; i++) {
			assert_string_equal(r->bundle_entries[i].id, mem->bundle_entries[i].id);
			assert_string_equal(r->bundle_entries[i].target,
					    mem->bundle_entries[i].target);
			assert_int_equal(r->bundle_entries[i].offset,
					 mem->bundle_entries[i].offset);
		}
		assert_null(r->warning);
		fatbin_result_free(r);
	}
	fatbin_result_free(mem);

	/* the stream ends inside the last code object: the bundle is not kept */
	r = stream(bundle.p, bundle.len - 1, 4096);
	assert_int_equal(r->n_bundle_entries, 0);
	assert_non_null(strstr(r->warning, "stream ended inside the offload bundle at 0x0"));
	fatbin_result_free(r);
	/* a header that disagrees with the id is reported, the id kept */
	memcpy(last + 48, "\x3f\x0c", 2); /* gfx1100's object: gfx90a */
	r = stream(bundle.p, bundle.len, 7);
	assert_int_equal(r->n_bundle_entries, 3);
	assert_string_equal(r->bundle_entries[2].target, "gfx1100");
	assert_non_null(strstr(r->warning, "entry hipv4-amdgcn-amd-amdhsa--gfx1100 holds code for "
					   "gfx90a:sramecc+"));
	fatbin_result_free(r);
	/* an AMDGPU entry whose code object is not an AMDGPU ELF file: no bundle */
	last[18] = 62; /* EM_X86_64 */
	r = stream(bundle.p, bundle.len, 4096);
	assert_int_equal(r->n_bundles, 0);
	assert_int_equal(r->n_bundle_entries, 0);
	assert_non_null(strstr(r->warning, "is not an AMDGPU ELF file"));
	fatbin_result_free(r);
	free(bundle.p);
	free(in.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offload_bundle),
		cmocka_unit_test(test_amdgpu_elf),
		cmocka_unit_test(test_stream_bundle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
