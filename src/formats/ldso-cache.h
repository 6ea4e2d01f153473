/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser of glibc's /etc/ld.so.cache over a (ptr, len) buffer, written by ldconfig(8)
 * and read by ld.so(8). Three layouts (glibc sysdeps/generic/dl-cache.h, elf/dl-cache.c,
 * elf/cache.c):
 *   new    "glibc-ld.so.cache1.1": a 48-byte header (nlibs, len_strings, endian flags,
 *          extension_offset), nlibs 24-byte entries (flags, key, value, osversion, hwcap),
 *          then the strings; string offsets count from the start of this header;
 *   old    "ld.so-1.7.0": a 16-byte header, nlibs 12-byte entries (flags, key, value);
 *          string offsets count from the end of the entries;
 *   compat the old layout with the new one appended at the next 8-byte boundary (ld.so
 *          then reads only the new part).
 * The extension directory (magic 0xeaa42174; offsets from the start of the file) names the
 * ldconfig that wrote the cache and the glibc-hwcaps subdirectories of hwcaps entries.
 * Entry flags say the ABI (FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 = "libc6,x86-64", as
 * `ldconfig -p` prints it). Strings are borrowed from the buffer: keep it mapped while the
 * parse result is used.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LDSO_CACHE_MAX_ENTRIES 262144u
#define LDSO_CACHE_REASON_MAX  160

/* dl-cache.h FLAG_* values. */
enum {
	LDSO_FLAG_TYPE_MASK = 0x00ff,
	LDSO_FLAG_ELF = 0x0001,
	LDSO_FLAG_ELF_LIBC6 = 0x0003,
	LDSO_FLAG_REQUIRED_MASK = 0xff00,
	LDSO_FLAG_X8664_LIB64 = 0x0300,
	LDSO_FLAG_S390_LIB64 = 0x0400,
	LDSO_FLAG_POWERPC_LIB64 = 0x0500,
	LDSO_FLAG_X8664_LIBX32 = 0x0800,
	LDSO_FLAG_ARM_LIBHF = 0x0900,
	LDSO_FLAG_AARCH64_LIB64 = 0x0a00,
	LDSO_FLAG_RISCV_FLOAT_ABI_DOUBLE = 0x1000,
	LDSO_FLAG_LARCH_FLOAT_ABI_DOUBLE = 0x1200,
};

enum ldso_cache_format {
	LDSO_CACHE_FORMAT_NEW,
	LDSO_CACHE_FORMAT_OLD,
	LDSO_CACHE_FORMAT_COMPAT,
};

struct ldso_cache_entry {
	int32_t flags;
	uint32_t osversion;
	uint64_t hwcap;		   /* 0 in the old layout */
	const char *key;	   /* the soname ("libcuda.so.1"), borrowed */
	const char *value;	   /* the path ld.so opens, borrowed */
	const char *hwcaps_subdir; /* glibc-hwcaps name ("x86-64-v3") of an hwcaps entry, or NULL */
	unsigned isa_level;	   /* ISA level bits of an hwcaps entry */
};

struct ldso_cache {
	enum ldso_cache_format format;
	bool big_endian;
	size_t n_entries;
	struct ldso_cache_entry *entries; /* in file order (ldconfig's sort order) */
	/* Indices of entries ordered by key (ldso_cache_libcmp()), file order among equal keys:
	 * a lookup is a binary search whatever order the file is in (ldso_cache_find()). */
	uint32_t *by_key;
	char *generator; /* "ldconfig (Debian GLIBC 2.36-9+deb12u4) stable release …", or NULL */
	/* The first problem that did not stop the parse (a bad extension directory, which
	 * ld.so ignores too): static text, or NULL. */
	const char *problem;
};

/*
 * Parses p[0..len). -EBADMSG (with a reason in why) when the magic is unknown, the header
 * or the entries are cut off, or an entry's string offset lies outside the file or its
 * string is not terminated there; -EPROTONOSUPPORT for a cache that marks itself invalid
 * (endian flag 1); -ENOMEM.
 */
int ldso_cache_parse(const uint8_t *p, size_t len, struct ldso_cache **ret, char *why,
		     size_t why_len);
struct ldso_cache *ldso_cache_free(struct ldso_cache *c);
static inline void ldso_cache_freep(struct ldso_cache **c)
{
	ldso_cache_free(*c);
}

/* "libc6,x86-64", "libc6", "ELF,AArch64" …: the ABI as `ldconfig -p` prints it. */
const char *ldso_cache_flags_name(int32_t flags, char *buf, size_t len);
/* The flags ld.so wants for an ELF class and e_machine (glibc's _DL_CACHE_DEFAULT_ID per
 * sysdeps/unix/sysv/linux/<arch>/dl-cache.h); 0 when this arch is not known here. */
int32_t ldso_cache_arch_flags(unsigned elf_class, unsigned machine);
/* glibc's _dl_cache_check_flags(): does an entry with flags serve a process wanting want? */
bool ldso_cache_flags_match(int32_t flags, int32_t want);
/* glibc's _dl_cache_libcmp(): digit runs compare as numbers ("libx.so.01" == "libx.so.1"). */
int ldso_cache_libcmp(const char *a, const char *b);
/*
 * What ld.so's search_cache() returns for soname: the first entry (file order) with that key
 * whose flags match want, skipping glibc-hwcaps entries (their use depends on the CPU; the
 * caller lists them as candidates). NULL when none.
 */
const struct ldso_cache_entry *ldso_cache_lookup(const struct ldso_cache *c, const char *soname,
						 int32_t want);
/* The entries whose key is soname (ldso_cache_libcmp() equal), in file order: their indices
 * in c->entries at *ret[0..n), n returned (0: none). */
size_t ldso_cache_find(const struct ldso_cache *c, const char *soname, const uint32_t **ret);
