// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The AMD checks of the driver and runtime layers, and what the AMD checks and the AMD chain
 * share: amdgpu failing to load its firmware (the kernel log's amdgpu lines, kernel-log.h),
 * a GPU bound to amdgpu that KFD does not list (/sys/class/kfd/kfd/topology, the interface
 * ROCm opens as /dev/kfd: drivers/gpu/drm/amd/amdkfd/kfd_topology.c), the hardware layer's
 * case of it, a GPU KFD skipped because its PCIe path rejects atomics (kfd_device.c), and an
 * HSA_OVERRIDE_GFX_VERSION that names a target of another GPU generation than the GPU's (the
 * value is "major.minor.stepping" of an LLVM AMDGPU processor, gfx90a = 9.0.10; ROCR reads it
 * in libhsakmt's topology.c and reports that target instead of the GPU's).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

/* HSA_OVERRIDE_GFX_VERSION "11.0.0" → "gfx1100" (major, then minor and stepping in hex, as
 * LLVM names AMDGPU processors: 9.0.10 → gfx90a). */
bool amd_gfx_of_override(const char *v, char *buf, size_t len)
{
	unsigned ma, mi, st;
	char tail;

	if (!v || sscanf(v, "%u.%u.%u%c", &ma, &mi, &st, &tail) != 3 || mi > 15 || st > 15)
		return false;
	snprintf(buf, len, "gfx%u%x%x", ma, mi, st);
	return true;
}

bool amd_targets_have_gfx(const struct snap_node *targets, const char *gfx)
{
	for (size_t i = 0; i < snap_count(targets); i++)
		if (streq(snap_get_str(snap_at(targets, i), "gfx") ?: "", gfx))
			return true;
	return false;
}

const char *amd_kfd_gfx(const struct snap_node *root, size_t *ret_index)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");

	for (size_t i = 0; snap_kind(kfd) == SNAP_ARRAY && i < snap_count(kfd); i++) {
		const char *gfx = snap_get_str(snap_at(kfd, i), "gfx");

		if (gfx) {
			if (ret_index)
				*ret_index = i;
			return gfx;
		}
	}
	return NULL;
}

const char *amd_kfd_gfx_seen(const struct snap_node *root, size_t *ret_index)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");

	for (size_t i = 0; snap_kind(kfd) == SNAP_ARRAY && i < snap_count(kfd); i++) {
		const char *gfx = snap_get_str(snap_at(kfd, i), "gfx");

		if (gfx && amd_kfd_node_visible(root, i)) {
			if (ret_index)
				*ret_index = i;
			return gfx;
		}
	}
	return NULL;
}

const char *amd_kfd_gfx_once(const struct snap_node *root, const struct snap_node *kfd, size_t k)
{
	const char *gfx = snap_get_str(snap_at(kfd, k), "gfx");

	if (!gfx || !amd_kfd_node_visible(root, k))
		return NULL;
	for (size_t j = 0; j < k; j++)
		if (streq(snap_get_str(snap_at(kfd, j), "gfx") ?: "", gfx) &&
		    amd_kfd_node_visible(root, j))
			return NULL;
	return gfx;
}

const struct snap_node *amd_chosen_rocm(const struct snap_node *root)
{
	const struct snap_node *arr = snap_get(root, "runtime.rocm");

	/* The release ld.so gives the programs (LD_LIBRARY_PATH, ld.so.cache) is the one they
	 * run on, whatever /opt/rocm names (src/probe/rocm-loader.c). */
	for (size_t i = 0; i < snap_count(arr); i++)
		if (snap_get_bool_default(snap_at(arr, i), "loader_gives", false))
			return snap_at(arr, i);
	for (size_t i = 0; i < snap_count(arr); i++)
		if (snap_get_bool_default(snap_at(arr, i), "is_default", false))
			return snap_at(arr, i);
	return snap_count(arr) == 1 ? snap_at(arr, 0) : NULL;
}

