// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CUDA libraries ollama bundles, as framework.ollama (written only where an ollama
 * library directory exists): ollama runs its models through ggml's CUDA backend, which it
 * ships with its own CUDA runtime, so neither the system toolkit nor a Python environment
 * says what it runs. Where they are:
 *   - the Linux tarball (ollama's install.sh unpacks it under /usr/local; the ollama/ollama
 *     Docker image under /usr): lib/ollama/cuda_v11, cuda_v12, cuda_v13, each holding
 *     libggml-cuda.so beside the libcudart.so.<major>.<minor>.<patch> and libcublas of its
 *     CUDA release (CMakePresets.json's "CUDA 11" / "CUDA 12" presets and their install
 *     rules, ollama 0.5.8 and later);
 *   - releases before 0.5.8: lib/ollama/runners/cuda_v11 and cuda_v12, each an
 *     ollama_llama_server executable with ggml-cuda linked in, the CUDA runtime copies in
 *     lib/ollama itself;
 *   - distribution packages (Arch Linux's ollama-cuda): /usr/lib/ollama/libggml-cuda.so,
 *     built against the system's CUDA (no runtime of its own).
 * Per variant: its directory, the library with the GPU code and that code's targets (the
 * fatbin scanner, probe_record_targets()), and the CUDA runtime it bundles, by the version
 * in the file's name (libcudart.so.12.8.90: the toolkit's own naming). ollama picks one
 * variant per GPU at run time (discover/ in its source), so each is recorded and judged.
 * Its ROCm build, as framework.ollama.rocm_variants: lib/ollama/rocm (CMakeLists.txt's
 * OLLAMA_HIP_INSTALL_DIR), lib/ollama/rocm_v7_2 in newer releases, holds libggml-hip.so, the
 * ROCm libraries it needs and ROCm's rocblas/ directory; ollama uses an AMD GPU only where a
 * rocblas/library/TensileLibrary_lazy_<gfx>.dat names its target (GetSupportedGFX(),
 * discover/amd_common.go: the "supported types" of "amdgpu is not supported"), so those names
 * are recorded beside the code objects of libggml-hip.so. Releases before 0.5.8 put ROCm's
 * rocblas/library in lib/ollama itself (the Dockerfile's rocm-build stage: "(cd /opt/rocm/lib
 * && tar cf - rocblas/library) | (cd ../../dist/linux-amd64-rocm/lib/ollama && tar xf - )", the
 * ollama-linux-amd64-rocm.tgz install.sh unpacks beside the main tarball; their logs say
 * library=/usr/local/lib/ollama, ollama/ollama#8772) and the runner in
 * lib/ollama/runners/rocm<variant>/ollama_llama_server: that directory is the ROCm variant then.
 * Distribution builds with no ROCm of their own use the system's (/opt/rocm/lib): that is the
 * ROCm probe's.
 * The environment of its systemd service, where there is one: probe-ollama-service.c.
 * Nothing is executed: `ollama --version` would start a client. No file of the tarball or the
 * Docker image states ollama's version (the binary's embedded string is not read).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probe-python-internal.h"
#include "probe.h"
#include "shared/path-util.h"
#include "shared/strv.h"

/* install.sh's default prefix first, then the Docker image's and the distributions' */
static const char *const install_dirs[] = { "/usr/local/lib/ollama", "/usr/lib/ollama" };

/* The library that holds ggml's CUDA kernels in a variant directory, newest layout first. */
static const char *const kernel_libs[] = { "libggml-cuda.so", "ollama_llama_server" };

/* rocblas/library holds a few files per kernel family and gfx target (thousands in ROCm 6) */
#define MAX_ROCBLAS_FILES 65536u

/* At most this many variants per install directory (ollama ships two or three). */
#define MAX_VARIANTS 8u

/* The version in a libcudart.so.<version> name ("12.8.90"), or NULL. */
static const char *cudart_version(const char *name)
{
	const char *v = name + strlen("libcudart.so.");

	if (!startswith(name, "libcudart.so.") || !*v || strspn(v, "0123456789.") != strlen(v))
		return NULL;
	return v;
}

