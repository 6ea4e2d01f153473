// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * common_ctx_new() of gpuenv-test, the test build of the CLI (tests/meson.build), in place of
 * the installed gpuenv's tools/ctx-new.c: gpuenv_ctx_new(), then the hooks the tests ask for
 * through the environment (src/testhooks/testhooks.h): GPUENV_TEST_NO_OPENAT2 (set: the
 * userspace path walk) and GPUENV_TEST_INJECT_ERRORS ("PATH=ERRNAME,…": reads that fail, even
 * for root) and GPUENV_TEST_STUCK_STATE (a directory whose stat and wchan files stand for
 * every task's in /proc, core/child-stuck.h). A bad spec fails the context as a bad option
 * would.
 */
#include <stdlib.h>

#include "gpuenv.h"
#include "testhooks/testhooks.h"

int common_ctx_new(const struct gpuenv_ctx_opts *opts, struct gpuenv_ctx **ret)
{
	const char *inject = getenv("GPUENV_TEST_INJECT_ERRORS");
	struct gpuenv_ctx *ctx;
	int err = gpuenv_ctx_new(opts, &ctx);

	if (err < 0)
		return err;
	if (getenv("GPUENV_TEST_STUCK_STATE"))
		testhooks_stuck_state(getenv("GPUENV_TEST_STUCK_STATE"));
	if (getenv("GPUENV_TEST_NO_OPENAT2"))
		err = testhooks_no_openat2(ctx);
	if (err >= 0 && inject)
		err = testhooks_inject_errors(ctx, inject);
	if (err < 0) {
		gpuenv_ctx_free(ctx);
		return err;
	}
	*ret = ctx;
	return 0;
}
