/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the CUDA toolkit and ROCm probes: what they read through the root (symlink
 * chains, optional version files, rejected candidates). Their text parsers are in
 * formats/toolkit-parse.h.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/root.h"
#include "formats/toolkit-parse.h"
#include "snapshot/snapshot.h"

#define PROBE_LINK_MAX_HOPS                                                                        \
	40 /* Linux follows at most 40 symlinks in one lookup (path_resolution(7)) */

/*
 * Reads the symlink chain starting at path (inside the root) into arr as "LINK -> TARGET"
 * strings, each with the link as its source; stops at the first non-link. Returns 0,
 * -ELOOP after PROBE_LINK_MAX_HOPS links, -ENOENT when path does not exist or the chain
 * ends in a missing target (ret_dangling set), other -errno from the root.
 */
int probe_link_chain(struct root *r, const char *path, struct snap_node *arr, bool *ret_dangling);
/*
 * Reads dir/name through the root (at most max bytes), a version source that may be missing:
 * 0 with *ret_path and *ret_text (both malloc()ed); -ENOENT, not recorded, when it does not
 * exist (the next source is tried); any other error is recorded as snap_set_errno(node, key)
 * and returned (-ENOMEM for the path itself is returned only).
 */
int probe_read_optional(struct root *r, const char *dir, const char *name, size_t max,
			struct snap_node *node, const char *key, char **ret_path, char **ret_text);
/* A rejected candidate: {path, found_via[], toolkit (why), link_chain[]} appended to arr. */
void probe_reject(struct root *r, struct snap_node *arr, const char *origin, const char *via,
		  const char *prefix, int err, const char *why);
