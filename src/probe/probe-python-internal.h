/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the files of the python probe (not for other probes):
 * probe-python-envs.c        finding the environments (discovery);
 * probe-python-kernels.c     the GPU targets in a framework's own library, and what it loads;
 * probe-python-frameworks.c  torch, TensorFlow, jax, CuPy and the nvidia-* wheels in an
 *                            environment's site-packages;
 * probe-python.c             one environment (pyvenv.cfg, conda-meta, site-packages) and the
 *                            probe's entry point.
 * The formats and their sources: see probe-python.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "probe.h"
#include "shared/strmap.h"

/* Environments probed at most: a shared machine's ~/.conda/envs or a CI cache can hold
 * thousands; past this the listing is recorded as truncated (framework.python_envs_truncated)
 * and the rules that need a complete listing say so instead of concluding "absent". */
#define MAX_ENVS 10000u
/* A site-packages holds two entries per distribution (the package and its .dist-info): a
 * 20,000-package environment must be read whole. Past this the directory is recorded as
 * unreadable, never as empty. */
#define MAX_DIR_ENTRIES 100000u /* site-packages, conda-meta */
#define MAX_SMALL_DIR	4096u	/* lib/, envs/, torch/lib */
#define MAX_TARGETS	256
#define MAX_WHEEL_LIBS	64
#define CAP_METADATA	((size_t)4 << 20)
#define CAP_RECORD	((size_t)16 << 20)
#define CAP_CONDA_JSON	((size_t)64 << 20)
#define CAP_LIBRARY	((size_t)4 << 30)

struct pyenv {
	char *prefix, *resolved;
	const char *kind;
	int resolve_err;
	char **via, **interpreters, **extra_sites;
};

/* Directories that could not be read while finding the environments or reading their
 * site-packages: what they hold is unknown, never absent. Each is one
 * framework.python_envs_unreadable[] entry (the framework rules skip naming it); the first
 * is framework.python_envs_complete's source. */
#define MAX_UNREADABLE 256u
struct py_unread {
	struct snap_node *fw;  /* framework */
	struct snap_node *arr; /* framework.python_envs_unreadable: made with its first entry */
	int first_err;
	char *first_src;
	size_t n;
};
/* Records dir as not read (err: a negative errno; -E2BIG: more than MAX_DIR_ENTRIES). */
void py_note_unreadable(struct py_unread *u, const char *dir, int err);

struct envs {
	struct pyenv *e;
	size_t n, cap;
	struct strmap by_resolved; /* resolved prefix → index in e */
	bool truncated;
	struct py_unread *unread;
};

/* A listed site-packages directory. */
struct site {
	char *dir;
	char **names;
};

struct py_ctx {
	struct probe_env *pe;
	struct py_unread *unread; /* what could not be read (framework.python_envs_complete) */
	struct loader *loader;	  /* the run's ld.so emulation (probe_loader()), borrowed */
	char **sites;		  /* the site-packages directories of the env being probed */
};

/* probe-python-envs.c */
bool py_python_dir_name(const char *n, bool *versioned);
bool py_endswith_dist_info(const char *n);
int py_find_envs(struct probe_env *pe, struct envs *es);

/* probe-python-kernels.c */
int py_record_kernels(struct probe_env *pe, struct snap_node *obj, const char *dir,
		      const char *const *cands, size_t n_cands);
int py_record_loads(struct py_ctx *c, struct snap_node *obj);
/* packages.<fw>.cudnn for a framework that dlopen()s libcudnn.so.<major> (TensorFlow), as
 * requested by its kernel_library when one was read; nothing when cudnn is already there
 * (the library links it). -ENOMEM only. */
int py_record_cudnn_dlopen(struct py_ctx *c, struct snap_node *obj, unsigned major);

/* probe-python-frameworks.c */
/* packages.{torch,tensorflow,jax,cupy} from the framework table. */
int py_probe_frameworks(struct py_ctx *c, struct snap_node *pkgs, const struct site *sites,
			size_t ns);
int probe_nvidia_wheels(struct py_ctx *c, struct snap_node *env, const struct site *sites,
			size_t ns);

/* probe-python-dlopen.c */
/* dlopen.<name> and not_found[] of each framework of the environment (after the frameworks
 * and the nvidia-* wheels were read). */
int py_probe_dlopen(struct py_ctx *c, struct snap_node *env);
