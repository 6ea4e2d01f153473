/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one name table of enum gpuenv_layer ("hardware" … "container"): the snapshot's top-level
 * objects (probe), the rules' layers and every renderer use these names.
 */
#pragma once

#include "gpuenv/gpuenv.h"

/* "unknown" for a value outside the enum. */
const char *layer_name(enum gpuenv_layer l);
/* The layer of a name; -EINVAL when none. */
int layer_from_name(const char *name);
