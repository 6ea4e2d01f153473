// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The small system readers of formats/pasted: uname -a, /etc/os-release, lsmod, the Secure
 * Boot state (mokutil, the kernel's boot line), kernel log lines that are not errors,
 * ldconfig -p, env and the marks of a Windows paste, over real pastes (tests/fuzz/corpus/pasted-<reader>/, each copied from
 * the page named above its test).
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

/* https://github.com/tensorflow/tensorflow/issues/3184,
 * https://github.com/NVIDIA/nvidia-docker/issues/789 (a container's, in the issue template) and
 * https://github.com/jurkovic-nikola/OpenLinkHub/pull/174 (a GPU held by vfio-pci) */
static void test_uname(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_uname, "pasted-uname", "ubuntu-16.04.txt", &f);
	pasted_expect(&f, "host.kernel_release", "4.4.0-28-generic", 4);
	pasted_run_sample(pasted_read_uname, "pasted-uname", "container-issue-template.txt", &f);
	pasted_expect(&f, "host.kernel_release", "4.15.0-24-generic", 2);
	pasted_run_text(pasted_read_uname,
			"Linux DESKTOP-1 5.15.153.1-microsoft-standard-WSL2 #1 SMP Fri Mar 29 "
			"23:14:13 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux\n"
			"Linux is great 5.1 times over\nLinux host 6.1\n",
			&f);
	pasted_expect(&f, "host.kernel_release", "5.15.153.1-microsoft-standard-WSL2", 1);
	assert_int_equal(f.n, 1);
	/* nvidia-bug-report.sh's header (maz906/caffe, nvidia-bug-report.log at 5b386f8d) */
	pasted_run_text(pasted_read_uname,
			"Date: Mon Dec 21 01:42:03 MST 2015\n"
			"uname: Linux shield-616-2 4.2.0-22-generic #27-Ubuntu SMP Thu Dec 17 "
			"22:57:08 UTC 2015 x86_64 x86_64 x86_64 GNU/Linux\n",
			&f);
	pasted_expect(&f, "host.kernel_release", "4.2.0-22-generic", 2);
}

/* hostnamectl's Kernel: and Operating System: fields
 * (https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227, `hostnamectl | egrep`);
 * docker info's "Operating System:" (of the daemon's host) without a field only hostnamectl
 * prints is not read */
static void test_hostnamectl(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_hostnamectl, "pasted-hostnamectl",
					   "container-toolkit-1227.txt", &f),
			 2);
	pasted_expect(&f, "host.kernel_release", "5.15.0-25-generic", 4);
	pasted_expect(&f, "host.os.pretty_name", "Ubuntu 22.04 LTS", 3);
	assert_int_equal(pasted_run_text(pasted_read_hostnamectl,
					 " Kernel Version: 6.2.0-35-generic\n"
					 " Operating System: Ubuntu 22.04.3 LTS\n"
					 " OSType: linux\n",
					 &f),
			 0);
	/* the whole status, fields in systemd's order (hostnamectl.c print_status_info()) */
	assert_int_equal(pasted_run_text(pasted_read_hostnamectl,
					 " Static hostname: ubuntu\n"
					 "       Icon name: computer-vm\n"
					 "  Virtualization: vmware\n"
					 "Operating System: Ubuntu 22.04.3 LTS\n"
					 "          Kernel: Linux 6.5.0-15-generic\n"
					 "    Architecture: x86-64\n",
					 &f),
			 2);
	pasted_expect(&f, "host.os.pretty_name", "Ubuntu 22.04.3 LTS", 4);
	pasted_expect(&f, "host.kernel_release", "6.5.0-15-generic", 5);
	/* prose and other tools' "Kernel:" (neofetch's has no "Linux ") */
	assert_int_equal(pasted_run_text(pasted_read_hostnamectl,
					 "Kernel: Linux is great\n"
					 "Kernel: 5.15.0-113-generic\n"
					 "The Kernel: Linux 5.15.0-25-generic\n",
					 &f),
			 0);
}

/* https://github.com/wookayin/gpustat/issues/102 (`cat /etc/os-release /etc/lsb-release` as one glob: lsb-release lines too) */
static void test_os_release(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_os_release, "pasted-os-release",
					   "ubuntu-16.04-etc-release.txt", &f),
			 4);
	pasted_expect(&f, "host.os.id", "ubuntu", 8);
	pasted_expect(&f, "host.os.id_like", "debian", 9);
	pasted_expect(&f, "host.os.pretty_name", "Ubuntu 16.04.4 LTS", 10);
	pasted_expect(&f, "host.os.version_id", "16.04", 11);
}

