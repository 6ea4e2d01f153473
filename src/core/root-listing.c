// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Directory listings as root.c keeps them (root-listing.h): one block per directory, read with
 * getdents64(2) from the directory root.c opened. No path is resolved here.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "root-listing.h"
#include "shared/macro.h"
#include "shared/strv.h"

char **listing_names_copy(char *const *names, size_t n)
{
	_cleanup_strv_free_ char **v = calloc(n + 1, sizeof(char *));

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] = strdup(names[i])))
			return NULL;
	return TAKE_PTR(v);
}

/* n names in one block (the vector, then the strings), in their order: free() frees it. */
char **listing_block_of(char *const *names, size_t n)
{
	size_t size = (n + 1) * sizeof(char *);
	char **block, *p;

	for (size_t i = 0; i < n; i++)
		size += strlen(names[i]) + 1;
	block = malloc(size);
	if (!block)
		return NULL;
	p = (char *)(block + n + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]) + 1;

		block[i] = memcpy(p, names[i], len);
		p += len;
	}
	block[n] = NULL;
	return block;
}

#define LISTING_READ_BUF (32 * 1024) /* what readdir(3) asks getdents64 for */

/* The names the directory fd lists (no "." / ".."), sorted, as one block: one allocation for
 * the names instead of one each (/usr/lib/x86_64-linux-gnu and /usr/bin hold thousands).
 * getdents64(2) directly: fdopendir(3) would add an fstat and two fcntl calls per directory.
 * As readdir(3), an error part way ends the listing. */
int listing_read(int fd, size_t max, char ***ret, size_t *ret_n)
{
	_cleanup_free_ char *text = NULL, *buf = malloc(LISTING_READ_BUF);
	_cleanup_free_ size_t *offsets = NULL;
	size_t len = 0, text_cap = 0, n = 0, cap = 0;
	ssize_t got = 0;
	char **block;

	if (!buf)
		return -ENOMEM;
	for (ssize_t off = 0;; off += ((struct dirent64 *)(buf + off))->d_reclen) {
		const struct dirent64 *de;
		size_t l;

		if (off >= got) {
			got = getdents64(fd, buf, LISTING_READ_BUF);
			if (got <= 0)
				break;
			off = 0;
		}
		de = (const struct dirent64 *)(buf + off);
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n + 1 > max)
			return -E2BIG;
		l = strlen(de->d_name) + 1;
		if (n == cap) {
			size_t *v = reallocarray(offsets, cap ? cap * 2 : 64, sizeof(*v));

			if (!v)
				return -ENOMEM;
			offsets = v;
			cap = cap ? cap * 2 : 64;
		}
		if (len + l > text_cap) {
			size_t want = text_cap ? text_cap * 2 : 4096;
			char *t = realloc(text, want >= len + l ? want : len + l);

			if (!t)
				return -ENOMEM;
			text = t;
			text_cap = want >= len + l ? want : len + l;
		}
		memcpy(text + len, de->d_name, l);
		offsets[n++] = len;
		len += l;
	}
	block = malloc((n + 1) * sizeof(char *) + len);
	if (!block)
		return -ENOMEM;
	if (len)
		memcpy(block + n + 1, text, len);
	for (size_t i = 0; i < n; i++)
		block[i] = (char *)(block + n + 1) + offsets[i];
	block[n] = NULL;
	strv_sort(block);
	*ret = block;
	*ret_n = n;
	return 0;
}
