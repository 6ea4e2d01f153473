// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The readers of formats/pasted that see the GPU and its kernel module: modinfo nvidia,
 * lspci, rocminfo, rocm-smi, over real pastes (tests/fuzz/corpus/pasted-<reader>/, each
 * copied from the page named above its test) and edge cases as strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/aikitoria/open-gpu-kernel-modules/issues/15 (open, DKMS),
 * https://github.com/Shatur/optimus-manager-qt/issues/27 (proprietary, .ko.gz) and
 * https://github.com/fedora-silverblue/issue-tracker/issues/272 (akmods' .ko.xz, unsigned);
 * the module's identity in test_modinfo_names */
static void test_modinfo(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_modinfo, "pasted-modinfo", "open-590-dkms-5090.txt", &f);
	pasted_expect(&f, "driver.nvidia.module_file.path",
		      "/lib/modules/6.8.0-90-generic/updates/dkms/nvidia.ko", 2);
	pasted_expect(&f, "driver.nvidia.module_file.compression", "none", 2);
	pasted_expect(&f, "driver.nvidia.module_file.version", "590.44.01", 5);
	pasted_expect(&f, "driver.nvidia.flavor", "open", 7);
	pasted_expect(&f, "driver.nvidia.module_file.vermagic",
		      "6.8.0-90-generic SMP preempt mod_unload modversions", 22);
	pasted_expect_none(&f, "driver.nvidia.module_file.signature");
	assert_int_equal(f.n, 5);
	pasted_run_sample(pasted_read_modinfo, "pasted-modinfo", "manjaro-430-ko-gz.txt", &f);
	pasted_expect(&f, "driver.nvidia.module_file.compression", "gzip", 2);
	pasted_expect(&f, "driver.nvidia.module_file.version", "430.40", 4);
	pasted_expect(&f, "driver.nvidia.flavor", "proprietary", 6);
	pasted_run_sample(pasted_read_modinfo, "pasted-modinfo", "fedora36-510-unsigned-xz.txt",
			  &f);
	pasted_expect(&f, "driver.nvidia.module_file.compression", "xz", 1);
	pasted_expect(&f, "driver.nvidia.module_file.version", "510.68.02", 4);
	/* a signed module (kmod prints sig_id … signature, the signature's hex continues on
	 * indented lines); another module's block (nvidia_uvm) is not nvidia's */
	pasted_run_text(pasted_read_modinfo,
			"filename:       /lib/modules/6.5.0-14-generic/updates/dkms/nvidia.ko\n"
			"version:        535.129.03\n"
			"sig_id:         PKCS#7\n"
			"signer:         ubuntu Secure Boot Module Signature key\n"
			"sig_key:        1B:BB:10:CA\n"
			"sig_hashalgo:   sha512\n"
			"signature:      30:65:02:31:00:A9\n"
			"\t\tE1:FC:8A:33\n"
			"filename:       /lib/modules/6.5.0-14-generic/updates/dkms/nvidia-uvm.ko\n"
			"version:        999.0\n",
			&f);
	pasted_expect(&f, "driver.nvidia.module_file.signature", "PKCS#7", 3);
	pasted_expect(&f, "driver.nvidia.module_file.signer",
		      "ubuntu Secure Boot Module Signature key", 4);
	pasted_expect(&f, "driver.nvidia.module_file.sig_key", "1B:BB:10:CA", 5);
	pasted_expect(&f, "driver.nvidia.module_file.sig_hashalgo", "sha512", 6);
	pasted_expect(&f, "driver.nvidia.module_file.version", "535.129.03", 2);
	assert_int_equal(pasted_run_text(pasted_read_modinfo,
					 "modinfo: ERROR: Module nvidia not found.\n"
					 "version: 1.0\nfilename: nvidia.txt\nversion: 2.0\n",
					 &f),
			 0);
}

/*
 * Which block is nvidia.ko's: its "name:" (the .modinfo name= modpost writes, "nvidia" for
 * every distribution's file name), else the file's name. Debian 12's nvidia-current.ko, "name:
 * nvidia" (https://github.com/LowryConor/gpu_passthrough, README.md: `modinfo nvidia-current |
 * head -15`); Ubuntu 13.04's DKMS nvidia_304.ko on Linux 3.8, whose modinfo printed no name:
 * (ubuntuforums.org, Desktop Environments, "How do you wake a desktop computer from
 * suspend?", 2013-10-18, `modinfo nvidia-304`; its parm: lines cut after the seventh); the
 * name Ubuntu's DKMS gave the file up to 384, nvidia_384.ko
 * (https://github.com/canonical/nvidia-graphics-drivers/issues/13) and its companions'.
 */
