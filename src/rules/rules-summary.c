// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The parts of a diagnosis that are not findings: each layer's key facts, one line each
 * with its source (hardware.gpus[], driver.nvidia.*, runtime.cuda_toolkits[], container.*;
 * docs/snapshot-schema.md), which layers have nothing installed, and the chain "driver
 * supports CUDA ≤ X · toolkit Y · framework built for Z" with each link judged against
 * facts/driver_branches.tsv and facts/cuda_driver_min.tsv. Computed here so that the
 * renderers only print.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules-intel.h"
#include "rules/rules-internal.h"
#include "shared/strbuf.h"

static void hardware_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *pci = snap_get(root, "hardware.pci_devices");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	int64_t n = 0;

	if (!snap_present(pci)) {
		char buf[256];

		fact_describe(pci, buf, sizeof(buf));
		diagnosis_add_fact(d, GPUENV_LAYER_HARDWARE, "PCI bus", snap_source(pci),
				   "could not read (%s)", buf);
		return;
	}
	snap_int(pci, &n);
	if (snap_count(gpus) == 0) {
		diagnosis_add_fact(d, GPUENV_LAYER_HARDWARE, "GPUs", snap_source(pci),
				   "none among %" PRId64 " PCI devices", n);
		*absent = true;
		return;
	}
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct facts_gpu *fg = NULL;
		struct strbuf sb = STRBUF_INIT;
		unsigned v = 0, dev = 0;
		int64_t w, mw, bar1;
		_cleanup_free_ char *text = NULL;

		if (gpu_pci_ids(g, &v, &dev))
			strbuf_printf(&sb, "%s %04x:%04x", snap_get_str(g, "vendor") ?: "?", v,
				      dev);
		else
			strbuf_puts(&sb, "PCI ids unreadable");
		if (gpu_facts(g, &fg) == 0)
			strbuf_printf(&sb, " %s (%s, compute capability %s)", fg->product,
				      fg->architecture ?: "?", fg->compute_capability ?: "?");
		strbuf_printf(&sb, " · driver %s", snap_get_str(g, "driver") ?: "none");
		if (snap_get_int(g, "current_link_width", &w) &&
		    snap_get_int(g, "max_link_width", &mw))
			strbuf_printf(&sb, " · PCIe %s x%" PRId64 " (max %s x%" PRId64 ")",
				      snap_get_str(g, "current_link_speed") ?: "?", w,
				      snap_get_str(g, "max_link_speed") ?: "?", mw);
		if (snap_get_int(g, "bar1_size_bytes", &bar1))
			strbuf_printf(&sb, " · BAR1 %" PRId64 " MiB", bar1 >> 20);
		if (strbuf_steal(&sb, &text) < 0) {
			strbuf_done(&sb);
			continue;
		}
		diagnosis_add_fact(d, GPUENV_LAYER_HARDWARE, snap_get_str(g, "bus_id") ?: "GPU",
				   snap_source(snap_child(g, "bus_id")), "%s", text);
	}
}

/* The device-node line names each node once, by path, and at most this many of them: the 8 x
 * H100 fixture has 44 entries (render nodes, nvidia-caps and the nodes also listed by name). */
#define MAX_NODES_LISTED 16

/* A node's path: the fact's source, or the "path" of a node described by an object. */
static const char *node_path(const struct snap_node *n)
{
	if (snap_kind(n) == SNAP_FACT)
		return snap_present(n) ? snap_source(n) : NULL;
	return snap_get_str(n, "path");
}

/* Appends path to the list unless seen ("\npath\n" lines) has it; returns 1 when it is new.
 * Paths past MAX_NODES_LISTED are counted but not printed. */
static size_t add_node(struct strbuf *seen, struct strbuf *list, const char *path, size_t listed)
{
	struct strbuf line = STRBUF_INIT;
	bool dup;

	if (!path)
		return 0;
	strbuf_printf(&line, "\n%s\n", path);
	dup = strstr(strbuf_str(seen), strbuf_str(&line)) != NULL;
	if (!dup) {
		strbuf_puts(seen, strbuf_str(&line) + (seen->len ? 1 : 0));
		if (listed < MAX_NODES_LISTED)
			strbuf_printf(list, "%s%s", list->len ? ", " : "", path);
	}
	strbuf_done(&line);
	return dup ? 0 : 1;
}