/* Ubuntu Forums, "Ubuntu 11. Wifi stops working." (Networking & Wireless, kernel_mode,
 * 2011-07-18): a whole lsmod with the nvidia module; and `lsmod | grep nvidia` lines */
static void test_lsmod(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_lsmod, "pasted-lsmod", "ubuntu-11-gts250.txt", &f),
		1);
	pasted_expect(&f, "driver.kernel_modules.nvidia", "true", 9);
	pasted_expect_none(&f, "driver.kernel_modules.nouveau"); /* not listed: not known */
	pasted_run_text(pasted_read_lsmod,
			"nvidia_uvm           1540096  0\nnvidia_drm             77824  4\n"
			"nvidia_modeset       1306624  8 nvidia_drm\n"
			"nvidia              56717312  1024 nvidia_uvm,nvidia_modeset\n"
			"nouveau is 1 2 3\n",
			&f);
	pasted_expect(&f, "driver.kernel_modules.nvidia_uvm", "true", 1);
	pasted_expect(&f, "driver.kernel_modules.nvidia_modeset", "true", 3);
	pasted_expect(&f, "driver.kernel_modules.nvidia", "true", 4);
	assert_int_equal(f.n, 4);
	/* /proc/modules as nvidia-bug-report.sh appends it: its nvidia line is that report's;
	 * the others are written in proc(5)'s format (deps listed with a trailing comma, another
	 * state, a line of lsmod's shape with fields added) */
	pasted_run_text(pasted_read_lsmod,
			"*** /proc/modules\n"
			"nvidia_uvm 69632 0 - Live 0xffffffffc0e2e000 (POE)\n"
			"nvidia 8646656 53 - Live 0xffffffffc0553000 (POE)\n"
			"nvidia_modeset 1343488 2 nvidia_drm, Live 0xffffffffc0c01000 (POE)\n"
			"nvidia_drm 16384 1 - Unloading 0xffffffffc0210000 (POE)\n"
			"nouveau 1 2 3 4 5\n",
			&f);
	pasted_expect(&f, "driver.kernel_modules.nvidia_uvm", "true", 2);
	pasted_expect(&f, "driver.kernel_modules.nvidia", "true", 3);
	pasted_expect(&f, "driver.kernel_modules.nvidia_modeset", "true", 4);
	assert_int_equal(f.n, 3);
}

/* https://github.com/Start9Labs/start-technologies/issues/3702 (mokutil) and
 * https://github.com/olafkfreund/nixos_config/issues/376 (the kernel's line in dmesg) */
static void test_secure_boot(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_mokutil, "pasted-mokutil", "startos-dgx-spark.txt", &f);
	pasted_expect(&f, "driver.secure_boot.enabled", "true", 3);
	assert_int_equal(f.n, 1); /* the prose mentioning `SecureBoot enabled` is not read */
	pasted_run_sample(pasted_read_mokutil, "pasted-mokutil", "dmesg-secure-boot-razer.txt", &f);
	pasted_expect(&f, "driver.secure_boot.enabled", "true", 4);
	pasted_run_text(pasted_read_mokutil,
			"SecureBoot disabled\nMar 1 10:00:00 h kernel: secureboot: Secure boot "
			"disabled\nSecure boot enabled by me\n",
			&f);
	pasted_expect(&f, "driver.secure_boot.enabled", "false", 2);
}

/* Why the NVIDIA module's signature was refused: kmod's line alone says nothing of it
 * (https://github.com/canonical/nvidia-graphics-drivers/issues/61: nvidia-smi, modprobe, dkms
 * status), nor of another module (Fred78290/nct6687d#94: DKMS signed nct6687, kmod refused
 * it; JafarAkhondali/acer-predator-turbo-and-rgb-keyboard-linux-module#113: the kernel's
 * reason for facer.ko). The kernel's reason or DKMS's signing of nvidia.ko next to the refusal
 * name the rule; both kinds, or none, name nothing. */
