/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/probe/framework-loads.c: a framework library's GPU DT_NEEDED entries resolved
 * as ld.so resolves them for it. Trees are built at test time in a temp dir with the C
 * compiler: tiny shared objects with the SONAMEs that matter, and a "libtorch_cuda.so" whose
 * DT_NEEDED / DT_RPATH / DT_RUNPATH come from the linker (-l:soname, -Wl,-rpath,
 * --enable-new-dtags / --disable-new-dtags), laid out as pip installs torch and the
 * nvidia-*-cu12 wheels (site-packages/torch/lib, site-packages/nvidia/<component>/lib). The
 * committed python-venv-torch24-cu124 fixture is checked too. Cases: wheels win over a
 * toolkit on LD_LIBRARY_PATH with DT_RPATH; LD_LIBRARY_PATH wins over DT_RUNPATH; two cuDNN
 * majors; a DT_NEEDED found nowhere; a bogus DT_RUNPATH (bad string offset; missing and
 * relative directories); a symlink loop in a wheel's lib dir; libcuda.so.1 searched without
 * the framework library's DT_RUNPATH; a framework library that is not ELF.
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

#include "probe/framework-loads.h"
#include "probe/framework-siblings.h"
#include "shared/strv.h"
#include "tmptree.h"

/* FIXTURE: tests/fixtures/python-venv-torch24-cu124 as fixture_root.py made it (libraries too) */
#define SP	"/venv/lib/python3.11/site-packages"
#define TORCH	SP "/torch/lib/libtorch_cuda.so"
#define CORPUS	GPUENV_TEST_SOURCE_ROOT "/tests/fuzz/corpus/"
#define FIXTURE tmptree_fixture_root()

static char tmp[TMPTREE_DIR_MAX];
static bool have_cc;

/* A tiny shared object with SONAME soname at TMP/rel (extra: more linker flags). */
static void so(const char *rel, const char *soname, const char *extra)
{
	tmptree_cc_so(tmp, rel, soname, extra);
}

/* Link-time copies of every soname a requester names: TMP/link/<soname>. */
static void link_stubs(void)
{
	static const char *const names[] = { "libcudart.so.12", "libcudnn.so.9", "libcudnn.so.8",
					     "libnccl.so.2",	"libc10.so",	 "libcuda.so.1" };
	char rel[128];

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(rel, sizeof(rel), "link/%s", names[i]);
		so(rel, names[i], NULL);
	}
}

/* libtorch_cuda.so in tree `name` with these DT_NEEDED and search-path flags. */
static void torch_lib(const char *name, const char *needed, const char *dtags, const char *path)
{
	char rel[256], extra[1024];

	snprintf(rel, sizeof(rel), "%s%s", name, TORCH);
	snprintf(extra, sizeof(extra), "-Wl,--no-as-needed -L%s/link %s %s%s%s", tmp, needed, dtags,
		 path ? " -Wl,-rpath," : "", path ? path : "");
	so(rel, "libtorch_cuda.so", extra);
}

struct t {
	struct root *root;
	struct env *env;
	struct loader *l;
	struct gpuenv_snapshot *s;
	struct snap_node *pkg;
	char **sites;
};

static void run(struct t *t, const char *tree, const char *llp, const char *library)
{
	char root[128];

	*t = (struct t){ 0 };
	snprintf(root, sizeof(root), "%s/%s", tmp, tree);
	assert_int_equal(root_new(tree[0] == '/' ? tree : root, 0, &t->root), 0);
	assert_int_equal(env_new(false, &t->env), 0);
	if (llp)
		assert_int_equal(env_set(t->env, "LD_LIBRARY_PATH", llp), 0);
	assert_int_equal(loader_new(t->root, t->env, &t->l), 0);
	assert_int_equal(snapshot_new(&t->s), 0);
	t->pkg = snap_object(snapshot_root(t->s), "torch");
	assert_int_equal(strv_push(&t->sites, SP), 0);
	assert_int_equal(probe_framework_loads(t->l, t->pkg, library, t->sites, SP "/torch/lib"),
			 0);
}

static void done(struct t *t)
{
	strv_free(t->sites);
	snapshot_unref(t->s);
	loader_free(t->l);
	env_free(t->env);
	root_free(t->root);
}

static const struct snap_node *load(const struct t *t, const char *soname)
{
	const struct snap_node *o = snap_child(snap_child(t->pkg, "loads"), soname);

	assert_non_null(o);
	return o;
}

static bool missing_has(const struct t *t, const char *soname)
{
	const struct snap_node *arr = snap_child(t->pkg, "needed_missing");

	for (size_t i = 0; i < snap_count(arr); i++)
		if (streq(snap_str(snap_at(arr, i)) ?: "", soname))
			return true;
	return false;
}

static int setup(void **state)
{
	if (have_cc)
		link_stubs();
	return 0;
}

