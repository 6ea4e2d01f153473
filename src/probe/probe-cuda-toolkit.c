// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * CUDA toolkits, all of them, into runtime.cuda_toolkits[] (docs/snapshot-schema.md): where
 * they are and what each holds. Found through $CUDA_HOME, $CUDA_PATH, each nvcc on $PATH
 * (<prefix>/bin/nvcc), each libcudart on $LD_LIBRARY_PATH (<prefix>/lib64,
 * <prefix>/targets/<arch>/lib, or a pip wheel's site-packages/nvidia/{cu13,cuda_runtime}/lib),
 * conda environments ($CONDA_PREFIX and every conda prefix of the shared Python-environment
 * discovery, probe_python_envs(): one with conda-meta/cuda-cudart-* or cudatoolkit-* records),
 * and /usr/local/cuda*, /opt/cuda*;
 * deduplicated by resolved path. Python environments themselves are the framework probe's;
 * only toolkit-like trees are read here. Each toolkit's library and include directories are
 * listed once (struct tk_files); its version and its components' versions are read from them
 * by probe-cuda-toolkit-version.c. The stub libcuda.so under lib64/stubs or lib/stubs is for
 * linking only and fails at run time with CUDA_ERROR_STUB_LIBRARY (cuda.h, 34). The
 * /usr/local/cuda link chain (update-alternatives: /usr/local/cuda -> /etc/alternatives/cuda ->
 * /usr/local/cuda-12.4) is recorded as read. Only known directories are listed: no walks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe-cuda-toolkit.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"
#include "formats/toolkit-parse.h"

#define MAX_TOOLKITS 64
#define DEFAULT_LINK "/usr/local/cuda"

/* clang-format off */
/* site-packages/nvidia/<dir> of the CUDA wheels (docs/formats/python.md §4). */
static const char *const wheel_dirs[] = {
	"cu13", "cuda_runtime", "cublas", "cudnn", "nccl", "cufft", "cusparse", "nvjitlink",
	"cuda_nvrtc", "cuda_nvcc",
};

static const char *const cudart_sonames[] = {
	"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
	"libcudart.so.10.2",
};

/* clang-format on */

static void tk_files_done(struct tk_files *f)
{
	free(f->pkg_dir);
	strv_free(f->pkg_names);
	for (size_t i = 0; i < f->n_lib; i++) {
		free(f->lib_dirs[i]);
		strv_free(f->lib_names[i]);
	}
	for (size_t i = 0; i < f->n_inc; i++)
		free(f->inc_dirs[i]);
	for (size_t i = 0; i < f->n_unseen; i++)
		free(f->unseen[i].path);
	json_decref(f->version_json);
	free(f->version_json_path);
}

static const char *kind_name(enum tk_kind k)
{
	switch (k) {
	case TK_PIP_ASSEMBLED:
		return "pip-assembled";
	case TK_CONDA:
		return "conda";
	case TK_PIP_WHEEL_DIR:
		return "pip-wheel-dir";
	case TK_DISTRO:
		return "distro-packaged";
	case TK_RUNFILE_DEB:
		break;
	}
	return "runfile/deb";
}

/* 1 when dir holds a libcudart, 0 when not, else the -errno of the first that could not be
 * looked at. */
static int dir_has_cudart(struct probe_env *pe, const char *dir)
{
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cudart_sonames); i++) {
		int r = probe_pathf_test(pe, S_IFREG, "%s/%s", dir, cudart_sonames[i]);

		if (r > 0 || r == -ENOMEM)
			return r;
		if (r < 0 && !err)
			err = r;
	}
	return err;
}

/* There, or (for a claimed prefix) there and not looked at: "could not tell" keeps it. */
static bool there_or_unread(int r, bool claimed)
{
	return r > 0 || (claimed && r < 0 && r != -ENOMEM);
}

/* .../site-packages/nvidia/<wheel dir>: the site-packages directory, else NULL. */
static char *wheel_site_packages(const char *prefix)
{
	_cleanup_free_ char *parent = path_dirname(prefix);

	if (!parent || strcmp(path_basename(parent), "nvidia") != 0)
		return NULL;
	return path_dirname(parent);
}

