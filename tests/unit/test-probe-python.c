// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Python probe and the framework rules when part of an environment cannot be read
 * (issue 13.4, the class the unreadable-path sweep found): a torch package directory, a
 * site-packages / dist-packages directory or the lib directory above them that is
 * unreadable leaves the framework or the environment recorded as "could not read" with the
 * path and errno, and the framework rules skip naming it; never "no torch". Trees are built in
 * a temp dir: a venv as Python 3.12's venv writes it (pyvenv.cfg, PEP 405), torch's
 * version.py as tools/generate_torch_version.py writes it, a dist-info METADATA head
 * (PyPA core metadata), Debian's /usr/local/lib/python3.12/dist-packages.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpuenv/gpuenv.h"
#include "probe/probe.h"
#include "rules/rules.h"
#include "probe-fx.h"

#define VENV_SITE  "/home/user/venv/lib/python3.12/site-packages"
#define LOCAL_SITE "/usr/local/lib/python3.12/dist-packages"

/* torch 2.4.0+cu124 (version.py and its dist-info) in site. */
static void torch(struct probe_fx *f, const char *site, const char *cuda)
{
	char rel[512], text[512];

	snprintf(rel, sizeof(rel), "%s/torch/version.py", site);
	snprintf(text, sizeof(text),
		 "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', "
		 "'git_version', 'hip']\n__version__ = '2.4.0+%s'\ndebug = False\n"
		 "cuda: Optional[str] = %s\ngit_version = "
		 "'ee1b6804381c57161c477caa380a840a84167676'\nhip: Optional[str] = None\n",
		 cuda ? "cu124" : "cpu", cuda ? "'12.4'" : "None");
	tmptree_puts(f->dir, rel, text);
	snprintf(rel, sizeof(rel), "%s/torch-2.4.0.dist-info/METADATA", site);
	tmptree_puts(f->dir, rel, "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n");
}

