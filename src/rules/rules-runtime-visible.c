// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.visible-devices-none: the device-selection variables of the judged process leave it
 * no GPU, or drop GPUs they name; one rule for the concept, one finding per vendor stack.
 * On ROCm two filters apply one after the other: ROCr's
 * ROCR_VISIBLE_DEVICES over the GPUs KFD lists, then HIP's HIP_VISIBLE_DEVICES (or, where that
 * is unset or empty, CUDA_VISIBLE_DEVICES, which HIP honours) over what ROCr left, counted
 * from 0 again (ROCm documentation, "GPU isolation techniques"; how each reads its list:
 * facts/device-select.h). An entry the runtime cannot match ends the list; with no GPU
 * left, hipGetDeviceCount returns hipErrorNoDevice and torch.cuda.is_available() is False.
 * On Intel GPUs, compute-runtime applies ZE_AFFINITY_MASK to the devices Level Zero lists, and
 * the SYCL runtime of PyTorch XPU and IPEX then applies ONEAPI_DEVICE_SELECTOR to those; with
 * no Level Zero GPU left, torch.xpu.is_available() is False.
 * On NVIDIA GPUs, CUDA applies CUDA_VISIBLE_DEVICES to the GPUs the driver lists (how:
 * facts/device-select.h); with none left, cudaGetDeviceCount returns cudaErrorNoDevice. GPUs in
 * MIG mode and MIG- ids are runtime.mig-device-selection's (rules-runtime-mig.c).
 * Each stack's check records a skip for what it alone could not read ("key~" in the rule's
 * needs, rules.h): a paste gives NVIDIA's variable and GPU list without ROCm's or Intel's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "facts/device-select.h"
#include "rules/rules-intel.h"
#include "rules/rules-internal.h"

struct amd_gpus {
	size_t n;
	const char *uuid[DEVICE_SELECT_MAX];
	bool uuid_unknown; /* a unique_id that could not be read */
};

/* The GPUs ROCr counts: KFD nodes with a gfx target, in node order. False when KFD's list
 * could not be read (recorded as "could not tell"). */
static bool kfd_gpus(struct rule_ctx *c, const struct snap_node *kfd, struct amd_gpus *g)
{
	memset(g, 0, sizeof(*g));
	if (snap_kind(kfd) != SNAP_ARRAY) {
		/* no KFD (no amdgpu, or not ROCm's machine): nothing for ROCm to select */
		if (fact_is_failure(snap_state(kfd)))
			rule_need(c, "ROCR_VISIBLE_DEVICES", "the GPUs KFD lists", kfd);
		return false;
	}
	for (size_t i = 0; i < snap_count(kfd); i++) {
		const struct snap_node *node = snap_at(kfd, i);
		const struct snap_node *uuid = snap_child(node, "uuid");
		const struct snap_node *gtv = snap_child(node, "gfx_target_version");

		if (gtv &&
		    !rule_need_known(c, "ROCR_VISIBLE_DEVICES", "a KFD node's gfx target", gtv))
			return false;
		if (!snap_get_str(node, "gfx") || g->n == DEVICE_SELECT_MAX)
			continue;
		g->uuid_unknown |= uuid && fact_is_failure(snap_state(uuid));
		g->uuid[g->n++] = snap_str(uuid);
	}
	return true;
}

/* The variables that are set, as evidence (an unset one says nothing). */
static void set_fact(struct finding *f, const char *name, const struct snap_node *fact)
{
	if (snap_present(fact))
		finding_fact(f, name, fact);
}

static bool names_uuid(const char *v)
{
	return v && (strchr(v, 'G') || strchr(v, 'g'));
}

