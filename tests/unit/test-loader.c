/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/probe/loader.c, the ld.so search emulation. Trees are built at test time with
 * the C compiler (tiny shared objects with the SONAMEs that matter) and glibc's ldconfig
 * (`ldconfig -r TREE`); the stub-libcuda-first fixture tree is used as committed. The
 * reference for the order is the real loader: on the live root the winner must be the file
 * `ldd` (LD_TRACE_LOADED_OBJECTS) names, for LD_LIBRARY_PATH, DT_RUNPATH with $ORIGIN,
 * DT_RPATH, a 32-bit file passed over, and the system directories. Bad input: a truncated
 * or missing ld.so.cache, a symlink loop, a file that is not ELF, a dangling link, an
 * unreadable directory (root error injection), a requester whose DT_RUNPATH offset is bogus.
 */
#include <elf.h>
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

#include "probe/loader.h"
#include "shared/strv.h"
#include "testhooks/testhooks.h"
#include "tmptree.h"

/* tests/fixtures/stub-libcuda-first, made by fixture_root.py (its libraries are generated) */
#define FIXTURE tmptree_fixture_root()
#define CORPUS	GPUENV_TEST_SOURCE_ROOT "/tests/fuzz/corpus/"

static char tmp[TMPTREE_DIR_MAX];
static bool have_cc, have_cc32, have_ldconfig;
static const char *ldconfig;

/* A tiny shared object with SONAME soname at TMP/rel (extra: more linker flags). */
static void so(const char *rel, const char *soname, const char *extra)
{
	tmptree_cc_so(tmp, rel, soname, extra);
}

struct t {
	struct root *root;
	struct env *env;
	struct loader *l;
};

static void open_tree(struct t *t, const char *root, const char *llp)
{
	*t = (struct t){ 0 };
	assert_int_equal(root_new(root, 0, &t->root), 0);
	assert_int_equal(env_new(false, &t->env), 0);
	if (llp)
		assert_int_equal(env_set(t->env, "LD_LIBRARY_PATH", llp), 0);
}

static void close_tree(struct t *t)
{
	loader_free(t->l);
	env_free(t->env);
	root_free(t->root);
}

static struct loader_result *resolve(struct t *t, const char *soname)
{
	struct loader_result *r = NULL;

	if (!t->l)
		assert_int_equal(loader_new(t->root, t->env, &t->l), 0);
	assert_int_equal(loader_resolve(t->l, soname, &r), 0);
	return r;
}

static const struct loader_candidate *winner(const struct loader_result *r)
{
	assert_true(r->winner >= 0);
	return &r->cands[r->winner];
}