/* The most precise libcudart.so.<version> among names (libcudart.so.12 is a link to
 * libcudart.so.12.8.90), or NULL. */
static const char *pick_cudart(char **names)
{
	const char *best = NULL;

	STRV_FOREACH(n, names) {
		const char *v = cudart_version(*n);

		if (v && (!best || strlen(v) > strlen(cudart_version(best))))
			best = *n;
	}
	return best;
}

/* The CUDA runtime a variant loads: its own directory's copy, else one the install directory
 * holds (releases before 0.5.8). Unbundled: the system's, recorded as absent. */
static int record_cudart(struct snap_node *v, const char *dir, char **names, const char *top,
			 char **top_names)
{
	const char *own = pick_cudart(names), *shared = own ? NULL : pick_cudart(top_names);
	const char *name = own ?: shared, *ver;
	_cleanup_free_ char *p = NULL;

	if (!name) {
		snap_set_state(v, "cudart", FACT_ABSENT, dir,
			       "no libcudart.so.<version> bundled here: the system's CUDA "
			       "runtime is loaded");
		return 0;
	}
	p = path_join(own ? dir : top, name);
	if (!p)
		return -ENOMEM;
	ver = cudart_version(name);
	snap_set_str(snap_object(v, "cudart"), "path", p, p);
	/* libcudart.so.11.0 is the SONAME of every 11.x runtime: only the major is known */
	if (strchr(ver, '.') && strchr(strchr(ver, '.') + 1, '.'))
		snap_set_str(snap_object(v, "cudart"), "version", ver, p);
	else
		snap_set_strf(snap_object(v, "cudart"), "version", p, "%.*s",
			      (int)strcspn(ver, "."), ver);
	return 0;
}

/* One variant directory (dir, listed as names): its kernel library, if it has one. */
static int one_variant(struct probe_env *pe, struct snap_node *arr_owner, const char *dir,
		       const char *label, char **names, const char *top, char **top_names)
{
	struct snap_node *arr = snap_array(arr_owner, "cuda_variants"), *v;
	const char *lib = NULL;
	_cleanup_free_ char *p = NULL;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(kernel_libs) && !lib; i++)
		if (strv_contains(names, kernel_libs[i]))
			lib = kernel_libs[i];
	if (!lib)
		return 0;
	if (snap_count(arr) >= MAX_VARIANTS) {
		snap_set_bool(arr_owner, "cuda_variants_truncated", true, dir);
		return 0;
	}
	p = path_join(dir, lib);
	if (!p)
		return -ENOMEM;
	v = snap_append_object(arr);
	snap_set_str(v, "dir", dir, dir);
	snap_set_str(v, "name", label, dir);
	snap_set_str(v, "library", p, p);
	if ((r = probe_record_targets(pe, v, p)) < 0)
		return r;
	return record_cudart(v, dir, names, top, top_names);
}

/* A variant directory that could not be listed: its state stands for what it holds. */
static void unlisted_variant(struct snap_node *arr, const char *dir, const char *label, int err)
{
	struct snap_node *v = snap_append_object(arr);

	snap_set_str(v, "dir", dir, dir);
	snap_set_str(v, "name", label, dir);
	snap_set_errno(v, "arch_targets", err, dir);
}

/* The cuda_* directories below sub ("" or "runners") of the install directory top: cuda_v12,
 * cuda_v13, and the arm64 builds' cuda_jetpack5 and cuda_jetpack6 (cmake/local.cmake's
 * OLLAMA_LLAMA_BACKENDS; discover/runner.go takes every directory with a *ggml-* file). */
