// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of the hardware layer (src/rules/rules-table-hardware.inc): every
 * hardware.* rule fires on a snapshot built in C that shows its problem (positive) and stays quiet
 * on the same snapshot with the problem fixed (negative); unreadable inputs give "skipped" records,
 * never silence. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

static void test_no_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();

	YES(s, "hardware.no-gpu", GPUENV_SEVERITY_ERROR, "none of the 12 PCI devices");
	gpu(s, NULL, "nvidia");
	NO(s, "hardware.no-gpu");
	snapshot_unref(s);
	/* An unreadable bus is "could not read", not "no GPU". */
	s = base();
	snap_set_errno(node(s, "hardware"), "pci_devices", -ENOENT, "/sys/bus/pci/devices");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "hardware.no-gpu"), 0);
		assert_non_null(skip_of(d, "hardware.no-gpu"));
		assert_non_null(
			strstr(skip_of(d, "hardware.no-gpu")->reason, "/sys/bus/pci/devices"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

/* Only an Intel iGPU on the bus and nvidia.ko installed, not loaded (linux-surface/
 * surface-control#22's dGPU turned off in the UEFI): an error, with nothing else on the
 * machine expecting the GPU too (nvidia-smi fails there as well); not without the module, nor
 * beside an AMD GPU, nor with the driver loaded. */
static void test_no_nvidia_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0xa788", "i915");

	(void)state;
	snap_set_str(g, "vendor_id", "0x8086", "x");
	snap_set_str(g, "vendor", "Intel", "x");
	YES(s, "hardware.no-gpu", GPUENV_SEVERITY_ERROR,
	    "the bus holds 1 GPU(s), none of them NVIDIA's");
	driver_loaded(s, "550.54.15");
	NO(s, "hardware.no-gpu");
	snapshot_unref(s);

	s = base();
	g = gpu(s, "0xa788", "i915");
	snap_set_str(g, "vendor_id", "0x8086", "x");
	snap_set_state(node(s, "driver.nvidia.module_file"), "path", FACT_ABSENT, "/lib/modules",
		       "no nvidia.ko");
	NO(s, "hardware.no-gpu");
	snapshot_unref(s);
}

static void test_link_down(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.pcie-link-down");
	snap_set_int(g, "current_link_width", 0, "x");
	snap_set_str(g, "current_link_speed", "Unknown", "x");
	YES(s, "hardware.pcie-link-down", GPUENV_SEVERITY_ERROR, "not trained");
	NO(s, "hardware.pcie-link-degraded");
	/* A laptop's idle dGPU in D3cold reads as width 63, speed "Unknown": no fault. */
	snap_set_int(g, "current_link_width", 63, "x");
	snap_set_str(g, "runtime_status", "suspended", "x");
	SKIPPED(s, "hardware.pcie-link-down");
	snap_set_str(g, "runtime_status", "active", "x");
	YES(s, "hardware.pcie-link-down", GPUENV_SEVERITY_ERROR, "not trained");
	snapshot_unref(s);
}

static void test_link_degraded(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.pcie-link-degraded");
	snap_set_int(g, "current_link_width", 8, "x");
	YES(s, "hardware.pcie-link-degraded", GPUENV_SEVERITY_WARNING, "x8, capable of");
	/* Only the speed lower: idle power saving, an info. */
	snap_set_int(g, "current_link_width", 16, "x");
	snap_set_str(g, "current_link_speed", "2.5 GT/s PCIe", "x");
	YES(s, "hardware.pcie-link-degraded", GPUENV_SEVERITY_INFO, "idles");
	/* Unreadable width: a per-GPU skip. */
	snap_set_errno(g, "current_link_width", -EACCES,
		       "/sys/bus/pci/devices/x/current_link_width");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "hardware.pcie-link-degraded"), 0);
		assert_non_null(skip_of(d, "hardware.pcie-link-degraded"));
		assert_non_null(strstr(skip_of(d, "hardware.pcie-link-degraded")->reason,
				       "Permission denied"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_bar1(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.bar1-small");
	snap_set_state(g, "bar1_size_bytes", FACT_ABSENT, "resource", "BAR1 not assigned");
	YES(s, "hardware.bar1-small", GPUENV_SEVERITY_ERROR, "BAR1 not assigned");
	/* NVML enumerated the GPU: the driver placed its BAR1, whatever the resource file
	 * seemed to say (a VM's 64-bit BAR0 moved the aperture to line 2 for an older probe). */
	{
		struct snap_node *d = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

		snap_set_str(d, "pci_bus_id", "00000000:18:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
		NO(s, "hardware.bar1-small");
		snap_set_str(d, "pci_bus_id", "00000000:19:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
		YES(s, "hardware.bar1-small", GPUENV_SEVERITY_ERROR, "BAR1 not assigned");
	}
	snap_set_int(g, "bar1_size_bytes", 256 << 20, "resource");
	YES(s, "hardware.bar1-small", GPUENV_SEVERITY_INFO, "256 MiB");
	/* Not NVIDIA: BAR1 means something else. */
	snap_set_str(g, "vendor_id", "0x1002", "x");
	NO(s, "hardware.bar1-small");
	snapshot_unref(s);
}

static void test_gpu_without_driver(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, NULL);

	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_ERROR, "no kernel driver");
	snap_set_str(g, "driver", "vfio-pci", "x");
	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_WARNING, "passthrough");
	snap_set_str(g, "driver", "nvidia", "x");
	NO(s, "hardware.gpu-without-driver");
	snapshot_unref(s);
}

static void test_gpu_unknown(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x2bff", "nvidia"); /* not in the table */

	snap_set_bool(g, "in_gpu_table", false, "facts:gpu_compute_capability");
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_WARNING, "skip this GPU");
	/* NVML knows its compute capability: only a note. */
	{
		struct snap_node *d = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

		snap_set_str(d, "pci_bus_id", "00000000:18:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
		snap_set_str(d, "compute_capability", "12.0",
			     "nvml:nvmlDeviceGetCudaComputeCapability");
	}
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_INFO, "12.0");
	snap_set_str(g, "device_id", "0x2330", "x");
	snap_set_bool(g, "in_gpu_table", true, "x");
	NO(s, "hardware.gpu-unknown");
	snapshot_unref(s);
	/* AMD: judged by the KFD gfx target. */
	s = base();
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	snap_set_bool(g, "in_gpu_table", false, "x");
	{
		struct snap_node *n = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));

		snap_set_str(n, "gfx", "gfx942", "/sys/class/kfd/kfd/topology/nodes/2/properties");
	}
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_INFO, "gfx942");
	/* NVIDIA's compute_cap query is no advice for an AMD GPU */
	NO_FIX(s, "hardware.gpu-unknown", "nvidia-smi");
	assert_false(verify_has(s, "hardware.gpu-unknown", "nvidia-smi"));
	assert_true(verify_has(s, "hardware.gpu-unknown", "gfx_target_version"));
	{
		/* a second GPU node of another target: the topology does not say which node is
		 * this PCI GPU, so neither target is given to it (ROCm/legacy-rocm-build#5696) */
		struct snap_node *n = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));

		snap_set_str(n, "gfx", "gfx1151", "/sys/class/kfd/kfd/topology/nodes/3/properties");
	}
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_INFO,
	    "the KFD gfx targets (gfx942, gfx1151; which is this GPU's is not read)");
	snapshot_unref(s);
}

