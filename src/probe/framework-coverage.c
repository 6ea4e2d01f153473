// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU libraries a CUDA framework's process loads besides its kernel library, with the GPU
 * code of each (gpu_libraries[] of packages.torch, packages.tensorflow, packages.jax.plugins[];
 * docs/snapshot-schema.md), so that framework.no-kernel-image judges the weakest of them: a
 * launch in any of them fails with "no kernel image is available for execution on the device"
 * when it has neither SASS nor PTX for the GPU.
 *
 * Where they are: the framework's own library directory (torch/lib holds libc10_cuda.so and
 * libtorch_cuda*.so beside libtorch_cuda.so, and the cu11x wheels bundle libcudnn*, libcublas*,
 * libnccl* there: the torch wheels' RECORD), and the nvidia-* wheels of the same environment
 * (nvidia/cudnn/lib/libcudnn*.so.9, nvidia/cublas/lib/libcublasLt.so.12,
 * nvidia/nccl/lib/libnccl.so.2 …: each wheel's RECORD, read by probe_nvidia_wheels()).
 * Which libraries each framework loads: the nvidia-* distributions its wheel metadata requires
 * (torch's Requires-Dist; tensorflow's [and-cuda] extra; jax-cuda12-plugin's [with-cuda]
 * extra on PyPI), limited to those whose libraries carry GPU code. The CUDA runtime, NVRTC,
 * nvJitLink, CUPTI and NVTX are left out: they launch no kernels of their own.
 * TensorFlow's and JAX's own libraries besides the kernel library: TensorFlow's three
 * (libtensorflow_cc.so.2, python/_pywrap_tensorflow_internal.so, libtensorflow_framework.so.2:
 * the pip wheel's RECORD; each holds GPU kernels in some release); a jax-cuda12-plugin's
 * extension modules (jax_cuda12_plugin/_prng.so, _linalg.so, _solver.so …: the kernels of
 * jaxlib/gpu, jaxlib/tools/build_gpu_kernels_wheel.py), which jax imports beside XLA's
 * jax_plugins/xla_cuda12/xla_cuda_plugin.so; and a jaxlib CUDA wheel's (0.1.x-0.4.x, version
 * "+cuda11…") kernel modules beside xla_extension.so: jaxlib/cuda_prng_kernels.so,
 * cublas_kernels.so … (build/build_wheel.py to 0.1.7x), jaxlib/_cuda_prng.so … (0.3.x),
 * jaxlib/cuda/_prng.so … (0.4.x). The ThreeFry kernel of those is what fails first
 * ("jaxlib/cuda_prng_kernels.cc:30: operation cudaGetLastError() failed").
 * torch's process also runs the kernels of the torch extensions that carry their own (vLLM's
 * compiled modules beside torch in its site-packages: extension_modules()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "probe-python-internal.h"
#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strv.h"

/* At most this many libraries per framework (torch cu12 with its wheels: about 20). */
#define MAX_COVERAGE_LIBS 64u

struct fw_cov {
	const char *key;       /* packages.<key>; jax: each of its plugins[] */
	const char *own[3];    /* its own libraries beside the kernel library, NULL-ended */
	const char *loads[10]; /* the NVIDIA libraries with GPU code it loads, NULL-ended */
	/* its own libraries anywhere in its package, by path below the package directory; the
	 * kernel library is one of them (which one tells where the package directory is) */
	const char *files[4];
	/* packages beside it in its site-packages whose compiled modules (the .so files at the
	 * top of <site>/<dir>) launch their own kernels in its process, NULL-ended */
	const char *extensions[2];
};

/* Name stems, matched as a stem followed by '.', '-' or '_' (libcudnn_ops.so.9,
 * libcudart-d0da41ae.so.11.0). */
static const struct fw_cov fw_cov[] = {
	{ "torch",
	  { "libtorch_cuda", "libc10_cuda", NULL },
	  { "libcudnn", "libcublas", "libcublasLt", "libnccl", "libcufft", "libcurand",
	    "libcusolver", "libcusparse", "libcusparseLt", NULL },
	  { NULL },
	  { "vllm", NULL } },
	{ "tensorflow",
	  { NULL },
	  { "libcudnn", "libcublas", "libcublasLt", "libnccl", "libcufft", "libcusolver",
	    "libcusparse", NULL },
	  { "libtensorflow_cc.so.2", "python/_pywrap_tensorflow_internal.so",
	    "libtensorflow_framework.so.2", NULL } },
	{ "jax",
	  { NULL },
	  { "libcudnn", "libcublas", "libcublasLt", "libnccl", "libcufft", "libcusolver",
	    "libcusparse", NULL } },
};

static bool stem_match(const char *name, const char *stem, size_t stem_len)
{
	return strncmp(name, stem, stem_len) == 0 &&
	       (name[stem_len] == '.' || name[stem_len] == '-' || name[stem_len] == '_');
}

static bool any_stem(const char *name, const char *const *stems)
{
	for (; *stems; stems++)
		if (stem_match(name, *stems, strlen(*stems)))
			return true;
	return false;
}

/* An nvidia-<x>[-cuNN] wheel whose libraries are lib<x>* (nvidia-cudnn-cu12: libcudnn). */
static bool wheel_is(const char *wheel, const char *const *stems)
{
	const char *x = startswith(wheel, "nvidia-") ? wheel + strlen("nvidia-") : NULL;
	size_t n = x ? strcspn(x, "-_") : 0;

	for (; x && *stems; stems++)
		if (strlen(*stems) == n + 3 && strncasecmp(*stems + 3, x, n) == 0)
			return true;
	return false;
}

struct cov_out {
	struct py_ctx *c;
	struct snap_node *pkg, *arr;
	size_t n;
	/* The files listed so far: a venv's lib64 is a link to lib, so its site-packages and
	 * wheels are listed twice by the discovery (seen on a real torch 2.11 venv). */
	struct {
		dev_t dev;
		ino_t ino;
	} seen[MAX_COVERAGE_LIBS];
};

static bool seen_before(struct cov_out *o, const struct stat *st)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->seen[i].dev == st->st_dev && o->seen[i].ino == st->st_ino)
			return true;
	return false;
}

