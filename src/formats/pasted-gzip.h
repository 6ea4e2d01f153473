/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A gzip file given to `gpuenv explain` (nvidia-bug-report.sh writes nvidia-bug-report.log.gz,
 * the richest report there is): told by its magic (RFC 1952 §2.3.1: 0x1f 0x8b), inflated with
 * Intel ISA-L's isal_inflate under a hard cap on the output, so a small file cannot expand
 * without bound. ISA-L inflates raw deflate (in about half zlib's time: docs/explain.md) and
 * the gzip framing (header, CRC-32 and length) is read here, the
 * CRC-32 by libdeflate's libdeflate_crc32 (carry-less multiplication where the CPU has it):
 * zlib's own crc32 was a tenth of the instructions of a bug report's reading. The text
 * inside then goes through the input hygiene and every reader like a paste: the report's
 * sections are the outputs the readers know (nvidia-smi -q, /proc/driver/nvidia/version, lspci,
 * lsmod, dmesg, modinfo …). Pure, over (ptr, len).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct inflate_state;	 /* <isa-l/igzip_lib.h> */
struct z_stream_s;	 /* <zlib.h> */
struct isal_inflate_api; /* shared/isal-inflate-api.h */

bool pasted_is_gzip(const char *data, size_t len);

/* The cap on the text of a gzip input read a window at a time (explain's read_gzip): memory
 * stays bounded by the window whatever the size, so this cap bounds the time only; it lets
 * a bug report of a large kernel log through (a 5 MB nvidia-bug-report.log.gz holds ~40 MiB
 * of text at its usual 8:1, and a repetitive log compresses far better). Inflated whole
 * (pasted_gunzip), the input's own cap applies (PASTED_INPUT_MAX). */
#define PASTED_GZ_WINDOWED_MAX ((size_t)256 << 20)

/* Inflating a step at a time, so that a large report is read through a bounded window
 * (explain) instead of whole: pasted_gz_init, pasted_gz_read until it gives 0 bytes,
 * pasted_gz_done. */
struct pasted_gz {
	const struct isal_inflate_api *isal;
	struct inflate_state *z;    /* raw deflate: the gzip framing is read in pasted-gzip.c */
	struct z_stream_s *zs;	    /* zlib's instead, where ISA-L is not there (isal NULL) */
	const char *start, *end_in; /* the input */
	const char *member_in;	    /* the member's deflate data (zlib_verdict) */
	const char *released;	    /* the input before it the caller may have dropped */
	size_t member_out;	    /* the bytes inflated of the member so far */
	size_t out, max;	    /* bytes given so far, and the cap on them */
	const char *too_large;	    /* the sentence for more than max */
	uint32_t crc, isize;	    /* of the member's bytes inflated so far (its trailer's) */
	bool member;		    /* inside a member: its header read, not yet its trailer */
	bool end, live;
};
/* 0; -EBADMSG when data is not gzip (*ret_why set); -ENOMEM. isal: ISA-L's functions (the
 * caller loads them: src/vendor/lazy-isal.h), borrowed; NULL where they could not be loaded:
 * zlib's inflate then, about twice the time, the same text and verdicts. */
int pasted_gz_init(struct pasted_gz *g, const struct isal_inflate_api *isal, const char *data,
		   size_t len, size_t max, const char **ret_why);
/* Up to cap more bytes into buf: *ret_n of them, 0 at the end of the last member. 0;
 * -EFBIG past max; -EBADMSG corrupt or truncated; -ENOMEM. *ret_why as above. */
int pasted_gz_read(struct pasted_gz *g, char *buf, size_t cap, size_t *ret_n, const char **ret_why);
void pasted_gz_done(struct pasted_gz *g);
/* Where the input may be read again from: the bytes before it the caller may drop, never read
 * again after this call (a member whose start is among them is judged by ISA-L alone should
 * it be refused: zlib_verdict in pasted-gzip.c reads the member again from its start). */
const char *pasted_gz_release_input(struct pasted_gz *g);

/* Inflates every gzip member of data[0..len) into *ret (malloc()ed, NUL-terminated, *ret_len
 * bytes), at most max bytes. 0; -EFBIG past max; -EBADMSG corrupt or truncated; -ENOMEM. On
 * -EFBIG/-EBADMSG *ret_why (when given) is a static sentence for the user. */
int pasted_gunzip(const struct isal_inflate_api *isal, const char *data, size_t len, size_t max,
		  char **ret, size_t *ret_len, const char **ret_why);
