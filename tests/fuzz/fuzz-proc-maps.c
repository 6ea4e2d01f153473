// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the /proc/PID/maps line parser (src/shared/proc-maps.c), which the
 * exporter runs on its own maps and smaps (tools/exporter-pages.c). Each line of the input,
 * NUL-ended as the exporter's maps reader leaves it, and the first one also with its '\n'
 * as fgets() leaves an smaps line. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/proc-maps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void parse(const char *line, size_t len)
{
	struct proc_maps_line l;

	if (!proc_maps_parse_line(line, &l))
		return;
	/* the name lies within the line and holds no line end; the fields are as read */
	if ((l.path_len && (l.path < line || l.path + l.path_len > line + len)) ||
	    memchr(l.path, '\n', l.path_len) || memchr(l.path, '\0', l.path_len) ||
	    strlen(l.perms) != 4 || strlen(l.dev) < 3 || !strchr(l.dev, ':'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char *line, *nl;
	bool first = true;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = text; line < text + size; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + size - line));
		if (first && nl) {
			char save = nl[1];

			nl[1] = '\0';
			parse(line, (size_t)(nl + 1 - line));
			nl[1] = save;
		}
		first = false;
		if (!nl) {
			parse(line, strlen(line));
			break;
		}
		*nl = '\0';
		parse(line, strlen(line));
	}
	free(text);
	return 0;
}