static void test_modinfo_names(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_modinfo, "pasted-modinfo", "debian12-525-nvidia-current.txt",
			  &f);
	pasted_expect(&f, "driver.nvidia.module_file.path",
		      "/lib/modules/6.1.0-10-amd64/updates/dkms/nvidia-current.ko", 2);
	pasted_expect(&f, "driver.nvidia.module_file.compression", "none", 2);
	pasted_expect(&f, "driver.nvidia.module_file.version", "525.125.06", 6);
	pasted_expect(&f, "driver.nvidia.flavor", "proprietary", 8);
	pasted_expect(&f, "driver.nvidia.module_file.vermagic",
		      "6.1.0-10-amd64 SMP preempt mod_unload modversions", 16);
	/* one of Debian's names: the probe says no name for it either */
	pasted_expect_none(&f, "driver.nvidia.module_file.name");
	assert_int_equal(f.n, 5);

	pasted_run_sample(pasted_read_modinfo, "pasted-modinfo",
			  "ubuntu1304-304-dkms-nvidia_304.txt", &f);
	pasted_expect(&f, "driver.nvidia.module_file.path",
		      "/lib/modules/3.8.0-19-generic/updates/dkms/nvidia_304.ko", 2);
	pasted_expect(&f, "driver.nvidia.module_file.version", "304.88", 4);
	pasted_expect(&f, "driver.nvidia.flavor", "proprietary", 6);
	pasted_expect(&f, "driver.nvidia.module_file.vermagic",
		      "3.8.0-19-generic SMP mod_unload modversions 686", 12);
	pasted_expect_none(&f, "driver.nvidia.module_file.name");

	/* name: decides where modinfo prints it: the renamed file is nvidia's, its name said as
	 * the probe says it; the companions' blocks (name: nvidia_uvm, nvidia_modeset) are not,
	 * whatever their files are called; a compressed file's compression from its name */
	pasted_run_text(
		pasted_read_modinfo,
		"filename:       /lib/modules/4.10.0-37-generic/updates/dkms/nvidia_384_uvm.ko\n"
		"version:        384.90\n"
		"name:           nvidia_uvm\n"
		"filename:       /lib/modules/4.10.0-37-generic/updates/dkms/nvidia_384.ko.zst\n"
		"version:        384.90\n"
		"license:        NVIDIA\n"
		"name:           nvidia\n"
		"filename:       /lib/modules/4.10.0-37-generic/updates/dkms/nvidia-modeset.ko\n"
		"version:        999.1\n"
		"name:           nvidia_modeset\n",
		&f);
	pasted_expect(&f, "driver.nvidia.module_file.path",
		      "/lib/modules/4.10.0-37-generic/updates/dkms/nvidia_384.ko.zst", 4);
	pasted_expect(&f, "driver.nvidia.module_file.compression", "zstd", 4);
	pasted_expect(&f, "driver.nvidia.module_file.name", "nvidia", 4);
	pasted_expect(&f, "driver.nvidia.module_file.version", "384.90", 5);
	assert_int_equal(f.n, 5);
	/* a name: that is not nvidia's outweighs a file named like it; without name:, a file
	 * Ubuntu's companions are named like is none, nor one named nvidia_<not a number> */
	assert_int_equal(
		pasted_run_text(pasted_read_modinfo,
				"filename: /lib/modules/6.1.0-10-amd64/updates/dkms/"
				"nvidia-current.ko\nversion: 1.0\nname: nvidia_current_uvm\n"
				"filename: /lib/modules/4.4.0-134-generic/updates/dkms/"
				"nvidia_384_uvm.ko\nversion: 2.0\n"
				"filename: /lib/modules/4.4.0-134-generic/updates/dkms/"
				"nvidia_fs.ko\nversion: 3.0\n",
				&f),
		0);
}

/* https://github.com/vanities/GPU-Passthrough-Arch-Linux-to-Windows10/issues/6 (two pastes of
 * lspci -nnk, one with its indentation lost), https://github.com/negativo17/nvidia-driver/issues/73
 * (-vv: names, no ids), https://github.com/hyprwm/Hyprland/pull/6715 (one -nn line, prog-if),
 * https://github.com/RunGp/Nvidiux/issues/10 (-vnn: "[10de:1200](rev a1)", a host bridge),
 * https://github.com/ROCm/legacy-rocm-build/issues/624 (an RX Vega pci.ids did not name) */
