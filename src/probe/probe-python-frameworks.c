// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The frameworks in a site-packages (probe-python.c names the formats; their dist-info is
 * read by probe-python-wheels.c, which also lists the nvidia-* wheels). One table,
 * frameworks[], says for each of torch, TensorFlow, jax, CuPy, numba, Warp … where it
 * lives, which distributions are it, where its GPU library is; probe_framework() reads what
 * is read the same way for all (presence, dist-info, site-packages), then the framework's own
 * small reader its version files.
 */
#include <errno.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fatbin/fatbin.h"
#include "facts/facts.h"
#include "formats/dist-metadata.h"
#include "formats/pyfile.h"
#include "framework-loads.h"
#include "framework-siblings.h"
#include "framework-xla.h"
#include "probe-python-internal.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strmap.h"
#include "shared/strv.h"

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

/* ---- the framework table ----------------------------------------------------------------- */

enum {
	FW_REQUIRES_NVIDIA = 1 << 0, /* requires_nvidia[]: the Requires-Dist pins on nvidia-* */
};

struct fw_found;

/* One framework: where it lives in a site-packages and what is read the same way for every
 * framework (its dist-info, its site-packages, its GPU library); read() does the rest. */
struct fw_desc {
	const char *key;	 /* packages.<key> */
	const char *module;	 /* the package directory holding its compiled code */
	const char *also_module; /* another package directory that alone means it is there */
	const char *dists[9];	 /* its distributions' normalised names (PEP 503), NULL-ended;
				  * "x*" matches every name starting with x */
	const char *no_dist_why; /* dist_info's absent reason when there is no dist-info */
	unsigned flags;
	const char *version_file; /* below <site>/<module>: the module its build generated */
	const char *lib_dir;	/* below <site>/<module>: where its GPU library is (NULL: there) */
	const char *kernels[4]; /* that library's file names, in the order tried, NULL-ended */
	/* What read() takes from inside <module>/ ("a.b": key b of object a), NULL-ended: each
	 * carries the error when the directory cannot be looked at (fw_dir_unreadable()). */
	const char *dir_keys[12];
	int (*read)(const struct fw_found *f);
};

/* Where one framework was found in an environment's site-packages. */
struct fw_found {
	struct py_ctx *c;
	const struct fw_desc *fw;
	struct snap_node *obj; /* packages.<key> */
	const struct site *sites;
	size_t ns;
	const struct site *dir;	      /* the site holding <module>/, or NULL */
	const struct site *dist_site; /* the site holding its dist-info, or NULL */
	const char *dist;	      /* that dist-info's directory name */
};

/* kernel_library, arch_targets and loads from the framework's GPU library. */
static int fw_record_kernels(const struct fw_found *f)
{
	_cleanup_free_ char *base = path_join(f->dir->dir, f->fw->module), *dir = NULL;
	size_t n = 0;
	int r;

	if (!base)
		return -ENOMEM;
	dir = f->fw->lib_dir ? path_join(base, f->fw->lib_dir) : strdup(base);
	if (!dir)
		return -ENOMEM;
	while (f->fw->kernels[n])
		n++;
	r = py_record_kernels(f->c->pe, f->obj, dir, f->fw->kernels, n);
	return r < 0 ? r : py_record_loads(f->c, f->obj);
}

