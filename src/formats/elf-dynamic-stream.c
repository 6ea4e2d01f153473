/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic section of an ELF file read from a stream (see elf-dynamic-stream.h). The
 * stages mirror what elf-dynamic.c and libelf read, field by field from the System V gABI
 * layouts ("ELF Header", "Section Header", "Program Header", "Dynamic Section"): any byte the
 * parser reads is kept, so a range computed here that is too large only costs memory, one
 * that is too small would change the result (the differential fuzz target checks both
 * parsers agree on any bytes).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/elf-dynamic-stream.h"
#include "formats/elf-stream-internal.h"
#include "shared/macro.h"

#define WANT_MAX (ELF_DYNAMIC_MAX_NEEDED + 8u) /* header, tables, dynamic, three strings */
_Static_assert(WANT_MAX <= ELF_STREAM_MAX_WANT, "the stream keeps every range named here");

struct layout {
	bool is64, msb;
	uint64_t size;
};

/* The file offset of addr through the first PT_LOAD that holds it (elf-dynamic.c's
 * vaddr_to_offset()). */
static bool strtab_offset(const uint8_t *img, const struct layout *l, uint64_t phoff,
			  uint64_t phnum, uint64_t addr, uint64_t *ret)
{
	unsigned phsz = l->is64 ? 56 : 32, w = l->is64 ? 8 : 4;

	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t ph = phoff + i * phsz;
		uint64_t off = elf_field(img, ph + (l->is64 ? 8 : 4), w, l->msb);
		uint64_t vaddr = elf_field(img, ph + (l->is64 ? 16 : 8), w, l->msb);
		uint64_t filesz = elf_field(img, ph + (l->is64 ? 32 : 16), w, l->msb);

		if (elf_field(img, ph, 4, l->msb) != 1 /* PT_LOAD */)
			continue;
		if (addr < vaddr || addr - vaddr >= filesz)
			continue;
		if (!elf_range_ok(l->size, off, addr - vaddr))
			return false;
		*ret = off + (addr - vaddr);
		return true;
	}
	return false;
}

/* The last stage: each DT_STRTAB string the parser takes, up to its cap. */
static void want_strings(struct elf_wants *w, const uint8_t *img, const struct layout *l,
			 uint64_t phoff, uint64_t phnum, uint64_t dyn, uint64_t n)
{
	unsigned esz = l->is64 ? 16 : 8, vw = l->is64 ? 8 : 4;
	uint64_t idx[WANT_MAX], strtab = 0, strsz = 0, off;
	bool has_strtab = false, has_strsz = false;
	size_t n_idx = 0, n_needed = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t tag = elf_field(img, dyn + i * esz, vw, l->msb);
		uint64_t val = elf_field(img, dyn + i * esz + vw, vw, l->msb);

		if (tag == 0 /* DT_NULL */)
			break;
		if (tag == 5 /* DT_STRTAB */) {
			strtab = val;
			has_strtab = true;
		} else if (tag == 10 /* DT_STRSZ */) {
			strsz = val;
			has_strsz = true;
		} else if ((tag == 14 || tag == 15 || tag == 29) /* SONAME, RPATH, RUNPATH */ ||
			   (tag == 1 /* DT_NEEDED */ && n_needed++ < ELF_DYNAMIC_MAX_NEEDED)) {
			/* A repeated SONAME/RPATH/RUNPATH: the last one counts, keeping all is
			 * only more bytes. */
			if (n_idx < ARRAY_SIZE(idx))
				idx[n_idx++] = val;
		}
	}
	if (n_idx == 0 || !has_strtab || !has_strsz ||
	    !strtab_offset(img, l, phoff, phnum, strtab, &off) ||
	    !elf_range_ok(l->size, off, strsz))
		return;
	for (size_t i = 0; i < n_idx; i++)
		if (idx[i] < strsz)
			elf_want(w, off + idx[i],
				 MIN(strsz - idx[i], (uint64_t)ELF_DYNAMIC_MAX_STRING + 1));
}

