// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where a CUDA jax's XLA finds the two pieces of a CUDA toolkit it compiles with at run time:
 * libdevice (nvvm/libdevice/libdevice.10.bc, the math library linked into every kernel that
 * calls exp, sin …) and the ptxas binary that turns XLA's PTX into SASS. Neither comes with
 * jaxlib or its CUDA plugin: the nvidia-cuda-nvcc-cu12 wheel that `jax[cuda12]` installs holds
 * both (site-packages/nvidia/cuda_nvcc/{bin/ptxas,nvvm/libdevice}), else a toolkit must.
 *
 * The places, as the public sources give them:
 *  - jax passes the nvcc wheel's directory as XLA's preferred CUDA directory
 *    (jax/_src/lib/__init__.py, _cuda_path(): site-packages/nvidia/cuda_nvcc, before 0.4.x
 *    jaxlib/cuda, the copy of libdevice jaxlib 0.1.66 to 0.4.x bundled: jax-ml/jax#6581);
 *    XLA_FLAGS=--xla_gpu_cuda_data_dir=DIR names one instead;
 *  - XLA then searches its candidate roots (openxla/xla xla/tsl/platform/default/
 *    cuda_root_path.cc, CandidateCudaRoots(): the build's toolkit path, /usr/local/cuda,
 *    /opt/cuda, ../nvidia/cuda_nvcc beside its library and, since openxla/xla#20288, the
 *    environment's prefix); older jaxlib builds searched /usr/local/cuda-<their CUDA release>
 *    (the "Searched for CUDA in the following directories" lines of jax-ml/jax#4452);
 *  - ptxas: PATH before those roots (cuda_root_path.cc, PreferPtxasFromPath() is true; "if
 *    ptxas is present in PATH, it will override the version installed in the
 *    nvidia-cuda-nvcc-cu12 pip package", jax-ml/jax#17976), then each root's bin/.
 * The list here is the union of those places (a superset of any one release's), so "none
 * holds it" is true for every release; a copy found only in a place an old release did not
 * search is reported as found. Nothing is run: files are looked at, never executed.
 *
 * Writes packages.jax.xla: cuda_data_dir (from XLA_FLAGS), roots[] (searched), libdevice and
 * ptxas (the path found; absent; or the errno of a place that could not be looked at),
 * ptxas_from_path, path_toolkit: the toolkit whose bin/ holds the ptxas on PATH when it
 * has libdevice that XLA does not search, and ptxas_version: the release of a toolkit's ptxas
 * from that toolkit's version.json (its cuda_nvcc entry, the component ptxas ships in, else
 * cuda) or version.txt, never by running it; absent for the nvcc wheel's ptxas, whose version
 * is the wheel's (nvidia_wheels[]), and unknown where no file says (docs/snapshot-schema.md).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/toolkit-parse.h"
#include "framework-xla.h"
#include "probe.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define LIBDEVICE     "nvvm/libdevice/libdevice.10.bc"
#define DATA_DIR_FLAG "--xla_gpu_cuda_data_dir="

/* The value of --xla_gpu_cuda_data_dir= among XLA_FLAGS' space-separated flags (the last
 * wins, as absl's flag parser keeps it), or NULL. */
static char *xla_data_dir(const char *flags)
{
	_cleanup_strv_free_ char **v = NULL;
	const char *dir = NULL;

	if (!flags || strv_split(flags, " \t", &v) < 0)
		return NULL;
	STRV_FOREACH(f, v)
		if (startswith(*f, DATA_DIR_FLAG) && (*f)[strlen(DATA_DIR_FLAG)])
			dir = *f + strlen(DATA_DIR_FLAG);
	return dir ? strdup(dir) : NULL;
}

/* "cuda112" (a jaxlib <= 0.4.x local version's head) → "/usr/local/cuda-11.2": the toolkit
 * path such a build was configured with. NULL where the text names no major and minor. */
static char *build_toolkit_path(const char *local)
{
	char *p = NULL;

	if (!local || !startswith(local, "cuda") || strlen(local) < 7)
		return NULL;
	for (int i = 4; i < 7; i++)
		if (local[i] < '0' || local[i] > '9')
			return NULL;
	if (local[7] && local[7] != '.')
		return NULL;
	if (asprintf(&p, "/usr/local/cuda-%.2s.%c", local + 4, local[6]) < 0)
		return NULL;
	return p;
}

static int add_root(char ***roots, const char *dir)
{
	if (!dir || !*dir || strv_contains(*roots, dir))
		return 0;
	return strv_push(roots, dir);
}

/* The environment's prefix from a site-packages directory (<prefix>/lib/pythonX.Y/
 * site-packages), or NULL. */
static char *site_prefix(const char *site)
{
	_cleanup_free_ char *a = path_dirname(site), *b = a ? path_dirname(a) : NULL;

	if (!b || !streq(path_basename(site), "site-packages") ||
	    !startswith(path_basename(a), "python") || !streq(path_basename(b), "lib"))
		return NULL;
	return path_dirname(b);
}

/* The first root holding rel: 1 and its path; 0 none; <0 a root that could not be looked at
 * before any that holds it (what it holds is unknown). */
static int first_holding(struct probe_env *pe, char *const *roots, const char *rel, char **ret,
			 char **ret_unread)
{
	for (char *const *r = roots; r && *r; r++) {
		_cleanup_free_ char *p = path_join(*r, rel);
		int t;

		if (!p)
			return -ENOMEM;
		t = probe_path_test(pe, p, S_IFREG);
		if (t < 0) {
			*ret_unread = TAKE_PTR(p);
			return t;
		}
		if (t > 0) {
			*ret = TAKE_PTR(p);
			return 1;
		}
	}
	return 0;
}

static void set_found(struct snap_node *x, const char *key, int r, const char *path,
		      const char *unread, const char *searched)
{
	if (r > 0)
		snap_set_str(x, key, path, path);
	else if (r < 0)
		snap_set_errno(x, key, r, unread);
	else
		snap_set_state(x, key, FACT_ABSENT, searched, "in none of the places XLA searches");
}

/* ptxas along PATH: 1 and its path, 0 none, <0 a directory that could not be looked at. */
static int ptxas_on_path(struct probe_env *pe, char **ret, char **ret_unread)
{
	_cleanup_strv_free_ char **dirs = NULL;
	const char *path = env_get(pe->env, "PATH");
	size_t n = 0;

	if (!path)
		return 0;
	if (strv_split(path, ":", &dirs) < 0)
		return -ENOMEM;
	/* Relative PATH entries name the process's working directory, not known here. */
	STRV_FOREACH(d, dirs) {
		if (**d == '/')
			dirs[n++] = *d;
		else
			free(*d);
	}
	dirs[n] = NULL;
	return first_holding(pe, dirs, "ptxas", ret, ret_unread);
}

/* The version a toolkit's files give its ptxas: version.json's cuda_nvcc (the nvcc component,
 * whose build ptxas --version prints: "V12.1.66"), else its cuda entry (CUDA >= 11.1
 * runfile/deb layout), else version.txt's "CUDA Version 11.0.221" (CUDA <= 11.0). */
static int ptxas_version(struct probe_env *pe, struct snap_node *x, const char *ptxas)
{
	_cleanup_free_ char *bin = path_dirname(ptxas), *top = bin ? path_dirname(bin) : NULL,
			    *path = NULL, *text = NULL;
	char buf[PROBE_VERSION_MAX];
	const char *p;
	int r;

	if (!top)
		return -ENOMEM;
	/* The nvcc wheel's ptxas: its version is the wheel's, read from its dist-info. */
	if (!streq(path_basename(bin), "bin") ||
	    (streq(path_basename(top), "cuda_nvcc") && strstr(top, "/nvidia/cuda_nvcc")))
		return 0;
	r = probe_read_optional(pe->root, top, "version.json", ROOT_CAP_TEXT, x, "ptxas_version",
				&path, &text);
	if (r == 0) {
		json_t *j = json_loads(text, 0, NULL);
		json_t *v = json_object_get(json_object_get(j, "cuda_nvcc"), "version");

		if (!json_is_string(v))
			v = json_object_get(json_object_get(j, "cuda"), "version");
		if (json_is_string(v))
			snap_set_str(x, "ptxas_version", json_string_value(v), path);
		else
			snap_set_malformed(x, "ptxas_version", text, path,
					   "no cuda_nvcc.version or cuda.version string");
		json_decref(j);
		return 0;
	}
	if (r != -ENOENT)
		return r == -ENOMEM ? r : 0;
	r = probe_read_optional(pe->root, top, "version.txt", ROOT_CAP_ATTR, x, "ptxas_version",
				&path, &text);
	if (r == -ENOENT) {
		/* The source is the file looked for last, not the toolkit's directory: a
		 * directory that could not be read gives EACCES for its files, never this. */
		_cleanup_free_ char *txt = path_join(top, "version.txt");

		if (!txt)
			return -ENOMEM;
		snap_set_state(x, "ptxas_version", FACT_ABSENT, txt,
			       "no version.json or version.txt beside its bin/");
		return 0;
	}
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	p = strstr(text, "CUDA Version ");
	if (!p || probe_version_line(p + 13, strlen(p + 13), buf, sizeof(buf)) < 0)
		snap_set_malformed(x, "ptxas_version", text, path, "no \"CUDA Version X.Y\"");
	else
		snap_set_str(x, "ptxas_version", buf, path);
	return 0;
}

/* XLA_FLAGS' data directory, the first root where it is set; recorded either way. */
static int add_data_dir(struct probe_env *pe, struct snap_node *x, char ***roots)
{
	_cleanup_free_ char *data_dir = xla_data_dir(env_get(pe->env, "XLA_FLAGS"));

	if (!data_dir) {
		snap_set_state(x, "cuda_data_dir", FACT_ABSENT, "XLA_FLAGS", "not set");
		return 0;
	}
	snap_set_str(x, "cuda_data_dir", data_dir, "XLA_FLAGS");
	return add_root(roots, data_dir);
}

/* Where the roots' libdevice and ptxas are (and PATH's ptxas), recorded into x. */
static int probe_roots(struct probe_env *pe, struct snap_node *x, char *const *roots);

int probe_xla_toolchain(struct probe_env *pe, struct snap_node *jax, char *const *sites,
			const char *jaxlib_local, const char *conda_version)
{
	_cleanup_free_ char *build = build_toolkit_path(jaxlib_local);
	_cleanup_strv_free_ char **roots = NULL;
	struct snap_node *x = snap_object(jax, "xla");
	int r = add_data_dir(pe, x, &roots);

	for (char *const *s = sites; s && *s; s++) {
		_cleanup_free_ char *nvcc = path_join(*s, "nvidia/cuda_nvcc"),
				    *bundled = path_join(*s, "jaxlib/cuda");

		if (!nvcc || !bundled)
			return -ENOMEM;
		if (r >= 0)
			r = add_root(&roots, nvcc);
		if (r >= 0)
			r = add_root(&roots, bundled);
	}
	if (r >= 0)
		r = add_root(&roots, build);
	if (r >= 0)
		r = add_root(&roots, "/usr/local/cuda");
	if (r >= 0)
		r = add_root(&roots, "/opt/cuda");
	/* The environment's prefix, where conda's cuda-nvcc-tools and cuda-nvvm-tools put bin/
	 * and nvvm/: a conda-forge jaxlib before 0.4.34 searches it not (its strace in
	 * conda-forge/jaxlib-feedstock#283, 0.4.31: the nvcc wheel's directory, its build
	 * toolkit, /usr/local/cuda); 0.4.34's rebuilds and later carry openxla/xla#20288's
	 * search of it (the feedstock's pull request #288). */
	for (char *const *s = sites; s && *s; s++) {
		_cleanup_free_ char *prefix = site_prefix(*s);

		if (conda_version && version_cmp_str(conda_version, "0.4.34") < 0)
			break;
		if (r >= 0)
			r = add_root(&roots, prefix);
	}
	if (r < 0)
		return r;
	return probe_roots(pe, x, roots);
}

/*
 * TensorFlow's XLA searches, as its own warning lists them ("Searched for CUDA in the
 * following directories", tensorflow/tensorflow#58681 (2.11), #60790 (2.12),
 * iot-salzburg/gpu-jupyter#129 (2.15), conda-forge/tensorflow-feedstock#420 (2.18)):
 * TF_CUDA_TOOLKIT_PATH, the toolkit its release build was configured with
 * (/usr/local/cuda-<build_info's cuda_version>), /usr/local/cuda, and in 2.15's list on (not
 * 2.12's) the nvcc wheel's directory beside the package (tensorflow/python/platform/../../../
 * nvidia/cuda_nvcc, then ../../../../nvidia/cuda_nvcc) and, in 2.18's, tensorflow/cuda
 * (../../cuda). A union again: none holding it is true of every release. The relative roots it
 * prints (./cuda_sdk_lib, python.runfiles/cuda_nvcc, .) name the working directory, not known
 * here. ptxas: PATH, then each root's bin/ (PreferPtxasFromPath(), tsl cuda_libdevice_path.cc).
 */
int probe_xla_toolchain_tf(struct probe_env *pe, struct snap_node *tf, const char *site,
			   const char *build_cuda)
{
	_cleanup_free_ char *build = NULL, *nvcc = path_join(site, "nvidia/cuda_nvcc"),
			    *up = path_dirname(site), *nvcc_up = NULL,
			    *bundled = path_join(site, "tensorflow/cuda");
	_cleanup_strv_free_ char **roots = NULL;
	struct snap_node *x = snap_object(tf, "xla");
	struct version v;
	const char *end;
	int r;

	if (!nvcc || !up || !bundled || !(nvcc_up = path_join(up, "nvidia/cuda_nvcc")))
		return -ENOMEM;
	/* "11.2", "12.3": a Linux build's; Windows builds write "64_112" and search no such
	 * path. */
	if (build_cuda && version_parse_prefix(build_cuda, &v, &end) == 0 && v.n >= 2 && !*end &&
	    asprintf(&build, "/usr/local/cuda-%u.%u", v.part[0], v.part[1]) < 0)
		return -ENOMEM;
	r = add_data_dir(pe, x, &roots);
	if (r >= 0)
		r = add_root(&roots, build);
	if (r >= 0)
		r = add_root(&roots, "/usr/local/cuda");
	if (r >= 0)
		r = add_root(&roots, nvcc);
	if (r >= 0)
		r = add_root(&roots, nvcc_up);
	if (r >= 0)
		r = add_root(&roots, bundled);
	if (r < 0)
		return r;
	return probe_roots(pe, x, roots);
}

static int probe_roots(struct probe_env *pe, struct snap_node *x, char *const *roots)
{
	_cleanup_free_ char *libdevice = NULL, *ptxas = NULL, *unread_l = NULL, *unread_p = NULL;
	struct snap_node *arr;
	int rl, rp, r;
	bool from_path;

	arr = snap_array(x, "roots");
	for (char *const *p = roots; p && *p; p++)
		snap_append_str(arr, *p, "XLA's CUDA roots");

	rl = first_holding(pe, roots, LIBDEVICE, &libdevice, &unread_l);
	if (rl == -ENOMEM)
		return rl;
	set_found(x, "libdevice", rl, libdevice, unread_l, "roots[]/" LIBDEVICE);

	rp = ptxas_on_path(pe, &ptxas, &unread_p);
	if (rp == -ENOMEM)
		return rp;
	from_path = rp > 0;
	if (rp == 0)
		rp = first_holding(pe, roots, "bin/ptxas", &ptxas, &unread_p);
	if (rp == -ENOMEM)
		return rp;
	set_found(x, "ptxas", rp, ptxas, unread_p, "PATH, then roots[]/bin/ptxas");
	if (rp > 0) {
		snap_set_bool(x, "ptxas_from_path", from_path, from_path ? "PATH" : ptxas);
		r = ptxas_version(pe, x, ptxas);
		if (r < 0)
			return r;
	}

	/* A toolkit on PATH with libdevice that XLA does not search: XLA_FLAGS names it. */
	if (rl == 0 && from_path) {
		_cleanup_free_ char *bin = path_dirname(ptxas),
				    *top = bin ? path_dirname(bin) : NULL;
		_cleanup_free_ char *lib = top ? path_join(top, LIBDEVICE) : NULL;

		if (!lib)
			return -ENOMEM;
		if (streq(path_basename(bin), "bin") && probe_path_test(pe, lib, S_IFREG) > 0)
			snap_set_str(x, "path_toolkit", top, lib);
	}
	return 0;
}