static void test_module_signature(void **state)
{
	static const char refused[] =
		"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n";

	(void)state;
	pasted_run_sample(pasted_read_module_sig, "pasted-module-sig",
			  "nvidia-535-key-rejected-canonical-61.txt", &f);
	assert_int_equal(f.n, 0);
	pasted_run_sample(pasted_read_module_sig, "pasted-module-sig",
			  "nct6687d-dkms-signed-94.txt", &f);
	assert_int_equal(f.n, 0);
	pasted_run_sample(pasted_read_module_sig, "pasted-module-sig",
			  "facer-unavailable-key-113.txt", &f);
	assert_int_equal(f.n, 0);
	/* the kernel's reason (kernel/module/signing.c) */
	pasted_run_text(
		pasted_read_module_sig,
		"$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': Key "
		"was rejected by service\n$ sudo dmesg | tail -1\n[  912.004417] Loading of "
		"unsigned module is rejected\n",
		&f);
	pasted_expect(&f, "symptoms.driver.secure-boot-unsigned-module",
		      "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", 2);
	pasted_expect(&f, "messages.module_signature",
		      "[  912.004417] Loading of unsigned module is rejected", 4);
	pasted_expect_none(&f, "symptoms.driver.secure-boot-key-not-enrolled");
	pasted_run_text(pasted_read_module_sig,
			"[   61.2] Loading of module with unavailable key is rejected\n"
			"modprobe: ERROR: could not insert 'nvidia': Required key not available\n",
			&f);
	pasted_expect(&f, "symptoms.driver.secure-boot-key-not-enrolled",
		      "modprobe: ERROR: could not insert 'nvidia': Required key not available", 2);
	pasted_expect_none(&f, "symptoms.driver.secure-boot-unsigned-module");
	/* DKMS signed nvidia.ko with its MOK: a refusal means that key is not enrolled */
	pasted_run_text(pasted_read_module_sig,
			"Signing module /var/lib/dkms/nvidia/535.113.01/build/nvidia.ko\n"
			"Signing module /var/lib/dkms/nvidia/535.113.01/build/nvidia-uvm.ko\n"
			"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n",
			&f);
	pasted_expect(&f, "symptoms.driver.secure-boot-key-not-enrolled",
		      "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", 3);
	pasted_expect(&f, "messages.module_signature",
		      "Signing module /var/lib/dkms/nvidia/535.113.01/build/nvidia.ko", 1);
	/* nvidia-installer's refusals: its general failure names a rule beside the kernel's reason
	 * (gpu-operator#1726), its own reason alone does not (it says it of both kinds) */
	pasted_run_text(pasted_read_module_sig,
			"ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most "
			"frequently when this kernel module was built against the wrong kernel\n"
			"Kernel messages:\n[   42.1] Loading of unsigned module is rejected\n",
			&f);
	pasted_expect(&f, "symptoms.driver.secure-boot-unsigned-module",
		      "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most "
		      "frequently when this kernel module was built against the wrong kernel",
		      1);
	pasted_run_text(
		pasted_read_module_sig,
		"ERROR: The kernel module failed to load, because it was not signed by a key "
		"that is trusted by the kernel. Please try installing the driver again\n",
		&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_module_sig,
			"ERROR: Unable to load the kernel module 'nvidia.ko'.\n", &f);
	assert_int_equal(f.n, 0);
	/* https://github.com/NVIDIA/gpu-operator/issues/1142: nvidia-installer says Secure Boot
	 * is on, installs without signing (its default answer), and the load fails with the
	 * lockdown's EPERM */
	pasted_run_text(
		pasted_read_module_sig,
		"The target kernel has CONFIG_MODULE_SIG set, which means that it supports "
		"cryptographic signatures on kernel modules. On some systems, the kernel may refuse "
		"to load modules without a valid signature from a trusted key. This system also has "
		"UEFI Secure Boot enabled; many distributions enforce module signature verification "
		"on UEFI systems when Secure Boot is enabled. Would you like to sign the NVIDIA "
		"kernel module? (Answer: Install without signing)\n"
		"Kernel module load error: Operation not permitted\n",
		&f);
	pasted_expect(&f, "symptoms.driver.secure-boot-unsigned-module",
		      "Kernel module load error: Operation not permitted", 2);
	pasted_expect(&f, "driver.secure_boot.enabled", "true", 1);
	pasted_expect_none(&f, "symptoms.driver.secure-boot-key-not-enrolled");
	/* the installer's load error with another errno is no Secure Boot refusal */
	pasted_run_text(pasted_read_module_sig,
			"Would you like to sign the NVIDIA kernel module? (Answer: Install without "
			"signing)\nKernel module load error: No such device\n",
			&f);
	assert_int_equal(f.n, 0);
	/* a reason without a refusal of nvidia, and both reasons at once: nothing */
	pasted_run_text(pasted_read_module_sig, "[ 1.0] Loading of unsigned module is rejected\n",
			&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_module_sig,
			"[ 1.0] Loading of unsigned module is rejected\n"
			"[ 2.0] Loading of module with unavailable key is rejected\n",
			&f);
	assert_int_equal(f.n, 0);
	{
		char both[512];

		snprintf(both, sizeof(both), "%s%s%s", refused,
			 "[ 1.0] Loading of unsigned module is rejected\n",
			 "[ 2.0] PKCS#7 signature not signed with a trusted key\n");
		pasted_run_text(pasted_read_module_sig, both, &f);
		assert_int_equal(f.n, 0);
	}
}

