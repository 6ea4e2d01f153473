// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one list of data sources and its runner. Order matters: a probe that reads what
 * another wrote (never its internals) comes after it. The vendor probes' results are written
 * after the last row (their children run meanwhile): no probe reads them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/env.h"
#include "formats/toolkit-parse.h"
#include "loader.h"
#include "probe-intel.h"
#include "probe-vendor.h"
#include "probe.h"
#include "shared/layer-name.h"
#include "shared/path-util.h"
#include "shared/step-hook.h"
#include "shared/strv.h"

static const struct probe probe_table[] = {
	{ .name = "host", .layer = GPUENV_LAYER_HARDWARE, .run = probe_host, .sample = true },
	{ .name = "pci", .layer = GPUENV_LAYER_HARDWARE, .run = probe_pci },
	{ .name = "driver", .layer = GPUENV_LAYER_DRIVER, .run = probe_nvidia_driver },
	{ .name = "libraries", .layer = GPUENV_LAYER_RUNTIME, .run = probe_libraries },
	{ .name = "kernel-log", .layer = GPUENV_LAYER_DRIVER, .run = probe_kernel_log },
	{ .name = "package-log", .layer = GPUENV_LAYER_DRIVER, .run = probe_package_log },
	{ .name = "nvml", .layer = GPUENV_LAYER_DRIVER, .run = probe_nvml, .sample = true },
	{ .name = "cuda-driver", .layer = GPUENV_LAYER_DRIVER, .run = probe_cuda_driver },
	{ .name = "opencl", .layer = GPUENV_LAYER_RUNTIME, .run = probe_opencl },
	{ .name = "amdsmi", .layer = GPUENV_LAYER_DRIVER, .run = probe_amdsmi, .sample = true },
	{ .name = "level-zero",
	  .layer = GPUENV_LAYER_DRIVER,
	  .run = probe_ze_session,
	  .sample = true },
	{ .name = "process", .layer = GPUENV_LAYER_RUNTIME, .run = probe_process },
	{ .name = "cuda-toolkit", .layer = GPUENV_LAYER_RUNTIME, .run = probe_cuda_toolkit },
	{ .name = "rocm", .layer = GPUENV_LAYER_RUNTIME, .run = probe_rocm },
	{ .name = "environment", .layer = GPUENV_LAYER_RUNTIME, .run = probe_environment },
	{ .name = "slurm", .layer = GPUENV_LAYER_RUNTIME, .run = probe_slurm },
	{ .name = "python", .layer = GPUENV_LAYER_FRAMEWORK, .run = probe_python },
	{ .name = "ollama", .layer = GPUENV_LAYER_FRAMEWORK, .run = probe_ollama },
	/* after python: a torch XPU build or ipex asks for the Level Zero facts too */
	{ .name = "intel", .layer = GPUENV_LAYER_DRIVER, .run = probe_intel },
	{ .name = "container", .layer = GPUENV_LAYER_CONTAINER, .run = probe_container },
	{ .name = "container-host", .layer = GPUENV_LAYER_CONTAINER, .run = probe_container_host },
};

