/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/probe/probe-libraries.c over trees built at test time (tiny shared objects
 * with the real SONAMEs, made with the C compiler; caches written by glibc's
 * `ldconfig -r`): a CUDA forward-compatibility libcuda older than the kernel module first on
 * LD_LIBRARY_PATH, cuDNN 8 and 9 both loadable, pip-wheel libraries beside a system
 * toolkit, a compat libcuda the cache gives with the ld.so.conf.d file that lists it, and bad
 * input recorded as states: a truncated ld.so.cache, a symlink loop, a file
 * that is not ELF, an unreadable LD_LIBRARY_PATH directory or multiarch directory (root error
 * injection).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe/probe.h"
#include "probe-fx.h"

static bool have_tools;
static const char *ldconfig;

static void so(struct probe_fx *f, const char *rel, const char *soname)
{
	tmptree_cc_so(f->dir, rel, soname, NULL);
}

static void ln(struct probe_fx *f, const char *target, const char *rel)
{
	assert_int_equal(tmptree_sh("ln -sfn %s %s%s", target, f->dir, rel), 0);
}

static int setup(void **state)
{
	struct probe_fx *f = probe_fx_new("libs");

	assert_int_equal(tmptree_sh("mkdir -p %s/etc %s/usr/lib/x86_64-linux-gnu && "
				    "echo /usr/lib/x86_64-linux-gnu > %s/etc/ld.so.conf",
				    f->dir, f->dir, f->dir),
			 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	probe_fx_free(*state);
	return 0;
}

static const struct snap_node *run(struct probe_fx *f, const char *llp, const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	assert_int_equal(tmptree_sh("%s -r %s 2>/dev/null", ldconfig, f->dir), 0);
	probe_fx_open(f, &o);
	probe_fx_inject(f, inject);
	if (llp)
		assert_int_equal(env_set(f->ctx->env, "LD_LIBRARY_PATH", llp), 0);
	return probe_fx_run(f, probe_libraries);
}

#define CHECK_TOOLS()                                                                              \
	do {                                                                                       \
		if (!have_tools) {                                                                 \
			printf("# skipping: needs cc and ldconfig\n");                             \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

/* NVIDIA's cuda-compat package: libcuda 535.161.08 in the toolkit's compat/ directory, put
 * first by LD_LIBRARY_PATH, while the kernel module and the system libcuda are 550.54.15. */
static void test_compat_first(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	CHECK_TOOLS();
	so(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "libcuda.so.1");
	ln(f, "libcuda.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	so(f, "/usr/local/cuda-12.2/compat/libcuda.so.535.161.08", "libcuda.so.1");
	ln(f, "libcuda.so.535.161.08", "/usr/local/cuda-12.2/compat/libcuda.so.1");
	ln(f, "libcuda.so.1", "/usr/local/cuda-12.2/compat/libcuda.so");
	r = run(f, "/usr/local/cuda-12.2/compat", NULL);
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.path"),
			    "/usr/local/cuda-12.2/compat/libcuda.so.1");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.version"), "535.161.08");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.found_via"),
			    "LD_LIBRARY_PATH");
	assert_true(snap_get_bool_default(r, "driver.userspace.libcuda.in_compat_dir", false));
	assert_false(snap_get_bool_default(r, "driver.userspace.libcuda.is_stub", true));
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.shadowed.0.version"),
			    "550.54.15");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.shadowed.0.found_via"),
			    "ld.so.cache");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.shadowed.0.verdict"),
			    "loadable");
	assert_int_equal(snap_count(snap_get(r, "driver.userspace.libcuda.shadowed")), 1);
	assert_int_equal(snap_count(snap_get(r, "driver.userspace.compat_libcuda")), 1);
	assert_string_equal(snap_get_str(r, "driver.userspace.compat_libcuda.0.version"),
			    "535.161.08");
	assert_string_equal(snap_get_str(r, "driver.userspace.compat_libcuda.0.resolved_path"),
			    "/usr/local/cuda-12.2/compat/libcuda.so.535.161.08");
	assert_int_equal(snap_get_state(r, "driver.userspace.libnvidia_ml.path"), FACT_ABSENT);
	/* Found through LD_LIBRARY_PATH: no ld.so.conf file is what put it first. */
	assert_null(snap_get(r, "driver.userspace.libcuda.ld_so_conf"));
}

/* NVIDIA's nvidia/cuda runtime images: cuda-compat's /etc/ld.so.conf.d/000_cuda_compat.conf
 * names /usr/local/cuda/compat (a link to cuda-12.2), which ldconfig reads first, so the
 * cache gives the compat libcuda; another .conf file lists the toolkit's lib64 only. */
