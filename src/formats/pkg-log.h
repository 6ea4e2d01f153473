/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Package managers' logs of what they installed, upgraded, downgraded or removed and when,
 * over (text, len) with no I/O; only packages whose name contains a given string are kept.
 * Formats:
 * - apt's history (/var/log/apt/history.log, written by apt-pkg/deb/dpkgpm.cc): stanzas
 *   "Start-Date: YYYY-MM-DD  HH:MM:SS", "Commandline: …", then one line per action,
 *   "Install: pkg:arch (ver[, automatic]), …", "Upgrade: pkg:arch (old, new), …",
 *   "Downgrade: pkg:arch (old, new)", "Reinstall: pkg:arch (ver)", "Remove:"/"Purge:
 *   pkg:arch (ver)", and "End-Date: …"; a blank line between stanzas.
 * - dnf 4's rpm log (/var/log/dnf.rpm.log, as dnf's own behave tests show it):
 *   "<ISO 8601 time> SUBDEBUG <Action>: <name>-[<epoch>:]<version>-<release>[.<arch>]" with
 *   Installed, Upgrade (the new package) then Upgraded (the one it replaced), Downgrade then
 *   Downgraded, Reinstall/Reinstalled, Erase.
 * - pacman's log (/var/log/pacman.log, libalpm add.c/remove.c alpm_logaction()):
 *   "[<time>] [ALPM] installed <pkg> (<ver>)", "upgraded <pkg> (<old> -> <new>)",
 *   "downgraded <pkg> (<old> -> <new>)", "reinstalled <pkg> (<ver>)", "removed <pkg> (<ver>)";
 *   the time is "2024-09-05T10:11:12+0200" (pacman 5.2 on) or "2019-01-01 10:11" before.
 * The last PKG_EVENTS_MAX matching events are kept, oldest first. Fuzzed by
 * tests/fuzz/fuzz-pkg-log.c.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define PKG_EVENTS_MAX	32u
#define PKG_NAME_MAX	128u
#define PKG_VERSION_MAX 96u
#define PKG_TIME_MAX	40u

enum pkg_log_format {
	PKG_LOG_APT,
	PKG_LOG_DNF,
	PKG_LOG_PACMAN,
};

enum pkg_action {
	PKG_INSTALL,
	PKG_UPGRADE,
	PKG_DOWNGRADE,
	PKG_REINSTALL,
	PKG_REMOVE,
};

struct pkg_event {
	enum pkg_action action;
	char name[PKG_NAME_MAX];    /* "nvidia-driver-550:amd64", "akmod-nvidia", "nvidia-utils" */
	char from[PKG_VERSION_MAX]; /* the version replaced ("" when none or not logged) */
	char to[PKG_VERSION_MAX];   /* the version now installed ("" for a removal) */
	char time[PKG_TIME_MAX];    /* as logged ("" when the stanza's start was not seen) */
	uint64_t line;		    /* 1-based line of the text */
};

struct pkg_log {
	struct pkg_event ev[PKG_EVENTS_MAX];
	size_t n;
	uint64_t matched; /* events of matching packages, kept or not */
	uint64_t lines;
	uint64_t malformed; /* action lines whose package entry could not be read */
};

/* Parses text (up to len or an embedded NUL) in the given format, keeping the events of
 * packages whose name contains name_has (all when NULL or ""). Never fails: *ret is filled. */
void pkg_log_parse(enum pkg_log_format fmt, const char *text, size_t len, const char *name_has,
		   struct pkg_log *ret);

/* "install", "upgrade", "downgrade", "reinstall", "remove". */
const char *pkg_action_name(enum pkg_action a);

/* The upstream version of a package version: epoch ("3:") and Debian/RPM/pacman release
 * ("-0ubuntu0.24.04.1", "-1.fc39", "-1") dropped, into buf: "550.107.02". */
void pkg_upstream_version(const char *v, char *buf, size_t len);
