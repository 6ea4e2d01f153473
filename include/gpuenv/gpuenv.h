/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgpuenv: read a machine's GPU stack (hardware, driver, runtime, framework, container)
 * into a snapshot, judge it against a knowledge base, and render the result.
 *
 * Conventions (kmod, libbpf): opaque types, no typedefs; functions that can fail return
 * int, >= 0 on success and a negative errno on failure, and write their ret_ parameters
 * only on success. Strings returned through char ** are malloc'd and owned by the caller
 * (free()); const char * results are borrowed from the object that returned them.
 * The library never prints and never exits; it logs through gpuenv_ctx_set_log_fn().
 */
#ifndef GPUENV_GPUENV_H
#define GPUENV_GPUENV_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gpuenv-version.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUENV_API __attribute__((visibility("default")))

/* The five layers, bottom up. Values are stable. */
enum gpuenv_layer {
	GPUENV_LAYER_HARDWARE = 0,
	GPUENV_LAYER_DRIVER = 1,
	GPUENV_LAYER_RUNTIME = 2,
	GPUENV_LAYER_FRAMEWORK = 3,
	GPUENV_LAYER_CONTAINER = 4,
};

/* ---- context ---------------------------------------------------------------------- */

struct gpuenv_ctx;

/* A log message: priority is a syslog number (3 err … 7 debug); format/args as vprintf. */
typedef void (*gpuenv_log_fn)(void *userdata, int priority, const char *file, int line,
			      const char *fn, const char *format, va_list args);

/* Context flags. */
enum {
	/* Leave out everything that changes between runs (timings, hostnames). */
	GPUENV_CTX_STABLE = 1u << 0,
	/* Record every path the probes read (gpuenv_ctx_get_trace()). */
	GPUENV_CTX_TRACE_PATHS = 1u << 1,
	/* (1u << 2 is not used.) */
	/* Do not call vendor libraries (NVML, libcuda, OpenCL) even on the live system. */
	GPUENV_CTX_NO_VENDOR = 1u << 3,
	/* Let the OpenCL session load CPU-only implementations (PoCL) too: by default only the
	 * ICDs that can drive a GPU are loaded. */
	GPUENV_CTX_OPENCL_ALL = 1u << 4,
	/* gpuenv_snapshot_collect() runs only what a metrics sample needs (the hostname and
	 * NVML, in its sandboxed child), not the whole stack: `gpuenv exporter` samples with it
	 * every --interval and diagnoses with a full collection less often. */
	GPUENV_CTX_GPU_SAMPLE = 1u << 5,
	/* With GPUENV_CTX_TRACE_PATHS: the trace also holds "read <offset> <length>\t<path>"
	 * records of the byte ranges of each file that were read (`gpuenv capture` keeps those
	 * ranges of a large file, not the whole file). Since 0.1. */
	GPUENV_CTX_TRACE_READS = 1u << 6,
	/* The active check (`gpuenv doctor --launch`): the libcuda session also creates a
	 * context on each GPU, loads a tiny embedded module (SASS for sm_75 … sm_120, and PTX),
	 * launches its kernel and checks the result (driver.cuda.devices[].launch). It runs code
	 * on the GPUs, so it is never the default; its session's deadline is 4 × the vendor
	 * timeout. Since 0.1. */
	GPUENV_CTX_LAUNCH = 1u << 7,
	/* With an image: hash each layer blob the manifest names by a sha256 digest and leave
	 * out, as an index issue, one whose bytes do not match: an
	 * altered or damaged image. Reads every byte of the image, so it is not the default (a
	 * blob's size is always checked against its descriptor). Since 0.1. */
	GPUENV_CTX_VERIFY_IMAGE = 1u << 8,
	/* NVML's sandboxed child stays alive between gpuenv_snapshot_collect() calls on this
	 * context (nvmlInit once, then one sweep of the devices per call, under the vendor
	 * timeout), as a monitoring loop wants (`gpuenv exporter`); a child that hangs, dies or
	 * writes garbage is killed and restarted with a backoff (1 s doubling to 64 s), and
	 * driver.nvml.session_restarts counts the restarts. gpuenv_ctx_free() ends it. Since 0.1. */
	GPUENV_CTX_VENDOR_KEEP = 1u << 9,
	/* Run the vendor sessions one at a time: each child's tree ends before the next one
	 * starts, instead of all of them running beside the file probes. The snapshot is the
	 * same; the collection takes longer (the sum of the sessions rather than the longest),
	 * and their processes never add up in memory (`gpuenv exporter`'s diagnosis). With
	 * GPUENV_CTX_VENDOR_KEEP, NVML's child too ends after its sweep. Since 0.1. */
	GPUENV_CTX_VENDOR_SERIAL = 1u << 10,
};

/*
 * Sized options (libbpf OPTS): set .sz = sizeof(struct gpuenv_ctx_opts); fields added
 * later go at the end, and a caller built against an older header keeps working.
 */
