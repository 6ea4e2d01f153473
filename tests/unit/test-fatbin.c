/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin over hand-built inputs (containers, entries with LZ4/zstd PTX heads,
 * host ELF64/ELF32 with .nv_fatbin/.nvFatBinSegment/__nv_module_id, cubins with .nv.compat
 * and .note.nv.tkinfo, PTX text, the stream walker, static libraries) and malformed ones
 * (truncated headers, sizes past the end, overlapping entries, huge counts, non-ELF data).
 * Clang offload bundles and AMD GPU code objects: test-fatbin-bundle.c; real nvcc output:
 * test-fatbin-nvcc.c; the builders: fatbin-test-util.c. Formats: docs/formats/fatbin.md.
 */
#include <errno.h>
#include <lz4.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <cmocka.h>

#include "fatbin-test-util.h"
#include "formats/archive.h"
#include "fatbin/fatbin.h"

/* ---- hand-built, always run ------------------------------------------------------- */

static void test_container_entries(void **state)
{
	struct buf b = sample_fatbin();
	struct fatbin_result *r = parse_ok(b.p, b.len, 0);

	assert_int_equal(r->type, FATBIN_FILE_FATBIN);
	assert_int_equal(r->n_containers, 2);
	assert_int_equal(r->n_entries, 3);
	assert_string_equal(r->entries[0].target, "sm_86");
	assert_int_equal(r->entries[0].cubin_sm, -1); /* header-only: payload not read */
	assert_string_equal(r->entries[1].target, "compute_90a");
	assert_int_equal(r->entries[1].compression, FATBIN_COMPRESS_ZSTD);
	assert_int_equal(r->entries[1].ptx_major, 8);
	assert_int_equal(r->entries[1].ptx_minor, 7);
	assert_false(r->entries[1].ptx_from_text);
	/* the LZ4 entry has no version in its header: its head is decompressed */
	assert_string_equal(r->entries[2].target, "compute_80");
	assert_int_equal(r->entries[2].compression, FATBIN_COMPRESS_LZ4);
	assert_true(r->entries[2].ptx_from_text);
	assert_int_equal(r->entries[2].ptx_major, 8);
	assert_int_equal(r->entries[2].ptx_minor, 7);
	fatbin_result_free(r);

	r = parse_ok(b.p, b.len, FATBIN_PARSE_PAYLOAD_HEADS);
	assert_int_equal(r->entries[0].cubin_sm, 86);
	assert_true(r->entries[1].ptx_from_text);
	assert_string_equal(r->entries[1].ptx_target, "sm_90a");
	assert_string_equal(r->entries[2].ptx_target, "sm_90a");
	fatbin_result_free(r);
	check_read_errors(b.p, b.len, 0);
	check_read_errors(b.p, b.len, FATBIN_PARSE_PAYLOAD_HEADS);
	free(b.p);
}

static void test_entry_strings_and_kinds(void **state)
{
	struct buf b = { 0 };
	uint8_t h[0x68] = { 0 };
	struct fatbin_result *r;

	/* identifier at 0x40 (12 bytes) and options descriptor at 0x50 → {0x58, 6} */
	w16(h, 1);
	w16(h + 2, 0x0101);
	w32(h + 4, sizeof(h));
	w32(h + 0x14, 0x50);
	w16(h + 0x18, 0);
	w16(h + 0x1a, 9);
	w32(h + 0x1c, 80);
	w32(h + 0x20, 0x40);
	w32(h + 0x24, 12);
	w64(h + 0x28, 0x11);
	memcpy(h + 0x40, "myident_k.cu", 12);
	w32(h + 0x50, 0x58);
	w32(h + 0x54, 6);
	memcpy(h + 0x58, "-O2 -v", 6);
	put(&b, h, sizeof(h));
	/* unknown kind 7 and LTO */
	put_entry(&b, 7, 80, 0x11, 1, 0, NULL, 0, 0, 0);
	put_entry(&b, 8, 80, 0x18011, 1, 65, "xxxxxxxx", 8, 8, 100);
	close_container(&b, 0);
	r = parse_ok(b.p, b.len, FATBIN_PARSE_PAYLOAD_HEADS);
	assert_null(r->entries[0].ident); /* copied only when asked for */
	assert_null(r->entries[0].options);
	fatbin_result_free(r);
	r = parse_ok(b.p, b.len, FATBIN_PARSE_PAYLOAD_HEADS | FATBIN_PARSE_STRINGS);
	assert_int_equal(r->n_entries, 3);
	assert_string_equal(r->entries[0].ident, "myident_k.cu");
	assert_string_equal(r->entries[0].options, "-O2 -v");
	assert_string_equal(r->entries[0].target, "compute_80");
	assert_int_equal(r->entries[0].ptx_major, 9);
	assert_int_equal(r->entries[1].kind, FATBIN_KIND_UNKNOWN);
	assert_string_equal(r->entries[1].target, "kind7_80");
	assert_string_equal(r->entries[2].target, "lto_80");
	fatbin_result_free(r);
	free(b.p);
}

