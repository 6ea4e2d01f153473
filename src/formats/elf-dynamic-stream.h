/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * elf_dynamic_parse() over a file that can only be read from its start, in order (a large
 * compressed member of a wheel or an image layer: root_stream()), without holding the file:
 * each pass over the stream keeps only the byte ranges the parser reads, learned in stages
 * from the bytes kept so far (the ELF header; the program headers and the section header
 * table libelf looks at; PT_DYNAMIC's entries; each DT_STRTAB string up to its terminator,
 * capped as elf-dynamic.c caps it). The kept ranges are laid out at their file offsets in an
 * untouched, unreserved anonymous mapping, so the parser itself runs unchanged and its
 * result is the whole-file parse's; memory is the kept ranges only.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "formats/elf-dynamic.h"

#define ELF_STREAM_MAX_PASSES	  5u		      /* header, tables, dynamic, strings, slack */
#define ELF_STREAM_MAX_SHDR_TABLE ((uint64_t)1 << 20) /* section header table kept whole */

/* Hands the file's bytes in order to chunk (root_stream()'s shape) and its size to *size. */
typedef int (*elf_stream_source)(void *userdata, int (*chunk)(void *, const uint8_t *, size_t),
				 void *chunk_userdata, uint64_t *size);

/* Parses the file of at most max bytes that source hands out, reading it as often as the
 * stages need (at most ELF_STREAM_MAX_PASSES times). Returns what elf_dynamic_parse() would
 * on the whole file, or source's own error; -EFBIG past max; -ENOBUFS when the ranges could
 * not be kept (no address space for the mapping, too many of them) and -ELOOP when the
 * stages did not settle: the caller then reads the file whole. */
int elf_dynamic_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     struct elf_dynamic **ret);

/* The ranges a parse of img[0..size) reads, as far as the ranges already kept (have()) let
 * it tell: *complete is false while a stage waits for bytes not kept yet. Returns the number
 * of ranges put in want (at most cap); those from *strings_from on are strings, which no
 * later stage waits for. */
struct elf_range {
	uint64_t off, len;
};
size_t elf_dynamic_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want, size_t cap, int *complete, size_t *strings_from);