static void test_lspci(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "nnk-gtx1650-mobile.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.bus_id", "0000:01:00.0", 1);
	pasted_expect(&f, "hardware.gpus.0.vendor_id", "0x10de", 1);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x1f91", 1);
	pasted_expect(&f, "hardware.gpus.0.vendor", "NVIDIA", 1);
	pasted_expect(&f, "hardware.gpus.0.subsystem_vendor_id", "0x103c", 2);
	pasted_expect(&f, "hardware.gpus.0.subsystem_device_id", "0x85fc", 2);
	pasted_expect(&f, "hardware.gpus.0.driver", "nvidia", 3);
	pasted_expect_no_prefix(&f, "hardware.gpus.1"); /* the HDMI audio function is no GPU */
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "nnk-rtx3080-unindented.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.bus_id", "0000:3e:00.0", 1);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x2206", 1);
	pasted_expect(&f, "hardware.gpus.0.driver", "nvidia", 3);
	pasted_expect_no_prefix(&f, "hardware.gpus.1");
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "vv-gtx970-nouveau.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.vendor", "NVIDIA", 2);
	pasted_expect(&f, "hardware.gpus.0.driver", "nouveau", 14);
	pasted_expect_none(&f, "hardware.gpus.0.device_id"); /* a name is pci.ids', not an id */
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "hyprctl-rtx3080.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x2206", 2);
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "vnn-gtx560ti.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x1200", 1);
	pasted_expect_none(&f, "hardware.gpus.0.driver"); /* the bridge's driver is not the GPU's */
	assert_int_equal(f.n, 4);
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "vga-vega10-unnamed.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x687f", 2);
	pasted_expect_none(&f, "hardware.gpus.0.vendor_id");
	/* -D and -n forms, an AMD accelerator, a device listed twice, an Intel iGPU first */
	pasted_run_text(
		pasted_read_lspci,
		"0000:00:02.0 VGA compatible controller: Intel Corporation UHD Graphics 630\n"
		"0000:c1:00.0 0302: 10de:2330 (rev a1)\n"
		"c1:00.0 3D controller [0302]: NVIDIA Corporation GH100 [H100 SXM5 80GB] "
		"[10de:2330] (rev a1)\n"
		"\tKernel driver in use: nvidia\n"
		"83:00.0 Processing accelerators [1200]: Advanced Micro Devices, Inc. "
		"[AMD/ATI] Aldebaran/MI200 [Instinct MI210] [1002:740f] (rev 02)\n"
		"84:00.0 Processing accelerators [1200]: Habana Labs Ltd. Device [1da3:1020]\n",
		&f);
	pasted_expect(&f, "hardware.gpus.0.vendor", "Intel", 1);
	pasted_expect_none(&f, "hardware.gpus.0.device_id");
	pasted_expect(&f, "hardware.gpus.1.bus_id", "0000:c1:00.0", 3);
	pasted_expect(&f, "hardware.gpus.1.device_id", "0x2330", 3);
	pasted_expect(&f, "hardware.gpus.1.driver", "nvidia", 4);
	pasted_expect(&f, "hardware.gpus.2.vendor_id", "0x1002", 5);
	pasted_expect_no_prefix(&f, "hardware.gpus.3");
	pasted_expect_none(&f, "hardware.pci_devices"); /* not from 00:00.0: maybe filtered */
	/* without -nn, ids pci.ids does not name (pciutils lib/names.c format_name_pair()): the
	 * device's under a known vendor (ROCm/legacy-rocm-build#624), both under an unknown one;
	 * a vendor's id is not taken from its name, a name's own words are no id */
	pasted_run_text(pasted_read_lspci,
			"0b:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] "
			"Device 687f (rev c1)\n"
			"0c:00.0 Display controller: Device 1234:1111\n"
			"0d:00.0 VGA compatible controller: Intel Corporation Device 56a5\n"
			"0e:00.0 VGA compatible controller: NVIDIA Corporation Device 2684x\n"
			"0f:00.0 VGA compatible controller: Matrox Electronics Systems Ltd. Device "
			"0536\n",
			&f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x687f", 1);
	pasted_expect(&f, "hardware.gpus.0.vendor", "AMD", 1);
	pasted_expect_none(&f, "hardware.gpus.0.vendor_id");
	pasted_expect(&f, "hardware.gpus.1.vendor_id", "0x1234", 2);
	pasted_expect(&f, "hardware.gpus.1.device_id", "0x1111", 2);
	pasted_expect_none(&f, "hardware.gpus.1.vendor");
	pasted_expect(&f, "hardware.gpus.2.device_id", "0x56a5", 3);
	pasted_expect_none(&f, "hardware.gpus.3.device_id");
	pasted_expect_none(&f, "hardware.gpus.4.device_id");
	pasted_expect_none(&f, "hardware.gpus.4.vendor_id");
	/* an unfiltered listing counts the bus's devices; one broken by prose does not */
	pasted_run_text(
		pasted_read_lspci,
		"$ lspci -nn\n00:00.0 Host bridge [0600]: Intel Corporation Device [8086:a700]\n"
		"00:02.0 VGA compatible controller [0300]: Intel Corporation Device "
		"[8086:a780] (rev 04)\n"
		"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 "
		"[GeForce RTX 4090] [10de:2684] (rev a1)\n01:00.1 Audio device [0403]: "
		"NVIDIA Corporation Device [10de:22ba] (rev a1)\n",
		&f);
	pasted_expect(&f, "hardware.pci_devices", "4", 2);
	pasted_expect(&f, "hardware.gpus.1.device_id", "0x2684", 4);
	pasted_run_text(pasted_read_lspci,
			"00:00.0 Host bridge [0600]: Intel Corporation Device [8086:a700]\n"
			"and then the GPU\n"
			"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 "
			"[GeForce RTX 4090] [10de:2684] (rev a1)\n",
			&f);
	pasted_expect_none(&f, "hardware.pci_devices");
}

