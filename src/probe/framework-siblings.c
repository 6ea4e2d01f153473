// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The sibling GPU libraries a CUDA library the framework loads gets, and whether they define
 * the versioned names it needs (framework-siblings.h). NVIDIA's libraries export their
 * functions under a version node named after the soname (cublasSetEnvironmentMode@@
 * libcublas.so.12), and a library built against a newer sibling needs names an older copy
 * lacks: ld.so resolves an undefined versioned symbol only from a definition of the same name
 * and version (LSB Core, "Symbol Versioning"; glibc elf/dl-lookup.c), so the load fails with
 * "undefined symbol: cublasSetEnvironmentMode, version libcublas.so.12"
 * (int-brain-lab/ibl-sorter#41: the toolkit's libcusolver.so.11 with nvidia-cublas-cu12
 * 12.8.4.1; pytorch/pytorch#174320: the wheel's libcublas.so.11 with a system libcublasLt
 * found first). The copy the library gets: the one the framework's own library already
 * mapped under that soname (ld.so maps its DT_NEEDED breadth-first and a later request for a
 * soname already mapped gets that object: glibc elf/dl-load.c, _dl_map_object), else the one
 * its own search finds (loader.h, as requested by it). libnvJitLink, whose names carry the
 * CUDA release, is framework-nvjitlink.c's; the driver's libraries are not siblings.
 * CuPy's extension modules (cupy_backends/cuda/libs/cusolver …) are imported on first use,
 * after cupy._core.core mapped its libraries, and need versioned names themselves
 * (cusolverDn…@libcusolver.so.11) and through the libraries they alone link (libcusolver's
 * cublasSetEnvironmentMode@libcublas.so.12 got the copy the core mapped:
 * int-brain-lab/ibl-sorter#41): probe_module_siblings().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "probe/framework-loads.h"
#include "probe/framework-nvjitlink.h"
#include "probe/framework-siblings.h"
#include "probe/probe.h"
#include "shared/macro.h"

#define SIBLING_MAX_NAMES   1024u /* names of one sibling looked up (each a prefix pass) */
#define SIBLING_MAX_MISSING 64u	  /* missing names written per sibling */

static bool is_sibling(const char *soname, const char *self)
{
	return probe_is_gpu_runtime_soname(soname) && !startswith(soname, "libnvJitLink") &&
	       !startswith(soname, "libcuda.so") && !startswith(soname, "libnvidia-ml") &&
	       !streq(soname, self ?: "");
}

static bool needs_sibling(const struct elf_dynamic *d)
{
	for (size_t i = 0; i < d->n_needed; i++)
		if (is_sibling(d->needed[i], d->soname))
			return true;
	return false;
}

/* The names need holds from soname (NULL-terminated, at most SIBLING_MAX_NAMES, each once):
 * borrowed from need; *more when some were left out. NULL when it needs none; -ENOMEM as
 * *err. */
static const char **names_from(const struct elf_symbols *need, const char *soname, bool *more,
			       int *err)
{
	const char **names = NULL;
	size_t n = 0;

	*more = need->truncated;
	for (size_t i = 0; i < need->n; i++) {
		const struct elf_symbol *e = &need->sym[i];
		bool dup = false;

		if (!streq(e->file ?: "", soname))
			continue;
		for (size_t j = 0; j < n && !dup; j++)
			dup = streq(names[j], e->name);
		if (dup)
			continue;
		if (n == SIBLING_MAX_NAMES) {
			*more = true;
			break;
		}
		if (n % 32 == 0) {
			const char **m = reallocarray(names, n + 33, sizeof(*m));

			if (!m) {
				free(names);
				*err = -ENOMEM;
				return NULL;
			}
			names = m;
		}
		names[n++] = e->name;
		names[n] = NULL;
	}
	return names;
}

/* Which of need's names from soname the copy at path defines under the version needed: into
 * o's symbols_checked, symbols_missing[] and symbol_version (the first missing one's). */
static int compare(struct loader *l, struct snap_node *o, const struct elf_symbols *need,
		   const char *soname, const char **names, bool more, const char *path)
{
	struct loader_elf have;
	struct snap_node *missing;
	size_t checked = 0, n_missing = 0;
	int r;

	r = loader_read_elf_any(l->root, path, names, NULL, &have);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || have.symbols_err < 0) {
		probe_set_symbols_read_error(o, "symbols_missing", r < 0 ? r : have.symbols_err,
					     path);
		loader_elf_done(&have);
		return 0;
	}
	missing = snap_array(o, "symbols_missing");
	for (size_t i = 0; i < need->n; i++) {
		const struct elf_symbol *e = &need->sym[i];
		bool listed = false;

		if (!streq(e->file ?: "", soname))
			continue;
		for (size_t j = 0; names[j] && !listed; j++)
			listed = names[j] == e->name;
		if (!listed)
			continue;
		checked++;
		if (elf_symbols_defines(have.symbols, e->name, e->version))
			continue;
		if (n_missing++ < SIBLING_MAX_MISSING)
			snap_append_str(missing, e->name, path);
		if (e->version && !snap_child(o, "symbol_version"))
			snap_set_str(o, "symbol_version", e->version, path);
	}
	snap_set_int(o, "symbols_checked", (int64_t)checked, path);
	if (more || have.symbols->truncated || n_missing > SIBLING_MAX_MISSING)
		snap_fact_set_error(missing,
				    "more symbols than gpuenv reads: the list may be short");
	loader_elf_done(&have);
	return 0;
}