/* A value the summary or the chain took from the knowledge base, kept once (name and value) for
 * explain's "Derived through the knowledge base" (src/output/out-explain.c). */
_printf_(4, 5) static void summary_derived(struct gpuenv_doctor *d, const char *name,
					   const char *source, const char *fmt, ...)
{
	struct rule_evidence *ev;
	char v[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < d->n_summary_ev; i++)
		if (streq(d->summary_ev[i].name, name) && streq(d->summary_ev[i].value, v))
			return;
	if (d->n_summary_ev == DIAGNOSIS_SUMMARY_EV_MAX)
		return;
	ev = &d->summary_ev[d->n_summary_ev];
	ev->name = diagnosis_strdupf(d, "%s", name);
	ev->value = diagnosis_strdupf(d, "%s", v);
	ev->source = source ? diagnosis_strdupf(d, "%s", source) : NULL;
	if (ev->name && ev->value && (ev->source || !source)) {
		d->n_summary_ev++;
		return;
	}
	free(ev->name);
	free(ev->value);
	free(ev->source);
	*ev = (struct rule_evidence){ 0 };
}

/* The floors cuda_req_describe() quoted (facts/cuda_driver_min.tsv), as derived values. */
static void summary_req_derived(struct gpuenv_doctor *d, const struct cuda_req *req)
{
	char floor[128];

	summary_derived(d, "facts.cuda_driver_min", req->first->source, "%s: >= %s",
			req->first->toolkit_label,
			cuda_req_floor(req, req->first, floor, sizeof(floor)));
	if (req->newest != req->first && !req->exact)
		summary_derived(d, "facts.cuda_driver_min", req->newest->source, "%s: >= %s",
				req->newest->toolkit_label,
				cuda_req_floor(req, req->newest, floor, sizeof(floor)));
}

