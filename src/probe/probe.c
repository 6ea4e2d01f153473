// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The one list of data sources and its runner. Order matters: a probe that reads what
 * another wrote (never its internals) comes after it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loader.h"
#include "probe.h"
#include "toolkit.h"

static const struct probe probe_table[] = {
	{ .name = "host", .layer = GPUENV_LAYER_HARDWARE, .run = probe_host },
	{ .name = "pci", .layer = GPUENV_LAYER_HARDWARE, .run = probe_pci },
	{ .name = "driver", .layer = GPUENV_LAYER_DRIVER, .run = probe_nvidia_driver },
	{ .name = "libraries", .layer = GPUENV_LAYER_RUNTIME, .run = probe_libraries },
	{ .name = "kernel-log", .layer = GPUENV_LAYER_DRIVER, .run = probe_kernel_log },
	{ .name = "nvml", .layer = GPUENV_LAYER_DRIVER, .run = probe_nvml },
	{ .name = "cuda-driver", .layer = GPUENV_LAYER_DRIVER, .run = probe_cuda_driver },
	{ .name = "opencl", .layer = GPUENV_LAYER_RUNTIME, .run = probe_opencl },
	{ .name = "process", .layer = GPUENV_LAYER_RUNTIME, .run = probe_process },
	{ .name = "cuda-toolkit", .layer = GPUENV_LAYER_RUNTIME, .run = probe_cuda_toolkit },
	{ .name = "rocm", .layer = GPUENV_LAYER_RUNTIME, .run = probe_rocm },
	{ .name = "environment", .layer = GPUENV_LAYER_RUNTIME, .run = probe_environment },
	{ .name = "python", .layer = GPUENV_LAYER_FRAMEWORK, .run = probe_python },
	{ .name = "container", .layer = GPUENV_LAYER_CONTAINER, .run = probe_container },
	{ .name = "container-host", .layer = GPUENV_LAYER_CONTAINER, .run = probe_container_host },
};

const char *layer_to_string(enum gpuenv_layer l)
{
	static const char *const names[] = {
		[GPUENV_LAYER_HARDWARE] = "hardware",	[GPUENV_LAYER_DRIVER] = "driver",
		[GPUENV_LAYER_RUNTIME] = "runtime",	[GPUENV_LAYER_FRAMEWORK] = "framework",
		[GPUENV_LAYER_CONTAINER] = "container",
	};

	return (unsigned)l < ARRAY_SIZE(names) ? names[l] : "unknown";
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int probe_run_all(struct gpuenv_ctx *ctx, struct snapshot *s)
{
	struct probe_env pe = {
		.ctx = ctx,
		.root = ctx->root,
		.env = ctx->env,
		.log = &ctx->log,
	};
	struct snap_node *root = snapshot_root(s);
	struct snap_node *timings = snap_object(snap_object(root, "collection"), "probe_us");

	/* Every layer exists in the snapshot even when no probe filled it. */
	for (int l = GPUENV_LAYER_HARDWARE; l <= GPUENV_LAYER_CONTAINER; l++)
		snap_object(root, layer_to_string((enum gpuenv_layer)l));
	for (size_t i = 0; i < ARRAY_SIZE(probe_table); i++) {
		const struct probe *p = &probe_table[i];
		double t0 = now_ms();
		int r;

		log_debug(pe.log, "probe %s", p->name);
		r = p->run(&pe, s);
		if (r == -ENOMEM) {
			probe_env_done(&pe);
			return r;
		}
		if (r < 0)
			log_warn(pe.log, "probe %s failed: %s", p->name, errno_name(r));
		snap_set_int(timings, p->name, (int64_t)((now_ms() - t0) * 1000.0), "microseconds");
	}
	probe_env_done(&pe);
	return snapshot_error(s);
}

int probe_dpkg_version(struct probe_env *pe, const char *package, char *buf, size_t len)
{
	int r;

	if (!pe->dpkg_status.read) {
		pe->dpkg_status.read = true;
		pe->dpkg_status.err = root_read_text(pe->root, PROBE_DPKG_STATUS, ROOT_CAP_BIG,
						     &pe->dpkg_status.text);
	}
	if (pe->dpkg_status.err < 0)
		return pe->dpkg_status.err;
	r = probe_dpkg_status_version(pe->dpkg_status.text, strlen(pe->dpkg_status.text), package,
				      buf, len);
	return r == -ENOENT ? 1 : r;
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

bool probe_path_is(struct probe_env *pe, const char *path, mode_t type)
{
	struct stat st;

	return root_stat(pe->root, path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

bool probe_pathf_is(struct probe_env *pe, mode_t type, const char *fmt, ...)
{
	_cleanup_free_ char *p = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	return r >= 0 && probe_path_is(pe, p, type);
}

void probe_env_done(struct probe_env *pe)
{
	pe->loader = loader_free(pe->loader);
	free(pe->dpkg_status.text);
	pe->dpkg_status.text = NULL;
	pe->dpkg_status.read = false;
}
