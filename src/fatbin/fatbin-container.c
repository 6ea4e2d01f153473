// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The container walk: container headers, entry headers, and the head of each payload
 * (decompressed as far as its ELF header) (fatbin-internal.h, fatbin.c for the format).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin/fatbin-internal.h"
#include "shared/macro.h"

/* Decompresses at most `want` bytes of the head of the payload at [off, off + slen) into buf.
 * Returns bytes, -EBADMSG, or a fb_view() error (-EIO …). */
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
		src = fb_view(ps, off, slen);
		if (!src)
			return fb_view_error(ps, off);
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
			const uint8_t *src = fb_view(ps, off + done, chunk);
			ZSTD_inBuffer in = { src, chunk, 0 };

			if (!src)
				return fb_view_error(ps, off + done);
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
int fb_cubin_sm_from_header(const uint8_t *p, size_t len, bool *ret_accel_v1)
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

/* An uncompressed LTO-IR payload starts with its NVVM IR container header: the magic
 * ed 43 4e 7f (the "LTO-IR magic" NVRTC's -dlto output starts with: numba-cuda's tests), then
 * the container's version, major and minor bytes, which nvJitLink checks and the entry
 * header repeats (docs/formats/fatbin.md §4). The payload's wins where they differ. 0, or a
 * fb_view() error. */
static int read_lto_container(struct parse *ps, struct fatbin_entry *x, uint64_t pl)
{
	const uint8_t *p = fb_view(ps, pl, 8);

	if (!p)
		return fb_view_error(ps, pl);
	if (fatbin_rd32(p) != LTOIR_CONTAINER_MAGIC || p[4] == 0)
		return 0;
	x->lto_major = p[4];
	x->lto_minor = p[5];
	x->lto_from_payload = true;
	return 0;
}

/* Reads the head of the payload at offset pl. 0, or a fb_view() error (-EIO, -ENOMEM). */
static int read_payload_head(struct parse *ps, struct fatbin_entry *x, uint64_t pl)
{
	uint8_t head[FATBIN_PTX_HEAD];
	size_t plen = x->compression ? x->compressed_size : x->stored_size;
	size_t want = x->kind == FATBIN_KIND_PTX ? sizeof(head) : 64;
	size_t hl = 0;

	if (x->compression == FATBIN_COMPRESS_NONE) {
		const uint8_t *src;

		hl = MIN(plen, want);
		src = fb_view(ps, pl, hl);
		if (!src)
			return fb_view_error(ps, pl);
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
		bool accel_v1 = false;

		x->cubin_sm = fb_cubin_sm_from_header(head, hl, &accel_v1);
		/* The entry's `a` flag (bit 20) on a cubin of ABI 7 or older: there the cubin's own
		 * EF_CUDA_ACCELERATORS (0x800) says whether it is arch-specific (fatbin.md §9.2;
		 * cuBLAS 11.8's sm_50/60/61 entries carry the flag without being so). */
		if (x->variant == 'a' && x->cubin_sm >= 0 && head[8] < 8 && !accel_v1) {
			x->variant = 0;
			fatbin_entry_fill_target(x);
		}
	}
	return 0;
}

/* Does the ELF entry's version say its cubin is of ELF ABI version 8 or later? The entry's
 * version 1.7 / 1.8 is the cubin's EI_ABIVERSION 7 / 8 (docs/formats/fatbin.md §9.1). There
 * the `a` flag of the entry stands whatever the cubin's e_flags say (read_payload_head()), so
 * its head need not be decompressed to learn it: libcublasLt.so.13 has 1,377 such entries,
 * each a zstd block of up to 128 KiB to decode. */
static bool entry_abi_v2(const struct fatbin_entry *x)
{
	return x->ver_major == 1 && x->ver_minor >= 8;
}

/* A payload compressed_has_text() judged before in this parse (its answer, and its bytes).
 * At worst (hostile input: many payloads of one size that differ late) PAYLOAD_MEMO_MAX
 * comparisons of at most FATBIN_LINK_IMAGE_MAX bytes, about what decompressing it costs. */
static const struct payload_memo *memo_find(const struct parse *ps, const struct fatbin_entry *x,
					    const uint8_t *src)
{
	for (size_t i = 0; i < ps->n_memo; i++) {
		const struct payload_memo *m = &ps->memo[i];

		if (m->compression == x->compression && m->csize == x->compressed_size &&
		    m->usize == x->uncompressed_size && memcmp(m->bytes, src, m->csize) == 0)
			return m;
	}
	return NULL;
}

/* The toolkit line of a decompressed cubin, kept for the scanner: where every cubin of a
 * library is compressed (cuBLAS), it is what tells which CUDA the bundled runtime is. */
static void keep_toolkit_line(struct fatbin_result *r, const uint8_t *p, size_t n)
{
	static const char key[] = "Cuda compilation tools, release ";
	const uint8_t *hit = memmem(p, n, key, sizeof(key) - 1);

	if (!hit)
		return;
	r->toolkit_line_len = MIN(n - (size_t)(hit - p), sizeof(r->toolkit_line));
	memcpy(r->toolkit_line, hit, r->toolkit_line_len);
}