struct gpuenv_ctx_opts {
	size_t sz;
	const char *sysroot;  /* NULL or "/" = the live machine */
	const char *env_file; /* KEY=VALUE lines overlaying the environment (docker --env-file) */
	const char *nvml_lib; /* path of libnvidia-ml.so.1 to load (enables NVML under --sysroot) */
	const char *cuda_lib; /* path of libcuda.so.1 to load (likewise) */
	unsigned flags;	      /* GPUENV_CTX_* */
	unsigned vendor_timeout_ms; /* deadline of one vendor probe; 0 = default (5000) */
	const char *opencl_lib;	    /* path of libOpenCL.so.1 to load (likewise) */
	/* > 0: also record the GPU libraries process pid has mapped (/proc/<pid>/maps inside
	 * the root); 0: no process. Negative values are refused with -EINVAL. */
	int pid;
	/* Receives the messages of gpuenv_ctx_new() itself (e.g. "env file PATH: line 3: a line
	 * longer than 65536 bytes"), which come before gpuenv_ctx_set_log_fn() can be called,
	 * and stays the context's log function unless that replaces it. NULL: none. */
	gpuenv_log_fn log_fn;
	void *log_userdata;
	/* A container image to judge instead of the live machine or sysroot (set at most one of
	 * them): a `docker save` tar, an OCI image layout (directory or tar), the tar (or
	 * .tar.gz/.tar.zst) of a root tree or a capture bundle, or an unpacked root directory.
	 * Its layers are read as one tree with their whiteouts, never extracted, and its
	 * configuration's Env is the environment (env_file overlays it, as `docker run
	 * --env-file` does). Since 0.1. */
	const char *image;
	/* "os/arch[/variant]" to choose among a multi-platform image's manifests; NULL:
	 * linux/amd64. Since 0.1. */
	const char *image_platform;
	/* path of libamd_smi.so to load (enables AMD SMI under --sysroot). Since 0.1. */
	const char *amdsmi_lib;
	/* Python wheels (NULL-terminated paths) judged as installed: each is read in place as pip
	 * would install it into /usr/local/lib/python3.N/site-packages (N from its cp3N tag),
	 * over image (an image archive, not a directory) or over an empty tree when neither
	 * image nor sysroot is set. Since 0.1. */
	const char *const *wheels;
	/* path of libze_loader.so.1 to load (enables Level Zero under --sysroot). Since 0.1. */
	const char *ze_lib;
	/* The name a collection records as collection.hostname instead of reading
	 * /proc/sys/kernel/hostname, which is the reading process's own UTS name (a
	 * Kubernetes pod's is the pod's): `gpuenv exporter` passes $NODE_NAME, as
	 * dcgm-exporter names its Hostname label. NULL or "": read it. Since 0.1. */
	const char *hostname;
};

/*
 * gpuenv_ctx_new: creates a context over the live machine, opts->sysroot or opts->image.
 * opts: may be NULL (the live machine, defaults); copied, the caller keeps its strings.
 * ret: the new context, owned by the caller: gpuenv_ctx_free() it after every object made
 * from it (snapshot, scan) is released. Not reference-counted.
 * Returns 0; -ENOENT / -ENOTDIR / -EACCES when the sysroot cannot be opened; when the env
 * file cannot be read -errno (-EISDIR for a directory), -EBADMSG for a bad line, -EFBIG past
 * a cap, after logging a message naming the path and the line through opts->log_fn;
 * for opts->image, -EINVAL when a sysroot is given too, and the errors of reading it (-ENOENT,
 * -EBADMSG for a manifest or configuration that is not what the image format says, -ENOTSUP
 * for a compressed image archive, -ENOENT (libarchive missing) …), logged through
 * opts->log_fn; problems inside a layer (a truncated or hostile tar) are not errors: the
 * snapshot's "image" facts record them; -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_ctx_new(const struct gpuenv_ctx_opts *opts, struct gpuenv_ctx **ret);
/* gpuenv_ctx_free: frees ctx (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_ctx *gpuenv_ctx_free(struct gpuenv_ctx *ctx);

/* gpuenv_ctx_set_log_fn: where ctx's messages go; fn NULL: nowhere (the default). userdata is
 * passed to fn, not owned. priority: syslog numbers (3 err … 7 debug). Since 0.1. */
GPUENV_API void gpuenv_ctx_set_log_fn(struct gpuenv_ctx *ctx, gpuenv_log_fn fn, void *userdata);
/* gpuenv_ctx_set_log_priority: the least urgent message passed on, as syslog numbers (3 err …
 * 7 debug). Since 0.1. */
GPUENV_API void gpuenv_ctx_set_log_priority(struct gpuenv_ctx *ctx, int priority);
/*
 * Names a PCI device from a PCI ID database (pci.ids). libgpuenv cannot link libpci, which
 * is GPL, so a caller that may (the gpuenv tool) supplies the lookup, e.g. with libpci's
 * pci_lookup_name(). The probe asks only for GPUs its built-in table does not know and
 * records the answer with source "pci.ids". fn writes a NUL-terminated device name into buf
 * (len bytes) and returns 0; -ENOENT when the database has no entry; another negative errno
 * when the database cannot be read. fn NULL (the default): no fallback name.
 */
typedef int (*gpuenv_pci_name_fn)(void *userdata, uint16_t vendor_id, uint16_t device_id,
				  uint16_t subsystem_vendor_id, uint16_t subsystem_device_id,
				  char *buf, size_t len);
/* gpuenv_ctx_set_pci_name_fn: sets that lookup; userdata is passed to fn, not owned.
 * Since 0.1. */
GPUENV_API void gpuenv_ctx_set_pci_name_fn(struct gpuenv_ctx *ctx, gpuenv_pci_name_fn fn,
					   void *userdata);
/* gpuenv_ctx_get_trace: newline-separated "<result>\t<path>" records of every read so far
 * (GPUENV_CTX_TRACE_PATHS), and with GPUENV_CTX_TRACE_READS the byte ranges read and
 * "keep <bytes, %XX-escaped>\t/.gpuenv-capture/<name>" records of what a replay needs besides
 * the files (docs/fleet.md, "Capture"). ret: malloc'd, the caller free()s it. Returns 0,
 * -EINVAL (no ctx or ret), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_ctx_get_trace(struct gpuenv_ctx *ctx, char **ret);

/*
 * gpuenv_ctx_set_nvml_sweep: the collections on ctx take driver.nvml from text, what
 * gpuenv_ctx_nvml_sweep() gave on another context moments before (copied), instead of
 * an NVML session of their own: `gpuenv exporter`'s diagnosis judges its samples' sweep
 * rather than opening NVML again. Only where ctx would call NVML (live, the nvidia module
 * loaded; the same gate as a session's): elsewhere the facts say why it was not called, as
 * without it. text NULL: a session of their own again. Returns 0, -EINVAL, -ENOMEM.
 * Since 0.1.
 */
