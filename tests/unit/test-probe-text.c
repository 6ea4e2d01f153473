// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The probes' text parsers (src/probe/probe-text.h) on literal inputs: kernel log lines in
 * the formats rsyslog, dmesg and /dev/kmsg produce (Xid lines as open-gpu-kernel-modules
 * kernel_rc.c krcReportXid prints them, with and without MIG, pid/name as older drivers
 * left them out; API mismatch in the nv.c wording, old and new), /proc/self/status and
 * group(5), /proc/cpuinfo, /proc/modules. Plus the kernel-log probe over a sysroot: file
 * order, a huge log (tail only), a FIFO (must not block), an unreadable file.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "probe/probe-text.h"
#include "probe/probe.h"
#include "shared/strbuf.h"
#include "testhooks/testhooks.h"
#include "tmptree.h"

static struct gpuenv_snapshot *snap;

static int setup(void **state)
{
	assert_int_equal(snapshot_new(&snap), 0);
	return 0;
}

static int teardown(void **state)
{
	snap = snapshot_unref(snap);
	return 0;
}

static struct snap_node *obj(const char *key)
{
	return snap_object(snapshot_root(snap), key);
}

static int64_t get_int(const struct snap_node *n, const char *path)
{
	int64_t v = -12345;

	if (!snap_get_int(n, path, &v))
		fail_msg("%s: no present int (state %s)", path,
			 fact_state_to_string(snap_get_state(n, path)));
	return v;
}

static const struct snap_node *xid(const struct snap_node *drv, unsigned code, const char *bus)
{
	const struct snap_node *arr = snap_get(drv, "xid_events");

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *e = snap_at(arr, i);

		if (get_int(e, "code") == code && strcmp(snap_get_str(e, "bus_id"), bus) == 0)
			return e;
	}
	return NULL;
}

static const char kern_log[] =
	"Mar 14 03:10:01 dgx-07 kernel: [1234500.000001] nvidia-nvlink: Nvlink Core is being "
	"initialized\n"
	"Mar 14 03:12:54 dgx-07 kernel: [1234567.001234] NVRM: Xid (PCI:0000:3b:00): 48, "
	"pid=88123, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU "
	"in the framebuffer at partition 1, subpartition 0.\n"
	"Mar 14 03:12:55 dgx-07 kernel: [1234567.890123] NVRM: Xid (PCI:0000:3b:00): 79, "
	"pid=88123, name=python3, GPU has fallen off the bus.\n"
	"Mar 14 03:12:55 dgx-07 kernel: [1234567.890456] NVRM: GPU 0000:3b:00.0: GPU has fallen "
	"off the bus.\n"
	"Mar 14 03:13:10 dgx-07 kernel: [1234582.100000] NVRM: Xid (PCI:0000:3b:00): 79, "
	"pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
	"2024-03-14T03:14:00.123456+00:00 dgx-07 kernel: NVRM: Xid (PCI:0000:86:00 GPU-I:01 "
	"GPU-CI:00): 13, pid=4411, name=trainer, Graphics SM Warp Exception on (GPC 0, TPC 1, SM "
	"0): Out Of Range Address\n"
	"[   12.345678] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
	"Mar 14 03:15:00 dgx-07 kernel: [1234672.000000] NVRM: Xid (PCI:0000:3b:00) 79 garbage\n";

static void test_xid(void **state)
{
	struct snap_node *drv = obj("driver");
	const struct snap_node *e;

	assert_int_equal(
		probe_parse_kernel_log(drv, kern_log, strlen(kern_log), "/var/log/kern.log"), 0);
	assert_int_equal(snap_count(snap_get(drv, "xid_events")), 4);
	assert_int_equal(get_int(drv, "kernel_log.xid_lines"), 6);
	assert_int_equal(get_int(drv, "kernel_log.lines"), 8);
	assert_int_equal(snap_get_state(drv, "kernel_log.unparsed_xid_lines"), FACT_MALFORMED);

	e = xid(drv, 79, "0000:3b:00");
	assert_non_null(e);
	assert_int_equal(get_int(e, "count"), 2);
	assert_string_equal(snap_get_str(e, "text"), "GPU has fallen off the bus.");
	/* The last occurrence's details. */
	assert_string_equal(snap_get_str(e, "pid"), "'<unknown>'");
	assert_string_equal(snap_get_str(e, "process"), "<unknown>");
	assert_int_equal(get_int(e, "last_line"), 5);
	assert_string_equal(snap_get_str(e, "last_timestamp"), "Mar 14 03:13:10");
	assert_string_equal(snap_source(snap_get(e, "count")), "/var/log/kern.log");

	e = xid(drv, 48, "0000:3b:00");
	assert_int_equal(get_int(e, "count"), 1);
	assert_string_equal(snap_get_str(e, "process"), "python3");
	assert_string_equal(snap_get_str(e, "pid"), "88123");
	assert_true(strncmp(snap_get_str(e, "text"), "An uncorrectable double bit error", 33) == 0);

	e = xid(drv, 13, "0000:86:00 GPU-I:01 GPU-CI:00");
	assert_non_null(e);
	assert_string_equal(snap_get_str(e, "last_timestamp"), "2024-03-14T03:14:00.123456+00:00");
	assert_string_equal(snap_get_str(e, "process"), "trainer");

	/* Older drivers: no pid= / name=. */
	e = xid(drv, 79, "0000:01:00");
	assert_int_equal(snap_get_state(e, "pid"), FACT_ABSENT);
	assert_int_equal(snap_get_state(e, "process"), FACT_ABSENT);
	assert_string_equal(snap_get_str(e, "text"), "GPU has fallen off the bus.");
	assert_string_equal(snap_get_str(e, "last_timestamp"), "[   12.345678]");

	assert_int_equal(get_int(drv, "kernel_log.api_mismatch.count"), 0);
	assert_int_equal(snap_get_state(drv, "kernel_log.api_mismatch.client_version"),
			 FACT_UNPROBED);
}

/* Which boot an Xid is of: "current" after the log's last boot start, "earlier" before it,
 * absent when the log shows none (pop-os/pop#3363: an Xid 79 of the boot before says nothing
 * of the GPU now). */
