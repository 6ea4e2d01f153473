/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test harness: the fixture of the probe unit tests, a temp tree (tmptree.h) used as the
 * sysroot, the gpuenv context over it and a snapshot the probes write into.
 */
#pragma once

#include "core/ctx.h"
#include "probe/probe.h"
#include "snapshot/snapshot.h"
#include "tmptree.h"

struct probe_fx {
	char dir[TMPTREE_DIR_MAX]; /* the tree, /tmp/gpuenv-<tag>-XXXXXX */
	struct gpuenv_ctx *ctx;	   /* NULL until probe_fx_open() */
	struct gpuenv_snapshot *s;
};

/* A fixture with an empty tree (the test fails if it cannot be made). */
struct probe_fx *probe_fx_new(const char *tag);
/* Frees the context and snapshot and removes the tree; 0 or -errno from the removal. */
int probe_fx_free(struct probe_fx *f);
/* f->ctx from opts and an empty f->s. */
void probe_fx_open(struct probe_fx *f, const struct gpuenv_ctx_opts *opts);
/* testhooks_inject_errors() on the open context ("PATH=ERRNAME,…"); NULL: nothing. */
void probe_fx_inject(struct probe_fx *f, const char *spec);
/* The probe_env over f->ctx, as probe_run_all() passes it. */
struct probe_env probe_fx_env(struct probe_fx *f);
/* Runs one probe into f->s (the test fails unless it returns 0); the snapshot's root. */
const struct snap_node *probe_fx_run(struct probe_fx *f,
				     int (*probe)(struct probe_env *pe, struct gpuenv_snapshot *s));
