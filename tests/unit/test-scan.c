/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/scan through the public gpuenv_scan_* API over a sysroot built in a temp dir:
 * a .fatbin and a .ptx, a symlink alias and a symlink loop, a dangling link, a text file named
 * .so, an unreadable file (injected EACCES), depth caps, and a wheel (zip written with
 * libzip) holding GPU code, a member streamed instead of read whole, a zip bomb, a member
 * whose directory entry lies about its size. Formats: docs/formats/fatbin.md
 * (§3–§6, §10); JSON: docs/scan-schema.md.
 */
#include <errno.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>
#include <zstd.h>

#include <cmocka.h>

#include "gpuenv/gpuenv.h"
#include "scan/module-sets.h"
#include "testhooks/testhooks.h"

static char root[64];

static void w16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static void w64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* One container: sm_<sass> ELF (no payload check: too big for the kernel check? no: empty
 * payload is "cannot tell") and compute_<ptx> with ISA maj.min. Returns its size. */
static size_t make_fatbin(uint8_t *b, unsigned sass, unsigned ptx, unsigned maj, unsigned min)
{
	uint8_t *e = b + 16;

	memset(b, 0, 16 + 64 * 2 + 8);
	w32(b, 0xBA55ED50);
	w16(b + 4, 1);
	w16(b + 6, 16);
	w64(b + 8, 64 * 2 + 8);
	w16(e, 2);
	w16(e + 2, 0x0101);
	w32(e + 4, 64);
	w64(e + 8, 8); /* 8 bytes: not an ELF, so "cannot tell" whether it has kernels */
	memcpy(e + 64, "notanelf", 8);
	w16(e + 0x18, 8);
	w16(e + 0x1a, 1);
	w32(e + 0x1c, sass);
	w64(e + 0x28, 0x11);
	e += 72;
	w16(e, 1);
	w16(e + 2, 0x0101);
	w32(e + 4, 64);
	w16(e + 0x18, (uint16_t)min);
	w16(e + 0x1a, (uint16_t)maj);
	w32(e + 0x1c, ptx);
	w64(e + 0x28, 0x11);
	return 16 + 64 * 2 + 8;
}

