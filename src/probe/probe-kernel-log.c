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
 * name=<unknown> when no process is known (docs/formats/kernel-log.md); drivers before
 * that left out pid and name. API mismatch: kernel-open/nvidia/nv.c, "NVRM: API mismatch:
 * the client has the version %s, but\nNVRM: this kernel module has the version %s.  Please"
 * (newer drivers name the client: "the client '<comm>' (pid N)\nNVRM: has the version ...").
 * amdgpu's firmware and init failures and amdkfd's "not supported in kfd", and the GPUs a
 * driver release refused ("not supported by the NVIDIA <version> driver release"; kernel-log.h).
 * Writes "driver.kernel_log" and "driver.xid_events[]" (one per Xid code and bus, counted, with
 * "boot": "current" when its last line is of the running boot, "earlier" when a boot started
 * after it, absent when the log shows no boot start; see kernel-log.h for the boundaries).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/kernel-log.h"
#include "probe-intel.h"
#include "probe-text.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strbuf.h"
#include "shared/strv.h"

#define KLOG_FILE_TAIL	 ((size_t)8 << 20)  /* bytes read from the end of a log file */
#define KMSG_MAX_BYTES	 ((size_t)16 << 20) /* /dev/kmsg text kept */
#define KMSG_MAX_RECORDS 262144u

/* The GPUs a driver release refused ("not supported by the NVIDIA <version> driver release"),
 * under kernel_log.unsupported_gpus when the log shows any: the release that refused a GPU
 * is the driver's version even when the module then failed to load (no /sys/module/nvidia).
 * The open module's refusals of GPUs without a GSP, which name no release, go under
 * kernel_log.gsp_refused_gpus the same way. */
static void klog_write_refused(struct snap_node *kl, const char *key,
			       const struct klog_unsupported_gpu *gpus, size_t n, uint64_t dropped,
			       const char *source)
{
	struct snap_node *arr;
	char dropped_key[64];

	if (!n)
		return; /* the usual case: nothing written */
	arr = snap_array(kl, key);
	for (size_t i = 0; i < n; i++) {
		const struct klog_unsupported_gpu *u = &gpus[i];
		struct snap_node *o = snap_append_object(arr);

		snap_set_str(o, "bus_id", u->bus, source);
		snap_set_str(o, "pci_id", u->pci_id, source);
		if (u->driver_version[0])
			snap_set_str(o, "driver_version", u->driver_version, source);
		snap_set_int(o, "count", (int64_t)u->count, source);
		if (u->timestamp[0])
			snap_set_str(o, "last_timestamp", u->timestamp, source);
	}
	snprintf(dropped_key, sizeof(dropped_key), "%s_dropped", key);
	if (dropped)
		snap_set_int(kl, dropped_key, (int64_t)dropped, source);
}

/* The GPUs a release dropped to a legacy branch ("... supported through the NVIDIA 470.xx
 * Legacy drivers. ... The 510.47.03 NVIDIA driver will ignore this GPU"), under
 * kernel_log.legacy_gpus when the log shows any: with no other GPU the module then fails to
 * load, and the log is the only place the release that ran shows. */
static void klog_write_legacy(struct snap_node *kl, const struct klog *k, const char *source)
{
	struct snap_node *arr;

	if (!k->n_legacy)
		return; /* the usual case: nothing written */
	arr = snap_array(kl, "legacy_gpus");
	for (size_t i = 0; i < k->n_legacy; i++) {
		const struct klog_legacy_gpu *u = &k->legacy[i];
		struct snap_node *o = snap_append_object(arr);

		snap_set_str(o, "name", u->name, source);
		snap_set_str(o, "legacy_branch", u->legacy_branch, source);
		snap_set_str(o, "driver_version", u->driver_version, source);
		snap_set_int(o, "count", (int64_t)u->count, source);
		if (u->timestamp[0])
			snap_set_str(o, "last_timestamp", u->timestamp, source);
	}
	if (k->legacy_dropped)
		snap_set_int(kl, "legacy_gpus_dropped", (int64_t)k->legacy_dropped, source);
}

/* amdgpu's firmware and init failures, amdkfd's refusal and amdgpu's uncorrectable RAS
 * reports, under kernel_log.amdgpu when the log shows any. */