static void driver_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *fact,
		*ms = snap_get(root, "driver.kernel_modules.modules_supported");
	const struct snap_node *dn = snap_get(root, "driver.device_nodes");
	const struct snap_node *sb = snap_get(root, "driver.secure_boot.enabled");
	const char *ver, *amd = snap_get_str(root, "driver.amdgpu.module_version");
	struct strbuf nodes = STRBUF_INIT, seen = STRBUF_INIT;
	size_t n_nodes = 0;
	unsigned branch;
	char buf[256];
	bool on;

	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_LOADED:
		if (driver_cuda_text(ver, &branch, buf, sizeof(buf))) {
			struct facts_driver_cuda dc;

			if (facts_cuda_newest_for_driver(ver, &dc) == 0)
				summary_derived(
					d, "facts.driver_branches.cuda_version_reported",
					dc.row->source, "R%u: %s%s", dc.row->branch, dc.cuda,
					dc.lower_bound ? " (a lower bound for this driver)" : "");
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "NVIDIA driver",
					   snap_source(fact), "%s (%s), branch R%u, %s", ver,
					   snap_get_str(root, "driver.nvidia.flavor")
						   ?: "flavor unknown",
					   branch, buf);
		} else
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "NVIDIA driver",
					   snap_source(fact),
					   "%s (not a version: the newest CUDA it supports could "
					   "not be told)",
					   ver);
		break;
	case DRIVER_NONE:
		if (on_wsl2(root, NULL))
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "NVIDIA driver", "/dev/dxg",
					   "the Windows host's (WSL2: /dev/dxg, /usr/lib/wsl/lib); "
					   "no nvidia.ko in this kernel, as expected");
		else
			diagnosis_add_fact(
				d, GPUENV_LAYER_DRIVER, "NVIDIA driver", snap_source(fact),
				"not loaded (no /sys/module/nvidia, no /proc/driver/nvidia)");
		*absent = !amd;
		break;
	case DRIVER_UNKNOWN:
		fact_describe(fact, buf, sizeof(buf));
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "NVIDIA driver", snap_source(fact),
				   "could not read (%s)", buf);
		break;
	case DRIVER_ELSEWHERE:
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "NVIDIA driver", snap_source(fact),
				   "not this system's (%s)", driver_lives_elsewhere(root));
		break;
	}
	if (amd) {
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "AMD driver",
				   snap_source(snap_get(root, "driver.amdgpu.module_version")),
				   "amdgpu %s", amd);
	} else if (snap_get_bool_default(root, "driver.kernel_modules.amdgpu", false)) {
		/* The kernel's own amdgpu has no version file (amdgpu-dkms's module adds it), yet
		 * /proc/modules lists it loaded: the driver is there, not absent (the AMD chain
		 * names it the same way). */
		const struct snap_node *mv = snap_get(root, "driver.amdgpu.module_version");
		const char *rel = snap_get_str(root, "host.kernel_release");
		const char *src = snap_source(snap_get(root, "driver.kernel_modules.amdgpu"));

		if (snap_state(mv) == FACT_ABSENT &&
		    snap_get_bool_default(root, "driver.amdgpu.out_of_tree", false)) {
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "AMD driver", src,
					   "amdgpu, built out of tree (O in /proc/modules: a "
					   "DKMS package), its version not known (no "
					   "/sys/module/amdgpu/version)");
		} else if (snap_state(mv) == FACT_ABSENT) {
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "AMD driver", src,
					   "amdgpu, the kernel's own (kernel %s; no "
					   "/sys/module/amdgpu/version)",
					   rel ?: "?");
		} else {
			fact_describe(mv, buf, sizeof(buf));
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "AMD driver", src,
					   "amdgpu loaded; its version could not be read (%s)",
					   buf);
		}
		*absent = false;
	}
	if (snap_present(ms) &&
	    !snap_get_bool_default(root, "driver.kernel_modules.modules_supported", true))
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "kernel modules", snap_source(ms),
				   "not supported by this kernel (no /proc/modules)");
	/* Not looked at (a snapshot built from pasted text): not "none". */
	for (size_t i = 0; dn && i < snap_count(dn); i++) {
		const struct snap_node *n = snap_at(dn, i);

		if (snap_kind(n) == SNAP_ARRAY) {
			for (size_t j = 0; j < snap_count(n); j++)
				n_nodes +=
					add_node(&seen, &nodes, node_path(snap_at(n, j)), n_nodes);
		} else if (snap_present(n)) {
			n_nodes += add_node(&seen, &nodes, node_path(n), n_nodes);
		}
	}
	if (n_nodes > MAX_NODES_LISTED)
		strbuf_printf(&nodes, " and %zu more (gpuenv report lists them)",
			      n_nodes - MAX_NODES_LISTED);
	diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "device nodes",
			   dn ? "/dev" : "driver.device_nodes", "%s",
			   nodes.len ? strbuf_str(&nodes)
			   : dn	     ? "none"
				     : "not probed");
	strbuf_done(&nodes);
	strbuf_done(&seen);
	if (snap_bool(sb, &on))
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "Secure Boot", snap_source(sb), "%s",
				   on ? "on" : "off");
}

static void runtime_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *tks = snap_get(root, "runtime.cuda_toolkits");

	if (!tks) { /* not looked at (a snapshot built from pasted text): not "none" */
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "CUDA toolkits",
				   "runtime.cuda_toolkits", "not probed");
		return;
	}
	if (snap_count(tks) == 0) {
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "CUDA toolkits",
				   "/usr/local, /opt, PATH, "
				   "CUDA_HOME",
				   "none found");
		*absent = true;
		return;
	}
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *tk = snap_at(tks, i);
		const struct snap_node *via = snap_child(tk, "found_via");
		struct strbuf sb = STRBUF_INIT;
		_cleanup_free_ char *text = NULL;
		const char *cudnn = snap_get_str(tk, "cudnn_version");
		const char *nccl = snap_get_str(tk, "nccl_version");

		strbuf_printf(&sb, "CUDA %s at %s",
			      snap_get_str(tk, "version") ?: "(version unknown)",
			      snap_get_str(tk, "resolved_path") ?: "?");
		for (size_t j = 0; j < snap_count(via); j++)
			strbuf_printf(&sb, "%s%s", j ? ", " : " (via ",
				      snap_str(snap_at(via, j)) ?: "?");
		if (snap_count(via))
			strbuf_putc(&sb, ')');
		if (cudnn)
			strbuf_printf(&sb, " · cuDNN %s", cudnn);
		if (nccl)
			strbuf_printf(&sb, " · NCCL %s", nccl);
		if (snap_present(snap_child(tk, "stub_libcuda")))
			strbuf_puts(&sb, " · stub libcuda (link-time only)");
		if (strbuf_steal(&sb, &text) < 0) {
			strbuf_done(&sb);
			continue;
		}
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "toolkit",
				   snap_source(snap_child(tk, "version")), "%s", text);
	}
}

