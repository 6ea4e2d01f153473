/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pure parser for GPU code inside binaries over a (ptr, len) buffer, no I/O: NVIDIA CUDA fat
 * binaries in host ELF files (.nv_fatbin, __nv_relfatbin, containers found through
 * .nvFatBinSegment or by search), standalone .fatbin containers, .cubin and .ptx files, and
 * AMD clang offload bundles (__CLANG_OFFLOAD_BUNDLE__, CCOB, .hip_fatbin). Formats:
 * docs/formats/fatbin.md (NVIDIA fatbinary_section.h / fatbinary.h, verified
 * against nvcc 13.0 output; LLVM ClangOffloadBundler.rst and OffloadBundler.h for AMD).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Caps on nested counts (docs/design.md §6). */
#define FATBIN_MAX_ENTRIES	  262144u /* CUDA entries in one file (libcufft.so.12: 23 984) */
#define FATBIN_MAX_CONTAINERS	  131072u
#define FATBIN_MAX_ENTRY_HEADER	  4096u /* entry header incl. extension (seen: up to 144) */
#define FATBIN_MAX_BUNDLE_ENTRIES 4096u
#define FATBIN_BUNDLE_ID_MAX	  1024u		    /* bytes of one bundle entry id */
#define FATBIN_CCOB_HEAD_MAX	  ((size_t)1 << 20) /* CCOB bytes inflated for the entry table */
#define FATBIN_MAX_SECTIONS	  65536u
#define FATBIN_MAX_STRING	  256u	/* identifier / options / target strings kept */
#define FATBIN_PTX_HEAD		  4096u /* bytes of PTX text read for .version/.target */
#define FATBIN_LINK_IMAGE_MAX                                                                      \
	8192u /* compressed cubins up to this size (uncompressed) are decompressed and checked \
	       * for kernels: a device-link image under any --compress-mode */
#define FATBIN_KERNEL_CHECK_MAX                                                                    \
	65536u /* uncompressed cubins up to this size are checked                                  \
		* for kernels (device-link images are ~1 KiB) */

enum fatbin_kind {
	FATBIN_KIND_UNKNOWN = 0,
	FATBIN_KIND_PTX = 1,
	FATBIN_KIND_ELF = 2,
	FATBIN_KIND_OLDCUBIN = 4,
	FATBIN_KIND_LTO = 8,
};

enum fatbin_compression {
	FATBIN_COMPRESS_NONE = 0,
	FATBIN_COMPRESS_LZ4,   /* flag 0x2000, LZ4 raw block (--compress-mode=speed) */
	FATBIN_COMPRESS_ZSTD,  /* flag 0x8000, zstd frame (CUDA 12.4+ default) */
	FATBIN_COMPRESS_OTHER, /* flag 0x1000, older format: recorded, never decoded */
};

/* What the buffer as a whole was. */
enum fatbin_file_type {
	FATBIN_FILE_UNKNOWN = 0,
	FATBIN_FILE_HOST_ELF,	    /* host executable / shared library / object */
	FATBIN_FILE_FATBIN,	    /* standalone container(s), nvcc -fatbin */
	FATBIN_FILE_CUBIN,	    /* CUDA ELF, nvcc -cubin */
	FATBIN_FILE_PTX,	    /* PTX text */
	FATBIN_FILE_OFFLOAD_BUNDLE, /* __CLANG_OFFLOAD_BUNDLE__ or CCOB (.hipfb, .co bundles) */
	FATBIN_FILE_AMDGPU_ELF,	    /* a bare AMDGPU code object */
};

/* Where a CUDA container was found in a host ELF. */
enum fatbin_origin {
	FATBIN_ORIGIN_FILE = 0, /* the buffer itself (.fatbin, .cubin) */
	FATBIN_ORIGIN_SECTION,	/* .nv_fatbin / __nv_relfatbin */
	FATBIN_ORIGIN_WRAPPER,	/* pointed to by a .nvFatBinSegment wrapper, elsewhere */
	FATBIN_ORIGIN_SEARCH,	/* found by searching another section for the magic */
	FATBIN_ORIGIN_STREAM,	/* found by fatbin_stream (a compressed wheel member) */
};