static int variants_below(struct probe_env *pe, struct snap_node *ollama, const char *top,
			  char **top_names, const char *sub)
{
	struct snap_node *arr = snap_array(ollama, "cuda_variants");
	_cleanup_free_ char *base = sub ? path_join(top, sub) : strdup(top);
	_cleanup_strv_free_ char **names = NULL;
	int r;

	if (!base)
		return -ENOMEM;
	if (sub) {
		r = root_list_dir(pe->root, base, MAX_SMALL_DIR, &names);
		if (r == -ENOENT || r == -ENOTDIR)
			return 0;
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			unlisted_variant(arr, base, sub, r);
			return 0;
		}
	}
	STRV_FOREACH(n, sub ? names : top_names) {
		_cleanup_free_ char *dir = NULL;
		_cleanup_strv_free_ char **vnames = NULL;

		if (!startswith(*n, "cuda_"))
			continue;
		if (!(dir = path_join(base, *n)))
			return -ENOMEM;
		r = root_list_dir(pe->root, dir, MAX_SMALL_DIR, &vnames);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			unlisted_variant(arr, dir, *n, r);
			continue;
		}
		if ((r = one_variant(pe, ollama, dir, *n, vnames, top, top_names)) < 0)
			return r;
	}
	return 0;
}

/* The gfx targets ollama accepts: the names of rocblas/library/TensileLibrary_lazy_<gfx>.dat
 * below the ROCm directory rocm (GetSupportedGFX(), discover/amd_common.go). */
static int record_rocblas_targets(struct probe_env *pe, struct snap_node *v, const char *rocm)
{
	static const char prefix[] = "TensileLibrary_lazy_", suffix[] = ".dat";
	_cleanup_free_ char *lib = path_join(rocm, "rocblas/library");
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int r;

	if (!lib)
		return -ENOMEM;
	r = root_list_dir(pe->root, lib, MAX_ROCBLAS_FILES, &names);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR) {
		snap_set_state(v, "rocblas_targets", FACT_ABSENT, lib,
			       "no rocblas/library: ollama does not use this ROCm directory");
		return 0;
	}
	if (r < 0) {
		snap_set_errno(v, "rocblas_targets", r, lib);
		return 0;
	}
	arr = snap_array(v, "rocblas_targets");
	STRV_FOREACH(n, names) {
		size_t len = strlen(*n), plen = strlen(prefix), slen = strlen(suffix);

		if (len <= plen + slen || !startswith(*n, prefix) ||
		    strcmp(*n + len - slen, suffix) != 0 || !startswith(*n + plen, "gfx"))
			continue;
		_cleanup_free_ char *p = path_join(lib, *n);
		if (!p)
			return -ENOMEM;
		snap_set_strf(snap_append_object(arr), "gfx", p, "%.*s", (int)(len - plen - slen),
			      *n + plen);
	}
	return 0;
}

/* One ROCm build directory (lib/ollama/rocm, rocm_v7_2), if it is a directory. */
static int rocm_variant(struct probe_env *pe, struct snap_node *ollama, const char *dir)
{
	_cleanup_free_ char *lib = NULL;
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *v;
	int r;

	r = root_list_dir(pe->root, dir, MAX_SMALL_DIR, &names);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == -ENOMEM)
		return r;
	v = snap_append_object(snap_array(ollama, "rocm_variants"));
	snap_set_str(v, "dir", dir, dir);
	if (r < 0) {
		snap_set_errno(v, "rocblas_targets", r, dir);
		snap_set_errno(v, "arch_targets", r, dir);
		return 0;
	}
	if (strv_contains(names, "libggml-hip.so")) {
		if (!(lib = path_join(dir, "libggml-hip.so")))
			return -ENOMEM;
		snap_set_str(v, "library", lib, lib);
		if ((r = probe_record_targets(pe, v, lib)) < 0)
			return r;
	} else
		snap_set_state(v, "arch_targets", FACT_ABSENT, dir, "no libggml-hip.so here");
	return record_rocblas_targets(pe, v, dir);
}