/* ---- the GPU's health from NVML (rules-hardware-health.c) ------------------------------ */

/* One NVML device with the values a healthy H100 reports. */
static struct snap_node *nvml_dev(struct gpuenv_snapshot *s, const char *bus)
{
	struct snap_node *d =
		snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

	snap_set_int(d, "index", 0, "nvml:nvmlDeviceGetHandleByIndex_v2");
	snap_set_str(d, "name", "NVIDIA H100 80GB HBM3", "nvml:nvmlDeviceGetName");
	snap_set_str(d, "pci_bus_id", bus, "nvml:nvmlDeviceGetPciInfo_v3");
	snap_set_int(d, "ecc_errors_uncorrected_volatile", 0, "nvml:nvmlDeviceGetTotalEccErrors");
	snap_set_int(d, "ecc_errors_uncorrected_aggregate", 0, "nvml:nvmlDeviceGetTotalEccErrors");
	snap_set_bool(d, "remapped_rows_pending", false, "nvml:nvmlDeviceGetRemappedRows");
	snap_set_bool(d, "remapped_rows_failure", false, "nvml:nvmlDeviceGetRemappedRows");
	snap_set_int(d, "remapped_rows_uncorrectable", 0, "nvml:nvmlDeviceGetRemappedRows");
	snap_set_int(d, "remapped_rows_correctable", 0, "nvml:nvmlDeviceGetRemappedRows");
	snap_set_state(d, "retired_pages_pending", FACT_UNSUPPORTED,
		       "nvml:nvmlDeviceGetRetiredPagesPendingStatus",
		       "NVML_ERROR_NOT_SUPPORTED (3)");
	snap_set_int(d, "clocks_event_reasons", 0x5, "nvml:nvmlDeviceGetCurrentClocksEventReasons");
	snap_set_int(d, "temperature_c", 60, "nvml:nvmlDeviceGetTemperature");
	snap_set_int(d, "temperature_slowdown_c", 89, "nvml:nvmlDeviceGetTemperatureThreshold");
	snap_set_int(d, "pcie_replay_counter", 10, "nvml:nvmlDeviceGetPcieReplayCounter");
	snap_set_int(d, "pcie_replay_counter_again", 10, "nvml:nvmlDeviceGetPcieReplayCounter");
	snap_set_int(d, "pcie_replay_interval_ms", 40, "nvml:nvmlDeviceGetPcieReplayCounter");
	snap_set_bool(d, "mig_mode", false, "nvml:nvmlDeviceGetMigMode");
	snap_set_bool(d, "mig_mode_pending", false, "nvml:nvmlDeviceGetMigMode");
	{
		struct snap_node *links = snap_array(d, "nvlink");

		for (int l = 0; l < 4; l++) {
			struct snap_node *k = snap_append_object(links);

			snap_set_int(k, "link", l, "nvml:nvmlDeviceGetNvLinkState");
			snap_set_bool(k, "active", true, "nvml:nvmlDeviceGetNvLinkState");
		}
	}
	return d;
}