static void test_host_elf(void **state)
{
	for (int cls = 0; cls < 2; cls++) {
		bool is64 = cls == 0;
		struct buf fb = sample_fatbin(), el;
		uint8_t seg[48] = { 0 };
		size_t wsz = is64 ? 24 : 16;
		struct sec_spec secs[] = {
			{ ".text", 1, 6, 0x1000, "\xc3", 1 },
			{ ".nv_fatbin", 1, 2, 0x2000, fb.p, fb.len },
			{ ".nvFatBinSegment", 1, 3, 0x9000, seg, 2 * wsz },
			{ "__nv_module_id", 1, 2, 0xa000, "__NV_MODULE_ID", 15 },
		};
		struct fatbin_result *r;

		for (int w = 0; w < 2; w++) {
			w32(seg + w * wsz, 0x466243B1);
			w32(seg + w * wsz + 4, 1);
			if (is64)
				w64(seg + w * wsz + 8, 0x2000);
			else
				w32(seg + w * wsz + 8, 0x2000);
		}
		el = make_elf(is64, 62, 0, 0, secs, 4);
		r = parse_ok(el.p, el.len, 0);
		assert_int_equal(r->type, FATBIN_FILE_HOST_ELF);
		assert_int_equal(r->elf_class, is64 ? 64 : 32);
		assert_int_equal(r->n_containers, 2);
		assert_int_equal(r->n_entries, 3);
		assert_int_equal(r->n_wrappers, 2);
		assert_int_equal(r->n_found_elsewhere, 0);
		assert_string_equal(r->module_id, "__NV_MODULE_ID");
		assert_false(r->searched);
		fatbin_result_free(r);
		check_read_errors(el.p, el.len, FATBIN_PARSE_PAYLOAD_HEADS);
		free(el.p);
		free(fb.p);
	}
}

/* With wrappers saying where every container of .nv_fatbin starts, the walk reads a run of
 * small containers whole, and a large one header by header: 40 small containers, one of 3
 * entries with 40 000-byte payloads, 40 small ones again, wrappers out of order, doubled and
 * one pointing elsewhere. A read at each run, one at each later entry of the large one (the
 * doubling window alone needs 14), and none of the large payloads. */
static void test_read_plan(void **state)
{
	struct buf fb = { 0 }, el, seg = { 0 };
	size_t starts[81], n = 0, from;
	uint8_t *junk = calloc(1, 40000);
	struct mem_reader m = { 0 };
	struct fatbin_result *r;
	char *why = NULL;

	assert_non_null(junk);
	for (int part = 0; part < 3; part++) {
		for (int i = 0; i < (part == 1 ? 1 : 40); i++) {
			from = fb.len;
			starts[n++] = from;
			for (int e = 0; e < (part == 1 ? 3 : 1); e++)
				put_entry(&fb, 2, 80, 0x8011, 1, 8, junk, part == 1 ? 40000 : 1000,
					  part == 1 ? 40000 : 1000, 4000);
			close_container(&fb, from);
		}
	}
	for (size_t i = 0; i < n + 2; i++) {
		uint8_t w[24] = { 0 };
		/* backwards, the 7th twice, and one into .text */
		size_t at = i < n ? starts[n - 1 - i] : i == n ? starts[7] : 0;

		w32(w, 0x466243B1);
		w32(w + 4, 1);
		w64(w + 8, i == n + 1 ? 0x1000 : 0x10000 + at);
		put(&seg, w, sizeof(w));
	}
	{
		struct sec_spec secs[] = {
			{ ".text", 1, 6, 0x1000, "\xc3", 1 },
			{ ".nv_fatbin", 1, 2, 0x10000, fb.p, fb.len },
			{ ".nvFatBinSegment", 1, 3, 0x90000, seg.p, seg.len },
		};

		el = make_elf(true, 62, 0, 0, secs, 3);
	}
	r = parse_ok(el.p, el.len, 0);
	assert_int_equal(r->n_containers, 81);
	assert_int_equal(r->n_entries, 83);
	fatbin_result_free(r);
	assert_int_equal(parse_read(el.p, el.len, 0, &m, &r, &why), 0);
	printf("# %zu bytes in %u reads of a %zu-byte .nv_fatbin\n", m.bytes, m.calls, fb.len);
	assert_true(m.calls <= 4);
	assert_true(m.bytes < 80 * (16 + 64 + 1000) + 40000 / 4); /* small ones, some heads */
	fatbin_result_free(r);
	free(el.p);
	free(fb.p);
	free(seg.p);
	free(junk);
}

static int refuse(void *userdata, const struct fatbin_entry *e, size_t n)
{
	return n > 0 && e[0].container == 3 ? -ECANCELED : 0;
}

static int count_only(void *userdata, const struct fatbin_entry *e, size_t n)
{
	*(size_t *)userdata += n;
	return 0;
}

/* FATBIN_MAX_ENTRIES holds with on_container too (entries handed over count). */
static void test_entry_cap(void **state)
{
	struct buf b = { 0 };
	struct fatbin_result *r = NULL;
	size_t handed = 0, from = 0;
	char *why = NULL;

	for (size_t i = 0; i <= FATBIN_MAX_ENTRIES; i++) {
		put_entry(&b, 2, 80, 0x11, 1, 8, NULL, 0, 0, 0);
		if (i % 1000 == 999) {
			close_container(&b, from);
			from = b.len;
		}
	}
	close_container(&b, from);
	assert_int_equal(fatbin_parse(b.p, b.len, 0, &r, &why), -E2BIG);
	assert_int_equal(fatbin_parse_input(&(struct fatbin_input){ .data = b.p,
								    .len = b.len,
								    .userdata = &handed,
								    .on_container = count_only },
					    0, &r, &why),
			 -E2BIG);
	assert_int_equal(handed, FATBIN_MAX_ENTRIES / 1000 * 1000);
	/* one entry fewer: both fine */
	b.len -= 64;
	w64(b.p + from + 8, b.len - from - 16);
	handed = 0;
	assert_int_equal(fatbin_parse_input(&(struct fatbin_input){ .data = b.p,
								    .len = b.len,
								    .userdata = &handed,
								    .on_container = count_only },
					    0, &r, &why),
			 0);
	assert_int_equal(handed, FATBIN_MAX_ENTRIES);
	assert_int_equal(r->n_handed, FATBIN_MAX_ENTRIES);
	assert_int_equal(r->n_entries, 0);
	fatbin_result_free(r);
	free(b.p);
}