static void test_names(void **state)
{
	assert_true(probe_is_gpu_runtime_soname("libcudart.so.12"));
	assert_true(probe_is_gpu_runtime_soname("libcudart-d0da41ae.so.11.0"));
	assert_true(probe_is_gpu_runtime_soname("libcudnn_ops_infer.so.8"));
	assert_true(probe_is_gpu_runtime_soname("libcublasLt.so.12"));
	assert_true(probe_is_gpu_runtime_soname("libamdhip64.so.6"));
	assert_true(probe_is_gpu_runtime_soname("libMIOpen.so.1"));
	assert_true(probe_is_gpu_runtime_soname("libcuda.so.1"));
	assert_false(probe_is_gpu_runtime_soname("libc10_cuda.so"));
	assert_false(probe_is_gpu_runtime_soname("libc.so.6"));
	assert_false(probe_is_gpu_runtime_soname("libcudaxyz.so"));
	assert_false(probe_is_gpu_runtime_soname("libcudnn"));
}

/* The pip layout: torch's DT_RPATH points at the wheels; the toolkit is on LD_LIBRARY_PATH. */
static void wheels_and_toolkit(const char *tree)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s" SP "/nvidia/cudnn/lib/libcudnn.so.9", tree);
	so(rel, "libcudnn.so.9", NULL);
	snprintf(rel, sizeof(rel), "%s" SP "/nvidia/cuda_runtime/lib/libcudart.so.12", tree);
	so(rel, "libcudart.so.12", NULL);
	snprintf(rel, sizeof(rel), "%s/usr/local/cuda-12.4/lib64/libcudnn.so.9.0.0", tree);
	so(rel, "libcudnn.so.9", NULL);
	assert_int_equal(tmptree_sh("ln -sf libcudnn.so.9.0.0 "
				    "%s/%s/usr/local/cuda-12.4/lib64/libcudnn.so.9",
				    tmp, tree),
			 0);
	snprintf(rel, sizeof(rel), "%s/usr/local/cuda-12.4/lib64/libcudart.so.12.4.127", tree);
	so(rel, "libcudart.so.12", NULL);
	assert_int_equal(tmptree_sh("ln -sf libcudart.so.12.4.127 "
				    "%s/%s/usr/local/cuda-12.4/lib64/libcudart.so.12",
				    tmp, tree),
			 0);
	/* The driver's libcuda in the system directory. */
	snprintf(rel, sizeof(rel), "%s/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", tree);
	so(rel, "libcuda.so.1", NULL);
	assert_int_equal(tmptree_sh("ln -sf libcuda.so.550.54.15 "
				    "%s/%s/usr/lib/x86_64-linux-gnu/libcuda.so.1",
				    tmp, tree),
			 0);
}

static void test_rpath_wheels_win(void **state)
{
	const struct snap_node *o, *sh0;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("rp");
	torch_lib("rp", "-l:libcudart.so.12 -l:libcudnn.so.9 -l:libc10.so",
		  "-Wl,--disable-new-dtags",
		  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'");
	run(&t, "rp", "/usr/local/cuda-12.4/lib64", TORCH);
	assert_string_equal(snap_get_str(t.pkg, "load_search.search_path_kind"), "rpath");
	assert_int_equal(snap_get_state(t.pkg, "load_search.runpath"), FACT_ABSENT);
	assert_int_equal(snap_count(snap_get(t.pkg, "load_search.search_path")), 3);
	/* libc10.so is not a GPU runtime library: not resolved here. */
	assert_null(snap_child(snap_child(t.pkg, "loads"), "libc10.so"));

	o = load(&t, "libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "path"),
			    SP "/torch/lib/../../nvidia/cudnn/lib/libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "resolved_path"), SP "/nvidia/cudnn/lib/libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "found_via"), "rpath");
	assert_string_equal(snap_get_str(o, "request"), "DT_NEEDED");
	assert_string_equal(snap_get_str(o, "requested_by"), TORCH);
	assert_true(snap_get_bool_default(o, "from_wheel", false));
	assert_int_equal(snap_count(snap_get(o, "shadowed")), 1);
	sh0 = snap_get(o, "shadowed.0");
	assert_string_equal(snap_get_str(sh0, "path"), "/usr/local/cuda-12.4/lib64/libcudnn.so.9");
	assert_string_equal(snap_get_str(sh0, "found_via"), "LD_LIBRARY_PATH");
	assert_string_equal(snap_get_str(sh0, "version"), "9.0.0");
	assert_string_equal(snap_get_str(sh0, "verdict"), "loadable");
	assert_string_equal(snap_get_str(load(&t, "libcudart.so.12"), "found_via"), "rpath");

	/* libcuda.so.1: dlopen()ed by the winning libcudart (no search path of its own). */
	o = load(&t, "libcuda.so.1");
	assert_string_equal(snap_get_str(o, "request"), "dlopen");
	assert_string_equal(snap_get_str(o, "requested_by"),
			    SP "/torch/lib/../../nvidia/cuda_runtime/lib/libcudart.so.12");
	assert_string_equal(snap_get_str(o, "found_via"), "default");
	assert_string_equal(snap_get_str(o, "version"), "550.54.15");
	assert_false(snap_get_bool_default(o, "from_wheel", true));
	assert_int_equal(snap_count(snap_child(t.pkg, "needed_missing")), 0);
	done(&t);
}