static const char *xid_boot(const char *text, const char *source, unsigned code)
{
	struct snap_node *drv;
	const struct snap_node *arr, *e = NULL;

	snap = snapshot_unref(snap);
	assert_int_equal(snapshot_new(&snap), 0);
	drv = obj("driver");
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), source), 0);
	arr = snap_get(drv, "xid_events");
	for (size_t i = 0; i < snap_count(arr) && !e; i++)
		if (get_int(snap_at(arr, i), "code") == code)
			e = snap_at(arr, i);
	assert_non_null(e);
	if (snap_get_state(e, "boot") != FACT_PRESENT) {
		assert_int_equal(snap_get_state(e, "boot"), FACT_ABSENT);
		return "absent";
	}
	return snap_get_str(e, "boot");
}

static void test_xid_boot(void **state)
{
	/* rsyslog's kern.log with two boots, each starting with the kernel's banner */
	static const char two_boots[] =
		"Sep 23 18:36:29 xxx kernel: [    0.000000] Linux version 6.9.3-76060903-generic "
		"(jenkins@warp.pop-os.org) #202405300957\n"
		"Sep 23 18:37:03 xxx kernel: [   34.193735] pcieport 0000:00:01.1: pciehp: "
		"Slot(0): Link Down\n"
		"Sep 23 18:37:03 xxx kernel: [   34.193759] NVRM: Xid (PCI:0000:01:00): 79, "
		"pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
		"Sep 23 18:41:12 xxx kernel: [    0.000000] Linux version 6.9.3-76060903-generic "
		"(jenkins@warp.pop-os.org) #202405300957\n"
		"Sep 23 18:50:02 xxx kernel: [  530.100000] NVRM: Xid (PCI:0000:01:00): 13, "
		"pid=4411, name=blender, Graphics Exception\n";
	/* journalctl -k over several boots: "-- Boot <id> --" between them, no uptimes */
	static const char journal[] =
		"Sep 23 18:37:03 xxx kernel: NVRM: Xid (PCI:0000:01:00): 79, pid='<unknown>', "
		"name=<unknown>, GPU has fallen off the bus.\n"
		"-- Boot 5d2c0f7e3e1c4b8a9d8e6f0a1b2c3d4e --\n"
		"Sep 23 18:41:12 xxx kernel: Linux version 6.9.3-76060903-generic\n";
	/* dmesg over a reboot whose first lines were lost: the uptime goes back */
	static const char uptime_back[] = "[ 9000.000001] NVRM: Xid (PCI:0000:01:00): 79, GPU has "
					  "fallen off the bus.\n"
					  "[    3.100000] nvidia: loading out-of-tree module\n";
	/* Xorg's own clock in the syslog is not the kernel's uptime: no boot start */
	static const char xorg[] =
		"Sep 23 18:36:29 xxx kernel: [    0.000000] Linux version 6.9.3\n"
		"Sep 23 18:37:03 xxx /usr/libexec/gdm-x-session[3434]: [  5000.123] (II) NVIDIA\n"
		"Sep 23 18:37:03 xxx kernel: [   34.193759] NVRM: Xid (PCI:0000:01:00): 79, "
		"GPU has fallen off the bus.\n";
	/* a tail with no boot start: the Xid may be of any boot */
	static const char no_start[] = "Sep 23 18:37:03 xxx kernel: [   34.193759] NVRM: Xid "
				       "(PCI:0000:01:00): 79, GPU has fallen off the bus.\n";

	(void)state;
	assert_string_equal(xid_boot(two_boots, "/var/log/kern.log", 79), "earlier");
	assert_string_equal(xid_boot(two_boots, "/var/log/kern.log", 13), "current");
	assert_string_equal(xid_boot(journal, "/var/log/syslog", 79), "earlier");
	assert_string_equal(xid_boot(uptime_back, "/var/log/dmesg", 79), "earlier");
	assert_string_equal(xid_boot(xorg, "/var/log/syslog", 79), "current");
	assert_string_equal(xid_boot(no_start, "/var/log/kern.log", 79), "absent");
	/* the ring buffer holds the running boot only */
	assert_string_equal(xid_boot(no_start, "/dev/kmsg", 79), "current");
}

static void test_api_mismatch(void **state)
{
	static const char text[] =
		"Nov  2 09:00:01 ws kernel: [    4.100000] NVRM: loading NVIDIA UNIX x86_64 Kernel "
		"Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
		"Nov  2 09:00:30 ws kernel: [   33.000001] NVRM: API mismatch: the client has the "
		"version 535.129.03, but\n"
		"Nov  2 09:00:30 ws kernel: [   33.000001] NVRM: this kernel module has the "
		"version 535.104.05.  Please\n"
		"Nov  2 09:00:30 ws kernel: [   33.000001] NVRM: make sure that this kernel module "
		"and all NVIDIA driver\n"
		"Nov  2 09:00:30 ws kernel: [   33.000001] NVRM: components have the same "
		"version.\n"
		/* dmesg's continuation indent */
		"[   40.000002] NVRM: API mismatch: the client has the version 535.129.03, but\n"
		"               NVRM: this kernel module has the version 535.104.05.  Please\n";
	struct snap_node *drv = obj("driver");

	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/syslog"), 0);
	assert_int_equal(get_int(drv, "kernel_log.api_mismatch.count"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.client_version"),
			    "535.129.03");
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.kernel_version"),
			    "535.104.05");
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.last_timestamp"),
			    "[   40.000002]");
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.loaded_versions")), 1);
	assert_string_equal(snap_str(snap_get(drv, "kernel_log.loaded_versions.0")), "535.104.05");
	assert_int_equal(snap_count(snap_get(drv, "xid_events")), 0);
}

