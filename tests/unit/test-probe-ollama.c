// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ollama probe (src/probe/probe-ollama.c, framework.ollama) against trees built in a temp
 * dir, one per layout ollama has shipped: the Linux tarball's lib/ollama/cuda_v12 and cuda_v13
 * (0.5.8 and later, CMakePresets.json and its install rules), the runners/ of the releases
 * before 0.5.8, Arch Linux's /usr/lib/ollama/libggml-cuda.so built against the system's CUDA,
 * and lib/ollama/rocm (rocm_v7_2, cuda_jetpack6 in newer releases) with ROCm's rocblas/library
 * (CMakeLists.txt's OLLAMA_HIP_INSTALL_DIR; ollama's GetSupportedGFX() reads the
 * TensileLibrary_lazy_<gfx>.dat names); a directory that
 * cannot be listed is recorded as such, never as "no variant". The service's environment
 * (probe-ollama-service.c): the unit search path, drop-ins in name order, masking, the files
 * EnvironmentFile= names (hostile ones included), whether the unit is enabled (a link in any
 * unit directory's .wants/ or .requires/, one to /dev/null masking), what the files
 * cannot tell. The ROCm of releases before 0.5.8 (rocblas/library in lib/ollama itself).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe-fx.h"
#include "probe/probe.h"

static int setup(void **state)
{
	*state = probe_fx_new("ollama");
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

static void puts_(struct probe_fx *f, const char *rel, const char *text)
{
	tmptree_puts(f->dir, rel, text);
}

/* framework.ollama after the probe ran over the tree (inject: root errors, or NULL). */
static const struct snap_node *run(struct probe_fx *f, const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	return snap_get(probe_fx_run(f, probe_ollama), "framework.ollama");
}

/* The variant of cuda_variants named name, or NULL. */
static const struct snap_node *variant(const struct snap_node *ol, const char *name)
{
	const struct snap_node *arr = snap_get(ol, "cuda_variants");

	for (size_t i = 0; i < snap_count(arr); i++)
		if (strcmp(snap_get_str(snap_at(arr, i), "name") ?: "", name) == 0)
			return snap_at(arr, i);
	return NULL;
}

static void test_no_ollama(void **state)
{
	struct probe_fx *f = *state;

	puts_(f, "/etc/os-release", "ID=debian\n");
	assert_null(run(f, NULL)); /* no library directory: no key at all */
}

/* The tarball under /usr/local: one variant per cuda_v* directory with a libggml-cuda.so, its
 * own runtime's version from the file name; a directory without the library is no variant. */
static void test_tarball_cuda_v12_v13(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v;

	puts_(f, "/usr/local/lib/ollama/libggml-base.so", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v12/libggml-cuda.so", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v12/libcudart.so.12", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v12/libcudart.so.12.8.90", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v13/libggml-cuda.so", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v13/libcudart.so.13", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v11/README", "");
	ol = run(f, NULL);
	assert_non_null(ol);
	assert_string_equal(snap_str(snap_at(snap_get(ol, "install_dirs"), 0)),
			    "/usr/local/lib/ollama");
	assert_int_equal(snap_count(snap_get(ol, "cuda_variants")), 2);
	assert_null(variant(ol, "cuda_v11"));
	v = variant(ol, "cuda_v12");
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/local/lib/ollama/cuda_v12/libggml-cuda.so");
	assert_string_equal(snap_get_str(v, "cudart.version"), "12.8.90");
	/* libcudart.so.13 alone: only the major is known */
	assert_string_equal(snap_get_str(variant(ol, "cuda_v13"), "cudart.version"), "13");
	/* an empty stand-in has no GPU code to read: never a list */
	assert_int_not_equal(snap_get_state(v, "arch_targets"), FACT_PRESENT);
	assert_null(snap_get(ol, "rocm_variants"));
}

/* Before 0.5.8: runners/cuda_v11/ollama_llama_server, the runtime in lib/ollama itself. */
static void test_runners_before_058(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *v;

	puts_(f, "/usr/lib/ollama/runners/cuda_v11/ollama_llama_server", "");
	puts_(f, "/usr/lib/ollama/libcudart.so.11.3.109", "");
	v = variant(run(f, NULL), "cuda_v11");
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/lib/ollama/runners/cuda_v11/ollama_llama_server");
	assert_string_equal(snap_get_str(v, "cudart.path"),
			    "/usr/lib/ollama/libcudart.so.11.3.109");
	assert_string_equal(snap_get_str(v, "cudart.version"), "11.3.109");
}

/* Arch Linux's ollama-cuda: the library in the install directory, the system's runtime. */
static void test_arch_package(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *v;

	puts_(f, "/usr/lib/ollama/libggml-cuda.so", "");
	puts_(f, "/usr/lib/ollama/libggml-base.so", "");
	v = variant(run(f, NULL), "ollama");
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "library"), "/usr/lib/ollama/libggml-cuda.so");
	assert_int_equal(snap_get_state(v, "cudart"), FACT_ABSENT);
}

