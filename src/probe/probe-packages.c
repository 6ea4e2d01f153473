// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Recent changes to the NVIDIA driver's packages, from the package managers' own logs
 * (formats/pkg-log.h): apt's /var/log/apt/history.log after its rotated history.log.1 (older;
 * the compressed generations are not read), dnf 4's /var/log/dnf.rpm.log, pacman's
 * /var/log/pacman.log. The tail of each (PKG_LOG_TAIL bytes) is parsed; the events of packages
 * whose name contains "nvidia" are kept, the newest PKG_EVENTS_MAX over all the logs, oldest
 * first. The evidence driver.nvml-version-mismatch gives: which package changed the user
 * space, from what to what, and when.
 * Writes "driver.package_log": logs[] (each log read), events[] {time, action, package, from,
 * to, to_upstream, log, line}; events is absent when no log exists, the -errno of the first log that could
 * not be read otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "formats/pkg-log.h"
#include "probe.h"
#include "shared/strv.h"

#define PKG_LOG_TAIL ((size_t)4 << 20) /* bytes read from the end of each log */

static const struct {
	const char *path;
	enum pkg_log_format fmt;
} logs[] = {
	{ "/var/log/apt/history.log.1", PKG_LOG_APT },
	{ "/var/log/apt/history.log", PKG_LOG_APT },
	{ "/var/log/dnf.rpm.log", PKG_LOG_DNF },
	{ "/var/log/pacman.log", PKG_LOG_PACMAN },
};

struct kept {
	struct pkg_event ev[PKG_EVENTS_MAX];
	const char *log[PKG_EVENTS_MAX];
	size_t n;
};

static void keep(struct kept *k, const struct pkg_event *e, const char *log)
{
	if (k->n == PKG_EVENTS_MAX) {
		for (size_t i = 1; i < PKG_EVENTS_MAX; i++) {
			k->ev[i - 1] = k->ev[i];
			k->log[i - 1] = k->log[i];
		}
		k->n--;
	}
	k->ev[k->n] = *e;
	k->log[k->n++] = log;
}

static void write_events(struct snap_node *pl, const struct kept *k)
{
	struct snap_node *arr = snap_array(pl, "events");

	for (size_t i = 0; i < k->n; i++) {
		const struct pkg_event *e = &k->ev[i];
		struct snap_node *o = snap_append_object(arr);
		const char *src = k->log[i];

		if (e->time[0])
			snap_set_str(o, "time", e->time, src);
		else
			snap_set_state(o, "time", FACT_ABSENT, src,
				       "the entry's start was not in the part of the log read");
		snap_set_str(o, "action", pkg_action_name(e->action), src);
		snap_set_str(o, "package", e->name, src);
		if (e->from[0])
			snap_set_str(o, "from", e->from, src);
		if (e->to[0]) {
			char up[PKG_VERSION_MAX];

			snap_set_str(o, "to", e->to, src);
			pkg_upstream_version(e->to, up, sizeof(up));
			snap_set_str(o, "to_upstream", up, src);
		}
		snap_set_str(o, "log", src, src);
		snap_set_int(o, "line", (int64_t)e->line, src);
	}
}

int probe_package_log(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *pl = snap_object(snap_object(snapshot_root(s), "driver"), "package_log");
	struct snap_node *read = snap_array(pl, "logs");
	_cleanup_free_ struct pkg_log *parsed = malloc(sizeof(*parsed));
	_cleanup_free_ struct kept *k = calloc(1, sizeof(*k));
	const char *bad_path = NULL;
	int bad_err = 0;

	if (!parsed || !k)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		_cleanup_free_ char *text = NULL;
		bool truncated = false;
		size_t len = 0;
		int err = probe_read_tail(pe, logs[i].path, PKG_LOG_TAIL, &text, &len, &truncated);

		if (err == -ENOMEM)
			return err;
		if (err == -ENOENT)
			continue;
		if (err < 0) {
			if (!bad_path) {
				bad_path = logs[i].path;
				bad_err = err;
			}
			continue;
		}
		snap_append_str(read, logs[i].path, logs[i].path);
		pkg_log_parse(logs[i].fmt, text, len, "nvidia", parsed);
		for (size_t e = 0; e < parsed->n; e++)
			keep(k, &parsed->ev[e], logs[i].path);
	}
	if (snap_count(read) > 0)
		write_events(pl, k);
	else if (bad_err == -EBADFD)
		snap_set_state(pl, "events", FACT_MALFORMED, bad_path, "not a regular file");
	else if (bad_path)
		snap_set_errno(pl, "events", bad_err, bad_path);
	else
		snap_set_state(pl, "events", FACT_ABSENT, "/var/log",
			       "no apt history.log, dnf.rpm.log or pacman.log");
	return snapshot_error(s);
}
