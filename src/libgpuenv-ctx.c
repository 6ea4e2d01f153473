// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public struct gpuenv_ctx (include/gpuenv/gpuenv.h): creation from sized options (libbpf
 * OPTS_VALID idea), the log and pci.ids callbacks, the path trace. The struct is defined in
 * src/core/ctx.h, where the layers read it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "libgpuenv-image.h"
#include "gpuenv/gpuenv.h"
#include "shared/macro.h"
#include "vendor/vendor.h"
#include "shared/strv.h"

static char *strdup_or_null(const char *s, bool *oom)
{
	char *p;

	if (!s)
		return NULL;
	p = strdup(s);
	if (!p)
		*oom = true;
	return p;
}

/* Bytes past what this library knows must be zero: a newer caller asked for something. */
static bool opts_tail_zero(const struct gpuenv_ctx_opts *opts)
{
	const unsigned char *p = (const unsigned char *)opts;

	for (size_t i = sizeof(*opts); i < opts->sz; i++)
		if (p[i])
			return false;
	return true;
}

GPUENV_API int gpuenv_ctx_new(const struct gpuenv_ctx_opts *opts, struct gpuenv_ctx **ret)
{
	struct gpuenv_ctx_opts o = { 0 };
	struct gpuenv_ctx *ctx;
	unsigned root_flags = 0;
	bool oom = false;
	int err = 0; /* wheels alone: no root yet, image_add_wheels() makes it */

	if (!ret)
		return -EINVAL;
	if (opts) {
		if (opts->sz < offsetof(struct gpuenv_ctx_opts, flags) || !opts_tail_zero(opts))
			return -EINVAL;
		memcpy(&o, opts, MIN(opts->sz, sizeof(o)));
	}
	if (o.pid < 0)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	ctx->log.max_level = LOG_LEVEL_WARNING;
	/* Zero for a caller built before the fields existed: o is zero past opts->sz. */
	ctx->log.fn = o.log_fn;
	ctx->log.userdata = o.log_userdata;
	ctx->flags = o.flags;
	ctx->pid = o.pid;
	ctx->vendor_timeout_ms =
		o.vendor_timeout_ms ? o.vendor_timeout_ms : CTX_DEFAULT_VENDOR_TIMEOUT_MS;
	if (o.flags & GPUENV_CTX_TRACE_PATHS)
		root_flags |= ROOT_TRACE;
	if (o.flags & GPUENV_CTX_TRACE_READS)
		root_flags |= ROOT_TRACE_READS;
	if (o.image && o.sysroot) {
		err = -EINVAL;
		goto fail;
	}
	if (o.image) {
		ctx->has_image = true;
		err = image_open(o.image, o.image_platform, o.flags & GPUENV_CTX_VERIFY_IMAGE,
				 root_flags, &ctx->log, &ctx->root, &ctx->image);
	} else if (!(o.wheels && o.wheels[0] && !o.sysroot)) {
		err = root_new(o.sysroot, root_flags, &ctx->root);
	}
	if (err >= 0 && o.wheels && o.wheels[0]) {
		if (o.sysroot) {
			err = -EINVAL;
			goto fail;
		}
		ctx->has_image = true;
		err = image_add_wheels(o.wheels, root_flags, &ctx->log, &ctx->root, &ctx->image);
	}
	if (err < 0)
		goto fail;
	ctx->live = root_is_live(ctx->root);
	err = env_new(ctx->live, &ctx->env);
	for (size_t i = 0; err >= 0 && ctx->image.env && ctx->image.env[i]; i++) {
		_cleanup_free_ char *key = strdup(ctx->image.env[i]);
		char *eq = key ? strchr(key, '=') : NULL;

		if (!key)
			err = -ENOMEM;
		else if (eq) {
			*eq = '\0';
			err = env_set(ctx->env, key, eq + 1);
		}
	}
	if (err >= 0 && ctx->image.environment) {
		struct env_file_error fe = { 0 };
		FILE *f = fmemopen(ctx->image.environment, strlen(ctx->image.environment), "r");

		err = f ? env_load_stream(ctx->env, f, &fe) : -ENOMEM;
		if (f)
			fclose(f);
		if (err < 0 && err != -ENOMEM)
			log_err(&ctx->log, "%s: the bundle's environment: %s", o.image,
				fe.reason ? fe.reason : strerror(-err));
	}
	if (err < 0)
		goto fail;
	if (o.env_file) {
		struct env_file_error fe;

		err = env_load_file(ctx->env, o.env_file, &fe);
		if (err < 0) {
			if (fe.reason)
				log_err(&ctx->log, "env file %s: line %u: %s", o.env_file, fe.line,
					fe.reason);
			else
				log_err(&ctx->log, "env file %s: %s", o.env_file, strerror(-err));
			goto fail;
		}
	}
	ctx->nvml_lib = strdup_or_null(o.nvml_lib, &oom);
	ctx->cuda_lib = strdup_or_null(o.cuda_lib, &oom);
	ctx->opencl_lib = strdup_or_null(o.opencl_lib, &oom);
	ctx->amdsmi_lib = strdup_or_null(o.amdsmi_lib, &oom);
	ctx->ze_lib = strdup_or_null(o.ze_lib, &oom);
	ctx->hostname = o.hostname && o.hostname[0] ? strdup_or_null(o.hostname, &oom) : NULL;
	if (oom) {
		err = -ENOMEM;
		goto fail;
	}
	*ret = ctx;
	return 0;
fail:
	gpuenv_ctx_free(ctx);
	return err;
}

