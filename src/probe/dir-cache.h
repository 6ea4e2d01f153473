/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directory listings looked up once by path (the root's sorted listings, borrowed: valid for
 * the collection, root_list_dir_borrow()): whether a directory may hold a name is then a
 * binary search instead of a stat(2) or a path walk per name. The loader asks it for every
 * DT_NEEDED in every RPATH directory, the PATH search for every command in every directory.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/root.h"
#include "shared/strmap.h"

struct dir_listing {
	const char *const *names; /* sorted; NULL: the directory could not be listed */
	size_t n;
	int err; /* why not (a negative errno), else 0 */
};

struct dir_cache {
	struct root *root; /* NULL: nothing is listed, every name may be there */
	/* directory → index into v, so that the lookup stays constant-time however many
	 * directories (Python environments) are listed */
	struct strmap listed;
	struct dir_listing *v;
	size_t n, cap;
};

/* The listing of dir, read on the first question. */
struct dir_listing dir_cache_get(struct dir_cache *c, const char *dir);
/* Is name in dir's listing? false when dir does not exist (ENOENT, ENOTDIR: a stat of a name
 * in it says the same); true when dir could not be listed otherwise: then only a stat can
 * tell. */
bool dir_cache_may_hold(struct dir_cache *c, const char *dir, const char *name);
void dir_cache_done(struct dir_cache *c);