struct fatbin_entry {
	enum fatbin_kind kind;
	unsigned raw_kind;
	unsigned arch; /* 75, 90, 100 ... (virtual arch for PTX) */
	char variant;  /* 0, 'a' or 'f' (flag bits 20/21) */
	bool is64;     /* flag 0x1 */
	bool debug;    /* flag 0x2 */
	uint64_t flags;
	uint32_t header_size;
	uint64_t stored_size;	    /* payload size as stored (padded to 8) */
	uint64_t compressed_size;   /* exact compressed length; 0 when not compressed */
	uint64_t uncompressed_size; /* = stored size when not compressed */
	enum fatbin_compression compression;
	unsigned ver_major,
		ver_minor;	  /* entry header version: PTX ISA for PTX, ELF ABI for cubins */
	int ptx_major, ptx_minor; /* PTX ISA: from the header, or from ".version" when read; -1 */
	bool ptx_from_text;	  /* ptx_major/minor were read from the text */
	/* LTO-IR: its NVVM IR container's version (CUDA 13.0 writes 1.65), from the header
	 * (+0x1a/+0x18), or from the payload's own container header when it is stored
	 * uncompressed and was read (§4); -1 when neither has one */
	int lto_major, lto_minor;
	bool lto_from_payload;
	int cubin_sm;	    /* from the cubin's e_flags when read; -1 if not read */
	unsigned container; /* index of its container in the file */
	enum fatbin_origin origin;
	uint64_t offset;     /* of the entry header within the buffer (stream offset) */
	char *ident;	     /* identifier string (nvcc -G: source file name) or NULL */
	char *options;	     /* ptxas/NVVM options string or NULL */
	char ptx_target[32]; /* ".target" first word ("sm_90a") when read, else "" */
	int has_kernels;     /* ELF: 1 a .text.* section, 0 none (an nvlink device-link
			      * image, §2), -1 not checked (compressed or large) */
	char target[24];     /* as nvcc spells it: sm_86, sm_90a, compute_90, lto_80; zero-padded */
};

/* One code object of a clang offload bundle. */
struct fatbin_bundle_entry {
	char *id;	       /* "hipv4-amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" */
	char kind[16];	       /* host, hip, hipv4, openmp, … */
	char triple[64];       /* amdgcn-amd-amdhsa */
	char target[64];       /* target ID: "gfx90a:sramecc+:xnack-" ("" for host) */
	char gfx[16];	       /* processor: "gfx90a" */
	int xnack, sramecc;    /* -1 any (not given), 0 off (-), 1 on (+) */
	uint64_t offset, size; /* within the bundle */
	unsigned bundle;       /* index of the bundle in the file */
};

struct fatbin_result {
	enum fatbin_file_type type;
	bool is_elf;
	unsigned elf_class; /* 32 or 64 for ELF inputs */
	size_t n_containers;
	size_t n_entries;
	struct fatbin_entry *entries;
	size_t cap_entries;   /* allocated (fatbin_push_entry) */
	size_t n_handed;      /* entries handed to fatbin_input.on_container, not kept */
	size_t n_wrappers;    /* 24-byte (16 on ELF32) __fatBinC_Wrapper_t in .nvFatBinSegment */
	size_t n_wrappers_v2; /* version 2 (device-link) wrappers */
	char *module_id;      /* __nv_module_id string, or NULL */
	bool searched;	      /* other sections were searched for containers */
	size_t n_found_elsewhere; /* containers found through wrappers or by search */
	char *elsewhere_sections; /* comma-separated names of those sections, or NULL */
	/* AMD */
	size_t n_bundles; /* offload bundles (uncompressed + CCOB) */
	size_t n_bundles_compressed;
	size_t n_bundle_entries;
	struct fatbin_bundle_entry *bundle_entries;
	unsigned amdgpu_mach; /* FATBIN_FILE_AMDGPU_ELF: e_flags & 0xff */
	/* The first problem with a part of the file that was skipped (the rest still
	 * parsed), e.g. "container at 0x1234: entry past the end"; NULL when none. */
	char *warning;
	/* The toolkit line of the first compressed cubin decompressed (the kernel check of
	 * small ones): its bytes from "Cuda compilation tools, release " on, as
	 * .note.nv.tkinfo holds them (docs/formats/fatbin.md §9.3); toolkit_line_len 0 when
	 * none was seen. */
	uint8_t toolkit_line[64];
	size_t toolkit_line_len;
	/* Where in .nv_fatbin (bytes from its start) the first payload stored uncompressed lies,
	 * the only place a toolkit string can be in plain text there (a cubin's
	 * .note.nv.tkinfo, a PTX's header comment); UINT64_MAX when none, or no .nv_fatbin was
	 * walked. Lets the cudart search skip a head of only compressed payloads. */
	uint64_t nv_fatbin_first_plain;
};

