/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Does a shared library define a dynamic symbol? Answered the way ld.so answers it, through
 * the library's GNU hash table (DT_GNU_HASH: a Bloom filter, buckets and hash chains over the
 * sorted tail of .dynsym; glibc elf/dl-lookup.c, do_lookup_x(); the layout as binutils'
 * bfd/elflink.c writes it), so that a lookup reads a few words of a library of any size
 * instead of its whole symbol table (libtorch_cpu.so holds several hundred thousand). Reads
 * go through a pread-like callback; every offset is checked against the file's size and each
 * chain walk is capped, so a malformed file is an error, never a fault or a hang. Only the
 * program headers are used (PT_DYNAMIC, PT_LOAD to map addresses to file offsets): what ld.so
 * itself reads. Both ELF classes and byte orders.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ELF_GNU_HASH_MAX_PHDRS	 256u	    /* program headers looked at */
#define ELF_GNU_HASH_MAX_DYNAMIC 4096u	    /* DT_* entries looked at */
#define ELF_GNU_HASH_MAX_CHAIN	 (1u << 16) /* chain entries one lookup walks */
#define ELF_GNU_HASH_MAX_NAME	 4096u	    /* longest name looked up */

/* The file: n bytes at off into buf, fewer only at its end, or -errno. */
struct elf_gnu_hash_input {
	ssize_t (*pread)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	uint64_t size;
};

struct elf_gnu_hash;

/* Reads the headers and the table's header. -EBADMSG: not an ELF file or malformed headers;
 * -ENOENT: no DT_GNU_HASH (an old DT_HASH-only library: not answered here); -ENOMEM; a
 * pread error as it came. */
int elf_gnu_hash_open(const struct elf_gnu_hash_input *in, struct elf_gnu_hash **ret);
/* 1 when the library defines name (a symbol of the table with a section), 0 when not,
 * -EBADMSG for a table that points outside the file or a chain over the cap, -EINVAL for a
 * name over ELF_GNU_HASH_MAX_NAME, or a pread error. */
int elf_gnu_hash_defines(struct elf_gnu_hash *h, const char *name);
struct elf_gnu_hash *elf_gnu_hash_free(struct elf_gnu_hash *h);
static inline void elf_gnu_hash_freep(struct elf_gnu_hash **h)
{
	elf_gnu_hash_free(*h);
}
