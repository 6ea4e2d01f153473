// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The AMD parts of a diagnosis that are not findings: the ROCm installations as the runtime
 * layer's facts (runtime.rocm[], docs/snapshot-schema.md), and the AMD chain "amdgpu 6.7.0 ·
 * ROCm 6.2.0 · torch 2.5.1+rocm6.2 (gfx1100 ✓)": the kernel driver and its KFD topology, the
 * ROCm release the system uses, and the framework a plain `python` imports, the GPU's gfx
 * target judged through them: listed by that release in AMD's compatibility matrix
 * (facts/rocm.tsv), and among the code objects of the framework's library. Computed here so
 * that the renderers only print.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

/* A distribution's packages: name the component and what pulled it in ("HIP runtime 5.7.1-3
 * at /usr (distribution package libamdhip64-5, required by librocrand1)"), not a ROCm install. */
static void distro_fact(struct gpuenv_doctor *d, const struct snap_node *r, const char *hip)
{
	const char *pkg = snap_get_str(r, "package"), *by = snap_get_str(r, "required_by");

	diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "ROCm",
			   snap_source(snap_child(r, "version")) ?: snap_get_str(r, "path"),
			   "%s %s at %s (distribution package%s%s%s%s)%s%s",
			   snap_get_str(r, "component") ?: "ROCm runtime",
			   snap_get_str(r, "version") ?: "(version unknown)",
			   snap_get_str(r, "resolved_path") ?: snap_get_str(r, "path") ?: "?",
			   pkg ? " " : "s", pkg ?: "", by ? ", required by " : "", by ?: "",
			   hip ? " · HIP " : "", hip ?: "");
}

void amd_runtime_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *arr = snap_get(root, "runtime.rocm");

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *r = snap_at(arr, i);
		const char *hip = snap_get_str(r, "hip_version");

		*absent = false;
		if (streq(snap_get_str(r, "kind") ?: "", "distro-packaged")) {
			distro_fact(d, r, hip);
			continue;
		}
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "ROCm",
				   snap_source(snap_child(r, "version")) ?: snap_get_str(r, "path"),
				   "%s at %s%s%s%s", snap_get_str(r, "version") ?: "(version unknown)",
				   snap_get_str(r, "resolved_path") ?: snap_get_str(r, "path") ?: "?",
				   snap_get_bool_default(r, "is_default", false) ? " (/opt/rocm)" : "",
				   hip ? " · HIP " : "", hip ?: "");
	}
}

/* A ROCm that counts as an AMD stack: AMD's release, or distribution packages with HIP's
 * development files or that no other package required (installed by hand). Runtime
 * libraries another package pulled in as a dependency, with no GPU, module or KFD beside
 * them, are listed in the runtime layer but are no reason for an AMD chain. */
static bool rocm_chosen(const struct snap_node *root)
{
	const struct snap_node *arr = snap_get(root, "runtime.rocm");

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *r = snap_at(arr, i);

		if (!streq(snap_get_str(r, "kind") ?: "", "distro-packaged") ||
		    snap_get_str(r, "hip_version") ||
		    snap_state(snap_child(r, "required_by")) == FACT_ABSENT)
			return true;
	}
	return false;
}

/* The AMD stack is on the machine: a GPU, the module, KFD, a ROCm release or a ROCm build. */
static bool amd_present(const struct snap_node *root)
{
	struct fw_build b;

	return gpus_count(root, gpu_is_amd) > 0 ||
	       snap_get_bool_default(root, "driver.kernel_modules.amdgpu", false) ||
	       snap_present(snap_get(root, "driver.amdgpu.module_version")) ||
	       amd_kfd_gfx(root, NULL) || rocm_chosen(root) ||
	       (fw_first(root, &b) && snap_str(fw_hip_version(&b)));
}

static void chain_driver(struct gpuenv_doctor *d, const struct snap_node *root,
			 struct vendor_chain *v)
{
	const struct snap_node *ver = snap_get(root, "driver.amdgpu.module_version");
	const char *rel = snap_get_str(root, "host.kernel_release");

	if (snap_present(ver)) {
		v->driver = diagnosis_strdupf(d, "amdgpu %s", snap_str(ver));
		v->driver_source = diagnosis_strdupf(d, "%s", snap_source(ver));
	} else if (snap_get_bool_default(root, "driver.kernel_modules.amdgpu", false)) {
		/* The kernel's own amdgpu has no version file: the kernel release is its version. */
		v->driver = diagnosis_strdupf(d, "amdgpu (kernel %s)", rel ?: "?");
		v->driver_source =
			diagnosis_strdupf(d, "/proc/modules; /proc/sys/kernel/osrelease");
	} else if (amd_kfd_gfx(root, NULL)) {
		v->driver = diagnosis_strdupf(d, "amdgpu (kernel %s)", rel ?: "?");
		v->driver_source = diagnosis_strdupf(d, "/sys/class/kfd/kfd/topology/nodes");
	} else {
		v->driver = diagnosis_strdupf(d, "amdgpu not loaded");
		v->driver_source = diagnosis_strdupf(d, "/proc/modules, /sys/module/amdgpu");
	}
}

