/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Intel GPU tables of the knowledge base (data/ipex_xpu.tsv, data/intel_gpu_kernel.tsv,
 * data/intel_compute_runtime_legacy.tsv,
 * generated into facts-data.c by gen-facts.py) and their lookups (facts-intel.c). Apart from
 * facts.h so that the many users of facts.h do not depend on them.
 */
#pragma once

#include <stddef.h>

/* One intel-extension-for-pytorch GPU release (ipex_xpu.tsv). */
struct facts_ipex {
	const char *ipex;   /* "2.1.20" (the local part "+xpu" left out) */
	const char *torch;  /* the PyTorch major.minor it is built for: "2.1" */
	const char *oneapi; /* the oneAPI Base Toolkit major.minor it links: "2024.1" */
	const char *confidence;
	const char *source;
};

const struct facts_ipex *facts_ipex_table_rows(void);
extern const size_t facts_ipex_table_len;

/* The row of an ipex version ("2.1.20+xpu", "2.1.20"): 0, or -ENOENT. */
int facts_ipex_release(const char *version, const struct facts_ipex **ret);

/* One Intel GPU family and the upstream Linux release whose i915/xe first binds it by default
 * (intel_gpu_kernel.tsv). */
struct facts_intel_kernel {
	const char *family;	    /* "DG2" */
	const char *driver;	    /* "i915" or "xe" */
	const char *pci_device_ids; /* "56a0,56a1,..." (lower-case hex) */
	const char *default_from;   /* "6.2"; NULL: no upstream release as of the source */
	const char *products;
	const char *confidence;
	const char *notes;
	const char *source;
};

const struct facts_intel_kernel *facts_intel_kernel_table_rows(void);
extern const size_t facts_intel_kernel_table_len;

/* The family of Intel PCI device id `device` (0x56a0): 0, or -ENOENT. */
int facts_intel_kernel_family(unsigned device, const struct facts_intel_kernel **ret);

/* One Intel GPU family that the compute runtime's regular packages dropped
 * (intel_compute_runtime_legacy.tsv). */
struct facts_intel_legacy {
	const char *family;	    /* "CFL" */
	const char *generation;	    /* "Gen9" */
	const char *pci_device_ids; /* "3e90,3e91,..." (lower-case hex) */
	const char *dropped_from;   /* the first regular release without it: "24.35.30872.22" */
	const char *level_zero; /* "yes": the legacy1 packages drive it through Level Zero too */
	const char *products;
	const char *confidence;
	const char *notes;
	const char *source;
};

const struct facts_intel_legacy *facts_intel_legacy_table_rows(void);
extern const size_t facts_intel_legacy_table_len;

/* The legacy family of Intel PCI device id `device` (0x3e92): 0, or -ENOENT. */
int facts_intel_legacy_family(unsigned device, const struct facts_intel_legacy **ret);
