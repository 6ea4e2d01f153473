/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the two files of the CUDA toolkit probe (not for other probes):
 * probe-cuda-toolkit.c          finding the toolkits and listing what each holds;
 * probe-cuda-toolkit-version.c  the toolkit's version and its components' versions.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "probe.h"

#define MAX_DIR_ENTRIES 16384u
#define MAX_LIB_DIRS	16
#define MAX_INC_DIRS	16

enum tk_kind {
	TK_RUNFILE_DEB,
	TK_PIP_ASSEMBLED,
	TK_CONDA,
	TK_PIP_WHEEL_DIR,
	TK_DISTRO,
};

/* What one toolkit prefix holds: each directory listed once. */
struct tk_files {
	enum tk_kind kind;
	char *pkg_dir; /* dist-info/, site-packages/ or conda-meta/ */
	char **pkg_names;
	int pkg_err; /* the -errno of listing pkg_dir, or 0 */
	char *lib_dirs[MAX_LIB_DIRS];
	char **lib_names[MAX_LIB_DIRS];
	int lib_err[MAX_LIB_DIRS]; /* the -errno of listing lib_dirs[i], or 0 */
	size_t n_lib;
	char *inc_dirs[MAX_INC_DIRS];
	size_t n_inc;
	struct {
		char *path;
		int err;
	} unseen[MAX_LIB_DIRS + MAX_INC_DIRS]; /* lib or include directories not looked at */
	size_t n_unseen;
	json_t *version_json; /* parsed <prefix>/version.json, or NULL */
	char *version_json_path;
};

/* version, version_source, release and nvcc_version of the toolkit at prefix. */
void tk_read_version(struct probe_env *pe, struct tk_files *f, struct snap_node *tk,
		     const char *prefix, const char *nvcc);
/* components{} (version, libraries, headers of each) and the legacy cudnn_version,
 * nccl_version. */
void tk_read_components(struct probe_env *pe, const struct tk_files *f, struct snap_node *tk,
			const char *prefix);

/* cuDNN's version from the headers in inc_dir: cudnn_version.h (cuDNN 8 on), else cudnn.h
 * (cuDNN 7 and older define CUDNN_MAJOR/MINOR/PATCHLEVEL there). 0 with ver ("7.4.1") and
 * *ret_path the header that gave it; else -errno (-EBADMSG: no version macros) with *ret_path
 * the header the answer is about (NULL only on -ENOMEM). */
int probe_cudnn_header_version(struct probe_env *pe, const char *inc_dir, char *ver, size_t len,
			       char **ret_path);