static void compat_by_conf(struct probe_fx *f)
{
	so(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "libcuda.so.1");
	ln(f, "libcuda.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	so(f, "/usr/local/cuda-12.2/compat/libcuda.so.535.161.08", "libcuda.so.1");
	ln(f, "libcuda.so.535.161.08", "/usr/local/cuda-12.2/compat/libcuda.so.1");
	ln(f, "cuda-12.2", "/usr/local/cuda");
	assert_int_equal(tmptree_sh("mkdir -p %s/etc/ld.so.conf.d %s/usr/local/cuda-12.2/lib64 && "
				    "printf 'include /etc/ld.so.conf.d/*.conf\n"
				    "/usr/lib/x86_64-linux-gnu\n' > %s/etc/ld.so.conf && "
				    "echo '/usr/local/cuda/compat/  # cuda-compat' > "
				    "%s/etc/ld.so.conf.d/000_cuda_compat.conf && "
				    "echo /usr/local/cuda/lib64 > %s/etc/ld.so.conf.d/cuda.conf",
				    f->dir, f->dir, f->dir, f->dir, f->dir),
			 0);
}

static void test_compat_listed_by_conf(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *conf;

	CHECK_TOOLS();
	compat_by_conf(f);
	r = run(f, NULL, NULL);
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.found_via"), "ld.so.cache");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.version"), "535.161.08");
	conf = snap_get(r, "driver.userspace.libcuda.ld_so_conf");
	assert_int_equal(snap_count(conf), 1);
	assert_string_equal(snap_str(snap_at(conf, 0)), "/etc/ld.so.conf.d/000_cuda_compat.conf");
	assert_string_equal(snap_source(snap_at(conf, 0)),
			    "/etc/ld.so.conf.d/000_cuda_compat.conf");
	/* The system libcuda is no compat copy: nothing is looked up for it. */
	assert_null(snap_get(r, "driver.userspace.libnvidia_ml.ld_so_conf"));
}

/* The conf file that would tell cannot be read: which file lists the directory is not known. */
static void test_compat_conf_unreadable(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	CHECK_TOOLS();
	compat_by_conf(f);
	r = run(f, NULL, "/etc/ld.so.conf.d/000_cuda_compat.conf=EACCES");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.found_via"), "ld.so.cache");
	assert_int_equal(snap_get_state(r, "driver.userspace.libcuda.ld_so_conf"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(r, "driver.userspace.libcuda.ld_so_conf")),
			    "/etc/ld.so.conf.d/000_cuda_compat.conf");
}

/* A cache made before the conf file was removed (ldconfig not rerun): no file lists it. */
static void test_compat_conf_gone(void **state)
{
	struct probe_fx *f = *state;
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };
	const struct snap_node *r;

	CHECK_TOOLS();
	compat_by_conf(f);
	assert_int_equal(
		tmptree_sh("%s -r %s 2>/dev/null && rm %s/etc/ld.so.conf.d/000_cuda_compat.conf",
			   ldconfig, f->dir, f->dir),
		0);
	probe_fx_open(f, &o);
	r = probe_fx_run(f, probe_libraries);
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.version"), "535.161.08");
	assert_int_equal(snap_get_state(r, "driver.userspace.libcuda.ld_so_conf"), FACT_ABSENT);
}

/* cuDNN 8 from the system, cuDNN 9 from a toolkit on LD_LIBRARY_PATH, a pip wheel's cudart
 * on LD_LIBRARY_PATH ahead of the toolkit's. */