const struct snap_node *amd_rocm_unread(const struct snap_node *root)
{
	const struct snap_node *rocm = amd_chosen_rocm(root);
	const struct snap_node *rej = snap_get(root, "runtime.rocm_rejected");
	const struct snap_node *all = snap_get(root, "runtime.rocm");

	if (rocm && snap_get_str(rocm, "version"))
		return NULL;
	if (rocm && fact_is_failure(snap_state(snap_child(rocm, "version"))))
		return snap_child(rocm, "version");
	for (size_t i = 0; i < snap_count(rej); i++)
		if (fact_is_failure(snap_state(snap_child(snap_at(rej, i), "toolkit"))))
			return snap_child(snap_at(rej, i), "toolkit");
	for (size_t i = 0; i < snap_count(all); i++)
		if (fact_is_failure(snap_state(snap_child(snap_at(all, i), "version"))))
			return snap_child(snap_at(all, i), "version");
	return NULL;
}

/* The major of a gfx name: "gfx90a" → 9, "gfx1100" → 11 (the last two characters are the
 * minor and the stepping). */
static bool gfx_major(const char *gfx, unsigned *ret)
{
	size_t n = gfx ? strlen(gfx) : 0;
	unsigned v = 0;

	if (n < 6 || !startswith(gfx, "gfx"))
		return false;
	for (size_t i = 3; i < n - 2; i++) {
		if (gfx[i] < '0' || gfx[i] > '9')
			return false;
		v = v * 10 + (unsigned)(gfx[i] - '0');
	}
	*ret = v;
	return true;
}

/* ---- driver.amdgpu-firmware-failed --------------------------------------------------- */

