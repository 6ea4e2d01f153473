// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU libraries a framework opens BY NAME and those its library needs that the loader
 * finds nowhere, with the copies that exist elsewhere on the machine and why each is not
 * found. TensorFlow (dso_loader.cc), numba (cudadrv/driver.py), Warp (cuda_util.cpp), CuPy 13
 * (NVRTC) and JAX's CUDA plugin (cuSPARSE, for its version check: jax-ml/jax#28929) dlopen()
 * their CUDA libraries rather than link them, so no DT_NEEDED entry shows them; which names
 * each release asks for is the knowledge base's framework_dlopen.tsv (each row with its source).
 * Each name is resolved by the ld.so emulation (loader.h) as dlopen(3) does for the calling object:
 * with the framework library's DT_RPATH/DT_RUNPATH when it was read (TensorFlow's dso_loader is in
 * its own libraries), else as the main program would (numba's and Warp's ctypes.CDLL / dlopen from
 * a library without a run path). A name with '/' is opened as that path.
 * Where a missing name has a copy: a directory on PATH (ld.so never searches PATH), a conda
 * environment's lib/ (on the loader path only while activated with LD_LIBRARY_PATH set), a
 * CUDA toolkit's lib64 or targets/<arch>/lib, a directory that /etc/ld.so.conf(.d) lists but
 * /etc/ld.so.cache does not hold (ldconfig not rerun: ld.so reads only the cache, ld.so(8)),
 * a pip wheel's nvidia/<pkg>/lib; and for the unversioned libcuda.so, the libcuda.so.1 the
 * driver installs (the unversioned link belongs to development packages).
 * A library that loads gets the nvJitLink check of framework-nvjitlink.h (cuSPARSE 12 links
 * libnvJitLink.so.12, found along its own search path).
 * Written into each framework's package object (a jax plugin's plugins[] entry): dlopen.<name>,
 * not_found[] (docs/snapshot-schema.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts/facts.h"
#include "formats/dist-metadata.h"
#include "probe-python-internal.h"
#include "probe/framework-nvjitlink.h"
#include "probe/framework-siblings.h"
#include "probe/ldso-conf.h"
#include "probe/loader.h"
#include "probe.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define MAX_ROWS   32
#define MAX_COPIES 8

/* A directory where a copy may lie, and why the loader does not search it. */
struct place {
	char *dir;
	const char *where; /* "PATH", "conda env lib", "CUDA toolkit", "ld.so.conf", "pip wheel" */
};

struct places {
	struct place *v;
	size_t n, cap;
};

static void places_done(struct places *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].dir);
	free(p->v);
	*p = (struct places){ 0 };
}

static int places_add(struct places *p, const char *dir, const char *where)
{
	if (!dir || dir[0] != '/')
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (streq(p->v[i].dir, dir))
			return 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct place *v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n].dir = strdup(dir);
	if (!p->v[p->n].dir)
		return -ENOMEM;
	p->v[p->n++].where = where;
	return 0;
}

static int places_addf(struct places *p, const char *where, const char *a, const char *b)
{
	_cleanup_free_ char *d = path_join(a, b);

	return d ? places_add(p, d, where) : -ENOMEM;
}

static int add_conf_dir(const char *file, const char *dir, int err, void *userdata)
{
	return dir ? places_add(userdata, dir, "ld.so.conf") : 0; /* unreadable: no place */
}

/* Every place a copy may lie, once per environment: PATH, the conda environments, the
 * toolkits under /usr/local, ld.so.conf, the pip wheels of this environment. */
static int gather_places(struct py_ctx *c, const struct snap_node *env, struct places *p)
{
	struct probe_env *pe = c->pe;
	const struct probe_pyenvs *es;
	const struct snap_node *wheels = snap_child(env, "nvidia_wheels");
	_cleanup_strv_free_ char **local = NULL;
	char **path;
	int r;

	if ((r = probe_path_dirs(pe, &path)) < 0)
		return r;
	STRV_FOREACH(d, path)
		if ((r = places_add(p, *d, "PATH")) < 0)
			return r;
	/* Every conda installation and environment the shared discovery found (bases and
	 * their envs/ alike). */
	if ((r = probe_python_envs(pe, &es)) < 0)
		return r;
	for (size_t i = 0; i < es->n; i++)
		if (streq(es->e[i].kind, "conda") &&
		    (r = places_addf(p, "conda env lib", es->e[i].prefix, "lib")) < 0)
			return r;
	if (streq(snap_get_str(env, "kind") ?: "", "conda") &&
	    (r = places_addf(p, "conda env lib", snap_get_str(env, "prefix"), "lib")) < 0)
		return r;
	if (root_list_dir(pe->root, "/usr/local", MAX_SMALL_DIR, &local) == 0)
		STRV_FOREACH(n, local) {
			_cleanup_free_ char *t = NULL;

			if (!startswith(*n, "cuda"))
				continue;
			t = path_join("/usr/local", *n);
			if (!t || places_addf(p, "CUDA toolkit", t, "lib64") < 0 ||
			    places_addf(p, "CUDA toolkit", t, "targets/x86_64-linux/lib") < 0)
				return -ENOMEM;
		}
	if ((r = ldso_conf_foreach(pe->root, add_conf_dir, p)) < 0)
		return r;
	for (size_t i = 0; i < snap_count(wheels); i++)
		if ((r = places_add(p, snap_get_str(snap_at(wheels, i), "lib_dir"), "pip wheel")) <
		    0)
			return r;
	return 0;
}

