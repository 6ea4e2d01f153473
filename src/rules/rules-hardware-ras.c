// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hardware.ecc-uncorrectable on AMD and Intel GPUs: the uncorrectable error totals that the
 * vendor sessions read (docs/snapshot-schema.md) judged like NVML's volatile count.
 *   - AMD: driver.amdsmi.devices[].ecc_uncorrectable, amdsmi_get_gpu_total_ecc_count (the
 *     sum over the GPU's RAS blocks of amdgpu's error counters, "AMDGPU RAS sysfs Error
 *     Count Interface", https://docs.kernel.org/gpu/amdgpu/ras.html);
 *   - Intel: driver.level_zero.devices[].ras_uncorrectable_hardware, Sysman's uncorrectable
 *     error sets without the reset, programming and driver categories (zes_ras_error_cat_t,
 *     Level Zero Sysman specification: engine resets, workloads' own exceptions and driver
 *     communication errors are no fault of the hardware).
 * An AMD board without ECC (unsupported, absent) is no answer. An Intel GPU with no
 * uncorrectable error set (absent, or the enumeration unsupported) is a skip for that GPU:
 * Sysman then counts nothing, which is not a count of 0 (an Arc Pro B60 with ECC on exposes
 * none, intel/compute-runtime#993, and xpu-smi prints zeros for it, intel/xpumanager#166). A
 * count the session could not read is a skip for that GPU, and a session that failed before listing
 * GPUs a skip naming why, both of the whole rule where no GPU at all could be judged; a
 * session that did not run leaves the caller's NVML skip. amdgpu's own RAS report of an
 * uncorrectable error in the kernel log (amdgpu_ras.c) is a finding without any session.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rules/rules-internal.h"

#define AMD_KEY	  "ecc_uncorrectable"
#define INTEL_KEY "ras_uncorrectable_hardware"

/* The session ran: its init is more than "not called" (--no-vendor, no such driver). */
static bool session_ran(const struct snap_node *session)
{
	const struct snap_node *init = snap_child(session, "init");

	return init && snap_state(init) != FACT_UNPROBED;
}

/* No count at all: unsupported or absent (for AMD: no ECC; for Intel: no error set). */
static bool no_count(const struct snap_node *v)
{
	return v && (snap_state(v) == FACT_UNSUPPORTED || snap_state(v) == FACT_ABSENT);
}

/* A GPU of the session whose count can be judged: read, or (AMD: none_answers) known to
 * have none. */
static bool judgeable(const struct snap_node *session, const char *key, bool none_answers)
{
	const struct snap_node *devs = snap_child(session, "devices");

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *v = snap_child(snap_at(devs, i), key);

		if (snap_state(v) == FACT_PRESENT || (none_answers && no_count(v)))
			return true;
	}
	return false;
}

/* The skip of an Intel GPU (subject) whose Sysman has no uncorrectable error set, or (NULL)
 * of the whole rule where no Intel GPU has one; v: that GPU's (the first GPU's) count. */
static void intel_no_ras_skip(struct rule_ctx *c, const char *subject, const struct snap_node *v)
{
	char state[200];

	fact_describe(v, state, sizeof(state));
	if (subject)
		rule_skip(c, subject,
			  "Level Zero Sysman gives no uncorrectable RAS error set for %s (%s), so "
			  "its uncorrectable errors cannot be counted; that is not a count of 0",
			  subject, state);
	else
		rule_skip(
			c, NULL,
			"Level Zero Sysman gives no uncorrectable RAS error set for any Intel GPU "
			"(GPU 0: %s), so their uncorrectable errors cannot be counted; that is "
			"not a count of 0",
			state);
}

/* Why a session that ran gave no count: it failed or listed no GPU (a skip for `subject`,
 * NULL: the whole rule), or the first GPU's count could not be read (only for the whole
 * rule: per GPU, the checks below say it). false when it gave a count or did not run. */
static bool session_skip(struct rule_ctx *c, const struct snap_node *session, const char *base,
			 const char *what, const char *key, bool none_answers, const char *subject)
{
	const struct snap_node *devs = snap_child(session, "devices");
	char why[300];

	if (!session_ran(session))
		return false;
	if (snap_count(devs) == 0) {
		const struct snap_node *init = snap_child(session, "init");
		const struct snap_node *failed = snap_present(init) ? devs : init;
		bool listed = snap_present(init) && (!devs || snap_kind(devs) == SNAP_ARRAY);
		char state[260];

		if (listed)
			snprintf(why, sizeof(why), "%s lists no GPU", base);
		else {
			/* init failed, or the GPUs could not be listed */
			fact_describe(failed, state, sizeof(state));
			snprintf(why, sizeof(why), "%s.%s: %s", base,
				 snap_present(init) ? "devices" : "init", state);
		}
		/* a session that failed (or was not called: /sys/module/amdgpu could not be
		 * looked at) counted nothing: its GPUs' errors are unknown, never none */
		rule_skip_failed(c, subject, listed ? FACT_PRESENT : snap_state(failed),
				 "no GPU health from %s (%s)", what, why);
		return true;
	}
	if (subject || judgeable(session, key, none_answers))
		return false;
	/* the first GPU whose count could not be read says why; else no GPU has an error set */
	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *v = snap_child(snap_at(devs, i), key);

		if (none_answers || !no_count(v)) {
			rule_need(c, NULL, key, v);
			return true;
		}
	}
	intel_no_ras_skip(c, NULL, snap_child(snap_at(devs, 0), key));
	return true;
}

