// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the toolkit probes' text parsers (src/probe/toolkit.h) on one input each:
 * C header version macros, `nvcc --version` output, KEY=VALUE (.hipVersion), version lines
 * (.info/version), dpkg status stanzas (a package's version, what depends on it), and the same bytes as file names. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/toolkit-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The index answers as the search of the text does: for a fixed name, the first and the last
 * name the index holds. */
static void dpkg_index_agrees(const char *text, size_t size)
{
	struct dpkg_status_index idx;
	char a[PROBE_VERSION_MAX], b[PROBE_VERSION_MAX];

	if (dpkg_status_index_build(text, size, &idx) < 0)
		return;
	for (size_t k = 0; k < 3; k++) {
		char name[256] = "libamdhip64-5";
		int r1, r2;

		if (k > 0) {
			const struct dpkg_index_entry *s;

			if (!idx.n)
				break;
			s = &idx.v[k == 1 ? 0 : idx.n - 1];
			if (s->name_len >= sizeof(name) ||
			    memchr(text + s->name_off, '\0', s->name_len))
				continue;
			memcpy(name, text + s->name_off, s->name_len);
			name[s->name_len] = '\0';
		}
		r1 = probe_dpkg_status_version(text, size, name, a, sizeof(a));
		r2 = dpkg_status_index_version(&idx, text, name, b, sizeof(b));
		if (r1 != r2 || (r1 == 0 && strcmp(a, b) != 0))
			abort();
	}
	dpkg_status_index_done(&idx);
}

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
	dpkg_index_agrees(text, size);
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