static void expect_absent(const char *path, unsigned line)
{
	const struct pasted_fact *x = pasted_facts_get(&f, path);

	assert_non_null(x);
	assert_true(x->absent);
	assert_false(x->failed);
	assert_int_equal(x->line, line);
}

/* lspci prints "Kernel driver in use:" only for a bound device (pciutils ls-kernel.c), so a -k
 * block without it is a GPU with no driver; a block that may be cut (grep -A1, the paste's
 * end, prose after it) or that has no -k line at all says nothing */
static void test_lspci_no_driver(void **state)
{
	(void)state;
	/* "Kernel modules:" (printed after the driver's line) closes the block */
	pasted_run_text(pasted_read_lspci,
			"$ lspci -nnk | grep -A3 NVIDIA\n"
			"01:00.0 3D controller [0302]: NVIDIA Corporation TU104GL [Tesla T4] "
			"[10de:1eb8] (rev a1)\n"
			"\tSubsystem: NVIDIA Corporation Device [10de:12a2]\n"
			"\tKernel modules: nvidiafb, nouveau\n",
			&f);
	expect_absent("hardware.gpus.0.driver", 2);
	pasted_expect(&f, "hardware.gpus.0.subsystem_device_id", "0x12a2", 3);
	/* "Subsystem:" then the next device: the block is whole (-k without module aliases) */
	pasted_run_text(pasted_read_lspci,
			"01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce "
			"RTX 3090] (rev a1)\n"
			"\tSubsystem: ASUSTeK Computer Inc. Device 87b3\n"
			"01:00.1 Audio device: NVIDIA Corporation GA102 High Definition Audio "
			"Controller (rev a1)\n"
			"\tSubsystem: ASUSTeK Computer Inc. Device 87b3\n"
			"\tKernel driver in use: snd_hda_intel\n",
			&f);
	expect_absent("hardware.gpus.0.driver", 1);
	/* "Subsystem:" alone at the end, or before grep's "--": maybe cut, nothing recorded */
	pasted_run_text(pasted_read_lspci,
			"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 "
			"[10de:2204] (rev a1)\n"
			"\tSubsystem: ASUSTeK Computer Inc. Device [1043:87b3]\n"
			"--\n"
			"02:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 "
			"[10de:2204] (rev a1)\n"
			"\tSubsystem: ASUSTeK Computer Inc. Device [1043:87b3]\n",
			&f);
	pasted_expect_none(&f, "hardware.gpus.0.driver");
	pasted_expect_none(&f, "hardware.gpus.1.driver");
	pasted_expect(&f, "hardware.gpus.1.bus_id", "0000:02:00.0", 4);
	/* no -k line at all (lspci -nn): nothing said of the driver */
	pasted_run_text(pasted_read_lspci,
			"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 "
			"[10de:2204] (rev a1)\n"
			"02:00.0 Ethernet controller [0200]: Intel Corporation I211 [8086:1539]\n",
			&f);
	pasted_expect_none(&f, "hardware.gpus.0.driver");
	/* the same GPU shown bound in another listing of the paste stays bound */
	pasted_run_text(pasted_read_lspci,
			"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 "
			"[10de:2204] (rev a1)\n"
			"\tKernel driver in use: nvidia\n"
			"\tKernel modules: nouveau, nvidia\n"
			"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 "
			"[10de:2204] (rev a1)\n"
			"\tSubsystem: ASUSTeK Computer Inc. Device [1043:87b3]\n"
			"\tKernel modules: nouveau, nvidia\n",
			&f);
	pasted_expect(&f, "hardware.gpus.0.driver", "nvidia", 2);
	/* vfio-pci is a driver: bound, not absent */
	pasted_run_text(pasted_read_lspci,
			"0a:00.0 VGA compatible controller [0300]: NVIDIA Corporation GP104 "
			"[10de:1b81] (rev a1)\n"
			"\tKernel driver in use: vfio-pci\n"
			"\tKernel modules: nouveau\n",
			&f);
	pasted_expect(&f, "hardware.gpus.0.driver", "vfio-pci", 2);
	assert_false(pasted_facts_get(&f, "hardware.gpus.0.driver")->absent);
}