static void test_ld_library_path_beats_runpath(void **state)
{
	const struct snap_node *o;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("run");
	torch_lib("run", "-l:libcudart.so.12 -l:libcudnn.so.9", "-Wl,--enable-new-dtags",
		  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib'");
	run(&t, "run", "/usr/local/cuda-12.4/lib64", TORCH);
	assert_string_equal(snap_get_str(t.pkg, "load_search.search_path_kind"), "runpath");
	assert_int_equal(snap_get_state(t.pkg, "load_search.rpath"), FACT_ABSENT);
	o = load(&t, "libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "path"), "/usr/local/cuda-12.4/lib64/libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "found_via"), "LD_LIBRARY_PATH");
	assert_string_equal(snap_get_str(o, "version"), "9.0.0");
	assert_false(snap_get_bool_default(o, "from_wheel", true));
	assert_string_equal(snap_get_str(o, "shadowed.0.found_via"), "runpath");
	assert_string_equal(snap_get_str(o, "shadowed.0.resolved_path"),
			    SP "/nvidia/cudnn/lib/libcudnn.so.9");
	done(&t);

	/* Without LD_LIBRARY_PATH the RUNPATH answers: the wheel. */
	run(&t, "run", NULL, TORCH);
	o = load(&t, "libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "found_via"), "runpath");
	assert_true(snap_get_bool_default(o, "from_wheel", false));
	done(&t);
}

/* A cuBLAS at TMP/tree/dir/libcublas.so.12 defining names (comma-separated) under the version
 * node libcublas.so.12, as NVIDIA versions its exports. */
static void cublas(const char *tree, const char *dir, const char *names)
{
	assert_int_equal(
		tmptree_sh("mkdir -p %s/%s%s && cd %s/%s%s && "
			   "echo '%s' | tr ',' '\n' | sed 's/.*/int &(void){return 0;}/' "
			   "> b.c && echo \"libcublas.so.12 { global: $(echo '%s' | "
			   "sed 's/,/; /g'); local: *; };\" > b.map && cc -shared -fPIC "
			   "-nostdlib b.c -Wl,--version-script,b.map "
			   "-Wl,-soname,libcublas.so.12 -o libcublas.so.12 && rm b.c b.map",
			   tmp, tree, dir, tmp, tree, dir, names, names),
		0);
}

/* cuSOLVER (the nvidia-cusolver wheel's place) calling cublasCreate_v2 and
 * cublasSetEnvironmentMode@libcublas.so.12 (cuSOLVER of CUDA 12.9, int-brain-lab/ibl-sorter#41),
 * its DT_RUNPATH the cuBLAS wheel's directory; torch's library links it (and, with
 * also_cublas, libcublas.so.12 through DT_RPATH, before LD_LIBRARY_PATH). */
static void siblings_tree(const char *tree, bool also_cublas)
{
	char extra[1024];

	cublas(tree, SP "/nvidia/cublas/lib", "cublasCreate_v2,cublasSetEnvironmentMode");
	cublas(tree, "/usr/local/cuda-12.8/lib64", "cublasCreate_v2");
	assert_int_equal(
		tmptree_sh("mkdir -p %s/%s" SP "/nvidia/cusolver/lib && cd %s/%s" SP
			   "/nvidia/cusolver/lib && printf 'int cublasCreate_v2(void);\\n"
			   "int cublasSetEnvironmentMode(void);\\nint cusolverDnCreate(void)"
			   "{return cublasCreate_v2() + cublasSetEnvironmentMode();}\\n' > s.c && "
			   "cc -shared -fPIC -nostdlib s.c ../../cublas/lib/libcublas.so.12 "
			   "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/../../cublas/lib' "
			   "-Wl,-soname,libcusolver.so.11 -o libcusolver.so.11 && rm s.c",
			   tmp, tree, tmp, tree),
		0);
	snprintf(extra, sizeof(extra),
		 "-x none -Wl,--no-as-needed %s/%s" SP
		 "/nvidia/cusolver/lib/libcusolver.so.11%s%s%s "
		 "-Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cusolver/lib%s'",
		 tmp, tree, also_cublas ? " " : "", also_cublas ? tmp : "",
		 also_cublas ? "/link-cublas/libcublas.so.12" : "",
		 also_cublas ? ":$ORIGIN/../../nvidia/cublas/lib" : "");
	if (also_cublas)
		cublas("link-cublas", "", "cublasCreate_v2,cublasSetEnvironmentMode");
	{
		char rel[256];

		snprintf(rel, sizeof(rel), "%s%s", tree, TORCH);
		so(rel, "libtorch_cuda.so", extra);
	}
}

/* What cuSOLVER needs of the cuBLAS it gets: LD_LIBRARY_PATH's older copy before its
 * DT_RUNPATH lacks cublasSetEnvironmentMode; the wheel's (no LD_LIBRARY_PATH) defines both;
 * the copy torch's library mapped first is the one cuSOLVER gets, whatever its own search. */
static void test_siblings(void **state)
{
	const struct snap_node *o;
	int64_t checked;
	struct t t;

	if (!have_cc)
		skip();
	siblings_tree("sib", false);
	run(&t, "sib", "/usr/local/cuda-12.8/lib64", TORCH);
	o = snap_child(snap_child(load(&t, "libcusolver.so.11"), "siblings"), "libcublas.so.12");
	assert_non_null(o);
	assert_string_equal(snap_get_str(o, "path"), "/usr/local/cuda-12.8/lib64/libcublas.so.12");
	assert_string_equal(snap_get_str(o, "found_via"), "LD_LIBRARY_PATH");
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 1);
	assert_string_equal(snap_str(snap_at(snap_child(o, "symbols_missing"), 0)),
			    "cublasSetEnvironmentMode");
	assert_string_equal(snap_get_str(o, "symbol_version"), "libcublas.so.12");
	assert_true(snap_get_int(o, "symbols_checked", &checked));
	assert_int_equal(checked, 2);
	done(&t);

	run(&t, "sib", NULL, TORCH);
	o = snap_child(snap_child(load(&t, "libcusolver.so.11"), "siblings"), "libcublas.so.12");
	assert_string_equal(snap_get_str(o, "found_via"), "runpath");
	assert_int_equal(snap_get_state(o, "symbols_missing"), FACT_PRESENT);
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 0);
	done(&t);

	siblings_tree("sib2", true);
	run(&t, "sib2", "/usr/local/cuda-12.8/lib64", TORCH);
	o = snap_child(snap_child(load(&t, "libcusolver.so.11"), "siblings"), "libcublas.so.12");
	assert_string_equal(snap_get_str(o, "found_via"), "mapped by the framework's library");
	assert_string_equal(snap_get_str(o, "mapped_via"), "rpath");
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 0);
	/* torch's own library needs no versioned name of either: no siblings there */
	assert_null(snap_child(load(&t, "libcublas.so.12"), "siblings"));
	done(&t);
}

