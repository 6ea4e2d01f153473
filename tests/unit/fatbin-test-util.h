/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the fatbin tests share (test-fatbin.c, test-fatbin-nvcc.c): builders of hand-made
 * inputs and the parse that checks its three ways agree. fatbin-test-util.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fatbin/fatbin.h"

/* ---- builders ---- */

/* A growing buffer; put() of NULL appends zeros. */
struct buf {
	uint8_t *p;
	size_t len, cap;
};

void put(struct buf *b, const void *d, size_t n);
void w16(uint8_t *p, uint16_t v);
void w32(uint8_t *p, uint32_t v);
void w64(uint8_t *p, uint64_t v);
void put_u64(struct buf *b, uint64_t v);
/* An entry: 64-byte header + payload padded to 8. csize/usize 0 = uncompressed. */
void put_entry(struct buf *b, uint16_t kind, uint32_t arch, uint64_t flags, uint16_t maj,
	       uint16_t min, const void *payload, size_t plen, uint32_t csize, uint64_t usize);
/* Wraps b's entries (from `from`) into a container: inserts the 16-byte header. */
void close_container(struct buf *b, size_t from);

/* A PTX text as NVVM writes it (ISA 8.7, sm_90a), with its terminating NUL. */
extern const char ptx_text[];
extern const size_t ptx_text_len; /* sizeof(ptx_text) */
/* A sm_86 ELF + PTX (ISA 8.7, compute_90a, zstd) container and a LZ4 PTX container. */
struct buf sample_fatbin(void);

struct sec_spec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr;
	const void *data;
	size_t len;
};
/* A minimal ELF with the given sections; returns the buffer. is64 picks the class. */
struct buf make_elf(bool is64, uint16_t machine, uint32_t e_flags, uint8_t abiver,
		    const struct sec_spec *secs, size_t n);

/* An ar member: the 60-byte struct ar_hdr, then the data padded to an even length. */
void put_ar_member(struct buf *b, const char *name, const void *d, size_t n);

/* ar_for_each_member() callback: the names (comma-separated) and the last member. */
struct members {
	char names[256];
	const uint8_t *last;
	size_t last_len, n;
	int fail_with;
};
int collect_member(void *userdata, const char *name, const uint8_t *m, size_t n);

/* ---- parsing ---- */

/* fatbin_input.read over a buffer: counts the reads, fails the fail_at-th one with -EIO. */
struct mem_reader {
	const uint8_t *p;
	size_t len;
	unsigned calls, fail_at;
	size_t bytes;
};
ssize_t mem_read(void *userdata, uint64_t off, void *buf, size_t n);
/* fatbin_parse_input() of p through mem_read (m->fail_at kept). */
int parse_read(const uint8_t *p, size_t len, unsigned flags, struct mem_reader *m,
	       struct fatbin_result **r, char **why);
void assert_str_same(const char *a, const char *b);
/* What a parse reading its container walks through fatbin_input.read() found must be what
 * the parse of the buffer found, field by field. */
void assert_results_equal(const struct fatbin_result *a, const struct fatbin_result *b);
/* fatbin_input.on_container: collects copies of the entries into a result. */
int collect(void *userdata, const struct fatbin_entry *e, size_t n);
/* Parses p from memory, through reads and container by container: the three must agree;
 * returns the first. */
struct fatbin_result *parse_ok(const uint8_t *p, size_t len, unsigned flags);
/* Both parses fail with expect and return no result. */
void parse_bad(const uint8_t *p, size_t len, int expect);
/* Every read that fails ends the parse with its error, said where; none leaks. */
void check_read_errors(const uint8_t *p, size_t len, unsigned flags);

/* The whole file (asserts on failure); *len its size. */
uint8_t *slurp(const char *path, size_t *len);
/* The nvcc the tests that build real inputs use: /usr/local/cuda/bin/nvcc, else one on PATH;
 * NULL when there is none or GPUENV_TEST_NO_NVCC is set (said on stdout: those tests skip). */
const char *test_nvcc(void);
