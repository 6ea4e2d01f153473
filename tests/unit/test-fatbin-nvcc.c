/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin over real nvcc output: objects from several -gencode sets and
 * compression modes, cubins, fatbins, relocatable objects and a static library of them; the
 * scanner must report exactly the targets requested. LTO-IR (code=lto_90, -dlto) is listed
 * and judged never to run; cuobjdump, where installed, must list none of it; the LTO-IR
 * version the installed nvcc writes must be its release's in src/facts/data/ltoir.tsv. Skipped (said on stdout) where nvcc is
 * not installed (/usr/local/cuda/bin/nvcc or PATH) or GPUENV_TEST_NO_NVCC is set. The
 * hand-built inputs: test-fatbin.c. Formats: docs/formats/fatbin.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fatbin-test-util.h"
#include "formats/archive.h"
#include "facts/coverage.h"
#include "facts/facts-table.h"
#include "facts/ltoir.h"
#include "fatbin/fatbin.h"

static char tmpdir[64];
static const char *nvcc;

static int build_from(const char *src, const char *out, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s %s -o %s >/dev/null 2>&1", tmpdir, nvcc, args,
		 src, out);
	return system(cmd);
}

static int build(const char *out, const char *args)
{
	return build_from("k.cu", out, args);
}

static bool in_set(const char *set, const char *t)
{
	size_t n = strlen(t);

	for (const char *s = set; (s = strstr(s, t)); s += n)
		if ((s == set || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return true;
	return false;
}

/* expect: space-separated set of targets; the de-duplicated result must equal it. Every
 * PTX entry's header ISA must equal its ".version", every cubin's e_flags SM its arch. */
static void check_buf(const char *out, const char *args, const uint8_t *buf, size_t len,
		      const char *expect, const char *comp)
{
	char got[512] = "", tmp[512];
	struct fatbin_result *r = NULL;
	int n_expect = 0, n_got = 0;

	r = parse_ok(buf, len, FATBIN_PARSE_PAYLOAD_HEADS);
	for (size_t i = 0; i < r->n_entries; i++) {
		struct fatbin_entry *e = &r->entries[i];

		if (e->kind == FATBIN_KIND_ELF && e->has_kernels == 0)
			continue; /* nvlink's device-link image: judged by nobody */
		if (!in_set(got, e->target)) {
			if (*got)
				strcat(got, " ");
			strcat(got, e->target);
		}
		assert_true(e->is64);
		if (e->kind == FATBIN_KIND_PTX) {
			assert_true(e->ptx_from_text);
			assert_int_equal(e->ptx_major, (int)e->ver_major);
			assert_int_equal(e->ptx_minor, (int)e->ver_minor);
			/* .target spells the same arch + variant */
			assert_string_equal(e->ptx_target + 3, e->target + 8);
		} else if (e->kind == FATBIN_KIND_ELF) {
			assert_int_equal(e->cubin_sm, (int)e->arch);
		} else if (e->kind == FATBIN_KIND_LTO) {
			/* the header's LTO-IR version is the one in the payload's own NVVM IR
			 * container, which nvJitLink reads (read where stored uncompressed) */
			assert_true(e->lto_major >= 1);
			assert_int_equal(e->lto_major, (int)e->ver_major);
			assert_int_equal(e->lto_minor, (int)e->ver_minor);
			assert_int_equal(e->lto_from_payload,
					 e->compression == FATBIN_COMPRESS_NONE);
		}
		if (comp && e->kind == FATBIN_KIND_ELF && r->type != FATBIN_FILE_CUBIN)
			assert_string_equal(fatbin_compression_name(e->compression), comp);
	}
	snprintf(tmp, sizeof(tmp), "%s", expect);
	for (char *t = strtok(tmp, " "); t; t = strtok(NULL, " ")) {
		if (!in_set(got, t))
			fail_msg("%s (%s): missing %s (got '%s')", out, args, t, got);
		n_expect++;
	}
	snprintf(tmp, sizeof(tmp), "%s", got);
	for (char *t = strtok(tmp, " "); t; t = strtok(NULL, " "))
		n_got++;
	if (n_got != n_expect)
		fail_msg("%s (%s): got '%s', expected '%s'", out, args, got, expect);
	printf("# %-10s %-40s -> %s\n", out, args, got);
	fatbin_result_free(r);
}

static void check(const char *out, const char *args, const char *expect, const char *comp)
{
	char path[256];
	size_t len;
	uint8_t *buf;

	if (build(out, args) != 0)
		fail_msg("nvcc failed: %s %s", args, out);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
	buf = slurp(path, &len);
	check_buf(out, args, buf, len, expect, comp);
	free(buf);
}

/* A static library of nvcc objects (binutils ar): each member read in place has the
 * targets its object had. */
static void check_archive(void)
{
	char cmd[512], path[256];
	struct members c = { 0 };
	const char *why = NULL;
	size_t len;
	uint8_t *buf;

	snprintf(cmd, sizeof(cmd), "cd %s && rm -f libn.a && ar rc libn.a n.o >/dev/null 2>&1",
		 tmpdir);
	if (system(cmd) != 0)
		skip(); /* no binutils ar */
	snprintf(path, sizeof(path), "%s/libn.a", tmpdir);
	buf = slurp(path, &len);
	assert_int_equal(ar_for_each_member(buf, len, collect_member, &c, &why), 0);
	assert_string_equal(c.names, "n.o");
	check_buf("libn.a(n.o)", "ar rc libn.a n.o", c.last, c.last_len, "sm_86 compute_86", NULL);
	free(buf);
}

#define SO "-shared -Xcompiler -fPIC "

static void test_nvcc_targets(void **state)
{
	if (!nvcc)
		skip();
	check("a.so", SO "-gencode arch=compute_75,code=sm_75", "sm_75", "none");
	check("b.so", SO "-gencode arch=compute_80,code=[sm_80,compute_80]", "sm_80 compute_80",
	      NULL);
	check("c.so", SO "-gencode arch=compute_90a,code=sm_90a", "sm_90a", NULL);
	check("d.so", SO "-gencode arch=compute_90,code=compute_90", "compute_90", NULL);
	check("e.so", SO "-gencode arch=compute_100f,code=sm_100f", "sm_100f", NULL);
	check("f.so", SO "-gencode arch=compute_120f,code=[sm_120f,compute_120f]",
	      "sm_120f compute_120f", NULL);
	check("g.so",
	      SO "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 "
		 "-gencode arch=compute_90,code=[sm_90,compute_90]",
	      "sm_75 sm_86 sm_90 compute_90", NULL);
	check("h.fatbin",
	      "-fatbin -gencode arch=compute_75,code=sm_75 "
	      "-gencode arch=compute_90a,code=[sm_90a,compute_90a]",
	      "sm_75 sm_90a compute_90a", NULL);
	check("i.fatbin", "-fatbin -gencode arch=compute_80,code=compute_80", "compute_80", NULL);
	check("j.cubin", "-cubin -arch=sm_86", "sm_86", NULL);
	check("k.cubin", "-cubin -arch=sm_90a", "sm_90a", NULL);
	check("l.cubin", "-cubin -arch=sm_100f", "sm_100f", NULL);
	check("m.cubin", "-cubin -arch=sm_120a", "sm_120a", NULL);
	check("n.o",
	      "-c -rdc=true -Xcompiler -fPIC -gencode arch=compute_86,code=[sm_86,compute_86]",
	      "sm_86 compute_86", NULL);
	check_archive();
}

static void test_nvcc_compression(void **state)
{
	static const char *const modes[][2] = {
		{ "--compress-mode=default", "zstd" }, { "--compress-mode=size", "zstd" },
		{ "--compress-mode=balance", "zstd" }, { "--compress-mode=speed", "lz4" },
		{ "--compress-mode=none", "none" },
	};
	char args[256], out[32];

	if (!nvcc)
		skip();
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(args, sizeof(args),
			 SO "-Xfatbin=-compress-all %s "
			    "-gencode arch=compute_75,code=[sm_75,compute_75]",
			 modes[i][0]);
		snprintf(out, sizeof(out), "c%zu.so", i);
		check(out, args, "sm_75 compute_75", modes[i][1]);
	}
	/* default (no -compress-all): SASS plain, PTX zstd; -no-compress: nothing */
	check("d1.so", SO "-gencode arch=compute_75,code=[sm_75,compute_75]", "sm_75 compute_75",
	      "none");
	check("d2.so", SO "-no-compress -gencode arch=compute_80,code=[sm_80,compute_80]",
	      "sm_80 compute_80", "none");
	check("d3.fatbin",
	      "-fatbin -Xfatbin=-compress-all --compress-mode=speed "
	      "-gencode arch=compute_90,code=[sm_90,compute_90]",
	      "sm_90 compute_90", "lz4");
}

/* A source without kernels: its object's image and nvlink's device-link image are kernel-less
 * ELF entries under every --compress-mode (compressed ones are decompressed to tell), never an
 * sm_80 target, header-only (the scanner's default) or not. */
static void test_nvcc_link_stubs(void **state)
{
	static const char *const modes[] = { "default", "size", "speed", "balance", "none" };
	static const unsigned flags[] = { 0, FATBIN_PARSE_PAYLOAD_HEADS };

	if (!nvcc)
		skip();
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char args[256], out[32], path[256];
		size_t len, n_elf = 0;
		uint8_t *buf;

		snprintf(args, sizeof(args),
			 SO "-Xfatbin=-compress-all --compress-mode=%s "
			    "-gencode arch=compute_80,code=sm_80",
			 modes[i]);
		snprintf(out, sizeof(out), "stub-%s.so", modes[i]);
		if (build_from("stub.cu", out, args) != 0)
			fail_msg("nvcc failed: %s %s", args, out);
		snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
		buf = slurp(path, &len);
		for (size_t f = 0; f < 2; f++) {
			struct fatbin_result *r = parse_ok(buf, len, flags[f]);

			for (size_t k = 0; k < r->n_entries; k++) {
				if (r->entries[k].kind != FATBIN_KIND_ELF)
					continue;
				n_elf++;
				if (r->entries[k].has_kernels != 0)
					fail_msg("%s: ELF entry %zu has_kernels %d (a link stub)",
						 modes[i], k, r->entries[k].has_kernels);
			}
			fatbin_result_free(r);
		}
		assert_true(n_elf > 0);
		free(buf);
	}
}

