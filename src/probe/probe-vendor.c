// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The vendor library probes (see probe-vendor.h): one row per library, one runner.
 * Reads /sys/module/<module> (sysfs-module ABI: the directory exists while a module, or a
 * built-in driver with parameters, is loaded) and /dev nodes through the root, and the
 * driver probe's driver.kernel_modules facts. Vendor trees use the snapshot's own JSON
 * shape (docs/snapshot-schema.md), built by src/vendor/session.c.
 */
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>

#include "probe-vendor.h"

/* 1 when module is loaded (driver.kernel_modules.<m> or /sys/module/<m>), 0 when it is not,
 * -errno when /sys/module/<m> could not be looked at (EACCES: loaded or not, nobody knows). */
static int module_loaded(struct probe_env *pe, struct gpuenv_snapshot *s, const char *module)
{
	char path[128], key[128];
	struct stat st;
	int r;

	snprintf(key, sizeof(key), "driver.kernel_modules.%s", module);
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	if (snap_get_bool_default(snapshot_root(s), key, false))
		return 1;
	r = root_stat(pe->root, path, &st);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	return S_ISDIR(st.st_mode);
}

int probe_vendor_module_state(struct probe_env *pe, struct gpuenv_snapshot *s, const char *module)
{
	return module_loaded(pe, s, module);
}

bool probe_vendor_module_ready(struct probe_env *pe, struct gpuenv_snapshot *s, const char *module,
			       const char *dev)
{
	struct stat st;

	if (module_loaded(pe, s, module) <= 0)
		return false;
	/* Device nodes cannot live in a fixture tree (git has no character devices): only the
	 * live machine, where the library would create them, is checked. */
	if (dev && pe->ctx->live)
		return root_stat(pe->root, dev, &st) == 0 && S_ISCHR(st.st_mode);
	return true;
}

