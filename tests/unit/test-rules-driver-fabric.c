// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of driver.system-not-ready's reading of the NVSwitches (src/rules/rules-driver-
 * fabric.c): cuInit's 802 on a machine whose NVSwitches are seen names them and Fabric Manager;
 * on a machine that surely has none (PCI read, no NVIDIA class 0x0680 device, no
 * nvidia-nvswitch entry, no Blackwell GPU) Fabric Manager is never offered; where that cannot
 * be told, the Fabric Manager reading stays. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rules-test-util.h"

static struct gpuenv_snapshot *not_ready_h100(void)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x2330", "nvidia");
	driver_loaded(s, "535.230.02");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "ubuntu", "/etc/os-release");
	snap_set_state(snap_object(node(s, "driver"), "cuda"), "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_NOT_READY (802): system not yet initialized");
	return s;
}

static void test_nvswitches_seen(void **state)
{
	struct gpuenv_snapshot *s = not_ready_h100();
	struct snap_node *sw = snap_append_object(snap_array(node(s, "hardware"), "nvswitches"));

	snap_set_str(sw, "bus_id", "0000:07:00.0", "/sys/bus/pci/devices");
	snap_set_str(sw, "device_id", "0x22a3", "/sys/bus/pci/devices/0000:07:00.0/device");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR,
	    "this machine has 1 NVSwitch(es) (0000:07:00.0)");
	FIX(s, "driver.system-not-ready", "apt install nvidia-fabricmanager-535=535.230.02-1");
	snapshot_unref(s);
	/* Only the nvidia-nvswitch driver's procfs lists them. */
	s = not_ready_h100();
	snap_append_str(snap_array(node(s, "driver.nvidia"), "nvswitch_devices"), "0000:07:00.0",
			"/proc/driver/nvidia-nvswitch/devices");
	snap_append_str(snap_array(node(s, "driver.nvidia"), "nvswitch_devices"), "0000:08:00.0",
			"/proc/driver/nvidia-nvswitch/devices");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR,
	    "2 NVSwitch(es) (0000:07:00.0, …)");
	snapshot_unref(s);
}

static void test_no_nvswitch(void **state)
{
	struct gpuenv_snapshot *s = not_ready_h100();

	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR,
	    "that daemon is not nvidia-fabricmanager");
	NO_FIX(s, "driver.system-not-ready", "fabricmanager");
	NO_FIX(s, "driver.system-not-ready", "fabric-manager");
	/* The nvidia-nvswitch procfs unreadable: whether switches exist cannot be told. */
	snap_set_errno(node(s, "driver.nvidia"), "nvswitch_devices", -EACCES,
		       "/proc/driver/nvidia-nvswitch/devices");
	FIX(s, "driver.system-not-ready", "apt install nvidia-fabricmanager-535");
	snapshot_unref(s);
	/* PCI bus unreadable: Fabric Manager stays the reading. */
	s = not_ready_h100();
	snap_set_errno(snap_object(snapshot_root(s), "hardware"), "pci_devices", -EACCES,
		       "/sys/bus/pci/devices");
	FIX(s, "driver.system-not-ready", "apt install nvidia-fabricmanager-535");
	snapshot_unref(s);
	/* A B200: NVLink 5 switches are not on the host's PCI bus. */
	s = base();
	gpu(s, "0x2901", "nvidia");
	driver_loaded(s, "570.133.20");
	snap_set_state(snap_object(node(s, "driver"), "cuda"), "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_NOT_READY (802): system not yet initialized");
	YES(s, "driver.system-not-ready", GPUENV_SEVERITY_ERROR, "nvidia-fabricmanager, which");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvswitches_seen),
		cmocka_unit_test(test_no_nvswitch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
