/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libnvJitLink a GPU library the framework loads (cuSPARSE, cuSOLVER) gets from ld.so,
 * and the versioned __nvJitLink* entry points the library needs that it does not define
 * (framework-nvjitlink.c says why they matter). Written into the library's loads.<soname>
 * object as nvjitlink: soname, the loader's answer (probe_write_loader_result()),
 * symbols_needed[] and symbols_missing[] (docs/snapshot-schema.md).
 */
#pragma once

#include "probe/loader.h"
#include "snapshot/snapshot.h"

/* lib: the file ld.so loads for a GPU DT_NEEDED of the framework's library (a path inside the
 * root); load: its loads.<soname> object. Nothing is written when lib does not link a
 * libnvJitLink. Read errors are recorded; -ENOMEM only. */
int probe_library_nvjitlink(struct loader *l, struct snap_node *load, const char *lib);

/* A failed read of a library's symbols into key of o (malformed, unreadable past the image
 * layer's cap, or the errno): shared with framework-siblings.c. */
void probe_set_symbols_read_error(struct snap_node *o, const char *key, int err, const char *path);