bool probe_vendor_gpu_present(const struct gpuenv_snapshot *s, const char *vendor_id)
{
	const struct snap_node *gpus = snap_get(snapshot_root_const(s), "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (streq(snap_get_str(snap_at(gpus, i), "vendor_id") ?: "", vendor_id))
			return true;
	return false;
}

const char *probe_vendor_gate(struct probe_env *pe, struct gpuenv_snapshot *s,
			      const char *explicit_lib, const char *lib_option, const char *what,
			      bool need_module, char *buf, size_t size, const char **ret_source,
			      enum fact_state *ret_state)
{
	struct stat st;
	int r;

	*ret_source = "options";
	*ret_state = FACT_UNPROBED;
	if (pe->ctx->flags & GPUENV_CTX_NO_VENDOR)
		return "--no-vendor";
	if (!ctx_vendor_allowed(pe->ctx, explicit_lib)) {
		snprintf(buf, size,
			 "live-only probe, off under --sysroot unless %s names a library",
			 lib_option);
		return buf;
	}
	if (!need_module)
		return NULL;
	r = module_loaded(pe, s, "nvidia");
	if (r < 0) {
		/* Not called either (it could create /dev/nvidiactl), but what it would have
		 * said is unknown, not "no module": a read failure of the layer. */
		*ret_source = "/sys/module/nvidia";
		*ret_state = fact_state_from_test_errno(r);
		snprintf(buf, size,
			 "not called: could not tell whether the nvidia kernel module is loaded "
			 "(/sys/module/nvidia: %s)",
			 strerror(-r));
		return buf;
	}
	if (r == 0) {
		*ret_source = "/sys/module/nvidia";
		snprintf(buf, size,
			 "nvidia kernel module not loaded (%s would create /dev/nvidiactl)", what);
		return buf;
	}
	if (pe->ctx->live &&
	    !(root_stat(pe->root, "/dev/nvidiactl", &st) == 0 && S_ISCHR(st.st_mode))) {
		*ret_source = "/dev/nvidiactl";
		snprintf(buf, size, "/dev/nvidiactl missing (%s would create it)", what);
		return buf;
	}
	return NULL;
}

void probe_vendor_not_called(struct snap_node *obj, const char *const keys[], enum fact_state state,
			     const char *source, const char *why)
{
	char msg[320];

	snprintf(msg, sizeof(msg), "%s%s", state == FACT_UNPROBED ? "not called: " : "", why);
	for (size_t i = 0; keys[i]; i++)
		snap_set_state(obj, keys[i], state, source, msg);
}

/* The facts of obj the session wrote as "not called: <skip->why>": in skip's state, with its
 * source (struct probe_skip_failure). */
static void mark_skip_failure(struct snap_node *obj, const struct probe_skip_failure *skip)
{
	char msg[sizeof(skip->why) + 16];

	if (skip->state == FACT_UNPROBED)
		return;
	snprintf(msg, sizeof(msg), "not called: %s", skip->why);
	for (size_t i = 0; i < snap_count(obj); i++) {
		const struct snap_node *n = snap_at(obj, i);
		char key[64];

		if (snap_kind(n) != SNAP_FACT || snap_state(n) != FACT_UNPROBED ||
		    !streq(snap_error(n) ?: "", msg))
			continue;
		snprintf(key, sizeof(key), "%s", snap_key(n));
		snap_set_state(obj, key, skip->state, skip->source, msg);
	}
}

static void write_node(struct snap_node *obj, const char *key, json_t *j);

static void write_fact(struct snap_node *obj, const char *key, json_t *j)
{
	const char *state_s = json_string_value(json_object_get(j, "state"));
	const char *source = json_string_value(json_object_get(j, "source"));
	const char *error = json_string_value(json_object_get(j, "error"));
	json_t *v = json_object_get(j, "value");
	int state = state_s ? fact_state_from_string(state_s) : -EINVAL;

	if (state < 0) {
		snap_set_state(obj, key, FACT_MALFORMED, source,
			       "unknown fact state from the vendor child");
		return;
	}
	if (state == FACT_PRESENT && json_is_string(v))
		snap_set_str(obj, key, json_string_value(v), source);
	else if (state == FACT_PRESENT && json_is_integer(v))
		snap_set_int(obj, key, json_integer_value(v), source);
	else if (state == FACT_PRESENT && json_is_boolean(v))
		snap_set_bool(obj, key, json_is_true(v), source);
	else
		snap_set_state(obj, key, (enum fact_state)state, source, error);
}

static void write_children(struct snap_node *obj, json_t *j)
{
	const char *k;
	json_t *v;

	json_object_foreach(j, k, v)
		write_node(obj, k, v);
}

static void write_node(struct snap_node *obj, const char *key, json_t *j)
{
	if (json_is_object(j) && json_is_string(json_object_get(j, "state"))) {
		write_fact(obj, key, j);
	} else if (json_is_object(j)) {
		write_children(snap_object(obj, key), j);
	} else if (json_is_array(j)) {
		struct snap_node *arr = snap_array(obj, key);
		size_t i;
		json_t *e;

		json_array_foreach(j, i, e)
			if (json_is_object(e))
				write_children(snap_append_object(arr), e);
	}
}

void probe_vendor_write(struct snap_node *obj, const struct vendor_result *r, unsigned timeout_ms,
			const char *what)
{
	char source[64];

	write_children(obj, r->tree);
	snprintf(source, sizeof(source), "%s %schild process (deadline %u ms)", what,
		 json_object_get(r->tree, "session_restarts") ? "long-lived " : "", timeout_ms);
	if (r->failure)
		snap_set_state(obj, "session", FACT_ERROR, source, r->failure);
	else
		snap_set_str(obj, "session", "completed", source);
}

/* A session's subtree is a few KiB per GPU; this is far above any. */
#define VENDOR_KEPT_MAX ((size_t)4 << 20)

int probe_vendor_replay(struct probe_env *pe, struct gpuenv_snapshot *s, struct snap_node *obj,
			const char *session, const char *explicit_lib)
{
	_cleanup_free_ char *text = NULL, *why = NULL;
	char name[64];
	size_t len;
	int err;

	if ((pe->ctx->flags & GPUENV_CTX_NO_VENDOR) || explicit_lib)
		return 0;
	snprintf(name, sizeof(name), "vendor/%s", session);
	err = ctx_kept(pe->ctx, name, VENDOR_KEPT_MAX, &text, &len);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return 0;
	err = snapshot_node_load(s, obj, text, len, &why);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg), "the session the capture kept: %s",
			 why ? why : strerror(-err));
		snap_set_state(obj, "session", FACT_MALFORMED, CTX_KEPT_DIR "vendor", msg);
	}
	return 1;
}

