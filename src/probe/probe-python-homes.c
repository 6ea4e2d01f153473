// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Python environments of every home and of /opt: the places pipx, uv, poetry, hatch, pyenv,
 * virtualenvwrapper and conda's environments.txt keep them, and the applications' own venvs
 * (the sources are named in probe-python-envs.c, which calls py_add_home()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe-python-internal.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* ~/.conda/environments.txt: conda appends every prefix it creates, one absolute path a line;
 * a line whose prefix has conda-meta/ is a conda environment (its siblings come with it). */
static int add_environments_txt(struct probe_env *pe, struct probe_pyenvs *es, const struct home *h)
{
	_cleanup_free_ char *path = NULL, *text = NULL, *via = NULL;
	char *state, *line;
	int r;

	if (asprintf(&path, "%s/.conda/environments.txt", h->path) < 0 ||
	    asprintf(&via, "%s/.conda/environments.txt", h->label) < 0)
		return -ENOMEM;
	r = root_read_text(pe->root, path, ROOT_CAP_BIG, &text);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	state = text;
	while ((line = strsep(&state, "\n"))) {
		strstrip(line);
		if (line[0] != '/' || !py_maybe_conda(pe, line))
			continue;
		r = py_add_env(pe, es, line, "conda", via, NULL, NULL);
		if (r >= 0)
			r = py_add_conda_family(pe, es, line, via, true);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- the tools' environment directories ------------------------------------------------ */

/* Each <dir>/<name> (not hidden) holding mark, a file or directory of that type, is an
 * environment of this kind. */
static int add_prefixes_in(struct probe_env *pe, struct probe_pyenvs *es, const char *dir,
			   const char *kind, const char *via, const char *mark, mode_t type,
			   bool note_unreadable)
{
	_cleanup_strv_free_ char **names = NULL;
	int err, r = py_list_container(pe, es, dir, true, &names, &err);

	/* A tool's directory of the user's own (or the system's) that is there but could not be
	 * listed: its environments are unknown, not none. Another user's is nothing known. */
	if (r == 0 && err < 0 && note_unreadable)
		return probe_pyenvs_note_unreadable(es, dir, err);
	if (r <= 0)
		return r;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = path_join(dir, *n);

		if (!p)
			return -ENOMEM;
		if ((*n)[0] == '.')
			continue;
		r = py_pathf_test(pe, es, type, "%s/%s", p, mark);
		if (r > 0)
			r = py_add_env(pe, es, p, kind, via, NULL, NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Each <dir>/<name> holding pyvenv.cfg (PEP 405) is an environment of this kind. */
int py_add_venvs_in(struct probe_env *pe, struct probe_pyenvs *es, const char *dir,
		    const char *kind, const char *via, bool note_unreadable)
{
	return add_prefixes_in(pe, es, dir, kind, via, "pyvenv.cfg", S_IFREG, note_unreadable);
}

/* hatch: <virtual>/<project>/<checksum>/<env> (three fixed levels, each listed once). */
static int add_hatch(struct probe_env *pe, struct probe_pyenvs *es, const char *virt,
		     const char *via)
{
	_cleanup_strv_free_ char **projects = NULL;
	int r = py_list_container(pe, es, virt, true, &projects, NULL);

	if (r <= 0)
		return r;
	STRV_FOREACH(p, projects) {
		_cleanup_free_ char *pd = path_join(virt, *p);
		_cleanup_strv_free_ char **sums = NULL;

		if (!pd)
			return -ENOMEM;
		if ((*p)[0] == '.')
			continue;
		r = py_list_container(pe, es, pd, true, &sums, NULL);
		if (r < 0)
			return r;
		STRV_FOREACH(c, sums) {
			_cleanup_free_ char *cd = path_join(pd, *c);

			if (!cd || (r = py_add_venvs_in(pe, es, cd, "hatch", via, false)) < 0)
				return cd ? r : -ENOMEM;
		}
	}
	return 0;
}

/* An application's own environment in <parent>/<app>: the directory itself a venv, or its
 * venv/ or .venv/ (ComfyUI, stable-diffusion-webui), or a conda prefix of any name. One level
 * only: no walk. */
int py_add_app_envs(struct probe_env *pe, struct probe_pyenvs *es, const char *parent,
		    const char *label)
{
	static const char *const subs[] = { "venv", ".venv" };
	_cleanup_strv_free_ char **names = NULL;
	_cleanup_free_ char *via_self = NULL, *via_sub = NULL;
	int err, r = py_list_container(pe, es, parent, true, &names, &err);

	/* The user's own home that could not be listed: its apps' environments are unknown.
	 * Another user's (/root, /home/<user>: 0700 to whoever runs gpuenv) is nothing known. */
	if (r == 0 && err < 0 && streq(label, "~"))
		return probe_pyenvs_note_unreadable(es, parent, err);
	if (r <= 0)
		return r;
	if (asprintf(&via_self, "%s/*", label) < 0 || asprintf(&via_sub, "%s/*/venv", label) < 0)
		return -ENOMEM;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *app = path_join(parent, *n), *envs = NULL;
		size_t seen;

		if (!app || !(envs = path_join(app, "envs")))
			return -ENOMEM;
		r = py_pathf_test(pe, es, S_IFREG, "%s/pyvenv.cfg", app);
		if (r < 0)
			return r;
		if (r > 0) {
			r = py_add_env(pe, es, app, "venv", via_self, NULL, NULL);
			if (r < 0)
				return r;
			continue;
		}
		if ((*n)[0] == '.')
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
			_cleanup_free_ char *v = path_join(app, subs[i]);

			if (!v)
				return -ENOMEM;
			r = py_pathf_test(pe, es, S_IFREG, "%s/pyvenv.cfg", v);
			if (r > 0)
				r = py_add_env(pe, es, v, "venv", via_sub, NULL, NULL);
			if (r < 0)
				return r;
		}
		/* A conda prefix under another name (a base already read is not read again). */
		if (!strmap_get(&es->listed, envs, &seen) && py_maybe_conda(pe, app) &&
		    (r = py_add_conda_family(pe, es, app, via_self, true)) < 0)
			return r;
	}
	return 0;
}

/* A directory named by a variable when it is set for $HOME, else home/rel. */
static char *tool_dir(struct probe_env *pe, const struct home *h, const char *var, const char *rel)
{
	const char *v = streq(h->label, "~") && var ? env_get(pe->env, var) : NULL;

	return v && v[0] == '/' ? strdup(v) : path_join(h->path, rel);
}

int py_add_home(struct probe_env *pe, struct probe_pyenvs *es, const struct home *h)
{
	/* The XDG base directories of $HOME's user (other users' are unknown: the defaults). */
	const bool mine = streq(h->label, "~");
	const char *xdata = mine ? env_get(pe->env, "XDG_DATA_HOME") : NULL;
	const char *xcache = mine ? env_get(pe->env, "XDG_CACHE_HOME") : NULL;
	_cleanup_free_ char *data =
		xdata && xdata[0] == '/' ? strdup(xdata) : path_join(h->path, ".local/share");
	_cleanup_free_ char *cache =
		xcache && xcache[0] == '/' ? strdup(xcache) : path_join(h->path, ".cache");
	const struct {
		const char *var, *base, *rel, *kind, *via;
	} places[] = {
		{ "PIPX_HOME", data, "pipx/venvs", "pipx", "pipx venvs" },
		{ NULL, h->path, ".local/pipx/venvs", "pipx", "pipx venvs" },
		{ "UV_TOOL_DIR", data, "uv/tools", "uv", "uv tools" },
		{ "POETRY_VIRTUALENVS_PATH", cache, "pypoetry/virtualenvs", "poetry",
		  "poetry virtualenvs" },
		{ "WORKON_HOME", h->path, ".virtualenvs", "venv", "virtualenvwrapper" },
	};
	int r = 0;

	if (!data || !cache)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(places) && r >= 0; i++) {
		_cleanup_free_ char *rel = path_join(places[i].base, places[i].rel), *dir = NULL;
		_cleanup_free_ char *via = NULL;
		const char *v = mine && places[i].var ? env_get(pe->env, places[i].var) : NULL;

		if (!rel)
			return -ENOMEM;
		/* $PIPX_HOME names pipx's home, the others the environments' directory. */
		if (v && v[0] == '/')
			dir = streq(places[i].var, "PIPX_HOME") ? path_join(v, "venvs") : strdup(v);
		else
			dir = strdup(rel);
		if (!dir || asprintf(&via, "%s (%s)", places[i].via, h->label) < 0)
			return -ENOMEM;
		r = py_add_venvs_in(pe, es, dir, places[i].kind, via, mine);
	}
	if (r >= 0) {
		const char *v = mine ? env_get(pe->env, "UV_PYTHON_INSTALL_DIR") : NULL;
		_cleanup_free_ char *dir =
			v && v[0] == '/' ? strdup(v) : path_join(data, "uv/python");
		_cleanup_free_ char *via = NULL;

		if (!dir || asprintf(&via, "uv python (%s)", h->label) < 0)
			return -ENOMEM;
		/* uv's managed interpreters: cpython-3.12.7-linux-x86_64-gnu/ … (prefixes). */
		r = add_prefixes_in(pe, es, dir, "uv", via, "lib", S_IFDIR, mine);
	}
	if (r >= 0) {
		const char *hd = mine ? env_get(pe->env, "HATCH_DATA_DIR") : NULL;
		_cleanup_free_ char *dir = NULL, *via = NULL;

		if ((hd && hd[0] == '/' ? asprintf(&dir, "%s/env/virtual", hd)
					: asprintf(&dir, "%s/hatch/env/virtual", data)) < 0 ||
		    asprintf(&via, "hatch envs (%s)", h->label) < 0)
			return -ENOMEM;
		r = add_hatch(pe, es, dir, via);
	}
	if (r >= 0) {
		/* $PYENV_ROOT/versions/<v> not reached through a shim on PATH. */
		_cleanup_free_ char *root = tool_dir(pe, h, "PYENV_ROOT", ".pyenv"),
				    *versions = root ? path_join(root, "versions") : NULL;

		r = versions ? add_prefixes_in(pe, es, versions, "pyenv", "pyenv versions", "lib",
					       S_IFDIR, mine)
			     : -ENOMEM;
	}
	if (r >= 0)
		r = add_environments_txt(pe, es, h);
	if (r >= 0 && !mine) {
		/* Another user's ~/.local (user site, PEP 370); $HOME's is found below. */
		_cleanup_free_ char *local = path_join(h->path, ".local"), *via = NULL;

		if (!local || asprintf(&via, "%s/.local", h->label) < 0)
			return -ENOMEM;
		r = py_pathf_test(pe, es, S_IFDIR, "%s/lib", local);
		if (r > 0)
			r = py_add_env(pe, es, local, "user", via, NULL, NULL);
	}
	if (r >= 0)
		r = py_add_app_envs(pe, es, h->path, h->label);
	return r;
}
