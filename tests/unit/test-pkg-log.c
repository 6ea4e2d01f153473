// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pkg-log: apt's history, dnf's rpm log and pacman's log in the forms their writers
 * produce (see pkg-log.h), the name filter, the cap on kept events, truncated and malformed
 * entries, and the upstream-version helper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pkg-log.h"

static struct pkg_log log_;

static void test_apt(void **state)
{
	static const char text[] =
		"\nStart-Date: 2024-09-05  06:41:17\nCommandline: /usr/bin/unattended-upgrade\n"
		"Upgrade: libnvidia-compute-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
		"550.107.02-0ubuntu0.24.04.1), libssl3t64:amd64 (3.0.13-0ubuntu3.3, "
		"3.0.13-0ubuntu3.4), nvidia-driver-550:amd64 (550.90.07-0ubuntu0.24.04.1, "
		"550.107.02-0ubuntu0.24.04.1)\r\n"
		"Install: nvidia-dkms-550:amd64 (550.107.02-0ubuntu0.24.04.1, automatic)\n"
		"Remove: nvidia-dkms-535:amd64 (535.183.01-0ubuntu0.24.04.1)\n"
		"End-Date: 2024-09-05  06:43:02\n\n"
		"Upgrade: nvidia-utils-550:amd64 (550.90.07-0ubuntu1, 550.107.02-0ubuntu1)\n"
		"Downgrade: broken (no close\n";

	(void)state;
	pkg_log_parse(PKG_LOG_APT, text, sizeof(text) - 1, "nvidia", &log_);
	assert_int_equal(log_.n, 5);
	assert_int_equal(log_.matched, 5);
	assert_int_equal(log_.malformed, 1);
	assert_int_equal(log_.ev[0].action, PKG_UPGRADE);
	assert_string_equal(log_.ev[0].name, "libnvidia-compute-550:amd64");
	assert_string_equal(log_.ev[0].from, "550.90.07-0ubuntu0.24.04.1");
	assert_string_equal(log_.ev[0].to, "550.107.02-0ubuntu0.24.04.1");
	assert_string_equal(log_.ev[0].time, "2024-09-05  06:41:17");
	assert_int_equal(log_.ev[0].line, 4);
	assert_string_equal(log_.ev[1].name, "nvidia-driver-550:amd64");
	assert_string_equal(log_.ev[1].to, "550.107.02-0ubuntu0.24.04.1");
	assert_int_equal(log_.ev[2].action, PKG_INSTALL);
	assert_string_equal(log_.ev[2].to, "550.107.02-0ubuntu0.24.04.1");
	assert_int_equal(log_.ev[3].action, PKG_REMOVE);
	assert_string_equal(log_.ev[3].from, "535.183.01-0ubuntu0.24.04.1");
	assert_string_equal(log_.ev[3].to, "");
	/* After the blank line the stanza's start is not known (a tail read from the middle). */
	assert_string_equal(log_.ev[4].time, "");
	/* No filter: every package. */
	pkg_log_parse(PKG_LOG_APT, text, sizeof(text) - 1, NULL, &log_);
	assert_int_equal(log_.n, 6);
	assert_string_equal(log_.ev[1].name, "libssl3t64:amd64");
}

static void test_dnf(void **state)
{
	static const char text[] =
		"2023-06-12T09:58:44+0200 INFO --- logging initialized ---\n"
		"2023-06-12T09:58:44+0200 SUBDEBUG Upgrade: akmod-nvidia-3:535.54.03-1.fc38.x86_64\n"
		"2023-06-12T09:58:45+0200 SUBDEBUG Upgrade: kernel-6.3.8-200.fc38.x86_64\n"
		"2023-06-12T09:58:46+0200 SUBDEBUG Upgraded: akmod-nvidia-3:530.41.03-1.fc38.x86_64\n"
		"2023-06-12T09:58:47+0200 SUBDEBUG Installed: "
		"kmod-nvidia-6.3.7-200.fc38.x86_64-3:535.54.03-1.fc38.x86_64\n"
		"2023-06-12T09:58:48+0200 SUBDEBUG Erase: xorg-x11-drv-nvidia-cuda-3:530.41.03-1.fc38\n"
		"2023-06-12T09:58:49+0200 SUBDEBUG Downgrade: nodash\n";

	(void)state;
	pkg_log_parse(PKG_LOG_DNF, text, sizeof(text) - 1, "nvidia", &log_);
	assert_int_equal(log_.n, 3);
	assert_int_equal(log_.malformed, 1);
	assert_int_equal(log_.ev[0].action, PKG_UPGRADE);
	assert_string_equal(log_.ev[0].name, "akmod-nvidia");
	assert_string_equal(log_.ev[0].to, "3:535.54.03-1.fc38.x86_64");
	assert_string_equal(log_.ev[0].from, "3:530.41.03-1.fc38.x86_64"); /* from Upgraded: */
	assert_string_equal(log_.ev[0].time, "2023-06-12T09:58:44+0200");
	assert_int_equal(log_.ev[1].action, PKG_INSTALL);
	assert_string_equal(log_.ev[1].name, "kmod-nvidia-6.3.7-200.fc38.x86_64");
	assert_string_equal(log_.ev[1].to, "3:535.54.03-1.fc38.x86_64");
	assert_int_equal(log_.ev[2].action, PKG_REMOVE);
	assert_string_equal(log_.ev[2].from, "3:530.41.03-1.fc38");
}