/* Reading through fatbin_input.read(): 300 entries with payloads from 0 to 100 KiB in 60
 * containers, PTX without a header version (its head is read even header-only) compressed
 * with zstd (blocks larger than one read) and LZ4. Same result as the buffer parse, every
 * read error ends it, and a header-only walk reads a small part of the bytes. */
static void test_read_windows(void **state)
{
	struct buf b = { 0 }, text = { 0 };
	struct fatbin_result *r;
	struct mem_reader m = { 0 };
	uint32_t seed = 12345;
	size_t zcap, zn, ln, from = 0;
	uint8_t *z, *l, *junk;
	char *why = NULL;

	static const char head[] = ".version 8.5\n.target sm_89\n.address_size 64\n";

	put(&text, head, sizeof(head) - 1);
	while (text.len < 60000) {
		char line[40];

		seed = seed * 1103515245u + 12345u;
		snprintf(line, sizeof(line), "// %08x %08x\n", seed, seed ^ 0x5a5a5a5au);
		put(&text, line, strlen(line));
	}
	zcap = ZSTD_compressBound(text.len);
	z = malloc(zcap);
	l = malloc((size_t)LZ4_compressBound((int)text.len));
	junk = calloc(1, 100000);
	assert_non_null(z);
	assert_non_null(l);
	assert_non_null(junk);
	zn = ZSTD_compress(z, zcap, text.p, text.len, 1);
	assert_false(ZSTD_isError(zn));
	assert_true(zn > 16384);
	ln = (size_t)LZ4_compress_default((const char *)text.p, (char *)l, (int)text.len,
					  LZ4_compressBound((int)text.len));
	assert_true(ln > 16384);
	for (unsigned i = 0; i < 300; i++) {
		size_t plen;

		seed = seed * 1103515245u + 12345u;
		plen = (seed >> 8) % 10 == 0 ? 20000 + (seed >> 4) % 80000 : (seed >> 8) % 3000;
		if (i % 25 == 7)
			put_entry(&b, 1, 89, 0x8011, 0, 0, z, zn, (uint32_t)zn, text.len);
		else if (i % 25 == 19)
			put_entry(&b, 1, 89, 0x2011, 0, 0, l, ln, (uint32_t)ln, text.len);
		else
			put_entry(&b, 2, 75 + i % 50, 0x11, 1, 8, junk, plen, 0, 0);
		if (i % 5 == 4) {
			close_container(&b, from);
			from = b.len;
		}
	}
	for (unsigned flags = 0; flags <= FATBIN_PARSE_PAYLOAD_HEADS; flags++) {
		r = parse_ok(b.p, b.len, flags);
		assert_int_equal(r->n_containers, 60);
		assert_int_equal(r->n_entries, 300);
		assert_true(r->entries[7].ptx_from_text);
		assert_int_equal(r->entries[7].ptx_major, 8);
		assert_int_equal(r->entries[7].ptx_minor, 5);
		assert_string_equal(r->entries[19].ptx_target, "sm_89");
		fatbin_result_free(r);
	}
	/* header-only: the reads stay well under the payload bytes */
	assert_int_equal(parse_read(b.p, b.len, 0, &m, &r, &why), 0);
	printf("# %zu bytes in %u reads of a %zu-byte input\n", m.bytes, m.calls, b.len);
	assert_true(m.calls < 300);
	assert_true(m.bytes < b.len / 2);
	fatbin_result_free(r);
	check_read_errors(b.p, b.len, 0);
	/* on_container's error ends the parse */
	assert_int_equal(
		fatbin_parse_input(
			&(struct fatbin_input){ .data = b.p, .len = b.len, .on_container = refuse },
			0, &r, &why),
		-ECANCELED);
	free(z);
	free(l);
	free(junk);
	free(text.p);
	free(b.p);
}

static void die_quietly(int sig)
{
	_exit(99);
}

/* Header-only means header-only: of a buffer (a wheel member in memory, a mapping) only the
 * pages holding headers may be touched. 64 compressed entries (SASS, and PTX whose header gives its
 * ISA) each with a payload that fills a whole page made PROT_NONE: a parse that reads a payload
 * dies of SIGSEGV. With FATBIN_PARSE_PAYLOAD_HEADS the same parse must touch them (the guard
 * works). */