static void test_api_mismatch_new_wording(void **state)
{
	static const char text[] =
		"[ 7201.1] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.159.03  "
		"Release Build  (dvs-builder@U22-I3-AF03-09-1)  Thu Jun  5 2025\n"
		"[ 7201.2] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.173.02  "
		"Release Build  (dvs-builder@U22-I3-AF03-09-1)  Thu Jul 10 2025\n"
		"[ 9000.5] NVRM: API mismatch: the client 'nvidia-smi' (pid 4242)\n"
		"[ 9000.5] NVRM: has the version 580.173.02, but this kernel module has\n"
		"[ 9000.5] NVRM: the version 580.159.03.  Please make sure that this\n"
		"[ 9000.5] NVRM: kernel module and all NVIDIA driver components\n"
		"[ 9000.5] NVRM: have the same version.\n"
		"[ 9001.0] NVRM: API mismatch: the client has the version\n";
	struct snap_node *drv = obj("driver");

	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/dev/kmsg"), 0);
	assert_int_equal(get_int(drv, "kernel_log.api_mismatch.count"), 2);
	/* The last message is cut short: its versions are malformed, said so. */
	assert_int_equal(snap_get_state(drv, "kernel_log.api_mismatch.client_version"),
			 FACT_MALFORMED);
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.loaded_versions")), 2);
	assert_string_equal(snap_str(snap_get(drv, "kernel_log.loaded_versions.1")), "580.173.02");
	assert_string_equal(snap_get_str(drv, "kernel_log.last_loaded_timestamp"), "[ 7201.2]");
}

static void test_api_mismatch_joined(void **state)
{
	static const char text[] =
		"Jun  1 00:00:00 n kernel: NVRM: API mismatch: the client 'nvidia-smi' (pid 4242)\n"
		"Jun  1 00:00:00 n kernel: NVRM: has the version 580.173.02, but this kernel "
		"module has\n"
		"Jun  1 00:00:00 n kernel: NVRM: the version 580.159.03.  Please make sure that "
		"this\n";
	struct snap_node *drv = obj("driver");

	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/messages"), 0);
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.client_version"),
			    "580.173.02");
	/* "kernel module has" + newline + "the version": joined with one space. */
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.kernel_version"),
			    "580.159.03");
}

/* amdgpu's firmware and init failures and amdkfd's refusal (kernel-log-amd.c); the first
 * failing file and message are kept, each kind counted; none of them: nothing written. */
static void test_amdgpu_lines(void **state)
{
	static const char text[] =
		"Jan  9 10:14:07 n004 kernel: [    9.605986] amdgpu 0000:23:00.0: Direct firmware "
		"load for amdgpu/arcturus_gpu_info.bin failed with error -2\n"
		"Jan  9 10:14:07 n004 kernel: [    9.605988] amdgpu 0000:23:00.0: Failed to load "
		"gpu_info firmware \"amdgpu/arcturus_gpu_info.bin\"\n"
		"Jan  9 10:14:07 n004 kernel: [    9.605988] amdgpu 0000:23:00.0: Fatal error during "
		"GPU init\n"
		"[    6.087994] [drm:psp_hw_init [amdgpu]] *ERROR* PSP firmware loading failed\n"
		"[    3.548555] kfd kfd: amdgpu: PITCAIRN  not supported in kfd\n"
		"[    3.9] kfd kfd: amdgpu: added device 1002:74a1\n";
	static const char quiet[] = "[    3.9] kfd kfd: amdgpu: added device 1002:74a1\n"
				    "[    4.0] [drm] amdgpu kernel modesetting enabled.\n";
	struct snap_node *drv = obj("driver"), *other = obj("other");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.firmware_failures"), 3);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.firmware_file"),
			    "amdgpu/arcturus_gpu_info.bin");
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.firmware_message"),
			    "amdgpu 0000:23:00.0: Direct firmware load for "
			    "amdgpu/arcturus_gpu_info.bin failed with error -2");
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.firmware_last_timestamp"),
			    "[    6.087994]");
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.init_failures"), 1);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.init_message"),
			    "amdgpu 0000:23:00.0: Fatal error during GPU init");
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.kfd_unsupported"), 1);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.kfd_message"),
			    "kfd kfd: amdgpu: PITCAIRN  not supported in kfd");
	/* the GPU the failures name, once; the PSP line names none */
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.amdgpu.failed_buses")), 1);
	assert_string_equal(snap_str(snap_at(snap_get(drv, "kernel_log.amdgpu.failed_buses"), 0)),
			    "0000:23:00.0");
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.failed_lines_without_bus"), 1);
	assert_int_equal(probe_parse_kernel_log(other, quiet, strlen(quiet), "/dev/kmsg"), 0);
	assert_null(snap_get(other, "kernel_log.amdgpu"));
}

/* Two AMD GPUs, amdgpu failing on one and then the other (an APU and a card): each GPU the
 * lines name is kept, so that the rules judge each GPU by its own lines */
static void test_amdgpu_failed_buses(void **state)
{
	static const char text[] =
		"[    9.605986] amdgpu 0000:05:00.0: Direct firmware load for "
		"amdgpu/navi10_gpu_info.bin failed with error -2\n"
		"[    9.605988] amdgpu 0000:05:00.0: Fatal error during GPU init\n"
		"[    9.7] amdgpu 0000:0A:00.0: Fatal error during GPU init\n";
	struct snap_node *drv = obj("driver");
	const struct snap_node *buses;

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/dev/kmsg"), 0);
	buses = snap_get(drv, "kernel_log.amdgpu.failed_buses");
	assert_int_equal(snap_count(buses), 2);
	assert_string_equal(snap_str(snap_at(buses, 0)), "0000:05:00.0");
	assert_string_equal(snap_str(snap_at(buses, 1)), "0000:0A:00.0");
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.failed_lines_without_bus"), 0);
}

/* KFD's refusals in the wordings of older releases: the device-id table of rock-dkms 2.x
 * (ROCm/legacy-rocm-build#719) and Linux 4.x's amdgpu_amdkfd.c, printed by amdgpu
 * (ROCm/rocminfo#27) or as kfd2kgd (ROCm/legacy-rocm-build#538); the first is kept, each
 * counted; kgd2kfd_probe's follow-up and a GPU KFD took are not refusals. */
