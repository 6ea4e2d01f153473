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
#include "formats/toolkit-parse.h"
#include "gpuenv/gpuenv.h"
#include "probe/dir-cache.h"
#include "shared/strmap.h"
#include "snapshot/snapshot.h"

struct loader;
struct vendor_pending;

/* What kept a session from making a call when that was a path that could not be read
 * (libcuda's cuInit where /sys/module/nvidia_uvm cannot be looked at): the session writes the
 * call's facts as "not called: <why>", unprobed, and the probe rewrites those in this state
 * with this source, since the probe, not the library, read the path. FACT_UNPROBED: none. */
struct probe_skip_failure {
	enum fact_state state;
	const char *source; /* the path; a literal */
	char why[224];	    /* the reason the session was given (vendor_req.skip_init) */
};

/* A vendor session its probe started and probe_run_all() collects after the file probes, so
 * that the children (NVML, libcuda, OpenCL, AMD SMI) run alongside each other and the probes
 * that read files: see probe_vendor_pend(). */
struct probe_pending {
	const char *probe;	   /* the probe's row: collection.probe_us.<probe> */
	double t0_ms;		   /* when its row started */
	struct snap_node *obj;	   /* where the result goes */
	const char *const *keys;   /* its facts when the session could not be collected */
	const char *label;	   /* in log lines: "NVML: …" */
	const char *session;	   /* the session fact's source: "nvml child process …" */
	unsigned timeout_ms;	   /* the deadline, for the session fact's source */
	struct vendor_pending *vp; /* the running child */
	/* a call it skipped for a read failure */
	struct probe_skip_failure skip;
};

#define PROBE_MAX_PENDING 8

struct probe_env {
	struct gpuenv_ctx *ctx;
	struct root *root;
	const struct env *env;
	const struct log_sink *log;
	/* /var/lib/dpkg/status, mapped once for every probe that asks (probe_dpkg_version()). */
	struct {
		bool read;
		int err;
		struct root_map map;
		bool indexed; /* idx holds every stanza (else the text is searched) */
		struct dpkg_status_index idx;
	} dpkg_status;
	/* One ld.so emulation for every probe (its ld.so.cache and directory listings are read
	 * once): probe_loader(). */
	struct loader *loader;
	/* The probed environment's PATH, split once (probe_path_dirs()), and the listings of
	 * the directories searched for commands (probe_dir_may_hold()). */
	bool path_read;
	char **path_dirs;
	struct dir_cache path_listings;
	/* Its Python environments (conda/mamba envs among them), found once for the python,
	 * CUDA toolkit and ROCm probes (probe_python_envs()). */
	struct probe_pyenvs *pyenvs;
	/* The probe running now (its name, when its row started), and the vendor sessions
	 * started and not yet collected. */
	const char *probe;
	double probe_t0_ms;
	struct probe_pending pending[PROBE_MAX_PENDING];
	size_t n_pending;
};

#define PROBE_DPKG_STATUS "/var/lib/dpkg/status"

/* The version of an installed Debian package (deb-control(5) stanzas of dpkg's status file,
 * read once per run): 0 installed (version in buf), 1 not installed, or the negative errno of
 * reading the file (-ENOENT: no dpkg database at all). */
int probe_dpkg_version(struct probe_env *pe, const char *package, char *buf, size_t len);
/* The installed packages that depend on package (probe_dpkg_status_required_by()): their
 * count, or the negative errno of reading the status file. */
int probe_dpkg_required_by(struct probe_env *pe, const char *package, char *buf, size_t len);
/* The run's loader emulation (src/probe/loader.h), made on first use; borrowed. */
int probe_loader(struct probe_env *pe, struct loader **ret);
/* Is path a file of this type (S_IFREG, S_IFDIR …; links followed, in the root)? 1 yes; 0 no:
 * missing (ENOENT, ENOTDIR) or another type; the negative errno when it could not be looked
 * at (EACCES, ELOOP, ENAMETOOLONG, EIO …), which is never "missing": each caller says what it
 * does with that (records it, keeps the candidate so that its reads record it). */
int probe_path_test(struct probe_env *pe, const char *path, mode_t type);
/* obj[key] = path when path is a file of that type; unreadable/error when it could not be
 * looked at (EACCES is not "no such file"); absent otherwise. */
void probe_set_path_fact(struct probe_env *pe, struct snap_node *obj, const char *key,
			 const char *path, mode_t type);
/* probe_path_test() of a path built from fmt (-ENOMEM when it cannot be built). */
int probe_pathf_test(struct probe_env *pe, mode_t type, const char *fmt, ...) _printf_(3, 4);
/* ---- shared by the CUDA toolkit and ROCm probes ---- */

/* A directory of a toolkit (lib64, targets/…/lib, conda-meta …) that could not be listed:
 * obj[key][] gets {path} in the errno's state (-E2BIG: `unreadable` "more than max entries"),
 * its source the directory. What the listing would have named is then unknown, never "none". */
void probe_note_unlisted(struct snap_node *obj, const char *key, const char *dir, int err,
			 size_t max);