/* "NAME=value: entry 2 ("7") is an index past the GPUs" for a stop, or "" */
static void describe_stop(char *buf, size_t len, const struct device_select *s)
{
	if (s->stop == DEVICE_SELECT_END)
		snprintf(buf, len, "%s", "");
	else if (s->stop == DEVICE_SELECT_EMPTY)
		snprintf(buf, len, " %s", device_select_stop_words(s->stop));
	else
		snprintf(buf, len, ": entry %zu (\"%s\") %s%s", s->stop_entry + 1, s->stop_text,
			 device_select_stop_words(s->stop),
			 s->skips ? " (skipped)"
			 : s->stop == DEVICE_SELECT_MORE_THAN_GPUS ||
					 s->stop == DEVICE_SELECT_NOT_A_NUMBER
				 ? ""
				 : ", which ends the list");
}

/* The KFD node a GPU of ROCr's count is, for amd_kfd_node_visible(). */
struct kfd_count {
	size_t n, node[DEVICE_SELECT_MAX];
	const char *uuid[DEVICE_SELECT_MAX];
	bool uuid_unknown, too_many;
};

static void kfd_count(const struct snap_node *kfd, struct kfd_count *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < snap_count(kfd); i++) {
		const struct snap_node *node = snap_at(kfd, i);
		const struct snap_node *uuid = snap_child(node, "uuid");

		if (!snap_get_str(node, "gfx"))
			continue;
		if (g->n == DEVICE_SELECT_MAX) {
			g->too_many = true;
			return;
		}
		g->uuid_unknown |= uuid && fact_is_failure(snap_state(uuid));
		g->node[g->n] = i;
		g->uuid[g->n++] = snap_str(uuid);
	}
}

/* ROCr's filter over the n GPUs KFD lists (all of them where ROCR_VISIBLE_DEVICES is unset),
 * then HIP's over what ROCr left, counted from 0 again: *r and *h. */
static void rocm_filters(const char *rocr, const char *hv, const char *const *uuid, size_t n,
			 struct device_select *r, struct device_select *h)
{
	const char *left[DEVICE_SELECT_MAX];

	*r = (struct device_select){ 0 };
	if (rocr)
		device_select_rocr(rocr, uuid, n, r);
	else
		for (size_t i = 0; i < n; i++)
			r->selected[r->n_selected++] = i;
	for (size_t i = 0; i < r->n_selected; i++)
		left[i] = uuid[r->selected[i]];
	device_select_hip(hv, left, r->n_selected, h);
}

/* The same two filters check_rocm() judges, applied to one GPU: the framework and chain
 * judge only the GPUs the process gets. A GPU hidden so is no reason for an error: with an
 * APU's iGPU beside a discrete GPU, HIP_VISIBLE_DEVICES naming the discrete one alone is
 * AMD's fix for the iGPU's "HIP error: invalid device function" (ROCm/legacy-rocm-build#3401:
 * "this is due to HIP using your integrated graphics rather than your discrete graphics. By
 * setting HIP_VISIBLE_DEVICES=1, the issue is resolved"). */
bool amd_kfd_node_visible(const struct snap_node *root, size_t k)
{
	const struct snap_node *env = snap_get(root, "environment");
	const char *rocr = snap_get_str(env, "ROCR_VISIBLE_DEVICES");
	const char *hip = snap_get_str(env, "HIP_VISIBLE_DEVICES");
	const char *hv = hip && *hip ? hip : snap_get_str(env, "CUDA_VISIBLE_DEVICES") ?: "";
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	struct device_select r, h;
	struct kfd_count g;

	if ((!rocr && !*hv) || snap_kind(kfd) != SNAP_ARRAY ||
	    !snap_get_str(snap_at(kfd, k), "gfx"))
		return true;
	kfd_count(kfd, &g);
	if (g.too_many || (g.uuid_unknown && (names_uuid(rocr) || names_uuid(hv))))
		return true;
	rocm_filters(rocr, hv, g.uuid, g.n, &r, &h);
	if (r.stop == DEVICE_SELECT_UNSURE || h.stop == DEVICE_SELECT_UNSURE)
		return true;
	for (size_t i = 0; i < h.n_selected; i++)
		if (g.node[r.selected[h.selected[i]]] == k)
			return true;
	return false;
}