/* cuobjdump, where the toolkit has it (CUDA Binary Utilities: --list-elf and --list-ptx list
 * the ELF and PTX entries only); NULL, said on stdout, where it does not. */
static const char *cuobjdump(void)
{
	static bool said;

	if (access("/usr/local/cuda/bin/cuobjdump", X_OK) == 0)
		return "/usr/local/cuda/bin/cuobjdump";
	if (system("command -v cuobjdump >/dev/null 2>&1") == 0)
		return "cuobjdump";
	if (!said)
		printf("SKIP cuobjdump agreement of LTO-IR entries: cuobjdump is not installed "
		       "(not in this CUDA toolkit's bin/)\n");
	said = true;
	return NULL;
}

/* What cuobjdump lists of out must be what the scanner lists as SASS and PTX: of an LTO-IR
 * entry, nothing. */
static void cuobjdump_agrees(const char *out, const char *loadable)
{
	const char *tool = cuobjdump();
	char cmd[512], line[512], got[256] = "";
	FILE *f;

	if (!tool)
		return;
	snprintf(cmd, sizeof(cmd), "cd %s && %s --list-elf --list-ptx %s 2>/dev/null", tmpdir, tool,
		 out);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		/* "ELF file    1: lto.1.sm_80.cubin", "PTX file    1: x.1.sm_90.ptx" */
		const char *sm = strstr(line, ".sm_");
		size_t used = strlen(got);

		if (sm)
			snprintf(got + used, sizeof(got) - used, "%s%s_%.*s", used ? " " : "",
				 strstr(line, "PTX") ? "compute" : "sm", (int)strcspn(sm + 4, "."),
				 sm + 4);
	}
	pclose(f);
	printf("# cuobjdump %-12s -> '%s' (expected '%s')\n", out, got, loadable);
	assert_string_equal(got, loadable);
}

