// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The kernel log parser (kernel-log.h, which names the formats): Xid lines counted per code
 * and bus, the last API mismatch message, the driver versions loaded, the GPUs a release
 * refused or dropped. No I/O.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel-log.h"
#include "proc-text.h"
#include "shared/count-lines.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

/* Copies at most n bytes of s into a buffer of size len. */
static void copy_n(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

bool klog_is_month(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

	for (size_t i = 0; i + 3 <= sizeof(months) - 1; i += 3)
		if (s[0] == months[i] && s[1] == months[i + 1] && s[2] == months[i + 2])
			return true;
	return false;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether s[i..] holds "dd" then sep (sep 0: nothing asked of the byte after). */
static bool two_digits_then(const char *s, size_t n, size_t i, char sep)
{
	return i + 2 <= n && is_digit(s[i]) && is_digit(s[i + 1]) &&
	       (!sep || (i + 2 < n && s[i + 2] == sep));
}

size_t klog_short_time(const char *s, size_t n)
{
	size_t i = 15, f = 0;

	if (n < 15 || s[3] != ' ' || !klog_is_month(s) || !(is_digit(s[4]) || s[4] == ' ') ||
	    !is_digit(s[5]) || s[6] != ' ' || !two_digits_then(s, n, 7, ':') ||
	    !two_digits_then(s, n, 10, ':') || !two_digits_then(s, n, 13, 0))
		return 0;
	if (i < n && s[i] == '.') /* short-precise: microseconds */
		while (i + 1 + f < n && f < 7 && is_digit(s[i + 1 + f]))
			f++;
	return f == 6 ? i + 7 : i;
}

void klog_line_timestamp(const char *line, char *buf, size_t len)
{
	const char *s = line + strspn(line, " \t");
	size_t n;

	buf[0] = '\0';
	if (*s == '[') {
		n = strcspn(s, "]\n");
		if (s[n] == ']')
			copy_n(buf, len, s, n + 1);
	} else if (strlen(s) >= 19 && s[4] == '-' && s[7] == '-' && s[10] == 'T') {
		copy_n(buf, len, s, strcspn(s, " \t"));
	} else if (klog_short_time(s, strnlen(s, 32))) {
		copy_n(buf, len, s, 15); /* to the second, the fraction of short-precise left */
	}
}

/* A dotted version token at s ("535.129.03"), without a trailing '.' or ','. */
static bool take_version(const char *s, char *buf, size_t len)
{
	struct version v;
	const char *end;
	size_t n = strspn(s, "0123456789.");

	while (n > 0 && s[n - 1] == '.')
		n--;
	if (n == 0 || n >= len)
		return false;
	copy_n(buf, len, s, n);
	return version_parse_prefix(buf, &v, &end) == 0 && *end == '\0' && v.n >= 2;
}

/* "PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus." after "Xid (". */
static int parse_xid(const char *p, struct xid_event *ret)
{
	const char *close, *q;
	char num[16];
	unsigned code;
	size_t n;

	if (strncmp(p, "PCI:", 4) != 0)
		return -EBADMSG;
	p += 4;
	close = strchr(p, ')');
	if (!close || close == p || (size_t)(close - p) >= sizeof(ret->bus))
		return -EBADMSG;
	copy_n(ret->bus, sizeof(ret->bus), p, (size_t)(close - p));
	if (strncmp(close, "): ", 3) != 0)
		return -EBADMSG;
	p = close + 3;
	n = strspn(p, "0123456789");
	if (n == 0 || n >= sizeof(num))
		return -EBADMSG;
	copy_n(num, sizeof(num), p, n);
	if (parse_uint(num, 10, &code) < 0)
		return -EBADMSG;
	ret->code = code;
	p += n;
	if (*p == ',')
		p++;
	p += strspn(p, " ");
	ret->pid[0] = ret->name[0] = '\0';
	if (strncmp(p, "pid=", 4) == 0) {
		q = strstr(p, ", ");
		n = q ? (size_t)(q - p - 4) : strlen(p + 4);
		copy_n(ret->pid, sizeof(ret->pid), p + 4, n);
		p = q ? q + 2 : p + strlen(p);
		if (strncmp(p, "name=", 5) == 0) {
			q = strstr(p, ", ");
			n = q ? (size_t)(q - p - 5) : strlen(p + 5);
			copy_n(ret->name, sizeof(ret->name), p + 5, n);
			p = q ? q + 2 : p + strlen(p);
		}
	}
	n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
		n--;
	copy_n(ret->text, sizeof(ret->text), p, n);
	return 0;
}

static void add_xid(struct klog *k, const char *line, const char *nvrm, uint64_t lineno)
{
	struct xid_event x = { 0 };
	struct xid_event *e = NULL;

	k->xid_lines++;
	if (parse_xid(nvrm + strlen("NVRM: Xid ("), &x) < 0) {
		if (k->malformed_xid++ == 0)
			copy_n(k->malformed_raw, sizeof(k->malformed_raw), nvrm, strlen(nvrm));
		return;
	}
	for (size_t i = 0; i < k->n_ev; i++)
		if (k->ev[i].code == x.code && streq(k->ev[i].bus, x.bus)) {
			e = &k->ev[i];
			break;
		}
	if (!e) {
		if (k->n_ev >= XID_EVENTS_MAX) {
			k->xid_dropped++;
			return;
		}
		e = &k->ev[k->n_ev++];
		*e = (struct xid_event){ .code = x.code }; /* kernel_log_parse left it unwritten */
		memcpy(e->bus, x.bus, sizeof(e->bus));
	}
	e->count++;
	e->line = lineno;
	e->boot = k->boots;
	memcpy(e->pid, x.pid, sizeof(e->pid));
	memcpy(e->name, x.name, sizeof(e->name));
	memcpy(e->text, x.text, sizeof(e->text));
	klog_line_timestamp(line, e->timestamp, sizeof(e->timestamp));
}

/* The kernel's uptime of a line, "[    34.193735]" at the start (dmesg, /dev/kmsg as text) or
 * right after "kernel: " (rsyslog), in microseconds; false without one. Only the kernel's
 * own lines: Xorg's "gdm-x-session[3434]: [    30.123] (II) ..." carries its own clock. */
static bool klog_uptime(const char *line, uint64_t *ret_usec, const char **ret_msg)
{
	const char *s = line + strspn(line, " \t"), *k;
	uint64_t sec = 0, usec = 0;
	size_t n;

	if (*s != '[') {
		k = strstr(s, " kernel: ");
		if (!k)
			return false;
		s = k + strlen(" kernel: ");
		if (*s != '[')
			return false;
	}
	s++;
	s += strspn(s, " ");
	n = strspn(s, "0123456789");
	if (n == 0 || n > 12 || s[n] != '.')
		return false;
	for (size_t i = 0; i < n; i++)
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	s += n + 1;
	n = strspn(s, "0123456789");
	if (n == 0 || n > 9 || s[n] != ']')
		return false;
	for (size_t i = 0; i < 6; i++) /* to microseconds: 6 digits, padded or cut */
		usec = usec * 10 + (i < n ? (uint64_t)(s[i] - '0') : 0);
	*ret_usec = sec * 1000000 + usec;
	*ret_msg = s + n + 1 + strspn(s + n + 1, " ");
	return true;
}

/* Whether the line starts a boot (kernel-log.h): journalctl's separator, the kernel's banner,
 * or its uptime lower than the last one read. */
static bool boot_starts(struct klog *k, const char *line)
{
	const char *msg = NULL, *kern;
	uint64_t up = 0;
	bool back = false, have = klog_uptime(line, &up, &msg);

	if (startswith(line, "-- Boot ") || startswith(line, "-- Reboot --"))
		return true;
	if (have) {
		back = k->have_uptime && up < k->last_uptime_usec;
		k->last_uptime_usec = up;
		k->have_uptime = true;
	} else if (*(msg = line + strspn(line, " \t")) == '[' && strchr(msg, ']')) {
		msg = strchr(msg, ']') + 1; /* dmesg -T: "[Mon Sep 23 18:37:03 2024] msg" */
		msg += strspn(msg, " ");
	} else if ((kern = strstr(line, " kernel: "))) {
		msg = kern + strlen(" kernel: "); /* journalctl -k, rsyslog without uptimes */
	} else {
		msg = line;
	}
	return back || startswith(msg, "Linux version ");
}

/* "loading NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar ..." or
 * "loading NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build ...". */
static void add_loaded(struct klog *k, const char *line, const char *msg)
{
	const char *p = strstr(msg, "Kernel Module");
	char ver[32];

	if (!p)
		return;
	p += strlen("Kernel Module");
	if (startswith(p, " for "))
		p += 5 + strcspn(p + 5, " "); /* the architecture word */
	p += strspn(p, " ");
	if (!take_version(p, ver, sizeof(ver)))
		return;
	klog_line_timestamp(line, k->last_loaded_ts, sizeof(k->last_loaded_ts));
	if (k->n_loaded > 0 && streq(k->loaded[k->n_loaded - 1], ver))
		return;
	if (k->n_loaded == LOADED_VERSIONS_MAX) {
		memmove(k->loaded[0], k->loaded[1],
			sizeof(k->loaded[0]) * (LOADED_VERSIONS_MAX - 1));
		k->n_loaded--;
	}
	memcpy(k->loaded[k->n_loaded++], ver, sizeof(ver));
}

/* A message that spans lines: msg and the NVRM text of the next few lines, joined with
 * spaces, up to a line without "NVRM: " or one that starts another message (an Xid, or one
 * whose text holds `again`). */
static void join_nvrm_lines(char *joined, size_t size, const char *msg, char *const *next,
			    size_t n_next, const char *again)
{
	size_t o = (size_t)snprintf(joined, size, "%s", msg);

	for (size_t i = 0; i < n_next && o < size - 1; i++) {
		const char *m = strstr(next[i], "NVRM: ");

		if (!m || strstr(m, again) || strstr(m, "Xid ("))
			break;
		o += (size_t)snprintf(joined + o, size - o, " %s", m + strlen("NVRM: "));
	}
}

/* The message of an API mismatch spans lines; join this one and the next few NVRM lines. */
static void add_mismatch(struct klog *k, const char *line, const char *msg, char *const *next,
			 size_t n_next)
{
	char joined[1024];
	const char *p;

	join_nvrm_lines(joined, sizeof(joined), msg, next, n_next, "API mismatch");
	k->mismatch_count++;
	klog_line_timestamp(line, k->mismatch_ts, sizeof(k->mismatch_ts));
	p = strstr(joined, "has the version ");
	if (!p || !take_version(p + strlen("has the version "), k->client_version,
				sizeof(k->client_version)))
		k->client_version[0] = '\0';
	p = strstr(joined, "kernel module has the version ");
	if (!p || !take_version(p + strlen("kernel module has the version "), k->kernel_version,
				sizeof(k->kernel_version)))
		k->kernel_version[0] = '\0';
}

/* "0000:8a:00.0 (PCI ID: 10de:26b9)" after "NVRM: The NVIDIA GPU ": the bus and the id. */
static bool parse_unsupported_head(const char *p, struct klog_unsupported_gpu *ret)
{
	size_t n = strspn(p, "0123456789abcdefABCDEF:.");

	if (n < 7 || n >= sizeof(ret->bus) || !startswith(p + n, " (PCI ID: "))
		return false;
	copy_n(ret->bus, sizeof(ret->bus), p, n);
	p += n + strlen(" (PCI ID: ");
	n = strspn(p, "0123456789abcdefABCDEF:");
	if (n != 9 || p[4] != ':' || p[n] != ')')
		return false;
	copy_n(ret->pci_id, sizeof(ret->pci_id), p, n);
	return true;
}

/* One refusal more of a GPU: counted with an earlier one of the same bus and release, else
 * kept while there is room (*dropped counts the rest). */
static void keep_refusal(struct klog_unsupported_gpu *arr, size_t *n, uint64_t *dropped,
			 struct klog_unsupported_gpu *u, const char *line)
{
	for (size_t i = 0; i < *n; i++) {
		struct klog_unsupported_gpu *e = &arr[i];

		if (strcasecmp(e->bus, u->bus) == 0 &&
		    streq(e->driver_version, u->driver_version)) {
			e->count++;
			klog_line_timestamp(line, e->timestamp, sizeof(e->timestamp));
			return;
		}
	}
	if (*n == UNSUPPORTED_GPUS_MAX) {
		(*dropped)++;
		return;
	}
	u->count = 1;
	klog_line_timestamp(line, u->timestamp, sizeof(u->timestamp));
	arr[(*n)++] = *u;
}

/* The message spans lines ("... (PCI ID: 10de:26b9)\nNVRM: installed in this system is not
 * supported by the\nNVRM: NVIDIA 470.256.02 driver release."): this one and the next few
 * NVRM lines joined, up to the next message. The open module's refusal of a GPU without a
 * GSP starts the same ("... is not supported by open\nNVRM: nvidia.ko because it does not
 * include the required GPU\nNVRM: System Processor (GSP).", kernel-open/nvidia/nv.c) and
 * names no release: it is kept apart, in gsp_refused. */
static void add_unsupported(struct klog *k, const char *line, const char *msg, char *const *next,
			    size_t n_next)
{
	struct klog_unsupported_gpu u = { 0 };
	char joined[1024];
	const char *p;

	if (!parse_unsupported_head(msg + strlen("NVRM: The NVIDIA GPU "), &u))
		return;
	join_nvrm_lines(joined, sizeof(joined), msg, next, n_next, "The NVIDIA");
	p = strstr(joined, "is not supported by open");
	if (p && strstr(p, "does not include the required GPU")) {
		keep_refusal(k->gsp_refused, &k->n_gsp_refused, &k->gsp_refused_dropped, &u, line);
		return;
	}
	/* the proprietary module's refusal of a GPU only the open one initialises (Blackwell:
	 * "... (PCI ID: 10de:2c58)\nNVRM: installed in this system requires use of the NVIDIA
	 * open kernel modules."); it names no release either */
	if (strstr(joined, "requires use of the NVIDIA open")) {
		keep_refusal(k->open_required, &k->n_open_required, &k->open_required_dropped, &u,
			     line);
		return;
	}
	p = strstr(joined, "is not supported by the");
	if (!p || !strstr(p, "driver release"))
		return; /* a message cut short */
	p += strlen("is not supported by the");
	/* between the words: a space, or the next line's "NVRM: " (rsyslog writes the
	 * message's newlines as "#012" on one line) */
	for (const char *q = NULL; q != p;) {
		q = p;
		p += strspn(p, " ");
		if (startswith(p, "#012"))
			p += strlen("#012");
		if (startswith(p, "NVRM:"))
			p += strlen("NVRM:");
	}
	if (startswith(p, "NVIDIA "))
		p += strlen("NVIDIA ");
	if (!take_version(p, u.driver_version, sizeof(u.driver_version)))
		return;
	keep_refusal(k->unsupported, &k->n_unsupported, &k->unsupported_dropped, &u, line);
}

/* nv.c's legacy notice spans lines ("NVRM: The NVIDIA Tesla K80 GPU installed in this system
 * is\nNVRM:  supported through the NVIDIA 470.xx Legacy drivers. ... The 510.47.03 NVIDIA
 * driver will ignore\nNVRM:  this GPU."): the GPU's name, the legacy branch and the release
 * that ignored it, from this line and the next few NVRM lines. */
static void add_legacy(struct klog *k, const char *line, const char *msg, char *const *next,
		       size_t n_next)
{
	struct klog_legacy_gpu u = { 0 };
	const char *name = msg + strlen("NVRM: The NVIDIA "), *end, *p, *q;
	char joined[1024];
	size_t n;

	end = strstr(name, " GPU installed in this system");
	if (!end || end == name)
		return;
	copy_n(u.name, sizeof(u.name), name, (size_t)(end - name));
	join_nvrm_lines(joined, sizeof(joined), msg, next, n_next, "The NVIDIA");
	p = strstr(joined, "supported through the NVIDIA ");
	if (!p)
		return;
	p += strlen("supported through the NVIDIA ");
	n = strcspn(p, " ");
	if (n == 0 || !startswith(p + n, " Legacy drivers"))
		return;
	copy_n(u.legacy_branch, sizeof(u.legacy_branch), p, n);
	q = strstr(p, " NVIDIA driver will ignore");
	if (!q)
		return; /* cut short: the release is on a line not kept */
	/* the version is the word before " NVIDIA driver" */
	for (end = q; end > p && end[-1] != ' ';)
		end--;
	if (end == q || !take_version(end, u.driver_version, sizeof(u.driver_version)))
		return;
	for (size_t i = 0; i < k->n_legacy; i++) {
		struct klog_legacy_gpu *e = &k->legacy[i];

		if (streq(e->name, u.name) && streq(e->driver_version, u.driver_version)) {
			e->count++;
			klog_line_timestamp(line, e->timestamp, sizeof(e->timestamp));
			return;
		}
	}
	if (k->n_legacy == LEGACY_GPUS_MAX) {
		k->legacy_dropped++;
		return;
	}
	u.count = 1;
	klog_line_timestamp(line, u.timestamp, sizeof(u.timestamp));
	k->legacy[k->n_legacy++] = u;
}

/* nvrm_only: kernel_log_parse_nvrm(), the lines without "NVRM: " passed over; neither boots,
 * amdgpu's messages, the modules loaded nor the legacy GPUs read. */
static int parse(const char *text, size_t len, bool nvrm_only, struct klog **ret)
{
	_cleanup_free_ char *buf = text_ndup(text, len);
	/* Not calloc(): the events (30 KiB, eight pages) are written as add_xid() adds them and
	 * read only up to n_ev; zeroing them cost a page fault each on every parse, of a paste
	 * with one NVRM line too. Everything after them starts zeroed. */
	_cleanup_free_ struct klog *k = malloc(sizeof(*k));
	_cleanup_free_ char **lines = NULL;
	size_t n = 1;
	char *state, *line;

	if (!buf || !k)
		return -ENOMEM;
	memset(&k->n_ev, 0, sizeof(*k) - offsetof(struct klog, n_ev));
	n += count_newlines(buf, strlen(buf)); /* buf holds no NUL: text_ndup stops at one */
	lines = calloc(n + 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	n = 0;
	state = buf;
	while ((line = line_next(&state)))
		lines[n++] = line;
	k->lines = n;
	for (size_t i = 0; i < n; i++) {
		const char *nvrm;

		/* an empty line starts no boot and holds no message: most of the lines of the
		 * errors reader's text, which blanks those without "NVRM: "
		 * (pasted-errors-kernel.h) */
		if (!lines[i][0])
			continue;
		nvrm = strstr(lines[i], "NVRM: ");
		if (!nvrm_only) {
			if (boot_starts(k, lines[i]))
				k->boots++;
			klog_amd_line(&k->amd, lines[i]);
		}
		if (!nvrm)
			continue;
		if (startswith(nvrm, "NVRM: Xid ("))
			add_xid(k, lines[i], nvrm, i + 1);
		else if (startswith(nvrm, "NVRM: loading NVIDIA UNIX")) {
			if (!nvrm_only)
				add_loaded(k, lines[i], nvrm);
		} else if (startswith(nvrm, "NVRM: API mismatch:"))
			add_mismatch(k, lines[i], nvrm, lines + i + 1,
				     MIN((size_t)MISMATCH_LOOKAHEAD, n - i - 1));
		else if (startswith(nvrm, "NVRM: The NVIDIA GPU "))
			add_unsupported(k, lines[i], nvrm, lines + i + 1,
					MIN((size_t)UNSUPPORTED_LOOKAHEAD, n - i - 1));
		else if (startswith(nvrm, "NVRM: The NVIDIA ")) {
			if (!nvrm_only)
				add_legacy(k, lines[i], nvrm, lines + i + 1,
					   MIN((size_t)LEGACY_LOOKAHEAD, n - i - 1));
		} else if (startswith(nvrm, "NVRM: Open nvidia.ko is only ready for use on Data "
					    "Center GPUs")) {
			k->open_dc_only++;
			k->open_dc_only_boot = k->boots;
			klog_line_timestamp(lines[i], k->open_dc_only_ts,
					    sizeof(k->open_dc_only_ts));
		}
	}
	*ret = TAKE_PTR(k);
	return 0;
}

int kernel_log_parse(const char *text, size_t len, struct klog **ret)
{
	return parse(text, len, false, ret);
}

int kernel_log_parse_nvrm(const char *text, size_t len, struct klog **ret)
{
	return parse(text, len, true, ret);
}

/* Appends one /dev/kmsg record as dmesg prints it: "[sec.usec] message", \xNN unescaped,
 * one line per line of the message; the " KEY=value" dictionary lines are dropped. */
void kmsg_record_to_text(struct strbuf *sb, const char *rec, size_t len)
{
	const char *semi, *end, *ts;
	uint64_t usec = 0;
	char prefix[48], num[24];
	size_t n;

	len = strnlen(rec, MIN(len, (size_t)KMSG_RECORD_MAX));
	semi = memchr(rec, ';', len);
	if (!semi)
		return;
	/* "<prio>,<seq>,<usec>,<flags>[,…];": the third field. */
	ts = memchr(rec, ',', (size_t)(semi - rec));
	ts = ts ? memchr(ts + 1, ',', (size_t)(semi - ts - 1)) : NULL;
	if (ts) {
		ts++;
		n = strspn(ts, "0123456789");
		if (n > 0 && n < sizeof(num) && ts + n <= semi) {
			memcpy(num, ts, n);
			num[n] = '\0';
			if (parse_u64(num, 10, &usec) < 0)
				usec = 0;
		}
	}
	snprintf(prefix, sizeof(prefix), "[%5" PRIu64 ".%06" PRIu64 "] ", usec / 1000000,
		 usec % 1000000);
	end = memchr(semi + 1, '\n', len - (size_t)(semi + 1 - rec));
	if (!end)
		end = rec + len;
	strbuf_puts(sb, prefix);
	for (const char *p = semi + 1; p < end; p++) {
		/* The text up to the next backslash in one piece: a ring buffer holds thousands
		 * of records. */
		const char *bs = memchr(p, '\\', (size_t)(end - p));
		int hi, lo;

		strbuf_add(sb, p, (size_t)((bs ? bs : end) - p));
		if (!bs)
			break;
		p = bs;
		if (end - p >= 4 && p[1] == 'x' && (hi = parse_hex_digit(p[2])) >= 0 &&
		    (lo = parse_hex_digit(p[3])) >= 0) {
			int v = hi << 4 | lo;

			p += 3;
			if (v == '\n') {
				strbuf_putc(sb, '\n');
				strbuf_puts(sb, prefix);
			} else {
				strbuf_putc(sb, v >= 0x20 && v != 0x7f ? (char)v : ' ');
			}
			continue;
		}
		strbuf_putc(sb, *p);
	}
	strbuf_putc(sb, '\n');
}
