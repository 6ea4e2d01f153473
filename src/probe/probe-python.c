// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Python environments and the GPU frameworks installed in them, without running Python,
 * into framework.python_envs[]. The environments come from the shared discovery
 * (probe_python_envs(), probe-python-envs.c: venvs, conda/mamba, pipx, uv, poetry, hatch,
 * pyenv, the applications' venvs, in every home and under /opt), deduplicated by resolved
 * prefix. Formats (see docs/formats/python.md):
 *   pyvenv.cfg                 `key = value` lines written by the venv module (PEP 405);
 *   conda-meta/<n>-<v>-<b>.json one JSON record per conda package (conda's PrefixRecord);
 *   *.dist-info/METADATA, RECORD, *.egg-info/PKG-INFO (PyPA core metadata, RECORD: CSV);
 *   torch/version.py           generate_torch_version.py: __version__, cuda, hip, git_version;
 *   tensorflow/python/platform/build_info.py  gen_build_info.py: the build_info dict;
 *   jaxlib/version.py, jax/version.py         _release_version / _version;
 *   cupy/.data/_wheel.json, cupy/_version.py  the CuPy wheel's build record;
 *   /var/lib/dpkg/status       dpkg's database, for Debian's python3-<name> packages.
 * The CUDA and HIP kernels a framework ships are listed from its own library (libtorch_cuda.so,
 * libtorch_hip.so, the JAX PJRT plugin, TensorFlow's libtensorflow_cc) with the fatbin parser
 * (CUDA fat binaries; clang offload bundles, LLVM ClangOffloadBundler.rst): the binary is the
 * truth. Only fixed paths are read: no recursive walk of site-packages.
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"
#include "formats/dist-metadata.h"
#include "formats/gpu-names.h"
#include "formats/pyfile.h"
#include "framework-loads.h"
#include "probe-python-internal.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* ---- one environment ---------------------------------------------------------------- */

/* pyvenv.cfg (PEP 405; venv writes home, include-system-site-packages, version, and from
 * 3.11 executable and command; virtualenv writes version_info). */
static void probe_pyvenv_cfg(struct probe_env *pe, struct snap_node *env, const char *prefix)
{
	static const struct {
		const char *cfg, *key;
	} keys[] = {
		{ "home", "home" },
		{ "include-system-site-packages", "include_system_site_packages" },
		{ "version", "version" },
		{ "version_info", "version" },
		{ "executable", "executable" },
		{ "uv", "uv" }, /* uv's venvs name the uv that made them ("uv = 0.4.18") */
	};
	_cleanup_free_ char *path = path_join(prefix, "pyvenv.cfg"), *text = NULL;
	struct snap_node *cfg;
	char *state, *line, *v;
	int r;

	if (!path)
		return;
	r = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	if (r < 0) {
		snap_set_errno(env, "pyvenv_cfg", r, path);
		return;
	}
	cfg = snap_object(env, "pyvenv_cfg");
	state = text;
	while (kv_next(&state, '=', &line, &v)) {
		strstrip(line);
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (streq(line, keys[i].cfg) && !snap_child(cfg, keys[i].key)) {
				bool b;

				if (streq(keys[i].key, "include_system_site_packages") &&
				    parse_bool(v, &b) == 0)
					snap_set_bool(cfg, keys[i].key, b, path);
				else
					snap_set_str(cfg, keys[i].key, v, path);
			}
	}
	if (!snap_child(cfg, "version"))
		snap_set_state(cfg, "version", FACT_ABSENT, path, "no version line");
}

static int probe_conda(struct probe_env *pe, struct snap_node *env, const char *prefix)
{
	_cleanup_free_ char *meta = path_join(prefix, "conda-meta");
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int r;

	if (!meta)
		return -ENOMEM;
	r = root_list_dir(pe->root, meta, MAX_DIR_ENTRIES, &names);
	if (r < 0) {
		snap_set_errno(env, "conda_packages", r, meta);
		return r == -ENOMEM ? r : 0;
	}
	arr = snap_array(env, "conda_packages");
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *base = NULL, *path = NULL, *text = NULL;
		char *b, *v;
		size_t l = strlen(*n);
		struct snap_node *p;
		json_t *j;

		/* "<name>-<version>-<build>.json": version and build hold no '-'. */
		if (l < 6 || !streq(*n + l - 5, ".json") || !(base = strndup(*n, l - 5)))
			continue;
		b = strrchr(base, '-');
		if (!b || b == base)
			continue;
		*b = '\0';
		v = strrchr(base, '-');
		if (!v || v == base)
			continue;
		*v = '\0';
		if (!conda_gpu_package(base))
			continue;
		path = path_join(meta, *n);
		if (!path)
			return -ENOMEM;
		p = snap_append_object(arr);
		r = root_read_text(pe->root, path, CAP_CONDA_JSON, &text);
		if (r < 0) {
			snap_set_str(p, "name", base, path);
			snap_set_errno(p, "version", r, path);
			continue;
		}
		j = json_loads(text, 0, NULL);
		if (!json_is_object(j) || !json_is_string(json_object_get(j, "name")) ||
		    !json_is_string(json_object_get(j, "version"))) {
			snap_set_str(p, "name", base, path);
			snap_set_malformed(p, "version", text, path,
					   "not a conda package record with name and version");
		} else {
			static const char *const keys[] = { "name", "version", "build", "channel" };

			for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
				json_t *x = json_object_get(j, keys[i]);

				if (json_is_string(x))
					snap_set_str(p, keys[i], json_string_value(x), path);
				else
					snap_set_state(p, keys[i], FACT_ABSENT, path, NULL);
			}
		}
		json_decref(j);
	}
	return 0;
}

void py_note_unreadable(struct py_unread *u, const char *dir, int err)
{
	for (size_t i = 0; i < snap_count(u->arr); i++)
		if (streq(snap_source(snap_child(snap_at(u->arr, i), "path")) ?: "", dir))
			return;
	if (!u->first_err) {
		u->first_err = err;
		u->first_src = strdup(dir); /* NULL on OOM: the source is then left out */
	}
	/* Past the cap the first stays python_envs_complete's source: incomplete all the same. */
	if (u->n++ >= MAX_UNREADABLE)
		return;
	probe_note_unlisted(u->fw, "python_envs_unreadable", dir, err, MAX_DIR_ENTRIES);
	u->arr = snap_array(u->fw, "python_envs_unreadable");
}

/* The first directory that could not be listed makes framework.python_envs_complete
 * unreadable (envs_complete()). */
static void note_incomplete(struct py_ctx *c, const char *dir, int err)
{
	py_note_unreadable(c->unread, dir, err);
}

/* The site directories of a prefix: lib{,64}/python3.N/{site,dist}-packages and Debian's
 * lib/python3/dist-packages, then those found directly. */
static int list_sites(struct py_ctx *c, struct snap_node *env, const struct probe_pyenv *e,
		      char ***ret)
{
	struct probe_env *pe = c->pe;
	static const char *const libs[] = { "lib", "lib64" };
	static const char *const subs[] = { "site-packages", "dist-packages" };
	_cleanup_strv_free_ char **sites = NULL, **versions = NULL;
	struct snap_node *arr;
	int r;

	for (size_t li = 0; li < ARRAY_SIZE(libs); li++) {
		_cleanup_free_ char *lib = path_join(e->resolved, libs[li]);
		_cleanup_strv_free_ char **names = NULL;

		if (!lib)
			return -ENOMEM;
		r = root_list_dir(pe->root, lib, MAX_SMALL_DIR, &names);
		/* lib64/ too: a venv's site-packages may be there only (cupy/cupy#8226). */
		if (r < 0) {
			if (r != -ENOENT && (li == 0 || r != -ENOTDIR)) {
				snap_set_errno(env, li == 0 ? "lib_dir" : "lib64_dir", r, lib);
				note_incomplete(c, lib, r);
			}
			continue;
		}
		STRV_FOREACH(n, names) {
			bool versioned;

			if (!py_python_dir_name(*n, &versioned))
				continue;
			if (versioned && !strv_contains(versions, *n + 6) &&
			    (r = strv_push(&versions, *n + 6)) < 0)
				return r;
			for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
				_cleanup_free_ char *d = NULL;

				if (asprintf(&d, "%s/%s/%s", lib, *n, subs[i]) < 0)
					return -ENOMEM;
				struct stat st;
				int sr = root_stat(pe->root, d, &st);

				/* A directory, or one that cannot be read (a loop): recorded below.
				 */
				if (strv_contains(sites, d) || sr == -ENOENT || sr == -ENOTDIR ||
				    (sr == 0 && !S_ISDIR(st.st_mode)))
					continue;
				if ((r = strv_push(&sites, d)) < 0)
					return r;
			}
		}
	}
	STRV_FOREACH(x, e->extra_sites)
		if (!strv_contains(sites, *x) && (r = strv_push(&sites, *x)) < 0)
			return r;
	arr = snap_array(env, "python_versions");
	STRV_FOREACH(v, versions)
		snap_append_str(arr, *v, "lib/python3.N directory");
	*ret = TAKE_PTR(sites);
	return 0;
}

