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
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_link_down),
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_bar1),
		cmocka_unit_test(test_gpu_without_driver),
		cmocka_unit_test(test_gpu_unknown),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
