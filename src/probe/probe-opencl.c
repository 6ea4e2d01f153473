// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.opencl's ICD registry; the platforms and devices are probe-vendor.c's OpenCL row.
 * ICD files: the "*.icd" files of /etc/OpenCL/vendors, each holding one line, the file name
 * or path of a vendor library (Khronos cl_khr_icd extension specification, "ICD loader vendor
 * enumeration on Linux"). Keys: docs/snapshot-schema.md "runtime.opencl".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe-vendor.h"
#include "shared/strv.h"

#define ICD_DIR "/etc/OpenCL/vendors"

int probe_opencl_icd_files(struct probe_env *pe, struct snap_node *ocl)
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