static void site_unreadable(struct py_ctx *c, struct snap_node *o, const char *dir, int err)
{
	char why[64];

	snprintf(why, sizeof(why), "more than %u entries", MAX_DIR_ENTRIES);
	if (err == -E2BIG)
		snap_set_state(o, "path", FACT_UNREADABLE, dir, why);
	else
		snap_set_errno(o, "path", err, dir);
	note_incomplete(c, dir, err);
}

static int probe_one_env(struct py_ctx *c, struct snap_node *env, const struct probe_pyenv *e)
{
	struct probe_env *pe = c->pe;
	_cleanup_strv_free_ char **dirs = NULL;
	struct site sites[32] = { 0 };
	size_t ns = 0;
	struct snap_node *arr, *pkgs;
	int r;

	snap_set_str(env, "kind", e->kind, e->prefix);
	snap_set_str(env, "prefix", e->prefix, e->prefix);
	if (e->resolve_err < 0)
		snap_set_errno(env, "resolved_prefix", e->resolve_err, e->prefix);
	else
		snap_set_str(env, "resolved_prefix", e->resolved, e->prefix);
	arr = snap_array(env, "found_via");
	STRV_FOREACH(v, e->via)
		snap_append_str(arr, *v, NULL);
	arr = snap_array(env, "interpreters");
	STRV_FOREACH(v, e->interpreters)
		snap_append_str(arr, *v, *v);
	/* The tools' environments are venvs too; a uv-managed interpreter has no pyvenv.cfg. */
	if (streq(e->kind, "venv") || streq(e->kind, "pipx") || streq(e->kind, "poetry") ||
	    streq(e->kind, "hatch") ||
	    (streq(e->kind, "uv") &&
	     probe_pathf_test(pe, S_IFREG, "%s/pyvenv.cfg", e->resolved) != 0))
		probe_pyvenv_cfg(pe, env, e->resolved);
	/* A venv uv made (a project's .venv, `uv venv`) is uv's. */
	if (streq(e->kind, "venv") && snap_get_str(snap_child(env, "pyvenv_cfg"), "uv"))
		snap_set_str(env, "kind", "uv", e->prefix);
	if (e->resolve_err < 0) {
		/* An environment that is named (CONDA_PREFIX, an envs/ entry) but cannot be
		 * read: what it holds is unknown, not absent. */
		if (streq(e->kind, "conda"))
			snap_set_errno(env, "conda_packages", e->resolve_err, e->prefix);
		if (e->resolve_err != -ENOENT && e->resolve_err != -ENOTDIR)
			note_incomplete(c, e->prefix, e->resolve_err);
		return 0;
	}
	if (streq(e->kind, "conda") && (r = probe_conda(pe, env, e->resolved)) < 0)
		return r;
	r = list_sites(c, env, e, &dirs);
	if (r < 0)
		return r;
	arr = snap_array(env, "site_packages");
	STRV_FOREACH(d, dirs) {
		if (ns >= ARRAY_SIZE(sites))
			break;
		r = root_list_dir_borrow(pe->root, *d, MAX_DIR_ENTRIES, &sites[ns].names,
					 &sites[ns].n_names);
		if (r == -ENOMEM)
			goto out;
		if (r < 0) {
			/* An unreadable, oversized or looping site directory is a fact, not the
			 * end; the frameworks it may hold are unknown, never absent. */
			site_unreadable(c, snap_append_object(arr), *d, r);
			continue;
		}
		if ((r = py_site_index_dists(&sites[ns])) < 0)
			goto out;
		snap_append_str(arr, *d, *d);
		sites[ns++].dir = *d;
	}
	for (size_t i = 0; i < ns; i++)
		if ((r = strv_push(&c->sites, sites[i].dir)) < 0)
			goto out;
	pkgs = snap_object(env, "packages");
	c->env = env;
	r = py_probe_frameworks(c, pkgs, sites, ns);
	c->env = NULL;
	if (r >= 0)
		r = probe_nvidia_wheels(c, env, sites, ns);
	if (r >= 0)
		r = py_probe_coverage(c, env);
	if (r >= 0)
		r = py_probe_dlopen(c, env);
	if (r >= 0)
		r = py_probe_torch_extensions(c, env, sites, ns);
out:
	c->sites = strv_free(c->sites);
	py_scans_done(c);
	for (size_t i = 0; i < ARRAY_SIZE(sites); i++)
		free(sites[i].dists);
	return r == -ENOMEM ? r : 0;
}