/* A regular file (links followed inside the root). */
static bool is_file(struct probe_env *pe, const char *path)
{
	struct stat st;

	return root_stat(pe->root, path, &st) == 0 && S_ISREG(st.st_mode);
}

/* copies[] of a name: every place holding a file of that name. */
static int write_copies(struct py_ctx *c, struct snap_node *e, const char *name,
			const struct places *p, size_t *n)
{
	struct snap_node *arr = snap_array(e, "copies");

	for (size_t i = 0; i < p->n && *n < MAX_COPIES; i++) {
		_cleanup_free_ char *f = path_join(p->v[i].dir, name);
		struct snap_node *o;

		if (!f)
			return -ENOMEM;
		if (!is_file(c->pe, f))
			continue;
		o = snap_append_object(arr);
		snap_set_str(o, "path", f, f);
		snap_set_str(o, "dir", p->v[i].dir, f);
		snap_set_str(o, "where", p->v[i].where, f);
		(*n)++;
	}
	return 0;
}

/* One not_found[] entry: the names asked for, how, and the copies found elsewhere. */
static int write_not_found(struct py_ctx *c, struct snap_node *arr, const char *names,
			   const char *library, const char *request, const char *src,
			   const struct places *p)
{
	struct snap_node *e = snap_append_object(arr);
	_cleanup_strv_free_ char **alts = NULL;
	size_t n = 0;
	int r;

	if ((r = strv_split(names, "|", &alts)) < 0)
		return r;
	if (!alts || !alts[0])
		return 0;
	snap_set_str(e, "name", alts[0], src);
	snap_set_str(e, "names", names, src);
	if (library)
		snap_set_str(e, "library", library, src);
	snap_set_str(e, "request", request, src);
	STRV_FOREACH(a, alts)
		if (!strchr(*a, '/') && (r = write_copies(c, e, *a, p, &n)) < 0)
			return r;
	/* The unversioned libcuda.so: the driver installs libcuda.so.1; the link without a
	 * version comes with development packages. */
	if (streq(alts[0], "libcuda.so") && !strv_contains(alts, "libcuda.so.1")) {
		_cleanup_(loader_result_freep) struct loader_result *res = NULL;

		if ((r = loader_resolve(c->loader, "libcuda.so.1", &res)) < 0)
			return r;
		if (res->winner >= 0) {
			const struct loader_candidate *w = &res->cands[res->winner];
			struct snap_node *o = snap_append_object(snap_array(e, "copies"));

			snap_set_str(o, "path", w->path, w->path);
			snap_set_str(o, "dir", w->dir ?: "(ld.so.cache)", w->path);
			snap_set_str(o, "where", "versioned only", w->path);
		}
	}
	return 0;
}

/* Resolves one alternative: 1 found (result in *ret), 0 not found, <0 -ENOMEM. */
static int resolve_alt(struct py_ctx *c, const char *name, const char *requester,
		       struct loader_result **ret)
{
	int r;

	if (strchr(name, '/'))
		return is_file(c->pe, name) ? 1 : 0;
	r = requester ? loader_resolve_for(c->loader, name, requester, ret)
		      : loader_resolve(c->loader, name, ret);
	if (r < 0)
		return r;
	return (*ret)->winner >= 0 || (*ret)->failure >= 0;
}

/* A copy of name among this environment's nvidia-* wheels (their lib_dir). */
static const char *wheel_copy(const struct snap_node *env, const char *name, char *buf, size_t len)
{
	const struct snap_node *w = snap_child(env, "nvidia_wheels");

	for (size_t i = 0; i < snap_count(w); i++) {
		const struct snap_node *libs = snap_child(snap_at(w, i), "libraries");
		const char *dir = snap_get_str(snap_at(w, i), "lib_dir");

		for (size_t k = 0; dir && k < snap_count(libs); k++)
			if (streq(snap_str(snap_at(libs, k)) ?: "", name)) {
				snprintf(buf, len, "%s/%s", dir, name);
				return buf;
			}
	}
	return NULL;
}

