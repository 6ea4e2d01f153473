/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser for NVIDIA CUDA fat binaries over a (ptr, len) buffer: host ELF files
 * (.nv_fatbin, __nv_relfatbin), standalone .fatbin containers and .cubin files. No I/O.
 * Format: /work/shared/facts/fatbin-format.md (NVIDIA fatbinary_section.h / fatbinary.h,
 * verified against nvcc 13.0 output).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_MAX_ENTRIES 65536
#define FATBIN_MAX_NEEDED 256

enum fatbin_kind {
	FATBIN_KIND_UNKNOWN = 0,
	FATBIN_KIND_PTX = 1,
	FATBIN_KIND_ELF = 2,
	FATBIN_KIND_LTO = 8,
};

enum fatbin_compression {
	FATBIN_COMPRESS_NONE = 0,
	FATBIN_COMPRESS_LZ4,
	FATBIN_COMPRESS_ZSTD,
	FATBIN_COMPRESS_OTHER,
};

struct fatbin_entry {
	enum fatbin_kind kind;
	unsigned raw_kind;
	unsigned arch;              /* 75, 90, 100 ... */
	char variant;               /* 0, 'a' or 'f' */
	bool is64;
	uint64_t flags;
	uint64_t stored_size;       /* payload size as stored (compressed or raw) */
	uint64_t uncompressed_size; /* = stored size when not compressed */
	enum fatbin_compression compression;
	unsigned ver_major, ver_minor; /* entry header version (PTX ISA for PTX) */
	int ptx_major, ptx_minor;   /* from ".version X.Y"; -1 if not read */
	int cubin_sm;               /* from cubin e_flags; -1 if not read */
	char target[24];            /* sm_86, sm_90a, compute_90, lto_80 */
};

struct fatbin_result {
	bool is_elf;
	size_t n_containers;
	size_t n_entries;
	struct fatbin_entry *entries;
	char *soname;
	char *runpath;
	char **needed;              /* NULL-terminated, may be NULL */
	size_t n_needed;
};

/* Scans a host ELF, a .fatbin or a .cubin. Returns 0, -EBADMSG on malformed input,
 * also -EBADMSG if the buffer is none of those; -ENOMEM. */
int fatbin_scan_buffer(const uint8_t *p, size_t len, struct fatbin_result **ret);
void fatbin_result_free(struct fatbin_result *r);
const char *fatbin_compression_name(enum fatbin_compression c);
