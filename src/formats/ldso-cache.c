// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * glibc's ld.so.cache (see ldso-cache.h for the three layouts; glibc
 * sysdeps/generic/dl-cache.h and elf/dl-cache.c _dl_load_cache_lookup() define them). Every
 * offset goes through at(), which checks off + n against the buffer without overflow; the
 * entry count is checked against the bytes present before anything is allocated, and
 * capped. Multi-byte fields are read in the byte order the new header's flags name
 * (little endian when unset, as ldconfig before glibc 2.33 wrote only native caches).
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ldso-cache.h"
#include "shared/macro.h"

#define MAGIC_OLD	     "ld.so-1.7.0"
#define MAGIC_NEW	     "glibc-ld.so.cache1.1"
#define OLD_HEADER	     16u /* magic[11], pad, nlibs */
#define OLD_ENTRY	     12u /* flags, key, value */
#define NEW_HEADER	     48u /* _Static_assert in dl-cache.h */
#define NEW_ENTRY	     24u /* flags, key, value, osversion, hwcap */
#define EXT_MAGIC	     0xeaa42174u
#define EXT_HEADER	     8u
#define EXT_SECTION	     16u
#define EXT_MAX_SECTIONS     64u
#define EXT_TAG_GENERATOR    0u
#define EXT_TAG_HWCAPS	     1u
#define GENERATOR_MAX	     256u
#define HWCAP_EXTENSION	     (1ull << 62)
#define HWCAP_ISA_LEVEL_MASK 0x3ffu

struct buf {
	const uint8_t *p;
	size_t len;
	bool be;
};

/* The one bounds check: [off, off + n) lies inside the buffer. */
static const uint8_t *at(const struct buf *b, uint64_t off, uint64_t n)
{
	if (off > b->len || n > b->len - off)
		return NULL;
	return b->p + off;
}

static uint32_t rd32(const struct buf *b, const uint8_t *q)
{
	if (b->be)
		return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
	return (uint32_t)q[3] << 24 | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
}

static uint64_t rd64(const struct buf *b, const uint8_t *q)
{
	uint64_t lo = rd32(b, q), hi = rd32(b, q + 4);

	return b->be ? lo << 32 | hi : hi << 32 | lo;
}

static int fail(char *why, size_t why_len, int err, const char *fmt, ...) _printf_(4, 5);
static int fail(char *why, size_t why_len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* A NUL-terminated string at base + off, entirely inside the buffer. */
static const char *string_at(const struct buf *b, uint64_t base, uint32_t off)
{
	const uint8_t *s = at(b, base, (uint64_t)off + 1);
	size_t room;

	if (!s)
		return NULL;
	s += off;
	room = b->len - (size_t)(s - b->p);
	return memchr(s, '\0', room) ? (const char *)s : NULL;
}

struct ldso_cache *ldso_cache_free(struct ldso_cache *c)
{
	if (!c)
		return NULL;
	free(c->entries);
	free(c->by_key);
	free(c->generator);
	free(c);
	return NULL;
}

static void set_problem(struct ldso_cache *c, const char *why)
{
	if (!c->problem)
		c->problem = why;
}

/* Reads the entries of one table; strings at strbase + key/value. */
static int read_entries(const struct buf *b, struct ldso_cache *c, uint64_t off, uint32_t n,
			unsigned entsize, uint64_t strbase, char *why, size_t why_len)
{
	c->entries = calloc(n ? n : 1, sizeof(*c->entries));
	if (!c->entries)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *q = at(b, off + (uint64_t)i * entsize, entsize);
		struct ldso_cache_entry *e = &c->entries[i];
		uint32_t key, value;

		if (!q)
			return fail(why, why_len, -EBADMSG,
				    "entry %u lies past the end of the file", i);
		e->flags = (int32_t)rd32(b, q);
		key = rd32(b, q + 4);
		value = rd32(b, q + 8);
		if (entsize == NEW_ENTRY) {
			e->osversion = rd32(b, q + 12);
			e->hwcap = rd64(b, q + 16);
		}
		e->key = string_at(b, strbase, key);
		if (!e->key)
			return fail(why, why_len, -EBADMSG,
				    "entry %u: key offset %#x outside the file or unterminated", i,
				    key);
		e->value = string_at(b, strbase, value);
		if (!e->value)
			return fail(why, why_len, -EBADMSG,
				    "entry %u: value offset %#x outside the file or unterminated",
				    i, value);
	}
	c->n_entries = n;
	return 0;
}

