// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test harness: the probe unit tests' fixture (see probe-fx.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "probe-fx.h"
#include "testhooks/testhooks.h"

struct probe_fx *probe_fx_new(const char *tag)
{
	struct probe_fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_non_null(tmptree_new(f->dir, tag));
	return f;
}

int probe_fx_free(struct probe_fx *f)
{
	int r;

	if (!f)
		return 0;
	snapshot_unref(f->s);
	gpuenv_ctx_free(f->ctx);
	r = tmptree_remove(f->dir);
	free(f);
	return r;
}

void probe_fx_open(struct probe_fx *f, const struct gpuenv_ctx_opts *opts)
{
	/* A second open in one test (live, then --sysroot) starts over. */
	f->s = snapshot_unref(f->s);
	f->ctx = gpuenv_ctx_free(f->ctx);
	assert_int_equal(gpuenv_ctx_new(opts, &f->ctx), 0);
	assert_int_equal(snapshot_new(&f->s), 0);
}

void probe_fx_inject(struct probe_fx *f, const char *spec)
{
	if (spec)
		assert_int_equal(testhooks_inject_errors(f->ctx, spec), 0);
}

struct probe_env probe_fx_env(struct probe_fx *f)
{
	return (struct probe_env){
		.ctx = f->ctx,
		.root = f->ctx->root,
		.env = f->ctx->env,
		.log = &f->ctx->log,
	};
}

const struct snap_node *probe_fx_run(struct probe_fx *f,
				     int (*probe)(struct probe_env *pe, struct gpuenv_snapshot *s))
{
	struct probe_env pe = probe_fx_env(f);

	assert_int_equal(probe(&pe, f->s), 0);
	probe_env_done(&pe);
	return snapshot_root_const(f->s);
}
