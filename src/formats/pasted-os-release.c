// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of a pasted /etc/os-release (`gpuenv explain`; os-release(5): "KEY=value" lines, the
 * value maybe in double or single quotes): ID, ID_LIKE, VERSION_ID and PRETTY_NAME, the keys
 * the probe reads into host.os.*. Only a line that starts with the key counts.
 */
#include <errno.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

static const struct {
	const char *key, *path;
} keys[] = {
	{ "ID", "host.os.id" },
	{ "ID_LIKE", "host.os.id_like" },
	{ "VERSION_ID", "host.os.version_id" },
	{ "PRETTY_NAME", "host.os.pretty_name" },
};

int pasted_read_os_release(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "os-release" };
	struct pasted_lines it;
	char *line, *key, *v;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		if (line[0] < 'A' || line[0] > 'Z' || !pasted_kv(line, '=', &key, &v))
			continue;
		size_t l = strlen(v);

		if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
			v[l - 1] = '\0';
			v++;
		}
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (strcmp(key, keys[i].key) == 0)
				pasted_put(&o, it.no, v, "%s", keys[i].path);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