GPUENV_API int gpuenv_ctx_set_nvml_sweep(struct gpuenv_ctx *ctx, const char *text, size_t len);

/* gpuenv_version: returns the library's version, "MAJOR.MINOR.MICRO" (a static string, not
 * to be freed); the headers' is GPUENV_VERSION_MAJOR/MINOR/MICRO. Since 0.1. */
GPUENV_API const char *gpuenv_version(void);

/* ---- rendering ---------------------------------------------------------------------
 * One convention for everything the library renders (snapshot, scan, diagnosis, rule
 * catalogue, knowledge-base lookup):
 *   int gpuenv_<object>_render(<object>, enum gpuenv_format format, unsigned flags, char **ret)
 * gpuenv_doctor_list_rules() and gpuenv_facts_query() end with the same three arguments.
 * format: the output; flags: GPUENV_RENDER_* (a flag the format has no use for is ignored);
 * ret: a malloc'd NUL-terminated string the caller free()s, written only on success: the
 * library renders into memory, never into a FILE, and the caller writes it where it wants
 * (gpuenv_explain_render_to() hands it to a function of the caller's as it is made).
 * Returns 0; -EINVAL for a NULL argument; -EOPNOTSUPP for a format the object does not
 * render; -ENOMEM.
 */
enum gpuenv_format {
	GPUENV_FORMAT_TEXT = 0,	    /* for a terminal (GPUENV_RENDER_COLOR, _WIDTH) */
	GPUENV_FORMAT_JSON = 1,	    /* docs/snapshot-schema.md, doctor-, scan-schema.md */
	GPUENV_FORMAT_MARKDOWN = 2, /* to paste into an issue (diagnosis, rule catalogue) */
	GPUENV_FORMAT_MERMAID = 3,  /* the diagnosis path as a flowchart (diagnosis) */
	/* Prometheus text exposition 0.0.4 / OpenMetrics 1.0 without the final "# EOF" (the
	 * caller joins expositions and ends them): the snapshot's GPUs (dcgm-exporter's fields)
	 * and the diagnosis (docs/exporter.md). Since 0.1. */
	GPUENV_FORMAT_PROMETHEUS = 4,
	GPUENV_FORMAT_OPENMETRICS = 5,
	GPUENV_FORMAT_JUNIT = 6,  /* JUnit XML, one testcase per policy clause and rule (check) */
	GPUENV_FORMAT_SARIF = 7,  /* SARIF 2.1.0, one result per finding (check) */
	GPUENV_FORMAT_GITHUB = 8, /* GitHub Actions workflow commands, ::error … (check) */
};

enum {
	GPUENV_RENDER_STABLE = 1u << 0, /* JSON: no timings/hostname */
	GPUENV_RENDER_COLOR = 1u << 1,	/* text: ANSI colour */
	GPUENV_RENDER_REDACT = 1u << 2, /* replace UUIDs, serials, hostnames, env values */
};
/* diagnosis text: wrap at cols columns (bits 16..27 of flags; 0 or absent: 80, the width of a
 * terminal of unknown size and of most issue trackers' code blocks). */
#define GPUENV_RENDER_WIDTH(cols) (((unsigned)(cols)&0xfffu) << 16)

/* ---- snapshot (src/snapshot, src/probe) -------------------------------------------- */

struct gpuenv_snapshot;

/* gpuenv_snapshot_collect: probes ctx's machine (or sysroot) into a new snapshot. What cannot
 * be read is recorded in the snapshot, not returned. ret: reference count 1, the caller's
 * (gpuenv_snapshot_unref()); it does not keep ctx. Returns 0, -EINVAL, -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_snapshot_collect(struct gpuenv_ctx *ctx, struct gpuenv_snapshot **ret);
/* gpuenv_snapshot_from_json: a snapshot from the JSON gpuenv_snapshot_render() wrote (json:
 * len bytes, borrowed). ret: reference count 1, the caller's. Returns 0, -EBADMSG on invalid
 * input, -EFBIG above 16 MiB (a real snapshot is a few hundred KB), -EINVAL, -ENOMEM.
 * Since 0.1. */
GPUENV_API int gpuenv_snapshot_from_json(struct gpuenv_ctx *ctx, const char *json, size_t len,
					 struct gpuenv_snapshot **ret);
/* gpuenv_snapshot_with_host: "will this image run on that machine?": a new snapshot of image
 * (a root, an unpacked image) with the target machine's hardware, driver and host facts (from
 * its `gpuenv report --json`) put in, the image's os-release and process kept
 * (docs/policy.md). Neither argument is changed. ret: reference count 1, the caller's.
 * Returns 0, -EINVAL, -ENOMEM, -EBADMSG (a tree the snapshot reader refuses). Since 0.1. */
GPUENV_API int gpuenv_snapshot_with_host(const struct gpuenv_snapshot *image,
					 const struct gpuenv_snapshot *target,
					 struct gpuenv_snapshot **ret);
/* What a snapshot's NVML session says (docs/snapshot-schema.md, driver.nvml), for a program
 * that samples it (the exporter) without rendering the snapshot. */
struct gpuenv_nvml_health {
	int session_ok;	   /* 0: its child hung, crashed or ended early ("session" in error) */
	unsigned lost;	   /* GPUs that answered NVML_ERROR_GPU_IS_LOST */
	int has_restarts;  /* 1 when session_restarts was recorded */
	uint64_t restarts; /* how often the long-lived NVML child was restarted */
	char stuck[64];	   /* where a task of the child is stuck in the kernel; "" when none */
};
/* gpuenv_snapshot_nvml_health: s's NVML health into *ret, read in place (rendering the
 * sample as JSON and parsing it back put 750 KiB of heap on each exporter sample,
 * docs/exporter.md). Returns 0, -EINVAL. Since 0.1. */
