/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/cudart-ident.c: the CUDA runtime a host ELF file links (DT_NEEDED /
 * DT_SONAME names) or bundles (cudart's error strings in .rodata; the toolkit from .nv_fatbin's
 * cubins, a decompressed cubin or .rodata, in that order, read no further than needed).
 * Hand-built ELF files always; real nvcc executables (static by default, --cudart=shared) where
 * nvcc is installed (/usr/local/cuda/bin/nvcc or PATH), skipped visibly otherwise.
 */
#include <errno.h>
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

/* A file in memory read through a cudart_ident_reader, counting the bytes read; fail: every
 * read fails with EIO. */
struct rodata_file {
	const uint8_t *p;
	size_t len, bytes_read;
	bool fail;
};

static ssize_t rodata_read(void *userdata, uint64_t off, void *buf, size_t n)
{
	struct rodata_file *m = userdata;

	if (m->fail)
		return -EIO;
	if (off > m->len)
		return 0;
	n = n < m->len - off ? n : (size_t)(m->len - off);
	memcpy(buf, m->p + off, n);
	m->bytes_read += n;
	return (ssize_t)n;
}

/* cudart_ident_static() of an ELF whose .rodata holds the n bytes ro: found, and version; the
 * same through a reader (cudart_ident_static_read(), what the scanner uses on mapped files) */
static void static_case(const char *ro, size_t n, int want, const char *want_version)
{
	struct cudart_ident id = { 0 }, id2 = { 0 };
	struct buf el = elf_with(ro, n);
	struct rodata_file m = { .p = el.p, .len = el.len };

	assert_int_equal(cudart_ident_static(el.p, el.len, &id), want);
	if (want)
		assert_true(id.is_static);
	if (want_version)
		assert_string_equal(id.version, want_version);
	assert_int_equal(cudart_ident_static_read(el.p, el.len,
						  &(struct cudart_ident_reader){ rodata_read, &m },
						  NULL, &id2),
			 want);
	assert_memory_equal(&id, &id2, sizeof(id));
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

/* Through a reader, .rodata is read in CUDART_IDENT_CHUNK pieces: strings that straddle a
 * piece's end are found, the version that follows nvlink's string too, and a read that fails
 * is an error, never "not bundled". */
static void test_static_chunks(void **state)
{
	size_t n = 3 * CUDART_IDENT_CHUNK;
	char *ro = calloc(1, n);
	struct cudart_ident id = { 0 }, id2 = { 0 };
	struct buf el;
	struct rodata_file m = { 0 };
	struct cudart_ident_reader rd = { rodata_read, &m };

	assert_non_null(ro);
	memcpy(ro + CUDART_IDENT_CHUNK - 10, marker, sizeof(marker));
	memcpy(ro + 2 * CUDART_IDENT_CHUNK - 40, tools, sizeof(tools));
	el = elf_with(ro, n);
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static(el.p, el.len, &id), 1);
	assert_string_equal(id.version, "12.8");
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, NULL, &id2), 1);
	assert_memory_equal(&id, &id2, sizeof(id));
	m.fail = true;
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, NULL, &id2), -EIO);
	free(el.p);
	/* every placement of the marker around the first piece's end */
	for (size_t at = CUDART_IDENT_CHUNK - sizeof(marker); at <= CUDART_IDENT_CHUNK + 1; at++) {
		memset(ro, 'x', n);
		memcpy(ro + at, marker, sizeof(marker) - 1);
		el = elf_with(ro, n);
		m = (struct rodata_file){ .p = el.p, .len = el.len };
		assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, NULL, &id2), 1);
		assert_string_equal(id2.version, "");
		free(el.p);
	}
	free(ro);
}

/* The cost of a bundled cudart's identification: its strings lie at the end of .rodata, which
 * is searched from there backwards, so one chunk is read; the toolkit comes from .nv_fatbin's
 * head, then from the release a decompressed cubin named, and .rodata is read on for it only
 * when neither names one (and then its first string counts, as before). */
static void test_static_order(void **state)
{
	static const char fatbin_tools[] = "Cuda compilation tools, release 12.9, V12.9.41";
	size_t n = 3 * CUDART_IDENT_CHUNK;
	char *ro = calloc(1, n);
	struct cudart_ident id = { 0 };
	struct buf el;
	struct rodata_file m;
	struct cudart_ident_reader rd = { rodata_read, &m };

	assert_non_null(ro);
	memcpy(ro + 16, tools, sizeof(tools));
	memcpy(ro + n - sizeof(marker) - 8, marker, sizeof(marker));
	el = elf_with(ro, n);
	/* a cubin's release: .rodata's own string is not looked for; one chunk read */
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "13.0", &id), 1);
	assert_true(id.is_static);
	assert_string_equal(id.version, "13.0");
	assert_true(m.bytes_read <= CUDART_IDENT_CHUNK + sizeof(marker));
	/* none: .rodata's first string, after a pass over it from its start */
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "", &id), 1);
	assert_string_equal(id.version, "12.8");
	assert_true(m.bytes_read > CUDART_IDENT_CHUNK);
	assert_int_equal(cudart_ident_static(el.p, el.len, &id), 1);
	assert_string_equal(id.version, "12.8");
	/* the marker only in the first chunk: found (the backward search reads on), and a
	 * .rodata without it reads all of it to say so */
	memset(ro, 'x', n);
	memcpy(ro + 1, marker, sizeof(marker) - 1);
	free(el.p);
	el = elf_with(ro, n);
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "13.0", &id), 1);
	assert_string_equal(id.version, "13.0");
	ro[1] = 'y';
	free(el.p);
	el = elf_with(ro, n);
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "13.0", &id), 0);
	assert_true(m.bytes_read >= n);
	free(el.p);
	/* .nv_fatbin's cubin comes before the decompressed one's release */
	memcpy(ro + 1, marker, sizeof(marker) - 1);
	{
		struct sec_spec secs[] = {
			{ ".rodata", SHT_PROGBITS_, SHF_ALLOC_, 0x1000, ro, n },
			{ ".nv_fatbin", SHT_PROGBITS_, SHF_ALLOC_, 0x1000 + n, fatbin_tools,
			  sizeof(fatbin_tools) },
		};

		el = make_elf(true, 62, 0, 0, secs, 2);
	}
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "13.0", &id), 1);
	assert_string_equal(id.version, "12.9");
	assert_int_equal(cudart_ident_static(el.p, el.len, &id), 1);
	assert_string_equal(id.version, "12.9");
	/* unless the caller's walk met only compressed payloads in that head: it is not read,
	 * and the decompressed cubin's release counts */
	rd.fatbin_head_compressed = true;
	m = (struct rodata_file){ .p = el.p, .len = el.len };
	assert_int_equal(cudart_ident_static_read(el.p, el.len, &rd, "13.0", &id), 1);
	assert_string_equal(id.version, "13.0");
	free(el.p);
	free(ro);
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
		cmocka_unit_test(test_linked),	      cmocka_unit_test(test_static),
		cmocka_unit_test(test_static_chunks), cmocka_unit_test(test_static_order),
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
