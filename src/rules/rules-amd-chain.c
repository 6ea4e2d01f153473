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

/* " (the loader's libamdhip64.so.6, from LD_LIBRARY_PATH)" on the release ld.so gives, into
 * buf; "" on any other. */
static const char *loader_note(const struct snap_node *r, char *buf, size_t len)
{
	const char *via = snap_get_str(r, "loader_via") ?: "?";

	if (!snap_get_bool_default(r, "loader_gives", false))
		return "";
	snprintf(buf, len, " (the loader's %s, from %s)",
		 snap_get_str(r, "loader_soname") ?: "runtime",
		 streq(via, "default") ? "the system directories" : via);
	return buf;
}

/* A distribution's packages: name the component and what pulled it in ("HIP runtime 5.7.1-3
 * at /usr (distribution package libamdhip64-5, required by librocrand1)"), not a ROCm install. */
static void distro_fact(struct gpuenv_doctor *d, const struct snap_node *r, const char *hip)
{
	char note[160];
	const char *pkg = snap_get_str(r, "package"), *by = snap_get_str(r, "required_by");

	diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "ROCm",
			   snap_source(snap_child(r, "version")) ?: snap_get_str(r, "path"),
			   "%s %s at %s (distribution package%s%s%s%s)%s%s%s",
			   snap_get_str(r, "component") ?: "ROCm runtime",
			   snap_get_str(r, "version") ?: "(version unknown)",
			   snap_get_str(r, "resolved_path") ?: snap_get_str(r, "path") ?: "?",
			   pkg ? " " : "s", pkg ?: "", by ? ", required by " : "", by ?: "",
			   loader_note(r, note, sizeof(note)), hip ? " · HIP " : "", hip ?: "");
}

void amd_runtime_facts(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *arr = snap_get(root, "runtime.rocm");

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *r = snap_at(arr, i);
		const char *hip = snap_get_str(r, "hip_version");
		char note[160];

		*absent = false;
		if (streq(snap_get_str(r, "kind") ?: "", "distro-packaged")) {
			distro_fact(d, r, hip);
			continue;
		}
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "ROCm",
				   snap_source(snap_child(r, "version")) ?: snap_get_str(r, "path"),
				   "%s at %s%s%s%s%s", snap_get_str(r, "version") ?: "(version unknown)",
				   snap_get_str(r, "resolved_path") ?: snap_get_str(r, "path") ?: "?",
				   snap_get_bool_default(r, "is_default", false) ? " (/opt/rocm)" : "",
				   loader_note(r, note, sizeof(note)), hip ? " · HIP " : "", hip ?: "");
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
	} else if (on_wsl2(root, NULL)) {
		/* WSL2 loads no amdgpu, nor should it: the Windows host's driver has the GPU */
		v->driver = diagnosis_strdupf(d, "the Windows host's (WSL2)");
		v->driver_source = diagnosis_strdupf(d, "/proc/sys/kernel/osrelease, /dev/dxg");
	} else {
		v->driver = diagnosis_strdupf(d, "amdgpu not loaded");
		v->driver_source = diagnosis_strdupf(d, "/proc/modules, /sys/module/amdgpu");
	}
}

/* One link judged for one GPU target. */
struct link_verdict {
	enum link_state state;
	char *why;
};

/* driver → runtime, what holds for every GPU: no KFD topology, or no GPU in it. true when
 * that decides the link. */
static bool kfd_link(struct gpuenv_doctor *d, const struct snap_node *root, const char *gfx,
		     struct link_verdict *ret)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");

	if (snap_kind(kfd) != SNAP_ARRAY && on_wsl2(root, NULL) &&
	    snap_get_bool_default(root, "host.wsl.dxg_device", false)) {
		/* WSL2 has no KFD: ROCm 7.2 and later reach the GPU through /dev/dxg and librocdxg
		 * (rules-amd-wsl.c), which no probe enumerates */
		ret->state = LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(d, "WSL2: no KFD; ROCm reaches the GPU through "
						"/dev/dxg (librocdxg), whose GPUs are not read");
		return true;
	}
	if (snap_kind(kfd) != SNAP_ARRAY) {
		char buf[160];

		fact_describe(kfd, buf, sizeof(buf));
		ret->state = snap_state(kfd) == FACT_ABSENT && gpus_count(root, gpu_is_amd)
				     ? LINK_BROKEN
				     : LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(d, "no KFD topology (%s): ROCm opens /dev/kfd", buf);
		return true;
	}
	if (!gfx) {
		ret->state = gpus_count(root, gpu_is_amd) ? LINK_BROKEN : LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(d, "KFD lists no GPU: ROCm finds no device");
		return true;
	}
	return false;
}