GPUENV_API int gpuenv_snapshot_nvml_health(const struct gpuenv_snapshot *s,
					   struct gpuenv_nvml_health *ret);
/*
 * gpuenv_ctx_nvml_sweep: what the NVML child of the last collection on ctx said, s being that
 * collection's snapshot (driver.nvml: every fact with its state, a session that failed or hung
 * with its errors), as JSON text for gpuenv_ctx_set_nvml_sweep(), with the time it was taken
 * (driver.nvml.session_sampled_at, UTC, now: call it right after the collection). ret:
 * malloc'd, the caller free()s it. Returns 0; -ENOENT when that collection ran no NVML child
 * (NVML not allowed, no nvidia module, a long-lived child's restart held back by its backoff
 * or a task of it stuck in the kernel: the other context then decides and calls for itself);
 * -EINVAL, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_ctx_nvml_sweep(const struct gpuenv_ctx *ctx, const struct gpuenv_snapshot *s,
				     char **ret);
/* gpuenv_snapshot_ref: takes a reference. Returns s. Since 0.1. */
GPUENV_API struct gpuenv_snapshot *gpuenv_snapshot_ref(struct gpuenv_snapshot *s);
/* gpuenv_snapshot_unref: drops a reference, freeing s with the last (NULL is a no-op).
 * Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_snapshot *gpuenv_snapshot_unref(struct gpuenv_snapshot *s);

/*
 * gpuenv_snapshot_render: s as GPUENV_FORMAT_TEXT (the `gpuenv report` tree, layers bottom
 * up, every fact with its state), GPUENV_FORMAT_JSON (docs/snapshot-schema.md, which
 * gpuenv_snapshot_from_json() reads back) or GPUENV_FORMAT_PROMETHEUS / _OPENMETRICS (its
 * GPUs' metrics, docs/exporter.md); flags: GPUENV_RENDER_STABLE, _COLOR (text), _REDACT. The render convention above: ret malloc'd, the caller free()s it. Returns 0,
 * -EINVAL, -EOPNOTSUPP (another format), -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_snapshot_render(const struct gpuenv_snapshot *s, enum gpuenv_format format,
				      unsigned flags, char **ret);

/* ---- scan (src/scan, src/fatbin) ----------------------------------------------------
 * Which GPUs can run the CUDA code in a binary? Lists the SASS (sm_86, sm_90a, sm_100f) and
 * PTX (compute_90, with its PTX ISA) targets of ELF files, .fatbin, .cubin, .ptx, AMD offload
 * bundles and Python wheels, and judges them per device and driver: native, ptx-jit,
 * ptx-too-new (CUDA_ERROR_UNSUPPORTED_PTX_VERSION) or no-kernel-image
 * (CUDA_ERROR_NO_BINARY_FOR_GPU). JSON schema: docs/scan-schema.md.
 */
struct gpuenv_scan;

enum {
	/* Decompress the heads of PTX/cubin payloads to cross-check the headers, and search every
	 * data section of ELF files for fatbin containers (slower: reads whole files). */
	GPUENV_SCAN_DEEP = 1u << 0,
	/* In directories, look at every regular file's magic, not only *.so*, *.cubin, *.fatbin,
	 * *.ptx, *.hipfb, *.whl names. */
	GPUENV_SCAN_ALL_FILES = 1u << 1,
	/* List files without GPU code too (text output; JSON always lists them). */
	GPUENV_SCAN_LIST_ALL = 1u << 2,
};

/* Called after each file (and wheel member): the path, files and bytes scanned so far. */
typedef void (*gpuenv_scan_progress_fn)(void *userdata, const char *path, uint64_t files,
					uint64_t bytes);

/* Sized options (set .sz = sizeof(struct gpuenv_scan_opts)); 0 fields take the defaults. */
struct gpuenv_scan_opts {
	size_t sz;
	unsigned flags;		  /* GPUENV_SCAN_* */
	unsigned max_depth;	  /* directory levels (default 32) */
	uint64_t max_files;	  /* files examined (default 200000) */
	uint64_t max_file_size;	  /* bytes of one file, mapped not read (default 64 GiB) */
	uint64_t max_member_size; /* uncompressed bytes of one wheel member (default 8 GiB) */
	unsigned max_ratio;	  /* uncompressed:compressed of a wheel member (default 100) */
	gpuenv_scan_progress_fn progress;
	void *progress_userdata;
	uint64_t member_in_memory; /* wheel members up to this size are parsed whole, larger
				    * ones streamed, headers only (default 64 MiB) */
};

/* gpuenv_scan_new: a new scan over ctx's root ("/" or the sysroot); opts may be NULL (copied).
 * ret: the caller's, gpuenv_scan_free() it before ctx. Not reference-counted. Returns 0,
 * -EINVAL, -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_scan_new(struct gpuenv_ctx *ctx, const struct gpuenv_scan_opts *opts,
			       struct gpuenv_scan **ret);
/* gpuenv_scan_free: frees s (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_scan *gpuenv_scan_free(struct gpuenv_scan *s);
/*
 * gpuenv_scan_add_gpu: a device to judge against: a compute capability ("8.6"), an SM
 * ("sm_86") or a GPU name from the knowledge base ("RTX 4090", "H100 SXM"); gpu is copied.
 * Returns 0; -ENOENT: unknown name; -ENODATA: the product has no confirmed compute
 * capability; -EINVAL: malformed; -E2BIG: too many. Since 0.1.
 */