static void check_rocm(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *env = snap_get(root, "environment");
	const struct snap_node *rocr = snap_child(env, "ROCR_VISIBLE_DEVICES");
	const struct snap_node *hip = snap_child(env, "HIP_VISIBLE_DEVICES");
	const struct snap_node *cvd = snap_child(env, "CUDA_VISIBLE_DEVICES");
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const char *hv = snap_str(hip) && *snap_str(hip) ? snap_str(hip) : snap_str(cvd) ?: "";
	const char *hname =
		snap_str(hip) && *snap_str(hip) ? "HIP_VISIBLE_DEVICES" : "CUDA_VISIBLE_DEVICES";
	struct device_select r, h;
	char rstop[128], hstop[128], rpart[320], hpart[320];
	struct amd_gpus g;
	struct finding *f;

	/* what the other stacks' checks need is not this one's (a paste gives NVIDIA's alone) */
	if (!rule_need_known(c, NULL, "environment.ROCR_VISIBLE_DEVICES", rocr) ||
	    !rule_need_known(c, NULL, "environment.HIP_VISIBLE_DEVICES", hip) ||
	    !rule_need_known(c, NULL, "driver.amdgpu.kfd_nodes", kfd))
		return;
	if (!snap_str(rocr) && !*hv)
		return;
	if (!kfd || !kfd_gpus(c, kfd, &g) || g.n == 0)
		return; /* no AMD GPU for ROCm: the driver rules say why */
	if (g.uuid_unknown && (names_uuid(snap_str(rocr)) || names_uuid(hv))) {
		rule_skip(c, "ROCR_VISIBLE_DEVICES", "a GPU's unique_id could not be read");
		return;
	}
	rocm_filters(snap_str(rocr), hv, g.uuid, g.n, &r, &h);
	if (h.n_selected > 0 && r.stop == DEVICE_SELECT_END && h.stop == DEVICE_SELECT_END)
		return;
	describe_stop(rstop, sizeof(rstop), &r);
	describe_stop(hstop, sizeof(hstop), &h);
	rpart[0] = hpart[0] = '\0';
	if (snap_str(rocr))
		snprintf(rpart, sizeof(rpart),
			 "ROCR_VISIBLE_DEVICES%s%s%s, leaving %zu of the %zu GPU%s KFD lists",
			 r.stop == DEVICE_SELECT_EMPTY ? "" : "=",
			 r.stop == DEVICE_SELECT_EMPTY ? "" : snap_str(rocr), rstop, r.n_selected,
			 g.n, g.n == 1 ? "" : "s");
	if (*hv && r.n_selected > 0)
		snprintf(hpart, sizeof(hpart), "%s%s=%s%s%s", *rpart ? "; then " : "", hname, hv,
			 hstop, *rpart ? " (HIP counts the GPUs ROCr left, from 0)" : "");
	f = rule_finding(c, h.n_selected ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_ERROR, "ROCm",
			 "%s%s: the process sees %zu of the %zu GPU%s%s", rpart, hpart,
			 h.n_selected, g.n, g.n == 1 ? "" : "s",
			 h.n_selected ? ""
				      : " (hipGetDeviceCount: hipErrorNoDevice; torch.cuda."
					"is_available() False)");
	set_fact(f, "environment.ROCR_VISIBLE_DEVICES", rocr);
	set_fact(f, "environment.HIP_VISIBLE_DEVICES", hip);
	if (!strcmp(hname, "CUDA_VISIBLE_DEVICES"))
		set_fact(f, "environment.CUDA_VISIBLE_DEVICES", cvd);
	finding_evidence(f, "driver.amdgpu.kfd_nodes", "/sys/class/kfd/kfd/topology/nodes",
			 "%zu GPU node(s)", g.n);
	if (snap_str(rocr) && *hv)
		finding_fix(f, "unset HIP_VISIBLE_DEVICES CUDA_VISIBLE_DEVICES   # on Linux select "
			       "with ROCR_VISIBLE_DEVICES alone: HIP counts only the GPUs ROCr "
			       "left, from 0");
	/* the catalogue's first two fix lines: the others are Intel's and NVIDIA's */
	finding_fix(f, "unset ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES   # ROCm: every GPU; "
		       "then name only GPUs that exist");
	finding_fix(f, "export ROCR_VISIBLE_DEVICES=GPU-<uuid>   # ROCm: select by UUID "
		       "(rocminfo | grep Uuid), stable across reboots and GPU order");
	finding_rule_verify(f);
}

