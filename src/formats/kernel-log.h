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
 * - A GPU the loaded release does not know: kernel-open/nvidia/nv.c nv_pci_probe(), "NVRM: The
 *   NVIDIA GPU %04x:%02x:%02x.%x (PCI ID: %04x:%04x)\nNVRM: installed in this system is not
 *   supported by the\nNVRM: NVIDIA %s driver release." (releases before about 2012 said
 *   "... installed\nNVRM: in this system is not supported by the %s NVIDIA Linux\nNVRM:
 *   graphics driver release."); the open module's GSP refusal ("not supported by open
 *   nvidia.ko") names no release and is not taken.
 * - A GPU the loaded release dropped: nv.c's legacy notice, "NVRM: The NVIDIA %s GPU installed
 *   in this system is\nNVRM:  supported through the NVIDIA %s Legacy drivers. Please\nNVRM:
 *   visit http://www.nvidia.com/object/unix.html for more\nNVRM:  information.  The %s
 *   NVIDIA driver will ignore\nNVRM:  this GPU.  Continuing probe..." (as pasted in
 *   charmed-kubernetes/kubernetes-docs#646 and siderolabs/talos#8764); with no other GPU
 *   "NVRM: No NVIDIA GPU found." follows and the module does not load.
 * - The open module of the releases that drove data-center GPUs only (R515 on; GeForce and
 *   workstation GPUs with NVreg_OpenRmEnableUnsupportedGpus=1): "NVRM: Open nvidia.ko is only
 *   ready for use on Data Center GPUs." (src/nvidia/arch/nvalloc/unix/src/osinit.c, as
 *   pasted in NVIDIA/open-gpu-kernel-modules#230 and siderolabs/extensions#114), then
 *   "RmInitAdapter failed!" for that GPU.
 * - amdgpu (kernel-log-amd.c): the firmware loader's "Direct firmware load for %s failed with
 *   error %d" (drivers/base/firmware_loader/main.c) for an amdgpu/ file, amdgpu's own
 *   'Failed to load firmware "amdgpu/…"' and "firmware loading failed" lines, "Fatal error
 *   during GPU init" (drivers/gpu/drm/amd/amdgpu/amdgpu_device.c) and amdkfd's "<ASIC> not
 *   supported in kfd" (drivers/gpu/drm/amd/amdkfd/kfd_device.c), and amdgpu's RAS reports of
 *   uncorrectable errors: "uncorrectable hardware error(ERREVENT_ATHUB_INTERRUPT) detected!"
 *   and "%ld uncorrectable hardware errors detected in [total in ]%s block"
 *   (drivers/gpu/drm/amd/amdgpu/amdgpu_ras.c).
 * - Where a boot starts: journalctl's "-- Boot <id> --" line between boots (older systemd:
 *   "-- Reboot --"), the kernel's first message "Linux version ..." (init/version.c
 *   linux_banner, "[    0.000000] Linux version ..." in dmesg and in every boot's kern.log),
 *   or a kernel uptime "[sec.usec]" lower than the line before's (dmesg restarts at 0 when
 *   the first lines of a boot were lost).
 * Fuzzed by tests/fuzz/fuzz-kernel-log.c.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KMSG_RECORD_MAX	      8192u /* CONSOLE_EXT_LOG_MAX */
#define XID_EVENTS_MAX	      64u
#define LOADED_VERSIONS_MAX   16u
#define MISMATCH_LOOKAHEAD    4u /* continuation lines of one API mismatch message */
#define UNSUPPORTED_GPUS_MAX  16u
#define UNSUPPORTED_LOOKAHEAD 3u /* continuation lines of one "not supported" message */
#define LEGACY_GPUS_MAX	      16u
#define LEGACY_LOOKAHEAD      5u /* continuation lines of one "Legacy drivers" message */

struct xid_event {
	unsigned code;
	char bus[48]; /* "0000:3b:00", or with " GPU-I:01 GPU-CI:00" under MIG */
	uint64_t count;
	char pid[32], name[64], text[256], timestamp[40];
	uint64_t line;
	uint64_t boot; /* the boot starts seen before its last line (klog.boots: the last boot) */
};

#define AMD_FAILED_BUSES_MAX 8u

/* amdgpu's and amdkfd's lines: counted, the first of each kind kept (it names the cause). */
struct klog_amd {
	uint64_t fw_failures, init_fatal, kfd_unsupported;
	char fw_file[96];	 /* "amdgpu/arcturus_gpu_info.bin", or "" when no line named one */
	char fw_message[256];	 /* the first firmware failure's message */
	char fw_timestamp[40];	 /* of the last one */
	char init_message[256];	 /* the first "Fatal error during GPU init" */
	char kfd_message[256];	 /* the first refusal of KFD ("not supported in kfd" …) */
	uint64_t kfd_no_atomics; /* amdkfd's "skipped device …, PCI rejects atomics" lines */
	char atomics_message[256]; /* the first of them */
	char atomics_pci_id[16];   /* the GPU it names ("1002:67df"), "" when none */
	/* "PCI rejects atomics 123<145": the GPU's MEC firmware version and the version from
	 * which KFD runs it without atomics (0: none does); older kernels print neither */
	bool atomics_have_fw;
	uint32_t atomics_mec_fw, atomics_fw_needed;
	uint64_t ras_uncorrectable; /* amdgpu RAS lines reporting uncorrectable errors */
	char ras_message[256];	    /* the first of them */
	char ras_bus[16];	    /* its GPU ("0000:e3:00.0"), "" when the line names none */
	char ras_timestamp[40];	    /* of the last one */
	/* the GPUs the firmware and init failure lines name ("amdgpu 0000:03:00.0: …"), one
	 * each, at most AMD_FAILED_BUSES_MAX; failed_unnamed: those lines that name none
	 * ("[drm:psp_hw_init [amdgpu]] *ERROR* PSP firmware loading failed") */
	char failed_bus[AMD_FAILED_BUSES_MAX][16];
	unsigned n_failed_bus;
	uint64_t failed_bus_dropped, failed_unnamed;
};

