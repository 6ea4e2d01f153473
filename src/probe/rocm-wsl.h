/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ROCm's bridge to WSL2's /dev/dxg (rocm-wsl.c): runtime.rocm_wsl, written only where
 * /dev/dxg is a character device.
 */
#pragma once

#include "probe.h"

/* rt: the snapshot's runtime object. 0 or -ENOMEM. */
int rocm_wsl_probe(struct probe_env *pe, struct snap_node *rt);
