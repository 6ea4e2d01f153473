// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.mig-device-selection: with a GPU in MIG mode, the process's CUDA_VISIBLE_DEVICES asks
 * for what CUDA cannot give. How CUDA reads the variable: CUDA C++ Programming Guide, "CUDA
 * Environment Variables" (indices, GPU-<uuid> prefixes, MIG-<uuid> and the older
 * MIG-GPU-<uuid>/<gpu instance>/<compute instance> form; "if one of the indices is invalid,
 * only the devices whose index precedes the invalid index are visible"). NVIDIA's MIG User
 * Guide, "CUDA Device Enumeration": with CUDA 11/R450 and CUDA 12/R525 a process enumerates a
 * single MIG device, however many it is given. Reads environment.CUDA_VISIBLE_DEVICES,
 * driver.nvml.devices[] (mig_mode, uuid, mig_devices[]: docs/snapshot-schema.md) and the
 * framework releases whose device count mis-reads MIG ids (facts framework_mig_bugs.tsv).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"
#include "shared/strv.h"

#define CVD "environment.CUDA_VISIBLE_DEVICES"

enum entry_kind {
	E_GPU,	      /* a GPU not in MIG mode */
	E_GPU_ON_MIG, /* a GPU index or GPU- UUID of a GPU in MIG mode */
	E_MIG,	      /* one MIG device */
	E_INVALID,    /* CUDA stops here */
};

struct entry {
	enum entry_kind kind;
	const struct snap_node *gpu; /* driver.nvml.devices[i] */
	const char *why;	     /* E_INVALID */
};

static bool gpu_mig(const struct snap_node *gpu)
{
	return snap_get_bool_default(gpu, "mig_mode", false);
}

/* The one GPU (or MIG device, mig true) whose UUID starts with id; NULL for none or several. */
static const struct snap_node *by_uuid(const struct snap_node *devs, const char *id, bool mig,
				       const struct snap_node **ret_gpu)
{
	const struct snap_node *hit = NULL;
	size_t n = 0;

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *g = snap_at(devs, i), *migs = snap_child(g, "mig_devices");

		if (!mig && startswith(snap_get_str(g, "uuid") ?: "", id)) {
			hit = g;
			*ret_gpu = g;
			n++;
		}
		for (size_t m = 0; mig && m < snap_count(migs); m++)
			if (startswith(snap_get_str(snap_at(migs, m), "uuid") ?: "", id)) {
				hit = snap_at(migs, m);
				*ret_gpu = g;
				n++;
			}
	}
	return n == 1 ? hit : NULL;
}

/* "MIG-GPU-<uuid>/<gi>/<ci>": the GPU and one of its MIG devices with those instance ids. */
static void old_form(const struct snap_node *devs, const char *e, struct entry *ret)
{
	char uuid[128];
	const char *slash = strchr(e, '/');
	const struct snap_node *gpu = NULL, *migs;
	unsigned gi, ci;
	char tail[64], *s2;

	ret->kind = E_INVALID;
	if (!slash || (size_t)(slash - e) - 4 >= sizeof(uuid) ||
	    snprintf(tail, sizeof(tail), "%s", slash + 1) >= (int)sizeof(tail) ||
	    !(s2 = strchr(tail, '/'))) {
		ret->why = "is not of the form MIG-GPU-<uuid>/<gpu instance>/<compute instance>";
		return;
	}
	*s2 = '\0';
	if (parse_uint(tail, 10, &gi) < 0 || parse_uint(s2 + 1, 10, &ci) < 0) {
		ret->why = "has instance ids that are not numbers";
		return;
	}
	snprintf(uuid, sizeof(uuid), "%.*s", (int)(slash - e) - 4, e + 4);
	if (!by_uuid(devs, uuid, false, &gpu)) {
		ret->why = "names no GPU of this machine";
		return;
	}
	if (!gpu_mig(gpu)) {
		ret->why = "names a GPU that is not in MIG mode";
		return;
	}
	migs = snap_child(gpu, "mig_devices");
	for (size_t m = 0; m < snap_count(migs); m++) {
		const struct snap_node *d = snap_at(migs, m);
		int64_t g = -1, k = -1;

		if (snap_get_int(d, "gpu_instance_id", &g) && g == (int64_t)gi &&
		    snap_get_int(d, "compute_instance_id", &k) && k == (int64_t)ci) {
			ret->kind = E_MIG;
			ret->gpu = gpu;
			return;
		}
	}
	ret->why = "names a GPU instance / compute instance pair that does not exist";
}