/* driver → runtime: KFD lists the GPU, and the ROCm release lists its target. */
static void link_driver_runtime(struct gpuenv_doctor *d, const struct snap_node *root,
				struct vendor_chain *v, const char *gfx, const char *rocm)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct facts_rocm *row;
	const char *conf = NULL;
	int sup;

	if (snap_kind(kfd) != SNAP_ARRAY) {
		char buf[160];

		fact_describe(kfd, buf, sizeof(buf));
		v->link_state[0] = snap_state(kfd) == FACT_ABSENT && gpus_count(root, gpu_is_amd)
					   ? LINK_BROKEN
					   : LINK_UNKNOWN;
		v->link_why[0] =
			diagnosis_strdupf(d, "no KFD topology (%s): ROCm opens /dev/kfd", buf);
		return;
	}
	if (!gfx) {
		v->link_state[0] = gpus_count(root, gpu_is_amd) ? LINK_BROKEN : LINK_UNKNOWN;
		v->link_why[0] = diagnosis_strdupf(d, "KFD lists no GPU: ROCm finds no device");
		return;
	}
	if (!rocm) {
		v->link_state[0] = LINK_UNKNOWN;
		v->link_why[0] = diagnosis_strdupf(
			d,
			"KFD lists %s; no ROCm release installed to judge it against (a torch "
			"ROCm wheel brings its own libraries)",
			gfx);
		return;
	}
	sup = facts_rocm_supports_gfx(rocm, gfx, &conf);
	if (sup < 0) {
		v->link_state[0] = LINK_UNKNOWN;
		v->link_why[0] = diagnosis_strdupf(
			d, "KFD lists %s; ROCm %s: %s", gfx, rocm,
			sup == -ENODATA ? "the knowledge base has no target list for the release"
					: "not a release the knowledge base knows");
		return;
	}
	facts_rocm_release(rocm, &row);
	v->link_state[0] = sup ? LINK_OK : LINK_DEGRADED;
	v->link_why[0] = diagnosis_strdupf(
		d, "KFD lists %s; ROCm %s %s it (AMD's compatibility matrix, %s [%s])%s", gfx, rocm,
		sup ? "lists" : "does not list: unsupported, it may not work; not", row->as_listed,
		row->source, facts_unconfirmed(conf) ? " (row unconfirmed)" : "");
}

/* Every code object for gfx demands an sramecc/xnack setting the GPU does not have. */
static bool features_mismatch(const struct snap_node *root, const struct snap_node *tn,
			      const char *gfx, const char **ret_tid)
{
	struct amd_features f;
	size_t k = 0;

	if (!amd_kfd_gfx(root, &k))
		return false;
	amd_node_features(root, snap_at(snap_get(root, "driver.amdgpu.kfd_nodes"), k), gfx, &f);
	return amd_targets_match(tn, gfx, &f, ret_tid) == AMD_TID_MISMATCH;
}

/* The framework end of a vendor chain: the build a plain `python` imports, its environment as
 * the source; false (the link unknown, "none found") when there is none. */
bool vendor_chain_framework(struct gpuenv_doctor *d, const struct snap_node *root,
			    struct vendor_chain *v, struct fw_build *b)
{
	if (!fw_first(root, b)) {
		v->framework = diagnosis_strdupf(
			d, "%s",
			snap_get(root, "framework.python_envs") ? "none found" : "not probed");
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] = diagnosis_strdupf(d, "no torch, TensorFlow or jax found");
		return false;
	}
	v->framework_source = diagnosis_strdupf(d, "%s", b->prefix);
	return true;
}

/* runtime → framework: the framework's code objects include the target ROCm will load. */
static void link_runtime_framework(struct gpuenv_doctor *d, const struct snap_node *root,
				   struct vendor_chain *v, const char *gfx)
{
	const char *ovr_text = snap_get_str(root, "environment.HSA_OVERRIDE_GFX_VERSION");
	const struct snap_node *tn;
	struct fw_build b;
	char cuda[32], ovr[32];
	const char *tid = NULL;
	bool from_bi, have_ovr;

