/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dynamic section of a library the loader emulation looks at, read through the root. A
 * large compressed member of a wheel or an image layer is read from root_stream() in passes
 * that keep only what the parser reads (formats/elf-dynamic-stream.h), so it is neither
 * copied to memory nor spilled to TMPDIR; every other file is mapped (root_map()).
 */
#include <errno.h>

#include "formats/elf-dynamic-stream.h"
#include "probe/loader.h"

struct root_source {
	struct root *root;
	const char *path;
	int (*chunk)(void *, const uint8_t *, size_t);
	void *chunk_userdata;
	uint64_t size;
	int read_err;
};

static int count_chunk(void *userdata, const uint8_t *p, size_t len)
{
	struct root_source *s = userdata;

	s->size += len;
	return s->chunk(s->chunk_userdata, p, len);
}

static int stream_member(void *userdata, int (*chunk)(void *, const uint8_t *, size_t),
			 void *chunk_userdata, uint64_t *size)
{
	struct root_source *s = userdata;
	int err;

	s->chunk = chunk;
	s->chunk_userdata = chunk_userdata;
	s->size = 0;
	err = root_stream(s->root, s->path, LOADER_MAP_MAX, count_chunk, s);
	if (err < 0) {
		s->read_err = err;
		return err;
	}
	*size = s->size;
	return 0;
}

int loader_read_dynamic(struct root *root, const char *path, int *parse_err,
			struct elf_dynamic **ret)
{
	struct root_source s = { .root = root, .path = path };
	struct root_map m = { 0 };
	int err;

	/* Only an image's or wheel's layers stream a member; elsewhere the stream parser's set-up
	 * (its state and the sparse mapping) would be paid per library for nothing (a fifth of a
	 * live doctor's instructions). */
	if (root_layers(root)) {
		err = elf_dynamic_parse_stream(stream_member, &s, LOADER_MAP_MAX, ret);
		if (s.read_err < 0 && s.read_err != -EOPNOTSUPP)
			return s.read_err;
		if (s.read_err == 0 && err != -ENOBUFS && err != -ELOOP) {
			*parse_err = err;
			return err == -ENOMEM ? err : 0;
		}
	}
	/* Not a streamed member (or one whose stages did not settle): mapped whole. */
	err = root_map(root, path, LOADER_MAP_MAX, &m);
	if (err < 0)
		return err;
	*parse_err = elf_dynamic_parse(m.data, m.len, ret);
	root_unmap(&m);
	return *parse_err == -ENOMEM ? -ENOMEM : 0;
}