/* Is the compressed cubin of entry x, payload at pl, a kernel-less device-link image? Only
 * small ones are decompressed (those images are ~1 KiB; nvcc --compress-mode=size/speed/…
 * with -compress-all compresses them too). A library repeats the same few payloads (one
 * device-link image per module and arch: libcublasLt.so.13 has 4,608 small compressed cubins
 * and 51 distinct payloads), and the same bytes decompress to the same cubin, so each
 * distinct payload is decompressed once (bench/bench-scan.sh). 0 or a read error. */
static int compressed_has_text(struct parse *ps, struct fatbin_entry *x, uint64_t pl)
{
	uint8_t buf[FATBIN_LINK_IMAGE_MAX];
	struct payload_memo *m = NULL;
	const struct payload_memo *seen;
	const uint8_t *src;
	ssize_t n;
	int rv;

	if (x->uncompressed_size < 64 || x->uncompressed_size > sizeof(buf) ||
	    x->compressed_size > sizeof(buf) || x->compression == FATBIN_COMPRESS_OTHER)
		return 0;
	src = fb_view(ps, pl, x->compressed_size);
	if (!src)
		return fb_view_error(ps, pl);
	seen = memo_find(ps, x, src);
	if (seen) {
		x->has_kernels = seen->has_kernels;
		return 0;
	}
	if (ps->n_memo < PAYLOAD_MEMO_MAX) {
		m = &ps->memo[ps->n_memo];
		m->bytes = malloc(x->compressed_size ?: 1);
		if (!m->bytes)
			return -ENOMEM;
		memcpy(m->bytes, src, x->compressed_size); /* src is only valid until fb_view() */
	}
	n = head_decompress(ps, x->compression, pl, x->compressed_size, buf,
			    (size_t)x->uncompressed_size);
	if (n < 0 && ps->io_err) {
		if (m)
			free(m->bytes);
		return (int)n;
	}
	rv = n != (ssize_t)x->uncompressed_size
		     ? 0 /* cannot tell: has_kernels stays -1 */
		     : fb_cubin_buf_has_text(buf, (size_t)n, &x->has_kernels);
	if (n > 0 && ps->r->toolkit_line_len == 0)
		keep_toolkit_line(ps->r, buf, (size_t)n);
	if (m) {
		m->compression = x->compression;
		m->csize = x->compressed_size;
		m->usize = x->uncompressed_size;
		m->has_kernels = x->has_kernels;
		ps->n_memo++;
	}
	return rv;
}

/*
 * Walks the containers in region [off, off + rlen) of the buffer. strict: the region must
 * hold only containers and zero padding (a .nv_fatbin section); otherwise stop at the first
 * container that fails validation and return how far it got through *ret_end (search).
 * max_containers bounds how many are walked (1 for wrapper targets).
 */
int fb_walk_containers(struct parse *ps, size_t off, size_t rlen, bool strict,
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
		const uint8_t *h = fb_view(ps, off + pos, 16);

		if (!h)
			return fb_view_error(ps, off + pos);
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
			eh = fb_view(ps, off + e, 64);
			if (!eh)
				return fb_view_error(ps, off + e);
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
			eh = fb_view(ps, off + e, hsz);
			if (!eh)
				return fb_view_error(ps, off + e);
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
			if (origin == FATBIN_ORIGIN_SECTION &&
			    x->compression == FATBIN_COMPRESS_NONE && psz > 0)
				ps->first_plain = MIN(ps->first_plain, (uint64_t)(off + e + hsz));
			if (x->kind == FATBIN_KIND_ELF && x->compression == FATBIN_COMPRESS_NONE &&
			    psz <= FATBIN_KERNEL_CHECK_MAX) {
				rv = fb_cubin_has_text(ps, off + e + hsz, psz, &x->has_kernels);
				if (rv < 0)
					return rv;
			} else if (x->kind == FATBIN_KIND_ELF) {
				rv = compressed_has_text(ps, x, off + e + hsz);
				if (rv < 0)
					return rv;
			}
			if (x->kind == FATBIN_KIND_LTO && x->compression == FATBIN_COMPRESS_NONE &&
			    (ps->flags & FATBIN_PARSE_PAYLOAD_HEADS) && psz >= 8) {
				rv = read_lto_container(ps, x, off + e + hsz);
				if (rv < 0)
					return rv;
			}
			if ((x->kind == FATBIN_KIND_PTX &&
			     ((ps->flags & FATBIN_PARSE_PAYLOAD_HEADS) || x->ptx_major < 0)) ||
			    (x->kind == FATBIN_KIND_ELF &&
			     ((ps->flags & FATBIN_PARSE_PAYLOAD_HEADS) ||
			      (x->variant == 'a' && !entry_abi_v2(x))))) {
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