/* One gpu_libraries[] entry for the file at path, when it is a regular file. */
static int add_library(struct cov_out *o, const char *path, const char *origin, const char *wheel)
{
	struct snap_node *e;
	struct stat st;
	int r = root_lstat(o->c->pe->root, path, &st);

	/* Symlinks name a file listed beside them (libcudnn.so → libcudnn.so.9). */
	if (r == -ENOENT || r == -ENOTDIR || (r == 0 && !S_ISREG(st.st_mode)))
		return 0;
	if (r == 0 && seen_before(o, &st))
		return 0;
	if (o->n >= MAX_COVERAGE_LIBS) {
		snap_set_bool(o->pkg, "gpu_libraries_truncated", true, path);
		return 0;
	}
	if (r == 0) {
		o->seen[o->n].dev = st.st_dev;
		o->seen[o->n].ino = st.st_ino;
	} else { /* unreadable: an identity no file has */
		o->seen[o->n].dev = (dev_t)-1;
		o->seen[o->n].ino = (ino_t)-1;
	}
	o->n++;
	e = snap_append_object(o->arr);
	snap_set_str(e, "name", path_basename(path), path);
	snap_set_str(e, "path", path, path);
	snap_set_str(e, "origin", origin, path);
	if (wheel)
		snap_set_str(e, "wheel", wheel, path);
	if (r < 0) {
		snap_set_errno(e, "arch_targets", r, path);
		return 0;
	}
	return py_record_library_targets(o->c, e, path);
}

/* An entry for what could not be looked at: its state stands for every library in it. */
static void add_unknown(struct cov_out *o, const char *path, const char *wheel,
			const struct snap_node *why)
{
	struct snap_node *e = snap_append_object(o->arr);

	snap_set_str(e, "path", path, path);
	snap_set_str(e, "origin", wheel ? "wheel" : "own", path);
	if (wheel)
		snap_set_str(e, "wheel", wheel, path);
	snap_set_state(e, "arch_targets", snap_state(why), snap_source(why), snap_error(why));
}

/* A directory of the framework's own that could not be listed: one entry whose state stands
 * for every library in it. */
static int list_failed(struct cov_out *o, const char *dir, int err)
{
	struct snap_node *e = snap_append_object(o->arr);

	snap_set_str(e, "path", dir, dir);
	snap_set_str(e, "origin", "own", dir);
	snap_set_errno(e, "arch_targets", err, dir);
	return 0;
}

/* The framework's own directory: its other libraries and the copies it bundles. */
static int own_dir(struct cov_out *o, const struct fw_cov *t, const char *kernel_lib)
{
	_cleanup_free_ char *dir = strdup(kernel_lib);
	_cleanup_strv_free_ char **names = NULL;
	int r;

	if (!dir)
		return -ENOMEM;
	*strrchr(dir, '/') = '\0';
	r = root_list_dir(o->c->pe->root, dir, MAX_SMALL_DIR, &names);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return list_failed(o, dir, r);
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = NULL;
		bool own = any_stem(*n, t->own);

		if (!own && !any_stem(*n, t->loads))
			continue;
		p = path_join(dir, *n);
		if (!p)
			return -ENOMEM;
		if (streq(p, kernel_lib))
			continue;
		if ((r = add_library(o, p, own ? "own" : "bundled", NULL)) < 0)
			return r;
	}
	return 0;
}

