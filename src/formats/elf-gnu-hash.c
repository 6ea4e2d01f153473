// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A dynamic symbol looked up through DT_GNU_HASH (see elf-gnu-hash.h). The table, as glibc's
 * dl-lookup.c reads it and binutils' elflink.c writes it: four 32-bit words (nbuckets,
 * symoffset: the first .dynsym index the table covers, bloom_size, bloom_shift), bloom_size
 * Bloom words of the class's address size, nbuckets 32-bit buckets (the lowest symbol index
 * of each bucket, 0: empty), then one 32-bit chain word per covered symbol: its hash with bit
 * 0 set on a chain's last entry. The hash is h = h * 33 + c from 5381 over the name's bytes;
 * a name can be defined only when bits h % C and (h >> bloom_shift) % C are both set in Bloom
 * word (h / C) % bloom_size (C: 32 or 64, the word's width). The program headers come from the
 * System V gABI ("Program Header", "Dynamic Section"): DT_GNU_HASH, DT_SYMTAB and DT_STRTAB are
 * addresses, mapped to file offsets through the PT_LOAD segment that holds them.
 */
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-gnu-hash.h"
#include "shared/macro.h"

#define MAX_LOADS 16u

struct segment {
	uint64_t vaddr, off, filesz;
};

struct elf_gnu_hash {
	struct elf_gnu_hash_input in;
	bool is64, msb;
	struct segment loads[MAX_LOADS];
	size_t n_loads;
	uint64_t bloom, buckets, chains; /* file offsets */
	uint64_t symtab, strtab, strsz;
	uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
};

static uint64_t field(const uint8_t *p, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * (msb ? n - 1 - i : i));
	return v;
}

/* Exactly n bytes at off, inside the file: 0, -EBADMSG, or the callback's error. */
static int read_at(const struct elf_gnu_hash *h, uint64_t off, void *buf, size_t n)
{
	ssize_t got;

	if (off > h->in.size || n > h->in.size - off)
		return -EBADMSG;
	got = h->in.pread(h->in.userdata, off, buf, n);
	if (got < 0)
		return (int)got;
	return (size_t)got == n ? 0 : -EBADMSG;
}

static int read_word(const struct elf_gnu_hash *h, uint64_t off, unsigned n, uint64_t *ret)
{
	uint8_t b[8];
	int r = read_at(h, off, b, n);

	/* Set on failure too: gcc -O2 cannot see that (int) of a negative pread is negative
	 * and warns of the callers' words as maybe uninitialized. */
	*ret = r == 0 ? field(b, n, h->msb) : 0;
	return r;
}

/* The file offset of address vaddr, with at least need bytes of the segment after it. */
static bool to_offset(const struct elf_gnu_hash *h, uint64_t vaddr, uint64_t need, uint64_t *ret)
{
	for (size_t i = 0; i < h->n_loads; i++) {
		const struct segment *s = &h->loads[i];

		if (vaddr < s->vaddr || vaddr - s->vaddr >= s->filesz ||
		    need > s->filesz - (vaddr - s->vaddr))
			continue;
		*ret = s->off + (vaddr - s->vaddr);
		return true;
	}
	return false;
}

