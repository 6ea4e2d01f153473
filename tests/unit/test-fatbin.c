/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin: real nvcc output (-gencode sets, compress modes) when nvcc exists,
 * and hand-built malformed buffers. Format: /work/shared/facts/fatbin-format.md.
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

#include "fatbin/fatbin.h"

static char tmpdir[64];
static const char *nvcc;

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int build(const char *out, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && %s %s k.cu -o %s >/dev/null 2>&1", tmpdir, nvcc, args, out);
	return system(cmd);
}

/* expect: space-separated set of targets; de-duplicated result must equal it. */
static void check(const char *out, const char *args, const char *expect, const char *comp)
{
	char path[256], got[512] = "";
	size_t len;
	struct fatbin_result *r = NULL;
	uint8_t *buf;

	if (build(out, args) != 0) {
		printf("# skipping %s (nvcc rejected: %s)\n", out, args);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
	buf = slurp(path, &len);
	assert_int_equal(fatbin_scan_buffer(buf, len, &r), 0);
	for (size_t i = 0; i < r->n_entries; i++) {
		struct fatbin_entry *e = &r->entries[i];
		char tok[32];

		snprintf(tok, sizeof(tok), " %s ", e->target);
		char padded[520];
		snprintf(padded, sizeof(padded), " %s ", got);
		if (!strstr(padded, tok)) {
			if (*got)
				strcat(got, " ");
			strcat(got, e->target);
		}
		assert_true(e->is64);
		if (e->kind == FATBIN_KIND_PTX) {
			assert_int_equal(e->ptx_major, (int)e->ver_major);
			assert_int_equal(e->ptx_minor, (int)e->ver_minor);
		} else if (e->kind == FATBIN_KIND_ELF) {
			assert_int_equal(e->cubin_sm, (int)e->arch);
		}
		if (comp && e->kind == FATBIN_KIND_ELF)
			assert_string_equal(fatbin_compression_name(e->compression), comp);
	}
	/* compare as sets */
	char a[512], b[512];
	snprintf(a, sizeof(a), "%s", got);
	snprintf(b, sizeof(b), "%s", expect);
	int na = 0, nb = 0;
	for (char *t = strtok(b, " "); t; t = strtok(NULL, " ")) {
		char tok[40];
		snprintf(tok, sizeof(tok), " %s ", t);
		char padded[520];
		snprintf(padded, sizeof(padded), " %s ", a);
		if (!strstr(padded, tok))
			fail_msg("%s: missing %s (got '%s')", out, t, got);
		nb++;
	}
	for (char *t = strtok(a, " "); t; t = strtok(NULL, " "))
		na++;
	if (na != nb)
		fail_msg("%s: got '%s', expected '%s'", out, got, expect);
	fatbin_result_free(r);
	free(buf);
}

static void test_nvcc(void **state)
{
	check("a.so", "-shared -Xcompiler -fPIC -gencode arch=compute_75,code=sm_75", "sm_75", NULL);
	check("b.so", "-shared -Xcompiler -fPIC -gencode arch=compute_80,code=[sm_80,compute_80]",
	      "sm_80 compute_80", NULL);
	check("c.so", "-shared -Xcompiler -fPIC -gencode arch=compute_90a,code=sm_90a", "sm_90a", NULL);
	check("d.so", "-shared -Xcompiler -fPIC -gencode arch=compute_90,code=compute_90", "compute_90", NULL);
	check("e.fatbin", "-fatbin -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=[sm_90,compute_90]",
	      "sm_75 sm_90 compute_90", NULL);
	check("f.cubin", "-cubin -arch=sm_86", "sm_86", NULL);
	check("g.so", "-shared -Xcompiler -fPIC -Xfatbin=-compress-all --compress-mode=speed -gencode arch=compute_75,code=[sm_75,compute_75]",
	      "sm_75 compute_75", "lz4");
	check("h.so", "-shared -Xcompiler -fPIC -Xfatbin=-compress-all --compress-mode=size -gencode arch=compute_75,code=[sm_75,compute_75]",
	      "sm_75 compute_75", "zstd");
	check("i.so", "-shared -Xcompiler -fPIC --compress-mode=none -gencode arch=compute_75,code=[sm_75,compute_75]",
	      "sm_75 compute_75", "none");
}

static void put32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static void make_container(uint8_t *b, uint64_t fsz)
{
	memset(b, 0, 16);
	put32(b, 0xBA55ED50);
	b[4] = 1;
	b[6] = 16;
	put64(b + 8, fsz);
}

static void test_malformed(void **state)
{
	uint8_t b[256];
	struct fatbin_result *r = NULL;

	memset(b, 0, sizeof(b));
	/* non-ELF garbage */
	assert_int_equal(fatbin_scan_buffer((const uint8_t *)"hello world", 11, &r), -EBADMSG);
	/* truncated container header */
	make_container(b, 0);
	assert_int_equal(fatbin_scan_buffer(b, 12, &r), -EBADMSG);
	/* empty container is fine */
	assert_int_equal(fatbin_scan_buffer(b, 16, &r), 0);
	assert_int_equal(r->n_entries, 0);
	assert_int_equal(r->n_containers, 1);
	fatbin_result_free(r);
	/* fatSize past end */
	make_container(b, 1000);
	assert_int_equal(fatbin_scan_buffer(b, 128, &r), -EBADMSG);
	/* huge fatSize (overflow) */
	make_container(b, UINT64_MAX - 4);
	assert_int_equal(fatbin_scan_buffer(b, 128, &r), -EBADMSG);
	/* entry header truncated */
	make_container(b, 32);
	assert_int_equal(fatbin_scan_buffer(b, 48, &r), -EBADMSG);
	/* one good entry, then an entry with huge payload */
	make_container(b, 64);
	memset(b + 16, 0, 64);
	b[16] = 2;
	b[18] = 1;
	b[19] = 1;
	put32(b + 16 + 4, 64);
	put32(b + 16 + 0x1c, 86);
	put64(b + 16 + 0x28, 0x11);
	assert_int_equal(fatbin_scan_buffer(b, 80, &r), 0);
	assert_int_equal(r->n_entries, 1);
	assert_string_equal(r->entries[0].target, "sm_86");
	fatbin_result_free(r);
	put64(b + 16 + 8, UINT64_MAX - 32);
	assert_int_equal(fatbin_scan_buffer(b, 80, &r), -EBADMSG);
	put64(b + 16 + 8, 0);
	put32(b + 16 + 4, 0xfffffff8);
	assert_int_equal(fatbin_scan_buffer(b, 80, &r), -EBADMSG);
	/* bad header size (not multiple of 8) */
	put32(b + 16 + 4, 65);
	assert_int_equal(fatbin_scan_buffer(b, 80, &r), -EBADMSG);
	/* compressed size > payload */
	put32(b + 16 + 4, 64);
	put32(b + 16 + 0x10, 100);
	put64(b + 16 + 0x28, 0x8011);
	assert_int_equal(fatbin_scan_buffer(b, 80, &r), -EBADMSG);
	/* truncated ELF */
	assert_int_equal(fatbin_scan_buffer((const uint8_t *)"\177ELF\2\1\1", 7, &r), -EBADMSG);
	memset(b, 0, sizeof(b));
	memcpy(b, "\177ELF\2\1\1", 7);
	b[18] = 62;
	put64(b + 0x28, 1u << 30); /* e_shoff past end */
	b[0x3a] = 64;
	b[0x3c] = 5;
	assert_int_not_equal(fatbin_scan_buffer(b, 64, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nvcc),
	};
	int rv;

	nvcc = access("/usr/local/cuda/bin/nvcc", X_OK) == 0 ? "/usr/local/cuda/bin/nvcc" : NULL;
	if (!nvcc && system("command -v nvcc >/dev/null 2>&1") == 0)
		nvcc = "nvcc";
	if (!nvcc) {
		printf("# nvcc not found (/usr/local/cuda/bin/nvcc or PATH): skipping\n");
		exit(77);
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-fatbin-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	char p[128];
	snprintf(p, sizeof(p), "%s/k.cu", tmpdir);
	FILE *f = fopen(p, "w");
	fputs("__global__ void k(int *x) { x[threadIdx.x] += 1; }\n", f);
	fclose(f);
	rv = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		rv = rv ? rv : 1;
	return rv;
}