/* driver → runtime for one GPU: the ROCm release lists its target. */
static void rocm_link(struct gpuenv_doctor *d, const struct snap_node *root, const char *gfx,
		      const char *rocm, struct link_verdict *ret)
{
	const struct snap_node *unread = rocm ? NULL : amd_rocm_unread(root);
	const struct facts_rocm *row;
	const char *conf = NULL;
	int sup;

	if (unread) {
		ret->state = LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(
			d, "KFD lists %s; the ROCm release could not be read (%s)", gfx,
			snap_source(unread) ?: "?");
		return;
	}
	if (!rocm) {
		ret->state = LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(
			d,
			"KFD lists %s; no ROCm release installed to judge it against (a torch "
			"ROCm wheel brings its own libraries)",
			gfx);
		return;
	}
	sup = facts_rocm_supports_gfx(rocm, gfx, &conf);
	if (sup < 0) {
		ret->state = LINK_UNKNOWN;
		ret->why = diagnosis_strdupf(
			d, "KFD lists %s; ROCm %s: %s", gfx, rocm,
			sup == -ENODATA ? "the knowledge base has no target list for the release"
					: "not a release the knowledge base knows");
		return;
	}
	facts_rocm_release(rocm, &row);
	ret->state = sup ? LINK_OK : LINK_DEGRADED;
	ret->why = diagnosis_strdupf(
		d, "KFD lists %s; ROCm %s %s it (AMD's compatibility matrix, %s [%s])%s", gfx, rocm,
		sup ? "lists" : "does not list: unsupported, it may not work; not", row->as_listed,
		row->source, facts_unconfirmed(conf) ? " (row unconfirmed)" : "");
}

/* Every code object for gfx demands an sramecc/xnack setting the GPU (KFD node k) does not
 * have. */
static bool features_mismatch(const struct snap_node *root, const struct snap_node *tn,
			      const char *gfx, size_t k, const char **ret_tid)
{
	struct amd_features f;

	amd_node_features(root, snap_at(snap_get(root, "driver.amdgpu.kfd_nodes"), k), gfx, &f);
	return amd_targets_match(tn, gfx, &f, ret_tid) == AMD_TID_MISMATCH;
}

/* The framework end of a vendor chain: the build a plain `python` imports, its environment as
 * the source; false (the link unknown, "none found") when there is none. */
bool vendor_chain_framework(struct gpuenv_doctor *d, const struct snap_node *root,
			    struct vendor_chain *v, struct fw_build *b)
{
	if (!fw_first(root, b)) {
		v->link_state[1] = LINK_UNKNOWN;
		if (fw_others_not_judged(d, root, &v->framework, &v->link_why[1]))
			return false;
		v->framework = diagnosis_strdupf(
			d, "%s",
			snap_get(root, "framework.python_envs") ? "none found" : "not probed");
		v->link_why[1] = diagnosis_strdupf(d, "no torch, TensorFlow or jax found");
		return false;
	}
	v->framework_source = diagnosis_strdupf(d, "%s", b->prefix);
	return true;
}

/* runtime → framework, what holds for every GPU: no framework, not a ROCm build, no GPU
 * target, code objects not read. true when that decides the link (v->link_*[1] set); else
 * *tn: the build's code objects. */
