// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Python environments and the GPU frameworks installed in them, without running Python,
 * into framework.python_envs[]. Environments come from $VIRTUAL_ENV, $CONDA_PREFIX and the
 * conda envs/ beside it, every python3 / python3.N on $PATH (prefix from the interpreter's
 * location, or the venv named by pyvenv.cfg beside it as CPython's getpath does; a pyenv shim
 * stands for every $PYENV_ROOT/versions entry), /usr/lib/python3*, /usr/local/lib/python3* and
 * ~/.local, deduplicated by resolved prefix. Formats (see docs/formats/python.md):
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

#include "formats/dist-metadata.h"
#include "fatbin/fatbin.h"
#include "framework-loads.h"
#include "probe.h"
#include "formats/pyfile.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

/* Environments probed at most: a shared machine's ~/.conda/envs or a CI cache can hold
 * thousands; past this the listing is recorded as truncated (framework.python_envs_truncated)
 * and the rules that need a complete listing say so instead of concluding "absent". */
#define MAX_ENVS 10000u
/* A site-packages holds two entries per distribution (the package and its .dist-info): a
 * 20,000-package environment must be read whole. Past this the directory is recorded as
 * unreadable, never as empty. */
#define MAX_DIR_ENTRIES 100000u /* site-packages, conda-meta */
#define MAX_SMALL_DIR	4096u	/* lib/, envs/, torch/lib */
#define MAX_TARGETS	256
#define MAX_WHEEL_LIBS	64
#define CAP_METADATA	((size_t)4 << 20)
#define CAP_RECORD	((size_t)16 << 20)
#define CAP_CONDA_JSON	((size_t)64 << 20)
#define CAP_LIBRARY	((size_t)4 << 30)

struct pyenv {
	char *prefix, *resolved;
	const char *kind;
	int resolve_err;
	char **via, **interpreters, **extra_sites;
};

struct envs {
	struct pyenv *e;
	size_t n, cap;
	struct strmap by_resolved; /* resolved prefix → index in e */
	bool truncated;
};

/* A listed site-packages directory. */
struct site {
	char *dir;
	char **names;
};

struct ctx {
	struct probe_env *pe;
	/* The first site-packages that could not be listed (framework.python_envs_complete). */
	int incomplete_err;
	char *incomplete_src;
	struct loader *loader; /* the run's ld.so emulation (probe_loader()), borrowed */
	char **sites;	       /* the site-packages directories of the env being probed */
};

/* Is the last component of path `name` ("/root/.pyenv/shims/")? */
static bool endswith_dir(const char *path, const char *name)
{
	size_t n = strlen(path), m = strlen(name);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n > m && path[n - m - 1] == '/' && strncmp(path + n - m, name, m) == 0;
}

/* "python3.11" → true with the minor digits; "python3" → true without. */
static bool python_dir_name(const char *n, bool *versioned)
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

static bool endswith_dist_info(const char *n)
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

