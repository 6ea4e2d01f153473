/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a GPU library the framework loads needs of its sibling GPU libraries under their
 * version nodes (libcusolver.so.11's cublasSetEnvironmentMode@libcublas.so.12), and which of
 * those names the sibling copy it gets does not define (framework-siblings.c says why they
 * matter and which copy it gets). Written into the library's loads.<soname> object as
 * siblings.<sibling soname>: path, found_via, symbols_checked, symbols_missing[] and
 * symbol_version (docs/snapshot-schema.md). libnvJitLink is framework-nvjitlink.h's.
 */
#pragma once

#include "probe/loader.h"
#include "snapshot/snapshot.h"

/* lib: the file ld.so loads for a GPU DT_NEEDED of the framework's library (a path inside the
 * root); load: its loads.<soname> object; loads: the framework library's loads object (what
 * it maps first, by soname). Nothing is written for a sibling lib needs no versioned name of.
 * Read errors are recorded; -ENOMEM only. */
int probe_library_siblings(struct loader *l, struct snap_node *load, const char *lib,
			   const struct snap_node *loads);

/* The same for a CuPy extension module imported after the core (module: its name, path: its
 * file inside the root; loads: the core's loads object, mapped first). Written into
 * pkg.module_loads.<module> for the module's own needs, and pkg.module_loads.<soname> for
 * each GPU library only the module links (not in loads) that needs a sibling's versioned
 * names: each {path, siblings} as a loads entry. Nothing is written for what needs no
 * versioned name. -ENOMEM only. */
int probe_module_siblings(struct loader *l, struct snap_node *pkg, const char *module,
			  const char *path, const struct snap_node *loads);
