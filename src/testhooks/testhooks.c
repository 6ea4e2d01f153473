// SPDX-License-Identifier: LGPL-2.1-or-later
/* Test hooks (testhooks.h): never linked into libgpuenv.so or the installed gpuenv. */
#include <errno.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/strv.h"
#include "testhooks/testhooks.h"

int testhooks_no_openat2(struct gpuenv_ctx *ctx)
{
	unsigned flags = ROOT_NO_OPENAT2;
	struct root *r;
	int err;

	if (!ctx)
		return -EINVAL;
	if (ctx->flags & GPUENV_CTX_TRACE_PATHS)
		flags |= ROOT_TRACE;
	err = root_new(root_host_path(ctx->root), flags, &r);
	if (err < 0)
		return err;
	root_free(ctx->root);
	ctx->root = r;
	return 0;
}

int testhooks_root_inject_errors(struct root *r, const char *spec)
{
	_cleanup_strv_free_ char **items = NULL;
	int rr = strv_split(spec, ",", &items);

	if (rr < 0)
		return rr;
	STRV_FOREACH(it, items) {
		char *eq = strrchr(*it, '=');
		int err;

		if (!eq)
			return -EINVAL;
		*eq = '\0';
		err = errno_from_name(eq + 1);
		if (err == 0)
			return -EINVAL;
		rr = root_inject_error(r, *it, err);
		if (rr < 0)
			return rr;
	}
	return 0;
}

int testhooks_inject_errors(struct gpuenv_ctx *ctx, const char *spec)
{
	if (!ctx || !spec)
		return -EINVAL;
	return testhooks_root_inject_errors(ctx->root, spec);
}
