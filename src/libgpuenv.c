// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public API (include/gpuenv/gpuenv.h), one file per public object as kmod's
 * libkmod-<object>.c: src/libgpuenv-ctx.c, -snapshot.c, -scan.c, -doctor.c, -facts.c; this file
 * holds what belongs to no object (the version). They check arguments and convert flags, the
 * work is in the layers under src/; src/libgpuenv.sym exports exactly the functions the header
 * declares (tests/tools/check-symbols.py).
 */
#include "gpuenv/gpuenv.h"

GPUENV_API const char *gpuenv_version(void)
{
	return GPUENV_VERSION;
}