/* ---- Intel: ZE_AFFINITY_MASK, then ONEAPI_DEVICE_SELECTOR ---- */

struct intel_gpus {
	size_t n;
	bool all_single_tile; /* every GPU of a family of facts/intel_gpu_kernel.tsv */
};

/* The Intel GPUs i915 or xe drives. Multi-tile GPUs are Xe-HPC's (Data Center GPU Max), the
 * only ones whose default hierarchy is FLAT (compute-runtime gfx_core_helper_xe_hpc_core.cpp;
 * COMPOSITE elsewhere, gfx_core_helper_base.inl); the families of the knowledge base's Intel
 * table are single-tile. Any other GPU may have two tiles, in either hierarchy. */
static struct intel_gpus intel_gpus(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	struct intel_gpus g = { 0, true };

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_intel_bound(snap_at(gpus, i))) {
			g.n++;
			g.all_single_tile &= intel_kernel_row(snap_at(gpus, i)) != NULL;
		}
	return g;
}

/* ZE_AFFINITY_MASK's result: under the hierarchy set, else the default when every GPU is
 * known, else the larger of the two (so that "none" is never said of a mask that keeps a
 * tile). */
static void ze_mask(const char *mask, const char *hier, const struct intel_gpus *g,
		    struct device_select *out)
{
	size_t tiles = g->all_single_tile ? 1 : 2;
	struct device_select flat;

	if (hier && streq(hier, "FLAT"))
		device_select_ze_mask(mask, g->n, tiles, ZE_HIERARCHY_FLAT, out);
	else if (hier && streq(hier, "COMBINED"))
		device_select_ze_mask(mask, g->n, tiles, ZE_HIERARCHY_COMBINED, out);
	else
		device_select_ze_mask(mask, g->n, tiles, ZE_HIERARCHY_COMPOSITE, out);
	if ((hier &&
	     (streq(hier, "FLAT") || streq(hier, "COMBINED") || streq(hier, "COMPOSITE"))) ||
	    g->all_single_tile)
		return;
	device_select_ze_mask(mask, g->n, tiles, ZE_HIERARCHY_FLAT, &flat);
	if (flat.n_selected > out->n_selected || flat.stop == DEVICE_SELECT_UNSURE)
		*out = flat;
}