static bool conda_has_cuda(struct probe_env *pe, const char *prefix)
{
	_cleanup_free_ char *meta = NULL, *lib = NULL;
	_cleanup_strv_free_ char **names = NULL;

	if (asprintf(&meta, "%s/conda-meta", prefix) < 0 || asprintf(&lib, "%s/lib", prefix) < 0)
		return false;
	if (!dir_has_cudart(pe, lib) || root_list_dir(pe->root, meta, MAX_DIR_ENTRIES, &names) < 0)
		return false;
	STRV_FOREACH(n, names) {
		char v[PROBE_VERSION_MAX];

		if (probe_conda_meta_match(*n, "cuda-cudart", v, sizeof(v)) ||
		    probe_conda_meta_match(*n, "cudatoolkit", v, sizeof(v)))
			return true;
	}
	return false;
}

/* A toolkit prefix has a version file or the runtime header, or nvcc next to libcudart; a
 * conda environment has CUDA package records; a wheel directory has libcudart or nvcc.
 * claimed: something pointed here as CUDA (CUDA_HOME, nvcc on PATH, libcudart on
 * LD_LIBRARY_PATH, a /usr/local/cuda* name); then a version file that is there but could not
 * be looked at (EACCES) keeps the toolkit listed, its version unreadable (tk_read_version()),
 * rather than dropping it as if it were not a toolkit: "could not tell" is never "none". */
static bool looks_like_toolkit(struct probe_env *pe, const char *prefix, bool claimed)
{
	static const char *const marks[] = {
		"version.json",
		"version.txt",
		"include/cuda_runtime_api.h",
		"targets/x86_64-linux/include/cuda_runtime_api.h",
	};
	_cleanup_free_ char *site = NULL;
	bool nvcc;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		_cleanup_free_ char *p = NULL;
		struct stat st;
		int r;

		if (asprintf(&p, "%s/%s", prefix, marks[i]) < 0)
			return false;
		r = root_stat(pe->root, p, &st);
		if (r == 0 && S_ISREG(st.st_mode))
			return true;
		if (claimed && r < 0 && fact_state_from_errno(r) == FACT_UNREADABLE)
			return true;
	}
	if (probe_pathf_test(pe, S_IFDIR, "%s/conda-meta", prefix) > 0)
		return conda_has_cuda(pe, prefix);
	nvcc = there_or_unread(probe_pathf_test(pe, S_IFREG, "%s/bin/nvcc", prefix), claimed);
	site = wheel_site_packages(prefix);
	for (size_t i = 0; i < 2; i++) {
		_cleanup_free_ char *lib = NULL;

		if (asprintf(&lib, "%s/%s", prefix, i ? "lib64" : "lib") < 0)
			return false;
		if (there_or_unread(dir_has_cudart(pe, lib), claimed))
			return nvcc || site;
	}
	return site && nvcc;
}

struct discovery {
	struct probe_env *pe;
	struct probe_prefix c[MAX_TOOLKITS];
	size_t n;
	struct snap_node *rejected;
	char **rejected_paths;
};

/* origin: what was found (the nvcc file, the library directory, the variable's value). */
static void reject(struct discovery *d, const char *origin, const char *path, const char *via,
		   int err, const char *why)
{
	if (strv_contains(d->rejected_paths, origin) || strv_push(&d->rejected_paths, origin) < 0)
		return;
	probe_reject(d->pe->root, d->rejected, origin, via, path, err, why);
}

/* origin: record why what pointed here (a path that claimed a toolkit) is not one; NULL: quiet. */
static int add_candidate(struct discovery *d, const char *path, const char *via, const char *origin)
{
	_cleanup_free_ char *resolved = NULL;
	struct probe_env *pe = d->pe;
	int r;

	r = root_resolve(pe->root, path, &resolved);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		if (origin)
			reject(d, origin, path, via, r, NULL);
		return 0;
	}
	{
		struct stat st;

		r = root_stat(pe->root, resolved, &st);
		if (r < 0 || !S_ISDIR(st.st_mode)) {
			/* EACCES stays EACCES: a toolkit that could not be looked at. */
			if (origin)
				reject(d, origin, path, via, r < 0 ? r : -ENOTDIR, NULL);
			return 0;
		}
	}
	for (size_t i = 0; i < d->n; i++) {
		r = probe_prefix_seen(&d->c[i], resolved, via);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	if (!looks_like_toolkit(pe, resolved, origin != NULL)) {
		if (origin) {
			_cleanup_free_ char *why = NULL;

			if (asprintf(&why,
				     "%s has no version.json, version.txt, cuda_runtime_api.h, "
				     "CUDA conda records, or nvcc beside libcudart",
				     resolved) >= 0)
				reject(d, origin, path, via, 0, why);
		}
		return 0;
	}
	if (d->n >= MAX_TOOLKITS)
		return 0;
	return probe_prefix_set(&d->c[d->n++], path, TAKE_PTR(resolved), via);
}

