// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the package-log parser (src/formats/pkg-log.c) over the same bytes as apt
 * history, dnf.rpm.log and pacman.log, with and without a name filter, and the version
 * helper on every event it kept.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pkg-log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pkg_log_format fmts[] = { PKG_LOG_APT, PKG_LOG_DNF, PKG_LOG_PACMAN };
	struct pkg_log *log = malloc(sizeof(*log));
	char v[PKG_VERSION_MAX];

	if (!log)
		return 0;
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
		for (int filtered = 0; filtered < 2; filtered++) {
			pkg_log_parse(fmts[f], (const char *)data, size, filtered ? "nvidia" : NULL,
				      log);
			if (log->n > PKG_EVENTS_MAX)
				abort();
			for (size_t i = 0; i < log->n; i++) {
				pkg_upstream_version(log->ev[i].to, v, sizeof(v));
				pkg_upstream_version(log->ev[i].from, v, sizeof(v));
				(void)strlen(log->ev[i].name);
				(void)strlen(log->ev[i].time);
				(void)pkg_action_name(log->ev[i].action);
			}
		}
	free(log);
	return 0;
}