static void test_amdgpu_kfd_refusals(void **state)
{
	static const char text[] =
		"Feb 26 10:21:37 tu6ge-desktop kernel: [    1.130512] kfd kfd: DID 6fdf is missing "
		"in supported_devices\n"
		"Feb 26 10:21:37 tu6ge-desktop kernel: [    1.130513] kfd kfd: kgd2kfd_probe failed\n"
		"[    2.721238] amdgpu 0000:02:00.0: kfd not supported on this ASIC\n"
		"[    1.172206] kfd2kgd: kfd not supported on this ASIC\n";
	static const char quiet[] = "[    1.130513] kfd kfd: kgd2kfd_probe failed\n"
				    "[    1.2] kfd kfd: added device 1002:6fdf\n"
				    "[    1.3] kfd kfd: Initialized module\n";
	struct snap_node *drv = obj("driver"), *other = obj("other");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.kfd_unsupported"), 3);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.kfd_message"),
			    "kfd kfd: DID 6fdf is missing in supported_devices");
	assert_int_equal(probe_parse_kernel_log(other, quiet, strlen(quiet), "/dev/kmsg"), 0);
	assert_null(snap_get(other, "kernel_log.amdgpu"));
}

/* amdkfd's "PCI rejects atomics" (kfd_device.c): the old form with the ids alone
 * (ROCm/legacy-rocm-build#1214), the form with the MEC firmware and the version needed; the
 * first is kept, each counted; a malformed pair after it is not taken for versions. */
static void test_amdgpu_atomics_lines(void **state)
{
	static const char old_form[] =
		"Sep  8 19:42:03 x58 kernel: [    7.026427] kfd kfd: amdgpu: skipped device "
		"1002:67df, PCI rejects atomics\n"
		"[    7.5] kfd kfd: skipped device 1002:67df, PCI rejects atomics\n";
	static const char new_form[] =
		"[  115.275652] kfd kfd: amdgpu: skipped device 1002:7341, PCI rejects atomics "
		"123<145\n";
	static const char odd[] = "[  1.0] kfd kfd: amdgpu: skipped device 1002:67e3, PCI rejects "
				  "atomics 730<x\n";
	struct snap_node *drv = obj("driver"), *nv = obj("nv"), *od = obj("od");

	(void)state;
	assert_int_equal(
		probe_parse_kernel_log(drv, old_form, strlen(old_form), "/var/log/kern.log"), 0);
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.kfd_no_atomics"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.atomics_message"),
			    "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics");
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.atomics_pci_id"), "1002:67df");
	assert_null(snap_get(drv, "kernel_log.amdgpu.atomics_mec_firmware"));
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.kfd_unsupported"), 0);
	assert_int_equal(probe_parse_kernel_log(nv, new_form, strlen(new_form), "/dev/kmsg"), 0);
	assert_string_equal(snap_get_str(nv, "kernel_log.amdgpu.atomics_pci_id"), "1002:7341");
	assert_int_equal(get_int(nv, "kernel_log.amdgpu.atomics_mec_firmware"), 123);
	assert_int_equal(get_int(nv, "kernel_log.amdgpu.atomics_firmware_needed"), 145);
	assert_int_equal(probe_parse_kernel_log(od, odd, strlen(odd), "/dev/kmsg"), 0);
	assert_int_equal(get_int(od, "kernel_log.amdgpu.kfd_no_atomics"), 1);
	assert_null(snap_get(od, "kernel_log.amdgpu.atomics_firmware_needed"));
}

/* amdgpu's RAS reports of uncorrectable errors (amdgpu_ras.c): the dmesg -T paste of
 * ROCm/legacy-rocm-build#1886 (an MI50), the block count's wording and the event-id prefix
 * of newer kernels ("{1}"); a count of 0 and the correctable wording are not taken. */
static void test_amdgpu_ras_lines(void **state)
{
	static const char text[] =
		"[Sat Jan  7 14:25:56 2023] amdgpu 0000:e3:00.0: amdgpu: SRAM ECC is active.\n"
		"[Sat Jan  7 14:25:56 2023] amdgpu 0000:e3:00.0: amdgpu: uncorrectable hardware "
		"error(ERREVENT_ATHUB_INTERRUPT) detected!\n"
		"[Sat Jan  7 14:25:56 2023] amdgpu 0000:e3:00.0: amdgpu: GPU reset begin!\n"
		"[Sat Jan  7 14:25:56 2023] [drm] UVD VCPU state may lost due to RAS "
		"ERREVENT_ATHUB_INTERRUPT\n"
		"[  80.1] amdgpu 0000:c1:00.0: amdgpu: 0 uncorrectable hardware errors detected in "
		"umc block\n"
		"[  80.2] amdgpu 0000:c1:00.0: amdgpu: 3 correctable hardware errors detected in "
		"umc block\n"
		"[  90.5] amdgpu 0000:c1:00.0: amdgpu: {1}uncorrectable hardware "
		"error(ERREVENT_ATHUB_INTERRUPT) detected!\n"
		"[  91.0] amdgpu 0000:c1:00.0: amdgpu: 2 uncorrectable hardware errors detected in "
		"total in umc block\n";
	static const char no_bus[] = "[  5.0] amdgpu: uncorrectable hardware error(x) detected!\n";
	struct snap_node *drv = obj("driver"), *other = obj("other");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.ras_uncorrectable"), 3);
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.ras_message"),
			    "amdgpu 0000:e3:00.0: amdgpu: uncorrectable hardware "
			    "error(ERREVENT_ATHUB_INTERRUPT) detected!");
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.ras_bus"), "0000:e3:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.amdgpu.ras_last_timestamp"), "[  91.0]");
	assert_int_equal(get_int(drv, "kernel_log.amdgpu.firmware_failures"), 0);
	assert_int_equal(probe_parse_kernel_log(other, no_bus, strlen(no_bus), "/dev/kmsg"), 0);
	assert_int_equal(get_int(other, "kernel_log.amdgpu.ras_uncorrectable"), 1);
	assert_null(snap_get_str(other, "kernel_log.amdgpu.ras_bus"));
}

