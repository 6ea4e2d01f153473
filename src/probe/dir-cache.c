// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory listings looked up once by path (dir-cache.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/dir-cache.h"
#include "shared/strv.h"

struct dir_listing dir_cache_get(struct dir_cache *c, const char *dir)
{
	struct dir_listing names = { NULL, 0, 0 };
	size_t i;
	int err;

	if (!c->root)
		return names;
	if (strmap_get(&c->listed, dir, &i))
		return c->v[i];
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct dir_listing *v = reallocarray(c->v, cap, sizeof(*v));

		if (!v)
			return names;
		c->v = v;
		c->cap = cap;
	}
	err = root_list_dir_borrow(c->root, dir, ROOT_DIR_MAX_ENTRIES, &names.names, &names.n);
	if (err < 0)
		names = (struct dir_listing){ NULL, 0, err };
	if (strmap_put(&c->listed, dir, c->n) < 0)
		return (struct dir_listing){ NULL, 0, -ENOMEM };
	c->v[c->n++] = names;
	return names;
}

bool dir_cache_may_hold(struct dir_cache *c, const char *dir, const char *name)
{
	struct dir_listing names = dir_cache_get(c, dir);

	if (!names.names)
		return names.err != -ENOENT && names.err != -ENOTDIR;
	return strv_sorted_contains(names.names, names.n, name);
}

void dir_cache_done(struct dir_cache *c)
{
	strmap_done(&c->listed);
	free(c->v);
	*c = (struct dir_cache){ .root = c->root };
}