/* cuDNN 8 and 9 have different sonames: one never stands in for the other. */
static void test_two_cudnn_majors(void **state)
{
	const struct snap_node *o;
	struct t t;
	char rel[256];

	if (!have_cc)
		skip();
	snprintf(rel, sizeof(rel), "two" SP "/nvidia/cudnn/lib/libcudnn.so.9");
	so(rel, "libcudnn.so.9", NULL);
	so("two/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.7", "libcudnn.so.8", NULL);
	assert_int_equal(tmptree_sh("ln -sf libcudnn.so.8.9.7 "
				    "%s/two/usr/lib/x86_64-linux-gnu/libcudnn.so.8",
				    tmp),
			 0);
	/* A library that needs both majors (one through the wheel, one from the system). */
	torch_lib("two", "-l:libcudnn.so.9 -l:libcudnn.so.8", "-Wl,--disable-new-dtags",
		  "'$ORIGIN/../../nvidia/cudnn/lib'");
	run(&t, "two", NULL, TORCH);
	o = load(&t, "libcudnn.so.9");
	assert_string_equal(snap_get_str(o, "found_via"), "rpath");
	assert_true(snap_get_bool_default(o, "from_wheel", false));
	assert_int_equal(snap_count(snap_get(o, "shadowed")), 0);
	o = load(&t, "libcudnn.so.8");
	assert_string_equal(snap_get_str(o, "found_via"), "default");
	assert_string_equal(snap_get_str(o, "version"), "8.9.7");
	assert_false(snap_get_bool_default(o, "from_wheel", true));
	done(&t);

	/* Without the wheel's directory, cuDNN 8 does not satisfy libcudnn.so.9. */
	assert_int_equal(tmptree_sh("rm -r %s/two" SP "/nvidia", tmp), 0);
	run(&t, "two", NULL, TORCH);
	assert_true(missing_has(&t, "libcudnn.so.9"));
	assert_false(missing_has(&t, "libcudnn.so.8"));
	assert_int_equal(snap_get_state(load(&t, "libcudnn.so.9"), "path"), FACT_ABSENT);
	done(&t);
}

