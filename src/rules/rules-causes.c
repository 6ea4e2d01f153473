// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which finding explains which: the data of the root-cause ranking (rules-rank.c, described
 * in docs/HACKING.md "How the ranking works"). One row per edge "cause → consequence"
 * between rule ids: when both rules fire, the consequence's finding carries caused_by = the
 * cause. An edge holds when fixing the cause is what makes the consequence go away (the
 * consequence is how the cause shows one layer up), never because two problems merely come
 * together. Edges chain: a consequence whose direct cause did not fire is explained by the
 * nearest cause up the chain that did. The table must stay acyclic; test-rank checks it
 * (and every id) at test time.
 *
 * Then the layer order, the tie-break between findings no edge connects: a lower layer is
 * nearer the root, because each layer runs on the one below it (docs/design.md §5: hardware
 * < driver < runtime < framework). The container layer is around the others: what a
 * container hides from the software inside is said by explicit edges below
 * (container.no-gpu-devices → …), and without one a container finding ranks last, since a
 * broken stack inside would stay broken with the container fixed.
 */
#include "rules/rules.h"
#include "shared/macro.h"

const struct rule_edge rule_causes[] = {
	/* ---- why the nvidia module is not loaded ---- */
	{ "driver.secure-boot-unsigned-module", "driver.module-not-loaded",
	  "with Secure Boot on the kernel refuses an unsigned nvidia.ko (\"Key was rejected by "
	  "service\"), so the module stays unloaded until it is signed or Secure Boot is off" },
	{ "driver.secure-boot-key-not-enrolled", "driver.module-not-loaded",
	  "with Secure Boot on, the kernel refuses a module whose signing key is not enrolled "
	  "(MOK or db): the module cannot load" },
	/* RPM Fusion's nvidia-fallback.service loads nouveau when nvidia did not load ("NVIDIA
	 * kernel module missing. Falling back to nouveau"): a refused module leaves the GPU to
	 * nouveau, and the module that loads keeps it from it */
	{ "driver.secure-boot-unsigned-module", "driver.nouveau-bound",
	  "the kernel refused the unsigned nvidia.ko, so nouveau claimed the GPU in its place "
	  "(RPM Fusion's nvidia-fallback.service loads it when nvidia did not load); signed, or "
	  "with Secure Boot off, nvidia loads and nouveau stays out" },
	{ "driver.secure-boot-key-not-enrolled", "driver.nouveau-bound",
	  "the kernel refused nvidia.ko for its unenrolled key, so nouveau claimed the GPU in its "
	  "place (RPM Fusion's nvidia-fallback.service loads it when nvidia did not load); with "
	  "the key enrolled nvidia loads and nouveau stays out" },
	{ "driver.branch-predates-gpu", "driver.module-not-loaded",
	  "a release older than the GPU refuses it (\"NVRM: The NVIDIA GPU … is not supported by "
	  "the NVIDIA <version> driver release\"); with no GPU it can drive the module fails to "
	  "load (\"None of the NVIDIA devices were initialized\") until a newer branch is installed" },
	{ "driver.module-missing-for-kernel", "driver.module-not-loaded",
	  "modprobe finds no nvidia.ko under /lib/modules/<running kernel>: there is nothing to "
	  "load until the module is built or installed for that kernel" },
	{ "driver.module-missing-for-kernel", "driver.nouveau-bound",
	  "with no nvidia.ko for the running kernel, nouveau is the only driver that can claim the "
	  "GPU at boot; installing the module (which blacklists nouveau) removes both" },
	{ "driver.nouveau-bound", "driver.module-not-loaded",
	  "nouveau owns the device, so the nvidia module cannot bind it (\"NVRM: The NVIDIA probe "
	  "routine was not called for 1 device(s)\") and is usually not loaded at all" },
	/* ---- AMD: amdgpu's firmware, KFD and the gfx override ---- */
	{ "driver.amdgpu-firmware-failed", "hardware.gpu-without-driver",
	  "amdgpu's probe fails when a firmware file it needs does not load (\"Fatal error during "
	  "GPU init\", \"probe of … failed with error -2\"): the GPU is left with no driver until "
	  "the firmware is there" },
	{ "driver.amdgpu-firmware-failed", "driver.amdgpu-no-kfd",
	  "KFD adds a GPU to its topology once amdgpu's init of it completed; the init stopped at "
	  "the firmware, so KFD never lists it" },
	{ "hardware.pcie-atomics-unsupported", "driver.amdgpu-no-kfd",
	  "KFD skips a GPU whose PCIe path rejects the atomics it needs (\"PCI rejects "
	  "atomics\"): amdgpu drives it, KFD never lists it, until the GPU sits on a path that "
	  "completes atomics" },
	{ "runtime.hsa-override-wrong-target", "framework.rocm-gfx-unsupported",
	  "the framework's code is looked up for the target the override names, not the GPU's: "
	  "with the override gone ROCm loads the GPU's own code" },
	/* ---- Intel: why the Level Zero session lists no GPU ---- */
	{ "runtime.level-zero-no-gpu-driver", "runtime.level-zero-no-device",
	  "the loader initialises only the drivers it can load: without libze_intel_gpu.so.1 "
	  "zeInit has no driver (ZE_RESULT_ERROR_UNINITIALIZED)" },
	{ "runtime.intel-compute-runtime-drops-gpu", "runtime.level-zero-no-device",
	  "the regular compute runtime from release 24.35.30872.22 on has no Level Zero driver "
	  "for Gen8-Gen11 GPUs: it initialises no device for one (the -legacy1 packages do)" },
	{ "runtime.intel-compute-runtime-drops-gpu", "runtime.opencl-no-platforms",
	  "the regular compute runtime's OpenCL ICD from release 24.35.30872.22 on finds no "
	  "device it supports on a Gen8-Gen11 GPU, so the loader lists no Intel GPU platform" },
	{ "driver.no-permission", "runtime.level-zero-no-device",
	  "Intel's Level Zero driver opens the render node read-write; refused, it reports no "
	  "device and zeInit fails" },
	{ "driver.no-permission", "runtime.opencl-no-platforms",
	  "Intel's OpenCL ICD (the compute runtime) opens the render node; refused, it has no "
	  "device and the loader lists no platform (\"Number of platforms 0\") until the user "
	  "joins the node's group" },
	{ "driver.intel-firmware-failed", "runtime.level-zero-no-device",
	  "without GuC the GPU has no command submission the compute runtime can use, so its "
	  "Level Zero driver lists no device" },
	{ "runtime.override-not-inherited", "framework.rocm-gfx-unsupported",
	  "the build has code for the target the override names, not the GPU's own: the override "
	  "the user set never reached the process, so ROCm looks for the GPU's own code" },
	{ "runtime.override-not-inherited", "framework.ollama-rocm-gfx-unsupported",
	  "ollama's ROCm has code for the target the override names, not the GPU's own: the "
	  "override never reached the server, so ollama checks the GPU's own target and skips it" },
	{ "runtime.hsa-override-wrong-target", "framework.ollama-rocm-gfx-unsupported",
	  "ollama's ROCm is looked up for the target the override names, not the GPU's: with the "
	  "override gone ollama checks the GPU's own target" },
	/* ---- what an absent driver breaks above it ---- */
	{ "driver.module-not-loaded", "hardware.gpu-without-driver",
	  "the GPU has no kernel driver because the nvidia module that would bind it is not "
	  "loaded: the hardware finding is how the missing driver shows on the PCI bus" },
	{ "driver.branch-drops-gpu", "hardware.gpu-without-driver",
	  "the loaded branch has no support for the GPU's architecture and ignores it (\"NVRM: "
	  "The NVIDIA <GPU> GPU installed in this system is supported through the NVIDIA "
	  "<branch>.xx Legacy drivers\")" },
	{ "driver.branch-predates-gpu", "hardware.gpu-without-driver",
	  "the driver release does not know the GPU and refuses to bind it (\"nvidia: probe of … "
	  "failed with error -1\"): the GPU is left without a driver" },
	{ "driver.branch-drops-gpu", "driver.module-not-loaded",
	  "nvidia.ko ignores the GPU its branch dropped (\"NVRM: No NVIDIA GPU found.\"), so with "
	  "no other GPU the module does not load and nvidia-smi cannot reach a driver; the legacy "
	  "branch that supports the GPU loads" },
	{ "driver.module-not-loaded", "runtime.no-driver-for-toolkit",
	  "the toolkit has no driver to run on because the nvidia module is not loaded" },
	{ "driver.nouveau-bound", "runtime.no-driver-for-toolkit",
	  "nouveau gives CUDA nothing: libcuda needs the nvidia module, which cannot bind the GPU "
	  "while nouveau owns it" },
	{ "hardware.gpu-without-driver", "runtime.no-driver-for-toolkit",
	  "no kernel driver owns the GPU, so there is no driver for CUDA programs to use" },
	{ "hardware.no-gpu", "runtime.no-driver-for-toolkit",
	  "with no GPU on the bus no NVIDIA driver can load: the toolkit's missing driver is the "
	  "missing GPU" },
	/* ---- why gres.conf's device files are missing (Slurm's slurmd stops on them) ---- */
	{ "driver.device-nodes-missing", "runtime.slurm-gres-file-missing",
	  "slurmd only stat()s gres.conf's File= and never opens the GPU, so nothing makes the "
	  "missing /dev/nvidiaN for it (fgci-org/ansible-role-cuda#2): once they exist it starts" },
	{ "driver.module-not-loaded", "runtime.slurm-gres-file-missing",
	  "without the nvidia module there is no /dev/nvidiaN for gres.conf's File=" },
	{ "hardware.gpu-without-driver", "runtime.slurm-gres-file-missing",
	  "with no driver bound to the GPU there is no /dev/nvidiaN for gres.conf's File= "
	  "(BiBiServ/bibigrid#705, fixed by installing the driver)" },
	/* ---- hardware faults the driver reports ---- */
	{ "hardware.gpu-lost", "driver.xid-errors",
	  "Xid 79 is the driver's record of the GPU falling off the bus, and the Xids after it "
	  "are calls on a GPU that no longer answers: power-cycling the lost GPU ends them" },
	{ "hardware.pcie-link-down", "driver.xid-errors",
	  "a GPU whose link no longer trains has fallen off the bus: Xid 79 (and the Xids of "
	  "every call that then fails) is the driver's record of the same event" },
	/* ---- a container that was not given the GPU ---- */
	{ "container.visible-devices-void", "container.no-gpu-devices",
	  "NVIDIA_VISIBLE_DEVICES=void/none tells the NVIDIA Container Toolkit to inject no "
	  "device, so the container has no /dev/nvidia* node" },
	{ "container.no-gpu-devices", "runtime.no-driver-for-toolkit",
	  "inside a container the driver is the host's: without the device nodes the toolkit "
	  "cannot reach it, and passing the GPU in (--gpus) fixes both" },
	{ "container.docker-desktop-context", "container.no-nvidia-runtime",
	  "on Docker Desktop's context the engine that answers `--gpus` is Docker Desktop's, in "
	  "a VM with no nvidia runtime: the \"could not select device driver\" is its answer, "
	  "and the default context is what reaches the host's (NVIDIA/nvidia-container-toolkit"
	  "#814)" },
	{ "container.image-cuda-newer-than-driver", "runtime.toolkit-needs-newer-driver",
	  "the image's toolkit is the CUDA the image declares (NVIDIA_REQUIRE_CUDA): the image "
	  "is what needs the newer host driver" },
	/* ---- which cuDNN a framework loads ---- */
	{ "runtime.library-shadowed", "runtime.cudnn-older-than-framework",
	  "an older copy of the cuDNN major ahead of a newer one on the framework's search path "
	  "is the copy it loads: taking the older one off the path gives it the newer" },
	/* ---- framework GPU code ---- */
	{ "framework.gpu-too-old-for-build", "framework.no-kernel-image",
	  "the GPU is below every architecture the build carries: that is why no image fits it" },
	{ "framework.cuda-newer-than-driver", "framework.ptx-too-new-for-driver",
	  "PTX made by a CUDA newer than the driver is PTX the driver cannot JIT: the same "
	  "too-new CUDA, seen in the GPU code; a driver for that CUDA fixes both" },
	/* ---- why the probe kernel of doctor --launch failed ---- */
	{ "driver.nvml-version-mismatch", "runtime.kernel-launch-failed",
	  "the user-space driver and the loaded kernel module are different versions: cuInit "
	  "answers CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803) until they match, so no kernel runs" },
	{ "runtime.cuda-compat-unsupported", "runtime.kernel-launch-failed",
	  "the forward-compatibility libcuda on a GPU it does not support answers "
	  "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804); off the loader path, the driver's own "
	  "libcuda runs the kernel" },
	{ "hardware.gpu-lost", "hardware.no-gpu",
	  "a GPU that fell off the bus no longer answers on it: CUDA finds no device (\"no "
	  "CUDA-capable device is detected\") until a reboot or power cycle brings it back" },
	{ "hardware.gpu-lost", "runtime.kernel-launch-failed",
	  "a GPU that fell off the bus runs nothing until the node is power-cycled" },
	{ "runtime.kernel-launch-failed", "runtime.launch-contradicts-prediction",
	  "the disagreement is about that failed launch: it is the ground truth to act on" },
};
const size_t rule_causes_len = ARRAY_SIZE(rule_causes);

const unsigned rule_layer_rank[RULE_LAYERS] = {
	[GPUENV_LAYER_HARDWARE] = 0,  [GPUENV_LAYER_DRIVER] = 1,    [GPUENV_LAYER_RUNTIME] = 2,
	[GPUENV_LAYER_FRAMEWORK] = 3, [GPUENV_LAYER_CONTAINER] = 4,
};
