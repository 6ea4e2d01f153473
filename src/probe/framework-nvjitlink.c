// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The nvJitLink a CUDA library the framework loads gets, and whether it defines what that
 * library needs (framework-nvjitlink.h). cuSPARSE and cuSOLVER (CUDA 12 on) link
 * libnvJitLink.so.N, and they call its entry points by names that carry the CUDA release
 * they were built with (nvJitLink.h maps nvJitLinkComplete to __nvJitLinkComplete_12_4 in
 * CUDA 12.4); "nvJitLink has versioned symbols that are added in each new CTK release"
 * (NVIDIA/cuvs#1862). An older libnvJitLink earlier on the library's search path (its
 * DT_RUNPATH comes after LD_LIBRARY_PATH: ld.so(8)) lacks them, and the import fails with
 * "undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12"
 * (pytorch/pytorch#140797, #134929). Read here: the library's undefined __nvJitLink*
 * symbols and the version they are needed under (formats/elf-symbols.h), the libnvJitLink
 * ld.so gives that library (loader.h, as requested by it), and which of those the latter
 * does not define.
 */
#include <errno.h>
#include <string.h>

#include "formats/elf-dynamic.h"
#include "probe/framework-nvjitlink.h"
#include "probe/probe.h"
#include "shared/macro.h"

#define NVJITLINK_SYMBOL_PREFIX "__nvJitLink"

/* The symbols of the candidate c the loader read whose name starts with the prefix (read as
 * it judged it: probe_read()): 0, or an errno (-EBADMSG: not ELF, -ENOBUFS: symbol tables
 * over what an image layer's member is read for). */
static int symbols_of(const struct loader_candidate *c, const struct elf_symbols **ret)
{
	*ret = c->symbols;
	if (c->symbols_err < 0)
		return c->symbols_err;
	return c->symbols ? 0 : -EBADMSG;
}

/* A failed read into key: -EBADMSG as malformed, -ENOBUFS as unreadable, else its errno. */
void probe_set_symbols_read_error(struct snap_node *o, const char *key, int err, const char *path)
{
	if (err == -EBADMSG)
		snap_set_malformed(o, key, NULL, path, "not an ELF file: no symbols read");
	else if (err == -ENOBUFS)
		snap_set_state(
			o, key, FACT_UNREADABLE, path,
			"its symbol tables are larger than gpuenv keeps from an image layer");
	else
		snap_set_errno(o, key, err, path);
}

/* The names of need's symbols from soname that have does not define, as key[] of o (and the
 * version they are needed under, the first one's, as symbol_version). */
static void list_missing(struct snap_node *o, const char *key, const struct elf_symbols *need,
			 const struct elf_symbols *have, const char *soname, const char *file)
{
	struct snap_node *missing = snap_array(o, key);

	for (size_t i = 0; i < need->n; i++) {
		const struct elf_symbol *e = &need->sym[i];

		if (e->defined || !streq(e->file ?: "", soname) ||
		    elf_symbols_defines(have, e->name, e->version))
			continue;
		snap_append_str(missing, e->name, file);
		if (e->version && !snap_child(o, "symbol_version"))
			snap_set_str(o, "symbol_version", e->version, file);
	}
	if (have->truncated || need->truncated)
		snap_fact_set_error(missing,
				    "more symbols than gpuenv reads: the list may be short");
}

/* The first loadable copy the library's own DT_RUNPATH/DT_RPATH finds, when another copy
 * wins (LD_LIBRARY_PATH before DT_RUNPATH): own_copy.path and own_copy.symbols_missing[],
 * what the fix "drop that LD_LIBRARY_PATH entry" would give it. */
static int own_copy(struct snap_node *nvj, const struct loader_result *res,
		    const struct elf_symbols *need, const char *soname)
{
	for (size_t i = 0; i < res->n_cands; i++) {
		const struct loader_candidate *c = &res->cands[i];
		const struct elf_symbols *have;
		struct snap_node *o;
		int r;

		if ((ssize_t)i == res->winner || c->verdict != LOADER_LOADS ||
		    (c->via != LOADER_VIA_RUNPATH && c->via != LOADER_VIA_RPATH))
			continue;
		o = snap_object(nvj, "own_copy");
		snap_set_str(o, "path", c->path, c->dir);
		r = symbols_of(c, &have);
		if (r < 0)
			probe_set_symbols_read_error(o, "symbols_missing", r, c->path);
		else
			list_missing(o, "symbols_missing", need, have, soname, c->path);
		return 0;
	}
	return 0;
}

/* The symbols lib needs from the nvJitLink (symbols_needed[]) and those the winner does not
 * define (symbols_missing[]), into nvj. */
static int compare(struct snap_node *nvj, const char *lib, const char *soname,
		   const struct loader_result *res, const struct loader_elf *e)
{
	const struct elf_symbols *need = e->symbols, *have;
	const char *winner = res->winner >= 0 ? res->cands[res->winner].path : NULL;
	struct snap_node *needed;
	int r;

	if (e->symbols_err < 0) {
		probe_set_symbols_read_error(nvj, "symbols_needed", e->symbols_err, lib);
		probe_set_symbols_read_error(nvj, "symbols_missing", e->symbols_err, lib);
		return 0;
	}
	needed = snap_array(nvj, "symbols_needed");
	for (size_t i = 0; i < need->n; i++)
		if (!need->sym[i].defined && streq(need->sym[i].file ?: "", soname))
			snap_append_str(needed, need->sym[i].name, lib);
	if (need->problem)
		snap_fact_set_error(needed, need->problem);
	if (!winner) {
		snap_set_state(nvj, "symbols_missing", FACT_UNPROBED, lib,
			       "no libnvJitLink loads: nothing to compare with");
		return 0;
	}
	r = symbols_of(&res->cands[res->winner], &have);
	if (r < 0)
		probe_set_symbols_read_error(nvj, "symbols_missing", r, winner);
	else
		list_missing(nvj, "symbols_missing", need, have, soname, winner);
	return own_copy(nvj, res, need, soname);
}

static const char *nvjitlink_needed(const struct elf_dynamic *d)
{
	for (size_t i = 0; i < d->n_needed; i++)
		if (startswith(d->needed[i], "libnvJitLink.so"))
			return d->needed[i];
	return NULL;
}

static bool needs_nvjitlink(const struct elf_dynamic *d)
{
	return nvjitlink_needed(d) != NULL;
}

/* The library is read once (loader_read_elf()): its dynamic section, and its symbols when it
 * links a libnvJitLink; the loader's search lists are made from that same parse. */
static int probe_read(struct loader *l, struct snap_node *load, const char *lib,
		      const struct loader_elf *e)
{
	_cleanup_(loader_requester_freep) struct loader_requester *q = NULL;
	_cleanup_(loader_result_freep) struct loader_result *res = NULL;
	const char *soname = nvjitlink_needed(e->dynamic);
	struct snap_node *nvj;
	int r;

	if (!soname)
		return 0;
	nvj = snap_object(load, "nvjitlink");
	snap_set_str(nvj, "soname", soname, lib);
	r = loader_requester_of(l, lib, 0, e->dynamic, &q);
	if (r < 0)
		return r;
	/* The copies the search judges are read for their symbols as they are judged. */
	l->symbols_prefix = NVJITLINK_SYMBOL_PREFIX;
	r = loader_resolve_req(l, soname, q, &res);
	l->symbols_prefix = NULL;
	if (r < 0)
		return r;
	probe_write_loader_result(nvj, res);
	if (res->undetermined_by) {
		snap_set_state(nvj, "symbols_missing", FACT_UNREADABLE, res->undetermined_by,
			       "which libnvJitLink loads depends on a file that could not be read");
		return 0;
	}
	return compare(nvj, lib, soname, res, e);
}

int probe_library_nvjitlink(struct loader *l, struct snap_node *load, const char *lib)
{
	struct loader_elf e;
	int r;

	r = loader_read_elf(l->root, lib, NVJITLINK_SYMBOL_PREFIX, needs_nvjitlink, &e);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || e.dynamic_err < 0) {
		loader_elf_done(&e);
		return 0; /* the library itself: its load entry says what went wrong */
	}
	r = probe_read(l, load, lib, &e);
	loader_elf_done(&e);
	return r;
}
