/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * elf_dynamic_parse() over a file that can only be read from its start, in order
 * (elf-stream.h): the stages keep the ELF header, the program headers and the section header
 * table libelf looks at, PT_DYNAMIC's entries, and each DT_STRTAB string up to its
 * terminator, capped as elf-dynamic.c caps it.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "formats/elf-dynamic.h"
#include "formats/elf-stream.h"

/* Parses the file of at most max bytes that source hands out (elf_stream_parse()). Returns
 * what elf_dynamic_parse() would on the whole file, or elf_stream_parse()'s errors: the
 * caller reads the file whole after -ENOBUFS or -ELOOP. */
int elf_dynamic_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     struct elf_dynamic **ret);

/* The ranges elf_dynamic_parse() reads (an elf_stream_wanted). */
size_t elf_dynamic_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want, size_t cap, int *complete, size_t *strings_from);
