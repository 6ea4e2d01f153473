/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Configuration directories read the way systemd and kmod read them: the ".conf" files of
 * every directory in the lexical order of their names, a name in an earlier (higher
 * priority) directory hiding the same name in a later one (systemd.unit(5) on drop-in
 * directories, modprobe.d(5)). Paths only: the callers list the directories through the
 * sysroot.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Does name end in ".conf" with something before it? */
bool conf_file_name(const char *name);

/* Appends "dirs[d]/NAME" for each ".conf" NAME of the n sorted listings lists[d] (the
 * listing of dirs[d], NULL where there is none; highest priority first) to *paths, a merge
 * in one pass (no comparison of every pair of names). At most max paths in *paths in all:
 * 0, -ENOMEM, or -E2BIG with *ret_over the first path left out (the caller frees it). */
int conf_files_merge(char **const *lists, const char *const *dirs, size_t n, size_t max,
		     char ***paths, char **ret_over);