/* Before 0.5.8: the ROCm tarball's rocblas/library in lib/ollama itself, the runner in
 * runners/rocm_avx; without rocblas/ there (the CUDA-only tarball) no ROCm variant. */
static void test_rocm_before_058(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v, *t;

	puts_(f, "/usr/local/lib/ollama/runners/rocm_avx/ollama_llama_server", "");
	puts_(f, "/usr/local/lib/ollama/libggml_rocm.so", "");
	ol = run(f, NULL);
	assert_null(snap_get(ol, "rocm_variants"));
	puts_(f, "/usr/local/lib/ollama/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "");
	puts_(f, "/usr/local/lib/ollama/rocblas/library/TensileLibrary_lazy_gfx906.dat", "");
	ol = run(f, NULL);
	v = snap_at(snap_get(ol, "rocm_variants"), 0);
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "dir"), "/usr/local/lib/ollama");
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/local/lib/ollama/runners/rocm_avx/ollama_llama_server");
	t = snap_get(v, "rocblas_targets");
	assert_int_equal(snap_count(t), 2);
	assert_string_equal(snap_get_str(snap_at(t, 0), "gfx"), "gfx1030");
	assert_string_equal(snap_get_str(snap_at(t, 1), "gfx"), "gfx906");
}

/* lib/ollama/rocm: the gfx targets of rocblas/library's TensileLibrary_lazy_<gfx>.dat names
 * only (the other files and names are not targets). */
static void test_rocm_rocblas_targets(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *v, *t;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_gfx1030.dat", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_gfx90a.dat", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_gfx1030.co", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_.dat", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/Kernels.so-000-gfx1030.hsaco", "");
	v = snap_at(snap_get(run(f, NULL), "rocm_variants"), 0);
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "dir"), "/usr/local/lib/ollama/rocm");
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/local/lib/ollama/rocm/libggml-hip.so");
	t = snap_get(v, "rocblas_targets");
	assert_int_equal(snap_count(t), 2);
	assert_string_equal(snap_get_str(snap_at(t, 0), "gfx"), "gfx1030");
	assert_string_equal(snap_get_str(snap_at(t, 1), "gfx"), "gfx90a");
}

/* Newer releases: lib/ollama/rocm_v7_2 (the Dockerfile's llama-server-rocm_v7_2 stage), and
 * the arm64 tarball's cuda_jetpack6 beside cuda_v13; a file named rocm* is no build. */
