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
 * NULL for linux/amd64. verify: hash the layer blobs named by digest (GPUENV_CTX_VERIFY_IMAGE).
 * Errors are logged with the path and returned as -errno. */
int image_open(const char *path, const char *platform, bool verify, unsigned root_flags,
	       const struct log_sink *log, struct root **ret_root, struct image_info *info);
/* Adds each wheel (a NULL-terminated list of paths) to the image root *root as pip would
 * install it (core/layers.h layers_add_zip()), or to a new empty tree when *root is NULL
 * (info->kind "wheels"); refreshes info's counts and issues. A directory image cannot take
 * wheels (-EINVAL). Errors are logged with the path. */
int image_add_wheels(const char *const *wheels, unsigned root_flags, const struct log_sink *log,
		     struct root **root, struct image_info *info);
