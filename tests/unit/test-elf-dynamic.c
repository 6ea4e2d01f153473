/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/elf-dynamic.c: the committed seed ELF files (tests/fuzz/corpus/
 * elf-dynamic, made as its README says), shared objects built with the C compiler at test
 * time (SONAME, RUNPATH vs RPATH, NEEDED order), section headers removed, patched string
 * offsets, truncation at every length of a real file, and CUDA's stub libcuda when installed.
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

#include "formats/elf-dynamic.h"
#include "tmptree.h"

#define CORPUS GPUENV_TEST_SOURCE_ROOT "/tests/fuzz/corpus/elf-dynamic/"

static char tmpdir[TMPTREE_DIR_MAX];
static bool have_cc;

static struct elf_dynamic *parse_file(const char *path)
{
	struct elf_dynamic *d = NULL;
	size_t len;
	uint8_t *buf = tmptree_slurp(path, &len);

	assert_non_null(buf);
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	free(buf);
	return d;
}

static void test_seed_runpath(void **state)
{
	struct elf_dynamic *d = parse_file(CORPUS "runpath-origin.so");

	assert_int_equal(d->elf_class, ELFCLASS64);
	assert_int_equal(d->machine, EM_X86_64);
	assert_string_equal(elf_machine_name(d->machine), "x86-64");
	assert_int_equal(d->type, ET_DYN);
	assert_true(d->has_dynamic);
	assert_string_equal(d->soname, "libseed.so.1");
	assert_string_equal(d->runpath, "$ORIGIN/../lib");
	assert_null(d->rpath);
	assert_int_equal(d->n_needed, 1);
	assert_string_equal(d->needed[0], "libc.so.6");
	assert_null(d->needed[1]);
	assert_null(d->problem);
	elf_dynamic_free(d);
}

static void test_seed_rpath_and_32bit(void **state)
{
	struct elf_dynamic *d = parse_file(CORPUS "rpath-two-dirs.so");

	assert_string_equal(d->soname, "libseed.so.2");
	assert_string_equal(d->rpath, "/opt/x:/opt/y");
	assert_null(d->runpath);
	assert_int_equal(d->n_needed, 0);
	assert_non_null(d->needed);
	assert_null(d->needed[0]);
	elf_dynamic_free(d);

	d = parse_file(CORPUS "elf32-i386.so");
	assert_int_equal(d->elf_class, ELFCLASS32);
	assert_int_equal(d->machine, EM_386);
	assert_string_equal(d->soname, "libseed32.so.1");
	elf_dynamic_free(d);

	d = parse_file(CORPUS "static-exe");
	assert_false(d->has_dynamic);
	assert_int_equal(d->type, ET_EXEC);
	assert_null(d->soname);
	assert_int_equal(d->n_needed, 0);
	elf_dynamic_free(d);
}

static void test_bogus_offsets(void **state)
{
	struct elf_dynamic *d = parse_file(CORPUS "bogus-runpath-offset.so");

	/* The file parses; the bogus string is left out and named. */
	assert_string_equal(d->soname, "libseed.so.1");
	assert_null(d->runpath);
	assert_non_null(d->problem);
	assert_string_equal(d->problem, "DT_RUNPATH offset outside DT_STRTAB");
	assert_int_equal(d->n_needed, 1);
	assert_string_equal(d->needed[0], "");
	elf_dynamic_free(d);
}

/* Every prefix of a real file either parses or is refused, never crashes or reads past. */
static void test_truncations(void **state)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(CORPUS "runpath-origin.so", &len);
	unsigned parsed = 0, refused = 0;

	assert_non_null(buf);
	for (size_t n = 0; n <= len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct elf_dynamic *d = NULL;
		int r;

		memcpy(copy, buf, n);
		r = elf_dynamic_parse(copy, n, &d);
		if (r == 0) {
			parsed++;
			elf_dynamic_free(d);
		} else {
			assert_int_equal(r, -EBADMSG);
			assert_null(d);
			refused++;
		}
		free(copy);
	}
	/* The header and program headers end at 64 + 56 * phnum: shorter is refused. */
	assert_true(refused >= 64);
	assert_true(parsed > 0);
	free(buf);
}

static void test_not_elf(void **state)
{
	struct elf_dynamic *d = NULL;
	uint8_t junk[128] = "\177ELF";
	size_t len;
	uint8_t *readme = tmptree_slurp(CORPUS "README", &len);

	assert_int_equal(elf_dynamic_parse(NULL, 0, &d), -EBADMSG);
	assert_int_equal(elf_dynamic_parse((const uint8_t *)"", 0, &d), -EBADMSG);
	assert_int_equal(elf_dynamic_parse(readme, len, &d), -EBADMSG);
	free(readme);
	/* The magic alone, class 0: refused. */
	assert_int_equal(elf_dynamic_parse(junk, sizeof(junk), &d), -EBADMSG);
	/* Class 64, but e_phoff far past the end. */
	junk[EI_CLASS] = ELFCLASS64;
	junk[EI_DATA] = ELFDATA2LSB;
	junk[EI_VERSION] = EV_CURRENT;
	((Elf64_Ehdr *)junk)->e_type = ET_DYN;
	((Elf64_Ehdr *)junk)->e_version = EV_CURRENT;
	((Elf64_Ehdr *)junk)->e_phoff = 0x7fffffffffffff00ull;
	((Elf64_Ehdr *)junk)->e_phnum = 3;
	((Elf64_Ehdr *)junk)->e_phentsize = sizeof(Elf64_Phdr);
	((Elf64_Ehdr *)junk)->e_ehsize = sizeof(Elf64_Ehdr);
	assert_int_equal(elf_dynamic_parse(junk, sizeof(junk), &d), -EBADMSG);
	assert_null(d);
}