static void test_pacman(void **state)
{
	static const char text[] =
		"[2024-09-05T10:11:12+0200] [PACMAN] Running 'pacman -Syu'\n"
		"[2024-09-05T10:11:13+0200] [ALPM] upgraded nvidia-utils (550.107.02-1 -> 550.120-1)\n"
		"[2019-01-01 10:11] [ALPM] installed nvidia-dkms (415.25-1)\n"
		"[2024-09-06T10:11:13+0200] [ALPM] removed nvidia-open (550.120-1)\n"
		"[2024-09-06T10:11:13+0200] [ALPM] downgraded nvidia (550.120-1 -> 550.107.02-6)\n"
		"[2024-09-06T10:11:14+0200] [ALPM] upgraded broken (no paren\n"
		"[2024-09-06T10:11:15+0200] [ALPM] upgraded linux (6.10.8-1 -> 6.10.9-1)\n";

	(void)state;
	pkg_log_parse(PKG_LOG_PACMAN, text, sizeof(text) - 1, "nvidia", &log_);
	assert_int_equal(log_.n, 4);
	assert_int_equal(log_.malformed, 1);
	assert_string_equal(log_.ev[0].name, "nvidia-utils");
	assert_string_equal(log_.ev[0].from, "550.107.02-1");
	assert_string_equal(log_.ev[0].to, "550.120-1");
	assert_string_equal(log_.ev[0].time, "2024-09-05T10:11:13+0200");
	assert_string_equal(log_.ev[1].time, "2019-01-01 10:11");
	assert_int_equal(log_.ev[2].action, PKG_REMOVE);
	assert_string_equal(log_.ev[2].from, "550.120-1");
	assert_int_equal(log_.ev[3].action, PKG_DOWNGRADE);
	assert_string_equal(log_.ev[3].to, "550.107.02-6");
}

/* More events than kept: the newest PKG_EVENTS_MAX, oldest first; long fields truncated. */
static void test_cap_and_truncation(void **state)
{
	size_t n = PKG_EVENTS_MAX + 10, len = 0, cap = n * 96 + 1024;
	char *text = malloc(cap), *p;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"[t%zu] [ALPM] upgraded nvidia (1.%zu-1 -> 2.%zu-1)\n", i,
					i, i);
	pkg_log_parse(PKG_LOG_PACMAN, text, len, "nvidia", &log_);
	assert_int_equal(log_.matched, n);
	assert_int_equal(log_.n, PKG_EVENTS_MAX);
	assert_string_equal(log_.ev[0].time, "t10");
	assert_string_equal(log_.ev[PKG_EVENTS_MAX - 1].to, "2.41-1");
	free(text);
	/* A name longer than the buffer, and an embedded NUL that ends the text. */
	text = malloc(4096);
	assert_non_null(text);
	p = text + sprintf(text, "[t] [ALPM] installed nvidia");
	memset(p, 'x', 1000);
	p += 1000;
	p += sprintf(p, " (1-1)\n");
	len = (size_t)(p - text);
	memcpy(p, "\0[t] [ALPM] installed nvidia-hidden (1-1)\n", 43);
	pkg_log_parse(PKG_LOG_PACMAN, text, len + 43, "nvidia", &log_);
	assert_int_equal(log_.n, 1);
	assert_int_equal(strlen(log_.ev[0].name), PKG_NAME_MAX - 1);
	free(text);
	pkg_log_parse(PKG_LOG_APT, NULL, 0, NULL, &log_);
	assert_int_equal(log_.n, 0);
}

static void test_upstream_version(void **state)
{
	char v[PKG_VERSION_MAX];

	(void)state;
	pkg_upstream_version("550.107.02-0ubuntu0.24.04.1", v, sizeof(v));
	assert_string_equal(v, "550.107.02");
	pkg_upstream_version("3:535.54.03-1.fc38.x86_64", v, sizeof(v));
	assert_string_equal(v, "535.54.03");
	pkg_upstream_version("550.120-1", v, sizeof(v));
	assert_string_equal(v, "550.120");
	pkg_upstream_version("525.85.12", v, sizeof(v));
	assert_string_equal(v, "525.85.12");
	pkg_upstream_version("", v, sizeof(v));
	assert_string_equal(v, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apt),
		cmocka_unit_test(test_dnf),
		cmocka_unit_test(test_pacman),
		cmocka_unit_test(test_cap_and_truncation),
		cmocka_unit_test(test_upstream_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