/* $PYENV_ROOT/shims/python3 is a bash script: the interpreters are in $PYENV_ROOT/versions. */
static int add_pyenv(struct probe_env *pe, struct envs *es, const char *shims, const char *shim)
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
	}
	return 0;
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
		bool shims = endswith_dir(*d, "shims");

		if ((*d)[0] != '/' || root_list_dir(pe->root, *d, MAX_DIR_ENTRIES, &names) < 0)
			continue;
		STRV_FOREACH(n, names) {
			_cleanup_free_ char *exe = NULL, *real = NULL, *parent = NULL, *cfg = NULL;
			bool versioned;
			char *slash;

			if (!python_dir_name(*n, &versioned) || !(exe = path_join(*d, *n)))
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
			if (shims) {
				r = add_pyenv(pe, es, *d, exe);
				if (r <= 0) {
					if (r < 0)
						return r;
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
	if (root_list_dir(pe->root, lib, MAX_SMALL_DIR, &names) < 0)
		return 0;
	STRV_FOREACH(n, names) {
		bool versioned;

		if (!python_dir_name(*n, &versioned))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
			_cleanup_free_ char *d = NULL;

			if (asprintf(&d, "%s/%s/%s", lib, *n, subs[i]) < 0)
				return -ENOMEM;
			if (probe_path_is(pe, d, S_IFDIR) &&
			    (r = add_env(pe, es, prefix, "system", via, NULL, d)) < 0)
				return r;
		}
	}
	return 0;
}

static int find_envs(struct probe_env *pe, struct envs *es)
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

/* ---- CUDA kernels in a framework library: the one use of the fatbin parser -------------- */

struct target {
	char name[64]; /* sm_86, compute_90, gfx942:sramecc+:xnack- */
	char gfx[16];  /* AMD: the processor of the target ID ("gfx942") */
	const char *kind;
	unsigned arch; /* CUDA: 86; AMD: gfx_order() */
	char variant;
	int ptx_major, ptx_minor;
};

struct kernels {
	struct target t[MAX_TARGETS];
	size_t n;
	bool truncated;
};

/* Adds t unless a target of the same name and kind is there; false when k is full. */
static bool kernels_add(struct kernels *k, const struct target *t)
{
	for (size_t j = 0; j < k->n; j++)
		if (streq(k->t[j].name, t->name) && k->t[j].kind == t->kind)
			return true;
	if (k->n >= MAX_TARGETS) {
		k->truncated = true;
		return false;
	}
	k->t[k->n++] = *t;
	return true;
}

static int kind_rank(const char *k)
{
	return streq(k, "sass") ? 0 : streq(k, "ptx") ? 1 : streq(k, "amdgcn") ? 3 : 2;
}

/* "gfx90a" → 9.0.a, "gfx1100" → 11.0.0 as one number: LLVM's AMDGPU processor names are the
 * major version in decimal, then minor and stepping as one hex digit each (AMDGPUUsage). */
static unsigned gfx_order(const char *gfx)
{
	size_t n = strlen(gfx);
	unsigned major = 0;
	int minor, step;

	if (n < 6 || !startswith(gfx, "gfx"))
		return UINT_MAX;
	for (size_t i = 3; i < n - 2; i++) {
		if (gfx[i] < '0' || gfx[i] > '9' || major > 1000)
			return UINT_MAX;
		major = major * 10 + (unsigned)(gfx[i] - '0');
	}
	minor = parse_hex_digit(gfx[n - 2]);
	step = parse_hex_digit(gfx[n - 1]);
	if (minor < 0 || step < 0)
		return UINT_MAX;
	return major << 8 | (unsigned)minor << 4 | (unsigned)step;
}

/* CUDA targets by arch, variant, SASS before PTX; then AMD ones by processor and target ID. */
static int target_cmp(const void *a, const void *b)
{
	const struct target *x = a, *y = b;
	bool ax = streq(x->kind, "amdgcn"), ay = streq(y->kind, "amdgcn");

	if (ax != ay)
		return ax ? 1 : -1;
	if (x->arch != y->arch)
		return x->arch < y->arch ? -1 : 1;
	if (ax)
		return strcmp(x->name, y->name);
	if (x->variant != y->variant)
		return x->variant < y->variant ? -1 : 1;
	return kind_rank(x->kind) - kind_rank(y->kind);
}

/* Maps a shared object and collects the distinct targets of its fat binaries (SASS as
 * sm_XY[a|f], PTX as compute_XY with the PTX ISA, LTO IR as lto_XY) and of its clang offload
 * bundles (.hip_fatbin, CCOB: AMDGPU code objects by target ID, gfx942:sramecc+:xnack-).
 * Its SONAME, RUNPATH and DT_NEEDED are the loader emulation's (record_loads()). Keep every
 * use of src/fatbin here, so its API can change in one place. */
static int scan_kernels(struct probe_env *pe, const char *path, struct kernels *k)
{
	struct root_map m;
	struct fatbin_result *fr = NULL;
	int r = root_map(pe->root, path, CAP_LIBRARY, &m);

	if (r < 0)
		return r;
	r = fatbin_scan_buffer(m.data, m.len, &fr);
	root_unmap(&m);
	if (r < 0)
		return r;
	for (size_t i = 0; i < fr->n_entries; i++) {
		const struct fatbin_entry *e = &fr->entries[i];
		struct target t = { .arch = e->arch, .variant = e->variant, .ptx_major = -1 };

		t.kind = e->kind == FATBIN_KIND_ELF   ? "sass"
			 : e->kind == FATBIN_KIND_PTX ? "ptx"
			 : e->kind == FATBIN_KIND_LTO ? "lto"
						      : "unknown";
		snprintf(t.name, sizeof(t.name), "%s", e->target);
		if (e->kind == FATBIN_KIND_PTX) {
			t.ptx_major = e->ptx_major >= 0 ? e->ptx_major : (int)e->ver_major;
			t.ptx_minor = e->ptx_major >= 0 ? e->ptx_minor : (int)e->ver_minor;
		}
		if (!kernels_add(k, &t))
			break;
	}
	/* AMD code objects: one per target ID, the host entry of each bundle skipped. */
	for (size_t i = 0; i < fr->n_bundle_entries && !k->truncated; i++) {
		const struct fatbin_bundle_entry *b = &fr->bundle_entries[i];
		struct target t = { .kind = "amdgcn", .ptx_major = -1 };

		if (!b->gfx[0] || !startswith(b->triple, "amdgcn"))
			continue;
		snprintf(t.name, sizeof(t.name), "%s", b->target);
		snprintf(t.gfx, sizeof(t.gfx), "%s", b->gfx);
		t.arch = gfx_order(b->gfx);
		if (!kernels_add(k, &t))
			break;
	}
	qsort(k->t, k->n, sizeof(k->t[0]), target_cmp);
	fatbin_result_free(fr);
	return 0;
}

/* kernel_library {path} and arch_targets[] from the first candidate
 * that exists and holds CUDA or HIP kernels (or the first that exists). */
static int record_kernels(struct probe_env *pe, struct snap_node *obj, const char *dir,
			  const char *const *cands, size_t n_cands)
{
	_cleanup_free_ char *tried = NULL;
	int r = 0;

	for (size_t i = 0; i < n_cands; i++) {
		_cleanup_free_ char *p = path_join(dir, cands[i]);
		struct kernels k = { 0 };
		struct snap_node *kl, *arr;

		if (!p)
			return -ENOMEM;
		if (!tried)
			tried = strdup(cands[i]);
		else {
			char *t = NULL;

			if (asprintf(&t, "%s, %s", tried, cands[i]) < 0)
				return -ENOMEM;
			free(tried);
			tried = t;
		}
		if (!tried)
			return -ENOMEM;
		if (!probe_path_is(pe, p, S_IFREG) &&
		    root_lstat(pe->root, p, &(struct stat){ 0 }) == -ENOENT)
			continue;
		r = scan_kernels(pe, p, &k);
		if (r == -ENOMEM)
			return r;
		if (r == 0 && k.n == 0 && i + 1 < n_cands)
			continue; /* a host-only library: try the next */
		if (r < 0 && r != -EBADMSG) {
			snap_set_errno(obj, "kernel_library", r, p);
			snap_set_errno(obj, "arch_targets", r, p);
			return 0;
		}
		kl = snap_object(obj, "kernel_library");
		snap_set_str(kl, "path", p, p);
		if (r < 0) {
			snap_set_malformed(obj, "arch_targets", NULL, p,
					   "not an ELF shared object the fatbin parser accepts");
			return 0;
		}
		if (k.n == 0)
			snap_set_state(obj, "arch_targets", FACT_ABSENT, p,
				       "no CUDA fat binary or HIP offload bundle in this library");
		else {
			arr = snap_array(obj, "arch_targets");
			for (size_t j = 0; j < k.n; j++) {
				struct snap_node *t = snap_append_object(arr);

				snap_set_str(t, "target", k.t[j].name, p);
				snap_set_str(t, "kind", k.t[j].kind, p);
				if (k.t[j].gfx[0])
					snap_set_str(t, "gfx", k.t[j].gfx, p);
				if (k.t[j].ptx_major >= 0)
					snap_set_strf(t, "ptx_isa", p, "%d.%d", k.t[j].ptx_major,
						      k.t[j].ptx_minor);
			}
			if (k.truncated)
				snap_set_bool(obj, "arch_targets_truncated", true, p);
		}
		return 0;
	}
	{
		_cleanup_free_ char *why = NULL;

		if (asprintf(&why, "no %s", tried ? tried : "library") < 0)
			return -ENOMEM;
		snap_set_state(obj, "kernel_library", FACT_ABSENT, dir, why);
		snap_set_state(obj, "arch_targets", FACT_ABSENT, dir, why);
	}
	return 0;
}

/* loads.<soname>, needed_missing[], load_search from the kernel_library just recorded:
 * its GPU DT_NEEDED entries as the dynamic loader resolves them for it (framework-loads.h). */
static int record_loads(struct ctx *c, struct snap_node *obj)
{
	const struct snap_node *kl = snap_child(obj, "kernel_library");
	const char *path = snap_get_str(obj, "kernel_library.path");
	_cleanup_free_ char *own = NULL;
	int r;

	if (!path) {
		/* No library (or it could not be read): the same state, so "could not tell" stays.
		 */
		if (kl && snap_kind(kl) == SNAP_FACT)
			snap_set_state(obj, "loads", snap_state(kl), snap_source(kl),
				       snap_error(kl));
		else
			snap_set_state(obj, "loads", FACT_ABSENT, NULL, "no framework library");
		return 0;
	}
	if (!c->loader && (r = probe_loader(c->pe, &c->loader)) < 0)
		return r;
	own = strdup(path);
	if (!own)
		return -ENOMEM;
	*strrchr(own, '/') = '\0';
	return probe_framework_loads(c->loader, obj, path, c->sites, own);
}

/* ---- site-packages --------------------------------------------------------------------- */

typedef bool (*dist_pred)(const char *normalized);

/* The first dist-info/egg-info (in site order) whose normalised name passes pred. */
static bool find_dist(const struct site *sites, size_t ns, dist_pred pred, size_t *ret_site,
		      const char **ret_entry)
{
	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL;
			char norm[128];

			if (dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (pred(norm)) {
				*ret_site = i;
				*ret_entry = *n;
				return true;
			}
		}
	return false;
}

/* The first site holding a directory `pkg`. */
static bool find_pkg_dir(struct probe_env *pe, const struct site *sites, size_t ns, const char *pkg,
			 size_t *ret)
{
	for (size_t i = 0; i < ns; i++)
		if (strv_contains(sites[i].names, pkg)) {
			_cleanup_free_ char *p = path_join(sites[i].dir, pkg);

			/* A dangling or looping link still counts: its reads record why. */
			if (p && (probe_path_is(pe, p, S_IFDIR) ||
				  root_lstat(pe->root, p, &(struct stat){ 0 }) == 0)) {
				*ret = i;
				return true;
			}
		}
	return false;
}

/* <site>/<distdir>/METADATA (PKG-INFO for egg-info) → `key` = Version; the parsed header
 * block for the caller, or NULL with the failure recorded. */
static struct dist_metadata *read_metadata(struct probe_env *pe, struct snap_node *obj,
					   const char *key, const char *site, const char *distdir)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	struct dist_metadata *m = NULL;
	bool egg = strstr(distdir, ".egg-info") != NULL;
	int r;

	if (asprintf(&path, "%s/%s/%s", site, distdir, egg ? "PKG-INFO" : "METADATA") < 0)
		return NULL;
	r = root_read_text(pe->root, path, CAP_METADATA, &text);
	if (r < 0) {
		snap_set_errno(obj, key, r, path);
		return NULL;
	}
	r = dist_metadata_parse(text, strlen(text), &m);
	if (r < 0) {
		snap_set_malformed(
			obj, key, text, path,
			r == -EBADMSG ? "not a core-metadata header block with Name and Version"
				      : strerror(-r));
		return NULL;
	}
	snap_set_str(obj, key, m->version, path);
	return m;
}

