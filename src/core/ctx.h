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
#include "shared/strbuf.h"

#define CTX_DEFAULT_VENDOR_TIMEOUT_MS 5000u

/* What --image was (libgpuenv-image.c); the image probe records it. */
struct image_info {
	const char *kind; /* "directory", "docker-save", "oci-layout", "oci-archive",
			     "rootfs-tar", "capture-bundle" */
	char *platform;	  /* the configuration's os/architecture[/variant], or NULL */
	unsigned layers, compressed;
	size_t entries, images;
	bool complete;	   /* no issue while indexing */
	char *issues;	   /* newline-separated, "" when none */
	char **env;	   /* the configuration's Env ("KEY=VALUE"), NULL when none */
	char *environment; /* a capture bundle's environment member (--env-file form), or NULL */
};

struct vendor_keep;

struct gpuenv_ctx {
	struct log_sink log;
	struct root *root;
	struct env *env;
	unsigned flags; /* GPUENV_CTX_* */
	bool live;	/* root is "/" */
	char *nvml_lib, *cuda_lib, *opencl_lib, *amdsmi_lib, *ze_lib;
	char *hostname; /* gpuenv_ctx_opts.hostname, or NULL */
	unsigned vendor_timeout_ms;
	gpuenv_pci_name_fn pci_name_fn; /* the caller's pci.ids lookup, or NULL */
	void *pci_name_userdata;
	int pid;	/* report --pid: the process whose mappings the process probe reads, or 0 */
	bool has_image; /* opened with gpuenv_ctx_opts.image */
	struct image_info image; /* then: what it was */
	/* GPUENV_CTX_VENDOR_KEEP: NVML's child that stays (src/vendor/session-keep.c), ended by
	 * gpuenv_ctx_free(). */
	struct vendor_keep *nvml_keep;
	/* gpuenv_ctx_set_nvml_sweep(): another context's NVML sweep (driver.nvml as JSON), which
	 * the NVML probe takes instead of a session of its own; NULL: none. */
	char *nvml_sweep;
	size_t nvml_sweep_len;
	/* The last collection's NVML probe ran a child (answered or failed): its facts are a
	 * sweep another context may take (gpuenv_ctx_nvml_sweep()). */
	bool nvml_swept;
	/* GPUENV_CTX_TRACE_READS: the "keep" records of ctx_keep() (kept.c), and their names. */
	struct strbuf kept;
	char **kept_names;
};

/* May this run call into a vendor library? (Never under --sysroot unless a library is named.) */
bool ctx_vendor_allowed(const struct gpuenv_ctx *ctx, const char *explicit_lib);

/*
 * Capture and replay of what files do not hold (kept.c; docs/design.md "Capture and replay"):
 * the live kernel ring buffer, the vendor sessions' results, the GPU code found in a library
 * a bundle keeps only in part. Under GPUENV_CTX_TRACE_READS, ctx_keep() adds name's bytes to
 * the trace (`gpuenv capture` stores them as the file CTX_KEPT_DIR<name> of the bundle's
 * root; the first of a name is kept). ctx_kept() reads that file back on any root but the
 * live one: 0 and *ret (NUL-terminated, *ret_len bytes), -ENOENT when the root has none.
 * name: "kmsg", "vendor/nvml", "scans/<path>" (letters, digits, '/', '.', '-', '_').
 */
#define CTX_KEPT_DIR "/.gpuenv-capture/"
bool ctx_keeping(const struct gpuenv_ctx *ctx);
int ctx_keep(struct gpuenv_ctx *ctx, const char *name, const void *data, size_t len);
int ctx_kept(struct gpuenv_ctx *ctx, const char *name, size_t max, char **ret, size_t *ret_len);
