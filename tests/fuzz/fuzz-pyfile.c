// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the Python-literal reader (torch/version.py, jaxlib/version.py,
 * tensorflow build_info.py) over arbitrary bytes, for every name the probe asks for. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/pyfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"__version__",	    "cuda",	"hip",	     "git_version",
		"_release_version", "_version", "build_info"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pyval v;
		char *s = NULL;
		bool none;

		if (pyfile_get_assign((const char *)data, size, names[i], &v) == 0) {
			const struct pyval *x = pyval_dict_get(&v, "cuda_compute_capabilities");

			(void)x;
			pyval_done(&v);
		}
		if (pyfile_get_string((const char *)data, size, names[i], &s, &none) == 0)
			free(s);
	}
	{
		const char *form;
		struct pyval v;

		if (pyfile_tf_build_info((const char *)data, size, &v, &form) == 0)
			pyval_done(&v);
	}
	return 0;
}