/* dl-cache.h dl_cache_hwcap_extension(): only bit 62 set above the low word and ISA bits. */
static bool hwcap_is_extension(uint64_t hwcap)
{
	return ((hwcap >> 32) & ~(uint64_t)HWCAP_ISA_LEVEL_MASK) == (HWCAP_EXTENSION >> 32);
}

/* The extension directory (dl-cache.h cache_extension_load()); problems are not fatal. */
static int read_extensions(const struct buf *b, struct ldso_cache *c, uint32_t ext_off)
{
	const uint8_t *hw = NULL, *q;
	uint32_t count, hw_n = 0;

	if (ext_off == 0)
		return 0;
	q = at(b, ext_off, EXT_HEADER);
	if (ext_off % 4 || !q || rd32(b, q) != EXT_MAGIC) {
		set_problem(c, "extension directory missing or misaligned");
		return 0;
	}
	count = rd32(b, q + 4);
	if (count > EXT_MAX_SECTIONS ||
	    !at(b, (uint64_t)ext_off + EXT_HEADER, (uint64_t)count * EXT_SECTION)) {
		set_problem(c, "extension directory extends past the end of the file");
		return 0;
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *s = q + EXT_HEADER + (size_t)i * EXT_SECTION;
		uint32_t tag = rd32(b, s), off = rd32(b, s + 8), size = rd32(b, s + 12);
		const uint8_t *data = at(b, off, size);

		if (!data) {
			set_problem(c, "extension section extends past the end of the file");
			return 0;
		}
		if (tag == EXT_TAG_GENERATOR && !c->generator && size > 0) {
			size_t n = strnlen((const char *)data, MIN(size, GENERATOR_MAX));

			c->generator = strndup((const char *)data, n);
			if (!c->generator)
				return -ENOMEM;
		} else if (tag == EXT_TAG_HWCAPS && size > 0 && size % 4 == 0 && off % 4 == 0) {
			hw = data;
			hw_n = size / 4;
		}
	}
	/* hwcaps entries name their subdirectory by index into the hwcaps section, whose
	 * elements are string offsets from the start of the file (dl-cache.c). */
	for (size_t i = 0; i < c->n_entries; i++) {
		struct ldso_cache_entry *e = &c->entries[i];
		uint32_t idx = (uint32_t)e->hwcap;

		if (!hwcap_is_extension(e->hwcap))
			continue;
		e->isa_level = (unsigned)((e->hwcap >> 32) & HWCAP_ISA_LEVEL_MASK);
		if (!hw || idx >= hw_n) {
			set_problem(c, "an hwcaps entry names no glibc-hwcaps subdirectory");
			continue;
		}
		e->hwcaps_subdir = string_at(b, 0, rd32(b, hw + (size_t)idx * 4));
		if (!e->hwcaps_subdir)
			set_problem(c, "a glibc-hwcaps subdirectory name lies outside the file");
	}
	return 0;
}

/* The new layout at offset base (0, or after the old table in the compat layout). */
static int parse_new(struct buf *b, struct ldso_cache *c, uint64_t base, char *why, size_t why_len)
{
	const uint8_t *h = at(b, base, NEW_HEADER);
	uint32_t nlibs, ext_off;
	uint8_t endian;
	int err;

	if (!h)
		return fail(why, why_len, -EBADMSG, "new-format header cut off at %zu bytes",
			    b->len - (size_t)MIN(base, b->len));
	/* dl-cache.h: flags & 3 = 0 unset, 1 invalid, 2 little, 3 big. */
	endian = h[28] & 3;
	if (endian == 1)
		return fail(why, why_len, -EPROTONOSUPPORT, "cache marked invalid (endian flag 1)");
	b->be = endian == 3;
	c->big_endian = b->be;
	nlibs = rd32(b, h + 20);
	ext_off = rd32(b, h + 32);
	if (nlibs > LDSO_CACHE_MAX_ENTRIES)
		return fail(why, why_len, -EBADMSG, "%u entries, more than gpuenv reads (%u)",
			    nlibs, LDSO_CACHE_MAX_ENTRIES);
	if (!at(b, base + NEW_HEADER, (uint64_t)nlibs * NEW_ENTRY))
		return fail(why, why_len, -EBADMSG,
			    "truncated: %u entries need %llu bytes, the file has %zu", nlibs,
			    (unsigned long long)(base + NEW_HEADER + (uint64_t)nlibs * NEW_ENTRY),
			    b->len);
	err = read_entries(b, c, base + NEW_HEADER, nlibs, NEW_ENTRY, base, why, why_len);
	if (err < 0)
		return err;
	return read_extensions(b, c, ext_off);
}

