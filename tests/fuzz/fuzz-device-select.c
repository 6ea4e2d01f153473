// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the device-selection readers (src/facts/device-select.c) on any bytes,
 * over 0 to 4 GPUs (ROCm with and without UUIDs, Intel of up to 2 tiles, every hierarchy, NVIDIA
 * CUDA_VISIBLE_DEVICES with and without UUIDs); every GPU selected must exist and be named once,
 * the stop text must end inside its buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "facts/device-select.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct device_select *s, size_t n)
{
	if (s->n_selected > n || !memchr(s->stop_text, '\0', sizeof(s->stop_text)))
		abort();
	for (size_t i = 0; i < s->n_selected; i++) {
		if (s->selected[i] >= n)
			abort();
		for (size_t j = 0; j < i; j++)
			if (s->selected[j] == s->selected[i])
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const uuids[] = { "GPU-57a3b1c2d4e5f607", NULL, "GPU-f980f88ef31631a2",
					     "GPU-f980aaaa00000000" };
	static const char *const nv_uuids[] = { "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6",
						"GPU-8932aa00-1111-2222-3333-444455556666", NULL,
						"GPU-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0" };
	char *v = malloc(size + 1);
	struct device_select s;

	if (!v)
		return 0;
	memcpy(v, data, size);
	v[size] = '\0';
	for (size_t n = 0; n <= 4; n++) {
		device_select_rocr(v, uuids, n, &s);
		check(&s, n);
		device_select_hip(v, uuids, n, &s);
		check(&s, n);
		device_select_hip(v, NULL, n, &s);
		check(&s, n);
		device_select_oneapi(v, n, &s);
		check(&s, n);
		device_select_cuda(v, nv_uuids, n, &s);
		check(&s, n);
		device_select_cuda(v, NULL, n, &s);
		check(&s, n);
		for (size_t h = ZE_HIERARCHY_COMPOSITE; h <= ZE_HIERARCHY_COMBINED; h++) {
			device_select_ze_mask(v, n, 2, (enum ze_hierarchy)h, &s);
			check(&s, h == ZE_HIERARCHY_COMPOSITE ? n : 2 * n);
		}
	}
	free(v);
	return 0;
}