/* torch/version.py, the bundled libraries of torch/lib and the kernels of libtorch_cuda. */
static int read_torch(const struct fw_found *f)
{
	static const char *const vkeys[] = { "version", "cuda", "hip", "xpu", "git", "cpu_only" };
	struct probe_env *pe = f->c->pe;
	struct snap_node *t = f->obj;
	_cleanup_free_ char *dir = NULL, *vpath = NULL, *text = NULL, *lib = NULL, *xv = NULL;
	_cleanup_strv_free_ char **libs = NULL;
	struct snap_node *arr;
	bool xnone = false;
	int rc, rh, rx = 0, r;

	if (!f->dir) {
		snap_set_state(t, "version", FACT_ABSENT, f->dist_site->dir,
			       "no torch/ package directory");
		return 0;
	}
	dir = path_join(f->dir->dir, "torch");
	vpath = dir ? path_join(dir, f->fw->version_file) : NULL;
	lib = dir ? path_join(dir, "lib") : NULL;
	if (!vpath || !lib)
		return -ENOMEM;
	text = read_module(pe, t, vpath, vkeys, ARRAY_SIZE(vkeys));
	if (text) {
		r = record_assign(t, "version", text, vpath, "__version__");
		if (r == -ENOMEM)
			return r;
		if (r == 1)
			py_record_local_version(t, snap_get_str(t, "version"), vpath);
		rc = record_assign(t, "cuda", text, vpath, "cuda");
		rh = record_assign(t, "hip", text, vpath, "hip");
		/* XPU builds (torch 2.4 on): xpu = the SYCL compiler's version ('20250101');
		 * older version.py files have no such line, which says no XPU. */
		rx = pyfile_get_string(text, strlen(text), "xpu", &xv, &xnone);
		rx = rx == -ENOENT   ? 0
		     : rx == -ENOMEM ? -ENOMEM
				     : record_assign(t, "xpu", text, vpath, "xpu");
		r = record_assign(t, "git", text, vpath, "git_version");
		if (rc == -ENOMEM || rh == -ENOMEM || rx == -ENOMEM || r == -ENOMEM)
			return -ENOMEM;
		/* A CPU-only build: no CUDA, HIP or XPU version (torch.version). */
		if (rc >= 0 && rh >= 0 && rx >= 0)
			snap_set_bool(t, "cpu_only", rc == 0 && rh == 0 && rx == 0, vpath);
		else
			snap_set_malformed(t, "cpu_only", NULL, vpath,
					   "cuda, hip or xpu not readable from version.py");
	}
	py_record_distro_package(f->c, t, f->dir->dir, "torch");
	r = root_list_dir(pe->root, lib, MAX_SMALL_DIR, &libs);
	if (r < 0) {
		snap_set_errno(t, "lib_dir", r, lib);
		snap_set_errno(t, "kernel_library", r, lib);
		snap_set_errno(t, "arch_targets", r, lib);
		return r == -ENOMEM ? r : 0;
	}
	snap_set_str(t, "lib_dir", lib, lib);
	/* The XPU build's own library (torch/lib/libtorch_xpu.so), which needs Level Zero. */
	if (rx > 0 || strv_contains(libs, "libtorch_xpu.so")) {
		_cleanup_free_ char *xl = path_join(lib, "libtorch_xpu.so");

		if (!xl)
			return -ENOMEM;
		if (strv_contains(libs, "libtorch_xpu.so")) {
			snap_set_str(t, "xpu_library", xl, lib);
			/* an XPU build whose version.py predates the xpu line */
			snap_set_bool(t, "cpu_only", false, xl);
		} else
			snap_set_state(t, "xpu_library", FACT_ABSENT, lib, NULL);
	}
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
	return fw_record_kernels(f);
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

/* The cuDNN major TensorFlow dlopen()s: libcudnn.so.<TF_CUDNN_VERSION> (dso_loader.cc
 * GetCudnnDsoHandle()), the major of build_info's cudnn_version ("8"; Windows builds write
 * "64_8"), else of the release line's build in the knowledge base. */
static int tf_record_cudnn(const struct fw_found *f)
{
	const char *bv = snap_get_str(f->obj, "build_info.cudnn_version");
	const char *dv = snap_get_str(f->obj, "dist_version");
	const struct facts_tensorflow_build *b;
	const struct facts_tensorflow *t;
	unsigned major = 0;

	if (snap_get_bool_default(f->obj, "cpu_only", false) ||
	    snap_get_bool_default(f->obj, "build_info.is_rocm_build", false))
		return 0;
	if (bv && startswith(bv, "64_"))
		bv += 3;
	if (bv && *bv >= '1' && *bv <= '9')
		major = (unsigned)strtoul(bv, NULL, 10);
	else if (dv && facts_tensorflow_build(dv, &b) == 0)
		major = (unsigned)strtoul(b->cudnn, NULL, 10);
	else if (dv && facts_tensorflow_config(dv, &t) == 0 && t->cudnn)
		major = (unsigned)strtoul(t->cudnn, NULL, 10);
	if (!major) {
		snap_set_state(f->obj, "cudnn", FACT_ABSENT,
			       snap_source(snap_get(f->obj, "build_info")),
			       "the cuDNN major TensorFlow loads is unknown: no cudnn_version in "
			       "build_info and no known build for this release");
		return 0;
	}
	return py_record_cudnn_dlopen(f->c, f->obj, major);
}

/* tensorflow/python/platform/build_info.py (every form: pyfile_tf_build_info()) and the
 * kernels of libtensorflow_cc. */
static int read_tensorflow(const struct fw_found *f)
{
	static const char *const keys[] = {
		"cuda_version",	 "cudnn_version", "cuda_compute_capabilities",
		"is_cuda_build", "is_rocm_build", "is_tensorrt_build",
		"rocm_version"
	};
	struct probe_env *pe = f->c->pe;
	struct snap_node *t = f->obj, *bi;
	_cleanup_free_ char *dir = NULL, *bpath = NULL, *text = NULL;
	const char *form = NULL;
	struct pyval v;
	int r;

	if (!f->dir)
		return 0;
	dir = path_join(f->dir->dir, "tensorflow");
	bpath = dir ? path_join(dir, f->fw->version_file) : NULL;
	if (!bpath)
		return -ENOMEM;
	bi = snap_object(t, "build_info");
	r = root_read_text(pe->root, bpath, ROOT_CAP_TEXT, &text);
	if (r < 0) {
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			snap_set_errno(bi, keys[i], r, bpath);
		snap_set_errno(bi, "form", r, bpath);
		snap_set_errno(t, "cpu_only", r, bpath);
	} else if ((r = pyfile_tf_build_info(text, strlen(text), &v, &form)) < 0) {
		if (r == -ENOMEM)
			return r;
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			snap_set_malformed(
				bi, keys[i], text, bpath,
				"no `build_info = {…}` / OrderedDict([…]) literal and no "
				"TF 1.x is_cuda_build / cudnn_version_number variables");
		snap_set_malformed(bi, "form", NULL, bpath, "neither form");
		snap_set_malformed(t, "cpu_only", NULL, bpath, "build_info not readable");
	} else {
		const struct pyval *cu = pyval_dict_get(&v, "is_cuda_build");
		const struct pyval *ro = pyval_dict_get(&v, "is_rocm_build");
		bool module_vars = streq(form, "module-variables");

		snap_set_str(bi, "form", form, bpath);
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			record_pyval(bi, keys[i], pyval_dict_get(&v, keys[i]), bpath);
		/* TF 1.x before ROCm support wrote no is_rocm_build: not a ROCm build. */
		if (cu && cu->kind == PYVAL_BOOL && module_vars && !ro)
			snap_set_bool(t, "cpu_only", streq(cu->text, "False"), bpath);
		else if (cu && ro && cu->kind == PYVAL_BOOL && ro->kind == PYVAL_BOOL)
			snap_set_bool(t, "cpu_only",
				      streq(cu->text, "False") && streq(ro->text, "False"), bpath);
		else
			snap_set_malformed(t, "cpu_only", NULL, bpath,
					   "build_info lacks is_cuda_build / is_rocm_build");
		pyval_done(&v);
	}
	r = fw_record_kernels(f);
	if (r >= 0)
		r = tf_record_cudnn(f);
	/* A CUDA build's XLA compiles kernels at run time: where it finds libdevice and ptxas. */
	if (r >= 0 && !snap_get_bool_default(t, "cpu_only", true) &&
	    !snap_get_bool_default(t, "build_info.is_rocm_build", false))
		r = probe_xla_toolchain_tf(pe, t, f->dir->dir,
					   snap_get_str(t, "build_info.cuda_version"));
	return r;
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

/* A conda jaxlib's package record (conda-meta/jaxlib-<v>-<build>.json, probe_conda()): its
 * node, or NULL. conda-forge's CUDA builds have build strings "cuda120py311h5a49573_202", its
 * CPU builds "cpu_py311h…" (conda-forge/jaxlib-feedstock recipe, cuda_compiler_version's
 * variants); XLA's CUDA backend is then inside jaxlib itself, no plugin beside it before the
 * feedstock's pull request #288. */
static const struct snap_node *conda_jaxlib(const struct snap_node *env)
{
	const struct snap_node *pk = snap_child(env, "conda_packages");

	for (size_t i = 0; i < snap_count(pk); i++)
		if (streq(snap_get_str(snap_at(pk, i), "name") ?: "", "jaxlib"))
			return snap_at(pk, i);
	return NULL;
}

/* jax/version.py, jaxlib (its version.py and dist-info) and the CUDA/ROCm plugins. */
static int read_jax(const struct fw_found *f)
{
	static const char *const jaxlib_dists[] = { "jaxlib", NULL };
	struct py_ctx *c = f->c;
	struct probe_env *pe = c->pe;
	const struct site *sites = f->sites;
	size_t ns = f->ns, si = 0, di = 0;
	const char *dist = NULL;
	int jax_err = 0;
	bool has_jax = py_find_pkg_dir(pe, sites, ns, "jax", &si, &jax_err);
	struct snap_node *j = f->obj, *plugins;
	bool any_plugin = false, any_cuda_plugin = false, lib_cuda = false, lib_nvidia = false,
	     conda_cuda;
	const struct snap_node *cj;
	const char *cbuild;
	_cleanup_free_ char *local = NULL;
	int r;

	/* Where jax is: its package directory, else its dist-info. */
	if (!has_jax && f->dist_site) {
		si = (size_t)(f->dist_site - sites);
		has_jax = true;
	}
	if (has_jax && jax_err < 0) {
		_cleanup_free_ char *jd = path_join(sites[si].dir, "jax");

		snap_set_errno(j, "version", jax_err, jd ?: sites[si].dir);
	} else if (has_jax && py_site_has(&sites[si], "jax") &&
		   (r = record_jax_version(pe, j, "version", sites[si].dir, "jax")) < 0) {
		return r;
	}
	if (f->dir) {
		r = record_jax_version(pe, j, "jaxlib_version", f->dir->dir, "jaxlib");
		if (r < 0)
			return r;
	} else
		snap_set_state(j, "jaxlib_version", FACT_ABSENT, sites[si].dir,
			       "no jaxlib/ package");
	if (py_find_dist(sites, ns, jaxlib_dists, &di, &dist)) {
		_cleanup_free_ char *dpath = path_join(sites[di].dir, dist);
		struct dist_metadata *m =
			py_read_metadata(pe, j, "jaxlib_dist_version", sites[di].dir, dist);

		/* jaxlib <= 0.4.x CUDA wheels: "0.4.9+cuda11.cudnn86". */
		if (m && strchr(m->version, '+')) {
			snap_set_str(j, "jaxlib_local_version", strchr(m->version, '+') + 1, dpath);
			local = strdup(strchr(m->version, '+') + 1);
			if (!local) {
				dist_metadata_free(m);
				return -ENOMEM;
			}
			lib_nvidia = startswith(strchr(m->version, '+') + 1, "cuda");
			lib_cuda = lib_nvidia || startswith(strchr(m->version, '+') + 1, "rocm");
		}
		dist_metadata_free(m);
	}
	/* A jaxlib CUDA wheel holds XLA in jaxlib/xla_extension.so and its own kernels beside it
	 * (framework-coverage.c). */
	if (lib_nvidia && f->dir) {
		_cleanup_free_ char *jd = path_join(f->dir->dir, "jaxlib");

		if (!jd)
			return -ENOMEM;
		r = py_record_kernels(pe, j, jd, (const char *const[]){ "xla_extension.so" }, 1);
		if (r < 0)
			return r;
	}
	/* The CUDA/ROCm plugins: one entry per platform and major (cuda12, cuda13, rocm6 …). */
	plugins = snap_array(j, "plugins");
	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH_CONST(n, sites[i].names) {
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
			any_cuda_plugin |= streq(platform, "cuda");
			dpath = path_join(sites[i].dir, *n);
			if (!dpath)
				return -ENOMEM;
			m = py_read_metadata(pe, pl, pjrt ? "pjrt_version" : "plugin_version",
					     sites[i].dir, *n);
			if (m) {
				snap_set_str(pl, pjrt ? "pjrt" : "plugin", m->name, dpath);
				if (!pjrt)
					py_record_requires_nvidia(pl, m, dpath);
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
				r = py_record_kernels(pe, pl, pdir, cands, 1);
				if (r >= 0)
					r = py_record_loads(c, pl);
				if (r < 0)
					return r;
			}
		}
	cj = conda_jaxlib(c->env);
	cbuild = snap_get_str(cj, "build");
	conda_cuda = cbuild && startswith(cbuild, "cuda");
	if (conda_cuda)
		snap_set_str(j, "jaxlib_conda_build", cbuild, snap_source(snap_child(cj, "build")));
	snap_set_bool(j, "cpu_only", !any_plugin && !lib_cuda && !conda_cuda,
		      conda_cuda ? snap_source(snap_child(cj, "build")) : "jax plugin dist-info");
	/* A CUDA jax compiles its kernels at run time: where XLA finds libdevice and ptxas. */
	if (any_cuda_plugin || lib_nvidia || conda_cuda)
		return probe_xla_toolchain(pe, j, c->sites, local,
					   cj ? snap_get_str(cj, "version") : NULL);
	return 0;
}

/* CuPy's extension modules that `import cupy` does not load: each is imported on first use
 * (cupy/cuda/__init__.py's __getattr__ imports cupy_backends.cuda.libs.cublas … on demand,
 * cupy/cupy#8446) and links its own CUDA library, so one the loader does not find fails that
 * call, not the import. install/cupy_builder/_features.py: the "cusolver" feature builds
 * cupy_backends.cuda.libs.cusolver and cupyx.cusolver with -lcusolver, "random"
 * cupy.random._bit_generator with -lcurand; the "cuda" feature cupy.cuda.cufft and
 * cupy_backends.cuda.libs.{cublas,curand,cusparse,nvrtc}. cupy/cuda/ held them all before
 * cupy_backends (CuPy 8). A bounded list: one listing per directory. */
static const struct {
	const char *dir, *stem, *module;
} cupy_modules[] = {
	{ "cupy_backends/cuda/libs", "cusolver", "cupy_backends.cuda.libs.cusolver" },
	{ "cupy_backends/cuda/libs", "cublas", "cupy_backends.cuda.libs.cublas" },
	{ "cupy_backends/cuda/libs", "cusparse", "cupy_backends.cuda.libs.cusparse" },
	{ "cupy_backends/cuda/libs", "curand", "cupy_backends.cuda.libs.curand" },
	{ "cupy_backends/cuda/libs", "nvrtc", "cupy_backends.cuda.libs.nvrtc" },
	{ "cupyx", "cusolver", "cupyx.cusolver" },
	{ "cupy/cuda", "cufft", "cupy.cuda.cufft" },
	{ "cupy/cuda", "cusolver", "cupy.cuda.cusolver" },
	{ "cupy/random", "_bit_generator", "cupy.random._bit_generator" },
};

static int read_cupy_modules(const struct fw_found *f)
{
	struct snap_node *missing = snap_array(f->obj, "module_missing");
	const char *listed = NULL;
	_cleanup_strv_free_ char **names = NULL;
	int r = 0;

	if (!f->c->loader && (r = probe_loader(f->c->pe, &f->c->loader)) < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(cupy_modules); i++) {
		_cleanup_free_ char *dir = NULL;
		size_t n = strlen(cupy_modules[i].stem);

		if (asprintf(&dir, "%s/%s", f->dir->dir, cupy_modules[i].dir) < 0)
			return -ENOMEM;
		if (!listed || !streq(listed, cupy_modules[i].dir)) {
			strv_free(names);
			names = NULL;
			listed = cupy_modules[i].dir;
			r = root_list_dir(f->c->pe->root, dir, MAX_SMALL_DIR, &names);
			if (r == -ENOMEM)
				return r;
			if (r < 0 && r != -ENOENT) {
				struct snap_node *o = snap_append_object(missing);

				snap_set_str(o, "module", cupy_modules[i].module, dir);
				snap_set_errno(o, "name", r, dir);
			}
		}
		STRV_FOREACH(nm, names) {
			_cleanup_free_ char *p = NULL;

			/* <stem>.<PEP 3149 tag>.so, or <stem>.so */
			if (strncmp(*nm, cupy_modules[i].stem, n) != 0 || (*nm)[n] != '.' ||
			    !streq(*nm + strlen(*nm) - 3, ".so"))
				continue;
			if (!(p = path_join(dir, *nm)))
				return -ENOMEM;
			r = probe_module_needed_missing(f->c->loader, missing,
							cupy_modules[i].module, p);
			if (r >= 0)
				r = probe_module_siblings(f->c->loader, f->obj,
							  cupy_modules[i].module, p,
							  snap_child(f->obj, "loads"));
			if (r < 0)
				return r;
			break;
		}
	}
	return 0;
}

/* The extension whose DT_NEEDED entries `import cupy` needs: every module of CuPy's "cuda"
 * feature, cupy._core.core among them, is linked with the same CUDA libraries
 * (install/cupy_builder/_features.py; the link line in cupy/cupy#4443: -lcublas -lcuda
 * -lcudart -lcufft -lcurand -lcusparse -lnvrtc), and `import cupy` imports core first.
 * cupy/_core/ since CuPy 9, cupy/core/ before; the file name carries the interpreter's
 * tag (core.cpython-310-x86_64-linux-gnu.so, PEP 3149). Recorded as kernel_library (CuPy
 * compiles its kernels at run time: no arch_targets), with loads and needed_missing. */
static int read_cupy_core(const struct fw_found *f)
{
	static const char *const subdirs[] = { "_core", "core" };
	struct snap_node *cp = f->obj;
	_cleanup_free_ char *first = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(subdirs); i++) {
		_cleanup_free_ char *dir = NULL;
		_cleanup_strv_free_ char **names = NULL;
		int r;

		if (asprintf(&dir, "%s/cupy/%s", f->dir->dir, subdirs[i]) < 0)
			return -ENOMEM;
		r = root_list_dir(f->c->pe->root, dir, MAX_SMALL_DIR, &names);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			snap_set_errno(cp, "kernel_library", r, dir);
			snap_set_errno(cp, "loads", r, dir);
			return r == -ENOMEM ? r : 0;
		}
		STRV_FOREACH(n, names)
			if (startswith(*n, "core.") && strlen(*n) > strlen("core.so") &&
			    streq(*n + strlen(*n) - 3, ".so")) {
				_cleanup_free_ char *p = path_join(dir, *n);

				if (!p)
					return -ENOMEM;
				snap_set_str(snap_object(cp, "kernel_library"), "path", p, p);
				r = py_record_loads(f->c, cp);
				return r < 0 ? r : read_cupy_modules(f);
			}
		if (!first && !(first = strdup(dir)))
			return -ENOMEM;
	}
	snap_set_state(cp, "kernel_library", FACT_ABSENT, first ?: f->dir->dir,
		       "no cupy/_core/core.*.so or cupy/core/core.*.so");
	return py_record_loads(f->c, cp);
}

