// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What keeps the NVIDIA kernel modules from loading: blacklist / install-as-false / alias-off
 * lines in the modprobe.d(5) directories and module_blacklist= / modprobe.blacklist= on the
 * kernel command line, as driver.module_blacklist[] (one object per entry, its source the file
 * and line; no key when there is none). modprobe.d(5): files are read in the lexical order of their names across all
 * directories, and a file in an earlier directory (/etc, then /run, /usr/local/lib,
 * /usr/lib, /lib) overrides one of the same name in a later one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/modprobe-conf.h"
#include "probe.h"
#include "shared/conf-files.h"
#include "shared/strv.h"

static const char *const modprobe_dirs[] = {
	"/etc/modprobe.d",     "/run/modprobe.d", "/usr/local/lib/modprobe.d",
	"/usr/lib/modprobe.d", "/lib/modprobe.d",
};

/* The array is written only when there is an entry: none found leaves no key, so snapshots
 * of machines without a blacklist stay as they were. */
static void record(struct snap_node *drv, const struct modprobe_blocks *bl, size_t from,
		   const char *path)
{
	for (size_t i = from; i < bl->n; i++) {
		const struct modprobe_block *b = &bl->b[i];
		struct snap_node *o = snap_append_object(snap_array(drv, "module_blacklist"));
		char src[4200];

		snprintf(src, sizeof(src), "%s:%llu", path, (unsigned long long)b->line);
		snap_set_str(o, "module", b->module, src);
		snap_set_str(o, "kind", modprobe_block_kind_name(b->kind), src);
		snap_set_str(o, "line", b->text, src);
		snap_set_str(o, "file", path, src);
	}
}

int probe_modprobe_conf_paths(struct probe_env *pe, struct snap_node *drv, char ***ret)
{
	char **lists[ARRAY_SIZE(modprobe_dirs)] = { NULL };
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *over = NULL; /* no cap here: never set */
	int r;

	for (size_t d = 0; d < ARRAY_SIZE(modprobe_dirs); d++) {
		int err =
			root_list_dir(pe->root, modprobe_dirs[d], ROOT_DIR_MAX_ENTRIES, &lists[d]);

		if (err < 0 && err != -ENOENT && err != -ENOTDIR && drv)
			snap_set_errno(drv, "module_blacklist_unreadable", err, modprobe_dirs[d]);
	}
	r = conf_files_merge(lists, modprobe_dirs, ARRAY_SIZE(modprobe_dirs), SIZE_MAX, &paths,
			     &over);
	for (size_t d = 0; d < ARRAY_SIZE(modprobe_dirs); d++)
		strv_free(lists[d]);
	if (r == 0)
		*ret = TAKE_PTR(paths);
	return r;
}

void probe_module_blacklist(struct probe_env *pe, struct snap_node *drv)
{
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *cmdline = NULL;
	struct modprobe_blocks *bl;
	size_t len;

	if (probe_modprobe_conf_paths(pe, drv, &paths) < 0)
		return;
	bl = calloc(1, sizeof(*bl));
	if (!bl)
		return;
	STRV_FOREACH(p, paths) {
		_cleanup_free_ char *text = NULL;
		size_t from = bl->n;

		if (root_read_file(pe->root, *p, ROOT_CAP_TEXT, &text, &len) < 0)
			continue;
		modprobe_conf_parse(text, len, bl);
		record(drv, bl, from, *p);
	}
	if (root_read_file(pe->root, "/proc/cmdline", ROOT_CAP_TEXT, &cmdline, &len) == 0) {
		size_t from = bl->n;

		kernel_cmdline_blacklist_parse(cmdline, len, bl);
		record(drv, bl, from, "/proc/cmdline");
	}
	if (bl->dropped)
		snap_set_int(drv, "module_blacklist_dropped", (int64_t)bl->dropped,
			     "/etc/modprobe.d");
	free(bl);
}