int probe_vendor_keep(struct probe_env *pe, const struct snap_node *obj, const char *session)
{
	json_t *j;
	char *text, name[64];
	int err;

	if (!ctx_keeping(pe->ctx))
		return 0;
	j = snapshot_node_to_jansson(obj);
	text = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(j);
	if (!text)
		return -ENOMEM;
	snprintf(name, sizeof(name), "vendor/%s", session);
	err = ctx_keep(pe->ctx, name, text, strlen(text));
	free(text);
	return err;
}

void probe_vendor_wait_settled(struct probe_env *pe)
{
	/* One at a time, this process only waits while the session runs: the hook a program
	 * set (core/child.h child_settled(); `gpuenv exporter`'s diagnosis drops the code pages
	 * the probes so far faulted in, docs/exporter.md) runs first, so that they are not
	 * resident beside the session's. None by default. */
	if (pe->ctx->flags & GPUENV_CTX_VENDOR_SERIAL)
		child_settled();
}

void probe_vendor_before_fork(struct probe_env *pe)
{
	/* A fork copies the page tables of every resident anonymous page, so the session's
	 * keeper and child would each count the heap's free pages too (what the earlier probes
	 * and sessions freed, e.g. the jansson tree a session's lines were folded into). */
	if (pe->ctx->flags & GPUENV_CTX_VENDOR_SERIAL)
		(void)malloc_trim(0);
}

int probe_vendor_pend(struct probe_env *pe, const struct probe_pending *pp)
{
	if (pe->n_pending == PROBE_MAX_PENDING) {
		vendor_cancel(pp->vp);
		return -ENOBUFS; /* more sessions than rows in the probe table: a bug */
	}
	pe->pending[pe->n_pending] = *pp;
	pe->pending[pe->n_pending].probe = pe->probe;
	pe->pending[pe->n_pending].t0_ms = pe->probe_t0_ms;
	pe->n_pending++;
	/* Its result is still written by probe_vendor_collect(), where it would have been. */
	if (pe->ctx->flags & GPUENV_CTX_VENDOR_SERIAL) {
		probe_vendor_wait_settled(pe);
		(void)vendor_settle(pp->vp);
	}
	return 0;
}

void probe_vendor_pump(struct probe_env *pe)
{
	for (size_t i = 0; i < pe->n_pending; i++)
		vendor_pump(pe->pending[i].vp);
}

int probe_vendor_collect(struct probe_env *pe, struct snap_node *timings)
{
	int ret = 0;

	/* In the order started: the snapshot and the log read as they did when each session ran
	 * in its own row. */
	for (size_t i = 0; i < pe->n_pending; i++) {
		struct probe_pending *pp = &pe->pending[i];
		struct vendor_result r;
		int err;

		if (ret == -ENOMEM) {
			vendor_cancel(pp->vp);
			continue;
		}
		err = vendor_finish(pp->vp, &r);
		if (err == -ENOMEM) {
			ret = err;
			continue;
		}
		if (err < 0) {
			probe_vendor_not_called(pp->obj, pp->keys, FACT_ERROR, "child",
						strerror(-err));
		} else {
			probe_vendor_write(pp->obj, &r, pp->timeout_ms, pp->session);
			mark_skip_failure(pp->obj, &pp->skip);
			if (r.failure)
				log_warn(pe->log, "%s: %s", pp->label, r.failure);
			vendor_result_done(&r);
		}
		err = probe_vendor_keep(pe, pp->obj, pp->session);
		if (err == -ENOMEM)
			ret = err;
		if (pp->probe)
			snap_set_int(timings, pp->probe,
				     (int64_t)((probe_now_ms() - pp->t0_ms) * 1000.0),
				     "microseconds");
	}
	pe->n_pending = 0;
	return ret;
}

/* Another context's sweep (gpuenv_ctx_set_nvml_sweep(): `gpuenv exporter`'s diagnosis takes
 * its samples' long-lived NVML child's latest sweep, docs/exporter.md), written as it was
 * collected there: every fact with its state, a failed, hung or held-back session's errors
 * too, and the time it was taken (session_sampled_at). Called where this collection's own
 * gate let NVML be called, so the facts are those a session of its own would have given. */
static int take_sweep(struct probe_env *pe, struct gpuenv_snapshot *s, struct snap_node *obj,
		      const struct vendor_probe *vp)
{
	_cleanup_free_ char *why = NULL;
	const char *failure;
	int err = snapshot_node_load(s, obj, pe->ctx->nvml_sweep, pe->ctx->nvml_sweep_len, &why);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg), "the sample's sweep: %s", why ? why : strerror(-err));
		snap_set_state(obj, "session", FACT_MALFORMED, "nvml sample", msg);
		return snapshot_error(s);
	}
	failure = snap_error(snap_child(obj, "session"));
	if (failure)
		log_warn(pe->log, "%s: %s", vp->label, failure);
	err = probe_vendor_keep(pe, obj, vp->session);
	return err < 0 ? err : snapshot_error(s);
}