/* Every cupy distribution, cupy/_version.py and cupy/.data/_wheel.json. */
static int read_cupy(const struct fw_found *f)
{
	struct probe_env *pe = f->c->pe;
	const struct site *sites = f->sites;
	size_t ns = f->ns;
	_cleanup_free_ char *vpath = NULL, *wpath = NULL, *text = NULL;
	struct snap_node *cp = f->obj, *dists;
	int r;

	/* Every cupy distribution: two at once (cupy-cuda11x + cupy-cuda12x) share cupy/. */
	dists = snap_array(cp, "dists");
	for (size_t i = 0; i < ns; i++)
		STRV_FOREACH_CONST(n, sites[i].names) {
			_cleanup_free_ char *name = NULL, *ver = NULL;
			char norm[64];
			struct snap_node *d;
			struct dist_metadata *m;

			if (dist_dirname_split(*n, &name, &ver) < 0)
				continue;
			dist_name_normalize(name, norm, sizeof(norm));
			if (!py_dist_matches(f->fw->dists, norm))
				continue;
			d = snap_append_object(dists);
			m = py_read_metadata(pe, d, "dist_version", sites[i].dir, *n);
			if (m) {
				_cleanup_free_ char *dp = path_join(sites[i].dir, *n);

				snap_set_str(d, "dist_name", m->name, dp);
			}
			dist_metadata_free(m);
		}
	if (!f->dir)
		return 0;
	if (asprintf(&vpath, "%s/cupy/%s", f->dir->dir, f->fw->version_file) < 0 ||
	    asprintf(&wpath, "%s/cupy/.data/_wheel.json", f->dir->dir) < 0)
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
	return read_cupy_core(f);
}

