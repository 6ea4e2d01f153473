// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the exporter's web configuration reader (src/formats/web-config.c,
 * exporter-toolkit's format, libyaml underneath). */
#include <stdint.h>
#include <stdlib.h>

#include "formats/web-config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_config *c = NULL;
	struct yaml_error e;

	if (web_config_parse((const char *)data, size, &c, &e) == 0) {
		(void)web_tls_version_name(c->min_version);
		web_config_free(c);
	}
	return 0;
}