/* The copy of soname lib gets: the framework's (already mapped), else its own search's. */
static int one_sibling(struct loader *l, struct snap_node *load, const char *lib,
		       const struct loader_elf *e, const char *soname,
		       const struct snap_node *loads)
{
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	_cleanup_(loader_result_freep) struct loader_result *res = NULL;
	const struct snap_node *mapped = snap_child(loads, soname);
	const char *path = snap_get_str(mapped, "path");
	_cleanup_free_ const char **names = NULL;
	struct snap_node *o;
	bool more;
	int r = 0;

	names = names_from(e->symbols, soname, &more, &r);
	if (!names)
		return r;
	o = snap_object(snap_object(load, "siblings"), soname);
	snap_set_str(o, "soname", soname, lib);
	if (path) {
		snap_set_str(o, "path", path, snap_get_str(mapped, "requested_by") ?: lib);
		snap_set_str(o, "found_via", "mapped by the framework's library", path);
		snap_set_str(o, "mapped_by", snap_get_str(mapped, "requested_by") ?: "?", path);
		if (snap_get_str(mapped, "found_via"))
			snap_set_str(o, "mapped_via", snap_get_str(mapped, "found_via"), path);
		return compare(l, o, e->symbols, soname, names, more, path);
	}
	if ((r = loader_requester_of(l, lib, 0, e->dynamic, &q)) < 0 ||
	    (r = loader_resolve_req(l, soname, q, &res)) < 0)
		return r;
	if (res->undetermined_by) {
		snap_set_state(o, "symbols_missing", FACT_UNREADABLE, res->undetermined_by,
			       "which copy loads depends on a file that could not be read");
		return 0;
	}
	if (res->winner < 0) {
		snap_set_state(o, "symbols_missing", FACT_UNPROBED, lib,
			       "no copy loads: nothing to compare with");
		return 0;
	}
	path = res->cands[res->winner].path;
	snap_set_str(o, "path", path, res->cands[res->winner].dir ?: path);
	snap_set_str(o, "found_via", loader_via_name(res->cands[res->winner].via), path);
	return compare(l, o, e->symbols, soname, names, more, path);
}

int probe_library_siblings(struct loader *l, struct snap_node *load, const char *lib,
			   const struct snap_node *loads)
{
	struct loader_elf e;
	int r;

	r = loader_read_elf_needed(l->root, lib, needs_sibling, &e);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || e.dynamic_err < 0 || !needs_sibling(e.dynamic)) {
		loader_elf_done(&e);
		return 0; /* the library itself: its load entry says what went wrong */
	}
	if (e.symbols_err < 0 || !e.symbols) {
		probe_set_symbols_read_error(snap_object(load, "siblings"), "symbols_needed",
					     e.symbols_err < 0 ? e.symbols_err : -EBADMSG, lib);
		loader_elf_done(&e);
		return 0;
	}
	for (size_t i = 0; i < e.dynamic->n_needed && r >= 0; i++) {
		const char *n = e.dynamic->needed[i];

		if (!is_sibling(n, e.dynamic->soname))
			continue;
		r = one_sibling(l, load, lib, &e, n, loads);
	}
	loader_elf_done(&e);
	return r < 0 ? r : 0;
}

/* Whether e needs a versioned name of a sibling (or its symbols could not be read: said). */
static bool wants_siblings(const struct loader_elf *e)
{
	if (e->dynamic_err < 0 || !e->dynamic || !needs_sibling(e->dynamic))
		return false;
	if (e->symbols_err < 0 || !e->symbols)
		return true;
	for (size_t i = 0; i < e->symbols->n; i++)
		if (e->symbols->sym[i].file &&
		    is_sibling(e->symbols->sym[i].file, e->dynamic->soname))
			return true;
	return false;
}

/* pkg.module_loads.<key> {path, siblings} for the library at path, only when it needs a
 * sibling's versioned name (so that no module_loads is written where none does). */
static int entry(struct loader *l, struct snap_node *pkg, const char *key, const char *path,
		 const char *source, const struct snap_node *loads)
{
	struct loader_elf e;
	struct snap_node *o;
	bool wants;
	int r;

	r = loader_read_elf_needed(l->root, path, needs_sibling, &e);
	if (r == -ENOMEM)
		return r;
	wants = r >= 0 && wants_siblings(&e);
	loader_elf_done(&e);
	if (!wants)
		return 0;
	o = snap_object(snap_object(pkg, "module_loads"), key);
	snap_set_str(o, "path", path, source);
	return probe_library_siblings(l, o, path, loads);
}

int probe_module_siblings(struct loader *l, struct snap_node *pkg, const char *module,
			  const char *path, const struct snap_node *loads)
{
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	_cleanup_(elf_dynamic_freep) struct elf_dynamic *d = NULL;
	int r, err = 0;

	r = loader_read_dynamic(l->root, path, &err, &d);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || err < 0 || !needs_sibling(d))
		return 0; /* an unread module is module_missing's entry */
	r = entry(l, pkg, module, path, path, loads);
	if (r >= 0)
		r = loader_requester_of(l, path, 0, d, &q);
	/* the GPU libraries only the module links: those the core mapped are its loads' */
	for (size_t i = 0; i < d->n_needed && r >= 0; i++) {
		_cleanup_(loader_result_freep) struct loader_result *res = NULL;
		const char *n = d->needed[i];

		if (!is_sibling(n, NULL) || snap_get_str(snap_child(loads, n), "path") ||
		    snap_child(snap_child(pkg, "module_loads"), n))
			continue;
		if ((r = loader_resolve_req(l, n, q, &res)) < 0 || res->winner < 0)
			continue;
		r = entry(l, pkg, n, res->cands[res->winner].path, path, loads);
	}
	return r < 0 ? r : 0;
}