#define PROBE_LINK_MAX_HOPS                                                                        \
	40 /* Linux follows at most 40 symlinks in one lookup (path_resolution(7)) */

/*
 * Reads the symlink chain starting at path (inside the root) into arr as "LINK -> TARGET"
 * strings, each with the link as its source; stops at the first non-link. Returns 0,
 * -ELOOP after PROBE_LINK_MAX_HOPS links, -ENOENT when path does not exist or the chain
 * ends in a missing target (ret_dangling set), other -errno from the root.
 */
int probe_link_chain(struct root *r, const char *path, struct snap_node *arr, bool *ret_dangling);
/*
 * Reads dir/name through the root (at most max bytes), a version source that may be missing:
 * 0 with *ret_path and *ret_text (both malloc()ed); -ENOENT, not recorded, when it does not
 * exist (the next source is tried); any other error is recorded as snap_set_errno(node, key)
 * and returned (-ENOMEM for the path itself is returned only).
 */
int probe_read_optional(struct root *r, const char *dir, const char *name, size_t max,
			struct snap_node *node, const char *key, char **ret_path, char **ret_text);
/* The last `cap` bytes of a regular file (a log that grows), from its first whole line on:
 * 0 with *ret (malloc()ed, NUL-terminated), *ret_len and *ret_truncated (bytes were cut);
 * -EBADFD when it is not a regular file (root_file_open() refuses a FIFO planted in a sysroot:
 * it must not hang), the -errno of opening or reading, -ENOMEM. */
int probe_read_tail(struct probe_env *pe, const char *path, size_t cap, char **ret, size_t *ret_len,
		    bool *ret_truncated);
/* A prefix a discovery found (a CUDA toolkit, a ROCm installation): the path as found, the
 * path resolved inside the root, and every way it was found ("PATH nvcc", "CUDA_HOME" …). */
struct probe_prefix {
	char *path, *resolved;
	char **via;
};
/* Is p the prefix resolved (a candidate found again)? Then via is added to its ways (once)
 * and 1 returned; 0 when it is another; -ENOMEM. */
int probe_prefix_seen(struct probe_prefix *p, const char *resolved, const char *via);
/* *p = {a copy of path, resolved (taken), [via]}: 0, or -ENOMEM with what was set in *p for
 * probe_prefix_done(). */
int probe_prefix_set(struct probe_prefix *p, const char *path, char *resolved, const char *via);
void probe_prefix_done(struct probe_prefix *p);
/* path, resolved_path and found_via[] of p into o. */
void probe_prefix_record(struct snap_node *o, const struct probe_prefix *p);
/* A rejected candidate: {path, found_via[], toolkit (why), link_chain[]} appended to arr. */
void probe_reject(struct root *r, struct snap_node *arr, const char *origin, const char *via,
		  const char *prefix, int err, const char *why);

/* ---- programs and environments, one lookup for every probe ---- */

/* The absolute entries of the probed environment's PATH, in order (a relative entry means
 * nothing under a root); split once per run, borrowed. 0 or -ENOMEM. */
int probe_path_dirs(struct probe_env *pe, char ***ret);
/* May dir hold name? false only when dir's listing (read once per run) does not name it: a
 * command looked for in every PATH directory is then a binary search, not a stat per
 * directory. true when dir cannot be listed: the caller's stat tells. */
bool probe_dir_may_hold(struct probe_env *pe, const char *dir, const char *name);
/* `which -a name` in the probed environment: every regular file called name in the PATH
 * directories (links followed, inside the root), and every one that could not be looked at
 * (EACCES, ELOOP: never taken as missing), in PATH order. *ret may be NULL (none). */
int probe_which(struct probe_env *pe, const char *name, char ***ret);
/* <prefix> of <prefix>/bin/<exe>, exe's links resolved first (CPython getpath, nvcc, hipconfig
 * all live in <prefix>/bin). The -errno of resolving, -ENOMEM. */
int probe_bin_prefix(struct probe_env *pe, const char *exe, char **ret);

/* Environments found at most: a shared machine's ~/.conda/envs or a CI cache can hold
 * thousands; past this the listing is recorded as truncated (framework.python_envs_truncated)
 * and the rules that need a complete listing say so instead of concluding "absent". */
#define PROBE_MAX_ENVS 10000u

/* One Python environment: kind is how it was made (conda, pipx, uv, poetry, hatch, pyenv,
 * venv, user, system), via[] what pointed there. */
struct probe_pyenv {
	char *prefix, *resolved;
	const char *kind;
	int resolve_err;
	char **via, **interpreters, **extra_sites;
};

struct probe_pyenv_unreadable {
	char *dir;
	int err; /* negative errno */
};

struct probe_pyenvs {
	struct probe_pyenv *e;
	size_t n, cap;
	struct strmap by_resolved; /* resolved prefix → index in e */
	struct strmap listed;	   /* container directories already listed (envs/, venvs/ …) */
	bool truncated;		   /* more than PROBE_MAX_ENVS, or a container too big to list */
	/* Directories the discovery could not read (what they hold is unknown, never absent),
	 * at most PROBE_MAX_ENVS_UNREADABLE; the python probe turns them into facts. */
	struct probe_pyenv_unreadable *unreadable;
	size_t n_unreadable;
};
#define PROBE_MAX_ENVS_UNREADABLE 256u