static void link_set(struct snap_node *d, size_t l, bool on)
{
	/* The builders hand out const nodes once built; this test owns the snapshot. */
	struct snap_node *k = (struct snap_node *)snap_at(snap_child(d, "nvlink"), l);

	snap_set_bool(k, "active", on, "nvml:nvmlDeviceGetNvLinkState");
}

static const char *const health_rules[] = {
	"hardware.gpu-lost",
	"hardware.ecc-uncorrectable",
	"hardware.row-remap-failed",
	"hardware.row-remap-pending",
	"hardware.retired-pages-pending",
	"hardware.clocks-throttled",
	"hardware.temperature-slowdown",
	"hardware.nvlink-down",
	"hardware.pcie-replays",
	"hardware.mig-layout",
};

static void test_health(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *d, *d2;

	/* No NVML device: not evaluated, never a pass. */
	for (size_t i = 0; i < ARRAY_SIZE(health_rules); i++)
		SKIPPED(s, health_rules[i]);
	d = nvml_dev(s, "00000000:18:00.0");
	/* Healthy, under load at the SW power cap (0x4) and idle bit: nothing fires. */
	for (size_t i = 0; i < ARRAY_SIZE(health_rules); i++)
		NO(s, health_rules[i]);

	snap_set_int(d, "ecc_errors_uncorrected_aggregate", 3, "x");
	YES(s, "hardware.ecc-uncorrectable", GPUENV_SEVERITY_WARNING, "over its life");
	snap_set_int(d, "ecc_errors_uncorrected_volatile", 1, "x");
	YES(s, "hardware.ecc-uncorrectable", GPUENV_SEVERITY_ERROR, "since the driver loaded");

	snap_set_bool(d, "remapped_rows_pending", true, "x");
	YES(s, "hardware.row-remap-pending", GPUENV_SEVERITY_WARNING, "next GPU reset");
	FIX(s, "hardware.row-remap-pending", "nvidia-smi -r -i 00000000:18:00.0");
	snap_set_bool(d, "remapped_rows_failure", true, "x");
	YES(s, "hardware.row-remap-failed", GPUENV_SEVERITY_ERROR, "RMA");

	snap_set_bool(d, "retired_pages_pending", true, "x");
	YES(s, "hardware.retired-pages-pending", GPUENV_SEVERITY_WARNING, "pending retirement");

	snap_set_int(d, "clocks_event_reasons", 0x1 | 0x2 | 0x4 | 0x10 | 0x100, "x");
	NO(s, "hardware.clocks-throttled");
	snap_set_int(d, "clocks_event_reasons", 0x80, "x");
	YES(s, "hardware.clocks-throttled", GPUENV_SEVERITY_WARNING, "power brake");
	/* No clock read (a pasted reasons block, l4rz's C4130): none stated, not "0 of 0". */
	NO_TEXT(s, "hardware.clocks-throttled", "SM clock");
	/* A BMC asserts the brake too (the C4130's iDRAC), not only the power supply. */
	YES(s, "hardware.clocks-throttled", GPUENV_SEVERITY_WARNING, "management controller");
	FIX(s, "hardware.clocks-throttled", "supports this GPU model");
	snap_set_int(d, "clock_sm_mhz", 382, "x");
	YES(s, "hardware.clocks-throttled", GPUENV_SEVERITY_WARNING, "(SM clock 382 MHz)");
	snap_set_int(d, "clock_sm_max_mhz", 1530, "x");
	YES(s, "hardware.clocks-throttled", GPUENV_SEVERITY_WARNING, "(SM clock 382 of 1530 MHz)");
	snap_set_int(d, "clocks_event_reasons", 0x8 | 0x40, "x");
	YES(s, "hardware.clocks-throttled", GPUENV_SEVERITY_WARNING, "HW thermal slowdown");

	snap_set_int(d, "temperature_c", 88, "x");
	NO(s, "hardware.temperature-slowdown");
	snap_set_int(d, "temperature_c", 89, "x");
	YES(s, "hardware.temperature-slowdown", GPUENV_SEVERITY_WARNING, "89 °C");

	/* Growth at DCGM's 8 a minute or less is no finding; more is. */
	snap_set_int(d, "pcie_replay_interval_ms", 60000, "x");
	snap_set_int(d, "pcie_replay_counter_again", 18, "x");
	NO(s, "hardware.pcie-replays");
	snap_set_int(d, "pcie_replay_interval_ms", 40, "x");
	YES(s, "hardware.pcie-replays", GPUENV_SEVERITY_WARNING, "retried 8 transfer(s)");

	link_set(d, 2, false);
	YES(s, "hardware.nvlink-down", GPUENV_SEVERITY_WARNING, "1 of its 4 NVLink links down");

	snap_set_bool(d, "mig_mode", true, "x");
	snap_set_bool(d, "mig_mode_pending", true, "x");
	YES(s, "hardware.mig-layout", GPUENV_SEVERITY_INFO, "MIG mode with 0 MIG device(s)");
	snap_set_bool(d, "mig_mode_pending", false, "x");
	YES(s, "hardware.mig-layout", GPUENV_SEVERITY_WARNING, "next GPU reset");

	/* A failed call is a skip for that GPU, never a pass. */
	snap_set_state(d, "remapped_rows_failure", FACT_ERROR, "nvml:nvmlDeviceGetRemappedRows",
		       "NVML_ERROR_UNKNOWN (999): Unknown Error");
	SKIPPED(s, "hardware.row-remap-failed");

	/* All links down beside a same-model GPU whose links are up; a lone board says nothing. */
	link_set(d, 2, true);
	d2 = nvml_dev(s, "00000000:2A:00.0");
	for (size_t l = 0; l < 4; l++)
		link_set(d2, l, false);
	YES(s, "hardware.nvlink-down", GPUENV_SEVERITY_WARNING, "while 00000000:18:00.0");
	snapshot_unref(s);

	s = base();
	d = nvml_dev(s, "00000000:18:00.0");
	for (size_t l = 0; l < 4; l++)
		link_set(d, l, false);
	NO(s, "hardware.nvlink-down");
	/* Lost: any call answering NVML_ERROR_GPU_IS_LOST. */
	snap_set_state(d, "temperature_c", FACT_ERROR, "nvml:nvmlDeviceGetTemperature",
		       "NVML_ERROR_GPU_IS_LOST (15): GPU is lost");
	YES(s, "hardware.gpu-lost", GPUENV_SEVERITY_ERROR, "NVML_ERROR_GPU_IS_LOST");
	snapshot_unref(s);

	/* A GPU NVML counts but cannot open (its handle: NVML_ERROR_UNKNOWN, nvidia-smi "Unable
	 * to determine the device handle … Unknown Error") stopped answering; Unknown Error of
	 * another call on an open GPU is only that call's skip. */
	s = base();
	d = nvml_dev(s, "00000000:18:00.0");
	snap_set_state(d, "temperature_c", FACT_ERROR, "nvml:nvmlDeviceGetTemperature",
		       "NVML_ERROR_UNKNOWN (999): Unknown Error");
	NO(s, "hardware.gpu-lost");
	snap_set_state(d, "index", FACT_ERROR, "nvml:nvmlDeviceGetHandleByIndex_v2",
		       "NVML_ERROR_UNKNOWN (999): Unknown Error");
	YES(s, "hardware.gpu-lost", GPUENV_SEVERITY_ERROR, "NVML counts it but cannot open it");
	snapshot_unref(s);

	/* A GPU NVML cannot open with an error other than UNKNOWN or GPU_IS_LOST: lost only
	 * where the kernel log has Xid 79, the driver's own record of the fall. */
	s = base();
	nvml_dev(s, "00000000:07:00.0");
	d = snap_append_object(
		(struct snap_node *)snap_get(snapshot_root(s), "driver.nvml.devices"));
	snap_set_state(d, "index", FACT_ERROR, "nvml:nvmlDeviceGetHandleByIndex_v2",
		       "NVML_ERROR_TIMEOUT (10): Timeout");
	NO(s, "hardware.gpu-lost");
	d2 = snap_append_object(snap_array(node(s, "driver"), "xid_events"));
	snap_set_int(d2, "code", 48, "/var/log/kern.log");
	snap_set_str(d2, "bus_id", "0000:0b:00", "/var/log/kern.log");
	NO(s, "hardware.gpu-lost");
	d2 = snap_append_object(
		(struct snap_node *)snap_get(snapshot_root(s), "driver.xid_events"));
	snap_set_int(d2, "code", 79, "/var/log/kern.log");
	snap_set_str(d2, "bus_id", "0000:0b:00", "/var/log/kern.log");
	YES(s, "hardware.gpu-lost", GPUENV_SEVERITY_ERROR,
	    "GPU 1 is lost: NVML cannot open it (NVML_ERROR_TIMEOUT (10): Timeout) and the "
	    "kernel log has Xid 79 on PCI:0000:0b:00");
	snapshot_unref(s);
}

