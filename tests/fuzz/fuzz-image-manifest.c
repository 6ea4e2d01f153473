// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: an image's JSON documents (src/formats/image-manifest.c): the input is
 * read as docker save's manifest.json, an OCI index (for linux/amd64 and for an arm64 variant),
 * an OCI manifest and an image configuration; every path a parser returns must be relative
 * and free of "..", whatever the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/image-manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_path(const char *p)
{
	if (!p)
		return;
	if (p[0] == '/')
		abort();
	/* a ".." component, not any ".." ("abc../x" is a name) */
	for (const char *c = p; c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);

		if (n == 2 && c[0] == '.' && c[1] == '.')
			abort();
		c = slash ? slash + 1 : NULL;
	}
}

static void check_manifest(const struct image_manifest *m)
{
	check_path(m->config.path);
	for (size_t i = 0; i < m->n_layers; i++)
		check_path(m->layers[i].path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *why;
	struct image_manifest m = { 0 };
	struct image_config c = { 0 };
	struct image_blob b = { 0 };
	bool is_index;

	if (image_docker_manifest_parse(text, size, &m, &why) == 0)
		check_manifest(&m);
	image_manifest_done(&m);
	if (image_oci_manifest_parse(text, size, &m, &why) == 0)
		check_manifest(&m);
	image_manifest_done(&m);
	if (image_oci_index_pick(text, size, NULL, &b, &is_index, &why) == 0)
		check_path(b.path);
	image_blob_done(&b);
	{
		char platforms[96];

		image_oci_index_platforms(text, size, platforms, sizeof(platforms));
		if (!memchr(platforms, '\0', sizeof(platforms)))
			abort();
	}
	if (image_oci_index_pick(text, size, "linux/arm64/v8", &b, &is_index, &why) == 0)
		check_path(b.path);
	image_blob_done(&b);
	if (image_config_parse(text, size, &c, &why) == 0)
		for (char **e = c.env; e && *e; e++)
			if (!strchr(*e, '='))
				abort();
	image_config_done(&c);
	return 0;
}