struct fw_facts_ctx {
	struct gpuenv_doctor *d;
	const struct snap_node *root;
};

/* The system's ROCm release for a line that compares a bundled ROCm with it. */
static const char *rocm_text(const struct snap_node *root, const struct snap_node *sys)
{
	const struct snap_node *all = snap_get(root, "runtime.rocm");

	if (sys)
		return snap_get_str(sys, "version") ?: "(version unknown)";
	if (!all)
		return "not probed";
	return snap_count(all) > 1 ? "not chosen (no /opt/rocm link)" : "none";
}

static void fw_fact_one(const struct fw_build *b, void *u)
{
	struct fw_facts_ctx *x = u;
	const struct snap_node *hip = fw_hip_version(b), *co = fw_cpu_only(b);
	char cuda[32], xpu[64];
	bool cpu = false;

	if (fw_xpu_text(b, xpu, sizeof(xpu)))
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "%s build in %s", xpu, b->prefix);
	else if (fw_cuda_version(b, cuda, sizeof(cuda), NULL))
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "CUDA %s build in %s", cuda, b->prefix);
	else if (snap_str(hip) && fw_bundles_hip(b)) {
		/* the wheel runs on the ROCm it bundles, not on /opt/rocm's: both are shown */
		const struct snap_node *sys = amd_chosen_rocm(x->root);

		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "ROCm build (bundled ROCm, HIP %s; system ROCm %s) in %s",
				   snap_str(hip), rocm_text(x->root, sys), b->prefix);
	} else if (snap_str(hip))
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "ROCm build (HIP %s) in %s", snap_str(hip), b->prefix);
	else if (snap_bool(co, &cpu) && cpu)
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "CPU-only build in %s", b->prefix);
	else if (snap_state(snap_child(b->env, "prefix")) == FACT_UNPROBED)
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "build not probed (the environment was not looked at)");
	else
		diagnosis_add_fact(x->d, GPUENV_LAYER_FRAMEWORK, b->label, b->prefix,
				   "build unreadable in %s", b->prefix);
}

/* Snapshots from before the fact was written are taken as complete (as they were judged). */
static bool python_envs_complete(const struct snap_node *root)
{
	const struct snap_node *c = snap_get(root, "framework.python_envs_complete");

	return !c || snap_present(c);
}

static void framework_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	struct fw_facts_ctx x = { d, root };
	size_t n;

	if (!envs) {
		diagnosis_add_fact(d, GPUENV_LAYER_FRAMEWORK, "frameworks", "framework",
				   "not probed");
		return;
	}
	n = fw_foreach(root, fw_fact_one, &x);
	if (!python_envs_complete(root)) {
		const struct snap_node *c = snap_get(root, "framework.python_envs_complete");

		/* Not everything could be read: what was not found is unknown, not absent. */
		diagnosis_add_fact(d, GPUENV_LAYER_FRAMEWORK, "frameworks",
				   "framework.python_envs_complete", "could not read %s (%s)",
				   snap_source(c) ?: "every Python environment",
				   snap_error(c) ?: fact_state_to_string(snap_state(c)));
	} else if (n == 0) {
		struct fw_other o[8];
		size_t k = fw_others(root, o, ARRAY_SIZE(o));

		diagnosis_add_fact(d, GPUENV_LAYER_FRAMEWORK, "frameworks", "framework.python_envs",
				   "no torch, TensorFlow or jax in %zu Python environment(s)",
				   snap_count(envs));
		/* CuPy, Numba, Warp or ollama runs GPU code: the layer is not absent, what is there is
		 * named */
		for (size_t i = 0; i < k; i++)
			diagnosis_add_fact(d, GPUENV_LAYER_FRAMEWORK, o[i].name, o[i].source, "%s",
					   o[i].what);
		*absent = k == 0;
	}
}