static void test_versioned_dirs(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v, *t;

	puts_(f, "/usr/local/lib/ollama/rocm_v7_2/libggml-hip.so", "");
	puts_(f, "/usr/local/lib/ollama/rocm_v7_2/rocblas/library/TensileLibrary_lazy_gfx1100.dat",
	      "");
	puts_(f, "/usr/local/lib/ollama/rocm-notes.txt", "");
	puts_(f, "/usr/local/lib/ollama/cuda_v13/libggml-cuda.so", "");
	puts_(f, "/usr/local/lib/ollama/cuda_jetpack6/libggml-cuda.so", "");
	puts_(f, "/usr/local/lib/ollama/mlx_cuda_v13/libmlx.so", "");
	ol = run(f, NULL);
	assert_int_equal(snap_count(snap_get(ol, "rocm_variants")), 1);
	v = snap_at(snap_get(ol, "rocm_variants"), 0);
	assert_string_equal(snap_get_str(v, "dir"), "/usr/local/lib/ollama/rocm_v7_2");
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/local/lib/ollama/rocm_v7_2/libggml-hip.so");
	t = snap_get(v, "rocblas_targets");
	assert_int_equal(snap_count(t), 1);
	assert_string_equal(snap_get_str(snap_at(t, 0), "gfx"), "gfx1100");
	assert_int_equal(snap_count(snap_get(ol, "cuda_variants")), 2);
	assert_non_null(variant(ol, "cuda_v13"));
	v = variant(ol, "cuda_jetpack6");
	assert_non_null(v);
	assert_string_equal(snap_get_str(v, "library"),
			    "/usr/local/lib/ollama/cuda_jetpack6/libggml-cuda.so");
}

/* A rocm/ without rocblas/library: absent (ollama does not use it), not an empty list. */
static void test_rocm_without_rocblas(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *v;

	puts_(f, "/usr/lib/ollama/rocm/libggml-hip.so", "");
	v = snap_at(snap_get(run(f, NULL), "rocm_variants"), 0);
	assert_int_equal(snap_get_state(v, "rocblas_targets"), FACT_ABSENT);
}

/* Directories that cannot be listed: recorded unreadable, never "no variant" or "no list". */
static void test_unreadable_dirs(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v;

	puts_(f, "/usr/local/lib/ollama/cuda_v12/libggml-cuda.so", "");
	puts_(f, "/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_gfx1100.dat", "");
	ol = run(f, "/usr/local/lib/ollama/cuda_v12=EACCES,"
		    "/usr/local/lib/ollama/rocm/rocblas/library=EACCES");
	v = variant(ol, "cuda_v12");
	assert_non_null(v);
	assert_int_equal(snap_get_state(v, "arch_targets"), FACT_UNREADABLE);
	v = snap_at(snap_get(ol, "rocm_variants"), 0);
	assert_int_equal(snap_get_state(v, "rocblas_targets"), FACT_UNREADABLE);
}

/* The install directory itself unreadable: one variant standing for what it holds. */
static void test_unreadable_install_dir(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/cuda_v12/libggml-cuda.so", "");
	ol = run(f, "/usr/local/lib/ollama=EACCES");
	assert_non_null(ol);
	assert_int_equal(snap_get_state(snap_at(snap_get(ol, "cuda_variants"), 0), "arch_targets"),
			 FACT_UNREADABLE);
}

/* ollama's service: install.sh's unit in /etc, `systemctl edit`'s drop-in beside it and a
 * vendor's in /usr/lib; the drop-ins in the order of their names, the /etc override.conf
 * hiding /usr/lib's; the GPU variables recorded with their file:line, nothing else. */
static void test_service_drop_ins(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *env, *d;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Unit]\nDescription=Ollama Service\n\n[Service]\n"
	      "ExecStart=/usr/local/bin/ollama serve\n"
	      "Environment=\"PATH=/usr/local/bin:/usr/bin\" HSA_OVERRIDE_GFX_VERSION=9.0.0\n");
	puts_(f, "/usr/lib/systemd/system/ollama.service.d/10-vendor.conf",
	      "[Service]\nEnvironment=HIP_VISIBLE_DEVICES=0\n");
	puts_(f, "/usr/lib/systemd/system/ollama.service.d/override.conf",
	      "[Service]\nEnvironment=HSA_OVERRIDE_GFX_VERSION=11.0.0\n");
	puts_(f, "/etc/systemd/system/ollama.service.d/override.conf",
	      "### Editing /etc/systemd/system/ollama.service.d/override.conf\n[Service]\n"
	      "Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\"\n");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\nEnvironment=HSA_XNACK=1\n");
	ol = run(f, NULL);
	assert_string_equal(snap_get_str(ol, "service_unit"), "/etc/systemd/system/ollama.service");
	d = snap_get(ol, "service_drop_ins");
	assert_int_equal(snap_count(d), 2);
	assert_string_equal(snap_str(snap_at(d, 0)),
			    "/usr/lib/systemd/system/ollama.service.d/10-vendor.conf");
	assert_string_equal(snap_str(snap_at(d, 1)),
			    "/etc/systemd/system/ollama.service.d/override.conf");
	env = snap_get(ol, "service_environment");
	assert_string_equal(snap_get_str(env, "HSA_OVERRIDE_GFX_VERSION"), "10.3.0");
	assert_string_equal(snap_source(snap_child(env, "HSA_OVERRIDE_GFX_VERSION")),
			    "/etc/systemd/system/ollama.service.d/override.conf:3");
	assert_string_equal(snap_get_str(env, "HIP_VISIBLE_DEVICES"), "0");
	assert_null(snap_child(env, "PATH"));
	assert_null(snap_child(env, "HSA_XNACK")); /* /usr/lib's unit is hidden by /etc's */
}

