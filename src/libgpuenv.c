// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Public API glue that belongs to no single layer: the version string. Layer-specific entry
 * points live next to their layer (src/core/ctx.c, src/probe/probe-api.c, src/scan/scan-api.c,
 * src/rules/rules-api.c, src/output/, src/facts/facts-query.c); include/gpuenv/gpuenv.h
 * declares them all and src/libgpuenv.sym exports exactly those (tests/tools/check-symbols.py).
 */
#include "gpuenv/gpuenv.h"

GPUENV_API const char *gpuenv_version(void)
{
	return GPUENV_VERSION;
}
