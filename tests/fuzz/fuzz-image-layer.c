// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the layered tree's index (src/core/layers.c): the input is a layer (a tar,
 * plain or compressed) indexed twice, as two layers of one image (whiteouts of the second
 * apply to the first), then every directory is listed, every entry stat'ed and read back
 * through the same functions the root backend uses, and links resolved: nothing may escape
 * the tree, loop, or read past an entry. The files check --image reads are listed too
 * (layers_list_files()). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/layers.h"
#include "shared/strv.h"
#include "vendor/lazy-archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned visited;

/* layers_stream_file()'s chunks, counted: together exactly the entry's size */
static int count_chunk(void *userdata, const uint8_t *p, size_t n)
{
	if (!p || n == 0 || n > 64 << 10)
		abort();
	*(uint64_t *)userdata += n;
	return 0;
}

static void walk(struct layers *t, const char *dir, unsigned depth)
{
	char **names = NULL;

	if (depth > 16 || visited > 4096 || layers_list_dir(t, dir, 4096, &names) < 0)
		return;
	for (char **n = names; *n; n++) {
		char *path, *resolved = NULL, *target = NULL;
		struct stat st;
		uint64_t base, len;
		int fd;

		visited++;
		if (asprintf(&path, "%s/%s", strcmp(dir, "/") ? dir : "", *n) < 0)
			break;
		if (layers_stat(t, path, false, &st) == 0 && S_ISDIR(st.st_mode))
			walk(t, path, depth + 1);
		if (layers_readlink(t, path, &target) == 0)
			free(target);
		if (layers_resolve(t, path, &resolved) == 0) {
			if (resolved[0] != '/')
				abort();
			free(resolved);
		}
		if (layers_open_file(t, path, 1 << 20, &fd, &base, &len) == 0) {
			char buf[64];

			if (pread(fd, buf, (size_t)(len < sizeof(buf) ? len : sizeof(buf)),
				  (off_t)base) < 0)
				abort();
			close(fd);
		}
		{
			uint64_t total = 0, want = 0;

			/* a compressed entry past LAYERS_SPILL_MIN (a small bomb of zeros) */
			if (layers_stream_file(t, path, 64 << 20, count_chunk, &total, &want) ==
				    0 &&
			    total != want)
				abort();
		}
		free(path);
	}
	strv_free(names);
}

static bool any_name(const char *name, size_t len)
{
	return len > 0 && name[0] != '\0';
}

/* layers_list_files() (check --image's libraries): every file it lists is a regular file of the
 * tree, by an absolute path, and it counts at least what it lists. */
static void list_files(struct layers *t)
{
	char **paths = NULL;
	size_t total = 0;
	struct stat st;

	if (layers_list_files(t, any_name, 64, &paths, &total) < 0)
		return;
	if (total < strv_length(paths))
		abort();
	for (size_t i = 0; paths[i]; i++)
		if (paths[i][0] != '/' || layers_stat(t, paths[i], false, &st) < 0 ||
		    !S_ISREG(st.st_mode))
			abort();
	strv_free(paths);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct archive_api *api;
	struct layers *t;
	const char *why;
	int fd;

	if (vendor_archive(&api, &why) < 0 || layers_new(api, &t) < 0)
		return 0;
	fd = memfd_create("fuzz-layer", MFD_CLOEXEC);
	if (fd >= 0 && write(fd, data, size) == (ssize_t)size) {
		layers_add(t, fd, 0, size, "one");
		layers_add(t, fd, 0, size, "two");
		visited = 0;
		walk(t, "/", 0);
		list_files(t);
	}
	if (fd >= 0)
		close(fd);
	layers_free(t);
	return 0;
}
