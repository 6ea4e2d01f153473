// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * OpenCL platforms and devices through the ICD loader (libOpenCL.so.1), in a child under a
 * deadline. Calls: clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo
 * (Khronos OpenCL 1.0 API, the size-query-then-fetch pattern of the spec §4.1 and §4.2).
 * Writes "library", "platform_count" and "platforms[] {name, vendor, version, profile,
 * devices[] {name, type, vendor, version, driver_version}}" (docs/snapshot-schema.md,
 * runtime.opencl). The loader loads every vendor ICD listed in /etc/OpenCL/vendors, NVIDIA's
 * included, which is why this child runs under dl_child_sandbox() too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dl.h"
#include "opencl-abi.h"
#include "session.h"
#include "shared/strv.h"

DL_NOTE(dl_note_opencl, "[{\"feature\":\"opencl\",\"description\":\"OpenCL platforms and "
			"devices (gpuenv report: runtime.opencl)\",\"priority\":\"suggested\","
			"\"soname\":[\"libOpenCL.so.1\"]}]");

#define CL_MAX_PLATFORMS 32u
#define CL_MAX_DEVICES	 64u
#define CL_MAX_STRING	 4096u

struct opencl_fns {
	OPENCL_SYMBOLS(DL_TABLE_FIELDS)
};

static const struct dl_symbol opencl_symbols[] = {
#define X(f, req, ret, params, ...) DL_SYMBOL_ENTRY(struct opencl_fns, f, req, __VA_ARGS__)
	OPENCL_SYMBOLS(X)
#undef X
};

/* The names in the rows, not pointers: a table of pointers is relocated, a page written, at
 * every start. */
static const struct {
	int code;
	char name[32]; /* room to spare: a name as long as the array would have no NUL */
} cl_errors[] = {
	{ 0, "CL_SUCCESS" },
	{ -1, "CL_DEVICE_NOT_FOUND" },
	{ -2, "CL_DEVICE_NOT_AVAILABLE" },
	{ -5, "CL_OUT_OF_RESOURCES" },
	{ -6, "CL_OUT_OF_HOST_MEMORY" },
	{ -30, "CL_INVALID_VALUE" },
	{ -31, "CL_INVALID_DEVICE_TYPE" },
	{ -32, "CL_INVALID_PLATFORM" },
	{ -33, "CL_INVALID_DEVICE" },
	{ -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
};

const char *vendor_opencl_error_name(int rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(cl_errors); i++)
		if (cl_errors[i].code == rc)
			return cl_errors[i].name;
	return NULL;
}

static void cl_fail(struct vwriter *w, const char *key, const char *call, cl_int rc)
{
	const char *name = vendor_opencl_error_name(rc);

	vw_state(w, key, call, "error", "%s (%d)", name ? name : "OpenCL error", rc);
}

typedef cl_int info_fn(const struct opencl_fns *f, void *obj, cl_uint param, size_t size,
		       void *value, size_t *ret_size);

static cl_int platform_info(const struct opencl_fns *f, void *obj, cl_uint param, size_t size,
			    void *value, size_t *ret_size)
{
	return f->clGetPlatformInfo(obj, param, size, value, ret_size);
}

static cl_int device_info(const struct opencl_fns *f, void *obj, cl_uint param, size_t size,
			  void *value, size_t *ret_size)
{
	return f->clGetDeviceInfo(obj, param, size, value, ret_size);
}

/* A string query: ask the size, then fetch (capped). */
static void cl_string(struct vwriter *w, const struct opencl_fns *f, info_fn *info,
		      const char *call, void *obj, cl_uint param, const char *key)
{
	_cleanup_free_ char *buf = NULL;
	size_t size = 0;
	cl_int rc;

	vw_begin(w, key, call);
	rc = info(f, obj, param, 0, NULL, &size);
	if (rc != CL_SUCCESS) {
		cl_fail(w, key, call, rc);
		return;
	}
	if (size > CL_MAX_STRING)
		size = CL_MAX_STRING;
	buf = calloc(1, size + 1);
	if (!buf) {
		w->err = -ENOMEM;
		return;
	}
	rc = info(f, obj, param, size, buf, NULL);
	if (rc != CL_SUCCESS) {
		cl_fail(w, key, call, rc);
		return;
	}
	buf[size] = '\0';
	vw_str(w, key, buf);
}

