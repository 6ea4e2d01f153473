// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Public API glue that belongs to no single layer. Layer-specific entry points live next
 * to their layer (src/core/ctx.c, src/snapshot/snapshot-api.c, …) and are all listed in
 * libgpuenv.sym.
 */
#include "gpuenv/gpuenv.h"

GPUENV_API const char *gpuenv_version(void)
{
	return GPUENV_VERSION;
}
