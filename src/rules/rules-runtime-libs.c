// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.library-not-found: a GPU library a framework's process needs, by DT_NEEDED of its
 * own library (ImportError: "<soname>: cannot open shared object file") or by a name it
 * dlopen()s (TensorFlow's dso_loader "Could not load dynamic library", numba's
 * CudaSupportError, Warp's "Could not open libcuda.so", CuPy's "CuPy failed to load
 * libnvrtc.so.12"), resolves nowhere on that process's loader path. Reads each framework's
 * not_found[] (probe-python-dlopen.c: the names of framework_dlopen.tsv and needed_missing[],
 * with the copies found elsewhere and where) and says why each copy is not found.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strbuf.h"

/* Why the loader does not search a copy's place, and the fix that makes it search there. */
static const char *copy_why(const char *where)
{
	if (streq(where, "PATH"))
		return "its directory is on PATH, which the dynamic loader never searches "
		       "(LD_LIBRARY_PATH is the loader's list)";
	if (streq(where, "conda env lib"))
		return "a conda environment's lib/, on the loader path only while that "
		       "environment is active and sets LD_LIBRARY_PATH";
	if (streq(where, "CUDA toolkit"))
		return "a CUDA toolkit's library directory that is neither on LD_LIBRARY_PATH "
		       "nor in /etc/ld.so.conf.d";
	if (streq(where, "ld.so.conf"))
		return "/etc/ld.so.conf(.d) lists its directory, but /etc/ld.so.cache does not "
		       "hold it: ldconfig was not run after it was installed (the loader reads "
		       "only the cache)";
	if (streq(where, "pip wheel"))
		return "an nvidia-* pip wheel's directory, which this release does not search";
	if (streq(where, "versioned only"))
		return "only the versioned libcuda.so.1 is installed: the unversioned libcuda.so "
		       "link comes with development packages";
	return "not on the loader's search path";
}

static void copy_fix(struct finding *f, const struct snap_node *copy, const char *fw_key)
{
	const char *where = snap_get_str(copy, "where") ?: "";
	const char *dir = snap_get_str(copy, "dir") ?: "?";

	if (streq(where, "ld.so.conf")) {
		finding_fix(f, "sudo ldconfig   # rebuild /etc/ld.so.cache from /etc/ld.so.conf.d");
	} else if (streq(where, "CUDA toolkit")) {
		finding_fix(f,
			    "echo %s | sudo tee /etc/ld.so.conf.d/cuda.conf && sudo ldconfig   # "
			    "or add it to LD_LIBRARY_PATH",
			    dir);
	} else if (streq(where, "versioned only")) {
		if (streq(fw_key, "warp"))
			finding_fix(f, "pip install -U 'warp-lang>=0.8'   # Warp 0.8 and later "
				       "also try libcuda.so.1");
		finding_fix(f,
			    "sudo ln -s libcuda.so.1 %s/libcuda.so   # the link a development "
			    "package would install",
			    streq(dir, "(ld.so.cache)") ? "/usr/lib/x86_64-linux-gnu" : dir);
	} else if (streq(where, "conda env lib")) {
		char prefix[512];
		size_t n = strlen(dir);

		snprintf(prefix, sizeof(prefix), "%.*s", n > 4 ? (int)(n - 4) : (int)n, dir);
		finding_fix(
			f,
			"conda activate %s && mkdir -p $CONDA_PREFIX/etc/conda/activate.d && "
			"echo 'export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH' > "
			"$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh   # then deactivate and "
			"activate again",
			prefix);
	} else {
		finding_fix(f, "export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",
			    dir);
	}
}

/* No copy anywhere: install it where the framework looks. only_cudnn: every missing name is
 * a cuDNN one, so the CUDA libraries are there and only cuDNN is to install
 * (tensorflow/tensorflow#44040: libcudart.so.10.1 opened, libcudnn.so.7 not). */
static void install_fix(struct finding *f, const struct snap_node *root, const char *fw_key,
			const struct snap_node *pkg, const char *name, bool only_cudnn,
			bool any_cudnn)
{
	const char *ver = snap_get_str(pkg, "dist_version") ?: "<version>";
	const struct facts_tensorflow *tf = NULL;

	if (startswith(name, "libcuda.so")) {
		distro_fix(f, root, FIX_INSTALL_DRIVER, NULL);
		return;
	}
	if (streq(fw_key, "tensorflow") && facts_tensorflow_config(ver, &tf) == 0) {
		if (version_cmp_str(ver, "2.15") >= 0)
			finding_fix(f,
				    "pip install 'tensorflow[and-cuda]==%s'   # the CUDA %s "
				    "libraries as nvidia-* wheels, found through its RUNPATH",
				    ver, tf->cuda);
		else if (!only_cudnn)
			distro_fix(f, root, FIX_CUDA_LIBRARIES, tf->cuda);
		if (any_cudnn)
			finding_fix(f,
				    "# cuDNN %s for CUDA %s (TensorFlow %s's tested "
				    "configuration), with its directory on the loader path",
				    tf->cudnn, tf->cuda, ver);
		return;
	}
	if (streq(fw_key, "cupy") && startswith(name, "libnvrtc.so.12")) {
		finding_fix(f,
			    "pip install nvidia-cuda-nvrtc-cu12   # then its nvidia/cuda_nvrtc/lib "
			    "on LD_LIBRARY_PATH, or a CUDA 12 toolkit's lib64");
		return;
	}
	/* cupy-cuda11x opens CUDA 11.2+'s NVRTC whatever toolkit is installed: on a machine
	 * moved to CUDA 12 the wheel for CUDA 12 is the fix (BLAST-WarpX/warpx#4621) */
	if (streq(fw_key, "cupy") && startswith(name, "libnvrtc.so.11")) {
		finding_fix(f,
			    "pip install nvidia-cuda-nvrtc-cu11   # then its nvidia/cuda_nvrtc/lib "
			    "on LD_LIBRARY_PATH, or a CUDA 11.2+ toolkit's lib64");
		finding_fix(f,
			    "# or, where CUDA 12 is what is installed: pip uninstall cupy-cuda11x "
			    "&& pip install cupy-cuda12x");
		return;
	}
	finding_fix(f,
		    "# install the CUDA library that provides %s and put its directory on the "
		    "loader path",
		    name);
}

struct nf_ctx {
	struct rule_ctx *c;
	const struct snap_node *root;
};

/* Is this not_found[] entry left to the driver rules (no libcuda anywhere, no driver here)? */
static bool driver_missing(const struct nf_ctx *x, const struct snap_node *e)
{
	const char *version = NULL;
	const struct snap_node *fact = NULL;

	return startswith(snap_get_str(e, "name") ?: "", "libcuda.so") &&
	       snap_count(snap_child(e, "copies")) == 0 &&
	       nvidia_driver(x->root, &version, &fact) != DRIVER_LOADED;
}

/* One finding per framework: every name it cannot load, and each place a copy lies (once per
 * directory: a conda env's lib/ holds the whole toolkit). */
/* The message the framework prints when it cannot load `name` (each framework's own wording:
 * TensorFlow's dso_loader.cc, the ImportError of a DT_NEEDED library, numba's
 * CudaSupportError, Warp's cuda_util.cpp, CuPy's and the JAX plugin's load errors). CuPy's
 * own "CuPy failed to load" is its run-time load (cupy/cupy#8317); a library its extension
 * links fails the import itself (cupy/cupy#7772: "ImportError: libcudart.so.12: …"). */
static void missing_symptom(struct finding *f, const char *fw_key, const char *name, bool by_name)
{
	static const char no_file[] = "cannot open shared object file: No such file or directory";

	if (streq(fw_key, "tensorflow"))
		finding_symptom(f, "Could not load dynamic library '%s'; dlerror: %s: %s", name,
				name, no_file);
	else if (streq(fw_key, "numba"))
		finding_symptom(f, "numba.cuda.cudadrv.error.CudaSupportError: … %s: %s", name,
				no_file);
	else if (streq(fw_key, "warp"))
		finding_symptom(f, "Warp CUDA error: Could not open %s.", name);
	else if (streq(fw_key, "cupy") && by_name)
		finding_symptom(f, "CuPy failed to load %s: OSError: %s: %s", name, name, no_file);
	else
		finding_symptom(f, "ImportError: %s: %s", name, no_file);
}

static void judge_pkg(struct nf_ctx *x, const struct snap_node *env, const char *key,
		      const char *fw_key, const struct snap_node *pkg, const char *label)
{
	const struct snap_node *nf = snap_child(pkg, "not_found");
	const struct snap_node *nm = snap_child(pkg, "needed_missing");
	const char *llp = snap_get_str(x->root, "environment.LD_LIBRARY_PATH");
	struct strbuf names = STRBUF_INIT, where = STRBUF_INIT;
	const struct snap_node *first = NULL, *fix_copies[8];
	const char *dirs[8];
	size_t n_names = 0, n_dirs = 0;
	bool dl = false, dt = false, unconfirmed = false, only_cudnn = true, any_cudnn = false;
	struct finding *f;
	char subject[256], lp[256];

	snprintf(subject, sizeof(subject), "%s (%s)", label, snap_get_str(env, "prefix") ?: "?");
	if (nm && fact_is_failure(snap_state(nm)))
		rule_need(x->c, subject, "the GPU libraries the framework's library needs", nm);
	if (fact_is_failure(snap_state(snap_child(pkg, "dlopen"))))
		rule_need(x->c, subject, "the libraries the framework opens by name",
			  snap_child(pkg, "dlopen"));
	for (size_t i = 0; i < snap_count(nf); i++) {
		const struct snap_node *e = snap_at(nf, i);
		const struct snap_node *copies = snap_child(e, "copies");
		bool is_dl = streq(snap_get_str(e, "request") ?: "", "dlopen");

		if (driver_missing(x, e))
			continue;
		first = first ?: e;
		only_cudnn &= startswith(snap_get_str(e, "name") ?: "", "libcudnn");
		any_cudnn |= startswith(snap_get_str(e, "name") ?: "", "libcudnn");
		unconfirmed |= snap_get_bool_default(e, "unconfirmed", false);
		dl |= is_dl;
		dt |= !is_dl;
		/* "libcuda.so|libcuda.so.1" (tried in order) reads "libcuda.so or libcuda.so.1". */
		strbuf_printf(&names, "%s", n_names++ ? ", " : "");
		for (const char *p = snap_get_str(e, is_dl ? "names" : "name") ?: "?"; *p; p++)
			if (*p == '|')
				strbuf_printf(&names, " or ");
			else
				strbuf_printf(&names, "%c", *p);
		for (size_t k = 0; k < snap_count(copies); k++) {
			const struct snap_node *cp = snap_at(copies, k);
			const char *dir = snap_get_str(cp, "dir") ?: "?";
			bool seen = false;

			for (size_t d = 0; d < n_dirs; d++)
				seen |= streq(dirs[d], dir);
			if (seen || n_dirs == ARRAY_SIZE(dirs))
				continue;
			dirs[n_dirs] = dir;
			fix_copies[n_dirs++] = cp;
			strbuf_printf(&where, "; %s is in %s: %s", snap_get_str(cp, "path") ?: "?",
				      dir, copy_why(snap_get_str(cp, "where") ?: ""));
		}
	}
	if (!first)
		goto out;
	snprintf(lp, sizeof(lp), "%s%.200s%s", llp ? "LD_LIBRARY_PATH=" : "LD_LIBRARY_PATH unset",
		 llp ?: "", llp && strlen(llp) > 200 ? "…" : "");
	f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, subject,
			 "%s cannot load %s (%s%s%s): the dynamic loader finds %s nowhere on this "
			 "process's path (%s%s, /etc/ld.so.cache, the system directories)%s%s",
			 label, names.len ? strbuf_str(&names) : "?", dl ? "opened by name" : "",
			 dl && dt ? ", " : "", dt ? "DT_NEEDED" : "", n_names > 1 ? "them" : "it",
			 dt ? "the library's RUNPATH, " : "", lp,
			 n_dirs ? strbuf_str(&where) : "; no copy was found on this machine",
			 unconfirmed ? " (the names this release opens are unconfirmed in the "
				       "knowledge base)"
				     : "");
	if (!f)
		goto out;
	for (size_t i = 0; i < snap_count(nf); i++) {
		const struct snap_node *e = snap_at(nf, i);
		char ek[160];

		if (driver_missing(x, e))
			continue;
		snprintf(ek, sizeof(ek), "%s.not_found.%zu", key, i);
		finding_evidence(f, ek, snap_source(snap_child(e, "name")) ?: "ld.so search",
				 "%s (%s)", snap_get_str(e, "names") ?: "?",
				 snap_get_str(e, "request") ?: "?");
	}
	finding_fact(f, "environment.LD_LIBRARY_PATH",
		     snap_get(x->root, "environment.LD_LIBRARY_PATH"));
	missing_symptom(f, fw_key, snap_get_str(first, "name") ?: "?",
			streq(snap_get_str(first, "request") ?: "", "dlopen"));
	for (size_t d = 0; d < n_dirs; d++)
		copy_fix(f, fix_copies[d], fw_key);
	if (n_dirs == 0)
		install_fix(f, x->root, fw_key, pkg, snap_get_str(first, "name") ?: "?", only_cudnn,
			    any_cudnn);
	finding_verify(f, "python3 -c 'import ctypes; ctypes.CDLL(\"%s\")'   # no OSError",
		       snap_get_str(first, "name") ?: "?");
	finding_rule_verify(f);
out:
	strbuf_done(&names);
	strbuf_done(&where);
}