/* The names one framework release opens (framework_dlopen.tsv). version: the release whose
 * rows apply; requester: the library that opens them (NULL: as the main program would). */
static int framework_dlopen(struct py_ctx *c, const struct snap_node *env, struct snap_node *pkg,
			    const char *framework, const char *version, const char *requester,
			    const struct places *p)
{
	const struct facts_dlopen *rows[MAX_ROWS];
	size_t n;
	struct snap_node *dl, *nf;
	int r;

	n = facts_dlopen_rows(framework, version, rows, MAX_ROWS);
	if (n == 0)
		return 0;
	dl = snap_object(pkg, "dlopen");
	nf = snap_array(pkg, "not_found");
	for (size_t i = 0; i < n; i++) {
		_cleanup_strv_free_ char **alts = NULL;
		struct snap_node *o;
		bool found = false;
		char wb[512];

		if ((r = strv_split(rows[i]->names, "|", &alts)) < 0)
			return r;
		if (!alts || !alts[0])
			continue;
		o = snap_object(dl, alts[0]);
		snap_set_str(o, "library", rows[i]->library, rows[i]->source);
		snap_set_str(o, "names", rows[i]->names, rows[i]->source);
		snap_set_str(o, "request", "dlopen", rows[i]->source);
		snap_set_str(o, "requested_by", requester ?: framework, rows[i]->source);
		STRV_FOREACH(a, alts) {
			_cleanup_(loader_result_freep) struct loader_result *res = NULL;

			r = resolve_alt(c, *a, requester, &res);
			if (r < 0)
				return r;
			if (r == 0)
				continue;
			snap_set_str(o, "opened", *a, rows[i]->source);
			if (res)
				probe_write_loader_result(o, res);
			else
				snap_set_str(o, "path", *a, *a);
			/* cuSPARSE, cuSOLVER: the nvJitLink they get, and what it lacks */
			if (res && res->winner >= 0 &&
			    (r = probe_library_nvjitlink(c->loader, o,
							 res->cands[res->winner].path)) < 0)
				return r;
			/* what it needs of its siblings (cuBLAS of cuBLASLt), and lacks */
			if (res && res->winner >= 0 &&
			    (r = probe_library_siblings(c->loader, o, res->cands[res->winner].path,
							snap_child(pkg, "loads"))) < 0)
				return r;
			found = true;
			break;
		}
		/* Without the framework's own library read, its RUNPATH into the wheels of this
		 * environment is known from the release (wheel_rpath). */
		if (!found && rows[i]->wheel_rpath)
			STRV_FOREACH(a, alts)
				if (wheel_copy(env, *a, wb, sizeof(wb))) {
					snap_set_str(o, "opened", *a, rows[i]->source);
					snap_set_str(o, "path", wb, wb);
					snap_set_str(o, "found_via", "runpath (nvidia wheel)", wb);
					if ((r = probe_library_nvjitlink(c->loader, o, wb)) < 0)
						return r;
					r = probe_library_siblings(c->loader, o, wb,
								   snap_child(pkg, "loads"));
					if (r < 0)
						return r;
					found = true;
					break;
				}
		if (!found) {
			snap_set_state(o, "path", FACT_ABSENT, "ld.so search",
				       "none of the names is found by the loader");
			r = write_not_found(c, nf, rows[i]->names, rows[i]->library, "dlopen",
					    rows[i]->source, p);
			if (r < 0)
				return r;
			/* The rule says so when the names of this release are not confirmed. */
			if (facts_unconfirmed(rows[i]->confidence))
				snap_set_bool((struct snap_node *)snap_at(nf, snap_count(nf) - 1),
					      "unconfirmed", true, rows[i]->source);
		}
	}
	return 0;
}

/* needed_missing[] of a framework library as not_found[] entries with their copies. */
static int needed_not_found(struct py_ctx *c, struct snap_node *pkg, const struct places *p)
{
	const struct snap_node *miss = snap_child(pkg, "needed_missing");
	const char *src = snap_get_str(pkg, "kernel_library.path");
	struct snap_node *nf;

	if (snap_count(miss) == 0 || snap_kind(miss) != SNAP_ARRAY)
		return 0;
	nf = snap_array(pkg, "not_found");
	for (size_t i = 0; i < snap_count(miss); i++) {
		const char *name = snap_str(snap_at(miss, i));
		int r;

		if (name &&
		    (r = write_not_found(c, nf, name, NULL, "DT_NEEDED", src ?: name, p)) < 0)
			return r;
	}
	return 0;
}

