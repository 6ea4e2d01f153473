// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The installed gpuenv's context: gpuenv_ctx_new() and nothing else. Its test build,
 * gpuenv-test, links tests/harness/cli-test-hooks.c instead of this file, which adds the hooks
 * of the GPUENV_TEST_* environment variables (tools/gpuenv.h, common_ctx_new()).
 */
#include "gpuenv.h"

int common_ctx_new(const struct gpuenv_ctx_opts *opts, struct gpuenv_ctx **ret)
{
	return gpuenv_ctx_new(opts, ret);
}