static void check_intel(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *env = snap_get(root, "environment");
	const struct snap_node *mask = snap_child(env, "ZE_AFFINITY_MASK");
	const struct snap_node *sel = snap_child(env, "ONEAPI_DEVICE_SELECTOR");
	const char *hier = snap_str(snap_child(env, "ZE_FLAT_DEVICE_HIERARCHY"));
	struct intel_gpus g = intel_gpus(root);
	struct device_select z, o = { 0 };
	char zstop[128], ostop[128], zpart[256] = "", opart[256] = "";
	size_t seen;
	struct finding *f;

	if (!rule_need_known(c, NULL, "environment.ZE_AFFINITY_MASK", mask) ||
	    !rule_need_known(c, NULL, "environment.ONEAPI_DEVICE_SELECTOR", sel))
		return;
	if (!snap_str(mask) && !snap_str(sel))
		return;
	/* no Intel GPU seen: none, or a PCI bus that could not be read (said, never passed) */
	if (g.n == 0) {
		rule_need_known(c, "Level Zero", "the PCI devices (which GPUs there are)",
				snap_get(root, "hardware.pci_devices"));
		return;
	}
	ze_mask(snap_str(mask) ?: "", hier, &g, &z);
	seen = z.n_selected;
	if (z.stop != DEVICE_SELECT_UNSURE && snap_str(sel) && seen > 0) {
		device_select_oneapi(snap_str(sel), seen, &o);
		seen = o.stop == DEVICE_SELECT_MALFORMED ? 0 : o.n_selected;
	}
	if (z.stop == DEVICE_SELECT_UNSURE || o.stop == DEVICE_SELECT_UNSURE) {
		rule_skip(c, "Level Zero", "a form of %s gpuenv does not judge",
			  z.stop == DEVICE_SELECT_UNSURE ? "ZE_AFFINITY_MASK"
							 : "ONEAPI_DEVICE_SELECTOR");
		return;
	}
	if (seen > 0 && z.stop == DEVICE_SELECT_END && o.stop == DEVICE_SELECT_END)
		return;
	describe_stop(zstop, sizeof(zstop), &z);
	if (o.stop == DEVICE_SELECT_MALFORMED)
		snprintf(ostop, sizeof(ostop), ": filter %zu (\"%s\") %s", o.stop_entry + 1,
			 o.stop_text, device_select_stop_words(o.stop));
	else
		snprintf(ostop, sizeof(ostop), " %s", device_select_stop_words(o.stop));
	if (snap_str(mask))
		snprintf(zpart, sizeof(zpart), "ZE_AFFINITY_MASK=%s%s", snap_str(mask), zstop);
	if (snap_str(sel) && z.n_selected > 0)
		snprintf(opart, sizeof(opart), "%sONEAPI_DEVICE_SELECTOR=%s%s",
			 *zpart ? "; then " : "", snap_str(sel),
			 o.stop == DEVICE_SELECT_NO_LEVEL_ZERO_GPU ||
					 o.stop == DEVICE_SELECT_MALFORMED
				 ? ostop
				 : "");
	f = rule_finding(
		c, seen ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_ERROR, "Level Zero",
		"%s%s: Level Zero programs see %s%zu of the %zu Intel GPU%s i915/xe drive%s", zpart,
		opart, seen && !g.all_single_tile ? "at most " : "", seen, g.n, g.n == 1 ? "" : "s",
		seen ? "" : " (torch.xpu.is_available() False; sycl-ls lists no level_zero:gpu)");
	set_fact(f, "environment.ZE_AFFINITY_MASK", mask);
	set_fact(f, "environment.ONEAPI_DEVICE_SELECTOR", sel);
	set_fact(f, "environment.ZE_FLAT_DEVICE_HIERARCHY",
		 snap_child(env, "ZE_FLAT_DEVICE_HIERARCHY"));
	finding_evidence(f, "hardware.gpus", "/sys/bus/pci/devices",
			 "%zu Intel GPU(s) bound to i915/xe", g.n);
	finding_fix(f,
		    "unset ZE_AFFINITY_MASK ONEAPI_DEVICE_SELECTOR   # every GPU; then name only "
		    "GPUs that exist: sycl-ls lists [level_zero:gpu][level_zero:N]");
	finding_rule_verify(f);
}

/* ---- NVIDIA: CUDA_VISIBLE_DEVICES ---- */

/* The NVIDIA GPUs CUDA enumerates: NVML's devices (nvidia-smi's list; CUDA counts the same
 * GPUs, in its own order, which does not change how many an index may name), with their
 * UUIDs. False when the rule cannot judge: no NVIDIA GPU driven here (the driver rules say
 * why), NVML's list unread or incomplete ("could not tell", recorded), or a GPU in MIG mode
 * (runtime.mig-device-selection judges the variable there). *mig_unknown: some GPU's MIG mode
 * was not read, so a GPU named may give a MIG device or none: the count left is a bound. */
