// SPDX-License-Identifier: LGPL-2.1-or-later
/* What the layers ask of a context; the public gpuenv_ctx_* functions are src/libgpuenv-ctx.c. */
#include "ctx.h"
#include "gpuenv/gpuenv.h"

bool ctx_vendor_allowed(const struct gpuenv_ctx *ctx, const char *explicit_lib)
{
	if (ctx->flags & GPUENV_CTX_NO_VENDOR)
		return false;
	return ctx->live || explicit_lib != NULL;
}
