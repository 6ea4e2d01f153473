/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/elf-symbols.c: shared objects built with the C compiler at test time
 * as NVIDIA versions libnvJitLink's entry points (a version script naming the soname:
 * __nvJitLinkAddData_12_0@@libnvJitLink.so.12, NVlabs/cuda-oxide#1103) and as cuSPARSE needs
 * them (undefined, from that file under that version: "undefined symbol:
 * __nvJitLinkComplete_12_4, version libnvJitLink.so.12", pytorch/pytorch#144244); then
 * truncations at every length and bytes that are not ELF; and the CUDA toolkit's own
 * libcusparse and libnvJitLink where one is installed (skipped, said so, where not). The
 * streamed read (src/formats/elf-symbols-stream.c) of each file, in chunks of several sizes,
 * says what the whole-file parse says.
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
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/elf-symbols-stream.h"
#include "shared/macro.h"
#include "../fuzz/elf-stream-source.h"
#include "tmptree.h"

static char tmpdir[TMPTREE_DIR_MAX];
static bool have_cc;

/* p[0..len) streamed in chunks of 1 byte (short files), 4 KiB and 1 MiB parses to what
 * whole does, in at most two passes over the file. */
static void assert_streamed_same(const uint8_t *p, size_t len, const struct elf_symbols *whole)
{
	static const size_t chunks[] = { 1, 4096, 1 << 20 };

	for (size_t i = 0; i < ARRAY_SIZE(chunks); i++) {
		struct buffer b = { .p = p, .len = len, .chunk = chunks[i] };
		struct elf_symbols *s = NULL;

		if (chunks[i] == 1 && len > (64u << 10))
			continue;
		assert_int_equal(elf_symbols_parse_stream(from_buffer, &b, len, "__nvJitLink", &s),
				 0);
		assert_true(elf_symbols_same(whole, s));
		assert_true(b.passes <= 2);
		elf_symbols_free(s);
	}
}

static struct elf_symbols *parse_file(const char *name, const char *prefix)
{
	struct elf_symbols *s = NULL;
	char path[TMPTREE_DIR_MAX + 32];
	size_t len;
	uint8_t *buf;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	buf = tmptree_slurp(path, &len);
	assert_non_null(buf);
	assert_int_equal(elf_symbols_parse(buf, len, prefix, &s), 0);
	if (strcmp(prefix, "__nvJitLink") == 0)
		assert_streamed_same(buf, len, s);
	free(buf);
	return s;
}

static const struct elf_symbol *find_sym(const struct elf_symbols *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->sym[i].name, name) == 0)
			return &s->sym[i];
	return NULL;
}

/* libnvJitLink.so.12 of a release (its names _12_0 … _12_<minor>) and a libcusparse.so.12
 * that needs the _12_4 names from it. */
static bool build(void)
{
	return tmptree_sh(
		       "cd %s && "
		       "printf 'int __nvJitLinkComplete_12_0(void){return 0;}\\n"
		       "int __nvJitLinkComplete_12_2(void){return 0;}\\n' > old.c && "
		       "printf 'libnvJitLink.so.12 { global: __nvJitLinkComplete_12_0; "
		       "__nvJitLinkComplete_12_2; local: *; };\\n' > old.map && "
		       "cc -shared -fPIC -nostdlib old.c -Wl,--version-script,old.map "
		       "-Wl,-soname,libnvJitLink.so.12 -o libnvJitLink.so.12 && "
		       "printf 'int __nvJitLinkComplete_12_4(void);\\nint __nvJitLinkComplete_12_0"
		       "(void);\\nint g(void){return __nvJitLinkComplete_12_4() + "
		       "__nvJitLinkComplete_12_0();}\\n' > user.c && "
		       "printf 'int __nvJitLinkComplete_12_4(void){return 0;}\\n"
		       "int __nvJitLinkComplete_12_0(void){return 0;}\\n' > new.c && "
		       "printf 'libnvJitLink.so.12 { global: __nvJitLinkComplete_12_0; "
		       "__nvJitLinkComplete_12_4; local: *; };\\n' > new.map && "
		       "mkdir -p new && cc -shared -fPIC -nostdlib new.c "
		       "-Wl,--version-script,new.map -Wl,-soname,libnvJitLink.so.12 "
		       "-o new/libnvJitLink.so.12 && "
		       "cc -shared -fPIC -nostdlib user.c new/libnvJitLink.so.12 "
		       "-Wl,-soname,libcusparse.so.12 -o libcusparse.so.12 >/dev/null 2>&1",
		       tmpdir) == 0;
}

