/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a CUDA jax's XLA finds libdevice and ptxas (framework-xla.c says where it looks and
 * why): written into packages.jax.xla (docs/snapshot-schema.md).
 */
#pragma once

#include "probe/probe.h"
#include "snapshot/snapshot.h"

/* jax: the env's packages.jax object; sites: the env's site-packages directories;
 * jaxlib_local: a jaxlib <= 0.4.x wheel's local version ("cuda112.cudnn810") or NULL.
 * Read errors are recorded; -ENOMEM only. */
int probe_xla_toolchain(struct probe_env *pe, struct snap_node *jax, char *const *sites,
			const char *jaxlib_local);