RULE_CHECK(check_amdgpu_firmware_failed)
{
	const struct snap_node *src = snap_get(root, "driver.kernel_log.source");
	const struct snap_node *a = snap_get(root, "driver.kernel_log.amdgpu");
	int64_t fw = 0, fatal = 0;
	bool unbound = false;
	struct finding *f;

	if (gpus_count(root, gpu_is_amd) == 0 && !snap_get(root, "driver.kernel_log.amdgpu"))
		return;
	if (!rule_need(c, NULL, "the kernel log", src))
		return;
	if (!snap_get_int(a, "firmware_failures", &fw) || fw == 0)
		return;
	snap_get_int(a, "init_failures", &fatal);
	/* no init failure in the log: whether a GPU was left unbound is the PCI bus's to say;
	 * unread, the rule could not tell (never "the GPU came up") */
	if (!fatal &&
	    !rule_need(c, NULL, "hardware.pci_devices", snap_get(root, "hardware.pci_devices")))
		return;
	for (size_t i = 0; i < snap_count(snap_get(root, "hardware.gpus")); i++) {
		const struct snap_node *g = snap_at(snap_get(root, "hardware.gpus"), i);

		unbound |= gpu_is_amd(g) && snap_state(snap_child(g, "driver")) == FACT_ABSENT;
	}
	f = rule_finding(c, fatal || unbound ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_WARNING,
			 NULL, "amdgpu could not load %s%s (%" PRId64 " firmware line(s) in %s)%s",
			 snap_get_str(a, "firmware_file") ?: "a firmware file",
			 snap_get_str(a, "firmware_file") ? "" : " (the line names none)", fw,
			 snap_str(src) ?: "the kernel log",
			 fatal	   ? ": the GPU's init failed, it is not usable"
			 : unbound ? ": an AMD GPU has no driver bound"
				   : ": the GPU came up; what the file drives may be off");
	finding_fact(f, "driver.kernel_log.amdgpu.firmware_message",
		     snap_child(a, "firmware_message"));
	if (fatal)
		finding_fact(f, "driver.kernel_log.amdgpu.init_message",
			     snap_child(a, "init_message"));
	if (snap_get_str(a, "firmware_file"))
		finding_fix(f,
			    "ls -l /lib/firmware/%s*   # the file must be there (or in "
			    "/lib/firmware/updates/ from amdgpu-dkms-firmware)",
			    snap_get_str(a, "firmware_file"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- driver.amdgpu-no-kfd ------------------------------------------------------------ */

RULE_CHECK(check_amdgpu_no_kfd)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *bound = NULL;
	const char *kmsg = snap_get_str(root, "driver.kernel_log.amdgpu.kfd_message");
	struct finding *f;
	size_t n = 0;
	char buf[160];

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_is_amd(snap_at(gpus, i)) &&
		    streq(snap_get_str(snap_at(gpus, i), "driver") ?: "", "amdgpu")) {
			bound = bound ?: snap_at(gpus, i);
			n++;
		}
	if (!bound)
		return;
	if (snap_kind(kfd) != SNAP_ARRAY && snap_state(kfd) != FACT_ABSENT) {
		rule_need(c, NULL, "the KFD topology", kfd);
		return;
	}
	if (amd_kfd_gfx(root, NULL))
		return;
	fact_describe(kfd, buf, sizeof(buf));
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "%zu AMD GPU(s) bound to amdgpu (%s), but %s: ROCm finds no GPU "
			 "(\"Unable to open /dev/kfd\", hipErrorNoDevice)%s%s",
			 n, snap_get_str(bound, "bus_id") ?: "?",
			 snap_kind(kfd) == SNAP_ARRAY ? "the KFD topology lists no GPU node"
						      : "the kernel has no KFD",
			 kmsg ? "; the kernel log says: " : "", kmsg ?: "");
	finding_fact(f, "driver.amdgpu.kfd_nodes", kfd);
	if (kmsg)
		finding_fact(f, "driver.kernel_log.amdgpu.kfd_message",
			     snap_get(root, "driver.kernel_log.amdgpu.kfd_message"));
	/* a KFD whose device-id table lacks the GPU: the release decides, not the kernel's
	 * configuration (AMD added RX 580 6fdf in ROCm 2.5: ROCm/legacy-rocm-build#783) */
	if (kmsg && strstr(kmsg, "missing in supported_devices"))
		finding_fix(f, "# this amdgpu/KFD release has no entry for the GPU's device id: a "
			       "ROCm release (amdgpu-dkms) that lists the GPU, if one does (ROCm's "
			       "GPU support list)");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- hardware.pcie-atomics-unsupported ------------------------------------------------- */

/* KFD GPU nodes (those with a gfx target). */
static size_t kfd_gpu_nodes(const struct snap_node *kfd)
{
	size_t n = 0;

	for (size_t i = 0; i < snap_count(kfd); i++)
		n += snap_present(snap_child(snap_at(kfd, i), "gfx"));
	return n;
}

RULE_CHECK(check_pcie_atomics_unsupported)
{
	const struct snap_node *a = snap_get(root, "driver.kernel_log.amdgpu");
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const char *msg = snap_get_str(a, "atomics_message");
	const char *id = snap_get_str(a, "atomics_pci_id") ?: "?";
	int64_t fw = -1, need = -1;
	size_t bound = 0;
	struct finding *f;

	if (!msg)
		return;
	for (size_t i = 0; i < snap_count(gpus); i++)
		bound += gpu_is_amd(snap_at(gpus, i)) &&
			 streq(snap_get_str(snap_at(gpus, i), "driver") ?: "", "amdgpu");
	if (snap_kind(kfd) != SNAP_ARRAY && snap_state(kfd) != FACT_ABSENT) {
		rule_need(c, NULL, "the KFD topology", kfd);
		return;
	}
	/* KFD lists every GPU amdgpu drives: the line is of a boot or a slot that is past */
	if (bound == 0 || kfd_gpu_nodes(kfd) >= bound)
		return;
	snap_get_int(a, "atomics_mec_firmware", &fw);
	snap_get_int(a, "atomics_firmware_needed", &need);
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "KFD skipped the AMD GPU %s because the PCIe path to it does not "
			 "complete atomic operations (the kernel log: \"%s\"): amdgpu drives "
			 "it, but ROCm gets no GPU%s",
			 id, msg,
			 need > 0    ? "; its MEC firmware is older than the one KFD runs it "
				       "with without atomics"
			 : need == 0 ? "; no firmware lifts it for this GPU, which always "
				       "needs atomics"
				     : "");
	finding_fact(f, "driver.kernel_log.amdgpu.atomics_message",
		     snap_child(a, "atomics_message"));
	finding_fact(f, "driver.amdgpu.kfd_nodes", kfd);
	if (need > 0)
		finding_fix(f,
			    "# MEC firmware %" PRId64 " < %" PRId64 ": install newer amdgpu "
			    "firmware (amdgpu-dkms-firmware from AMD's repository, or the "
			    "distribution's linux-firmware / firmware-amd-graphics), then "
			    "update the initramfs and reboot",
			    fw, need);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- runtime.hsa-override-wrong-target ----------------------------------------------- */

/* What the override (as: the target it names) does to a GPU whose own target is gfx: 2 loads
 * another generation's code (error), 1 takes a target ROCm supports off its own code (warning),
 * 0 neither. */
static int override_harm(const struct snap_node *root, const char *as, const char *gfx)
{
	const struct snap_node *rocm;
	const char *rv, *conf = NULL;
	unsigned gm, om;

	if (streq(as, gfx))
		return 0; /* names the GPU's own target: changes nothing */
	if (gfx_major(gfx, &gm) && gfx_major(as, &om) && gm != om)
		return 2;
	if ((rocm = amd_chosen_rocm(root)) && (rv = snap_get_str(rocm, "version")) &&
	    facts_rocm_supports_gfx(rv, gfx, &conf) == 1)
		return 1;
	return 0; /* a same-generation override of an unlisted GPU: the framework rule's */
}

RULE_CHECK(check_hsa_override_wrong_target)
{
	const struct snap_node *ovr = snap_get(root, "environment.HSA_OVERRIDE_GFX_VERSION");
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct snap_node *rocm;
	const char *gfx, *first, *rv;
	char as[32], key[96], besides[96] = "";
	size_t k = 0;
	int harm = 0;
	struct finding *f;

	if (!snap_present(ovr))
		return;
	/* the first GPU the process gets: an iGPU HIP_VISIBLE_DEVICES hides is not the one */
	first = gfx = amd_kfd_gfx_seen(root, &k);
	if (!gfx && amd_kfd_gfx(root, NULL))
		return; /* GPUs, none the process sees: runtime.visible-devices-none's */
	if (!gfx) {
		if (!rule_need_known(c, NULL, "the KFD topology", kfd))
			return;
		rule_skip(c, NULL, "no GPU in the KFD topology to compare the override with");
		return;
	}
	if (!amd_gfx_of_override(snap_str(ovr), as, sizeof(as))) {
		snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "HSA_OVERRIDE_GFX_VERSION=%s is not major.minor.stepping "
				 "(\"10.3.0\"): ROCm takes it for no GPU it knows",
				 snap_str(ovr));
		goto facts;
	}
	/* The override is every GPU's, not the first one's (ROCm/legacy-rocm-build#5696: 12.0.1
	 * set for an R9700 made the 8060S beside it a gfx1201 too): the GPU it harms most. */
	for (size_t i = 0; snap_kind(kfd) == SNAP_ARRAY && i < snap_count(kfd); i++) {
		const char *g = amd_kfd_gfx_once(root, kfd, i);
		int h = g ? override_harm(root, as, g) : 0;

		if (h > harm) {
			harm = h;
			gfx = g;
			k = i;
		}
	}
	if (!harm)
		return;
	if (!streq(gfx, first) || streq(as, first))
		snprintf(besides, sizeof(besides), " (it is every GPU's: the %s beside it%s)",
			 first, streq(as, first) ? " is the one it names" : " too");
	snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
	if (harm == 2) {
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"HSA_OVERRIDE_GFX_VERSION=%s makes ROCm load %s code on this %s GPU%s, "
			"another generation's instructions: memory access faults or a hung "
			"GPU (\"Memory access fault by GPU node-N … Reason: unknown\")",
			snap_str(ovr), as, gfx, besides);
	} else {
		rocm = amd_chosen_rocm(root);
		rv = snap_get_str(rocm, "version");
		f = rule_finding(
			c, GPUENV_SEVERITY_WARNING, NULL,
			"HSA_OVERRIDE_GFX_VERSION=%s makes ROCm load %s code on this %s GPU%s, "
			"which ROCm %s supports as it is: the override only takes its own "
			"code away",
			snap_str(ovr), as, gfx, besides, rv);
		finding_fact(f, "runtime.rocm.version", snap_child(rocm, "version"));
	}
facts:
	finding_fact(f, "environment.HSA_OVERRIDE_GFX_VERSION", ovr);
	finding_fact(f, key, snap_get(root, key));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