/* https://github.com/ROCm/legacy-rocm-build/issues/1797 (the GPU agent alone),
 * https://github.com/robertrosenbusch/gfx803_rocm/issues/13 (cut before "Device Type") and
 * https://github.com/ROCm/ROCm-OpenCL-Runtime/issues/144 (the CPU agent: no GPU) */
static void test_rocminfo(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_rocminfo, "pasted-rocminfo", "w6600-gfx1032-agent2.txt", &f);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.0.gfx", "gfx1032", 5);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.0.node", "1", 16);
	assert_int_equal(f.n, 2);
	pasted_run_sample(pasted_read_rocminfo, "pasted-rocminfo", "rx590-gfx803-cpu-elided.txt",
			  &f);
	pasted_expect(&f, "driver.kernel_modules.amdgpu", "true", 6);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.0.gfx", "gfx803", 27);
	pasted_run_sample(pasted_read_rocminfo, "pasted-rocminfo", "xeon-cpu-agent1.txt", &f);
	pasted_expect(&f, "driver.kernel_modules.amdgpu", "true", 2);
	pasted_expect_no_prefix(&f, "driver.amdgpu");
	pasted_run_text(pasted_read_rocminfo,
			"ROCk module version 6.7.0 is loaded\nAgent 2\n  Name: gfx942\n"
			"  Device Type: GPU\nAgent 3\n  Name: gfx90a\n  Node: 3\n"
			"  Device Type: DSP\n",
			&f);
	pasted_expect(&f, "driver.amdgpu.module_version", "6.7.0", 1);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.0.gfx", "gfx942", 3);
	pasted_expect_no_prefix(&f, "driver.amdgpu.kfd_nodes.1");
	pasted_run_text(pasted_read_rocminfo,
			"ROCk module is NOT loaded, possibly no GPU devices\n", &f);
	pasted_expect(&f, "driver.kernel_modules.amdgpu", "false", 1);
}

/* https://github.com/ROCm/rocm_smi_lib/issues/77 (-a, "GPU ID"),
 * https://github.com/ROCm/legacy-rocm-build/issues/2410 (the kernel's amdgpu: "Driver version"
 * is the kernel release, not read) and https://github.com/wandb/wandb/pull/5449 (the concise
 * table names no device) */
