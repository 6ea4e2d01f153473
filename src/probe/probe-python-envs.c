// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Finding the Python environments (probe-python.c lists where they come from).
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"
#include "formats/dist-metadata.h"
#include "formats/pyfile.h"
#include "framework-loads.h"
#include "probe-python-internal.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* Is the last component of path `name` ("/root/.pyenv/shims/")? */
static bool endswith_dir(const char *path, const char *name)
{
	size_t n = strlen(path), m = strlen(name);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n > m && path[n - m - 1] == '/' && strncmp(path + n - m, name, m) == 0;
}

/* "python3.11" → true with the minor digits; "python3" → true without. */
bool py_python_dir_name(const char *n, bool *versioned)
{
	if (!startswith(n, "python3"))
		return false;
	n += 7;
	*versioned = *n == '.';
	if (!*n)
		return true;
	if (*n++ != '.' || !*n)
		return false;
	for (; *n; n++)
		if (*n < '0' || *n > '9')
			return false;
	return true;
}

bool py_endswith_dist_info(const char *n)
{
	size_t l = strlen(n);

	return l > 10 && streq(n + l - 10, ".dist-info");
}

/* ---- finding environments ---------------------------------------------------------- */

static int add_env(struct probe_env *pe, struct envs *es, const char *prefix, const char *kind,
		   const char *via, const char *interpreter, const char *site)
{
	_cleanup_free_ char *resolved = NULL;
	struct pyenv *e = NULL;
	int rerr = root_resolve(pe->root, prefix, &resolved);
	size_t i;
	int r;

	if (rerr < 0 && !(resolved = strdup(prefix)))
		return -ENOMEM;
	if (strmap_get(&es->by_resolved, resolved, &i))
		e = &es->e[i];
	if (!e) {
		if (es->n >= MAX_ENVS) {
			es->truncated = true;
			return 0;
		}
		if (es->n == es->cap) {
			size_t cap = es->cap ? es->cap * 2 : 16;
			struct pyenv *v = reallocarray(es->e, cap, sizeof(*v));

			if (!v)
				return -ENOMEM;
			es->e = v;
			es->cap = cap;
		}
		if (strmap_put(&es->by_resolved, resolved, es->n) < 0)
			return -ENOMEM;
		e = &es->e[es->n++];
		*e = (struct pyenv){ .kind = kind, .resolve_err = rerr };
		e->prefix = strdup(prefix);
		e->resolved = TAKE_PTR(resolved);
		if (!e->prefix)
			return -ENOMEM;
	} else if (streq(e->kind, "system") && !streq(kind, "system")) {
		e->kind = kind; /* a more specific kind found later (conda-meta, pyvenv.cfg) */
	}
	if (via && !strv_contains(e->via, via) && (r = strv_push(&e->via, via)) < 0)
		return r;
	if (interpreter && !strv_contains(e->interpreters, interpreter) &&
	    (r = strv_push(&e->interpreters, interpreter)) < 0)
		return r;
	if (site && !strv_contains(e->extra_sites, site) &&
	    (r = strv_push(&e->extra_sites, site)) < 0)
		return r;
	return 0;
}

static const char *prefix_kind(struct probe_env *pe, const char *prefix)
{
	_cleanup_free_ char *cm = path_join(prefix, "conda-meta");
	_cleanup_free_ char *cfg = path_join(prefix, "pyvenv.cfg");

	if (cm && probe_path_is(pe, cm, S_IFDIR))
		return "conda";
	if (cfg && probe_path_is(pe, cfg, S_IFREG))
		return "venv";
	return "system";
}

/* Every conda env beside a conda prefix: <base>/envs/<name>, and the base itself. */
static int add_conda_family(struct probe_env *pe, struct envs *es, const char *prefix,
			    const char *via)
{
	_cleanup_free_ char *base = strdup(prefix), *envs = NULL, *cm = NULL;
	_cleanup_strv_free_ char **names = NULL;
	char *slash;
	int r = 0;

	if (!base)
		return -ENOMEM;
	slash = strrchr(base, '/');
	if (slash && slash > base) {
		*slash = '\0';
		char *s2 = strrchr(base, '/');

		if (s2 && streq(s2 + 1, "envs"))
			*s2 = '\0'; /* <base>/envs/<name> */
		else
			*slash = '/';
	}
	cm = path_join(base, "conda-meta");
	if (!cm)
		return -ENOMEM;
	if (probe_path_is(pe, cm, S_IFDIR) &&
	    (r = add_env(pe, es, base, "conda", via, NULL, NULL)) < 0)
		return r;
	envs = path_join(base, "envs");
	if (!envs)
		return -ENOMEM;
	r = root_list_dir(pe->root, envs, MAX_ENVS, &names);
	if (r == -E2BIG)
		es->truncated = true; /* more envs than are probed: said, never "absent" */
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = path_join(envs, *n), *m = NULL;

		if (!p || !(m = path_join(p, "conda-meta")))
			return -ENOMEM;
		if (probe_path_is(pe, m, S_IFDIR) &&
		    (r = add_env(pe, es, p, "conda", via, NULL, NULL)) < 0)
			return r;
	}
	return 0;
}