	if (!vendor_chain_framework(d, root, v, &b))
		return;
	if (!snap_str(fw_hip_version(&b))) {
		bool cu = fw_cuda_version(&b, cuda, sizeof(cuda), NULL);

		v->framework = diagnosis_strdupf(d, "%s (%s)", b.label, cu ? "CUDA" : "not ROCm");
		v->link_state[1] = gpus_count(root, gpu_is_amd) ? LINK_BROKEN : LINK_UNKNOWN;
		v->link_why[1] = diagnosis_strdupf(d,
						   "%s is not a ROCm build: it cannot use the "
						   "AMD GPU",
						   b.label);
		return;
	}
	tn = fw_targets(&b, &from_bi);
	have_ovr = amd_gfx_of_override(ovr_text, ovr, sizeof(ovr));
	if (!gfx) {
		v->framework = diagnosis_strdupf(d, "%s", b.label);
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] = diagnosis_strdupf(d, "no GPU target to look for in its code");
		return;
	}
	v->framework = diagnosis_strdupf(d, "%s", b.label);
	if (snap_kind(tn) != SNAP_ARRAY || snap_count(tn) == 0) {
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] =
			diagnosis_strdupf(d, "the code objects of %s could not be read", b.label);
		return;
	}
	if (!amd_targets_have_gfx(tn, have_ovr ? ovr : gfx)) {
		v->link_state[1] = LINK_BROKEN;
		v->link_why[1] = diagnosis_strdupf(
			d, "%s has no code object for %s%s%s", b.label, have_ovr ? ovr : gfx,
			have_ovr ? ", the target HSA_OVERRIDE_GFX_VERSION "
				   "names for the "
				 : "",
			have_ovr ? gfx : "");
	} else if (!have_ovr && features_mismatch(root, tn, gfx, &tid)) {
		v->link_state[1] = LINK_BROKEN;
		v->link_why[1] = diagnosis_strdupf(
			d,
			"%s has %s code only as %s, whose sramecc/xnack this GPU does not run with",
			b.label, gfx, tid);
	} else if (have_ovr && !streq(ovr, gfx)) {
		v->link_state[1] = LINK_DEGRADED;
		v->link_why[1] = diagnosis_strdupf(
			d,
			"%s runs its %s code on the %s GPU only through HSA_OVERRIDE_GFX_VERSION=%s "
			"(not supported by AMD)",
			b.label, ovr, gfx, ovr_text);
	} else {
		v->link_state[1] = LINK_OK;
		v->link_why[1] =
			diagnosis_strdupf(d, "%s carries a code object for %s", b.label, gfx);
	}
}

enum link_state link_worst(enum link_state a, enum link_state b)
{
	/* broken > degraded > unknown > ok: an unknown link never makes the target ✓ */
	static const int rank[] = {
		[LINK_OK] = 0, [LINK_UNKNOWN] = 1, [LINK_DEGRADED] = 2, [LINK_BROKEN] = 3
	};

	return rank[a] >= rank[b] ? a : b;
}

void amd_chain(struct gpuenv_doctor *d, const struct snap_node *root)
{
	const struct snap_node *rocm;
	struct vendor_chain *v;
	const char *gfx, *rv;

	if (!amd_present(root) || d->n_vendor_chains >= VENDOR_CHAINS_MAX)
		return;
	v = &d->vendor_chains[d->n_vendor_chains++];
	v->vendor = "amd";
	gfx = amd_kfd_gfx(root, NULL);
	chain_driver(d, root, v);
	rocm = amd_chosen_rocm(root);
	rv = snap_get_str(rocm, "version");
	if (rocm) {
		bool distro = streq(snap_get_str(rocm, "kind") ?: "", "distro-packaged");

		v->runtime = diagnosis_strdupf(
			d, "%s %s",
			distro ? snap_get_str(rocm, "component") ?: "ROCm runtime" : "ROCm",
			rv ?: "(version unknown)");
		v->runtime_source = diagnosis_strdupf(
			d, "%s", snap_get_str(rocm, "resolved_path") ?: snap_get_str(rocm, "path"));
	} else {
		v->runtime = diagnosis_strdupf(d, "ROCm none");
		v->runtime_source = diagnosis_strdupf(d, "/opt/rocm*, ROCM_PATH, %s",
						      "/usr/lib/x86_64-linux-gnu");
	}
	if (gfx)
		v->target = diagnosis_strdupf(d, "%s", gfx);
	link_driver_runtime(d, root, v, gfx, rv);
	link_runtime_framework(d, root, v, gfx);
	v->target_state = link_worst(v->link_state[0], v->link_state[1]);
}
