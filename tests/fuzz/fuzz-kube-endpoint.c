// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the container runtime endpoint of kubelet's flag files, its config.yaml
 * and crictl.yaml (src/formats/kube-endpoint.c) over the bytes, into a small buffer and a
 * large one: a value found is NUL-terminated within the buffer, never empty, and the same in
 * both where it fits in the small one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/kube-endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int r, const char *buf, size_t size)
{
	if ((r != 0 && r != 1 && r != -E2BIG && r != -EINVAL) ||
	    (r == 1 && (strnlen(buf, size) == size || !buf[0])))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	char small[16], big[KUBE_ENDPOINT_MAX];
	int a, b;

	a = kube_flag_endpoint(t, size, small, sizeof(small));
	b = kube_flag_endpoint(t, size, big, sizeof(big));
	check(a, small, sizeof(small));
	check(b, big, sizeof(big));
	a = kube_yaml_endpoint(t, size, "runtime-endpoint", small, sizeof(small));
	b = kube_yaml_endpoint(t, size, "runtime-endpoint", big, sizeof(big));
	check(a, small, sizeof(small));
	check(b, big, sizeof(big));
	if (a == 1 && (b != 1 || strcmp(small, big) != 0))
		abort();
	b = kube_yaml_endpoint(t, size, "containerRuntimeEndpoint", big, sizeof(big));
	check(b, big, sizeof(big));
	return 0;
}
