/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The targets of a binary: the distinct GPU code a fatbin_result holds, one entry per target
 * (the same spelling, kind, PTX ISA and LTO-IR version merged), in one order. `gpuenv scan`
 * (src/scan) and the framework probe (arch_targets[] of a framework's library, src/probe) both
 * summarise a parse with it, so the two list the same targets in the same order under the same kind
 * names (docs/formats/fatbin.md).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fatbin/fatbin.h"

/* In the order the targets sort in (fatbin_target_cmp()). */
enum fatbin_target_kind {
	FATBIN_TARGET_SASS,   /* a cubin: sm_86, sm_90a */
	FATBIN_TARGET_PTX,    /* PTX the driver JIT-compiles: compute_90 */
	FATBIN_TARGET_LTO,    /* NVVM IR for link-time optimisation: lto_80 */
	FATBIN_TARGET_OTHER,  /* an entry kind gpuenv does not know: kind7_80 */
	FATBIN_TARGET_AMDGCN, /* an AMDGPU code object of a clang offload bundle */
};

struct fatbin_target {
	char name[64]; /* as nvcc spells it (sm_86, compute_90, lto_80), or the AMDGPU target
			* ID as clang writes it (gfx942:sramecc+:xnack-) */
	char gfx[16];  /* AMDGCN: the processor of the target ID ("gfx942"), else "" */
	enum fatbin_target_kind kind;
	unsigned arch;		  /* CUDA: 86, 100; AMDGCN: the processor as one number */
	char variant;		  /* CUDA: 0, 'a' or 'f' */
	int ptx_major, ptx_minor; /* PTX: the ISA; -1 unknown and for every other kind */
	int lto_major, lto_minor; /* LTO: the LTO-IR version (1.65); -1 unknown, other kinds */
	bool lto_from_payload;	  /* ... read from an entry's own container, not its header */
	size_t count;		  /* entries merged into this target */
};

struct fatbin_targets {
	struct fatbin_target *t; /* in the order added */
	size_t n, cap;
	size_t max;	 /* at most this many (0: no cap); past it adding fails, -E2BIG */
	size_t n_amdgcn; /* of them AMDGCN */
	bool truncated;	 /* an add failed for the cap */
};

/* Adds the target of a fatbin entry (or counts it into the same one): *ret_index its index.
 * 0, -E2BIG (the cap: truncated set), -ENOMEM. */
int fatbin_targets_add_entry(struct fatbin_targets *ts, const struct fatbin_entry *e,
			     size_t *ret_index);
/* Adds the AMDGPU code object of a bundle entry; the host entries and non-amdgcn triples are
 * not targets (1, nothing added). 0, 1, -E2BIG, -ENOMEM. */
int fatbin_targets_add_bundle(struct fatbin_targets *ts, const struct fatbin_bundle_entry *b);
/* Both lists of a parse result, entries first. */
int fatbin_targets_add_result(struct fatbin_targets *ts, const struct fatbin_result *r);
/* The one order: CUDA targets by architecture, variant, kind (SASS, PTX, LTO, other), PTX
 * ISA; then the AMDGPU ones by processor and target ID. */
int fatbin_target_cmp(const struct fatbin_target *a, const struct fatbin_target *b);
void fatbin_targets_sort(struct fatbin_targets *ts);
/* "sass", "ptx", "lto", "unknown", "amdgcn". */
const char *fatbin_target_kind_name(enum fatbin_target_kind k);
void fatbin_targets_done(struct fatbin_targets *ts);