GPUENV_API int gpuenv_scan_add_gpu(struct gpuenv_scan *s, const char *gpu);
/*
 * gpuenv_scan_add_snapshot_gpus: the NVIDIA GPUs of a snapshot (hardware.gpus[], compute
 * capability from the PCI id) and its driver version (driver.nvidia.module_version) unless
 * one was set; snap is read, not kept. Returns the number of GPUs added (0 when the snapshot
 * has none), -EINVAL, -E2BIG, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_scan_add_snapshot_gpus(struct gpuenv_scan *s,
					     const struct gpuenv_snapshot *snap);
/* gpuenv_scan_set_driver: the driver version ("550.54.15", copied) whose PTX JIT limit
 * applies; NULL = unknown. Returns 0, -EINVAL (malformed), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_scan_set_driver(struct gpuenv_scan *s, const char *driver_version);
/*
 * gpuenv_scan_path: scans a file, a directory (recursively: symlinks followed once, loops
 * and duplicates skipped, depth and count capped) or a wheel, inside the ctx's root.
 * Unreadable or malformed files are recorded, not fatal. Returns 0, or the -errno when the
 * path itself cannot be read (also recorded), -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_scan_path(struct gpuenv_scan *s, const char *path);

struct gpuenv_scan_summary {
	size_t sz;		/* sizeof(struct gpuenv_scan_summary) */
	uint64_t files;		/* files (and wheel members) examined */
	uint64_t with_gpu_code; /* with at least one SASS, PTX or AMD code object */
	uint64_t unreadable;
	uint64_t malformed;
	uint64_t skipped;	  /* size caps, zip-bomb guard */
	uint64_t failing;	  /* with a ptx-too-new or no-kernel-image verdict */
	uint64_t unreadable_args; /* named paths that could not be read at all */
	unsigned devices;
};
/* gpuenv_scan_get_summary: the counts so far into *ret, whose .sz the caller sets (fields
 * past it are not written). Returns 0, -EINVAL. Since 0.1. */
GPUENV_API int gpuenv_scan_get_summary(struct gpuenv_scan *s, struct gpuenv_scan_summary *ret);
/* gpuenv_scan_render: the files and verdicts as GPUENV_FORMAT_TEXT (flags:
 * GPUENV_RENDER_COLOR) or GPUENV_FORMAT_JSON (docs/scan-schema.md). s is not const: the
 * verdicts of files added since the last call are computed first. The render convention
 * above: ret malloc'd, the caller free()s it. Returns 0, -EINVAL, -EOPNOTSUPP (another
 * format), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_scan_render(struct gpuenv_scan *s, enum gpuenv_format format, unsigned flags,
				  char **ret);

/* ---- facts (src/facts) ------------------------------------------------------------- */

/*
 * gpuenv_facts_query: one knowledge-base lookup: kind "cuda" (key "12.4"), "driver"
 * ("535.104.05"), "gpu" ("RTX 4090" or a PCI id "10de:2684"), "xid" ("79"), "cudnn"
 * ("9.17.0"), "torch" ("2.4.0+cu124"; no suffix = the release's PyPI default), "rocm" ("6.2")
 * or "tensorflow" ("2.15"), rendered as GPUENV_FORMAT_TEXT or GPUENV_FORMAT_JSON (flags: none
 * yet, pass 0); every value carries its source and unconfirmed values are marked. The render
 * convention above: ret malloc'd, the caller free()s it. Returns 0; -ENOENT: no such row;
 * -EINVAL: a NULL argument, a bad kind or key; -EOPNOTSUPP: another format; -ENOMEM.
 * Since 0.1.
 */
GPUENV_API int gpuenv_facts_query(const char *kind, const char *key, enum gpuenv_format format,
				  unsigned flags, char **ret);

/* ---- doctor (src/rules, src/output) ------------------------------------------------ */

/* How bad a finding is. Values are stable. */
enum gpuenv_severity {
	GPUENV_SEVERITY_INFO = 0,    /* worth knowing; nothing fails */
	GPUENV_SEVERITY_WARNING = 1, /* works now, degraded or fragile */
	GPUENV_SEVERITY_ERROR = 2,   /* something the user runs will fail */
};

/* The outcome of one diagnosis; the values are the `gpuenv doctor` exit codes. */
enum gpuenv_verdict {
	GPUENV_VERDICT_HEALTHY = 0,  /* no warning or error finding */
	GPUENV_VERDICT_WARNINGS = 1, /* warnings, no errors */
	GPUENV_VERDICT_ERRORS = 2,   /* at least one error finding */
	GPUENV_VERDICT_UNEVALUATED =
		3, /* nothing to judge: PCI bus unreadable, no driver, no toolkit */
};

struct gpuenv_doctor;

/*
 * gpuenv_doctor_run: judges a snapshot: runs every rule of the rule table (src/rules/)
 * against it. ret: the caller's (gpuenv_doctor_free()); it holds a reference to s, so s may
 * be unreferenced first. Not reference-counted. Returns 0, -EINVAL, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_doctor_run(struct gpuenv_snapshot *s, struct gpuenv_doctor **ret);
/* gpuenv_doctor_free: frees d and drops its snapshot reference (NULL is a no-op). Returns
 * NULL. Since 0.1. */
GPUENV_API struct gpuenv_doctor *gpuenv_doctor_free(struct gpuenv_doctor *d);
/* gpuenv_doctor_get_verdict: returns the outcome; GPUENV_VERDICT_UNEVALUATED for NULL.
 * Since 0.1. */
GPUENV_API enum gpuenv_verdict gpuenv_doctor_get_verdict(const struct gpuenv_doctor *d);
/* gpuenv_doctor_get_finding_count: returns the number of findings; 0 for NULL. Since 0.1. */
GPUENV_API size_t gpuenv_doctor_get_finding_count(const struct gpuenv_doctor *d);
/* gpuenv_doctor_get_finding: finding i (0-based, output order); its strings are borrowed from
 * d, valid until gpuenv_doctor_free(); any ret_ may be NULL. Returns 0, -ERANGE past the
 * last one, -EINVAL. Since 0.1. */
GPUENV_API int gpuenv_doctor_get_finding(const struct gpuenv_doctor *d, size_t i,
					 const char **ret_rule_id,
					 enum gpuenv_severity *ret_severity,
					 enum gpuenv_layer *ret_layer, const char **ret_message);
