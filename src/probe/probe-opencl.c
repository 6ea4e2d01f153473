// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.opencl: the OpenCL ICD registry and, live, the platforms and devices the ICD loader
 * (libOpenCL.so.1) offers. ICD files: the "*.icd" files of /etc/OpenCL/vendors, each holding one
 * line, the file name or path of a vendor library (Khronos cl_khr_icd extension specification, "ICD
 * loader vendor enumeration on Linux"). Platforms and devices come from src/vendor/opencl.c
 * in a child under the context's deadline, only live or with --opencl-lib, never with
 * --no-vendor. Keys: docs/snapshot-schema.md "runtime.opencl".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe-vendor.h"
#include "shared/strv.h"

#define ICD_DIR "/etc/OpenCL/vendors"

static int probe_icd_files(struct probe_env *pe, struct snap_node *ocl)
{
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	int err = root_list_dir(pe->root, ICD_DIR, ROOT_DIR_MAX_ENTRIES, &names);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		snap_set_errno(ocl, "icd_files", err, ICD_DIR);
		return 0;
	}
	arr = snap_array(ocl, "icd_files");
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		struct snap_node *f;
		size_t len = strlen(*n);
		char *line;

		/* The loader reads only names ending in ".icd". */
		if (len < 5 || !streq(*n + len - 4, ".icd"))
			continue;
		if (asprintf(&path, ICD_DIR "/%s", *n) < 0) {
			path = NULL;
			return -ENOMEM;
		}
		f = snap_append_object(arr);
		snap_set_str(f, "path", path, ICD_DIR);
		err = root_read_text(pe->root, path, ROOT_CAP_ATTR, &text);
		if (err < 0) {
			snap_set_errno(f, "library", err, path);
			continue;
		}
		line = strstrip(text);
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line)
			snap_set_malformed(f, "library", text, path, "empty ICD file");
		else
			snap_set_str(f, "library", line, path);
	}
	return 0;
}

int probe_opencl(struct probe_env *pe, struct snapshot *s)
{
	static const char *const keys[] = { "library", "platforms", NULL };
	struct snap_node *ocl = snap_object(snap_object(snapshot_root(s), "runtime"), "opencl");
	struct vendor_req req = { .library = pe->ctx->opencl_lib,
				  .timeout_ms = pe->ctx->vendor_timeout_ms };
	struct vendor_result r;
	const char *source, *why;
	char buf[256];
	int err = probe_icd_files(pe, ocl);

	if (err < 0)
		return err;
	why = probe_vendor_gate(pe, s, pe->ctx->opencl_lib, "--opencl-lib", "clGetPlatformIDs",
				false, buf, sizeof(buf), &source);
	if (why) {
		probe_vendor_not_called(ocl, keys, FACT_UNPROBED, source, why);
		return snapshot_error(s);
	}
	err = vendor_opencl_collect(&req, &r);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		probe_vendor_not_called(ocl, keys, FACT_ERROR, "fork", strerror(-err));
		return snapshot_error(s);
	}
	probe_vendor_write(ocl, &r, req.timeout_ms, "opencl");
	if (r.failure)
		log_warn(pe->log, "OpenCL: %s", r.failure);
	vendor_result_done(&r);
	return snapshot_error(s);
}
