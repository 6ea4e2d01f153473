/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a CUDA jax's or TensorFlow's XLA finds libdevice and ptxas (framework-xla.c says where
 * each looks and why): written into packages.jax.xla, packages.tensorflow.xla
 * (docs/snapshot-schema.md).
 */
#pragma once

#include "probe/probe.h"
#include "snapshot/snapshot.h"

/* jax: the env's packages.jax object; sites: the env's site-packages directories;
 * jaxlib_local: a jaxlib <= 0.4.x wheel's local version ("cuda112.cudnn810") or NULL;
 * conda_version: a conda jaxlib's version (its package record), or NULL. Read errors are
 * recorded; -ENOMEM only. */
int probe_xla_toolchain(struct probe_env *pe, struct snap_node *jax, char *const *sites,
			const char *jaxlib_local, const char *conda_version);
/* tf: the env's packages.tensorflow object; site: the site-packages holding tensorflow/;
 * build_cuda: build_info's cuda_version ("11.2") or NULL. Read errors are recorded; -ENOMEM
 * only. */
int probe_xla_toolchain_tf(struct probe_env *pe, struct snap_node *tf, const char *site,
			   const char *build_cuda);