static void classify(const struct snap_node *devs, const char *e, struct entry *ret)
{
	const struct snap_node *gpu = NULL;
	unsigned idx;

	*ret = (struct entry){ .kind = E_INVALID };
	if (e[0] >= '0' && e[0] <= '9') {
		/* CUDA reads an index with strtoul-like parsing ("1gpu" is 1). */
		char num[16];
		size_t k = strspn(e, "0123456789");

		snprintf(num, sizeof(num), "%.*s", (int)(k < 15 ? k : 15), e);
		if (parse_uint(num, 10, &idx) < 0 || idx >= snap_count(devs)) {
			ret->why = "is not the index of a GPU of this machine";
			return;
		}
		gpu = snap_at(devs, idx);
	} else if (startswith(e, "GPU-")) {
		if (!by_uuid(devs, e, false, &gpu)) {
			ret->why = "matches no GPU UUID (or several)";
			return;
		}
	} else if (startswith(e, "MIG-GPU-")) {
		old_form(devs, e, ret);
		return;
	} else if (startswith(e, "MIG-")) {
		if (!by_uuid(devs, e, true, &gpu)) {
			ret->why = "matches no MIG device of this machine (a MIG device that was "
				   "destroyed, another machine's, or mistyped)";
			return;
		}
		ret->kind = E_MIG;
		ret->gpu = gpu;
		return;
	} else {
		ret->why = e[0] == '-' ? "is negative (it hides every entry after it)"
				       : "is neither a GPU index nor a GPU-, MIG- or MIG-GPU- id";
		return;
	}
	ret->gpu = gpu;
	ret->kind = gpu_mig(gpu) ? E_GPU_ON_MIG : E_GPU;
}

struct mig_fw {
	const char *cvd; /* the framework_mig_bugs.tsv rows asked for: "mig-ids", "unset" */
	size_t hits;
	const struct facts_mig_bug *bug;
	char label[512];
};

static void fw_bug(const struct fw_build *b, void *u)
{
	struct mig_fw *m = u;
	const struct facts_mig_bug *bug;
	const char *v = snap_get_str(b->pkg, "version") ?: snap_get_str(b->pkg, "dist_version");

	if (b->kind != FW_TORCH || !v || facts_mig_bug("torch", m->cvd, v, &bug) < 0)
		return;
	if (m->hits++ == 0) {
		m->bug = bug;
		snprintf(m->label, sizeof(m->label), "%s in %s", b->label, b->prefix);
	}
}

/* The MIG facts of every GPU in MIG mode and the MIG device nodes, as evidence. */
static void mig_evidence(struct finding *f, const struct snap_node *root,
			 const struct snap_node *devs)
{
	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *g = snap_at(devs, i);
		char key[96];

		if (!gpu_mig(g))
			continue;
		snprintf(key, sizeof(key), "driver.nvml.devices.%zu.mig_mode", i);
		finding_fact(f, key, snap_child(g, "mig_mode"));
		snprintf(key, sizeof(key), "driver.nvml.devices.%zu.mig_device_count", i);
		finding_fact(f, key, snap_child(g, "mig_device_count"));
	}
	finding_fact(f, "driver.device_nodes.nvidia_caps",
		     snap_get(root, "driver.device_nodes.nvidia_caps"));
}

/*
 * CUDA_VISIBLE_DEVICES unset with a GPU in MIG mode: CUDA enumerates every GPU not in MIG mode
 * and one MIG device (MIG User Guide, "CUDA Device Enumeration"), while NVML counts every
 * physical GPU. torch >= 1.13 takes NVML's count for torch.cuda.device_count() (PTDC in
 * framework_mig_bugs.tsv): more than CUDA has, and its lazy init asks the extra index for its
 * properties (pytorch/pytorch#131650). Without such a framework the process still sees one
 * MIG device of several: a limit, not a failure.
 */