/* $PYENV_ROOT/shims/python3 is a bash script: the interpreters are in $PYENV_ROOT/versions.
 * *ret_selected: the selected version's prefix (NULL: none), for the other shims of the
 * directory (add_pyenv_shim()). */
static int add_pyenv(struct probe_env *pe, struct envs *es, const char *shims, const char *shim,
		     char **ret_selected)
{
	_cleanup_free_ char *root = strdup(shims), *versions = NULL, *vfile = NULL, *sel = NULL;
	_cleanup_strv_free_ char **names = NULL;
	const char *want = env_get(pe->env, "PYENV_VERSION");
	int r;

	if (!root)
		return -ENOMEM;
	*strrchr(root, '/') = '\0';
	versions = path_join(root, "versions");
	vfile = path_join(root, "version");
	if (!versions || !vfile)
		return -ENOMEM;
	if (root_list_dir(pe->root, versions, MAX_SMALL_DIR, &names) < 0)
		return 1; /* not pyenv */
	if (!want && root_read_text(pe->root, vfile, ROOT_CAP_ATTR, &sel) == 0)
		want = strstrip(sel);
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = path_join(versions, *n);
		bool selected = want && streq(want, *n);

		if (!p)
			return -ENOMEM;
		r = add_env(pe, es, p, "pyenv",
			    selected ? "PATH python3 (pyenv shim, selected version)"
				     : "pyenv versions",
			    selected ? shim : NULL, NULL);
		if (r < 0)
			return r;
		if (selected && !*ret_selected && !(*ret_selected = strdup(p)))
			return -ENOMEM;
	}
	return 0;
}

/* Another shim of a pyenv shims directory add_pyenv() has read: it runs the same selected
 * version, so only that version gains an interpreter. Reading versions/ again for each of a
 * dozen shims (python3, python3.11, …) resolved every version a dozen times. */
static int add_pyenv_shim(struct probe_env *pe, struct envs *es, const char *selected,
			  const char *shim)
{
	if (!selected)
		return 0;
	return add_env(pe, es, selected, "pyenv", "PATH python3 (pyenv shim, selected version)",
		       shim, NULL);
}

