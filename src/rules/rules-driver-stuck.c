// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.nvml-stuck-in-kernel: gpuenv's NVML child missed its deadline inside the kernel, a
 * task of it in uninterruptible sleep (D in /proc/PID/task/TID/stat, proc(5)) at the kernel
 * function driver.nvml.session_stuck names (its wchan): an NVIDIA driver call that does not
 * return, a lock the driver holds or a GPU that stopped answering. No signal ends such a
 * task; nvidia-smi, DCGM and every CUDA program that opens the GPU block the same way.
 * NVIDIA's action for a hung GPU (Xid catalogue, https://docs.nvidia.com/deploy/xid-errors/):
 * drain the node, collect nvidia-bug-report.sh, reset the GPU and, where the reset cannot run
 * (a process holds the GPU, as the stuck task does), reboot the node.
 */
#include <stdio.h>

#include "rules/rules-internal.h"

RULE_CHECK(check_nvml_stuck_in_kernel)
{
	const struct snap_node *stuck = snap_get(root, "driver.nvml.session_stuck");
	const struct snap_node *xids = snap_get(root, "driver.xid_events");
	const char *wchan = snap_present(stuck) ? snap_str(stuck) : NULL;
	struct finding *f;
	bool known;

	if (!wchan)
		return;
	known = !streq(wchan, "unknown");
	/* Read from a pasted kernel report (pasted-hung-task.c): some task of the user's, not
	 * gpuenv's child, and the frame of the driver's module it waits in. */
	if (startswith(snap_source(stuck) ?: "", "pasted:"))
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "the kernel reports a task in uninterruptible sleep (D state) "
				 "inside the NVIDIA driver, at %s: a driver call that no signal "
				 "ends; nvidia-smi, DCGM and every CUDA program that opens the GPU "
				 "hang the same way until the node is rebooted",
				 wchan);
	else
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"an NVML call did not return: gpuenv's NVML child is in "
			"uninterruptible sleep (D state) inside the kernel%s%s, a driver "
			"call that no signal ends; nvidia-smi, DCGM and every CUDA program "
			"that opens the GPU hang the same way until the node is rebooted",
			known ? " at " : " (the kernel hides where: kptr_restrict)",
			known ? wchan : "");
	finding_fact(f, "driver.nvml.session_stuck", stuck);
	finding_fact(f, "driver.nvml.session", snap_get(root, "driver.nvml.session"));
	/* The Xids that came before say what wedged the driver (79, 119, 154 …). */
	for (size_t i = 0; i < snap_count(xids) && i < 4; i++) {
		char key[96];

		snprintf(key, sizeof(key), "driver.xid_events.%zu.text", i);
		finding_fact(f, key, snap_child(snap_at(xids, i), "text"));
	}
	finding_rule_fix(f);
	finding_rule_verify(f);
}
