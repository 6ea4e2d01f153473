/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct gpuenv_ctx: the options of one gpuenv run, the root it reads, the environment
 * overlay and the log sink. Owned by the caller of gpuenv_ctx_new(); not thread-safe.
 */
#pragma once

#include <stdbool.h>

#include "core/env.h"
#include "core/root.h"
#include "gpuenv/gpuenv.h"
#include "shared/log.h"

#define CTX_DEFAULT_VENDOR_TIMEOUT_MS 5000u

struct gpuenv_ctx {
	struct log_sink log;
	struct root *root;
	struct env *env;
	unsigned flags; /* GPUENV_CTX_* */
	bool live;	/* root is "/" */
	char *nvml_lib, *cuda_lib, *opencl_lib, *amdsmi_lib;
	unsigned vendor_timeout_ms;
	gpuenv_pci_name_fn pci_name_fn; /* the caller's pci.ids lookup, or NULL */
	void *pci_name_userdata;
	int pid; /* report --pid: the process whose mappings the process probe reads, or 0 */
};

/* May this run call into a vendor library? (Never under --sysroot unless a library is named.) */
bool ctx_vendor_allowed(const struct gpuenv_ctx *ctx, const char *explicit_lib);