/* The framework's own libraries named by path below its package directory (fw_cov.files). */
static int own_files(struct cov_out *o, const struct fw_cov *t, const char *kernel_lib)
{
	size_t kl = strlen(kernel_lib);

	for (const char *const *f = t->files; *f; f++) {
		size_t n = strlen(*f);
		_cleanup_free_ char *base = NULL;
		int r;

		if (kl <= n || kernel_lib[kl - n - 1] != '/' || !streq(kernel_lib + kl - n, *f))
			continue;
		base = strndup(kernel_lib, kl - n - 1);
		if (!base)
			return -ENOMEM;
		for (const char *const *g = t->files; *g; g++) {
			_cleanup_free_ char *p = path_join(base, *g);

			if (!p)
				return -ENOMEM;
			if (g != f && (r = add_library(o, p, "own", NULL)) < 0)
				return r;
		}
		return 0;
	}
	return 0;
}

/* Every shared object in dir whose name starts with one of prefixes (NULL: any), as the
 * framework's own: a directory that cannot be listed is one entry whose state says why. */
static int own_modules(struct cov_out *o, const char *dir, const char *const *prefixes)
{
	_cleanup_strv_free_ char **names = NULL;
	int r = root_list_dir(o->c->pe->root, dir, MAX_SMALL_DIR, &names);

	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return list_failed(o, dir, r);
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *p = NULL;
		bool want = !prefixes;

		for (const char *const *x = prefixes; x && *x && !want; x++)
			want = startswith(*n, *x);
		if (!want || strlen(*n) < 4 || !streq(*n + strlen(*n) - 3, ".so"))
			continue;
		p = path_join(dir, *n);
		if (!p)
			return -ENOMEM;
		if ((r = add_library(o, p, "own", NULL)) < 0)
			return r;
	}
	return 0;
}

/* JAX's kernel modules: a plugin's (<site>/jax_<platform><major>_plugin/, beside
 * <site>/jax_plugins/xla_<platform><major>/xla_<platform>_plugin.so), or a jaxlib CUDA
 * wheel's (jaxlib/ and jaxlib/cuda/, beside jaxlib/xla_extension.so). */
static int jax_modules(struct cov_out *o, const struct snap_node *pkg, const char *kernel_lib)
{
	static const char *const legacy[] = { "cuda_",	   "cublas_",	"cusolver_",
					      "cusparse_", "_cuda",	"_cublas",
					      "_cusolver", "_cusparse", NULL };
	_cleanup_free_ char *dir = strdup(kernel_lib), *p = NULL;
	const char *platform = snap_get_str(pkg, "platform");
	int64_t major;
	char *slash;
	int r;

	if (!dir)
		return -ENOMEM;
	*strrchr(dir, '/') = '\0';
	if (!platform) { /* jaxlib/xla_extension.so */
		if ((r = own_modules(o, dir, legacy)) < 0)
			return r;
		p = path_join(dir, "cuda");
		return p ? own_modules(o, p, NULL) : -ENOMEM;
	}
	/* <site>/jax_plugins/xla_cuda12 → <site> */
	for (int up = 0; up < 2; up++) {
		slash = strrchr(dir, '/');
		if (!slash)
			return 0;
		*slash = '\0';
	}
	if (!snap_get_int(pkg, "major", &major))
		return 0;
	if (asprintf(&p, "%s/jax_%s%" PRId64 "_plugin", dir, platform, major) < 0) {
		p = NULL;
		return -ENOMEM;
	}
	return own_modules(o, p, NULL);
}

/* The compiled modules of the torch extensions beside torch in its site-packages that launch
 * kernels of their own (fw_cov.extensions): vLLM's vllm._C, vllm._moe_C … (the CMakeExtension
 * modules of its setup.py, at the top of vllm/) hold the paged-attention, activation and MoE
 * kernels, built for the wheel's own list of compute capabilities (its TORCH_CUDA_ARCH_LIST,
 * not torch's): a GPU torch runs on can have no kernel image in them ("no kernel image is
 * available for execution on the device" from vLLM's ops, vllm-project/vllm#19542). Each is
 * an entry of origin "extension" naming its package. */