/* gpuenv_doctor_get_root_cause: returns the index of the finding that explains the others (for
 * gpuenv_doctor_get_finding()), -ENOENT when there is no warning or error, -EINVAL for NULL.
 * Since 0.1. */
GPUENV_API int gpuenv_doctor_get_root_cause(const struct gpuenv_doctor *d);
/*
 * gpuenv_doctor_render: d as GPUENV_FORMAT_TEXT (the layered stack, findings with cause, fix,
 * verify), GPUENV_FORMAT_JSON (docs/doctor-schema.md: findings + the snapshot),
 * GPUENV_FORMAT_MARKDOWN (to paste into an issue), GPUENV_FORMAT_MERMAID (the diagnosis
 * path as a flowchart) or GPUENV_FORMAT_PROMETHEUS / _OPENMETRICS (findings, root cause,
 * layer status, driver/toolkit/framework info series: docs/exporter.md); flags: GPUENV_RENDER_* (COLOR and WIDTH for text, STABLE for JSON,
 * REDACT for all). The render convention above: ret malloc'd, the caller free()s it.
 * Returns 0, -EINVAL, -EOPNOTSUPP (not a format above), -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_doctor_render(const struct gpuenv_doctor *d, enum gpuenv_format format,
				    unsigned flags, char **ret);
/* gpuenv_doctor_list_rules: the rule catalogue (id, layer, severity, symptom, cause, needs,
 * fix, verify) as GPUENV_FORMAT_TEXT, _JSON or _MARKDOWN (docs/rules.md is this); flags: none
 * yet, pass 0. The render convention above: ret malloc'd, the caller free()s it. Returns 0,
 * -EINVAL, -EOPNOTSUPP (GPUENV_FORMAT_MERMAID or another), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_doctor_list_rules(enum gpuenv_format format, unsigned flags, char **ret);

/*
 * gpuenv_doctor_labels: Kubernetes node labels for d (`gpuenv labels`, docs/labels.md): GPU
 * Feature Discovery's names and value formats where they overlap (nvidia.com/gpu.product,
 * gpu.count, gpu.memory, gpu.compute.major/minor, gpu.family, cuda.driver.*, cuda.runtime.*)
 * and gpuenv's own under feature.node.kubernetes.io/gpuenv. (health, root-cause,
 * driver-max-cuda, framework-coverage, errors, warnings); only for facts the snapshot shows.
 * GPUENV_FORMAT_TEXT: Node Feature Discovery's features.d lines (name=value);
 * GPUENV_FORMAT_JSON: {"schema_version": 1, "labels": {name: value}}; flags: none yet. The
 * render convention above. Returns 0, -EINVAL, -EOPNOTSUPP, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_doctor_labels(const struct gpuenv_doctor *d, enum gpuenv_format format,
				    unsigned flags, char **ret);

struct gpuenv_explain;

/*
 * gpuenv_explain_text: `gpuenv explain`: reads pasted text (error messages, command output;
 * UTF-8 or UTF-16 with BOM, any line ends, terminal escapes and Markdown tolerated: at most
 * 64 MiB) with every reader of src/formats/pasted-*.c, builds a snapshot of what it read (each
 * fact with source "pasted:LINE", everything else unprobed) and runs the doctor's rules over
 * it (docs/explain.md). ret: the caller's (gpuenv_explain_free()). Returns 0; -EFBIG over the
 * cap, -EBADMSG for binary input or text in no encoding it reads (then *ret_why, when given,
 * is a static sentence for the user); -EINVAL, -ENOMEM. A gzip file is inflated with Intel
 * ISA-L's libisal, or with zlib where libisal cannot be loaded (the same text). Since 0.1.
 */
GPUENV_API int gpuenv_explain_text(const char *data, size_t len, struct gpuenv_explain **ret,
				   const char **ret_why);
/*
 * gpuenv_explain_with_machine: `gpuenv explain --this-machine`: the text read as by
 * gpuenv_explain_text(), each fact then set beside machine's (a snapshot of this machine, a
 * sysroot or a saved one: borrowed): where the machine has nothing (unprobed, unreadable) the
 * pasted fact is judged; where it says the same, both agree; where it says otherwise (another
 * value, absent, a failing call), the machine's fact is judged and the two are reported as a
 * conflict. Symptoms come from the text only. Rendered with each fact's origin and a list of
 * the conflicts (docs/explain.md). Returns as gpuenv_explain_text(); -EINVAL for a NULL
 * machine. Since 0.1.
 */
GPUENV_API int gpuenv_explain_with_machine(const char *data, size_t len,
					   const struct gpuenv_snapshot *machine,
					   struct gpuenv_explain **ret, const char **ret_why);
/* gpuenv_explain_free: frees e (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_explain *gpuenv_explain_free(struct gpuenv_explain *e);
/* gpuenv_explain_get_verdict: returns the verdict of the rules over what was read (as
 * gpuenv_doctor_get_verdict()); GPUENV_VERDICT_UNEVALUATED for NULL. Since 0.1. */
GPUENV_API enum gpuenv_verdict gpuenv_explain_get_verdict(const struct gpuenv_explain *e);
/* gpuenv_explain_get_doctor: the diagnosis (borrowed from e, valid until
 * gpuenv_explain_free()), for gpuenv_doctor_get_finding(). Returns NULL for NULL. Since 0.1. */