/* A fat binary's targets, as the doctor's rules and `gpuenv scan` judge them. */
static void judge_file(const char *out, unsigned major, unsigned minor, struct coverage_result *res)
{
	struct coverage_target t[16];
	struct fatbin_result *r;
	char path[256];
	size_t len, n = 0;
	uint8_t *buf;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
	buf = slurp(path, &len);
	r = parse_ok(buf, len, FATBIN_PARSE_PAYLOAD_HEADS);
	for (size_t i = 0; i < r->n_entries && n < 16; i++)
		t[n++] = (struct coverage_target){ r->entries[i].target, r->entries[i].ptx_major,
						   r->entries[i].ptx_minor };
	assert_int_equal(coverage_judge(t, n, major, minor, "580.65.06", res), 0);
	fatbin_result_free(r);
	free(buf);
}

static void expect(const char *out, unsigned major, unsigned minor, enum coverage_verdict verdict,
		   bool lto_only, const char *reason)
{
	struct coverage_result res;

	judge_file(out, major, minor, &res);
	printf("# %s on %u.%u: %s: %s\n", out, major, minor, coverage_verdict_name(res.verdict),
	       res.reason);
	assert_int_equal(res.verdict, verdict);
	assert_int_equal(res.lto_only, lto_only);
	assert_non_null(strstr(res.reason, reason));
}