static bool cuda_gpus(struct rule_ctx *c, const struct snap_node *root, const char **uuids,
		      size_t *ret_n, bool *mig_unknown)
{
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");
	int64_t listed = -1;
	size_t n;

	if (!snap_present(devs)) {
		if (fact_is_failure(snap_state(devs)))
			rule_need(c, "CUDA", "the NVIDIA GPUs NVML lists", devs);
		return false;
	}
	n = snap_count(devs);
	if (n == 0)
		return false;
	if (n > DEVICE_SELECT_MAX) {
		rule_skip(c, "CUDA", "more than %d NVIDIA GPUs are not judged", DEVICE_SELECT_MAX);
		return false;
	}
	if (snap_get_int(root, "driver.nvml.device_count", &listed) && listed != (int64_t)n) {
		rule_skip(c, "CUDA", "NVML counts %lld GPUs and lists %zu", (long long)listed, n);
		return false;
	}
	*mig_unknown = false;
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *g = snap_at(devs, i), *mm = snap_child(g, "mig_mode");

		if (snap_get_bool_default(g, "mig_mode", false))
			return false;
		*mig_unknown |= !snap_present(mm) && snap_state(mm) != FACT_UNSUPPORTED;
		uuids[i] = snap_get_str(g, "uuid");
	}
	*ret_n = n;
	return true;
}

/* Slurm, without cgroup.conf's ConstrainDevices=yes, sets CUDA_VISIBLE_DEVICES to the node's
 * numbers of the GPUs it allocated (the File= device files of gres.conf: /dev/nvidia2 is 2);
 * with it, the job's own numbering from 0 (Slurm's "GPU Management", doc/html/gres.shtml: a
 * job given /dev/nvidia1 gets "0", its Prolog "1"). A container that shows the job only its
 * GPUs (pyxis/enroot; NVIDIA/pyxis#47) numbers them from 0 too, and the node's number is then
 * past them. The GPU (of those NVML lists) whose device file the stopping index names, or -1:
 * only in a Slurm job, and only an index past the GPUs. */
static ssize_t slurm_node_index(const struct snap_node *root, const struct device_select *s)
{
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");
	int64_t index, minor;
	char *end;

	if (s->stop != DEVICE_SELECT_PAST_END || s->n_selected ||
	    !snap_get_str(root, "environment.SLURM_JOB_ID"))
		return -1;
	errno = 0;
	index = strtoll(s->stop_text, &end, 10);
	if (errno || end == s->stop_text || *end)
		return -1;
	for (size_t i = 0; i < snap_count(devs); i++)
		if (snap_get_int(snap_at(devs, i), "minor_number", &minor) && minor == index)
			return (ssize_t)i;
	return -1;
}