/* Records dir as not read by the discovery (once per directory). 0 or -ENOMEM. */
int probe_pyenvs_note_unreadable(struct probe_pyenvs *es, const char *dir, int err);

/* Every Python environment of the probed machine, found once per run (src/probe/
 * probe-python-envs.c lists where it looks) and shared by the python, CUDA toolkit and ROCm
 * probes; deduplicated by resolved prefix in one hash lookup each, so finding N environments
 * costs O(N). Borrowed. 0 or -ENOMEM. */
int probe_python_envs(struct probe_env *pe, const struct probe_pyenvs **ret);
void probe_python_envs_free(struct probe_env *pe);

/* Frees what the probes cached in pe (the dpkg status text, the loader). */
void probe_env_done(struct probe_env *pe);

struct probe {
	const char *name; /* stable: appears in the snapshot's "probes" record */
	enum gpuenv_layer layer;
	int (*run)(struct probe_env *pe, struct gpuenv_snapshot *s);
	bool sample; /* run also for a metrics sample (GPUENV_CTX_GPU_SAMPLE) */
};

/* CLOCK_MONOTONIC in milliseconds (the probe timings). */
double probe_now_ms(void);
/* Runs every probe in table order into s; records each probe's outcome under "probes". */
int probe_run_all(struct gpuenv_ctx *ctx, struct gpuenv_snapshot *s);

/* Probe entry points (one file each). */
int probe_host(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_cuda_toolkit(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_environment(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_container(struct probe_env *pe, struct gpuenv_snapshot *s);
/* container.image: what --image read (probe-image.c); nothing without an image. */
void probe_image(struct probe_env *pe, struct snap_node *container);
/* Where an environment variable's value came from: "image config Env" when the image's
 * configuration set it (and nothing overlaid it), "environment" otherwise. */
const char *probe_env_source(const struct probe_env *pe, const char *key);
int probe_nvidia_driver(struct probe_env *pe, struct gpuenv_snapshot *s);
/* driver.module_blacklist[]: modprobe.d and kernel command-line blacklists (probe-modprobe.c). */
void probe_module_blacklist(struct probe_env *pe, struct snap_node *drv);
/* The modprobe.d(5) *.conf files in the order modprobe reads them, a name in an earlier
 * directory hiding the same name in a later one; an unlistable directory is recorded under
 * drv (when not NULL). 0 or -ENOMEM. */
int probe_modprobe_conf_paths(struct probe_env *pe, struct snap_node *drv, char ***ret);
int probe_pci(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_libraries(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_kernel_log(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_package_log(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_rocm(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_python(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_container_host(struct probe_env *pe, struct gpuenv_snapshot *s);
/* runtime.slurm: gres.conf, slurm.conf, cgroup.conf and Slurm's NVML plugin (probe-slurm.c). */
int probe_slurm(struct probe_env *pe, struct gpuenv_snapshot *s);
/* framework.ollama: the CUDA libraries ollama bundles, their GPU code and CUDA runtime
 * (probe-ollama.c). */
int probe_ollama(struct probe_env *pe, struct gpuenv_snapshot *s);
/* framework.ollama.service_unit and service_environment: the GPU variables ollama's systemd
 * service sets (probe-ollama-service.c); nothing where no ollama.service exists. */
int probe_ollama_service(struct probe_env *pe, struct snap_node *ollama);
/* arch_targets[] of one library into obj (probe-python-kernels.c). 0 or -ENOMEM. */
int probe_record_targets(struct probe_env *pe, struct snap_node *obj, const char *path);
int probe_nvml(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_amdsmi(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_ze_session(struct probe_env *pe, struct gpuenv_snapshot *s);
/* driver.amdgpu.kfd_nodes[] (gfx target, capability, sramecc) and the XNACK settings
 * (probe-amd-kfd.c), called by the driver probe. */
void probe_amd_kfd(struct probe_env *pe, struct snap_node *amd);
int probe_cuda_driver(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_opencl(struct probe_env *pe, struct gpuenv_snapshot *s);
int probe_process(struct probe_env *pe, struct gpuenv_snapshot *s);

/* probe-libraries.c: the library object and search-list writers (docs/snapshot-schema.md
 * "driver.userspace, runtime.libraries, runtime.loader"), shared with framework-loads.c. */
struct loader_result;
struct loader_dirs;
void probe_write_loader_result(struct snap_node *o, const struct loader_result *r);
/* The ld.so search for soname, written into o: "soname" and the loader's answer
 * (probe_write_loader_result()). 0 or -ENOMEM. */
int probe_resolve_into(struct loader *l, struct snap_node *o, const char *soname);
void probe_write_loader_dirs(struct snap_node *arr, const struct loader_dirs *d,
			     const char *source);