static bool pred_torch(const char *n)
{
	return streq(n, "torch");
}

static bool pred_tensorflow(const char *n)
{
	static const char *const names[] = { "tensorflow",	"tensorflow-cpu",
					     "tensorflow-gpu",	"tensorflow-intel",
					     "tensorflow-rocm", "tf-nightly",
					     "tf-nightly-cpu",	"tf-nightly-gpu" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (streq(n, names[i]))
			return true;
	return false;
}

static bool pred_jax(const char *n)
{
	return streq(n, "jax");
}

static bool pred_jaxlib(const char *n)
{
	return streq(n, "jaxlib");
}

static bool pred_cupy(const char *n)
{
	return streq(n, "cupy") || startswith(n, "cupy-cuda") || startswith(n, "cupy-rocm");
}

/* The local version label: "2.4.0+cu124" → "cu124". */
static void record_local_version(struct snap_node *obj, const char *version, const char *src)
{
	const char *plus = strchr(version, '+');

	if (plus && plus[1])
		snap_set_str(obj, "local_version", plus + 1, src);
	else
		snap_set_state(obj, "local_version", FACT_ABSENT, src, "no +local label");
}

/* Requires-Dist pins on NVIDIA's CUDA wheels: what the framework expects pip to provide. */
static void record_requires_nvidia(struct snap_node *obj, const struct dist_metadata *m,
				   const char *src)
{
	struct snap_node *arr = snap_array(obj, "requires_nvidia");

	for (size_t i = 0; i < m->n_requires; i++) {
		char norm[64];

		dist_name_normalize(m->requires_dist[i], norm, sizeof(norm));
		if (startswith(norm, "nvidia-") || startswith(norm, "cuda-toolkit") ||
		    startswith(norm, "cuda-runtime"))
			snap_append_str(arr, m->requires_dist[i], src);
	}
}

/* Debian's python3-<module> owns <module> in /usr/lib/python3/dist-packages. */
static void record_distro_package(struct ctx *c, struct snap_node *obj, const char *site,
				  const char *module)
{
	char pkg[160], ver[128];
	int err;

	if (!startswith(site, "/usr/lib/python3"))
		return;
	snprintf(pkg, sizeof(pkg), "python3-%s", module);
	err = probe_dpkg_version(c->pe, pkg, ver, sizeof(ver));
	if (err == 1) {
		snap_set_state(obj, "distro_package", FACT_ABSENT, PROBE_DPKG_STATUS,
			       "not installed");
		return;
	}
	if (err < 0) {
		snap_set_errno(obj, "distro_package", err, PROBE_DPKG_STATUS);
		return;
	}
	obj = snap_object(obj, "distro_package");
	snap_set_str(obj, "name", pkg, PROBE_DPKG_STATUS);
	snap_set_str(obj, "version", ver, PROBE_DPKG_STATUS);
}

/* Reads a generated module once; on failure records the errno under every key given. */
static char *read_module(struct probe_env *pe, struct snap_node *obj, const char *path,
			 const char *const *keys, size_t n_keys)
{
	char *text = NULL;
	int r = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (r < 0)
		for (size_t i = 0; i < n_keys; i++)
			snap_set_errno(obj, keys[i], r, path);
	return r < 0 ? NULL : text;
}

/* One `name = 'str' | None` line of a version module into key. 1: a string, 0: None, <0: not
 * read (recorded). */
static int record_assign(struct snap_node *obj, const char *key, const char *text, const char *path,
			 const char *name)
{
	_cleanup_free_ char *v = NULL, *why = NULL;
	bool none;
	int r = pyfile_get_string(text, strlen(text), name, &v, &none);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		if (asprintf(&why,
			     r == -ENOENT ? "no `%s =` assignment"
					  : "`%s =` is not a complete string or None literal",
			     name) < 0)
			return -ENOMEM;
		snap_set_malformed(obj, key, text, path, why);
		return -EBADMSG;
	}
	if (none) {
		snap_set_state(obj, key, FACT_ABSENT, path, "None");
		return 0;
	}
	snap_set_str(obj, key, v, path);
	return 1;
}