double probe_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int probe_run_all(struct gpuenv_ctx *ctx, struct gpuenv_snapshot *s)
{
	struct probe_env pe = {
		.ctx = ctx,
		.root = ctx->root,
		.env = ctx->env,
		.log = &ctx->log,
		.path_listings = { .root = ctx->root },
	};
	struct snap_node *root = snapshot_root(s);
	struct snap_node *collection = snap_object(root, "collection");
	struct snap_node *timings = snap_object(collection, "probe_us");
	double start = probe_now_ms();
	int r = 0;

	/* Probes list the same directories (the loader's, PATH's, the injection directories):
	 * one read of each per collection (root_cache_listings()). */
	root_cache_listings(pe.root, true);
	/* Every layer exists in the snapshot even when no probe filled it. */
	for (int l = GPUENV_LAYER_HARDWARE; l <= GPUENV_LAYER_CONTAINER; l++)
		snap_object(root, layer_name((enum gpuenv_layer)l));
	/* A vendor probe only starts its child (probe_vendor_pend()): the children run while
	 * the rows after theirs read files, and are collected after the last row. */
	for (size_t i = 0; i < ARRAY_SIZE(probe_table) && r != -ENOMEM; i++) {
		const struct probe *p = &probe_table[i];
		size_t pending = pe.n_pending;

		if ((ctx->flags & GPUENV_CTX_GPU_SAMPLE) && !p->sample)
			continue;
		log_debug(pe.log, "probe %s", p->name);
		pe.probe = p->name;
		pe.probe_t0_ms = probe_now_ms();
		r = p->run(&pe, s);
		if (r < 0 && r != -ENOMEM)
			log_warn(pe.log, "probe %s failed: %s", p->name, errno_name(r));
		if (pe.n_pending == pending)
			snap_set_int(timings, p->name,
				     (int64_t)((probe_now_ms() - pe.probe_t0_ms) * 1000.0),
				     "microseconds");
		else
			log_debug(pe.log, "probe %s: vendor child started", p->name);
		probe_vendor_pump(&pe);
		/* The program's hook between one data source and the next (shared/step-hook.h):
		 * the exporter's diagnosis drops the pages the probe before ran. */
		step_hook_run();
	}
	/* Collected even after an OOM: what the children started must not outlive the call. */
	if (pe.n_pending > 0)
		log_debug(pe.log, "collecting %zu vendor child(ren)", pe.n_pending);
	if (probe_vendor_collect(&pe, timings) == -ENOMEM)
		r = -ENOMEM;
	snap_set_int(collection, "total_us", (int64_t)((probe_now_ms() - start) * 1000.0),
		     "microseconds");
	root_cache_listings(pe.root, false);
	probe_env_done(&pe);
	return r == -ENOMEM ? r : snapshot_error(s);
}

static int dpkg_status_map(struct probe_env *pe)
{
	/* Mapped, not read: the status file is a megabyte or more, and copying it out of the
	 * page cache (into a read buffer, then into the text) was a third of a live doctor's
	 * CPU time (bench/bench-doctor.sh). dpkg replaces the file by rename(2), never rewrites
	 * it in place, so the mapping cannot shrink under us. */
	if (!pe->dpkg_status.read) {
		struct root_map *m = &pe->dpkg_status.map;

		pe->dpkg_status.read = true;
		pe->dpkg_status.err = root_map(pe->root, PROBE_DPKG_STATUS, ROOT_CAP_BIG, m);
		/* a text file with a NUL in it is malformed, as root_read_text() says */
		if (pe->dpkg_status.err >= 0 && memchr(m->data, '\0', m->len)) {
			root_unmap(m);
			pe->dpkg_status.err = -EBADMSG;
		}
		/* indexed once for every probe's question (a failure leaves the text search) */
		if (pe->dpkg_status.err >= 0)
			pe->dpkg_status.indexed =
				dpkg_status_index_build((const char *)m->data, m->len,
							&pe->dpkg_status.idx) == 0;
	}
	return pe->dpkg_status.err < 0 ? pe->dpkg_status.err : 0;
}

int probe_dpkg_version(struct probe_env *pe, const char *package, char *buf, size_t len)
{
	int r = dpkg_status_map(pe);

	if (r < 0)
		return r;
	if (pe->dpkg_status.indexed)
		r = dpkg_status_index_version(&pe->dpkg_status.idx,
					      (const char *)pe->dpkg_status.map.data, package, buf,
					      len);
	else
		r = probe_dpkg_status_version((const char *)pe->dpkg_status.map.data,
					      pe->dpkg_status.map.len, package, buf, len);
	return r == -ENOENT ? 1 : r;
}

int probe_dpkg_required_by(struct probe_env *pe, const char *package, char *buf, size_t len)
{
	int r = dpkg_status_map(pe);

	if (r < 0)
		return r;
	return probe_dpkg_status_required_by((const char *)pe->dpkg_status.map.data,
					     pe->dpkg_status.map.len, package, buf, len);
}

int probe_loader(struct probe_env *pe, struct loader **ret)
{
	if (!pe->loader) {
		int r = loader_new(pe->root, pe->env, &pe->loader);

		if (r < 0)
			return r;
	}
	*ret = pe->loader;
	return 0;
}

void probe_note_unlisted(struct snap_node *obj, const char *key, const char *dir, int err,
			 size_t max)
{
	struct snap_node *o = snap_append_object(snap_array(obj, key));

	if (err == -E2BIG) {
		char why[64];

		snprintf(why, sizeof(why), "more than %zu entries", max);
		snap_set_state(o, "path", FACT_UNREADABLE, dir, why);
	} else {
		snap_set_errno(o, "path", err, dir);
	}
}