static void mig_unset(struct rule_ctx *c, const struct snap_node *root,
		      const struct snap_node *devs)
{
	size_t n = snap_count(devs), plain = 0, migs = 0, cuda;
	const char *first_mig = NULL;
	struct mig_fw fw = { .cvd = "unset" };
	enum gpuenv_severity sev = GPUENV_SEVERITY_WARNING;
	struct finding *f;

	for (size_t i = 0; i < n; i++) {
		const struct snap_node *g = snap_at(devs, i), *md = snap_child(g, "mig_devices");

		if (!gpu_mig(g)) {
			plain++;
			continue;
		}
		if (!first_mig && snap_count(md))
			first_mig = snap_get_str(snap_at(md, 0), "uuid");
		migs += snap_count(md);
	}
	cuda = plain + (migs ? 1 : 0);
	/* NVML counts more GPUs than CUDA enumerates: a framework that could not be looked at
	 * may be one that takes NVML's count, so say so rather than pass it over. */
	if (n > cuda)
		fw_need_complete(c, root);
	fw_foreach(root, fw_bug, &fw);
	if (cuda == 0)
		sev = GPUENV_SEVERITY_ERROR;
	else if (fw.hits && n > cuda)
		sev = GPUENV_SEVERITY_ERROR;
	else if (migs <= 1)
		return; /* the process gets what there is */
	if (cuda == 0)
		f = rule_finding(c, sev, NULL,
				 "no CUDA device is visible to the process: its GPUs are in MIG "
				 "mode with no MIG device created");
	else if (sev == GPUENV_SEVERITY_ERROR)
		f = rule_finding(
			c, sev, NULL,
			"CUDA_VISIBLE_DEVICES is unset on a machine with %zu GPUs, %zu in "
			"MIG mode: CUDA enumerates %zu device%s (one MIG device%s), but %s "
			"counts %zu through NVML, and its lazy CUDA init asks device %zu "
			"for its properties (\"device >= 0 && device < num_gpus INTERNAL "
			"ASSERT FAILED\")",
			n, n - plain, cuda, cuda == 1 ? "" : "s",
			plain ? " and the GPUs not in MIG mode" : "", fw.label, n, cuda);
	else
		f = rule_finding(
			c, sev, NULL,
			"CUDA_VISIBLE_DEVICES is unset: of the %zu MIG devices created, the "
			"process sees one (the first CUDA enumerates); cuda:%zu and above "
			"fail with \"invalid device ordinal\"",
			migs, cuda);
	finding_fact(f, CVD, snap_get(root, CVD));
	mig_evidence(f, root, devs);
	if (fw.hits)
		finding_evidence(f, "facts.framework_mig_bugs", fw.bug->source,
				 "%s >= %s with CUDA_VISIBLE_DEVICES unset", fw.bug->framework,
				 fw.bug->first);
	if (first_mig)
		finding_fix(f,
			    "export CUDA_VISIBLE_DEVICES=%s   # one MIG device per process "
			    "(nvidia-smi -L lists the others)",
			    first_mig);
	else
		finding_fix(f,
			    "sudo nvidia-smi mig -cgi <profile> -C   # create a GPU instance "
			    "and its compute instance (nvidia-smi mig -lgip lists the profiles)");
	finding_rule_verify(f);
}