/* numba, numba-cuda, Warp, cuda-python: what they load is opened by name at run time
 * (probe-python-dlopen.c), from their release (dist_version); nothing else of theirs is read. */
static int read_dist_only(const struct fw_found *f)
{
	(void)f;
	return 0;
}

/* numba: where its CUDA target finds libNVVM (framework-numba.c). */
static int read_numba(const struct fw_found *f)
{
	return py_probe_numba_nvvm(f->c, f->obj);
}

/* clang-format off */
static const struct fw_desc frameworks[] = {
	{ .key = "torch", .module = "torch", .dists = { "torch" },
	  .no_dist_why = "no torch-*.dist-info",
	  .flags = FW_REQUIRES_NVIDIA,
	  .version_file = "version.py",
	  .lib_dir = "lib",
	  .kernels = { "libtorch_cuda.so", "libtorch_cuda_cu.so", "libtorch_hip.so" },
	  .dir_keys = { "version", "cuda", "hip", "git", "cpu_only", "lib_dir", "kernel_library",
			"arch_targets", "loads" },
	  .read = read_torch },
	{ .key = "tensorflow", .module = "tensorflow",
	  .dists = { "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel",
		     "tensorflow-rocm", "tf-nightly", "tf-nightly-cpu", "tf-nightly-gpu" },
	  .no_dist_why = "no tensorflow*.dist-info",
	  .flags = FW_REQUIRES_NVIDIA,
	  .version_file = "python/platform/build_info.py",
	  .kernels = { "libtensorflow_cc.so.2", "python/_pywrap_tensorflow_internal.so",
		       "libtensorflow_framework.so.2" },
	  .dir_keys = { "build_info.cuda_version", "build_info.cudnn_version",
			"build_info.cuda_compute_capabilities", "build_info.is_cuda_build",
			"build_info.is_rocm_build", "build_info.is_tensorrt_build",
			"build_info.rocm_version", "cpu_only", "kernel_library", "arch_targets",
			"loads" },
	  .read = read_tensorflow },
	/* jaxlib holds the compiled code; the GPU kernels are in the plugins (read_jax()). */
	{ .key = "jax", .module = "jaxlib", .also_module = "jax", .dists = { "jax" },
	  .no_dist_why = "no jax-*.dist-info",
	  .version_file = "version.py", /* jaxlib's; jax/version.py too */
	  /* the plugins are read only after jaxlib/ (read_jax()): unread with it */
	  .dir_keys = { "jaxlib_version", "cpu_only", "plugins" },
	  .read = read_jax },
	{ .key = "cupy", .module = "cupy", .dists = { "cupy", "cupy-cuda*", "cupy-rocm*" },
	  .no_dist_why = "no cupy*.dist-info",
	  .version_file = "_version.py",
	  .dir_keys = { "version", "wheel_json", "kernel_library", "loads", "module_missing" },
	  .read = read_cupy },
	{ .key = "numba", .module = "numba", .dists = { "numba" },
	  .no_dist_why = "no numba-*.dist-info",
	  .read = read_numba },
	{ .key = "warp", .module = "warp", .dists = { "warp-lang" },
	  .no_dist_why = "no warp_lang-*.dist-info",
	  .read = read_dist_only },
	/* NVIDIA's numba-cuda: numba's CUDA target as its own distribution (numba_cuda/numba/cuda,
	 * which `numba.cuda` imports once it is installed: NVIDIA/numba-cuda README) */
	{ .key = "numba_cuda", .module = "numba_cuda", .dists = { "numba-cuda" },
	  .no_dist_why = "no numba_cuda-*.dist-info",
	  .read = read_dist_only },
	/* cuda-python: the metapackage of cuda-bindings (cuda/bindings), the driver and runtime
	 * APIs as Python modules; the dist-info alone says it (cuda/ is a namespace package) */
	{ .key = "cuda_python", .module = "cuda/bindings", .dists = { "cuda-python",
								      "cuda-bindings" },
	  .no_dist_why = "no cuda_python-*.dist-info or cuda_bindings-*.dist-info",
	  .read = read_dist_only },
	/* Intel's XPU stack: intel-extension-for-pytorch, and the oneAPI runtime wheels torch's
	 * XPU builds depend on (their METADATA Requires-Dist). */
	{ .key = "ipex", .module = "intel_extension_for_pytorch",
	  .dists = { "intel-extension-for-pytorch" },
	  .no_dist_why = "no intel_extension_for_pytorch-*.dist-info",
	  .read = read_dist_only },
	{ .key = "intel_sycl_rt", .module = "intel_sycl_rt", .dists = { "intel-sycl-rt" },
	  .no_dist_why = "no intel_sycl_rt-*.dist-info",
	  .read = read_dist_only },
	{ .key = "intel_cmplr_lib_rt", .module = "intel_cmplr_lib_rt",
	  .dists = { "intel-cmplr-lib-rt" },
	  .no_dist_why = "no intel_cmplr_lib_rt-*.dist-info",
	  .read = read_dist_only },
	{ .key = "dpcpp_cpp_rt", .module = "dpcpp_cpp_rt", .dists = { "dpcpp-cpp-rt" },
	  .no_dist_why = "no dpcpp_cpp_rt-*.dist-info",
	  .read = read_dist_only },
};
/* clang-format on */