static void test_header_only_touches_no_payload(void **state)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 64;
	/* container header (16) + entry header (64) end where the first payload page starts;
	 * payloads of 2 pages - 64 bytes keep every later payload page-aligned */
	const size_t start = pg - 16 - 64, plen = 2 * pg - 64;
	struct buf b = { 0 };
	struct fatbin_result *r;
	uint8_t *junk = calloc(1, plen), *map;
	size_t maplen;
	pid_t pid;
	int status;

	assert_non_null(junk);
	for (size_t i = 0; i < n; i++) {
		if (i % 2)
			put_entry(&b, 1, 90, 0x8011, 8, 7, junk, plen, (uint32_t)plen, 3 * pg);
		else
			put_entry(&b, 2, 75 + i % 50, 0x8011, 1, 8, junk, plen, (uint32_t)plen,
				  3 * pg);
	}
	close_container(&b, 0);
	maplen = (start + b.len + pg - 1) & ~(pg - 1);
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	memcpy(map + start, b.p, b.len);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(mprotect(map + pg + i * 2 * pg, pg, PROT_NONE), 0);

	/* over the buffer (parse_ok would also read it through a window, which copies pages) */
	assert_int_equal(fatbin_parse(map + start, b.len, 0, &r, NULL), 0);
	assert_int_equal(r->n_entries, n);
	assert_string_equal(r->entries[0].target, "sm_75");
	assert_string_equal(r->entries[1].target, "compute_90");
	assert_int_equal(r->entries[1].ptx_major, 8);
	assert_false(r->entries[1].ptx_from_text);
	fatbin_result_free(r);

	/* decoding the payload heads does touch them: in a child, which must die of it (exit 99
	 * from the handler; under ASan its own report and exit 1) */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, die_quietly);
		fatbin_parse(map + start, b.len, FATBIN_PARSE_PAYLOAD_HEADS, &r, NULL);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0));
	munmap(map, maplen);
	free(junk);
	free(b.p);
}

/* .nv_fatbin without .nvFatBinSegment (hand-registered, as libcufft.so.12): the other
 * data sections are searched; a wrapper pointing outside .nv_fatbin is followed. */
static void test_host_elf_elsewhere(void **state)
{
	struct buf fb = sample_fatbin(), ld = { 0 }, el;
	uint8_t seg[24] = { 0 };
	struct fatbin_result *r;

	static const char junk[] = "junk\x50\xed\x55\xba\x01\x00\x10\x00 not a container";

	put(&ld, junk, sizeof(junk) - 1); /* the pattern, then no valid container */
	put(&ld, NULL, (8 - ld.len % 8) % 8);
	put(&ld, fb.p, fb.len);
	put(&ld, "tail", 4);
	{
		struct sec_spec secs[] = {
			{ ".nv_fatbin", 1, 2, 0x2000, fb.p, fb.len },
			{ ".ldata", 1, 3, 0x10000, ld.p, ld.len },
		};
		el = make_elf(true, 62, 0, 0, secs, 2);
		r = parse_ok(el.p, el.len, 0);
		assert_true(r->searched);
		assert_int_equal(r->n_containers, 4);
		assert_int_equal(r->n_entries, 6);
		assert_int_equal(r->n_found_elsewhere, 2);
		assert_string_equal(r->elsewhere_sections, ".ldata");
		fatbin_result_free(r);
		free(el.p);
	}
	{
		/* with a wrapper: no search, but the wrapper's target in .ldata is walked */
		size_t at = 32; /* where fb starts inside ld */
		struct sec_spec secs[] = {
			{ ".nv_fatbin", 1, 2, 0x2000, fb.p, fb.len },
			{ ".ldata", 1, 3, 0x10000, ld.p, ld.len },
			{ ".nvFatBinSegment", 1, 3, 0x9000, seg, 24 },
		};
		w32(seg, 0x466243B1);
		w32(seg + 4, 1);
		w64(seg + 8, 0x10000 + at);
		el = make_elf(true, 62, 0, 0, secs, 3);
		r = parse_ok(el.p, el.len, 0);
		assert_false(r->searched);
		assert_int_equal(r->n_containers, 3);
		assert_int_equal(r->n_found_elsewhere, 1);
		fatbin_result_free(r);
		/* and FATBIN_PARSE_SEARCH_ALL finds the second one too */
		r = parse_ok(el.p, el.len, FATBIN_PARSE_SEARCH_ALL);
		assert_true(r->searched);
		assert_int_equal(r->n_containers, 4);
		fatbin_result_free(r);
		free(el.p);
	}
	free(ld.p);
	free(fb.p);
}

/* The search of a hand-registered library reads through fatbin_input.read(), never through
 * the buffer: libcufft.so.12 keeps 270 of its 286 MB outside .nv_fatbin, and a memmem over
 * the mapping made all of it resident (doctor peaked at 283 MB over a torch cu130 venv). The
 * pages of the searched section are PROT_NONE in the buffer, so a search through them dies
 * of SIGSEGV. Containers start 4 bytes before each power of two from 4 KiB to 1 MiB into
 * the section, so that one straddles the end of the first read whatever its size. Each byte
 * is read once: the headers of the containers found come from the search's reads (reading
 * them again cost libcufft's 23 983 containers 6 GB of reads). */