/* An nvcc that a PATH directory lists but that cannot be looked at (EACCES, EIO) is not
 * found by probe_which(): recorded as rejected with its error, so that the toolkit it
 * belongs to reads "could not tell", never "none" (the unreadable-path sweep). */
static int reject_unreadable_path_nvcc(struct discovery *d)
{
	char **dirs;
	int r = probe_path_dirs(d->pe, &dirs);

	if (r < 0)
		return r;
	STRV_FOREACH(dir, dirs) {
		_cleanup_free_ char *p = path_join(*dir, "nvcc");
		struct stat st;

		if (!p)
			return -ENOMEM;
		if (!probe_dir_may_hold(d->pe, *dir, "nvcc"))
			continue;
		r = root_stat(d->pe->root, p, &st);
		if (r == -ENOMEM)
			return r;
		if (r < 0 && r != -ENOENT && r != -ENOTDIR)
			reject(d, p, p, "PATH nvcc", r, NULL);
	}
	return 0;
}

static int discover_path_nvcc(struct discovery *d)
{
	_cleanup_strv_free_ char **found = NULL;
	int err = probe_which(d->pe, "nvcc", &found);

	STRV_FOREACH(nvcc, found) {
		_cleanup_free_ char *prefix = NULL;

		if (err)
			break;
		/* <prefix>/bin/nvcc: the toolkit is the bin directory's parent (resolved). */
		err = probe_bin_prefix(d->pe, *nvcc, &prefix);
		if (err == -ENOMEM)
			return err;
		if (err < 0) {
			/* an nvcc that cannot be resolved (EACCES, a loop): its toolkit is "could
			 * not tell", never left out as if there were none */
			reject(d, *nvcc, *nvcc, "PATH nvcc", err, NULL);
			err = 0;
			continue;
		}
		err = add_candidate(d, prefix, "PATH nvcc", *nvcc);
	}
	return err < 0 ? err : reject_unreadable_path_nvcc(d);
}

/* <prefix>/lib64, <prefix>/lib, <prefix>/targets/<arch>/lib or a wheel's nvidia/<x>/lib. */
static char *prefix_of_lib_dir(const char *dir)
{
	_cleanup_free_ char *parent = path_dirname(dir), *grand = NULL;
	const char *b = path_basename(dir);

	if (!parent)
		return NULL;
	if (strcmp(b, "lib") != 0 && strcmp(b, "lib64") != 0)
		return strdup(dir);
	grand = path_dirname(parent);
	if (grand && strcmp(path_basename(grand), "targets") == 0)
		return path_dirname(grand);
	return TAKE_PTR(parent);
}

static int discover_ld_library_path(struct discovery *d, const char *llp)
{
	_cleanup_strv_free_ char **dirs = NULL;
	int err = strv_split(llp, ":", &dirs);

	STRV_FOREACH(dir, dirs) {
		_cleanup_free_ char *resolved = NULL, *prefix = NULL;

		if (err || (*dir)[0] != '/' || !dir_has_cudart(d->pe, *dir))
			continue;
		if (root_resolve(d->pe->root, *dir, &resolved) < 0)
			continue;
		prefix = prefix_of_lib_dir(resolved);
		if (!prefix)
			return -ENOMEM;
		err = add_candidate(d, prefix, "LD_LIBRARY_PATH cudart", *dir);
	}
	return err;
}

/* Conda environments ($CONDA_PREFIX first): the Python environments every probe shares
 * (probe_python_envs()); only those with conda-meta/ can hold conda's CUDA packages. */
