// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted kernel log lines (`gpuenv explain`: dmesg, `journalctl -k`, syslog) for
 * what is not an error: the running kernel's "Linux version 6.5.0-14-generic (buildd@…) …"
 * (init/version.c linux_banner) and the NVIDIA module's "NVRM: loading NVIDIA UNIX x86_64 Kernel
 * Module  535.104.05 …" (or "… Open Kernel Module for x86_64  560.35.03 …", nv.c), whose
 * version is read by the probe's /proc/driver/nvidia/version parser (the same text follows
 * "NVRM version:" there). Xid and "API mismatch" lines are the errors reader's.
 * Also the GPUs the NVIDIA module could not claim because another driver holds them: when
 * nvidia.ko loads it counts the display devices it supports (NVIDIA GPUs) and prints, for one
 * already bound elsewhere, "NVRM: GPU 0000:01:00.0 is already bound to vfio-pci."
 * (kernel-open/nvidia/nv-pci.c check_for_bound_driver(): "NVRM: GPU %04x:%02x:%02x.%x is
 * already bound to %s.\n", the driver's name or "another driver"): that GPU's bus id and the
 * driver that holds it, as lspci -k's "Kernel driver in use:" gives them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "formats/proc-text.h"
#include "shared/strv.h"

#define LOADED_MAX 16 /* as the kernel-log probe: the last 16 */
#define BOUND_MAX  16 /* GPUs named by "already bound" lines; later ones are left unread */

/* n hex digits at s */
static bool hex_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* "GPU 0000:01:00.0 is already bound to vfio-pci." at m (past "NVRM: "): the bus id
 * (domain:bus:device.function, nv-pci.c's %04x:%02x:%02x.%x) and the driver's name into
 * bus (13 bytes) and drv; false for another text, or "another driver" (no name given). */
static bool bound_line(const char *m, char bus[13], char *drv, size_t drv_len)
{
	static const char gpu[] = "GPU ", is[] = " is already bound to ";
	const char *b = m + strlen(gpu), *d;
	size_t n = 0;

	if (strncmp(m, gpu, strlen(gpu)) != 0 || !hex_digits(b, 4) || b[4] != ':' ||
	    !hex_digits(b + 5, 2) || b[7] != ':' || !hex_digits(b + 8, 2) || b[10] != '.' ||
	    !hex_digits(b + 11, 1) || strncmp(b + 12, is, strlen(is)) != 0)
		return false;
	d = b + 12 + strlen(is);
	/* a module name: letters, digits, '_' and '-' (vfio-pci, nouveau, pci-stub …) */
	while (isalnum((unsigned char)d[n]) || d[n] == '_' || d[n] == '-')
		n++;
	if (n == 0 || n >= drv_len ||
	    (d[n] != '.' && d[n] != '\0' && !isspace((unsigned char)d[n])) ||
	    (n == 7 && strncmp(d, "another", 7) == 0))
		return false;
	memcpy(bus, b, 12);
	bus[12] = '\0';
	memcpy(drv, d, n);
	drv[n] = '\0';
	return true;
}

/* The time stamp before the message: dmesg's "[    5.123456]", syslog's "Mar 14 03:12:55",
 * an RFC 3339 token; copied into buf ("" when none). */
static void timestamp(const char *line, const char *msg, char *buf, size_t len)
{
	const char *b = strchr(line, '['), *e = b ? strchr(b, ']') : NULL;
	size_t n = 0;

	buf[0] = '\0';
	if (strlen(line) > 15 && line[3] == ' ' && line[9] == ':' && line[12] == ':') {
		b = line; /* syslog's "Mar 14 03:12:55 host kernel: …" first, as the probe */
		n = 15;
	} else if (strlen(line) > 19 && line[4] == '-' && line[10] == 'T') {
		b = line;
		n = strcspn(line, " ");
	} else if (b && e && e < msg) {
		n = (size_t)(e - b + 1);
	}
	if (n && n < len && b + n <= msg) {
		memcpy(buf, b, n);
		buf[n] = '\0';
	}
}

int pasted_read_kernel_log(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "kernel-log" };
	char loaded[LOADED_MAX][64];
	unsigned loaded_line[LOADED_MAX], n_loaded = 0, last = 0;
	char last_ts[40] = "";
	char bound[BOUND_MAX][13], bound_drv[BOUND_MAX][64];
	unsigned n_bound = 0;
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		const char *m;
		char bus[13], drv[64];

		if ((m = strstr(line, "NVRM: GPU ")) && bound_line(m + 6, bus, drv, sizeof(drv))) {
			unsigned i = 0;

			/* one element per GPU; nvidia.ko prints the line at each load, so a
			 * repeat adds nothing unless another driver holds the GPU by then */
			while (i < n_bound && strcmp(bound[i], bus) != 0)
				i++;
			if (i < n_bound && strcmp(bound_drv[i], drv) == 0)
				continue;
			if (i == n_bound) {
				if (n_bound == BOUND_MAX)
					continue;
				snprintf(bound[n_bound++], sizeof(bound[0]), "%s", bus);
			}
			snprintf(bound_drv[i], sizeof(bound_drv[i]), "%s", drv);
			pasted_put(&o, it.no, bus, "hardware.gpus.%u.bus_id", i);
			pasted_put(&o, it.no, "NVIDIA", "hardware.gpus.%u.vendor", i);
			pasted_put(&o, it.no, drv, "hardware.gpus.%u.driver", i);
		} else if ((m = strstr(line, "Linux version ")) && m[14] >= '0' && m[14] <= '9' &&
			   strstr(m, " (")) {
			char rel[128];

			if (pasted_token(m + 14, rel, sizeof(rel)))
				pasted_put(&o, it.no, rel, "host.kernel_release");
		} else if ((m = strstr(line, "NVRM: loading NVIDIA UNIX "))) {
			/* the message from "NVIDIA UNIX" as /proc/driver/nvidia/version's "NVRM
			 * version:" value (its first 497 bytes, stripped), read as the probe reads
			 * it; not through a copy of the line parsed as that file (a snprintf, a
			 * malloc, a strdup: 1,500 instructions a line, docs/explain.md) */
			char value[498], version[64];
			size_t n = strnlen(m + 14, sizeof(value) - 1);
			const char *flavor;

			memcpy(value, m + 14, n);
			value[n] = '\0';
			flavor = nvrm_version(strstrip(value), version, sizeof(version));
			if (!flavor)
				continue;
			/* repeats collapsed, as the probe's loaded_versions[] */
			if (!n_loaded ||
			    strcmp(loaded[(n_loaded - 1) % LOADED_MAX], version) != 0) {
				memcpy(loaded[n_loaded % LOADED_MAX], version, strlen(version) + 1);
				loaded_line[n_loaded % LOADED_MAX] = it.no;
				n_loaded++;
			}
			timestamp(line, m, last_ts, sizeof(last_ts));
			last = it.no;
		}
	}
	pasted_lines_done(&it);
	unsigned first = n_loaded > LOADED_MAX ? n_loaded - LOADED_MAX : 0;
	for (unsigned i = first; i < n_loaded; i++)
		pasted_put(&o, loaded_line[i % LOADED_MAX], loaded[i % LOADED_MAX],
			   "driver.kernel_log.loaded_versions.%u", i - first);
	if (last_ts[0])
		pasted_put(&o, last, last_ts, "driver.kernel_log.last_loaded_timestamp");
	return pasted_out_result(&o);
}
