/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AMD's kernel driver vs ROCm user-space table of the knowledge base (data/amdgpu_kmd.tsv,
 * generated into facts-data.c by gen-facts.py) and its lookup (facts-amd.c). Apart from facts.h
 * so that the many users of facts.h do not depend on it.
 */
#pragma once

#include <stddef.h>

/* One row of AMD's "User and AMD GPU Driver (amdgpu) support matrix" (amdgpu_kmd.tsv). */
struct facts_amdgpu_kmd {
	const char
		*kmd; /* the ROCm release of the amdgpu-dkms package: "6.2" (30.x: the driver's) */
	const char *user_space; /* ROCm major.minor releases AMD supports on it: "6.0,6.1,6.2" */
	const char *confidence;
	const char *source;
};

const struct facts_amdgpu_kmd *facts_amdgpu_kmd_table_rows(void);
extern const size_t facts_amdgpu_kmd_table_len;

/* Whether AMD supports ROCm user space `user` ("6.2.0" or "6.2": its major.minor counts) on the
 * kernel driver of release `kmd` ("6.1"): 1 listed, 0 not listed, -ENOENT no row for kmd or a
 * version that is not major.minor[...]. *ret (may be NULL) gets the row. */
int facts_amdgpu_kmd_supports(const char *kmd, const char *user,
			      const struct facts_amdgpu_kmd **ret);

/* A ROCm release that does not work on the kernel's own amdgpu of some kernel releases for one
 * GPU target (rocm_kernel_amdgpu.tsv). */
struct facts_rocm_kernel_amdgpu {
	const char *rocm;	 /* "4.1" */
	const char *gfx;	 /* "gfx906" */
	const char *kernel_from; /* "5.10": kernel major.minor releases, inclusive */
	const char *kernel_to;	 /* "5.12" */
	const char *what;	 /* what ROCm prints there */
	const char *confidence;
	const char *source;
};

const struct facts_rocm_kernel_amdgpu *facts_rocm_kernel_amdgpu_table_rows(void);
extern const size_t facts_rocm_kernel_amdgpu_table_len;

/* Whether ROCm `rocm` ("4.1.0": its major.minor counts) does not work for gfx on the kernel's own
 * amdgpu of kernel release `kernel` ("5.11.6-1-default": its major.minor counts): 1 with *ret
 * (may be NULL) the row, 0 when the table says nothing of it, -EINVAL for a version that is
 * not major.minor[...]. */
int facts_rocm_kernel_amdgpu(const char *rocm, const char *gfx, const char *kernel,
			     const struct facts_rocm_kernel_amdgpu **ret);

/* One AMD GPU family and the upstream Linux releases whose own amdgpu does and does not drive it
 * (amdgpu_kernel.tsv). */
struct facts_amdgpu_kernel {
	const char *family;	    /* "VEGA10": amdgpu's CHIP_ name */
	const char *gfx;	    /* "gfx900" */
	const char *pci_device_ids; /* "687f,..." (lower-case hex) */
	const char *first_release;  /* "4.12"; NULL: not confirmed */
	const char
		*absent_through; /* "4.19": the newest release known not to drive it; NULL: none */
	const char *products;
	const char *confidence;
	const char *notes;
	const char *source;
};

const struct facts_amdgpu_kernel *facts_amdgpu_kernel_table_rows(void);
extern const size_t facts_amdgpu_kernel_table_len;

/* The family of AMD PCI device id `device` (0x687f): 0, or -ENOENT. */
int facts_amdgpu_kernel_family(unsigned device, const struct facts_amdgpu_kernel **ret);
