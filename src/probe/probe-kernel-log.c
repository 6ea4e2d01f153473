// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVIDIA driver events in the kernel log: Xid errors, "API mismatch" (kernel module and
 * user-space driver of different versions) and "loading NVIDIA UNIX ... Kernel Module"
 * lines. Live, the ring buffer /dev/kmsg (non-blocking, read until EAGAIN, capped; records
 * "<prio>,<seq>,<usec>,<flags>;<message>" with continuation lines " KEY=value" and
 * non-printable bytes escaped as \xNN, Documentation/ABI/testing/dev-kmsg); when that is
 * not readable (dmesg_restrict as non-root) or under --sysroot, the tail of the first text
 * log of /var/log/kern.log, syslog, messages, dmesg (rsyslog/syslog-ng lines "Mmm dd
 * hh:mm:ss host kernel: [sec.usec] msg" or "2024-03-05T22:23:56.123456+00:00 host kernel:
 * msg", dmesg's "[sec.usec] msg").
 * Xid format: NVIDIA/open-gpu-kernel-modules src/nvidia/src/kernel/gpu/rc/kernel_rc.c
 * krcReportXid: "NVRM: Xid (PCI:%04x:%02x:%02x): %d, pid=%s, name=%s, %s", with
 * " GPU-I:%02u" and " GPU-CI:%02u" inside the parentheses under MIG, pid='<unknown>' and
 * name=<unknown> when no process is known (notes in shared/facts/xid.tsv); drivers before
 * that left out pid and name. API mismatch: kernel-open/nvidia/nv.c, "NVRM: API mismatch:
 * the client has the version %s, but\nNVRM: this kernel module has the version %s.  Please"
 * (newer drivers name the client: "the client '<comm>' (pid N)\nNVRM: has the version ...").
 * Writes "driver.kernel_log" and "driver.xid_events[]" (one per Xid code and bus, counted).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe-text.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define KLOG_FILE_TAIL	    ((size_t)8 << 20)  /* bytes read from the end of a log file */
#define KMSG_MAX_BYTES	    ((size_t)16 << 20) /* /dev/kmsg text kept */
#define KMSG_MAX_RECORDS    262144u
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

/* Copies at most n bytes of s into a buffer of size len. */
static void copy_n(char *dst, size_t len, const char *s, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool is_month(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

	for (size_t i = 0; i + 3 <= sizeof(months) - 1; i += 3)
		if (strncmp(s, months + i, 3) == 0)
			return true;
	return false;
}

/* The time stamp a log line starts with: "[  12.345678]", an RFC 3339 token, "Mar  5 22:23:56". */
static void line_timestamp(const char *line, char *buf, size_t len)
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
	} else if (strlen(s) >= 15 && is_month(s) && s[3] == ' ' && s[9] == ':' && s[12] == ':') {
		copy_n(buf, len, s, 15);
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
		e->code = x.code;
		memcpy(e->bus, x.bus, sizeof(e->bus));
	}
	e->count++;
	e->line = lineno;
	memcpy(e->pid, x.pid, sizeof(e->pid));
	memcpy(e->name, x.name, sizeof(e->name));
	memcpy(e->text, x.text, sizeof(e->text));
	line_timestamp(line, e->timestamp, sizeof(e->timestamp));
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
	line_timestamp(line, k->last_loaded_ts, sizeof(k->last_loaded_ts));
	if (k->n_loaded > 0 && streq(k->loaded[k->n_loaded - 1], ver))
		return;
	if (k->n_loaded == LOADED_VERSIONS_MAX) {
		memmove(k->loaded[0], k->loaded[1],
			sizeof(k->loaded[0]) * (LOADED_VERSIONS_MAX - 1));
		k->n_loaded--;
	}
	memcpy(k->loaded[k->n_loaded++], ver, sizeof(ver));
}

/* The message of an API mismatch spans lines; join this one and the next few NVRM lines. */
static void add_mismatch(struct klog *k, const char *line, const char *msg, char *const *next,
			 size_t n_next)
{
	char joined[1024];
	const char *p;
	size_t o;

	o = (size_t)snprintf(joined, sizeof(joined), "%s", msg);
	for (size_t i = 0; i < n_next && o < sizeof(joined) - 1; i++) {
		const char *m = strstr(next[i], "NVRM: ");

		if (!m || strstr(m, "API mismatch") || strstr(m, "Xid ("))
			break;
		o += (size_t)snprintf(joined + o, sizeof(joined) - o, " %s", m + strlen("NVRM: "));
	}
	k->mismatch_count++;
	line_timestamp(line, k->mismatch_ts, sizeof(k->mismatch_ts));
	p = strstr(joined, "has the version ");
	if (!p || !take_version(p + strlen("has the version "), k->client_version,
				sizeof(k->client_version)))
		k->client_version[0] = '\0';
	p = strstr(joined, "kernel module has the version ");
	if (!p || !take_version(p + strlen("kernel module has the version "), k->kernel_version,
				sizeof(k->kernel_version)))
		k->kernel_version[0] = '\0';
}