static void check_cuda(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *cvd =
		snap_child(snap_get(root, "environment"), "CUDA_VISIBLE_DEVICES");
	const char *v = snap_str(cvd), *uuids[DEVICE_SELECT_MAX];
	bool mig_unknown = false;
	struct device_select s;
	char stop[128], why[512];
	size_t n = 0;
	ssize_t slurm_gpu;
	struct finding *f;

	if (!v || strstr(v, "MIG-"))
		return; /* unset: every GPU; MIG- ids are runtime.mig-device-selection's */
	if (!cuda_gpus(c, root, uuids, &n, &mig_unknown))
		return;
	device_select_cuda(v, uuids, n, &s);
	if (s.stop == DEVICE_SELECT_UNSURE) {
		rule_skip(c, "CUDA",
			  "CUDA_VISIBLE_DEVICES entry %zu (\"%s\") is a form whose effect CUDA's "
			  "documentation leaves open, or names a GPU whose UUID was not read",
			  s.stop_entry + 1, s.stop_text);
		return;
	}
	if (s.stop == DEVICE_SELECT_END)
		return;
	/* "0,2,-1,1": a negative entry after GPUs is the guide's own way to hide the rest */
	if (s.stop == DEVICE_SELECT_NOT_AN_ID && s.n_selected && s.stop_text[0] == '-')
		return;
	describe_stop(stop, sizeof(stop), &s);
	slurm_gpu = slurm_node_index(root, &s);
	if (slurm_gpu >= 0)
		snprintf(
			why, sizeof(why),
			"; this process runs in Slurm job %s, and %s is the node's number of the "
			"GPU Slurm allocated it (/dev/nvidia%s, NVML's GPU %zd here): the process "
			"sees only the job's GPUs, numbered from 0 (a container such as "
			"pyxis/enroot mounts only them), so the node's number is past them; Slurm "
			"numbers a job's GPUs from 0 only when cgroup.conf has ConstrainDevices=yes",
			snap_get_str(root, "environment.SLURM_JOB_ID"), s.stop_text, s.stop_text,
			slurm_gpu);
	else if (streq(v, "NoDevFiles"))
		snprintf(why, sizeof(why), "%s",
			 "; NoDevFiles is what Slurm sets for a job allocated none of this node's "
			 "GPUs");
	else
		why[0] = '\0';
	f = rule_finding(
		c, s.n_selected ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_ERROR, "CUDA",
		"CUDA_VISIBLE_DEVICES%s%s%s: CUDA programs see %s%zu of the %zu NVIDIA GPU%s "
		"NVML lists%s%s",
		s.stop == DEVICE_SELECT_EMPTY ? "" : "=", s.stop == DEVICE_SELECT_EMPTY ? "" : v,
		stop, s.n_selected && mig_unknown ? "at most " : "", s.n_selected, n,
		n == 1 ? "" : "s",
		s.n_selected ? ""
			     : " (cudaGetDeviceCount: cudaErrorNoDevice \"no CUDA-capable "
			       "device is detected\"; torch.cuda.is_available() False)",
		why);
	if (s.n_selected)
		finding_symptom(f, "cuda:%zu and above: \"invalid device ordinal\"", s.n_selected);
	else
		finding_symptom(f, "cudaErrorNoDevice: no CUDA-capable device is detected · "
				   "torch.cuda.is_available() False · RuntimeError: No CUDA GPUs "
				   "are available");
	set_fact(f, "environment.CUDA_VISIBLE_DEVICES", cvd);
	finding_evidence(f, "driver.nvml.devices", "nvml:nvmlDeviceGetCount_v2", "%zu GPU(s)", n);
	if (slurm_gpu >= 0) {
		finding_evidence(f, "environment.SLURM_JOB_ID", "environment", "%s",
				 snap_get_str(root, "environment.SLURM_JOB_ID"));
		/* NVIDIA/pyxis#47: ConstrainDevices=yes fixed it; Slurm's cgroup.conf(5) */
		finding_fix(f,
			    "ConstrainDevices=yes   # the cluster's admin: in cgroup.conf (beside "
			    "slurm.conf, with TaskPlugin=task/cgroup) on the GPU nodes, then "
			    "restart slurmd: Slurm then numbers each job's GPUs from 0");
		finding_fix(f, "export CUDA_VISIBLE_DEVICES=0   # meanwhile, in the job: the "
			       "first of the GPUs it sees, numbered from 0");
	} else if (streq(v, "NoDevFiles")) {
		/* Slurm's value for a job given none of the node's GPUs (common_gres_set_env(),
		 * src/plugins/gres/common/gres_common.c; ray-project/ray#7014): the GPU is
		 * asked of Slurm, and unsetting the variable would take GPUs Slurm gave other
		 * jobs (or be refused by the job's device cgroup) */
		finding_fix(f, "srun --gres=gpu:1 <program>   # or '#SBATCH --gres=gpu:1' in the "
			       "job script (--gpus=1 on Slurm 19.05 and later): Slurm then sets "
			       "CUDA_VISIBLE_DEVICES to the GPU it allocates");
	} else {
		finding_fix(f, "unset CUDA_VISIBLE_DEVICES   # every GPU; and remove it where it "
			       "is set (~/.bashrc, the job script, a notebook's os.environ)");
		finding_fix(f, "export CUDA_VISIBLE_DEVICES=0   # or name only GPUs that exist: "
			       "nvidia-smi -L lists their indices and UUIDs (GPU-…)");
	}
	finding_verify(f, "tr '\\0' '\\n' < /proc/<pid>/environ | grep CUDA_VISIBLE_DEVICES   "
			  "# what the process itself was given");
	finding_verify(f, "python -c 'import torch; print(torch.cuda.device_count())'");
}

RULE_CHECK(check_visible_devices_none)
{
	check_rocm(c, root);
	check_intel(c, root);
	check_cuda(c, root);
}