static bool framework_link(struct gpuenv_doctor *d, const struct snap_node *root,
			   struct vendor_chain *v, const char *gfx, struct fw_build *b,
			   const struct snap_node **tn)
{
	char cuda[32];
	bool from_bi;

	if (!vendor_chain_framework(d, root, v, b))
		return true;
	if (!snap_str(fw_hip_version(b)) && fw_hip_unread(b)) {
		v->framework = diagnosis_strdupf(d, "%s (ROCm ?)", b->label);
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] =
			diagnosis_strdupf(d, "whether %s is a ROCm build could not be read (%s)",
					  b->label, snap_source(fw_hip_unread(b)) ?: "?");
		return true;
	}
	if (!snap_str(fw_hip_version(b))) {
		bool cu = fw_cuda_version(b, cuda, sizeof(cuda), NULL);

		v->framework = diagnosis_strdupf(d, "%s (%s)", b->label, cu ? "CUDA" : "not ROCm");
		v->link_state[1] = gpus_count(root, gpu_is_amd) ? LINK_BROKEN : LINK_UNKNOWN;
		v->link_why[1] = diagnosis_strdupf(d,
						   "%s is not a ROCm build: it cannot use the "
						   "AMD GPU",
						   b->label);
		return true;
	}
	v->framework = diagnosis_strdupf(d, "%s", b->label);
	if (!gfx) {
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] = diagnosis_strdupf(d, "no GPU target to look for in its code");
		return true;
	}
	*tn = fw_targets(b, &from_bi);
	if (snap_kind(*tn) != SNAP_ARRAY || snap_count(*tn) == 0) {
		v->link_state[1] = LINK_UNKNOWN;
		v->link_why[1] =
			diagnosis_strdupf(d, "the code objects of %s could not be read", b->label);
		return true;
	}
	return false;
}

/* runtime → framework for one GPU (KFD node k): the framework's code objects include the
 * target ROCm will load for it. */
static void code_link(struct gpuenv_doctor *d, const struct snap_node *root,
		      const struct fw_build *b, const struct snap_node *tn, const char *gfx,
		      size_t k, struct link_verdict *ret)
{
	const char *ovr_text = snap_get_str(root, "environment.HSA_OVERRIDE_GFX_VERSION");
	const char *tid = NULL;
	bool have_ovr;
	char ovr[32];

	have_ovr = amd_gfx_of_override(ovr_text, ovr, sizeof(ovr));
	if (!amd_targets_have_gfx(tn, have_ovr ? ovr : gfx)) {
		ret->state = LINK_BROKEN;
		ret->why = diagnosis_strdupf(d, "%s has no code object for %s%s%s", b->label,
					     have_ovr ? ovr : gfx,
					     have_ovr ? ", the target HSA_OVERRIDE_GFX_VERSION "
							"names for the "
						      : "",
					     have_ovr ? gfx : "");
	} else if (!have_ovr && features_mismatch(root, tn, gfx, k, &tid)) {
		ret->state = LINK_BROKEN;
		ret->why = diagnosis_strdupf(
			d,
			"%s has %s code only as %s, whose sramecc/xnack this GPU does not run with",
			b->label, gfx, tid);
	} else if (have_ovr && !streq(ovr, gfx)) {
		ret->state = LINK_DEGRADED;
		ret->why = diagnosis_strdupf(
			d,
			"%s runs its %s code on the %s GPU only through HSA_OVERRIDE_GFX_VERSION=%s "
			"(not supported by AMD)",
			b->label, ovr, gfx, ovr_text);
	} else {
		ret->state = LINK_OK;
		ret->why = diagnosis_strdupf(d, "%s carries a code object for %s", b->label, gfx);
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

/* One link of the chain from the verdicts of its n GPU targets: the worst state, and each
 * target's reason (each names its target). */
static void link_from_targets(struct gpuenv_doctor *d, struct vendor_chain *v, int link,
			      struct link_verdict *per, size_t n)
{
	struct strbuf why = STRBUF_INIT;

	v->link_state[link] = per[0].state;
	for (size_t i = 1; i < n; i++)
		v->link_state[link] = link_worst(v->link_state[link], per[i].state);
	if (n == 1) {
		v->link_why[link] = per[0].why;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_printf(&why, "%s%s", i ? "; " : "", per[i].why ?: "?");
		free(per[i].why);
	}
	v->link_why[link] = diagnosis_strdupf(d, "%s", strbuf_str(&why));
	strbuf_done(&why);
}

/* Each kind of GPU KFD lists judged on its own through both links (a machine with an APU's
 * iGPU and a discrete GPU: ROCm and the framework must carry code for each GPU the process
 * sees; hipErrorNoBinaryForGpu names "all current devices"). A GPU ROCR_VISIBLE_DEVICES or
 * HIP_VISIBLE_DEVICES hides from the process is not judged: that is how users keep ROCm off
 * an iGPU it has no code for. */
static void chain_targets(struct gpuenv_doctor *d, const struct snap_node *root,
			  struct vendor_chain *v, const char *rocm)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes"), *tn = NULL;
	struct link_verdict dr[VENDOR_TARGETS_MAX] = { 0 }, rf[VENDOR_TARGETS_MAX] = { 0 };
	const char *names[VENDOR_TARGETS_MAX];
	bool dr_done, rf_done;
	struct fw_build b;
	struct strbuf all = STRBUF_INIT;
	size_t n = 0;

	for (size_t k = 0; k < snap_count(kfd) && n < VENDOR_TARGETS_MAX; k++) {
		const char *gfx = amd_kfd_gfx_once(root, kfd, k);

		if (!gfx)
			continue;
		names[n] = gfx;
		dr_done = kfd_link(d, root, gfx, &dr[n]);
		if (!dr_done)
			rocm_link(d, root, gfx, rocm, &dr[n]);
		n++;
	}
	if (n == 0) {
		if (snap_kind(kfd) == SNAP_ARRAY && amd_kfd_gfx(root, NULL)) {
			/* GPUs KFD lists, none the process sees: runtime.visible-devices-none's */
			dr[0].state = LINK_BROKEN;
			dr[0].why = diagnosis_strdupf(
				d, "the device-selection variables leave the process none of the "
				   "GPUs KFD lists: ROCm finds no device");
		} else {
			kfd_link(d, root, NULL, &dr[0]);
		}
		v->link_state[0] = dr[0].state;
		v->link_why[0] = dr[0].why;
		framework_link(d, root, v, NULL, &b, &tn);
		return;
	}
	link_from_targets(d, v, 0, dr, n);
	rf_done = framework_link(d, root, v, names[0], &b, &tn);
	for (size_t i = 0, k = 0; !rf_done && k < snap_count(kfd) && i < n; k++) {
		if (!amd_kfd_gfx_once(root, kfd, k))
			continue;
		code_link(d, root, &b, tn, names[i], k, &rf[i]);
		i++;
	}
	if (!rf_done)
		link_from_targets(d, v, 1, rf, n);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&all, "%s%s", i ? ", " : "", names[i]);
	v->target = diagnosis_strdupf(d, "%s", strbuf_str(&all));
	strbuf_done(&all);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		v->targets[i].name = diagnosis_strdupf(d, "%s", names[i]);
		v->targets[i].state =
			link_worst(dr[i].state, rf_done ? v->link_state[1] : rf[i].state);
	}
	v->n_targets = n;
}

