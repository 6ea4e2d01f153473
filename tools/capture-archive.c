// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes a capture bundle (capture.h, docs/fleet.md "Capture"): a POSIX pax tar (IEEE
 * 1003.1-2001 "pax Interchange Format") compressed with zstd (RFC 8878), through libarchive:
 *   capture.json     what was kept and how (version, date, files kept in part, skipped)
 *   snapshot.json    the snapshot of the same collection (`report --json`)
 *   environment      the variables the probes read, KEY=VALUE lines for --env-file
 *   root/…           the tree: directories, links as links, device nodes, regular files
 * A regular file up to CAPTURE_WHOLE_MAX is kept whole; a larger one is a sparse entry of its
 * real size holding only the ranges the probes read (libarchive writes them as GNU sparse
 * format 1.0 in pax headers, which GNU tar and libarchive extract as holes), so a 500 MB
 * library costs its headers. libarchive (and the compressors it brings) is loaded on the
 * first capture, not linked: no other command pays its start-up (src/vendor/lazy-archive.h,
 * the table --image reads with).
 */
#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "gpuenv.h"
#include "shared/elf-note.h"
#include "shared/macro.h"
#include "shared/redact.h"
#include "shared/strbuf.h"
#include "vendor/lazy-archive.h"

DL_NOTE(dl_note_archive,
	"[{\"feature\":\"capture\",\"description\":\"gpuenv capture bundles (.tar.zst)\","
	"\"priority\":\"suggested\",\"soname\":[\"" GPUENV_LIBARCHIVE_SONAME "\"]}]");

#define HOLE_CHUNK ((size_t)1 << 20)
/* What ends a user name after /home/ (strbuf_put_home_redacted()'s separators, and NUL). */
#define HOME_NAME_END "/ \t\n\"'`:;,()[]<>|"

struct writer {
	const struct archive_api *la;
	struct archive *a;
	struct archive_entry *e;
	const struct capture_bundle *b;
	const char *why;
	uint64_t stored; /* bytes of file data kept */
};

void capture_scrub(char *buf, size_t len, char *const *secrets)
{
	for (size_t i = 0; i < len; i++) {
		/* a UUID wherever it stands (GPU-…, MIG-…, a file name) */
		if (redact_uuid_at(buf + i, len - i)) {
			if (!redact_public_guid(buf + i))
				for (size_t k = 0; k < 36; k++)
					if (buf[i + k] != '-')
						buf[i + k] = '0';
			i += 35;
			continue;
		}
		for (char *const *s = secrets; s && *s; s++) {
			size_t n = strlen(*s);

			if (n && n <= len - i && !memcmp(buf + i, *s, n) &&
			    (i == 0 || redact_word_edge(buf, len, i - 1)) &&
			    redact_word_edge(buf, len, i + n)) {
				memset(buf + i, 'x', n);
				i += n - 1;
				break;
			}
		}
	}
}

void capture_scrub_binary(char *buf, size_t len, char *const *secrets)
{
	static const char *const homes[] = { "/home/", "/Users/" };

	capture_scrub(buf, len, secrets);
	/* a home directory's user name in a path (an RPATH, a string): as many x */
	for (size_t i = 0; i < len; i++)
		for (size_t h = 0; h < ARRAY_SIZE(homes); h++) {
			size_t pre = strlen(homes[h]), n = 0;

			if (pre > len - i || memcmp(buf + i, homes[h], pre) ||
			    (i > 0 && !redact_word_edge(buf, len, i - 1)))
				continue;
			while (i + pre + n < len && !strchr(HOME_NAME_END, buf[i + pre + n]))
				n++;
			memset(buf + i + pre, 'x', n);
			i += pre + n - 1;
			break;
		}
}

/* A name or a text as --redact keeps it: home directories' users, then secrets and UUIDs. */
static char *redacted(const struct capture_bundle *b, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL;

	if (!b->redact)
		return strdup(s);
	strbuf_put_home_redacted(&sb, s);
	if (strbuf_steal(&sb, &out) < 0)
		return NULL;
	capture_scrub(out, strlen(out), b->secrets);
	return out;
}