static void put_file(const char *rel, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void make_wheel(void)
{
	char p[512];
	zip_t *z;
	int err;
	uint8_t fb[256];
	size_t n = make_fatbin(fb, 80, 80, 7, 0);
	size_t big = 3u << 20;
	uint8_t *bigbuf = malloc(big), *bomb = calloc(1, 32u << 20);

	assert_non_null(bigbuf);
	assert_non_null(bomb);
	/* a "large" member: pseudo-random bytes around a container (streamed, ratio ~1) */
	srand(7);
	for (size_t i = 0; i < big; i++)
		bigbuf[i] = (uint8_t)(rand() >> 7);
	memcpy(bigbuf, "\177ELF\2\1\1", 7);
	memcpy(bigbuf + (1u << 20) + 3, fb, n);
	snprintf(p, sizeof(p), "%s/site/pkg-1.0-cp312-linux_x86_64.whl", root);
	z = zip_open(p, ZIP_CREATE | ZIP_TRUNCATE, &err);
	assert_non_null(z);
	assert_true(zip_file_add(z, "pkg/lib/libk.so", zip_source_buffer(z, fb, n, 0), 0) >= 0);
	assert_true(zip_file_add(z, "pkg/__init__.py", zip_source_buffer(z, "x = 1\n", 6, 0), 0) >=
		    0);
	assert_true(zip_file_add(z, "pkg/lib/libbig.so", zip_source_buffer(z, bigbuf, big, 0), 0) >=
		    0);
	assert_true(zip_file_add(z, "pkg/lib/bomb.so", zip_source_buffer(z, bomb, 32u << 20, 0),
				 0) >= 0);
	assert_true(zip_file_add(z, "pkg/lib/notelf.so", zip_source_buffer(z, "#!/bin/sh\n", 10, 0),
				 0) >= 0);
	assert_int_equal(zip_close(z), 0);
	free(bigbuf);
	free(bomb);
}

static int setup(void **state)
{
	uint8_t fb[256];
	size_t n;

	snprintf(root, sizeof(root), "/tmp/test-scan-XXXXXX");
	assert_non_null(mkdtemp(root));
	sh("mkdir -p %s/site/pkg/lib %s/site/deep/1/2/3/4 %s/site/loop %s/ar", root, root, root,
	   root);
	n = make_fatbin(fb, 86, 90, 8, 4);
	put_file("site/pkg/lib/libgood.so.1", fb, n);
	n = make_fatbin(fb, 75, 75, 9, 0);
	put_file("site/pkg/lib/libold.so", fb, n);
	put_file("site/pkg/lib/k.ptx", ".version 8.0\n.target sm_90a\n.address_size 64\n", 44);
	put_file("site/pkg/lib/notelf.so", "#!/bin/sh\nexit 0\n", 17);
	put_file("site/pkg/lib/secret.so", "\177ELF", 4);
	put_file("site/pkg/readme.txt", "hello", 5);
	put_file("site/pkg/lib/lib\033[2Jwipe.so", "#!/bin/sh\n", 10); /* a name that would clear
									 a terminal */
	n = make_fatbin(fb, 120, 120, 8, 7);
	put_file("site/deep/1/2/3/4/libdeep.so", fb, n);
	sh("ln -s libgood.so.1 %s/site/pkg/lib/libgood.so", root);
	sh("ln -s missing.so %s/site/pkg/lib/dangling.so", root);
	sh("ln -s .. %s/site/loop/up", root);
	sh("ln -s /site %s/site/loop/abs", root); /* absolute: resolves inside the root */
	make_wheel();
	/* a static library (binutils ar: a long member name goes to the "//" table) */
	n = make_fatbin(fb, 89, 89, 8, 5);
	put_file("ar/a_long_member_name_for_gnu_ar.o", fb, n);
	put_file("ar/plain.o", "not GPU code\n", 13);
	sh("cd %s/ar && ar rc %s/site/pkg/lib/libstatic.a a_long_member_name_for_gnu_ar.o plain.o",
	   root, root);
	return 0;
}

static int teardown(void **state)
{
	sh("rm -rf %s", root);
	return 0;
}

static struct gpuenv_ctx *ctx_new(const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o),
				     .sysroot = root,
				     .flags = GPUENV_CTX_NO_VENDOR };
	struct gpuenv_ctx *ctx;

	assert_int_equal(gpuenv_ctx_new(&o, &ctx), 0);
	if (inject)
		assert_int_equal(testhooks_inject_errors(ctx, inject), 0);
	return ctx;
}

static json_t *scan_json(struct gpuenv_scan *s)
{
	char *text;
	json_t *j;

	assert_int_equal(gpuenv_scan_render(s, GPUENV_FORMAT_JSON, 0, &text), 0);
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	free(text);
	return j;
}

static json_t *file_by_suffix(json_t *j, const char *suffix)
{
	json_t *files = json_object_get(j, "files"), *f;
	size_t i;

	json_array_foreach(files, i, f) {
		const char *p = json_string_value(json_object_get(f, "path"));
		size_t l = strlen(p), sl = strlen(suffix);

		if (l >= sl && strcmp(p + l - sl, suffix) == 0)
			return f;
	}
	fail_msg("no file ending in %s", suffix);
	return NULL;
}

static const char *verdict_of(json_t *f, size_t dev)
{
	return json_string_value(
		json_object_get(json_array_get(json_object_get(f, "verdicts"), dev), "verdict"));
}