void amd_chain(struct gpuenv_doctor *d, const struct snap_node *root)
{
	const struct snap_node *rocm, *unread;
	struct vendor_chain *v;
	const char *rv;
	char note[160];

	if (!amd_present(root) || d->n_vendor_chains >= VENDOR_CHAINS_MAX)
		return;
	v = &d->vendor_chains[d->n_vendor_chains++];
	v->vendor = "amd";
	chain_driver(d, root, v);
	rocm = amd_chosen_rocm(root);
	rv = snap_get_str(rocm, "version");
	if (rocm) {
		bool distro = streq(snap_get_str(rocm, "kind") ?: "", "distro-packaged");

		v->runtime = diagnosis_strdupf(
			d, "%s %s",
			distro ? snap_get_str(rocm, "component") ?: "ROCm runtime" : "ROCm",
			rv ?: "(version unknown)");
		v->runtime_source = diagnosis_strdupf(d, "%s%s",
						      snap_get_str(rocm, "resolved_path")
							      ?: snap_get_str(rocm, "path"),
						      loader_note(rocm, note, sizeof(note)));
	} else if ((unread = amd_rocm_unread(root))) {
		v->runtime = diagnosis_strdupf(d, "ROCm ? (could not read)");
		v->runtime_source = diagnosis_strdupf(d, "%s", snap_source(unread) ?: "?");
	} else {
		v->runtime = diagnosis_strdupf(d, "ROCm none");
		v->runtime_source = diagnosis_strdupf(d, "/opt/rocm*, ROCM_PATH, %s",
						      "/usr/lib/x86_64-linux-gnu");
	}
	chain_targets(d, root, v, rv);
	v->target_state = link_worst(v->link_state[0], v->link_state[1]);
}
