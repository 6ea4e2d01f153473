// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The CUDA toolkit and ROCm probes against trees built in a temp dir, and their text parsers.
 * Contents copy the real formats: the CUDA 13.0 toolkit assembled from pip wheels of the
 * development machine (dist-info names, cudnn_version.h / nccl.h / cublas_api.h excerpts,
 * `nvcc --version` of nvcc 13.0.88), conda-meta record names of the nvidia channel, a pip
 * wheel's site-packages/nvidia/cu13 layout (docs/formats/python.md §4),
 * TensorRT 10's NvInferVersion.h, ROCm 6.2's .info/version and hip_version.h, Debian 12's
 * libamdhip64-5 file names and dpkg status stanzas. The nvcc tests run a fake nvcc script on
 * the live root (a hanging one must come back after the deadline).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe/probe.h"
#include "formats/toolkit-parse.h"
#include "probe-fx.h"

static void puts_(struct probe_fx *f, const char *rel, const char *text)
{
	tmptree_puts(f->dir, rel, text);
}

static void mkdir_rel(struct probe_fx *f, const char *rel)
{
	tmptree_mkdir(f->dir, rel);
}

static void link_(struct probe_fx *f, const char *target, const char *rel)
{
	tmptree_symlink(f->dir, rel, target);
}

/* A library file and its SONAME link: lib(dir, "libcudnn.so.9.19.0", "libcudnn.so.9"). */
static void lib(struct probe_fx *f, const char *dir, const char *file, const char *soname)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	puts_(f, rel, "placeholder\n");
	if (soname) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, soname);
		link_(f, file, rel);
	}
}

static int setup(void **state)
{
	*state = probe_fx_new("toolkit");
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

/* env: "KEY=VALUE" pairs of the judged environment (NULL-terminated); inject: root errors. */
static const struct snap_node *run_opts(struct probe_fx *f, bool live, unsigned timeout_ms,
					const char *const *env, const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o),
				     .sysroot = live ? NULL : f->dir,
				     .vendor_timeout_ms = timeout_ms };

	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	for (size_t i = 0; env && env[i]; i += 2)
		assert_int_equal(env_set(f->ctx->env, env[i], env[i + 1]), 0);
	probe_fx_run(f, probe_cuda_toolkit);
	return probe_fx_run(f, probe_rocm);
}

static const struct snap_node *run(struct probe_fx *f, const char *const *env)
{
	return run_opts(f, false, 0, env, NULL);
}

/* The toolkit (or ROCm) entry whose resolved_path is `path`. */
static const struct snap_node *entry(const struct snap_node *r, const char *array, const char *path)
{
	const struct snap_node *arr = snap_get(r, array);

	for (size_t i = 0; i < snap_count(arr); i++) {
		const char *p = snap_get_str(snap_at(arr, i), "resolved_path");

		if (p && strcmp(p, path) == 0)
			return snap_at(arr, i);
	}
	fail_msg("no %s entry for %s", array, path);
	return NULL;
}

static bool array_has(const struct snap_node *arr, const char *value)
{
	for (size_t i = 0; i < snap_count(arr); i++)
		if (snap_str(snap_at(arr, i)) && strcmp(snap_str(snap_at(arr, i)), value) == 0)
			return true;
	return false;
}

/* ---- parsers ------------------------------------------------------------------- */

static const char nvcc_13_0[] = "nvcc: NVIDIA (R) Cuda compiler driver\n"
				"Copyright (c) 2005-2025 NVIDIA Corporation\n"
				"Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
				"Cuda compilation tools, release 13.0, V13.0.88\n"
				"Build cuda_13.0.r13.0/compiler.36424714_0\n";

static const char trt10_h[] =
	"#define TRT_MAJOR_ENTERPRISE 10\n"
	"#define TRT_MINOR_ENTERPRISE 14\n"
	"#define TRT_PATCH_ENTERPRISE 1\n"
	"#define NV_TENSORRT_MAJOR TRT_MAJOR_ENTERPRISE //!< TensorRT major version.\n"
	"#define NV_TENSORRT_MINOR TRT_MINOR_ENTERPRISE //!< TensorRT minor version.\n"
	"#define NV_TENSORRT_PATCH TRT_PATCH_ENTERPRISE //!< TensorRT patch version.\n";

/* The index of dpkg's status file answers as the search of its text, name by name. */
static void dpkg_index_same(const char *text, size_t len)
{
	static const char *const names[] = {
		"a", "b", "c", "d", "e", "", "zz", "libamdhip64-5", "libamdhip64-5-dbg"
	};
	struct dpkg_status_index idx;

	assert_int_equal(dpkg_status_index_build(text, len, &idx), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char a[PROBE_VERSION_MAX] = "", b[PROBE_VERSION_MAX] = "";
		int r = probe_dpkg_status_version(text, len, names[i], a, sizeof(a));

		assert_int_equal(dpkg_status_index_version(&idx, text, names[i], b, sizeof(b)), r);
		assert_string_equal(a, b);
	}
	dpkg_status_index_done(&idx);
}