/* framework.python_envs_complete: whether a framework not found is absent (every environment
 * found, every site-packages listed). The rules that conclude from absence need it present;
 * otherwise it says what could not be read, and they say so instead. */
static void envs_complete(struct snap_node *fw, const struct probe_pyenvs *es,
			  const struct py_unread *u)
{
	char why[64];

	if (es->truncated) {
		snprintf(why, sizeof(why), "more than %u environments", PROBE_MAX_ENVS);
		snap_set_bool(fw, "python_envs_truncated", true, why);
		snap_set_state(fw, "python_envs_complete", FACT_UNREADABLE, "framework.python_envs",
			       why);
	} else if (u->first_err == -E2BIG) {
		snprintf(why, sizeof(why), "more than %u entries", MAX_DIR_ENTRIES);
		snap_set_state(fw, "python_envs_complete", FACT_UNREADABLE, u->first_src, why);
	} else if (u->first_err) {
		snap_set_errno(fw, "python_envs_complete", u->first_err, u->first_src);
	} else {
		snap_set_bool(fw, "python_envs_complete", true, "framework.python_envs");
	}
}

int probe_python(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *fw = snap_object(snapshot_root(s), "framework");
	struct snap_node *arr = snap_array(fw, "python_envs");
	const struct probe_pyenvs *es;
	struct py_unread u = { .fw = fw };
	struct py_ctx c = { .pe = pe, .unread = &u };
	int r = probe_python_envs(pe, &es);

	if (r < 0)
		return r;
	/* What the shared discovery could not read belongs to the python layer's facts. */
	for (size_t i = 0; i < es->n_unreadable; i++)
		py_note_unreadable(&u, es->unreadable[i].dir, es->unreadable[i].err);
	for (size_t i = 0; i < es->n && r >= 0; i++)
		r = probe_one_env(&c, snap_append_object(arr), &es->e[i]);
	envs_complete(fw, es, &u);
	free(u.first_src);
	return r < 0 ? r : snapshot_error(s);
}
