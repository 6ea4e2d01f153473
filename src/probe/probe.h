/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The probe table (pciutils lib/init.c pci_methods[], htop Platform.c): every data source
 * is one row, run in table order, each writing its own subtree of the snapshot and nothing
 * else. A probe never decides what is wrong (that is rules/); a failed read becomes a fact
 * state, so a probe's run() fails only on OOM.
 */
#pragma once

#include <stdbool.h>

#include "core/ctx.h"
#include "gpuenv/gpuenv.h"
#include "snapshot/snapshot.h"

struct loader;

struct probe_env {
	struct gpuenv_ctx *ctx;
	struct root *root;
	const struct env *env;
	const struct log_sink *log;
	/* /var/lib/dpkg/status, read once for every probe that asks (probe_dpkg_version()). */
	struct {
		bool read;
		int err;
		char *text;
	} dpkg_status;
	/* One ld.so emulation for every probe (its ld.so.cache and directory listings are read
	 * once): probe_loader(). */
	struct loader *loader;
};

#define PROBE_DPKG_STATUS "/var/lib/dpkg/status"

/* The version of an installed Debian package (deb-control(5) stanzas of dpkg's status file,
 * read once per run): 0 installed (version in buf), 1 not installed, or the negative errno of
 * reading the file (-ENOENT: no dpkg database at all). */
int probe_dpkg_version(struct probe_env *pe, const char *package, char *buf, size_t len);
/* The run's loader emulation (src/probe/loader.h), made on first use; borrowed. */
int probe_loader(struct probe_env *pe, struct loader **ret);
/* Does path exist with this file type (S_IFREG, S_IFDIR …; links followed, in the root)? */
bool probe_path_is(struct probe_env *pe, const char *path, mode_t type);
/* The same for a path built from fmt. */
bool probe_pathf_is(struct probe_env *pe, mode_t type, const char *fmt, ...) _printf_(3, 4);
/* Frees what the probes cached in pe (the dpkg status text, the loader). */
void probe_env_done(struct probe_env *pe);

struct probe {
	const char *name; /* stable: appears in the snapshot's "probes" record */
	enum gpuenv_layer layer;
	int (*run)(struct probe_env *pe, struct snapshot *s);
};

/* Runs every probe in table order into s; records each probe's outcome under "probes". */
int probe_run_all(struct gpuenv_ctx *ctx, struct snapshot *s);

/* Layer subtree names in the snapshot ("hardware", "driver", …). */
const char *layer_to_string(enum gpuenv_layer l);

/* Probe entry points (one file each). */
int probe_host(struct probe_env *pe, struct snapshot *s);
int probe_cuda_toolkit(struct probe_env *pe, struct snapshot *s);
int probe_environment(struct probe_env *pe, struct snapshot *s);
int probe_container(struct probe_env *pe, struct snapshot *s);
int probe_nvidia_driver(struct probe_env *pe, struct snapshot *s);
int probe_pci(struct probe_env *pe, struct snapshot *s);
int probe_libraries(struct probe_env *pe, struct snapshot *s);
int probe_kernel_log(struct probe_env *pe, struct snapshot *s);
int probe_rocm(struct probe_env *pe, struct snapshot *s);
int probe_python(struct probe_env *pe, struct snapshot *s);
int probe_container_host(struct probe_env *pe, struct snapshot *s);
int probe_nvml(struct probe_env *pe, struct snapshot *s);
int probe_cuda_driver(struct probe_env *pe, struct snapshot *s);
int probe_opencl(struct probe_env *pe, struct snapshot *s);
int probe_process(struct probe_env *pe, struct snapshot *s);

/* probe-libraries.c: the library object and search-list writers (docs/snapshot-schema.md
 * "driver.userspace, runtime.libraries, runtime.loader"), shared with framework-loads.c. */
struct loader_result;
struct loader_dirs;
void probe_write_loader_result(struct snap_node *o, const struct loader_result *r);
void probe_write_loader_dirs(struct snap_node *arr, const struct loader_dirs *d,
			     const char *source);