/* https://github.com/NVIDIA/k8s-device-plugin/issues/480 (dmesg), MrMEEE/ironhide#97
 * (https://github.com/MrMEEE/ironhide/issues/97, kern.log: one version loaded four times) and
 * https://github.com/pop-os/linux/issues/452 (journalctl -k: the kernel's banner) */
static void test_kernel_log(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_kernel_log, "pasted-kernel-log", "dmesg-525-k8s.txt", &f);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.0", "525.147.05", 7);
	pasted_expect(&f, "driver.kernel_log.last_loaded_timestamp", "[    3.011519]", 7);
	assert_int_equal(f.n, 2);
	pasted_run_sample(pasted_read_kernel_log, "pasted-kernel-log", "kern-log-285-x86.txt", &f);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.0", "285.03", 2);
	pasted_expect_none(&f, "driver.kernel_log.loaded_versions.1");
	pasted_expect(&f, "driver.kernel_log.last_loaded_timestamp", "Oct  4 17:38:18", 5);
	pasted_run_sample(pasted_read_kernel_log, "pasted-kernel-log",
			  "journalctl-popos-linux-version.txt", &f);
	pasted_expect(&f, "host.kernel_release", "7.0.11-76070011-generic", 1);
	/* an upgrade: two versions, in order */
	pasted_run_text(
		pasted_read_kernel_log,
		"[    5.1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat\n"
		"[ 9000.2] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  "
		"Release Build\n",
		&f);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.0", "535.104.05", 1);
	pasted_expect(&f, "driver.kernel_log.loaded_versions.1", "550.54.15", 2);
	pasted_expect(&f, "driver.kernel_log.last_loaded_timestamp", "[ 9000.2]", 2);
	/* the GPU nvidia.ko could not claim: one element, however often the line repeats */
	pasted_run_sample(pasted_read_kernel_log, "pasted-kernel-log",
			  "dmesg-vfio-bound-openlinkhub.txt", &f);
	pasted_expect(&f, "hardware.gpus.0.bus_id", "0000:01:00.0", 2);
	pasted_expect(&f, "hardware.gpus.0.vendor", "NVIDIA", 2);
	pasted_expect(&f, "hardware.gpus.0.driver", "vfio-pci", 2);
	assert_int_equal(f.n, 3);
	/* two GPUs; one rebound later (the later driver is the fact); "another driver" names
	 * none; a bus id not in nv-pci.c's form is not read */
	pasted_run_text(pasted_read_kernel_log,
			"[    4.1] NVRM: GPU 0000:41:00.0 is already bound to nouveau.\n"
			"[    4.2] NVRM: GPU 0000:c1:00.0 is already bound to pci-stub.\n"
			"[  900.0] NVRM: GPU 0000:41:00.0 is already bound to vfio-pci.\n"
			"[  901.0] NVRM: GPU 0000:42:00.0 is already bound to another driver.\n"
			"[  902.0] NVRM: GPU 41:00.0 is already bound to nouveau.\n"
			"[  903.0] NVRM: GPU 0000:43:00.0 is already bound to .\n",
			&f);
	pasted_expect(&f, "hardware.gpus.0.bus_id", "0000:41:00.0", 0);
	pasted_expect(&f, "hardware.gpus.1.bus_id", "0000:c1:00.0", 2);
	pasted_expect(&f, "hardware.gpus.1.driver", "pci-stub", 2);
	pasted_expect(&f, "hardware.gpus.0.driver", "vfio-pci", 3);
	pasted_expect_none(&f, "hardware.gpus.2.bus_id");
	assert_int_equal(f.n, 6);
}

