// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host ELF files: .nv_fatbin, the .nvFatBinSegment wrappers that say where its containers
 * start, and the search for the container pattern elsewhere (fatbin-internal.h, fatbin.c for
 * the format).
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

			if (!(s->flags & SHF_ALLOC) || !fb_sec_has_data(s, ps->len) ||
			    addr < s->addr || addr - s->addr >= s->size)
				continue;
			hit = i;
			if (s->walked)
				break;
			at = (size_t)(s->off + (addr - s->addr));
			if (fb_range_find(ps, at))
				break; /* another wrapper's container */
			{
				size_t before = r->n_containers,
				       left = (size_t)(s->off + s->size - at);
				size_t got = 0;

				rv = fb_walk_containers(ps, at, left, false, FATBIN_ORIGIN_WRAPPER,
							1, &got);
				if (rv == -ENOMEM || rv == -E2BIG)
					return rv;
				if (r->n_containers > before) {
					r->n_found_elsewhere++;
					rv = fb_add_elsewhere(r, s->name);
					if (rv >= 0)
						rv = fb_range_add(ps, at, at + got);
					if (rv < 0)
						return rv;
				}
			}
			break;
		}
	}
	return 0;
}

/* The section's bytes from pos on, at least the pattern's length of them unless the section
 * ends first: in the buffer where the caller gives no reader, else from the search's own
 * buffer (not the window: the walks of the hits use that), refilled with SEARCH_CHUNK bytes
 * from pos when pos lies outside it. NULL on a read error. */
static const uint8_t *search_view(struct parse *ps, const struct sec *s, uint64_t pos,
				  size_t *ret_n)
{
	uint64_t at = s->off + pos, end = ps->sb_off + ps->sb_len, sec_end = s->off + s->size;
	ssize_t got;

	if (!ps->read) {
		*ret_n = (size_t)(s->size - pos);
		return ps->base + at;
	}
	if (ps->sb_len == 0 || at < ps->sb_off || at >= end ||
	    (end < sec_end && end - at < sizeof(fatbin_container_pattern))) {
		if (!ps->sb && !(ps->sb = malloc(SEARCH_CHUNK))) {
			ps->io_err = -ENOMEM;
			return NULL;
		}
		ps->sb_off = at;
		ps->sb_len = (size_t)MIN(s->size - pos, (uint64_t)SEARCH_CHUNK);
		got = ps->read(ps->userdata, at, ps->sb, ps->sb_len);
		if (got < 0 || (size_t)got < ps->sb_len) {
			ps->io_err = got < 0 ? (int)got : -EIO;
			ps->sb_len = 0;
			return NULL;
		}
		end = ps->sb_off + ps->sb_len;
	}
	*ret_n = (size_t)(MIN(end, sec_end) - at);
	return ps->sb + (at - ps->sb_off);
}

/* Searches a section for the container pattern (§1): hits that pass full validation are
 * walked (back-to-back runs included), everything else is skipped. Where the caller reads
 * (fatbin_input.read), through a buffer of its own, each byte read once (the headers of the
 * containers found are served from it too), never through the mapping: a hand-registered
 * library keeps its kernels outside .nv_fatbin (libcufft.so.12: 23 983 containers in 278 MB
 * of .ldata), and a memmem over the mapping made all of it resident. */
static int search_section(struct parse *ps, const struct sec *s)
{
	struct fatbin_result *r = ps->r;
	const size_t pat = sizeof(fatbin_container_pattern);
	uint64_t pos = 0;
	int rv = 0;

	bool walked = false;

	while (pos < s->size) {
		size_t n = 0, at, got = 0, before = r->n_containers;
		const uint8_t *d = NULL, *hit = NULL;
		const struct range *done;

		/* Just past containers just walked: the next one, where they are registered by hand
		 * one after another (libcufft.so.12: 23 983 in .ldata, 0 to 24 bytes apart), starts
		 * within SEARCH_PEEK bytes. Looked for there through fb_view(), which the walk's
		 * own reads usually already hold, instead of reading on through the search's buffer
		 * (which read all 278 MB of that section). The first pattern lying wholly in the
		 * peek is the one the search would find first, so the result is the same. */
		if (walked && ps->read) {
			size_t k = (size_t)MIN(s->size - pos, (uint64_t)SEARCH_PEEK);
			const uint8_t *q = k >= pat ? fb_view(ps, s->off + pos, k) : NULL;

			if (q && (hit = memmem(q, k, fatbin_container_pattern, pat)))
				d = q;
			else if (!q && ps->io_err) {
				rv = fb_view_error(ps, s->off + pos);
				break;
			}
		}
		walked = false;
		if (!hit) {
			d = search_view(ps, s, pos, &n);
			if (!d) {
				rv = fb_view_error(ps, s->off + pos);
				break;
			}
			hit = memmem(d, n, fatbin_container_pattern, pat);
		}
		if (!hit) {
			if (n < pat || pos + n >= s->size)
				break;
			pos += n - (pat - 1); /* a pattern across two reads */
			continue;
		}
		at = (size_t)pos + (size_t)(hit - d);
		done = fb_range_find(ps, s->off + at);
		if (done) {
			pos = done->b - s->off;
			continue;
		}
		rv = fb_walk_containers(ps, s->off + at, s->size - at, false, FATBIN_ORIGIN_SEARCH,
					SIZE_MAX, &got);
		if (rv < 0)
			break;
		if (r->n_containers > before) {
			r->n_found_elsewhere += r->n_containers - before;
			rv = fb_add_elsewhere(r, s->name);
			if (rv >= 0)
				rv = fb_range_add(ps, s->off + at, s->off + at + got);
			if (rv < 0)
				break;
			pos = at + MAX(got, (size_t)1);
			walked = true;
		} else {
			pos = at + 1;
		}
	}
	return rv;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* fb_plan_window()'s map: the starts of the containers the .nvFatBinSegment wrappers (seg)
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

int fb_scan_host_elf(struct parse *ps, Elf *elf)
{
	struct fatbin_result *r = ps->r;
	_cleanup_free_ struct sec *secs = NULL;
	const struct sec *seg = NULL;
	bool has_nv_fatbin = false;
	size_t n = 0;
	int rv;

	rv = fb_elf_sections(elf, ps->len, &secs, &n);
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
		if (fb && sg && fb_sec_has_data(fb, ps->len) && fb_sec_has_data(sg, ps->len)) {
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
			ps->first_plain = UINT64_MAX;
			rv = fb_walk_containers(ps, s->off, s->size, true, FATBIN_ORIGIN_SECTION,
						SIZE_MAX, NULL);
			if (rv < 0)
				return rv;
			if (streq(s->name, ".nv_fatbin") && ps->first_plain != UINT64_MAX)
				r->nv_fatbin_first_plain = ps->first_plain - s->off;
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
			    !fb_sec_has_data(s, ps->len))
				continue;
			rv = search_section(ps, s);
			if (rv < 0)
				return rv;
		}
	}
	return 0;
}