/* fatbin_parse() flags. */
enum {
	/* Decompress the heads of PTX and ELF payloads to read ".version"/".target" and the
	 * cubin e_flags (cross-checks the headers). Without it only headers are read, except
	 * for PTX entries whose header carries no version. */
	FATBIN_PARSE_PAYLOAD_HEADS = 1u << 0,
	/* Search every other allocated section of a host ELF for containers (always done when
	 * the file has .nv_fatbin but no .nvFatBinSegment, as libcufft registers by hand). */
	FATBIN_PARSE_SEARCH_ALL = 1u << 1,
	/* Copy each entry's identifier and options strings (nvcc -G: the source file name;
	 * the ptxas/NVVM options) into ident/options. Without it they stay NULL: a listing
	 * needs neither, and would pay two allocations for each of 5 000+ entries. */
	FATBIN_PARSE_STRINGS = 1u << 2,
};

/*
 * Parses a host ELF (32/64-bit), a .fatbin, a .cubin, a .ptx text, an offload bundle or an
 * AMDGPU code object. Returns 0 (possibly with no entries, and r->warning set when a part
 * was skipped), -EBADMSG when the buffer is none of those or its structure is broken,
 * -E2BIG when a cap was reached, -ENOMEM. On failure *why (if why is not NULL) gets the
 * reason when one is known (malloc'd, else NULL) — the one out-parameter written on failure.
 */
int fatbin_parse(const uint8_t *p, size_t len, unsigned flags, struct fatbin_result **ret,
		 char **why);
/*
 * The same over an input whose CUDA container walks (the scattered entry headers of a large
 * .nv_fatbin, and the few payload bytes a walk looks at) are fetched through read() into a
 * small window instead of being read from data. data still holds all len bytes (a mapping:
 * the ELF structure, .nvFatBinSegment and searched sections are read from it); read() is the
 * I/O the caller does for the parser, which does none itself. A read error ends the parse
 * with its -errno (*why says where). fatbin_parse() is this with read = NULL.
 */
struct fatbin_input {
	const uint8_t *data;
	size_t len;
	/* Copies bytes [off, off + n) of the input into buf (off + n <= len); returns n, or
	 * fewer / a negative errno when they could not be read. NULL: read from data. */
	ssize_t (*read)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	/* Optional: called with the entries of each CUDA container once it validated, in file
	 * order; they are then dropped from the result (whose entries keep only those outside
	 * containers: a .cubin or .ptx file's one; n_handed counts the others, and the cap
	 * FATBIN_MAX_ENTRIES holds for both together). A caller that tallies entries so does
	 * not hold 5 000+ of them. A negative return ends the parse with it. */
	int (*on_container)(void *userdata, const struct fatbin_entry *e, size_t n);
};
int fatbin_parse_input(const struct fatbin_input *in, unsigned flags, struct fatbin_result **ret,
		       char **why);
/* fatbin_parse(p, len, FATBIN_PARSE_PAYLOAD_HEADS, ret, NULL). */
int fatbin_scan_buffer(const uint8_t *p, size_t len, struct fatbin_result **ret);
struct fatbin_result *fatbin_result_free(struct fatbin_result *r);
static inline void fatbin_result_freep(struct fatbin_result **r)
{
	fatbin_result_free(*r);
}
const char *fatbin_compression_name(enum fatbin_compression c);
const char *fatbin_kind_name(enum fatbin_kind k);
const char *fatbin_file_type_name(enum fatbin_file_type t);
/* Does the buffer start like something fatbin_parse() reads? (ELF, fatbin, bundle, PTX.) */
bool fatbin_looks_parsable(const uint8_t *p, size_t len);

/* ---- PTX text (fatbin-ptx.c) ---------------------------------------------------- */
struct fatbin_ptx_header {
	int isa_major, isa_minor; /* .version X.Y; -1 if not found */
	char target[32];	  /* first word after .target ("sm_90a"), "" if not found */
	unsigned target_arch;	  /* 90; 0 if not found */
	char target_variant;	  /* 0, 'a', 'f' */
	int address_size;	  /* 32 / 64; 0 if not found */
};
/* Reads the directives at the head of PTX text (comments skipped). 0, or -EBADMSG when no
 * .version directive comes before the first non-directive statement. */
int fatbin_ptx_header(const char *s, size_t len, struct fatbin_ptx_header *ret);

/* ---- clang offload bundles (fatbin-bundle.c) ------------------------------------ */
/* Parses one bundle at p (uncompressed or CCOB) into r; *ret_size = bytes it spans (0 if
 * unknown). -EBADMSG if malformed. Used by fatbin_parse(); exposed for the fuzzer. */