/* A WSL2 setup note (`ldconfig -p | grep cuda`, a public GitHub README in the search index)
 * and https://github.com/NVIDIA/nvidia-docker/issues/876 (no GPU library: nothing) */
static void test_ldconfig(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_ldconfig, "pasted-ldconfig", "wsl2-grep-cuda.txt", &f);
	pasted_expect(&f, "driver.userspace.libcuda.path", "/usr/lib/wsl/lib/libcuda.so.1", 4);
	pasted_expect(&f, "driver.userspace.libcuda.found_via", "ld.so.cache", 4);
	pasted_run_sample(pasted_read_ldconfig, "pasted-ldconfig", "wsl2-toolkit-11.txt", &f);
	pasted_expect(&f, "runtime.libraries.libcudart.0.soname", "libcudart.so.11.0", 1);
	pasted_expect(&f, "runtime.libraries.libcublasLt.0.path",
		      "/usr/local/cuda/targets/x86_64-linux/lib/libcublasLt.so.11", 5);
	pasted_expect_none(&f, "runtime.libraries.libcublas.0.soname");
	assert_int_equal(pasted_run_sample(pasted_read_ldconfig, "pasted-ldconfig",
					   "centos-lib64-partial.txt", &f),
			 0);
	/* the count line; an i386 entry; the stub; a second entry of a soname (ld.so takes the
	 * first) */
	pasted_run_text(
		pasted_read_ldconfig,
		"1234 libs found in cache `/etc/ld.so.cache'\n"
		"\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1\n"
		"\tlibcuda.so (libc6,x86-64) => /usr/local/cuda/lib64/stubs/libcuda.so\n"
		"\tlibcudnn.so.9 (libc6,x86-64,hwcap: x86-64-v3) => /opt/a/libcudnn.so.9\n"
		"\tlibcudnn.so.9 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudnn.so.9\n",
		&f);
	pasted_expect(&f, "runtime.loader.ld_so_cache.entries", "1234", 1);
	pasted_expect_none(&f, "driver.userspace.libcuda.path");
	pasted_expect(&f, "driver.userspace.libcuda_so.is_stub", "true", 3);
	pasted_expect(&f, "runtime.libraries.libcudnn.0.path", "/opt/a/libcudnn.so.9", 4);
	pasted_expect_none(&f, "runtime.libraries.libcudnn.1.path");
}

/* https://github.com/NVIDIA/nvidia-docker/issues/789 (`env` in nvidia/cuda:9.1-devel-centos7),
 * /1226 (a variable as set), https://github.com/pytorch/examples/issues/115 and
 * https://github.com/rapidsai/dask-cuda/pull/171 (a command line setting it, with and without a
 * prompt), and
 * https://github.com/AliyunContainerService/gpushare-device-plugin/issues/55 (an OCI spec's
 * JSON strings: not env output) */
