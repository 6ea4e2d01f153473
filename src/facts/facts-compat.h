/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NVIDIA's CUDA forward-compatibility package table of the knowledge base (data/cuda_compat.tsv,
 * generated into facts-data.c by gen-facts.py) and its lookup (facts-compat.c): which kernel
 * driver branches each cuda-compat-<major>-<minor> package is supported on. Apart from facts.h
 * so that the many users of facts.h do not depend on it.
 */
#pragma once

#include <stddef.h>

/* One cell of NVIDIA's "Use the Right CUDA Forward Compatibility Package" table. */
struct facts_cuda_compat {
	const char *package;	   /* the CUDA in the package name: "12.8" (cuda-compat-12-8) */
	const char *driver_branch; /* the kernel module's branch: "535" */
	const char *support;	   /* "compatible", "not_compatible", "not_needed" */
	const char *confidence;
	const char *source;
};

const struct facts_cuda_compat *facts_cuda_compat_table_rows(void);
extern const size_t facts_cuda_compat_table_len;

enum facts_compat_support {
	/* the table has the package but not the branch: NVIDIA lists only the branches it
	 * supports ("end of life" and New Feature Branches are not supported targets) */
	FACTS_COMPAT_UNLISTED,
	FACTS_COMPAT_COMPATIBLE,
	FACTS_COMPAT_NOT_COMPATIBLE, /* the package is older than the branch's own CUDA */
	FACTS_COMPAT_NOT_NEEDED,     /* the branch's own CUDA */
};

/* The support of package `package` ("12.8", or "12.8.1": major.minor counts) on the kernel
 * driver `driver` ("535.183.01" or "535": its branch counts): an enum facts_compat_support,
 * with *ret (may be NULL) the row, NULL when unlisted; -ENOENT when the table has no row of the
 * package, -EINVAL when either is not a version. */
int facts_cuda_compat_support(const char *package, const char *driver,
			      const struct facts_cuda_compat **ret);

/* The branches the table lists `package` as compatible with, as "R535, R570" in buf (empty
 * when none); returns how many. */
size_t facts_cuda_compat_branches(const char *package, char *buf, size_t len);

/* The package a compat libcuda of driver `driver` ("590.44.01") is: the one whose own branch
 * (its not_needed cell, the table's column header "590+ (CUDA 13.1)") that is; NULL when the
 * branch is not a column of the table. */
const char *facts_cuda_compat_package_of(const char *driver);