/* by_key's order: the key, then the place in the file. */
static int by_key_cmp(const void *x, const void *y, void *data)
{
	const struct ldso_cache_entry *e = data;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int d = ldso_cache_libcmp(e[a].key, e[b].key);

	if (d)
		return d < 0 ? -1 : 1;
	return (a > b) - (a < b);
}

/* Sorts the entries by key once: a doctor run looks up a few hundred sonames in a cache of
 * thousands, which a walk over the whole table per lookup made ~19% of its instructions. */
static int index_keys(struct ldso_cache *c)
{
	c->by_key = malloc(MAX(c->n_entries, (size_t)1) * sizeof(*c->by_key));
	if (!c->by_key)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_entries; i++)
		c->by_key[i] = (uint32_t)i;
	qsort_r(c->by_key, c->n_entries, sizeof(*c->by_key), by_key_cmp, c->entries);
	return 0;
}

int ldso_cache_parse(const uint8_t *p, size_t len, struct ldso_cache **ret, char *why,
		     size_t why_len)
{
	struct buf b = { .p = p, .len = p ? len : 0 };
	struct ldso_cache *c;
	int err;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (b.len >= strlen(MAGIC_NEW) && memcmp(p, MAGIC_NEW, strlen(MAGIC_NEW)) == 0) {
		c->format = LDSO_CACHE_FORMAT_NEW;
		err = parse_new(&b, c, 0, why, why_len);
	} else if (b.len >= strlen(MAGIC_OLD) && memcmp(p, MAGIC_OLD, strlen(MAGIC_OLD)) == 0) {
		const uint8_t *h = at(&b, 0, OLD_HEADER);
		uint32_t nlibs = h ? rd32(&b, h + 12) : 0;
		uint64_t end = OLD_HEADER + (uint64_t)nlibs * OLD_ENTRY;
		uint64_t newoff =
			(end + 7) & ~(uint64_t)7; /* ALIGN_CACHE: alignof(cache_file_new) */
		const uint8_t *nh;

		if (!h)
			err = fail(why, why_len, -EBADMSG, "old-format header cut off at %zu bytes",
				   len);
		else if (nlibs > LDSO_CACHE_MAX_ENTRIES)
			err = fail(why, why_len, -EBADMSG,
				   "%u entries, more than gpuenv reads (%u)", nlibs,
				   LDSO_CACHE_MAX_ENTRIES);
		else if (!at(&b, OLD_HEADER, (uint64_t)nlibs * OLD_ENTRY))
			err = fail(why, why_len, -EBADMSG,
				   "truncated: %u entries need %llu bytes, the file has %zu", nlibs,
				   (unsigned long long)end, len);
		else if ((nh = at(&b, newoff, strlen(MAGIC_NEW))) &&
			 memcmp(nh, MAGIC_NEW, strlen(MAGIC_NEW)) == 0) {
			/* ld.so uses the appended new table and ignores the old one. */
			c->format = LDSO_CACHE_FORMAT_COMPAT;
			err = parse_new(&b, c, newoff, why, why_len);
		} else {
			c->format = LDSO_CACHE_FORMAT_OLD;
			err = read_entries(&b, c, OLD_HEADER, nlibs, OLD_ENTRY, end, why, why_len);
		}
	} else {
		err = fail(why, why_len, -EBADMSG, "no ld.so.cache magic (\"%s\" or \"%s\")",
			   MAGIC_NEW, MAGIC_OLD);
	}
	if (err >= 0)
		err = index_keys(c);
	if (err < 0) {
		ldso_cache_free(c);
		return err;
	}
	*ret = c;
	return 0;
}

const char *ldso_cache_flags_name(int32_t flags, char *buf, size_t len)
{
	/* glibc elf/cache.c print_entry(). */
	static const struct {
		int32_t v;
		const char *name;
	} req[] = {
		{ 0x0100, ",64bit" },	    { 0x0200, ",IA-64" },
		{ 0x0300, ",x86-64" },	    { 0x0400, ",64bit" },
		{ 0x0500, ",64bit" },	    { 0x0600, ",N32" },
		{ 0x0700, ",64bit" },	    { 0x0800, ",x32" },
		{ 0x0900, ",hard-float" },  { 0x0a00, ",AArch64" },
		{ 0x0b00, ",soft-float" },  { 0x0c00, ",nan2008" },
		{ 0x0d00, ",N32,nan2008" }, { 0x0e00, ",64bit,nan2008" },
		{ 0x0f00, ",soft-float" },  { 0x1000, ",double-float" },
		{ 0x1100, ",soft-float" },  { 0x1200, ",double-float" },
	};
	const char *type, *r = NULL;
	char other[16] = "";

	switch (flags & LDSO_FLAG_TYPE_MASK) {
	case 0x0000:
		type = "libc4";
		break;
	case 0x0001:
		type = "ELF";
		break;
	case 0x0002:
		type = "libc5";
		break;
	case 0x0003:
		type = "libc6";
		break;
	default:
		type = "unknown";
		break;
	}
	for (size_t i = 0; i < ARRAY_SIZE(req); i++)
		if (req[i].v == (flags & LDSO_FLAG_REQUIRED_MASK))
			r = req[i].name;
	if (!r && (flags & LDSO_FLAG_REQUIRED_MASK))
		snprintf(other, sizeof(other), ",%d", flags & LDSO_FLAG_REQUIRED_MASK);
	snprintf(buf, len, "%s%s", type, r ? r : other);
	return buf;
}