static void klog_write(struct snap_node *drv, const struct klog *k, const char *source)
{
	struct snap_node *kl = snap_object(drv, "kernel_log");
	struct snap_node *mm, *arr, *lv;

	snap_set_str(kl, "source", source, source);
	snap_set_int(kl, "lines", (int64_t)k->lines, source);
	snap_set_int(kl, "xid_lines", (int64_t)k->xid_lines, source);
	if (k->malformed_xid)
		snap_set_malformed(kl, "unparsed_xid_lines", k->malformed_raw, source,
				   "Xid line not in the krcReportXid format");
	if (k->xid_dropped)
		snap_set_int(kl, "xid_events_dropped", (int64_t)k->xid_dropped, source);

	mm = snap_object(kl, "api_mismatch");
	snap_set_int(mm, "count", (int64_t)k->mismatch_count, source);
	if (k->mismatch_count) {
		if (k->client_version[0])
			snap_set_str(mm, "client_version", k->client_version, source);
		else
			snap_set_state(mm, "client_version", FACT_MALFORMED, source,
				       "no \"has the version\" in the message");
		if (k->kernel_version[0])
			snap_set_str(mm, "kernel_version", k->kernel_version, source);
		else
			snap_set_state(mm, "kernel_version", FACT_MALFORMED, source,
				       "no \"kernel module has the version\" in the message");
		if (k->mismatch_ts[0])
			snap_set_str(mm, "last_timestamp", k->mismatch_ts, source);
	}
	lv = snap_array(kl, "loaded_versions");
	for (size_t i = 0; i < k->n_loaded; i++)
		snap_append_str(lv, k->loaded[i], source);
	if (k->last_loaded_ts[0])
		snap_set_str(kl, "last_loaded_timestamp", k->last_loaded_ts, source);

	arr = snap_array(drv, "xid_events");
	for (size_t i = 0; i < k->n_ev; i++) {
		const struct xid_event *e = &k->ev[i];
		struct snap_node *o = snap_append_object(arr);

		snap_set_int(o, "code", e->code, source);
		snap_set_str(o, "bus_id", e->bus, source);
		snap_set_int(o, "count", (int64_t)e->count, source);
		snap_set_str(o, "text", e->text, source);
		if (e->pid[0])
			snap_set_str(o, "pid", e->pid, source);
		else
			snap_set_state(o, "pid", FACT_ABSENT, source, "no pid= field");
		if (e->name[0])
			snap_set_str(o, "process", e->name, source);
		else
			snap_set_state(o, "process", FACT_ABSENT, source, "no name= field");
		snap_set_int(o, "last_line", (int64_t)e->line, source);
		if (e->timestamp[0])
			snap_set_str(o, "last_timestamp", e->timestamp, source);
		else
			snap_set_state(o, "last_timestamp", FACT_ABSENT, source,
				       "line has no time stamp");
	}
}