/* PT_LOAD segments and PT_DYNAMIC's place, from the program header table. */
static int read_phdrs(struct elf_gnu_hash *h, const uint8_t *eh, uint64_t *dyn_off,
		      uint64_t *dyn_size)
{
	uint64_t phoff = field(eh + (h->is64 ? 32 : 28), h->is64 ? 8 : 4, h->msb);
	unsigned entsize = (unsigned)field(eh + (h->is64 ? 54 : 42), 2, h->msb);
	unsigned phnum = (unsigned)field(eh + (h->is64 ? 56 : 44), 2, h->msb);
	unsigned want = h->is64 ? 56 : 32;
	bool found = false;

	if (entsize < want || phnum == 0 || phnum > ELF_GNU_HASH_MAX_PHDRS)
		return -EBADMSG;
	for (unsigned i = 0; i < phnum; i++) {
		uint8_t p[56];
		uint64_t type, off, vaddr, filesz;
		int r = read_at(h, phoff + (uint64_t)i * entsize, p, want);

		if (r < 0)
			return r;
		type = field(p, 4, h->msb);
		off = field(p + (h->is64 ? 8 : 4), h->is64 ? 8 : 4, h->msb);
		vaddr = field(p + (h->is64 ? 16 : 8), h->is64 ? 8 : 4, h->msb);
		filesz = field(p + (h->is64 ? 32 : 16), h->is64 ? 8 : 4, h->msb);
		if (type == PT_LOAD && h->n_loads < MAX_LOADS)
			h->loads[h->n_loads++] = (struct segment){ vaddr, off, filesz };
		else if (type == PT_DYNAMIC && !found) {
			*dyn_off = off;
			*dyn_size = filesz;
			found = true;
		}
	}
	return found ? 0 : -EBADMSG;
}

/* DT_GNU_HASH, DT_SYMTAB, DT_STRTAB (addresses) and DT_STRSZ from the dynamic section. */
static int read_dynamic(struct elf_gnu_hash *h, uint64_t off, uint64_t size, uint64_t *gnu_hash)
{
	unsigned w = h->is64 ? 8 : 4;
	uint64_t n = MIN(size / (2 * w), (uint64_t)ELF_GNU_HASH_MAX_DYNAMIC);
	bool have_hash = false, have_sym = false, have_str = false;

	for (uint64_t i = 0; i < n; i++) {
		uint8_t d[16];
		uint64_t tag, val;
		int r = read_at(h, off + i * 2 * w, d, 2 * w);

		if (r < 0)
			return r;
		tag = field(d, w, h->msb);
		val = field(d + w, w, h->msb);
		if (tag == DT_NULL)
			break;
		if (tag == DT_GNU_HASH)
			*gnu_hash = val, have_hash = true;
		else if (tag == DT_SYMTAB)
			h->symtab = val, have_sym = true;
		else if (tag == DT_STRTAB)
			h->strtab = val, have_str = true;
		else if (tag == DT_STRSZ)
			h->strsz = val;
	}
	if (!have_hash)
		return -ENOENT;
	return have_sym && have_str ? 0 : -EBADMSG;
}

/* The table's header, and the addresses of the tables made file offsets. */
static int read_table_header(struct elf_gnu_hash *h, uint64_t gnu_hash)
{
	unsigned w = h->is64 ? 8 : 4;
	uint64_t off, sym, str;
	uint8_t hdr[16];
	int r;

	if (!to_offset(h, gnu_hash, sizeof(hdr), &off) || !to_offset(h, h->symtab, 1, &sym) ||
	    !to_offset(h, h->strtab, 1, &str))
		return -EBADMSG;
	r = read_at(h, off, hdr, sizeof(hdr));
	if (r < 0)
		return r;
	h->nbuckets = (uint32_t)field(hdr, 4, h->msb);
	h->symoffset = (uint32_t)field(hdr + 4, 4, h->msb);
	h->bloom_size = (uint32_t)field(hdr + 8, 4, h->msb);
	h->bloom_shift = (uint32_t)field(hdr + 12, 4, h->msb);
	if (h->bloom_size == 0 || h->bloom_shift >= 8 * w)
		return -EBADMSG;
	h->bloom = off + sizeof(hdr);
	h->buckets = h->bloom + (uint64_t)h->bloom_size * w;
	h->chains = h->buckets + (uint64_t)h->nbuckets * 4;
	h->symtab = sym;
	h->strtab = str;
	return 0;
}

