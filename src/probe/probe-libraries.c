// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * GPU libraries as the dynamic loader would load them (loader.h: LD_LIBRARY_PATH from the
 * environment, /etc/ld.so.cache, the system directories, read through the root):
 *   driver.userspace.{libcuda,libnvidia_ml}  libcuda.so.1 and libnvidia-ml.so.1, the driver's
 *        user-space half, with the version from the file the soname link points to
 *        (libcuda.so.1 -> libcuda.so.550.54.15; NVIDIA's installer names the files so);
 *   driver.userspace.compat_libcuda[]  CUDA forward-compatibility libcuda under
 *        /usr/local/cuda*\/compat (NVIDIA "CUDA Compatibility", cuda-compat package);
 *   driver.userspace.libcuda.ld_so_conf[]  for a compat libcuda the cache gives, the
 *        /etc/ld.so.conf(.d) files that list its directory (ldso-conf.h);
 *   runtime.libraries.<family>[]  one entry per soname of the family found (libcudart.so.12,
 *        libcudnn.so.8 and libcudnn.so.9 …);
 *   runtime.loader  the search configuration those answers came from.
 * Each answer names the file that wins, how it was found, and every other candidate it
 * shadows. Recorded only; comparing versions is for the rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "probe/ldso-conf.h"
#include "probe/loader.h"
#include "shared/strv.h"

/* Library families, by the stem of their sonames. Sonames: NVIDIA's pip wheels
 * (docs/formats/python.md §4: libcudart.so.12, libcudart.so.11.0,
 * libcublas(Lt).so.12, libcudnn.so.8/9, libnccl.so.2, libnvrtc.so.12, libnvJitLink.so.12,
 * libcufft.so.11, libcusparse.so.12, libcurand.so.10, libcusolver.so.11), the CUDA 13.0
 * toolkit (libcudart.so.13, libcufft.so.12 …), ROCm (libamdhip64.so.N, librocblas.so.N) and
 * the Khronos ICD loader (libOpenCL.so.1). Every major present is found, not a fixed list. */
static const struct family {
	const char *key, *stem;
} families[] = {
	{ "libcudart", "libcudart.so" },       { "libcublas", "libcublas.so" },
	{ "libcublasLt", "libcublasLt.so" },   { "libcudnn", "libcudnn.so" },
	{ "libnccl", "libnccl.so" },	       { "libnvrtc", "libnvrtc.so" },
	{ "libnvJitLink", "libnvJitLink.so" }, { "libcufft", "libcufft.so" },
	{ "libcusparse", "libcusparse.so" },   { "libcurand", "libcurand.so" },
	{ "libcusolver", "libcusolver.so" },   { "libamdhip64", "libamdhip64.so" },
	{ "librocblas", "librocblas.so" },     { "libOpenCL", "libOpenCL.so" },
};

static const char *cand_source(const struct loader_candidate *c)
{
	return c->via == LOADER_VIA_CACHE ? "/etc/ld.so.cache" : c->dir;
}

static void write_file(struct snap_node *o, const struct loader_candidate *c)
{
	const char *file = c->resolved ? c->resolved : c->path;

	snap_set_str(o, "path", c->path, cand_source(c));
	if (c->resolved)
		snap_set_str(o, "resolved_path", c->resolved, c->path);
	else
		snap_set_errno(o, "resolved_path", c->err ? c->err : -ENOENT, c->path);
	/* The name of a link that could not be followed is unknown, not versionless. */
	if (!c->version && c->err && c->err != -ENOENT)
		snap_set_errno(o, "version", c->err, file);
	else
		snap_set_str_or_absent(o, "version", c->version, file,
				       "no version in the file name");
	snap_set_str(o, "found_via", loader_via_name(c->via), cand_source(c));
	snap_set_bool(o, "is_stub", c->is_stub, file);
	snap_set_bool(o, "in_compat_dir", c->in_compat, file);
	if (c->hwcaps_subdir)
		snap_set_str(o, "hwcaps_subdir", c->hwcaps_subdir, "/etc/ld.so.cache");
	if (c->soname)
		snap_set_str(o, "elf_soname", c->soname, file);
	if (c->problem)
		snap_set_malformed(o, "dynamic_section", NULL, file, c->problem);
}

static void write_verdict(struct snap_node *o, const struct loader_candidate *c)
{
	const char *src = c->resolved ? c->resolved : c->path;

	switch (c->verdict) {
	case LOADER_LOADS:
		snap_set_str(o, "verdict", "loadable", src);
		break;
	case LOADER_SKIP_CLASS:
	case LOADER_SKIP_MACHINE:
	case LOADER_FAIL_NOT_ELF:
		snap_set_str(o, "verdict", loader_verdict_name(c->verdict), src);
		break;
	case LOADER_SKIP_ERRNO:
		snap_set_strf(o, "verdict", src, "passed over: %s",
			      c->err == -ENOENT ? "dangling symlink" : strerror(-c->err));
		break;
	case LOADER_FAIL_ERRNO:
		snap_set_strf(o, "verdict", src, "load error: %s", strerror(-c->err));
		break;
	}
}

void probe_write_loader_result(struct snap_node *o, const struct loader_result *r)
{
	const struct loader_candidate *w = r->winner >= 0 ? &r->cands[r->winner] : NULL;
	struct snap_node *sh;
	_cleanup_strv_free_ char **seen = NULL;

	if (w) {
		write_file(o, w);
	} else if (r->failure >= 0) {
		const struct loader_candidate *f = &r->cands[r->failure];

		/* ld.so stops here with an error: that is the answer. */
		if (f->verdict == LOADER_FAIL_NOT_ELF)
			snap_set_malformed(o, "path", NULL, f->path, "invalid ELF header");
		else
			snap_set_errno(o, "path", f->err, f->path);
		snap_set_str(o, "found_via", loader_via_name(f->via), cand_source(f));
	} else {
		snap_set_state(o, "path", FACT_ABSENT, "ld.so search",
			       r->requester
				       ? "not found in the requester's DT_RPATH/DT_RUNPATH, "
					 "LD_LIBRARY_PATH, ld.so.cache or the system directories"
				       : "not found in LD_LIBRARY_PATH, ld.so.cache or the system "
					 "directories");
	}
	sh = snap_array(o, "shadowed");
	for (size_t i = 0; i < r->n_cands; i++) {
		const struct loader_candidate *c = &r->cands[i];
		const char *key = c->resolved ? c->resolved : c->path;
		struct snap_node *e;

		if (c == w || (ssize_t)i == r->failure)
			continue;
		/* The winner's own file reached again (cache, then system directory) shadows
		 * nothing. */
		if (w && c->resolved && w->resolved && streq(c->resolved, w->resolved))
			continue;
		if (strv_contains(seen, key))
			continue;
		if (strv_push(&seen, key) < 0)
			return;
		e = snap_append_object(sh);
		write_file(e, c);
		write_verdict(e, c);
	}
	if (r->truncated)
		snap_set_state(o, "shadowed_truncated", FACT_PRESENT, "ld.so search",
			       "more candidates than gpuenv keeps");
	/* Could not tell: the answer above is what a process that cannot read this gets. */
	if (r->undetermined_by)
		snap_set_errno(o, "undetermined", r->undetermined_err, r->undetermined_by);
}

/* CUDA forward-compatibility packages: /usr/local/cuda*\/compat/libcuda.so.<driver version>. */
static int probe_compat(struct probe_env *pe, struct snap_node *userspace)
{
	struct snap_node *arr = snap_array(userspace, "compat_libcuda");
	_cleanup_strv_free_ char **tops = NULL, **seen = NULL;

	if (root_list_dir(pe->root, "/usr/local", 4096, &tops) < 0)
		return 0;
	STRV_FOREACH(t, tops) {
		_cleanup_strv_free_ char **names = NULL;
		_cleanup_free_ char *dir = NULL;

		if (!startswith(*t, "cuda") || asprintf(&dir, "/usr/local/%s/compat", *t) < 0)
			continue;
		if (root_list_dir(pe->root, dir, 4096, &names) < 0)
			continue;
		STRV_FOREACH(n, names) {
			_cleanup_free_ char *path = NULL, *resolved = NULL, *version = NULL;
			struct snap_node *e;

			if (!startswith(*n, "libcuda.so.") || asprintf(&path, "%s/%s", dir, *n) < 0)
				continue;
			if (root_resolve(pe->root, path, &resolved) < 0 ||
			    strv_contains(seen, resolved))
				continue;
			version =
				loader_version_from_name("libcuda.so", strrchr(resolved, '/') + 1);
			/* Only the versioned file: libcuda.so.1 is a link to it. */
			if (!version || !strchr(version, '.'))
				continue;
			if (strv_push(&seen, resolved) < 0)
				return -ENOMEM;
			e = snap_append_object(arr);
			snap_set_str(e, "path", path, dir);
			snap_set_str(e, "resolved_path", resolved, path);
			snap_set_str(e, "version", version, resolved);
		}
	}
	return 0;
}

/* The directory of a forward-compatibility libcuda ld.so finds through /etc/ld.so.cache, and
 * the /etc/ld.so.conf(.d) files that list it: the files to remove. The cuda-compat package of
 * NVIDIA's nvidia/cuda runtime images adds /etc/ld.so.conf.d/000_cuda_compat.conf naming
 * /usr/local/cuda/compat, first in ldconfig's order (the notes on issue #31 in
 * CrispStrobe/CrispASR's CUDA Dockerfiles). Directories match after links are resolved. */
struct conf_match {
	struct root *root;
	const char *dir; /* resolved */
	char **files;
	char *unread; /* the first file that could not be read */
	int unread_err;
};

static int match_conf_dir(const char *file, const char *dir, int err, void *userdata)
{
	struct conf_match *m = userdata;
	_cleanup_free_ char *resolved = NULL;

	if (!dir) {
		if (!m->unread && !(m->unread = strdup(file)))
			return -ENOMEM;
		m->unread_err = m->unread_err ?: err;
		return 0;
	}
	if (!streq(dir, m->dir) &&
	    (root_resolve(m->root, dir, &resolved) < 0 || !streq(resolved, m->dir)))
		return 0;
	return strv_contains(m->files, file) ? 0 : strv_push(&m->files, file);
}

/* driver.userspace.libcuda.ld_so_conf[]: recorded only for a compat libcuda (in a compat/
 * directory, or one of compat_libcuda[]) that the cache gives. */
static int probe_compat_conf(struct probe_env *pe, struct snap_node *cu,
			     const struct snap_node *compat)
{
	const char *path = snap_get_str(cu, "path"), *rp = snap_get_str(cu, "resolved_path");
	const char *via = snap_get_str(cu, "found_via"), *slash = path ? strrchr(path, '/') : NULL;
	bool is_compat = snap_get_bool_default(cu, "in_compat_dir", false);
	_cleanup_free_ char *dir = NULL, *resolved = NULL;
	struct conf_match m = { .root = pe->root };
	int r;

	for (size_t i = 0; rp && i < snap_count(compat); i++)
		is_compat |= streq(snap_get_str(snap_at(compat, i), "resolved_path") ?: "", rp);
	if (!is_compat || !via || !streq(via, "ld.so.cache") || !slash || slash == path)
		return 0;
	if (!(dir = strndup(path, (size_t)(slash - path))))
		return -ENOMEM;
	m.dir = root_resolve(pe->root, dir, &resolved) == 0 ? resolved : dir;
	r = ldso_conf_foreach(pe->root, match_conf_dir, &m);
	if (r >= 0 && m.files) {
		struct snap_node *arr = snap_array(cu, "ld_so_conf");

		STRV_FOREACH(f, m.files)
			snap_append_str(arr, *f, *f);
	} else if (r >= 0 && m.unread) {
		snap_set_errno(cu, "ld_so_conf", m.unread_err, m.unread);
	} else if (r >= 0) {
		char note[512];

		snprintf(note, sizeof(note),
			 "no line of /etc/ld.so.conf or /etc/ld.so.conf.d/*.conf names %.400s",
			 dir);
		snap_set_state(cu, "ld_so_conf", FACT_ABSENT, "/etc/ld.so.conf.d", note);
	}
	strv_free(m.files);
	free(m.unread);
	return r < 0 ? r : 0;
}

void probe_write_loader_dirs(struct snap_node *arr, const struct loader_dirs *d, const char *source)
{
	for (size_t i = 0; i < d->n; i++) {
		struct snap_node *e = snap_append_object(arr);

		snap_set_str(e, "entry", d->v[i].entry, source);
		if (!d->v[i].path)
			snap_set_state(e, "path", FACT_UNSUPPORTED, source, d->v[i].note);
		else if (d->v[i].err < 0)
			snap_set_errno(e, "path", d->v[i].err, d->v[i].path);
		else
			snap_set_str(e, "path", d->v[i].path, d->v[i].path);
	}
}

static void write_config(struct snap_node *rt, const struct loader *l)
{
	struct snap_node *ld = snap_object(rt, "loader");
	struct snap_node *cache = snap_object(ld, "ld_so_cache");
	static const char *const formats[] = { "new", "old", "compat" };
	char fl[64];

	snap_set_str(ld, "abi", ldso_cache_flags_name(l->cache_flags, fl, sizeof(fl)),
		     "gpuenv build architecture");
	if (l->defaults_unknown_err < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg),
			 "could not tell Debian's glibc from upstream's (%s: %s); searched as %s",
			 l->defaults_unknown_path, strerror(-l->defaults_unknown_err),
			 l->defaults_kind);
		snap_set_state(ld, "default_dirs_kind",
			       fact_state_from_test_errno(l->defaults_unknown_err),
			       l->defaults_unknown_path, msg);
	} else {
		snap_set_str(ld, "default_dirs_kind", l->defaults_kind, "root layout");
	}
	probe_write_loader_dirs(snap_array(ld, "default_dirs"), &l->defaults,
				"glibc system directories");
	probe_write_loader_dirs(snap_array(ld, "ld_library_path"), &l->llp, "LD_LIBRARY_PATH");
	if (l->llp.truncated)
		snap_set_state(ld, "ld_library_path_truncated", FACT_PRESENT, "LD_LIBRARY_PATH",
			       "more entries than gpuenv reads");
	if (l->cache_err == -EBADMSG) {
		snap_set_malformed(cache, "format", NULL, "/etc/ld.so.cache", l->cache_why);
	} else if (l->cache_err == -EPROTONOSUPPORT) {
		snap_set_state(cache, "format", FACT_UNSUPPORTED, "/etc/ld.so.cache", l->cache_why);
	} else if (l->cache_err < 0) {
		snap_set_errno(cache, "format", l->cache_err, "/etc/ld.so.cache");
	} else {
		size_t mine = 0;

		for (size_t i = 0; i < l->cache->n_entries; i++)
			mine += ldso_cache_flags_match(l->cache->entries[i].flags, l->cache_flags);
		snap_set_str(cache, "format", formats[l->cache->format], "/etc/ld.so.cache");
		snap_set_int(cache, "entries", (int64_t)l->cache->n_entries, "/etc/ld.so.cache");
		snap_set_int(cache, "entries_this_abi", (int64_t)mine, "/etc/ld.so.cache");
		snap_set_int(cache, "entries_other_abi", (int64_t)(l->cache->n_entries - mine),
			     "/etc/ld.so.cache");
		if (l->cache->generator)
			snap_set_str(cache, "generator", l->cache->generator, "/etc/ld.so.cache");
		if (l->cache->problem)
			snap_set_malformed(cache, "extensions", NULL, "/etc/ld.so.cache",
					   l->cache->problem);
	}
}

