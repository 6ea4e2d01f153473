/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CUDA fat binary parser over (ptr, len). Layout per docs/formats/fatbin.md:
 * container header (magic 0xBA55ED50, NVIDIA fatbinary.h), 64-byte+ entry headers with
 * options/identifier descriptors (§4), flags (64-bit 0x1, debug 0x2, LZ4 0x2000, zstd
 * 0x8000, 'a' 0x100000, 'f' 0x200000; §6), cubin e_flags (LLVM BinaryFormat/ELF.h EF_CUDA_*
 * V1/V2; §9.2), `a` from the cubin's .nv.compat attribute 0x09 and `f` from
 * .note.nv.tkinfo (§9.3), .nvFatBinSegment wrappers (fatbinary_section.h; §2), and the
 * robust walk with search (§1, §5). Host ELF files are read with libelf over the buffer
 * (elf_memory: sections are never copied); the container walks read through view(), from
 * the buffer or, when the caller gives fatbin_input.read, into a small window (the headers
 * of a large .nv_fatbin lie one per page or further apart). Every offset goes through
 * fatbin_range_ok().
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin.h"
#include "shared/macro.h"

#define FATBINC_MAGIC	  0x466243B1u
#define FLAG_64BIT	  0x1ull
#define FLAG_DEBUG	  0x2ull
#define FLAG_COMPRESS_OLD 0x1000ull
#define FLAG_LZ4	  0x2000ull
#define FLAG_ZSTD	  0x8000ull
#define FLAG_ARCH_A	  0x100000ull
#define FLAG_ARCH_F	  0x200000ull
#define EM_CUDA_	  190
#define EM_AMDGPU_	  224
#define SHT_NV_COMPAT	  0x70000086u

struct parse;
static int cubin_has_text(struct parse *ps, uint64_t at, uint64_t len, int *ret);

const uint8_t fatbin_container_pattern[8] = { 0x50, 0xed, 0x55, 0xba, 0x01, 0x00, 0x10, 0x00 };

/* Reads through fatbin_input.read(). Where the .nvFatBinSegment wrappers tell where every
 * container of .nv_fatbin starts (plan_window()), a read that begins at a container takes it
 * whole when it is at most PLAN_SMALL bytes, with the small ones after it up to PLAN_MAX and
 * PLAN_HEAD bytes of the next (its header and first entry header); a larger container is read
 * head by head, PLAN_HEAD bytes at each entry. Elsewhere a window starts at WINDOW_MIN bytes
 * and doubles (up to WINDOW_MAX) while each header lies just past the previous window, as
 * the headers of a run of small entries do; a far jump (past a large payload) starts small
 * again. The plan reads fewer windows, and fewer bytes, than doubling alone on a library of
 * thousands of small containers (bench/bench-scan.sh measures both). */
#define WINDOW_MIN    1024u
#define WINDOW_MAX    (16u << 10)
#define PLAN_SMALL    (16u << 10)
#define PLAN_MAX      (64u << 10)
#define PLAN_HEAD     256u	  /* a container header and an entry header (seen: up to 144) */
#define HEAD_IN_CHUNK (16u << 10) /* compressed bytes handed to a head decoder at a time */

/* One parse: the input, the flags and a reusable zstd stream. */
struct parse {
	struct fatbin_result *r;
	const uint8_t *base;
	size_t len;
	unsigned flags;
	ZSTD_DStream *zds;
	/* fatbin_input.read and its window */
	ssize_t (*read)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	int (*on_container)(void *userdata, const struct fatbin_entry *e, size_t n);
	uint8_t *win;
	size_t win_cap, win_len, win_size;
	uint64_t win_off;
	int io_err;
	/* plan_window(): container starts in .nv_fatbin (sorted), then the section's end */
	uint64_t *starts;
	size_t n_starts;
	/* file ranges walked outside .nv_fatbin (wrapper targets, search hits): never twice */
	struct range {
		size_t a, b;
	} * ranges;
	size_t n_ranges;
};