static void test_families(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *cudnn;
	const char *wheel = "/venv/lib/python3.11/site-packages/nvidia/cuda_runtime/lib";
	char rel[256];

	CHECK_TOOLS();
	so(f, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "libcudnn.so.8");
	ln(f, "libcudnn.so.8.9.7", "/usr/lib/x86_64-linux-gnu/libcudnn.so.8");
	so(f, "/usr/local/cuda-12.4/lib64/libcudnn.so.9.1.0", "libcudnn.so.9");
	ln(f, "libcudnn.so.9.1.0", "/usr/local/cuda-12.4/lib64/libcudnn.so.9");
	so(f, "/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", "libcudart.so.12");
	ln(f, "libcudart.so.12.4.127", "/usr/local/cuda-12.4/lib64/libcudart.so.12");
	snprintf(rel, sizeof(rel), "%s/libcudart.so.12", wheel);
	so(f, rel, "libcudart.so.12");
	/* A libcudnn_adv.so.9 is another family: it must not appear under libcudnn. */
	so(f, "/usr/local/cuda-12.4/lib64/libcudnn_adv.so.9", "libcudnn_adv.so.9");
	{
		char llp[512];

		snprintf(llp, sizeof(llp), "%s:/usr/local/cuda-12.4/lib64", wheel);
		r = run(f, llp, NULL);
	}
	cudnn = snap_get(r, "runtime.libraries.libcudnn");
	assert_int_equal(snap_count(cudnn), 2);
	assert_string_equal(snap_get_str(cudnn, "0.soname"), "libcudnn.so.8");
	assert_string_equal(snap_get_str(cudnn, "0.version"), "8.9.7");
	assert_string_equal(snap_get_str(cudnn, "0.found_via"), "ld.so.cache");
	assert_string_equal(snap_get_str(cudnn, "1.soname"), "libcudnn.so.9");
	assert_string_equal(snap_get_str(cudnn, "1.version"), "9.1.0");
	assert_string_equal(snap_get_str(cudnn, "1.found_via"), "LD_LIBRARY_PATH");
	assert_int_equal(snap_count(snap_get(r, "runtime.libraries.libcudart")), 1);
	snprintf(rel, sizeof(rel), "%s/libcudart.so.12", wheel);
	assert_string_equal(snap_get_str(r, "runtime.libraries.libcudart.0.path"), rel);
	/* The wheel's file carries only the major; the toolkit's, shadowed, the full version. */
	assert_string_equal(snap_get_str(r, "runtime.libraries.libcudart.0.version"), "12");
	assert_string_equal(snap_get_str(r, "runtime.libraries.libcudart.0.shadowed.0.version"),
			    "12.4.127");
	assert_int_equal(snap_count(snap_get(r, "runtime.libraries.libamdhip64")), 0);
	assert_int_equal(snap_get_state(r, "runtime.loader.ld_so_cache.format"), FACT_PRESENT);
	assert_string_equal(snap_get_str(r, "runtime.loader.default_dirs_kind"),
			    "debian-multiarch");
}

/* Debian's glibc or upstream's is told from the root's layout: with the multiarch
 * /usr/lib/x86_64-linux-gnu that cannot be looked at, no /lib/x86_64-linux-gnu and no
 * /etc/debian_version, it cannot be, and default_dirs_kind says so (the sweep's rule 4,
 * tests/tools/sweep-unreadable.c). The search keeps the list that holds that directory, whose
 * entry records its failure, rather than upstream's lib64 chosen as if the root said so. */
static void test_layout_unknown(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r, *kind;

	CHECK_TOOLS();
	r = run(f, NULL, NULL);
	assert_string_equal(snap_get_str(r, "runtime.loader.default_dirs_kind"),
			    "debian-multiarch");
	r = run(f, NULL, "/usr/lib/x86_64-linux-gnu=EACCES");
	kind = snap_get(r, "runtime.loader.default_dirs_kind");
	assert_int_equal(snap_state(kind), FACT_UNREADABLE);
	assert_string_equal(snap_source(kind), "/usr/lib/x86_64-linux-gnu");
	assert_string_equal(snap_error(kind),
			    "could not tell Debian's glibc from upstream's "
			    "(/usr/lib/x86_64-linux-gnu: Permission denied); searched as "
			    "debian-multiarch");
	assert_int_equal(snap_count(snap_get(r, "runtime.loader.default_dirs")), 4);
	assert_int_equal(snap_get_state(r, "runtime.loader.default_dirs.0.path"), FACT_ABSENT);
	assert_int_equal(snap_get_state(r, "runtime.loader.default_dirs.1.path"), FACT_UNREADABLE);
	/* Without the multiarch directory, the root says upstream's: decided, present. */
	assert_int_equal(tmptree_sh("rm -r %s/usr/lib/x86_64-linux-gnu", f->dir), 0);
	r = run(f, NULL, NULL);
	assert_string_equal(snap_get_str(r, "runtime.loader.default_dirs_kind"), "lib64");
}

