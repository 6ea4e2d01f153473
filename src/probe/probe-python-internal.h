/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the files of the python probe (not for other probes):
 * probe-python-envs.c        finding the environments (discovery, shared: probe.h);
 * probe-python-homes.c       the tools' places in every home and /opt;
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

/* A dist-info/egg-info entry of a site with its normalised name (PEP 503). */
struct site_dist {
	const char *entry;
	char norm[128];
};

/* A listed site-packages directory. */
struct site {
	char *dir;
	const char *const *names; /* sorted, borrowed from the root (root_list_dir_borrow()) */
	size_t n_names;
	/* Its dist-info/egg-info entries, in listing order (py_site_index_dists()): split once,
	 * not once per framework looked for. */
	struct site_dist *dists;
	size_t n_dists;
};
/* Fills s->dists from s->names: 0 or -ENOMEM. */
int py_site_index_dists(struct site *s);
/* Does the site list name? (a binary search: its names are sorted) */
bool py_site_has(const struct site *s, const char *name);

struct py_scan; /* probe-python-kernels.c */

struct py_ctx {
	struct probe_env *pe;
	struct py_unread *unread;    /* what could not be read (framework.python_envs_complete) */
	struct loader *loader;	     /* the run's ld.so emulation (probe_loader()), borrowed */
	char **sites;		     /* the site-packages directories of the env being probed */
	const struct snap_node *env; /* that env's node (its conda_packages), borrowed */
	/* The libraries scanned for GPU code in this env (py_record_library_targets()). */
	struct strmap scanned; /* path → index into scans */
	struct py_scan *scans;
	size_t n_scans;
};

/* probe-python-envs.c: the discovery (probe_python_envs()) and its building blocks */
/* A home directory: its path and how the via strings name it: "~" for $HOME, "/root", and
 * "/home/" followed by a star for the users' homes. */
struct home {
	char *path;
	const char *label;
};

int py_add_env(struct probe_env *pe, struct probe_pyenvs *es, const char *prefix, const char *kind,
	       const char *via, const char *interpreter, const char *site);
/* probe_path_test() of a path built from fmt, for the discovery: one that could not be looked
 * at in a directory that could is noted (probe_pyenvs_note_unreadable(): the environments are
 * then "could not tell") and reads 0. 1, 0 or -ENOMEM. */
int py_pathf_test(struct probe_env *pe, struct probe_pyenvs *es, mode_t type, const char *fmt, ...)
	_printf_(4, 5);
/* Whether prefix is (or may be: its conda-meta/ cannot be looked at) a conda prefix. */
bool py_maybe_conda(struct probe_env *pe, const char *prefix);
/* *ret_err (when not NULL): the -errno of a directory that is there but could not be looked
 * at or listed, else 0. */
int py_list_container(struct probe_env *pe, struct probe_pyenvs *es, const char *dir, bool once,
		      char ***ret, int *ret_err);
int py_add_conda_family(struct probe_env *pe, struct probe_pyenvs *es, const char *prefix,
			const char *via, bool once);
/* probe-python-homes.c */
int py_add_home(struct probe_env *pe, struct probe_pyenvs *es, const struct home *h);
/* note_unreadable: a dir that is there but cannot be listed goes to python_envs_unreadable[]. */
int py_add_venvs_in(struct probe_env *pe, struct probe_pyenvs *es, const char *dir,
		    const char *kind, const char *via, bool note_unreadable);
int py_add_app_envs(struct probe_env *pe, struct probe_pyenvs *es, const char *parent,
		    const char *label);

bool py_python_dir_name(const char *n, bool *versioned);
bool py_endswith_dist_info(const char *n);

/* probe-python-kernels.c */
int py_record_kernels(struct probe_env *pe, struct snap_node *obj, const char *dir,
		      const char *const *cands, size_t n_cands);
int py_record_loads(struct py_ctx *c, struct snap_node *obj);
/* arch_targets[] of the library at path into obj as py_record_kernels() writes them, each
 * path scanned once per environment. -ENOMEM only. */