/* What stops working when a CuPy module cannot be imported (install/cupy_builder/_features.py
 * for which module links which library; CuPy's docs "Installation": cuSOLVER for
 * cupy.linalg, cuFFT for cupy.fft, cuRAND for cupy.random, cuSPARSE for cupyx.scipy.sparse,
 * NVRTC for compiling its kernels). */
static const char *cupy_module_use(const char *module)
{
	static const struct {
		const char *stem, *use;
	} uses[] = {
		{ "cusolver", "cupy.linalg" },
		{ "cublas", "cupy.matmul, cupy.dot and cupy.linalg" },
		{ "cusparse", "cupyx.scipy.sparse" },
		{ "curand", "cupy.random" },
		{ "_bit_generator", "cupy.random" },
		{ "nvrtc", "compiling CuPy's kernels" },
		{ "cufft", "cupy.fft" },
	};
	const char *last = strrchr(module, '.');

	for (size_t i = 0; i < ARRAY_SIZE(uses); i++)
		if (last && streq(last + 1, uses[i].stem))
			return uses[i].use;
	return module;
}

/* The NVIDIA pip wheel that ships a CUDA library (the wheels' names on PyPI, as torch's and
 * JAX's cuda*_pip requirements list them: nvidia-cusolver-cu11/-cu12 …; cupy/cupy#8013),
 * for a CUDA major 11 or 12; NULL for others. */
