// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Where numba's CUDA target finds libNVVM, the compiler it turns every @cuda.jit kernel into
 * PTX with. libNVVM comes with a CUDA toolkit's nvcc component (nvvm/lib64/libnvvm.so.4), not
 * with numba: numba looks for it in a fixed list of places and takes the FIRST place that is
 * set, whether or not it holds the library (numba/numba numba/cuda/cuda_paths.py
 * _get_nvvm_path_decision(), _find_valid_path(); NVIDIA/numba-cuda numba_cuda/numba/cuda/
 * cuda_paths.py, SEARCH_PRIORITY):
 *  1. "Conda environment": sys.prefix holds conda-meta/ and <prefix>/lib a libnvvm.so.<v>
 *     (the cudatoolkit package's layout, get_conda_ctk());
 *  2. "Conda environment (NVIDIA package)": <prefix>/nvvm/lib64 with a libnvvm.so.<v> (the
 *     cuda-nvcc packages of CUDA 12, get_nvidia_nvvm_ctk());
 *  3. "NVIDIA NVCC Wheel" (numba-cuda 0.9 on): <site>/nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so
 *     (the nvidia-cuda-nvcc-cu12 wheel, _get_nvvm_wheel());
 *  4. "CUDA_HOME": $CUDA_HOME, else $CUDA_PATH, joined with nvvm/lib64 — set is enough: the
 *     places after it are not looked at, even when it holds nothing (get_cuda_home());
 *  5. "System": /usr/local/cuda/nvvm/lib64 (get_system_ctk()).
 * In the place chosen, numba takes the greatest name matching lib(nvvm)\.so\.<version>
 * (numba/misc/findlib.py find_lib(): DLLNAMEMAP's 'linux' pattern; the wheel's own name
 * libnvvm.so as is); with none, from 0.48 on (numba/numba#5016), it opens the bare name
 * "libnvvm.so" and leaves the search to the loader (numba/cuda/cudadrv/libs.py
 * get_cudalib()), where nvvm/lib64 is seldom listed; before, it stops there ("library nvvm
 * not found", numba/numba#4979: Debian's libnvvm in /usr/lib/x86_64-linux-gnu unfound).
 * Either way: "NvvmSupportError: libNVVM cannot be found" (numba/numba#9216: CUDA_HOME a list,
 * "Finding nvvm from CUDA_HOME / Located at libnvvm.so / ... cannot open shared object file").
 * The wheel's place counts for every release (a superset of older numba's list, as
 * framework-xla.c does): a copy only numba-cuda finds is reported as found.
 *
 * Writes packages.numba.nvvm: decided_by (the place's label), env (the variable, its value
 * and, for a ':'-separated list, list_member: its first member holding the library), dir (the
 * directory chosen), path (the file numba opens: found; absent; or the errno of a directory
 * that could not be looked at) and found_via ("place", or "loader" for the bare name)
 * (docs/snapshot-schema.md); loader_path: for a release before 0.48, the file the loader
 * would give the bare name (a later release loads it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probe-python-internal.h"
#include "probe/loader.h"
#include "probe.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define NVVM_BARE "libnvvm.so"

/* findlib.py's 'linux' pattern: lib(nvvm)\.so\.[0-9]*([_\.][0-9]+)*$ */
static bool nvvm_name(const char *n)
{
	const char *p = n + strlen("libnvvm.so.");

	if (!startswith(n, "libnvvm.so."))
		return false;
	p += strspn(p, "0123456789");
	while (*p == '_' || *p == '.') {
		size_t k = strspn(p + 1, "0123456789");

		if (k == 0)
			return false;
		p += 1 + k;
	}
	return *p == '\0';
}

/* The greatest libnvvm.so.<v> regular file in dir: 1 and its path, 0 none (or no such
 * directory), <0 the directory could not be listed. */
static int nvvm_in(struct probe_env *pe, const char *dir, char **ret)
{
	_cleanup_strv_free_ char **names = NULL;
	_cleanup_free_ char *best = NULL;
	int r;

	/* A relative directory (a CUDA_HOME starting with ':') is below the process's working
	 * directory, unknown here: such a tree is taken as not there. */
	if (dir[0] != '/')
		return 0;
	r = root_list_dir(pe->root, dir, MAX_SMALL_DIR, &names);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = NULL;

		if (!nvvm_name(*n) || (best && strcmp(*n, path_basename(best)) <= 0))
			continue;
		if (!(p = path_join(dir, *n)))
			return -ENOMEM;
		if (probe_path_test(pe, p, S_IFREG) > 0) {
			free(best);
			best = TAKE_PTR(p);
		}
	}
	if (!best)
		return 0;
	*ret = TAKE_PTR(best);
	return 1;
}

/* env.list_member: the first ':'-separated member of the variable's value whose nvvm/lib64
 * holds a libnvvm.so.<v>. 1, or -ENOMEM. */
static int list_member(struct probe_env *pe, struct snap_node *e, const char *value)
{
	_cleanup_strv_free_ char **v = NULL;

	if (strv_split(value, ":", &v) < 0)
		return -ENOMEM;
	STRV_FOREACH(m, v) {
		_cleanup_free_ char *d = path_join(*m, "nvvm/lib64"), *found = NULL;
		int r;

		if (!d)
			return -ENOMEM;
		if (!**m || (r = nvvm_in(pe, d, &found)) == 0)
			continue;
		if (r == -ENOMEM)
			return r;
		if (r > 0) {
			snap_set_str(e, "list_member", *m, found);
			break;
		}
	}
	return 1;
}

/* The place numba decides on: its label and directory (the directory that must hold the
 * library for the place to count, for the conda ones). 1 decided, 0 none set, -ENOMEM. */
static int decide(struct py_ctx *c, struct snap_node *nv, char **ret_dir, const char **ret_by,
		  char **ret_found)
{
	struct probe_env *pe = c->pe;
	const char *prefix = snap_get_str(c->env, "prefix");
	const char *home = env_get(pe->env, "CUDA_HOME");
	const char *var = "CUDA_HOME";
	_cleanup_free_ char *d = NULL;
	int r;

	if (prefix && probe_pathf_test(pe, S_IFDIR, "%s/conda-meta", prefix) > 0) {
		static const struct {
			const char *sub, *by;
		} conda[] = {
			{ "lib", "Conda environment" },
			{ "nvvm/lib64", "Conda environment (NVIDIA package)" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(conda); i++) {
			free(d);
			if (!(d = path_join(prefix, conda[i].sub)))
				return -ENOMEM;
			r = nvvm_in(pe, d, ret_found);
			if (r == -ENOMEM)
				return r;
			/* a directory that cannot be listed: whether numba stops here is unknown */
			if (r != 0) {
				*ret_by = conda[i].by;
				*ret_dir = TAKE_PTR(d);
				return r < 0 ? r : 1;
			}
		}
	}
	for (char **s = c->sites; s && *s; s++) {
		_cleanup_free_ char *w = NULL;
		int t;

		if (asprintf(&w, "%s/nvidia/cuda_nvcc/nvvm/lib64/" NVVM_BARE, *s) < 0)
			return -ENOMEM;
		t = probe_path_test(pe, w, S_IFREG);
		if (t > 0) {
			*ret_by = "NVIDIA NVCC Wheel";
			*ret_dir = path_dirname(w);
			*ret_found = TAKE_PTR(w);
			return *ret_dir ? 1 : -ENOMEM;
		}
	}
	if (!home) {
		home = env_get(pe->env, "CUDA_PATH");
		var = "CUDA_PATH";
	}
	if (home) {
		struct snap_node *e = snap_object(nv, "env");

		snap_set_str(e, "name", var, var);
		snap_set_str(e, "value", home, var);
		*ret_by = "CUDA_HOME";
		if (asprintf(ret_dir, "%s/nvvm/lib64", home) < 0)
			return -ENOMEM;
		/* A list (CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8, numba/numba#9216) is one
		 * path to numba: the first member that holds the library is what was meant. */
		return strchr(home, ':') ? list_member(pe, e, home) : 1;
	}
	if (probe_path_test(pe, "/usr/local/cuda", S_IFDIR) > 0) {
		*ret_by = "System";
		*ret_dir = strdup("/usr/local/cuda/nvvm/lib64");
		return *ret_dir ? 1 : -ENOMEM;
	}
	return 0;
}

int py_probe_numba_nvvm(struct py_ctx *c, struct snap_node *obj)
{
	const char *v = snap_get_str(obj, "dist_version");
	struct snap_node *nv;
	_cleanup_free_ char *dir = NULL, *found = NULL;
	_cleanup_(loader_result_freep) struct loader_result *res = NULL;
	const char *by = "<unknown>";
	/* Before 0.48 no bare name: "OSError: library nvvm not found" (numba/numba#4979, whose
	 * fix, numba/numba#5016, added the loader's search) */
	bool bare = !v || version_cmp_str(v, "0.48") >= 0;
	int r;

	/* Before 0.46 NUMBAPRO_NVVM and NUMBAPRO_CUDALIB came first (0.45's cuda_paths.py),
	 * which this does not follow: where one is set, where numba looks is not said. */
	if (v && version_cmp_str(v, "0.46") < 0 &&
	    (env_get(c->pe->env, "NUMBAPRO_NVVM") || env_get(c->pe->env, "NUMBAPRO_CUDALIB")))
		return 0;
	nv = snap_object(obj, "nvvm");
	r = decide(c, nv, &dir, &by, &found);
	if (r == -ENOMEM)
		return r;
	snap_set_str(nv, "decided_by", by, dir ?: "numba cuda_paths.py");
	if (dir)
		snap_set_str(nv, "dir", dir, dir);
	if (r < 0) {
		snap_set_errno(nv, "path", r, dir);
		return 0;
	}
	if (!found && dir && (r = nvvm_in(c->pe, dir, &found)) < 0) {
		if (r == -ENOMEM)
			return r;
		snap_set_errno(nv, "path", r, dir);
		return 0;
	}
	if (found) {
		snap_set_str(nv, "path", found, found);
		snap_set_str(nv, "found_via", "place", found);
		return 0;
	}
	/* get_cudalib(): no file in the place decided on, so the bare name, through ld.so (for
	 * a release before 0.48, what a later one would find: loader_path) */
	if (!c->loader && (r = probe_loader(c->pe, &c->loader)) < 0)
		return r;
	if ((r = loader_resolve(c->loader, NVVM_BARE, &res)) < 0)
		return r;
	if (res->undetermined_by) {
		snap_set_errno(nv, bare ? "path" : "loader_path", -EACCES, res->undetermined_by);
		if (bare)
			return 0;
	} else if (res->winner >= 0 && bare) {
		snap_set_str(nv, "path", res->cands[res->winner].path, "ld.so search");
		snap_set_str(nv, "found_via", "loader", "ld.so search");
		return 0;
	} else if (res->winner >= 0)
		snap_set_str(nv, "loader_path", res->cands[res->winner].path, "ld.so search");
	if (bare)
		snap_set_state(nv, "path", FACT_ABSENT, dir ?: "ld.so search",
			       "no libnvvm.so.<version> in the place numba decided on, and the "
			       "loader finds no libnvvm.so");
	else
		snap_set_state(
			nv, "path", FACT_ABSENT, dir ?: "numba cuda_paths.py",
			"no libnvvm.so.<version> in the place numba decided on (numba before "
			"0.48 asks the loader for none)");
	return 0;
}
