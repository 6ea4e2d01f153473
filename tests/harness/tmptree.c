// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test harness: builds and removes the temp-dir trees of the unit tests (see tmptree.h), and
 * the shell/cc helpers that put tiny ELF shared objects in them.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmptree.h"

char *tmptree_new(char dir[static TMPTREE_DIR_MAX], const char *tag)
{
	int n = snprintf(dir, TMPTREE_DIR_MAX, "/tmp/gpuenv-%s-XXXXXX", tag);

	if (n < 0 || n >= TMPTREE_DIR_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return mkdtemp(dir);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 ? -errno : 0;
}

int tmptree_remove(const char *dir)
{
	int r = nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);

	return r < 0 ? -errno : r;
}

const char *tmptree_path(char *buf, size_t size, const char *root, const char *rel)
{
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, size, "%s/%s", root, rel);
	assert_true(n > 0 && (size_t)n < size);
	return buf;
}

static void mkdir_p(const char *path)
{
	char buf[4096];

	assert_true(strlen(path) < sizeof(buf));
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
}

void tmptree_mkdir(const char *root, const char *rel)
{
	char path[4096];

	mkdir_p(tmptree_path(path, sizeof(path), root, rel));
}

/* root/rel into path, with its parent directory made. */
static const char *prepare(char path[static 4096], const char *root, const char *rel)
{
	char dir[4096];

	tmptree_path(path, 4096, root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	return path;
}

void tmptree_put(const char *root, const char *rel, const void *data, size_t len)
{
	char path[4096];
	FILE *f = fopen(prepare(path, root, rel), "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

void tmptree_puts(const char *root, const char *rel, const char *text)
{
	tmptree_put(root, rel, text, strlen(text));
}

void tmptree_symlink(const char *root, const char *rel, const char *target)
{
	char path[4096];

	assert_int_equal(symlink(target, prepare(path, root, rel)), 0);
}

bool tmptree_mknod_chr(const char *root, const char *rel, mode_t mode, dev_t dev)
{
	char path[4096];

	return mknod(prepare(path, root, rel), S_IFCHR | mode, dev) == 0;
}

uint8_t *tmptree_slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	assert_int_equal(fseek(f, 0, SEEK_SET), 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*ret_len = (size_t)n;
	return buf;
}

int tmptree_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(cmd));
	return system(cmd);
}

bool tmptree_have_cc(void)
{
	return system("cc --version >/dev/null 2>&1") == 0;
}

const char *tmptree_ldconfig(void)
{
	if (access("/sbin/ldconfig", X_OK) == 0)
		return "/sbin/ldconfig";
	if (access("/usr/sbin/ldconfig", X_OK) == 0)
		return "/usr/sbin/ldconfig";
	return NULL;
}

void tmptree_cc_so(const char *root, const char *rel, const char *soname, const char *extra)
{
	char path[4096];

	tmptree_path(path, sizeof(path), root, rel);
	assert_int_equal(tmptree_sh("mkdir -p \"$(dirname '%s')\" && "
				    "printf 'int f(void){return 1;}\\n' | "
				    "cc -x c - -shared -fPIC -nostdlib -s %s%s %s -o '%s'",
				    path, soname ? "-Wl,-soname," : "", soname ? soname : "",
				    extra ? extra : "", path),
			 0);
}

void tmptree_ldd_path(const char *prog, const char *llp, const char *soname, char *out, size_t len)
{
	char cmd[1024], line[1024];
	FILE *f;
	int n;

	out[0] = '\0';
	n = snprintf(cmd, sizeof(cmd), "LD_LIBRARY_PATH='%s' ldd '%s' 2>&1", llp, prog);
	assert_true(n > 0 && (size_t)n < sizeof(cmd));
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *arrow = strstr(line, "=> ");

		if (!strstr(line, soname) || !arrow)
			continue;
		snprintf(out, len, "%s", arrow + 3);
		out[strcspn(out, " \n")] = '\0';
		if (strcmp(out, "not") == 0)
			out[0] = '\0';
	}
	pclose(f);
}

const char *tmptree_fixture_root(void)
{
	const char *root = getenv("GPUENV_FIXTURE_ROOT");

	if (!root || !*root)
		fail_msg("GPUENV_FIXTURE_ROOT is not set: run this test through "
			 "tests/tools/fixture_root.py --exec (meson test does)");
	return root;
}

bool tmptree_fixture_missing(const char *rel)
{
	const char *missing = getenv("GPUENV_FIXTURE_MISSING");
	const char *p;
	size_t n = strlen(rel);

	/* "path: why; path: why" */
	for (p = missing ? strstr(missing, rel) : NULL; p; p = strstr(p + 1, rel)) {
		if ((p == missing || p[-1] == ' ') && strncmp(p + n, ": ", 2) == 0) {
			printf("# fixture file %s not made: %.*s\n", rel,
			       (int)strcspn(p + n + 2, ";"), p + n + 2);
			return true;
		}
	}
	return false;
}