static void amd_ras(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *devs = snap_get(root, "driver.amdsmi.devices");

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i), *v;
		const char *bus = snap_get_str(d, "bus_id") ?: "bus unknown";
		int64_t ue = 0, deferred = 0;
		struct finding *f;
		char label[200], name[96];

		snprintf(label, sizeof(label), "AMD GPU %s (%s)", bus,
			 snap_get_str(d, "market_name") ?: "name unknown");
		v = health_value(c, d, label, AMD_KEY);
		if (!snap_int(v, &ue) || ue <= 0)
			continue;
		snap_get_int(d, "ecc_deferred", &deferred);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
				 "%s counts %" PRId64 " uncorrectable ECC/RAS error(s) (amdgpu's "
				 "RAS counters over every block, %" PRId64
				 " deferred): the work that touched the failing memory or block "
				 "was lost",
				 label, ue, deferred);
		static const char *const keys[] = { "ecc_uncorrectable", "ecc_deferred",
						    "ecc_correctable", "driver_version" };
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			if (!snap_present(snap_child(d, keys[k])))
				continue;
			snprintf(name, sizeof(name), "driver.amdsmi.devices.%zu.%s", i, keys[k]);
			finding_fact(f, name, snap_child(d, keys[k]));
		}
		finding_symptom(f,
				"amd-smi metric --ecc: UNCORRECTABLE_COUNT: %" PRId64
				" · amdgpu: uncorrectable hardware error(...) detected! · amdgpu: "
				"GPU reset begin!",
				ue);
		finding_fix(
			f, "amd-smi bad-pages -g <gpu>   # the VRAM pages amdgpu retired for them");
		finding_fix(f,
			    "# stop the GPU's processes, then reset it: sudo amd-smi reset -G -g "
			    "<gpu> (rocm-smi --gpureset -d <gpu>), or reboot");
		finding_fix(f,
			    "# errors again after the reset: run AMD's diagnostics (rvs, the ROCm "
			    "Validation Suite) and contact the system vendor for an RMA");
		finding_verify(f, "amd-smi metric --ecc -g <gpu>");
		finding_verify(f, "rocm-smi --showrasinfo all");
	}
}

static void intel_ras(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *devs = snap_get(root, "driver.level_zero.devices");

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i), *v;
		int64_t ue = 0, all = 0;
		struct finding *f;
		char label[200], name[96];

		snprintf(label, sizeof(label), "Intel GPU %zu (%s)", i,
			 snap_get_str(d, "name") ?: "name unknown");
		if (no_count(snap_child(d, INTEL_KEY))) {
			intel_no_ras_skip(c, label, snap_child(d, INTEL_KEY));
			continue;
		}
		v = health_value(c, d, label, INTEL_KEY);
		if (!snap_int(v, &ue) || ue <= 0)
			continue;
		snap_get_int(d, "ras_uncorrectable", &all);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
				 "%s counts %" PRId64 " uncorrectable hardware error(s) in its "
				 "compute, memory, cache or display units (Level Zero Sysman RAS; "
				 "%" PRId64 " uncorrectable in all, with engine resets and "
				 "programming errors)",
				 label, ue, all);
		finding_symptom(f,
				"zesRasGetState (uncorrectable error set): %" PRId64
				" in the compute, non-compute, cache and display categories · "
				"xpu-smi health / stats: RAS errors on GPU %zu",
				ue, i);
		snprintf(name, sizeof(name),
			 "driver.level_zero.devices.%zu.ras_uncorrectable_hardware", i);
		finding_fact(f, name, v);
		snprintf(name, sizeof(name), "driver.level_zero.devices.%zu.ras_uncorrectable", i);
		finding_fact(f, name, snap_child(d, "ras_uncorrectable"));
		finding_fix(f,
			    "xpu-smi stats -d <id>   # the RAS counts by category (xpumcli stats "
			    "with XPU Manager 1.0)");
		finding_fix(
			f, "# stop the GPU's processes, then reset it: sudo xpu-smi reset -d <id>, "
			   "or reboot; errors again: run sudo xpu-smi diag -d <id> -l 3 and "
			   "contact the system vendor for an RMA");
		finding_verify(f, "xpu-smi stats -d <id>");
		finding_verify(f, "xpu-smi health -d <id>");
	}
}