static int discover_conda(struct discovery *d)
{
	const char *prefix = env_get(d->pe->env, "CONDA_PREFIX");
	const struct probe_pyenvs *es;
	int err = 0;

	if (prefix && prefix[0] == '/')
		err = add_candidate(d, prefix, "CONDA_PREFIX", NULL);
	if (!err)
		err = probe_python_envs(d->pe, &es);
	for (size_t i = 0; !err && i < es->n; i++)
		if (streq(es->e[i].kind, "conda"))
			err = add_candidate(d, es->e[i].prefix, "conda", NULL);
	return err;
}

static int discover_parents(struct discovery *d)
{
	static const char *const parents[] = { "/usr/local", "/opt" };

	for (size_t i = 0; i < ARRAY_SIZE(parents); i++) {
		_cleanup_strv_free_ char **names = NULL;

		int r = root_list_dir(d->pe->root, parents[i], MAX_DIR_ENTRIES, &names);

		if (r == -ENOMEM)
			return r;
		/* A parent that could not be listed may hold toolkits: said, not skipped. */
		if (r < 0 && r != -ENOENT && r != -ENOTDIR)
			reject(d, parents[i], parents[i], parents[i], r, NULL);
		if (r < 0)
			continue;
		STRV_FOREACH(nm, names) {
			_cleanup_free_ char *p = NULL;
			int err;

			if (!startswith(*nm, "cuda"))
				continue;
			if (asprintf(&p, "%s/%s", parents[i], *nm) < 0)
				return -ENOMEM;
			err = add_candidate(d, p, parents[i], p);
			if (err)
				return err;
		}
	}
	return 0;
}

/* ---- one toolkit ------------------------------------------------------------------- */

/* A directory of the toolkit that could not be looked at (EACCES, ELOOP, EIO …): kept in
 * f->unseen[] for unlisted[] (tk_note_unlisted()), never taken as missing. */
static int note_unseen(struct tk_files *f, const char *path, int err)
{
	if (f->n_unseen >= ARRAY_SIZE(f->unseen))
		return 0;
	f->unseen[f->n_unseen].path = strdup(path);
	if (!f->unseen[f->n_unseen].path)
		return -ENOMEM;
	f->unseen[f->n_unseen++].err = err;
	return 0;
}

static int add_dir(struct probe_env *pe, struct tk_files *f, char **dirs, size_t *n, size_t max,
		   const char *path)
{
	_cleanup_free_ char *resolved = NULL;
	int r = root_resolve(pe->root, path, &resolved);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR || *n >= max)
		return 0;
	if (r == 0)
		r = probe_path_test(pe, resolved, S_IFDIR);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return note_unseen(f, path, r);
	if (r == 0)
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (strcmp(dirs[i], resolved) == 0)
			return 0;
	dirs[(*n)++] = TAKE_PTR(resolved);
	return 0;
}

