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

struct vendor_req {
	const char *library;   /* path to dlopen, or NULL: the usual sonames */
	unsigned timeout_ms;   /* deadline for the whole session */
	const char *skip_init; /* CUDA: why cuInit must not be called (NULL: call it) */
	bool launch;	 /* CUDA: also launch the probe kernel on each GPU (doctor --launch) */
	bool no_timings; /* leave out measured times (GPUENV_CTX_STABLE) */
	/* OpenCL: the vendor libraries (the lines of their .icd files) the ICD loader may load,
	 * NULL-terminated; NULL: the loader's own choice (every ICD it finds). */
	const char *const *opencl_icds;
};

struct vendor_result {
	json_t *tree;  /* object, never NULL after success */
	char *failure; /* NULL when the child ran to its end; else what went wrong */
	unsigned elapsed_ms;
};

int vendor_nvml_collect(const struct vendor_req *req, struct vendor_result *ret);
int vendor_cuda_collect(const struct vendor_req *req, struct vendor_result *ret);
int vendor_opencl_collect(const struct vendor_req *req, struct vendor_result *ret);
int vendor_amdsmi_collect(const struct vendor_req *req, struct vendor_result *ret);
int vendor_levelzero_collect(const struct vendor_req *req, struct vendor_result *ret);
void vendor_result_done(struct vendor_result *r);

/* Names of return codes ("NVML_ERROR_LIB_RM_VERSION_MISMATCH", "CUDA_ERROR_STUB_LIBRARY",
 * "CL_DEVICE_NOT_FOUND"); NULL when unknown. */
const char *vendor_nvml_error_name(int rc);
const char *vendor_cuda_error_name(int rc);
const char *vendor_opencl_error_name(int rc);
const char *vendor_amdsmi_error_name(unsigned rc);
const char *vendor_levelzero_error_name(unsigned rc);
