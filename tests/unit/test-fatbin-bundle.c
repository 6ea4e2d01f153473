/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin over hand-built clang offload bundles (the uncompressed
 * __CLANG_OFFLOAD_BUNDLE__ and the compressed CCOB forms) and AMD GPU code objects (ELF
 * EM_AMDGPU with its e_flags target features). Formats: docs/formats/fatbin.md.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offload_bundle),
		cmocka_unit_test(test_amdgpu_elf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