static int fail(struct writer *w, int err)
{
	w->why = w->la->archive_error_string(w->a);
	if (!w->why)
		w->why = strerror(err > 0 ? err : -err);
	return err < 0 ? err : -EIO;
}

static int put_data(struct writer *w, const void *data, size_t len)
{
	while (len) {
		la_ssize_t n = w->la->archive_write_data(w->a, data, len);

		if (n <= 0)
			return fail(w, -EIO);
		data = (const char *)data + n;
		len -= (size_t)n;
	}
	return 0;
}

/* An entry's header: prefix and name (under --redact as kept: a tree's path is redacted as the
 * absolute path it is), type, mode, owner, time. */
static int put_header(struct writer *w, const char *prefix, const char *name, mode_t mode,
		      uid_t uid, gid_t gid, const struct timespec *mtime)
{
	_cleanup_free_ char *kept = redacted(w->b, name), *full = NULL;
	struct archive_entry *e = w->e;

	if (!kept || asprintf(&full, "%s%s", prefix, kept) < 0)
		return -ENOMEM;
	w->la->archive_entry_set_pathname(e, full);
	w->la->archive_entry_set_filetype(e, mode & S_IFMT);
	w->la->archive_entry_set_perm(e, mode & 07777);
	w->la->archive_entry_set_uid(e, uid);
	w->la->archive_entry_set_gid(e, gid);
	w->la->archive_entry_set_mtime(e, mtime->tv_sec, mtime->tv_nsec);
	return 0;
}

static int write_header(struct writer *w)
{
	int r = w->la->archive_write_header(w->a, w->e);

	return r < ARCHIVE_WARN ? fail(w, -EIO) : 0;
}

/* A file the bundle itself holds (capture.json, snapshot.json, environment). */
static int put_member(struct writer *w, const char *name, const char *text)
{
	struct timespec now;
	int err;

	clock_gettime(CLOCK_REALTIME, &now);
	w->la->archive_entry_clear(w->e);
	err = put_header(w, "", name, S_IFREG | 0644, 0, 0, &now);
	if (err < 0)
		return err;
	w->la->archive_entry_set_size(w->e, (la_int64_t)strlen(text));
	err = write_header(w);
	return err < 0 ? err : put_data(w, text, strlen(text));
}

