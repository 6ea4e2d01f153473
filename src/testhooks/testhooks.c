// SPDX-License-Identifier: LGPL-2.1-or-later
/* Test hooks (testhooks.h): never linked into libgpuenv.so or the installed gpuenv. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/child-stuck.h"
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

#define FAULTS_MAX 64

/* The injected errors of one root, behind its access hook. */
struct faults {
	size_t n;
	struct {
		char *path;
		int err;
	} f[FAULTS_MAX];
};

static int faults_check(void *data, const char *path)
{
	const struct faults *fs = data;

	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i].path, path) == 0)
			return -fs->f[i].err;
	return 0;
}

static void faults_free(void *data)
{
	struct faults *fs = data;

	for (size_t i = 0; i < fs->n; i++)
		free(fs->f[i].path);
	free(fs);
}

int testhooks_root_inject_error(struct root *r, const char *path, int err)
{
	struct faults *fs = root_access_hook_data(r, faults_check);

	if (!fs) {
		fs = calloc(1, sizeof(*fs));
		if (!fs)
			return -ENOMEM;
		root_set_access_hook(r, faults_check, fs, faults_free);
	}
	if (fs->n >= FAULTS_MAX)
		return -E2BIG;
	fs->f[fs->n].path = strdup(path);
	if (!fs->f[fs->n].path)
		return -ENOMEM;
	fs->f[fs->n].err = err < 0 ? -err : err;
	fs->n++;
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
		rr = testhooks_root_inject_error(r, *it, err);
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

void testhooks_stuck_state(const char *dir)
{
	child_stuck_state_override = dir;
}