static int setup(void **state)
{
	struct probe_fx *f = probe_fx_new("python");

	tmptree_puts(f->dir, "/home/user/venv/pyvenv.cfg",
		     "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
	torch(f, VENV_SITE, "12.4");
	torch(f, LOCAL_SITE, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

static const struct snap_node *run(struct probe_fx *f, const char *inject)
{
	static const char *const env[] = { "VIRTUAL_ENV", "/home/user/venv", "HOME", "/home/user",
					   "PATH",	  "/usr/bin:/bin",   NULL };
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	for (size_t i = 0; env[i]; i += 2)
		assert_int_equal(env_set(f->ctx->env, env[i], env[i + 1]), 0);
	return probe_fx_run(f, probe_python);
}

/* The environment whose prefix is `prefix`. */
static const struct snap_node *env_of(const struct snap_node *r, const char *prefix)
{
	const struct snap_node *envs = snap_get(r, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++)
		if (streq(snap_get_str(snap_at(envs, i), "prefix") ?: "", prefix))
			return snap_at(envs, i);
	fail_msg("no environment %s", prefix);
	return NULL;
}

/* Does the doctor have a skip of rule `id` whose subject is `subject` and whose reason names
 * `path`? */
static bool skipped(const struct gpuenv_doctor *d, const char *id, const char *subject,
		    const char *path)
{
	for (size_t i = 0; i < d->n_skips; i++)
		if (streq(d->skips[i].rule->id, id) && streq(d->skips[i].subject ?: "", subject) &&
		    strstr(d->skips[i].reason, path))
			return true;
	return false;
}

/* The doctor over the probe's snapshot, with a PCI bus read (no GPU on it): the framework
 * rules need hardware.pci_devices, which this test does not probe. */
static struct gpuenv_doctor *doctor(struct probe_fx *f)
{
	struct snap_node *hw = snap_object(snapshot_root(f->s), "hardware");
	struct gpuenv_doctor *d = NULL;

	snap_set_int(hw, "pci_devices", 12, "/sys/bus/pci/devices");
	snap_array(hw, "gpus");

	assert_int_equal(gpuenv_doctor_run(f->s, &d), 0);
	return d;
}

/* The torch directory a site lists cannot be looked at: torch is there, its build unknown. */
static void test_torch_dir_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r = run(f, VENV_SITE "/torch=EACCES"), *t;
	struct gpuenv_doctor *d;

	t = snap_get(env_of(r, "/home/user/venv"), "packages.torch");
	assert_non_null(t);
	assert_int_equal(snap_get_state(t, "package_dir"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_child(t, "package_dir")), VENV_SITE "/torch");
	assert_int_equal(snap_get_state(t, "cpu_only"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(t, "cuda"), FACT_UNREADABLE);
	assert_string_equal(snap_error(snap_child(t, "cuda")), strerror(EACCES));
	assert_string_equal(snap_get_str(t, "dist_version"), "2.4.0");
	/* The readable torch next to it is read as before. */
	assert_true(
		snap_get_bool_default(env_of(r, "/usr/local"), "packages.torch.cpu_only", false));

	d = doctor(f);
	assert_true(skipped(d, "framework.cpu-only-build", "/home/user/venv", VENV_SITE "/torch"));
	assert_int_not_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_OK);
	gpuenv_doctor_free(d);
}

/* A dist-packages that cannot be looked at keeps its environment, recorded unreadable. */
static void test_system_site_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r = run(f, LOCAL_SITE "=EACCES"), *e;
	struct gpuenv_doctor *d;

	e = env_of(r, "/usr/local");
	assert_int_equal(snap_get_state(e, "site_packages.0.path"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(e, "site_packages.0.path")), LOCAL_SITE);
	assert_int_equal(snap_get_state(r, "framework.python_envs_complete"), FACT_UNREADABLE);
	d = doctor(f);
	assert_true(skipped(d, "framework.cpu-only-build", LOCAL_SITE, LOCAL_SITE));
	gpuenv_doctor_free(d);
}

/* /usr/local/lib cannot be listed: the Python installations it may hold are unknown. */
static void test_lib_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r = run(f, "/usr/local/lib=EACCES");
	const struct snap_node *u = snap_get(r, "framework.python_envs_unreadable");
	struct gpuenv_doctor *d;

	assert_int_equal(snap_count(u), 1);
	assert_int_equal(snap_get_state(snap_at(u, 0), "path"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(snap_at(u, 0), "path")), "/usr/local/lib");
	assert_int_equal(snap_get_state(r, "framework.python_envs_complete"), FACT_UNREADABLE);
	d = doctor(f);
	assert_true(skipped(d, "framework.cpu-only-build", "/usr/local/lib", "/usr/local/lib"));
	assert_int_not_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_OK);
	gpuenv_doctor_free(d);
}

/* A $PATH directory, the user's own $HOME and a conda's envs/ that are there but could not be
 * listed: the pythons and environments they hold are unknown (python_envs_unreadable[]), and
 * the home is still searched for what can be looked at. */
static void test_path_and_home_unlisted(void **state)
{
	static const char *const dirs[] = { "/usr/bin", "/home/user", "/opt/conda/envs" };
	struct probe_fx *f = *state;

	tmptree_mkdir(f->dir, "/usr/bin");
	tmptree_puts(f->dir, "/opt/conda/conda-meta/history", "");
	tmptree_puts(f->dir, "/opt/conda/envs/x/conda-meta/history", "");
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char spec[64];
		const struct snap_node *r, *u;

		snprintf(spec, sizeof(spec), "%s=EACCES", dirs[i]);
		r = run(f, spec);
		u = snap_get(r, "framework.python_envs_unreadable");
		assert_int_equal(snap_count(u), 1);
		assert_int_equal(snap_get_state(snap_at(u, 0), "path"), FACT_UNREADABLE);
		assert_string_equal(snap_source(snap_get(snap_at(u, 0), "path")), dirs[i]);
		assert_int_equal(snap_get_state(r, "framework.python_envs_complete"),
				 FACT_UNREADABLE);
	}
}

