/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The files a systemd service is started from, for the probes of services (ollama's server,
 * kubelet). systemd.unit(5): the unit file is the first of the unit search path that has the
 * name (/etc before /run before /usr/local/lib before /usr/lib); the drop-ins
 * <unit>.d/NAME.conf of every directory are applied after it in the lexical order of their
 * names, a name in an earlier directory hiding the same name in a later one. Their text is
 * read by src/formats/systemd-unit-env.c; the files its EnvironmentFile= lines name by
 * src/formats/systemd-env-file.c, applied after every Environment= ("Settings from these
 * files override settings made with Environment=", systemd.exec(5)), a missing one with "-"
 * skipped.
 */
#pragma once

#include <stdbool.h>

#include "formats/systemd-unit-env.h"
#include "probe.h"

/* What the environment files leave unknown: the first file number (in the caller's paths) whose
 * settings are known, and why the ones before may differ (the unit file and line). */
struct service_unknown {
	bool any;
	unsigned known_from;
	char src[4200];
	char why[320];
};

/* The unit file (first) and its drop-ins in systemd's order into *ret (NULL: no unit file, or
 * one masked with a link to /dev/null); 0, -ENOMEM, or another error with *ret_bad the path
 * that could not be looked at. */
int service_unit_files(struct probe_env *pe, const char *unit, char ***ret, char **ret_bad);
/* The unit file and drop-ins of paths (service_unit_files()) read and parsed in order into a
 * new *ret; 0, -ENOMEM, or another error with *ret_bad the path (in paths) that could not be
 * read and nothing in *ret. */
int service_unit_parse(struct probe_env *pe, char **paths, struct unit_env **ret,
		       const char **ret_bad);
/* The files the EnvironmentFile= lines of e name, applied over e in order; each read one is
 * appended to *paths (the number its settings carry). 0 or -ENOMEM. */
int service_env_files(struct probe_env *pe, struct unit_env *e, char ***paths,
		      struct service_unknown *u);
/* Whether a link in a <target>.wants/ or .requires/ directory of any unit directory enables
 * unit (a link to /dev/null masks the same name in the directories after): 1 with *ret_link
 * the link, 0, or an error with *ret_bad the path that could not be looked at (-ENOMEM alone
 * stops the search; a later enabling link wins over an earlier unreadable directory). */
int service_unit_enabled(struct probe_env *pe, const char *unit, char **ret_link, char **ret_bad);
