// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * THE rule table (design.md §5, style-anchors §4.8): every rule gpuenv knows, one row each,
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
		.cause = "No display, 3D or processing-accelerator device is on the PCI bus: a VM or "
			 "cloud instance without a GPU attached, a GPU not passed through to this "
			 "VM, or a card the firmware did not enumerate (power, seating).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("lspci -nn | grep -Ei 'vga|3d|display|accelerator'   # what the bus holds",
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
		.symptom = "NVRM: GPU at PCI:<bus>: GPU has fallen off the bus. · "
			   "Unable to determine the device handle for GPU <bus>: Unknown Error · Xid 79",
		.cause = "The GPU's PCIe link reports width 0 or speed \"Unknown\": the device no "
			 "longer answers on its link (fell off the bus after a power, thermal or "
			 "hardware fault, or a failed reset), or it is powered down by runtime power "
			 "management.",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("sudo lspci -vv -s <bus> | grep -E 'LnkCap|LnkSta'",
			    "# power-cycle the machine (a warm reboot is often not enough); reseat the "
			    "card and its power cables; if it recurs, check the PSU and RMA the GPU"),
		.verify = STRV("cat /sys/bus/pci/devices/<bus>/current_link_width",
			       "nvidia-smi --query-gpu=pci.bus_id,pcie.link.width.current --format=csv"),
		.check = check_pcie_link_down,
	},
	{
		.id = "hardware.pcie-link-degraded",
		.layer = GPUENV_LAYER_HARDWARE,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "GPU PCIe link narrower or slower than it can run",
		.symptom = "No error: host-device copies are slower. lspci -vv: \"LnkSta: Speed 8GT/s "
			   "(downgraded), Width x8 (downgraded)\"",
		.cause = "The link trained at fewer lanes (warning) or a lower speed (info: GPUs drop "
			 "to 2.5 GT/s when idle to save power) than both ends support: a slot wired "
			 "narrower than the card, a riser or cable fault, a bifurcation setting, or "
			 "retraining after link errors.",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("sudo lspci -vv -s <bus> | grep -E 'LnkCap|LnkSta'",
			    "# move the card to a full x16 slot, check risers/cables and the firmware's "
			    "PCIe lane/bifurcation settings; re-check under load"),
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
		.cause = "BAR1 is the CPU's window into GPU memory. Unassigned (error): the firmware "
			 "could not place the GPU's 64-bit BAR, usually because Above 4G Decoding is "
			 "off, so the driver refuses the GPU. At or below the legacy aperture (info): "
			 "Resizable BAR is off; CUDA works, GPUDirect RDMA and peer mappings are "
			 "limited.",
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
		.cause = "No kernel driver owns the device: the driver is not installed or not loaded, "
			 "its probe failed (see dmesg), or the device is held by vfio-pci/pci-stub for "
			 "passthrough (warning).",
		.needs = STRV("hardware.pci_devices"),
		.fix = STRV("sudo modprobe nvidia   # amdgpu for AMD",
			    "sudo dmesg | grep -iE 'nvrm|nvidia|amdgpu' | tail -20"),
		.verify = STRV("lspci -k -s <bus>", "nvidia-smi -L"),
		.check = check_gpu_without_driver,
	},
	/* ---- driver -------------------------------------------------------------------- */
	{
		.id = "driver.module-not-loaded",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "NVIDIA GPU present, nvidia kernel module not loaded",
		.symptom = "nvidia-smi: command not found · NVIDIA-SMI has failed because it "
			   "couldn't communicate with the NVIDIA driver. Make sure that the latest "
			   "NVIDIA driver is installed and running. · Found no NVIDIA driver on your "
			   "system (PyTorch)",
		.cause = "The nvidia kernel module is not loaded: the driver is not installed, was not "
			 "built for the running kernel, was refused by Secure Boot, is blacklisted, or "
			 "the kernel cannot load modules at all.",
		.needs = STRV("hardware.pci_devices", "driver.kernel_modules.modules_supported?",
			      "driver.nvidia.module_version?"),
		.fix = STRV("sudo modprobe nvidia && sudo dmesg | grep -iE 'nvrm|nvidia' | tail",
			    "# not installed: sudo apt install nvidia-driver (Debian) · "
			    "sudo ubuntu-drivers install (Ubuntu) · NVIDIA's CUDA repository"),
		.verify = STRV("lsmod | grep nvidia && dmesg | grep -i nvidia", "nvidia-smi"),
		.check = check_module_not_loaded,
	},
	{
		.id = "driver.secure-boot-unsigned-module",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "Secure Boot is on and nvidia.ko is not signed",
		.symptom = "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
		.cause = "With UEFI Secure Boot on, the kernel loads only modules signed by a trusted "
			 "key. The nvidia.ko built for this kernel carries no signature (DKMS built "
			 "it without a Machine Owner Key, or the key was never enrolled).",
		.needs = STRV("driver.secure_boot.enabled?", "driver.nvidia.module_file.path?",
			      "driver.nvidia.module_version?"),
		.fix = STRV("sudo mokutil --import /var/lib/dkms/mok.pub   # then reboot and enroll "
			    "the key in the MOK manager",
			    "sudo dkms autoinstall   # rebuilds and signs with the enrolled key",
			    "# or turn Secure Boot off in the firmware"),
		.verify = STRV("mokutil --sb-state", "modinfo -F signer nvidia",
			       "lsmod | grep nvidia"),
		.check = check_secure_boot_unsigned,
	},
	{
		.id = "driver.module-missing-for-kernel",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "No nvidia.ko for the running kernel",
		.symptom = "modprobe: FATAL: Module nvidia not found in directory /lib/modules/<release>",
		.cause = "There is no nvidia module under /lib/modules/<running kernel>: the kernel was "
			 "updated and DKMS did not build the driver for it (missing kernel headers, a "
			 "compiler error, or a driver too old for the new kernel).",
		.needs = STRV("hardware.pci_devices", "host.kernel_release",
			      "driver.nvidia.module_file.path?", "driver.nvidia.module_version?"),
		.fix = STRV("sudo apt install linux-headers-$(uname -r)",
			    "sudo dkms autoinstall -k $(uname -r)",
			    "dkms status; less /var/lib/dkms/nvidia/*/build/make.log"),
		.verify = STRV("modinfo -k $(uname -r) nvidia | head -3", "dkms status nvidia"),
		.check = check_module_missing_for_kernel,
	},
	{
		.id = "driver.nouveau-bound",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "nouveau owns the NVIDIA GPU",
		.symptom = "NVRM: The NVIDIA probe routine was not called for 1 device(s). NVRM: This "
			   "can occur when a driver such as: nouveau, rivafb, nvidiafb or rivatv was "
			   "loaded and obtained ownership of the NVIDIA device(s).",
		.cause = "The open-source nouveau driver bound the GPU first, so the NVIDIA driver "
			 "cannot. nouveau must be blacklisted, and the initramfs rebuilt so the "
			 "blacklist also applies at early boot.",
		.needs = STRV("hardware.pci_devices", "driver.kernel_modules.nouveau?"),
		.fix = STRV("printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee "
			    "/etc/modprobe.d/blacklist-nouveau.conf",
			    "sudo update-initramfs -u   # dracut --force on Fedora/RHEL", "sudo reboot"),
		.verify = STRV("lsmod | grep nouveau   # prints nothing",
			       "lspci -k -d 10de: | grep 'Kernel driver in use'"),
		.check = check_nouveau_bound,
	},
	{
		.id = "driver.device-nodes-missing",
		.layer = GPUENV_LAYER_DRIVER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "nvidia driver loaded, /dev/nvidia* nodes missing",
		.symptom = "CUDA unknown error - this may be due to an incorrectly set up environment "
			   "(PyTorch) · cudaErrorUnknown (999) · Failed to initialize NVML: Unknown "
			   "Error",
		.cause = "CUDA opens /dev/nvidiactl, /dev/nvidiaN and /dev/nvidia-uvm. They are created "
			 "by nvidia-modprobe or udev when the driver loads; without nvidia-uvm loaded, "
			 "udev rules, or a root process that ran first, they are missing.",
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
		.symptom = "NVRM: The NVIDIA <GPU> GPU installed in this system is supported through "
			   "the NVIDIA <branch>.xx Legacy drivers. … The <version> NVIDIA driver will "
			   "ignore this GPU. · NVRM: … is not supported by open nvidia.ko because it "
			   "does not include the required GPU System Processor (GSP).",
		.cause = "Each driver branch supports GPUs from an oldest architecture on (Kepler "
			 "ended with R470; Maxwell, Pascal and Volta with R580), and the open kernel "
			 "modules need a GSP (Turing and later). The driver loads but ignores the GPU.",
		.needs = STRV("hardware.pci_devices", "driver.nvidia.module_version?"),
		.fix = STRV("# install the last branch for this GPU's architecture (gpuenv facts gpu "
			    "<name>; gpuenv facts driver <branch>), or for the open-module case the "
			    "proprietary flavour of the same branch"),
		.verify = STRV("nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv"),
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
		.cause = "The toolkit brings the compiler and the runtime libraries; running a CUDA "
			 "program needs the NVIDIA kernel driver and its libcuda.so.1, which are not "
			 "loaded here. nvcc still compiles; nothing it builds can run.",
		.needs = STRV("driver.nvidia.module_version?", "driver.nvidia.proc_version?"),
		.fix = STRV("# install an NVIDIA driver at or above the toolkit's minimum (gpuenv "
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
		.cause = "Each CUDA release needs a minimum driver (CUDA release notes, Table 3). From "
			 "CUDA 11 on, minor-version compatibility lets a toolkit run on an older driver "
			 "of the same major at or above the major's floor (11.x: 450.80.02, below "
			 "R525; 12.x: 525.60.13, below R580; 13.x: R580) — with a limited feature set "
			 "and without JIT of PTX the newer toolkit emitted (warning).",
		.needs = STRV("driver.nvidia.module_version?"),
		.fix = STRV("# install a driver at or above the toolkit's minimum (gpuenv facts cuda "
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
		.cause = "CUDA toolkits ship lib64/stubs/libcuda.so so that programs can be linked on "
			 "machines without a driver; it implements nothing. A directory holding it on "
			 "LD_LIBRARY_PATH (or LD_PRELOAD) makes programs that load libcuda.so pick it "
			 "instead of the driver's (error). Off the loader path it is harmless (info).",
		.needs = STRV("environment.LD_LIBRARY_PATH?", "environment.LD_PRELOAD?"),
		.fix = STRV("# drop the stubs directory from LD_LIBRARY_PATH; pass it only to the "
			    "linker (-L<cuda>/lib64/stubs) at build time"),
		.verify = STRV("echo \"$LD_LIBRARY_PATH\" | tr : '\\n' | grep stubs   # prints nothing",
			       "ldconfig -p | grep 'libcuda.so.1 '"),
		.check = check_stub_libcuda,
	},
	{
		.id = "runtime.toolkits-disagree",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_WARNING,
		.title = "PATH, CUDA_HOME, LD_LIBRARY_PATH and /usr/local/cuda name different toolkits",
		.symptom = "The detected CUDA version (11.8) mismatches the version that was used to "
			   "compile PyTorch (12.4) · libcudart.so.<N>: cannot open shared object file",
		.cause = "The nvcc on PATH, CUDA_HOME, the toolkit lib directory on LD_LIBRARY_PATH "
			 "and /usr/local/cuda point at different installations, so code is compiled "
			 "with one release and linked or run against another.",
		.needs = STRV("environment.PATH?", "environment.LD_LIBRARY_PATH?"),
		.fix = STRV("export CUDA_HOME=<toolkit> PATH=<toolkit>/bin:$PATH "
			    "LD_LIBRARY_PATH=<toolkit>/lib64",
			    "sudo update-alternatives --config cuda   # where /usr/local/cuda is an "
			    "alternative"),
		.verify = STRV("command -v nvcc && nvcc --version | tail -2",
			       "readlink -f /usr/local/cuda; echo \"$CUDA_HOME\" \"$LD_LIBRARY_PATH\""),
		.check = check_toolkits_disagree,
	},
	{
		.id = "runtime.toolkit-cannot-target-gpu",
		.layer = GPUENV_LAYER_RUNTIME,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The CUDA toolkit cannot compile for this GPU",
		.symptom = "nvcc fatal   : Unsupported gpu architecture 'compute_XY' · no kernel image "
			   "is available for execution on the device (cudaErrorNoKernelImageForDevice, "
			   "209)",
		.cause = "Each toolkit compiles for a range of compute capabilities: CUDA 13.0 removed "
			 "Maxwell, Pascal and Volta (error), CUDA 11.7 and older know nothing newer "
			 "than sm_87, so Hopper code is only PTX JIT-compiled at load (warning).",
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
		.symptom = "Could not load library libcudnn_…so.N. Error: libcublas(Lt).so.<major>: "
			   "cannot open shared object file: No such file or directory",
		.cause = "cuDNN is released per CUDA major (cuda11, cuda12, cuda13 packages) and "
			 "supports the CUDA versions of its support matrix; a build for another major "
			 "cannot find its CUDA libraries (error), a CUDA minor the matrix does not list "
			 "is untested (warning).",
		.needs = NULL,
		.fix = STRV("# install the cuDNN package for this toolkit's CUDA major "
			    "(gpuenv facts cudnn <version>)"),
		.verify = STRV("grep -E 'define CUDNN_(MAJOR|MINOR|PATCHLEVEL)' "
			       "<toolkit>/include/cudnn_version.h"),
		.check = check_cudnn_cuda_mismatch,
	},
	/* ---- container ----------------------------------------------------------------- */
	{
		.id = "container.no-gpu-devices",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "In a container with no GPU device nodes",
		.symptom = "torch.cuda.is_available() is False in the container · nvidia-smi: command "
			   "not found · cudaErrorNoDevice (100): no CUDA-capable device is detected",
		.cause = "No /dev/nvidia* node was passed into the container: it was started without "
			 "--gpus / --runtime=nvidia / a CDI device, or the Kubernetes pod did not "
			 "request nvidia.com/gpu.",
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
		.cause = "The NVIDIA Container Toolkit reads NVIDIA_VISIBLE_DEVICES: \"void\" or empty "
			 "behaves like runc (no GPU, no driver libraries), \"none\" injects the driver "
			 "but no GPU.",
		.needs = STRV("container.requested.NVIDIA_VISIBLE_DEVICES?"),
		.fix = STRV("docker run --gpus all …   # or -e NVIDIA_VISIBLE_DEVICES=all with the "
			    "nvidia runtime",
			    "# Kubernetes: request nvidia.com/gpu; the device plugin sets the variable"),
		.verify = STRV("echo \"$NVIDIA_VISIBLE_DEVICES\"", "nvidia-smi -L"),
		.check = check_visible_devices_void,
	},
	{
		.id = "container.image-cuda-newer-than-driver",
		.layer = GPUENV_LAYER_CONTAINER,
		.severity = GPUENV_SEVERITY_ERROR,
		.title = "The image's CUDA is newer than the host driver supports",
		.symptom = "nvidia-container-cli: requirement error: unsatisfied condition: "
			   "cuda>=X.Y, please update your driver to a newer version, or use an earlier "
			   "cuda container · CUDA driver version is insufficient for CUDA runtime "
			   "version",
		.cause = "nvidia/cuda images declare NVIDIA_REQUIRE_CUDA (and CUDA_VERSION); the "
			 "container runtime refuses to start them when the host driver reports an "
			 "older CUDA. Minor-version compatibility could run the code (warning) but "
			 "the requirement check still fails unless NVIDIA_DISABLE_REQUIRE is set.",
		.needs = STRV("container.requested.NVIDIA_REQUIRE_CUDA?", "environment.CUDA_VERSION?"),
		.fix = STRV("# upgrade the host driver (gpuenv facts cuda <image CUDA>), or use an "
			    "image built for the host's CUDA (nvidia-smi shows it)",
			    "# same CUDA major and driver at or above its minor-compatibility floor: "
			    "docker run -e NVIDIA_DISABLE_REQUIRE=1 …"),
		.verify = STRV("nvidia-smi | head -4   # host: CUDA Version",
			       "docker inspect --format '{{.Config.Env}}' <image> | tr ' ' '\\n' | "
			       "grep CUDA"),
		.check = check_image_cuda_newer_than_driver,
	},
};

const size_t rule_table_len = ARRAY_SIZE(rule_table);
