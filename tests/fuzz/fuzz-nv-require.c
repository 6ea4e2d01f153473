// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the NVIDIA container requirement parser and evaluator
 * (src/facts/nv-require.c) on any bytes, evaluated for a device of every brand and for
 * none; every term it records must lie inside its copy and the message must end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "facts/nv-require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nv_require r;
	char msg[256];

	if (nv_require_parse((const char *)data, size, &r) < 0)
		return 0;
	for (size_t i = 0; i < r.n_terms; i++)
		if (strlen(r.terms[i].text) > size || strlen(r.terms[i].value) > size)
			abort();
	for (size_t b = 0; b <= nv_require_n_brands; b++) {
		struct nv_require_facts f = {
			.cuda = "12.2",
			.driver = "535.247.01",
			.device = b < nv_require_n_brands,
			.arch = "8.9",
			.brand = b < nv_require_n_brands ? nv_require_brands[b] : NULL,
		};
		const struct nv_require_term *t;
		enum nv_require_result res = nv_require_eval(&r, &f, &t);

		if ((res == NV_REQUIRE_INVALID) != (t != NULL))
			abort();
		nv_require_message(&r, res, msg, sizeof(msg));
		if (!memchr(msg, '\0', sizeof(msg)))
			abort();
	}
	nv_require_done(&r);
	return 0;
}
