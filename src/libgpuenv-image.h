/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --image (libgpuenv-image.c): opening a container image as a root, and what it was. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/ctx.h"
#include "core/root.h"
#include "shared/log.h"

void image_info_done(struct image_info *info);
void image_info_take_layers(struct image_info *info, const struct layers *t);
/* Opens path as an image root (*ret_root) and says what it was (*info, to be
 * image_info_done()). platform: "os/arch[/variant]" to pick from a multi-platform index,
 * NULL for linux/amd64. Errors are logged with the path and returned as -errno. */
int image_open(const char *path, const char *platform, unsigned root_flags,
	       const struct log_sink *log, struct root **ret_root, struct image_info *info);
