// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ELF files the loader emulation and its probes look at, read through the root: the
 * dynamic section, and a library's dynamic symbols. A large compressed member of a wheel or
 * an image layer is read from root_stream() in passes that keep only what the parsers read
 * (formats/elf-stream.h), so it is neither copied to memory nor spilled to TMPDIR; every
 * other file is mapped (root_map()). Either way each file is read once for all the parsers
 * a caller asks for.
 */
#include <errno.h>

#include "formats/elf-dynamic-stream.h"
#include "formats/elf-symbols-stream.h"
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

/* Hands the bytes of path to parse (which keeps its results and returns 0 or -ENOMEM) once:
 * through the stages of wanted[n] when it is a streamed member, else mapped. Returns the
 * read's error, -ENOBUFS when a streamed member's ranges could not be kept and whole is
 * false, or -ENOMEM. */
static int read_elf(struct root *root, const char *path, const elf_stream_wanted *wanted, size_t n,
		    elf_stream_gate gate, bool whole, int (*parse)(void *, const uint8_t *, size_t),
		    void *ud)
{
	struct root_source s = { .root = root, .path = path };
	struct root_map m = { 0 };
	int err;

	/* Only an image's or wheel's layers stream a member; elsewhere the stream parser's set-up
	 * (its state and the sparse mapping) would be paid per library for nothing (a fifth of a
	 * live doctor's instructions). */
	if (root_layers(root)) {
		err = elf_stream_parse_gated(stream_member, &s, LOADER_MAP_MAX, wanted, n, gate,
					     parse, ud);
		if (s.read_err < 0 && s.read_err != -EOPNOTSUPP)
			return s.read_err;
		if (s.read_err == 0 && err != -ENOBUFS && err != -ELOOP)
			return err;
		if (s.read_err == 0 && !whole)
			return -ENOBUFS;
	}
	/* Not a streamed member (or one whose stages did not settle): mapped whole. */
	err = root_map(root, path, LOADER_MAP_MAX, &m);
	if (err < 0)
		return err;
	err = parse(ud, m.data, m.len);
	root_unmap(&m);
	return err;
}

struct elf_parse {
	const char *const *prefixes; /* NULL: the needed symbols (elf_symbols_parse_needed()) */
	bool (*wants_symbols)(const struct elf_dynamic *d);
	struct loader_elf *e;
	int symbols_kept; /* a streamed member: whether its symbol tables were kept; else -1 */
};

/* A streamed member's symbol tables are kept only when wants_symbols() says so of its
 * dynamic section (elf_stream_parse_gated()): the other libraries keep no megabytes of them. */
static bool keep_symbols(void *userdata, const uint8_t *p, size_t len)
{
	struct elf_parse *q = userdata;
	struct elf_dynamic *d = NULL;

	q->symbols_kept = elf_dynamic_parse(p, len, &d) == 0 && q->wants_symbols(d);
	elf_dynamic_free(d);
	return q->symbols_kept;
}

static int parse_dynamic(void *userdata, const uint8_t *p, size_t len)
{
	struct elf_parse *q = userdata;

	q->e->dynamic_err = elf_dynamic_parse(p, len, &q->e->dynamic);
	return q->e->dynamic_err == -ENOMEM ? -ENOMEM : 0;
}

static int parse_both(void *userdata, const uint8_t *p, size_t len)
{
	struct elf_parse *q = userdata;
	int err = parse_dynamic(userdata, p, len);

	if (err < 0 || q->e->dynamic_err < 0 ||
	    (q->wants_symbols && !q->wants_symbols(q->e->dynamic)))
		return err;
	if (q->symbols_kept == 0)
		return -ENOMEM; /* keep_symbols()'s parse of these same bytes failed */
	q->e->symbols_err = q->prefixes ? elf_symbols_parse_any(p, len, q->prefixes, &q->e->symbols)
					: elf_symbols_parse_needed(p, len, &q->e->symbols);
	return q->e->symbols_err == -ENOMEM ? -ENOMEM : 0;
}

int loader_read_dynamic(struct root *root, const char *path, int *parse_err,
			struct elf_dynamic **ret)
{
	static const elf_stream_wanted wanted[] = { elf_dynamic_wanted };
	struct loader_elf e = { .symbols_err = 1 };
	struct elf_parse q = { .e = &e, .symbols_kept = -1 };
	int err = read_elf(root, path, wanted, 1, NULL, true, parse_dynamic, &q);

	if (err < 0)
		return err;
	*parse_err = e.dynamic_err;
	*ret = e.dynamic;
	return 0;
}

int loader_read_elf(struct root *root, const char *path, const char *prefix,
		    bool (*wants_symbols)(const struct elf_dynamic *d), struct loader_elf *ret)
{
	const char *const prefixes[] = { prefix, NULL };

	return loader_read_elf_any(root, path, prefixes, wants_symbols, ret);
}

int loader_read_elf_any(struct root *root, const char *path, const char *const *prefixes,
			bool (*wants_symbols)(const struct elf_dynamic *d), struct loader_elf *ret)
{
	static const elf_stream_wanted wanted[] = { elf_dynamic_wanted, elf_symbols_wanted };
	struct elf_parse q = {
		.prefixes = prefixes, .wants_symbols = wants_symbols, .e = ret, .symbols_kept = -1
	};
	int err;

	*ret = (struct loader_elf){ .symbols_err = 1 };
	err = read_elf(root, path, wanted, 2, wants_symbols ? keep_symbols : NULL, false,
		       parse_both, &q);
	if (err < 0)
		loader_elf_done(ret);
	if (err != -ENOBUFS)
		return err;
	/* Symbol tables over what a stream keeps: the dynamic section alone, as ever. */
	loader_elf_done(ret);
	err = loader_read_dynamic(root, path, &ret->dynamic_err, &ret->dynamic);
	if (err < 0)
		loader_elf_done(ret);
	else if (ret->dynamic_err == 0 && (!wants_symbols || wants_symbols(ret->dynamic)))
		ret->symbols_err = -ENOBUFS;
	return err;
}

int loader_read_elf_needed(struct root *root, const char *path,
			   bool (*wants_symbols)(const struct elf_dynamic *d),
			   struct loader_elf *ret)
{
	return loader_read_elf_any(root, path, NULL, wants_symbols, ret);
}

void loader_elf_done(struct loader_elf *e)
{
	e->dynamic = elf_dynamic_free(e->dynamic);
	e->symbols = elf_symbols_free(e->symbols);
}