static void test_needed_and_defined(void **state)
{
	struct elf_symbols *user, *old, *new;
	const struct elf_symbol *e;

	if (!have_cc) {
		printf("# skipping compiled objects: no cc\n");
		skip();
	}
	assert_true(build());
	user = parse_file("libcusparse.so.12", "__nvJitLink");
	assert_true(user->has_dynsym);
	assert_int_equal(user->n, 2);
	e = find_sym(user, "__nvJitLinkComplete_12_4");
	assert_non_null(e);
	assert_false(e->defined);
	assert_string_equal(e->version, "libnvJitLink.so.12");
	assert_string_equal(e->file, "libnvJitLink.so.12");
	/* the prefix keeps g out */
	assert_null(find_sym(user, "g"));
	assert_null(user->problem);

	old = parse_file("libnvJitLink.so.12", "__nvJitLink");
	assert_int_equal(old->n, 2);
	e = find_sym(old, "__nvJitLinkComplete_12_2");
	assert_non_null(e);
	assert_true(e->defined);
	assert_string_equal(e->version, "libnvJitLink.so.12");
	assert_null(e->file);
	assert_true(elf_symbols_defines(old, "__nvJitLinkComplete_12_0", "libnvJitLink.so.12"));
	assert_false(elf_symbols_defines(old, "__nvJitLinkComplete_12_4", "libnvJitLink.so.12"));
	assert_false(elf_symbols_defines(old, "__nvJitLinkComplete_12_0", "libnvJitLink.so.13"));
	assert_true(elf_symbols_defines(old, "__nvJitLinkComplete_12_0", NULL));

	new = parse_file("new/libnvJitLink.so.12", "__nvJitLink");
	assert_true(elf_symbols_defines(new, "__nvJitLinkComplete_12_4", "libnvJitLink.so.12"));
	/* an undefined symbol is no definition */
	assert_false(elf_symbols_defines(user, "__nvJitLinkComplete_12_4", NULL));
	elf_symbols_free(user);
	elf_symbols_free(old);
	elf_symbols_free(new);
}

/* Every prefix of a real file parses or is refused, never read past its end (ASan). */
/* Several prefixes in one pass: the symbols of each, in .dynsym order, and nothing else. */
static void test_any_prefix(void **state)
{
	const char *const both[] = { "__nvJitLinkComplete_12_4", "g", NULL };
	const char *const none[] = { NULL };
	struct elf_symbols *s = NULL;
	char path[TMPTREE_DIR_MAX + 32];
	size_t len;
	uint8_t *buf;

	(void)state;
	if (!have_cc) {
		printf("# skipping compiled objects: no cc\n");
		skip();
	}
	assert_true(build());
	snprintf(path, sizeof(path), "%s/libcusparse.so.12", tmpdir);
	buf = tmptree_slurp(path, &len);
	assert_non_null(buf);
	assert_int_equal(elf_symbols_parse_any(buf, len, both, &s), 0);
	assert_int_equal(s->n, 2);
	assert_non_null(find_sym(s, "g"));
	assert_true(find_sym(s, "g")->defined);
	assert_non_null(find_sym(s, "__nvJitLinkComplete_12_4"));
	assert_null(find_sym(s, "__nvJitLinkComplete_12_0"));
	assert_false(s->truncated);
	elf_symbols_free(s);
	assert_int_equal(elf_symbols_parse_any(buf, len, none, &s), -EBADMSG);
	assert_int_equal(elf_symbols_parse_any(buf, len, NULL, &s), -EBADMSG);
	free(buf);
}

/* The needed symbols only (the sibling probe's read): every undefined versioned one, whatever
 * its name, and none of what the file defines. */
