/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/cudart-ident.c: the CUDA runtime a host ELF file links (DT_NEEDED /
 * DT_SONAME names) or bundles (cudart's error strings and nvlink's toolkit string in .rodata).
 * Hand-built ELF files always; real nvcc executables (static by default, --cudart=shared) where
 * nvcc is installed (/usr/local/cuda/bin/nvcc or PATH), skipped visibly otherwise.
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
#include "formats/cudart-ident.h"
#include "formats/elf-dynamic.h"

#define SHT_PROGBITS_ 1u
#define SHF_ALLOC_    2u

static const char marker[] = "CUDA driver version is insufficient for CUDA runtime version";
static const char tools[] = "Cuda compilation tools, release 12.8, V12.8.93";

static void test_linked(void **state)
{
	char n0[] = "libstdc++.so.6", n1[] = "libcudart.so.12", n2[] = "libc.so.6";
	char o0[] = "libcudart_static.so", o1[] = "libcudart.so.x", o2[] = "libcudart.so.";
	char *needed[] = { n0, n1, n2, NULL };
	char *other[] = { o0, o1, o2, NULL };
	struct cudart_ident id;

	assert_int_equal(cudart_ident_linked(NULL, needed, 3, &id), 1);
	assert_string_equal(id.version, "12");
	assert_false(id.is_static);
	assert_false(id.is_runtime);
	assert_int_equal(cudart_ident_linked("libcudart.so.13", NULL, 0, &id), 1);
	assert_string_equal(id.version, "13");
	assert_true(id.is_runtime);
	assert_int_equal(cudart_ident_linked("libcudart.so.11.0", NULL, 0, &id), 1);
	assert_string_equal(id.version, "11");
	assert_int_equal(cudart_ident_linked("libfoo.so.1", other, 3, &id), 0);
	assert_int_equal(cudart_ident_linked(NULL, NULL, 0, &id), 0);
}

/* .rodata with the given strings, and a .data section holding the same strings (not read). */
static struct buf elf_with(const char *rodata, size_t len)
{
	struct sec_spec secs[] = {
		{ ".rodata", SHT_PROGBITS_, SHF_ALLOC_, 0x1000, rodata, len },
	};

	return make_elf(true, 62, 0, 0, secs, 1);
}

/* cudart_ident_static() of an ELF whose .rodata holds the n bytes ro: found, and version */
static void static_case(const char *ro, size_t n, int want, const char *want_version)
{
	struct cudart_ident id = { 0 };
	struct buf el = elf_with(ro, n);

	assert_int_equal(cudart_ident_static(el.p, el.len, &id), want);
	if (want)
		assert_true(id.is_static);
	if (want_version)
		assert_string_equal(id.version, want_version);
	free(el.p);
}

static void test_static(void **state)
{
	char ro[512];
	struct cudart_ident id;

	/* both strings: bundled, version from nvlink's string */
	static_case(
		ro,
		(size_t)snprintf(ro, sizeof(ro), "x%c%s%cnvlink%c%s%c", 0, marker, 0, 0, tools, 0),
		1, "12.8");
	/* cudart's strings without nvlink's: bundled, version unknown */
	static_case(ro, (size_t)snprintf(ro, sizeof(ro), "%s%c", marker, 0), 1, "");
	/* nvlink's string alone (a --cudart=shared build): nothing bundled */
	static_case(ro, (size_t)snprintf(ro, sizeof(ro), "%s%c", tools, 0), 0, NULL);
	/* a truncated version ("release 12." at the end of the section) is no version */
	static_case(ro,
		    (size_t)snprintf(ro, sizeof(ro), "%s%cCuda compilation tools, release 12.",
				     marker, 0),
		    1, "");
	/* not ELF, or too short */
	assert_int_equal(cudart_ident_static((const uint8_t *)marker, sizeof(marker), &id), 0);
	assert_int_equal(cudart_ident_static((const uint8_t *)"\177ELF", 4, &id), 0);
}

static const char *nvcc;
static char tmpdir[64];

static uint8_t *nvcc_build(const char *args, const char *out, size_t *len)
{
	char cmd[1024], path[256];

	snprintf(cmd, sizeof(cmd),
		 "cd %s && printf '__global__ void k(int *x) { x[0] = 1; }\\nint main(void) { "
		 "return 0; }\\n' > m.cu && %s %s m.cu -o %s >/dev/null 2>&1",
		 tmpdir, nvcc, args, out);
	if (system(cmd) != 0)
		fail_msg("nvcc failed: %s", args);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, out);
	return slurp(path, len);
}

/* nvcc links cudart statically by default: found bundled, with the toolkit's release; the
 * --cudart=shared build links libcudart.so.N and bundles nothing. Stripped too. */
static void test_nvcc_builds(void **state)
{
	struct cudart_ident id;
	struct elf_dynamic *d = NULL;
	char cmd[256];
	uint8_t *buf;
	size_t len;

	if (!nvcc)
		skip();
	buf = nvcc_build("-arch=sm_80", "static", &len);
	assert_int_equal(cudart_ident_static(buf, len, &id), 1);
	assert_true(id.is_static);
	assert_true(strlen(id.version) >= 3 && strchr(id.version, '.'));
	free(buf);
	snprintf(cmd, sizeof(cmd), "cd %s && strip -o stripped static 2>/dev/null", tmpdir);
	if (system(cmd) == 0) {
		char path[256];

		snprintf(path, sizeof(path), "%s/stripped", tmpdir);
		buf = slurp(path, &len);
		assert_int_equal(cudart_ident_static(buf, len, &id), 1);
		free(buf);
	}
	buf = nvcc_build("-arch=sm_80 --cudart=shared", "shared", &len);
	assert_int_equal(cudart_ident_static(buf, len, &id), 0);
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	assert_int_equal(cudart_ident_linked(d->soname, d->needed, d->n_needed, &id), 1);
	assert_true(id.version[0] >= '1' && id.version[0] <= '9');
	elf_dynamic_free(d);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linked),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_nvcc_builds),
	};
	int rv;

	nvcc = test_nvcc();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-cudart-XXXXXX");
	if (nvcc && !mkdtemp(tmpdir))
		return 1;
	rv = cmocka_run_group_tests(tests, NULL, NULL);
	if (nvcc) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			rv = rv ? rv : 1;
	}
	return rv;
}
