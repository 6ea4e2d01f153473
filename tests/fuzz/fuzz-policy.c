// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the `gpuenv check` policy reader (src/formats/policy.c, libyaml
 * underneath), and the constraint matcher over each parsed constraint. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpuenv_policy *p = NULL;
	struct policy_error e;

	if (policy_parse((const char *)data, size, &p, &e) == 0) {
		policy_constraint_matches(&p->driver_version, "550.54.15");
		policy_constraint_matches(&p->cuda_toolkit, "12.4.1");
		for (size_t i = 0; i < p->n_frameworks; i++)
			policy_constraint_matches(&p->frameworks[i].version, "2.4.0+cu124");
		policy_free(p);
	}
	return 0;
}
