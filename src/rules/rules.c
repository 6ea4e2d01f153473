// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * THE rule table (docs/design.md §5): every rule gpuenv knows, one row each,
 * in output order, bottom layer first. A row says what the user sees (the exact error texts,
 * quoted from NVIDIA's driver messages, the CUDA runtime/driver API error strings in cuda.h /
 * cuda_runtime_api.h, nvidia-smi, modprobe, PyTorch and the NVIDIA Container Toolkit), why,
 * which snapshot keys it needs (docs/snapshot-schema.md), and the commands that fix and verify
 * it. The check functions live in rules-<layer>.c; docs/rules.md is generated from this table
 * (`gpuenv doctor --list-rules --markdown`). Thresholds are facts (src/facts/data), not here.
 */
#include "rules/rules-internal.h"

#define STRV(...) ((const char *const[]){ __VA_ARGS__, NULL })

const struct rule rule_table[] = {
	/* ---- hardware ------------------------------------------------------------------ */
	{
		.id = "hardware.no-gpu",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "No GPU on the PCI bus",
		.symptom = "RuntimeError: No CUDA GPUs are available · "
			   "cudaErrorNoDevice (100): no CUDA-capable device is detected · "
			   "nvidia-smi: No devices were found",
		.cause = "No display, 3D or processing-accelerator device is on the PCI bus: a VM "
			 "or cloud instance without a GPU attached, a GPU not passed through to "
			 "this VM, or a card the firmware did not enumerate (power, seating).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV(
			"lspci -nn | grep -Ei 'vga|3d|display|accelerator'   # what the bus holds",
			"# cloud: pick a GPU instance type; VM: pass the GPU through (vfio-pci); "
			"bare metal: reseat the card and its power cables"),
		.verify = STRV("lspci -nn -d 10de:", "nvidia-smi -L"),
		.check = check_no_gpu,
	},
	{
		.id = "hardware.pcie-link-down",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "GPU PCIe link not trained",
		/* open-gpu-kernel-modules: osHandleGpuLost() prints it through NV_DEV_PRINTF,
		 * whose prefix is "NVRM: GPU %04x:%02x:%02x.%x: "; then nvidia-smi, Xid */
		.symptom = "NVRM: GPU <domain:bus:device.function>: GPU has fallen off the bus. · "
			   "Unable to determine the device handle for GPU <bus>: Unknown Error · "
			   "Xid 79",
		.cause = "The GPU's PCIe link reports width 0 or speed \"Unknown\": the device no "
			 "longer answers on its link (fell off the bus after a power, thermal or "
			 "hardware fault, or a failed reset), or it is powered down by runtime "
			 "power management.",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV(
			"sudo lspci -vv -s <bus> | grep -E 'LnkCap|LnkSta'",
			"# power-cycle the machine (a warm reboot is often not enough); reseat the "
			"card and its power cables; if it recurs, check the PSU and RMA the GPU"),
		.verify = STRV(
			"cat /sys/bus/pci/devices/<bus>/current_link_width",
			"nvidia-smi --query-gpu=pci.bus_id,pcie.link.width.current --format=csv"),
		.check = check_pcie_link_down,
	},
	{
		.id = "hardware.pcie-link-degraded",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "GPU PCIe link narrower or slower than it can run",
		.symptom =
			"No error: host-device copies are slower. lspci -vv: \"LnkSta: Speed 8GT/s "
			"(downgraded), Width x8 (downgraded)\"",
		.cause = "The link trained at fewer lanes (warning) or a lower speed (info: GPUs "
			 "drop to 2.5 GT/s when idle to save power) than both ends support: a slot "
			 "wired narrower than the card, a riser or cable fault, a bifurcation "
			 "setting, or retraining after link errors.",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("sudo lspci -vv -s <bus> | grep -E 'LnkCap|LnkSta'",
			    "# move the card to a full x16 slot, check risers/cables and the "
			    "firmware's PCIe lane/bifurcation settings; re-check under load"),
		.verify = STRV("nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.gen.max,"
			       "pcie.link.width.current,pcie.link.width.max --format=csv"),
		.check = check_pcie_link_degraded,
	},
	{
		.id = "hardware.bar1-small",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "GPU BAR1 unassigned or at the legacy 256 MiB",
		.symptom = "NVRM: This PCI I/O region assigned to your NVIDIA device is invalid: "
			   "NVRM: BAR1 is 0M @ 0x0 · NVRM: The NVIDIA probe routine failed for 1 "
			   "device(s). · nvidia-smi: No devices were found",
		.cause = "BAR1 is the CPU's window into GPU memory. Unassigned (error): the "
			 "firmware could not place the GPU's 64-bit BAR, usually because Above 4G "
			 "Decoding is off, so the driver refuses the GPU. At or below the legacy "
			 "aperture (info): Resizable BAR is off; CUDA works, GPUDirect RDMA and "
			 "peer mappings are limited.",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("# firmware setup: enable \"Above 4G Decoding\" and \"Resizable BAR\" "
			    "(needs UEFI boot, CSM off)",
			    "# if the firmware cannot fit the BAR: boot with pci=realloc (or "
			    "pci=realloc=off where the firmware's layout was right)"),
		.verify = STRV("sudo lspci -vv -s <bus> | grep -A2 'Region 1'",
			       "nvidia-smi -q -d MEMORY | grep -A3 BAR1"),
		.check = check_bar1_small,
	},
	{
		.id = "hardware.gpu-without-driver",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "GPU with no kernel driver bound",
		.symptom = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
			   "driver. · lspci -k shows no \"Kernel driver in use\" · "
			   "torch.cuda.is_available() is False",
		.cause = "No kernel driver owns the device: the driver is not installed or not "
			 "loaded, its probe failed (see dmesg), or the device is held by "
			 "vfio-pci/pci-stub for passthrough (warning).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("sudo modprobe nvidia   # amdgpu for AMD",
			    "sudo dmesg | grep -iE 'nvrm|nvidia|amdgpu' | tail -20"),
		.verify = STRV("lspci -k -s <bus>", "nvidia-smi -L"),
		.check = check_gpu_without_driver,
	},
	{
		.id = "hardware.gpu-unknown",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "GPU not in gpuenv's GPU table",
		.symptom =
			"No error by itself; gpuenv cannot tell the GPU's compute capability, so "
			"checks such as \"no kernel image is available for execution on the "
			"device\" or a driver branch dropping the GPU cannot be made for it",
		.cause =
			"The built-in GPU table (facts/gpu_compute_capability.tsv, NVIDIA GPUs by "
			"PCI id) has no row for this device: a GPU newer than the knowledge base, "
			"a rare board variant, or an AMD GPU (AMD GPUs are judged by their KFD gfx "
			"target instead). Where NVML reports the compute capability, the checks "
			"use that (info); otherwise they skip the GPU (warning).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("# update gpuenv (its knowledge base), or report the device id and "
			    "nvidia-smi's compute_cap so it can be added"),
		.verify =
			STRV("gpuenv facts gpu <vendor:device>",
			     "nvidia-smi --query-gpu=pci.device_id,name,compute_cap --format=csv"),
		.check = check_gpu_unknown,
	},
	/* ---- driver -------------------------------------------------------------------- */
	{
		.id = "driver.module-not-loaded",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "NVIDIA GPU present, nvidia kernel module not loaded",
		.symptom =
			"nvidia-smi: command not found · NVIDIA-SMI has failed because it "
			"couldn't communicate with the NVIDIA driver. Make sure that the latest "
			"NVIDIA driver is installed and running. · Found no NVIDIA driver on your "
			"system (PyTorch)",
		.cause = "The nvidia kernel module is not loaded: the driver is not installed, was "
			 "not built for the running kernel, was refused by Secure Boot, is "
			 "blacklisted, or the kernel cannot load modules at all.",
		.needs = STRV("hardware.pci_devices", "driver.kernel_modules.modules_supported?",
			      "driver.nvidia.module_version?"),
		.fix = STRV("sudo modprobe nvidia && sudo dmesg | grep -iE 'nvrm|nvidia' | tail",
			    "# not installed: Debian: sudo apt install nvidia-driver · Ubuntu: "
			    "sudo ubuntu-drivers install · Fedora: sudo dnf install akmod-nvidia "
			    "(RPM Fusion) · RHEL: sudo dnf module install nvidia-driver · Arch: "
			    "sudo pacman -S nvidia (a finding names its distribution's, from "
			    "/etc/os-release)"),
		.verify = STRV("lsmod | grep nvidia && dmesg | grep -i nvidia", "nvidia-smi"),
		.check = check_module_not_loaded,
	},
	{
		.id = "driver.secure-boot-unsigned-module",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "Secure Boot is on and nvidia.ko is not signed",
		.symptom =
			"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
		.cause = "With UEFI Secure Boot on, the kernel loads only modules signed by a "
			 "trusted key. The nvidia.ko built for this kernel carries no signature "
			 "(DKMS built it without a Machine Owner Key, or the key was never "
			 "enrolled).",
		.needs = STRV("driver.secure_boot.enabled?", "driver.nvidia.module_file.path?",
			      "driver.nvidia.module_version?"),
		.fix = STRV(
			"sudo mokutil --import /var/lib/dkms/mok.pub   # then reboot and enroll "
			"the key in the MOK manager",
			"sudo dkms autoinstall   # rebuilds and signs with the enrolled key",
			"# or turn Secure Boot off in the firmware"),
		.verify = STRV("mokutil --sb-state", "modinfo -F signer nvidia",
			       "lsmod | grep nvidia"),
		.check = check_secure_boot_unsigned,
	},
	{
		.id = "driver.secure-boot-key-not-enrolled",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "Secure Boot is on and nvidia.ko is signed by a key that is not enrolled",
		.symptom =
			"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service "
			"· NVIDIA-SMI has failed because it couldn't communicate with the "
			"NVIDIA driver",
		.cause = "DKMS or akmods signed the module with a Machine Owner Key made on this "
			 "machine, but the key never reached the firmware's MokList (mokutil "
			 "--import was not run, or the MokManager screen after the reboot was "
			 "skipped), so the kernel, which trusts only its own keys, db and the "
			 "enrolled MOKs, refuses the module.",
		.needs = STRV("driver.secure_boot.enabled?", "driver.nvidia.module_file.path?"),
		.fix = STRV("sudo mokutil --import /var/lib/dkms/mok.pub   # akmods: "
			    "/etc/pki/akmods/certs/public_key.der",
			    "# reboot and choose \"Enroll MOK\" in the MokManager screen"),
		.verify = STRV("mokutil --list-enrolled", "modinfo -F signer nvidia",
			       "sudo modprobe nvidia && cat /sys/module/nvidia/version"),
		.check = check_secure_boot_key_not_enrolled,
	},
	{
		.id = "driver.wsl-linux-driver-installed",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "WSL2 with a Linux NVIDIA driver installed in the distribution",
		.symptom =
			"Failed to initialize NVML: GPU access blocked by the operating system · "
			"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
			"driver · CUDA driver initialization failed",
		.cause =
			"Under WSL2 the GPU driver is the Windows one: WSL mounts its libcuda and "
			"libnvidia-ml at /usr/lib/wsl/lib and the GPU is /dev/dxg. A Linux "
			"driver's user-space libraries installed in the distribution (cuda-drivers, "
			"nvidia-driver-*, libnvidia-compute-*, the .run installer) talk to a "
			"/dev/nvidia* that does not exist; where ld.so finds them first, CUDA fails.",
		.needs = STRV("host.kernel_release?"),
		.fix = STRV("sudo apt-get remove --purge 'nvidia-*' 'libnvidia-*' cuda-drivers   "
			    "# keep the toolkit: cuda-toolkit-12-x from the wsl-ubuntu repository",
			    "sudo ldconfig"),
		.verify = STRV("ldconfig -p | grep -E 'libcuda.so.1|libnvidia-ml.so.1'",
			       "nvidia-smi   # /usr/lib/wsl/lib/nvidia-smi"),
		.check = check_wsl_linux_driver_installed,
	},
	{
		.id = "driver.module-missing-for-kernel",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "No nvidia.ko for the running kernel",
		.symptom = "modprobe: FATAL: Module nvidia not found in directory "
			   "/lib/modules/<release>",
		.cause = "There is no nvidia module under /lib/modules/<running kernel>: the "
			 "kernel was updated and DKMS did not build the driver for it (missing "
			 "kernel headers, a compiler error, or a driver too old for the new "
			 "kernel).",
		.needs = STRV("hardware.pci_devices", "host.kernel_release",
			      "driver.nvidia.module_file.path?", "driver.nvidia.module_version?"),
		.fix = STRV("# the module for $(uname -r), the way this machine gets it (a finding "
			    "names it from /etc/os-release and the module on disk): DKMS: sudo "
			    "dkms autoinstall -k $(uname -r) (kernel headers first) · akmods "
			    "(Fedora): sudo akmods --force · Ubuntu: sudo apt install "
			    "linux-modules-nvidia-<branch>-$(uname -r) · RHEL: kmod-nvidia · "
			    "Arch: sudo pacman -Syu nvidia",
			    "dkms status; less /var/lib/dkms/nvidia/*/build/make.log"),
		.verify = STRV("modinfo -k $(uname -r) nvidia | head -3", "dkms status nvidia"),
		.check = check_module_missing_for_kernel,
	},
	{
		.id = "driver.nouveau-bound",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "nouveau owns the NVIDIA GPU",
		.symptom =
			"NVRM: The NVIDIA probe routine was not called for 1 device(s). NVRM: This "
			"can occur when a driver such as: nouveau, rivafb, nvidiafb or rivatv was "
			"loaded and obtained ownership of the NVIDIA device(s).",
		.cause = "The open-source nouveau driver bound the GPU first, so the NVIDIA driver "
			 "cannot. nouveau must be blacklisted, and the initramfs rebuilt so the "
			 "blacklist also applies at early boot.",
		.needs = STRV("hardware.pci_devices", "driver.kernel_modules.nouveau?"),
		.fix = STRV("printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
			    "/etc/modprobe.d/blacklist-nouveau.conf",
			    "sudo update-initramfs -u   # dracut --force on Fedora/RHEL",
			    "sudo reboot"),
		.verify = STRV("lsmod | grep nouveau   # prints nothing",
			       "lspci -k -d 10de: | grep 'Kernel driver in use'"),
		.check = check_nouveau_bound,
	},
	{
		.id = "driver.device-nodes-missing",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "nvidia driver loaded, /dev/nvidia* nodes missing",
		.symptom =
			"CUDA unknown error - this may be due to an incorrectly set up environment "
			"(PyTorch) · cudaErrorUnknown (999) · Failed to initialize NVML: Unknown "
			"Error",
		.cause = "CUDA opens /dev/nvidiactl, /dev/nvidiaN and /dev/nvidia-uvm. They are "
			 "created by nvidia-modprobe or udev when the driver loads; without "
			 "nvidia-uvm loaded, udev rules, or a root process that ran first, they "
			 "are missing.",
		.needs = STRV("driver.device_nodes.nvidiactl?", "driver.device_nodes.nvidia_uvm?"),
		.fix = STRV("sudo modprobe nvidia-uvm", "sudo nvidia-modprobe -u -c=0",
			    "sudo nvidia-smi   # creates /dev/nvidia0… as root"),
		.verify = STRV("ls -l /dev/nvidia*"),
		.check = check_device_nodes_missing,
	},
	{
		.id = "driver.branch-drops-gpu",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The loaded driver branch no longer supports this GPU",
		.symptom =
			"NVRM: The NVIDIA <GPU> GPU installed in this system is supported through "
			"the NVIDIA <branch>.xx Legacy drivers. … The <version> NVIDIA driver will "
			"ignore this GPU. · NVRM: … is not supported by open nvidia.ko because it "
			"does not include the required GPU System Processor (GSP).",
		.cause = "Each driver branch supports GPUs from an oldest architecture on (Kepler "
			 "ended with R470; Maxwell, Pascal and Volta with R580), and the open "
			 "kernel modules need a GSP (Turing and later). The driver loads but "
			 "ignores the GPU. Every NVIDIA GPU whose pci.ids name carries a chip "
			 "codename is judged by its chip's compute capability, and the fix names "
			 "the legacy branch NVIDIA's supported-gpus.json gives the device (470.xx "
			 "for a Tesla K80).",
		.needs = STRV("hardware.pci_devices", "driver.nvidia.module_version?"),
		.fix = STRV(
			"# install the last branch for this GPU's architecture (gpuenv facts gpu "
			"<name>; gpuenv facts driver <branch>), or for the open-module case the "
			"proprietary flavour of the same branch"),
		.verify =
			STRV("nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv"),
		.check = check_branch_drops_gpu,
	},
	{
		.id = "driver.branch-eol",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "The loaded driver branch is past its end of life",
		.symptom = "No error today; no more security or bug fixes, and newer CUDA toolkits "
			   "and framework wheels need a newer branch.",
		.cause = "NVIDIA supports each data-center driver branch until a published end of "
			 "life (production branches about a year, long-term branches three years); "
			 "the knowledge base's lifecycle table says this branch has reached it.",
		.needs = STRV("driver.nvidia.module_version?"),
		.fix = STRV("# move to a supported branch (gpuenv facts driver <version> shows the "
			    "lifecycle), e.g. the current long-term branch"),
		.verify = STRV("cat /sys/module/nvidia/version"),
		.check = check_branch_eol,
		.advisory = true,
	},
	{
		.id = "driver.nvml-version-mismatch",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "Kernel module and user-space driver libraries differ",
		.symptom = "Failed to initialize NVML: Driver/library version mismatch · "
			   "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18) · cuInit: "
			   "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803) · kernel log: \"NVRM: API "
			   "mismatch: the client has the version X, but this kernel module has the "
			   "version Y\"",
		.cause = "libnvidia-ml and libcuda must be the exact version of the loaded "
			 "nvidia.ko. Three versions are compared: the loaded module, the "
			 "nvidia.ko on disk for the running kernel and the user-space libraries. "
			 "After a driver upgrade the new libraries and module are installed at "
			 "once but the old module stays loaded until a reboot (or a module "
			 "reload): only then does a reboot help. When the module on disk is still "
			 "the old one, DKMS (or the distribution's kernel-module package) did not "
			 "build or install the new module for this kernel; when the libraries are "
			 "older than the module, an old copy is found first. In a container, "
			 "driver libraries baked into the image shadow the ones the NVIDIA runtime "
			 "injects from the host.",
		/* The module version is read by the check itself: NVML's and libcuda's own
		 * mismatch answers are judged even where it is unreadable. */
		.needs = NULL,
		.fix = STRV(
			"sudo reboot   # loads the upgraded kernel module",
			"# without a reboot, when no process uses the GPU: sudo systemctl stop "
			"nvidia-persistenced; sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset "
			"nvidia && sudo modprobe nvidia",
			"# only when the nvidia.ko on disk is the libraries' version (modinfo -F "
			"version nvidia); otherwise rebuild it (sudo dkms autoinstall -k $(uname "
			"-r)) or reinstall the driver packages"),
		.verify = STRV("cat /proc/driver/nvidia/version",
			       "ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.*", "nvidia-smi"),
		.check = check_nvml_version_mismatch,
	},
	{
		.id = "driver.no-permission",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The GPU device nodes are not accessible to this user",
		.symptom = "Failed to initialize NVML: Insufficient Permissions · "
			   "NVML_ERROR_NO_PERMISSION (4) · cudaErrorNoDevice (100) / "
			   "CUDA_ERROR_NO_DEVICE · ROCm: \"Unable to open /dev/kfd read-write: "
			   "Permission denied\", hipErrorNoDevice",
		.cause = "CUDA opens /dev/nvidiactl, /dev/nvidiaN and /dev/nvidia-uvm read-write, "
			 "ROCm /dev/kfd and /dev/dri/renderD*. Their mode and group come from udev "
			 "rules (ROCm: 0660 group render) or the NVIDIA module's "
			 "NVreg_DeviceFileMode/NVreg_DeviceFileGID; a user outside that group gets "
			 "no GPU.",
		.needs = STRV("driver.device_nodes"),
		.fix = STRV(
			"sudo usermod -aG render,video $USER   # then log out and in again",
			"# or change the mode by a udev rule, e.g. KERNEL==\"kfd\", "
			"GROUP=\"render\", MODE=\"0660\" in /etc/udev/rules.d/70-gpu.rules; sudo "
			"udevadm trigger"),
		.verify =
			STRV("id -nG", "ls -l /dev/nvidia* /dev/kfd /dev/dri/renderD* 2>/dev/null"),
		.check = check_no_permission,
	},
	{
		.id = "driver.xid-errors",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The kernel log has NVIDIA Xid errors",
		.symptom = "NVRM: Xid (PCI:0000:3b:00): 79, pid=…, GPU has fallen off the bus. · "
			   "CUDA error: an illegal memory access was encountered · CUDA error: "
			   "uncorrectable ECC error encountered · "
			   "Unable to determine the device handle for GPU: GPU is lost",
		.cause = "The NVIDIA driver logs an Xid for each GPU error it handles. Some are "
			 "caused by the application (13, 31, 43: info), some by the driver or GPU "
			 "and recoverable (warning), some mean the GPU needs a reset or is failing "
			 "(48 double-bit ECC, 79 fallen off the bus, 95 uncontained error: error). "
			 "The meaning and action per code come from NVIDIA's Xid catalogue.",
		.needs = STRV("driver.xid_events?"),
		.fix = STRV("sudo dmesg -T | grep -i xid   # every occurrence, with its time",
			    "sudo nvidia-bug-report.sh   # for NVIDIA support"),
		.verify = STRV("nvidia-smi -q | grep -iE 'retired|remapp|pending'",
			       "sudo dmesg -T | grep -i xid | tail -5   # nothing new"),
		.check = check_xid_errors,
	},
	{
		.id = "driver.persistence-off",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_INFO,
		.title = "Persistence mode is off on a data-center GPU",
		.symptom =
			"No error: every CUDA program (and nvidia-smi) waits seconds for the GPU "
			"to initialise when no other client holds it",
		.cause = "Without persistence mode (nvidia-smi -pm) or the nvidia-persistenced "
			 "daemon, the driver tears the GPU state down when its last client exits "
			 "and rebuilds it on the next start. NVIDIA recommends the daemon on "
			 "data-center GPUs.",
		.needs = STRV("driver.nvml"),
		.fix = STRV("sudo systemctl enable --now nvidia-persistenced",
			    "sudo nvidia-smi -pm 1   # until the next reboot"),
		.verify = STRV("nvidia-smi --query-gpu=pci.bus_id,persistence_mode --format=csv"),
		.check = check_persistence_off,
	},
	/* ---- runtime ------------------------------------------------------------------- */
	{
		.id = "runtime.no-driver-for-toolkit",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "CUDA toolkit installed, no NVIDIA driver to run what it builds",
		.symptom = "CUDA driver version is insufficient for CUDA runtime version "
			   "(cudaErrorInsufficientDriver, 35) · Found no NVIDIA driver on your "
			   "system (PyTorch) · nvidia-smi: command not found",
		.cause =
			"The toolkit brings the compiler and the runtime libraries; running a CUDA "
			"program needs the NVIDIA kernel driver and its libcuda.so.1, which are "
			"not loaded here. nvcc still compiles; nothing it builds can run.",
		.needs = STRV("driver.nvidia.module_version?", "driver.nvidia.proc_version?"),
		.fix = STRV(
			"# install an NVIDIA driver at or above the toolkit's minimum (gpuenv "
			"facts cuda <version>) on a machine with an NVIDIA GPU",
			"# on a build machine without a GPU this is expected: compile here, run "
			"elsewhere"),
		.verify = STRV("cat /sys/module/nvidia/version", "nvidia-smi"),
		.check = check_no_driver_for_toolkit,
	},
	{
		.id = "runtime.toolkit-needs-newer-driver",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "CUDA toolkit newer than the loaded driver supports",
		.symptom = "CUDA driver version is insufficient for CUDA runtime version "
			   "(cudaErrorInsufficientDriver, 35) · under minor-version compatibility: "
			   "the provided PTX was compiled with an unsupported toolchain "
			   "(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222)",
		.cause = "Each CUDA release needs a minimum driver (CUDA release notes, Table 3). "
			 "From CUDA 11 on, minor-version compatibility lets a toolkit run on an "
			 "older driver of the same major at or above the major's floor (11.x: "
			 "450.80.02, below R525; 12.x: 525.60.13, below R580; 13.x: R580) — with a "
			 "limited feature set and without JIT of PTX the newer toolkit emitted "
			 "(warning).",
		.needs = STRV("driver.nvidia.module_version?"),
		.fix = STRV(
			"# install a driver at or above the toolkit's minimum (gpuenv facts cuda "
			"<version>), or use a toolkit no newer than the driver's CUDA version"),
		.verify = STRV("nvidia-smi | head -4   # CUDA Version: the newest it runs",
			       "nvcc --version | tail -2"),
		.check = check_toolkit_needs_newer_driver,
	},
	{
		.id = "runtime.stub-libcuda",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The toolkit's stub libcuda is on the loader path",
		.symptom = "CUDA driver is a stub library (cudaErrorStubLibrary / "
			   "CUDA_ERROR_STUB_LIBRARY, 34)",
		.cause = "CUDA toolkits ship lib64/stubs/libcuda.so so that programs can be linked "
			 "on machines without a driver; it implements nothing. A directory holding "
			 "it on LD_LIBRARY_PATH (or LD_PRELOAD) makes programs that load "
			 "libcuda.so pick it instead of the driver's (error). Off the loader path "
			 "it is harmless (info).",
		.needs = STRV("environment.LD_LIBRARY_PATH?", "environment.LD_PRELOAD?"),
		.fix = STRV("# drop the stubs directory from LD_LIBRARY_PATH; pass it only to the "
			    "linker (-L<cuda>/lib64/stubs) at build time"),
		.verify = STRV(
			"echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | grep stubs   # prints nothing",
			"ldconfig -p | grep 'libcuda.so.1 '"),
		.check = check_stub_libcuda,
	},
	{
		.id = "runtime.library-shadowed",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "The loader picks a different copy of a GPU library than the one intended",
		/* torch/backends/cudnn/__init__.py, its two spaces before "against" kept */
		.symptom = "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  "
			   "against … but found runtime version … · undefined symbol errors from a "
			   "wheel's library",
		.cause =
			"ld.so takes the first copy on LD_LIBRARY_PATH, the ld.so cache or a "
			"library's RPATH/RUNPATH. A system copy on LD_LIBRARY_PATH can shadow the "
			"copy a framework's pip wheels brought; two cuDNN majors side by side make "
			"which one a program uses depend on how it was linked; two copies of one "
			"cuDNN major on a framework's search path, the older first (8.0.4 before "
			"8.1.0), give it the older one. (The toolkit's stub "
			"libcuda is runtime.stub-libcuda, a forward-compatibility libcuda "
			"runtime.cuda-compat-unsupported.)",
		.needs = STRV("driver.userspace"),
		.fix = STRV("# remove the directory of the unwanted copy from LD_LIBRARY_PATH or "
			    "/etc/ld.so.conf.d (then sudo ldconfig)"),
		.verify = STRV("ldconfig -p | grep -E 'libcuda.so.1|libcudnn'",
			       "LD_DEBUG=libs <program> 2>&1 | grep 'trying file'"),
		.check = check_library_shadowed,
	},
	{
		.id = "runtime.library-not-found",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "A GPU library the framework loads is found nowhere on its loader path",
		.symptom =
			"Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
			"libcudart.so.11.0: cannot open shared object file: No such file or "
			"directory · numba CudaSupportError: … libcuda.so: cannot open shared "
			"object file · Warp CUDA error: Could not open libcuda.so. · CuPy failed "
			"to load libnvrtc.so.12 · CUDA path could not be detected",
		.cause = "TensorFlow, numba, Warp and CuPy 13 open CUDA libraries by name (the "
			 "knowledge base's framework_dlopen.tsv), which ld.so searches for only on "
			 "LD_LIBRARY_PATH, the caller's RUNPATH, /etc/ld.so.cache and the system "
			 "directories: a copy on PATH, in an inactive conda env's lib/, in a "
			 "toolkit's lib64 no list names, or added to ld.so.conf.d without ldconfig "
			 "is not found, and the GPU goes unused or the import fails (error).",
		.needs = STRV("framework.python_envs", "environment.LD_LIBRARY_PATH?"),
		.fix = STRV("# put the copy's directory on the loader path (LD_LIBRARY_PATH, or "
			    "/etc/ld.so.conf.d + sudo ldconfig), or install the library there"),
		.verify = STRV("ldconfig -p | grep -E 'libcudart|libcudnn|libnvrtc|libcuda.so'"),
		.check = check_library_not_found,
	},
	{
		.id = "runtime.cudnn-older-than-framework",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The cuDNN the framework loads is older than the one it was built against",
		.symptom =
			"Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  "
			"CuDNN library needs to have matching major version and equal or higher "
			"minor version. (TensorFlow; before 2.4: \"CuDNN library major and minor "
			"version needs to match or have higher minor version in case of CuDNN 7.0 "
			"or later version.\") · RuntimeError: cuDNN version incompatibility: "
			"PyTorch was compiled  against (8, 3, 2) but found runtime version (8, 0, "
			"3) · Outdated cuDNN installation found. (JAX) · then \"Failed to get "
			"convolution algorithm. This is probably because cuDNN failed to "
			"initialize\"",
		.cause =
			"A framework checks the cuDNN it loads against the one it was compiled "
			"with: same major, and from cuDNN 7 on an equal or higher minor. The copy "
			"the loader gives it (a system or conda cuDNN on LD_LIBRARY_PATH or in the "
			"ld.so cache, ahead of the wheel's or bundled copy, or the only one "
			"installed) is an older minor: the first convolution fails. Built against: "
			"TensorFlow's build_info, else the cuDNN its release line was compiled with "
			"(knowledge base) or its tested configuration; torch's nvidia-cudnn pin, its "
			"bundled copy or its wheel's cuDNN; the JAX plugin's requirement.",
		.needs = STRV("framework.python_envs"),
		.fix = STRV("# give the framework its own cuDNN first (drop the older copy's "
			    "directory from LD_LIBRARY_PATH), or upgrade that cuDNN to the built "
			    "minor or newer"),
		.verify = STRV("python -c 'import torch; print(torch.backends.cudnn.version())'",
			       "grep -E 'define CUDNN_(MAJOR|MINOR|PATCHLEVEL)' "
			       "<prefix>/include/cudnn_version.h"),
		.check = check_cudnn_older_than_framework,
	},
	{
		.id = "runtime.cuda-compat-unsupported",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "A CUDA forward-compatibility libcuda is loaded where it cannot work",
		.symptom =
			"cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803) \"system has unsupported "
			"display driver / cuda driver combination\" · "
			"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804) \"forward compatibility "
			"was attempted on non supported HW\"",
		.cause = "The cuda-compat package's libcuda lets a newer CUDA run on an older "
			 "kernel driver, on data-center GPUs only. Loaded over a newer kernel "
			 "driver (an image built for an older host, after the host's upgrade), or "
			 "on a GeForce/RTX workstation GPU, cuInit fails.",
		.needs = STRV("driver.userspace"),
		.fix = STRV(
			"# containers: rebuild the image without cuda-compat (or without its "
			"directory in LD_LIBRARY_PATH); hosts: remove cuda-compat-<ver> when the "
			"driver is new enough"),
		.verify = STRV("ldconfig -p | grep 'libcuda.so.1 '",
			       "cat /proc/driver/nvidia/version"),
		.check = check_cuda_compat_unsupported,
	},
	{
		.id = "runtime.mig-device-selection",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "CUDA_VISIBLE_DEVICES asks a MIG GPU for what CUDA cannot give",
		.symptom = "RuntimeError: CUDA error: invalid device ordinal · "
			   "torch.cuda.device_count() returns 1 (or 0) · "
			   "RuntimeError: No CUDA GPUs are available",
		.cause =
			"A CUDA 11/12 process enumerates one MIG device, however many "
			"CUDA_VISIBLE_DEVICES names; an entry CUDA cannot match (a destroyed or "
			"mistyped MIG id, a bad MIG-GPU-<uuid>/<gi>/<ci>) hides itself and every "
			"entry after it; a GPU index or GPU- UUID of a GPU in MIG mode gives one of "
			"its MIG devices, or none; torch 1.13 counts 0 devices for MIG ids.",
		.needs = STRV("environment.CUDA_VISIBLE_DEVICES?"),
		.fix = STRV(
			"nvidia-smi -L   # the MIG devices and their MIG-<uuid>",
			"export CUDA_VISIBLE_DEVICES=MIG-<uuid>   # one MIG device per process: "
			"run one process (or rank) per MIG device"),
		.verify = STRV("python -c 'import torch; print(torch.cuda.device_count())'"),
		.check = check_mig_device_selection,
	},
	{
		.id = "runtime.toolkits-disagree",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "PATH, CUDA_HOME, LD_LIBRARY_PATH and /usr/local/cuda name different "
			 "toolkits",
		.symptom =
			"The detected CUDA version (11.8) mismatches the version that was used to "
			"compile PyTorch (12.4) · libcudart.so.<N>: cannot open shared object file",
		.cause =
			"The nvcc on PATH, CUDA_HOME, the toolkit lib directory on LD_LIBRARY_PATH "
			"and /usr/local/cuda point at different installations, so code is compiled "
			"with one release and linked or run against another.",
		.needs = STRV("environment.PATH?", "environment.LD_LIBRARY_PATH?"),
		.fix = STRV(
			"export CUDA_HOME=<toolkit> PATH=<toolkit>/bin:$PATH "
			"LD_LIBRARY_PATH=<toolkit>/lib64",
			"sudo update-alternatives --config cuda   # where /usr/local/cuda is an "
			"alternative"),
		.verify = STRV(
			"command -v nvcc && nvcc --version | tail -2",
			"readlink -f /usr/local/cuda; echo \"$CUDA_HOME\" \"$LD_LIBRARY_PATH\""),
		.check = check_toolkits_disagree,
	},
	{
		.id = "runtime.toolkit-cannot-target-gpu",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The CUDA toolkit cannot compile for this GPU",
		.symptom = "nvcc fatal   : Unsupported gpu architecture 'compute_XY' · no kernel "
			   "image is available for execution on the device "
			   "(cudaErrorNoKernelImageForDevice, 209)",
		.cause =
			"Each toolkit compiles for a range of compute capabilities: CUDA 13.0 "
			"removed Maxwell, Pascal and Volta (error), CUDA 11.7 and older know "
			"nothing newer than sm_87, so Hopper code is only PTX JIT-compiled at load "
			"(warning).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("# install a toolkit whose range includes the GPU (gpuenv facts cuda "
			    "<version>)"),
		.verify = STRV("nvidia-smi --query-gpu=name,compute_cap --format=csv",
			       "nvcc --list-gpu-arch"),
		.check = check_toolkit_cannot_target_gpu,
	},
	{
		.id = "runtime.cudnn-cuda-mismatch",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "cuDNN in the toolkit was built for another CUDA",
		.symptom =
			"Could not load library libcudnn_…so.N. Error: libcublas(Lt).so.<major>: "
			"cannot open shared object file: No such file or directory",
		.cause = "cuDNN is released per CUDA major (cuda11, cuda12, cuda13 packages) and "
			 "supports the CUDA versions of its support matrix; a build for another "
			 "major cannot find its CUDA libraries (error), a CUDA minor the matrix "
			 "does not list is untested (warning).",
		.needs = NULL,
		.fix = STRV("# install the cuDNN package for this toolkit's CUDA major "
			    "(gpuenv facts cudnn <version>)"),
		.verify = STRV("grep -E 'define CUDNN_(MAJOR|MINOR|PATCHLEVEL)' "
			       "<toolkit>/include/cudnn_version.h"),
		.check = check_cudnn_cuda_mismatch,
	},
	/* ---- framework ---------------------------------------------------------------- */
	{
		.id = "framework.cpu-only-build",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "A CPU-only framework build on a GPU machine",
		.symptom =
			"torch.cuda.is_available() is False · AssertionError: Torch not compiled "
			"with CUDA enabled · tf.config.list_physical_devices('GPU') == [] · An "
			"NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is "
			"not installed. Falling back to cpu.",
		.cause = "The installed torch (torch.version.cuda and .hip None, e.g. a +cpu wheel "
			 "or the distribution's package), TensorFlow (build_info without CUDA or "
			 "ROCm) or jax (no CUDA/ROCm plugin) was built without GPU support: it "
			 "never uses the GPU (error). Without a GPU this is expected (info).",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV("pip install --force-reinstall torch --index-url "
			    "https://download.pytorch.org/whl/cu<XY>",
			    "pip install 'tensorflow[and-cuda]'", "pip install -U 'jax[cuda12]'"),
		.verify = STRV("python -c 'import torch; print(torch.version.cuda, "
			       "torch.cuda.is_available())'"),
		.check = check_cpu_only_build,
	},
	{
		.id = "framework.gpu-too-old-for-build",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The GPU is older than every architecture the framework was built for",
		.symptom = "Found GPU0 <name> which is of cuda capability 3.7. PyTorch no longer "
			   "supports this GPU because it is too old. The minimum cuda capability "
			   "supported by this library is 5.0. · CUDA error: no kernel image is "
			   "available for execution on the device",
		.cause = "Framework wheels carry GPU code for a range of compute capabilities; PTX "
			 "only JIT-compiles upwards, so a GPU below the lowest target has no code "
			 "at all (torch 2.x dropped Kepler; CUDA 12.8+ builds dropped Maxwell and "
			 "Pascal, CUDA 13 builds Volta).",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV("# install an older release or CUDA variant that still targets the GPU "
			    "(gpuenv facts torch), or build from source for its architecture"),
		.verify = STRV("python -c 'import torch; print(torch.cuda.get_arch_list(), "
			       "torch.cuda.get_device_capability())'"),
		.check = check_fw_gpu_too_old,
	},
	{
		.id = "framework.no-kernel-image",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The framework has no GPU code for this GPU",
		.symptom =
			"RuntimeError: CUDA error: no kernel image is available for execution on "
			"the device · cudaErrorNoKernelImageForDevice (209) · <GPU> with CUDA "
			"capability sm_XY is not compatible with the current PyTorch installation.",
		.cause = "SASS runs only on the same major compute capability with an equal or "
			 "higher minor (Tegra: exactly), PTX JIT-compiles only to its own "
			 "architecture or newer. A build without either for the GPU (e.g. a cu117 "
			 "wheel on an H100: SASS up to sm_86, no PTX) has nothing to launch.",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV(
			"# install a build that targets the GPU (a newer release or CUDA variant)"),
		.verify = STRV("python -c 'import torch; print(torch.cuda.get_arch_list())'",
			       "gpuenv scan <site-packages>/torch/lib/libtorch_cuda.so"),
		.check = check_fw_no_kernel_image,
	},
	{
		.id = "framework.ptx-too-new-for-driver",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The framework's only code for this GPU is PTX the driver cannot JIT",
		.symptom =
			"CUDA error: the provided PTX was compiled with an unsupported toolchain · "
			"CUDA_ERROR_UNSUPPORTED_PTX_VERSION / cudaErrorUnsupportedPtxVersion (222)",
		.cause =
			"Without SASS for the GPU the driver must JIT-compile PTX, and it only "
			"understands PTX ISA versions up to its own CUDA version; PTX from a newer "
			"toolkit (also under minor-version compatibility) fails.",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV(
			"# upgrade the driver (gpuenv facts driver <version>), or install a build "
			"with SASS for the GPU"),
		.verify = STRV("nvidia-smi | head -4",
			       "gpuenv scan <the framework's kernel library>"),
		.check = check_fw_ptx_too_new,
	},
	{
		.id = "framework.ptx-jit-only",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_INFO,
		.title = "The framework runs on this GPU only through PTX JIT",
		.symptom =
			"No error; the first launch stalls. TensorFlow: \"TensorFlow was not built "
			"with CUDA kernel binaries compatible with compute capability 9.0. CUDA "
			"kernels will be jit-compiled from PTX, which could take 30 minutes or "
			"longer.\"",
		.cause = "The build has no SASS for the GPU's compute capability but PTX of an "
			 "older architecture, which the driver compiles at first use and caches in "
			 "~/.nv/ComputeCache (CUDA_CACHE_PATH), bounded by CUDA_CACHE_MAXSIZE.",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV("export CUDA_CACHE_MAXSIZE=4294967296   # keep the JIT results",
			    "# or install a build with SASS for the GPU"),
		.verify = STRV("du -sh ~/.nv/ComputeCache"),
		.check = check_fw_ptx_jit_only,
	},
	{
		.id = "framework.cuda-newer-than-driver",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The framework's CUDA is newer than the driver supports",
		.symptom =
			"CUDA driver version is insufficient for CUDA runtime version "
			"(cudaErrorInsufficientDriver, 35) · torch.cuda.is_available() is False "
			"with \"The NVIDIA driver on your system is too old (found version 12040). "
			"Please update your GPU driver …\"",
		.cause = "A framework from pip brings its own CUDA runtime (torch.version.cuda, "
			 "TensorFlow's build_info, the jax plugin and its nvidia-cuda-runtime "
			 "wheel); that runtime needs a driver at least as new as its CUDA release, "
			 "or within the same major the minor-version-compatibility floor (limited "
			 "features, no PTX JIT: warning). The system toolkit plays no part.",
		.needs = STRV("framework.python_envs"),
		.fix = STRV(
			"# install a build for the driver's CUDA (nvidia-smi: CUDA Version), or "
			"upgrade the driver (gpuenv facts cuda <version>)"),
		.verify = STRV("nvidia-smi | head -4",
			       "python -c 'import torch; print(torch.version.cuda, "
			       "torch.cuda.is_available())'"),
		.check = check_fw_cuda_newer_than_driver,
	},
	{
		.id = "framework.system-toolkit-irrelevant",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_INFO,
		.title = "nvcc's CUDA is not the CUDA the framework uses",
		.symptom =
			"nvcc --version and torch.version.cuda disagree · RuntimeError: The "
			"detected CUDA version (11.8) mismatches the version that was used to "
			"compile PyTorch (12.4). Please make sure to use the same CUDA versions.",
		.cause = "Frameworks from pip load the CUDA runtime of their own nvidia-* wheels "
			 "(found through their RPATH before LD_LIBRARY_PATH); the system toolkit "
			 "only matters for compiling extensions.",
		.needs = STRV("framework.python_envs"),
		.fix = STRV("# nothing to fix to run the framework; for extensions use a toolkit "
			    "of the framework's CUDA (CUDA_HOME)"),
		.verify = STRV("python -c 'import torch; print(torch.version.cuda)'",
			       "nvcc --version | tail -2"),
		.check = check_fw_system_toolkit_irrelevant,
	},
	{
		.id = "framework.rocm-gfx-unsupported",
		.layer = GPUENV_LAYER_FRAMEWORK,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The ROCm framework build or release does not support this AMD GPU",
		.symptom = "HIP error: invalid device function · hipErrorNoBinaryForGpu: Unable to "
			   "find code object for all current devices! · torch.cuda.is_available() "
			   "True, then a crash or GPU hang (with HSA_OVERRIDE_GFX_VERSION)",
		.cause =
			"A ROCm build carries code objects for a list of gfx targets "
			"(PYTORCH_ROCM_ARCH), and each ROCm release supports a list of GPUs (AMD's "
			"compatibility matrix). A GPU whose gfx target (KFD topology) is in "
			"neither has no kernels (error), one only missing from the release's list "
			"is untested (warning). HSA_OVERRIDE_GFX_VERSION makes the runtime pretend "
			"to be another target: an override AMD does not support, that may crash or "
			"compute wrongly. When the build has no code for the GPU, the value public "
			"reports use for that target (10.3.0 for RDNA2 gfx1031/gfx1032/gfx1034-1036, "
			"11.0.0 for RDNA3 gfx1101/gfx1102/gfx1103, 9.0.0 for the gfx90c APUs: the "
			"knowledge base's hsa_override table) is offered only if the build holds code "
			"for the target it makes ROCm load, and marked unsupported.",
		.needs = STRV("framework.python_envs", "hardware.pci_devices?"),
		.fix = STRV("# use a ROCm release and build whose gfx list includes the GPU "
			    "(gpuenv facts rocm <version>)"),
		.verify = STRV("rocminfo | grep -m2 gfx",
			       "python -c 'import torch; print(torch.cuda.get_arch_list())'"),
		.check = check_fw_rocm_gfx_unsupported,
	},
	/* ---- container ----------------------------------------------------------------- */
	{
		.id = "container.no-gpu-devices",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "In a container with no GPU device nodes",
		.symptom =
			"torch.cuda.is_available() is False in the container · nvidia-smi: command "
			"not found · cudaErrorNoDevice (100): no CUDA-capable device is detected",
		.cause = "No /dev/nvidia* node was passed into the container: it was started "
			 "without --gpus / --runtime=nvidia / a CDI device, or the Kubernetes pod "
			 "did not request nvidia.com/gpu.",
		.needs = STRV("driver.device_nodes.nvidiactl?", "driver.device_nodes.kfd?"),
		.fix = STRV("docker run --gpus all …   # NVIDIA Container Toolkit",
			    "docker run --device nvidia.com/gpu=all …   # CDI (podman: same flag)",
			    "# Kubernetes: resources.limits: {nvidia.com/gpu: 1}"),
		.verify = STRV("ls -l /dev/nvidia*",
			       "docker run --rm --gpus all ubuntu nvidia-smi   # on the host"),
		.check = check_container_no_gpu_devices,
	},
	{
		.id = "container.visible-devices-void",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "NVIDIA_VISIBLE_DEVICES exposes no GPU",
		.symptom = "torch.cuda.is_available() is False · nvidia-smi: No devices were found",
		.cause = "The NVIDIA Container Toolkit reads NVIDIA_VISIBLE_DEVICES: \"void\" or "
			 "empty behaves like runc (no GPU, no driver libraries), \"none\" injects "
			 "the driver but no GPU.",
		.needs = STRV("container.requested.NVIDIA_VISIBLE_DEVICES?"),
		.fix = STRV("docker run --gpus all …   # or -e NVIDIA_VISIBLE_DEVICES=all with the "
			    "nvidia runtime",
			    "# Kubernetes: request nvidia.com/gpu; the device plugin sets the "
			    "variable"),
		.verify = STRV("echo \"$NVIDIA_VISIBLE_DEVICES\"", "nvidia-smi -L"),
		.check = check_visible_devices_void,
	},
	{
		.id = "container.image-cuda-newer-than-driver",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The image's CUDA is newer than the host driver supports",
		.symptom = "nvidia-container-cli: requirement error: unsatisfied condition: "
			   "cuda>=X.Y, please update your driver to a newer version, or use an "
			   "earlier cuda container · CUDA driver version is insufficient for CUDA "
			   "runtime version",
		.cause = "nvidia/cuda images declare NVIDIA_REQUIRE_CUDA (and CUDA_VERSION); the "
			 "container runtime refuses to start them when the host driver reports an "
			 "older CUDA. Minor-version compatibility could run the code (warning) but "
			 "the requirement check still fails unless NVIDIA_DISABLE_REQUIRE is set.",
		.needs = STRV("container.requested.NVIDIA_REQUIRE_CUDA?",
			      "environment.CUDA_VERSION?"),
		.fix = STRV(
			"# upgrade the host driver (gpuenv facts cuda <image CUDA>), or use an "
			"image built for the host's CUDA (nvidia-smi shows it)",
			"# same CUDA major and driver at or above its minor-compatibility floor: "
			"docker run -e NVIDIA_DISABLE_REQUIRE=1 …"),
		.verify = STRV("nvidia-smi | head -4   # host: CUDA Version",
			       "docker inspect --format '{{.Config.Env}}' <image> | tr ' ' '\\n' | "
			       "grep CUDA"),
		.check = check_image_cuda_newer_than_driver,
	},
	{
		.id = "container.no-nvidia-runtime",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "Docker/containerd on a GPU host cannot give containers the GPU",
		.symptom =
			"docker: Error response from daemon: could not select device driver \"\" "
			"with capabilities: [[gpu]]. · torch.cuda.is_available() is False in the "
			"container",
		.cause = "`docker run --gpus` needs the NVIDIA Container Toolkit "
			 "(nvidia-container-runtime-hook, or the nvidia runtime in "
			 "/etc/docker/daemon.json), CDI needs a spec in /etc/cdi or /var/run/cdi, "
			 "and Kubernetes on containerd needs an nvidia runtime in its CRI config; "
			 "this host has none of them.",
		.needs = STRV("container.host"),
		.fix = STRV(
			"sudo apt-get install -y nvidia-container-toolkit   # NVIDIA's "
			"repository; dnf/zypper likewise",
			"sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl "
			"restart docker",
			"sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml   # for CDI "
			"(podman, docker --device nvidia.com/gpu=all)"),
		.verify = STRV("docker run --rm --gpus all ubuntu nvidia-smi",
			       "docker info | grep -i runtimes"),
		.check = check_no_nvidia_runtime,
	},
	{
		.id = "container.cdi-spec-stale",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The CDI spec was generated for another driver version",
		.symptom =
			"Error: setting up CDI devices: … failed to create device: … no such file "
			"or directory (libcuda.so.<old version>) · error running hook: exit "
			"status 1",
		.cause = "nvidia-ctk cdi generate writes the driver's library file names "
			 "(versioned, libcuda.so.535.104.05) into the spec; after a driver upgrade "
			 "those files are gone and containers requesting nvidia.com/gpu fail to "
			 "start.",
		.needs = STRV("container.host"),
		.fix = STRV("sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
		.verify = STRV("nvidia-ctk cdi list",
			       "grep -m1 -o 'libcuda.so.[0-9.]*' /etc/cdi/nvidia.yaml; cat "
			       "/sys/module/nvidia/version"),
		.check = check_cdi_spec_stale,
	},
};

const size_t rule_table_len = ARRAY_SIZE(rule_table);
