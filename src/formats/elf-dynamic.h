/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser of an ELF file's dynamic section over a (ptr, len) buffer, read the way the
 * dynamic loader reads it: the ELF header (class, byte order, type, machine), PT_DYNAMIC from
 * the program headers, and DT_SONAME / DT_NEEDED / DT_RUNPATH / DT_RPATH as offsets into the
 * DT_STRTAB string table, whose address is mapped to a file offset through the PT_LOAD
 * segments. Format: the System V gABI "Dynamic Section" and "Program Header" chapters, glibc
 * elf/elf.h for the tag values, ld.so(8) for their meaning. Uses libelf (elf_memory,
 * elf_getdata_rawchunk) read-only; no section is copied whole, every offset is checked.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_DYNAMIC_MAX_PHDRS	4096u  /* program headers looked at */
#define ELF_DYNAMIC_MAX_ENTRIES 65536u /* dynamic entries looked at */
#define ELF_DYNAMIC_MAX_NEEDED	1024u  /* DT_NEEDED kept; beyond: needed_truncated */
#define ELF_DYNAMIC_MAX_STRING	65536u /* longest string taken from DT_STRTAB */

struct elf_dynamic {
	unsigned elf_class; /* ELFCLASS32 (1) / ELFCLASS64 (2) */
	unsigned data;	    /* ELFDATA2LSB (1) / ELFDATA2MSB (2) */
	unsigned type;	    /* ET_DYN, ET_EXEC … */
	unsigned machine;   /* EM_X86_64, EM_AARCH64 … */
	bool has_dynamic;   /* a PT_DYNAMIC segment exists (static executables have none) */
	char *soname;	    /* DT_SONAME, or NULL */
	char *runpath;	    /* DT_RUNPATH, or NULL */
	char *rpath;	    /* DT_RPATH, or NULL */
	char **needed;	    /* DT_NEEDED in file order, NULL-terminated; never NULL after parse */
	size_t n_needed;
	bool needed_truncated; /* more than ELF_DYNAMIC_MAX_NEEDED */
	/* The first problem that did not stop the parse (a string offset outside DT_STRTAB, a
	 * DT_STRTAB outside every PT_LOAD …): static text, or NULL. The fields it concerns are
	 * left NULL. */
	const char *problem;
};

/* Parses p[0..len). -EBADMSG when it is not an ELF file or its headers are malformed
 * (*ret untouched); -ENOMEM. A dynamic section with bad string offsets still parses, with
 * ->problem set. */
int elf_dynamic_parse(const uint8_t *p, size_t len, struct elf_dynamic **ret);
struct elf_dynamic *elf_dynamic_free(struct elf_dynamic *d);
static inline void elf_dynamic_freep(struct elf_dynamic **d)
{
	elf_dynamic_free(*d);
}

/* a and b say the same (every field, the strings compared): elf-dynamic-stream.c's result
 * is checked against the whole-file parse's with it. */
bool elf_dynamic_same(const struct elf_dynamic *a, const struct elf_dynamic *b);

/* "x86-64", "i386", "aarch64", … or NULL when not known here. */
const char *elf_machine_name(unsigned machine);
