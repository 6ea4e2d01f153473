// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A capture bundle's snapshot.json (docs/fleet.md, "Capture"): --from and `gpuenv diff` take a
 * bundle wherever they take a snapshot. The archive is read with libarchive's tar reader and
 * the filters --image reads (zstd, gzip, xz, bzip2), through the lazily loaded table
 * (src/vendor/lazy-archive.h), member by member up to snapshot.json; nothing is extracted.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "shared/macro.h"
#include "vendor/lazy-archive.h"

/* The magic numbers of the compressors libarchive reads here (RFC 8878 §3.1.1 zstd, RFC 1952
 * gzip, the xz file format §2.1.1.1, bzip2's "BZh"), and POSIX ustar's at offset 257. */
bool capture_is_archive(const char *path)
{
	unsigned char head[262];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n = fd >= 0 ? pread(fd, head, sizeof(head), 0) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 4)
		return false;
	return !memcmp(head, "\x28\xb5\x2f\xfd", 4) || !memcmp(head, "\x1f\x8b", 2) ||
	       (n >= 6 && !memcmp(head,
				  "\xfd"
				  "7zXZ\0",
				  6)) ||
	       !memcmp(head, "BZh", 3) || (n >= 262 && !memcmp(head + 257, "ustar", 5));
}

int capture_read_snapshot(const char *path, size_t max, char **ret, size_t *ret_len,
			  const char **ret_why)
{
	const struct archive_api *api;
	struct archive *a = NULL;
	struct archive_entry *e;
	_cleanup_close_ int fd = -1;
	int err = vendor_archive(&api, ret_why), r;

	*ret = NULL;
	if (err < 0)
		return err;
	*ret_why = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	a = api->archive_read_new();
	if (!a)
		return -ENOMEM;
	api->archive_read_support_format_tar(a);
	api->archive_read_support_filter_zstd(a);
	api->archive_read_support_filter_gzip(a);
	api->archive_read_support_filter_xz(a);
	api->archive_read_support_filter_bzip2(a);
	err = -ENOENT; /* no snapshot.json: not a capture bundle */
	if (api->archive_read_open_fd(a, fd, 64 << 10) != ARCHIVE_OK) {
		err = -EBADMSG;
		goto out;
	}
	while ((r = api->archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = api->archive_entry_pathname(e);
		la_int64_t size = api->archive_entry_size(e);
		la_ssize_t got;
		size_t len = 0;

		if (!name || (!streq(name, "snapshot.json") && !streq(name, "./snapshot.json")))
			continue;
		if (size < 0 || (uint64_t)size > max) {
			err = -EFBIG;
			goto out;
		}
		*ret = malloc((size_t)size + 1);
		if (!*ret) {
			err = -ENOMEM;
			goto out;
		}
		while (len < (size_t)size &&
		       (got = api->archive_read_data(a, *ret + len, (size_t)size - len)) > 0)
			len += (size_t)got;
		if (len < (size_t)size) {
			err = -EBADMSG;
			goto out;
		}
		(*ret)[len] = '\0';
		*ret_len = len;
		err = 0;
		goto out;
	}
	if (r != ARCHIVE_EOF)
		err = -EBADMSG;
out:
	if (err == -EBADMSG && api->archive_error_string(a)) {
		static char why[256]; /* libarchive's text dies with a */

		snprintf(why, sizeof(why), "%s", api->archive_error_string(a));
		*ret_why = why;
	}
	if (err < 0) {
		free(*ret);
		*ret = NULL;
	}
	api->archive_read_free(a);
	return err;
}
