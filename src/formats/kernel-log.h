/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel log as text (syslog files, dmesg output, or /dev/kmsg records turned into
 * dmesg's form): the NVIDIA driver's Xid, "API mismatch" and "loading NVIDIA UNIX ... Kernel
 * Module" lines, over (text, len) with no I/O. Formats:
 * - rsyslog/syslog-ng lines "Mmm dd hh:mm:ss host kernel: [sec.usec] msg" or
 *   "2024-03-05T22:23:56.123456+00:00 host kernel: msg", dmesg's "[sec.usec] msg";
 * - /dev/kmsg records "<prio>,<seq>,<usec>,<flags>;<message>" with continuation lines
 *   " KEY=value" and non-printable bytes escaped as \xNN (Documentation/ABI/testing/dev-kmsg);
 * - Xid: NVIDIA/open-gpu-kernel-modules src/nvidia/src/kernel/gpu/rc/kernel_rc.c
 *   krcReportXid: "NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, %s", with
 *   " GPU-I:%02u" and " GPU-CI:%02u" inside the parentheses under MIG, pid='<unknown>' and
 *   name=<unknown> when no process is known; drivers before that left out pid and name;
 * - API mismatch: kernel-open/nvidia/nv.c, "NVRM: API mismatch: the client has the version
 *   %s, but\nNVRM: this kernel module has the version %s.  Please" (newer drivers name the
 *   client: "the client '<comm>' (pid N)\nNVRM: has the version ...").
 * Fuzzed by tests/fuzz/fuzz-kernel-log.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KMSG_RECORD_MAX	    8192u /* CONSOLE_EXT_LOG_MAX */
#define XID_EVENTS_MAX	    64u
#define LOADED_VERSIONS_MAX 16u
#define MISMATCH_LOOKAHEAD  4u /* continuation lines of one API mismatch message */

struct xid_event {
	unsigned code;
	char bus[48]; /* "0000:3b:00", or with " GPU-I:01 GPU-CI:00" under MIG */
	uint64_t count;
	char pid[32], name[64], text[256], timestamp[40];
	uint64_t line;
};

struct klog {
	struct xid_event ev[XID_EVENTS_MAX];
	size_t n_ev;
	uint64_t xid_lines, xid_dropped, malformed_xid, lines;
	char malformed_raw[256];
	uint64_t mismatch_count;
	char client_version[32], kernel_version[32], mismatch_ts[40];
	char loaded[LOADED_VERSIONS_MAX][32];
	size_t n_loaded;
	char last_loaded_ts[40];
};

/* Parses the kernel log text (up to len or an embedded NUL) into *ret (malloc()ed; free()
 * it). Returns 0 or -ENOMEM. */
int kernel_log_parse(const char *text, size_t len, struct klog **ret);

/* One /dev/kmsg record ("prio,seq,usec,flags;message\n KEY=value…") appended to sb as dmesg
 * prints it ("[sec.usec] message\n", \xNN escapes undone, a line per message line). */
struct strbuf;
void kmsg_record_to_text(struct strbuf *sb, const char *rec, size_t len);