static void test_env(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_env, "pasted-env", "cuda-centos-image-env.txt", &f);
	pasted_expect(&f, "environment.LD_LIBRARY_PATH",
		      "/usr/local/nvidia/lib:/usr/local/nvidia/lib64", 4);
	pasted_run_sample(pasted_read_env, "pasted-env", "driver-capabilities.txt", &f);
	pasted_expect(&f, "environment.NVIDIA_DRIVER_CAPABILITIES", "compute,utility", 2);
	/* the runtime's request variables are the container's request too (probe-container.c) */
	pasted_expect(&f, "container.requested.NVIDIA_DRIVER_CAPABILITIES", "compute,utility", 2);
	assert_int_equal(pasted_run_sample(pasted_read_env, "pasted-env", "oci-spec-json.txt", &f),
			 0);
	pasted_run_text(pasted_read_env,
			"NVIDIA_VISIBLE_DEVICES=\nTF_FORCE_GPU_ALLOW_GROWTH=true\nHOME=/root\n"
			"export CUDA_HOME=/usr/local/cuda\n  CUDA_VISIBLE_DEVICES=0\n"
			"CUDA_VISIBLE_DEVICES=GPU-1,GPU-2\n",
			&f);
	pasted_expect(&f, "environment.NVIDIA_VISIBLE_DEVICES", "", 1);
	pasted_expect(&f, "environment.TF_FORCE_GPU_ALLOW_GROWTH", "true", 2);
	pasted_expect(&f, "container.requested.NVIDIA_VISIBLE_DEVICES", "", 1);
	pasted_expect(&f, "environment.CUDA_VISIBLE_DEVICES", "GPU-1,GPU-2", 6);
	assert_int_equal(f.n, 4);
	/* https://github.com/pytorch/pytorch/pull/92315: set for one command on a shell line;
	 * a path list keeps its blanks (WSL's "/mnt/c/Program Files/…") */
	pasted_run_text(
		pasted_read_env,
		"CUDA_VISIBLE_DEVICES=MIG-89c850dc-38e3-57df-85c7-690c186b68e9 python -c "
		"\"import torch\"\nLD_LIBRARY_PATH=/mnt/c/Program Files/x:/usr/lib/wsl/lib\n",
		&f);
	pasted_expect(&f, "environment.CUDA_VISIBLE_DEVICES",
		      "MIG-89c850dc-38e3-57df-85c7-690c186b68e9", 1);
	pasted_expect(&f, "environment.LD_LIBRARY_PATH", "/mnt/c/Program Files/x:/usr/lib/wsl/lib",
		      2);
	/* a command line the user ran, after its prompt (pytorch/examples#115), or pasted alone
	 * with shell quotes (rapidsai/dask-cuda#171): every literal assignment before the
	 * command is in its environment */
	pasted_run_text(pasted_read_env,
			"(py35) ~/pytorch/examples/mnist$ CUDA_VISIBLE_DEVICES=2 python main.py\n"
			"CUDA_VISIBLE_DEVICES=\"2,3,7,8\" python tt.py\n"
			"user@host:~$ ROCR_VISIBLE_DEVICES='1' HIP_VISIBLE_DEVICES= python x.py\n"
			"  root@3f2a:/# NVIDIA_VISIBLE_DEVICES=void nvidia-smi\n",
			&f);
	/* the later line of a variable is the one kept */
	pasted_expect(&f, "environment.CUDA_VISIBLE_DEVICES", "2,3,7,8", 2);
	pasted_expect(&f, "environment.ROCR_VISIBLE_DEVICES", "1", 3);
	pasted_expect(&f, "environment.HIP_VISIBLE_DEVICES", "", 3);
	pasted_expect(&f, "environment.NVIDIA_VISIBLE_DEVICES", "void", 4);
	/* set for one command, not the container's request */
	pasted_expect_none(&f, "container.requested.NVIDIA_VISIBLE_DEVICES");
	assert_int_equal(f.n, 4);
	pasted_run_sample(pasted_read_env, "pasted-env", "prompt-command-line.txt", &f);
	pasted_expect(&f, "environment.CUDA_VISIBLE_DEVICES", "2", 1);
	assert_int_equal(f.n, 1);
	pasted_run_sample(pasted_read_env, "pasted-env", "quoted-command-line.txt", &f);
	pasted_expect(&f, "environment.CUDA_VISIBLE_DEVICES", "2,3,7,8", 1);
	assert_int_equal(f.n, 1);
	/* not the environment of a program the text shows: a shell variable with no command, a
	 * comment, export, a value the shell expands (its text is not the value), prose, Python's
	 * os.environ, an open quote */
	assert_int_equal(pasted_run_text(pasted_read_env,
					 "$ CUDA_VISIBLE_DEVICES=1\n"
					 "# CUDA_VISIBLE_DEVICES=1 python x.py\n"
					 "$ export CUDA_VISIBLE_DEVICES=1\n"
					 "$ CUDA_VISIBLE_DEVICES=$GPU python x.py\n"
					 "CUDA_VISIBLE_DEVICES=${GPU_ID} ./tools/demo.py\n"
					 "host:~$ CUDA_VISIBLE_DEVICES=\"$(pick)\" python x.py\n"
					 "it costs $ CUDA_VISIBLE_DEVICES=1 python x.py\n"
					 ">>> os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"-1\"\n"
					 "$ CUDA_VISIBLE_DEVICES=0 # the first GPU\n"
					 "$ CUDA_VISIBLE_DEVICES='0 python x.py\n",
					 &f),
			 0);
}