static void klog_write_amd(struct snap_node *kl, const struct klog_amd *a, const char *source)
{
	struct snap_node *o;

	if (!a->fw_failures && !a->init_fatal && !a->kfd_unsupported && !a->ras_uncorrectable &&
	    !a->kfd_no_atomics)
		return; /* the usual case, NVIDIA's machines included: nothing written */
	o = snap_object(kl, "amdgpu");
	snap_set_int(o, "firmware_failures", (int64_t)a->fw_failures, source);
	if (a->fw_failures) {
		snap_set_str(o, "firmware_message", a->fw_message, source);
		if (a->fw_file[0])
			snap_set_str(o, "firmware_file", a->fw_file, source);
		if (a->fw_timestamp[0])
			snap_set_str(o, "firmware_last_timestamp", a->fw_timestamp, source);
	}
	snap_set_int(o, "init_failures", (int64_t)a->init_fatal, source);
	if (a->init_fatal)
		snap_set_str(o, "init_message", a->init_message, source);
	if (a->fw_failures || a->init_fatal) { /* which GPUs failed: judged per GPU */
		struct snap_node *buses = snap_array(o, "failed_buses");

		for (unsigned i = 0; i < a->n_failed_bus; i++)
			snap_append_str(buses, a->failed_bus[i], source);
		if (a->failed_bus_dropped)
			snap_set_int(o, "failed_buses_dropped", (int64_t)a->failed_bus_dropped,
				     source);
		snap_set_int(o, "failed_lines_without_bus", (int64_t)a->failed_unnamed, source);
	}
	snap_set_int(o, "kfd_unsupported", (int64_t)a->kfd_unsupported, source);
	if (a->kfd_unsupported)
		snap_set_str(o, "kfd_message", a->kfd_message, source);
	if (a->kfd_no_atomics) { /* only then: the keys of the other machines stay as they were */
		snap_set_int(o, "kfd_no_atomics", (int64_t)a->kfd_no_atomics, source);
		snap_set_str(o, "atomics_message", a->atomics_message, source);
		if (a->atomics_pci_id[0])
			snap_set_str(o, "atomics_pci_id", a->atomics_pci_id, source);
		if (a->atomics_have_fw) {
			snap_set_int(o, "atomics_mec_firmware", a->atomics_mec_fw, source);
			snap_set_int(o, "atomics_firmware_needed", a->atomics_fw_needed, source);
		}
	}
	snap_set_int(o, "ras_uncorrectable", (int64_t)a->ras_uncorrectable, source);
	if (a->ras_uncorrectable) {
		snap_set_str(o, "ras_message", a->ras_message, source);
		if (a->ras_bus[0])
			snap_set_str(o, "ras_bus", a->ras_bus, source);
		if (a->ras_timestamp[0])
			snap_set_str(o, "ras_last_timestamp", a->ras_timestamp, source);
	}
}

/* The open module's "only ready for use on Data Center GPUs", under
 * kernel_log.open_module_datacenter_only when the log shows it: count, last_timestamp, and
 * boot as for an Xid event. */
static void klog_write_open_dc_only(struct snap_node *kl, const struct klog *k, const char *source)
{
	struct snap_node *o;

	if (!k->open_dc_only)
		return; /* the usual case: nothing written */
	o = snap_object(kl, "open_module_datacenter_only");
	snap_set_int(o, "count", (int64_t)k->open_dc_only, source);
	if (k->open_dc_only_ts[0])
		snap_set_str(o, "last_timestamp", k->open_dc_only_ts, source);
	if (streq(source, "/dev/kmsg") || (k->boots > 0 && k->open_dc_only_boot == k->boots))
		snap_set_str(o, "boot", "current", source);
	else if (k->open_dc_only_boot < k->boots)
		snap_set_str(o, "boot", "earlier", source);
	else
		snap_set_state(o, "boot", FACT_ABSENT, source,
			       "the log shows no boot start (\"Linux version\", \"-- Boot\")");
}

static void klog_write(struct snap_node *drv, const struct klog *k, const char *source)
{
	struct snap_node *kl = snap_object(drv, "kernel_log");
	struct snap_node *mm, *arr, *lv;
	bool whole_boot;

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
	klog_write_amd(kl, &k->amd, source);
	klog_write_refused(kl, "unsupported_gpus", k->unsupported, k->n_unsupported,
			   k->unsupported_dropped, source);
	klog_write_refused(kl, "gsp_refused_gpus", k->gsp_refused, k->n_gsp_refused,
			   k->gsp_refused_dropped, source);
	klog_write_refused(kl, "open_required_gpus", k->open_required, k->n_open_required,
			   k->open_required_dropped, source);
	klog_write_legacy(kl, k, source);
	klog_write_open_dc_only(kl, k, source);
	lv = snap_array(kl, "loaded_versions");
	for (size_t i = 0; i < k->n_loaded; i++)
		snap_append_str(lv, k->loaded[i], source);
	if (k->last_loaded_ts[0])
		snap_set_str(kl, "last_loaded_timestamp", k->last_loaded_ts, source);

	/* The ring buffer holds the running boot only; a log file holds every boot it kept, the
	 * last one the current boot once the file shows where it started. */
	whole_boot = streq(source, "/dev/kmsg");
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
		if (whole_boot || (k->boots > 0 && e->boot == k->boots))
			snap_set_str(o, "boot", "current", source);
		else if (e->boot < k->boots)
			snap_set_str(o, "boot", "earlier", source);
		else /* no boot start in what was read: the lines may be of any boot */
			snap_set_state(
				o, "boot", FACT_ABSENT, source,
				"the log shows no boot start (\"Linux version\", \"-- Boot\")");
		if (e->timestamp[0])
			snap_set_str(o, "last_timestamp", e->timestamp, source);
		else
			snap_set_state(o, "last_timestamp", FACT_ABSENT, source,
				       "line has no time stamp");
	}
}