static const char *const torch_bundled[] = {
	"libcudart",	  "libcublas",	    "libcudnn",	     "libnvrtc",     "libnccl",
	"libcufft",	  "libcurand",	    "libcusolver",   "libcusparse",  "libnvToolsExt",
	"libnvJitLink",	  "libcupti",	    "libcufile",     "libnvshmem",   "libamdhip64",
	"libhipblas",	  "librocblas",	    "libMIOpen",     "librccl",	     "libhsa-runtime64",
	"libroctracer64", "libroctx64",	    "libhipfft",     "libhiprand",   "libhipsolver",
	"libhipsparse",	  "libhipsparselt", "libhipblaslt",  "librocsolver", "librocsparse",
	"librocfft",	  "librocrand",	    "librocm_smi64", "libmagma",
};

static int probe_torch(struct ctx *c, struct snap_node *pkgs, const struct site *sites, size_t ns)
{
	static const char *const vkeys[] = { "version", "cuda", "hip", "git", "cpu_only" };
	static const char *const kernels[] = { "libtorch_cuda.so", "libtorch_cuda_cu.so",
					       "libtorch_hip.so" };
	struct probe_env *pe = c->pe;
	size_t si = 0, di = 0;
	const char *dist = NULL;
	bool has_dir = find_pkg_dir(pe, sites, ns, "torch", &si);
	bool has_dist = find_dist(sites, ns, pred_torch, &di, &dist);
	_cleanup_free_ char *dir = NULL, *vpath = NULL, *text = NULL, *lib = NULL;
	_cleanup_strv_free_ char **libs = NULL;
	struct snap_node *t, *arr;
	int rc, rh, r;

	if (!has_dir && !has_dist)
		return 0;
	t = snap_object(pkgs, "torch");
	if (has_dist) {
		_cleanup_free_ char *dpath = path_join(sites[di].dir, dist);
		struct dist_metadata *m;

		snap_set_str(t, "dist_info", dpath, dpath);
		m = read_metadata(pe, t, "dist_version", sites[di].dir, dist);
		if (m)
			record_requires_nvidia(t, m, dpath);
		dist_metadata_free(m);
	} else
		snap_set_state(t, "dist_info", FACT_ABSENT, sites[si].dir, "no torch-*.dist-info");
	if (!has_dir) {
		snap_set_state(t, "version", FACT_ABSENT, sites[di].dir,
			       "no torch/ package directory");
		return 0;
	}
	dir = path_join(sites[si].dir, "torch");
	vpath = dir ? path_join(dir, "version.py") : NULL;
	lib = dir ? path_join(dir, "lib") : NULL;
	if (!vpath || !lib)
		return -ENOMEM;
	snap_set_str(t, "site_packages", sites[si].dir, sites[si].dir);
	text = read_module(pe, t, vpath, vkeys, ARRAY_SIZE(vkeys));
	if (text) {
		r = record_assign(t, "version", text, vpath, "__version__");
		if (r == -ENOMEM)
			return r;
		if (r == 1)
			record_local_version(t, snap_get_str(t, "version"), vpath);
		rc = record_assign(t, "cuda", text, vpath, "cuda");
		rh = record_assign(t, "hip", text, vpath, "hip");
		r = record_assign(t, "git", text, vpath, "git_version");
		if (rc == -ENOMEM || rh == -ENOMEM || r == -ENOMEM)
			return -ENOMEM;
		/* A CPU-only build: neither a CUDA nor a HIP version (torch.version). */
		if (rc >= 0 && rh >= 0)
			snap_set_bool(t, "cpu_only", rc == 0 && rh == 0, vpath);
		else
			snap_set_malformed(t, "cpu_only", NULL, vpath,
					   "cuda or hip not readable from version.py");
	}
	record_distro_package(c, t, sites[si].dir, "torch");
	r = root_list_dir(pe->root, lib, MAX_SMALL_DIR, &libs);
	if (r < 0) {
		snap_set_errno(t, "lib_dir", r, lib);
		snap_set_errno(t, "kernel_library", r, lib);
		snap_set_errno(t, "arch_targets", r, lib);
		return r == -ENOMEM ? r : 0;
	}
	snap_set_str(t, "lib_dir", lib, lib);
	arr = snap_array(t, "cuda_libraries_bundled");
	STRV_FOREACH(n, libs)
		for (size_t i = 0; i < ARRAY_SIZE(torch_bundled); i++)
			if (startswith(*n, torch_bundled[i]) &&
			    ((*n)[strlen(torch_bundled[i])] == '.' ||
			     (*n)[strlen(torch_bundled[i])] == '-' ||
			     (*n)[strlen(torch_bundled[i])] == '_')) {
				snap_append_str(arr, *n, lib);
				break;
			}
	r = record_kernels(pe, t, lib, kernels, ARRAY_SIZE(kernels));
	return r < 0 ? r : record_loads(c, t);
}