int probe_path_test(struct probe_env *pe, const char *path, mode_t type)
{
	return root_test(pe->root, path, type);
}

void probe_set_path_fact(struct probe_env *pe, struct snap_node *obj, const char *key,
			 const char *path, mode_t type)
{
	struct stat st;
	int r = root_stat(pe->root, path, &st);

	if (r == 0 && (st.st_mode & S_IFMT) == type)
		snap_set_str(obj, key, path, path);
	else if (r < 0 && r != -ENOENT && r != -ENOTDIR)
		snap_set_errno(obj, key, r, path);
	else
		snap_set_state(obj, key, FACT_ABSENT, path, NULL);
}

int probe_pathf_test(struct probe_env *pe, mode_t type, const char *fmt, ...)
{
	_cleanup_free_ char *p = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	return r < 0 ? -ENOMEM : probe_path_test(pe, p, type);
}

int probe_path_dirs(struct probe_env *pe, char ***ret)
{
	if (!pe->path_read) {
		const char *path = env_get(pe->env, "PATH");
		_cleanup_strv_free_ char **all = NULL;
		int r;

		if (path && (r = strv_split(path, ":", &all)) < 0)
			return r;
		STRV_FOREACH(d, all)
			if ((*d)[0] == '/' && (r = strv_push(&pe->path_dirs, *d)) < 0)
				return r;
		pe->path_read = true;
	}
	*ret = pe->path_dirs;
	return 0;
}

bool probe_dir_may_hold(struct probe_env *pe, const char *dir, const char *name)
{
	return dir_cache_may_hold(&pe->path_listings, dir, name);
}

int probe_which(struct probe_env *pe, const char *name, char ***ret)
{
	_cleanup_strv_free_ char **found = NULL;
	char **dirs;
	int r = probe_path_dirs(pe, &dirs);

	if (r < 0)
		return r;
	STRV_FOREACH(d, dirs) {
		_cleanup_free_ char *p = path_join(*d, name);

		if (!p)
			return -ENOMEM;
		if (!probe_dir_may_hold(pe, *d, name))
			continue;
		/* one that could not be looked at is kept: the caller's reads of it say why */
		r = probe_path_test(pe, p, S_IFREG);
		if (r == -ENOMEM)
			return r;
		if (r != 0 && (r = strv_consume(&found, TAKE_PTR(p))) < 0)
			return r;
	}
	*ret = TAKE_PTR(found);
	return 0;
}

int probe_bin_prefix(struct probe_env *pe, const char *exe, char **ret)
{
	_cleanup_free_ char *resolved = NULL, *bin = NULL;
	int r = root_resolve(pe->root, exe, &resolved);

	if (r < 0)
		return r;
	bin = path_dirname(resolved);
	*ret = bin ? path_dirname(bin) : NULL;
	return *ret ? 0 : -ENOMEM;
}

void probe_env_done(struct probe_env *pe)
{
	pe->path_dirs = strv_free(pe->path_dirs);
	pe->path_read = false;
	dir_cache_done(&pe->path_listings);
	probe_python_envs_free(pe);
	pe->loader = loader_free(pe->loader);
	root_unmap(&pe->dpkg_status.map);
	dpkg_status_index_done(&pe->dpkg_status.idx);
	pe->dpkg_status.indexed = false;
	pe->dpkg_status.read = false;
}

int probe_read_optional(struct root *r, const char *dir, const char *name, size_t max,
			struct snap_node *node, const char *key, char **ret_path, char **ret_text)
{
	_cleanup_free_ char *path = NULL;
	int err;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	err = root_read_text(r, path, max, ret_text);
	if (err == -ENOENT)
		return err;
	if (err < 0) {
		snap_set_errno(node, key, err, path);
		return err;
	}
	*ret_path = TAKE_PTR(path);
	return 0;
}

