/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/formats/elf-gnu-hash.c: shared objects built with the C compiler at test time
 * as torch's libc10.so exports c10::Error's constructor under one C++ ABI or the other
 * (_ZN3c105ErrorC2ENS_14SourceLocationESs with the old std::string, ...NSt7__cxx1112basic_
 * string... with the new one: pytorch/pytorch#65651, Dao-AILab/flash-attention#1644), among
 * 3000 more names so that chains and buckets are many; then every name the library defines
 * is found, the other ABI's and an undefined one are not, a DT_HASH-only library is
 * -ENOENT, truncations at every length answer or fail cleanly, and bytes that are not ELF are
 * refused.
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

#include "formats/elf-gnu-hash.h"
#include "shared/macro.h"
#include "tmptree.h"

#define NEW_ABI                                                                                    \
	"_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
#define OLD_ABI "_ZN3c105ErrorC2ENS_14SourceLocationESs"
#define N_MORE	3000

static char tmpdir[TMPTREE_DIR_MAX];
static bool have_cc;

struct buf {
	const uint8_t *p;
	size_t len;
	unsigned reads;
};

static ssize_t buf_read(void *userdata, uint64_t off, void *out, size_t n)
{
	struct buf *b = userdata;

	b->reads++;
	if (off > b->len)
		return -EIO;
	n = MIN(n, (size_t)(b->len - off));
	memcpy(out, b->p + off, n);
	return (ssize_t)n;
}

static int open_buf(struct buf *b, struct elf_gnu_hash **h)
{
	struct elf_gnu_hash_input in = { buf_read, b, b->len };

	return elf_gnu_hash_open(&in, h);
}

static uint8_t *slurp(const char *name, size_t *len)
{
	char path[TMPTREE_DIR_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return tmptree_slurp(path, len);
}

/* libc10.so (new ABI, N_MORE more functions, one undefined use), and the same with DT_HASH
 * only. */
static bool build(void)
{
	return tmptree_sh("cd %s && { echo 'int " NEW_ABI "(void){return 0;}'; "
			  "echo 'int c10_use(void); int g(void){return c10_use();}'; "
			  "i=0; while [ $i -lt %d ]; do echo \"int _ZN3c10f$i(void){return $i;}\"; "
			  "i=$((i+1)); done; } > c10.c && "
			  "cc -shared -fPIC -nostdlib -Wl,--hash-style=gnu -Wl,-soname,libc10.so "
			  "c10.c -o libc10.so && "
			  "cc -shared -fPIC -nostdlib -Wl,--hash-style=sysv -Wl,-soname,libc10.so "
			  "c10.c -o sysv.so",
			  tmpdir, N_MORE) == 0;
}

static void test_lookup(void **state)
{
	struct elf_gnu_hash *h = NULL;
	struct buf b;
	uint8_t *p;
	size_t len;
	char name[64];

	if (!have_cc) {
		printf("# skipping compiled objects: no cc\n");
		skip();
	}
	assert_true(build());
	p = slurp("libc10.so", &len);
	assert_non_null(p);
	b = (struct buf){ p, len, 0 };
	assert_int_equal(open_buf(&b, &h), 0);
	assert_int_equal(elf_gnu_hash_defines(h, NEW_ABI), 1);
	assert_int_equal(elf_gnu_hash_defines(h, OLD_ABI), 0);
	assert_int_equal(elf_gnu_hash_defines(h, "c10_use"), 0); /* undefined here */
	assert_int_equal(elf_gnu_hash_defines(h, ""), 0);
	for (int i = 0; i < N_MORE; i++) {
		snprintf(name, sizeof(name), "_ZN3c10f%d", i);
		assert_int_equal(elf_gnu_hash_defines(h, name), 1);
		snprintf(name, sizeof(name), "_ZN3c10g%d", i);
		assert_int_equal(elf_gnu_hash_defines(h, name), 0);
	}
	/* a lookup reads a few words, never the table */
	b.reads = 0;
	assert_int_equal(elf_gnu_hash_defines(h, NEW_ABI), 1);
	assert_true(b.reads <= 16);
	elf_gnu_hash_free(h);
	free(p);

	p = slurp("sysv.so", &len);
	assert_non_null(p);
	b = (struct buf){ p, len, 0 };
	assert_int_equal(open_buf(&b, &h), -ENOENT);
	free(p);
}

/* Every prefix of the library: open fails or every lookup answers 0/1 or -EBADMSG. */
static void test_truncations(void **state)
{
	uint8_t *p;
	size_t len;

	if (!have_cc)
		skip();
	assert_true(build());
	p = slurp("libc10.so", &len);
	assert_non_null(p);
	for (size_t n = 0; n < len; n += n < 4096 ? 1 : 97) {
		struct elf_gnu_hash *h = NULL;
		struct buf b = { p, n, 0 };
		int r = open_buf(&b, &h);

		if (r < 0) {
			assert_true(r == -EBADMSG || r == -ENOENT);
			continue;
		}
		r = elf_gnu_hash_defines(h, NEW_ABI);
		assert_true(r == 0 || r == 1 || r == -EBADMSG);
		r = elf_gnu_hash_defines(h, "_ZN3c10f2999");
		assert_true(r == 0 || r == 1 || r == -EBADMSG);
		elf_gnu_hash_free(h);
	}
	free(p);
}

static void test_not_elf(void **state)
{
	static const uint8_t text[] = "not an ELF file at all, just text long enough";
	struct elf_gnu_hash *h = NULL;
	struct buf b = { text, sizeof(text), 0 };
	char *long_name;

	assert_int_equal(open_buf(&b, &h), -EBADMSG);
	b.len = 0;
	assert_int_equal(open_buf(&b, &h), -EBADMSG);
	if (!have_cc)
		return;
	assert_true(build());
	{
		size_t len;
		uint8_t *p = slurp("libc10.so", &len);

		assert_non_null(p);
		b = (struct buf){ p, len, 0 };
		assert_int_equal(open_buf(&b, &h), 0);
		long_name = calloc(1, ELF_GNU_HASH_MAX_NAME + 2);
		assert_non_null(long_name);
		memset(long_name, 'a', ELF_GNU_HASH_MAX_NAME + 1);
		assert_int_equal(elf_gnu_hash_defines(h, long_name), -EINVAL);
		free(long_name);
		elf_gnu_hash_free(h);
		free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_not_elf),
	};
	int r;

	if (!tmptree_new(tmpdir, "test-elf-gnu-hash"))
		return 1;
	have_cc = tmptree_have_cc();
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmptree_remove(tmpdir) != 0)
		return 1;
	return r;
}