static int extension_modules(struct cov_out *o, const struct fw_cov *t, const char *kernel_lib)
{
	_cleanup_free_ char *site = strdup(kernel_lib);

	if (!site)
		return -ENOMEM;
	/* <site>/torch/lib/libtorch_cuda.so → <site> */
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(site, '/');

		if (!slash || slash == site)
			return 0;
		*slash = '\0';
	}
	for (const char *const *x = t->extensions; *x; x++) {
		_cleanup_free_ char *dir = path_join(site, *x);
		_cleanup_strv_free_ char **names = NULL;
		int r;

		if (!dir)
			return -ENOMEM;
		r = root_list_dir(o->c->pe->root, dir, MAX_SMALL_DIR, &names);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			struct snap_node *e = snap_append_object(o->arr);

			snap_set_str(e, "path", dir, dir);
			snap_set_str(e, "origin", "extension", dir);
			snap_set_str(e, "package", *x, dir);
			snap_set_errno(e, "arch_targets", r, dir);
			continue;
		}
		STRV_FOREACH(n, names) {
			_cleanup_free_ char *p = NULL;
			size_t before = snap_count(o->arr);

			if (strlen(*n) < 4 || !streq(*n + strlen(*n) - 3, ".so"))
				continue;
			if (!(p = path_join(dir, *n)))
				return -ENOMEM;
			if ((r = add_library(o, p, "extension", NULL)) < 0)
				return r;
			if (snap_count(o->arr) > before)
				snap_set_str((struct snap_node *)snap_at(o->arr, before), "package",
					     *x, p);
		}
	}
	return 0;
}

/* The nvidia-* wheels of the environment (their RECORD's libraries). */
static int wheels(struct cov_out *o, const struct fw_cov *t, const struct snap_node *env)
{
	const struct snap_node *ws = snap_child(env, "nvidia_wheels");

	for (size_t i = 0; i < snap_count(ws); i++) {
		const struct snap_node *w = snap_at(ws, i), *ld = snap_child(w, "lib_dir");
		const struct snap_node *libs = snap_child(w, "libraries");
		const char *name = snap_get_str(w, "name") ?: "nvidia-*";
		const char *dir = snap_str(ld);

		if (!dir) {
			/* RECORD or the directory unreadable: unknown, not absent. */
			if (ld && snap_state(ld) != FACT_ABSENT && wheel_is(name, t->loads))
				add_unknown(o, snap_source(ld) ?: name, name, ld);
			continue;
		}
		for (size_t j = 0; j < snap_count(libs); j++) {
			const char *l = snap_str(snap_at(libs, j));
			_cleanup_free_ char *p = NULL;
			int r;

			if (!l || !any_stem(l, t->loads))
				continue;
			p = path_join(dir, l);
			if (!p)
				return -ENOMEM;
			if ((r = add_library(o, p, "wheel", name)) < 0)
				return r;
		}
	}
	return 0;
}

static int one_framework(struct py_ctx *c, const struct fw_cov *t, struct snap_node *pkg,
			 const struct snap_node *env)
{
	const char *kl = snap_get_str(pkg, "kernel_library.path");
	struct cov_out o = { .c = c, .pkg = pkg };
	int r;

	/* No kernel library (a CPU build, or unreadable: arch_targets says so). */
	if (!kl || !strchr(kl, '/'))
		return 0;
	o.arr = snap_array(pkg, "gpu_libraries");
	r = own_dir(&o, t, kl);
	if (r >= 0)
		r = own_files(&o, t, kl);
	if (r >= 0 && streq(t->key, "jax"))
		r = jax_modules(&o, pkg, kl);
	if (r >= 0 && t->extensions[0])
		r = extension_modules(&o, t, kl);
	return r < 0 ? r : wheels(&o, t, env);
}

int py_probe_coverage(struct py_ctx *c, struct snap_node *env)
{
	struct snap_node *pkgs = (struct snap_node *)snap_child(env, "packages");

	for (size_t i = 0; i < ARRAY_SIZE(fw_cov); i++) {
		struct snap_node *pkg = (struct snap_node *)snap_child(pkgs, fw_cov[i].key);
		struct snap_node *pl = (struct snap_node *)snap_child(pkg, "plugins");
		int r = 0;

		if (!pkg || snap_kind(pkg) != SNAP_OBJECT)
			continue;
		/* jax itself has a kernel library only as a jaxlib CUDA wheel (read_jax()) */
		r = one_framework(c, &fw_cov[i], pkg, env);
		for (size_t j = 0; r >= 0 && pl && j < snap_count(pl); j++)
			r = one_framework(c, &fw_cov[i], (struct snap_node *)snap_at(pl, j), env);
		if (r < 0)
			return r;
	}
	return 0;
}