static void record_pyval(struct snap_node *obj, const char *key, const struct pyval *v,
			 const char *src)
{
	if (!v) {
		snap_set_state(obj, key, FACT_ABSENT, src, "not in build_info");
		return;
	}
	switch (v->kind) {
	case PYVAL_STR:
	case PYVAL_INT:
		snap_set_str(obj, key, v->text, src);
		break;
	case PYVAL_BOOL:
		snap_set_bool(obj, key, streq(v->text, "True"), src);
		break;
	case PYVAL_NONE:
		snap_set_state(obj, key, FACT_ABSENT, src, "None");
		break;
	case PYVAL_LIST: {
		struct snap_node *arr = snap_array(obj, key);

		for (size_t i = 0; i < v->n; i++)
			if (v->items[i].kind == PYVAL_STR)
				snap_append_str(arr, v->items[i].text, src);
		break;
	}
	default:
		snap_set_malformed(obj, key, NULL, src, "not a string, bool or list");
	}
}

static int probe_tensorflow(struct ctx *c, struct snap_node *pkgs, const struct site *sites,
			    size_t ns)
{
	static const char *const keys[] = {
		"cuda_version",	 "cudnn_version", "cuda_compute_capabilities",
		"is_cuda_build", "is_rocm_build", "is_tensorrt_build",
		"rocm_version"
	};
	static const char *const kernels[] = { "libtensorflow_cc.so.2",
					       "python/_pywrap_tensorflow_internal.so",
					       "libtensorflow_framework.so.2" };
	struct probe_env *pe = c->pe;
	size_t si = 0, di = 0;
	const char *dist = NULL;
	bool has_dir = find_pkg_dir(pe, sites, ns, "tensorflow", &si);
	bool has_dist = find_dist(sites, ns, pred_tensorflow, &di, &dist);
	_cleanup_free_ char *dir = NULL, *bpath = NULL, *text = NULL;
	struct snap_node *t, *bi;
	struct pyval v;
	int r;

	if (!has_dir && !has_dist)
		return 0;
	t = snap_object(pkgs, "tensorflow");
	if (has_dist) {
		_cleanup_free_ char *dpath = path_join(sites[di].dir, dist);
		struct dist_metadata *m;

		snap_set_str(t, "dist_info", dpath, dpath);
		m = read_metadata(pe, t, "version", sites[di].dir, dist);
		if (m) {
			snap_set_str(t, "dist_name", m->name, dpath);
			record_requires_nvidia(t, m, dpath);
		}
		dist_metadata_free(m);
	} else
		snap_set_state(t, "version", FACT_ABSENT, sites[si].dir,
			       "no tensorflow*.dist-info");
	if (!has_dir)
		return 0;
	snap_set_str(t, "site_packages", sites[si].dir, sites[si].dir);
	dir = path_join(sites[si].dir, "tensorflow");
	bpath = dir ? path_join(dir, "python/platform/build_info.py") : NULL;
	if (!bpath)
		return -ENOMEM;
	bi = snap_object(t, "build_info");
	r = root_read_text(pe->root, bpath, ROOT_CAP_TEXT, &text);
	if (r < 0) {
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			snap_set_errno(bi, keys[i], r, bpath);
		snap_set_errno(t, "cpu_only", r, bpath);
	} else if ((r = pyfile_get_assign(text, strlen(text), "build_info", &v)) < 0 ||
		   v.kind != PYVAL_DICT) {
		if (r == -ENOMEM)
			return r;
		if (r == 0)
			pyval_done(&v);
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			snap_set_malformed(bi, keys[i], text, bpath,
					   "no `build_info = {…}` / OrderedDict([…]) literal");
		snap_set_malformed(t, "cpu_only", NULL, bpath, "build_info not readable");
	} else {
		const struct pyval *cu = pyval_dict_get(&v, "is_cuda_build");
		const struct pyval *ro = pyval_dict_get(&v, "is_rocm_build");

		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			record_pyval(bi, keys[i], pyval_dict_get(&v, keys[i]), bpath);
		if (cu && ro && cu->kind == PYVAL_BOOL && ro->kind == PYVAL_BOOL)
			snap_set_bool(t, "cpu_only",
				      streq(cu->text, "False") && streq(ro->text, "False"), bpath);
		else
			snap_set_malformed(t, "cpu_only", NULL, bpath,
					   "build_info lacks is_cuda_build / is_rocm_build");
		pyval_done(&v);
	}
	r = record_kernels(pe, t, dir, kernels, ARRAY_SIZE(kernels));
	return r < 0 ? r : record_loads(c, t);
}