/* The package directory is listed in its site-packages but cannot be looked at: every fact
 * read() takes from inside it carries the error, with the directory as source, so that the
 * framework is "could not read", never gone (and the rules that need them skip, naming it). */
static void fw_dir_unreadable(const struct fw_found *f, int err)
{
	_cleanup_free_ char *dir = path_join(f->dir->dir, f->fw->module);

	if (!dir)
		return;
	snap_set_errno(f->obj, "package_dir", err, dir);
	for (size_t i = 0; i < ARRAY_SIZE(f->fw->dir_keys) && f->fw->dir_keys[i]; i++) {
		const char *k = f->fw->dir_keys[i], *dot = strchr(k, '.');
		char head[32];

		if (!dot) {
			snap_set_errno(f->obj, k, err, dir);
			continue;
		}
		snprintf(head, sizeof(head), "%.*s", (int)(dot - k), k);
		snap_set_errno(snap_object(f->obj, head), dot + 1, err, dir);
	}
}

/* One framework of the table, when its package directory or a dist-info is there. */
static int probe_framework(struct py_ctx *c, struct snap_node *pkgs, const struct site *sites,
			   size_t ns, const struct fw_desc *fw)
{
	struct fw_found f = { .c = c, .fw = fw, .sites = sites, .ns = ns };
	size_t si = 0, di = 0, ai = 0;
	int dir_err = 0, also_err = 0;
	bool has_dir = py_find_pkg_dir(c->pe, sites, ns, fw->module, &si, &dir_err);
	bool has_dist = py_find_dist(sites, ns, fw->dists, &di, &f.dist);
	struct dist_metadata *m;

	if (!has_dir && !has_dist &&
	    !(fw->also_module &&
	      py_find_pkg_dir(c->pe, sites, ns, fw->also_module, &ai, &also_err)))
		return 0;
	f.obj = snap_object(pkgs, fw->key);
	f.dir = has_dir ? &sites[si] : NULL;
	f.dist_site = has_dist ? &sites[di] : NULL;
	/* The same keys for every framework: dist_info, dist_name, dist_version (METADATA). */
	if (has_dist) {
		_cleanup_free_ char *dpath = path_join(sites[di].dir, f.dist);

		if (!dpath)
			return -ENOMEM;
		snap_set_str(f.obj, "dist_info", dpath, dpath);
		m = py_read_metadata(c->pe, f.obj, "dist_version", sites[di].dir, f.dist);
		if (m)
			snap_set_str(f.obj, "dist_name", m->name, dpath);
		if (m && (fw->flags & FW_REQUIRES_NVIDIA))
			py_record_requires_nvidia(f.obj, m, dpath);
		dist_metadata_free(m);
	} else {
		snap_set_state(f.obj, "dist_info", FACT_ABSENT,
			       has_dir ? sites[si].dir : sites[ai].dir, fw->no_dist_why);
	}
	if (has_dir)
		snap_set_str(f.obj, "site_packages", sites[si].dir, sites[si].dir);
	if (dir_err < 0) {
		fw_dir_unreadable(&f, dir_err);
		return 0;
	}
	return fw->read(&f);
}

int py_probe_frameworks(struct py_ctx *c, struct snap_node *pkgs, const struct site *sites,
			size_t ns)
{
	for (size_t i = 0; i < ARRAY_SIZE(frameworks); i++) {
		int r = probe_framework(c, pkgs, sites, ns, &frameworks[i]);

		if (r < 0)
			return r;
	}
	return 0;
}