int elf_gnu_hash_open(const struct elf_gnu_hash_input *in, struct elf_gnu_hash **ret)
{
	_cleanup_(elf_gnu_hash_freep) struct elf_gnu_hash *h = NULL;
	uint64_t dyn_off = 0, dyn_size = 0, gnu_hash = 0;
	uint8_t eh[64];
	int r;

	if (!in || !in->pread || !ret)
		return -EINVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->in = *in;
	r = read_at(h, 0, eh, EI_NIDENT);
	if (r < 0)
		return r;
	if (memcmp(eh, ELFMAG, SELFMAG) != 0 ||
	    (eh[EI_CLASS] != ELFCLASS64 && eh[EI_CLASS] != ELFCLASS32) ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		return -EBADMSG;
	h->is64 = eh[EI_CLASS] == ELFCLASS64;
	h->msb = eh[EI_DATA] == ELFDATA2MSB;
	r = read_at(h, 0, eh, h->is64 ? 64 : 52);
	if (r < 0)
		return r;
	if ((r = read_phdrs(h, eh, &dyn_off, &dyn_size)) < 0 ||
	    (r = read_dynamic(h, dyn_off, dyn_size, &gnu_hash)) < 0 ||
	    (r = read_table_header(h, gnu_hash)) < 0)
		return r;
	*ret = TAKE_PTR(h);
	return 0;
}

static uint32_t gnu_hash(const char *name)
{
	uint32_t v = 5381;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		v = v * 33 + *p;
	return v;
}

/* Is .dynsym entry i a definition named name (len bytes)? */
static int symbol_is(const struct elf_gnu_hash *h, uint64_t i, const char *name, size_t len)
{
	unsigned ent = h->is64 ? 24 : 16;
	uint64_t st_name, shndx;
	char buf[ELF_GNU_HASH_MAX_NAME + 1];
	uint8_t s[24];
	int r = read_at(h, h->symtab + i * ent, s, ent);

	if (r < 0)
		return r;
	st_name = field(s, 4, h->msb);
	shndx = field(s + (h->is64 ? 6 : 14), 2, h->msb);
	if (h->strsz && (st_name >= h->strsz || len + 1 > h->strsz - st_name))
		return 0; /* the name would run past the string table: not this one */
	r = read_at(h, h->strtab + st_name, buf, len + 1);
	if (r == -EBADMSG)
		return 0;
	if (r < 0)
		return r;
	return memcmp(buf, name, len) == 0 && buf[len] == '\0' && shndx != SHN_UNDEF;
}

int elf_gnu_hash_defines(struct elf_gnu_hash *h, const char *name)
{
	unsigned w = h->is64 ? 8 : 4, c = 8 * w;
	size_t len = strlen(name);
	uint32_t hash = gnu_hash(name);
	uint64_t word, bucket, chain;
	int r;

	if (len > ELF_GNU_HASH_MAX_NAME)
		return -EINVAL;
	if (h->nbuckets == 0)
		return 0;
	r = read_word(h, h->bloom + (uint64_t)((hash / c) % h->bloom_size) * w, w, &word);
	if (r < 0)
		return r;
	if (!((word >> (hash % c)) & (word >> ((hash >> h->bloom_shift) % c)) & 1))
		return 0;
	r = read_word(h, h->buckets + (uint64_t)(hash % h->nbuckets) * 4, 4, &bucket);
	if (r < 0)
		return r;
	if (bucket == 0)
		return 0;
	if (bucket < h->symoffset)
		return -EBADMSG;
	for (uint64_t i = bucket; i - bucket < ELF_GNU_HASH_MAX_CHAIN; i++) {
		r = read_word(h, h->chains + (i - h->symoffset) * 4, 4, &chain);
		if (r < 0)
			return r;
		if ((chain | 1) == (hash | 1u)) {
			r = symbol_is(h, i, name, len);
			if (r != 0)
				return r;
		}
		if (chain & 1)
			return 0;
	}
	return -EBADMSG;
}

struct elf_gnu_hash *elf_gnu_hash_free(struct elf_gnu_hash *h)
{
	free(h);
	return NULL;
}
