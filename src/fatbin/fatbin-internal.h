/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the files of the fat binary parser (not installed, not for other layers):
 * fatbin-input.c   input planning: the window read through fatbin_input.read (view());
 * fatbin-result.c  the result: entries, warnings, names, entry headers decoded;
 * fatbin-container.c  the container walk (headers, payload heads);
 * fatbin-cubin.c   cubins and AMDGPU code objects (ELF of the device);
 * fatbin-host.c    host ELF files: .nv_fatbin, .nvFatBinSegment wrappers, search;
 * fatbin-stream-bundle.c  offload bundles in a stream (beside fatbin-stream.c's containers);
 * fatbin-stream-ccob.c    compressed (CCOB) offload bundles in a stream;
 * fatbin.c         dispatch: what the input is, and the public entry points.
 * The format and its sources: see fatbin.c.
 */
#pragma once

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zstd.h>

#include "fatbin/fatbin.h"

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

/* An NVVM IR container (LTO-IR) starts with bytes ed 43 4e 7f (docs/formats/fatbin.md §4). */
#define LTOIR_CONTAINER_MAGIC 0x7f4e43edu

/* Reads through fatbin_input.read(). Where the .nvFatBinSegment wrappers tell where every
 * container of .nv_fatbin starts (fb_plan_window()), a read that begins at a container takes it
 * whole when it is at most PLAN_SMALL bytes, with the small ones after it up to PLAN_MAX and
 * PLAN_HEAD bytes of the next (its header and first entry header); a larger container is read
 * head by head, PLAN_HEAD bytes at each entry. Elsewhere a window starts at WINDOW_MIN bytes
 * and doubles (up to WINDOW_MAX) while each header lies just past the previous window, as
 * the headers of a run of small entries do; a far jump (past a large payload) starts small
 * again. The plan reads fewer windows, and fewer bytes, than doubling alone on a library of
 * thousands of small containers (bench/bench-scan.sh measures both). WINDOW_MIN is PLAN_HEAD's
 * size, a container header and its first entry header: a container found by the search
 * (libcufft.so.12: 23,983, about 11 KiB apart, one read each) took 1 KiB at 1024, so 43 MB in
 * all, and takes 19.9 MB now (13.4 MB of which the search's own reads), in 3 % more calls. */
#define WINDOW_MIN    256u
#define WINDOW_MAX    (16u << 10)
#define PLAN_SMALL    (16u << 10)
#define PLAN_MAX      (64u << 10)
#define PLAN_HEAD     256u	   /* a container header and an entry header (seen: up to 144) */
#define HEAD_IN_CHUNK (16u << 10)  /* compressed bytes handed to a head decoder at a time */
#define SEARCH_CHUNK  (256u << 10) /* bytes read at a time by the search for containers */
#define SEARCH_PEEK   64u	   /* bytes past a run of containers looked at for the next */

/* a file range walked outside .nv_fatbin (wrapper targets, search hits) */
struct range {
	size_t a, b;
};

/* A small compressed cubin's payload and whether it has kernels (fatbin-container.c). */
#define PAYLOAD_MEMO_MAX 64u /* at most FATBIN_LINK_IMAGE_MAX bytes each: 512 KiB */
struct payload_memo {
	uint8_t *bytes;
	uint64_t csize, usize;
	enum fatbin_compression compression;
	int has_kernels;
};

/* One parse: the input, the flags, a reusable zstd stream and the payloads judged. */
struct parse {
	struct fatbin_result *r;
	const uint8_t *base;
	size_t len;
	unsigned flags;
	ZSTD_DStream *zds;
	struct payload_memo memo[PAYLOAD_MEMO_MAX];
	size_t n_memo;
	/* fatbin_input.read and its window */
	ssize_t (*read)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	int (*on_container)(void *userdata, const struct fatbin_entry *e, size_t n);
	uint8_t *win;
	size_t win_cap, win_len, win_size;
	uint64_t win_off;
	int io_err;
	/* the search's own buffer (fatbin-host.c): bytes [sb_off, sb_off + sb_len) of the input,
	 * which fb_view() also serves from (the headers of the containers it finds) */
	uint8_t *sb;
	uint64_t sb_off;
	size_t sb_len;
	/* fb_plan_window(): container starts in .nv_fatbin (sorted), then the section's end */
	uint64_t *starts;
	size_t n_starts;
	/* the file offset of the first payload stored uncompressed that a walk of a section met
	 * (fatbin_result.nv_fatbin_first_plain) */
	uint64_t first_plain;
	struct range *ranges; /* walked outside .nv_fatbin: never twice; sorted by start */
	size_t n_ranges, cap_ranges;
};

struct sec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, off, size;
	bool walked;
};