static void cl_type(struct vwriter *w, const struct opencl_fns *f, cl_device_id dev)
{
	static const struct {
		cl_device_type bit;
		const char *name;
	} types[] = {
		{ CL_DEVICE_TYPE_CPU, "CPU" },
		{ CL_DEVICE_TYPE_GPU, "GPU" },
		{ CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR" },
		{ CL_DEVICE_TYPE_CUSTOM, "CUSTOM" },
		{ CL_DEVICE_TYPE_DEFAULT, "DEFAULT" },
	};
	cl_device_type t = 0;
	char buf[64] = "";
	cl_int rc;

	vw_begin(w, "type", f->clGetDeviceInfo_name);
	rc = f->clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof(t), &t, NULL);
	if (rc != CL_SUCCESS) {
		cl_fail(w, "type", f->clGetDeviceInfo_name, rc);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (t & types[i].bit) {
			if (*buf)
				strcat(buf, "|");
			strcat(buf, types[i].name);
		}
	if (*buf)
		vw_str(w, "type", buf);
	else
		vw_state(w, "type", NULL, "malformed", "unknown cl_device_type 0x%llx",
			 (unsigned long long)t);
}

static void cl_platform(struct vwriter *w, const struct opencl_fns *f, cl_platform_id p, unsigned i)
{
	static const struct {
		cl_uint param;
		const char *key;
	} pinfo[] = {
		{ CL_PLATFORM_NAME, "name" },
		{ CL_PLATFORM_VENDOR, "vendor" },
		{ CL_PLATFORM_VERSION, "version" },
		{ CL_PLATFORM_PROFILE, "profile" },
	}, dinfo[] = {
		{ CL_DEVICE_NAME, "name" },
		{ CL_DEVICE_VENDOR, "vendor" },
		{ CL_DEVICE_VERSION, "version" },
		{ CL_DRIVER_VERSION, "driver_version" },
	};
	cl_device_id devs[CL_MAX_DEVICES];
	cl_uint n = 0;
	cl_int rc;

	vw_set_base(w, "platforms.%u", i);
	for (size_t k = 0; k < ARRAY_SIZE(pinfo); k++)
		cl_string(w, f, platform_info, f->clGetPlatformInfo_name, p, pinfo[k].param,
			  pinfo[k].key);
	vw_begin(w, "devices", f->clGetDeviceIDs_name);
	rc = f->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, CL_MAX_DEVICES, devs, &n);
	if (rc == CL_DEVICE_NOT_FOUND) {
		vw_array(w, "devices");
		return;
	}
	if (rc != CL_SUCCESS) {
		cl_fail(w, "devices", f->clGetDeviceIDs_name, rc);
		return;
	}
	vw_array(w, "devices");
	for (cl_uint d = 0; d < n && d < CL_MAX_DEVICES; d++) {
		vw_set_base(w, "platforms.%u.devices.%u", i, d);
		for (size_t k = 0; k < ARRAY_SIZE(dinfo); k++)
			cl_string(w, f, device_info, f->clGetDeviceInfo_name, devs[d],
				  dinfo[k].param, dinfo[k].key);
		cl_type(w, f, devs[d]);
	}
}

static const char *const opencl_keys[] = { "library", "platform_count", "platforms", NULL };

static const char *const opencl_sonames[] = { "libOpenCL.so.1", "libOpenCL.so", NULL };
static const struct vendor_lib opencl_lib = {
	.sonames = opencl_sonames,
	.name = "libOpenCL",
	.not_this = "not an OpenCL library",
	.symbol_key = "platforms",
	.keys = (const char *const[]){ "platforms", NULL },
	.symbols = opencl_symbols,
	.n_symbols = ARRAY_SIZE(opencl_symbols),
};

static int opencl_child(int fd, void *userdata)
{
	struct vwriter w = { .fd = fd };
	struct opencl_fns f = { 0 };
	cl_platform_id plats[CL_MAX_PLATFORMS];
	cl_uint n = 0;
	cl_int rc;

	if (!vendor_child_load(&w, userdata, &opencl_lib, &f))
		return w.err ? 1 : 0;
	vw_begin(&w, "platforms", f.clGetPlatformIDs_name);
	rc = f.clGetPlatformIDs(CL_MAX_PLATFORMS, plats, &n);
	if (rc == CL_PLATFORM_NOT_FOUND_KHR) {
		/* cl_khr_icd: the loader found no vendor ICD that loads. */
		vw_int(&w, "platform_count", 0);
		vw_array(&w, "platforms");
		return w.err ? 1 : 0;
	}
	if (rc != CL_SUCCESS) {
		cl_fail(&w, "platforms", f.clGetPlatformIDs_name, rc);
		return w.err ? 1 : 0;
	}
	vw_int(&w, "platform_count", n);
	vw_array(&w, "platforms");
	for (cl_uint i = 0; i < n && i < CL_MAX_PLATFORMS; i++)
		cl_platform(&w, &f, plats[i], i);
	return w.err ? 1 : 0;
}

/*
 * The ICDs the loader may load, as a vendors directory of its own in the child's private
 * directory: OCL_ICD_VENDORS naming a directory replaces /etc/OpenCL/vendors in both ocl-icd
 * (libOpenCL(7), "OCL_ICD_VENDORS") and the Khronos ICD loader (its README, "Environment
 * variables"). The "README" file, which the loaders ignore (not *.icd), makes the directory
 * exist when no ICD is left.
 */
static int opencl_files(const struct vendor_req *req, char ***ret)
{
	size_t n = 0;
	char **files;

	while (req->opencl_icds[n])
		n++;
	files = calloc(2 * n + 3, sizeof(*files));
	if (!files)
		return -ENOMEM;
	files[0] = strdup("vendors/README");
	files[1] = strdup("ICDs gpuenv lets the loader load (CPU-only ones left out)\n");
	for (size_t i = 0; i < n; i++) {
		if (asprintf(&files[2 + 2 * i], "vendors/gpuenv-%zu.icd", i) < 0)
			files[2 + 2 * i] = NULL;
		if (asprintf(&files[3 + 2 * i], "%s\n", req->opencl_icds[i]) < 0)
			files[3 + 2 * i] = NULL;
	}
	for (size_t i = 0; i < 2 * n + 2; i++)
		if (!files[i]) {
			strv_free(files);
			return -ENOMEM;
		}
	*ret = files;
	return 0;
}

int vendor_opencl_start(const struct vendor_req *req, struct vendor_pending **ret)
{
	static const char *const env[] = { "OCL_ICD_VENDORS", "vendors", "OPENCL_VENDOR_PATH",
					   "vendors", NULL };
	_cleanup_strv_free_ char **files = NULL;
	struct vendor_session vs = {
		.fn = opencl_child,
		.userdata = (void *)req,
		.timeout_ms = req->timeout_ms,
		.prefix = "opencl:",
		.expected_keys = opencl_keys,
	};

	if (req->opencl_icds) {
		int err = opencl_files(req, &files);

		if (err < 0)
			return err;
		vs.private_files = (const char *const *)files;
		vs.env = env;
	}
	return vendor_session_start(&vs, ret);
}
