// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading a kernel module file (kmodule.h): the ELF header and section headers (System V
 * gABI "Sections"; Linux <elf.h> for the layouts of Elf32/Elf64_Ehdr and _Shdr), the
 * .modinfo strings, and the signature trailer (kmodule-sig.c), from a plain file by reads at
 * offsets, or from a compressed one by streaming it through liblzma (xz, "The .xz File
 * Format"), libzstd (RFC 8878) or zlib (gzip, RFC 1952) with a cap on the output.
 *
 * Streaming: the wanted byte ranges ("slots") are learnt one from another: the ELF header
 * (offset 0) gives the section headers' place, those give the section-name table's, that
 * gives .modinfo's. Each slot copies its range as the stream passes it. One whose place is
 * learnt after the stream passed it is taken from the kept tail of the module (the last
 * KMODULE_TAIL bytes: GNU ld puts .shstrtab and the section headers last) or in another pass.
 * A stream that runs past the end of its ELF image by more than a signature, or past
 * KMODULE_MAX_SIZE, is stopped: a decompression bomb costs at most that much output.
 *
 * .modinfo usually lies mid-file, before the section headers that say where it is, so it
 * would cost a second pass (as long again for an xz module). The first pass therefore keeps
 * a window around the first "vermagic=" it sees (modpost's MODULE_INFO(vermagic, …) string,
 * which every module's .modinfo holds, near its end: scripts/mod/modpost.c); when the
 * section headers then place .modinfo inside that window, its bytes are taken from there.
 * The window is only a place to look: what is used is the range the headers name.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "formats/der.h"
#include "formats/kmodule.h"
#include "shared/macro.h"

#define CHUNK ((size_t)64 << 10)
/* Decoder memory: xz -9 needs 65 MiB to decompress, the kernel's own `xz --lzma2=dict=2MiB`
 * (scripts/Makefile.modinst) far less; zstd's default window limit is 2^27 (128 MiB). */
#define XZ_MEMLIMIT    ((uint64_t)128 << 20)
#define ZSTD_WINDOWLOG 27
#define MAX_PASSES     3
/* the window kept around the first "vermagic=": before it (most of .modinfo), after it */
#define CAND_BEFORE ((size_t)512 << 10)
#define CAND_AFTER  ((size_t)64 << 10)
/* A plain file is read in windows, so only its size is checked. */
#define MAX_PLAIN_SIZE ((uint64_t)4 << 30)

enum { S_HDR, S_SHDR, S_SHSTR, S_MODINFO, S_N };
static const char *const slot_names[S_N] = { "ELF header", "section headers", "section-name table",
					     ".modinfo section" };

struct slot {
	uint64_t off, len;
	uint8_t *buf;
	bool set, done;
	bool missed; /* set after the stream had passed its start: fetched later */
};

struct elfv {
	bool is64, big;
	uint64_t shoff;
	unsigned shnum, shentsize, shstrndx;
};

struct reader {
	const struct kmodule_input *in;
	struct kmodule_info *info;
	char **why;
	bool streaming;
	struct slot s[S_N];
	struct elfv e;
	bool have_elf, modinfo_looked;
	uint64_t elf_end; /* 0 until the section headers are read */
	uint64_t size;	  /* of the module, once known */
	bool size_known;
	/* the chunk being fed and the stream position after it */
	const uint8_t *chunk;
	uint64_t chunk_start;
	size_t chunk_len;
	uint64_t pos;
	/* the last KMODULE_TAIL bytes, pass 1 */
	uint8_t *ring;
	bool keep_ring;
	/* pass 1: the window around the first "vermagic=" (cand.set once seen) */
	struct slot cand;
	unsigned pass;
};

static int failv(struct reader *r, int err, const char *fmt, va_list ap) _printf_(3, 0);
static int failv(struct reader *r, int err, const char *fmt, va_list ap)
{
	if (r->why && !*r->why && vasprintf(r->why, fmt, ap) < 0)
		*r->why = NULL;
	return err;
}

static int fail(struct reader *r, int err, const char *fmt, ...) _printf_(3, 4);
static int fail(struct reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = failv(r, err, fmt, ap);
	va_end(ap);
	return err;
}

int kmodule_compression_from_name(const char *name, enum kmodule_compression *ret)
{
	static const struct {
		const char *suffix;
		enum kmodule_compression c;
	} sfx[] = { { ".ko", KMODULE_PLAIN },
		    { ".ko.xz", KMODULE_XZ },
		    { ".ko.zst", KMODULE_ZSTD },
		    { ".ko.gz", KMODULE_GZIP } };
	size_t n = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t k = strlen(sfx[i].suffix);

		if (n > k && streq(name + n - k, sfx[i].suffix)) {
			*ret = sfx[i].c;
			return 0;
		}
	}
	return -EINVAL;
}

const char *kmodule_compression_name(enum kmodule_compression c)
{
	static const char *const names[] = { [KMODULE_PLAIN] = "none",
					     [KMODULE_XZ] = "xz",
					     [KMODULE_ZSTD] = "zstd",
					     [KMODULE_GZIP] = "gzip" };

	return (unsigned)c < ARRAY_SIZE(names) ? names[c] : "?";
}

/* ---- ELF ----------------------------------------------------------------------------- */

static uint64_t get(const struct elfv *e, const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[e->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int parse_ehdr(struct reader *r, const uint8_t *h)
{
	struct elfv *e = &r->e;
	unsigned type;

	if (memcmp(h, ELFMAG, SELFMAG) != 0)
		return fail(r, -EBADMSG, "not an ELF file (no \\x7fELF magic)");
	if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		return fail(r, -EBADMSG, "ELF header: unknown class %u or data encoding %u",
			    h[EI_CLASS], h[EI_DATA]);
	e->is64 = h[EI_CLASS] == ELFCLASS64;
	e->big = h[EI_DATA] == ELFDATA2MSB;
	type = (unsigned)get(e, h + 16, 2);
	if (type != ET_REL)
		return fail(r, -EBADMSG,
			    "ELF type %u: a kernel module is a relocatable object (ET_REL)", type);
	if (e->is64) {
		e->shoff = get(e, h + 0x28, 8);
		e->shentsize = (unsigned)get(e, h + 0x3a, 2);
		e->shnum = (unsigned)get(e, h + 0x3c, 2);
		e->shstrndx = (unsigned)get(e, h + 0x3e, 2);
	} else {
		e->shoff = get(e, h + 0x20, 4);
		e->shentsize = (unsigned)get(e, h + 0x2e, 2);
		e->shnum = (unsigned)get(e, h + 0x30, 2);
		e->shstrndx = (unsigned)get(e, h + 0x32, 2);
	}
	if (e->shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(r, -EBADMSG, "ELF header: section header size %u", e->shentsize);
	if (e->shnum == 0 || e->shoff == 0)
		return fail(r, -EBADMSG,
			    "ELF header: no section headers (or extended section numbering)");
	if (e->shstrndx >= e->shnum)
		return fail(r, -EBADMSG, "ELF header: e_shstrndx %u out of %u sections",
			    e->shstrndx, e->shnum);
	if (e->shoff < (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return fail(r, -EBADMSG, "ELF header: section headers overlap it");
	r->have_elf = true;
	return 0;
}

struct shdr {
	uint32_t name, type;
	uint64_t off, size;
};

static struct shdr shdr_at(const struct reader *r, unsigned i)
{
	const struct elfv *e = &r->e;
	const uint8_t *p = r->s[S_SHDR].buf + (size_t)i * e->shentsize;

	if (e->is64)
		return (struct shdr){ (uint32_t)get(e, p, 4), (uint32_t)get(e, p + 4, 4),
				      get(e, p + 24, 8), get(e, p + 32, 8) };
	return (struct shdr){ (uint32_t)get(e, p, 4), (uint32_t)get(e, p + 4, 4), get(e, p + 16, 4),
			      get(e, p + 20, 4) };
}

/* ---- slots ----------------------------------------------------------------------------- */

static void slot_copy(struct slot *sl, const uint8_t *p, uint64_t start, size_t n)
{
	uint64_t a = MAX(start, sl->off), b = MIN(start + n, sl->off + sl->len);

	if (a < b)
		memcpy(sl->buf + (a - sl->off), p + (a - start), (size_t)(b - a));
	if (start + n >= sl->off + sl->len)
		sl->done = true;
}

/* The ring holds the last min(pos, KMODULE_TAIL) bytes of the stream; true when [off, off+len)
 * is among them (copied into dst). */
static bool ring_get(const struct reader *r, uint64_t off, uint64_t len, uint8_t *dst)
{
	uint64_t have = MIN(r->pos, (uint64_t)KMODULE_TAIL);

	if (!r->ring || off < r->pos - have || off + len > r->pos)
		return false;
	for (uint64_t i = 0; i < len;) {
		size_t at = (size_t)((off + i) % KMODULE_TAIL);
		size_t n = (size_t)MIN(len - i, (uint64_t)(KMODULE_TAIL - at));

		memcpy(dst + i, r->ring + at, n);
		i += n;
	}
	return true;
}

static int slot_set(struct reader *r, unsigned i, uint64_t off, uint64_t len)
{
	struct slot *sl = &r->s[i];
	uint64_t limit = r->streaming ? KMODULE_MAX_SIZE : r->in->size;

	if (off > limit || len > limit - off) {
		if (r->streaming)
			return fail(r, -EFBIG,
				    "%s at offset %" PRIu64 " (%" PRIu64 " bytes) lies past the "
				    "%" PRIu64 " MiB the module may decompress to",
				    slot_names[i], off, len, KMODULE_MAX_SIZE >> 20);
		return fail(r, -EBADMSG,
			    "%s at offset %" PRIu64 " (%" PRIu64 " bytes) lies past the end of "
			    "the file (%" PRIu64 " bytes)",
			    slot_names[i], off, len, r->in->size);
	}
	sl->off = off;
	sl->len = len;
	sl->set = true;
	sl->buf = malloc(len ? (size_t)len : 1);
	if (!sl->buf)
		return -ENOMEM;
	if (len == 0) {
		sl->done = true;
		return 0;
	}
	if (!r->streaming) {
		ssize_t n = r->in->read(r->in->userdata, off, sl->buf, (size_t)len);

		if (n < 0)
			return fail(r, (int)n, "reading the %s", slot_names[i]);
		if ((uint64_t)n != len)
			return fail(r, -EBADMSG, "%s: the file ended early", slot_names[i]);
		sl->done = true;
		return 0;
	}
	if (r->chunk && off >= r->chunk_start)
		slot_copy(sl, r->chunk, r->chunk_start, r->chunk_len);
	else if (off >= r->pos)
		; /* copied as the stream reaches it */
	else if (ring_get(r, off, len, sl->buf))
		sl->done = true;
	else
		sl->missed = true;
	return 0;
}

/* What the slots that are done tell: the next slot's place. Loops until nothing changes. */
static int progress(struct reader *r)
{
	int err;

	if (r->s[S_HDR].done && !r->have_elf) {
		err = parse_ehdr(r, r->s[S_HDR].buf);
		if (err < 0)
			return err;
		err = slot_set(r, S_SHDR, r->e.shoff, (uint64_t)r->e.shnum * r->e.shentsize);
		if (err < 0)
			return err;
	}
	if (r->s[S_SHDR].done && !r->s[S_SHSTR].set) {
		struct shdr st = shdr_at(r, r->e.shstrndx);
		uint64_t end = r->e.shoff + (uint64_t)r->e.shnum * r->e.shentsize;

		for (unsigned i = 1; i < r->e.shnum; i++) {
			struct shdr sh = shdr_at(r, i);

			if (sh.type != SHT_NOBITS && sh.off <= UINT64_MAX - sh.size)
				end = MAX(end, sh.off + sh.size);
		}
		r->elf_end = end;
		if (st.type != SHT_STRTAB)
			return fail(r, -EBADMSG, "section %u (e_shstrndx) is not a string table",
				    r->e.shstrndx);
		if (st.size > KMODULE_MAX_SHSTR)
			return fail(r, -EFBIG, "section-name table of %" PRIu64 " bytes (cap %zu)",
				    st.size, KMODULE_MAX_SHSTR);
		err = slot_set(r, S_SHSTR, st.off, st.size);
		if (err < 0)
			return err;
	}
	if (r->s[S_SHSTR].done && !r->modinfo_looked) {
		const struct slot *ss = &r->s[S_SHSTR];

		r->modinfo_looked = true;
		for (unsigned i = 1; i < r->e.shnum; i++) {
			struct shdr sh = shdr_at(r, i);
			static const char want[] = ".modinfo";

			if (sh.name >= ss->len || ss->len - sh.name < sizeof(want) ||
			    memcmp(ss->buf + sh.name, want, sizeof(want)) != 0)
				continue;
			if (sh.type == SHT_NOBITS)
				break;
			if (sh.size > KMODULE_MAX_MODINFO)
				return fail(r, -EFBIG, ".modinfo of %" PRIu64 " bytes (cap %zu)",
					    sh.size, KMODULE_MAX_MODINFO);
			r->info->has_modinfo = true;
			return slot_set(r, S_MODINFO, sh.off, sh.size);
		}
	}
	return 0;
}

static bool slots_pending(const struct reader *r)
{
	for (unsigned i = 0; i < S_N; i++)
		if (r->s[i].set && !r->s[i].done)
			return true;
	return false;
}

/* 0, 1 when this pass has all it needs, or an error. */
static int feed(struct reader *r, const uint8_t *p, size_t n)
{
	int err;

	if (n == 0)
		return 0;
	if (n > KMODULE_MAX_SIZE - r->pos)
		return fail(r, -EFBIG, "the module decompresses to more than %" PRIu64 " MiB",
			    KMODULE_MAX_SIZE >> 20);
	if (r->size_known && r->pos + n > r->size)
		return fail(r, -EIO, "the file changed between two passes");
	for (unsigned i = 0; i < S_N; i++)
		if (r->s[i].set && !r->s[i].done && !r->s[i].missed)
			slot_copy(&r->s[i], p, r->pos, n);
	if (r->keep_ring) {
		for (size_t i = 0; i < n;) {
			size_t at = (size_t)((r->pos + i) % KMODULE_TAIL);
			size_t k = MIN(n - i, KMODULE_TAIL - at);

			memcpy(r->ring + at, p + i, k);
			i += k;
		}
	}
	if (r->cand.set && !r->cand.done)
		slot_copy(&r->cand, p, r->pos, n);
	r->chunk = p;
	r->chunk_start = r->pos;
	r->chunk_len = n;
	r->pos += n;
	if (r->keep_ring && !r->cand.set) {
		static const char vm[] = "vermagic=";
		const uint8_t *hit = memmem(p, n, vm, sizeof(vm) - 1);

		if (hit) {
			uint64_t h = r->chunk_start + (uint64_t)(hit - p);
			uint64_t lo = h > CAND_BEFORE ? h - CAND_BEFORE : 0;

			/* [lo, pos) is in the ring (CAND_BEFORE + CHUNK < KMODULE_TAIL) */
			r->cand = (struct slot){ .off = lo,
						 .len = CAND_BEFORE + CAND_AFTER,
						 .set = true };
			r->cand.buf = malloc(r->cand.len);
			if (!r->cand.buf)
				return -ENOMEM;
			ring_get(r, lo, r->pos - lo, r->cand.buf);
		}
	}
	err = progress(r);
	r->chunk = NULL;
	if (err < 0)
		return err;
	if (r->elf_end && r->pos > r->elf_end + KMODULE_SIG_SLACK)
		return fail(r, -EBADMSG,
			    "more than %zu bytes follow the ELF image (which ends at %" PRIu64
			    "): not a module signature",
			    (size_t)KMODULE_SIG_SLACK, r->elf_end);
	return r->pass > 1 && !slots_pending(r) ? 1 : 0;
}

/* ---- decompressors --------------------------------------------------------------------- */

struct src {
	struct reader *r;
	uint8_t *buf;
	size_t len;
	uint64_t off; /* in the compressed file */
};

/* Refills s->buf when it was consumed; 0 at the end of the file. */
static ssize_t src_fill(struct src *s)
{
	const struct kmodule_input *in = s->r->in;
	size_t want;
	ssize_t n;

	if (s->off >= in->size)
		return 0;
	if (s->off >= KMODULE_MAX_INPUT)
		return fail(s->r, -EFBIG, "compressed file larger than %" PRIu64 " MiB",
			    KMODULE_MAX_INPUT >> 20);
	want = (size_t)MIN((uint64_t)CHUNK, in->size - s->off);
	n = in->read(in->userdata, s->off, s->buf, want);
	if (n < 0)
		return fail(s->r, (int)n, "reading the compressed file");
	if (n == 0)
		return fail(s->r, -EIO, "the compressed file ended early");
	s->off += (uint64_t)n;
	s->len = (size_t)n;
	return n;
}

static int truncated(struct reader *r)
{
	return fail(r, -EBADMSG, "%s stream truncated after %" PRIu64 " bytes of output",
		    kmodule_compression_name(r->in->compression), r->pos);
}

static int pass_xz(struct reader *r, struct src *s, uint8_t *out)
{
	lzma_stream z = LZMA_STREAM_INIT;
	int err = 0;

	if (lzma_stream_decoder(&z, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	for (;;) {
		lzma_ret ret;
		ssize_t got = 0;

		if (z.avail_in == 0) {
			got = src_fill(s);
			if (got < 0) {
				err = (int)got;
				break;
			}
			z.next_in = s->buf;
			z.avail_in = s->len = (size_t)got;
		}
		z.next_out = out;
		z.avail_out = CHUNK;
		ret = lzma_code(&z, z.avail_in ? LZMA_RUN : LZMA_FINISH);
		err = feed(r, out, CHUNK - z.avail_out);
		if (err != 0)
			break;
		if (ret == LZMA_STREAM_END)
			break;
		if (ret == LZMA_MEMLIMIT_ERROR) {
			err = fail(r, -EFBIG,
				   "xz stream needs more than %" PRIu64 " MiB of decoder memory",
				   XZ_MEMLIMIT >> 20);
			break;
		}
		if (ret == LZMA_BUF_ERROR) {
			err = truncated(r);
			break;
		}
		if (ret != LZMA_OK) {
			err = ret == LZMA_MEM_ERROR
				      ? -ENOMEM
				      : fail(r, -EBADMSG, "xz stream: corrupt (lzma %d)", (int)ret);
			break;
		}
	}
	lzma_end(&z);
	return err < 0 ? err : 0;
}

static int pass_zstd(struct reader *r, struct src *s, uint8_t *out)
{
	ZSTD_DCtx *z = ZSTD_createDCtx();
	ZSTD_inBuffer in = { NULL, 0, 0 };
	size_t last = 0; /* 0: the last frame was decoded and flushed whole */
	bool full = false;
	int err = 0;

	if (!z)
		return -ENOMEM;
	ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, ZSTD_WINDOWLOG);
	for (;;) {
		ZSTD_outBuffer o = { out, CHUNK, 0 };

		/* A full output buffer may hold back more output: drain it before reading. */
		if (in.pos == in.size && !full) {
			ssize_t got = src_fill(s);

			if (got <= 0) {
				err = got < 0 ? (int)got : last == 0 ? 0 : truncated(r);
				break;
			}
			in = (ZSTD_inBuffer){ s->buf, (size_t)got, 0 };
		}
		last = ZSTD_decompressStream(z, &o, &in);
		if (ZSTD_isError(last)) {
			err = ZSTD_getErrorCode(last) == ZSTD_error_frameParameter_windowTooLarge
				      ? fail(r, -EFBIG,
					     "zstd frame needs a window over %u MiB of decoder "
					     "memory",
					     1u << (ZSTD_WINDOWLOG - 20))
				      : fail(r, -EBADMSG, "zstd stream: %s",
					     ZSTD_getErrorName(last));
			break;
		}
		full = o.pos == o.size;
		err = feed(r, out, o.pos);
		if (err != 0)
			break;
	}
	ZSTD_freeDCtx(z);
	return err < 0 ? err : 0;
}

static int pass_gzip(struct reader *r, struct src *s, uint8_t *out)
{
	z_stream z = { 0 };
	bool full = false;
	int err = 0;

	if (inflateInit2(&z, 15 + 16) != Z_OK) /* 16: gzip wrapper (zlib.h) */
		return -ENOMEM;
	for (;;) {
		int ret;

		/* A full output buffer may hold back more output: drain it before reading. */
		if (z.avail_in == 0 && !full) {
			ssize_t got = src_fill(s);

			if (got <= 0) {
				err = got < 0 ? (int)got : truncated(r);
				break;
			}
			z.next_in = s->buf;
			z.avail_in = (uInt)got;
		}
		z.next_out = out;
		z.avail_out = (uInt)CHUNK;
		ret = inflate(&z, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			err = ret == Z_MEM_ERROR ? -ENOMEM
						 : fail(r, -EBADMSG, "gzip stream: %s",
							z.msg ? z.msg : "corrupt");
			break;
		}
		full = z.avail_out == 0;
		err = feed(r, out, CHUNK - z.avail_out);
		if (err != 0)
			break;
		if (ret == Z_STREAM_END) {
			/* Another member follows (gzip -d reads them all), or the end. */
			if (z.avail_in == 0 && s->off >= r->in->size)
				break;
			if (inflateReset(&z) != Z_OK) {
				err = -ENOMEM;
				break;
			}
			full = false;
		}
	}
	inflateEnd(&z);
	return err < 0 ? err : 0;
}

static int stream_pass(struct reader *r)
{
	_cleanup_free_ uint8_t *inbuf = malloc(CHUNK), *out = malloc(CHUNK);
	struct src s = { r, inbuf, 0, 0 };

	if (!inbuf || !out)
		return -ENOMEM;
	r->pos = 0;
	switch (r->in->compression) {
	case KMODULE_XZ:
		return pass_xz(r, &s, out);
	case KMODULE_ZSTD:
		return pass_zstd(r, &s, out);
	case KMODULE_GZIP:
		return pass_gzip(r, &s, out);
	default:
		return -EINVAL;
	}
}

/* ---- the module ------------------------------------------------------------------------ */

/* After pass 1: a slot's range inside the "vermagic=" window (copied into it). */
static bool cand_get(const struct reader *r, struct slot *sl)
{
	const struct slot *c = &r->cand;
	uint64_t end = MIN(c->off + c->len, r->size);

	if (!c->set || sl->off < c->off || sl->off + sl->len > end)
		return false;
	memcpy(sl->buf, c->buf + (sl->off - c->off), (size_t)sl->len);
	return true;
}

static int read_streaming(struct reader *r, uint8_t **ret_tail, size_t *ret_tail_len)
{
	int err;

	r->ring = malloc(KMODULE_TAIL);
	if (!r->ring)
		return -ENOMEM;
	r->keep_ring = true;
	for (r->pass = 1;; r->pass++) {
		if (r->pass > MAX_PASSES)
			return fail(r, -EBADMSG, "module layout needs more than %d passes",
				    MAX_PASSES);
		err = stream_pass(r);
		if (err < 0)
			return err;
		if (r->pass == 1) {
			size_t have = (size_t)MIN(r->pos, (uint64_t)KMODULE_TAIL);

			r->size = r->pos;
			r->size_known = true;
			if (!r->s[S_HDR].done)
				return fail(r, -EBADMSG,
					    "%" PRIu64 " bytes: shorter than an ELF header",
					    r->pos);
			*ret_tail = malloc(have ? have : 1);
			if (!*ret_tail)
				return -ENOMEM;
			ring_get(r, r->pos - have, have, *ret_tail);
			*ret_tail_len = have;
			/* Slots learnt too late: from the tail, or past the end. */
			for (bool again = true; again;) {
				again = false;
				for (unsigned i = 0; i < S_N; i++) {
					struct slot *sl = &r->s[i];

					if (!sl->set || sl->done)
						continue;
					if (sl->off + sl->len > r->size)
						return fail(r, -EBADMSG,
							    "%s at offset %" PRIu64 " (%" PRIu64
							    " bytes) lies past the end of the "
							    "module (%" PRIu64 " bytes)",
							    slot_names[i], sl->off, sl->len,
							    r->size);
					if (ring_get(r, sl->off, sl->len, sl->buf) ||
					    cand_get(r, sl)) {
						sl->done = true;
						again = true;
					}
				}
				err = progress(r);
				if (err < 0)
					return err;
			}
			free(r->ring);
			r->ring = NULL;
			r->keep_ring = false;
		}
		if (!slots_pending(r))
			return 0;
		for (unsigned i = 0; i < S_N; i++)
			r->s[i].missed = false;
	}
}

static int read_plain(struct reader *r, uint8_t **ret_tail, size_t *ret_tail_len)
{
	const struct kmodule_input *in = r->in;
	size_t have = (size_t)MIN(in->size, (uint64_t)KMODULE_SIG_SLACK);
	ssize_t n;
	int err;

	if (in->size > MAX_PLAIN_SIZE)
		return fail(r, -EFBIG, "%" PRIu64 " bytes: larger than %" PRIu64 " MiB", in->size,
			    MAX_PLAIN_SIZE >> 20);
	r->size = in->size;
	r->size_known = true;
	r->pass = 1;
	if (in->size < sizeof(Elf64_Ehdr))
		return fail(r, -EBADMSG, "%" PRIu64 " bytes: shorter than an ELF header", in->size);
	err = slot_set(r, S_HDR, 0, sizeof(Elf64_Ehdr));
	if (err < 0)
		return err;
	err = progress(r);
	if (err < 0)
		return err;
	*ret_tail = malloc(have ? have : 1);
	if (!*ret_tail)
		return -ENOMEM;
	n = in->read(in->userdata, in->size - have, *ret_tail, have);
	if (n < 0)
		return fail(r, (int)n, "reading the end of the module");
	if ((size_t)n != have)
		return fail(r, -EBADMSG, "the file ended early");
	*ret_tail_len = have;
	return 0;
}

int kmodule_read(const struct kmodule_input *in, struct kmodule_info *ret, char **why)
{
	struct reader r = { .in = in, .info = ret, .why = why };
	_cleanup_free_ uint8_t *tail = NULL;
	_cleanup_free_ char *sig_why = NULL;
	size_t tail_len = 0;
	int err;

	if (why)
		*why = NULL;
	*ret = (struct kmodule_info){ .compression = in->compression };
	r.streaming = in->compression != KMODULE_PLAIN;
	if (r.streaming) {
		/* The first 64 bytes: an ELF64 header, or an ELF32 one (52) and more. */
		err = slot_set(&r, S_HDR, 0, sizeof(Elf64_Ehdr));
		if (err >= 0)
			err = read_streaming(&r, &tail, &tail_len);
	} else {
		err = read_plain(&r, &tail, &tail_len);
	}
	if (err >= 0 && r.s[S_MODINFO].done)
		err = kmodule_parse_modinfo(r.s[S_MODINFO].buf, (size_t)r.s[S_MODINFO].len, ret);
	if (err >= 0) {
		ret->size = r.size;
		ret->passes = r.pass;
		err = kmodule_parse_sig(tail, tail_len, &ret->sig, &sig_why);
		if (err == -EBADMSG) {
			ret->sig_error = TAKE_PTR(sig_why);
			err = 0;
		}
	}
	for (unsigned i = 0; i < S_N; i++)
		free(r.s[i].buf);
	free(r.cand.buf);
	free(r.ring);
	if (err < 0)
		kmodule_info_done(ret);
	return err;
}

struct membuf {
	const uint8_t *p;
	size_t len;
};

static ssize_t mem_read(void *userdata, uint64_t off, void *buf, size_t n)
{
	const struct membuf *m = userdata;

	if (off >= m->len)
		return 0;
	n = (size_t)MIN((uint64_t)n, m->len - off);
	memcpy(buf, m->p + off, n);
	return (ssize_t)n;
}

int kmodule_read_buffer(const uint8_t *p, size_t len, enum kmodule_compression c,
			struct kmodule_info *ret, char **why)
{
	struct membuf m = { p, len };
	struct kmodule_input in = { mem_read, &m, len, c };

	return kmodule_read(&in, ret, why);
}

const char *kmodule_modinfo_get(const uint8_t *p, size_t len, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < len;) {
		const uint8_t *nul = memchr(p + i, '\0', len - i);
		size_t n = nul ? (size_t)(nul - (p + i)) : len - i;

		if (nul && n > klen && memcmp(p + i, key, klen) == 0 && p[i + klen] == '=')
			return (const char *)p + i + klen + 1;
		i += n + 1;
	}
	return NULL;
}

int kmodule_parse_modinfo(const uint8_t *p, size_t len, struct kmodule_info *ret)
{
	struct {
		const char *key;
		char **dst;
	} keys[] = { { "version", &ret->version },
		     { "vermagic", &ret->vermagic },
		     { "srcversion", &ret->srcversion },
		     { "name", &ret->name } };

	ret->has_modinfo = true;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = kmodule_modinfo_get(p, len, keys[i].key);

		if (!v || *keys[i].dst)
			continue;
		*keys[i].dst = der_text((const uint8_t *)v, strlen(v), false);
		if (!*keys[i].dst)
			return -ENOMEM;
	}
	return 0;
}

void kmodule_info_done(struct kmodule_info *m)
{
	free(m->version);
	free(m->vermagic);
	free(m->srcversion);
	free(m->name);
	free(m->sig_error);
	kmodule_sig_done(&m->sig);
	*m = (struct kmodule_info){ .compression = m->compression };
}