GPUENV_API const struct gpuenv_doctor *gpuenv_explain_get_doctor(const struct gpuenv_explain *e);
/*
 * gpuenv_explain_render: e as GPUENV_FORMAT_TEXT (the facts read with their lines, the root
 * cause, the findings, what to run to be sure), GPUENV_FORMAT_JSON (doctor's JSON plus
 * facts_read and ask: docs/explain.md) or GPUENV_FORMAT_MARKDOWN; flags: GPUENV_RENDER_*. The
 * render convention above. Returns 0, -EINVAL, -EOPNOTSUPP, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_explain_render(const struct gpuenv_explain *e, enum gpuenv_format format,
				     unsigned flags, char **ret);
/*
 * gpuenv_explain_text_take: gpuenv_explain_text() of data[0..len), a malloc()ed buffer that is
 * the function's, whatever it returns (freed by then): a paste is cleaned in it, not copied
 * into a second buffer of its size (each first touch of a page is a page fault).
 * Returns as gpuenv_explain_text(). Since 0.1.
 */
GPUENV_API int gpuenv_explain_text_take(char *data, size_t len, struct gpuenv_explain **ret,
					const char **ret_why);
/*
 * gpuenv_explain_render_to: e rendered as gpuenv_explain_render() renders it, the same bytes,
 * but given to write(userdata, p, n) as it is made, a few KiB of whole lines at a time, rather
 * than returned whole (a paste's diagnosis is 50 KB of memory otherwise). write returns 0, or
 * a negative errno that stops the rendering. Returns as gpuenv_explain_render(), or write's
 * error; on an error, what was rendered before it may have been written. Since 0.1.
 */
GPUENV_API int gpuenv_explain_render_to(const struct gpuenv_explain *e, enum gpuenv_format format,
					unsigned flags,
					int (*write)(void *userdata, const char *p, size_t n),
					void *userdata);

/* ---- check (src/formats/policy.c, src/check, src/output) --------------------------- */

/* The outcome of a check; the values are the `gpuenv check` exit codes. */
enum gpuenv_check_result {
	GPUENV_CHECK_PASS = 0,	 /* every clause holds, no failing finding */
	GPUENV_CHECK_FAIL = 1,	 /* a policy clause failed, or a finding at its fail_on severity */
	GPUENV_CHECK_ERRORS = 2, /* an error-severity finding the policy judges, not waived */
};

struct gpuenv_policy;

/*
 * gpuenv_policy_parse: reads a `gpuenv check` policy (YAML, docs/policy.md; at most 1 MiB).
 * ret: the caller's (gpuenv_policy_free()). On a schema or YAML error, *ret_line (when given)
 * is its 1-based line (0: no place) and *ret_why (when given) a malloc'd sentence the caller
 * frees, "line 7: driver.branches: 'abc' is not a driver branch". Returns 0; -EBADMSG (not a
 * policy), -E2BIG (over a cap), -EINVAL, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_policy_parse(const char *yaml, size_t len, struct gpuenv_policy **ret,
				   unsigned *ret_line, char **ret_why);
/* gpuenv_policy_free: frees p (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_policy *gpuenv_policy_free(struct gpuenv_policy *p);
/* gpuenv_policy_set_profile: overrides the policy's profile: "runtime" (a GPU node) or "build"
 * (a build host: hardware, driver and container not judged). Returns 0, -EINVAL. Since 0.1. */
GPUENV_API int gpuenv_policy_set_profile(struct gpuenv_policy *p, const char *profile);
/*
 * gpuenv_policy_read_binaries: reads the binaries p's `architectures.binaries` names (absolute
 * paths whose components may be fnmatch(3) patterns) in ctx's root (the machine, the sysroot,
 * the tree of an image and its wheels) with the scanner of gpuenv_scan, and keeps their GPU
 * targets with p for gpuenv_check_run(), which judges them per architecture target and on the
 * judged machine's GPUs. Without this call those binaries are "could not tell". A pattern
 * that matches no file, an unreadable or malformed file, is recorded, not fatal. In the tree
 * of an image or wheels it also reads every shared object's GPU code (no pattern needed),
 * which gpuenv_check_run() judges on the snapshot's GPUs (the clause image.gpu_libraries).
 * Returns 0, -EINVAL, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_policy_read_binaries(struct gpuenv_policy *p, struct gpuenv_ctx *ctx);

struct gpuenv_check;

/*
 * gpuenv_check_run: judges diagnosis d against policy p (docs/policy.md): one clause per
 * policy key, one entry per rule. Waivers expire after today ("YYYY-MM-DD"). policy_path:
 * the file's name for the locations of SARIF and annotations, or NULL. d and p are borrowed
 * and must outlive the check. ret: the caller's (gpuenv_check_free()). Returns 0, -EINVAL,
 * -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_check_run(const struct gpuenv_doctor *d, const struct gpuenv_policy *p,
				const char *policy_path, const char *today,
				struct gpuenv_check **ret);
/*
 * gpuenv_check_target: the snapshot of a machine that is not here, from a `--target` string
 * ("gpu=H100,driver=550.54.15": GPUs by name, PCI id or compute capability, a driver version;
 * docs/policy.md, "Targets"), to judge an image or tree on with gpuenv_snapshot_with_host().
 * ret: reference count 1, the caller's. Returns 0; -EINVAL (malformed: *ret_why names the
 * field and column), -ENOENT (a GPU, or a host-cuda-compat CUDA version, the knowledge base
 * does not know), each with *ret_why malloc'd (the caller free()s it); -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_check_target(const char *spec, struct gpuenv_snapshot **ret, char **ret_why);
/*
 * gpuenv_check_redact_snapshot: under GPUENV_RENDER_REDACT, c's outputs also hide the
 * identifying values of s (host names, serial numbers, UUIDs), besides its own snapshot's and
 * findings': the target's own report (whose host name the snapshot of the image on it does
 * not keep), the other targets of a matrix. s is read, not kept. Returns 0, -EINVAL, -ENOMEM.
 * Since 0.1.
 */
GPUENV_API int gpuenv_check_redact_snapshot(struct gpuenv_check *c,
					    const struct gpuenv_snapshot *s);