/* The read to make at off when the container starts are known (see WINDOW_MIN), else 0. */
static size_t plan_window(const struct parse *ps, uint64_t off)
{
	const uint64_t *st = ps->starts;
	size_t lo = 0, hi = ps->n_starts, i;
	uint64_t end;

	if (ps->n_starts < 2 || off < st[0] || off >= st[ps->n_starts - 1])
		return 0;
	while (hi - lo > 1) { /* lo: the last start <= off */
		size_t mid = lo + (hi - lo) / 2;

		if (st[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	if (st[lo] != off)
		return PLAN_HEAD; /* an entry of a large container */
	end = off;
	for (i = lo;
	     i + 1 < ps->n_starts && st[i + 1] - st[i] <= PLAN_SMALL && st[i + 1] - off <= PLAN_MAX;
	     i++)
		end = st[i + 1];
	return (size_t)(end - off) + PLAN_HEAD;
}

/* Bytes [off, off + n) of the input, valid until the next view(): in the buffer, or read into
 * the window. NULL when out of range or unreadable (ps->io_err then says why). */
static const uint8_t *view(struct parse *ps, uint64_t off, size_t n)
{
	uint64_t end;
	size_t want, planned;
	ssize_t got;

	if (!fatbin_range_ok(ps->len, off, n))
		return NULL;
	if (!ps->read || n == 0)
		return ps->base + off;
	if (ps->win_len > 0 && off >= ps->win_off &&
	    fatbin_range_ok(ps->win_len, off - ps->win_off, n))
		return ps->win + (off - ps->win_off);
	end = ps->win_off + ps->win_len;
	planned = plan_window(ps, off);
	if (planned)
		ps->win_size = planned;
	else if (ps->win_len == 0 || off < ps->win_off || (off >= end && off - end >= WINDOW_MAX))
		ps->win_size = WINDOW_MIN;
	else if (off >= end && off - end < ps->win_size)
		ps->win_size = MIN(ps->win_size * 2, (size_t)WINDOW_MAX);
	want = MIN(MAX(n, ps->win_size), (size_t)(ps->len - off));
	if (want > ps->win_cap) {
		uint8_t *w = realloc(ps->win, want);

		if (!w) {
			ps->io_err = -ENOMEM;
			return NULL;
		}
		ps->win = w;
		ps->win_cap = want;
	}
	ps->win_len = 0;
	got = ps->read(ps->userdata, off, ps->win, want);
	if (got < 0 || (size_t)got < n) {
		ps->io_err = got < 0 ? (int)got : -EIO;
		return NULL;
	}
	ps->win_off = off;
	ps->win_len = MIN((size_t)got, want);
	return ps->win;
}

/* A view() that failed: the read error (recorded as the reason), or -EBADMSG. */
static int view_error(struct parse *ps, uint64_t off)
{
	if (!ps->io_err)
		return -EBADMSG;
	if (ps->io_err != -ENOMEM)
		fatbin_set_warning(ps->r, "cannot read offset 0x%" PRIx64 ": %s", off,
				   strerror(-ps->io_err));
	return ps->io_err;
}

static const struct range *range_find(const struct parse *ps, size_t off)
{
	for (size_t i = 0; i < ps->n_ranges; i++)
		if (off >= ps->ranges[i].a && off < ps->ranges[i].b)
			return &ps->ranges[i];
	return NULL;
}

static int range_add(struct parse *ps, size_t a, size_t b)
{
	struct range *n;

	if (b <= a)
		return 0;
	n = reallocarray(ps->ranges, ps->n_ranges + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	ps->ranges = n;
	n[ps->n_ranges++] = (struct range){ a, b };
	return 0;
}

const char *fatbin_compression_name(enum fatbin_compression c)
{
	switch (c) {
	case FATBIN_COMPRESS_NONE:
		return "none";
	case FATBIN_COMPRESS_LZ4:
		return "lz4";
	case FATBIN_COMPRESS_ZSTD:
		return "zstd";
	default:
		return "unknown";
	}
}

const char *fatbin_kind_name(enum fatbin_kind k)
{
	switch (k) {
	case FATBIN_KIND_PTX:
		return "ptx";
	case FATBIN_KIND_ELF:
		return "sass";
	case FATBIN_KIND_OLDCUBIN:
		return "old-cubin";
	case FATBIN_KIND_LTO:
		return "lto-ir";
	default:
		return "unknown";
	}
}

const char *fatbin_file_type_name(enum fatbin_file_type t)
{
	switch (t) {
	case FATBIN_FILE_HOST_ELF:
		return "elf";
	case FATBIN_FILE_FATBIN:
		return "fatbin";
	case FATBIN_FILE_CUBIN:
		return "cubin";
	case FATBIN_FILE_PTX:
		return "ptx";
	case FATBIN_FILE_OFFLOAD_BUNDLE:
		return "offload-bundle";
	case FATBIN_FILE_AMDGPU_ELF:
		return "amdgpu-elf";
	default:
		return "unknown";
	}
}

int fatbin_set_warning(struct fatbin_result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->warning)
		return 0; /* keep the first */
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->warning = s;
	return 0;
}

int fatbin_push_entry(struct fatbin_result *r, struct fatbin_entry **ret)
{
	struct fatbin_entry *n;

	if (r->n_entries + r->n_handed >= FATBIN_MAX_ENTRIES)
		return -E2BIG;
	/* capacity: 8, then doubled (files with 20 000+ entries exist) */
	if (r->n_entries >= r->cap_entries) {
		size_t cap = r->cap_entries ? r->cap_entries * 2 : 8;

		n = reallocarray(r->entries, cap, sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->entries = n;
		r->cap_entries = cap;
	}
	*ret = &r->entries[r->n_entries++];
	memset(*ret, 0, sizeof(**ret));
	(*ret)->ptx_major = (*ret)->ptx_minor = (*ret)->cubin_sm = (*ret)->has_kernels = -1;
	return 0;
}

void fatbin_truncate_entries(struct fatbin_result *r, size_t keep)
{
	for (size_t i = keep; i < r->n_entries; i++) {
		free(r->entries[i].ident);
		free(r->entries[i].options);
	}
	if (keep < r->n_entries)
		r->n_entries = keep;
}

/* Appends the decimal digits of v at p; returns the end. */
static char *put_uint(char *p, unsigned v)
{
	char d[10];
	size_t n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

void fatbin_entry_fill_target(struct fatbin_entry *e)
{
	const char *pfx = e->kind == FATBIN_KIND_PTX ? "compute_"
			  : e->kind == FATBIN_KIND_ELF || e->kind == FATBIN_KIND_OLDCUBIN ? "sm_"
			  : e->kind == FATBIN_KIND_LTO					  ? "lto_"
											  : "kind";
	char *p = e->target;

	/* what snprintf("%s%u%s") wrote, without its cost at 5 000+ entries a file: at most
	 * "compute_" + 5 digits + 1 (or "kind" + 5 + "_" + 5) < sizeof(target) */
	_Static_assert(sizeof(e->target) >= 16, "target holds the longest name");
	p = stpcpy(p, pfx);
	if (e->kind == FATBIN_KIND_UNKNOWN) {
		p = put_uint(p, e->raw_kind & 0xffff);
		*p++ = '_';
	}
	p = put_uint(p, e->arch % 100000);
	if (e->kind != FATBIN_KIND_UNKNOWN && e->variant)
		*p++ = e->variant;
	/* zero to the end: equal names compare equal as whole arrays (scan's target_index) */
	memset(p, 0, sizeof(e->target) - (size_t)(p - e->target));
}

/* A string stored inside the entry header at [off, off+len): copied (capped), trailing
 * NULs and blanks dropped; NULL when empty or out of range. */
static int header_string(const uint8_t *e, uint32_t hsz, uint32_t off, uint32_t len, char **ret)
{
	char *s;
	size_t n;

	*ret = NULL;
	if (off == 0 || len == 0 || !fatbin_range_ok(hsz, off, len))
		return 0;
	n = MIN((size_t)len, (size_t)FATBIN_MAX_STRING);
	while (n > 0 && (e[off + n - 1] == 0 || e[off + n - 1] == ' '))
		n--;
	if (n == 0)
		return 0;
	s = malloc(n + 1);
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = e[off + i];
		s[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	s[n] = '\0';
	*ret = s;
	return 0;
}

int fatbin_entry_decode(struct fatbin_entry *x, const uint8_t *e, uint32_t hsz, uint64_t psz,
			bool strings)
{
	uint32_t csize, optoff;
	int rv;

	x->raw_kind = fatbin_rd16(e);
	switch (x->raw_kind) {
	case FATBIN_KIND_PTX:
	case FATBIN_KIND_ELF:
	case FATBIN_KIND_OLDCUBIN:
	case FATBIN_KIND_LTO:
		x->kind = (enum fatbin_kind)x->raw_kind;
		break;
	default:
		x->kind = FATBIN_KIND_UNKNOWN;
	}
	x->header_size = hsz;
	x->stored_size = psz;
	x->ver_minor = fatbin_rd16(e + 0x18);
	x->ver_major = fatbin_rd16(e + 0x1a);
	x->arch = fatbin_rd32(e + 0x1c);
	x->flags = fatbin_rd64(e + 0x28);
	x->is64 = x->flags & FLAG_64BIT;
	x->debug = x->flags & FLAG_DEBUG;
	x->variant = (x->flags & FLAG_ARCH_A) ? 'a' : (x->flags & FLAG_ARCH_F) ? 'f' : 0;
	if (x->flags & FLAG_ZSTD)
		x->compression = FATBIN_COMPRESS_ZSTD;
	else if (x->flags & FLAG_LZ4)
		x->compression = FATBIN_COMPRESS_LZ4;
	else if (x->flags & FLAG_COMPRESS_OLD)
		x->compression = FATBIN_COMPRESS_OTHER;
	csize = fatbin_rd32(e + 0x10);
	if (x->compression) {
		if (csize > psz)
			return -EBADMSG;
		x->compressed_size = csize;
		x->uncompressed_size = fatbin_rd64(e + 0x38);
	} else {
		x->uncompressed_size = psz;
	}
	if (x->kind == FATBIN_KIND_PTX && x->ver_major > 0) {
		x->ptx_major = (int)x->ver_major;
		x->ptx_minor = (int)x->ver_minor;
	}
	fatbin_entry_fill_target(x);
	if (!strings)
		return 0;
	/* identifier (0x20/0x24) and options descriptor (0x14 → {u32 off, u32 len}) */
	rv = header_string(e, hsz, fatbin_rd32(e + 0x20), fatbin_rd32(e + 0x24), &x->ident);
	if (rv < 0)
		return rv;
	optoff = fatbin_rd32(e + 0x14);
	if (optoff >= 0x40 && fatbin_range_ok(hsz, optoff, 8)) {
		rv = header_string(e, hsz, fatbin_rd32(e + optoff), fatbin_rd32(e + optoff + 4),
				   &x->options);
		if (rv < 0)
			return rv;
	}
	return 0;
}

/* Decompresses at most `want` bytes of the head of the payload at [off, off + slen) into buf.
 * Returns bytes, -EBADMSG, or a view() error (-EIO …). */
static ssize_t head_decompress(struct parse *ps, enum fatbin_compression c, uint64_t off,
			       size_t slen, uint8_t *buf, size_t want)
{
	if (want == 0 || slen == 0)
		return 0;
	if (c == FATBIN_COMPRESS_LZ4) {
		const uint8_t *src;
		int n;

		if (slen > INT32_MAX)
			slen = INT32_MAX;
		/* a partial decode of `want` bytes reads at most want + want/255 + 16 of input (all
		 * literals): through read(), fetch no more than that (with room to spare) */
		if (ps->read)
			slen = MIN(slen, 2 * want + 1024);
		src = view(ps, off, slen);
		if (!src)
			return view_error(ps, off);
		n = LZ4_decompress_safe_partial((const char *)src, (char *)buf, (int)slen,
						(int)want, (int)want);
		return n < 0 ? -EBADMSG : n;
	}
	if (c == FATBIN_COMPRESS_ZSTD) {
		ZSTD_outBuffer out = { buf, want, 0 };
		size_t done = 0;
		bool ended = false;
		if (!ps->zds) {
			ps->zds = ZSTD_createDStream();
			if (!ps->zds)
				return -ENOMEM;
		}
		if (ZSTD_isError(ZSTD_DCtx_reset(ps->zds, ZSTD_reset_session_only)))
			return -EBADMSG;
		/* in chunks through read() (a zstd block is decoded once all of it came in) */
		while (!ended && out.pos < out.size && done < slen) {
			size_t chunk =
				ps->read ? MIN(slen - done, (size_t)HEAD_IN_CHUNK) : slen - done;
			const uint8_t *src = view(ps, off + done, chunk);
			ZSTD_inBuffer in = { src, chunk, 0 };

			if (!src)
				return view_error(ps, off + done);
			if (done == 0 && !fatbin_zstd_frame_ok(src, chunk))
				return -EBADMSG;
			while (out.pos < out.size && in.pos < in.size) {
				size_t z = ZSTD_decompressStream(ps->zds, &out, &in);

				if (ZSTD_isError(z))
					return out.pos ? (ssize_t)out.pos : -EBADMSG;
				if (z == 0) {
					ended = true; /* the frame ended */
					break;
				}
			}
			done += in.pos;
		}
		return (ssize_t)out.pos;
	}
	return -EOPNOTSUPP;
}

/* cubin SM from e_flags: ABI >= 8 → bits 8-15; older → low byte (fatbin.md §9.2). ELF32 and
 * ELF64 (e_flags at 36 / 48). -1 if not a little-endian CUDA ELF. */
static int cubin_sm_from_header(const uint8_t *p, size_t len, bool *ret_accel_v1)
{
	uint32_t fl;

	if (len < 52 || memcmp(p, "\177ELF", 4) != 0 || p[5] != 1)
		return -1;
	if (fatbin_rd16(p + 18) != EM_CUDA_)
		return -1;
	if (p[4] == 2 && len >= 64)
		fl = fatbin_rd32(p + 48);
	else if (p[4] == 1)
		fl = fatbin_rd32(p + 36);
	else
		return -1;
	if (ret_accel_v1)
		*ret_accel_v1 = p[8] < 8 && (fl & 0x800);
	return p[8] >= 8 ? (int)((fl >> 8) & 0xff) : (int)(fl & 0xff);
}

/* Reads the head of the payload at offset pl. 0, or a view() error (-EIO, -ENOMEM). */
static int read_payload_head(struct parse *ps, struct fatbin_entry *x, uint64_t pl)
{
	uint8_t head[FATBIN_PTX_HEAD];
	size_t plen = x->compression ? x->compressed_size : x->stored_size;
	size_t want = x->kind == FATBIN_KIND_PTX ? sizeof(head) : 64;
	size_t hl = 0;

	if (x->compression == FATBIN_COMPRESS_NONE) {
		const uint8_t *src;

		hl = MIN(plen, want);
		src = view(ps, pl, hl);
		if (!src)
			return view_error(ps, pl);
		memcpy(head, src, hl);
	} else if (x->compression != FATBIN_COMPRESS_OTHER) {
		ssize_t n = head_decompress(ps, x->compression, pl, plen, head,
					    MIN(want, x->uncompressed_size));
		if (n < 0 && ps->io_err)
			return (int)n;
		if (n > 0)
			hl = (size_t)n;
	}
	if (x->kind == FATBIN_KIND_PTX) {
		struct fatbin_ptx_header h;

		if (fatbin_ptx_header((const char *)head, hl, &h) == 0) {
			x->ptx_major = h.isa_major;
			x->ptx_minor = h.isa_minor;
			x->ptx_from_text = true;
			snprintf(x->ptx_target, sizeof(x->ptx_target), "%s", h.target);
		}
	} else {
		x->cubin_sm = cubin_sm_from_header(head, hl, NULL);
	}
	return 0;
}

/*
 * Walks the containers in region [off, off + rlen) of the buffer. strict: the region must
 * hold only containers and zero padding (a .nv_fatbin section); otherwise stop at the first
 * container that fails validation and return how far it got through *ret_end (search).
 * max_containers bounds how many are walked (1 for wrapper targets).
 */
static int walk_containers(struct parse *ps, size_t off, size_t rlen, bool strict,
			   enum fatbin_origin origin, size_t max_containers, size_t *ret_end)
{
	struct fatbin_result *r = ps->r;
	size_t pos = 0, walked = 0;
	int rv;

	if (!fatbin_range_ok(ps->len, off, rlen))
		return -EBADMSG;
	while (walked < max_containers && fatbin_range_ok(rlen, pos, 16)) {
		size_t keep = r->n_entries, end, e;
		uint64_t fsz;
		const char *why = NULL;
		const uint8_t *h = view(ps, off + pos, 16);

		if (!h)
			return view_error(ps, off + pos);
		if (fatbin_rd64(h) == 0) {
			if (!strict)
				break;
			pos += 8;
			continue;
		}
		if (fatbin_rd32(h) != FATBIN_MAGIC || fatbin_rd16(h + 4) != 1 ||
		    fatbin_rd16(h + 6) != 16) {
			if (strict) {
				fatbin_set_warning(r, "offset 0x%zx: not a fatbin container header",
						   off + pos);
				return -EBADMSG;
			}
			break;
		}
		if (r->n_containers >= FATBIN_MAX_CONTAINERS)
			return -E2BIG;
		fsz = fatbin_rd64(h + 8);
		if (!fatbin_range_ok(rlen, pos + 16, fsz)) {
			why = "container size past the end of its region";
			goto bad;
		}
		end = pos + 16 + fsz;
		e = pos + 16;
		while (e < end) {
			uint32_t hsz;
			uint64_t psz;
			struct fatbin_entry *x;
			const uint8_t *eh;

			if (!fatbin_range_ok(end, e, 64)) {
				why = "entry header truncated";
				goto bad;
			}
			eh = view(ps, off + e, 64);
			if (!eh)
				return view_error(ps, off + e);
			if (!fatbin_entry_header_ok(eh)) {
				why = "bad entry header";
				goto bad;
			}
			hsz = fatbin_rd32(eh + 4);
			psz = fatbin_rd64(eh + 8);
			if (!fatbin_range_ok(end, e, hsz) || !fatbin_range_ok(end, e + hsz, psz)) {
				why = "entry past the end of its container";
				goto bad;
			}
			eh = view(ps, off + e, hsz);
			if (!eh)
				return view_error(ps, off + e);
			rv = fatbin_push_entry(r, &x);
			if (rv < 0)
				return rv;
			rv = fatbin_entry_decode(x, eh, hsz, psz, ps->flags & FATBIN_PARSE_STRINGS);
			if (rv == -ENOMEM)
				return rv;
			if (rv < 0) {
				why = "compressed size larger than the payload";
				goto bad;
			}
			x->container = (unsigned)r->n_containers;
			x->origin = origin;
			x->offset = off + e;
			if (x->kind == FATBIN_KIND_ELF && x->compression == FATBIN_COMPRESS_NONE &&
			    psz <= FATBIN_KERNEL_CHECK_MAX) {
				rv = cubin_has_text(ps, off + e + hsz, psz, &x->has_kernels);
				if (rv < 0)
					return rv;
			}
			if ((x->kind == FATBIN_KIND_PTX &&
			     ((ps->flags & FATBIN_PARSE_PAYLOAD_HEADS) || x->ptx_major < 0)) ||
			    (x->kind == FATBIN_KIND_ELF &&
			     (ps->flags & FATBIN_PARSE_PAYLOAD_HEADS))) {
				rv = read_payload_head(ps, x, off + e + hsz);
				if (rv < 0)
					return rv;
			}
			e += hsz + psz;
		}
		r->n_containers++;
		walked++;
		pos = end;
		if (ps->on_container) {
			rv = ps->on_container(ps->userdata, r->entries ? r->entries + keep : NULL,
					      r->n_entries - keep);
			r->n_handed += r->n_entries - keep;
			fatbin_truncate_entries(r, keep);
			if (rv < 0)
				return rv;
		}
		continue;
	bad:
		fatbin_truncate_entries(r, keep);
		if (strict) {
			fatbin_set_warning(r, "container at offset 0x%zx: %s", off + pos, why);
			return -EBADMSG;
		}
		break;
	}
	if (ret_end)
		*ret_end = pos;
	return 0;
}

/* Does the uncompressed 64-bit cubin at [at, at + len) have a .text.<kernel> section? nvcc's
 * device-link step adds one kernel-less ELF per SASS arch (fatbin.md §2); they must not count as
 * a usable image. *ret = 1 yes, 0 no, -1 cannot tell. Reads only the ELF header, the section
 * header table and .shstrtab. Returns 0 or a view() error. */
static int cubin_has_text(struct parse *ps, uint64_t at, uint64_t len, int *ret)
{
	uint64_t shoff, shsz, stroff, strsz, lo, hi;
	unsigned shentsize, shnum, shstrndx;
	const uint8_t *p, *w;

	*ret = -1;
	if (len < 64)
		return 0;
	p = view(ps, at, 64);
	if (!p)
		return view_error(ps, at);
	if (memcmp(p, "\177ELF", 4) != 0 || p[4] != 2 || p[5] != 1 ||
	    fatbin_rd16(p + 18) != EM_CUDA_)
		return 0;
	shoff = fatbin_rd64(p + 0x28);
	shentsize = fatbin_rd16(p + 0x3a);
	shnum = fatbin_rd16(p + 0x3c);
	shstrndx = fatbin_rd16(p + 0x3e);
	shsz = (uint64_t)shnum * shentsize;
	if (shentsize < 64 || shnum == 0 || shstrndx >= shnum || !fatbin_range_ok(len, shoff, shsz))
		return 0;
	p = view(ps, at + shoff, shsz);
	if (!p)
		return view_error(ps, at + shoff);
	stroff = fatbin_rd64(p + (uint64_t)shstrndx * shentsize + 0x18);
	strsz = fatbin_rd64(p + (uint64_t)shstrndx * shentsize + 0x20);
	if (!fatbin_range_ok(len, stroff, strsz))
		return 0;
	/* one view over both tables (len is at most FATBIN_KERNEL_CHECK_MAX) */
	lo = MIN(shoff, stroff);
	hi = MAX(shoff + shsz, stroff + strsz);
	w = view(ps, at + lo, hi - lo);
	if (!w)
		return view_error(ps, at + lo);
	p = w + (shoff - lo);
	for (unsigned i = 0; i < shnum; i++) {
		uint32_t name = fatbin_rd32(p + (uint64_t)i * shentsize);
		const uint8_t *n = w + (stroff - lo) + name;

		if (name < strsz && strsz - name >= 7 && memcmp(n, ".text.", 6) == 0 && n[6] != 0) {
			*ret = 1;
			return 0;
		}
	}
	*ret = 0;
	return 0;
}

/* ---- ELF ------------------------------------------------------------------------- */

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, off, size;
	bool walked;
};

static int elf_sections(Elf *elf, size_t len, struct sec **ret, size_t *ret_n)
{
	_cleanup_free_ struct sec *v = NULL;
	size_t shstrndx, shnum, n = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) < 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0)
		return -EBADMSG;
	if (shnum > FATBIN_MAX_SECTIONS || shnum < eh.e_shnum)
		return -EBADMSG;
	if (shnum > 0 &&
	    (eh.e_shentsize < (eh.e_ident[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr)
								  : sizeof(Elf32_Shdr)) ||
	     !fatbin_range_ok(len, eh.e_shoff, (uint64_t)shnum * eh.e_shentsize)))
		return -EBADMSG;
	v = calloc(shnum ? shnum : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	while ((scn = elf_nextscn(elf, scn)) && n < shnum) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EBADMSG;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		v[n++] = (struct sec){ .name = name ? name : "",
				       .type = sh.sh_type,
				       .flags = sh.sh_flags,
				       .addr = sh.sh_addr,
				       .off = sh.sh_offset,
				       .size = sh.sh_size };
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

static bool sec_has_data(const struct sec *s, size_t len)
{
	return s->type != SHT_NOBITS && s->size > 0 && fatbin_range_ok(len, s->off, s->size);
}

static int add_elsewhere(struct fatbin_result *r, const char *name)
{
	size_t l = r->elsewhere_sections ? strlen(r->elsewhere_sections) : 0;
	char *n;

	if (r->elsewhere_sections) {
		/* already listed? */
		const char *s = r->elsewhere_sections;
		size_t nl = strlen(name);

		while (s && *s) {
			const char *c = strchr(s, ',');
			size_t w = c ? (size_t)(c - s) : strlen(s);

			if (w == nl && strncmp(s, name, nl) == 0)
				return 0;
			s = c ? c + 1 : NULL;
		}
		if (l > 1024)
			return 0;
	}
	n = realloc(r->elsewhere_sections, l + strlen(name) + 2);
	if (!n)
		return -ENOMEM;
	if (l)
		n[l++] = ',';
	strcpy(n + l, name);
	r->elsewhere_sections = n;
	return 0;
}

/* Cubin-only details (§9.3): `a` from .nv.compat attribute 0x09, `f` (and `a`) from the
 * "-arch sm_XYz" option in .note.nv.tkinfo. */
static char cubin_variant(struct parse *ps, const struct sec *secs, size_t n)
{
	char v = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sec *s = &secs[i];
		const uint8_t *d;

		if (!sec_has_data(s, ps->len))
			continue;
		d = ps->base + s->off;
		if (s->type == SHT_NV_COMPAT) {
			size_t pos = 0;
			for (unsigned k = 0; k < 64 && fatbin_range_ok(s->size, pos, 2); k++) {
				uint8_t fmt = d[pos], attr = d[pos + 1];

				if (fmt == 2 || fmt == 3) {
					if (!fatbin_range_ok(s->size, pos + 2, 2))
						break;
					if (attr == 0x09 && d[pos + 2] == 1)
						v = 'a';
					pos += 4;
				} else if (fmt == 4) {
					if (!fatbin_range_ok(s->size, pos + 2, 2))
						break;
					pos += 4 + fatbin_rd16(d + pos + 2);
				} else {
					break;
				}
			}
		} else if (s->type == SHT_NOTE && streq(s->name, ".note.nv.tkinfo")) {
			size_t lim = MIN(s->size, (uint64_t)4096);
			for (size_t j = 0; j + 9 < lim; j++) {
				size_t k;

				if (memcmp(d + j, "-arch sm_", 9) != 0)
					continue;
				for (k = j + 9; k < lim && d[k] >= '0' && d[k] <= '9'; k++)
					;
				if (k < lim && k > j + 9 && (d[k] == 'a' || d[k] == 'f'))
					v = (char)d[k];
				break;
			}
		}
	}
	return v;
}

static int scan_cubin(struct parse *ps, Elf *elf)
{
	_cleanup_free_ struct sec *secs = NULL;
	struct fatbin_entry *x;
	size_t n = 0;
	bool accel_v1 = false;
	int sm = cubin_sm_from_header(ps->base, ps->len, &accel_v1);
	int rv;

	if (sm < 0)
		return -EBADMSG;
	rv = elf_sections(elf, ps->len, &secs, &n);
	if (rv < 0)
		return rv;
	rv = fatbin_push_entry(ps->r, &x);
	if (rv < 0)
		return rv;
	ps->r->type = FATBIN_FILE_CUBIN;
	x->kind = x->raw_kind = FATBIN_KIND_ELF;
	x->arch = (unsigned)sm;
	x->cubin_sm = sm;
	x->is64 = ps->base[4] == 2;
	x->stored_size = x->uncompressed_size = ps->len;
	x->ver_major = 1;
	x->ver_minor = ps->base[8];
	x->origin = FATBIN_ORIGIN_FILE;
	x->variant = cubin_variant(ps, secs, n);
	if (!x->variant && accel_v1)
		x->variant = 'a';
	fatbin_entry_fill_target(x);
	return 0;
}

/* AMDGPU code object: EF_AMDGPU_MACH values (LLVM AMDGPUUsage "AMDGPU EF_AMDGPU_MACH
 * Values", llvm/include/llvm/BinaryFormat/ELF.h). */
static const struct {
	uint8_t mach;
	const char *gfx;
} amdgpu_mach[] = {
	{ 0x20, "gfx600" },  { 0x21, "gfx601" },  { 0x22, "gfx700" },  { 0x23, "gfx701" },
	{ 0x24, "gfx702" },  { 0x25, "gfx703" },  { 0x26, "gfx704" },  { 0x28, "gfx801" },
	{ 0x29, "gfx802" },  { 0x2a, "gfx803" },  { 0x2b, "gfx810" },  { 0x2c, "gfx900" },
	{ 0x2d, "gfx902" },  { 0x2e, "gfx904" },  { 0x2f, "gfx906" },  { 0x30, "gfx908" },
	{ 0x31, "gfx909" },  { 0x32, "gfx90c" },  { 0x33, "gfx1010" }, { 0x34, "gfx1011" },
	{ 0x35, "gfx1012" }, { 0x36, "gfx1030" }, { 0x37, "gfx1031" }, { 0x38, "gfx1032" },
	{ 0x39, "gfx1033" }, { 0x3a, "gfx602" },  { 0x3b, "gfx705" },  { 0x3c, "gfx805" },
	{ 0x3d, "gfx1035" }, { 0x3e, "gfx1034" }, { 0x3f, "gfx90a" },  { 0x40, "gfx940" },
	{ 0x41, "gfx1100" }, { 0x42, "gfx1013" }, { 0x43, "gfx1150" }, { 0x44, "gfx1103" },
	{ 0x45, "gfx1036" }, { 0x46, "gfx1101" }, { 0x47, "gfx1102" }, { 0x48, "gfx1200" },
	{ 0x4a, "gfx1151" }, { 0x4b, "gfx941" },  { 0x4c, "gfx942" },  { 0x4e, "gfx1201" },
	{ 0x4f, "gfx950" },
};

static int scan_amdgpu(struct parse *ps)
{
	struct fatbin_result *r = ps->r;
	struct fatbin_bundle_entry *b;
	uint32_t fl;
	const char *gfx = NULL;

	if (ps->len < 64 || ps->base[4] != 2)
		return -EBADMSG;
	fl = fatbin_rd32(ps->base + 48);
	r->type = FATBIN_FILE_AMDGPU_ELF;
	r->amdgpu_mach = fl & 0xff;
	for (size_t i = 0; i < ARRAY_SIZE(amdgpu_mach); i++)
		if (amdgpu_mach[i].mach == (fl & 0xff))
			gfx = amdgpu_mach[i].gfx;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	r->bundle_entries = b;
	r->n_bundle_entries = 1;
	b->size = ps->len;
	b->xnack = b->sramecc = -1;
	snprintf(b->kind, sizeof(b->kind), "code-object");
	snprintf(b->triple, sizeof(b->triple), "amdgcn-amd-amdhsa");
	if (gfx)
		snprintf(b->gfx, sizeof(b->gfx), "%s", gfx);
	else
		snprintf(b->gfx, sizeof(b->gfx), "mach0x%02x", fl & 0xff);
	/* code object v4+ (EI_ABIVERSION >= 2): xnack 0x300, sramecc 0xc00 */
	if (ps->base[8] >= 2) {
		static const int tri[4] = { -2, -1, 0, 1 }; /* unsupported, any, off, on */
		int xn = tri[(fl >> 8) & 3], sr = tri[(fl >> 10) & 3];

		b->xnack = xn == -2 ? -1 : xn;
		b->sramecc = sr == -2 ? -1 : sr;
	}
	snprintf(b->target, sizeof(b->target), "%s%s%s", b->gfx,
		 b->sramecc == 1   ? ":sramecc+"
		 : b->sramecc == 0 ? ":sramecc-"
				   : "",
		 b->xnack == 1	 ? ":xnack+"
		 : b->xnack == 0 ? ":xnack-"
				 : "");
	return 0;
}

/* A __fatBinC_Wrapper_t at q (§2: magic, version, then the container's address, 64- or
 * 32-bit): true with *ret_addr set when the magic is there. */
static bool wrapper_at(const uint8_t *q, bool is64, uint64_t *ret_addr)
{
	if (fatbin_rd32(q) != FATBINC_MAGIC)
		return false;
	*ret_addr = is64 ? fatbin_rd64(q + 8) : fatbin_rd32(q + 8);
	return true;
}

/* Follows .nvFatBinSegment wrappers (§2) whose data pointer lands outside the sections
 * already walked: counts wrappers, and walks one container at each new place. */
static int follow_wrappers(struct parse *ps, struct sec *secs, size_t n, const struct sec *seg,
			   bool is64)
{
	struct fatbin_result *r = ps->r;
	size_t wsz = is64 ? 24 : 16, hit = 0;
	const uint8_t *d = ps->base + seg->off;

	for (size_t w = 0; fatbin_range_ok(seg->size, w * wsz, wsz); w++) {
		const uint8_t *q = d + w * wsz;
		uint64_t addr;
		int rv;

		if (!wrapper_at(q, is64, &addr))
			continue;
		r->n_wrappers++;
		if (fatbin_rd32(q + 4) == 2)
			r->n_wrappers_v2++;
		if (addr == 0)
			continue; /* a .o: the pointer is a relocation */
		/* from the section the last wrapper pointed into (2 782 wrappers in libcublasLt,
		 * all into .nv_fatbin), then around */
		for (size_t k = 0; k < n; k++) {
			size_t i = (hit + k) % n;
			struct sec *s = &secs[i];
			size_t at;

			if (!(s->flags & SHF_ALLOC) || !sec_has_data(s, ps->len) ||
			    addr < s->addr || addr - s->addr >= s->size)
				continue;
			hit = i;
			if (s->walked)
				break;
			at = (size_t)(s->off + (addr - s->addr));
			if (range_find(ps, at))
				break; /* another wrapper's container */
			{
				size_t before = r->n_containers,
				       left = (size_t)(s->off + s->size - at);
				size_t got = 0;

				rv = walk_containers(ps, at, left, false, FATBIN_ORIGIN_WRAPPER, 1,
						     &got);
				if (rv == -ENOMEM || rv == -E2BIG)
					return rv;
				if (r->n_containers > before) {
					r->n_found_elsewhere++;
					rv = add_elsewhere(r, s->name);
					if (rv >= 0)
						rv = range_add(ps, at, at + got);
					if (rv < 0)
						return rv;
				}
			}
			break;
		}
	}
	return 0;
}

/* Searches a section for the container pattern (§1): hits that pass full validation are
 * walked (back-to-back runs included), everything else is skipped. */
static int search_section(struct parse *ps, const struct sec *s)
{
	struct fatbin_result *r = ps->r;
	const uint8_t *d = ps->base + s->off;
	size_t pos = 0;

	while (pos < s->size) {
		const uint8_t *hit = memmem(d + pos, s->size - pos, fatbin_container_pattern,
					    sizeof(fatbin_container_pattern));
		size_t at, got = 0, before = r->n_containers;
		int rv;

		const struct range *done;

		if (!hit)
			break;
		at = (size_t)(hit - d);
		done = range_find(ps, s->off + at);
		if (done) {
			pos = done->b - s->off;
			continue;
		}
		rv = walk_containers(ps, s->off + at, s->size - at, false, FATBIN_ORIGIN_SEARCH,
				     SIZE_MAX, &got);
		if (rv < 0)
			return rv;
		if (r->n_containers > before) {
			r->n_found_elsewhere += r->n_containers - before;
			rv = add_elsewhere(r, s->name);
			if (rv >= 0)
				rv = range_add(ps, s->off + at, s->off + at + got);
			if (rv < 0)
				return rv;
			pos = at + MAX(got, (size_t)1);
		} else {
			pos = at + 1;
		}
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* plan_window()'s map: the starts of the containers the .nvFatBinSegment wrappers (seg)
 * point to inside .nv_fatbin (fb), sorted and unique, then fb's end. Only where the walks read
 * through windows; a wrapper that points anywhere else only makes a read less apt. */
static int plan_starts(struct parse *ps, const struct sec *fb, const struct sec *seg, bool is64)
{
	size_t wsz = is64 ? 24 : 16, nw = seg->size / wsz, k = 0, u = 0;
	const uint8_t *d = ps->base + seg->off;
	uint64_t *st;

	if (nw == 0 || nw > FATBIN_MAX_CONTAINERS)
		return 0;
	st = malloc((nw + 1) * sizeof(*st));
	if (!st)
		return -ENOMEM;
	for (size_t w = 0; w < nw; w++) {
		uint64_t addr;

		if (wrapper_at(d + w * wsz, is64, &addr) && addr >= fb->addr &&
		    addr - fb->addr < fb->size)
			st[k++] = fb->off + (addr - fb->addr);
	}
	qsort(st, k, sizeof(*st), cmp_u64);
	for (size_t i = 0; i < k; i++)
		if (u == 0 || st[i] != st[u - 1])
			st[u++] = st[i];
	st[u++] = fb->off + fb->size;
	ps->starts = st;
	ps->n_starts = u;
	return 0;
}

static int scan_host_elf(struct parse *ps, Elf *elf)
{
	struct fatbin_result *r = ps->r;
	_cleanup_free_ struct sec *secs = NULL;
	const struct sec *seg = NULL;
	bool has_nv_fatbin = false;
	size_t n = 0;
	int rv;

	rv = elf_sections(elf, ps->len, &secs, &n);
	if (rv < 0)
		return rv;
	r->type = FATBIN_FILE_HOST_ELF;
	if (ps->read) {
		const struct sec *fb = NULL, *sg = NULL;

		for (size_t i = 0; i < n; i++) {
			if (streq(secs[i].name, ".nv_fatbin"))
				fb = &secs[i];
			else if (streq(secs[i].name, ".nvFatBinSegment"))
				sg = &secs[i];
		}
		if (fb && sg && sec_has_data(fb, ps->len) && sec_has_data(sg, ps->len)) {
			rv = plan_starts(ps, fb, sg, r->elf_class == 64);
			if (rv < 0)
				return rv;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct sec *s = &secs[i];

		if (s->type == SHT_NOBITS)
			continue;
		if (streq(s->name, ".nv_fatbin") || streq(s->name, "__nv_relfatbin")) {
			if (!fatbin_range_ok(ps->len, s->off, s->size))
				return -EBADMSG;
			has_nv_fatbin |= streq(s->name, ".nv_fatbin");
			s->walked = true;
			rv = walk_containers(ps, s->off, s->size, true, FATBIN_ORIGIN_SECTION,
					     SIZE_MAX, NULL);
			if (rv < 0)
				return rv;
		} else if (streq(s->name, ".nvFatBinSegment")) {
			if (!fatbin_range_ok(ps->len, s->off, s->size))
				return -EBADMSG;
			seg = s;
		} else if (streq(s->name, "__nv_module_id") && !r->module_id && s->size > 0) {
			size_t l;

			if (!fatbin_range_ok(ps->len, s->off, s->size))
				return -EBADMSG;
			l = strnlen((const char *)ps->base + s->off,
				    MIN(s->size, (uint64_t)FATBIN_MAX_STRING));
			r->module_id = strndup((const char *)ps->base + s->off, l);
			if (!r->module_id)
				return -ENOMEM;
		} else if (streq(s->name, ".hip_fatbin")) {
			size_t pos = 0;

			if (!fatbin_range_ok(ps->len, s->off, s->size))
				return -EBADMSG;
			s->walked = true;
			/* one or more bundles, each aligned (4096 in clang's output) */
			while (pos < s->size && r->n_bundles < FATBIN_MAX_BUNDLE_ENTRIES) {
				size_t used = 0;
				const uint8_t *b = ps->base + s->off + pos;
				size_t left = s->size - pos;

				if (left < 24 || (memcmp(b, "__CLANG_OFFLOAD_BUNDLE__", 24) != 0 &&
						  memcmp(b, "CCOB", 4) != 0)) {
					pos += 8;
					continue;
				}
				rv = fatbin_bundle_parse(r, b, left, &used);
				if (rv == -ENOMEM)
					return rv;
				if (rv < 0) {
					fatbin_set_warning(r,
							   ".hip_fatbin: malformed bundle at 0x%zx",
							   (size_t)(s->off + pos));
					break;
				}
				if (used == 0)
					break;
				pos += (used + 7) & ~(size_t)7;
			}
		}
	}
	if (seg) {
		rv = follow_wrappers(ps, secs, n, seg, r->elf_class == 64);
		if (rv < 0)
			return rv;
	}
	/* Hand-registered images (.nv_fatbin without .nvFatBinSegment, e.g. libcufft) or
	 * asked for: search the other data sections. */
	if ((ps->flags & FATBIN_PARSE_SEARCH_ALL) || (has_nv_fatbin && !seg)) {
		r->searched = true;
		for (size_t i = 0; i < n; i++) {
			struct sec *s = &secs[i];

			if (s->walked || s->type != SHT_PROGBITS || (s->flags & SHF_EXECINSTR) ||
			    !sec_has_data(s, ps->len))
				continue;
			rv = search_section(ps, s);
			if (rv < 0)
				return rv;
		}
	}
	return 0;
}

static int scan_elf(struct parse *ps)
{
	Elf *elf;
	GElf_Ehdr eh;
	int rv;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	if (ps->len < EI_NIDENT ||
	    (ps->base[EI_CLASS] != ELFCLASS64 && ps->base[EI_CLASS] != ELFCLASS32))
		return -EBADMSG;
	elf = elf_memory((char *)(uintptr_t)ps->base, ps->len);
	if (!elf)
		return -EBADMSG;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		rv = -EBADMSG;
		goto out;
	}
	ps->r->is_elf = true;
	ps->r->elf_class = ps->base[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	if (eh.e_machine == EM_CUDA_)
		rv = scan_cubin(ps, elf);
	else if (eh.e_machine == EM_AMDGPU_)
		rv = scan_amdgpu(ps);
	else
		rv = scan_host_elf(ps, elf);
out:
	elf_end(elf);
	return rv;
}

static int scan_ptx_file(struct parse *ps)
{
	struct fatbin_ptx_header h;
	struct fatbin_entry *x;
	int rv = fatbin_ptx_header((const char *)ps->base, ps->len, &h);

	if (rv < 0)
		return rv;
	rv = fatbin_push_entry(ps->r, &x);
	if (rv < 0)
		return rv;
	ps->r->type = FATBIN_FILE_PTX;
	x->kind = x->raw_kind = FATBIN_KIND_PTX;
	x->arch = h.target_arch;
	x->variant = h.target_variant;
	x->is64 = h.address_size != 32;
	x->ptx_major = h.isa_major;
	x->ptx_minor = h.isa_minor;
	x->ver_major = (unsigned)h.isa_major;
	x->ver_minor = (unsigned)h.isa_minor;
	x->ptx_from_text = true;
	x->stored_size = x->uncompressed_size = ps->len;
	snprintf(x->ptx_target, sizeof(x->ptx_target), "%s", h.target);
	fatbin_entry_fill_target(x);
	return 0;
}

static bool looks_like_ptx(const uint8_t *p, size_t len)
{
	struct fatbin_ptx_header h;

	/* text only: no NUL in the first bytes */
	if (len == 0 || memchr(p, 0, MIN(len, (size_t)512)))
		return false;
	return fatbin_ptx_header((const char *)p, MIN(len, (size_t)FATBIN_PTX_HEAD), &h) == 0;
}

bool fatbin_looks_parsable(const uint8_t *p, size_t len)
{
	if (!p)
		return false;
	if (len >= 4 && memcmp(p, "\177ELF", 4) == 0)
		return true;
	if (len >= 16 && fatbin_rd32(p) == FATBIN_MAGIC)
		return true;
	if (len >= 24 && memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0)
		return true;
	if (len >= 4 && memcmp(p, "CCOB", 4) == 0)
		return true;
	return looks_like_ptx(p, len);
}

int fatbin_parse_input(const struct fatbin_input *in, unsigned flags, struct fatbin_result **ret,
		       char **why)
{
	_cleanup_(fatbin_result_freep) struct fatbin_result *r = NULL;
	struct parse ps;
	const uint8_t *p;
	size_t len;
	int rv;

	if (!in || !in->data || !ret)
		return -EINVAL;
	p = in->data;
	len = in->len;
	ps = (struct parse){ .base = p,
			     .len = len,
			     .flags = flags,
			     .read = in->read,
			     .userdata = in->userdata,
			     .on_container = in->on_container };
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	ps.r = r;
	if (len >= 16 && fatbin_rd32(p) == FATBIN_MAGIC) {
		r->type = FATBIN_FILE_FATBIN;
		rv = walk_containers(&ps, 0, len, true, FATBIN_ORIGIN_FILE, SIZE_MAX, NULL);
	} else if (len >= 4 && memcmp(p, "\177ELF", 4) == 0) {
		rv = scan_elf(&ps);
	} else if ((len >= 24 && memcmp(p, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0) ||
		   (len >= 4 && memcmp(p, "CCOB", 4) == 0)) {
		size_t used = 0;

		r->type = FATBIN_FILE_OFFLOAD_BUNDLE;
		rv = fatbin_bundle_parse(r, p, len, &used);
	} else if (looks_like_ptx(p, len)) {
		rv = scan_ptx_file(&ps);
	} else {
		rv = -EBADMSG;
	}
	if (ps.zds)
		ZSTD_freeDStream(ps.zds);
	free(ps.ranges);
	free(ps.win);
	free(ps.starts);
	if (rv < 0) {
		if (why)
			*why = TAKE_PTR(r->warning);
		return rv;
	}
	*ret = TAKE_PTR(r);
	return 0;
}

int fatbin_parse(const uint8_t *p, size_t len, unsigned flags, struct fatbin_result **ret,
		 char **why)
{
	return fatbin_parse_input(&(struct fatbin_input){ .data = p, .len = len }, flags, ret, why);
}

int fatbin_scan_buffer(const uint8_t *p, size_t len, struct fatbin_result **ret)
{
	return fatbin_parse(p, len, FATBIN_PARSE_PAYLOAD_HEADS, ret, NULL);
}

struct fatbin_result *fatbin_result_free(struct fatbin_result *r)
{
	if (!r)
		return NULL;
	fatbin_truncate_entries(r, 0);
	free(r->entries);
	for (size_t i = 0; i < r->n_bundle_entries; i++)
		free(r->bundle_entries[i].id);
	free(r->bundle_entries);
	free(r->module_id);
	free(r->elsewhere_sections);
	free(r->warning);
	free(r);
	return NULL;
}