/* amdgpu's own RAS report in the kernel log ("uncorrectable hardware error(ERREVENT_ATHUB_
 * INTERRUPT) detected!", then "GPU reset begin!"): judged without a vendor session, as the
 * log shows it. Returns whether it found one. */
static bool amd_ras_kernel_log(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *kl = snap_get(root, "driver.kernel_log.amdgpu");
	const char *bus = snap_get_str(kl, "ras_bus");
	int64_t n = 0;
	struct finding *f;
	char label[64];

	if (!snap_get_int(kl, "ras_uncorrectable", &n) || n <= 0)
		return false;
	snprintf(label, sizeof(label), "AMD GPU %s", bus ?: "(bus not named)");
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
			 "the kernel log has %" PRId64 " amdgpu RAS report(s) of uncorrectable "
			 "hardware errors on %s, the first \"%s\": amdgpu resets the GPU for one, "
			 "and the work on it is lost",
			 n, label, snap_get_str(kl, "ras_message") ?: "?");
	finding_fact(f, "driver.kernel_log.amdgpu.ras_uncorrectable",
		     snap_child(kl, "ras_uncorrectable"));
	finding_fact(f, "driver.kernel_log.amdgpu.ras_message", snap_child(kl, "ras_message"));
	if (bus)
		finding_fact(f, "driver.kernel_log.amdgpu.ras_bus", snap_child(kl, "ras_bus"));
	finding_symptom(f, "amdgpu: uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) "
			   "detected! · amdgpu: GPU reset begin! · programs on the GPU hang or "
			   "fail, rocminfo stops listing it");
	finding_fix(f, "sudo dmesg | grep -iE 'AER|Hardware Error'   # PCIe errors of the slot "
		       "or riser point at the link, not the GPU");
	finding_fix(f, "# power off, reseat the GPU (another slot, its power cables); errors "
		       "again: run AMD's diagnostics (rvs, the ROCm Validation Suite) and contact "
		       "the system vendor for an RMA");
	finding_verify(f, "sudo dmesg | grep -iE 'amdgpu.*(uncorrectable|RAS)'");
	finding_verify(f, "rocm-smi --showrasinfo all");
	return true;
}

bool ras_uncorrectable_amd_intel(struct rule_ctx *c, const struct snap_node *root, bool nvml_judges)
{
	const struct snap_node *amd = snap_get(root, "driver.amdsmi");
	const struct snap_node *ze = snap_get(root, "driver.level_zero");
	bool klog = amd_ras_kernel_log(c, root);
	bool any = nvml_judges || klog || judgeable(amd, AMD_KEY, true) ||
		   judgeable(ze, INTEL_KEY, false);

	if (!session_ran(amd) && !session_ran(ze)) {
		/* No session: on an AMD GPU the kernel log is the only witness of its RAS
		 * errors, and one that could not be read cannot say there were none (the rule
		 * is then skipped for it, never passed; no log at all has nothing to say). */
		if (!klog && gpus_count(root, gpu_is_amd) > 0 &&
		    !rule_need_known(c, NULL, "the kernel log (amdgpu's RAS reports)",
				     snap_get(root, "driver.kernel_log.source")))
			return true;
		return klog;
	}
	if (!any) { /* nothing judged at all: one skip of the whole rule, saying why */
		if (!session_skip(c, amd, "driver.amdsmi", "AMD SMI", AMD_KEY, true, NULL))
			session_skip(c, ze, "driver.level_zero", "Level Zero", INTEL_KEY, false,
				     NULL);
		return true;
	}
	session_skip(c, amd, "driver.amdsmi", "AMD SMI", AMD_KEY, true, "AMD SMI");
	session_skip(c, ze, "driver.level_zero", "Level Zero", INTEL_KEY, false, "Level Zero");
	amd_ras(c, root);
	intel_ras(c, root);
	return true;
}
