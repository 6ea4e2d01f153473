/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Will this GPU code run on this device with this driver? A pure function over plain inputs
 * (target strings as nvcc spells them, with the PTX ISA of each PTX entry; a compute
 * capability; a driver version), so the scanner (src/scan) and the doctor's rules (target
 * lists stored in the snapshot) share one implementation. Rules: docs/compatibility.md
 * (a) SASS/cubin incl. Tegra, `a` and `f` targets and (b) PTX JIT,
 * with the tables src/facts/data/sm_arch.tsv (families, Tegra) and ptx_isa.tsv (PTX ISA →
 * lowest driver branch).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum coverage_verdict {
	COVERAGE_NO_GPU_CODE = 0, /* no SASS or PTX at all (nothing to judge) */
	COVERAGE_NATIVE,	  /* a SASS image runs on the device */
	COVERAGE_PTX_JIT,	  /* no SASS; PTX the driver JIT-compiles at first launch */
	COVERAGE_PTX_TOO_NEW,	  /* only PTX newer than the driver's JIT: error 222 */
	COVERAGE_NO_KERNEL_IMAGE, /* nothing for this device: error 209 */
	COVERAGE_DRIVER_TOO_OLD,  /* the CUDA runtime it links or bundles needs a newer driver:
				   * cudaErrorInsufficientDriver (35) */
	COVERAGE_DRIVER_GPU_UNSUPPORTED, /* the driver's branch predates the GPU, or dropped its
					  * architecture: nothing runs (cudaErrorNoDevice, 100) */
};

enum coverage_kind {
	/* lto_XX: LTO-IR (NVVM IR, `nvcc -dlto`, `-gencode code=lto_XX`; fatbinary.h kind 8),
	 * input to a device link (nvlink -dlto, nvJitLink), never loaded by the driver itself */
	COVERAGE_KIND_OTHER = 0,
	COVERAGE_KIND_SASS,
	COVERAGE_KIND_PTX,
};

/* One target as nvcc spells it, parsed. */
struct coverage_target_info {
	enum coverage_kind kind;
	unsigned arch; /* 86, 100, 121 */
	char variant;  /* 0, 'a', 'f' */
};

struct coverage_target {
	const char *target;	  /* "sm_86", "sm_90a", "sm_100f", "compute_90", "lto_80" */
	int ptx_major, ptx_minor; /* PTX ISA of a compute_ target, the LTO-IR version of an
				   * lto_ target (src/facts/ltoir.h); -1 when unknown */
};

struct coverage_result {
	enum coverage_verdict verdict;
	size_t entry;	  /* index of the deciding target; SIZE_MAX when none */
	bool unconfirmed; /* relies on a table row marked unconfirmed, an unknown PTX
			   * ISA, or a driver newer than the knowledge base */
	bool lto_only;	  /* no SASS or PTX, only LTO-IR: no-kernel-image, never "no GPU
			   * code" (the library has device code, none of it loadable) */
	int driver_ptx_major, driver_ptx_minor; /* highest PTX ISA the driver JITs; -1 unknown */
	char reason[512];
};

/* "sm_90a" → SASS 90 'a'. -EINVAL when it is not sm_/compute_/lto_ + digits [+ a|f]. */
int coverage_target_parse(const char *s, struct coverage_target_info *ret);
const char *coverage_verdict_name(enum coverage_verdict v); /* native, ptx-jit, … */
/* Verdicts order by badness: no-gpu-code < native < ptx-jit < ptx-too-new < no-kernel-image <
 * driver-too-old < driver-gpu-unsupported. */
bool coverage_verdict_is_failure(enum coverage_verdict v);

/* Does this SASS / PTX target run / JIT on compute capability major.minor? (No driver.) */
bool coverage_sass_runs(const struct coverage_target_info *t, unsigned major, unsigned minor);
bool coverage_ptx_jits(const struct coverage_target_info *t, unsigned major, unsigned minor);

/*
 * The verdict for a binary carrying targets[0..n) on a device of compute capability
 * major.minor with driver `driver_version` ("550.54.15"; NULL = unknown driver: PTX is
 * assumed JIT-able, and the reason says so). Unparsable target strings are ignored. LTO-IR
 * (lto_XX) never runs: a binary with only LTO-IR is no-kernel-image (lto_only), and a miss
 * names the LTO-IR entry for the device's architecture ("link-time IR, not loadable").
 * Returns 0, or -EINVAL (bad arguments, a driver version that is not a version).
 */
int coverage_judge(const struct coverage_target *targets, size_t n, unsigned major, unsigned minor,
		   const char *driver_version, struct coverage_result *ret);

/*
 * The first driver branch that can drive a GPU of compute capability major.minor, derived
 * from the knowledge base (docs/compatibility.md (e)): the first CUDA toolkit whose SASS
 * targets list the CC (cuda_arch_support.tsv), and the branch of that toolkit's first release
 * (cuda_driver_min.tsv, NVIDIA Table 3). *ret_cuda gets that toolkit ("12.8"), *ret_unconf
 * whether a row it rests on is unconfirmed. -ENOENT when no toolkit in the table targets it,
 * or the table's first one already did (the CC is older than the table).
 */
int coverage_first_branch_for_cc(unsigned major, unsigned minor, unsigned *ret_branch,
				 const char **ret_cuda, bool *ret_unconf);

/*
 * What the driver itself decides, beside the code (coverage_judge()'s result *res, updated
 * in place when the driver fails first): a driver branch that predates the GPU, or whose
 * oldest supported architecture (driver_branches.tsv `oldest_cc`) is newer than the GPU,
 * drives nothing on it (driver-gpu-unsupported), and a CUDA runtime the binary links (`cudart`
 * "13" from libcudart.so.13) or bundles (static: "12.8") needs at least its major's
 * minor-version-compatibility floor (cuda_driver_min.tsv `minor_compat`, NVIDIA Table 2)
 * (driver-too-old). driver_version NULL: nothing is judged. cudart NULL: not linked. 0, or
 * -EINVAL.
 */
int coverage_judge_driver(const char *cudart, unsigned major, unsigned minor,
			  const char *driver_version, struct coverage_result *res);