/* ollama's ROCm builds below the install directory top (listed as names): every directory
 * whose name starts with "rocm", as ollama's discovery takes them (isROCmLibraryDir(),
 * discover/runner.go): lib/ollama/rocm in earlier releases, rocm_v7_2 now (ml/path.go; the
 * Dockerfile's llama-server-rocm_v7_2 stage installs rocm_v7_2/rocblas/library). */
static int rocm_variants(struct probe_env *pe, struct snap_node *ollama, const char *top,
			 char **names)
{
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *dir = NULL;
		int r;

		if (!startswith(*n, "rocm"))
			continue;
		if (!(dir = path_join(top, *n)))
			return -ENOMEM;
		if ((r = rocm_variant(pe, ollama, dir)) < 0)
			return r;
	}
	return 0;
}

/* The runner of a release before 0.5.8 (runners/rocm<variant>/ollama_llama_server) as *ret,
 * or NULL. */
static int old_rocm_runner(struct probe_env *pe, const char *top, char **ret)
{
	_cleanup_free_ char *runners = path_join(top, "runners");
	_cleanup_strv_free_ char **names = NULL;
	int r;

	*ret = NULL;
	if (!runners)
		return -ENOMEM;
	r = root_list_dir(pe->root, runners, MAX_SMALL_DIR, &names);
	if (r == -ENOMEM)
		return r;
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = NULL;

		if (!startswith(*n, "rocm"))
			continue;
		if (asprintf(&p, "%s/%s/ollama_llama_server", runners, *n) < 0)
			return -ENOMEM;
		r = root_test(pe->root, p, S_IFREG);
		if (r == -ENOMEM)
			return r;
		if (r > 0) {
			*ret = TAKE_PTR(p);
			return 0;
		}
	}
	return 0;
}

/* ollama's ROCm in the install directory top itself (releases before 0.5.8), if it has one. */
static int rocm_in_top(struct probe_env *pe, struct snap_node *ollama, const char *top,
		       char **top_names)
{
	_cleanup_free_ char *runner = NULL;
	struct snap_node *v;
	int r;

	if (!strv_contains(top_names, "rocblas"))
		return 0;
	v = snap_append_object(snap_array(ollama, "rocm_variants"));
	snap_set_str(v, "dir", top, top);
	if ((r = old_rocm_runner(pe, top, &runner)) < 0)
		return r;
	if (runner) {
		snap_set_str(v, "library", runner, runner);
		if ((r = probe_record_targets(pe, v, runner)) < 0)
			return r;
	} else
		snap_set_state(v, "arch_targets", FACT_ABSENT, top,
			       "no runners/rocm<variant>/ollama_llama_server here");
	return record_rocblas_targets(pe, v, top);
}

static int one_install(struct probe_env *pe, struct snap_node *ollama, const char *top)
{
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int r = root_list_dir(pe->root, top, MAX_SMALL_DIR, &names);

	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == -ENOMEM)
		return r;
	snap_append_str(snap_array(ollama, "install_dirs"), top, top);
	arr = snap_array(ollama, "cuda_variants");
	if (r < 0) {
		unlisted_variant(arr, top, "ollama", r);
		return 0;
	}
	if ((r = variants_below(pe, ollama, top, names, NULL)) < 0 ||
	    (r = variants_below(pe, ollama, top, names, "runners")) < 0 ||
	    (r = rocm_variants(pe, ollama, top, names)) < 0 ||
	    (r = rocm_in_top(pe, ollama, top, names)) < 0)
		return r;
	/* a distribution's build: the kernel library in the directory itself */
	return one_variant(pe, ollama, top, "ollama", names, top, names);
}

int probe_ollama(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *fw = snap_object(snapshot_root(s), "framework");
	struct snap_node *ollama = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(install_dirs); i++) {
		int r = root_lstat(pe->root, install_dirs[i], &(struct stat){ 0 });

		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (!ollama)
			ollama = snap_object(fw, "ollama");
		if ((r = one_install(pe, ollama, install_dirs[i])) < 0)
			return r;
	}
	return ollama ? probe_ollama_service(pe, ollama) : 0;
}