RULE_CHECK(check_mig_device_selection)
{
	const struct snap_node *cvd = snap_get(root, CVD);
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");
	_cleanup_strv_free_ char **parts = NULL;
	struct entry ent[64];
	size_t n = 0, first_bad = SIZE_MAX, migs = 0, gpus = 0, on_mig = 0, empty_mig = 0;
	bool any_mig = false, mig_ids = false;
	struct mig_fw fw = { .cvd = "mig-ids" };
	char why[1536] = "";
	enum gpuenv_severity sev = GPUENV_SEVERITY_WARNING;
	struct finding *f;

	if (snap_str(cvd) && strv_split(snap_str(cvd), ",", &parts) < 0)
		return;
	STRV_FOREACH(p, parts)
		mig_ids |= startswith(*p, "MIG-");
	if (!snap_present(devs)) {
		/* NVML not asked (no module loaded) cannot have MIG on; NVML that failed can.
		 * Unset, the variable asks for nothing: the unset check below is only made
		 * where NVML answered (the driver rules report an NVML that fails). */
		if (fact_is_failure(snap_state(devs)) && parts)
			rule_need(c, NULL, "the GPUs' MIG mode (NVML)", devs);
		return;
	}
	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *g = snap_at(devs, i), *mm = snap_child(g, "mig_mode");
		const struct snap_node *md = snap_child(g, "mig_devices");

		/* NOT_SUPPORTED: a GPU without MIG. An unreadable mode might be on. */
		if (!parts && ((snap_state(mm) != FACT_UNSUPPORTED && !snap_present(mm)) ||
			       (gpu_mig(g) && !snap_present(md))))
			return;
		if (snap_state(mm) != FACT_UNSUPPORTED &&
		    !rule_need(c, snap_get_str(g, "name"), "the GPU's MIG mode", mm))
			return;
		if (gpu_mig(g) &&
		    !rule_need(c, snap_get_str(g, "name"), "the GPU's MIG devices", md))
			return;
		any_mig |= gpu_mig(g);
	}
	if (!any_mig && !mig_ids)
		return;
	if (!snap_str(cvd)) {
		mig_unset(c, root, devs);
		return;
	}
	STRV_FOREACH(p, parts) {
		if (n == ARRAY_SIZE(ent))
			break;
		classify(devs, *p, &ent[n]);
		if (ent[n].kind == E_INVALID && first_bad == SIZE_MAX)
			first_bad = n;
		if (first_bad == SIZE_MAX) {
			size_t inst = snap_count(snap_child(ent[n].gpu, "mig_devices"));

			gpus += ent[n].kind == E_GPU;
			migs += ent[n].kind == E_MIG || (ent[n].kind == E_GPU_ON_MIG && inst);
			on_mig += ent[n].kind == E_GPU_ON_MIG;
			empty_mig += ent[n].kind == E_GPU_ON_MIG && !inst;
		}
		n++;
	}
	if (first_bad != SIZE_MAX) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l,
			 "; entry %zu of CUDA_VISIBLE_DEVICES %s: CUDA ignores it and every entry "
			 "after it",
			 first_bad + 1, ent[first_bad].why);
	}
	if (migs > 1) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l,
			 "; it names %zu MIG devices, but a CUDA process enumerates only one (the "
			 "first): cuda:1 and above fail with \"invalid device ordinal\"",
			 migs);
	}
	if (on_mig) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l,
			 "; %zu entr%s name%s a whole GPU that is in MIG mode: CUDA gives the "
			 "process %s, not the GPU",
			 on_mig, on_mig == 1 ? "y" : "ies", on_mig == 1 ? "s" : "",
			 empty_mig ? "nothing on a GPU with no MIG device created"
				   : "one MIG device of it");
	}
	if (mig_ids && migs) {
		/* A framework that could not be looked at may be one whose device count mis-reads
		 * MIG ids: said, not passed over. */
		fw_need_complete(c, root);
		fw_foreach(root, fw_bug, &fw);
		if (fw.hits) {
			size_t l = strlen(why);

			snprintf(why + l, sizeof(why) - l, "; %s: %s", fw.label, fw.bug->symptom);
		}
	}
	if (!why[0])
		return;
	if (gpus + (migs ? 1 : 0) == 0)
		sev = GPUENV_SEVERITY_ERROR;
	f = rule_finding(
		c, sev, NULL, "%s: %s",
		sev == GPUENV_SEVERITY_ERROR
			? "no CUDA device is visible to the process"
			: "CUDA_VISIBLE_DEVICES does not give the process what it asks for",
		why + 2);
	finding_fact(f, CVD, cvd);
	mig_evidence(f, root, devs);
	if (fw.hits) {
		finding_evidence(f, "facts.framework_mig_bugs", fw.bug->source,
				 "%s %s ≤ version < %s", fw.bug->framework, fw.bug->first,
				 fw.bug->fixed);
		finding_fix(f,
			    "pip install --upgrade 'torch>=%s'   # or unset CUDA_VISIBLE_DEVICES "
			    "when the process is given only its MIG device (a container, a "
			    "Slurm/Kubernetes allocation)",
			    fw.bug->fixed);
	}
	finding_rule_fix(f);
	finding_rule_verify(f);
}