/* The framework distribution a package object stands for in framework_dlopen.tsv. */
static const char *dlopen_framework(const char *key, const struct snap_node *pkg, char *buf,
				    size_t len)
{
	bool cpu = false;

	if (streq(key, "tensorflow"))
		return snap_bool(snap_child(pkg, "cpu_only"), &cpu) && cpu ? NULL : "tensorflow";
	if (streq(key, "numba"))
		return "numba";
	if (streq(key, "warp"))
		return "warp-lang";
	if (streq(key, "cupy") && snap_get_str(pkg, "dist_name")) {
		size_t i;

		for (i = 0; i + 1 < len && snap_get_str(pkg, "dist_name")[i]; i++) {
			char ch = snap_get_str(pkg, "dist_name")[i];

			buf[i] = ch == '_' || ch == '.'	    ? '-'
				 : (ch >= 'A' && ch <= 'Z') ? ch + 32
							    : ch;
		}
		buf[i] = '\0';
		return buf;
	}
	return NULL;
}

/* The names a release opens depend on the release (and for CuPy on its distribution's
 * name): with its METADATA unreadable (the fact key: a framework's dist_version, a jax
 * plugin's plugin_version), what it opens is unknown, not "nothing" (the unreadable-path
 * sweep found runtime.library-not-found going silent). */
static bool release_unreadable(struct snap_node *pkg, const char *key)
{
	const struct snap_node *v = snap_child(pkg, key);
	enum fact_state s = snap_state(v);

	if (snap_str(v) || (s != FACT_UNREADABLE && s != FACT_MALFORMED && s != FACT_ERROR))
		return false;
	snap_set_state(pkg, "dlopen", s, snap_source(v),
		       "the names it opens depend on its release, which could not be read");
	return true;
}

/* A jax plugin entry (packages.jax.plugins[]): the names its plugin distribution's release
 * opens (jax-cuda12-plugin in framework_dlopen.tsv). */
static int plugin_dlopen(struct py_ctx *c, const struct snap_node *env, struct snap_node *pl,
			 const struct places *p)
{
	const char *name = snap_get_str(pl, "plugin");
	const struct snap_node *v = snap_child(pl, "plugin_version");
	char norm[64];

	if (release_unreadable(pl, "plugin_version") || !name || !snap_str(v))
		return 0;
	dist_name_normalize(name, norm, sizeof(norm));
	return framework_dlopen(c, env, pl, norm, snap_get_str(pl, "plugin_version"), NULL, p);
}

int py_probe_dlopen(struct py_ctx *c, struct snap_node *env)
{
	static const char *const keys[] = { "torch", "tensorflow", "numba", "warp", "cupy" };
	struct snap_node *pkgs = (struct snap_node *)snap_child(env, "packages");
	struct places p = { 0 };
	bool any = false;
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys) && !any; i++)
		any = snap_child(pkgs, keys[i]) != NULL;
	if (!any && !snap_child(pkgs, "jax"))
		return 0;
	if (!c->loader && (r = probe_loader(c->pe, &c->loader)) < 0)
		return r;
	if ((r = gather_places(c, env, &p)) < 0)
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		struct snap_node *pkg = (struct snap_node *)snap_child(pkgs, keys[i]);
		const char *fw;
		char buf[64];

		if (!pkg || snap_kind(pkg) != SNAP_OBJECT)
			continue;
		if ((r = needed_not_found(c, pkg, &p)) < 0)
			goto out;
		if (release_unreadable(pkg, "dist_version"))
			continue;
		fw = dlopen_framework(keys[i], pkg, buf, sizeof(buf));
		/* CuPy's kernel_library is cupy._core.core, not the module that opens NVRTC
		 * (cupy_backends' nvrtc): its run path is not the caller's, so as the main
		 * program would. */
		if (fw && (r = framework_dlopen(c, env, pkg, fw, snap_get_str(pkg, "dist_version"),
						streq(keys[i], "cupy")
							? NULL
							: snap_get_str(pkg, "kernel_library.path"),
						&p)) < 0)
			goto out;
	}
	{
		const struct snap_node *pl = snap_get(pkgs, "jax.plugins");

		for (size_t j = 0; j < snap_count(pl); j++) {
			struct snap_node *one = (struct snap_node *)snap_at(pl, j);

			if ((r = needed_not_found(c, one, &p)) < 0)
				goto out;
			/* The plugin package (jax-cuda12-plugin) opens its CUDA libraries itself,
			 * not through the PJRT library: as the main program would, then the
			 * release's run path into the wheels. */
			if ((r = plugin_dlopen(c, env, one, &p)) < 0)
				goto out;
		}
	}
out:
	places_done(&p);
	return r < 0 ? r : 0;
}
