// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What --image read (core/ctx.h struct image_info), under container.image: the input's kind,
 * its platform, layers and entries, and whether the virtual tree is whole: a truncated layer,
 * a missing one, a cap hit or hostile entries make `index` an error naming each issue, so no
 * fact read from an incomplete tree passes for a whole image (of a capture bundle, only then). Also where an environment
 * variable came from: the image configuration's Env, or the environment (--env-file).
 */
#include <string.h>

#include "probe.h"
#include "shared/strv.h"

#define IMAGE_SOURCE "image"

const char *probe_env_source(const struct probe_env *pe, const char *key)
{
	const char *v = env_get(pe->env, key);
	size_t klen = strlen(key);

	for (char **e = pe->ctx->image.env; v && e && *e; e++)
		if (strncmp(*e, key, klen) == 0 && (*e)[klen] == '=' &&
		    strcmp(*e + klen + 1, v) == 0)
			return "image config Env";
	return "environment";
}

void probe_image(struct probe_env *pe, struct snap_node *container)
{
	const struct image_info *info = &pe->ctx->image;
	struct snap_node *img;

	/* A capture bundle stands for the machine it was taken on (a replay of it reports what
	 * the capture did): said only when its tree is not whole. */
	if (!pe->ctx->has_image || (streq(info->kind, "capture-bundle") && info->complete))
		return;
	img = snap_object(container, "image");
	snap_set_str(img, "kind", info->kind, IMAGE_SOURCE);
	snap_set_str_or_absent(img, "platform", info->platform, IMAGE_SOURCE,
			       "the image configuration names no os/architecture");
	snap_set_int(img, "layers", info->layers, IMAGE_SOURCE);
	snap_set_int(img, "compressed_layers", info->compressed, IMAGE_SOURCE);
	snap_set_int(img, "entries", (int64_t)info->entries, IMAGE_SOURCE);
	snap_set_int(img, "env_entries", (int64_t)strv_length(info->env), IMAGE_SOURCE);
	if (info->complete)
		snap_set_str(img, "index", "complete", IMAGE_SOURCE);
	else
		snap_set_state(img, "index", FACT_ERROR, IMAGE_SOURCE,
			       info->issues && *info->issues ? info->issues : "incomplete");
}
