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
 * ollama's server is such a process twice over (framework.ollama.service_*, probe-ollama-
 * service.c): run as its enabled systemd service it reads the unit and drop-ins only, never a
 * startup file the judged shell read ("OLLAMA_MODELS must be set in the same context as
 * ollama serve", ollama/ollama#2940); where the unit is not enabled, an `ollama serve` started
 * by hand from the judged shell reads none of the unit's files, so a variable set there only
 * is lost (ollama/ollama#8679: the override in the unit, the server started by hand, fixed by
 * `systemctl restart ollama`).
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

/* The ollama unit: enabled (1), there and not enabled (0), not there (-1); -2 where that
 * could not be told (recorded as such). */
static int ollama_unit(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const struct snap_node *en = snap_get(root, "framework.ollama.service_enabled");
	bool b = false;

	if (!unit)
		return -1;
	if (!rule_need(c, "ollama.service", "the ollama service's unit file", unit))
		return -2;
	if (!en)
		return -1; /* a snapshot from before service_enabled was read */
	if (!rule_need(c, snap_str(unit), "whether the ollama service is enabled", en) ||
	    !snap_bool(en, &b))
		return -2;
	return b;
}

/* A setting the judged process has that the enabled ollama service does not get. */
static void service_lacks(struct rule_ctx *c, const struct snap_node *root, const char *name,
			  const struct snap_node *o, size_t i)
{
	const struct snap_node *senv = snap_get(root, "framework.ollama.service_environment");
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const struct snap_node *sv = snap_child(senv, name), *val = snap_child(o, "value");
	const char *file = snap_get_str(o, "file") ?: "?";
	struct finding *f;
	int64_t line = 0;
	char key[96];

	if (!rule_need(c, snap_str(unit), "the ollama service's environment", senv) ||
	    (sv && !rule_need(c, snap_str(unit), name, sv)) || sv)
		return;
	snap_get_int(o, "line", &line);
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, name,
			 "%s=%s is set in %s (line %" PRId64 ") and the process judged has it, "
			 "but the ollama service (%s, enabled) never reads that file: systemd "
			 "starts its server from the unit and its drop-ins, which set no %s",
			 name, snap_str(val), file, line, snap_str(unit), name);
	snprintf(key, sizeof(key), "environment.profile_settings.%zu.value", i);
	finding_fact(f, key, val);
	finding_fact(f, "framework.ollama.service_unit", unit);
	finding_fact(f, "framework.ollama.service_enabled",
		     snap_get(root, "framework.ollama.service_enabled"));
	finding_fix(f,
		    "systemctl edit ollama   # [Service] Environment=\"%s=%s\", then systemctl "
		    "restart ollama",
		    name, snap_str(val));
	finding_verify(f, "journalctl -u ollama | grep 'server config'   # %s: in its env map",
		       name);
}

/* What the ollama unit sets that the judged process lacks, where the unit is not enabled: an
 * `ollama serve` started by hand from this environment runs without it. A name a startup file
 * sets is that setting's finding. */
static void hand_started_lacks(struct rule_ctx *c, const struct snap_node *root, const char *name)
{
	const struct snap_node *senv = snap_get(root, "framework.ollama.service_environment");
	const struct snap_node *unit = snap_get(root, "framework.ollama.service_unit");
	const struct snap_node *sv = snap_child(senv, name);
	const struct snap_node *proc = snap_child(snap_get(root, "environment"), name);
	const struct snap_node *arr = snap_get(root, "environment.profile_settings");
	enum gpuenv_severity sev = GPUENV_SEVERITY_WARNING;
	const char *why = "";
	struct finding *f;
	char buf[320], key[96];

	if (!sv || snap_present(proc))
		return;
	for (size_t i = 0; i < snap_count(arr); i++)
		if (streq(snap_get_str(snap_at(arr, i), "name") ?: "", name))
			return;
	if (!rule_need(c, snap_str(unit), name, sv))
		return; /* a file the unit names could not be read: it may set it */
	if (streq(name, "HSA_OVERRIDE_GFX_VERSION"))
		why = without_override(c, root, snap_str(sv), buf, sizeof(buf), &sev);
	f = rule_finding(c, sev, name,
			 "%s=%s is set for the ollama service (%s), whose unit %s is not "
			 "enabled, and the process judged does not have it: an `ollama serve` "
			 "started by hand from this environment reads no systemd file and runs "
			 "without it%s",
			 name, snap_str(sv), snap_source(sv) ?: "?", snap_str(unit), why);
	snprintf(key, sizeof(key), "framework.ollama.service_environment.%s", name);
	finding_fact(f, key, sv);
	finding_fact(f, "framework.ollama.service_enabled",
		     snap_get(root, "framework.ollama.service_enabled"));
	snprintf(key, sizeof(key), "environment.%s", name);
	finding_fact(f, key, proc);
	finding_fix(f,
		    "systemctl restart ollama   # the server as the service, which reads %s; "
		    "stop the hand-started `ollama serve` first",
		    snap_source(sv) ?: snap_str(unit));
	finding_fix(f, "export %s=%s   # before `ollama serve`, where it is started by hand", name,
		    snap_str(sv));
	finding_verify(f, "systemctl status ollama   # the server: the service or a hand-started "
			  "`ollama serve`");
}

static void one_setting(struct rule_ctx *c, const struct snap_node *root, const struct snap_node *o,
			size_t i, int ollama)
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
	if (snap_present(proc)) {
		/* the process has it (its value is the other rules' to judge); ollama's enabled
		 * service may not */
		if (ollama == 1)
			service_lacks(c, root, name, o, i);
		return;
	}
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
	static const char *const names[] = { "HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",
					     "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES" };
	const struct snap_node *arr = snap_get(root, "environment.profile_settings");
	const int ollama = ollama_unit(c, root);

	for (size_t i = 0; i < snap_count(arr); i++)
		one_setting(c, root, snap_at(arr, i), i, ollama);
	if (ollama == 0 && rule_need(c, snap_get_str(root, "framework.ollama.service_unit"),
				     "the ollama service's environment",
				     snap_get(root, "framework.ollama.service_environment")))
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			hand_started_lacks(c, root, names[i]);
}
