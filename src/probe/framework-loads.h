/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which GPU runtime libraries a framework's own library (torch/lib/libtorch_cuda.so, the JAX
 * CUDA plugin, TensorFlow's libtensorflow_cc) gets from the dynamic loader: its DT_NEEDED
 * entries (System V gABI "Dynamic Section", read with formats/elf-dynamic.h), each resolved
 * as requested by that library (loader.h: its DT_RPATH or DT_RUNPATH with $ORIGIN, then
 * LD_LIBRARY_PATH, /etc/ld.so.cache, the system directories), and libcuda.so.1, which the
 * CUDA runtime dlopen()s from its own context. Written into the package's snapshot object:
 * load_search, loads.<soname>, needed_missing[] (docs/snapshot-schema.md).
 */
#pragma once

#include "probe/loader.h"
#include "snapshot/snapshot.h"

/* Resolves the GPU-runtime DT_NEEDED entries of library (a path inside the root, as the
 * framework opens it) into pkg. wheel_sites: the environment's site-packages directories
 * (a winner under <site>/nvidia/ came from a pip wheel), NULL-terminated; own_dir: the
 * framework's own library directory (bundled copies count as the wheel's too). A library
 * that cannot be read is recorded; -ENOMEM only. */
int probe_framework_loads(struct loader *l, struct snap_node *pkg, const char *library,
			  char **wheel_sites, const char *own_dir);

/* Is this DT_NEEDED name a GPU runtime library (libcudart.so.12, libcudnn_ops_infer.so.8,
 * libcudart-d0da41ae.so.11.0, libamdhip64.so.6 …)? */
bool probe_is_gpu_runtime_soname(const char *name);

/* One extension module of a framework that imports it only when it is used (CuPy's
 * cupy_backends/cuda/libs/cusolver.*.so for cupy.linalg): each GPU DT_NEEDED entry of library
 * that the loader, searching as requested by that module, finds nowhere is appended to
 * missing[] as {module, library, name}; a library that cannot be read is appended with its
 * name's state. -ENOMEM only. */
int probe_module_needed_missing(struct loader *l, struct snap_node *missing, const char *module,
				const char *library);