static void test_rocm_smi(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_rocm_smi, "pasted-rocm-smi", "a-navi10-5.6.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x731f", 4);
	pasted_expect(&f, "hardware.gpus.0.vendor_id", "0x1002", 4);
	assert_int_equal(f.n, 3);
	pasted_run_sample(pasted_read_rocm_smi, "pasted-rocm-smi", "a-raphael-debian-kernel.txt",
			  &f);
	pasted_expect(&f, "hardware.gpus.0.device_id", "0x164e", 6);
	pasted_expect_no_prefix(&f, "driver");
	assert_int_equal(
		pasted_run_sample(pasted_read_rocm_smi, "pasted-rocm-smi", "concise-mi250.txt", &f),
		0);
	pasted_run_text(pasted_read_rocm_smi,
			"GPU[1]\t\t: Device ID: 0x740F\nGPU[1]\t\t: PCI Bus: 0000:C1:00.0\n"
			"GPU[1]\t\t: GFX Version: gfx90a\nGPU[2] : GFX Version: gfx90a:xnack-\n",
			&f);
	pasted_expect(&f, "hardware.gpus.1.device_id", "0x740f", 1);
	pasted_expect(&f, "hardware.gpus.1.bus_id", "0000:c1:00.0", 2);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.1.gfx", "gfx90a", 3);
	pasted_expect_none(&f, "driver.amdgpu.kfd_nodes.2.gfx");
}

/* lspci -vv's link lines (pciutils ls-caps.c cap_express_link()), in the form of
 * geerlingguy/raspberry-pi-pcie-devices#480 (a Quadro RTX 8000 in a Raspberry Pi's x1 slot):
 * the GPU's LnkCap as max_link_*, LnkSta as current_link_*, the speed as lspci writes it; not
 * the bridge's above it, nor LnkCap2/LnkSta2, nor an untrained link's "Speed unknown, Width x0" */
static void test_lspci_link(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_lspci,
		"00:00.0 PCI bridge: Broadcom Inc. and subsidiaries Device 2711 (rev 20)\n"
		"\t\tLnkCap:\tPort #0, Speed 5GT/s, Width x1, ASPM L0s L1, Exit Latency L0s "
		"<2us\n"
		"\t\tLnkSta:\tSpeed 5GT/s (ok), Width x1 (ok)\n"
		"01:00.0 VGA compatible controller: NVIDIA Corporation TU102GL [Quadro RTX "
		"6000/8000] (rev a1) (prog-if 00 [VGA controller])\n"
		"\tCapabilities: [78] Express (v2) Legacy Endpoint, MSI 00\n"
		"\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x16, ASPM L0s L1, Exit Latency L0s "
		"<512ns, L1 <4us\n"
		"\t\tLnkSta:\tSpeed 5GT/s (downgraded), Width x1 (downgraded)\n"
		"\t\tLnkCap2: Supported Link Speeds: 2.5-8GT/s, Crosslink- Retimer- 2Retimers- "
		"DRS-\n"
		"\t\tLnkSta2: Current De-emphasis Level: -3.5dB, EqualizationComplete-\n"
		"02:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev a1)\n"
		"\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
		"\t\tLnkSta:\tSpeed unknown (downgraded), Width x0 (downgraded)\n",
		&f);
	pasted_expect(&f, "hardware.gpus.0.max_link_speed", "8GT/s", 6);
	pasted_expect(&f, "hardware.gpus.0.max_link_width", "16", 6);
	pasted_expect(&f, "hardware.gpus.0.current_link_speed", "5GT/s", 7);
	pasted_expect(&f, "hardware.gpus.0.current_link_width", "1", 7);
	pasted_expect(&f, "hardware.gpus.1.max_link_speed", "16GT/s", 11);
	pasted_expect_none(&f, "hardware.gpus.1.current_link_speed");
	pasted_expect_none(&f, "hardware.gpus.1.current_link_width");
	/* http://billauer.co.il/blog/2018/08/nvidia-low-pci-express-speed/: pciutils before 3.6
	 * (no "(downgraded)" marks), an idle GT 730 at 2.5 GT/s, lines cut by "[ ... ]" */
	pasted_run_sample(pasted_read_lspci, "pasted-lspci", "vv-gt730-idle-billauer.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.max_link_speed", "5GT/s", 11);
	pasted_expect(&f, "hardware.gpus.0.max_link_width", "8", 11);
	pasted_expect(&f, "hardware.gpus.0.current_link_speed", "2.5GT/s", 15);
	pasted_expect(&f, "hardware.gpus.0.current_link_width", "8", 15);
	pasted_expect(&f, "hardware.gpus.0.driver", "nvidia", 17);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_modinfo, teardown),
		cmocka_unit_test_teardown(test_modinfo_names, teardown),
		cmocka_unit_test_teardown(test_lspci, teardown),
		cmocka_unit_test_teardown(test_lspci_link, teardown),
		cmocka_unit_test_teardown(test_lspci_no_driver, teardown),
		cmocka_unit_test_teardown(test_rocminfo, teardown),
		cmocka_unit_test_teardown(test_rocm_smi, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