static void test_search_reads_through_input(void **state)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct buf fb = sample_fatbin(), ld = { 0 }, el;
	struct mem_reader m = { 0 };
	struct fatbin_result *r = NULL;
	size_t maplen, ld_off, first, last, copies = 0;
	uint8_t *map;
	char *why = NULL;

	for (size_t at = 4096; at <= (1u << 20); at *= 2, copies++) {
		put(&ld, NULL, at - 4 - ld.len);
		put(&ld, fb.p, fb.len);
	}
	put(&ld, NULL, 4 * pg);
	{
		struct sec_spec secs[] = {
			{ ".nv_fatbin", 1, 2, 0x2000, fb.p, fb.len },
			{ ".ldata", 1, 3, 0x10000, ld.p, ld.len },
		};
		el = make_elf(true, 62, 0, 0, secs, 2);
	}
	/* sh_offset of section 2 (.ldata; 0 is the null section) */
	memcpy(&ld_off, el.p + *(uint64_t *)(el.p + 40) + 2 * 64 + 24, sizeof(ld_off));
	maplen = (el.len + pg - 1) & ~(pg - 1);
	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	memcpy(map, el.p, el.len);
	first = (ld_off + pg - 1) & ~(pg - 1);
	last = (ld_off + ld.len) & ~(pg - 1);
	assert_true(last - first >= (1u << 20));
	assert_int_equal(mprotect(map + first, last - first, PROT_NONE), 0);

	m = (struct mem_reader){ .p = el.p, .len = el.len };
	assert_int_equal(fatbin_parse_input(&(struct fatbin_input){ .data = map,
								    .len = el.len,
								    .read = mem_read,
								    .userdata = &m },
					    0, &r, &why),
			 0);
	assert_true(r->searched);
	assert_int_equal(r->n_found_elsewhere, 2 * copies);
	assert_int_equal(r->n_containers, 2 + 2 * copies);
	assert_string_equal(r->elsewhere_sections, ".ldata");
	assert_true(m.bytes < el.len + el.len / 8);
	fatbin_result_free(r);
	/* the buffer parse finds the same */
	r = parse_ok(el.p, el.len, 0);
	assert_int_equal(r->n_found_elsewhere, 2 * copies);
	fatbin_result_free(r);
	munmap(map, maplen);
	free(el.p);
	free(ld.p);
	free(fb.p);
}

/* Hand-registered containers one after another, a few bytes apart (libcufft.so.12: 23 983 in
 * .ldata, 0, 8, 16 or 24 bytes between them): after each run walked, the next is looked for
 * just past it, so the search reads the headers and not the payloads (it read all 278 MB of
 * that section, 265 MB of them payloads), and finds what the buffer parse finds. Each
 * container holds one compressed SASS entry of 96 KiB, too large to be decompressed;
 * the magic inside each payload must not be taken for a container (the walk skips it). */
static void test_search_skips_payloads(void **state)
{
	static const size_t gaps[] = { 0, 8, 16, 24 };
	const size_t plen = 96u << 10, n = 24;
	struct buf fb = sample_fatbin(), ld = { 0 }, el;
	struct mem_reader m = { 0 };
	struct fatbin_result *r = NULL, *rb;
	uint8_t *junk = malloc(plen);
	char *why = NULL;

	assert_non_null(junk);
	memset(junk, 0x5a, plen);
	memcpy(junk + 4096, fatbin_container_pattern, sizeof(fatbin_container_pattern));
	for (size_t i = 0; i < n; i++) {
		size_t from = ld.len;

		put_entry(&ld, 2, 80, 0x8011, 1, 8, junk, plen, (uint32_t)plen, 4 * plen);
		close_container(&ld, from);
		for (size_t g = 0; g < gaps[i % 4]; g += 8)
			put_u64(&ld, 0x1122334455667788ull); /* not a container, not zero */
	}
	{
		struct sec_spec secs[] = {
			{ ".nv_fatbin", 1, 2, 0x2000, fb.p, fb.len },
			{ ".ldata", 1, 3, 0x10000, ld.p, ld.len },
		};
		el = make_elf(true, 62, 0, 0, secs, 2);
	}
	m = (struct mem_reader){ .p = el.p, .len = el.len };
	assert_int_equal(fatbin_parse_input(&(struct fatbin_input){ .data = el.p,
								    .len = el.len,
								    .read = mem_read,
								    .userdata = &m },
					    0, &r, &why),
			 0);
	assert_true(r->searched);
	assert_int_equal(r->n_found_elsewhere, n);
	/* the search's first read (256 KiB), then about 1 KiB of headers a container, where it
	 * read all 2.3 MB */
	assert_true(m.bytes < ld.len / 4);
	assert_true(m.calls <= n + 2);
	rb = parse_ok(el.p, el.len, 0);
	assert_int_equal(rb->n_found_elsewhere, n);
	assert_int_equal(rb->n_entries, r->n_entries);
	for (size_t i = 0; i < r->n_entries; i++)
		assert_int_equal(rb->entries[i].offset, r->entries[i].offset);
	fatbin_result_free(rb);
	fatbin_result_free(r);
	free(el.p);
	free(ld.p);
	free(fb.p);
	free(junk);
}

