/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cuDNN a framework's process gets from the dynamic loader, with the version of every
 * copy on its search path: packages.<framework>.cudnn (docs/snapshot-schema.md). How each
 * framework asks for it: TensorFlow dlopen()s libcudnn.so.<major of its build's cuDNN> from
 * its stream executor (tensorflow/tsl/platform/default/dso_loader.cc, GetCudnnDsoHandle());
 * torch links it (a DT_NEEDED libcudnn.so.<major> of libtorch_cuda.so). Either way ld.so's
 * search as requested by the framework's library (loader.h) decides which file it is.
 */
#pragma once

#include "probe/loader.h"
#include "probe/probe.h"
#include "snapshot/snapshot.h"

/* Resolves libcudnn.so.<major> as requested by requester (a path inside the root, or NULL
 * when the framework's library is not known: LD_LIBRARY_PATH, the cache and the system
 * directories only) and writes pkg.cudnn: soname, request (how the framework asks:
 * "DT_NEEDED" or "dlopen"), the loader's answer (probe_write_loader_result()), and for the
 * winner and each shadowed copy cudnn_version with cudnn_version_source. -ENOMEM only. */
int probe_framework_cudnn(struct probe_env *pe, struct loader *l, struct snap_node *pkg,
			  unsigned major, const char *requester, const char *request);
