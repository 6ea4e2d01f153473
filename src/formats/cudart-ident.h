/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which CUDA runtime (cudart) a host ELF file links or carries, over a (ptr, len) buffer, no
 * I/O. Linked: a DT_NEEDED `libcudart.so.N` (the caller has the dynamic section from
 * src/formats/elf-dynamic.h), or the file is libcudart.so.N itself (its DT_SONAME). Bundled:
 * nvcc links cudart statically by default (`--cudart=static`): its error-string table
 * ("CUDA driver version is insufficient for CUDA runtime version", cudaGetErrorString()) then
 * lies in the file's .rodata, at its end (cudart_static is linked last). The toolkit it came
 * with (the nvcc that linked it) is written in each uncompressed cubin's .note.nv.tkinfo
 * ("Cuda compilation tools, release 13.0, V13.0.88", docs/formats/fatbin.md §9.3), inside
 * .nv_fatbin (nvcc 13.0's output, stripped or not, and every CUDA 13.0 library that bundles
 * cudart have it there and not in .rodata); where every cubin is compressed, the caller may
 * have it from one it decompressed (fatbin_result.toolkit_line); a string in .rodata is the
 * last resort. Uses libelf read-only; .rodata is searched up to CUDART_IDENT_MAX_RODATA
 * bytes, .nv_fatbin's first CUDART_IDENT_FATBIN_HEAD only.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CUDART_IDENT_MAX_RODATA	 ((size_t)256 << 20)
#define CUDART_IDENT_FATBIN_HEAD ((size_t)1 << 20)
#define CUDART_IDENT_CHUNK	 ((size_t)256 << 10) /* bytes of one read of a reader */

struct cudart_ident {
	char version[16]; /* "13" (linked: the soname's major), "13.0" (bundled), "" unknown */
	bool is_static;	  /* bundled: cudart's own strings are in the file */
	bool is_runtime;  /* the file is libcudart.so.N */
};

/* "Cuda compilation tools, release 13.0, V13.0.88" at p (left bytes) → "13.0" in buf; buf
 * unchanged when p does not hold that line. */
void cudart_ident_release(const uint8_t *p, size_t left, char *buf, size_t n);
/* From a DT_SONAME (may be NULL) and DT_NEEDED list: 1 found (ret filled), 0 none. */
int cudart_ident_linked(const char *soname, char *const *needed, size_t n_needed,
			struct cudart_ident *ret);
/* Searches the .rodata of the ELF file p[0..len) for a bundled cudart: 1 found (ret filled;
 * version "" when no toolkit string was found), 0 none or not an ELF file. The same as
 * cudart_ident_static_read(p, len, NULL, NULL, ret). */
int cudart_ident_static(const uint8_t *p, size_t len, struct cudart_ident *ret);

/* The same file's bytes, read at an offset: n bytes at off into buf, the count read or
 * -errno (the shape of struct fatbin_input's read). */
struct cudart_ident_reader {
	ssize_t (*read)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	/* The caller walked .nv_fatbin and met no payload stored uncompressed in its first
	 * CUDART_IDENT_FATBIN_HEAD bytes (fatbin_result.nv_fatbin_first_plain): a toolkit string
	 * found there would be chance bytes of a compressed frame, so that head is not read
	 * (libcublasLt.so.13: 1 MiB of zstd frames and headers). */
	bool fatbin_head_compressed;
};
/* cudart_ident_static(), with the sections searched through rd (when not NULL) in
 * CUDART_IDENT_CHUNK reads instead of in p, which is then read for the ELF headers only:
 * memory stays bounded when p is a mapping; cudart's strings are looked for from the end of
 * .rodata backwards, so that a library which bundles it reads one chunk of .rodata, not all
 * of it. cubin_release (may be NULL or ""): the release a compressed cubin the caller
 * decompressed names ("13.0", from fatbin_result.toolkit_line), taken when .nv_fatbin's head
 * names none, before .rodata is searched for one. -errno when a read fails. */
int cudart_ident_static_read(const uint8_t *p, size_t len, const struct cudart_ident_reader *rd,
			     const char *cubin_release, struct cudart_ident *ret);