static void test_cubin_variants(void **state)
{
	static const uint8_t compat_a[] = { 2, 9, 1, 0, 2, 2, 1, 0, 4, 0x0b,
					    8, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t compat_plain[] = { 2, 9, 0, 0, 2, 2, 1, 0 };
	static const char note_f[] =
		"\x0c\0\0\0\x30\0\0\0\xd0\x07\0\0NVIDIA Corp\0ptxas\0-arch sm_100f -m 64 \0";
	struct {
		uint32_t e_flags;
		uint8_t abi;
		const void *compat;
		size_t clen;
		const char *expect;
	} cases[] = {
		{ 0x06005a04, 8, compat_a, sizeof(compat_a), "sm_90a" },
		{ 0x06005a04, 8, compat_plain, sizeof(compat_plain), "sm_90" },
		{ 0x06004b04, 8, NULL, 0, "sm_75" },
		{ 0x005a055a | 0x800, 7, NULL, 0, "sm_90a" }, /* ABI 7: EF_CUDA_ACCELERATORS */
		{ 0x005a055a, 7, NULL, 0, "sm_90" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sec_spec secs[] = { { ".nv.compat", 0x70000086, 0, 0, cases[i].compat,
					     cases[i].clen } };
		struct buf el = make_elf(true, 190, cases[i].e_flags, cases[i].abi, secs,
					 cases[i].compat ? 1 : 0);
		struct fatbin_result *r = parse_ok(el.p, el.len, 0);

		assert_int_equal(r->type, FATBIN_FILE_CUBIN);
		assert_int_equal(r->n_entries, 1);
		assert_string_equal(r->entries[0].target, cases[i].expect);
		fatbin_result_free(r);
		free(el.p);
	}
	{
		struct sec_spec secs[] = { { ".note.nv.tkinfo", 7, 0, 0, note_f, sizeof(note_f) } };
		struct buf el = make_elf(true, 190, 0x06006402, 8, secs, 1);
		struct fatbin_result *r = parse_ok(el.p, el.len, 0);

		assert_string_equal(r->entries[0].target, "sm_100f");
		fatbin_result_free(r);
		free(el.p);
	}
	{
		/* ELF32 cubin (e_flags at 36) */
		struct buf el = make_elf(false, 190, 0x06005604, 8, NULL, 0);
		struct fatbin_result *r = parse_ok(el.p, el.len, 0);

		assert_string_equal(r->entries[0].target, "sm_86");
		assert_false(r->entries[0].is64);
		fatbin_result_free(r);
		free(el.p);
	}
}

static void test_ptx_header(void **state)
{
	struct fatbin_ptx_header h;
	struct fatbin_result *r;

	assert_int_equal(fatbin_ptx_header(ptx_text, ptx_text_len, &h), 0);
	assert_int_equal(h.isa_major, 8);
	assert_int_equal(h.isa_minor, 7);
	assert_string_equal(h.target, "sm_90a");
	assert_int_equal(h.target_arch, 90);
	assert_int_equal(h.target_variant, 'a');
	assert_int_equal(h.address_size, 64);
	assert_int_equal(fatbin_ptx_header(".version 9.1\n.target sm_120f\n", 29, &h), 0);
	assert_int_equal(h.target_variant, 'f');
	assert_int_equal(h.target_arch, 120);
	/* .version must come first; malformed numbers; unterminated comment */
	assert_int_equal(fatbin_ptx_header(".target sm_80\n.version 8.0\n", 27, &h), -EBADMSG);
	assert_int_equal(fatbin_ptx_header(".version 9\n", 11, &h), -EBADMSG);
	assert_int_equal(fatbin_ptx_header(".version .\n", 11, &h), -EBADMSG);
	assert_int_equal(fatbin_ptx_header("/* open .version 8.0", 20, &h), -EBADMSG);
	assert_int_equal(fatbin_ptx_header(".versionx 8.0", 13, &h), -EBADMSG);
	assert_int_equal(fatbin_ptx_header("", 0, &h), -EBADMSG);
	/* cut in the middle of the number: no read past len */
	assert_int_equal(fatbin_ptx_header(".version 8.", 11, &h), -EBADMSG);
	/* standalone .ptx file */
	r = parse_ok((const uint8_t *)ptx_text, ptx_text_len - 1, 0);
	assert_int_equal(r->type, FATBIN_FILE_PTX);
	assert_string_equal(r->entries[0].target, "compute_90a");
	assert_int_equal(r->entries[0].ptx_major, 8);
	fatbin_result_free(r);
}

static void feed_all(struct fatbin_stream *st, const uint8_t *p, size_t len, size_t chunk)
{
	for (size_t off = 0; off < len; off += chunk)
		assert_int_equal(
			fatbin_stream_feed(st, p + off, chunk < len - off ? chunk : len - off), 0);
}

static void test_stream(void **state)
{
	struct buf fb = sample_fatbin(), s = { 0 };
	static const size_t chunks[] = { 1, 3, 7, 64, 4096 };

	put(&s, "\177ELF garbage \x50\xed\x50\xed\x55\xba\x01\x00\x10", 22);
	put(&s, fb.p, fb.len);
	put(&s, "\x50\xed\x55\xba\x01\x00\x10\x00\xff\xff\xff\xff\0\0\0\0", 16); /* no entry */
	put(&s, NULL, 100);
	{
		/* a container cut inside its payload: the stream ends there */
		size_t from = s.len;

		put_entry(&s, 2, 70, 0x11, 1, 8, NULL, 128, 0, 0);
		close_container(&s, from);
		s.len -= 100;
	}
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct fatbin_stream *st;
		struct fatbin_result *r;

		assert_int_equal(fatbin_stream_new(&st), 0);
		feed_all(st, s.p, s.len, chunks[i]);
		assert_int_equal(fatbin_stream_finish(st, &r), 0);
		assert_int_equal(r->type, FATBIN_FILE_HOST_ELF);
		assert_int_equal(r->n_entries, 3);
		assert_int_equal(r->n_containers, 2);
		assert_string_equal(r->entries[1].target, "compute_90a");
		assert_int_equal(r->entries[1].ptx_major, 8);
		assert_non_null(r->warning); /* the last, truncated one */
		fatbin_result_free(r);
	}
	free(s.p);
	free(fb.p);
}

static void test_malformed(void **state)
{
	uint8_t b[256];
	struct buf fb;
	struct fatbin_result *r;

	memset(b, 0, sizeof(b));
	parse_bad((const uint8_t *)"hello world", 11, -EBADMSG);
	parse_bad(b, 0, -EBADMSG);
	/* truncated container header */
	w32(b, 0xBA55ED50);
	w16(b + 4, 1);
	w16(b + 6, 16);
	parse_bad(b, 12, -EBADMSG);
	/* empty container is fine */
	r = parse_ok(b, 16, 0);
	assert_int_equal(r->n_entries, 0);
	assert_int_equal(r->n_containers, 1);
	fatbin_result_free(r);
	/* zero padding after it is fine, garbage is not */
	r = parse_ok(b, 32, 0);
	assert_int_equal(r->n_containers, 1);
	fatbin_result_free(r);
	b[20] = 1;
	parse_bad(b, 32, -EBADMSG);
	b[20] = 0;
	/* fatSize past the end, and overflowing */
	w64(b + 8, 1000);
	parse_bad(b, 128, -EBADMSG);
	w64(b + 8, UINT64_MAX - 4);
	parse_bad(b, 128, -EBADMSG);
	/* entry header truncated */
	w64(b + 8, 32);
	parse_bad(b, 48, -EBADMSG);

	fb = sample_fatbin();
	/* payload past its container: the first entry's payload size grows */
	w64(fb.p + 16 + 8, 1u << 20);
	parse_bad(fb.p, fb.len, -EBADMSG);
	/* overlapping entries: first entry's payload reaches into the second header */
	w64(fb.p + 16 + 8, 64 + 8);
	parse_bad(fb.p, fb.len, -EBADMSG);
	w64(fb.p + 16 + 8, 64);
	/* header size huge / not a multiple of 8 / below 64 / bad version */
	w32(fb.p + 16 + 4, 0xfffffff8);
	parse_bad(fb.p, fb.len, -EBADMSG);
	w32(fb.p + 16 + 4, 65);
	parse_bad(fb.p, fb.len, -EBADMSG);
	w32(fb.p + 16 + 4, 56);
	parse_bad(fb.p, fb.len, -EBADMSG);
	w32(fb.p + 16 + 4, 64);
	w16(fb.p + 16 + 2, 0x0102);
	parse_bad(fb.p, fb.len, -EBADMSG);
	w16(fb.p + 16 + 2, 0x0101);
	/* compressed size larger than the payload */
	w32(fb.p + 16 + 64 + 64 + 0x10, 1u << 20);
	parse_bad(fb.p, fb.len, -EBADMSG);
	free(fb.p);
	/* a corrupt compressed PTX payload: the header still names the target */
	fb = sample_fatbin();
	memset(fb.p + 16 + 128 + 64, 0xee, 16);
	r = parse_ok(fb.p, fb.len, FATBIN_PARSE_PAYLOAD_HEADS);
	assert_string_equal(r->entries[1].target, "compute_90a");
	assert_false(r->entries[1].ptx_from_text);
	fatbin_result_free(r);
	free(fb.p);

	/* ELF: truncated; e_shoff past the end; section past the end; ELF named .so that
	 * is text */
	parse_bad((const uint8_t *)"\177ELF\2\1\1", 7, -EBADMSG);
	memset(b, 0, sizeof(b));
	memcpy(b, "\177ELF\2\1\1", 7);
	w16(b + 18, 62);
	w64(b + 0x28, 1u << 30);
	w16(b + 0x3a, 64);
	w16(b + 0x3c, 5);
	parse_bad(b, 64, -EBADMSG);
	{
		struct buf f2 = sample_fatbin();
		struct sec_spec secs[] = { { ".nv_fatbin", 1, 2, 0x2000, f2.p, f2.len } };
		struct buf el = make_elf(true, 62, 0, 0, secs, 1);
		size_t shoff = fatbin_rd64(el.p + 40);

		/* section 1 (.nv_fatbin): size past the end of the file */
		w64(el.p + shoff + 64 + 32, 1ull << 40);
		parse_bad(el.p, el.len, -EBADMSG);
		/* count of sections huge */
		w64(el.p + shoff + 64 + 32, f2.len);
		w16(el.p + 60, 0xff00);
		parse_bad(el.p, el.len, -EBADMSG);
		free(el.p);
		free(f2.p);
	}
	parse_bad((const uint8_t *)"#!/bin/sh\nexec true\n", 20, -EBADMSG);
	parse_bad((const uint8_t *)"PK\3\4 not an ELF", 15, -EBADMSG);
}

/* A zstd payload in a legacy format (magic 0xFD2FB527, zstd v0.7) is not decoded: libzstd's
 * legacy decoder counted output it had not written (valgrind, on this fuzz-fatbin input), so
 * the two parse paths disagreed at random. The PTX entry keeps no ISA; the SASS ones stand. */

static void test_zstd_legacy_frame_refused(void **state)
{
	char path[512];
	size_t len;
	uint8_t *buf;
	struct fatbin_result *r;

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/fatbin/zstd-legacy-v07-magic-ptx",
		 getenv("GPUENV_SOURCE_ROOT") ? getenv("GPUENV_SOURCE_ROOT") : ".");
	buf = slurp(path, &len);
	assert_int_equal(fatbin_rd32(buf + 16 + 64 + 2984 + 64 + 3696 + 80), 0xFD2FB527u);
	for (unsigned flags = 0; flags <= FATBIN_PARSE_PAYLOAD_HEADS; flags++) {
		r = parse_ok(buf, len, flags);
		assert_int_equal(r->n_entries, 3);
		assert_string_equal(r->entries[2].target, "compute_90");
		assert_int_equal(r->entries[2].compression, FATBIN_COMPRESS_ZSTD);
		assert_false(r->entries[2].ptx_from_text);
		assert_int_equal(r->entries[2].ptx_major, -1);
		fatbin_result_free(r);
	}
	free(buf);
}