/* https://github.com/pytorch/pytorch/pull/137846 (collect_env on Windows 11: a traceback's
 * path first) and https://github.com/AlexeyAB/darknet/issues/86 (cmd prompts) */
static void test_windows(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_windows, "pasted-windows",
			  "collect-env-win11-pytorch-137846.txt", &f);
	pasted_expect(&f, "messages.platform.windows", "C:\\", 1);
	assert_int_equal(f.n, 1);
	pasted_run_sample(pasted_read_windows, "pasted-windows", "cmd-darknet-86.txt", &f);
	pasted_expect(&f, "messages.platform.windows", "D:\\", 1);
	/* a Windows TensorFlow's dso_loader line names the DLL it could not load
	 * (https://github.com/google/lightweight_mmm/issues/23), and its get_build_info() a
	 * "C:/…" compiler path (the tf-gpu 2.9.1 wheel's build_info.py, test-pasted-stack.c) */
	pasted_run_sample(pasted_read_windows, "pasted-windows",
			  "tf-dso-loader-lightweight-mmm-23.txt", &f);
	pasted_expect(&f, "messages.platform.windows", "cudart64_110.dll", 1);
	pasted_run_sample(pasted_read_windows, "pasted-tf-build-info",
			  "windows-tf-gpu-2.9.1-wheel.txt", &f);
	pasted_expect(&f, "messages.platform.windows", "C:/", 1);
	/* a URL's "https://", a Linux library and a word ending in "dll" are none */
	pasted_run_text(pasted_read_windows,
			"see https://x.org/a and http://h:/p\n"
			"Could not load dynamic library 'libcudart.so.11.0'\n"
			"tf.dllx lib.dll_x mydll\n",
			&f);
	assert_int_equal(f.n, 0);
	pasted_run_text(pasted_read_windows, "loading nvcuda.dll failed\n", &f);
	pasted_expect(&f, "messages.platform.windows", "nvcuda.dll", 1);
	/* nvidia-smi's driver model in the table (the columns as driver 546 prints them); the
	 * same row under a WSL2 header (nvidia-smi 570.133.07 over Windows driver 572.83) is
	 * Linux's; a URL's "://" and a word holding TCC are no marks */
	pasted_run_text(
		pasted_read_windows,
		"| NVIDIA-SMI 570.133.07   Driver Version: 572.83   CUDA Version: 12.8 |\n"
		"|   0  NVIDIA GeForce RTX 3060 Ti   WDDM  | 00000000:01:00.0  On |  N/A |\n"
		"see https://x.org/a:\\b and TCCX\n"
		"| NVIDIA-SMI 546.29   Driver Version: 546.29   CUDA Version: 12.3 |\n"
		"|   0  NVIDIA GeForce RTX 4060 ...  WDDM  | 00000000:01:00.0  On |  N/A |\n",
		&f);
	pasted_expect(&f, "messages.platform.windows", "WDDM", 5);
	assert_int_equal(f.n, 1);
	pasted_run_text(
		pasted_read_windows,
		"OS: Microsoft Windows 10 Pro\n    Current                           : TCC\n", &f);
	pasted_expect(&f, "messages.platform.windows", "Microsoft Windows", 1);
	pasted_run_text(pasted_read_windows, "Linux h 5.15.0 #1 SMP x86_64 GNU/Linux\n", &f);
	assert_int_equal(f.n, 0);
}

/* WSL1's kernel release wherever a line prints it: DKMS's message in microsoft/WSL#5554 (after
 * nvidia-smi's failure, line 3), diffusers-cli env's platform string in
 * ShivamShrirao/diffusers#18; uname -a and /proc/version as WSL1 prints them; WSL2's
 * "microsoft-standard-WSL2" and a word that merely ends in "-Microsoft" are not WSL1. */
