/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser of an ELF file's dynamic symbols and their GNU symbol versions over a (ptr, len)
 * buffer: which symbols a library needs from another and under which version (undefined
 * .dynsym entries, .gnu.version_r: Elfxx_Verneed's vn_file and Elfxx_Vernaux's vna_name), and
 * which it defines (.gnu.version_d). ld.so resolves an undefined versioned symbol only from a
 * definition of the same name and version: "undefined symbol: __nvJitLinkComplete_12_4,
 * version libnvJitLink.so.12" otherwise (LSB Core, "Symbol Versioning"; glibc elf/dl-lookup.c).
 * Only symbols whose name starts with a given prefix are kept. Uses libelf (elf_memory,
 * section headers; a file without them has no symbols read) read-only; counts are capped.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_SYMBOLS_MAX_SCANNED (1u << 22) /* .dynsym entries looked at */
#define ELF_SYMBOLS_MAX_KEPT	512u	   /* matching symbols kept per prefix; beyond: truncated */
#define ELF_SYMBOLS_MAX_VERSION 4096u	   /* version indexes mapped to names */
#define ELF_SYMBOLS_MAX_NEEDED	4096u	   /* needed symbols kept; beyond: truncated */

struct elf_symbol {
	char *name;
	char *version; /* its version's name ("libnvJitLink.so.12"), or NULL: unversioned */
	char *file;    /* an undefined symbol's Verneed file (the soname it is needed from) */
	bool defined;
};

struct elf_symbols {
	struct elf_symbol *sym;
	size_t n;
	bool truncated; /* more matching symbols than ELF_SYMBOLS_MAX_KEPT, or .dynsym capped */
	bool has_dynsym;
	/* The first problem that did not stop the parse (a version index no table names, a
	 * name outside its string table …): static text, or NULL. */
	const char *problem;
};

/* Parses p[0..len), keeping the symbols whose name starts with prefix (every symbol for "").
 * -EBADMSG when it is not an ELF file (*ret untouched); -ENOMEM. */
int elf_symbols_parse(const uint8_t *p, size_t len, const char *prefix, struct elf_symbols **ret);
/* The same for the symbols whose name starts with any of prefixes (NULL-terminated, at least
 * one), in .dynsym order, ELF_SYMBOLS_MAX_KEPT kept per prefix given: one pass over the table
 * for several namespaces (torch's c10::, at::, torch::). */
int elf_symbols_parse_any(const uint8_t *p, size_t len, const char *const *prefixes,
			  struct elf_symbols **ret);
/* Every undefined symbol needed under a version of another file (a Verneed entry names the
 * file: vn_file), whatever its name, ELF_SYMBOLS_MAX_NEEDED kept: what a library needs of its
 * siblings (libcusolver's cublasSetEnvironmentMode@libcublas.so.12). */
int elf_symbols_parse_needed(const uint8_t *p, size_t len, struct elf_symbols **ret);
struct elf_symbols *elf_symbols_free(struct elf_symbols *s);
static inline void elf_symbols_freep(struct elf_symbols **s)
{
	elf_symbols_free(*s);
}

/* Do a and b hold the same symbols, flags and problem (two reads of one file)? */
bool elf_symbols_same(const struct elf_symbols *a, const struct elf_symbols *b);

/* Does s define name with version (NULL: with any version, or none)? */
bool elf_symbols_defines(const struct elf_symbols *s, const char *name, const char *version);
