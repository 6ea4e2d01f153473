/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel-less device-link images among compressed cubins (src/fatbin/fatbin-container.c):
 * each distinct payload is decompressed once per parse and its answer reused for the same
 * bytes, never for other bytes of the same sizes, nor past the memo's cap; and the `a` flag
 * of an entry whose version says ELF ABI 8 stands without its head being read, while one of
 * ABI 7 is still read from the cubin. Formats: docs/formats/fatbin.md §4, §6, §9.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fatbin-test-util.h"
#include "fatbin/fatbin.h"
#include "formats/cudart-ident.h"

#define FLAGS_LZ4 0x2011u /* 64-bit, Linux, LZ4 block (§6) */

/*
 * p as one LZ4 block of literals only (lz4's doc/lz4_Block_format.md: a token whose high
 * nibble 15 says "more length bytes follow", each 255 adds 255 and the first smaller one
 * ends it; the last sequence has literals and no match): its compressed size is the same
 * for any two inputs of one length, so only the bytes tell two payloads apart.
 */
static struct buf lz4_literals(const uint8_t *p, size_t n)
{
	struct buf b = { 0 };
	uint8_t token = 0xf0, more;
	size_t left = n - 15;

	put(&b, &token, 1);
	for (; left >= 255; left -= 255) {
		more = 255;
		put(&b, &more, 1);
	}
	more = (uint8_t)left;
	put(&b, &more, 1);
	put(&b, p, n);
	return b;
}

/* A cubin whose one section is named name (7 characters: the cubins have one length), data
 * byte k making it differ from another of the same name. */
static struct buf cubin(const char *name, uint8_t k)
{
	uint8_t data[4] = { k, 0, 0, 0 };
	struct sec_spec secs[] = { { name, 1, 6, 0, data, sizeof(data) } };

	return make_elf(true, 190, 0x06005004, 8, secs, 1);
}

static void put_compressed(struct buf *b, const struct buf *elf)
{
	struct buf z = lz4_literals(elf->p, elf->len);

	put_entry(b, 2, 80, FLAGS_LZ4, 1, 8, z.p, z.len, (uint32_t)z.len, elf->len);
	free(z.p);
}

/* Stubs and kernels of one length, repeated in a container and across two: each entry gets
 * its own payload's answer (a memo keyed on sizes alone would give the kernels the stub's). */
static void test_same_sizes_other_bytes(void **state)
{
	struct buf stub = cubin(".nv.inf", 0), kern = cubin(".text.k", 0), b = { 0 };
	const struct buf *order[] = { &stub, &kern, &stub, &kern, &kern, &stub };
	struct fatbin_result *r;
	size_t second = 0;

	assert_int_equal(stub.len, kern.len);
	for (size_t i = 0; i < 6; i++) {
		if (i == 4) {
			close_container(&b, 0);
			second = b.len;
		}
		put_compressed(&b, order[i]);
	}
	close_container(&b, second);
	r = parse_ok(b.p, b.len, 0);
	assert_int_equal(r->n_containers, 2);
	assert_int_equal(r->n_entries, 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(r->entries[i].has_kernels, order[i] == &kern);
	fatbin_result_free(r);
	free(b.p);
	free(stub.p);
	free(kern.p);
}

/* More distinct payloads than the memo keeps (64), each twice: every answer right. */
static void test_past_the_memo(void **state)
{
	enum { N = 80 };
	struct buf b = { 0 };
	struct fatbin_result *r;

	for (unsigned round = 0; round < 2; round++)
		for (unsigned i = 0; i < N; i++) {
			struct buf c = cubin(i % 3 ? ".nv.inf" : ".text.k", (uint8_t)i);

			put_compressed(&b, &c);
			free(c.p);
		}
	close_container(&b, 0);
	r = parse_ok(b.p, b.len, 0);
	assert_int_equal(r->n_entries, 2 * N);
	for (size_t i = 0; i < 2 * N; i++)
		assert_int_equal(r->entries[i].has_kernels, (i % N) % 3 == 0);
	fatbin_result_free(r);
	free(b.p);
}

/* The `a` flag on a compressed sm_50 cubin without EF_CUDA_ACCELERATORS (cuBLAS 11.8): the
 * entry of version 1.7 is read and loses it; one of version 1.8 (ABI 8, where the flag
 * stands) keeps it, its head not needed. */
static void test_a_flag_by_entry_version(void **state)
{
	struct sec_spec secs[] = { { ".text.k", 1, 6, 0, "\0\0\0\0", 4 } };
	struct buf c7 = make_elf(true, 190, 0x00320432, 7, secs, 1);
	struct buf c8 = make_elf(true, 190, 0x06003204, 8, secs, 1);
	struct buf z7 = lz4_literals(c7.p, c7.len), z8 = lz4_literals(c8.p, c8.len), b = { 0 };
	struct fatbin_result *r;

	put_entry(&b, 2, 50, 0x100000u | FLAGS_LZ4, 1, 7, z7.p, z7.len, (uint32_t)z7.len, c7.len);
	put_entry(&b, 2, 50, 0x100000u | FLAGS_LZ4, 1, 8, z8.p, z8.len, (uint32_t)z8.len, c8.len);
	close_container(&b, 0);
	for (unsigned heads = 0; heads < 2; heads++) {
		r = parse_ok(b.p, b.len, heads ? FATBIN_PARSE_PAYLOAD_HEADS : 0);
		assert_int_equal(r->n_entries, 2);
		assert_string_equal(r->entries[0].target, "sm_50");
		assert_string_equal(r->entries[1].target, "sm_50a");
		fatbin_result_free(r);
	}
	free(b.p);
	free(z7.p);
	free(z8.p);
	free(c7.p);
	free(c8.p);
}

/* The toolkit line of the first compressed cubin decompressed that has one is kept: where
 * every cubin is compressed, the scanner's only word on the bundled runtime's CUDA. */
static void test_toolkit_line(void **state)
{
	static const char line[] = "Cuda compilation tools, release 12.8, V12.8.93\0Build cuda";
	struct sec_spec none[] = { { ".text.k", 1, 6, 0, "\0\0\0\0", 4 } };
	struct sec_spec with[] = { { ".text.k", 1, 6, 0, "\0\0\0\0", 4 },
				   { ".note.nv.tkinfo", 7, 0, 0, line, sizeof(line) } };
	struct buf c0 = make_elf(true, 190, 0x06005004, 8, none, 1);
	struct buf c1 = make_elf(true, 190, 0x06005004, 8, with, 2), b = { 0 };
	struct fatbin_result *r;
	char release[16] = "";

	put_compressed(&b, &c0);
	close_container(&b, 0);
	r = parse_ok(b.p, b.len, 0);
	assert_int_equal(r->toolkit_line_len, 0); /* none in c0 */
	fatbin_result_free(r);
	free(b.p);
	b = (struct buf){ 0 };
	put_compressed(&b, &c0);
	put_compressed(&b, &c1);
	close_container(&b, 0);
	r = parse_ok(b.p, b.len, 0);
	assert_true(r->toolkit_line_len > 40);
	cudart_ident_release(r->toolkit_line, r->toolkit_line_len, release, sizeof(release));
	assert_string_equal(release, "12.8");
	fatbin_result_free(r);
	free(b.p);
	free(c0.p);
	free(c1.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_sizes_other_bytes),
		cmocka_unit_test(test_past_the_memo),
		cmocka_unit_test(test_a_flag_by_entry_version),
		cmocka_unit_test(test_toolkit_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