static void container_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const char *engine = snap_get_str(root, "container.cgroup_engine");
	const char *vis = snap_get_str(root, "container.requested.NVIDIA_VISIBLE_DEVICES");
	const char *src = "/.dockerenv, /run/.containerenv";

	if (!in_container(root) && !snap_get(root, "container.dockerenv") &&
	    !snap_get(root, "container.containerenv")) {
		/* The markers were not looked at (a snapshot built from pasted text): where the
		 * process runs is not known, even when its environment was pasted. */
		diagnosis_add_fact(d, GPUENV_LAYER_CONTAINER, "container", "container",
				   "not probed");
		if (vis)
			diagnosis_add_fact(d, GPUENV_LAYER_CONTAINER, "NVIDIA_VISIBLE_DEVICES",
					   "environment", "%s", vis);
		return;
	}
	if (container_unsure(root)) {
		const char *fs = snap_get_str(root, "container.root_fs_type");

		diagnosis_add_fact(
			d, GPUENV_LAYER_CONTAINER, "container",
			"/proc/self/mountinfo, /.dockerenv, /run/.containerenv, /proc/1/cgroup, "
			"/sys/fs/cgroup/cgroup.type",
			"could not tell: %s, and no /.dockerenv, /run/.containerenv, engine in "
			"/proc/1/cgroup or nested cgroup",
			fs && streq(fs, "overlay")
				? "/ is an overlay mount, as a container's root is, but of no known "
				  "engine's storage"
				: "/proc/self/mountinfo or /sys/fs/cgroup/cgroup.type could not be "
				  "read");
		if (vis)
			diagnosis_add_fact(d, GPUENV_LAYER_CONTAINER, "NVIDIA_VISIBLE_DEVICES",
					   "environment", "%s", vis);
		return;
	}
	if (!in_container(root)) {
		/* What was checked, never "not in a container": an engine that leaves none of
		 * these (enroot under Slurm's pyxis: no /.dockerenv, a plain cgroup path, a root
		 * that is no overlay; NVIDIA/pyxis#47) runs its containers all the same. */
		diagnosis_add_fact(d, GPUENV_LAYER_CONTAINER, "container",
				   "/.dockerenv, /run/.containerenv, /proc/1/cgroup, "
				   "/proc/self/mountinfo, /sys/fs/cgroup/cgroup.type",
				   "no container marker found (no /.dockerenv or "
				   "/run/.containerenv, no engine's cgroup, overlay root or nested "
				   "cgroup)");
		*absent = true;
		return;
	}
	if (engine)
		src = "/proc/1/cgroup";
	else if ((engine = snap_get_str(root, "container.overlay_engine")))
		src = snap_present(snap_get(root, "container.dockerenv")) ||
				      snap_present(snap_get(root, "container.containerenv"))
			      ? "/proc/self/mountinfo, /.dockerenv, /run/.containerenv"
			      : "/proc/self/mountinfo";
	else if (!snap_present(snap_get(root, "container.dockerenv")) &&
		 !snap_present(snap_get(root, "container.containerenv"))) {
		engine = container_engine(root); /* only the cgroup namespace shows */
		src = "/sys/fs/cgroup/cgroup.type";
	}
	diagnosis_add_fact(
		d, GPUENV_LAYER_CONTAINER, "container", src, "%s%s%s", engine ? engine : "yes",
		snap_present(snap_get(root, "container.dockerenv")) ? " (/.dockerenv)" : "",
		snap_present(snap_get(root, "container.containerenv")) ? " (/run/.containerenv)"
								       : "");
	if (vis)
		diagnosis_add_fact(d, GPUENV_LAYER_CONTAINER, "NVIDIA_VISIBLE_DEVICES",
				   "environment", "%s", vis);
}

