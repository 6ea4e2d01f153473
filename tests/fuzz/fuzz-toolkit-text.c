// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the toolkit probes' text parsers (src/probe/toolkit.h) on one input each:
 * C header version macros, `nvcc --version` output, KEY=VALUE (.hipVersion), version lines
 * (.info/version), dpkg status stanzas (a package's version, what depends on it), and the same bytes as file names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/toolkit-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cudnn[] = { "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL" };
	static const char *const trt[] = { "NV_TENSORRT_MAJOR", "NV_TENSORRT_MINOR",
					   "NV_TENSORRT_PATCH" };
	const char *text = (const char *)data, *v;
	char a[PROBE_VERSION_MAX], b[PROBE_VERSION_MAX];
	char *name;

	probe_header_version(text, size, cudnn, 3, a, sizeof(a));
	probe_header_version(text, size, trt, 3, a, sizeof(a));
	probe_header_define(text, size, "CUDART_VERSION", a, sizeof(a));
	probe_parse_nvcc_version(text, size, a, sizeof(a), b, sizeof(b));
	probe_kv_value(text, size, "HIP_VERSION_MAJOR", a, sizeof(a));
	probe_version_line(text, size, a, sizeof(a));
	probe_dpkg_status_version(text, size, "libamdhip64-5", a, sizeof(a));
	probe_dpkg_status_required_by(text, size, "libamdhip64-5", a, sizeof(a));
	probe_dpkg_status_required_by(text, size, "libamdhip64-5", b, 8);
	/* As a file name: NUL-terminated at the first NUL. */
	name = strndup(text, size);
	if (name) {
		if (probe_lib_name_match(name, "libcudnn.so", &v))
			probe_version_fields(v);
		probe_dist_info_match(name, "nvidia_cudnn", a, sizeof(a));
		probe_conda_meta_match(name, "cuda-cudart", a, sizeof(a));
		free(name);
	}
	return 0;
}
