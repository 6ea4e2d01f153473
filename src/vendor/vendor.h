/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The vendor layer as the probes see it: one call per library (NVML, the CUDA driver API,
 * OpenCL) that runs the whole session (dlopen, init, queries, shutdown) in a child process
 * under a deadline (core/child.h) and returns what it learnt as a tree in the snapshot's
 * own JSON shape (docs/snapshot-schema.md): objects, arrays of objects, and fact leaves
 * {"state", "value", "error", "source"}, the source naming the vendor function called
 * ("nvml:nvmlDeviceGetName"). Vendor return codes are translated here, at the boundary:
 * NOT_SUPPORTED → "unsupported", NO_PERMISSION → "unreadable", anything else → "error"
 * with the code's name, number and the library's own text. A hang, a crash or garbage from
 * the child becomes facts too (failure, plus "error" on the call that never returned).
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/child.h"

struct vendor_req {
	const char *library;   /* path to dlopen, or NULL: the usual sonames */
	unsigned timeout_ms;   /* deadline for the whole session */
	const char *skip_init; /* CUDA: why cuInit must not be called (NULL: call it) */
	bool launch;	 /* CUDA: also launch the probe kernel on each GPU (doctor --launch) */
	bool no_timings; /* leave out measured times (GPUENV_CTX_STABLE) */
	/* OpenCL: the vendor libraries (the lines of their .icd files) the ICD loader may load,
	 * NULL-terminated; NULL: the loader's own choice (every ICD it finds). */
	const char *const *opencl_icds;
	/* The child that stays, for one sweep (GPUENV_CTX_VENDOR_SERIAL: each session's tree
	 * ends before the next one starts): child_settled() (core/child.h) once the sweep is
	 * asked for, since the caller then only waits, and the child ended once the sweep is
	 * read, before the caller folds it, so that the two never hold their pages at once. */
	bool serial;
};

struct vendor_result {
	json_t *tree;  /* object, never NULL after success */
	char *failure; /* NULL when the child ran to its end; else what went wrong */
	unsigned elapsed_ms;
	/* No child ran this time (the long-lived child's restart held back by its backoff, or a
	 * task of the last one still stuck in the kernel): the facts say so, none was read. */
	bool no_child;
};

/* A session started and not yet collected. Starting forks the child and returns at once, so
 * the caller can do other work (and start the other sessions) meanwhile: the probes start
 * every vendor session before the file probes and collect them after (src/probe/probe.c).
 * -errno only when the child could not be started, or on OOM. */
struct vendor_pending;
int vendor_nvml_start(const struct vendor_req *req, struct vendor_pending **ret);
int vendor_cuda_start(const struct vendor_req *req, struct vendor_pending **ret);
int vendor_opencl_start(const struct vendor_req *req, struct vendor_pending **ret);
int vendor_amdsmi_start(const struct vendor_req *req, struct vendor_pending **ret);
int vendor_levelzero_start(const struct vendor_req *req, struct vendor_pending **ret);
/* Reads what the child has written so far, without waiting (core/child.h child_pump()). */
void vendor_pump(struct vendor_pending *p);
/* Waits for the child now (until its deadline, counted from the start) and keeps what it
 * said for vendor_finish(), so that its processes are gone before the caller starts the
 * next session (GPUENV_CTX_VENDOR_SERIAL). 0, or what vendor_finish() will return. */
int vendor_settle(struct vendor_pending *p);
/* Waits for the child (until its deadline, counted from the start) and folds what it said
 * into ret; frees p either way. */
int vendor_finish(struct vendor_pending *p, struct vendor_result *ret);
/* Collects and drops the result (the caller gives up, e.g. on OOM); frees p. */
void vendor_cancel(struct vendor_pending *p);
/* start, then vendor_finish(): the whole session in one call. */
int vendor_run(int (*start)(const struct vendor_req *req, struct vendor_pending **ret),
	       const struct vendor_req *req, struct vendor_result *ret);
void vendor_result_done(struct vendor_result *r);

/* NVML in a child that stays between calls (GPUENV_CTX_VENDOR_KEEP, `gpuenv exporter`):
 * nvmlInit once, then one sweep of the driver and the devices per call under req's deadline;
 * a child that hangs, dies or writes garbage is killed and restarted with a backoff. The
 * tree has "session_restarts" too. *keep: NULL the first time; vendor_keep_free() ends it. */
struct vendor_keep;
int vendor_nvml_keep_collect(struct vendor_keep **keep, const struct vendor_req *req,
			     struct vendor_result *ret);
void vendor_keep_free(struct vendor_keep *keep);
/*
 * That child's tree started from a small program of its own instead of a fork of the caller
 * (`gpuenv exporter`: gpuenv-nvml, tools/exporter-nvml-main.c; docs/exporter.md, Load): a
 * fork of gpuenv keeps gpuenv's heap and code resident in each of its processes. exec is
 * called in the forked process (core/child.h child_exec_fn) with a struct vendor_keep_exec
 * as its data, and execs the program, which calls vendor_nvml_keeper_main() with what it was
 * given; the same keeper, sandbox and protocol run there. NULL (the default): forked.
 */
struct vendor_keep_exec {
	const char *library; /* what to dlopen, or NULL: the usual sonames */
	const char *dir;     /* the child's private directory, or NULL: none */
	/* A one-shot session's (vendor_cuda_exec() below): its deadline (CLOCK_MONOTONIC ms,
	 * core/child.h child_now_ms()) and the request's other fields; 0 and unset for the
	 * child that stays. */
	uint64_t deadline_ms;
	unsigned timeout_ms;
	const char *skip_init;
	bool launch, no_timings;
};
void vendor_nvml_keep_exec(child_exec_fn exec);
_Noreturn void vendor_nvml_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent,
				       const struct vendor_keep_exec *what);

/*
 * The one-shot libcuda session (vendor_cuda_start()) started from a small program of its own
 * in the same way (`gpuenv exporter`'s diagnosis: gpuenv-cuda, tools/exporter-cuda-main.c):
 * exec is called in the forked process with a struct vendor_keep_exec (library, private
 * directory, deadline, skip_init, launch, no_timings), and execs the program, which calls
 * vendor_cuda_keeper_main() with it; the same keeper, limits, sandbox, deadline and protocol
 * run there, and the result is the same. NULL (the default): forked.
 */
void vendor_cuda_exec(child_exec_fn exec);
_Noreturn void vendor_cuda_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent,
				       const struct vendor_keep_exec *what);

/* Names of return codes ("NVML_ERROR_LIB_RM_VERSION_MISMATCH", "CUDA_ERROR_STUB_LIBRARY",
 * "CL_DEVICE_NOT_FOUND"); NULL when unknown. */
const char *vendor_nvml_error_name(int rc);
const char *vendor_cuda_error_name(int rc);
const char *vendor_opencl_error_name(int rc);
const char *vendor_amdsmi_error_name(unsigned rc);
const char *vendor_levelzero_error_name(unsigned rc);