/* A GPU the driver release refused ("not supported by the NVIDIA <version> driver release"),
 * one per bus and release, counted (modprobe retries print it again and again). */
struct klog_unsupported_gpu {
	char bus[16];	 /* "0000:8a:00.0" */
	char pci_id[16]; /* "10de:26b9" */
	char driver_version[32];
	char timestamp[40]; /* of the last one */
	uint64_t count;
};

/* A GPU the release dropped ("supported through the NVIDIA 470.xx Legacy drivers. ... The
 * 510.47.03 NVIDIA driver will ignore this GPU"), one per GPU name and release, counted. The
 * message names the GPU by its marketing name, not its bus. */
struct klog_legacy_gpu {
	char name[64];		 /* "Tesla K80" */
	char legacy_branch[16];	 /* "470.xx" */
	char driver_version[32]; /* the release that ignored it: "510.47.03" */
	char timestamp[40];	 /* of the last one */
	uint64_t count;
};

struct klog {
	/* First: kernel_log_parse() zeroes what follows them, and writes an event when it adds
	 * one (only ev[0..n_ev) is ever read). */
	struct xid_event ev[XID_EVENTS_MAX];
	size_t n_ev;
	uint64_t xid_lines, xid_dropped, malformed_xid, lines;
	char malformed_raw[256];
	uint64_t mismatch_count;
	char client_version[32], kernel_version[32], mismatch_ts[40];
	char loaded[LOADED_VERSIONS_MAX][32];
	size_t n_loaded;
	char last_loaded_ts[40];
	struct klog_unsupported_gpu unsupported[UNSUPPORTED_GPUS_MAX];
	size_t n_unsupported;
	uint64_t unsupported_dropped;
	/* the GPUs the open module refused for want of a GSP (driver_version left empty: the
	 * message names none) */
	struct klog_unsupported_gpu gsp_refused[UNSUPPORTED_GPUS_MAX];
	size_t n_gsp_refused;
	uint64_t gsp_refused_dropped;
	/* the GPUs the proprietary module refused for they need the open one ("requires use of
	 * the NVIDIA open kernel modules"; no release named either) */
	struct klog_unsupported_gpu open_required[UNSUPPORTED_GPUS_MAX];
	size_t n_open_required;
	uint64_t open_required_dropped;
	struct klog_legacy_gpu legacy[LEGACY_GPUS_MAX];
	size_t n_legacy;
	uint64_t legacy_dropped;
	/* the open module's refusal to initialise a GPU that is not a data-center one
	 * ("NVRM: Open nvidia.ko is only ready for use on Data Center GPUs."): how often, the
	 * last one's time stamp and the boot starts seen before it */
	uint64_t open_dc_only;
	char open_dc_only_ts[40];
	uint64_t open_dc_only_boot;
	struct klog_amd amd;
	uint64_t boots;		   /* boot starts seen ("-- Boot", "Linux version", uptime back) */
	uint64_t last_uptime_usec; /* the last kernel uptime read, to see it go back */
	bool have_uptime;
};

/* Parses the kernel log text (up to len or an embedded NUL) into *ret (malloc()ed; free()
 * it). Returns 0 or -ENOMEM. */
int kernel_log_parse(const char *text, size_t len, struct klog **ret);
/* As kernel_log_parse(), for the errors reader (pasted-errors-kernel.c), which reads the Xid
 * events, the API mismatch, the GPUs refused and the open module's refusal alone: boots,
 * amd, the modules loaded and the legacy GPUs are left zero, and a line without "NVRM: "
 * costs its search alone (on a bug report's NVRM lines the rest was half of the parse:
 * docs/explain.md). */
int kernel_log_parse_nvrm(const char *text, size_t len, struct klog **ret);

/* Whether s starts with a month's English abbreviation ("Dec"), as syslog (RFC 3164 §4.1.2)
 * and journalctl's short format write it; s holds at least 3 bytes. */
bool klog_is_month(const char *s);

/* The length of the syslog time s[0..n) starts with as journalctl's short formats write it
 * (journalctl(1) --output=short: "Dec 07 10:01:02"; syslog's RFC 3164 §4.1.2 "Dec  7
 * 10:01:02"; short-precise adds ".123456", its microseconds): 15 or 22, 0 when s holds
 * none. The one parse of it, the kernel-log reader's and the prefixes' (pasted-prefixes.c). */
size_t klog_short_time(const char *s, size_t n);

/* The time stamp a log line starts with ("[  12.345678]", an RFC 3339 token, "Mar  5
 * 22:23:56") into buf, "" when it has none. */
void klog_line_timestamp(const char *line, char *buf, size_t len);

/* One line of the log judged for amdgpu's and amdkfd's messages (kernel-log-amd.c). */
void klog_amd_line(struct klog_amd *a, const char *line);

/* One /dev/kmsg record ("prio,seq,usec,flags;message\n KEY=value…") appended to sb as dmesg
 * prints it ("[sec.usec] message\n", \xNN escapes undone, a line per message line). */
struct strbuf;
void kmsg_record_to_text(struct strbuf *sb, const char *rec, size_t len);
