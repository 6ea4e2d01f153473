// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.dev-noexec: /dev mounted noexec on a machine whose KFD lists an APU in IOMMUv2 mode.
 * For such an APU, KFD maps the GPU's trap handler (CWSR) into the process from /dev/kfd
 * with PROT_READ | PROT_EXEC while the process opens /dev/kfd (kfd_process_init_cwsr_apu in
 * drivers/gpu/drm/amd/amdkfd/kfd_process.c; AMD's patch that later dropped it: "only for
 * mapping CWSR on APU in IOMMUv2 mode", amd-gfx, "drm/amdkfd: remove obsolete codes for
 * kfd_mmap", 2026-04-30). An executable mapping of a file on a noexec mount is refused
 * (mmap(2): EPERM), the open fails, and ROCm has no GPU although the user may open the node:
 * ROCm/rocminfo#40, where `mount -o remount,exec /dev` made rocminfo and clinfo run. Such an
 * APU is a KFD node that counts CPU cores and the GPU together, as the ACPI CRAT table of
 * an APU describes it (a discrete GPU's node counts no CPU cores). Since Linux 6.5 no APU runs
 * in IOMMUv2 mode (knowledge base thresholds.tsv amdkfd_apu_cwsr_exec_map_gone_kernel), so
 * nothing is mapped from /dev/kfd: judged on the running kernel's release, could not tell
 * without it, or on a 6.1 to 6.4 kernel (a stable point release took the change). An
 * out-of-tree amdgpu (rock-dkms, amdgpu-dkms) is judged by the kernel's release too: which of
 * its releases dropped the mapping is not established (the rule's cause says so).
 */
#include <inttypes.h>
#include <string.h>

#include "facts/facts.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

/* "rw,nosuid,noexec,relatime" holds the option "noexec" (not "exec", not a prefix). */
static bool has_noexec(const char *opts)
{
	size_t n = strlen("noexec");

	for (const char *p = opts; (p = strstr(p, "noexec")); p += n)
		if ((p == opts || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* Whether the running kernel's amdkfd maps an APU's trap handler from /dev/kfd: a release
 * before the knowledge base's first one without it (and before 6.1, whose stable series took
 * the change at a point release not established). Else false, with a could-not-tell record
 * where the release is unknown or in between. */
static bool kernel_maps_trap_handler(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *rel = snap_get(root, "host.kernel_release");
	const struct facts_threshold *gone = NULL;
	struct version v;
	uint64_t number;

	if (!rule_need(c, NULL, "the running kernel's release", rel))
		return false;
	if (facts_threshold("amdkfd_apu_cwsr_exec_map_gone_kernel", &gone) < 0 || !gone) {
		rule_skip(c, NULL, "the knowledge base names no kernel release to judge by");
		return false;
	}
	if (version_parse_prefix(snap_str(rel), &v, NULL) < 0 || v.n < 2) {
		rule_skip_failed(c, NULL, FACT_MALFORMED,
				 "could not tell whether kernel %s maps an APU's trap handler from "
				 "/dev/kfd: not a MAJOR.MINOR release",
				 snap_str(rel));
		return false;
	}
	number = (uint64_t)v.part[0] * 1000 + v.part[1];
	if (number >= gone->number)
		return false; /* no APU in IOMMUv2 mode: nothing mapped from /dev/kfd */
	if (number >= 6001) {
		rule_skip_failed(
			c, NULL, FACT_ERROR,
			"could not tell whether kernel %s maps an APU's trap handler from "
			"/dev/kfd: Linux %s dropped that mapping, and the 6.1 stable series "
			"took the change at a point release not known here",
			snap_str(rel), gone->value);
		return false;
	}
	return true;
}

RULE_CHECK(check_dev_noexec)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct snap_node *opts = snap_get(root, "driver.amdgpu.dev_mount_options");
	const struct snap_node *apu = NULL, *cores;
	int64_t ncores = 0, node = -1;
	struct finding *f;

	if (snap_kind(kfd) != SNAP_ARRAY) {
		if (snap_state(kfd) != FACT_ABSENT)
			rule_need(c, NULL, "the KFD topology", kfd);
		return;
	}
	for (size_t i = 0; i < snap_count(kfd) && !apu; i++) {
		const struct snap_node *n = snap_at(kfd, i);

		if (!snap_get_str(n, "gfx"))
			continue;
		cores = snap_child(n, "cpu_cores_count");
		if (snap_state(cores) == FACT_ABSENT)
			continue;
		if (!snap_get_int(n, "cpu_cores_count", &ncores)) {
			rule_need(c, NULL, "the CPU cores of a KFD GPU node", cores);
			return;
		}
		if (ncores > 0)
			apu = n;
	}
	if (!apu)
		return;
	if (snap_state(opts) == FACT_ABSENT)
		return; /* no mount at /dev */
	if (!snap_str(opts)) {
		rule_need(c, NULL, "the options of the /dev mount", opts);
		return;
	}
	if (!has_noexec(snap_str(opts)) || !kernel_maps_trap_handler(c, root))
		return;
	snap_get_int(apu, "cpu_cores_count", &ncores);
	snap_get_int(apu, "node", &node);
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "/dev is mounted noexec (%s) and KFD lists an APU (%s, KFD node %" PRId64
			 " with %" PRId64 " CPU cores): opening /dev/kfd maps the APU's trap "
			 "handler from it executable, which the mount refuses, so ROCm cannot "
			 "open /dev/kfd whatever the user's groups",
			 snap_str(opts), snap_get_str(apu, "gfx"), node, ncores);
	finding_fact(f, "driver.amdgpu.dev_mount_options", opts);
	finding_fact(f, "driver.amdgpu.kfd_nodes[].cpu_cores_count",
		     snap_child(apu, "cpu_cores_count"));
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
