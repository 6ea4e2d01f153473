// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /etc/ld.so.conf and /etc/ld.so.conf.d/NAME.conf as ldconfig(8) reads them (glibc
 * elf/ldconfig.c parse_conf()): one directory per line, '#' starts a comment, blank space
 * around it ignored, trailing slashes dropped (add_dir_1()); `include` lines name the .d
 * files, which are read here directly in the order of their names, as the include glob
 * sorts them; `hwcap` lines and relative names add no directory.
 */
#include <errno.h>
#include <string.h>

#include "probe/ldso-conf.h"
#include "shared/conf-files.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define CAP_CONF     ((size_t)1 << 20)
#define CAP_CONF_DIR 1024u

static int read_one(struct root *root, const char *file, ldso_conf_fn fn, void *userdata)
{
	_cleanup_free_ char *text = NULL;
	char *state = NULL, *line;
	int r = root_read_text(root, file, CAP_CONF, &text);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return fn(file, NULL, r, userdata);
	for (line = strtok_r(text, "\n", &state); line; line = strtok_r(NULL, "\n", &state)) {
		char *hash = strchr(line, '#');
		size_t n;

		if (hash)
			*hash = '\0';
		line += strspn(line, " \t");
		line[strcspn(line, " \t\r")] = '\0';
		for (n = strlen(line); n > 1 && line[n - 1] == '/'; n--)
			line[n - 1] = '\0';
		if (line[0] == '/' && (r = fn(file, line, 0, userdata)) != 0)
			return r;
	}
	return 0;
}

int ldso_conf_foreach(struct root *root, ldso_conf_fn fn, void *userdata)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = read_one(root, "/etc/ld.so.conf", fn, userdata);

	if (r != 0)
		return r < 0 ? r : 0;
	if (root_list_dir(root, "/etc/ld.so.conf.d", CAP_CONF_DIR, &names) < 0)
		return 0;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *f = NULL;

		if (!conf_file_name(*n))
			continue;
		if (!(f = path_join("/etc/ld.so.conf.d", *n)))
			return -ENOMEM;
		if ((r = read_one(root, f, fn, userdata)) != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}