int32_t ldso_cache_arch_flags(unsigned elf_class, unsigned machine)
{
	switch (machine) {
	case EM_X86_64:
		return LDSO_FLAG_ELF_LIBC6 |
		       (elf_class == ELFCLASS32 ? LDSO_FLAG_X8664_LIBX32 : LDSO_FLAG_X8664_LIB64);
	case EM_386:
		return LDSO_FLAG_ELF_LIBC6;
	case EM_AARCH64:
		return LDSO_FLAG_ELF_LIBC6 | LDSO_FLAG_AARCH64_LIB64;
	case EM_PPC64:
		return LDSO_FLAG_ELF_LIBC6 | LDSO_FLAG_POWERPC_LIB64;
	case EM_S390:
		return LDSO_FLAG_ELF_LIBC6 | (elf_class == ELFCLASS64 ? LDSO_FLAG_S390_LIB64 : 0);
	case EM_RISCV:
		return elf_class == ELFCLASS64
			       ? LDSO_FLAG_ELF_LIBC6 | LDSO_FLAG_RISCV_FLOAT_ABI_DOUBLE
			       : 0;
	case EM_LOONGARCH:
		return LDSO_FLAG_ELF_LIBC6 | LDSO_FLAG_LARCH_FLOAT_ABI_DOUBLE;
	case EM_ARM:
		return LDSO_FLAG_ELF_LIBC6 | LDSO_FLAG_ARM_LIBHF;
	default:
		return 0;
	}
}

bool ldso_cache_flags_match(int32_t flags, int32_t want)
{
	/* 64-bit ports define _dl_cache_check_flags() as equality with their default ID; the
	 * generic one (i386 …) also takes plain ELF entries (flags 1). */
	if (want & LDSO_FLAG_REQUIRED_MASK)
		return flags == want;
	return flags == LDSO_FLAG_ELF || flags == LDSO_FLAG_ELF_LIBC6;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int ldso_cache_libcmp(const char *a, const char *b)
{
	while (*a) {
		if (is_digit(*a)) {
			unsigned long long va = 0, vb = 0;

			if (!is_digit(*b))
				return 1;
			/* Saturating: overlong digit runs compare equal at the cap, never overflow.
			 */
			while (is_digit(*a)) {
				va = va < 1000000000000ull ? va * 10 + (unsigned)(*a - '0') : va;
				a++;
			}
			while (is_digit(*b)) {
				vb = vb < 1000000000000ull ? vb * 10 + (unsigned)(*b - '0') : vb;
				b++;
			}
			if (va != vb)
				return va < vb ? -1 : 1;
		} else if (is_digit(*b)) {
			return -1;
		} else if (*a != *b) {
			return (unsigned char)*a - (unsigned char)*b;
		} else {
			a++;
			b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

const struct ldso_cache_entry *ldso_cache_lookup(const struct ldso_cache *c, const char *soname,
						 int32_t want)
{
	const uint32_t *same;
	size_t n = ldso_cache_find(c, soname, &same);

	for (size_t i = 0; i < n; i++) {
		const struct ldso_cache_entry *e = &c->entries[same[i]];

		if (!hwcap_is_extension(e->hwcap) && ldso_cache_flags_match(e->flags, want))
			return e;
	}
	return NULL;
}

size_t ldso_cache_find(const struct ldso_cache *c, const char *soname, const uint32_t **ret)
{
	size_t lo = 0, hi, end;

	*ret = NULL;
	if (!c || !soname || !c->by_key)
		return 0;
	hi = c->n_entries;
	while (lo < hi) { /* the first key not below soname */
		size_t mid = lo + (hi - lo) / 2;

		if (ldso_cache_libcmp(c->entries[c->by_key[mid]].key, soname) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo;
	     end < c->n_entries && ldso_cache_libcmp(c->entries[c->by_key[end]].key, soname) == 0;
	     end++)
		;
	*ret = c->by_key + lo;
	return end - lo;
}
