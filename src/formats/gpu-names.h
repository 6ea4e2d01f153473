/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names of the GPU stack that both the probes and the pasted-text readers look for, kept in one
 * place so that what `gpuenv report` records and what `gpuenv explain` reads from a paste
 * cannot drift apart.
 */
#pragma once

#include <stdbool.h>

/* The environment variables the "environment" section records, set or absent
 * (src/probe/probe-environment.c); NULL-terminated. */
extern const char *const gpu_env_vars[];
/* TensorFlow's GPU keys (TF_FORCE_GPU_ALLOW_GROWTH, TF_GPU_ALLOCATOR, TF_CUDA_PATHS …): TF_*
 * names that mention GPU or CUDA, not every TF_ (Terraform uses TF_ too). */
bool gpu_env_var_tf(const char *name);
/* The conda packages that decide the GPU stack, kept in framework.python_envs[].conda_packages
 * (conda-meta/<name>-<version>-<build>.json; a pasted `conda list`). */
bool conda_gpu_package(const char *name);
