// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the container runtime endpoint of kubelet's flag files, its config.yaml
 * and crictl.yaml (src/formats/kube-endpoint.c) over the bytes, into a small buffer and a
 * large one: a value found is NUL-terminated within the buffer, never empty, and the same in
 * both where it fits in the small one; a YAML read that could not tell says why.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/kube-endpoint.h"

#define WHY 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int r, const char *buf, size_t size)
{
	if ((r != 0 && r != 1 && r != -E2BIG && r != -EINVAL) ||
	    (r == 1 && (strnlen(buf, size) == size || !buf[0])))
		abort();
}

static void check_yaml(int r, const char *buf, size_t size, const char *why)
{
	if (r == -ENOMEM)
		return;
	if (r < 0 && ((r != -EBADMSG && r != -E2BIG) || strnlen(why, WHY) == WHY || !why[0]))
		abort();
	if (r >= 0)
		check(r, buf, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	char small[16], big[KUBE_ENDPOINT_MAX], why[WHY];
	int a, b;

	a = kube_flag_endpoint(t, size, small, sizeof(small));
	b = kube_flag_endpoint(t, size, big, sizeof(big));
	check(a, small, sizeof(small));
	check(b, big, sizeof(big));
	why[0] = '\0';
	a = kube_yaml_endpoint(t, size, "runtime-endpoint", small, sizeof(small), why, sizeof(why));
	check_yaml(a, small, sizeof(small), why);
	why[0] = '\0';
	b = kube_yaml_endpoint(t, size, "runtime-endpoint", big, sizeof(big), why, sizeof(why));
	check_yaml(b, big, sizeof(big), why);
	if (a == 1 && (b != 1 || strcmp(small, big) != 0))
		abort();
	why[0] = '\0';
	b = kube_yaml_endpoint(t, size, "containerRuntimeEndpoint", big, sizeof(big), why,
			       sizeof(why));
	check_yaml(b, big, sizeof(big), why);
	return 0;
}
