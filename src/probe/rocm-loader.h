/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which ROCm release the dynamic loader gives (rocm-loader.c): runtime.rocm_loader, and
 * loader_gives / loader_via / loader_soname on that release in runtime.rocm[].
 */
#pragma once

#include "probe.h"

/* rt: the snapshot's runtime object; rocm: runtime.rocm[], every release already written.
 * 0 or -ENOMEM. */
int rocm_loader_pick(struct probe_env *pe, struct snap_node *rt, struct snap_node *rocm);