int probe_parse_kernel_log(struct snap_node *drv, const char *text, size_t len, const char *source)
{
	_cleanup_free_ char *buf = probe_text_dup(text, len);
	_cleanup_free_ struct klog *k = calloc(1, sizeof(*k));
	_cleanup_free_ char **lines = NULL;
	size_t n = 1;
	char *state, *line;

	if (!buf || !k)
		return -ENOMEM;
	for (const char *p = buf; *p; p++)
		n += *p == '\n';
	lines = calloc(n + 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	n = 0;
	state = buf;
	while ((line = line_next(&state)))
		lines[n++] = line;
	k->lines = n;
	for (size_t i = 0; i < n; i++) {
		const char *nvrm = strstr(lines[i], "NVRM: ");

		if (!nvrm)
			continue;
		if (startswith(nvrm, "NVRM: Xid ("))
			add_xid(k, lines[i], nvrm, i + 1);
		else if (startswith(nvrm, "NVRM: loading NVIDIA UNIX"))
			add_loaded(k, lines[i], nvrm);
		else if (startswith(nvrm, "NVRM: API mismatch:"))
			add_mismatch(k, lines[i], nvrm, lines + i + 1,
				     MIN((size_t)MISMATCH_LOOKAHEAD, n - i - 1));
	}
	klog_write(drv, k, source);
	return 0;
}

/* The last `cap` bytes of a regular file, from the first whole line on. -EBADFD: not a
 * regular file (root_file_open() refuses a FIFO planted in a sysroot: it must not hang). */
static int read_tail(struct probe_env *pe, const char *path, char **ret, size_t *ret_len,
		     bool *ret_truncated)
{
	_cleanup_(root_file_closep) struct root_file f = ROOT_FILE_NULL;
	_cleanup_free_ char *buf = NULL;
	uint64_t off;
	size_t got;
	ssize_t n;
	int err = root_file_open(pe->root, path, SIZE_MAX, &f);

	if (err == -EISDIR || err == -EINVAL)
		return -EBADFD;
	if (err < 0)
		return err;
	off = f.size > KLOG_FILE_TAIL ? f.size - KLOG_FILE_TAIL : 0;
	buf = malloc((size_t)(f.size - off) + 1);
	if (!buf)
		return -ENOMEM;
	n = root_file_pread(&f, buf, (size_t)(f.size - off), off); /* short: rotated meanwhile */
	if (n < 0)
		return (int)n;
	got = (size_t)n;
	buf[got] = '\0';
	if (off > 0) {
		char *nl = memchr(buf, '\n', got);
		size_t skip = nl ? (size_t)(nl - buf) + 1 : got;

		memmove(buf, buf + skip, got - skip + 1);
		got -= skip;
	}
	*ret = TAKE_PTR(buf);
	*ret_len = got;
	*ret_truncated = off > 0;
	return 0;
}

/* Appends one /dev/kmsg record as dmesg prints it: "[sec.usec] message", \xNN unescaped,
 * one line per line of the message; the " KEY=value" dictionary lines are dropped. */
void probe_kmsg_record_to_text(struct strbuf *sb, const char *rec, size_t len)
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
		int hi, lo;

		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' &&
		    (hi = parse_hex_digit(p[2])) >= 0 && (lo = parse_hex_digit(p[3])) >= 0) {
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

/* The live ring buffer: one record per read(2), until EAGAIN (no blocking, ever). */
static int read_kmsg(struct probe_env *pe, char **ret, size_t *ret_len, bool *ret_truncated)
{
	struct strbuf sb = STRBUF_INIT;
	_cleanup_free_ char *rec = malloc(KMSG_RECORD_MAX + 1);
	unsigned records = 0;
	bool truncated = false;
	int fd, err = 0;

	if (!rec)
		return -ENOMEM;
	fd = root_open(pe->root, "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fd;
	strbuf_init(&sb, KMSG_MAX_BYTES);
	for (;;) {
		ssize_t n = read(fd, rec, KMSG_RECORD_MAX);

		if (n < 0) {
			if (errno == EINTR || errno == EPIPE) /* EPIPE: overwritten, go on */
				continue;
			if (errno != EAGAIN)
				err = -errno;
			break;
		}
		if (n == 0)
			break;
		probe_kmsg_record_to_text(&sb, rec, (size_t)n);
		if (sb.err || ++records >= KMSG_MAX_RECORDS) {
			truncated = true;
			break;
		}
	}
	close(fd);
	if (err < 0 && records == 0) {
		strbuf_done(&sb);
		return err;
	}
	if (sb.err == -ENOMEM) {
		strbuf_done(&sb);
		return -ENOMEM;
	}
	*ret_len = sb.len;
	*ret_truncated = truncated;
	sb.err = 0;
	return strbuf_steal(&sb, ret);
}

int probe_kernel_log(struct probe_env *pe, struct snapshot *s)
{
	static const char *const files[] = { "/var/log/kern.log", "/var/log/syslog",
					     "/var/log/messages", "/var/log/dmesg" };
	struct snap_node *drv = snap_object(snapshot_root(s), "driver");
	struct snap_node *kl = snap_object(drv, "kernel_log");
	_cleanup_free_ char *text = NULL;
	const char *first_path = NULL;
	bool truncated = false;
	size_t len = 0;
	int err, first_err = -ENOENT;

	if (root_is_live(pe->root)) {
		err = read_kmsg(pe, &text, &len, &truncated);
		if (err == -ENOMEM)
			return err;
		if (err == 0) {
			snap_set_bool(kl, "kmsg", true, "/dev/kmsg");
			snap_set_bool(kl, "truncated", truncated, "/dev/kmsg");
			return probe_parse_kernel_log(drv, text, len, "/dev/kmsg")
				       ?: snapshot_error(s);
		}
		/* dmesg_restrict=1 without CAP_SYSLOG: EPERM. Said so, then the files. */
		snap_set_errno(kl, "kmsg", err, "/dev/kmsg");
	} else {
		snap_set_state(kl, "kmsg", FACT_UNPROBED, "/dev/kmsg",
			       "live only (the running kernel's ring buffer)");
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		err = read_tail(pe, files[i], &text, &len, &truncated);
		if (err == -ENOMEM)
			return err;
		if (err == 0) {
			snap_set_bool(kl, "truncated", truncated, files[i]);
			return probe_parse_kernel_log(drv, text, len, files[i])
				       ?: snapshot_error(s);
		}
		if (err != -ENOENT && first_err == -ENOENT) {
			first_err = err;
			first_path = files[i];
		}
	}
	if (first_err == -EBADFD) {
		snap_set_state(kl, "source", FACT_MALFORMED, first_path, "not a regular file");
		snap_set_state(drv, "xid_events", FACT_MALFORMED, first_path, "not a regular file");
	} else if (first_path) {
		snap_set_errno(kl, "source", first_err, first_path);
		snap_set_errno(drv, "xid_events", first_err, first_path);
	} else {
		snap_set_state(kl, "source", FACT_ABSENT, "/var/log",
			       "no kern.log, syslog, messages or dmesg");
		snap_set_state(drv, "xid_events", FACT_ABSENT, "/var/log",
			       "no readable kernel log");
	}
	return snapshot_error(s);
}
