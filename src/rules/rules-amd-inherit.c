// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.override-not-inherited: a ROCm override (HSA_OVERRIDE_GFX_VERSION, HSA_XNACK,
 * HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES) that a shell startup file or /etc/environment
 * sets (environment.profile_settings, formats/shell-profile.h) and the judged process does not
 * have. A process gets its environment from its parent (execve(2)): a systemd service, sudo
 * (env_reset, sudoers(5)), cron, an IDE's or Jupyter's kernel and a container start from an
 * environment that never read ~/.bashrc, and a shell started before the line was added has
 * not either; an assignment without "export" stays in the shell. The override the user relies
 * on is then simply not there: for HSA_OVERRIDE_GFX_VERSION, ROCm loads the GPU's own target,
 * for which the release or the build may have no code.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

/* Why the missing override matters: "" when nothing is known to break without it. */
static const char *without_override(struct rule_ctx *c, const struct snap_node *root,
				    const char *value, char *buf, size_t len,
				    enum gpuenv_severity *sev)
{
	const struct snap_node *rocm = amd_chosen_rocm(root);
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	/* the first GPU the process sees: one its device variables hide does not run */
	const char *gfx = amd_kfd_gfx_seen(root, NULL), *rv, *conf = NULL;
	char as[32];

	*sev = GPUENV_SEVERITY_WARNING;
	/* Without the GPU's own target, whether ROCm then fails cannot be told: say so, so the
	 * warning is not read as "nothing worse". */
	if (!gfx && kfd && fact_is_failure(snap_state(kfd)))
		rule_need(c, "HSA_OVERRIDE_GFX_VERSION", "the GPU's target (KFD topology)", kfd);
	if (!gfx || !amd_gfx_of_override(value, as, sizeof(as)) || streq(as, gfx))
		return "";
	rv = rocm ? snap_get_str(rocm, "version") : NULL;
	if (rv && facts_rocm_supports_gfx(rv, gfx, &conf) == 0) {
		*sev = GPUENV_SEVERITY_ERROR;
		snprintf(buf, len,
			 ": without it ROCm takes this GPU as %s, which ROCm %s does not support "
			 "(\"HIP error: invalid device function\"), not as %s",
			 gfx, rv, as);
		return buf;
	}
	snprintf(buf, len, ": without it ROCm loads %s code, not %s", gfx, as);
	return buf;
}

static void one_setting(struct rule_ctx *c, const struct snap_node *root, const struct snap_node *o,
			size_t i)
{
	const char *name = snap_get_str(o, "name"), *file = snap_get_str(o, "file") ?: "?";
	const struct snap_node *val = snap_child(o, "value"), *proc;
	enum gpuenv_severity sev = GPUENV_SEVERITY_WARNING;
	const char *why = "";
	char key[96], buf[320];
	int64_t line = 0;
	struct finding *f;

	if (!rule_need(c, file, "the startup file", val) || !name)
		return;
	proc = snap_child(snap_get(root, "environment"), name);
	if (snap_present(proc))
		return; /* the process has it (its own value is the other rules' to judge) */
	snap_get_int(o, "line", &line);
	if (streq(name, "HSA_OVERRIDE_GFX_VERSION") && !snap_get_bool_default(o, "expands", false))
		why = without_override(c, root, snap_str(val), buf, sizeof(buf), &sev);
	f = rule_finding(
		c, sev, name,
		snap_get_bool_default(o, "exported", false)
			? "%s=%s is set in %s (line %" PRId64 "), but the process judged does "
			  "not have it: it was not started from a shell that read the file (a "
			  "service, sudo, cron, an IDE's or Jupyter's kernel, a container), or "
			  "its shell is older than the line%s"
			: "%s=%s is set in %s (line %" PRId64 ") without export: it stays in "
			  "that shell, the programs it starts do not get it%s",
		name, snap_str(val), file, line, why);
	snprintf(key, sizeof(key), "environment.profile_settings.%zu.value", i);
	finding_fact(f, key, val);
	snprintf(key, sizeof(key), "environment.%s", name);
	finding_fact(f, key, proc);
	finding_fix(f,
		    "export %s=%s   # in the environment of the process itself: systemctl edit "
		    "<unit> → [Service] Environment=\"%s=%s\"; sudo --preserve-env=%s; docker run "
		    "-e %s=%s",
		    name, snap_str(val), name, snap_str(val), name, name, snap_str(val));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_override_not_inherited)
{
	const struct snap_node *arr = snap_get(root, "environment.profile_settings");

	for (size_t i = 0; i < snap_count(arr); i++)
		one_setting(c, root, snap_at(arr, i), i);
}