/* fatbin-input.c */
size_t fb_plan_window(const struct parse *ps, uint64_t off);
const uint8_t *fb_view(struct parse *ps, uint64_t off, size_t n);
int fb_view_error(struct parse *ps, uint64_t off);
const struct range *fb_range_find(const struct parse *ps, size_t off);
int fb_range_add(struct parse *ps, size_t a, size_t b);

/* fatbin-container.c */
int fb_cubin_sm_from_header(const uint8_t *p, size_t len, bool *ret_accel_v1);
int fb_walk_containers(struct parse *ps, size_t off, size_t rlen, bool strict,
		       enum fatbin_origin origin, size_t max_containers, size_t *ret_end);

/* fatbin-cubin.c */
/* Has the uncompressed cubin at [at, at + len) of the input (fb_view()), or in p[0..len), a
 * .text.<kernel> section? *ret 1 / 0 / -1 cannot tell; 0 or a read error. */
int fb_cubin_has_text(struct parse *ps, uint64_t at, uint64_t len, int *ret);
int fb_cubin_buf_has_text(const uint8_t *p, size_t len, int *ret);
int fb_elf_sections(Elf *elf, size_t len, struct sec **ret, size_t *ret_n);
bool fb_sec_has_data(const struct sec *s, size_t len);
int fb_add_elsewhere(struct fatbin_result *r, const char *name);
int fb_scan_cubin(struct parse *ps, Elf *elf);
int fb_scan_amdgpu(struct parse *ps);
/* The processor (EF_AMDGPU_MACH: b->gfx, "mach0xNN" when not known) and, code object v4+, the
 * xnack/sramecc settings (else -1) of the AMDGPU ELF64 header at ehdr (64 bytes). */
void fb_amdgpu_target(const uint8_t *ehdr, struct fatbin_bundle_entry *b);

/* fatbin-stream-bundle.c: the offload bundles of a stream (fatbin_stream_feed()). */
/* A search for needle (len bytes) across the chunks of a stream: match = bytes of it matched
 * at the end of the last chunk, len once found. */
struct fb_match {
	const char *needle;
	unsigned len, match;
};
/* Consumes p[0..n) up to and including the next whole needle (then m->match == m->len), or
 * all of it; how many bytes. */
size_t fb_match_feed(struct fb_match *m, const uint8_t *p, size_t n);
/* Moves the bundles a scanner completed in pend (its own result: the scanners of one stream
 * find bundles side by side, and one that turns out malformed must drop only its own
 * entries) to the end of r's. 0, -ENOMEM. */
int fb_stream_take(struct fatbin_result *r, struct fatbin_result *pend);
struct bundle_stream;
int fb_bundle_stream_new(struct bundle_stream **ret);
void fb_bundle_stream_free(struct bundle_stream *bs);
/* Feeds the next chunk; bundles found go into r. 0, -ENOMEM. */
int fb_bundle_stream_feed(struct bundle_stream *bs, struct fatbin_result *r, const uint8_t *p,
			  size_t n);
/* The stream ended: a bundle not complete is dropped, with r's warning. 0, -ENOMEM. */
int fb_bundle_stream_finish(struct bundle_stream *bs, struct fatbin_result *r);
/* fatbin-stream-ccob.c: the compressed (CCOB) offload bundles of a stream, the same way. */
struct ccob_stream;
int fb_ccob_stream_new(struct ccob_stream **ret);
void fb_ccob_stream_free(struct ccob_stream *cs);
int fb_ccob_stream_feed(struct ccob_stream *cs, struct fatbin_result *r, const uint8_t *p,
			size_t n);
int fb_ccob_stream_finish(struct ccob_stream *cs, struct fatbin_result *r);

/* fatbin-host.c */
int fb_scan_host_elf(struct parse *ps, Elf *elf);