int probe_resolve_into(struct loader *l, struct snap_node *o, const char *soname)
{
	_cleanup_(loader_result_freep) struct loader_result *r = NULL;
	int err = loader_resolve(l, soname, &r);

	if (err < 0)
		return err;
	snap_set_str(o, "soname", soname, "ld.so search");
	probe_write_loader_result(o, r);
	return 0;
}

int probe_libraries(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct loader *l;
	struct snap_node *root = snapshot_root(s);
	struct snap_node *us = snap_object(snap_object(root, "driver"), "userspace");
	struct snap_node *rt = snap_object(root, "runtime");
	struct snap_node *libs = snap_object(rt, "libraries");
	int err;

	err = probe_loader(pe, &l);
	if (err < 0)
		return err;
	write_config(rt, l);
	err = probe_resolve_into(l, snap_object(us, "libcuda"), "libcuda.so.1");
	if (err >= 0)
		err = probe_resolve_into(l, snap_object(us, "libnvidia_ml"), "libnvidia-ml.so.1");
	/* The unversioned name numba, NVIDIA Warp and CuPy's fallbacks dlopen: the search finds
	 * the development link, which a driver install in another directory may provide. */
	if (err >= 0)
		err = probe_resolve_into(l, snap_object(us, "libcuda_so"), "libcuda.so");
	if (err >= 0)
		err = probe_compat(pe, us);
	if (err >= 0)
		err = probe_compat_conf(pe, snap_object(us, "libcuda"),
					snap_get(us, "compat_libcuda"));
	for (size_t i = 0; i < ARRAY_SIZE(families) && err >= 0; i++) {
		_cleanup_strv_free_ char **sonames = NULL;
		struct snap_node *arr = snap_array(libs, families[i].key);

		err = loader_find_sonames(l, families[i].stem, &sonames);
		STRV_FOREACH(so, sonames) {
			if (err < 0)
				break;
			err = probe_resolve_into(l, snap_append_object(arr), *so);
		}
	}
	return err < 0 ? err : snapshot_error(s);
}