static int tk_files_scan(struct probe_env *pe, const char *prefix, struct tk_files *f)
{
	static const char *const lib_sub[] = { "lib64", "lib", "targets/x86_64-linux/lib",
					       "targets/sbsa-linux/lib" };
	static const char *const inc_sub[] = { "include", "targets/x86_64-linux/include",
					       "targets/sbsa-linux/include" };
	_cleanup_free_ char *site = wheel_site_packages(prefix);
	int err = 0;

	/* a conda-meta/ or dist-info/ that could not be looked at leaves the kind to the
	 * prefix's other signs (its package records are then not read either) */
	if (probe_pathf_test(pe, S_IFDIR, "%s/conda-meta", prefix) > 0) {
		f->kind = TK_CONDA;
		if (asprintf(&f->pkg_dir, "%s/conda-meta", prefix) < 0)
			return -ENOMEM;
	} else if (probe_pathf_test(pe, S_IFDIR, "%s/dist-info", prefix) > 0) {
		f->kind = TK_PIP_ASSEMBLED;
		if (asprintf(&f->pkg_dir, "%s/dist-info", prefix) < 0)
			return -ENOMEM;
	} else if (site) {
		f->kind = TK_PIP_WHEEL_DIR;
		f->pkg_dir = strdup(site);
		if (!f->pkg_dir)
			return -ENOMEM;
	} else if (strcmp(prefix, "/usr") == 0) {
		f->kind = TK_DISTRO;
	} else {
		f->kind = TK_RUNFILE_DEB;
	}
	/* a listing that failed is kept with its errno: recorded by tk_note_unlisted() */
	if (f->pkg_dir) {
		f->pkg_err = root_list_dir(pe->root, f->pkg_dir, MAX_DIR_ENTRIES, &f->pkg_names);
		if (f->pkg_err == -ENOMEM)
			return -ENOMEM;
		if (f->pkg_err < 0)
			f->pkg_names = NULL;
	}

	for (size_t i = 0; i < ARRAY_SIZE(lib_sub) && !err; i++) {
		_cleanup_free_ char *p = NULL;

		if (asprintf(&p, "%s/%s", prefix, lib_sub[i]) < 0)
			return -ENOMEM;
		err = add_dir(pe, f, f->lib_dirs, &f->n_lib, MAX_LIB_DIRS, p);
	}
	for (size_t i = 0; i < ARRAY_SIZE(inc_sub) && !err; i++) {
		_cleanup_free_ char *p = NULL;

		if (asprintf(&p, "%s/%s", prefix, inc_sub[i]) < 0)
			return -ENOMEM;
		err = add_dir(pe, f, f->inc_dirs, &f->n_inc, MAX_INC_DIRS, p);
	}
	/* The other wheels of the same site-packages (nvidia/cudnn/lib, nvidia/nccl/include …). */
	for (size_t i = 0; site && i < ARRAY_SIZE(wheel_dirs) && !err; i++) {
		_cleanup_free_ char *l = NULL, *h = NULL;

		if (asprintf(&l, "%s/nvidia/%s/lib", site, wheel_dirs[i]) < 0 ||
		    asprintf(&h, "%s/nvidia/%s/include", site, wheel_dirs[i]) < 0)
			return -ENOMEM;
		err = add_dir(pe, f, f->lib_dirs, &f->n_lib, MAX_LIB_DIRS, l);
		if (!err)
			err = add_dir(pe, f, f->inc_dirs, &f->n_inc, MAX_INC_DIRS, h);
	}
	for (size_t i = 0; i < f->n_lib && !err; i++) {
		f->lib_err[i] =
			root_list_dir(pe->root, f->lib_dirs[i], MAX_DIR_ENTRIES, &f->lib_names[i]);
		if (f->lib_err[i] == -ENOMEM)
			return -ENOMEM;
		if (f->lib_err[i] < 0)
			f->lib_names[i] = NULL;
	}
	return err;
}

/* The directories of the toolkit that could not be listed: unlisted[] (before the version and
 * the components, which say "unknown" rather than "absent" when one is there). */
static void tk_note_unlisted(struct snap_node *tk, const struct tk_files *f)
{
	if (f->pkg_err < 0 && f->pkg_err != -ENOENT)
		probe_note_unlisted(tk, "unlisted", f->pkg_dir, f->pkg_err, MAX_DIR_ENTRIES);
	for (size_t i = 0; i < f->n_unseen; i++)
		probe_note_unlisted(tk, "unlisted", f->unseen[i].path, f->unseen[i].err,
				    MAX_DIR_ENTRIES);
	for (size_t i = 0; i < f->n_lib; i++)
		if (f->lib_err[i] < 0 && f->lib_err[i] != -ENOENT)
			probe_note_unlisted(tk, "unlisted", f->lib_dirs[i], f->lib_err[i],
					    MAX_DIR_ENTRIES);
}

static void probe_stub(struct probe_env *pe, struct snap_node *tk, const char *prefix)
{
	static const char *const dirs[] = { "lib64/stubs", "lib/stubs",
					    "targets/x86_64-linux/lib/stubs" };

	_cleanup_free_ char *unread = NULL;
	int unread_err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		_cleanup_free_ char *path = NULL, *resolved = NULL;
		struct stat st;
		int r;

		if (asprintf(&path, "%s/%s/libcuda.so", prefix, dirs[i]) < 0)
			return;
		r = root_stat(pe->root, path, &st);
		if (r == 0 && S_ISREG(st.st_mode)) {
			if (root_resolve(pe->root, path, &resolved) == 0)
				snap_set_str(tk, "stub_libcuda", resolved, path);
			return;
		}
		if (r < 0 && r != -ENOENT && r != -ENOTDIR && !unread) {
			unread = TAKE_PTR(path);
			unread_err = r;
		}
	}
	/* A stub that may be there but could not be looked at: not "no stub". */
	if (unread) {
		snap_set_errno(tk, "stub_libcuda", unread_err, unread);
		return;
	}
	snap_set_state(tk, "stub_libcuda", FACT_ABSENT, prefix, NULL);
}