/* Up to max bytes of f from off into a new buffer (short at the end of the file). */
static int read_at(int fd, uint64_t off, size_t max, char **ret, size_t *ret_len)
{
	char *buf = malloc(max + 1);
	size_t got = 0;

	if (!buf)
		return -ENOMEM;
	while (got < max) {
		ssize_t n = pread(fd, buf + got, max - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*ret = buf;
	*ret_len = got;
	return 0;
}

/* Contents of len bytes in buf (NUL-terminated, changed in place): text under --redact is
 * redacted as names are, binary contents scrubbed in place (their length kept: offsets in an
 * ELF file must not move). */
static int put_contents(struct writer *w, char *buf, size_t len)
{
	_cleanup_free_ char *text = NULL;
	int err;

	if (w->b->redact && !memchr(buf, '\0', len)) {
		text = redacted(w->b, buf);
		if (!text)
			return -ENOMEM;
		len = strlen(text);
	} else if (w->b->redact) {
		capture_scrub_binary(buf, len, w->b->secrets);
	}
	w->la->archive_entry_set_size(w->e, (la_int64_t)len);
	err = write_header(w);
	if (err >= 0)
		err = put_data(w, text ? text : buf, len);
	w->stored += len;
	return err;
}

/* Whole contents (a small file, or a pseudo file read to its end). */
static int put_whole(struct writer *w, const struct capture_entry *e, int fd)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int err = read_at(fd, 0, e->pseudo ? CAPTURE_PSEUDO_MAX : (size_t)e->size, &buf, &len);

	if (err < 0)
		return err;
	if (!e->pseudo && len < e->size) /* shrank since: keep its size, zeros after */
		memset(buf + len, 0, (size_t)e->size - len), len = (size_t)e->size;
	return put_contents(w, buf, len);
}

/* A large file: its real size, the ranges read as data, the rest holes. */
static int put_sparse(struct writer *w, const struct capture_entry *e, int fd)
{
	static const char zeros[HOLE_CHUNK];
	uint64_t at = 0;
	int err;

	w->la->archive_entry_set_size(w->e, (la_int64_t)e->size);
	for (size_t i = 0; i < e->n_ranges; i++)
		w->la->archive_entry_sparse_add_entry(w->e, (la_int64_t)e->ranges[i].off,
						      (la_int64_t)e->ranges[i].len);
	if (!e->n_ranges) /* read nothing (stat, open): all hole */
		w->la->archive_entry_sparse_add_entry(w->e, (la_int64_t)e->size, 0);
	err = write_header(w);
	for (size_t i = 0; err >= 0 && i <= e->n_ranges; i++) {
		uint64_t start = i < e->n_ranges ? e->ranges[i].off : e->size;
		_cleanup_free_ char *buf = NULL;
		size_t len;

		while (err >= 0 && at < start) { /* the hole before: consumed, not stored */
			size_t n = (size_t)MIN(start - at, (uint64_t)HOLE_CHUNK);

			err = put_data(w, zeros, n);
			at += n;
		}
		if (err < 0 || i == e->n_ranges)
			break;
		err = read_at(fd, e->ranges[i].off, (size_t)e->ranges[i].len, &buf, &len);
		if (err < 0)
			break;
		memset(buf + len, 0, (size_t)e->ranges[i].len - len);
		if (w->b->redact)
			capture_scrub_binary(buf, (size_t)e->ranges[i].len, w->b->secrets);
		err = put_data(w, buf, (size_t)e->ranges[i].len);
		at += e->ranges[i].len;
		w->stored += e->ranges[i].len;
	}
	return err;
}

static int put_entry(struct writer *w, const struct capture_tree *t, const struct capture_entry *e)
{
	char host[PATH_MAX * 2];
	mode_t mode = e->kind == CAPTURE_DIR ? (e->mode & 07777) | S_IFDIR : e->mode;
	_cleanup_close_ int fd = -1;
	int err;

	w->la->archive_entry_clear(w->e);
	err = put_header(w, "root", e->path, mode, e->uid, e->gid, &e->mtime);
	if (err < 0)
		return err;
	switch (e->kind) {
	case CAPTURE_DIR:
	case CAPTURE_DEVICE:
		if (e->kind == CAPTURE_DEVICE)
			w->la->archive_entry_set_rdev(w->e, e->rdev);
		return write_header(w);
	case CAPTURE_LINK: {
		_cleanup_free_ char *target = redacted(w->b, e->target);

		if (!target)
			return -ENOMEM;
		w->la->archive_entry_set_symlink(w->e, target);
		return write_header(w);
	}
	case CAPTURE_FILE:
		break;
	}
	if (e->data) { /* made by the capture: the pci.ids lines, what was kept (core/kept.c) */
		_cleanup_free_ char *copy = malloc(e->data_len + 1);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, e->data, e->data_len);
		copy[e->data_len] = '\0';
		return put_contents(w, copy, e->data_len);
	}
	if (!e->contents) { /* a name in a listing: an empty stand-in */
		w->la->archive_entry_set_size(w->e, 0);
		return write_header(w);
	}
	fd = open(capture_host_path(t, e->path, host, sizeof(host)),
		  O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) { /* gone or unreadable since the probe read it: an empty stand-in */
		w->la->archive_entry_set_size(w->e, 0);
		return write_header(w);
	}
	if (e->pseudo || e->size <= CAPTURE_WHOLE_MAX)
		return put_whole(w, e, fd);
	return put_sparse(w, e, fd);
}