/* jax/version.py, jaxlib/version.py: the release build writes _release_version. */
static int record_jax_version(struct probe_env *pe, struct snap_node *obj, const char *key,
			      const char *site, const char *pkg)
{
	_cleanup_free_ char *path = NULL, *text = NULL, *v = NULL;
	bool none = true;
	int r;

	if (asprintf(&path, "%s/%s/version.py", site, pkg) < 0)
		return -ENOMEM;
	r = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	if (r < 0) {
		snap_set_errno(obj, key, r, path);
		return r == -ENOMEM ? r : 0;
	}
	r = pyfile_get_string(text, strlen(text), "_release_version", &v, &none);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || none) {
		free(v);
		v = NULL;
		r = pyfile_get_string(text, strlen(text), "_version", &v, &none);
		if (r < 0 && r != -ENOMEM)
			r = pyfile_get_string(text, strlen(text), "__version__", &v, &none);
	}
	if (r == -ENOMEM)
		return r;
	if (r < 0 || none)
		snap_set_malformed(obj, key, text, path, "no _release_version/_version string");
	else
		snap_set_str(obj, key, v, path);
	return 0;
}

/* jax-cuda12-plugin / jax-cuda12-pjrt / jax-rocm6-plugin …: platform and major. */
static bool jax_plugin_name(const char *norm, char platform[8], unsigned *major, bool *pjrt)
{
	const char *p;
	char *end;

	if (startswith(norm, "jax-cuda"))
		p = norm + 8, strcpy(platform, "cuda");
	else if (startswith(norm, "jax-rocm"))
		p = norm + 8, strcpy(platform, "rocm");
	else
		return false;
	if (*p < '0' || *p > '9')
		return false;
	*major = (unsigned)strtoul(p, &end, 10);
	if (streq(end, "-plugin"))
		*pjrt = false;
	else if (streq(end, "-pjrt"))
		*pjrt = true;
	else
		return false;
	return *major > 0 && *major < 100;
}

static int probe_jax(struct ctx *c, struct snap_node *pkgs, const struct site *sites, size_t ns)
{
	struct probe_env *pe = c->pe;
	size_t si = 0, li = 0, di = 0;
	const char *dist = NULL;
	bool has_jax = find_pkg_dir(pe, sites, ns, "jax", &si) ||
		       find_dist(sites, ns, pred_jax, &si, &dist);
	bool has_lib = find_pkg_dir(pe, sites, ns, "jaxlib", &li);
	struct snap_node *j, *plugins;
	bool any_plugin = false, lib_cuda = false;
	int r;

	if (!has_jax && !has_lib)
		return 0;
	j = snap_object(pkgs, "jax");
	if (has_jax && strv_contains(sites[si].names, "jax") &&
	    (r = record_jax_version(pe, j, "version", sites[si].dir, "jax")) < 0)
		return r;
	if (has_lib) {
		snap_set_str(j, "site_packages", sites[li].dir, sites[li].dir);
		r = record_jax_version(pe, j, "jaxlib_version", sites[li].dir, "jaxlib");
		if (r < 0)
			return r;
	} else
		snap_set_state(j, "jaxlib_version", FACT_ABSENT, sites[si].dir,
			       "no jaxlib/ package");
	if (find_dist(sites, ns, pred_jaxlib, &di, &dist)) {
		_cleanup_free_ char *dpath = path_join(sites[di].dir, dist);
		struct dist_metadata *m =
			read_metadata(pe, j, "jaxlib_dist_version", sites[di].dir, dist);

		/* jaxlib <= 0.4.x CUDA wheels: "0.4.9+cuda11.cudnn86". */
		if (m && strchr(m->version, '+')) {
			snap_set_str(j, "jaxlib_local_version", strchr(m->version, '+') + 1, dpath);
			lib_cuda = startswith(strchr(m->version, '+') + 1, "cuda") ||
				   startswith(strchr(m->version, '+') + 1, "rocm");
		}
		dist_metadata_free(m);
	}
	/* The CUDA/ROCm plugins: one entry per platform and major (cuda12, cuda13, rocm6 …). */
	plugins = snap_array(j, "plugins");
	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL, *dpath = NULL, *pdir = NULL;
			char norm[64], platform[8];
			unsigned major;
			bool pjrt;
			struct snap_node *pl = NULL;
			struct dist_metadata *m;

			if (dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (!jax_plugin_name(norm, platform, &major, &pjrt))
				continue;
			for (size_t k = 0; k < snap_count(plugins); k++) {
				struct snap_node *x = (struct snap_node *)snap_at(plugins, k);
				int64_t mj;

				if (streq(snap_get_str(x, "platform") ?: "", platform) &&
				    snap_get_int(x, "major", &mj) && mj == major)
					pl = x;
			}
			if (!pl) {
				pl = snap_append_object(plugins);
				snap_set_str(pl, "platform", platform, "dist-info name");
				snap_set_int(pl, "major", major, "dist-info name");
			}
			any_plugin = true;
			dpath = path_join(sites[i].dir, *n);
			if (!dpath)
				return -ENOMEM;
			m = read_metadata(pe, pl, pjrt ? "pjrt_version" : "plugin_version",
					  sites[i].dir, *n);
			if (m) {
				snap_set_str(pl, pjrt ? "pjrt" : "plugin", m->name, dpath);
				if (!pjrt)
					record_requires_nvidia(pl, m, dpath);
			}
			dist_metadata_free(m);
			if (!pjrt)
				continue;
			/* jax_plugins/xla_cuda12/xla_cuda_plugin.so holds XLA's CUDA kernels. */
			if (asprintf(&pdir, "%s/jax_plugins/xla_%s%u", sites[i].dir, platform,
				     major) < 0)
				return -ENOMEM;
			{
				_cleanup_free_ char *so = NULL;
				const char *cands[1];

				if (asprintf(&so, "xla_%s_plugin.so", platform) < 0)
					return -ENOMEM;
				cands[0] = so;
				r = record_kernels(pe, pl, pdir, cands, 1);
				if (r >= 0)
					r = record_loads(c, pl);
				if (r < 0)
					return r;
			}
		}
	snap_set_bool(j, "cpu_only", !any_plugin && !lib_cuda, "jax plugin dist-info");
	return 0;
}