static void test_needed_only(void **state)
{
	struct elf_symbols *s = NULL;
	char path[TMPTREE_DIR_MAX + 32];
	size_t len;
	uint8_t *buf;

	(void)state;
	if (!have_cc) {
		printf("# skipping compiled objects: no cc\n");
		skip();
	}
	assert_true(build());
	snprintf(path, sizeof(path), "%s/libcusparse.so.12", tmpdir);
	buf = tmptree_slurp(path, &len);
	assert_non_null(buf);
	assert_int_equal(elf_symbols_parse_needed(buf, len, &s), 0);
	assert_int_equal(s->n, 2);
	for (size_t i = 0; i < s->n; i++) {
		assert_false(s->sym[i].defined);
		assert_string_equal(s->sym[i].file, "libnvJitLink.so.12");
		assert_string_equal(s->sym[i].version, "libnvJitLink.so.12");
	}
	assert_null(find_sym(s, "g")); /* defined here */
	elf_symbols_free(s);
	free(buf);
	/* A library that only defines: nothing needed. */
	snprintf(path, sizeof(path), "%s/libnvJitLink.so.12", tmpdir);
	buf = tmptree_slurp(path, &len);
	assert_non_null(buf);
	assert_int_equal(elf_symbols_parse_needed(buf, len, &s), 0);
	assert_int_equal(s->n, 0);
	elf_symbols_free(s);
	assert_int_equal(elf_symbols_parse_needed(buf, 3, &s), -EBADMSG);
	free(buf);
}

static void test_truncations(void **state)
{
	char path[TMPTREE_DIR_MAX + 32];
	size_t len;
	uint8_t *buf;

	if (!have_cc)
		skip();
	assert_true(build());
	snprintf(path, sizeof(path), "%s/libcusparse.so.12", tmpdir);
	buf = tmptree_slurp(path, &len);
	assert_non_null(buf);
	for (size_t n = 0; n <= len; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		struct elf_symbols *s = NULL;
		int r;

		assert_non_null(copy);
		memcpy(copy, buf, n);
		r = elf_symbols_parse(copy, n, "", &s);
		assert_true(r == 0 || r == -EBADMSG);
		if (r == 0)
			elf_symbols_free(s);
		free(copy);
	}
	free(buf);
}

/* A file mapped, not read: libcusparse is some 280 MB. NULL when it cannot be opened. */
static struct elf_symbols *parse_mapped(const char *path)
{
	struct elf_symbols *s = NULL;
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	assert_int_equal(fstat(fd, &st), 0);
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(p != MAP_FAILED);
	assert_int_equal(elf_symbols_parse(p, (size_t)st.st_size, "__nvJitLink", &s), 0);
	assert_streamed_same(p, (size_t)st.st_size, s);
	munmap(p, (size_t)st.st_size);
	return s;
}

/* CUDA 13.0's libcusparse.so.12 needs eight __nvJitLink*_13_0 entry points from
 * libnvJitLink.so.13 (nm -D), and the libnvJitLink.so.13 beside it defines each. */
static void test_toolkit_cusparse(void **state)
{
	struct elf_symbols *user = parse_mapped("/usr/local/cuda/lib/libcusparse.so.12");
	struct elf_symbols *nvj = parse_mapped("/usr/local/cuda/lib/libnvJitLink.so.13");
	size_t undef = 0;

	if (!user || !nvj) {
		printf("# skipping the toolkit's libraries: no CUDA 13 toolkit at /usr/local/cuda\n");
		elf_symbols_free(user);
		elf_symbols_free(nvj);
		skip();
	}
	for (size_t i = 0; i < user->n; i++) {
		const struct elf_symbol *e = &user->sym[i];

		if (e->defined)
			continue;
		undef++;
		assert_string_equal(e->file, "libnvJitLink.so.13");
		assert_string_equal(e->version, "libnvJitLink.so.13");
		assert_true(elf_symbols_defines(nvj, e->name, e->version));
	}
	assert_true(undef >= 8);
	assert_non_null(find_sym(user, "__nvJitLinkComplete_13_0"));
	elf_symbols_free(user);
	elf_symbols_free(nvj);
}

static void test_not_elf(void **state)
{
	static const uint8_t text[] = "INPUT(libnvJitLink.so.12.4.127)\n";
	struct elf_symbols *s = NULL;

	assert_int_equal(elf_symbols_parse(text, sizeof(text), "", &s), -EBADMSG);
	assert_int_equal(elf_symbols_parse(text, 3, "", &s), -EBADMSG);
	assert_int_equal(elf_symbols_parse(NULL, 0, "", &s), -EBADMSG);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needed_and_defined), cmocka_unit_test(test_any_prefix),
		cmocka_unit_test(test_truncations),	   cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_toolkit_cusparse),   cmocka_unit_test(test_needed_only),
	};
	int r;

	if (!tmptree_new(tmpdir, "test-elf-symbols"))
		return 1;
	have_cc = tmptree_have_cc();
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmptree_remove(tmpdir) != 0)
		return 1;
	return r;
}
