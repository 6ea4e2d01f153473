/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An ELF parser run over a file that can only be read from its start, in order (a large
 * compressed member of a wheel or an image layer: root_stream()), without holding the file:
 * each pass over the stream keeps only the byte ranges the parsers read, learned in stages
 * from the bytes kept so far (what a parser's "wanted" function says: elf_dynamic_wanted(),
 * elf_symbols_wanted()). The kept ranges are laid out at their file offsets in an untouched,
 * unreserved anonymous mapping, so the parsers themselves run unchanged and their results
 * are the whole-file parse's; memory is the kept ranges only. Several parsers share the
 * passes: one read of the file for all of them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_STREAM_MAX_PASSES	  5u		       /* header, tables, dynamic, strings, slack */
#define ELF_STREAM_MAX_SHDR_TABLE ((uint64_t)1 << 20)  /* section header table kept whole */
#define ELF_STREAM_MAX_RANGE	  ((uint64_t)16 << 20) /* one kept range (a symbol table) */
#define ELF_STREAM_MAX_WANTED	  2u		       /* parsers sharing one read */
#define ELF_STREAM_MAX_WANT	  1032u /* ranges one parser names: 1024 DT_NEEDED strings + 8 */

/* Hands the file's bytes in order to chunk (root_stream()'s shape) and its size to *size. */
typedef int (*elf_stream_source)(void *userdata, int (*chunk)(void *, const uint8_t *, size_t),
				 void *chunk_userdata, uint64_t *size);

struct elf_range {
	uint64_t off, len;
};

/* The ranges a parse of img[0..size) reads, as far as the ranges already kept (have()) let
 * it tell: *complete is false while a stage waits for bytes not kept yet. Returns the number
 * of ranges put in want (at most cap); those from *strings_from on are strings, which no
 * later stage waits for. */
typedef size_t (*elf_stream_wanted)(const uint8_t *img, uint64_t size,
				    int (*have)(void *userdata, uint64_t off, uint64_t len),
				    void *userdata, struct elf_range *want, size_t cap,
				    int *complete, size_t *strings_from);

/* Reads the file of at most max bytes that source hands out as often as the stages of the
 * n wanted functions need (at most ELF_STREAM_MAX_PASSES times), then calls parse on the
 * kept ranges at their offsets and returns what it returns; or source's own error; -EFBIG
 * past max; -ENOBUFS when the ranges could not be kept (no address space for the mapping,
 * too many of them, one over ELF_STREAM_MAX_RANGE) and -ELOOP when the stages did not
 * settle. */
int elf_stream_parse(elf_stream_source source, void *userdata, uint64_t max,
		     const elf_stream_wanted *wanted, size_t n,
		     int (*parse)(void *parse_userdata, const uint8_t *img, size_t size),
		     void *parse_userdata);

/* Whether the wanted functions after the first are asked at all, from the bytes the first
 * one's stages kept (img of the file's size): asked once, when those are all kept. */
typedef bool (*elf_stream_gate)(void *userdata, const uint8_t *img, size_t size);

/* elf_stream_parse() where the parsers after the first keep nothing unless gate (called with
 * parse_userdata) says so: only the files that need them pay for what they keep (a symbol
 * table is megabytes), at the cost of a pass when those ranges come before what the gate
 * looks at. */
int elf_stream_parse_gated(elf_stream_source source, void *userdata, uint64_t max,
			   const elf_stream_wanted *wanted, size_t n, elf_stream_gate gate,
			   int (*parse)(void *parse_userdata, const uint8_t *img, size_t size),
			   void *parse_userdata);

/* The work the passes of this thread have done so far, counted where it grows with the
 * input (never timed): the bytes copied into kept ranges and the kept ranges looked at while
 * the chunks were handed out. A test reads it before and after a parse: both stay within a
 * small multiple of the file's size however many ranges overlap (fuzz-elf-dynamic-stream's
 * thousand overlapping strings once cost each byte once per range). */
struct elf_stream_work {
	uint64_t bytes_copied;
	uint64_t ranges_visited;
};
const struct elf_stream_work *elf_stream_work(void);