/* Patches the program headers of a 64-bit LSB buffer: PT_DYNAMIC's p_filesz / PT_LOAD moved. */
static Elf64_Phdr *find_phdr(uint8_t *buf, uint32_t type)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if (ph->p_type == type)
			return ph;
	}
	return NULL;
}

static void test_hostile_headers(void **state)
{
	size_t len;
	uint8_t *buf = tmptree_slurp(CORPUS "runpath-origin.so", &len);
	struct elf_dynamic *d = NULL;
	Elf64_Phdr *dyn, *load;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	uint64_t saved;

	assert_non_null(buf);
	/* Section headers gone (sstrip): read through the program headers alone. */
	eh->e_shoff = 0;
	eh->e_shnum = 0;
	eh->e_shstrndx = 0;
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	assert_string_equal(d->runpath, "$ORIGIN/../lib");
	d = elf_dynamic_free(d);

	/* PT_DYNAMIC past the end of the file. */
	dyn = find_phdr(buf, PT_DYNAMIC);
	assert_non_null(dyn);
	saved = dyn->p_filesz;
	dyn->p_filesz = UINT64_MAX - 8;
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	assert_true(d->has_dynamic);
	assert_string_equal(d->problem, "PT_DYNAMIC extends past the end of the file");
	assert_null(d->soname);
	d = elf_dynamic_free(d);
	dyn->p_filesz = saved;

	/* No PT_LOAD covers DT_STRTAB. */
	load = find_phdr(buf, PT_LOAD);
	assert_non_null(load);
	saved = load->p_vaddr;
	load->p_vaddr = 0x40000000;
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	assert_string_equal(d->problem, "DT_STRTAB is not inside any PT_LOAD segment of the file");
	assert_int_equal(d->n_needed, 0);
	d = elf_dynamic_free(d);
	load->p_vaddr = saved;

	/* PT_LOAD file size reaching past the end: the string table lies outside the file. */
	saved = load->p_offset;
	load->p_offset = len - 4;
	assert_int_equal(elf_dynamic_parse(buf, len, &d), 0);
	assert_non_null(d->problem);
	assert_null(d->runpath);
	d = elf_dynamic_free(d);
	load->p_offset = saved;

	/* Absurd program header count. */
	eh->e_phnum = 0xfffe;
	assert_int_equal(elf_dynamic_parse(buf, len, &d), -EBADMSG);
	free(buf);
}

static int cc(const char *args, const char *out)
{
	return tmptree_sh("cd %s && cc -shared -fPIC %s f.c -o %s >/dev/null 2>&1", tmpdir, args,
			  out);
}

static void test_built(void **state)
{
	struct elf_dynamic *d;
	char path[128];

	if (!have_cc) {
		printf("# skipping compiled objects: no cc\n");
		skip();
	}
	assert_int_equal(
		cc("-Wl,-soname,libcudart.so.12 -Wl,--enable-new-dtags "
		   "-Wl,-rpath,'$ORIGIN':'$ORIGIN/../../nvidia/cublas/lib' -Wl,--no-as-needed -lm",
		   "a.so"),
		0);
	snprintf(path, sizeof(path), "%s/a.so", tmpdir);
	d = parse_file(path);
	assert_string_equal(d->soname, "libcudart.so.12");
	assert_string_equal(d->runpath, "$ORIGIN:$ORIGIN/../../nvidia/cublas/lib");
	assert_null(d->rpath);
	/* NEEDED in link order: libm before libc. */
	assert_true(d->n_needed >= 2);
	assert_string_equal(d->needed[0], "libm.so.6");
	assert_string_equal(d->needed[d->n_needed - 1], "libc.so.6");
	elf_dynamic_free(d);

	assert_int_equal(cc("-Wl,--disable-new-dtags -Wl,-rpath,/usr/local/cuda/lib64", "b.so"), 0);
	snprintf(path, sizeof(path), "%s/b.so", tmpdir);
	d = parse_file(path);
	assert_null(d->soname);
	assert_string_equal(d->rpath, "/usr/local/cuda/lib64");
	assert_null(d->runpath);
	elf_dynamic_free(d);
}

/* NVIDIA's link-time stub: SONAME libcuda.so.1 although the file is called libcuda.so. */
static void test_cuda_stub(void **state)
{
	static const char *const stubs[] = { "/usr/local/cuda/lib64/stubs/libcuda.so",
					     "/usr/local/cuda/lib/stubs/libcuda.so" };

	for (size_t i = 0; i < 2; i++) {
		struct elf_dynamic *d;

		if (access(stubs[i], R_OK) < 0)
			continue;
		d = parse_file(stubs[i]);
		assert_string_equal(d->soname, "libcuda.so.1");
		assert_int_equal(d->elf_class, ELFCLASS64);
		elf_dynamic_free(d);
		return;
	}
	printf("# skipping: no CUDA stub libcuda.so installed\n");
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_runpath),  cmocka_unit_test(test_seed_rpath_and_32bit),
		cmocka_unit_test(test_bogus_offsets), cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_not_elf),	      cmocka_unit_test(test_hostile_headers),
		cmocka_unit_test(test_built),	      cmocka_unit_test(test_cuda_stub),
	};
	int r;

	if (!tmptree_new(tmpdir, "test-elf-dynamic"))
		return 1;
	tmptree_puts(tmpdir, "f.c", "int f(void) { return 1; }\n");
	have_cc = tmptree_have_cc();
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmptree_remove(tmpdir) != 0)
		return 1;
	return r;
}
