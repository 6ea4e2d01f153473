/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * elf_symbols_parse() over a file that can only be read from its start, in order
 * (elf-stream.h): the stages keep the ELF header, the section header table, and the
 * sections the parser reads (the first .dynsym, .gnu.version, .gnu.version_r and
 * .gnu.version_d, and the string tables their sh_link names), each at most
 * ELF_STREAM_MAX_RANGE bytes: a library's dynamic symbols without the rest of it.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "formats/elf-stream.h"
#include "formats/elf-symbols.h"

/* The ranges elf_symbols_parse() reads (an elf_stream_wanted). */
size_t elf_symbols_wanted(const uint8_t *img, uint64_t size,
			  int (*have)(void *userdata, uint64_t off, uint64_t len), void *userdata,
			  struct elf_range *want, size_t cap, int *complete, size_t *strings_from);

/* elf_symbols_parse(prefix) of the file of at most max bytes that source hands out, or
 * elf_stream_parse()'s errors (-ENOBUFS: a table over ELF_STREAM_MAX_RANGE). */
int elf_symbols_parse_stream(elf_stream_source source, void *userdata, uint64_t max,
			     const char *prefix, struct elf_symbols **ret);