/* The toolkit a build would use: nvcc on PATH, else CUDA_HOME, else /usr/local/cuda, else
 * the only one. */
const struct snap_node *chosen_toolkit(const struct snap_node *root, const char **ret_why)
{
	const struct snap_node *tks = snap_get(root, "runtime.cuda_toolkits");
	static const char *const order[] = { "PATH nvcc", "CUDA_HOME", "CUDA_PATH" };

	for (size_t o = 0; o < ARRAY_SIZE(order); o++)
		for (size_t i = 0; i < snap_count(tks); i++) {
			const struct snap_node *via = snap_child(snap_at(tks, i), "found_via");

			for (size_t j = 0; j < snap_count(via); j++)
				if (streq(snap_str(snap_at(via, j)) ?: "", order[o])) {
					*ret_why = order[o];
					return snap_at(tks, i);
				}
		}
	for (size_t i = 0; i < snap_count(tks); i++)
		if (streq(snap_get_str(snap_at(tks, i), "path") ?: "", "/usr/local/cuda")) {
			*ret_why = "/usr/local/cuda";
			return snap_at(tks, i);
		}
	if (snap_count(tks) == 1) {
		*ret_why = "the only one";
		return snap_at(tks, 0);
	}
	return NULL;
}

/* toolkit → framework: the framework a plain `python` imports, judged against the driver
 * (pip builds bring their own CUDA runtime; the toolkit only builds extensions). */
static void fw_chain(struct gpuenv_doctor *d, const struct snap_node *root, enum driver_state ds,
		     const char *ver, const char *tv)
{
	struct chain *ch = &d->chain;
	const struct snap_node *hip, *co;
	struct fw_build b;
	struct cuda_req req;
	char cuda[32], need[320];
	bool cpu = false;
	unsigned fma, fmi, tma, tmi;

	if (!fw_first(root, &b)) {
		bool probed = snap_get(root, "framework.python_envs");

		ch->link_state[1] = LINK_UNKNOWN;
		if (fw_others_not_judged(d, root, &ch->framework, &ch->link_why[1]))
			return;
		ch->framework = diagnosis_strdupf(d, probed ? "none found" : "not probed");
		ch->link_why[1] = diagnosis_strdupf(d, probed ? "no torch, TensorFlow or jax found"
							      : "the Python environments were not "
								"looked at");
		return;
	}
	hip = fw_hip_version(&b);
	co = fw_cpu_only(&b);
	ch->framework_source = diagnosis_strdupf(d, "%s", b.prefix);
	if (!fw_cuda_version(&b, cuda, sizeof(cuda), NULL)) {
		if (fw_xpu_text(&b, need, sizeof(need))) {
			ch->framework = diagnosis_strdupf(d, "%s (%s)", b.label, need);
			ch->link_why[1] =
				diagnosis_strdupf(d, "an XPU build: the CUDA chain does not apply");
		} else if (snap_str(hip)) {
			ch->framework =
				diagnosis_strdupf(d, "%s (ROCm, HIP %s)", b.label, snap_str(hip));
			ch->link_why[1] =
				diagnosis_strdupf(d, "a ROCm build: the CUDA chain does not "
						     "apply");
		} else if (snap_bool(co, &cpu) && cpu) {
			ch->framework = diagnosis_strdupf(d, "%s (CPU only)", b.label);
			ch->link_why[1] = diagnosis_strdupf(d, "a CPU-only build uses no GPU");
		} else if (snap_state(snap_child(b.env, "prefix")) == FACT_UNPROBED) {
			ch->framework = diagnosis_strdupf(d, "%s (build not probed)", b.label);
			ch->link_why[1] = diagnosis_strdupf(d, "its CUDA version was not read");
		} else {
			ch->framework = diagnosis_strdupf(d, "%s (build unreadable)", b.label);
			ch->link_why[1] =
				diagnosis_strdupf(d, "its CUDA version could not be read");
		}
		ch->link_state[1] =
			cpu && gpus_count(root, gpu_is_nvidia) > 0 ? LINK_BROKEN : LINK_UNKNOWN;
		return;
	}
	ch->framework = diagnosis_strdupf(d, "%s (CUDA %s)", b.label, cuda);
	if (cuda_requirement(root, cuda, &req) < 0) {
		ch->link_state[1] = LINK_UNKNOWN;
		ch->link_why[1] = diagnosis_strdupf(d,
						    "CUDA %s: no confirmed minimum driver in the "
						    "knowledge base",
						    cuda);
		return;
	}
	cuda_req_describe(&req, need, sizeof(need));
	summary_req_derived(d, &req);
	if (ds != DRIVER_LOADED) {
		ch->link_state[1] = ds == DRIVER_NONE ? LINK_BROKEN : LINK_UNKNOWN;
		ch->link_why[1] = diagnosis_strdupf(
			d,
			"%s runs CUDA %u.%u, which needs a driver %s; "
			"%s",
			b.label, req.major, req.minor, need,
			ds == DRIVER_NONE ? "none is loaded"
			: ds == DRIVER_ELSEWHERE
				? "the driver is another system's, its version not "
				  "visible here"
				: "the driver version is unreadable");
		return;
	}
	ch->link_state[1] = cuda_driver_judge(&req, ver);
	ch->link_why[1] = diagnosis_strdupf(
		d, "%s runs its own CUDA %u.%u, which needs driver %s; %s %s%s", b.label, req.major,
		req.minor, need, ver,
		ch->link_state[1] == LINK_OK ? "satisfies it"
		: ch->link_state[1] == LINK_DEGRADED
			? "runs it only through minor-version compatibility"
			: "is older",
		tv && cuda_major_minor(tv, &tma, &tmi) && cuda_major_minor(cuda, &fma, &fmi) &&
				(tma != fma || tmi != fmi)
			? " (the toolkit's CUDA only matters for building extensions)"
			: "");
}

