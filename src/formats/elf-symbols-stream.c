// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dynamic symbols of an ELF file read from a stream (see elf-symbols-stream.h). The
 * stages follow what elf-symbols.c asks of libelf: elf_memory() reads the ELF header and the
 * section header table (the System V gABI "ELF Header" and "Section Header" layouts; entry
 * 0's sh_size is the count when e_shnum is 0), elf_getdata() and elf_strptr() the bytes of
 * the sections elf-symbols.c picks, found as it finds them (the first of each type). Any
 * byte the parser reads is kept; the differential fuzz target (fuzz-elf-symbols) checks the
 * streamed and whole-file parses agree on any bytes.
 */
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/elf-stream-internal.h"
#include "formats/elf-symbols-stream.h"
#include "shared/macro.h"

#define WANT_MAX 16u /* header, the table, four sections and their string tables */
_Static_assert(WANT_MAX <= ELF_STREAM_MAX_WANT, "the stream keeps every range named here");

struct shdr_table {
	const uint8_t *img;
	uint64_t size, shoff, count;
	bool is64, msb;
};

/* Field f (sh_type, sh_offset, sh_size, sh_link) of section i. */
enum { SH_TYPE, SH_OFFSET, SH_SIZE, SH_LINK };
static uint64_t shdr_field(const struct shdr_table *t, uint64_t i, int f)
{
	static const unsigned off64[] = { 4, 24, 32, 40 }, off32[] = { 4, 16, 20, 24 };
	static const unsigned w64[] = { 4, 8, 8, 4 };
	uint64_t at = t->shoff + i * (t->is64 ? 64 : 40);

	return elf_field(t->img, at + (t->is64 ? off64[f] : off32[f]), t->is64 ? w64[f] : 4,
			 t->msb);
}

/* The bytes of section i, as libelf gives them: none for SHT_NOBITS or beyond the file. */
static void want_section(struct elf_wants *w, const struct shdr_table *t, uint64_t i)
{
	uint64_t off, len;

	if (i >= t->count || shdr_field(t, i, SH_TYPE) == SHT_NOBITS)
		return;
	off = shdr_field(t, i, SH_OFFSET);
	len = shdr_field(t, i, SH_SIZE);
	if (elf_range_ok(t->size, off, len))
		(void)elf_want(w, off, len);
}

size_t elf_symbols_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want_out, size_t cap, int *complete,
			  size_t *strings_from)
{
	struct elf_wants w = {
		.r = want_out, .cap = MIN(cap, (size_t)WANT_MAX), .have = have, .userdata = userdata
	};
	struct shdr_table t = { .img = img, .size = size };
	static const uint32_t types[] = { SHT_DYNSYM, SHT_GNU_versym, SHT_GNU_verneed,
					  SHT_GNU_verdef };
	uint64_t shsz, shnum, first[ARRAY_SIZE(types)] = { 0 };

	*complete = 0;
	*strings_from = cap;
	if (!elf_want(&w, 0, MIN(size, (uint64_t)64)))
		return w.n;
	*complete = 1;
	if (size < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0 ||
	    (img[EI_CLASS] != ELFCLASS32 && img[EI_CLASS] != ELFCLASS64) ||
	    (img[EI_DATA] != ELFDATA2LSB && img[EI_DATA] != ELFDATA2MSB))
		return w.n;
	t.is64 = img[EI_CLASS] == ELFCLASS64;
	t.msb = img[EI_DATA] == ELFDATA2MSB;
	if (size < (t.is64 ? 64u : 52u))
		return w.n;
	t.shoff = elf_field(img, t.is64 ? 40 : 32, t.is64 ? 8 : 4, t.msb);
	shnum = elf_field(img, t.is64 ? 60 : 48, 2, t.msb);
	shsz = t.is64 ? 64 : 40;
	/* libelf takes e_shoff 0 as an offset like any other when e_shnum is not 0. */
	if (!elf_range_ok(size, t.shoff, shsz))
		return w.n;
	/* Past SHN_LORESERVE sections e_shnum is 0 and entry 0's sh_size holds the count. */
	if (shnum == 0 && t.shoff != 0) {
		if (!elf_want(&w, t.shoff, shsz)) {
			*complete = 0;
			return w.n;
		}
		t.count = 1;
		shnum = shdr_field(&t, 0, SH_SIZE);
	}
	shnum = MIN(shnum, (size - t.shoff) / shsz); /* libelf refuses a longer table */
	if (!elf_want(&w, t.shoff, shnum * shsz)) {
		*complete = 0;
		return w.n;
	}
	t.count = shnum;
	for (uint64_t i = 1; i < t.count; i++) {
		uint64_t type = shdr_field(&t, i, SH_TYPE);

		for (size_t k = 0; k < ARRAY_SIZE(types); k++)
			if (type == types[k] && !first[k])
				first[k] = i;
	}
	*strings_from = w.n; /* no stage waits for the sections */
	for (size_t k = 0; k < ARRAY_SIZE(types); k++) {
		if (!first[k])
			continue;
		want_section(&w, &t, first[k]);
		if (types[k] != SHT_GNU_versym) /* its sh_link is .dynsym, wanted already */
			want_section(&w, &t, shdr_field(&t, first[k], SH_LINK));
	}
	return w.n;
}

struct symbols_parse {
	const char *prefix;
	struct elf_symbols **ret;
};

static int parse_symbols(void *userdata, const uint8_t *img, size_t size)
{
	struct symbols_parse *p = userdata;

	return elf_symbols_parse(img, size, p->prefix, p->ret);
}

int elf_symbols_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     const char *prefix, struct elf_symbols **ret)
{
	static const elf_stream_wanted wanted[] = { elf_symbols_wanted };
	struct symbols_parse p = { .prefix = prefix, .ret = ret };

	return elf_stream_parse(source, userdata, max, wanted, 1, parse_symbols, &p);
}