/* No unit: no service keys (the server's environment is the judged process's); a masked
 * unit is no service; a unit with no GPU variable: an empty service_environment. */
static void test_service_none_masked_empty(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	ol = run(f, NULL);
	assert_null(snap_child(ol, "service_unit"));
	assert_null(snap_child(ol, "service_environment"));
	tmptree_symlink(f->dir, "/etc/systemd/system/ollama.service", "/dev/null");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\nEnvironment=A=1\n");
	ol = run(f, NULL);
	assert_null(snap_child(ol, "service_unit"));
	tmptree_sh("rm %s/etc/systemd/system/ollama.service", f->dir);
	ol = run(f, NULL);
	assert_string_equal(snap_get_str(ol, "service_unit"),
			    "/usr/lib/systemd/system/ollama.service");
	assert_int_equal(snap_kind(snap_child(ol, "service_environment")), SNAP_OBJECT);
	assert_int_equal(snap_count(snap_child(ol, "service_environment")), 0);
}

/* What the files cannot tell: an EnvironmentFile= (not read), a drop-in directory that
 * cannot be listed; never "not set". */
static void test_service_cannot_tell(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Service]\nEnvironment=HIP_VISIBLE_DEVICES=1 \"PATH=a\\b\"\n");
	puts_(f, "/etc/systemd/system/ollama.service.d/override.conf", "[Service]\n");
	ol = run(f, "/etc/systemd/system/ollama.service.d=EACCES");
	assert_string_equal(snap_get_str(ol, "service_unit"), "/etc/systemd/system/ollama.service");
	assert_int_equal(snap_get_state(ol, "service_environment"), FACT_UNREADABLE);
	/* more drop-ins than are read: one left out may set it */
	for (unsigned i = 0; i < 40; i++) {
		char rel[96];

		snprintf(rel, sizeof(rel), "/etc/systemd/system/ollama.service.d/%02u.conf", i);
		puts_(f, rel, "[Service]\n");
	}
	ol = run(f, NULL);
	assert_int_not_equal(snap_get_state(ol, "service_environment"), FACT_PRESENT);
	assert_null(snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION"));
	v = snap_get(ol, "service_environment.HIP_VISIBLE_DEVICES");
	assert_null(v);
}

/* EnvironmentFile= (systemd.exec(5)): read through the root, applied over every Environment=
 * line; "-" skips a missing file; a file that cannot be read, a missing one without "-", a
 * path with a specifier or a glob: every variable could not be told, except one a file read
 * after it sets. */