/* Two unreadable site directories: each is named by a skip, not only the first. */
static void test_two_sites_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r = run(f, VENV_SITE "=EACCES," LOCAL_SITE "=EACCES");
	struct gpuenv_doctor *d;

	assert_int_equal(snap_count(snap_get(r, "framework.python_envs_unreadable")), 2);
	d = doctor(f);
	assert_true(skipped(d, "framework.cpu-only-build", VENV_SITE, VENV_SITE));
	assert_true(skipped(d, "framework.cpu-only-build", LOCAL_SITE, LOCAL_SITE));
	gpuenv_doctor_free(d);
}

/* The GPU libraries torch's process loads (framework-coverage.c): its own beside
 * libtorch_cuda.so and the nvidia-* wheels' that its RECORD lists, each with the state of its
 * GPU code: one that is not an ELF file is malformed, one that cannot be read unreadable (never
 * left out), one listed in RECORD but not on disk is not loaded from there. */
static void test_gpu_libraries(void **state)
{
	struct probe_fx *f = *state;
	const char *lib = VENV_SITE "/torch/lib", *cudnn = VENV_SITE "/nvidia/cudnn/lib";
	const struct snap_node *r, *t, *libs;
	char p[512];

	snprintf(p, sizeof(p), "%s/libtorch_cuda.so", lib);
	tmptree_puts(f->dir, p, "not an ELF file\n");
	snprintf(p, sizeof(p), "%s/libc10_cuda.so", lib);
	tmptree_puts(f->dir, p, "not an ELF file\n");
	snprintf(p, sizeof(p), "%s/libtorch_cpu.so", lib);
	tmptree_puts(f->dir, p, "not a GPU library\n");
	tmptree_puts(f->dir, VENV_SITE "/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
	tmptree_puts(
		f->dir, VENV_SITE "/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD",
		"nvidia/cudnn/lib/libcudnn_ops.so.9,,\nnvidia/cudnn/lib/libcudnn_cnn.so.9,,\n");
	snprintf(p, sizeof(p), "%s/libcudnn_ops.so.9", cudnn);
	tmptree_puts(f->dir, p, "x");
	r = run(f, VENV_SITE "/nvidia/cudnn/lib/libcudnn_ops.so.9=EACCES");
	t = snap_get(env_of(r, "/home/user/venv"), "packages.torch");
	libs = snap_child(t, "gpu_libraries");
	assert_int_equal(snap_kind(libs), SNAP_ARRAY);
	assert_int_equal(snap_count(libs), 2);
	assert_string_equal(snap_get_str(snap_at(libs, 0), "name"), "libc10_cuda.so");
	assert_string_equal(snap_get_str(snap_at(libs, 0), "origin"), "own");
	assert_int_equal(snap_get_state(snap_at(libs, 0), "arch_targets"), FACT_MALFORMED);
	assert_string_equal(snap_get_str(snap_at(libs, 1), "path"), p);
	assert_string_equal(snap_get_str(snap_at(libs, 1), "wheel"), "nvidia-cudnn-cu12");
	assert_int_equal(snap_get_state(snap_at(libs, 1), "arch_targets"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(snap_at(libs, 1), "arch_targets")), p);
}

/* Python's venv makes lib64 a link to lib (on 64-bit POSIX builds), so the discovery sees
 * the site-packages twice: each library is still listed once (a torch 2.11 venv on a real
 * H200 machine listed all 17 wheel libraries twice). */
static void test_gpu_libraries_lib64_link(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *libs;
	size_t ops = 0;
	char p[512];

	snprintf(p, sizeof(p), "%s/torch/lib/libtorch_cuda.so", VENV_SITE);
	tmptree_puts(f->dir, p, "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
	tmptree_puts(f->dir, VENV_SITE "/nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD",
		     "nvidia/cudnn/lib/libcudnn_ops.so.9,,\n");
	tmptree_puts(f->dir, VENV_SITE "/nvidia/cudnn/lib/libcudnn_ops.so.9", "x");
	tmptree_symlink(f->dir, "/home/user/venv/lib64", "lib");
	r = run(f, NULL);
	libs = snap_child(snap_get(env_of(r, "/home/user/venv"), "packages.torch"),
			  "gpu_libraries");
	for (size_t i = 0; i < snap_count(libs); i++) {
		const char *n = snap_get_str(snap_at(libs, i), "name");

		ops += n && strcmp(n, "libcudnn_ops.so.9") == 0;
	}
	assert_int_equal(ops, 1);
}

/* The names in a gpu_libraries[] array, space-separated, in order. */
static void lib_names(const struct snap_node *libs, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < snap_count(libs) && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
				      snap_get_str(snap_at(libs, i), "name") ?: "?");
}

/* vLLM beside torch in its site-packages: the compiled modules at the top of vllm/ run their
 * own kernels in torch's process, so each is a gpu_libraries[] entry of origin "extension"
 * naming the package (an unreadable one keeps its errno); what is not a shared object, and
 * what lies below vllm/, is not one. */
static void test_gpu_libraries_extension(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *libs;
	char names[256];

	tmptree_puts(f->dir, VENV_SITE "/torch/lib/libtorch_cuda.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/vllm/__init__.py", "");
	tmptree_puts(f->dir, VENV_SITE "/vllm/_C.abi3.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/vllm/_moe_C.abi3.so", "x");
	tmptree_puts(f->dir, VENV_SITE "/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so", "x");
	r = run(f, VENV_SITE "/vllm/_moe_C.abi3.so=EACCES");
	libs = snap_child(snap_get(env_of(r, "/home/user/venv"), "packages.torch"),
			  "gpu_libraries");
	lib_names(libs, names, sizeof(names));
	assert_string_equal(names, "_C.abi3.so _moe_C.abi3.so");
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(snap_get_str(snap_at(libs, i), "origin"), "extension");
		assert_string_equal(snap_get_str(snap_at(libs, i), "package"), "vllm");
	}
	assert_int_equal(snap_get_state(snap_at(libs, 0), "arch_targets"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(snap_at(libs, 1), "arch_targets"), FACT_UNREADABLE);
	/* vllm/ that cannot be listed: one entry, unknown, never nothing */
	r = run(f, VENV_SITE "/vllm=EACCES");
	libs = snap_child(snap_get(env_of(r, "/home/user/venv"), "packages.torch"),
			  "gpu_libraries");
	assert_int_equal(snap_count(libs), 1);
	assert_string_equal(snap_get_str(snap_at(libs, 0), "package"), "vllm");
	assert_int_equal(snap_get_state(snap_at(libs, 0), "arch_targets"), FACT_UNREADABLE);
}

/* TensorFlow's own libraries besides the kernel library are judged too: with
 * libtensorflow_cc.so.2 as the kernel library, _pywrap_tensorflow_internal.so and
 * libtensorflow_framework.so.2 are its gpu_libraries[] ("own"), an unreadable one keeping its
 * errno. */
static void test_tensorflow_own_libraries(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *t, *libs;
	char names[256];

	tmptree_puts(f->dir, VENV_SITE "/tensorflow-2.15.0.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\n");
	tmptree_puts(f->dir, VENV_SITE "/tensorflow/libtensorflow_cc.so.2", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/tensorflow/python/_pywrap_tensorflow_internal.so",
		     "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/tensorflow/libtensorflow_framework.so.2", "x");
	r = run(f, VENV_SITE "/tensorflow/libtensorflow_framework.so.2=EACCES");
	t = snap_get(env_of(r, "/home/user/venv"), "packages.tensorflow");
	assert_non_null(t);
	assert_string_equal(snap_get_str(t, "kernel_library.path"),
			    VENV_SITE "/tensorflow/libtensorflow_cc.so.2");
	libs = snap_child(t, "gpu_libraries");
	lib_names(libs, names, sizeof(names));
	assert_string_equal(names, "_pywrap_tensorflow_internal.so libtensorflow_framework.so.2");
	assert_string_equal(snap_get_str(snap_at(libs, 0), "origin"), "own");
	assert_int_equal(snap_get_state(snap_at(libs, 0), "arch_targets"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(snap_at(libs, 1), "arch_targets"), FACT_UNREADABLE);
}

/* CuPy's core extension is the library whose DT_NEEDED entries are read: cupy/_core/ (CuPy 9
 * on) before cupy/core/; one that is not an ELF file is malformed, a directory that cannot be
 * listed unreadable, none there absent (never "loads nothing"). */
static void test_cupy_core_library(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *c;

	tmptree_puts(f->dir, VENV_SITE "/cupy/__init__.py", "");
	tmptree_puts(f->dir, VENV_SITE "/cupy/_core/__init__.py", "");
	r = run(f, NULL);
	c = snap_get(env_of(r, "/home/user/venv"), "packages.cupy");
	assert_int_equal(snap_get_state(c, "kernel_library"), FACT_ABSENT);
	assert_int_equal(snap_get_state(c, "loads"), FACT_ABSENT);
	tmptree_puts(f->dir, VENV_SITE "/cupy/_core/core.cpython-312-x86_64-linux-gnu.so",
		     "not an ELF file\n");
	r = run(f, NULL);
	c = snap_get(env_of(r, "/home/user/venv"), "packages.cupy");
	assert_string_equal(snap_get_str(c, "kernel_library.path"),
			    VENV_SITE "/cupy/_core/core.cpython-312-x86_64-linux-gnu.so");
	assert_int_equal(snap_get_state(c, "loads"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(c, "needed_missing"), FACT_MALFORMED);
	r = run(f, VENV_SITE "/cupy/_core=EACCES");
	c = snap_get(env_of(r, "/home/user/venv"), "packages.cupy");
	assert_int_equal(snap_get_state(c, "kernel_library"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(c, "loads"), FACT_UNREADABLE);
}

/* JAX's kernel modules: a jax-cuda12-plugin's extension modules beside XLA's plugin library,
 * and a jaxlib CUDA wheel's (0.1.7x: jaxlib/cuda_prng_kernels.so …; 0.4.x: jaxlib/cuda/)
 * beside xla_extension.so, the kernel library; a CPU jaxlib's are not looked for. */
static void test_jax_kernel_modules(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *j, *libs;
	char names[512];

	tmptree_puts(f->dir, VENV_SITE "/jax-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax\nVersion: 0.4.30\n");
	tmptree_puts(f->dir, VENV_SITE "/jax/version.py", "_version = \"0.4.30\"\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jaxlib\nVersion: 0.4.30\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/xla_extension.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/cuda_prng_kernels.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_plugin-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax-cuda12-plugin\nVersion: 0.4.30\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_pjrt-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax-cuda12-pjrt\nVersion: 0.4.30\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
		     "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_plugin/_prng.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_plugin/_linalg.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_plugin/__init__.py", "");
	r = run(f, NULL);
	j = snap_get(env_of(r, "/home/user/venv"), "packages.jax");
	assert_non_null(j);
	/* a CPU jaxlib: no kernel library, nothing of its own judged */
	assert_null(snap_get_str(j, "kernel_library.path"));
	assert_null(snap_child(j, "gpu_libraries"));
	libs = snap_child(snap_at(snap_child(j, "plugins"), 0), "gpu_libraries");
	lib_names(libs, names, sizeof(names));
	assert_string_equal(names, "_linalg.so _prng.so");
	assert_string_equal(snap_get_str(snap_at(libs, 1), "origin"), "own");
	probe_fx_free(f);

	/* jaxlib 0.1.74+cuda11.cudnn82: its modules in jaxlib/ and (0.4.x) jaxlib/cuda/ */
	f = probe_fx_new("python");
	*state = f;
	tmptree_puts(f->dir, "/home/user/venv/pyvenv.cfg",
		     "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
	tmptree_puts(f->dir, VENV_SITE "/jax-0.2.25.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax\nVersion: 0.2.25\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib-0.1.74+cuda11.cudnn82.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jaxlib\nVersion: 0.1.74+cuda11.cudnn82\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/xla_extension.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/cuda_prng_kernels.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/cublas_kernels.so", "not an ELF file\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/lapack.so", "not a GPU module\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/cuda_prng.py", "");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/cuda/_prng.so", "not an ELF file\n");
	r = run(f, NULL);
	j = snap_get(env_of(r, "/home/user/venv"), "packages.jax");
	assert_string_equal(snap_get_str(j, "kernel_library.path"),
			    VENV_SITE "/jaxlib/xla_extension.so");
	libs = snap_child(j, "gpu_libraries");
	lib_names(libs, names, sizeof(names));
	assert_string_equal(names, "cublas_kernels.so cuda_prng_kernels.so _prng.so");
	assert_string_equal(snap_get_str(snap_at(libs, 2), "path"),
			    VENV_SITE "/jaxlib/cuda/_prng.so");
}

/* TensorFlow's XLA (framework-xla.c, probe_xla_toolchain_tf()): a CUDA build's roots start
 * with the toolkit its build names (/usr/local/cuda-12.2) and hold the nvcc wheel's directory
 * beside the package; a CPU build gets none. */
static void test_tensorflow_xla(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *x;

	tmptree_puts(f->dir, VENV_SITE "/tensorflow-2.15.0.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\n");
	tmptree_puts(f->dir, VENV_SITE "/tensorflow/python/platform/build_info.py",
		     "import collections\n\nbuild_info = collections.OrderedDict([('cuda_version', "
		     "'12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', "
		     "False), ('is_tensorrt_build', True)])\n");
	tmptree_puts(f->dir, VENV_SITE "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", "");
	r = run(f, NULL);
	x = snap_get(env_of(r, "/home/user/venv"), "packages.tensorflow.xla");
	assert_non_null(x);
	assert_string_equal(snap_str(snap_at(snap_child(x, "roots"), 0)), "/usr/local/cuda-12.2");
	assert_string_equal(snap_get_str(x, "libdevice"),
			    VENV_SITE "/nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc");
	assert_int_equal(snap_get_state(x, "ptxas"), FACT_ABSENT);
	probe_fx_free(f);

	f = probe_fx_new("python");
	*state = f;
	tmptree_puts(f->dir, "/home/user/venv/pyvenv.cfg",
		     "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
	tmptree_puts(f->dir, VENV_SITE "/tensorflow-2.15.0.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.15.0\n");
	tmptree_puts(
		f->dir, VENV_SITE "/tensorflow/python/platform/build_info.py",
		"import collections\n\nbuild_info = collections.OrderedDict([('is_cuda_build', "
		"False), ('is_rocm_build', False)])\n");
	r = run(f, NULL);
	assert_non_null(snap_get(env_of(r, "/home/user/venv"), "packages.tensorflow"));
	assert_null(snap_get(env_of(r, "/home/user/venv"), "packages.tensorflow.xla"));
}

/* A conda-forge jaxlib: a CUDA build is read from its package record's build string (not
 * CPU-only, XLA's roots probed; before 0.4.34 without the prefix), a CPU build stays CPU-only. */
static void conda_jax(struct probe_fx *f, const char *version, const char *build)
{
	char rel[256], text[512];

	tmptree_puts(f->dir, "/opt/conda/envs/j/conda-meta/history", "");
	tmptree_puts(f->dir, "/opt/conda/envs/j/nvvm/libdevice/libdevice.10.bc", "");
	snprintf(rel, sizeof(rel), "/opt/conda/envs/j/conda-meta/jaxlib-%s-%s.json", version,
		 build);
	snprintf(text, sizeof(text),
		 "{\"name\": \"jaxlib\", \"version\": \"%s\", \"build\": \"%s\", "
		 "\"channel\": \"https://conda.anaconda.org/conda-forge/linux-64\"}\n",
		 version, build);
	tmptree_puts(f->dir, rel, text);
	snprintf(rel, sizeof(rel),
		 "/opt/conda/envs/j/lib/python3.11/site-packages/"
		 "jaxlib-%s.dist-info/METADATA",
		 version);
	snprintf(text, sizeof(text), "Metadata-Version: 2.1\nName: jaxlib\nVersion: %s\n", version);
	tmptree_puts(f->dir, rel, text);
	tmptree_puts(f->dir, "/opt/conda/envs/j/lib/python3.11/site-packages/jaxlib/version.py",
		     "_version = \"0\"\n");
}

static const struct snap_node *run_conda(struct probe_fx *f)
{
	static const char *const env[] = {
		"CONDA_PREFIX", "/opt/conda/envs/j", "HOME", "/home/user",
		"PATH",		"/usr/bin:/bin",     NULL
	};
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	probe_fx_open(f, &o);
	for (size_t i = 0; env[i]; i += 2)
		assert_int_equal(env_set(f->ctx->env, env[i], env[i + 1]), 0);
	return probe_fx_run(f, probe_python);
}

static void test_conda_jaxlib(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *j, *roots;

	conda_jax(f, "0.4.31", "cuda120py311h5a49573_200");
	r = run_conda(f);
	j = snap_get(env_of(r, "/opt/conda/envs/j"), "packages.jax");
	assert_non_null(j);
	assert_false(snap_get_bool_default(j, "cpu_only", true));
	assert_string_equal(snap_get_str(j, "jaxlib_conda_build"), "cuda120py311h5a49573_200");
	roots = snap_get(j, "xla.roots");
	for (size_t i = 0; i < snap_count(roots); i++)
		assert_string_not_equal(snap_str(snap_at(roots, i)), "/opt/conda/envs/j");
	assert_int_equal(snap_get_state(j, "xla.libdevice"), FACT_ABSENT);
	probe_fx_free(f);

	f = probe_fx_new("python");
	*state = f;
	conda_jax(f, "0.4.35", "cuda126py311h5a49573_200");
	r = run_conda(f);
	j = snap_get(env_of(r, "/opt/conda/envs/j"), "packages.jax");
	assert_string_equal(snap_get_str(j, "xla.libdevice"),
			    "/opt/conda/envs/j/nvvm/libdevice/libdevice.10.bc");
	probe_fx_free(f);

	f = probe_fx_new("python");
	*state = f;
	conda_jax(f, "0.4.35", "cpu_py311h5a49573_0");
	r = run_conda(f);
	j = snap_get(env_of(r, "/opt/conda/envs/j"), "packages.jax");
	assert_true(snap_get_bool_default(j, "cpu_only", false));
	assert_null(snap_child(j, "xla"));
}

/* jaxlib/ cannot be looked at: the plugins, read after it, are unread too (never an empty
 * list, which would say jax has no CUDA plugin and opens nothing). */
static void test_jaxlib_dir_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *j;

	tmptree_puts(f->dir, VENV_SITE "/jax-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax\nVersion: 0.4.30\n");
	tmptree_puts(f->dir, VENV_SITE "/jaxlib/version.py", "_version = \"0.4.30\"\n");
	tmptree_puts(f->dir, VENV_SITE "/jax_cuda12_plugin-0.4.30.dist-info/METADATA",
		     "Metadata-Version: 2.1\nName: jax-cuda12-plugin\nVersion: 0.4.30\n");
	r = run(f, VENV_SITE "/jaxlib=EACCES");
	j = snap_get(env_of(r, "/home/user/venv"), "packages.jax");
	assert_int_equal(snap_get_state(j, "package_dir"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(j, "plugins"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_child(j, "plugins")), VENV_SITE "/jaxlib");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_torch_dir_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_system_site_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lib_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_and_home_unlisted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_sites_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpu_libraries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpu_libraries_lib64_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpu_libraries_extension, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tensorflow_own_libraries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cupy_core_library, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jax_kernel_modules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jaxlib_dir_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tensorflow_xla, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conda_jaxlib, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