/* The fixture (tests/fixtures): LD_LIBRARY_PATH puts CUDA's stubs first. */
static void test_fixture_stub_first(void **state)
{
	const struct loader_candidate *w;
	struct loader_result *r;
	struct t t;

	open_tree(&t, FIXTURE, "/usr/local/cuda-12.4/lib64/stubs:/usr/local/cuda-12.4/lib64");
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(t.l->cache_err, 0);
	assert_string_equal(t.l->defaults_kind, "debian-multiarch");
	w = winner(r);
	assert_string_equal(w->path, "/usr/local/cuda-12.4/lib64/stubs/libcuda.so.1");
	assert_string_equal(w->resolved,
			    "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so");
	assert_int_equal(w->via, LOADER_VIA_LD_LIBRARY_PATH);
	assert_true(w->is_stub);
	assert_null(w->version);
	assert_string_equal(w->soname, "libcuda.so.1");
	/* Shadowed: the driver's libcuda from the cache, and again from the system directory. */
	assert_int_equal(r->n_cands, 3);
	assert_int_equal(r->cands[1].via, LOADER_VIA_CACHE);
	assert_string_equal(r->cands[1].path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_string_equal(r->cands[1].resolved, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15");
	assert_string_equal(r->cands[1].version, "550.54.15");
	assert_false(r->cands[1].is_stub);
	assert_int_equal(r->cands[2].via, LOADER_VIA_DEFAULT);
	loader_result_free(r);

	r = resolve(&t, "libcudart.so.12");
	w = winner(r);
	assert_string_equal(w->path, "/usr/local/cuda-12.4/lib64/libcudart.so.12");
	assert_string_equal(w->version, "12.4.127");
	assert_false(w->is_stub);
	loader_result_free(r);

	r = resolve(&t, "libcudnn.so.9");
	assert_int_equal(r->winner, -1);
	assert_int_equal(r->failure, -1);
	assert_int_equal(r->n_cands, 0);
	loader_result_free(r);
	close_tree(&t);

	/* Without LD_LIBRARY_PATH the cache answers, with the driver's version. */
	open_tree(&t, FIXTURE, NULL);
	r = resolve(&t, "libcuda.so.1");
	w = winner(r);
	assert_int_equal(w->via, LOADER_VIA_CACHE);
	assert_string_equal(w->version, "550.54.15");
	loader_result_free(r);
	r = resolve(&t, "libnvidia-ml.so.1");
	assert_string_equal(winner(r)->version, "550.54.15");
	loader_result_free(r);
	close_tree(&t);
}

/* The directory Debian's packages install to, where the ROCm probes look for a distribution's
 * HIP runtime (loader_multiarch_lib()), is the one the search of a Debian layout holds. */
static void test_multiarch_lib(void **state)
{
	struct loader_result *r;
	char want[64];
	bool listed = false;
	struct t t;

	(void)state;
	open_tree(&t, FIXTURE, NULL);
	r = resolve(&t, "libcuda.so.1");
	assert_string_equal(t.l->defaults_kind, "debian-multiarch");
	snprintf(want, sizeof(want), "/usr/lib/%s", t.l->triplet);
	assert_string_equal(loader_multiarch_lib(), want);
	for (size_t i = 0; i < t.l->defaults.n; i++)
		listed |= t.l->defaults.v[i].path && strcmp(t.l->defaults.v[i].path, want) == 0;
	assert_true(listed);
	loader_result_free(r);
	close_tree(&t);
}

static void test_expand(void **state)
{
	struct t t;
	const char *note;
	char *out;

	open_tree(&t, FIXTURE, NULL);
	assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
	assert_int_equal(loader_expand(t.l, "$ORIGIN/../lib", "/opt/app/bin", &out, &note), 0);
	assert_string_equal(out, "/opt/app/bin/../lib");
	free(out);
	assert_int_equal(loader_expand(t.l, "${ORIGIN}/x:$ORIGINAL", "/o", &out, &note), 0);
	assert_string_equal(out, "/o/x:$ORIGINAL");
	free(out);
	assert_int_equal(loader_expand(t.l, "/usr/$LIB/${PLATFORM}/", NULL, &out, &note), 0);
	assert_string_equal(out, "/usr/lib/x86_64-linux-gnu/x86_64");
	free(out);
	assert_int_equal(loader_expand(t.l, "$ORIGIN/lib", NULL, &out, &note), 0);
	assert_null(out);
	assert_non_null(strstr(note, "$ORIGIN"));
	assert_int_equal(loader_expand(t.l, "", NULL, &out, &note), 0);
	assert_null(out);
	assert_non_null(strstr(note, "current directory"));
	assert_int_equal(loader_expand(t.l, "lib64", NULL, &out, &note), 0);
	assert_null(out);
	assert_non_null(strstr(note, "relative"));
	{
		char *longdir = malloc(6000);

		assert_non_null(longdir);
		longdir[0] = '/';
		memset(longdir + 1, 'x', 5998);
		longdir[5999] = '\0';
		assert_int_equal(loader_expand(t.l, longdir, NULL, &out, &note), 0);
		assert_null(out);
		assert_non_null(strstr(note, "longer than"));
		free(longdir);
	}
	close_tree(&t);

	out = loader_version_from_name("libcuda.so.1", "libcuda.so.550.54.15");
	assert_string_equal(out, "550.54.15");
	free(out);
	out = loader_version_from_name("libnvrtc-builtins.so.13.0", "libnvrtc-builtins.so.13.0.88");
	assert_string_equal(out, "13.0.88");
	free(out);
	assert_null(loader_version_from_name("libcuda.so.1", "libcuda.so"));
	assert_null(loader_version_from_name("libcuda.so.1", "libcudart.so.12"));
	assert_null(loader_version_from_name("noso", "noso.1"));
}

/* LD_LIBRARY_PATH splitting as glibc does it: ':' and ';', empty elements kept. */
static void test_ld_library_path_list(void **state)
{
	struct t t;

	open_tree(&t, FIXTURE, ":/usr/local/cuda/lib64;relative::/nonexistent");
	assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
	assert_int_equal(t.l->llp.n, 5);
	assert_null(t.l->llp.v[0].path);
	assert_non_null(strstr(t.l->llp.v[0].note, "current directory"));
	assert_string_equal(t.l->llp.v[1].path, "/usr/local/cuda/lib64");
	assert_int_equal(t.l->llp.v[1].err, 0);
	assert_null(t.l->llp.v[2].path);
	assert_null(t.l->llp.v[3].path);
	assert_int_equal(t.l->llp.v[4].err, -ENOENT);
	close_tree(&t);
}

static void test_bad_trees(void **state)
{
	struct loader_result *r;
	struct t t;
	char root[128];

	if (!have_cc || !have_ldconfig) {
		printf("# skipping: needs cc and ldconfig\n");
		skip();
	}
	snprintf(root, sizeof(root), "%s/bad", tmp);
	so("bad/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "libcuda.so.1", NULL);
	assert_int_equal(
		tmptree_sh("mkdir -p %s/etc %s/a %s/b %s/c %s/noperm && "
			   "echo /usr/lib/x86_64-linux-gnu > %s/etc/ld.so.conf && %s -r %s",
			   root, root, root, root, root, root, ldconfig, root),
		0);
	/* a/: a text file named like the library; b/: a symlink loop; c/: a dangling link. */
	assert_int_equal(
		tmptree_sh("cd %s && echo 'not ELF' > a/libnotelf.so.1 && "
			   "ln -s libloop.so.1.x b/libloop.so.1 && ln -s libloop.so.1 "
			   "b/libloop.so.1.x && "
			   "ln -s /gone/libcuda.so.1 c/libcuda.so.1 && cp "
			   "usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15 noperm/libcuda.so.1",
			   root),
		0);
	open_tree(&t, root, "/a:/b:/c:/noperm");
	assert_int_equal(testhooks_root_inject_error(t.root, "/noperm", EACCES), 0);

	r = resolve(&t, "libnotelf.so.1");
	assert_int_equal(r->winner, -1);
	assert_int_equal(r->failure, 0);
	assert_int_equal(r->cands[0].verdict, LOADER_FAIL_NOT_ELF);
	loader_result_free(r);

	r = resolve(&t, "libloop.so.1");
	assert_int_equal(r->failure, 0);
	assert_int_equal(r->cands[0].verdict, LOADER_FAIL_ERRNO);
	assert_int_equal(r->cands[0].err, -ELOOP);
	loader_result_free(r);

	/* The dangling link is passed over; /noperm cannot be searched; the cache answers, but
	 * a process that can search /noperm loads its libcuda.so.1 instead: could not tell. */
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(t.l->llp.v[3].err, -EACCES);
	assert_int_equal(r->cands[0].verdict, LOADER_SKIP_ERRNO);
	assert_int_equal(r->cands[0].err, -ENOENT);
	assert_string_equal(r->cands[0].path, "/c/libcuda.so.1");
	assert_string_equal(winner(r)->path, "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
	assert_int_equal(winner(r)->via, LOADER_VIA_CACHE);
	assert_non_null(r->undetermined_by);
	assert_string_equal(r->undetermined_by, "/noperm");
	assert_int_equal(r->undetermined_err, -EACCES);
	loader_result_free(r);
	close_tree(&t);

	/* A dangling link alone is passed over by every process: the answer is certain. */
	open_tree(&t, root, "/c");
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(winner(r)->via, LOADER_VIA_CACHE);
	assert_null(r->undetermined_by);
	loader_result_free(r);
	close_tree(&t);

	/* The file itself unreadable (EACCES at open, as open_verify() passes it over): the
	 * cache's copy is what gpuenv's search reaches, the process may load the other. */
	open_tree(&t, root, "/noperm");
	assert_int_equal(testhooks_root_inject_error(t.root, "/noperm/libcuda.so.1", EACCES), 0);
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(r->cands[0].verdict, LOADER_SKIP_ERRNO);
	assert_int_equal(r->cands[0].err, -EACCES);
	assert_int_equal(winner(r)->via, LOADER_VIA_CACHE);
	assert_string_equal(r->undetermined_by, "/noperm/libcuda.so.1");
	assert_int_equal(r->undetermined_err, -EACCES);
	loader_result_free(r);
	close_tree(&t);

	/* A truncated cache: recorded, and the system directories still answer. */
	assert_int_equal(
		tmptree_sh("cd %s/etc && head -c 60 ld.so.cache > c && mv c ld.so.cache", root), 0);
	open_tree(&t, root, NULL);
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(t.l->cache_err, -EBADMSG);
	assert_non_null(strstr(t.l->cache_why, "truncated"));
	assert_int_equal(winner(r)->via, LOADER_VIA_DEFAULT);
	loader_result_free(r);
	close_tree(&t);

	/* No cache at all. */
	assert_int_equal(tmptree_sh("rm %s/etc/ld.so.cache", root), 0);
	open_tree(&t, root, NULL);
	r = resolve(&t, "libcuda.so.1");
	assert_int_equal(t.l->cache_err, -ENOENT);
	assert_int_equal(winner(r)->via, LOADER_VIA_DEFAULT);
	loader_result_free(r);
	close_tree(&t);
}

/* A 32-bit file first is passed over, as ld.so does ("wrong ELF class"). */
static void test_wrong_class(void **state)
{
	struct loader_result *r;
	struct t t;
	char root[128];

	if (!have_cc32) {
		printf("# skipping: no cc -m32\n");
		skip();
	}
	snprintf(root, sizeof(root), "%s/cls", tmp);
	so("cls/m32/libnvidia-ml.so.1", "libnvidia-ml.so.1", "-m32");
	so("cls/m64/libnvidia-ml.so.1", "libnvidia-ml.so.1", NULL);
	open_tree(&t, root, "/m32:/m64");
	r = resolve(&t, "libnvidia-ml.so.1");
	assert_int_equal(r->cands[0].verdict, LOADER_SKIP_CLASS);
	assert_int_equal(r->cands[0].elf_class, ELFCLASS32);
	assert_int_equal(r->winner, 1);
	assert_string_equal(winner(r)->path, "/m64/libnvidia-ml.so.1");
	loader_result_free(r);
	close_tree(&t);
}

/* A framework library's DT_RUNPATH with $ORIGIN, pip wheels vs the system toolkit. */
static void test_requester(void **state)
{
	struct loader_result *r;
	struct t t;
	char root[128];
	const char *sp = "/venv/lib/python3.11/site-packages";
	char rel[256], req[256];

	if (!have_cc) {
		printf("# skipping: needs cc\n");
		skip();
	}
	snprintf(root, sizeof(root), "%s/fw", tmp);
	snprintf(rel, sizeof(rel), "fw%s/nvidia/cudnn/lib/libcudnn.so.9", sp);
	so(rel, "libcudnn.so.9", NULL);
	so("fw/usr/local/cuda/lib64/libcudnn.so.9", "libcudnn.so.9", NULL);
	so("fw/usr/lib/x86_64-linux-gnu/libcudnn.so.8", "libcudnn.so.8", NULL);
	snprintf(rel, sizeof(rel), "fw%s/torch/lib/libtorch_cuda.so", sp);
	so(rel, "libtorch_cuda.so",
	   "-Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN'");
	snprintf(rel, sizeof(rel), "fw%s/torch/lib/libold.so", sp);
	so(rel, "libold.so", "-Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib'");
	snprintf(req, sizeof(req), "%s/torch/lib/libtorch_cuda.so", sp);

	/* RUNPATH comes after LD_LIBRARY_PATH: the toolkit's cuDNN wins over the wheel's. */
	open_tree(&t, root, "/usr/local/cuda/lib64");
	assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
	assert_int_equal(loader_resolve_for(t.l, "libcudnn.so.9", req, &r), 0);
	assert_int_equal(r->requester_err, 0);
	assert_string_equal(r->runpath, "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN");
	assert_int_equal(r->runpath_dirs.n, 2);
	assert_string_equal(winner(r)->path, "/usr/local/cuda/lib64/libcudnn.so.9");
	assert_int_equal(r->n_cands, 2);
	assert_int_equal(r->cands[1].via, LOADER_VIA_RUNPATH);
	loader_result_free(r);

	/* DT_RPATH comes before LD_LIBRARY_PATH: the wheel wins. */
	snprintf(req, sizeof(req), "%s/torch/lib/libold.so", sp);
	assert_int_equal(loader_resolve_for(t.l, "libcudnn.so.9", req, &r), 0);
	assert_int_equal(winner(r)->via, LOADER_VIA_RPATH);
	assert_non_null(strstr(winner(r)->path, "/nvidia/cudnn/lib/libcudnn.so.9"));
	loader_result_free(r);

	/* Two cuDNN majors both loadable. */
	{
		char **names = NULL;

		assert_int_equal(loader_find_sonames(t.l, "libcudnn.so", &names), 0);
		assert_int_equal(strv_length(names), 2);
		assert_string_equal(names[0], "libcudnn.so.8");
		assert_string_equal(names[1], "libcudnn.so.9");
		strv_free(names);
	}
	close_tree(&t);

	/* A requester whose DT_RUNPATH offset is bogus: recorded; the search goes on. */
	assert_int_equal(
		tmptree_sh(
			"mkdir -p %s/bogus && cp %s/elf-dynamic/bogus-runpath-offset.so %s/bogus/",
			root, CORPUS, root),
		0);
	open_tree(&t, root, NULL);
	assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
	assert_int_equal(
		loader_resolve_for(t.l, "libcudnn.so.8", "/bogus/bogus-runpath-offset.so", &r), 0);
	assert_string_equal(r->requester_problem, "DT_RUNPATH offset outside DT_STRTAB");
	assert_null(r->runpath);
	assert_int_equal(winner(r)->via, LOADER_VIA_DEFAULT);
	loader_result_free(r);
	/* A requester that is not there. */
	assert_int_equal(loader_resolve_for(t.l, "libcudnn.so.8", "/nope/libx.so", &r), 0);
	assert_int_equal(r->requester_err, -ENOENT);
	assert_int_equal(winner(r)->via, LOADER_VIA_DEFAULT);
	loader_result_free(r);
	close_tree(&t);
}

/* The emulation against the real ld.so, on the live root. */
static void test_against_ldd(void **state)
{
	struct loader_result *r;
	struct t t;
	char prog[256], llp[512], real[512];

	if (!have_cc || access("/usr/bin/ldd", X_OK) < 0) {
		printf("# skipping: needs cc and ldd\n");
		skip();
	}
	so("live/a/libgpuenvt.so.1", "libgpuenvt.so.1", have_cc32 ? "-m32" : NULL);
	so("live/b/libgpuenvt.so.1", "libgpuenvt.so.1", NULL);
	so("live/c/libgpuenvt.so.1", "libgpuenvt.so.1", NULL);
	so("live/app/lib/libgpuenvt.so.1", "libgpuenvt.so.1", NULL);
	assert_int_equal(
		tmptree_sh(
			"cd %s/live && printf 'int f(void); int main(void){return f();}\\n' > m.c "
			"&& "
			"cc m.c -o app/bin-runpath -Lc -l:libgpuenvt.so.1 -Wl,--enable-new-dtags "
			"-Wl,-rpath,'$ORIGIN/lib' && "
			"cc m.c -o app/bin-rpath -Lc -l:libgpuenvt.so.1 -Wl,--disable-new-dtags "
			"-Wl,-rpath,'$ORIGIN/lib'",
			tmp),
		0);
	static const struct {
		const char *prog, *llp;
	} cases[] = {
		{ "bin-runpath", "%s/live/a:%s/live/b:%s/live/c" },
		{ "bin-runpath", "%s/live/nonexistent" },
		{ "bin-rpath", "%s/live/b:%s/live/c:%s/live/a" },
		{ "bin-runpath", "%s/live/c;%s/live/b:%s/live/a" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(prog, sizeof(prog), "%s/live/app/%s", tmp, cases[i].prog);
		snprintf(llp, sizeof(llp), cases[i].llp, tmp, tmp, tmp);
		tmptree_ldd_path(prog, llp, "libgpuenvt.so.1", real, sizeof(real));
		assert_true(real[0] != '\0');
		open_tree(&t, "/", llp);
		assert_int_equal(loader_new(t.root, t.env, &t.l), 0);
		assert_int_equal(loader_resolve_for(t.l, "libgpuenvt.so.1", prog, &r), 0);
		printf("# ldd %s with LD_LIBRARY_PATH=%s: %s\n", cases[i].prog, llp, real);
		assert_string_equal(winner(r)->path, real);
		loader_result_free(r);
		close_tree(&t);
	}

	/* The system's libc: cache or system directory, as ldd says. */
	tmptree_ldd_path("/bin/sh", "", "libc.so.6", real, sizeof(real));
	if (real[0]) {
		open_tree(&t, "/", NULL);
		r = resolve(&t, "libc.so.6");
		assert_string_equal(winner(r)->path, real);
		loader_result_free(r);
		close_tree(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_ld_library_path_list),
		cmocka_unit_test(test_fixture_stub_first),
		cmocka_unit_test(test_multiarch_lib),
		cmocka_unit_test(test_bad_trees),
		cmocka_unit_test(test_wrong_class),
		cmocka_unit_test(test_requester),
		cmocka_unit_test(test_against_ldd),
	};
	int r;

#if !defined(__x86_64__)
	printf("# these tests assume an x86-64 build (the fixture is x86-64 Debian)\n");
	return 77;
#endif
	have_cc = tmptree_have_cc();
	ldconfig = tmptree_ldconfig();
	have_ldconfig = ldconfig != NULL;
	if (!tmptree_new(tmp, "test-loader"))
		return 1;
	have_cc32 =
		have_cc && tmptree_sh("printf 'int f(void){return 1;}\\n' | cc -m32 -x c - -shared "
				      "-nostdlib -o %s/probe32.so >/dev/null 2>&1",
				      tmp) == 0;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmptree_remove(tmp) != 0)
		return 1;
	return r;
}