static void test_service_environment_file(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol, *v, *files;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Service]\nEnvironmentFile=-/etc/default/ollama\nEnvironment=HIP_VISIBLE_DEVICES=1\n");
	ol = run(f, NULL);
	assert_null(snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION"));
	assert_string_equal(snap_get_str(ol, "service_environment.HIP_VISIBLE_DEVICES"), "1");
	assert_null(snap_get(ol, "service_environment_files"));

	/* the file overrides the Environment= line written after it */
	puts_(f, "/etc/default/ollama",
	      "# ollama\nHSA_OVERRIDE_GFX_VERSION=\"10.3.0\"\nHIP_VISIBLE_DEVICES=0\n"
	      "export ROCR_VISIBLE_DEVICES=0\n");
	ol = run(f, NULL);
	v = snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION");
	assert_string_equal(snap_str(v), "10.3.0");
	assert_string_equal(snap_source(v), "/etc/default/ollama:2");
	assert_string_equal(snap_get_str(ol, "service_environment.HIP_VISIBLE_DEVICES"), "0");
	assert_null(snap_get(ol, "service_environment.ROCR_VISIBLE_DEVICES"));
	files = snap_get(ol, "service_environment_files");
	assert_int_equal(snap_count(files), 1);
	assert_string_equal(snap_str(snap_at(files, 0)), "/etc/default/ollama");

	/* unreadable: nothing is known, not even what Environment= set */
	ol = run(f, "/etc/default/ollama=EACCES");
	v = snap_get(ol, "service_environment.HIP_VISIBLE_DEVICES");
	assert_int_equal(snap_state(v), FACT_UNPROBED);
	assert_string_equal(snap_source(v), "/etc/systemd/system/ollama.service:2");
	assert_int_equal(snap_get_state(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION"),
			 FACT_UNPROBED);

	/* a file systemd refuses (not UTF-8) with "-": skipped whole */
	puts_(f, "/etc/default/ollama", "HSA_OVERRIDE_GFX_VERSION=10.3.0\nX=\xc3\x28\n");
	ol = run(f, NULL);
	assert_null(snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION"));
	assert_string_equal(snap_get_str(ol, "service_environment.HIP_VISIBLE_DEVICES"), "1");

	/* without "-", a missing file stops the service; a directory; a specifier; a file read
	 * after an unknown one still tells what it sets */
	puts_(f, "/etc/ollama.d/a.conf", "HIP_VISIBLE_DEVICES=2\n");
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Service]\nEnvironmentFile=/etc/missing.conf\nEnvironmentFile=/etc/ollama.d\n"
	      "EnvironmentFile=-%h/ollama.env\nEnvironmentFile=/etc/ollama.d/*.conf\n"
	      "EnvironmentFile=/etc/ollama.d/a.conf\n");
	ol = run(f, NULL);
	v = snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION");
	assert_int_equal(snap_state(v), FACT_UNPROBED);
	assert_string_equal(snap_source(v), "/etc/systemd/system/ollama.service:5");
	v = snap_get(ol, "service_environment.HIP_VISIBLE_DEVICES");
	assert_string_equal(snap_str(v), "2");
	assert_string_equal(snap_source(v), "/etc/ollama.d/a.conf:1");
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Service]\nEnvironmentFile=/etc/missing.conf\n");
	ol = run(f, NULL);
	assert_int_equal(snap_get_state(ol, "service_environment.HIP_VISIBLE_DEVICES"),
			 FACT_UNPROBED);

	/* hostile: a FIFO is never opened for reading (it would block); a symlink to an
	 * absolute path resolves inside the sysroot, not on the machine gpuenv runs on */
	{
		char path[4096], link[4096];

		snprintf(path, sizeof(path), "%s/etc/fifo.env", f->dir);
		assert_int_equal(mkfifo(path, 0644), 0);
		puts_(f, "/etc/inside/ollama.env", "HSA_OVERRIDE_GFX_VERSION=11.0.0\n");
		snprintf(link, sizeof(link), "%s/etc/link.env", f->dir);
		assert_int_equal(symlink("/etc/inside/ollama.env", link), 0);
	}
	puts_(f, "/etc/systemd/system/ollama.service",
	      "[Service]\nEnvironmentFile=-/etc/fifo.env\nEnvironmentFile=/etc/link.env\n");
	alarm(20); /* a blocked open fails the test instead of hanging it */
	ol = run(f, NULL);
	alarm(0);
	v = snap_get(ol, "service_environment.HSA_OVERRIDE_GFX_VERSION");
	assert_string_equal(snap_str(v), "11.0.0"); /* the file after the FIFO tells it */
	assert_string_equal(snap_source(v), "/etc/link.env:1");
	v = snap_get(ol, "service_environment.HIP_VISIBLE_DEVICES");
	assert_int_equal(snap_state(v), FACT_UNPROBED);
	assert_string_equal(snap_source(v), "/etc/systemd/system/ollama.service:2");
}