int probe_parse_kernel_log(struct snap_node *drv, const char *text, size_t len, const char *source)
{
	_cleanup_free_ struct klog *k = NULL;
	int err = kernel_log_parse(text, len, &k);

	if (err < 0)
		return err;
	klog_write(drv, k, source);
	return 0;
}

/* The live ring buffer: one record per read(2), until EAGAIN (no blocking, ever). */
static int read_kmsg_live(struct probe_env *pe, char **ret, size_t *ret_len, bool *ret_truncated)
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
		kmsg_record_to_text(&sb, rec, (size_t)n);
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

/* The ring buffer as a capture kept it (core/kept.c): its text, "kmsg.truncated" when the
 * read stopped at the cap, or "kmsg.error" (the errno name) when it could not be read.
 * -ENOMEDIUM when the root holds none (a sysroot that is not a capture of a live machine). */
static int read_kmsg_kept(struct probe_env *pe, char **ret, size_t *ret_len, bool *ret_truncated)
{
	_cleanup_free_ char *why = NULL, *flag = NULL;
	size_t n;
	int err = ctx_kept(pe->ctx, "kmsg.error", 64, &why, &n);

	if (err == -ENOMEM)
		return err;
	if (err == 0)
		return errno_from_name(why) ? -errno_from_name(why) : -EIO;
	err = ctx_kept(pe->ctx, "kmsg", KMSG_MAX_BYTES, ret, ret_len);
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return -ENOMEDIUM;
	err = ctx_kept(pe->ctx, "kmsg.truncated", 64, &flag, &n);
	if (err == -ENOMEM) {
		free(*ret);
		return err;
	}
	*ret_truncated = err == 0;
	return 0;
}

int probe_read_kmsg(struct probe_env *pe, char **ret, size_t *ret_len, bool *ret_truncated)
{
	int err;

	if (!root_is_live(pe->root))
		return read_kmsg_kept(pe, ret, ret_len, ret_truncated);
	err = read_kmsg_live(pe, ret, ret_len, ret_truncated);
	/* what a capture needs to replay it (a no-op otherwise) */
	if (err == -ENOMEM)
		return err;
	if (err < 0)
		return ctx_keep(pe->ctx, "kmsg.error", errno_name(err), strlen(errno_name(err)))
			       ?: err;
	if (*ret_truncated)
		err = ctx_keep(pe->ctx, "kmsg.truncated", "1", 1);
	if (err == 0)
		err = ctx_keep(pe->ctx, "kmsg", *ret, *ret_len);
	if (err < 0) {
		free(*ret);
		*ret = NULL;
	}
	return err;
}

int probe_kernel_log(struct probe_env *pe, struct gpuenv_snapshot *s)
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

	/* live, or as a capture of a live machine kept it */
	err = probe_read_kmsg(pe, &text, &len, &truncated);
	if (err == -ENOMEM)
		return err;
	if (err == 0) {
		snap_set_bool(kl, "kmsg", true, "/dev/kmsg");
		snap_set_bool(kl, "truncated", truncated, "/dev/kmsg");
		return probe_parse_kernel_log(drv, text, len, "/dev/kmsg") ?: snapshot_error(s);
	}
	if (err == -ENOMEDIUM)
		snap_set_state(kl, "kmsg", FACT_UNPROBED, "/dev/kmsg",
			       "live only (the running kernel's ring buffer)");
	else /* dmesg_restrict=1 without CAP_SYSLOG: EPERM. Said so, then the files. */
		snap_set_errno(kl, "kmsg", err, "/dev/kmsg");
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		err = probe_read_tail(pe, files[i], KLOG_FILE_TAIL, &text, &len, &truncated);
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