/* ---- static libraries (ar) ---------------------------------------------------------- */

static void test_archive(void **state)
{
	static const char longnames[] = "a_very_long_member_name.o/\n";
	struct buf fb = sample_fatbin(), a = { 0 };
	struct members c = { 0 };
	struct fatbin_result *r;
	const char *why = NULL;

	put(&a, "!<arch>\n", 8);
	put_ar_member(&a, "/", "\0\0\0\0", 4); /* the symbol index, empty */
	put_ar_member(&a, "//", longnames, sizeof(longnames) - 1);
	put_ar_member(&a, "short.o/", "odd", 3);
	put_ar_member(&a, "/0", fb.p, fb.len);
	assert_true(ar_is_archive(a.p, a.len));
	assert_int_equal(ar_for_each_member(a.p, a.len, collect_member, &c, &why), 0);
	assert_string_equal(c.names, "short.o,a_very_long_member_name.o");
	assert_int_equal(c.last_len, fb.len);
	assert_memory_equal(c.last, fb.p, fb.len);
	assert_true(c.last > a.p && c.last + c.last_len <= a.p + a.len); /* in place */
	r = parse_ok(c.last, c.last_len, 0);
	assert_int_equal(r->n_containers, 2);
	fatbin_result_free(r);

	/* the last member cut short: libelf hands out what is there, the header says more */
	memset(&c, 0, sizeof(c));
	assert_int_equal(ar_for_each_member(a.p, a.len - 9, collect_member, &c, &why), -EBADMSG);
	assert_non_null(strstr(why, "cut short"));
	/* a broken member header (its "`\n" trailer) ends the walk as malformed */
	memset(&c, 0, sizeof(c));
	a.p[8 + 60 + 4 + 60 + 28 + 58] = 'X'; /* short.o's ar_fmag */
	assert_int_equal(ar_for_each_member(a.p, a.len, collect_member, &c, &why), -EBADMSG);
	a.p[8 + 60 + 4 + 60 + 28 + 58] = '`';
	/* the callback's error stops the walk */
	c = (struct members){ .fail_with = -ECANCELED };
	assert_int_equal(ar_for_each_member(a.p, a.len, collect_member, &c, &why), -ECANCELED);
	/* thin archives name other files; not archives at all */
	memcpy(a.p, "!<thin>\n", 8);
	assert_true(ar_is_archive(a.p, a.len));
	assert_int_equal(ar_for_each_member(a.p, a.len, collect_member, &c, &why), -EOPNOTSUPP);
	assert_false(ar_is_archive((const uint8_t *)"!<arc", 5));
	assert_int_equal(ar_for_each_member((const uint8_t *)"\177ELF\2\1\1\0\0", 8, collect_member,
					    &c, &why),
			 -EBADMSG);
	free(a.p);
	free(fb.p);
}