static void test_bad_input(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	CHECK_TOOLS();
	so(f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15", "libnvidia-ml.so.1");
	ln(f, "libnvidia-ml.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
	assert_int_equal(
		tmptree_sh("mkdir -p %s/loop %s/text %s/locked && "
			   "ln -s libcuda.so.1.x %s/loop/libcuda.so.1 && ln -s libcuda.so.1 "
			   "%s/loop/libcuda.so.1.x && "
			   "echo 'INPUT(libnvidia-ml.so.550.54.15)' > %s/text/libnvidia-ml.so.1",
			   f->dir, f->dir, f->dir, f->dir, f->dir, f->dir),
		0);
	so(f, "/locked/libcudart.so.12", "libcudart.so.12");
	r = run(f, "/locked:/loop:/text", "/locked=EACCES");
	assert_int_equal(snap_get_state(r, "driver.userspace.libcuda.path"), FACT_ERROR);
	assert_string_equal(snap_source(snap_get(r, "driver.userspace.libcuda.path")),
			    "/loop/libcuda.so.1");
	assert_non_null(
		strstr(snap_error(snap_get(r, "driver.userspace.libcuda.path")), "symbolic links"));
	assert_int_equal(snap_get_state(r, "driver.userspace.libnvidia_ml.path"), FACT_MALFORMED);
	assert_string_equal(snap_get_str(r, "driver.userspace.libnvidia_ml.shadowed.0.verdict"),
			    "loadable");
	assert_int_equal(snap_get_state(r, "runtime.loader.ld_library_path.0.path"),
			 FACT_UNREADABLE);
	assert_int_equal(snap_count(snap_get(r, "runtime.libraries.libcudart")), 0);
}

static void test_truncated_cache(void **state)
{
	struct probe_fx *f = *state;
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };
	const struct snap_node *r;

	CHECK_TOOLS();
	so(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "libcuda.so.1");
	ln(f, "libcuda.so.550.54.15", "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(tmptree_sh("%s -r %s && head -c 70 %s/etc/ld.so.cache > %s/c && mv %s/c "
				    "%s/etc/ld.so.cache",
				    ldconfig, f->dir, f->dir, f->dir, f->dir, f->dir),
			 0);
	probe_fx_open(f, &o);
	r = probe_fx_run(f, probe_libraries);
	assert_int_equal(snap_get_state(r, "runtime.loader.ld_so_cache.format"), FACT_MALFORMED);
	assert_non_null(
		strstr(snap_error(snap_get(r, "runtime.loader.ld_so_cache.format")), "truncated"));
	/* ld.so falls back to the system directories. */
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.found_via"), "default");
	assert_string_equal(snap_get_str(r, "driver.userspace.libcuda.version"), "550.54.15");
}

/* report --pid under a sysroot: /proc/N/maps as proc(5) writes it. */
static void test_process_maps(void **state)
{
	struct probe_fx *f = *state;
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir, .pid = 4242 };
	const struct snap_node *r, *m;
	FILE *fp;
	char path[128];

	assert_int_equal(
		tmptree_sh("mkdir -p %s/proc/4242 && ln -s /usr/bin/python3.11 %s/proc/4242/exe",
			   f->dir, f->dir),
		0);
	snprintf(path, sizeof(path), "%s/proc/4242/maps", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("55d0c0a00000-55d0c0a2c000 r--p 00000000 08:01 1311 /usr/bin/python3.11\n"
	      "7f1c2a000000-7f1c2a200000 rw-p 00000000 00:00 0 \n"
	      "7f1c2b000000-7f1c2b400000 r-xp 00000000 08:01 2201 "
	      "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 (deleted)\n"
	      "7f1c2b400000-7f1c2b600000 r--p 00400000 08:01 2201 "
	      "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 (deleted)\n"
	      "7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 3301 "
	      "/opt/my env/site-packages/nvidia/cudnn/lib/libcudnn_graph.so.9\n"
	      "7f1c2d000000-7f1c2d010000 r-xp 00000000 08:01 4401 "
	      "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so\n"
	      "7f1c2e000000-7f1c2e100000 r-xp 00000000 08:01 5501 "
	      "/usr/lib/x86_64-linux-gnu/libc.so.6\n"
	      "7ffc1e9d2000-7ffc1e9f3000 rw-p 00000000 00:00 0                          [stack]\n"
	      "7ffc1e9fc000-7ffc1e9fe000 r-xp 00000000 00:00 0                          [vdso]\n",
	      fp);
	fclose(fp);
	probe_fx_open(f, &o);
	r = probe_fx_run(f, probe_process);
	assert_string_equal(snap_get_str(r, "runtime.process.exe"), "/usr/bin/python3.11");
	m = snap_get(r, "runtime.process.mapped_libraries");
	assert_int_equal(snap_count(m), 3);
	assert_string_equal(snap_get_str(m, "0.path"),
			    "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15");
	assert_string_equal(snap_get_str(m, "0.version"), "550.54.15");
	assert_true(snap_get_bool_default(m, "0.deleted", false));
	assert_string_equal(snap_get_str(m, "1.path"),
			    "/opt/my env/site-packages/nvidia/cudnn/lib/libcudnn_graph.so.9");
	assert_string_equal(snap_get_str(m, "1.version"), "9");
	assert_false(snap_get_bool_default(m, "1.deleted", true));
	assert_true(snap_get_bool_default(m, "2.is_stub", false));
	assert_int_equal(snap_get_state(m, "2.version"), FACT_ABSENT);
	{
		int64_t n = 0;

		assert_true(snap_get_int(r, "runtime.process.mapped_objects", &n));
		assert_int_equal(n, 5);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_compat_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compat_listed_by_conf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compat_conf_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compat_conf_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_process_maps, setup, teardown),
	};

#if !defined(__x86_64__)
	printf("# these tests assume an x86-64 build\n");
	return 77;
#endif
	ldconfig = tmptree_ldconfig();
	have_tools = ldconfig && tmptree_have_cc();
	if (!have_tools) {
		printf("# skipping: needs cc and glibc's ldconfig to build the trees\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