/* LTO-IR (-gencode code=lto_XX, -dlto): recognised as lto_XX, never judged as code that runs:
 * only LTO-IR is no-kernel-image ("lto_90 only: link-time IR"), beside SASS it is named. */
static void test_nvcc_lto(void **state)
{
	if (!nvcc)
		skip();
	check("lto.fatbin", "-fatbin -gencode arch=compute_90,code=lto_90", "lto_90", NULL);
	check("lto.o", "-c -rdc=true -Xcompiler -fPIC -gencode arch=compute_90,code=lto_90",
	      "lto_90", NULL);
	/* -dlto -arch=sm_90: LTO-IR and compute_90 PTX, which the driver JITs */
	check("ltod.o", "-c -dlto -rdc=true -Xcompiler -fPIC -arch=sm_90", "compute_90 lto_90",
	      NULL);
	check("ltom.fatbin",
	      "-fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=lto_90",
	      "sm_80 lto_90", NULL);
	/* stored uncompressed: the version is read from the payload too, and agrees */
	check("ltonc.fatbin",
	      "-fatbin -rdc=true --compress-mode=none -gencode arch=compute_90,code=lto_90",
	      "lto_90", NULL);
	check("ltonc.o",
	      "-c -rdc=true --compress-mode=none -Xcompiler -fPIC -gencode "
	      "arch=compute_90,code=[lto_90,sm_90]",
	      "sm_90 lto_90", NULL);
	expect("lto.fatbin", 9, 0, COVERAGE_NO_KERNEL_IMAGE, true, "lto_90 only: link-time IR");
	expect("lto.o", 9, 0, COVERAGE_NO_KERNEL_IMAGE, true, "lto_90 only: link-time IR");
	expect("ltod.o", 9, 0, COVERAGE_PTX_JIT, false, "compute_90 PTX");
	expect("ltom.fatbin", 9, 0, COVERAGE_NO_KERNEL_IMAGE, false,
	       "lto_90 is link-time IR, not loadable");
	expect("ltom.fatbin", 8, 6, COVERAGE_NATIVE, false, "sm_80 SASS");
	cuobjdump_agrees("lto.fatbin", "");
	cuobjdump_agrees("ltom.fatbin", "sm_80");
}

/* The release of the installed nvcc ("release 13.0," in nvcc --version), or false. */
static bool nvcc_release(unsigned *major, unsigned *minor)
{
	char cmd[256], line[256];
	bool ok = false;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s --version 2>/dev/null", nvcc);
	f = popen(cmd, "r");
	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "release ");

		ok = p && sscanf(p, "release %u.%u", major, minor) == 2;
	}
	pclose(f);
	return ok;
}