/* The GPUs a release refused: the dmesg paste of ZaidQureshi/bam#38 (an L40S on 470.256.02,
 * printed again at each modprobe retry), the pre-2012 wording (MrMEEE/bumblebee#583) and the
 * open module's GSP refusal, which names no release and goes to gsp_refused_gpus (also
 * the one-line "#012" form of rsyslog: negativo17/nvidia-driver#158's GT 1030). */
static void test_unsupported_gpus(void **state)
{
	static const char text[] =
		"[  422.450961] NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)\n"
		"               NVRM: installed in this system is not supported by the\n"
		"               NVRM: NVIDIA 470.256.02 driver release.\n"
		"               NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'\n"
		"[  422.451145] nvidia: probe of 0000:8a:00.0 failed with error -1\n"
		"[  422.451178] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
		"[  422.451179] NVRM: None of the NVIDIA devices were initialized.\n"
		"[  422.737854] NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)\n"
		"               NVRM: installed in this system is not supported by the\n"
		"               NVRM: NVIDIA 470.256.02 driver release.\n"
		"[  652.483304] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1050) installed\n"
		"[  652.483305] NVRM: in this system is not supported by the 280.13 NVIDIA Linux\n"
		"[  652.483306] NVRM: graphics driver release.  Please see 'Appendix A -\n"
		"[   60.058486] NVRM: The NVIDIA GPU 0000:2c:00.0 (PCI ID: 10de:1d16)\n"
		"               NVRM: installed in this system is not supported by open\n"
		"               NVRM: nvidia.ko because it does not include the required GPU\n"
		"               NVRM: System Processor (GSP).\n"
		"[   61.000000] NVRM: The NVIDIA GPU 0000:2d:00.0 (PCI ID: 10de:1d1)\n"
		"               NVRM: installed in this system is not supported by the\n"
		"               NVRM: NVIDIA 470.256.02 driver release.\n"
		"[   62.000000] NVRM: The NVIDIA GPU 0000:2e:00.0 (PCI ID: 10de:2b85)\n"
		"Oct 19 10:12:01 n1 kernel: NVRM: The NVIDIA GPU 0000:8b:00.0 (PCI ID: 10de:26b9)"
		"#012NVRM: installed in this system is not supported by the#012NVRM: NVIDIA "
		"470.256.02 driver release.#012NVRM: Please see 'Appendix A'\n"
		"Aug 14 09:12:40 fedora kernel: NVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: "
		"10de:1d01)#012NVRM: installed in this system is not supported by open#012NVRM: "
		"nvidia.ko because it does not include the required GPU#012NVRM: System Processor "
		"(GSP).\n"
		"[   63.000000] NVRM: The NVIDIA GPU 0000:2c:00.0 (PCI ID: 10de:1d16)\n"
		"               NVRM: installed in this system is not supported by open\n"
		"               NVRM: nvidia.ko because it does not include the required GPU\n";
	static const char quiet[] = "[    4.1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  "
				    "560.35.03  Fri Aug 16 21:39:15 UTC 2024\n";
	struct snap_node *drv = obj("driver"), *other = obj("other");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.unsupported_gpus")), 3);
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.0.bus_id"),
			    "0000:8a:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.0.pci_id"), "10de:26b9");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.0.driver_version"),
			    "470.256.02");
	assert_int_equal(get_int(drv, "kernel_log.unsupported_gpus.0.count"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.0.last_timestamp"),
			    "[  422.737854]");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.1.driver_version"),
			    "280.13");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.1.pci_id"), "10de:1050");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.2.bus_id"),
			    "0000:8b:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.2.driver_version"),
			    "470.256.02");
	assert_string_equal(snap_get_str(drv, "kernel_log.unsupported_gpus.2.last_timestamp"),
			    "Oct 19 10:12:01");
	/* the open module's refusals: per bus, counted, no release */
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.gsp_refused_gpus")), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.gsp_refused_gpus.0.bus_id"),
			    "0000:2c:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.gsp_refused_gpus.0.pci_id"), "10de:1d16");
	assert_int_equal(get_int(drv, "kernel_log.gsp_refused_gpus.0.count"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.gsp_refused_gpus.0.last_timestamp"),
			    "[   63.000000]");
	assert_null(snap_get(drv, "kernel_log.gsp_refused_gpus.0.driver_version"));
	assert_string_equal(snap_get_str(drv, "kernel_log.gsp_refused_gpus.1.bus_id"),
			    "0000:09:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.gsp_refused_gpus.1.pci_id"), "10de:1d01");
	assert_int_equal(probe_parse_kernel_log(other, quiet, strlen(quiet), "/dev/kmsg"), 0);
	assert_null(snap_get(other, "kernel_log.unsupported_gpus"));
	assert_null(snap_get(other, "kernel_log.gsp_refused_gpus"));
}

/* The proprietary module refusing a GPU only the open one initialises: the dmesg lines of
 * QuangMDoan/autonomy's RTX 5090 Laptop GPU on 580.105.08 (the second line is the printk's
 * continuation, no time stamp), twice, then a cut-off one; nothing under gsp_refused_gpus or
 * unsupported_gpus. */