/* "runfile" when the runfile's uninstaller is there, "deb" when dpkg lists cuda-cudart-X-Y. */
static const char *installer_kind(struct probe_env *pe, const char *prefix, const char *version)
{
	struct version v;

	/* a marker that could not be looked at leaves "runfile/deb": not known which */
	if (probe_pathf_test(pe, S_IFREG, "%s/bin/cuda-uninstaller", prefix) > 0)
		return "runfile";
	if (version && version_parse_prefix(version, &v, NULL) == 0 && v.n >= 2 &&
	    (probe_pathf_test(pe, S_IFREG, "/var/lib/dpkg/info/cuda-cudart-%u-%u.list", v.part[0],
			      v.part[1]) > 0 ||
	     probe_pathf_test(pe, S_IFREG, "/var/lib/dpkg/info/cuda-cudart-%u-%u:amd64.list",
			      v.part[0], v.part[1]) > 0))
		return "deb";
	return "runfile/deb";
}

static int probe_one(struct probe_env *pe, struct snap_node *tk, const struct probe_prefix *c,
		     const char *default_resolved)
{
	const char *prefix = c->resolved, *kind;
	struct tk_files f = { 0 };
	_cleanup_free_ char *nvcc = NULL;
	bool is_default = default_resolved && strcmp(default_resolved, prefix) == 0;
	int err;

	probe_prefix_record(tk, c);
	err = tk_files_scan(pe, prefix, &f);
	if (err < 0) {
		tk_files_done(&f);
		return err;
	}
	if (asprintf(&nvcc, "%s/bin/nvcc", prefix) < 0) {
		tk_files_done(&f);
		return -ENOMEM;
	}
	probe_set_path_fact(pe, tk, "nvcc", nvcc, S_IFREG);
	tk_note_unlisted(tk, &f);

	tk_read_version(pe, &f, tk, prefix, nvcc);
	kind = f.kind == TK_RUNFILE_DEB
		       ? installer_kind(pe, prefix, snap_str(snap_child(tk, "version")))
		       : kind_name(f.kind);
	snap_set_str(tk, "kind", kind, prefix);
	snap_set_bool(tk, "is_default", is_default, DEFAULT_LINK);
	if (is_default)
		probe_link_chain(pe->root, DEFAULT_LINK, snap_array(tk, "alternatives_chain"),
				 NULL);

	tk_read_components(pe, &f, tk, prefix);
	probe_stub(pe, tk, prefix);
	tk_files_done(&f);
	return 0;
}

int probe_cuda_toolkit(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *rt = snap_object(snapshot_root(s), "runtime");
	struct snap_node *arr = snap_array(rt, "cuda_toolkits");
	struct discovery d = { .pe = pe, .rejected = snap_array(rt, "cuda_toolkit_rejected") };
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH" };
	const char *llp = env_get(pe->env, "LD_LIBRARY_PATH");
	_cleanup_free_ char *default_resolved = NULL;
	int err = 0;

	for (size_t i = 0; i < ARRAY_SIZE(vars) && !err; i++) {
		const char *v = env_get(pe->env, vars[i]);

		if (v && v[0] == '/')
			err = add_candidate(&d, v, vars[i], v);
	}
	if (!err)
		err = discover_path_nvcc(&d);
	if (!err && llp)
		err = discover_ld_library_path(&d, llp);
	if (!err)
		err = discover_conda(&d);
	if (!err)
		err = discover_parents(&d);
	if (!err && root_resolve(pe->root, DEFAULT_LINK, &default_resolved) == -ENOMEM)
		err = -ENOMEM;
	for (size_t i = 0; i < d.n; i++) {
		if (!err)
			err = probe_one(pe, snap_append_object(arr), &d.c[i], default_resolved);
		probe_prefix_done(&d.c[i]);
	}
	strv_free(d.rejected_paths);
	return err ? err : snapshot_error(s);
}