/* The entry's `a` flag (bit 20) on ABI-7 cubins is what the cubin's own e_flags say
 * (EF_CUDA_ACCELERATORS, 0x800; fatbin.md §9.2): cuBLAS 11.8 flags sm_50/60/61 entries, whose
 * cubins are not arch-specific; a sm_90 cubin with 0x800 is sm_90a. Read without
 * FATBIN_PARSE_PAYLOAD_HEADS too (the scanner's default). ABI-8 cubins keep the flag. */
static void test_cubin_a_flag(void **state)
{
	static const struct {
		unsigned arch;
		uint32_t e_flags;
		uint8_t abi;
		const char *want;
	} cases[] = {
		{ 50, 0x00320432, 7, "sm_50" },
		{ 61, 0x003d043d, 7, "sm_61" },
		{ 90, 0x005a0c5a, 7, "sm_90a" },
		{ 90, 0x06005a04, 8, "sm_90a" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (unsigned f = 0; f < 2; f++) {
			struct sec_spec secs[] = { { ".text.k", 1, 6, 0, "\0\0\0\0", 4 } };
			struct buf cubin =
				make_elf(true, 190, cases[c].e_flags, cases[c].abi, secs, 1);
			struct buf b = { 0 };
			struct fatbin_result *r;

			put_entry(&b, 2, cases[c].arch, 0x100011, 1, cases[c].abi, cubin.p,
				  cubin.len, 0, 0);
			close_container(&b, 0);
			r = parse_ok(b.p, b.len, f ? FATBIN_PARSE_PAYLOAD_HEADS : 0);
			assert_int_equal(r->n_entries, 1);
			assert_string_equal(r->entries[0].target, cases[c].want);
			fatbin_result_free(r);
			free(b.p);
			free(cubin.p);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_container_entries),
		cmocka_unit_test(test_entry_strings_and_kinds),
		cmocka_unit_test(test_host_elf),
		cmocka_unit_test(test_host_elf_elsewhere),
		cmocka_unit_test(test_search_reads_through_input),
		cmocka_unit_test(test_search_skips_payloads),
		cmocka_unit_test(test_read_plan),
		cmocka_unit_test(test_read_windows),
		cmocka_unit_test(test_header_only_touches_no_payload),
		cmocka_unit_test(test_entry_cap),
		cmocka_unit_test(test_cubin_variants),
		cmocka_unit_test(test_ptx_header),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_archive),
		cmocka_unit_test(test_zstd_legacy_frame_refused),
		cmocka_unit_test(test_cubin_a_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