static void test_wsl1(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_windows, "pasted-windows", "wsl1-dkms-headers-wsl-5554.txt",
			  &f);
	pasted_expect(&f, "messages.platform.wsl1", "4.4.0-19041-Microsoft", 3);
	assert_int_equal(f.n, 1);
	pasted_run_sample(pasted_read_windows, "pasted-windows", "wsl1-diffusers-cli-env-18.txt",
			  &f);
	pasted_expect(&f, "messages.platform.wsl1", "4.4.0-19041-Microsoft", 2);
	pasted_run_text(pasted_read_windows,
			"Linux DESKTOP-1 4.4.0-22621-Microsoft #2506-Microsoft Fri Jan 01 08:00:00 "
			"PST 2016 x86_64 x86_64 x86_64 GNU/Linux\n",
			&f);
	pasted_expect(&f, "messages.platform.wsl1", "4.4.0-22621-Microsoft", 1);
	assert_int_equal(f.n, 1);
	/* the Windows mark and WSL1's release, each its own fact (the first of each) */
	pasted_run_text(
		pasted_read_windows,
		"PS C:\\Users\\me> wsl uname -r\n"
		"4.4.0-19041-Microsoft\n"
		"Linux version 4.4.0-19045-Microsoft (Microsoft@Microsoft.com) (gcc version "
		"5.4.0 (GCC) ) #3636-Microsoft\n",
		&f);
	pasted_expect(&f, "messages.platform.windows", "C:\\", 1);
	pasted_expect(&f, "messages.platform.wsl1", "4.4.0-19041-Microsoft", 2);
	assert_int_equal(f.n, 2);
	pasted_run_text(pasted_read_windows,
			"Linux h 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n"
			"see build-Microsoft and v-19041-Microsoft and 19041-Microsoft\n"
			"4.4.0-19041-MicrosoftX\n",
			&f);
	assert_int_equal(f.n, 0);
}

/* NVIDIA's Windows driver in the WDDM form Windows prints, read only where NVIDIA is named:
 * the NVIDIA System Information report of blackoffee/Shizuku#8 ("Driver version: 388.13",
 * its components "8.17.13.8813": 13 and 8813, the last five digits, 388.13); wmic's table of
 * an Intel and an NVIDIA GPU (the Intel one's "31.0.101.4575" is not NVIDIA's numbering);
 * dxdiag's "Driver Version:" under "Card name: NVIDIA …", and not under an Intel card whose
 * older driver "20.19.15.4835" has the same shape; no part of a longer token (a VBIOS version,
 * "90.02.17.00.DB"). */
static void test_wddm(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_windows, "pasted-windows", "nvidia-system-info-shizuku-8.txt",
			  &f);
	pasted_expect(&f, "driver.windows.wddm_version", "8.17.13.8813", 29);
	pasted_expect(&f, "driver.windows.driver_version", "388.13", 29);
	pasted_run_text(pasted_read_windows,
			"DriverVersion  Name\n"
			"31.0.101.4575  Intel(R) UHD Graphics 770\n"
			"31.0.15.5161   NVIDIA GeForce RTX 3060\n",
			&f);
	pasted_expect(&f, "driver.windows.wddm_version", "31.0.15.5161", 3);
	pasted_expect(&f, "driver.windows.driver_version", "551.61", 3);
	pasted_expect(&f, "messages.platform.windows", "31.0.15.5161", 3);
	assert_int_equal(f.n, 3);
	pasted_run_text(pasted_read_windows,
			"Card name: NVIDIA GeForce GTX 1080 Ti\n"
			"Manufacturer: NVIDIA\n"
			"Driver Version: 27.21.14.5671\n",
			&f);
	pasted_expect(&f, "driver.windows.driver_version", "456.71", 3);
	pasted_run_text(pasted_read_windows,
			"Card name: NVIDIA GeForce GTX 1080 Ti\n"
			"Card name: Intel(R) HD Graphics 530\n"
			"Driver Version: 20.19.15.4835\n"
			"NVIDIA 31.0.15.5161.1, v31.0.15.5161, 31.0.15.51612, 31.0.10.5161\n"
			"NVIDIA VBIOS Version : 90.02.17.00.DB\n",
			&f);
	assert_int_equal(f.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_uname, teardown),
		cmocka_unit_test_teardown(test_os_release, teardown),
		cmocka_unit_test_teardown(test_hostnamectl, teardown),
		cmocka_unit_test_teardown(test_lsmod, teardown),
		cmocka_unit_test_teardown(test_secure_boot, teardown),
		cmocka_unit_test_teardown(test_module_signature, teardown),
		cmocka_unit_test_teardown(test_kernel_log, teardown),
		cmocka_unit_test_teardown(test_ldconfig, teardown),
		cmocka_unit_test_teardown(test_env, teardown),
		cmocka_unit_test_teardown(test_windows, teardown),
		cmocka_unit_test_teardown(test_wddm, teardown),
		cmocka_unit_test_teardown(test_wsl1, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