/* NVML's answer absent (a sysroot, no libnvidia-ml read): an Xid 79 of the running boot is the
 * driver's record that the GPU left the bus since the machine started (pop-os/pop#3363:
 * pciehp's Link Down, then Xid 79); one of an earlier boot, or of a log that shows no boot
 * start, says nothing of the GPU now: could not tell, and driver.xid-errors a warning. */
static struct snap_node *xid79(struct gpuenv_snapshot *s, const char *boot)
{
	struct snap_node *e = snap_append_object(snap_array(node(s, "driver"), "xid_events"));

	snap_set_int(e, "code", 79, "/var/log/kern.log");
	snap_set_str(e, "bus_id", "0000:01:00", "/var/log/kern.log");
	snap_set_int(e, "count", 1, "/var/log/kern.log");
	snap_set_str(e, "text", "GPU has fallen off the bus.", "/var/log/kern.log");
	if (boot)
		snap_set_str(e, "boot", boot, "/var/log/kern.log");
	else
		snap_set_state(e, "boot", FACT_ABSENT, "/var/log/kern.log", "no boot start");
	return e;
}

static void test_gpu_lost_from_log(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	SKIPPED(s, "hardware.gpu-lost"); /* no NVML, no Xid */
	xid79(s, "current");
	YES(s, "hardware.gpu-lost", GPUENV_SEVERITY_ERROR,
	    "GPU at PCI:0000:01:00 fell off the bus in the running boot");
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_ERROR, "Xid 79 on GPU 0000:01:00");
	snapshot_unref(s);

	s = base();
	xid79(s, "earlier");
	SKIPPED(s, "hardware.gpu-lost");
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_WARNING, "logged in an earlier boot");
	snapshot_unref(s);

	s = base();
	xid79(s, NULL);
	SKIPPED(s, "hardware.gpu-lost");
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_ERROR, "Xid 79 on GPU 0000:01:00");
	snapshot_unref(s);

	/* the log unreadable: could not tell (the sweep: never a pass) */
	s = base();
	snap_set_errno(node(s, "driver"), "xid_events", -EACCES, "/var/log/kern.log");
	SKIPPED(s, "hardware.gpu-lost");
	snapshot_unref(s);

	/* NVML answers the GPU: it is judged on NVML, never on the log alone */
	s = base();
	xid79(s, "current");
	nvml_dev(s, "00000000:01:00.0");
	NO(s, "hardware.gpu-lost");
	snapshot_unref(s);
}