static void test_parsers(void **state)
{
	static const char *const trt[] = { "NV_TENSORRT_MAJOR", "NV_TENSORRT_MINOR",
					   "NV_TENSORRT_PATCH" };
	static const char *const loop[] = { "A" };
	char rel[32], full[32], buf[64];
	const char *v;

	(void)state;
	assert_int_equal(probe_parse_nvcc_version(nvcc_13_0, sizeof(nvcc_13_0) - 1, rel,
						  sizeof(rel), full, sizeof(full)),
			 0);
	assert_string_equal(rel, "13.0");
	assert_string_equal(full, "13.0.88");
	assert_int_equal(
		probe_parse_nvcc_version("hello\n", 6, rel, sizeof(rel), full, sizeof(full)),
		-EBADMSG);
	assert_int_equal(probe_parse_nvcc_version("Cuda compilation tools, release 9.2\n", 36, rel,
						  sizeof(rel), full, sizeof(full)),
			 0);
	assert_string_equal(full, "9.2");

	assert_int_equal(probe_header_version(trt10_h, strlen(trt10_h), trt, 3, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "10.14.1");
	/* "#define A B" / "#define B A": one indirection, then refused. */
	assert_int_equal(
		probe_header_version("#define A B\n#define B A\n", 24, loop, 1, buf, sizeof(buf)),
		-EBADMSG);
	assert_int_equal(probe_header_define("#define CUDNN_MAJORX 1\n", 23, "CUDNN_MAJOR", buf,
					     sizeof(buf)),
			 -ENOENT);
	assert_int_equal(
		probe_header_define("  #  define X(a) a\n#define X 7\n", 31, "X", buf, sizeof(buf)),
		0);
	assert_string_equal(buf, "7");
	assert_int_equal(probe_header_define("#define X\n", 10, "X", buf, sizeof(buf)), -EBADMSG);

	assert_true(probe_lib_name_match("libcudnn.so.9.19.0", "libcudnn.so", &v));
	assert_string_equal(v, "9.19.0");
	assert_int_equal(probe_version_fields(v), 3);
	assert_true(probe_lib_name_match("libcudnn.so", "libcudnn.so", &v));
	assert_int_equal(probe_version_fields(v), 0);
	assert_false(probe_lib_name_match("libcudnn_ops.so.9", "libcudnn.so", &v));
	assert_false(probe_lib_name_match("libcudnn.so.x", "libcudnn.so", &v));
	assert_false(probe_lib_name_match("libcudnn.so.9.", "libcudnn.so", &v));
	assert_true(
		probe_lib_name_match("libamdhip64.so.6.2.41134-65d174c3e", "libamdhip64.so", &v));
	{
		char a0[] = "libcudart.so.12", a1[] = "libcudart.so",
		     b0[] = "libcudart.so.12.4.127", b1[] = "libcudart.so.12.4.99", d0[] = "/a",
		     d1[] = "/b", d2[] = "/c";
		char *a[] = { a0, a1, NULL }, *b[] = { b0, b1, NULL }, *dirs[] = { d0, d1, d2 };
		char **names[] = { a, NULL, b };
		const char *name, *dir;

		assert_true(probe_lib_best(names, dirs, 3, "libcudart.so", &name, &dir, &v));
		assert_string_equal(name, "libcudart.so.12.4.127"); /* the first of equals */
		assert_string_equal(dir, "/c");
		assert_string_equal(v, "12.4.127");
		assert_true(probe_lib_best(names, dirs, 2, "libcudart.so", &name, &dir, NULL));
		assert_string_equal(name, "libcudart.so.12");
		assert_false(probe_lib_best(names, dirs, 3, "libcudnn.so", &name, &dir, &v));
	}

	assert_true(probe_dist_info_match("nvidia_cudnn_cu13-9.19.0.56.dist-info", "nvidia_cudnn",
					  buf, sizeof(buf)));
	assert_string_equal(buf, "9.19.0.56");
	assert_true(probe_dist_info_match("nvidia_cuda_runtime-13.0.96.dist-info",
					  "nvidia_cuda_runtime", buf, sizeof(buf)));
	assert_false(probe_dist_info_match("nvidia_cusparselt_cu12-0.6.3.dist-info",
					   "nvidia_cusparse", buf, sizeof(buf)));
	assert_false(probe_dist_info_match("nvidia_cuda_runtime-13.0.96.egg-info",
					   "nvidia_cuda_runtime", buf, sizeof(buf)));
	assert_true(probe_dist_info_match("tensorrt_cu12_libs-10.3.0.dist-info", "tensorrt", buf,
					  sizeof(buf)));
	assert_string_equal(buf, "10.3.0");

	assert_true(probe_conda_meta_match("cuda-cudart-12.4.127-hd3aeb46_0.json", "cuda-cudart",
					   buf, sizeof(buf)));
	assert_string_equal(buf, "12.4.127");
	assert_false(probe_conda_meta_match("cuda-cudart-dev-12.4.127-hd3aeb46_0.json",
					    "cuda-cudart", buf, sizeof(buf)));
	assert_false(probe_conda_meta_match("cuda-cudart-12.4.127.json", "cuda-cudart", buf,
					    sizeof(buf)));

	assert_int_equal(
		probe_kv_value(
			"# Auto-generated by cmake\nHIP_VERSION_MAJOR=5\nHIP_VERSION_GITHASH=\n",
			64, "HIP_VERSION_MAJOR", buf, sizeof(buf)),
		0);
	assert_string_equal(buf, "5");
	assert_int_equal(probe_kv_value("HIP_VERSION_GITHASH=\n", 21, "HIP_VERSION_GITHASH", buf,
					sizeof(buf)),
			 -EBADMSG);
	assert_int_equal(probe_version_line("6.2.0-66\n", 9, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6.2.0-66");
	assert_int_equal(probe_version_line("garbage\n", 8, buf, sizeof(buf)), -EBADMSG);

	{
		static const char status[] =
			"Package: libamdhip64-5\nStatus: deinstall ok config-files\nVersion: "
			"5.2.3-7\n\n"
			"Package: libamdhip64-5-dbg\nStatus: install ok installed\nVersion: 9\n\n"
			"Package: libamdhip64-5\nStatus: install ok installed\nArchitecture: "
			"amd64\nVersion: 5.2.3-8\n";

		assert_int_equal(probe_dpkg_status_version(status, sizeof(status) - 1,
							   "libamdhip64-5", buf, sizeof(buf)),
				 0);
		assert_string_equal(buf, "5.2.3-8");
		assert_int_equal(
			probe_dpkg_status_version(status, 60, "libamdhip64-5", buf, sizeof(buf)),
			-ENOENT);
		dpkg_index_same(status, sizeof(status) - 1);
		dpkg_index_same(status, 60);
	}
	{
		/* two Package lines in one stanza (the fields after each count for it), a
		 * Status before the Package line (not read), a name without its newline, a
		 * version too long for the buffer */
		static const char status[] =
			"Package: a\nVersion: 1\nPackage: b\nStatus: install ok installed\n\n"
			"Status: install ok installed\nPackage: c\nVersion: 3\n\n"
			"Package: d\nStatus: install ok installed\nVersion: "
			"0123456789012345678901234567890123456789012345678901234567890123456789\n\n"
			"Package: e";

		dpkg_index_same(status, sizeof(status) - 1);
	}
	{
		/* deb-control(5) Depends: alternatives, ":arch" and "(>= v)" after the name; a
		 * name that only starts with the package's, a removed dependent and a
		 * Recommends never count. */
		static const char status[] =
			"Package: librocrand1\nStatus: install ok installed\nDepends: libc6 (>= 2.34), "
			"libamdhip64-5 (>= 5.7.1), libnuma1\n\n"
			"Package: libamdhip64-dev\nStatus: install ok installed\nDepends: foo | "
			"libamdhip64-5:amd64 (= 5.7.1-3)\n\n"
			"Package: librccl1\nStatus: deinstall ok config-files\nDepends: "
			"libamdhip64-5\n\n"
			"Package: x\nStatus: install ok installed\nDepends: libamdhip64-5-dbg\n"
			"Recommends: libamdhip64-5\n\n"
			"Package: y\nStatus: install ok installed\nPre-Depends: libamdhip64-5";

		assert_int_equal(probe_dpkg_status_required_by(status, sizeof(status) - 1,
							       "libamdhip64-5", buf, sizeof(buf)),
				 3);
		assert_string_equal(buf, "librocrand1, libamdhip64-dev, y");
		/* too many to list: the ones that fit, then ", …" */
		assert_int_equal(probe_dpkg_status_required_by(status, sizeof(status) - 1,
							       "libamdhip64-5", buf, 20),
				 3);
		assert_string_equal(buf, "librocrand1, …");
		assert_int_equal(probe_dpkg_status_required_by(status, sizeof(status) - 1,
							       "libhsa-runtime64-1", buf,
							       sizeof(buf)),
				 0);
		assert_string_equal(buf, "");
	}
}

/* ---- CUDA toolkits ------------------------------------------------------------- */

#define TK "/usr/local/cuda-13.0"

/* The development machine's CUDA 13.0, assembled from pip wheels, no version.json. */
static void pip_assembled_tree(struct probe_fx *f)
{
	link_(f, TK, "/usr/local/cuda");
	link_(f, "lib", TK "/lib64");
	puts_(f, TK "/bin/nvcc", "placeholder\n");
	mkdir_rel(f, TK "/dist-info/nvidia_cuda_runtime-13.0.96.dist-info");
	mkdir_rel(f, TK "/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info");
	mkdir_rel(f, TK "/dist-info/nvidia_nccl_cu13-2.28.9.dist-info");
	mkdir_rel(f, TK "/dist-info/nvidia_nvjitlink-13.0.88.dist-info");
	mkdir_rel(f, TK "/dist-info/nvidia_cublas-13.1.0.3.dist-info");
	puts_(f, TK "/include/cuda_runtime_api.h", "#define CUDART_VERSION  13000\n");
	puts_(f, TK "/include/cudnn_version.h",
	      "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
	puts_(f, TK "/include/nccl.h",
	      "#define NCCL_MAJOR 2\n#define NCCL_MINOR 28\n#define NCCL_PATCH 9\n#define "
	      "NCCL_SUFFIX \"\"\n");
	puts_(f, TK "/include/cublas_api.h",
	      "#define CUBLAS_VER_MAJOR 13\n#define CUBLAS_VER_MINOR 1\n#define CUBLAS_VER_PATCH "
	      "0\n"
	      "#define CUBLAS_VER_BUILD 3\n");
	puts_(f, TK "/include/nvJitLink.h", "/* no version macros */\n");
	lib(f, TK "/lib", "libcudart.so.13", "libcudart.so");
	lib(f, TK "/lib", "libcudnn.so.9", "libcudnn.so");
	lib(f, TK "/lib", "libnccl.so.2", "libnccl.so");
	lib(f, TK "/lib", "libcublas.so.13", "libcublas.so");
	lib(f, TK "/lib", "libcublasLt.so.13", "libcublasLt.so");
	lib(f, TK "/lib", "libnvJitLink.so.13", "libnvJitLink.so");
	puts_(f, TK "/lib/stubs/libcuda.so", "placeholder\n");
}

static void test_pip_assembled(void **state)
{
	static const char *const env[] = { "CUDA_HOME", "/usr/local/cuda", "PATH",
					   "/usr/local/cuda/bin:/usr/bin", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk;

	pip_assembled_tree(f);
	r = run(f, env);
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkits")), 1);
	tk = entry(r, "runtime.cuda_toolkits", TK);
	assert_string_equal(snap_get_str(tk, "path"), "/usr/local/cuda");
	assert_string_equal(snap_get_str(tk, "version"), "13.0.96");
	assert_string_equal(snap_source(snap_get(tk, "version")),
			    TK "/dist-info/nvidia_cuda_runtime-13.0.96.dist-info");
	assert_string_equal(snap_get_str(tk, "version_source"), "dist-info");
	assert_string_equal(snap_get_str(tk, "release"), "13.0");
	assert_string_equal(snap_get_str(tk, "kind"), "pip-assembled");
	assert_true(array_has(snap_get(tk, "found_via"), "CUDA_HOME"));
	assert_true(array_has(snap_get(tk, "found_via"), "PATH nvcc"));
	assert_true(array_has(snap_get(tk, "found_via"), "/usr/local"));
	assert_true(snap_get_bool_default(tk, "is_default", false));
	assert_true(array_has(snap_get(tk, "alternatives_chain"), "/usr/local/cuda -> " TK));
	assert_int_equal(snap_get_state(tk, "nvcc_version"), FACT_UNPROBED);
	assert_string_equal(snap_error(snap_get(tk, "nvcc_version")),
			    "not read: dist-info gave the version");
	assert_string_equal(snap_get_str(tk, "components.cudnn.version"), "9.19.0");
	assert_string_equal(snap_source(snap_get(tk, "components.cudnn.version")),
			    TK "/include/cudnn_version.h");
	assert_true(array_has(snap_get(tk, "components.cudnn.libraries"), "libcudnn.so.9"));
	assert_string_equal(snap_get_str(tk, "components.nccl.version"), "2.28.9");
	assert_string_equal(snap_get_str(tk, "components.cublas.version"), "13.1.0");
	assert_string_equal(snap_get_str(tk, "components.cublaslt.version"), "13.1.0");
	assert_true(array_has(snap_get(tk, "components.cublaslt.libraries"), "libcublasLt.so.13"));
	/* No macros in nvJitLink.h: the wheel's record. */
	assert_string_equal(snap_get_str(tk, "components.nvjitlink.version"), "13.0.88");
	assert_string_equal(snap_get_str(tk, "components.cudart.version"), "13.0.96");
	assert_int_equal(snap_get_state(tk, "components.tensorrt.version"), FACT_ABSENT);
	assert_string_equal(snap_get_str(tk, "cudnn_version"), "9.19.0");
	assert_string_equal(snap_get_str(tk, "nccl_version"), "2.28.9");
	assert_string_equal(snap_get_str(tk, "stub_libcuda"), TK "/lib/stubs/libcuda.so");
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkit_rejected")), 0);
	assert_int_equal(snap_count(snap_get(r, "runtime.rocm")), 0);
}

static void test_conda(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk;

#define ENV "/opt/conda/envs/ml"
	mkdir_rel(f, "/opt/conda/conda-meta");
	puts_(f, "/opt/conda/conda-meta/python-3.11.9-hb806964_0.json", "{}\n");
	puts_(f, ENV "/conda-meta/cuda-version-12.4-h3060b56_3.json", "{}\n");
	puts_(f, ENV "/conda-meta/cuda-cudart-12.4.127-hd3aeb46_0.json", "{}\n");
	puts_(f, ENV "/conda-meta/cuda-cudart-dev-12.4.127-hd3aeb46_0.json", "{}\n");
	puts_(f, ENV "/conda-meta/cudnn-9.1.1.17-cuda12_0.json", "{}\n");
	puts_(f, ENV "/conda-meta/libcublas-12.4.5.8-hd3aeb46_0.json", "{}\n");
	lib(f, ENV "/lib", "libcudart.so.12.4.127", "libcudart.so.12");
	lib(f, ENV "/lib", "libcudnn.so.9.1.1", "libcudnn.so.9");
	lib(f, ENV "/lib", "libcublas.so.12.4.5.8", "libcublas.so.12");
	/* A Python-only environment is not a toolkit, and not an error either. */
	puts_(f, "/opt/conda/envs/cpu/conda-meta/numpy-1.26.4-py311h64a7726_0.json", "{}\n");
	r = run(f, NULL);
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkits")), 1);
	tk = entry(r, "runtime.cuda_toolkits", ENV);
	assert_string_equal(snap_get_str(tk, "kind"), "conda");
	assert_true(array_has(snap_get(tk, "found_via"), "conda"));
	assert_string_equal(snap_get_str(tk, "version"), "12.4");
	assert_string_equal(snap_get_str(tk, "version_source"), "conda-meta");
	assert_string_equal(snap_source(snap_get(tk, "version")),
			    ENV "/conda-meta/cuda-version-12.4-h3060b56_3.json");
	assert_string_equal(snap_get_str(tk, "components.cudart.version"), "12.4.127");
	assert_string_equal(snap_get_str(tk, "components.cudnn.version"), "9.1.1.17");
	assert_string_equal(snap_get_str(tk, "components.cublas.version"), "12.4.5.8");
	assert_false(snap_get_bool_default(tk, "is_default", true));
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkit_rejected")), 0);
#undef ENV
}

#define SP "/venv/lib/python3.12/site-packages"

static void test_pip_wheel_dir(void **state)
{
	static const char *const env[] = { "LD_LIBRARY_PATH",
					   SP "/nvidia/cu13/lib:/usr/lib/x86_64-linux-gnu", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk, *rej;

	lib(f, SP "/nvidia/cu13/lib", "libcudart.so.13", NULL);
	lib(f, SP "/nvidia/cu13/lib", "libnvrtc.so.13", NULL);
	puts_(f, SP "/nvidia/cu13/include/cuda_runtime_api.h", "#define CUDART_VERSION 13000\n");
	lib(f, SP "/nvidia/cudnn/lib", "libcudnn.so.9", NULL);
	lib(f, SP "/nvidia/nccl/lib", "libnccl.so.2", NULL);
	mkdir_rel(f, SP "/nvidia_cuda_runtime-13.0.96.dist-info");
	mkdir_rel(f, SP "/nvidia_cuda_nvrtc-13.0.88.dist-info");
	mkdir_rel(f, SP "/nvidia_cudnn_cu13-9.19.0.56.dist-info");
	mkdir_rel(f, SP "/nvidia_nccl_cu13-2.28.9.dist-info");
	mkdir_rel(f, SP "/torch-2.9.0.dist-info");
	/* Debian's libcudart12 on LD_LIBRARY_PATH: a runtime, not a toolkit. */
	lib(f, "/usr/lib/x86_64-linux-gnu", "libcudart.so.12.0.146", "libcudart.so.12");
	r = run(f, env);
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkits")), 1);
	tk = entry(r, "runtime.cuda_toolkits", SP "/nvidia/cu13");
	assert_string_equal(snap_get_str(tk, "kind"), "pip-wheel-dir");
	assert_true(array_has(snap_get(tk, "found_via"), "LD_LIBRARY_PATH cudart"));
	assert_string_equal(snap_get_str(tk, "version"), "13.0.96");
	assert_string_equal(snap_source(snap_get(tk, "version")),
			    SP "/nvidia_cuda_runtime-13.0.96.dist-info");
	assert_string_equal(snap_get_str(tk, "components.cudnn.version"), "9.19.0.56");
	assert_string_equal(snap_source(snap_get(tk, "components.cudnn.libraries.0")),
			    SP "/nvidia/cudnn/lib");
	assert_string_equal(snap_get_str(tk, "components.nccl.version"), "2.28.9");
	assert_string_equal(snap_get_str(tk, "components.nvrtc.version"), "13.0.88");
	assert_int_equal(snap_get_state(tk, "nvcc"), FACT_ABSENT);
	assert_int_equal(snap_get_state(tk, "nvcc_version"), FACT_UNPROBED);
	rej = snap_get(r, "runtime.cuda_toolkit_rejected.0");
	assert_non_null(rej);
	assert_string_equal(snap_get_str(rej, "path"), "/usr/lib/x86_64-linux-gnu");
	assert_int_equal(snap_get_state(rej, "toolkit"), FACT_ABSENT);
}

static void test_bad_input(void **state)
{
	static const char *const env[] = { "CUDA_HOME", "/opt/cuda-missing", "CUDA_PATH",
					   "/usr/local/cuda", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk, *rej;
	bool loop = false, missing = false;
	char fifo[512];

	puts_(f, "/usr/local/cuda-12.2/version.json", "{\"cuda\": {\"version\": ");
	puts_(f, "/usr/local/cuda-12.2/version.txt", "not a version file\n");
	puts_(f, "/usr/local/cuda-12.2/include/cuda_runtime_api.h",
	      "#define CUDART_VERSION 12020\n");
	puts_(f, "/usr/local/cuda-12.2/include/nccl.h", "#define NCCL_MAJOR 2\n");
	puts_(f, "/usr/local/cuda-12.4/version.json",
	      "{\"cuda\": {\"version\": \"12.4.1\"}, \"libcublas\": {\"version\": "
	      "\"12.4.5.8\"}}\n");
	puts_(f, "/usr/local/cuda-12.4/include/cudnn_version.h", "#define CUDNN_MAJOR 8\n");
	link_(f, "/etc/alternatives/cuda", "/usr/local/cuda");
	link_(f, "/usr/local/cuda", "/etc/alternatives/cuda");
	/* A FIFO where a header should be: refused, never waited on. */
	snprintf(fifo, sizeof(fifo), "%s/usr/local/cuda-12.2/include/cufft.h", f->dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	r = run_opts(f, false, 0, env, "/usr/local/cuda-12.4/include/cudnn_version.h=EACCES");

	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-12.2");
	assert_int_equal(snap_get_state(tk, "version_json"), FACT_MALFORMED);
	assert_string_equal(snap_error(snap_get(tk, "version_json")), "not JSON");
	assert_non_null(snap_raw(snap_get(tk, "version_json")));
	assert_int_equal(snap_get_state(tk, "version_txt"), FACT_MALFORMED);
	assert_string_equal(snap_get_str(tk, "version"), "12.2");
	assert_string_equal(snap_get_str(tk, "version_source"), "cuda_runtime_api.h");
	assert_int_equal(snap_get_state(tk, "components.nccl.version"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(tk, "nccl_version"), FACT_MALFORMED);
	assert_int_not_equal(snap_get_state(tk, "components.cufft.version"), FACT_PRESENT);
	assert_string_equal(snap_error(snap_get(tk, "components.cufft.version")),
			    "Invalid argument");
	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-12.4");
	assert_int_equal(snap_get_state(tk, "components.cudnn.version"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(tk, "cudnn_version"), FACT_UNREADABLE);
	/* No cublas_api.h: version.json's component entry. */
	assert_string_equal(snap_get_str(tk, "components.cublas.version"), "12.4.5.8");
	assert_string_equal(snap_source(snap_get(tk, "components.cublas.version")),
			    "/usr/local/cuda-12.4/version.json");
	assert_false(snap_get_bool_default(tk, "is_default", true));

	for (size_t i = 0; i < snap_count(snap_get(r, "runtime.cuda_toolkit_rejected")); i++) {
		rej = snap_at(snap_get(r, "runtime.cuda_toolkit_rejected"), i);
		if (strcmp(snap_get_str(rej, "path"), "/usr/local/cuda") == 0) {
			loop = true;
			assert_int_equal(snap_get_state(rej, "toolkit"), FACT_ERROR);
			assert_int_equal(snap_count(snap_get(rej, "link_chain")), 2);
		}
		if (strcmp(snap_get_str(rej, "path"), "/opt/cuda-missing") == 0) {
			missing = true;
			assert_int_equal(snap_get_state(rej, "toolkit"), FACT_ABSENT);
			assert_true(array_has(snap_get(rej, "found_via"), "CUDA_HOME"));
		}
	}
	assert_true(loop);
	assert_true(missing);
}

/*
 * A toolkit whose version file cannot be read (issue 13.4, found by the unreadable-path sweep
 * on python-venv-torch24-cu124): it stays listed, its version unreadable with the file and
 * errno, not dropped as "not a toolkit" nor absent. cuda-11.8 (version.json, nothing else
 * gives the version) is found through /usr/local; cuda-10.2 (version.txt) through CUDA_HOME.
 * A conda environment nobody pointed at as CUDA is not listed on an unreadable mark alone.
 */
static void test_version_unreadable(void **state)
{
	static const char *const env[] = { "CUDA_HOME", "/opt/cuda-10.2", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk, *v;

	puts_(f, "/usr/local/cuda-11.8/version.json", "{\"cuda\": {\"version\": \"11.8.0\"}}\n");
	puts_(f, "/usr/local/cuda-11.8/bin/nvcc", "#!/bin/sh\n");
	lib(f, "/usr/local/cuda-11.8/lib64", "libcudart.so.11.0", NULL);
	puts_(f, "/opt/cuda-10.2/version.txt", "CUDA Version 10.2.89\n");
	puts_(f, "/opt/conda/envs/x/version.json", "{}\n");
	r = run_opts(f, false, 0, env,
		     "/usr/local/cuda-11.8/version.json=EACCES,/opt/cuda-10.2/version.txt=EACCES,"
		     "/opt/conda/envs/x/version.json=EACCES");

	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-11.8");
	v = snap_get(tk, "version");
	assert_int_equal(snap_state(v), FACT_UNREADABLE);
	assert_string_equal(snap_source(v), "/usr/local/cuda-11.8/version.json");
	assert_string_equal(snap_error(v), strerror(EACCES));
	assert_int_equal(snap_get_state(tk, "version_json"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(tk, "release"), FACT_UNREADABLE);
	tk = entry(r, "runtime.cuda_toolkits", "/opt/cuda-10.2");
	assert_int_equal(snap_get_state(tk, "version"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(tk, "version_txt"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(tk, "version")), "/opt/cuda-10.2/version.txt");
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkits")), 2);
}

/* A fake toolkit on the live root whose only version source is nvcc. */
static void fake_nvcc_toolkit(struct probe_fx *f, const char *script)
{
	char path[512];

	puts_(f, "/cuda/bin/nvcc", script);
	snprintf(path, sizeof(path), "%s/cuda/bin/nvcc", f->dir);
	assert_int_equal(chmod(path, 0755), 0);
	lib(f, "/cuda/lib64", "libcudart.so.12", NULL);
}

/*
 * An nvcc planted where CUDA_HOME and PATH (an --env-file's, or the judged process's) point:
 * a script that leaves a marker file and prints a version. gpuenv must never run it, on the
 * live root (the old probe ran `nvcc --version` there, as root if gpuenv was) nor under
 * --sysroot, and must not take a version from it: the file holds no version string.
 */
static void test_nvcc_planted(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk;
	char home[128], bin[160], marker[160], script[512];
	const char *env[] = { "CUDA_HOME", home, "PATH", bin, NULL };

	snprintf(home, sizeof(home), "%s/cuda", f->dir);
	snprintf(bin, sizeof(bin), "%s/bin", home);
	snprintf(marker, sizeof(marker), "%s/nvcc-ran", f->dir);
	/* It prints the version line without holding it ("release" comes from an argument). */
	snprintf(script, sizeof(script),
		 "#!/bin/sh\ntouch '%s'\nprintf 'Cuda compilation tools, %%s 99.9, V99.9.1\\n' "
		 "release\n",
		 marker);
	fake_nvcc_toolkit(f, script);
	r = run_opts(f, true, 5000, env, NULL);
	assert_int_equal(access(marker, F_OK), -1);
	tk = entry(r, "runtime.cuda_toolkits", home);
	assert_true(array_has(snap_get(tk, "found_via"), "PATH nvcc"));
	assert_int_equal(snap_get_state(tk, "nvcc_version"), FACT_MALFORMED);
	assert_non_null(strstr(snap_error(snap_get(tk, "nvcc_version")), "no \"Cuda compilation"));
	assert_int_equal(snap_get_state(tk, "version"), FACT_ABSENT);

	/* The same tree as an image: read, never run either. */
	env[1] = "/cuda";
	env[3] = "/cuda/bin";
	r = run(f, env);
	assert_int_equal(access(marker, F_OK), -1);
	tk = entry(r, "runtime.cuda_toolkits", "/cuda");
	assert_int_equal(snap_get_state(tk, "nvcc_version"), FACT_MALFORMED);
}

/* A binary nvcc: the version string `nvcc --version` prints is read from the file, also where
 * it straddles two read windows (1 MiB). */
static void test_nvcc_embedded(void **state)
{
	static const char line[] = "Cuda compilation tools, release 13.0, V13.0.88\n"
				   "Build cuda_13.0.r13.0/compiler.36424714_0";
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk;
	size_t pre = ((size_t)1 << 20) - 10, len = pre + sizeof(line) + 4096;
	char *bytes = malloc(len + 1), home[128];
	const char *env[] = { "CUDA_HOME", home, NULL };

	assert_non_null(bytes);
	memset(bytes, 'x', len);
	memcpy(bytes, "\177ELF", 4);
	memcpy(bytes + pre, line, sizeof(line) - 1);
	bytes[len] = '\0';
	fake_nvcc_toolkit(f, bytes);
	free(bytes);
	snprintf(home, sizeof(home), "%s/cuda", f->dir);
	for (int live = 1; live >= 0; live--) {
		const char *want = live ? home : "/cuda";

		env[1] = want;
		r = run_opts(f, live, 5000, env, NULL);
		tk = entry(r, "runtime.cuda_toolkits", want);
		assert_string_equal(snap_get_str(tk, "nvcc_version"), "13.0.88");
		assert_string_equal(snap_get_str(tk, "version"), "13.0.88");
		assert_string_equal(snap_get_str(tk, "version_source"), "nvcc version string");
		assert_string_equal(snap_get_str(tk, "release"), "13.0");
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A real nvcc, where there is one: its bytes give what `nvcc --version` prints (the test runs
 * the caller's own nvcc to compare, and prints both times). */
static void test_nvcc_real(void **state)
{
	static const char *const nvcc = "/usr/local/cuda/bin/nvcc";
	struct probe_fx *f = *state;
	char rel[PROBE_VERSION_MAX], want[PROBE_VERSION_MAX], out[4096], home[128];
	const char *env[] = { "CUDA_HOME", home, NULL };
	const struct snap_node *r, *tk;
	double t_run, t_read;
	FILE *p;
	size_t n;

	if (access(nvcc, X_OK) != 0) {
		printf("SKIP part: no %s: the real-nvcc comparison was not run\n", nvcc);
		return;
	}
	t_run = now_s();
	p = popen("/usr/local/cuda/bin/nvcc --version", "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	assert_int_equal(pclose(p), 0);
	t_run = now_s() - t_run;
	assert_int_equal(probe_parse_nvcc_version(out, n, rel, sizeof(rel), want, sizeof(want)), 0);
	mkdir_rel(f, "/cuda/bin");
	link_(f, nvcc, "/cuda/bin/nvcc");
	lib(f, "/cuda/lib64", "libcudart.so.12", NULL);
	snprintf(home, sizeof(home), "%s/cuda", f->dir);
	t_read = now_s();
	r = run_opts(f, true, 5000, env, NULL);
	t_read = now_s() - t_read;
	tk = entry(r, "runtime.cuda_toolkits", home);
	assert_string_equal(snap_get_str(tk, "nvcc_version"), want);
	printf("# %s: `nvcc --version` %.1f ms; the whole toolkit probe reading it %.1f ms\n", want,
	       t_run * 1e3, t_read * 1e3);
}

static void test_tensorrt(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk;

	puts_(f, "/usr/local/cuda-12.6/version.json", "{\"cuda\": {\"version\": \"12.6.3\"}}\n");
	puts_(f, "/usr/local/cuda-12.6/include/NvInferVersion.h", trt10_h);
	lib(f, "/usr/local/cuda-12.6/lib64", "libnvinfer.so.10.14.1", "libnvinfer.so.10");
	puts_(f, "/usr/local/cuda-12.6/bin/cuda-uninstaller", "#!/usr/bin/perl\n");
	r = run(f, NULL);
	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-12.6");
	assert_string_equal(snap_get_str(tk, "kind"), "runfile");
	assert_string_equal(snap_get_str(tk, "components.tensorrt.version"), "10.14.1");
	assert_int_equal(snap_count(snap_get(tk, "components.tensorrt.libraries")), 2);
}

/* ---- ROCm ---------------------------------------------------------------------- */

static void test_rocm_62(void **state)
{
	static const char *const env[] = { "ROCM_PATH", "/opt/rocm", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *o;

	puts_(f, "/opt/rocm-6.2.0/.info/version", "6.2.0-66\n");
	puts_(f, "/opt/rocm-6.2.0/include/hip/hip_version.h",
	      "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 2\n#define HIP_VERSION_PATCH "
	      "41133\n"
	      "#define HIP_VERSION_GITHASH \"dd7f95766\"\n");
	lib(f, "/opt/rocm-6.2.0/lib", "libamdhip64.so.6.2.60200", "libamdhip64.so.6");
	link_(f, "/etc/alternatives/rocm", "/opt/rocm");
	link_(f, "/opt/rocm-6.2.0", "/etc/alternatives/rocm");
	/* An older release beside it, found by its directory only (.info/version is garbage). */
	puts_(f, "/opt/rocm-6.1.0/.info/version", "garbage\n");
	puts_(f, "/opt/rocm-6.1.0/bin/.hipVersion",
	      "# Auto-generated by "
	      "cmake\nHIP_PACKAGING_VERSION_PATCH=40091.60100\nHIP_VERSION_MAJOR=6\n"
	      "HIP_VERSION_MINOR=1\nHIP_VERSION_PATCH=40091\nHIP_VERSION_GITHASH=a8dbc0c19\n");
	r = run(f, env);
	assert_int_equal(snap_count(snap_get(r, "runtime.rocm")), 2);
	o = entry(r, "runtime.rocm", "/opt/rocm-6.2.0");
	assert_string_equal(snap_get_str(o, "path"), "/opt/rocm");
	assert_string_equal(snap_get_str(o, "version"), "6.2.0-66");
	assert_string_equal(snap_get_str(o, "version_source"), ".info/version");
	assert_string_equal(snap_get_str(o, "hip_version"), "6.2.41133");
	assert_string_equal(snap_get_str(o, "kind"), "rocm");
	assert_true(snap_get_bool_default(o, "is_default", false));
	assert_true(array_has(snap_get(o, "found_via"), "ROCM_PATH"));
	assert_true(array_has(snap_get(o, "alternatives_chain"),
			      "/etc/alternatives/rocm -> /opt/rocm-6.2.0"));
	assert_string_equal(snap_get_str(o, "libraries.0.name"), "libamdhip64");
	assert_string_equal(snap_get_str(o, "libraries.0.file"), "libamdhip64.so.6.2.60200");
	assert_string_equal(snap_get_str(o, "libraries.0.version"), "6.2.60200");
	o = entry(r, "runtime.rocm", "/opt/rocm-6.1.0");
	assert_int_equal(snap_get_state(o, "version_info"), FACT_MALFORMED);
	assert_string_equal(snap_get_str(o, "version"), "6.1.0");
	assert_string_equal(snap_get_str(o, "version_source"), "directory name");
	assert_string_equal(snap_get_str(o, "hip_version"), "6.1.40091");
	assert_false(snap_get_bool_default(o, "is_default", true));
}

static void test_rocm_debian(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *o;

	lib(f, "/usr/lib/x86_64-linux-gnu", "libamdhip64.so.5.2.21153", "libamdhip64.so.5");
	lib(f, "/usr/lib/x86_64-linux-gnu", "libhsa-runtime64.so.1.5.0", "libhsa-runtime64.so.1");
	puts_(f, "/usr/share/hip/version",
	      "# Auto-generated by cmake\nHIP_PACKAGING_VERSION_PATCH=0\nHIP_VERSION_MAJOR=5\n"
	      "HIP_VERSION_MINOR=2\nHIP_VERSION_PATCH=21153\nHIP_VERSION_GITHASH=\n");
	puts_(f, "/var/lib/dpkg/status",
	      "Package: libamdhip64-5\nStatus: install ok installed\nSource: rocm-hipamd\nVersion: "
	      "5.2.3-8\n\n");
	r = run(f, NULL);
	o = entry(r, "runtime.rocm", "/usr");
	assert_string_equal(snap_get_str(o, "kind"), "distro-packaged");
	assert_string_equal(snap_get_str(o, "version"), "5.2.3-8");
	assert_string_equal(snap_get_str(o, "package"), "libamdhip64-5");
	assert_string_equal(snap_get_str(o, "version_source"), "dpkg status");
	assert_string_equal(snap_get_str(o, "hip_version"), "5.2.21153");
	assert_string_equal(snap_get_str(o, "libraries.0.file"), "libamdhip64.so.5.2.21153");
	assert_string_equal(snap_get_str(o, "component"), "HIP runtime");
	assert_int_equal(snap_state(snap_get(o, "required_by")), FACT_ABSENT);
	assert_false(snap_get_bool_default(o, "is_default", true));
}

/* Only the HSA runtime, pulled in by another package: named as such, with what required it. */
static void test_rocm_distro_pulled_in(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *o;

	lib(f, "/usr/lib/x86_64-linux-gnu", "libhsa-runtime64.so.1.11.0", "libhsa-runtime64.so.1");
	puts_(f, "/var/lib/dpkg/status",
	      "Package: libhsa-runtime64-1\nStatus: install ok installed\nVersion: 5.7.1-2\n\n"
	      "Package: librocrand1\nStatus: install ok installed\nDepends: libc6, "
	      "libhsa-runtime64-1 (>= 5.7)\nVersion: 1.16.0\n");
	r = run(f, NULL);
	o = entry(r, "runtime.rocm", "/usr");
	assert_string_equal(snap_get_str(o, "component"), "HSA runtime");
	assert_string_equal(snap_get_str(o, "package"), "libhsa-runtime64-1");
	assert_string_equal(snap_get_str(o, "version"), "5.7.1-2");
	assert_string_equal(snap_get_str(o, "required_by"), "librocrand1");
}

/* A real shared object (gcc) and its SONAME link: what ld.so's search opens. */
static void elf_lib(struct probe_fx *f, const char *dir, const char *file, const char *soname)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	tmptree_cc_so(f->dir, rel, soname, NULL);
	snprintf(rel, sizeof(rel), "%s/%s", dir, soname);
	link_(f, file, rel);
}

/* Which release ld.so gives (src/probe/rocm-loader.c): LD_LIBRARY_PATH naming another
 * release than /opt/rocm's; sonames in two releases; a runtime in no release; none found. */
static void test_rocm_loader(void **state)
{
	static const char *const llp_612[] = { "LD_LIBRARY_PATH", "/opt/rocm-6.1.2/lib", NULL };
	static const char *const llp_split[] = { "LD_LIBRARY_PATH",
						 "/opt/rocm-5.7.1/lib:/opt/rocm-6.1.2/lib", NULL };
	static const char *const llp_home[] = { "LD_LIBRARY_PATH", "/srv/u/hip", NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *o;

	if (!tmptree_have_cc()) {
		printf("# skipping: needs cc to build the libraries\n");
		skip();
	}
	puts_(f, "/opt/rocm-6.2.0/.info/version", "6.2.0-66\n");
	elf_lib(f, "/opt/rocm-6.2.0/lib", "libamdhip64.so.6.2.60200", "libamdhip64.so.6");
	elf_lib(f, "/opt/rocm-6.2.0/lib", "libhsa-runtime64.so.1.14.60200",
		"libhsa-runtime64.so.1");
	link_(f, "/opt/rocm-6.2.0", "/opt/rocm");
	elf_lib(f, "/opt/rocm-6.1.2/lib", "libamdhip64.so.6.1.60102", "libamdhip64.so.6");

	/* no LD_LIBRARY_PATH, no cache: ld.so loads none of them */
	r = run(f, NULL);
	assert_int_equal(snap_get_state(snap_get(r, "runtime.rocm_loader"), "release"),
			 FACT_ABSENT);
	assert_non_null(
		strstr(snap_error(snap_get(r, "runtime.rocm_loader.release")), "loads none"));
	assert_false(snap_get_bool_default(entry(r, "runtime.rocm", "/opt/rocm-6.2.0"),
					   "loader_gives", false));
	/* the sonames come from the releases' file names too */
	assert_string_equal(snap_get_str(r, "runtime.rocm_loader.libamdhip64.0.soname"),
			    "libamdhip64.so.6");

	/* LD_LIBRARY_PATH names 6.1.2: it is the one given, not /opt/rocm's 6.2.0 */
	r = run(f, llp_612);
	assert_string_equal(snap_get_str(r, "runtime.rocm_loader.release"), "/opt/rocm-6.1.2");
	assert_string_equal(snap_get_str(r, "runtime.rocm_loader.found_via"), "LD_LIBRARY_PATH");
	o = entry(r, "runtime.rocm", "/opt/rocm-6.1.2");
	assert_true(snap_get_bool_default(o, "loader_gives", false));
	assert_string_equal(snap_get_str(o, "loader_soname"), "libamdhip64.so.6");
	assert_false(snap_get_bool_default(o, "is_default", true));
	o = entry(r, "runtime.rocm", "/opt/rocm-6.2.0");
	assert_false(snap_get_bool_default(o, "loader_gives", false));
	assert_true(snap_get_bool_default(o, "is_default", false));
	/* the HSA runtime is searched and written, the HIP runtime decides */
	assert_string_equal(snap_get_str(r, "runtime.rocm_loader.libhsa_runtime64.0.soname"),
			    "libhsa-runtime64.so.1");

	/* libamdhip64.so.5 from 5.7.1, .so.6 from 6.1.2: no one release */
	elf_lib(f, "/opt/rocm-5.7.1/lib", "libamdhip64.so.5.7.50701", "libamdhip64.so.5");
	r = run(f, llp_split);
	assert_int_equal(snap_get_state(snap_get(r, "runtime.rocm_loader"), "release"),
			 FACT_ABSENT);
	assert_non_null(strstr(snap_error(snap_get(r, "runtime.rocm_loader.release")),
			       "different releases"));
	for (size_t i = 0; i < snap_count(snap_get(r, "runtime.rocm")); i++)
		assert_false(snap_get_bool_default(snap_at(snap_get(r, "runtime.rocm"), i),
						   "loader_gives", false));

	/* a HIP runtime in a directory of no release */
	elf_lib(f, "/srv/u/hip", "libamdhip64.so.6.3.60300", "libamdhip64.so.6");
	r = run(f, llp_home);
	assert_non_null(strstr(snap_error(snap_get(r, "runtime.rocm_loader.release")),
			       "in no ROCm release"));
	assert_int_equal(
		snap_get_state(snap_get(r, "runtime.rocm_loader.libamdhip64.1"), "release"),
		FACT_ABSENT);
}

/* A path that could not be looked at (EACCES on its stat) is never taken as missing: nvcc of a
 * toolkit with no version file makes its version unreadable (not absent); a ROCm prefix is
 * rejected with why (not "not a directory"); Debian's HIP runtime is a rejected candidate with
 * why (not "no ROCm"). */
static void test_stat_unreadable_not_missing(void **state)
{
	static const char *const env[] = { "CUDA_HOME", "/opt/cuda-x", "ROCM_PATH", "/opt/rocm",
					   NULL };
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk, *v, *rej;
	bool prefix_seen = false, distro_seen = false;

	puts_(f, "/opt/cuda-x/bin/nvcc", nvcc_13_0);
	lib(f, "/opt/cuda-x/lib64", "libcudart.so.13", NULL);
	puts_(f, "/opt/rocm-6.2.0/.info/version", "6.2.0-66\n");
	link_(f, "/opt/rocm-6.2.0", "/opt/rocm");
	lib(f, "/usr/lib/x86_64-linux-gnu", "libamdhip64.so.5.2.21153", "libamdhip64.so.5");
	r = run_opts(f, false, 0, env,
		     "/opt/cuda-x/bin/nvcc=EACCES,/opt/rocm-6.2.0=EACCES,"
		     "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5=EACCES");

	tk = entry(r, "runtime.cuda_toolkits", "/opt/cuda-x");
	assert_int_equal(snap_get_state(tk, "nvcc"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(tk, "nvcc_version"), FACT_UNREADABLE);
	v = snap_get(tk, "version");
	assert_int_equal(snap_state(v), FACT_UNREADABLE);
	assert_string_equal(snap_source(v), "/opt/cuda-x/bin/nvcc");

	assert_int_equal(snap_count(snap_get(r, "runtime.rocm")), 0);
	rej = snap_get(r, "runtime.rocm_rejected");
	for (size_t i = 0; i < snap_count(rej); i++) {
		const struct snap_node *o = snap_at(rej, i), *t = snap_child(o, "toolkit");
		const char *path = snap_get_str(o, "path");

		if (path && strcmp(path, "/opt/rocm") == 0) {
			prefix_seen = true;
			assert_int_equal(snap_state(t), FACT_UNREADABLE);
			assert_string_equal(snap_error(t), strerror(EACCES));
		} else if (path && strcmp(path, "/usr/lib/x86_64-linux-gnu") == 0) {
			distro_seen = true;
			assert_int_equal(snap_state(t), FACT_UNREADABLE);
			assert_string_equal(snap_source(t),
					    "/usr/lib/x86_64-linux-gnu/libamdhip64.so.5");
		}
	}
	assert_true(prefix_seen);
	assert_true(distro_seen);
}

/* A library or header directory that is there but could not be listed or looked at (EACCES,
 * EIO) is recorded in unlisted[] with its errno, and what it would have named is unknown:
 * a component's and a toolkit's version are that state, never absent "not in this toolkit";
 * ROCm's lib/ likewise. */
static void test_lib_dirs_unlisted(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *tk, *u;

	puts_(f, "/usr/local/cuda-12.4/version.json", "{\"cuda\": {\"version\": \"12.4.1\"}}\n");
	lib(f, "/usr/local/cuda-12.4/lib64", "libcublas.so.12.4.5.8", "libcublas.so.12");
	lib(f, "/usr/local/cuda-12.4/lib64", "libcudart.so.12.4.127", "libcudart.so.12");
	puts_(f, "/usr/local/cuda-12.4/include/cuda_runtime_api.h",
	      "#define CUDART_VERSION 12040\n");
	/* only libcudart's file name says this one's version */
	lib(f, "/usr/local/cuda-11.8/targets/x86_64-linux/lib", "libcudart.so.11.8.89",
	    "libcudart.so.11.0");
	puts_(f, "/usr/local/cuda-11.8/include/cuda_runtime_api.h", "/* no CUDART_VERSION */\n");
	puts_(f, "/opt/rocm-6.2.0/.info/version", "6.2.0-66\n");
	lib(f, "/opt/rocm-6.2.0/lib", "libamdhip64.so.6.2.60200", "libamdhip64.so.6");
	r = run_opts(f, false, 0, NULL,
		     "/usr/local/cuda-12.4/lib64=EACCES,/usr/local/cuda-12.4/include=EIO,"
		     "/usr/local/cuda-11.8/targets/x86_64-linux/lib=EACCES,"
		     "/opt/rocm-6.2.0/lib=EACCES");

	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-12.4");
	assert_string_equal(snap_get_str(tk, "version"), "12.4.1");
	assert_int_equal(snap_count(snap_get(tk, "unlisted")), 2);
	u = snap_get(tk, "unlisted.0.path");
	assert_int_equal(snap_state(u), FACT_UNREADABLE);
	assert_string_equal(snap_source(u), "/usr/local/cuda-12.4/lib64");
	assert_string_equal(snap_error(u), strerror(EACCES));
	u = snap_get(tk, "unlisted.1.path");
	assert_int_equal(snap_state(u), FACT_ERROR);
	assert_string_equal(snap_source(u), "/usr/local/cuda-12.4/include");
	assert_int_equal(snap_count(snap_get(tk, "components.cublas.libraries")), 0);
	/* its version.json has no libcublas entry: the listing was the only source left */
	assert_int_equal(snap_get_state(tk, "components.cublas.version"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(tk, "components.cublas.version")),
			    "/usr/local/cuda-12.4/lib64");

	tk = entry(r, "runtime.cuda_toolkits", "/usr/local/cuda-11.8");
	assert_non_null(tk);
	assert_int_equal(snap_get_state(tk, "version"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(tk, "version")),
			    "/usr/local/cuda-11.8/targets/x86_64-linux/lib");
	/* its header says no version (malformed): never absent "not in this toolkit" */
	assert_int_not_equal(snap_get_state(tk, "components.cudart.version"), FACT_ABSENT);

	tk = entry(r, "runtime.rocm", "/opt/rocm-6.2.0");
	assert_string_equal(snap_get_str(tk, "version"), "6.2.0-66");
	assert_int_equal(snap_count(snap_get(tk, "libraries")), 0);
	u = snap_get(tk, "unlisted.0.path");
	assert_int_equal(snap_state(u), FACT_UNREADABLE);
	assert_string_equal(snap_source(u), "/opt/rocm-6.2.0/lib");
}

static void test_nothing(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	mkdir_rel(f, "/usr/local");
	r = run(f, NULL);
	assert_int_equal(snap_kind(snap_get(r, "runtime.cuda_toolkits")), SNAP_ARRAY);
	assert_int_equal(snap_count(snap_get(r, "runtime.cuda_toolkits")), 0);
	assert_int_equal(snap_count(snap_get(r, "runtime.rocm")), 0);
	assert_int_equal(snap_count(snap_get(r, "runtime.rocm_rejected")), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parsers),
		cmocka_unit_test_setup_teardown(test_pip_assembled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conda, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pip_wheel_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_version_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvcc_planted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvcc_embedded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvcc_real, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tensorrt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_62, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_debian, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_distro_pulled_in, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_loader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stat_unreadable_not_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lib_dirs_unlisted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
