// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * gpu-names.h. Environment variable names: CUDA (CUDA C++ Programming Guide, "CUDA Environment
 * Variables"), ROCm (HIP documentation, "environment variables"), Level Zero (specification,
 * "Environment Variables") and DPC++ (ONEAPI_DEVICE_SELECTOR), the NVIDIA container toolkit
 * (NVIDIA_*), the dynamic loader (ld.so(8)).
 */
#include <string.h>

#include "formats/gpu-names.h"

const char *const gpu_env_vars[] = {
	"PATH",
	"LD_LIBRARY_PATH",
	"LD_PRELOAD",
	"CUDA_HOME",
	"CUDA_PATH",
	"CUDA_VISIBLE_DEVICES",
	"CUDA_DEVICE_ORDER",
	"CUDA_MODULE_LOADING",
	"HIP_VISIBLE_DEVICES",
	"ROCR_VISIBLE_DEVICES",
	"HSA_OVERRIDE_GFX_VERSION",
	"ZE_AFFINITY_MASK",
	"ZE_FLAT_DEVICE_HIERARCHY",
	"ONEAPI_DEVICE_SELECTOR",
	"NVIDIA_VISIBLE_DEVICES",
	"NVIDIA_DRIVER_CAPABILITIES",
	"NVIDIA_REQUIRE_CUDA",
	"CUDA_VERSION",
	"CONDA_PREFIX",
	"VIRTUAL_ENV",
	"XLA_FLAGS",
	NULL,
};

bool gpu_env_var_tf(const char *name)
{
	return strncmp(name, "TF_", 3) == 0 && (strstr(name, "GPU") || strstr(name, "CUDA"));
}

bool conda_gpu_package(const char *name)
{
	static const char *const names[] = {
		"pytorch",    "pytorch-cuda", "pytorch-gpu",  "pytorch-cpu",	 "pytorch-mutex",
		"libtorch",   "cudatoolkit",  "cuda-version", "cuda-cudart",	 "cuda-runtime",
		"cuda-nvcc",  "cuda-nvrtc",   "cuda-toolkit", "cuda-libraries",	 "cudnn",
		"nccl",	      "libcublas",    "tensorflow",   "tensorflow-base", "tensorflow-gpu",
		"jax",	      "jaxlib",	      "cupy",	      "cupy-core",	 "rocm",
		"magma-cuda", NULL,
	};

	for (size_t i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}
