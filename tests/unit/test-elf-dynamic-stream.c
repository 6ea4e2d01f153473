/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/elf-dynamic-stream.c: the streamed read says what the whole-file
 * parse says, handed out in chunks of 1 byte to 1 MiB, on the seed ELF files, the system's
 * own shared objects, the nvcc-built CUDA runtime when installed, every truncation of a
 * seed, and hostile dynamic sections (offsets past the end, a huge DT_STRSZ, PT_DYNAMIC past
 * the end, a thousand DT_NEEDED strings that overlap); and it reads the file only as often as
 * its stages need, in time linear in its size.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "formats/elf-dynamic-stream.h"
#include "formats/elf-stream.h"
#include "shared/macro.h"
#include "../fuzz/elf-stream-source.h"
#include "tmptree.h"

#define CORPUS GPUENV_TEST_SOURCE_ROOT "/tests/fuzz/corpus/elf-dynamic/"

/* Both reads of p[0..len) agree, at every chunk size; returns the whole-file parse's code. */
static int agree(const uint8_t *p, size_t len)
{
	static const size_t chunks[] = { 1, 7, 4096, 65536, 1 << 20 };
	struct elf_dynamic *whole = NULL;
	int a = elf_dynamic_parse(p, len, &whole);

	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		struct buffer b = { .p = p, .len = len, .chunk = chunks[i] };
		struct elf_dynamic *streamed = NULL;

		if (len > 1 << 16 && chunks[i] < 4096)
			continue; /* byte by byte through a whole library: slow, nothing new */
		assert_int_equal(
			elf_dynamic_parse_stream(from_buffer, &b, len ? len : 1, &streamed), a);
		assert_in_range(b.passes, 1, ELF_STREAM_MAX_PASSES);
		if (a == 0) {
			assert_true(elf_dynamic_same(whole, streamed));
			elf_dynamic_free(streamed);
		}
	}
	elf_dynamic_free(whole);
	return a;
}

static int agree_file(const char *path)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(path, &len);
	int r;

	assert_non_null(buf);
	r = agree(buf, len);
	free(buf);
	return r;
}

static void test_seeds(void **state)
{
	static const char *const seeds[] = {
		"bogus-runpath-offset.so", "elf32-i386.so", "rpath-two-dirs.so",
		"runpath-origin.so",	   "static-exe",    "truncated-header.so"
	};
	char path[4096];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		snprintf(path, sizeof(path), "%s%s", CORPUS, seeds[i]);
		(void)agree_file(path);
	}
}

/* The system's own libraries and the CUDA runtime (nvcc's), where they are. */
static void test_real_libraries(void **state)
{
	static const char *const libs[] = {
		"/lib/x86_64-linux-gnu/libc.so.6",	  "/lib/x86_64-linux-gnu/libelf.so.1",
		"/lib/x86_64-linux-gnu/libstdc++.so.6",	  "/lib/aarch64-linux-gnu/libc.so.6",
		"/usr/local/cuda/lib64/libcudart.so",	  "/usr/local/cuda/lib64/libnvrtc.so",
		"/usr/local/cuda/lib64/stubs/libcuda.so",
	};
	unsigned found = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(libs); i++) {
		if (access(libs[i], R_OK) != 0)
			continue;
		assert_int_equal(agree_file(libs[i]), 0);
		found++;
	}
	if (found == 0)
		printf("SKIP real libraries: none of the system's or CUDA's libraries found\n");
}

static void test_truncations(void **state)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(CORPUS "runpath-origin.so", &len);

	(void)state;
	assert_non_null(buf);
	for (size_t n = 0; n <= len; n += n < 128 ? 1 : 61)
		(void)agree(buf, n);
	free(buf);
}

/* The first PT_DYNAMIC of a 64-bit little-endian file, and its entries. */
static Elf64_Dyn *dynamic_of(uint8_t *buf, size_t len, size_t *n)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;

	assert_true(len >= sizeof(*eh) && eh->e_ident[EI_CLASS] == ELFCLASS64);
	for (size_t i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + eh->e_phoff + i * sizeof(Elf64_Phdr));

		if (ph->p_type == PT_DYNAMIC) {
			*n = ph->p_filesz / sizeof(Elf64_Dyn);
			return (Elf64_Dyn *)(buf + ph->p_offset);
		}
	}
	fail();
	return NULL;
}

static void patch_and_agree(const uint8_t *orig, size_t len, Elf64_Sxword tag, Elf64_Xword val)
{
	uint8_t *buf = malloc(len);
	size_t n = 0; /* fail() returns under GCC -O3's view: set on every path */
	Elf64_Dyn *dyn;

	assert_non_null(buf);
	memcpy(buf, orig, len);
	dyn = dynamic_of(buf, len, &n);
	for (size_t i = 0; i < n; i++)
		if (dyn[i].d_tag == tag)
			dyn[i].d_un.d_val = val;
	assert_int_equal(agree(buf, len), 0);
	free(buf);
}

