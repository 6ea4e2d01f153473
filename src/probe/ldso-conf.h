/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The directories ldconfig(8) puts into /etc/ld.so.cache: those /etc/ld.so.conf and
 * /etc/ld.so.conf.d/NAME.conf list, read through the root, each with the file that lists it
 * (the file to edit when a directory should not be there: NVIDIA's cuda-compat packages and
 * CUDA images add /etc/ld.so.conf.d/000_cuda_compat.conf, AMD's guide rocm.conf).
 */
#pragma once

#include "core/root.h"

/* Called for each directory listed, in file order (ld.so.conf, then the .d files by name),
 * dir with its trailing slashes removed; for a file that exists but cannot be read, once
 * with dir NULL and err the -errno. A negative return stops the walk and is returned; a
 * positive one stops it too (found), and the walk returns 0. */
typedef int (*ldso_conf_fn)(const char *file, const char *dir, int err, void *userdata);

int ldso_conf_foreach(struct root *root, ldso_conf_fn fn, void *userdata);
