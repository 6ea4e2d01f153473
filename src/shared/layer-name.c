// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <string.h>

#include "layer-name.h"
#include "macro.h"

static const char *const names[] = {
	[GPUENV_LAYER_HARDWARE] = "hardware",	[GPUENV_LAYER_DRIVER] = "driver",
	[GPUENV_LAYER_RUNTIME] = "runtime",	[GPUENV_LAYER_FRAMEWORK] = "framework",
	[GPUENV_LAYER_CONTAINER] = "container",
};

const char *layer_name(enum gpuenv_layer l)
{
	return (unsigned)l < ARRAY_SIZE(names) ? names[l] : "unknown";
}

int layer_from_name(const char *name)
{
	for (size_t l = 0; l < ARRAY_SIZE(names); l++)
		if (streq(names[l], name))
			return (int)l;
	return -EINVAL;
}
