/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directory listings as root.c keeps them (root_list_dir(), root_list_dir_borrow()): read
 * from an open directory and sorted, in one block each. Internal to core/.
 */
#pragma once

#include <stddef.h>

/* A copy of n names as a string vector (strv_free() frees it), or NULL. */
char **listing_names_copy(char *const *names, size_t n);
/* n names in one block (the vector, then the strings), in their order: free() frees it. */
char **listing_block_of(char *const *names, size_t n);
/* The names the directory fd lists (no "." / ".."), sorted in strcmp order, as one block
 * (*ret_n of them); -E2BIG beyond max, -ENOMEM. */
int listing_read(int fd, size_t max, char ***ret, size_t *ret_n);