int py_record_library_targets(struct py_ctx *c, struct snap_node *obj, const char *path);
/* Frees the scans of the environment just probed. */
void py_scans_done(struct py_ctx *c);
/* packages.<fw>.cudnn for a framework that dlopen()s libcudnn.so.<major> (TensorFlow), as
 * requested by its kernel_library when one was read; nothing when cudnn is already there
 * (the library links it). -ENOMEM only. */
int py_record_cudnn_dlopen(struct py_ctx *c, struct snap_node *obj, unsigned major);

/* probe-python-frameworks.c */
/* packages.{torch,tensorflow,jax,cupy} from the framework table. */
int py_probe_frameworks(struct py_ctx *c, struct snap_node *pkgs, const struct site *sites,
			size_t ns);

/* framework-numba.c */
/* packages.numba.nvvm: the place numba's CUDA target decides on for libNVVM and the file it
 * opens there or through the loader. Read errors are recorded; -ENOMEM only. */
int py_probe_numba_nvvm(struct py_ctx *c, struct snap_node *obj);

/* probe-python-wheels.c: the dist-info of a site-packages */
struct dist_metadata;
/* Does a normalised distribution name (PEP 503) match names[] (NULL-terminated; "x*" matches
 * every name starting with "x")? */
bool py_dist_matches(const char *const *names, const char *norm);
/* The first dist-info/egg-info (in site order) whose normalised name matches names[]. */
bool py_find_dist(const struct site *sites, size_t ns, const char *const *names, size_t *ret_site,
		  const char **ret_entry);
/* The first site holding a directory `pkg`. *ret_err: 0, or why the entry the site lists
 * could not be looked at (EACCES): the framework is there, what it is is unknown. */
bool py_find_pkg_dir(struct probe_env *pe, const struct site *sites, size_t ns, const char *pkg,
		     size_t *ret, int *ret_err);
/* <site>/<distdir>/METADATA (PKG-INFO for egg-info) → `key` = Version; the parsed header
 * block for the caller, or NULL with the failure recorded. */
struct dist_metadata *py_read_metadata(struct probe_env *pe, struct snap_node *obj, const char *key,
				       const char *site, const char *distdir);
/* The local version label: "2.4.0+cu124" → "cu124". */
void py_record_local_version(struct snap_node *obj, const char *version, const char *src);
/* Requires-Dist pins on NVIDIA's CUDA wheels: what the framework expects pip to provide. */
void py_record_requires_nvidia(struct snap_node *obj, const struct dist_metadata *m,
			       const char *src);
/* Debian's python3-<module> owns <module> in /usr/lib/python3/dist-packages. */
void py_record_distro_package(struct py_ctx *c, struct snap_node *obj, const char *site,
			      const char *module);
/* Every nvidia-* distribution: name, version and where its libraries are (from RECORD). */
int probe_nvidia_wheels(struct py_ctx *c, struct snap_node *env, const struct site *sites,
			size_t ns);

/* framework-coverage.c */
/* gpu_libraries[] of each CUDA framework of the environment: the other GPU libraries its
 * process loads, with their targets (after the frameworks and the nvidia-* wheels were read).
 * -ENOMEM only. */
int py_probe_coverage(struct py_ctx *c, struct snap_node *env);

/* framework-extensions.c */
/* torch_extensions[] of the environment: each compiled module of a site-packages that links
 * torch's libraries, and the c10/at/torch symbols it needs that the environment's torch does
 * not define. Nothing without packages.torch.site_packages. -ENOMEM only. */
int py_probe_torch_extensions(struct py_ctx *c, struct snap_node *env, const struct site *sites,
			      size_t ns);

/* probe-python-dlopen.c */
/* dlopen.<name> and not_found[] of each framework of the environment (after the frameworks
 * and the nvidia-* wheels were read). */
int py_probe_dlopen(struct py_ctx *c, struct snap_node *env);