/* A DT_NEEDED found nowhere: "libnccl.so.2: cannot open shared object file". */
static void test_missing_everywhere(void **state)
{
	const struct snap_node *o;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("miss");
	torch_lib("miss", "-l:libcudart.so.12 -l:libnccl.so.2", "-Wl,--disable-new-dtags",
		  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/nccl/lib'");
	run(&t, "miss", "/usr/local/cuda-12.4/lib64", TORCH);
	assert_true(missing_has(&t, "libnccl.so.2"));
	assert_false(missing_has(&t, "libcudart.so.12"));
	assert_int_equal(snap_count(snap_child(t.pkg, "needed_missing")), 1);
	o = load(&t, "libnccl.so.2");
	assert_int_equal(snap_get_state(o, "path"), FACT_ABSENT);
	assert_non_null(strstr(snap_error(snap_child(o, "path")), "DT_RPATH"));
	assert_int_equal(snap_get_state(o, "from_wheel"), FACT_UNPROBED);
	/* The RPATH directory of the missing wheel is recorded as absent. */
	assert_int_equal(snap_get_state(t.pkg, "load_search.search_path.1.path"), FACT_ABSENT);
	done(&t);
}

/* DT_RUNPATH with a bad string offset, and one with directories that cannot be searched. */
static void test_bogus_runpath(void **state)
{
	const struct snap_node *sp;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("bog");
	assert_int_equal(
		tmptree_sh("mkdir -p %s/bog/bogus && cp %s/elf-dynamic/bogus-runpath-offset.so "
			   "%s/bog/bogus/",
			   tmp, CORPUS, tmp),
		0);
	run(&t, "bog", NULL, "/bogus/bogus-runpath-offset.so");
	assert_int_equal(snap_get_state(t.pkg, "load_search.dynamic_section"), FACT_MALFORMED);
	assert_string_equal(snap_error(snap_get(t.pkg, "load_search.dynamic_section")),
			    "DT_RUNPATH offset outside DT_STRTAB");
	assert_string_equal(snap_get_str(t.pkg, "load_search.search_path_kind"), "none");
	assert_int_equal(snap_count(snap_child(t.pkg, "loads")), 0);
	done(&t);

	torch_lib("bog", "-l:libcudnn.so.9", "-Wl,--enable-new-dtags",
		  "'relative/lib::/nonexistent:$ORIGIN/../../nvidia/cudnn/lib'");
	run(&t, "bog", "/usr/local/cuda-12.4/lib64", TORCH);
	sp = snap_get(t.pkg, "load_search.search_path");
	assert_int_equal(snap_count(sp), 4);
	assert_int_equal(snap_get_state(sp, "0.path"), FACT_UNSUPPORTED);
	assert_non_null(strstr(snap_error(snap_get(sp, "0.path")), "relative"));
	assert_int_equal(snap_get_state(sp, "1.path"), FACT_UNSUPPORTED);
	assert_int_equal(snap_get_state(sp, "2.path"), FACT_ABSENT);
	assert_string_equal(snap_get_str(sp, "3.path"), SP "/torch/lib/../../nvidia/cudnn/lib");
	/* LD_LIBRARY_PATH first, then the one RUNPATH entry that exists. */
	assert_string_equal(snap_get_str(load(&t, "libcudnn.so.9"), "found_via"),
			    "LD_LIBRARY_PATH");
	assert_string_equal(snap_get_str(load(&t, "libcudnn.so.9"), "shadowed.0.found_via"),
			    "runpath");
	done(&t);
}

/* A symlink loop in a wheel's lib dir: ld.so stops there with ELOOP, it does not go on. */
static void test_symlink_loop(void **state)
{
	const struct snap_node *o;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("loop");
	assert_int_equal(tmptree_sh("cd %s/loop" SP "/nvidia/cudnn/lib && rm libcudnn.so.9 && "
				    "ln -s libcudnn.so.9.1 libcudnn.so.9 && "
				    "ln -s libcudnn.so.9 libcudnn.so.9.1",
				    tmp),
			 0);
	torch_lib("loop", "-l:libcudnn.so.9", "-Wl,--disable-new-dtags",
		  "'$ORIGIN/../../nvidia/cudnn/lib'");
	run(&t, "loop", "/usr/local/cuda-12.4/lib64", TORCH);
	o = load(&t, "libcudnn.so.9");
	assert_int_equal(snap_get_state(o, "path"), FACT_ERROR);
	assert_string_equal(snap_get_str(o, "found_via"), "rpath");
	assert_non_null(strstr(snap_get_str(o, "failure"), "Too many levels of symbolic links"));
	assert_non_null(strstr(snap_get_str(o, "failure"), "/nvidia/cudnn/lib/libcudnn.so.9"));
	/* Not "missing": ld.so found a file and failed on it. */
	assert_false(missing_has(&t, "libcudnn.so.9"));
	assert_int_equal(snap_get_state(o, "from_wheel"), FACT_UNPROBED);
	done(&t);
}

/* libcuda.so.1 is never searched in the framework library's DT_RUNPATH. */
static void test_libcuda_not_in_framework_runpath(void **state)
{
	const struct snap_node *o;
	struct t t;

	if (!have_cc)
		skip();
	wheels_and_toolkit("drv");
	/* A libcuda.so.1 in torch/lib (on torch's RUNPATH via $ORIGIN) must not be taken. */
	so("drv" SP "/torch/lib/libcuda.so.1", "libcuda.so.1", NULL);
	torch_lib("drv", "-l:libcudart.so.12", "-Wl,--enable-new-dtags",
		  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN'");
	run(&t, "drv", NULL, TORCH);
	o = load(&t, "libcuda.so.1");
	assert_string_equal(snap_get_str(o, "found_via"), "default");
	assert_string_equal(snap_get_str(o, "resolved_path"),
			    "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15");
	assert_int_equal(snap_count(snap_get(o, "shadowed")), 0);
	done(&t);

	/* Linked directly (DT_NEEDED), it is: RUNPATH applies to the library's own DT_NEEDED. */
	torch_lib("drv", "-l:libcudart.so.12 -l:libcuda.so.1", "-Wl,--enable-new-dtags",
		  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN'");
	run(&t, "drv", NULL, TORCH);
	o = load(&t, "libcuda.so.1");
	assert_string_equal(snap_get_str(o, "request"), "DT_NEEDED");
	assert_string_equal(snap_get_str(o, "found_via"), "runpath");
	assert_true(snap_get_bool_default(o, "from_wheel", false));
	done(&t);
}

static void test_not_elf(void **state)
{
	struct t t;

	assert_int_equal(tmptree_sh("mkdir -p %s/bad" SP
				    "/torch/lib && printf 'not an ELF' > %s/bad" TORCH,
				    tmp, tmp),
			 0);
	run(&t, "bad", NULL, TORCH);
	assert_int_equal(snap_get_state(t.pkg, "loads"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(t.pkg, "needed_missing"), FACT_MALFORMED);
	done(&t);
	run(&t, "bad", NULL, SP "/torch/lib/nope.so");
	assert_int_equal(snap_get_state(t.pkg, "loads"), FACT_ABSENT);
	done(&t);
}

/* DT_RPATH vs DT_RUNPATH against LD_LIBRARY_PATH, checked against glibc's ld.so itself. */
static void test_against_ldd(void **state)
{
	static const char *const dtags[] = { "-Wl,--disable-new-dtags", "-Wl,--enable-new-dtags" };
	char tree[64], lib[256], llp[256], real[512];
	struct t t;

	if (!have_cc || access("/usr/bin/ldd", X_OK) < 0) {
		printf("# skipping: needs cc and ldd\n");
		skip();
	}
	for (size_t i = 0; i < ARRAY_SIZE(dtags); i++) {
		snprintf(tree, sizeof(tree), "live%zu", i);
		wheels_and_toolkit(tree);
		torch_lib(tree, "-l:libcudart.so.12 -l:libcudnn.so.9", dtags[i],
			  "'$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib'");
		snprintf(lib, sizeof(lib), "%s/%s" TORCH, tmp, tree);
		snprintf(llp, sizeof(llp), "%s/%s/usr/local/cuda-12.4/lib64", tmp, tree);
		tmptree_ldd_path(lib, llp, "libcudnn.so.9", real, sizeof(real));
		printf("# ldd (%s) with LD_LIBRARY_PATH=%s: %s\n", dtags[i], llp, real);
		assert_true(real[0] != '\0');
		run(&t, "/", llp, lib);
		assert_string_equal(snap_get_str(load(&t, "libcudnn.so.9"), "path"), real);
		assert_string_equal(snap_get_str(load(&t, "libcudnn.so.9"), "found_via"),
				    i == 0 ? "rpath" : "LD_LIBRARY_PATH");
		done(&t);
	}
}

/* The fixture (tests/fixtures): the cu124 wheels win over CUDA 11.8 on LD_LIBRARY_PATH. */
static void test_fixture(void **state)
{
	const char *site = "/home/user/venv/lib/python3.10/site-packages";
	const char *lib = "/home/user/venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so";
	static const char *const needed[] = {
		"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12",
		"libcudnn.so.9",   "libnccl.so.2",    "libcusparse.so.12",
		"libcufft.so.11",  "libcurand.so.10", "libnvToolsExt.so.1",
	};
	const struct snap_node *o;
	struct t t = { 0 };

	if (tmptree_fixture_missing(lib))
		skip();
	assert_int_equal(root_new(FIXTURE, 0, &t.root), 0);
	assert_int_equal(env_new(false, &t.env), 0);
	assert_int_equal(env_set(t.env, "LD_LIBRARY_PATH", "/usr/local/cuda-11.8/lib64"), 0);
	assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
	assert_int_equal(snapshot_new(&t.s), 0);
	t.pkg = snap_object(snapshot_root(t.s), "torch");
	assert_int_equal(strv_push(&t.sites, site), 0);
	assert_int_equal(probe_framework_loads(t.l, t.pkg, lib, t.sites, NULL), 0);
	for (size_t i = 0; i < ARRAY_SIZE(needed); i++) {
		o = load(&t, needed[i]);
		assert_string_equal(snap_get_str(o, "found_via"), "rpath");
		assert_true(snap_get_bool_default(o, "from_wheel", false));
	}
	o = load(&t, "libcurand.so.10");
	assert_string_equal(snap_get_str(o, "shadowed.0.path"),
			    "/usr/local/cuda-11.8/lib64/libcurand.so.10");
	assert_string_equal(snap_get_str(o, "shadowed.0.version"), "10.3.0.86");
	assert_int_equal(snap_count(snap_child(t.pkg, "needed_missing")), 0);
	assert_int_equal(snap_count(snap_child(t.pkg, "loads")), ARRAY_SIZE(needed) + 1);
	done(&t);
}

/* CuPy's cuSOLVER module (probe_module_needed_missing()): libcusolver.so.11 nowhere is a miss
 * naming the module; libcudart.so.12 on LD_LIBRARY_PATH is not; the same module with a
 * RUNPATH into the nvidia-cusolver wheel misses nothing; one that is not ELF is a malformed
 * entry, never "nothing missing". */
#define CUSOLVER SP "/cupy_backends/cuda/libs/cusolver.cpython-311-x86_64-linux-gnu.so"

static void test_module_needed_missing(void **state)
{
	char rel[256], extra[512];
	struct snap_node *missing;
	const struct snap_node *e;
	struct t t;

	if (!have_cc)
		skip();
	so("link/libcusolver.so.11", "libcusolver.so.11", NULL);
	wheels_and_toolkit("mod");
	snprintf(extra, sizeof(extra),
		 "-Wl,--no-as-needed -L%s/link -l:libcusolver.so.11 -l:libcudart.so.12", tmp);
	so("mod" CUSOLVER, "cusolver.cpython-311-x86_64-linux-gnu.so", extra);
	run(&t, "mod", "/usr/local/cuda-12.4/lib64", TORCH);
	missing = snap_array(t.pkg, "module_missing");
	assert_int_equal(probe_module_needed_missing(t.l, missing,
						     "cupy_backends.cuda.libs.cusolver", CUSOLVER),
			 0);
	assert_int_equal(snap_count(missing), 1);
	e = snap_at(missing, 0);
	assert_string_equal(snap_get_str(e, "name"), "libcusolver.so.11");
	assert_string_equal(snap_get_str(e, "module"), "cupy_backends.cuda.libs.cusolver");
	assert_string_equal(snap_get_str(e, "library"), CUSOLVER);
	done(&t);

	/* The wheel's copy through the module's own RUNPATH: found. */
	so("modw" SP "/nvidia/cusolver/lib/libcusolver.so.11", "libcusolver.so.11", NULL);
	wheels_and_toolkit("modw");
	snprintf(extra, sizeof(extra),
		 "-Wl,--no-as-needed -L%s/link -l:libcusolver.so.11 -Wl,--enable-new-dtags "
		 "-Wl,-rpath,'$ORIGIN/../../../nvidia/cusolver/lib'",
		 tmp);
	so("modw" CUSOLVER, "cusolver.cpython-311-x86_64-linux-gnu.so", extra);
	run(&t, "modw", NULL, TORCH);
	missing = snap_array(t.pkg, "module_missing");
	assert_int_equal(probe_module_needed_missing(t.l, missing,
						     "cupy_backends.cuda.libs.cusolver", CUSOLVER),
			 0);
	assert_int_equal(snap_count(missing), 0);
	done(&t);

	/* Not an ELF file: an entry whose name is malformed. */
	snprintf(rel, sizeof(rel), "%s/mod" CUSOLVER, tmp);
	assert_int_equal(tmptree_sh("printf 'not an ELF' > %s", rel), 0);
	run(&t, "mod", NULL, TORCH);
	missing = snap_array(t.pkg, "module_missing");
	assert_int_equal(probe_module_needed_missing(t.l, missing,
						     "cupy_backends.cuda.libs.cusolver", CUSOLVER),
			 0);
	assert_int_equal(snap_count(missing), 1);
	assert_int_equal(snap_get_state(snap_at(missing, 0), "name"), FACT_MALFORMED);
	done(&t);
}

#define CUBLASMOD SP "/cupy_backends/cuda/libs/cublas.cpython-311-x86_64-linux-gnu.so"
#define CUDA129	  "/usr/local/cuda-12.9/lib64"

/* CuPy's layout of int-brain-lab/ibl-sorter#41: the core (TORCH's place: only its loads
 * matter) maps the nvidia-cublas wheel's libcublas.so.12 (wheel_names); CUDA 12.9's toolkit on
 * LD_LIBRARY_PATH holds a cuBLAS with both names and a cuSOLVER calling
 * cublasSetEnvironmentMode@libcublas.so.12. The cusolver module links cuSOLVER (the core does
 * not), the cublas module calls cublasSetEnvironmentMode itself. */
static void cupy_modules_tree(const char *tree, const char *wheel_names)
{
	char extra[1024], rel[256];

	cublas(tree, SP "/nvidia/cublas/lib", wheel_names);
	cublas(tree, CUDA129, "cublasCreate_v2,cublasSetEnvironmentMode");
	assert_int_equal(
		tmptree_sh(
			"cd %s/%s" CUDA129 " && printf 'int cublasSetEnvironmentMode(void);\\n"
			"int cusolverDnCreate(void){return cublasSetEnvironmentMode();}\\n' > s.c && "
			"cc -shared -fPIC -nostdlib s.c libcublas.so.12 "
			"-Wl,--enable-new-dtags,-rpath,'$ORIGIN' -Wl,-soname,libcusolver.so.11 "
			"-o libcusolver.so.11 && rm s.c",
			tmp, tree),
		0);
	snprintf(rel, sizeof(rel), "%s%s", tree, TORCH);
	snprintf(extra, sizeof(extra),
		 "-x none -Wl,--no-as-needed %s/%s" SP "/nvidia/cublas/lib/libcublas.so.12 "
		 "-Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cublas/lib'",
		 tmp, tree);
	so(rel, "libtorch_cuda.so", extra);
	assert_int_equal(
		tmptree_sh("mkdir -p %s/%s" SP "/cupy_backends/cuda/libs && cd %s/%s" SP
			   "/cupy_backends/cuda/libs && printf 'int f(void){return 0;}\\n' "
			   "> m.c && cc -shared -fPIC -nostdlib m.c -Wl,--no-as-needed "
			   "%s/%s" CUDA129 "/libcusolver.so.11 "
			   "-o cusolver.cpython-311-x86_64-linux-gnu.so && "
			   "printf 'int cublasSetEnvironmentMode(void);\\n"
			   "int f(void){return cublasSetEnvironmentMode();}\\n' > m.c && "
			   "cc -shared -fPIC -nostdlib m.c %s/%s" CUDA129 "/libcublas.so.12 "
			   "-o cublas.cpython-311-x86_64-linux-gnu.so && rm m.c",
			   tmp, tree, tmp, tree, tmp, tree, tmp, tree),
		0);
}

static const struct snap_node *module_sibling(const struct t *t, const char *key,
					      const char *soname)
{
	const struct snap_node *o = snap_child(snap_child(t->pkg, "module_loads"), key);

	return snap_child(snap_child(o, "siblings"), soname);
}

/* CuPy's modules, imported after the core: cuSOLVER (linked by the cusolver module alone)
 * and the cublas module get the cuBLAS the core mapped, the older wheel's, which lacks
 * cublasSetEnvironmentMode; with a wheel that defines it, nothing is missing. */
static void test_cupy_module_siblings(void **state)
{
	const struct snap_node *o;
	struct t t;

	if (!have_cc)
		skip();
	cupy_modules_tree("cpm", "cublasCreate_v2");
	run(&t, "cpm", CUDA129, TORCH);
	assert_string_equal(snap_get_str(load(&t, "libcublas.so.12"), "found_via"), "rpath");
	assert_int_equal(probe_module_siblings(t.l, t.pkg, "cupy_backends.cuda.libs.cusolver",
					       CUSOLVER, snap_child(t.pkg, "loads")),
			 0);
	assert_int_equal(probe_module_siblings(t.l, t.pkg, "cupy_backends.cuda.libs.cublas",
					       CUBLASMOD, snap_child(t.pkg, "loads")),
			 0);
	/* the cusolver module needs no versioned name itself: no entry */
	assert_null(
		snap_child(snap_child(t.pkg, "module_loads"), "cupy_backends.cuda.libs.cusolver"));
	assert_string_equal(
		snap_get_str(snap_child(snap_child(t.pkg, "module_loads"), "libcusolver.so.11"),
			     "path"),
		CUDA129 "/libcusolver.so.11");
	o = module_sibling(&t, "libcusolver.so.11", "libcublas.so.12");
	assert_non_null(o);
	assert_string_equal(snap_get_str(o, "found_via"), "mapped by the framework's library");
	assert_string_equal(snap_get_str(o, "path"),
			    SP "/torch/lib/../../nvidia/cublas/lib/libcublas.so.12");
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 1);
	assert_string_equal(snap_str(snap_at(snap_child(o, "symbols_missing"), 0)),
			    "cublasSetEnvironmentMode");
	assert_string_equal(snap_get_str(o, "symbol_version"), "libcublas.so.12");
	o = module_sibling(&t, "cupy_backends.cuda.libs.cublas", "libcublas.so.12");
	assert_non_null(o);
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 1);
	/* libcublas.so.12 is the core's: not a module_loads entry of its own */
	assert_null(snap_child(snap_child(t.pkg, "module_loads"), "libcublas.so.12"));
	done(&t);

	cupy_modules_tree("cpm2", "cublasCreate_v2,cublasSetEnvironmentMode");
	run(&t, "cpm2", CUDA129, TORCH);
	assert_int_equal(probe_module_siblings(t.l, t.pkg, "cupy_backends.cuda.libs.cusolver",
					       CUSOLVER, snap_child(t.pkg, "loads")),
			 0);
	o = module_sibling(&t, "libcusolver.so.11", "libcublas.so.12");
	assert_non_null(o);
	assert_int_equal(snap_get_state(o, "symbols_missing"), FACT_PRESENT);
	assert_int_equal(snap_count(snap_child(o, "symbols_missing")), 0);
	done(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_rpath_wheels_win),
		cmocka_unit_test(test_ld_library_path_beats_runpath),
		cmocka_unit_test(test_siblings),
		cmocka_unit_test(test_two_cudnn_majors),
		cmocka_unit_test(test_missing_everywhere),
		cmocka_unit_test(test_bogus_runpath),
		cmocka_unit_test(test_symlink_loop),
		cmocka_unit_test(test_libcuda_not_in_framework_runpath),
		cmocka_unit_test(test_against_ldd),
		cmocka_unit_test(test_module_needed_missing),
		cmocka_unit_test(test_cupy_module_siblings),
	};
	int r;

#if !defined(__x86_64__)
	printf("# these tests assume an x86-64 build (the fixture and the trees are x86-64)\n");
	return 77;
#endif
	have_cc = tmptree_have_cc();
	if (!have_cc)
		printf("# no cc: the tests that build ELF trees are skipped\n");
	if (!tmptree_new(tmp, "test-framework-loads"))
		return 1;
	r = cmocka_run_group_tests(tests, setup, NULL);
	tmptree_remove(tmp);
	return r;
}