/* A device read from pasted text (gpuenv explain: nvidia-smi -q prints no index) is judged on
 * what was read; one whose handle NVML could not get (index in error) is not. */
static void test_health_pasted(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *d =
		snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

	(void)state;
	snap_set_int(d, "remapped_rows_uncorrectable", 4, "pasted:3");
	snap_set_bool(d, "remapped_rows_pending", true, "pasted:4");
	YES(s, "hardware.row-remap-pending", GPUENV_SEVERITY_WARNING, "next GPU reset");
	NO(s, "hardware.row-remap-failed");
	/* nvidia-smi -L's MIG lines: the mode on, the pending mode not read (no change claimed),
	 * the instance ids not read (none named) */
	snap_set_bool(d, "mig_mode", true, "pasted:2");
	{
		struct snap_node *m = snap_append_object(snap_array(d, "mig_devices"));

		snap_set_str(m, "name", "3g.20gb", "pasted:2");
		snap_set_str(m, "uuid", "MIG-ce861fb0-a248-58ce-a9a8-f9adbc22a66a", "pasted:2");
	}
	YES(s, "hardware.mig-layout", GPUENV_SEVERITY_INFO,
	    "1 MIG device(s): 3g.20gb MIG-ce861fb0");
	snap_set_state(d, "index", FACT_ERROR, "nvml:nvmlDeviceGetHandleByIndex_v2",
		       "NVML_ERROR_UNKNOWN (999): Unknown Error");
	NO(s, "hardware.row-remap-pending");
	snapshot_unref(s);
	/* A pasted `lspci -vv` block: the GPU's link read, the bus's count not, speeds as lspci
	 * writes them; no link read and no count: a skip, never a pass */
	s = base();
	snap_set_state(node(s, "hardware"), "pci_devices", FACT_UNPROBED, NULL, NULL);
	SKIPPED(s, "hardware.pcie-link-degraded");
	d = gpu(s, NULL, NULL);
	snap_set_str(d, "max_link_speed", "8GT/s", "pasted:2");
	snap_set_str(d, "current_link_speed", "5GT/s", "pasted:3");
	snap_set_int(d, "current_link_width", 1, "pasted:3");
	YES(s, "hardware.pcie-link-degraded", GPUENV_SEVERITY_WARNING,
	    "at 5GT/s x1, capable of 8GT/s x16");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_no_nvidia_gpu),
		cmocka_unit_test(test_health),
		cmocka_unit_test(test_link_down),
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_bar1),
		cmocka_unit_test(test_gpu_without_driver),
		cmocka_unit_test(test_gpu_unknown),
		cmocka_unit_test(test_health_pasted),
		cmocka_unit_test(test_gpu_lost_from_log),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
