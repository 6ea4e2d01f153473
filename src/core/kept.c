// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a capture keeps besides files (ctx.h, docs/design.md "Capture and replay"). A record
 * in the trace is "keep <bytes>\t/.gpuenv-capture/<name>", the bytes with '%', NUL, tab, CR
 * and newline written as %XX (the trace is newline-separated "<what>\t<path>" text), so
 * `gpuenv capture` turns each into a file of the bundle's root without a format of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "gpuenv/gpuenv.h"
#include "shared/strv.h"

#define KEEP_FLAGS (GPUENV_CTX_TRACE_PATHS | GPUENV_CTX_TRACE_READS)

bool ctx_keeping(const struct gpuenv_ctx *ctx)
{
	return (ctx->flags & KEEP_FLAGS) == KEEP_FLAGS;
}

int ctx_keep(struct gpuenv_ctx *ctx, const char *name, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t from = 0;
	int err;

	if (!ctx_keeping(ctx) || strv_contains(ctx->kept_names, name))
		return 0;
	err = strv_push(&ctx->kept_names, name);
	if (err < 0)
		return err;
	strbuf_puts(&ctx->kept, "keep ");
	for (size_t i = 0; i < len; i++) {
		if (p[i] != '%' && p[i] != '\0' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			continue;
		strbuf_add(&ctx->kept, (const char *)p + from, i - from);
		strbuf_printf(&ctx->kept, "%%%02X", p[i]);
		from = i + 1;
	}
	strbuf_add(&ctx->kept, (const char *)p + from, len - from);
	strbuf_printf(&ctx->kept, "\t" CTX_KEPT_DIR "%s\n", name);
	return ctx->kept.err;
}

int ctx_kept(struct gpuenv_ctx *ctx, const char *name, size_t max, char **ret, size_t *ret_len)
{
	char path[4096];

	if (ctx->live)
		return -ENOENT;
	if ((size_t)snprintf(path, sizeof(path), CTX_KEPT_DIR "%s", name) >= sizeof(path))
		return -ENAMETOOLONG;
	return root_read_file(ctx->root, path, max, ret, ret_len);
}