/* service_enabled: a <target>.wants/ link (`systemctl enable`), none, or unreadable. */
static void test_service_enabled(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\n");
	puts_(f, "/etc/systemd/system/multi-user.target.wants/sshd.service", "");
	ol = run(f, NULL);
	assert_false(snap_get_bool_default(ol, "service_enabled", true));
	assert_int_equal(snap_get_state(ol, "service_enabled"), FACT_PRESENT);
	puts_(f, "/etc/systemd/system/default.target.wants/ollama.service", "");
	ol = run(f, NULL);
	assert_true(snap_get_bool_default(ol, "service_enabled", false));
	assert_string_equal(snap_source(snap_get(ol, "service_enabled")),
			    "/etc/systemd/system/default.target.wants/ollama.service");
	ol = run(f, "/etc/systemd/system=EACCES");
	assert_int_equal(snap_get_state(ol, "service_enabled"), FACT_UNREADABLE);
}

/* A link in the .wants/ of the runtime directory (`systemctl enable --runtime`). */
static void test_service_enabled_run(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\n");
	puts_(f, "/run/systemd/system/multi-user.target.wants/ollama.service", "");
	ol = run(f, NULL);
	assert_true(snap_get_bool_default(ol, "service_enabled", false));
	assert_string_equal(snap_source(snap_get(ol, "service_enabled")),
			    "/run/systemd/system/multi-user.target.wants/ollama.service");
}

/* Enabled statically by a package, in /usr/lib/systemd/system or Debian's /lib; a link that
 * cannot be looked at elsewhere does not hide it. */
static void test_service_enabled_vendor(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\n");
	puts_(f, "/lib/systemd/system/multi-user.target.requires/ollama.service", "");
	ol = run(f, NULL);
	assert_true(snap_get_bool_default(ol, "service_enabled", false));
	assert_string_equal(snap_source(snap_get(ol, "service_enabled")),
			    "/lib/systemd/system/multi-user.target.requires/ollama.service");
	puts_(f, "/usr/lib/systemd/system/multi-user.target.wants/ollama.service", "");
	puts_(f, "/etc/systemd/system/multi-user.target.wants/sshd.service", "");
	ol = run(f, "/etc/systemd/system/multi-user.target.wants=EACCES");
	assert_true(snap_get_bool_default(ol, "service_enabled", false));
	assert_string_equal(snap_source(snap_get(ol, "service_enabled")),
			    "/usr/lib/systemd/system/multi-user.target.wants/ollama.service");
}

/* A link to /dev/null in /etc masks the package's link of the same target; another target's
 * link still enables the unit. */
static void test_service_enabled_masked(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *ol;

	puts_(f, "/usr/local/lib/ollama/rocm/libggml-hip.so", "");
	puts_(f, "/usr/lib/systemd/system/ollama.service", "[Service]\n");
	puts_(f, "/usr/lib/systemd/system/multi-user.target.wants/ollama.service", "");
	assert_int_equal(tmptree_sh("mkdir -p %s/etc/systemd/system/multi-user.target.wants && "
				    "ln -s /dev/null "
				    "%s/etc/systemd/system/multi-user.target.wants/ollama.service",
				    f->dir, f->dir),
			 0);
	ol = run(f, NULL);
	assert_false(snap_get_bool_default(ol, "service_enabled", true));
	assert_int_equal(snap_get_state(ol, "service_enabled"), FACT_PRESENT);
	puts_(f, "/usr/lib/systemd/system/graphical.target.wants/ollama.service", "");
	ol = run(f, NULL);
	assert_true(snap_get_bool_default(ol, "service_enabled", false));
	assert_string_equal(snap_source(snap_get(ol, "service_enabled")),
			    "/usr/lib/systemd/system/graphical.target.wants/ollama.service");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_ollama, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tarball_cuda_v12_v13, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runners_before_058, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arch_package, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_rocblas_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_before_058, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rocm_without_rocblas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_versioned_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_install_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_drop_ins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_none_masked_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_cannot_tell, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_environment_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_enabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_enabled_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_enabled_vendor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_enabled_masked, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