static void test_open_required(void **state)
{
	static const char text[] =
		"[    5.499014] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.105.08  Wed "
		"Oct 29 23:15:11 UTC 2025\n"
		"[    5.559842] NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)\n"
		"               NVRM: installed in this system requires use of the NVIDIA open "
		"kernel modules.\n"
		"[    5.559858] NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)\n"
		"[    8.481576] NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)\n"
		"               NVRM: installed in this system requires use of the NVIDIA open "
		"kernel modules.\n"
		"[    9.000000] NVRM: The NVIDIA GPU 0000:03:00.0 (PCI ID: 10de:2b85)\n";
	struct snap_node *drv = obj("driver");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.open_required_gpus")), 1);
	assert_string_equal(snap_get_str(drv, "kernel_log.open_required_gpus.0.bus_id"),
			    "0000:02:00.0");
	assert_string_equal(snap_get_str(drv, "kernel_log.open_required_gpus.0.pci_id"),
			    "10de:2c58");
	assert_int_equal(get_int(drv, "kernel_log.open_required_gpus.0.count"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.open_required_gpus.0.last_timestamp"),
			    "[    8.481576]");
	assert_null(snap_get(drv, "kernel_log.open_required_gpus.0.driver_version"));
	assert_null(snap_get(drv, "kernel_log.gsp_refused_gpus"));
	assert_null(snap_get(drv, "kernel_log.unsupported_gpus"));
}

/* The open module refusing a GPU that is not a data-center one: the dmesg lines of
 * NVIDIA/open-gpu-kernel-modules#230 (no boot start: the boot is unknown; from /dev/kmsg: this
 * boot), then the message of an earlier boot followed by a boot without it (the fix
 * applied), and a log without it, which writes nothing. */
static void test_open_dc_only(void **state)
{
	static const char text[] =
		"[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\n"
		"[    3.513144] NVRM: To force use of Open nvidia.ko on other GPUs, see the\n"
		"[    3.513145] NVRM: 'OpenRmEnableUnsupportedGpus' kernel module parameter "
		"described\n"
		"[    3.513145] NVRM: in the README.\n"
		"[    3.824916] NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)\n";
	static const char fixed[] =
		"[    0.000000] Linux version 5.17.9-arch1-1 (linux@archlinux)\n"
		"[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\n"
		"[    0.000000] Linux version 5.17.9-arch1-1 (linux@archlinux)\n"
		"[    3.600000] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  515.43.04\n";
	static const char quiet[] =
		"[    3.600000] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  515.43.04\n";
	struct snap_node *drv = obj("driver"), *kmsg = obj("kmsg"), *later = obj("later"),
			 *none = obj("none");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(get_int(drv, "kernel_log.open_module_datacenter_only.count"), 1);
	assert_string_equal(
		snap_get_str(drv, "kernel_log.open_module_datacenter_only.last_timestamp"),
		"[    3.513141]");
	assert_int_equal(snap_state(snap_get(drv, "kernel_log.open_module_datacenter_only.boot")),
			 FACT_ABSENT);
	assert_int_equal(probe_parse_kernel_log(kmsg, text, strlen(text), "/dev/kmsg"), 0);
	assert_string_equal(snap_get_str(kmsg, "kernel_log.open_module_datacenter_only.boot"),
			    "current");
	assert_int_equal(probe_parse_kernel_log(later, fixed, strlen(fixed), "/var/log/kern.log"),
			 0);
	assert_string_equal(snap_get_str(later, "kernel_log.open_module_datacenter_only.boot"),
			    "earlier");
	assert_int_equal(probe_parse_kernel_log(none, quiet, strlen(quiet), "/dev/kmsg"), 0);
	assert_null(snap_get(none, "kernel_log.open_module_datacenter_only"));
}

/* The GPUs a release dropped to a legacy branch: the syslog lines of
 * charmed-kubernetes/kubernetes-docs#646 (a Tesla K80 on 510.47.03), the Talos console lines
 * of siderolabs/talos#8764 (a GeForce GT 710 on 535.129.03, lines padded with spaces), the
 * same notice as rsyslog writes it on one line (#012), and one cut short before the release,
 * which is not taken. */
static void test_legacy_gpus(void **state)
{
	static const char text[] =
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610595] nvidia-nvlink: Nvlink Core "
		"is being initialized, major device number 239\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610602] NVRM: The NVIDIA Tesla K80 "
		"GPU installed in this system is\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610602] NVRM:  supported through the "
		"NVIDIA 470.xx Legacy drivers. Please\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610602] NVRM:  visit "
		"http://www.nvidia.com/object/unix.html for more\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610602] NVRM:  information.  The "
		"510.47.03 NVIDIA driver will ignore\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610602] NVRM:  this GPU.  Continuing "
		"probe...\n"
		"Mar  3 13:08:28 ip-172-31-37-178 kernel: [ 3570.610607] NVRM: No NVIDIA GPU found.\n"
		"kern:     err: [2024-05-20T02:46:53.856596762Z]: NVRM: The NVIDIA GeForce GT 710 GPU "
		"installed in this system is                       \n"
		" NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please          \n"
		" NVRM:  visit http://www.nvidia.com/object/unix.html for more               \n"
		" NVRM:  information.  The 535.129.03 NVIDIA driver will ignore              \n"
		" NVRM:  this GPU.  Continuing probe...                                      \n"
		" kern: warning: [2024-05-20T02:46:53.859954762Z]: NVRM: No NVIDIA GPU found.  \n"
		"Mar  4 09:00:00 h kernel: NVRM: The NVIDIA Tesla K80 GPU installed in this system "
		"is#012NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please#012NVRM:  "
		"visit http://www.nvidia.com/object/unix.html for more#012NVRM:  information.  The "
		"510.47.03 NVIDIA driver will ignore#012NVRM:  this GPU.  Continuing probe...\n"
		"[   9.1] NVRM: The NVIDIA Quadro K2000 GPU installed in this system is\n"
		"[   9.1] NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n";
	struct snap_node *drv = obj("driver");

	(void)state;
	assert_int_equal(probe_parse_kernel_log(drv, text, strlen(text), "/var/log/kern.log"), 0);
	assert_int_equal(snap_count(snap_get(drv, "kernel_log.legacy_gpus")), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.0.name"), "Tesla K80");
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.0.legacy_branch"), "470.xx");
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.0.driver_version"),
			    "510.47.03");
	assert_int_equal(get_int(drv, "kernel_log.legacy_gpus.0.count"), 2);
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.0.last_timestamp"),
			    "Mar  4 09:00:00");
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.1.name"), "GeForce GT 710");
	assert_string_equal(snap_get_str(drv, "kernel_log.legacy_gpus.1.driver_version"),
			    "535.129.03");
	assert_int_equal(get_int(drv, "kernel_log.legacy_gpus.1.count"), 1);
	assert_null(snap_get(drv, "kernel_log.unsupported_gpus"));
}

