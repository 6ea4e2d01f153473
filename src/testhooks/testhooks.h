/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test hooks: what the tests need and a user never should, kept out of the public header,
 * of libgpuenv.so and of the installed gpuenv. Linked into the unit tests and into the test
 * build of the CLI (gpuenv-test, never installed, which takes them from its GPUENV_TEST_*
 * environment variables) only; tests/tools/check-no-test-hooks.py fails when the installed
 * header or binaries carry them.
 */
#pragma once

#include "core/ctx.h"
#include "core/root.h"

/*
 * Resolves every path of ctx's root with the userspace walk, never openat2(RESOLVE_IN_ROOT),
 * so that tests run both paths (the walk is what containers whose seccomp filter refuses
 * openat2 get). Reopens the root; call it before anything reads. 0 or -errno.
 */
int testhooks_no_openat2(struct gpuenv_ctx *ctx);
/*
 * "PATH=ERRNAME[,PATH=ERRNAME…]" (ERRNAME: EACCES, EIO, EPERM, ENOENT, ELOOP …): every access
 * to exactly PATH inside the root fails with that errno, even for root (a test cannot chmod a
 * file unreadable for root). 0, -EINVAL (malformed spec), -E2BIG, -ENOMEM.
 */
int testhooks_inject_errors(struct gpuenv_ctx *ctx, const char *spec);
/* Every access to exactly path inside r fails with -err (EACCES, EIO …), through the root's
 * access hook (root_set_access_hook()). 0, -E2BIG (64 paths), -ENOMEM. */
int testhooks_root_inject_error(struct root *r, const char *path, int err);
int testhooks_root_inject_errors(struct root *r, const char *spec);
/* Every task's state is read from dir/stat and dir/wchan instead of /proc (a fake library
 * cannot enter uninterruptible sleep): core/child-stuck.h. NULL: the tasks' own again. */
void testhooks_stuck_state(const char *dir);
