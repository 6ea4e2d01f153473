// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the strict TOML reader (src/formats/toml-lex.c, toml-min.c), and the lookups the
 * container probe makes on what it accepts. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/toml-min.h"
#include "shared/strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const runtimes[] = { "plugins", "io.containerd.grpc.v1.cri",
						"containerd", "runtimes", NULL };
	static const char *const top[] = { NULL };
	static const char *const mode[] = { "nvidia-container-runtime", "mode", NULL };
	struct toml_doc *d = NULL;
	struct toml_error e = { 0 };
	char **kids = NULL;

	if (toml_parse((const char *)data, size, &d, &e) < 0)
		return 0;
	(void)toml_get(d, mode);
	if (toml_children(d, runtimes, &kids) == 0)
		strv_free(kids);
	if (toml_children(d, top, &kids) == 0)
		strv_free(kids);
	toml_free(d);
	return 0;
}
