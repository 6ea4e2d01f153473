// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The package manager's record of the driver's packages (driver.package_log, probe
 * `package-log`) as evidence: which package put a given user-space driver version in place,
 * from what, and when. Used by driver.nvml-version-mismatch ("nvidia-driver-550 upgraded to
 * 550.107.02 at …; the module loaded is 550.90.07").
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

const struct snap_node *pkg_event_for(const struct snap_node *root, const char *version,
				      size_t *ret_index)
{
	const struct snap_node *evs = snap_get(root, "driver.package_log.events"), *best = NULL;
	const char *when = NULL;

	/* The newest event that installed the version; within its transaction (same time), the
	 * driver's own package ("nvidia-driver-550", "xorg-x11-drv-nvidia") rather than one of
	 * the libraries that came with it. */
	for (size_t i = snap_count(evs); version && i-- > 0;) {
		const struct snap_node *e = snap_at(evs, i);
		const char *up = snap_get_str(e, "to_upstream"), *t = snap_get_str(e, "time");
		const char *name = snap_get_str(e, "package") ?: "";

		if (!up || !streq(up, version))
			continue;
		if (best && !(when && t && streq(when, t)))
			break;
		if (!best) {
			best = e;
			*ret_index = i;
			when = t;
		}
		if (strstr(name, "driver") || strstr(name, "drv-nvidia")) {
			best = e;
			*ret_index = i;
			break;
		}
	}
	return best;
}

int pkg_event_describe(const struct snap_node *e, char *buf, size_t len)
{
	const char *from = snap_get_str(e, "from"), *time = snap_get_str(e, "time");
	const char *action = snap_get_str(e, "action") ?: "?";
	static const struct {
		const char *action, *past;
	} past[] = { { "install", "installed" },
		     { "upgrade", "upgraded" },
		     { "downgrade", "downgraded" },
		     { "reinstall", "reinstalled" },
		     { "remove", "removed" } };
	const char *verb = action;

	for (size_t i = 0; i < ARRAY_SIZE(past); i++)
		if (streq(past[i].action, action))
			verb = past[i].past;
	return snprintf(buf, len, "%s %s%s%s to %s%s%s in %s", snap_get_str(e, "package") ?: "?",
			verb, from ? " from " : "", from ?: "", snap_get_str(e, "to") ?: "?",
			time ? " at " : "", time ?: "", snap_get_str(e, "log") ?: "?");
}

void pkg_event_evidence(struct finding *f, const struct snap_node *e, size_t index)
{
	char key[64], what[512];
	int64_t line = 0;

	if (!f || !e)
		return;
	snap_get_int(e, "line", &line);
	snprintf(key, sizeof(key), "driver.package_log.events.%zu", index);
	pkg_event_describe(e, what, sizeof(what));
	finding_evidence(f, key, snap_get_str(e, "log") ?: "driver.package_log", "%s (line %lld)",
			 what, (long long)line);
}