static void test_kmsg_records(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	static const char rec1[] = "3,1021,1234567890123,-;NVRM: Xid (PCI:0000:3b:00): 79, pid=1, "
				   "name=x, GPU has fallen off the bus.\n"
				   " SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n";
	static const char rec2[] =
		"3,1022,33000001,-;NVRM: API mismatch: the client has the version 535.129.03, "
		"but\\x0aNVRM: this kernel module has the version 535.104.05.  Please\\x0a\n";
	static const char rec3[] = "6,1023,5,c,extra;tab\\x09here \\xZZ \\x";
	struct snap_node *drv = obj("driver");

	kmsg_record_to_text(&sb, rec1, sizeof(rec1) - 1);
	kmsg_record_to_text(&sb, rec2, sizeof(rec2) - 1);
	kmsg_record_to_text(&sb, rec3, sizeof(rec3) - 1);
	kmsg_record_to_text(&sb, "no semicolon", 12);
	assert_string_equal(
		strbuf_str(&sb),
		"[1234567.890123] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=x, GPU has fallen "
		"off the bus.\n"
		"[   33.000001] NVRM: API mismatch: the client has the version 535.129.03, but\n"
		"[   33.000001] NVRM: this kernel module has the version 535.104.05.  Please\n"
		"[   33.000001] \n"
		"[    0.000005] tab here \\xZZ \\x\n");
	assert_int_equal(probe_parse_kernel_log(drv, strbuf_str(&sb), sb.len, "/dev/kmsg"), 0);
	assert_int_equal(get_int(drv, "kernel_log.api_mismatch.count"), 1);
	assert_string_equal(snap_get_str(drv, "kernel_log.api_mismatch.kernel_version"),
			    "535.104.05");
	assert_non_null(xid(drv, 79, "0000:3b:00"));
	strbuf_done(&sb);
}

static void test_many_events_and_nul(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct snap_node *drv = obj("driver");

	for (unsigned i = 0; i < 100; i++)
		strbuf_printf(&sb, "NVRM: Xid (PCI:0000:%02x:00): 31, pid=1, name=a, fault\n", i);
	strbuf_add(&sb, "\0NVRM: Xid (PCI:0000:ff:00): 79, x\n", 35);
	assert_int_equal(probe_parse_kernel_log(drv, sb.buf, sb.len, "/var/log/kern.log"), 0);
	/* 64 kept, the rest counted; nothing after the NUL is read. */
	assert_int_equal(snap_count(snap_get(drv, "xid_events")), 64);
	assert_int_equal(get_int(drv, "kernel_log.xid_events_dropped"), 36);
	assert_int_equal(get_int(drv, "kernel_log.xid_lines"), 100);
	strbuf_done(&sb);
}

static void test_proc_status(void **state)
{
	static const char status[] =
		"Name:\tgpuenv\nUmask:\t0022\nState:\tR (running)\nTgid:\t4242\nPid:\t4242\n"
		"Uid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1001\t1000\t1000\nFDSize:\t256\n"
		"Groups:\t4 24 27 44 1000 \nNStgid:\t4242\n";
	static const char group[] = "root:x:0:\nadm:x:4:syslog,alice\ncdrom:x:24:alice\nsudo:x:27:"
				    "alice\nvideo:x:44:alice\n"
				    "# not a group\nbroken line\nrender:x:109:\nalice:x:1000:\n";
	struct snap_node *proc = obj("process");
	char name[16];

	probe_parse_proc_status(proc, status, strlen(status), "/proc/self/status", group, 0,
				"/etc/group");
	assert_int_equal(get_int(proc, "uid"), 1000);
	assert_int_equal(get_int(proc, "euid"), 1000);
	assert_int_equal(get_int(proc, "egid"), 1001);
	assert_int_equal(snap_count(snap_get(proc, "groups")), 5);
	assert_int_equal(get_int(proc, "groups.3.gid"), 44);
	assert_string_equal(snap_get_str(proc, "groups.3.name"), "video");
	assert_string_equal(snap_get_str(proc, "groups.4.name"), "alice");
	assert_string_equal(snap_source(snap_get(proc, "groups.4.name")), "/etc/group");

	assert_int_equal(group_name(group, 109, name, sizeof(name)), 0);
	assert_string_equal(name, "render");
	assert_int_equal(group_name(group, 110, name, sizeof(name)), -ENOENT);
	assert_int_equal(group_name(group, 0, name, 5), 0);
	assert_string_equal(name, "root");
	assert_int_equal(group_name(group, 0, name, 4), -ENAMETOOLONG);
	assert_int_equal(group_name("averyveryverylongname:x:5:\n", 5, name, 8), -ENAMETOOLONG);
	assert_int_equal(group_name(":x:5:\nx:y:5\n", 5, name, 8), -ENOENT);
}