/* The LTO-IR version this nvcc writes (read from the payload's NVVM IR container, stored
 * uncompressed) is the one src/facts/data/ltoir.tsv gives its release, and an nvJitLink of
 * the same release is judged new enough for it. A release the table has no row for is said
 * (the row to add, observed here), not judged. */
static void test_nvcc_ltoir_row(void **state)
{
	const struct facts_ltoir *rows = facts_ltoir_table_rows(), *row = NULL;
	struct fatbin_result *r;
	struct ltoir_result lr;
	unsigned ma, mi;
	char path[256], rel[32];
	int lto_ma = -1, lto_mi = -1;
	size_t len;
	uint8_t *buf;

	if (!nvcc)
		skip();
	if (!nvcc_release(&ma, &mi))
		fail_msg("nvcc --version names no release");
	if (build("ltorow.fatbin",
		  "-fatbin -rdc=true --compress-mode=none -gencode arch=compute_90,code=lto_90") !=
	    0)
		fail_msg("nvcc failed to write LTO-IR");
	snprintf(path, sizeof(path), "%s/ltorow.fatbin", tmpdir);
	buf = slurp(path, &len);
	r = parse_ok(buf, len, FATBIN_PARSE_PAYLOAD_HEADS);
	for (size_t i = 0; i < r->n_entries; i++)
		if (r->entries[i].kind == FATBIN_KIND_LTO && r->entries[i].lto_from_payload) {
			lto_ma = r->entries[i].lto_major;
			lto_mi = r->entries[i].lto_minor;
		}
	fatbin_result_free(r);
	free(buf);
	assert_true(lto_ma >= 1 && lto_mi >= 0);
	for (size_t i = 0; i < facts_ltoir_table_len; i++)
		if (rows[i].cuda_major == ma && rows[i].cuda_minor == mi)
			row = &rows[i];
	if (!row) {
		printf("# nvcc %u.%u writes LTO-IR %d.%d: ltoir.tsv has no row for CUDA %u.%u\n",
		       ma, mi, lto_ma, lto_mi, ma, mi);
		skip();
	}
	printf("# nvcc %u.%u writes LTO-IR %d.%d (ltoir.tsv: %s)\n", ma, mi, lto_ma, lto_mi,
	       row->ltoir_version);
	assert_int_equal(lto_ma, (int)row->ltoir_major);
	assert_int_equal(lto_mi, (int)row->ltoir_minor);
	snprintf(rel, sizeof(rel), "%u.%u", ma, mi);
	assert_int_equal(ltoir_judge("lto_90", lto_ma, lto_mi, rel, &lr), 0);
	assert_int_equal(lr.verdict, LTOIR_NVJITLINK_NEW_ENOUGH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvcc_targets),	cmocka_unit_test(test_nvcc_compression),
		cmocka_unit_test(test_nvcc_link_stubs), cmocka_unit_test(test_nvcc_lto),
		cmocka_unit_test(test_nvcc_ltoir_row),
	};
	int rv;

	nvcc = test_nvcc();
	if (nvcc) {
		char p[128];
		FILE *f;

		snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-fatbin-XXXXXX");
		if (!mkdtemp(tmpdir))
			return 1;
		snprintf(p, sizeof(p), "%s/k.cu", tmpdir);
		f = fopen(p, "w");
		if (!f)
			return 1;
		fputs("__global__ void k(int *x) { x[threadIdx.x] += 1; }\n", f);
		fclose(f);
		snprintf(p, sizeof(p), "%s/stub.cu", tmpdir);
		f = fopen(p, "w");
		if (!f)
			return 1;
		fputs("__device__ int twice(int x) { return 2 * x; }\n"
		      "int host_only(int x) { return x + 1; }\n",
		      f);
		fclose(f);
	}
	rv = cmocka_run_group_tests(tests, NULL, NULL);
	if (nvcc) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			rv = rv ? rv : 1;
	}
	return rv;
}