static int add_path_pythons(struct probe_env *pe, struct envs *es)
{
	const char *path = env_get(pe->env, "PATH");
	_cleanup_strv_free_ char **dirs = NULL;
	int r;

	if (!path)
		return 0;
	r = strv_split(path, ":", &dirs);
	if (r < 0)
		return r;
	STRV_FOREACH(d, dirs) {
		_cleanup_strv_free_ char **names = NULL;
		_cleanup_free_ char *pyenv_selected = NULL;
		bool shims = endswith_dir(*d, "shims"), pyenv_read = false;

		if ((*d)[0] != '/' || root_list_dir(pe->root, *d, MAX_DIR_ENTRIES, &names) < 0)
			continue;
		STRV_FOREACH(n, names) {
			_cleanup_free_ char *exe = NULL, *real = NULL, *parent = NULL, *cfg = NULL;
			bool versioned;
			char *slash;

			if (!py_python_dir_name(*n, &versioned) || !(exe = path_join(*d, *n)))
				continue;
			if (!probe_path_is(pe, exe, S_IFREG))
				continue;
			/* A venv: pyvenv.cfg beside the bin directory (PEP 405), before resolving.
			 */
			parent = strdup(*d);
			if (!parent)
				return -ENOMEM;
			slash = strrchr(parent, '/');
			if (slash)
				*slash = '\0';
			cfg = path_join(*parent ? parent : "/", "pyvenv.cfg");
			if (!cfg)
				return -ENOMEM;
			if (*parent && probe_path_is(pe, cfg, S_IFREG)) {
				r = add_env(pe, es, parent, "venv", "PATH python3", exe, NULL);
				if (r < 0)
					return r;
				continue;
			}
			if (shims && pyenv_read) {
				r = add_pyenv_shim(pe, es, pyenv_selected, exe);
				if (r < 0)
					return r;
				continue;
			}
			if (shims) {
				r = add_pyenv(pe, es, *d, exe, &pyenv_selected);
				if (r <= 0) {
					if (r < 0)
						return r;
					pyenv_read = true;
					continue;
				}
			}
			/* <prefix>/bin/python3.X, symlinks resolved (CPython getpath). */
			if (root_resolve(pe->root, exe, &real) < 0)
				continue;
			for (int i = 0; i < 2; i++) {
				slash = strrchr(real, '/');
				if (slash)
					*slash = '\0';
			}
			r = add_env(pe, es, *real ? real : "/", prefix_kind(pe, *real ? real : "/"),
				    "PATH python3", exe, NULL);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* /usr/lib/python3*, /usr/local/lib/python3*: the distribution's own site directories. */
static int add_system_sites(struct probe_env *pe, struct envs *es, const char *prefix,
			    const char *via)
{
	static const char *const subs[] = { "dist-packages", "site-packages" };
	_cleanup_free_ char *lib = path_join(prefix, "lib");
	_cleanup_strv_free_ char **names = NULL;
	int r;

	if (!lib)
		return -ENOMEM;
	r = root_list_dir(pe->root, lib, MAX_SMALL_DIR, &names);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* The Python installations it may hold are unknown, never absent. */
		if (r != -ENOENT && r != -ENOTDIR)
			py_note_unreadable(es->unread, lib, r);
		return 0;
	}
	STRV_FOREACH(n, names) {
		bool versioned;

		if (!py_python_dir_name(*n, &versioned))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
			_cleanup_free_ char *d = NULL;
			struct stat st;
			int sr;

			if (asprintf(&d, "%s/%s/%s", lib, *n, subs[i]) < 0)
				return -ENOMEM;
			/* A site directory that cannot be looked at is kept: listing it then
			 * records why (probe_one_env()), instead of the environment vanishing. */
			sr = root_stat(pe->root, d, &st);
			if (sr == -ENOENT || sr == -ENOTDIR || (sr == 0 && !S_ISDIR(st.st_mode)))
				continue;
			if ((r = add_env(pe, es, prefix, "system", via, NULL, d)) < 0)
				return r;
		}
	}
	return 0;
}

int py_find_envs(struct probe_env *pe, struct envs *es)
{
	const struct probe_conda_base *bases = NULL;
	size_t n_bases = 0;
	const char *venv = env_get(pe->env, "VIRTUAL_ENV");
	const char *conda = env_get(pe->env, "CONDA_PREFIX");
	const char *home = env_get(pe->env, "HOME");
	int r = 0;

	if (venv && venv[0] == '/' &&
	    (r = add_env(pe, es, venv, "venv", "VIRTUAL_ENV", NULL, NULL)) < 0)
		return r;
	if (conda && conda[0] == '/') {
		r = add_env(pe, es, conda, "conda", "CONDA_PREFIX", NULL, NULL);
		if (r >= 0)
			r = add_conda_family(pe, es, conda, "conda envs");
		if (r < 0)
			return r;
	}
	r = add_path_pythons(pe, es);
	if (r < 0)
		return r;
	/* Conda installations the other probes see too (CONDA_EXE, the default places). */
	if (r >= 0)
		r = probe_conda_bases(pe, &bases, &n_bases);
	for (size_t i = 0; r >= 0 && i < n_bases; i++)
		r = add_conda_family(pe, es, bases[i].path, bases[i].via);
	/* Conda prefixes found on PATH bring their siblings. */
	for (size_t i = 0; r >= 0 && i < es->n; i++)
		if (streq(es->e[i].kind, "conda") && !strv_contains(es->e[i].via, "conda envs"))
			r = add_conda_family(pe, es, es->e[i].resolved, "conda envs");
	if (r >= 0)
		r = add_system_sites(pe, es, "/usr", "/usr/lib/python3*");
	if (r >= 0)
		r = add_system_sites(pe, es, "/usr/local", "/usr/local/lib/python3*");
	if (r >= 0 && home && home[0] == '/') {
		_cleanup_free_ char *local = path_join(home, ".local"), *lib = NULL;

		if (!local || !(lib = path_join(local, "lib")))
			return -ENOMEM;
		if (probe_path_is(pe, lib, S_IFDIR))
			r = add_env(pe, es, local, "user", "~/.local", NULL, NULL);
	}
	return r;
}
