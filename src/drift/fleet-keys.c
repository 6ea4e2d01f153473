// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The facts `gpuenv fleet` compares across machines (docs/fleet.md lists them): what decides
 * whether a job runs the same on every node. Paths are docs/snapshot-schema.md's keys, "*"
 * standing for every element of an array (every GPU, toolkit, environment, CDI spec). Keys
 * that name a machine (hostname, UUIDs, serials, bus ids) and readings (temperature, power)
 * are not here: they differ on every node and are not drift. At most 63 rows (fleet.c keeps
 * one bit per row, and one for the host name).
 */
#include "drift/fleet.h"
#include "shared/macro.h"

const struct fleet_key fleet_keys[] = {
	{ "host.os.pretty_name", "OS" },
	{ "host.kernel_release", "kernel" },
	{ "hardware.gpus.*.name", "GPU model (PCI)" },
	{ "hardware.gpus.*.current_link_width", "PCIe link width" },
	{ "hardware.gpus.*.current_link_speed", "PCIe link speed" },
	{ "driver.nvidia.module_version", "driver" },
	{ "driver.nvidia.flavor", "kernel module flavour" },
	{ "driver.userspace.libcuda.version", "user-space driver (libcuda)" },
	{ "driver.nvml.cuda_driver_version", "CUDA the driver supports" },
	{ "driver.nvml.device_count", "GPUs (NVML)" },
	{ "driver.nvml.devices.*.name", "GPU model" },
	{ "driver.nvml.devices.*.vbios_version", "VBIOS" },
	{ "driver.nvml.devices.*.pcie_link_width", "PCIe link width (NVML)" },
	{ "driver.nvml.devices.*.pcie_link_gen", "PCIe link generation (NVML)" },
	{ "driver.nvml.devices.*.ecc_mode", "ECC mode" },
	{ "driver.nvml.devices.*.mig_mode", "MIG mode" },
	{ "driver.nvml.devices.*.persistence_mode", "persistence mode" },
	{ "driver.amdgpu.module_version", "amdgpu module" },
	{ "runtime.cuda_toolkits.*.version", "CUDA toolkit" },
	{ "runtime.cuda_toolkits.*.components.cudnn.version", "cuDNN (toolkit)" },
	{ "runtime.cuda_toolkits.*.components.nccl.version", "NCCL (toolkit)" },
	{ "runtime.libraries.libcudnn.*.version", "cuDNN (loader)" },
	{ "runtime.libraries.libnccl.*.version", "NCCL (loader)" },
	{ "runtime.rocm.*.version", "ROCm" },
	{ "framework.python_envs.*.packages.torch.version", "torch" },
	{ "framework.python_envs.*.packages.torch.cuda", "torch CUDA build" },
	{ "framework.python_envs.*.packages.tensorflow.dist_version", "TensorFlow" },
	{ "framework.python_envs.*.packages.jax.version", "jax" },
	{ "framework.python_envs.*.packages.cupy.version", "CuPy" },
	{ "container.host.cdi_specs.*.driver_version", "CDI spec driver" },
	{ "container.host.docker.default_runtime", "Docker default runtime" },
	{ "container.host.containerd.default_runtime_name", "containerd default runtime" },
	{ "container.host.toolkit.packages.nvidia-container-toolkit", "NVIDIA Container Toolkit" },
};
const size_t fleet_keys_len = ARRAY_SIZE(fleet_keys);