int probe_vendor_run(struct probe_env *pe, struct gpuenv_snapshot *s, const struct vendor_probe *vp)
{
	struct snap_node *obj = snap_object(snap_object(snapshot_root(s), vp->parent), vp->name);
	const char *lib = *(char *const *)((const char *)pe->ctx + vp->lib_offset);
	struct vendor_req req = { .library = lib, .timeout_ms = pe->ctx->vendor_timeout_ms };
	struct probe_skip_failure skip = { .state = FACT_UNPROBED };
	struct vendor_pending *started;
	const char *source, *why;
	enum fact_state state;
	char buf[256];
	int err;

	if (vp->takes_sweep)
		pe->ctx->nvml_swept = false;
	err = probe_vendor_replay(pe, s, obj, vp->session, lib);
	if (err != 0)
		return err < 0 ? err : snapshot_error(s);
	err = vp->before ? vp->before(pe, obj) : 0;
	if (err < 0)
		return err;
	why = probe_vendor_gate(pe, s, lib, vp->lib_option, vp->first_call, vp->need_module, buf,
				sizeof(buf), &source, &state);
	if (why) {
		probe_vendor_not_called(obj, vp->keys, state, source, why);
		if (!streq(source, "options") &&
		    (err = probe_vendor_keep(pe, obj, vp->session)) < 0)
			return err;
		return snapshot_error(s);
	}
	if (vp->prepare)
		vp->prepare(pe, s, &req, &skip);
	if (vp->takes_sweep && pe->ctx->nvml_sweep)
		return take_sweep(pe, s, obj, vp);
	/* from here on a child runs (below: unless a long-lived one's restart is held back) */
	if (vp->takes_sweep)
		pe->ctx->nvml_swept = true;
	if (vp->collect_keep && (pe->ctx->flags & GPUENV_CTX_VENDOR_KEEP)) {
		/* The child that stays answers at once: nothing to overlap. */
		struct vendor_result r;
		struct vendor_keep **keep =
			(struct vendor_keep **)((char *)pe->ctx + vp->keep_offset);

		/* one at a time: this process only waits once the sweep is asked for, and the
		 * child ends before the sweep is folded */
		req.serial = pe->ctx->flags & GPUENV_CTX_VENDOR_SERIAL;
		err = vp->collect_keep(keep, &req, &r);
		/* one at a time: the kept child ends before the next session starts */
		if (pe->ctx->flags & GPUENV_CTX_VENDOR_SERIAL) {
			vendor_keep_free(*keep);
			*keep = NULL;
		}
		if (err == -ENOMEM)
			return err;
		if (err < 0) {
			if (vp->takes_sweep)
				pe->ctx->nvml_swept = false;
			probe_vendor_not_called(obj, vp->keys, FACT_ERROR, "fork", strerror(-err));
			return snapshot_error(s);
		}
		probe_vendor_write(obj, &r, req.timeout_ms, vp->session);
		mark_skip_failure(obj, &skip);
		if (r.failure)
			log_warn(pe->log, "%s: %s", vp->label, r.failure);
		if (vp->takes_sweep && r.no_child)
			pe->ctx->nvml_swept = false;
		vendor_result_done(&r);
		err = probe_vendor_keep(pe, obj, vp->session);
		return err < 0 ? err : snapshot_error(s);
	}
	probe_vendor_before_fork(pe);
	err = vp->start(&req, &started);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		if (vp->takes_sweep)
			pe->ctx->nvml_swept = false;
		probe_vendor_not_called(obj, vp->keys, FACT_ERROR, "fork", strerror(-err));
		err = probe_vendor_keep(pe, obj, vp->session);
		return err < 0 ? err : snapshot_error(s);
	}
	/* probe_vendor_collect() writes (and keeps) the result. */
	err = probe_vendor_pend(pe, &(struct probe_pending){ .obj = obj,
							     .keys = vp->keys,
							     .label = vp->label,
							     .session = vp->session,
							     .timeout_ms = req.timeout_ms,
							     .vp = started,
							     .skip = skip });
	return err < 0 ? err : snapshot_error(s);
}