int fatbin_bundle_parse(struct fatbin_result *r, const uint8_t *p, size_t len, size_t *ret_size);
/* Splits a bundle entry id into kind/triple/target/gfx/xnack/sramecc. -EBADMSG if empty. */
int fatbin_bundle_id_parse(const char *id, size_t len, struct fatbin_bundle_entry *e);
/* Appends the entry (id: idlen bytes; off, size within bundle number `bundle`) to r, its id
 * split. -ENOMEM; -EBADMSG when the id does not split (the entry is kept: drop it). */
int fatbin_bundle_add_entry(struct fatbin_result *r, const char *id, size_t idlen, uint64_t off,
			    uint64_t size, unsigned bundle);
/* Frees and drops the bundle entries after the first `keep` (a bundle found malformed). */
void fatbin_bundle_drop_entries(struct fatbin_result *r, size_t keep);
/* The entry table of the decompressed head (len bytes) of a CCOB bundle into r; partial: the
 * head is not the whole bundle (its last entries may be cut). -EBADMSG if malformed. */
int fatbin_bundle_parse_head(struct fatbin_result *r, const uint8_t *p, size_t len, bool partial);

/* ---- streaming (fatbin-stream.c) ------------------------------------------------ */
/*
 * Finds CUDA containers and uncompressed clang offload bundles in a byte stream fed in chunks
 * (a compressed zip member or image layer file), keeping only headers in memory: every
 * container in the stream, validated like the search mode, and every bundle's entry table
 * with each code object's ELF header (fatbin-stream-bundle.c).
 */
struct fatbin_stream;
int fatbin_stream_new(struct fatbin_stream **ret);
/* Feeds the next chunk. -ENOMEM, or -E2BIG when a cap was reached. */
int fatbin_stream_feed(struct fatbin_stream *st, const uint8_t *p, size_t n);
/* Ends the stream, hands over what was found (r->type = FATBIN_FILE_HOST_ELF when the
 * stream began with an ELF header) and frees st (also on failure). */
int fatbin_stream_finish(struct fatbin_stream *st, struct fatbin_result **ret);
struct fatbin_stream *fatbin_stream_free(struct fatbin_stream *st);

/* ---- internal helpers shared by the fatbin-*.c files ----------------------------- */
/* off + n <= len without overflow: the one range check every offset goes through. */
static inline bool fatbin_range_ok(uint64_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}
static inline uint16_t fatbin_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t fatbin_rd32(const uint8_t *p)
{
	return (uint32_t)fatbin_rd16(p) | (uint32_t)fatbin_rd16(p + 2) << 16;
}
static inline uint64_t fatbin_rd64(const uint8_t *p)
{
	return (uint64_t)fatbin_rd32(p) | (uint64_t)fatbin_rd32(p + 4) << 32;
}
/* Does a zstd payload start a current frame (RFC 8878: magic 0xFD2FB528)? libzstd also
 * decodes the legacy v0.5-v0.7 formats (magics 0xFD2FB525-7), which nvcc never writes and whose
 * decoder counted output bytes it had not written (valgrind on a fuzz-fatbin input): such a
 * payload is not decoded at all. */
static inline bool fatbin_zstd_frame_ok(const uint8_t *p, size_t len)
{
	return len >= 4 && fatbin_rd32(p) == 0xFD2FB528u;
}
/* The 16-byte container header starts with this (§1): magic 0xBA55ED50, version 1, header
 * size 16, little-endian. */
#define FATBIN_MAGIC 0xBA55ED50u
extern const uint8_t fatbin_container_pattern[8];
/* The first 64 bytes of an entry header at e carry version 0x0101 and a header size (at +4)
 * that is a multiple of 8 in [64, FATBIN_MAX_ENTRY_HEADER] (§3). */
static inline bool fatbin_entry_header_ok(const uint8_t *e)
{
	uint32_t hsz = fatbin_rd32(e + 4);

	return fatbin_rd16(e + 2) == 0x0101 && hsz >= 64 && hsz % 8 == 0 &&
	       hsz <= FATBIN_MAX_ENTRY_HEADER;
}
int fatbin_push_entry(struct fatbin_result *r, struct fatbin_entry **ret);
/* Frees and drops the entries pushed after the first `keep` (a container that failed
 * validation). */
void fatbin_truncate_entries(struct fatbin_result *r, size_t keep);
/* Decodes a 64+-byte entry header at e (hsz, psz already validated against the buffer)
 * into x: kind, arch, variant, flags, sizes, compression, versions, target; with strings,
 * the identifier/options too (read only if they lie inside the header). -EBADMSG, -ENOMEM. */
int fatbin_entry_decode(struct fatbin_entry *x, const uint8_t *e, uint32_t hsz, uint64_t psz,
			bool strings);
void fatbin_entry_fill_target(struct fatbin_entry *e);
int fatbin_set_warning(struct fatbin_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