static void test_proc_status_malformed(void **state)
{
	static const char status[] = "Uid:\t10x0\nGid:\t5\nGroups:\t44 z\n";
	struct snap_node *proc = obj("process");

	probe_parse_proc_status(proc, status, strlen(status), "/proc/self/status", NULL, -ENOENT,
				"/etc/group");
	assert_int_equal(snap_get_state(proc, "uid"), FACT_MALFORMED);
	assert_int_equal(get_int(proc, "gid"), 5);
	assert_int_equal(snap_get_state(proc, "egid"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(proc, "groups.0.name"), FACT_ABSENT);
	assert_int_equal(snap_get_state(proc, "groups.1.gid"), FACT_MALFORMED);
	/* An /etc/group that cannot be read gives unreadable names, never absent ones. */
	proc = obj("process2");
	probe_parse_proc_status(proc, status, strlen(status), "/proc/self/status", NULL, -EACCES,
				"/etc/group");
	assert_int_equal(snap_get_state(proc, "groups.0.name"), FACT_UNREADABLE);
}

static void test_cpuinfo_and_modules(void **state)
{
	static const char cpuinfo[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: "
				      "AMD EPYC 9654 96-Core Processor\n\n"
				      "processor\t: 1\nvendor_id\t: AuthenticAMD\nmodel name\t: "
				      "AMD EPYC 9654 96-Core Processor\n";
	static const char modules[] =
		"nvidia_uvm 1531904 0 - Live 0x0000000000000000 (POE)\n"
		"nvidia 54001664 1 nvidia_uvm, Live 0x0000000000000000 (POE)\n"
		"nouveaux 1 0 - Live 0x0\n";
	struct snap_node *cpu = obj("cpu"), *km = obj("km");

	probe_parse_cpuinfo(cpu, cpuinfo, strlen(cpuinfo), "/proc/cpuinfo");
	assert_int_equal(get_int(cpu, "logical_cpus"), 2);
	assert_string_equal(snap_get_str(cpu, "vendor"), "AuthenticAMD");
	/* Parsing stops at the length given, not at a NUL past it. */
	probe_parse_proc_modules(km, modules, 54, "/proc/modules");
	assert_true(snap_get_bool_default(km, "nvidia_uvm", false));
	assert_false(snap_get_bool_default(km, "nvidia", true));
	assert_false(snap_get_bool_default(km, "nouveau", true));
}

/* ---- the probe over a sysroot ---- */

static char dir[TMPTREE_DIR_MAX];

static void put(const char *rel, const char *text)
{
	tmptree_puts(dir, rel, text);
}

static const struct snap_node *run_probe(const char *inject)
{
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = dir };
	struct gpuenv_ctx *ctx;
	struct probe_env pe;

	assert_int_equal(gpuenv_ctx_new(&o, &ctx), 0);
	if (inject)
		assert_int_equal(testhooks_inject_errors(ctx, inject), 0);
	pe = (struct probe_env){ .ctx = ctx, .root = ctx->root, .env = ctx->env, .log = &ctx->log };
	assert_int_equal(probe_kernel_log(&pe, snap), 0);
	gpuenv_ctx_free(ctx);
	return snap_child(snapshot_root_const(snap), "driver");
}

static int sysroot_setup(void **state)
{
	assert_non_null(tmptree_new(dir, "klog"));
	return setup(state);
}

static int sysroot_teardown(void **state)
{
	assert_int_equal(tmptree_remove(dir), 0);
	return teardown(state);
}

static void test_probe_files(void **state)
{
	const struct snap_node *drv;

	put("/var/log/syslog", "Mar 14 03:12:55 h kernel: NVRM: Xid (PCI:0000:3b:00): 79, GPU has "
			       "fallen off the bus.\n");
	put("/var/log/dmesg", "[    1.0] NVRM: Xid (PCI:0000:3b:00): 13, x\n");
	drv = run_probe(NULL);
	/* kern.log missing: syslog is next; /dev/kmsg is live only. */
	assert_string_equal(snap_get_str(drv, "kernel_log.source"), "/var/log/syslog");
	assert_int_equal(snap_get_state(drv, "kernel_log.kmsg"), FACT_UNPROBED);
	assert_false(snap_get_bool_default(drv, "kernel_log.truncated", true));
	assert_non_null(xid(drv, 79, "0000:3b:00"));
	assert_null(xid(drv, 13, "0000:3b:00"));
}

static void test_probe_unreadable(void **state)
{
	const struct snap_node *drv;

	put("/var/log/kern.log", "NVRM: Xid (PCI:0000:3b:00): 79, x\n");
	drv = run_probe("/var/log/kern.log=EACCES");
	assert_int_equal(snap_get_state(drv, "kernel_log.source"), FACT_UNREADABLE);
	assert_string_equal(snap_source(snap_get(drv, "kernel_log.source")), "/var/log/kern.log");
	assert_int_equal(snap_get_state(drv, "xid_events"), FACT_UNREADABLE);
}

static void test_probe_none(void **state)
{
	const struct snap_node *drv = run_probe(NULL);

	assert_int_equal(snap_get_state(drv, "kernel_log.source"), FACT_ABSENT);
	assert_int_equal(snap_get_state(drv, "xid_events"), FACT_ABSENT);
}

static void test_probe_fifo(void **state)
{
	char path[256];
	const struct snap_node *drv;

	put("/var/log/x", "");
	snprintf(path, sizeof(path), "%s/var/log/kern.log", dir);
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(20); /* a blocking open would hang here */
	drv = run_probe(NULL);
	alarm(0);
	assert_int_equal(snap_get_state(drv, "kernel_log.source"), FACT_MALFORMED);
}

static void test_probe_big_file(void **state)
{
	char path[256];
	const struct snap_node *drv;
	FILE *f;

	put("/var/log/kern.log", "");
	snprintf(path, sizeof(path), "%s/var/log/kern.log", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("Jan  1 00:00:00 h kernel: NVRM: Xid (PCI:0000:01:00): 79, too old to be read\n", f);
	for (unsigned i = 0; i < 120000; i++) /* ~9.6 MB > the 8 MiB tail */
		fputs("Jan  1 00:00:01 h kernel: [    1.000000] usb 1-1: new high-speed USB "
		      "device\n",
		      f);
	fputs("Jan  2 00:00:00 h kernel: NVRM: Xid (PCI:0000:02:00): 48, pid=1, name=a, DBE\n", f);
	fclose(f);
	drv = run_probe(NULL);
	assert_true(snap_get_bool_default(drv, "kernel_log.truncated", false));
	assert_null(xid(drv, 79, "0000:01:00"));
	assert_non_null(xid(drv, 48, "0000:02:00"));
	/* The first line kept is a whole line. */
	assert_int_equal(snap_get_state(drv, "kernel_log.unparsed_xid_lines"), FACT_UNPROBED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_xid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xid_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_api_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_api_mismatch_new_wording, setup, teardown),
		cmocka_unit_test_setup_teardown(test_api_mismatch_joined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_failed_buses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_kfd_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_atomics_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amdgpu_ras_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsupported_gpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_required, setup, teardown),
		cmocka_unit_test_setup_teardown(test_legacy_gpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_dc_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kmsg_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_events_and_nul, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_status_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpuinfo_and_modules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_files, sysroot_setup, sysroot_teardown),
		cmocka_unit_test_setup_teardown(test_probe_unreadable, sysroot_setup,
						sysroot_teardown),
		cmocka_unit_test_setup_teardown(test_probe_none, sysroot_setup, sysroot_teardown),
		cmocka_unit_test_setup_teardown(test_probe_fifo, sysroot_setup, sysroot_teardown),
		cmocka_unit_test_setup_teardown(test_probe_big_file, sysroot_setup,
						sysroot_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