int probe_link_chain(struct root *r, const char *path, struct snap_node *arr, bool *ret_dangling)
{
	_cleanup_free_ char *cur = strdup(path);
	_cleanup_strv_free_ char **seen = NULL;

	if (ret_dangling)
		*ret_dangling = false;
	if (!cur)
		return -ENOMEM;
	for (unsigned hops = 0;; hops++) {
		_cleanup_free_ char *target = NULL, *dir = NULL;
		struct stat st;
		int err = root_lstat(r, cur, &st);

		if (err < 0) {
			if (err == -ENOENT && hops > 0 && ret_dangling)
				*ret_dangling = true;
			return err;
		}
		if (!S_ISLNK(st.st_mode))
			return 0;
		/* A link met twice is a cycle: the chain so far shows it once. */
		if (hops >= PROBE_LINK_MAX_HOPS || strv_contains(seen, cur))
			return -ELOOP;
		if (strv_push(&seen, cur) < 0)
			return -ENOMEM;
		err = root_readlink(r, cur, &target);
		if (err < 0)
			return err;
		{
			/* "LINK -> TARGET", the target as stored in the link. */
			_cleanup_free_ char *s = NULL;

			if (asprintf(&s, "%s -> %s", cur, target) < 0)
				return -ENOMEM;
			snap_append_str(arr, s, cur);
		}
		if (target[0] == '/') {
			free(cur);
			cur = TAKE_PTR(target);
		} else {
			dir = path_dirname(cur);
			free(cur);
			cur = NULL;
			cur = dir ? path_join(dir, target) : NULL;
			if (!cur)
				return -ENOMEM;
		}
	}
}

int probe_prefix_seen(struct probe_prefix *p, const char *resolved, const char *via)
{
	if (!streq(p->resolved, resolved))
		return 0;
	if (!strv_contains(p->via, via) && strv_push(&p->via, via) < 0)
		return -ENOMEM;
	return 1;
}

int probe_prefix_set(struct probe_prefix *p, const char *path, char *resolved, const char *via)
{
	*p = (struct probe_prefix){ .path = strdup(path), .resolved = resolved };
	if (!p->path || strv_push(&p->via, via) < 0)
		return -ENOMEM;
	return 0;
}

void probe_prefix_done(struct probe_prefix *p)
{
	free(p->path);
	free(p->resolved);
	strv_free(p->via);
	*p = (struct probe_prefix){ 0 };
}

void probe_prefix_record(struct snap_node *o, const struct probe_prefix *p)
{
	struct snap_node *vias = snap_array(o, "found_via");

	snap_set_str(o, "path", p->path, p->path);
	snap_set_str(o, "resolved_path", p->resolved, p->path);
	STRV_FOREACH(v, p->via)
		snap_append_str(vias, *v, NULL);
}

void probe_reject(struct root *r, struct snap_node *arr, const char *origin, const char *via,
		  const char *prefix, int err, const char *why)
{
	struct snap_node *o = snap_append_object(arr);

	snap_set_str(o, "path", origin, origin);
	snap_append_str(snap_array(o, "found_via"), via, NULL);
	if (err)
		snap_set_errno(o, "toolkit", err, prefix);
	else
		snap_set_state(o, "toolkit", FACT_ABSENT, prefix, why);
	/* A link that goes nowhere (or in circles): the chain as read says where. */
	probe_link_chain(r, origin, snap_array(o, "link_chain"), NULL);
}

int probe_read_tail(struct probe_env *pe, const char *path, size_t cap, char **ret, size_t *ret_len,
		    bool *ret_truncated)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *buf = NULL;
	uint64_t off;
	size_t got;
	ssize_t n;
	int err = root_file_open(pe->root, path, SIZE_MAX, &f);

	if (err == -EISDIR || err == -EINVAL)
		return -EBADFD;
	if (err < 0)
		return err;
	off = f.size > cap ? f.size - cap : 0;
	buf = malloc((size_t)(f.size - off) + 1);
	if (!buf)
		return -ENOMEM;
	n = root_file_pread(&f, buf, (size_t)(f.size - off), off); /* short: rotated meanwhile */
	if (n < 0)
		return (int)n;
	got = (size_t)n;
	buf[got] = '\0';
	if (off > 0) {
		char *nl = memchr(buf, '\n', got);
		size_t skip = nl ? (size_t)(nl - buf) + 1 : got;

		memmove(buf, buf + skip, got - skip + 1);
		got -= skip;
	}
	*ret = TAKE_PTR(buf);
	*ret_len = got;
	*ret_truncated = off > 0;
	return 0;
}
