// SPDX-License-Identifier: LGPL-2.1-or-later
#include "shared/conf-files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/strv.h"

bool conf_file_name(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && streq(name + len - 5, ".conf");
}

/* The next ".conf" name at or after *pos in a sorted listing, NULL at its end. */
static const char *next_conf(char *const *list, size_t *pos)
{
	for (; list && list[*pos]; (*pos)++)
		if (conf_file_name(list[*pos]))
			return list[*pos];
	return NULL;
}

int conf_files_merge(char **const *lists, const char *const *dirs, size_t n, size_t max,
		     char ***paths, char **ret_over)
{
	_cleanup_free_ size_t *pos = calloc(n ? n : 1, sizeof(*pos));
	size_t count = strv_length(*paths); /* kept, not recounted: a listing may be long */

	if (!pos)
		return -ENOMEM;
	for (;;) {
		const char *least = NULL;
		size_t win = 0;
		char *path;

		for (size_t d = 0; d < n; d++) {
			const char *name = next_conf(lists[d], &pos[d]);

			if (name && (!least || strcmp(name, least) < 0)) {
				least = name;
				win = d;
			}
		}
		if (!least)
			return 0;
		if (asprintf(&path, "%s/%s", dirs[win], least) < 0)
			return -ENOMEM;
		if (count >= max) {
			*ret_over = path;
			return -E2BIG;
		}
		if (strv_consume(paths, path) < 0)
			return -ENOMEM;
		count++;
		/* the name is read once: step past it in every listing that has it */
		for (size_t d = 0; d < n; d++) {
			const char *name = next_conf(lists[d], &pos[d]);

			if (name && streq(name, least))
				pos[d]++;
		}
	}
}