/* capture.json: what the bundle holds and what of it is partial. */
static char *describe(const struct capture_tree *t, const struct capture_bundle *b)
{
	json_t *j = json_object(), *partial = json_array(), *skipped = json_array();
	char date[32];
	time_t now = time(NULL);
	size_t files = 0, stand_ins = 0;
	char *text;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	for (size_t i = 0; i < t->n; i++) {
		const struct capture_entry *e = &t->entries[i];
		uint64_t kept = 0;
		_cleanup_free_ char *path = NULL;

		if (e->kind != CAPTURE_FILE)
			continue;
		files += e->contents;
		stand_ins += !e->contents;
		if (!e->contents || e->pseudo || e->size <= CAPTURE_WHOLE_MAX)
			continue;
		path = redacted(b, e->path);
		for (size_t k = 0; k < e->n_ranges; k++)
			kept += e->ranges[k].len;
		json_array_append_new(partial,
				      json_pack("{s:s?, s:I, s:I, s:i}", "path", path, "size",
						(json_int_t)e->size, "kept", (json_int_t)kept,
						"ranges", (int)e->n_ranges));
	}
	for (char **s = t->skipped; s && *s; s++) {
		_cleanup_free_ char *line = redacted(b, *s);
		char *tab = line ? strchr(line, '\t') : NULL;

		if (tab) {
			*tab = '\0';
			json_array_append_new(
				skipped, json_pack("{s:s, s:s}", "path", line, "why", tab + 1));
		}
	}
	json_object_set_new(j, "schema_version", json_integer(1));
	json_object_set_new(j, "gpuenv_version", json_string(b->version));
	json_object_set_new(j, "created", json_string(date));
	json_object_set_new(j, "source", json_string(b->live ? "live" : "sysroot"));
	json_object_set_new(j, "redacted", json_boolean(b->redact));
	json_object_set_new(
		j, "replay",
		json_string(b->environment ? "gpuenv report --sysroot root --env-file environment"
					   : "gpuenv report --sysroot root"));
	json_object_set_new(j, "entries", json_integer((json_int_t)t->n));
	json_object_set_new(j, "files_read", json_integer((json_int_t)files));
	json_object_set_new(j, "stand_ins", json_integer((json_int_t)stand_ins));
	json_object_set_new(j, "whole_file_max", json_integer((json_int_t)CAPTURE_WHOLE_MAX));
	json_object_set_new(j, "partial", partial);
	json_object_set_new(j, "skipped", skipped);
	text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(j);
	return text;
}

int capture_write(int fd, const struct capture_tree *t, const struct capture_bundle *b,
		  const char **ret_why)
{
	struct writer w = { .b = b };
	_cleanup_free_ char *meta = NULL, *env = NULL;
	int err = vendor_archive(&w.la, ret_why);

	if (err < 0)
		return err;
	meta = describe(t, b);
	env = b->environment ? redacted(b, b->environment) : NULL;
	w.a = w.la->archive_write_new();
	w.e = w.la->archive_entry_new();
	if (!meta || !w.a || !w.e || (b->environment && !env)) {
		err = -ENOMEM;
		w.why = strerror(ENOMEM);
		goto out;
	}
	if (w.la->archive_write_set_format_pax_restricted(w.a) != ARCHIVE_OK ||
	    w.la->archive_write_add_filter_zstd(w.a) != ARCHIVE_OK ||
	    w.la->archive_write_open_fd(w.a, fd) != ARCHIVE_OK) {
		err = fail(&w, -EIO);
		goto out;
	}
	err = put_member(&w, "capture.json", meta);
	if (err >= 0)
		err = put_member(&w, "snapshot.json", b->snapshot_json);
	if (err >= 0 && env)
		err = put_member(&w, "environment", env);
	if (err >= 0) {
		char empty[] = "";
		struct capture_entry top = { .path = empty, .kind = CAPTURE_DIR, .mode = 0755 };

		clock_gettime(CLOCK_REALTIME, &top.mtime);
		err = put_entry(&w, t, &top);
	}
	for (size_t i = 0; err >= 0 && i < t->n; i++)
		err = put_entry(&w, t, &t->entries[i]);
	if (err >= 0 && w.la->archive_write_close(w.a) != ARCHIVE_OK)
		err = fail(&w, -EIO);
	if (err < 0 && !w.why)
		w.why = strerror(-err);
out:
	*ret_why = w.why;
	if (w.e)
		w.la->archive_entry_free(w.e);
	if (w.a)
		w.la->archive_write_free(w.a);
	return err;
}