static void test_directory(void **state)
{
	struct gpuenv_ctx *ctx = ctx_new("/site/pkg/lib/secret.so=EACCES");
	struct gpuenv_scan_opts o = { .sz = sizeof(o), .max_depth = 4 };
	struct gpuenv_scan *s;
	struct gpuenv_scan_summary sum = { .sz = sizeof(sum) };
	json_t *j, *f;

	assert_int_equal(gpuenv_scan_new(ctx, &o, &s), 0);
	assert_int_equal(gpuenv_scan_add_gpu(s, "8.6"), 0);
	assert_int_equal(gpuenv_scan_add_gpu(s, "sm_90"), 0);
	assert_int_equal(gpuenv_scan_add_gpu(s, "RTX 4090"), 0);
	assert_int_equal(gpuenv_scan_add_gpu(s, "No Such GPU 9999"), -ENOENT);
	assert_int_equal(gpuenv_scan_add_gpu(s, "8.x"), -ENOENT);
	assert_int_equal(gpuenv_scan_set_driver(s, "550.54.15"), 0);
	assert_int_equal(gpuenv_scan_set_driver(s, "five"), -EINVAL);
	assert_int_equal(gpuenv_scan_path(s, "/site"), 0);
	assert_int_equal(gpuenv_scan_get_summary(s, &sum), 0);
	assert_int_equal(sum.devices, 3);
	assert_int_equal(sum.unreadable_args, 0);
	j = scan_json(s);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), "gpuenv-scan/1");
	/* libgood.so.1 under its real name; the alias is a duplicate */
	f = file_by_suffix(j, "/libgood.so.1");
	assert_string_equal(json_string_value(json_array_get(json_object_get(f, "sass"), 0)),
			    "sm_86");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(f, "ptx"), 0), "ptx_isa")),
			    "8.4");
	assert_string_equal(verdict_of(f, 0), "native");
	assert_string_equal(verdict_of(f, 1), "ptx-jit"); /* compute_90 ISA 8.4 on R550 */
	assert_string_equal(verdict_of(f, 2), "native");  /* sm_86 on 8.9 */
	f = file_by_suffix(j, "/libold.so");
	assert_string_equal(verdict_of(f, 0), "ptx-too-new"); /* compute_75 ISA 9.0 on R550 */
	f = file_by_suffix(j, "/k.ptx");
	assert_string_equal(verdict_of(f, 0), "no-kernel-image"); /* compute_90a */
	assert_string_equal(verdict_of(f, 1), "ptx-jit");
	f = file_by_suffix(j, "/notelf.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "malformed");
	f = file_by_suffix(j, "/secret.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "unreadable");
	f = file_by_suffix(j, "/dangling.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "unreadable");
	/* depth cap: deep/1/2/3/4 is 5 levels below /site */
	{
		json_t *files = json_object_get(j, "files"), *x;
		size_t i;

		json_array_foreach(files, i, x)
			assert_null(
				strstr(json_string_value(json_object_get(x, "path")), "libdeep"));
	}
	/* the wheel members */
	f = file_by_suffix(j, "!/pkg/lib/libk.so");
	assert_string_equal(json_string_value(json_array_get(json_object_get(f, "sass"), 0)),
			    "sm_80");
	f = file_by_suffix(j, "!/pkg/lib/bomb.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "skipped");
	assert_non_null(strstr(json_string_value(json_object_get(f, "error")), "zip bomb"));
	f = file_by_suffix(j, "!/pkg/lib/notelf.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "malformed");
	/* the static library and its members, "ARCHIVE(MEMBER)" */
	f = file_by_suffix(j, "/libstatic.a");
	assert_string_equal(json_string_value(json_object_get(f, "type")), "archive");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "ok");
	f = file_by_suffix(j, "/libstatic.a(a_long_member_name_for_gnu_ar.o)");
	assert_string_equal(json_string_value(json_array_get(json_object_get(f, "sass"), 0)),
			    "sm_89");
	assert_string_equal(verdict_of(f, 2), "native");	  /* sm_89 on the RTX 4090 */
	assert_string_equal(verdict_of(f, 0), "no-kernel-image"); /* compute_89 on 8.6 */
	f = file_by_suffix(j, "/libstatic.a(plain.o)");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "malformed");
	assert_true(json_object_get(json_object_get(j, "summary"), "duplicates") != NULL);
	assert_true(json_integer_value(
			    json_object_get(json_object_get(j, "summary"), "duplicates")) >= 1);
	assert_true(sum.failing >= 2);
	json_decref(j);
	/* the text names what came from files with their control bytes escaped */
	{
		char *text;

		assert_int_equal(gpuenv_scan_render(s, GPUENV_FORMAT_TEXT, 0, &text), 0);
		assert_non_null(strstr(text, "/lib\\x1b[2Jwipe.so: malformed"));
		assert_null(strchr(text, '\033'));
		free(text);
	}
	gpuenv_scan_free(s);
	gpuenv_ctx_free(ctx);
}

static void test_wheel_stream(void **state)
{
	struct gpuenv_ctx *ctx = ctx_new(NULL);
	struct gpuenv_scan_opts o = { .sz = sizeof(o), .member_in_memory = 1u << 20 };
	struct gpuenv_scan *s;
	json_t *j, *f;
	char *text;

	assert_int_equal(gpuenv_scan_new(ctx, &o, &s), 0);
	assert_int_equal(gpuenv_scan_path(s, "/site/pkg-1.0-cp312-linux_x86_64.whl"), 0);
	j = scan_json(s);
	f = file_by_suffix(j, "!/pkg/lib/libbig.so");
	assert_true(json_is_true(json_object_get(f, "streamed")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(f, "sass"), 0)),
			    "sm_80");
	json_decref(j);
	assert_int_equal(gpuenv_scan_render(s, GPUENV_FORMAT_TEXT, 0, &text), 0);
	assert_non_null(strstr(text, "libbig.so: elf, 1 fatbin container"));
	free(text);
	gpuenv_scan_free(s);

	/* a ratio cap of 2:1 and a size cap skip members instead of reading them */
	o = (struct gpuenv_scan_opts){ .sz = sizeof(o),
				       .max_ratio = 2,
				       .max_member_size = 1u << 20 };
	assert_int_equal(gpuenv_scan_new(ctx, &o, &s), 0);
	assert_int_equal(gpuenv_scan_path(s, "/site/pkg-1.0-cp312-linux_x86_64.whl"), 0);
	j = scan_json(s);
	f = file_by_suffix(j, "!/pkg/lib/libbig.so");
	assert_string_equal(json_string_value(json_object_get(f, "state")), "too-large");
	json_decref(j);
	gpuenv_scan_free(s);
	gpuenv_ctx_free(ctx);
}

static void test_named_paths(void **state)
{
	struct gpuenv_ctx *ctx = ctx_new(NULL);
	struct gpuenv_scan *s;
	struct gpuenv_scan_summary sum = { .sz = sizeof(sum) };

	assert_int_equal(gpuenv_scan_new(ctx, NULL, &s), 0);
	assert_int_equal(gpuenv_scan_path(s, "/nonexistent.so"), -ENOENT);
	assert_int_equal(gpuenv_scan_path(s, "/site/loop"), 0); /* loops end */
	assert_int_equal(gpuenv_scan_path(s, "/site/pkg/lib/libgood.so"), 0);
	assert_int_equal(gpuenv_scan_get_summary(s, &sum), 0);
	assert_int_equal(sum.unreadable_args, 1);
	assert_int_equal(sum.devices, 0);
	assert_int_equal(sum.failing, 0);
	gpuenv_scan_free(s);
	gpuenv_ctx_free(ctx);
}

/* jansson's allocator failing at its k-th call, for every k: each render fails with -ENOMEM
 * or succeeds, and ASan sees no double free or leak (file_json() once freed the arrays it had
 * already handed to the file's object when a later allocation failed). */
static size_t json_allocs_left;
static bool json_allocs_limited;

static void *json_malloc_limited(size_t n)
{
	if (json_allocs_limited) {
		if (!json_allocs_left)
			return NULL;
		json_allocs_left--;
	}
	return malloc(n);
}

static void test_json_out_of_memory(void **state)
{
	struct gpuenv_ctx *ctx = ctx_new(NULL);
	struct gpuenv_scan *s;
	char *text = NULL;
	size_t k;
	int r;

	assert_int_equal(gpuenv_scan_new(ctx, NULL, &s), 0);
	assert_int_equal(gpuenv_scan_add_gpu(s, "8.6"), 0); /* a verdict per file */
	assert_int_equal(gpuenv_scan_path(s, "/site/pkg/lib/libgood.so.1"), 0);
	assert_int_equal(gpuenv_scan_path(s, "/site/pkg/lib/k.ptx"), 0);
	assert_int_equal(gpuenv_scan_render(s, GPUENV_FORMAT_JSON, 0, &text), 0);
	free(text);
	json_set_alloc_funcs(json_malloc_limited, free);
	for (k = 0; k < 100000; k++) {
		text = NULL;
		json_allocs_left = k;
		json_allocs_limited = true;
		r = gpuenv_scan_render(s, GPUENV_FORMAT_JSON, 0, &text);
		json_allocs_limited = false;
		if (r == 0)
			break;
		assert_int_equal(r, -ENOMEM);
		assert_null(text);
	}
	json_set_alloc_funcs(malloc, free);
	assert_int_equal(r, 0);
	assert_true(k > 50); /* the files' objects were among the failed allocations */
	free(text);
	gpuenv_scan_free(s);
	gpuenv_ctx_free(ctx);
}

/* Module target sets: equal sets (in any order, repeats ignored) are counted once; 3 000
 * distinct ones survive the hash table's growth and are each found again. */
static void test_module_sets(void **state)
{
	struct module_sets ms = { 0 };

	assert_int_equal(module_sets_end(&ms), 0); /* nothing open: nothing filed */
	assert_int_equal(ms.n_modules, 0);
	for (int rep = 0; rep < 2; rep++) {
		assert_int_equal(module_sets_begin(&ms), 0);
		assert_int_equal(module_sets_add(&ms, 3), 0);
		assert_int_equal(module_sets_add(&ms, 1), 0);
		assert_int_equal(module_sets_add(&ms, 3), 0);
	}
	assert_int_equal(module_sets_begin(&ms), 0);
	assert_int_equal(module_sets_add(&ms, 1), 0);
	assert_int_equal(module_sets_add(&ms, 3), 0);
	assert_int_equal(module_sets_begin(&ms), 0);
	assert_int_equal(module_sets_add(&ms, 1), 0);
	assert_int_equal(module_sets_end(&ms), 0);
	assert_int_equal(ms.n_modules, 4);
	assert_int_equal(ms.n_sets, 2);
	assert_int_equal(ms.sets[0].len, 2);
	assert_int_equal(ms.sets[0].targets[0], 1);
	assert_int_equal(ms.sets[0].targets[1], 3);
	assert_int_equal(ms.sets[0].count, 3);
	assert_int_equal(ms.sets[1].len, 1);
	assert_int_equal(ms.sets[1].count, 1);
	for (int rep = 0; rep < 2; rep++)
		for (unsigned i = 0; i < 3000; i++) {
			assert_int_equal(module_sets_begin(&ms), 0);
			assert_int_equal(module_sets_add(&ms, (uint16_t)(i % 60)), 0);
			assert_int_equal(module_sets_add(&ms, (uint16_t)(100 + i / 60)), 0);
			assert_int_equal(module_sets_end(&ms), 0);
		}
	assert_int_equal(ms.n_modules, 4 + 6000);
	assert_int_equal(ms.n_sets, 2 + 3000);
	for (size_t i = 2; i < ms.n_sets; i++)
		assert_int_equal(ms.sets[i].count, 2);
	module_sets_done(&ms);
	assert_null(ms.sets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directory),	   cmocka_unit_test(test_wheel_stream),
		cmocka_unit_test(test_named_paths),	   cmocka_unit_test(test_module_sets),
		cmocka_unit_test(test_json_out_of_memory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
