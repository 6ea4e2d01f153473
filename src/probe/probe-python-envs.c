// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Finding the Python environments, once per run, for the python, CUDA toolkit and ROCm probes
 * (probe_python_envs(); docs/snapshot-schema.md "framework.python_envs[]" lists the places).
 * Only known directories are listed, each container (a conda envs/, pipx's venvs/ …) once:
 * finding N environments costs O(N) lookups, deduplicated by resolved prefix in a hash map.
 * Where the tools keep their environments (each tool's documentation):
 *   conda/mamba     <base>/envs/<name> with conda-meta/; bases: $CONDA_EXE's, $MAMBA_ROOT_PREFIX,
 *                   the installers' defaults (~/miniconda3, ~/anaconda3, ~/miniforge3,
 *                   ~/mambaforge, ~/micromamba, /opt/conda …); every prefix conda created is a
 *                   line of ~/.conda/environments.txt (conda/core/envs_manager.py);
 *   pipx            $PIPX_HOME/venvs, default ~/.local/share/pipx (1.3+), ~/.local/pipx (older
 *                   and fallback), /opt/pipx for --global (pipx.pypa.io "Configure Paths");
 *   uv              tools in $UV_TOOL_DIR or $XDG_DATA_HOME/uv/tools, managed interpreters in
 *                   $UV_PYTHON_INSTALL_DIR or …/uv/python (docs.astral.sh/uv/reference/storage);
 *                   a project's .venv; uv's venvs write "uv = <version>" into pyvenv.cfg;
 *   poetry          $POETRY_VIRTUALENVS_PATH, default $XDG_CACHE_HOME/pypoetry/virtualenvs;
 *   hatch           $HATCH_DATA_DIR or $XDG_DATA_HOME/hatch, then env/virtual/<project>/
 *                   <root checksum>/<env> (pypa/hatch src/hatch/env/virtual.py);
 *   pyenv           $PYENV_ROOT/versions/<v>, default ~/.pyenv;
 *   virtualenvwrapper $WORKON_HOME, default ~/.virtualenvs;
 *   apps            a venv beside an application (ComfyUI's and stable-diffusion-webui's venv/,
 *                   a project's .venv) in /opt/<app> or <home>/<app>.
 * Every home is looked at: $HOME, /root and each /home/<user>.
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <stdarg.h>
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

/* A more specific kind found later wins: system < user < venv < the tools' own kinds. */
static int kind_rank(const char *kind)
{
	static const char *const order[] = { "system", "user", "venv" };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (streq(kind, order[i]))
			return (int)i;
	return (int)ARRAY_SIZE(order);
}

int py_add_env(struct probe_env *pe, struct probe_pyenvs *es, const char *prefix, const char *kind,
	       const char *via, const char *interpreter, const char *site)
{
	_cleanup_free_ char *resolved = NULL;
	struct probe_pyenv *e = NULL;
	int rerr = root_resolve(pe->root, prefix, &resolved);
	size_t i;
	int r;

	if (rerr < 0 && !(resolved = strdup(prefix)))
		return -ENOMEM;
	if (strmap_get(&es->by_resolved, resolved, &i))
		e = &es->e[i];
	if (!e) {
		if (es->n >= PROBE_MAX_ENVS) {
			es->truncated = true;
			return 0;
		}
		if (es->n == es->cap) {
			size_t cap = es->cap ? es->cap * 2 : 16;
			struct probe_pyenv *v = reallocarray(es->e, cap, sizeof(*v));

			if (!v)
				return -ENOMEM;
			es->e = v;
			es->cap = cap;
		}
		if (strmap_put(&es->by_resolved, resolved, es->n) < 0)
			return -ENOMEM;
		e = &es->e[es->n++];
		*e = (struct probe_pyenv){ .kind = kind, .resolve_err = rerr };
		e->prefix = strdup(prefix);
		e->resolved = TAKE_PTR(resolved);
		if (!e->prefix)
			return -ENOMEM;
	} else if (kind_rank(kind) > kind_rank(e->kind)) {
		e->kind = kind; /* a more specific kind found later (conda-meta, pipx's venvs/ …) */
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

bool py_maybe_conda(struct probe_env *pe, const char *prefix)
{
	_cleanup_free_ char *cm = path_join(prefix, "conda-meta");
	struct stat st;
	int r;

	if (!cm)
		return false;
	/* A conda-meta/ that cannot be looked at in a prefix that can may be there: the prefix
	 * is read as conda (and what cannot be read of it said), never passed over as not
	 * conda. A prefix that cannot be looked at itself (a symlink loop) is nothing known. */
	r = root_stat(pe->root, cm, &st);
	if (r == 0 || r == -ENOENT || r == -ENOTDIR)
		return r == 0 && S_ISDIR(st.st_mode);
	return root_stat(pe->root, prefix, &st) == 0 && S_ISDIR(st.st_mode);
}

int py_pathf_test(struct probe_env *pe, struct probe_pyenvs *es, mode_t type, const char *fmt, ...)
{
	_cleanup_free_ char *p = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = probe_path_test(pe, p, type);
	if (r < 0 && r != -ENOMEM) {
		_cleanup_free_ char *dir = path_dirname(p);
		struct stat st;

		if (!dir)
			return -ENOMEM;
		/* A directory that cannot be looked at itself (a symlink loop) is nothing known,
		 * as in py_maybe_conda(); a marker in one that can is "could not tell". */
		if (root_stat(pe->root, dir, &st) < 0)
			return 0;
		return probe_pyenvs_note_unreadable(es, p, r);
	}
	return r;
}

static const char *prefix_kind(struct probe_env *pe, const char *prefix)
{
	_cleanup_free_ char *cfg = path_join(prefix, "pyvenv.cfg");

	if (py_maybe_conda(pe, prefix))
		return "conda";
	/* a pyvenv.cfg that could not be looked at: a venv, whose read of it says why */
	if (cfg && probe_path_test(pe, cfg, S_IFREG) != 0)
		return "venv";
	return "system";
}

/* Lists a directory that holds environments (a conda envs/, pipx's venvs/ …) into *ret:
 * 1 the first time it is asked for, 0 when it was listed before and once is set (each
 * container is then read once, however many environments point at it) or it cannot be
 * listed (a directory too big to list makes the discovery truncated: said, never "absent"),
 * -ENOMEM. */
int py_list_container(struct probe_env *pe, struct probe_pyenvs *es, const char *dir, bool once,
		      char ***ret, int *ret_err)
{
	_cleanup_free_ char *resolved = NULL;
	size_t seen;
	int r = root_resolve(pe->root, dir, &resolved);

	*ret = NULL;
	if (ret_err)
		*ret_err = r == -ENOENT || r == -ENOTDIR ? 0 : MIN(r, 0);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	if (strmap_get(&es->listed, resolved, &seen) && once)
		return 0;
	if (strmap_put(&es->listed, resolved, 1) < 0)
		return -ENOMEM;
	r = root_list_dir(pe->root, resolved, PROBE_MAX_ENVS, ret);
	if (ret_err && r != -E2BIG && r != -ENOENT && r != -ENOTDIR)
		*ret_err = MIN(r, 0);
	if (r == -E2BIG)
		es->truncated = true;
	if (r == -ENOMEM)
		return r;
	return r < 0 ? 0 : 1;
}

/* Every conda env beside a conda prefix: <base>/envs/<name>, and the base itself. once: the
 * base's envs/ is not listed again when another source listed it already. */
int py_add_conda_family(struct probe_env *pe, struct probe_pyenvs *es, const char *prefix,
			const char *via, bool once)
{
	_cleanup_free_ char *base = strdup(prefix), *envs = NULL;
	_cleanup_strv_free_ char **names = NULL;
	char *slash;
	int err, r = 0;

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
	if (py_maybe_conda(pe, base) &&
	    (r = py_add_env(pe, es, base, "conda", via, NULL, NULL)) < 0)
		return r;
	envs = path_join(base, "envs");
	if (!envs)
		return -ENOMEM;
	r = py_list_container(pe, es, envs, once, &names, &err);
	/* a conda's envs/ that is there but could not be listed: its environments are unknown */
	if (r == 0 && err < 0)
		return probe_pyenvs_note_unreadable(es, envs, err);
	if (r <= 0)
		return r;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = path_join(envs, *n);

		if (!p)
			return -ENOMEM;
		if (py_maybe_conda(pe, p) &&
		    (r = py_add_env(pe, es, p, "conda", via, NULL, NULL)) < 0)
			return r;
	}
	return 0;
}

/* $PYENV_ROOT/shims/python3 is a bash script: the interpreters are in $PYENV_ROOT/versions.
 * *ret_selected: the selected version's prefix (NULL: none), for the other shims of the
 * directory (add_pyenv_shim()). */
static int add_pyenv(struct probe_env *pe, struct probe_pyenvs *es, const char *shims,
		     const char *shim, char **ret_selected)
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
	r = py_list_container(pe, es, versions, false, &names, NULL);
	if (r <= 0)
		return r < 0 ? r : 1; /* not pyenv */
	if (!want && root_read_text(pe->root, vfile, ROOT_CAP_ATTR, &sel) == 0)
		want = strstrip(sel);
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = path_join(versions, *n);
		bool selected = want && streq(want, *n);

		if (!p)
			return -ENOMEM;
		r = py_add_env(pe, es, p, "pyenv",
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
static int add_pyenv_shim(struct probe_env *pe, struct probe_pyenvs *es, const char *selected,
			  const char *shim)
{
	if (!selected)
		return 0;
	return py_add_env(pe, es, selected, "pyenv", "PATH python3 (pyenv shim, selected version)",
			  shim, NULL);
}

static int add_path_pythons(struct probe_env *pe, struct probe_pyenvs *es)
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
		const char *const *names = NULL;
		_cleanup_free_ char *pyenv_selected = NULL;
		bool shims = endswith_dir(*d, "shims"), pyenv_read = false;

		if ((*d)[0] != '/')
			continue;
		r = root_list_dir_borrow(pe->root, *d, MAX_DIR_ENTRIES, &names, NULL);
		if (r == -ENOMEM)
			return r;
		/* a PATH directory that is there but could not be listed: the pythons it may
		 * hold are unknown (python_envs_unreadable[]), not none; a link loop is no
		 * directory to the shell's PATH search either (execvp(3) passes over it) */
		if (r < 0 && r != -ENOENT && r != -ENOTDIR && r != -ELOOP) {
			r = probe_pyenvs_note_unreadable(es, *d, r);
			if (r < 0)
				return r;
		}
		if (!names)
			continue;
		STRV_FOREACH_CONST(n, names) {
			_cleanup_free_ char *exe = NULL, *real = NULL, *parent = NULL, *cfg = NULL;
			bool versioned;
			char *slash;

			if (!py_python_dir_name(*n, &versioned) || !(exe = path_join(*d, *n)))
				continue;
			r = py_pathf_test(pe, es, S_IFREG, "%s", exe);
			if (r < 0)
				return r;
			if (r == 0)
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
			if (*parent && (r = py_pathf_test(pe, es, S_IFREG, "%s", cfg)) != 0) {
				if (r < 0)
					return r;
				r = py_add_env(pe, es, parent, "venv", "PATH python3", exe, NULL);
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
			r = py_add_env(pe, es, *real ? real : "/",
				       prefix_kind(pe, *real ? real : "/"), "PATH python3", exe,
				       NULL);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* /usr/lib/python3*, /usr/local/lib/python3*: the distribution's own site directories. */
static int add_system_sites(struct probe_env *pe, struct probe_pyenvs *es, const char *prefix,
			    const char *via)
{
	static const char *const subs[] = { "dist-packages", "site-packages" };
	_cleanup_free_ char *lib = path_join(prefix, "lib");
	const char *const *names = NULL;
	int r;

	if (!lib)
		return -ENOMEM;
	r = root_list_dir_borrow(pe->root, lib, MAX_SMALL_DIR, &names, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* The Python installations it may hold are unknown, never absent. */
		if (r != -ENOENT && r != -ENOTDIR)
			return probe_pyenvs_note_unreadable(es, lib, r);
		return 0;
	}
	STRV_FOREACH_CONST(n, names) {
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
			if ((r = py_add_env(pe, es, prefix, "system", via, NULL, d)) < 0)
				return r;
		}
	}
	return 0;
}

/* ---- conda installations ------------------------------------------------------------ */

struct homes {
	struct home *h;
	size_t n;
};

static void homes_done(struct homes *hs)
{
	for (size_t i = 0; i < hs->n; i++)
		free(hs->h[i].path);
	free(hs->h);
}

static int home_add(struct probe_env *pe, struct homes *hs, struct strmap *seen, const char *path,
		    const char *label)
{
	_cleanup_free_ char *resolved = NULL;
	struct home *v;
	size_t i;
	int r = root_resolve(pe->root, path, &resolved);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	/* one whose links could not be followed (EACCES, ELOOP) is kept as named */
	if (r < 0 && !(resolved = strdup(path)))
		return -ENOMEM;
	/* a home that could not be looked at is kept: its listings say why */
	r = probe_path_test(pe, resolved, S_IFDIR);
	if (r == 0 || r == -ENOMEM || strmap_get(seen, resolved, &i))
		return r == -ENOMEM ? r : 0;
	if (strmap_put(seen, resolved, hs->n) < 0)
		return -ENOMEM;
	v = reallocarray(hs->h, hs->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	hs->h = v;
	v[hs->n] = (struct home){ .path = strdup(path), .label = label };
	if (!v[hs->n].path)
		return -ENOMEM;
	hs->n++;
	return 0;
}

/* $HOME, /root, then every /home/<user> (sorted), each once. */
static int find_homes(struct probe_env *pe, struct probe_pyenvs *es, struct homes *hs)
{
	const char *home = env_get(pe->env, "HOME");
	_cleanup_strv_free_ char **users = NULL;
	struct strmap seen = STRMAP_INIT;
	int r = 0;

	if (home && home[0] == '/')
		r = home_add(pe, hs, &seen, home, "~");
	if (r >= 0)
		r = home_add(pe, hs, &seen, "/root", "/root");
	if (r >= 0) {
		int lr = root_list_dir(pe->root, "/home", PROBE_MAX_ENVS, &users);

		if (lr == -E2BIG)
			es->truncated = true;
		if (lr == -ENOMEM)
			r = lr;
	}
	STRV_FOREACH(u, users) {
		_cleanup_free_ char *p = path_join("/home", *u);

		if (r < 0)
			break;
		r = p ? home_add(pe, hs, &seen, p, "/home/*") : -ENOMEM;
	}
	strmap_done(&seen);
	return r;
}

struct conda_base {
	char *path;
	char *via;
};

static int conda_base_add(struct probe_env *pe, struct conda_base **v, size_t *n,
			  struct strmap *seen, const char *base, const char *via)
{
	struct conda_base *nv;
	size_t i;

	/* an envs/ that could not be looked at keeps the base: its listing says why */
	if (!py_maybe_conda(pe, base) && probe_pathf_test(pe, S_IFDIR, "%s/envs", base) == 0)
		return 0;
	if (strmap_get(seen, base, &i))
		return 0;
	if (strmap_put(seen, base, *n) < 0)
		return -ENOMEM;
	nv = reallocarray(*v, *n + 1, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = (struct conda_base){ .path = strdup(base), .via = strdup(via) };
	(*n)++;
	return nv[*n - 1].path && nv[*n - 1].via ? 0 : -ENOMEM;
}

/* The conda installations: $CONDA_EXE's <base>/bin/conda, the installers' default places under
 * /opt (the pytorch/pytorch images use /opt/conda), $HOME's, $MAMBA_ROOT_PREFIX (micromamba's
 * root), then the other homes' (/root, /home/<user>). */
static int conda_bases(struct probe_env *pe, const struct homes *hs, struct conda_base **ret,
		       size_t *ret_n)
{
	static const char *const opt_bases[] = { "/opt/conda",	    "/opt/miniconda3",
						 "/opt/miniforge3", "/opt/anaconda3",
						 "/opt/mambaforge", "/opt/micromamba" };
	static const char *const home_bases[] = { "miniconda3", "miniforge3", "anaconda3",
						  ".conda",	"mambaforge", "micromamba" };
	const char *exe = env_get(pe->env, "CONDA_EXE");
	const char *mamba = env_get(pe->env, "MAMBA_ROOT_PREFIX");
	struct strmap seen = STRMAP_INIT;
	int r = 0;

	*ret = NULL;
	*ret_n = 0;
	if (exe && exe[0] == '/') {
		_cleanup_free_ char *bin = path_dirname(exe),
				    *base = bin ? path_dirname(bin) : NULL;

		r = base ? conda_base_add(pe, ret, ret_n, &seen, base, "CONDA_EXE") : -ENOMEM;
	}
	for (size_t i = 0; i < ARRAY_SIZE(opt_bases) && r >= 0; i++)
		r = conda_base_add(pe, ret, ret_n, &seen, opt_bases[i], opt_bases[i]);
	/* $HOME's first (as before the other homes were looked at), then $MAMBA_ROOT_PREFIX. */
	for (size_t k = 0; k < hs->n && r >= 0; k++) {
		if (k == 1 && mamba && mamba[0] == '/')
			r = conda_base_add(pe, ret, ret_n, &seen, mamba, "MAMBA_ROOT_PREFIX");
		for (size_t i = 0; i < ARRAY_SIZE(home_bases) && r >= 0; i++) {
			_cleanup_free_ char *base = path_join(hs->h[k].path, home_bases[i]);
			_cleanup_free_ char *via = NULL;

			if (!base || asprintf(&via, "%s/%s", hs->h[k].label, home_bases[i]) < 0)
				r = -ENOMEM;
			else
				r = conda_base_add(pe, ret, ret_n, &seen, base, via);
		}
	}
	if (r >= 0 && hs->n <= 1 && mamba && mamba[0] == '/')
		r = conda_base_add(pe, ret, ret_n, &seen, mamba, "MAMBA_ROOT_PREFIX");
	strmap_done(&seen);
	return r;
}

static int find_envs(struct probe_env *pe, struct probe_pyenvs *es)
{
	const char *venv = env_get(pe->env, "VIRTUAL_ENV");
	const char *conda = env_get(pe->env, "CONDA_PREFIX");
	const char *home = env_get(pe->env, "HOME");
	const char *pwd = env_get(pe->env, "PWD");
	struct homes hs = { 0 };
	struct conda_base *bases = NULL;
	size_t n_bases = 0;
	int r = 0;

	if (venv && venv[0] == '/' &&
	    (r = py_add_env(pe, es, venv, "venv", "VIRTUAL_ENV", NULL, NULL)) < 0)
		return r;
	if (conda && conda[0] == '/') {
		r = py_add_env(pe, es, conda, "conda", "CONDA_PREFIX", NULL, NULL);
		if (r >= 0)
			r = py_add_conda_family(pe, es, conda, "conda envs", false);
		if (r < 0)
			return r;
	}
	r = add_path_pythons(pe, es);
	if (r >= 0)
		r = find_homes(pe, es, &hs);
	/* Conda installations, each with its envs/. */
	if (r >= 0)
		r = conda_bases(pe, &hs, &bases, &n_bases);
	for (size_t i = 0; r >= 0 && i < n_bases; i++)
		r = py_add_conda_family(pe, es, bases[i].path, bases[i].via, false);
	for (size_t i = 0; i < n_bases; i++) {
		free(bases[i].path);
		free(bases[i].via);
	}
	free(bases);
	/* Conda prefixes found on PATH bring their siblings; a base's envs/ another source has
	 * listed is not listed again. */
	for (size_t i = 0; r >= 0 && i < es->n; i++)
		if (streq(es->e[i].kind, "conda") && !strv_contains(es->e[i].via, "conda envs"))
			r = py_add_conda_family(pe, es, es->e[i].resolved, "conda envs", true);
	if (r >= 0)
		r = add_system_sites(pe, es, "/usr", "/usr/lib/python3*");
	if (r >= 0)
		r = add_system_sites(pe, es, "/usr/local", "/usr/local/lib/python3*");
	if (r >= 0 && home && home[0] == '/') {
		_cleanup_free_ char *local = path_join(home, ".local"), *lib = NULL;

		if (!local || !(lib = path_join(local, "lib")))
			r = -ENOMEM;
		else if ((r = py_pathf_test(pe, es, S_IFDIR, "%s", lib)) > 0)
			r = py_add_env(pe, es, local, "user", "~/.local", NULL, NULL);
	}
	/* The project of the working directory: its .venv (uv, poetry in-project, venv). */
	if (r >= 0 && pwd && pwd[0] == '/') {
		_cleanup_free_ char *dotvenv = path_join(pwd, ".venv");

		if (!dotvenv)
			r = -ENOMEM;
		else if ((r = py_pathf_test(pe, es, S_IFREG, "%s/pyvenv.cfg", dotvenv)) > 0)
			r = py_add_env(pe, es, dotvenv, "venv", "PWD/.venv", NULL, NULL);
	}
	for (size_t i = 0; r >= 0 && i < hs.n; i++)
		r = py_add_home(pe, es, &hs.h[i]);
	/* pipx --global, then the applications under /opt. */
	if (r >= 0)
		r = py_add_venvs_in(pe, es, "/opt/pipx/venvs", "pipx", "pipx venvs (/opt/pipx)",
				    true);
	if (r >= 0)
		r = py_add_app_envs(pe, es, "/opt", "/opt");
	homes_done(&hs);
	return r;
}

int probe_python_envs(struct probe_env *pe, const struct probe_pyenvs **ret)
{
	int r;

	if (!pe->pyenvs) {
		pe->pyenvs = calloc(1, sizeof(*pe->pyenvs));
		if (!pe->pyenvs)
			return -ENOMEM;
		r = find_envs(pe, pe->pyenvs);
		if (r < 0) {
			probe_python_envs_free(pe);
			return r;
		}
	}
	*ret = pe->pyenvs;
	return 0;
}

int probe_pyenvs_note_unreadable(struct probe_pyenvs *es, const char *dir, int err)
{
	struct probe_pyenv_unreadable *v;

	for (size_t i = 0; i < es->n_unreadable; i++)
		if (streq(es->unreadable[i].dir, dir))
			return 0;
	if (es->n_unreadable >= PROBE_MAX_ENVS_UNREADABLE)
		return 0;
	v = reallocarray(es->unreadable, es->n_unreadable + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	es->unreadable = v;
	v[es->n_unreadable].dir = strdup(dir);
	if (!v[es->n_unreadable].dir)
		return -ENOMEM;
	v[es->n_unreadable++].err = err;
	return 0;
}

void probe_python_envs_free(struct probe_env *pe)
{
	struct probe_pyenvs *es = pe->pyenvs;

	if (!es)
		return;
	for (size_t i = 0; i < es->n; i++) {
		free(es->e[i].prefix);
		free(es->e[i].resolved);
		strv_free(es->e[i].via);
		strv_free(es->e[i].interpreters);
		strv_free(es->e[i].extra_sites);
	}
	strmap_done(&es->by_resolved);
	strmap_done(&es->listed);
	for (size_t i = 0; i < es->n_unreadable; i++)
		free(es->unreadable[i].dir);
	free(es->unreadable);
	free(es->e);
	free(es);
	pe->pyenvs = NULL;
}
