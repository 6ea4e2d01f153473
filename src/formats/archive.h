/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The members of a Unix ar archive (a static library, libcudadevrt.a) over a (ptr, len)
 * buffer, no I/O: each member's name and bytes, in file order, read with libelf's archive
 * support (elf_memory, elf_begin on the archive, elf_getarhdr: System V / GNU ar format, long
 * names from the "//" member resolved by libelf). The symbol index ("/", "/SYM64/") and the
 * long-name table are not members. Thin archives ("!<thin>\n", members in other files) are
 * recognised and refused.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AR_MAX_MEMBERS 65536u /* members visited at most (libcudart_static.a: 1) */

/* Starts with the ar magic "!<arch>\n" (or the thin "!<thin>\n")? */
bool ar_is_archive(const uint8_t *p, size_t len);

/* Calls fn for each member, in file order: its name (as ar t prints it) and bytes, which lie
 * inside p[0..len). A negative return from fn stops the walk with it. Returns 0, -EBADMSG
 * (not an archive, or a member header out of range: *why, when not NULL, gets libelf's
 * reason as static text), -EOPNOTSUPP (a thin archive), -E2BIG (more than AR_MAX_MEMBERS
 * members; those before were visited) or -ENOMEM. */
int ar_for_each_member(const uint8_t *p, size_t len,
		       int (*fn)(void *userdata, const char *name, const uint8_t *m, size_t n),
		       void *userdata, const char **why);