static void test_hostile(void **state)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(CORPUS "runpath-origin.so", &len);
	Elf64_Ehdr *eh;

	(void)state;
	assert_non_null(buf);
	patch_and_agree(buf, len, DT_STRSZ, UINT64_MAX);       /* huge STRSZ */
	patch_and_agree(buf, len, DT_STRSZ, len * 1000);       /* past the end */
	patch_and_agree(buf, len, DT_STRTAB, UINT64_MAX - 16); /* in no PT_LOAD */
	patch_and_agree(buf, len, DT_NEEDED, len + 5);	       /* outside DT_STRTAB */
	patch_and_agree(buf, len, DT_RUNPATH, UINT64_MAX);
	eh = (Elf64_Ehdr *)buf;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + eh->e_phoff + i * sizeof(Elf64_Phdr));
		Elf64_Phdr keep = *ph;

		ph->p_offset = len - 8; /* PT_DYNAMIC, PT_LOAD … past the end */
		(void)agree(buf, len);
		ph->p_filesz = UINT64_MAX;
		(void)agree(buf, len);
		*ph = keep;
	}
	eh->e_phnum = PN_XNUM; /* the count from section header 0 */
	(void)agree(buf, len);
	eh->e_shoff = len - 3;
	(void)agree(buf, len);
	free(buf);
}

/* A library whose strings lie before its dynamic section (as ld lays them out) takes two
 * passes: the headers and PT_DYNAMIC, then the strings. */
static void test_passes(void **state)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(CORPUS "runpath-origin.so", &len);
	struct buffer b = { .chunk = 64 };
	struct elf_dynamic *d = NULL;

	(void)state;
	assert_non_null(buf);
	b.p = buf;
	b.len = len;
	assert_int_equal(elf_dynamic_parse_stream(from_buffer, &b, len, &d), 0);
	assert_int_equal(b.passes, 2);
	elf_dynamic_free(d);
	b.passes = 0;
	assert_int_equal(elf_dynamic_parse_stream(from_buffer, &b, len - 1, &d), -EFBIG);
	free(buf);
}

/* ELF_DYNAMIC_MAX_NEEDED DT_NEEDED entries at consecutive offsets of one string of
 * ELF_DYNAMIC_MAX_STRING bytes: as many ranges kept as the stages allow, each overlapping
 * all the others. Handed out byte by byte, each byte was copied once per range holding it and
 * every range looked at for each byte (fuzz-elf-dynamic-stream's slow inputs: 20 s of CPU for
 * this 80 KiB file). Counted, not timed (elf_stream_work()): the bytes copied stay within
 * twice the file (each byte once in each of the two passes at most), the ranges looked at
 * within a few per byte handed out. */
static void test_overlapping_strings(void **state)
{
	const size_t n_needed = ELF_DYNAMIC_MAX_NEEDED, strsz = ELF_DYNAMIC_MAX_STRING;
	const size_t dyn_off = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
	const size_t dyn_n = n_needed + 3, str_off = dyn_off + dyn_n * sizeof(Elf64_Dyn);
	const size_t len = str_off + strsz, strtab_vaddr = 0x100000;
	uint8_t *buf = calloc(1, len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(*eh));
	Elf64_Dyn *dyn = (Elf64_Dyn *)(buf + dyn_off);
	struct buffer b = { .len = len, .chunk = 1 };
	struct elf_dynamic *whole = NULL, *streamed = NULL;
	struct elf_stream_work before;
	uint64_t copied, visited;

	(void)state;
	assert_non_null(buf);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	/* One PT_LOAD maps the whole file, the string table at strtab_vaddr. */
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD,
			      .p_vaddr = strtab_vaddr - str_off,
			      .p_filesz = len,
			      .p_memsz = len };
	ph[1] = (Elf64_Phdr){ .p_type = PT_DYNAMIC,
			      .p_offset = dyn_off,
			      .p_vaddr = dyn_off,
			      .p_filesz = dyn_n * sizeof(*dyn),
			      .p_memsz = dyn_n * sizeof(*dyn) };
	for (size_t i = 0; i < n_needed; i++)
		dyn[i] = (Elf64_Dyn){ .d_tag = DT_NEEDED, .d_un.d_val = i };
	dyn[n_needed] = (Elf64_Dyn){ .d_tag = DT_STRTAB, .d_un.d_ptr = strtab_vaddr };
	dyn[n_needed + 1] = (Elf64_Dyn){ .d_tag = DT_STRSZ, .d_un.d_val = strsz };
	memset(buf + str_off, 'a', strsz - 1);
	b.p = buf;

	assert_int_equal(elf_dynamic_parse(buf, len, &whole), 0);
	before = *elf_stream_work();
	assert_int_equal(elf_dynamic_parse_stream(from_buffer, &b, len, &streamed), 0);
	copied = elf_stream_work()->bytes_copied - before.bytes_copied;
	visited = elf_stream_work()->ranges_visited - before.ranges_visited;
	printf("# %zu bytes, %u passes: %" PRIu64 " bytes copied, %" PRIu64 " ranges visited\n",
	       len, b.passes, copied, visited);
	assert_true(copied >= len - sizeof(*eh)); /* the strings were kept: the count counts */
	assert_true(copied <= 2 * len);
	assert_true(visited <= 4 * len);
	assert_true(elf_dynamic_same(whole, streamed));
	elf_dynamic_free(whole);
	elf_dynamic_free(streamed);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds),	    cmocka_unit_test(test_real_libraries),
		cmocka_unit_test(test_truncations), cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_passes),	    cmocka_unit_test(test_overlapping_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