static int probe_cupy(struct ctx *c, struct snap_node *pkgs, const struct site *sites, size_t ns)
{
	struct probe_env *pe = c->pe;
	size_t si = 0;
	bool has_dir = find_pkg_dir(pe, sites, ns, "cupy", &si);
	const char *dist = NULL;
	size_t di;
	bool has_dist = find_dist(sites, ns, pred_cupy, &di, &dist);
	_cleanup_free_ char *vpath = NULL, *wpath = NULL, *text = NULL;
	struct snap_node *cp, *dists;
	int r;

	if (!has_dir && !has_dist)
		return 0;
	cp = snap_object(pkgs, "cupy");
	/* Every cupy distribution: two at once (cupy-cuda11x + cupy-cuda12x) share cupy/. */
	dists = snap_array(cp, "dists");
	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL;
			char norm[64];
			struct snap_node *d;
			struct dist_metadata *m;

			if (dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (!pred_cupy(norm))
				continue;
			d = snap_append_object(dists);
			m = read_metadata(pe, d, "version", sites[i].dir, *n);
			if (m) {
				_cleanup_free_ char *dp = path_join(sites[i].dir, *n);

				snap_set_str(d, "name", m->name, dp);
			}
			dist_metadata_free(m);
		}
	if (!has_dir)
		return 0;
	snap_set_str(cp, "site_packages", sites[si].dir, sites[si].dir);
	if (asprintf(&vpath, "%s/cupy/_version.py", sites[si].dir) < 0 ||
	    asprintf(&wpath, "%s/cupy/.data/_wheel.json", sites[si].dir) < 0)
		return -ENOMEM;
	text = read_module(pe, cp, vpath, (const char *const[]){ "version" }, 1);
	if (text && record_assign(cp, "version", text, vpath, "__version__") == -ENOMEM)
		return -ENOMEM;
	free(text);
	text = NULL;
	/* cupy/.data/_wheel.json: {"cuda": "12.x", "packaging": "pip", "cudnn": {...}, …} */
	r = root_read_text(pe->root, wpath, ROOT_CAP_TEXT, &text);
	if (r < 0)
		snap_set_errno(cp, "wheel_json", r, wpath);
	else {
		json_t *j = json_loads(text, 0, NULL);
		struct snap_node *w;

		if (!json_is_object(j))
			snap_set_malformed(cp, "wheel_json", text, wpath, "not a JSON object");
		else {
			const char *k;
			json_t *val;

			w = snap_object(cp, "wheel_json");
			json_object_foreach(j, k, val) {
				if (json_is_string(val))
					snap_set_str(w, k, json_string_value(val), wpath);
				else if (json_is_object(val) &&
					 json_is_string(json_object_get(val, "version")))
					snap_set_strf(
						w, k, wpath, "%s",
						json_string_value(json_object_get(val, "version")));
			}
		}
		json_decref(j);
	}
	return 0;
}

/* Every nvidia-* distribution: name, version and where its libraries are (from RECORD). */
static bool want_lib(const char *p)
{
	const char *b = strrchr(p, '/');

	b = b ? b + 1 : p;
	return startswith(b, "lib") && strstr(b, ".so") != NULL;
}

static int probe_nvidia_wheels(struct ctx *c, struct snap_node *env, const struct site *sites,
			       size_t ns)
{
	struct probe_env *pe = c->pe;
	struct snap_node *arr = snap_array(env, "nvidia_wheels");

	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL, *dpath = NULL, *rpath = NULL,
					    *rec = NULL;
			_cleanup_strv_free_ char **libs = NULL;
			char norm[128];
			struct snap_node *w, *la;
			struct dist_metadata *m;
			int r;

			if (!endswith_dist_info(*n) || dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (!startswith(norm, "nvidia-"))
				continue;
			dpath = path_join(sites[i].dir, *n);
			rpath = dpath ? path_join(dpath, "RECORD") : NULL;
			if (!rpath)
				return -ENOMEM;
			w = snap_append_object(arr);
			snap_set_str(w, "dist_info", dpath, dpath);
			m = read_metadata(pe, w, "version", sites[i].dir, *n);
			if (m)
				snap_set_str(w, "name", m->name, dpath);
			else
				snap_set_str(w, "name", norm, dpath); /* from the directory name */
			dist_metadata_free(m);
			r = root_read_text(pe->root, rpath, CAP_RECORD, &rec);
			if (r == 0)
				r = dist_record_paths(rec, strlen(rec), want_lib, MAX_WHEEL_LIBS,
						      &libs);
			if (r == -ENOMEM)
				return r;
			if (r < 0) {
				snap_set_errno(w, "lib_dir", r, rpath);
				continue;
			}
			if (!libs[0]) {
				snap_set_state(w, "lib_dir", FACT_ABSENT, rpath,
					       "no lib*.so* in RECORD");
				continue;
			}
			{
				_cleanup_free_ char *ld = path_join(sites[i].dir, libs[0]);
				char *slash = ld ? strrchr(ld, '/') : NULL;

				if (!slash)
					return -ENOMEM;
				*slash = '\0';
				if (probe_path_is(pe, ld, S_IFDIR))
					snap_set_str(w, "lib_dir", ld, rpath);
				else
					snap_set_state(w, "lib_dir", FACT_ABSENT, ld,
						       "listed in RECORD, not on disk");
			}
			la = snap_array(w, "libraries");
			STRV_FOREACH(l, libs)
				snap_append_str(la, strrchr(*l, '/') ? strrchr(*l, '/') + 1 : *l,
						rpath);
		}
	return 0;
}

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