GPUENV_API struct gpuenv_ctx *gpuenv_ctx_free(struct gpuenv_ctx *ctx)
{
	if (!ctx)
		return NULL;
	vendor_keep_free(ctx->nvml_keep);
	free(ctx->nvml_sweep);
	root_free(ctx->root);
	env_free(ctx->env);
	image_info_done(&ctx->image);
	strbuf_done(&ctx->kept);
	strv_free(ctx->kept_names);
	free(ctx->nvml_lib);
	free(ctx->cuda_lib);
	free(ctx->opencl_lib);
	free(ctx->amdsmi_lib);
	free(ctx->ze_lib);
	free(ctx->hostname);
	free(ctx);
	return NULL;
}

GPUENV_API void gpuenv_ctx_set_log_fn(struct gpuenv_ctx *ctx, gpuenv_log_fn fn, void *userdata)
{
	if (!ctx)
		return;
	ctx->log.fn = fn;
	ctx->log.userdata = userdata;
}

GPUENV_API void gpuenv_ctx_set_pci_name_fn(struct gpuenv_ctx *ctx, gpuenv_pci_name_fn fn,
					   void *userdata)
{
	if (!ctx)
		return;
	ctx->pci_name_fn = fn;
	ctx->pci_name_userdata = userdata;
}

GPUENV_API void gpuenv_ctx_set_log_priority(struct gpuenv_ctx *ctx, int priority)
{
	if (ctx)
		ctx->log.max_level = priority;
}

GPUENV_API int gpuenv_ctx_set_nvml_sweep(struct gpuenv_ctx *ctx, const char *text, size_t len)
{
	char *copy = NULL;

	if (!ctx || (!text && len))
		return -EINVAL;
	if (text && !(copy = strndup(text, len)))
		return -ENOMEM;
	free(ctx->nvml_sweep);
	ctx->nvml_sweep = copy;
	ctx->nvml_sweep_len = copy ? strlen(copy) : 0;
	return 0;
}

GPUENV_API int gpuenv_ctx_get_trace(struct gpuenv_ctx *ctx, char **ret)
{
	if (!ctx || !ret)
		return -EINVAL;
	/* the files' records, then what was kept besides them (core/kept.c) */
	if (asprintf(ret, "%s%s", root_trace(ctx->root), strbuf_str(&ctx->kept)) < 0)
		return -ENOMEM;
	return ctx->kept.err;
}