/* A build counts as not CUDA's only when it is known to be ROCm, XPU or CPU-only: one whose
 * CUDA version could not be read may still be a CUDA build. */
static void note_cuda_build(const struct fw_build *b, void *u)
{
	char buf[192];
	bool cpu = false;

	if (fw_cuda_version(b, buf, sizeof(buf), NULL) ||
	    !(snap_str(fw_hip_version(b)) || fw_xpu_text(b, buf, sizeof(buf)) ||
	      (snap_bool(fw_cpu_only(b), &cpu) && cpu)))
		*(bool *)u = true;
}

/* Whether any framework build found in any Python environment may be built for CUDA. */
static bool fw_built_for_cuda(const struct snap_node *root)
{
	bool cuda = false;

	fw_foreach(root, note_cuda_build, &cuda);
	return cuda;
}

static void chain(struct gpuenv_doctor *d, const struct snap_node *root)
{
	struct chain *ch = &d->chain;
	const struct snap_node *fact, *tk;
	const struct facts_driver_branch *b = NULL;
	const char *ver, *why = NULL, *tv = NULL;
	enum driver_state ds = nvidia_driver(root, &ver, &fact);
	struct cuda_req req;
	char need[320];

	if (ds == DRIVER_LOADED) {
		ch->driver_label = diagnosis_strdupf(d, "%s", ver);
		if (facts_driver_branch(ver, &b) == 0 && b->cuda_version_reported) {
			ch->driver_cuda = diagnosis_strdupf(d, "%s", b->cuda_version_reported);
			summary_derived(d, "facts.driver_branches.cuda_version_reported", b->source,
					"R%u: %s", b->branch, b->cuda_version_reported);
			ch->driver_source =
				diagnosis_strdupf(d, "%s; facts driver_branches R%u [%s]",
						  snap_source(fact), b->branch, b->source);
		} else {
			ch->driver_source = diagnosis_strdupf(d, "%s", snap_source(fact));
		}
	} else {
		ch->driver_label = diagnosis_strdupf(
			d, "%s",
			ds == DRIVER_NONE		    ? "no NVIDIA driver"
			: ds == DRIVER_ELSEWHERE	    ? "the host's driver (not visible here)"
			: snap_state(fact) == FACT_UNPROBED ? "driver not probed"
							    : "driver unreadable");
		ch->driver_source = diagnosis_strdupf(d, "%s", snap_source(fact) ?: "not probed");
	}
	tk = chosen_toolkit(root, &why);
	if (tk) {
		tv = snap_get_str(tk, "version");
		ch->toolkit = diagnosis_strdupf(d, "%s", tv ?: "(version unknown)");
		ch->toolkit_source = diagnosis_strdupf(
			d, "%s (%s)", snap_get_str(tk, "resolved_path") ?: "?", why);
	} else if (snap_count(snap_get(root, "runtime.cuda_toolkits")) > 1) {
		ch->toolkit_source = diagnosis_strdupf(d, "several toolkits, none selected by "
							  "PATH, CUDA_HOME or /usr/local/cuda");
	}
	/* driver → toolkit */
	if (!tk && !snap_get(root, "runtime.cuda_toolkits")) {
		ch->toolkit = diagnosis_strdupf(d, "not probed");
		ch->link_state[0] = LINK_UNKNOWN;
		ch->link_why[0] = diagnosis_strdupf(d, "the CUDA toolkits were not looked at");
	} else if (!tk) {
		ch->link_state[0] = LINK_UNKNOWN;
		ch->link_why[0] = diagnosis_strdupf(d, "no CUDA toolkit selected");
	} else if (!tv || cuda_requirement(root, tv, &req) < 0) {
		ch->link_state[0] = LINK_UNKNOWN;
		ch->link_why[0] = diagnosis_strdupf(d,
						    "CUDA %s: no confirmed minimum driver in the "
						    "knowledge base",
						    tv ?: "?");
	} else {
		cuda_req_describe(&req, need, sizeof(need));
		summary_req_derived(d, &req);
		if (ds == DRIVER_NONE) {
			ch->link_state[0] = LINK_BROKEN;
			ch->link_why[0] =
				diagnosis_strdupf(d, "no NVIDIA driver; CUDA %u.%u needs %s",
						  req.major, req.minor, need);
		} else if (ds == DRIVER_UNKNOWN || ds == DRIVER_ELSEWHERE) {
			ch->link_state[0] = LINK_UNKNOWN;
			ch->link_why[0] = diagnosis_strdupf(
				d, "%s; CUDA %u.%u needs %s",
				ds == DRIVER_ELSEWHERE ? "the driver is another system's, its "
							 "version not visible here"
						       : "driver version unreadable",
				req.major, req.minor, need);
		} else {
			ch->link_state[0] = cuda_driver_judge(&req, ver);
			ch->link_why[0] = diagnosis_strdupf(
				d, "CUDA %u.%u needs %s; driver %s%s", req.major, req.minor, need,
				ver,
				ch->link_state[0] == LINK_OK ? " satisfies it"
				: ch->link_state[0] == LINK_DEGRADED
					? " runs it only through minor-version compatibility"
					: " is older");
		}
	}
	fw_chain(d, root, ds, ver, tv);
	ch->nothing_nvidia = ds == DRIVER_NONE && !tk &&
			     snap_count(snap_get(root, "runtime.cuda_toolkits")) == 0 &&
			     gpus_count(root, gpu_is_nvidia) == 0 && !fw_built_for_cuda(root);
}

void rules_summarize(struct gpuenv_doctor *d, const struct snap_node *root,
		     bool absent[RULE_LAYERS])
{
	hardware_facts(d, root, &absent[GPUENV_LAYER_HARDWARE]);
	driver_facts(d, root, &absent[GPUENV_LAYER_DRIVER]);
	runtime_facts(d, root, &absent[GPUENV_LAYER_RUNTIME]);
	launch_summarize(d, root);
	amd_runtime_facts(d, root, &absent[GPUENV_LAYER_RUNTIME]);
	framework_facts(d, root, &absent[GPUENV_LAYER_FRAMEWORK]);
	container_facts(d, root, &absent[GPUENV_LAYER_CONTAINER]);
	rules_summarize_intel(d, root, absent);
	chain(d, root);
	amd_chain(d, root);
	intel_chain(d, root);
}