/* conda-meta/<name>-<version>-<build>.json for the packages that decide the GPU stack. */
static bool conda_interesting(const char *name)
{
	static const char *const names[] = {
		"pytorch",    "pytorch-cuda", "pytorch-gpu",  "pytorch-cpu",	 "pytorch-mutex",
		"libtorch",   "cudatoolkit",  "cuda-version", "cuda-cudart",	 "cuda-runtime",
		"cuda-nvcc",  "cuda-nvrtc",   "cuda-toolkit", "cuda-libraries",	 "cudnn",
		"nccl",	      "libcublas",    "tensorflow",   "tensorflow-base", "tensorflow-gpu",
		"jax",	      "jaxlib",	      "cupy",	      "cupy-core",	 "rocm",
		"magma-cuda",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (streq(name, names[i]))
			return true;
	return false;
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
		if (!conda_interesting(base))
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

/* The site directories of a prefix: lib{,64}/python3.N/{site,dist}-packages and Debian's
 * lib/python3/dist-packages, then those found directly. */
/* The first directory that could not be listed makes framework.python_envs_complete
 * unreadable (envs_complete()). */
static void note_incomplete(struct ctx *c, const char *dir, int err)
{
	if (!c->incomplete_err) {
		c->incomplete_err = err;
		c->incomplete_src = strdup(dir); /* NULL on OOM: the source is then left out */
	}
}

static int list_sites(struct ctx *c, struct snap_node *env, const struct pyenv *e, char ***ret)
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
		if (r < 0) {
			if (li == 0 && r != -ENOENT) {
				snap_set_errno(env, "lib_dir", r, lib);
				note_incomplete(c, lib, r);
			}
			continue;
		}
		STRV_FOREACH(n, names) {
			bool versioned;

			if (!python_dir_name(*n, &versioned))
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

static void site_unreadable(struct ctx *c, struct snap_node *o, const char *dir, int err)
{
	char why[64];

	snprintf(why, sizeof(why), "more than %u entries", MAX_DIR_ENTRIES);
	if (err == -E2BIG)
		snap_set_state(o, "path", FACT_UNREADABLE, dir, why);
	else
		snap_set_errno(o, "path", err, dir);
	note_incomplete(c, dir, err);
}

static int probe_one_env(struct ctx *c, struct snap_node *env, const struct pyenv *e)
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
	if (streq(e->kind, "venv"))
		probe_pyvenv_cfg(pe, env, e->resolved);
	if (streq(e->kind, "conda") && (r = probe_conda(pe, env, e->resolved)) < 0)
		return r;
	if (e->resolve_err < 0)
		return 0;
	r = list_sites(c, env, e, &dirs);
	if (r < 0)
		return r;
	arr = snap_array(env, "site_packages");
	STRV_FOREACH(d, dirs) {
		if (ns >= ARRAY_SIZE(sites))
			break;
		r = root_list_dir(pe->root, *d, MAX_DIR_ENTRIES, &sites[ns].names);
		if (r == -ENOMEM)
			goto out;
		if (r < 0) {
			/* An unreadable, oversized or looping site directory is a fact, not the
			 * end; the frameworks it may hold are unknown, never absent. */
			site_unreadable(c, snap_append_object(arr), *d, r);
			continue;
		}
		snap_append_str(arr, *d, *d);
		sites[ns++].dir = *d;
	}
	for (size_t i = 0; i < ns; i++)
		if ((r = strv_push(&c->sites, sites[i].dir)) < 0)
			goto out;
	pkgs = snap_object(env, "packages");
	r = probe_torch(c, pkgs, sites, ns);
	if (r >= 0)
		r = probe_tensorflow(c, pkgs, sites, ns);
	if (r >= 0)
		r = probe_jax(c, pkgs, sites, ns);
	if (r >= 0)
		r = probe_cupy(c, pkgs, sites, ns);
	if (r >= 0)
		r = probe_nvidia_wheels(c, env, sites, ns);
out:
	c->sites = strv_free(c->sites);
	for (size_t i = 0; i < ARRAY_SIZE(sites); i++)
		strv_free(sites[i].names);
	return r == -ENOMEM ? r : 0;
}

/* framework.python_envs_complete: whether a framework not found is absent (every environment
 * found, every site-packages listed). The rules that conclude from absence need it present;
 * otherwise it says what could not be read, and they say so instead. */
static void envs_complete(struct snap_node *fw, const struct envs *es, const struct ctx *c)
{
	char why[64];

	if (es->truncated) {
		snprintf(why, sizeof(why), "more than %u environments", MAX_ENVS);
		snap_set_bool(fw, "python_envs_truncated", true, why);
		snap_set_state(fw, "python_envs_complete", FACT_UNREADABLE, "framework.python_envs",
			       why);
	} else if (c->incomplete_err == -E2BIG) {
		snprintf(why, sizeof(why), "more than %u entries", MAX_DIR_ENTRIES);
		snap_set_state(fw, "python_envs_complete", FACT_UNREADABLE, c->incomplete_src, why);
	} else if (c->incomplete_err) {
		snap_set_errno(fw, "python_envs_complete", c->incomplete_err, c->incomplete_src);
	} else {
		snap_set_bool(fw, "python_envs_complete", true, "framework.python_envs");
	}
}

int probe_python(struct probe_env *pe, struct snapshot *s)
{
	struct snap_node *fw = snap_object(snapshot_root(s), "framework");
	struct snap_node *arr = snap_array(fw, "python_envs");
	struct envs *es = calloc(1, sizeof(*es));
	struct ctx c = { .pe = pe };
	int r;

	if (!es)
		return -ENOMEM;
	r = find_envs(pe, es);
	for (size_t i = 0; i < es->n; i++) {
		if (r >= 0)
			r = probe_one_env(&c, snap_append_object(arr), &es->e[i]);
		free(es->e[i].prefix);
		free(es->e[i].resolved);
		strv_free(es->e[i].via);
		strv_free(es->e[i].interpreters);
		strv_free(es->e[i].extra_sites);
	}
	envs_complete(fw, es, &c);
	free(c.incomplete_src);
	strmap_done(&es->by_resolved);
	free(es->e);
	free(es);
	return r < 0 ? r : snapshot_error(s);
}
