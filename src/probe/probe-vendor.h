/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live vendor probes: NVML and libcuda are one row each for one runner that gates the
 * call, runs the library's session in a child and copies its tree into the snapshot; OpenCL
 * (probe-opencl.c) uses the same gate and writers itself, since it first chooses which ICDs
 * the loader may see (CPU-only ones only with --opencl-all).
 * Internal to src/probe/.
 */
#pragma once

#include "probe.h"
#include "vendor/vendor.h"

/* Why the library must not be called (a "not called: …" reason, in buf or a literal), or
 * NULL when it may. *ret_source gets what was checked, *ret_state the state to record:
 * unprobed, or unreadable/error when whether the module is loaded could not be read.
 * need_module: the nvidia kernel module must be loaded (and, live, /dev/nvidiactl exist)
 * because the real NVML and libcuda create the node when it is missing, even without a
 * driver (docs/formats/nvml.md §1). */
const char *probe_vendor_gate(struct probe_env *pe, struct gpuenv_snapshot *s,
			      const char *explicit_lib, const char *lib_option, const char *what,
			      bool need_module, char *buf, size_t size, const char **ret_source,
			      enum fact_state *ret_state);
/* Is module loaded: 1 yes, 0 no, -errno when /sys/module/<m> could not be read. */
int probe_vendor_module_state(struct probe_env *pe, struct gpuenv_snapshot *s, const char *module);
/* Is module loaded (driver.kernel_modules.<m> or /sys/module/<m>), and when live, is dev a
 * character device? */
bool probe_vendor_module_ready(struct probe_env *pe, struct gpuenv_snapshot *s, const char *module,
			       const char *dev);
/* A GPU of this PCI vendor ("0x1002", "0x8086") in hardware.gpus[] (the pci probe's). */
bool probe_vendor_gpu_present(const struct gpuenv_snapshot *s, const char *vendor_id);
/* Copies r's tree into obj and adds the "session" fact. */
void probe_vendor_write(struct snap_node *obj, const struct vendor_result *r, unsigned timeout_ms,
			const char *what);
/* The library could not be called (gate closed or the child could not start): each key an
 * unprobed or error fact with the reason. */
void probe_vendor_not_called(struct snap_node *obj, const char *const keys[], enum fact_state state,
			     const char *source, const char *why);

/*
 * Capture and replay (core/kept.c): what a session said lives in no file, so a capture keeps
 * the probe's whole subtree obj as "vendor/<session>" and a replay writes it back instead of
 * gating and calling. probe_vendor_replay(): 1 when obj was replayed (it must be empty), 0
 * when this run calls or gates as usual (a live root, --no-vendor, a library named by
 * explicit_lib, or nothing kept), -ENOMEM. probe_vendor_keep(): after the probe wrote obj,
 * unless the gate closed for this run's options alone (source "options": --no-vendor, a
 * sysroot without a library), which a replay decides for itself.
 */
int probe_vendor_replay(struct probe_env *pe, struct gpuenv_snapshot *s, struct snap_node *obj,
			const char *session, const char *explicit_lib);
int probe_vendor_keep(struct probe_env *pe, const struct snap_node *obj, const char *session);

/* One vendor library probe, run by probe_vendor_run(). */
struct vendor_probe {
	const char *parent, *name; /* the snapshot object <parent>.<name> */
	const char *const *keys;   /* its facts when the library is not called */
	size_t lib_offset;	   /* offsetof(struct gpuenv_ctx, <x>_lib): --<x>-lib */
	const char *lib_option;	   /* "--nvml-lib", for the gate's reason */
	const char *first_call;	   /* the call that would create /dev/nvidiactl */
	bool need_module;	   /* probe_vendor_gate()'s need_module */
	const char *label;	   /* in log lines: "NVML: …" */
	const char *session;	   /* the session fact's source: "nvml child process …" */
	int (*start)(const struct vendor_req *req, struct vendor_pending **ret);
	/* Optional: facts read before the gate, whatever it says (OpenCL's ICD files); < 0 fails
	 * the probe. */
	int (*before)(struct probe_env *pe, struct snap_node *obj);
	/* Optional: adjusts the request once the gate is open (libcuda: no cuInit without
	 * nvidia_uvm); skip (zeroed) gets the path whose read failure made it skip a call. */
	void (*prepare)(struct probe_env *pe, struct gpuenv_snapshot *s, struct vendor_req *req,
			struct probe_skip_failure *skip);
	/* Optional: the session in a child that stays, used under GPUENV_CTX_VENDOR_KEEP; the
	 * child is held in the context (keep_offset: offsetof(struct gpuenv_ctx, <x>_keep)). */
	int (*collect_keep)(struct vendor_keep **keep, const struct vendor_req *req,
			    struct vendor_result *ret);
	size_t keep_offset;
	/* Takes the context's nvml_sweep (gpuenv_ctx_set_nvml_sweep()) where it has one, instead
	 * of a session (NVML). */
	bool takes_sweep;
};

/* Gates, prepares and starts vp's session; probe_vendor_collect() writes its result. */
int probe_vendor_run(struct probe_env *pe, struct gpuenv_snapshot *s,
		     const struct vendor_probe *vp);

/* Registers a started session (pp->vp, taken) of the probe running now (pe->probe) for
 * probe_vendor_collect(). 0, or -ENOBUFS (the session is cancelled). */
/* Before a session's fork: under GPUENV_CTX_VENDOR_SERIAL, the heap's free pages go back to
 * the system (malloc_trim), so that the session's processes do not count them. */
void probe_vendor_before_fork(struct probe_env *pe);
/* Before waiting for a session under GPUENV_CTX_VENDOR_SERIAL: child_settled() (core/child.h),
 * since this process then only waits. */
void probe_vendor_wait_settled(struct probe_env *pe);
int probe_vendor_pend(struct probe_env *pe, const struct probe_pending *pp);
/* Reads what the pending children wrote so far (between probes: no pipe stays full). */
void probe_vendor_pump(struct probe_env *pe);
/* Waits for every pending session in the order started and writes each into its object, as
 * probe_vendor_write(); timings.<probe> = from the start of its row to its result. 0, or
 * -ENOMEM (the rest are cancelled). */
int probe_vendor_collect(struct probe_env *pe, struct snap_node *timings);