static const char *wheel_of(const char *soname)
{
	static const struct {
		const char *stem, *wheel;
	} wheels[] = {
		{ "libcusolver.", "nvidia-cusolver" },	 { "libcusparse.", "nvidia-cusparse" },
		{ "libcufft.", "nvidia-cufft" },	 { "libcurand.", "nvidia-curand" },
		{ "libcublas.", "nvidia-cublas" },	 { "libnvrtc.", "nvidia-cuda-nvrtc" },
		{ "libnvJitLink.", "nvidia-nvjitlink" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(wheels); i++)
		if (startswith(soname, wheels[i].stem))
			return wheels[i].wheel;
	return NULL;
}

/* The CUDA major of a CuPy wheel from its distribution name (cupy-cuda11x, cupy-cuda12x);
 * 0 when the name does not say (a source build's "cupy", cupy-cuda102 …). */
static unsigned cupy_wheel_major(const struct snap_node *pkg)
{
	const char *d = snap_get_str(pkg, "dist_name") ?: "";

	if (streq(d, "cupy-cuda11x") || streq(d, "cupy_cuda11x"))
		return 11;
	if (streq(d, "cupy-cuda12x") || streq(d, "cupy_cuda12x"))
		return 12;
	return 0;
}

/* Does an nvidia-* wheel of this environment ship a library named soname (its RECORD)? */
static bool wheel_holds(const struct snap_node *env, const char *soname)
{
	const struct snap_node *wheels = snap_child(env, "nvidia_wheels");

	for (size_t i = 0; i < snap_count(wheels); i++) {
		const struct snap_node *libs = snap_child(snap_at(wheels, i), "libraries");

		for (size_t k = 0; k < snap_count(libs); k++)
			if (streq(path_basename(snap_str(snap_at(libs, k)) ?: ""), soname))
				return true;
	}
	return false;
}

/* CuPy's modules imported on first use (module_missing[]): a library one links that the loader
 * finds nowhere fails that use, not `import cupy`. Names the core's own DT_NEEDED already lacks
 * are the import's failure, said by judge_pkg(). */
static void judge_cupy_modules(struct nf_ctx *x, const struct snap_node *env, const char *key,
			       const struct snap_node *pkg, const char *label)
{
	const struct snap_node *mm = snap_child(pkg, "module_missing");
	const struct snap_node *nm = snap_child(pkg, "needed_missing");
	const char *llp = snap_get_str(x->root, "environment.LD_LIBRARY_PATH");
	struct strbuf what = STRBUF_INIT;
	const struct snap_node *first = NULL;
	unsigned major = cupy_wheel_major(pkg);
	const char *ver = snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version");
	/* CuPy 14 preloads the CUDA libraries of the nvidia-* wheels with cuda-pathfinder before
	 * it imports a module (cupy/cupy#9444): a soname a wheel here ships then loads. */
	bool pathfinder = !ver || version_cmp_str(ver, "14") >= 0;
	char subject[256];
	struct finding *f;

	snprintf(subject, sizeof(subject), "%s (%s)", label, snap_get_str(env, "prefix") ?: "?");
	if (mm && fact_is_failure(snap_state(mm)))
		rule_need(x->c, subject, "the CUDA libraries CuPy's modules link", mm);
	for (size_t i = 0; i < snap_count(mm); i++) {
		const struct snap_node *e = snap_at(mm, i);
		const char *name = snap_get_str(e, "name");
		bool in_core = false;

		if (!name) {
			if (fact_is_failure(snap_state(snap_child(e, "name"))))
				rule_need(x->c, subject, "a CuPy module's linked libraries",
					  snap_child(e, "name"));
			continue;
		}
		for (size_t k = 0; k < snap_count(nm); k++)
			in_core |= streq(snap_str(snap_at(nm, k)) ?: "", name);
		if (in_core || (pathfinder && wheel_holds(env, name)))
			continue;
		first = first ?: e;
		strbuf_printf(&what, "%s%s will fail: %s needs %s", what.len ? "; " : "",
			      cupy_module_use(snap_get_str(e, "module") ?: "?"),
			      snap_get_str(e, "library") ?: "?", name);
	}
	if (!first)
		goto out;
	f = rule_finding(x->c, GPUENV_SEVERITY_ERROR, subject,
			 "%s: %s, which the dynamic loader finds nowhere on this process's path "
			 "(the module's RUNPATH, %s%.200s, /etc/ld.so.cache, the system "
			 "directories); `import cupy` does not load these modules, the first call "
			 "that uses one fails",
			 label, strbuf_str(&what),
			 llp ? "LD_LIBRARY_PATH=" : "LD_LIBRARY_PATH unset", llp ?: "");
	if (!f)
		goto out;
	for (size_t i = 0; i < snap_count(mm); i++) {
		const struct snap_node *e = snap_at(mm, i);
		char ek[192]; /* key (< 128) + ".module_missing." + an index */

		if (!snap_get_str(e, "name"))
			continue;
		snprintf(ek, sizeof(ek), "%s.module_missing.%zu", key, i);
		finding_evidence(f, ek, snap_source(snap_child(e, "name")) ?: "ld.so search",
				 "%s needs %s", snap_get_str(e, "library") ?: "?",
				 snap_get_str(e, "name"));
	}
	finding_fact(f, "environment.LD_LIBRARY_PATH",
		     snap_get(x->root, "environment.LD_LIBRARY_PATH"));
	finding_symptom(f,
			"ImportError: %s: cannot open shared object file: No such file or "
			"directory",
			snap_get_str(first, "name"));
	for (size_t i = 0; i < snap_count(mm); i++) {
		const char *name = snap_get_str(snap_at(mm, i), "name");
		const char *wheel = name ? wheel_of(name) : NULL;

		if (!name || snap_at(mm, i) != first)
			continue;
		if (wheel && major)
			finding_fix(f,
				    "pip install %s-cu%u   # then its directory under "
				    "site-packages/nvidia/ on LD_LIBRARY_PATH: CuPy before 14 "
				    "does not search the nvidia-* wheels (cupy/cupy#8013)",
				    wheel, major);
		if (major)
			finding_fix(f,
				    "# or install the CUDA %u toolkit's library that provides %s "
				    "and put its directory on the loader path",
				    major, name);
		else
			finding_fix(f,
				    "# install the CUDA library that provides %s and put its "
				    "directory on the loader path",
				    name);
	}
	finding_verify(f, "python3 -c 'import ctypes; ctypes.CDLL(\"%s\")'   # no OSError",
		       snap_get_str(first, "name"));
	finding_rule_verify(f);
out:
	strbuf_done(&what);
}

RULE_CHECK(check_library_not_found)
{
	static const struct {
		const char *key, *label;
	} fws[] = { { "torch", "torch" },
		    { "tensorflow", "TensorFlow" },
		    { "numba", "numba" },
		    { "warp", "Warp" },
		    { "cupy", "CuPy" } };
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	struct nf_ctx x = { c, root };

	fw_need_complete(c, root);
	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *env = snap_at(envs, i);
		const struct snap_node *pl = snap_get(env, "packages.jax.plugins");

		for (size_t k = 0; k < ARRAY_SIZE(fws); k++) {
			const struct snap_node *pkg = snap_get(env, "packages");
			const char *version;
			char key[128], label[160];
			bool unreadable;

			pkg = snap_child(pkg, fws[k].key);
			if (!pkg || snap_kind(pkg) != SNAP_OBJECT)
				continue;
			snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.%s", i,
				 fws[k].key);
			version = snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version");
			/* a release neither file records (no _version.py, no dist-info) is not an
			 * unreadable one */
			unreadable = fact_is_failure(snap_state(snap_child(pkg, "version"))) ||
				     fact_is_failure(snap_state(snap_child(pkg, "dist_version")));
			if (!version && unreadable)
				version = "(version unreadable)";
			snprintf(label, sizeof(label), "%s%s%s", fws[k].label, version ? " " : "",
				 version ?: "");
			judge_pkg(&x, env, key, fws[k].key, pkg, label);
			if (streq(fws[k].key, "cupy"))
				judge_cupy_modules(&x, env, key, pkg, label);
		}
		/* plugins not read: what they open is unknown, not "nothing" */
		if (fact_is_failure(snap_state(pl)))
			rule_need(c, "jax", "jax's CUDA plugins", pl);
		for (size_t j = 0; j < snap_count(pl); j++) {
			char key[128], label[160];

			snprintf(key, sizeof(key),
				 "framework.python_envs.%zu.packages.jax.plugins.%zu", i, j);
			snprintf(label, sizeof(label), "jax plugin %s %s",
				 snap_get_str(snap_at(pl, j), "plugin") ?: "?",
				 snap_get_str(snap_at(pl, j), "plugin_version") ?: "?");
			judge_pkg(&x, env, key, "jax", snap_at(pl, j), label);
		}
	}
}