size_t elf_dynamic_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want_out, size_t cap, int *complete,
			  size_t *strings_from)
{
	struct elf_wants w = { .r = want_out, .cap = cap, .have = have, .userdata = userdata };
	struct layout l = { .size = size };
	uint64_t phoff, shoff, phnum, shnum, phentsize, shsz, dyn = 0, dynsz = 0, n;
	bool found = false;

	*complete = 0;
	*strings_from = cap;
	if (!elf_want(&w, 0, MIN(size, (uint64_t)64)))
		return w.n;
	*complete = 1;
	if (size < 52 || memcmp(img, "\177ELF", 4) != 0 || (img[4] != 1 && img[4] != 2) ||
	    (img[5] != 1 && img[5] != 2))
		return w.n;
	l.is64 = img[4] == 2;
	l.msb = img[5] == 2;
	if (l.is64 && size < 64)
		return w.n;
	phoff = elf_field(img, l.is64 ? 32 : 28, l.is64 ? 8 : 4, l.msb);
	shoff = elf_field(img, l.is64 ? 40 : 32, l.is64 ? 8 : 4, l.msb);
	phentsize = elf_field(img, l.is64 ? 54 : 42, 2, l.msb);
	phnum = elf_field(img, l.is64 ? 56 : 44, 2, l.msb);
	shnum = elf_field(img, l.is64 ? 60 : 48, 2, l.msb);
	shsz = l.is64 ? 64 : 40;
	/* libelf reads the section header table when it opens the file (and entry 0 for the
	 * real counts past PN_XNUM): kept whole when it is not huge, else entry 0. */
	if (shoff != 0 && shoff < size) {
		uint64_t len = MAX(shnum, (uint64_t)1) * shsz;

		if (len > ELF_STREAM_MAX_SHDR_TABLE)
			len = shsz;
		/* Only the PN_XNUM count waits for it: the table usually ends the file. */
		if (!elf_want(&w, shoff, MIN(len, size - shoff)) && phnum == 0xffff) {
			*complete = 0;
			return w.n;
		}
		if (phnum == 0xffff /* PN_XNUM */ && elf_range_ok(size, shoff, shsz))
			phnum = elf_field(img, shoff + (l.is64 ? 44 : 28), 4, l.msb);
	}
	if (phnum == 0 || phnum > ELF_DYNAMIC_MAX_PHDRS || phentsize != (l.is64 ? 56u : 32u) ||
	    !elf_range_ok(size, phoff, phnum * phentsize))
		return w.n;
	if (!elf_want(&w, phoff, phnum * phentsize)) {
		*complete = 0;
		return w.n;
	}
	for (uint64_t i = 0; i < phnum && !found; i++) {
		uint64_t ph = phoff + i * phentsize;
		unsigned fw = l.is64 ? 8 : 4;

		if (elf_field(img, ph, 4, l.msb) == 2 /* PT_DYNAMIC */) {
			dyn = elf_field(img, ph + (l.is64 ? 8 : 4), fw, l.msb);
			dynsz = elf_field(img, ph + (l.is64 ? 32 : 16), fw, l.msb);
			found = true;
		}
	}
	if (!found || !elf_range_ok(size, dyn, dynsz))
		return w.n;
	n = MIN(dynsz / (l.is64 ? 16 : 8), (uint64_t)ELF_DYNAMIC_MAX_ENTRIES);
	if (n == 0)
		return w.n;
	if (!elf_want(&w, dyn, n * (l.is64 ? 16 : 8))) {
		*complete = 0;
		return w.n;
	}
	*strings_from = w.n;
	want_strings(&w, img, &l, phoff, phnum, dyn, n);
	return w.n;
}

static int parse_dynamic(void *userdata, const uint8_t *img, size_t size)
{
	return elf_dynamic_parse(img, size, userdata);
}

int elf_dynamic_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     struct elf_dynamic **ret)
{
	static const elf_stream_wanted wanted[] = { elf_dynamic_wanted };

	return elf_stream_parse(source, userdata, max, wanted, 1, parse_dynamic, ret);
}