/* gpuenv_check_free: frees c (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_check *gpuenv_check_free(struct gpuenv_check *c);
/* gpuenv_check_get_result: returns the outcome; GPUENV_CHECK_ERRORS for NULL. Since 0.1. */
GPUENV_API enum gpuenv_check_result gpuenv_check_get_result(const struct gpuenv_check *c);
/*
 * gpuenv_check_render: c as GPUENV_FORMAT_TEXT, _JSON (docs/policy.md), _MARKDOWN (a job
 * summary), _JUNIT, _SARIF (2.1.0) or _GITHUB (workflow commands); flags: GPUENV_RENDER_*
 * (REDACT for all, STABLE for SARIF's tool version). The render convention above. Returns 0,
 * -EINVAL, -EOPNOTSUPP, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_check_render(const struct gpuenv_check *c, enum gpuenv_format format,
				   unsigned flags, char **ret);
/*
 * gpuenv_check_render_matrix: the checks of one image (or tree) on n targets as one document
 * (docs/policy.md, "The matrix"): checks[i] judged on the machine targets[i] names (the
 * --host file or --target string, shown as given; targets NULL, or a NULL entry, for the
 * machine itself). n == 1 renders as gpuenv_check_render() with the target named; n > 1:
 * text, one block per target; JSON {result, exit_code, targets[]}; Markdown, a verdict table
 * and the coverage matrix (framework × target) before each target's summary; JUnit, a
 * testsuite per target; SARIF, one run whose results carry a "target" property; annotations
 * whose titles name the target. Formats and flags as gpuenv_check_render(). The render
 * convention above. Returns 0, -EINVAL, -EOPNOTSUPP, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_check_render_matrix(const struct gpuenv_check *const *checks,
					  const char *const *targets, size_t n,
					  enum gpuenv_format format, unsigned flags, char **ret);

/* ---- drift (src/drift): two snapshots compared, a fleet summarised ------------------- */

struct gpuenv_diff;

/*
 * gpuenv_diff_new: `gpuenv diff`: compares snapshot a with b fact by fact (objects by key,
 * arrays by index; a fact by its state and value) and runs the rule table on both to see
 * which findings appeared or went away (docs/fleet.md). Keys that name a machine (hostname,
 * UUIDs, serials, bus ids) and readings that move on their own (temperature, power, load) are
 * kept apart, never counted as drift. name_a, name_b: what to call them (a file name; copied).
 * a and b are read, not kept. ret: the caller's (gpuenv_diff_free()). Returns 0, -EINVAL,
 * -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_diff_new(const char *name_a, struct gpuenv_snapshot *a, const char *name_b,
			       struct gpuenv_snapshot *b, struct gpuenv_diff **ret);
/* gpuenv_diff_free: frees d (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_diff *gpuenv_diff_free(struct gpuenv_diff *d);
/* gpuenv_diff_get_count: returns the differences that count: facts that drifted plus findings
 * that appeared or went away (0: the same stack); 0 for NULL. Since 0.1. */
GPUENV_API size_t gpuenv_diff_get_count(const struct gpuenv_diff *d);
/* gpuenv_diff_render: d as GPUENV_FORMAT_TEXT, GPUENV_FORMAT_MARKDOWN or GPUENV_FORMAT_JSON
 * (docs/fleet.md); flags: none used yet. The render convention above: ret malloc'd, the caller
 * free()s it. Returns 0, -EINVAL, -EOPNOTSUPP (another format), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_diff_render(const struct gpuenv_diff *d, enum gpuenv_format format,
				  unsigned flags, char **ret);

struct gpuenv_fleet;

/* gpuenv_fleet_new: an empty fleet summary (`gpuenv fleet`, docs/fleet.md). ret: the caller's
 * (gpuenv_fleet_free()). Returns 0, -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_fleet_new(struct gpuenv_fleet **ret);
/* gpuenv_fleet_free: frees f (NULL is a no-op). Returns NULL. Since 0.1. */
GPUENV_API struct gpuenv_fleet *gpuenv_fleet_free(struct gpuenv_fleet *f);
/*
 * gpuenv_fleet_add: one machine: the text of its `gpuenv doctor --json` (findings and verdict
 * read from it) or `gpuenv report --json` (the rule table is run on it, a full parse) output,
 * at most len bytes; name: what to call it when the snapshot has no host name (a file name;
 * copied). The text is streamed, not kept: per key of docs/fleet.md only the value's
 * fingerprint. Returns 0; -EBADMSG: not such a document (recorded as not read, with why, and
 * counted); -EINVAL, -ENOMEM. Since 0.1.
 */
GPUENV_API int gpuenv_fleet_add(struct gpuenv_fleet *f, const char *name, const char *text,
				size_t len);
/* gpuenv_fleet_add_unread: records an input that could not be read (name and why, copied), so
 * the summary counts and lists it. Returns 0, -EINVAL, -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_fleet_add_unread(struct gpuenv_fleet *f, const char *name, const char *why);
/* gpuenv_fleet_get_machine_count: returns the machines added; 0 for NULL. Since 0.1. */
GPUENV_API size_t gpuenv_fleet_get_machine_count(const struct gpuenv_fleet *f);
/* gpuenv_fleet_get_problem_count: returns the keys on which machines differ, plus the rules
 * with an error finding on some machine, plus the inputs not read (0: a uniform, healthy
 * fleet); 0 for NULL. Since 0.1. */
GPUENV_API size_t gpuenv_fleet_get_problem_count(const struct gpuenv_fleet *f);
/* gpuenv_fleet_render: f as GPUENV_FORMAT_TEXT, GPUENV_FORMAT_MARKDOWN or GPUENV_FORMAT_JSON
 * (docs/fleet.md); flags: none used yet. The render convention above. Returns 0, -EINVAL,
 * -EOPNOTSUPP (another format), -ENOMEM. Since 0.1. */
GPUENV_API int gpuenv_fleet_render(const struct gpuenv_fleet *f, enum gpuenv_format format,
				   unsigned flags, char **ret);

#ifdef __cplusplus
}
#endif
#endif