/*
 * driver.nvml: what NVML (libnvidia-ml.so.1) says about the driver and each GPU, collected
 * by src/vendor/nvml.c in a child under the context's deadline. Called only when allowed:
 * live, or with --nvml-lib under --sysroot; never with --no-vendor; and only when the nvidia
 * kernel module is loaded (/sys/module/nvidia, driver.kernel_modules.nvidia) and, live,
 * /dev/nvidiactl exists, because the real nvmlInit creates /dev/nvidiactl as root even
 * without a driver (docs/formats/nvml.md §1) and gpuenv never changes the machine.
 * Keys: docs/snapshot-schema.md "driver.nvml".
 */
static const struct vendor_probe nvml_probe = {
	.parent = "driver",
	.name = "nvml",
	.keys = (const char *const[]){ "library", "init", NULL },
	.lib_offset = offsetof(struct gpuenv_ctx, nvml_lib),
	.lib_option = "--nvml-lib",
	.first_call = "nvmlInit",
	.need_module = true,
	.label = "NVML",
	.session = "nvml",
	.start = vendor_nvml_start,
	.collect_keep = vendor_nvml_keep_collect,
	.keep_offset = offsetof(struct gpuenv_ctx, nvml_keep),
	.takes_sweep = true,
};

int probe_nvml(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	return probe_vendor_run(pe, s, &nvml_probe);
}

#define LAUNCH_TIMEOUT_FACTOR 4u

/* cuInit also needs nvidia_uvm, which the real library loads through the set-uid
 * nvidia-modprobe when it is missing, so without it (or, live, without /dev/nvidia-uvm) only
 * cuDriverGetVersion is called. Where /sys/module/nvidia_uvm cannot be looked at, cuInit is
 * not called either, and its facts carry that read failure: loaded or not, nobody knows. */
static void cuda_prepare(struct probe_env *pe, struct gpuenv_snapshot *s, struct vendor_req *req,
			 struct probe_skip_failure *skip)
{
	int uvm = probe_vendor_module_state(pe, s, "nvidia_uvm");

	/* doctor --launch: context creation and a PTX JIT per GPU take far longer than the
	 * queries (hundreds of ms each on an H200), hence the longer deadline. */
	if (pe->ctx->flags & GPUENV_CTX_LAUNCH) {
		req->launch = true;
		req->timeout_ms = pe->ctx->vendor_timeout_ms * LAUNCH_TIMEOUT_FACTOR;
	}
	req->no_timings = pe->ctx->flags & GPUENV_CTX_STABLE;
	if (uvm < 0) {
		skip->state = fact_state_from_test_errno(uvm);
		skip->source = "/sys/module/nvidia_uvm";
		snprintf(skip->why, sizeof(skip->why),
			 "could not tell whether the nvidia_uvm kernel module is loaded "
			 "(/sys/module/nvidia_uvm: %s)",
			 strerror(-uvm));
		req->skip_init = skip->why;
	} else if (!uvm || !probe_vendor_module_ready(pe, s, "nvidia_uvm", "/dev/nvidia-uvm")) {
		req->skip_init = "nvidia_uvm kernel module not loaded or /dev/nvidia-uvm missing "
				 "(cuInit would load it through nvidia-modprobe)";
	}
}

/*
 * driver.cuda: the CUDA driver API (libcuda.so.1) as a CUDA program sees it:
 * cuDriverGetVersion, cuInit, the devices and their compute capability, collected by
 * src/vendor/cuda.c in a child under the context's deadline. Same gate as NVML (live or
 * --cuda-lib, not --no-vendor, nvidia kernel module loaded, and live /dev/nvidiactl): the real
 * cuInit creates /dev/nvidiactl like nvmlInit (docs/formats/nvml.md §1).
 * Keys: docs/snapshot-schema.md "driver.cuda".
 */
static const struct vendor_probe cuda_probe = {
	.parent = "driver",
	.name = "cuda",
	.keys = (const char *const[]){ "library", "init", NULL },
	.lib_offset = offsetof(struct gpuenv_ctx, cuda_lib),
	.lib_option = "--cuda-lib",
	.first_call = "cuInit",
	.need_module = true,
	.label = "libcuda",
	.session = "cuda",
	.start = vendor_cuda_start,
	.prepare = cuda_prepare,
};

int probe_cuda_driver(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	return probe_vendor_run(pe, s, &cuda_probe);
}
