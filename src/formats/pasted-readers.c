/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The readers gpuenv explain runs over pasted text, one line each (see pasted.h), with the
 * words without which each reads nothing (its "signs": the lines it keys on, as its file
 * reads them; NULL where no word is needed, as for pip list's or env's lines) and what of the
 * text it is given (its reach: the whole text, the lines holding a sign, or the blocks they
 * start; pasted-dispatch.h, docs/HACKING.md "Readers of pasted text"). */
#include "formats/pasted-cudnn.h"
#include "formats/pasted-errors.h"
#include "formats/pasted-nccl.h"
#include "formats/pasted-readers.h"
#include "formats/pasted.h"

#define SIGNS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The error messages first: a command's output pasted with them states the same facts
 * (a driver version, the GPU) more completely, and the later fact for a path wins. */
const struct pasted_reader pasted_readers[] = {
	{ "errors", pasted_read_errors, NULL, PASTED_REACH_LINES, pasted_errors_signs },
	{ "nvidia-smi", pasted_read_nvidia_smi, NULL },
	{ "collect-env", pasted_read_collect_env, NULL },
	{ "packages", pasted_read_packages, NULL, PASTED_REACH_LINES, pasted_packages_signs },
	{ "toolkit", pasted_read_toolkit,
	  SIGNS("Cuda compilation tools, release ", "CUDA Version ", "\"version\"") },
	{ "nvidia-version", pasted_read_nvidia_version, SIGNS("NVRM version:", "GCC version:"),
	  PASTED_REACH_LINES },
	{ "kernel-log", pasted_read_kernel_log,
	  SIGNS("Linux version ", "NVRM: loading NVIDIA UNIX "), PASTED_REACH_LINES },
	{ "uname", pasted_read_uname, SIGNS("Linux "), PASTED_REACH_LINES },
	{ "os-release", pasted_read_os_release, NULL },
	{ "lsmod", pasted_read_lsmod, SIGNS("nvidia", "nouveau", "amdgpu"), PASTED_REACH_LINES },
	{ "mokutil", pasted_read_mokutil,
	  SIGNS("SecureBoot enabled", "SecureBoot disabled", "Secure boot enabled",
		"Secure boot disabled"),
	  PASTED_REACH_LINES },
	{ "ldconfig", pasted_read_ldconfig, SIGNS(") => ", " libs found in cache `"),
	  PASTED_REACH_LINES },
	/* after ldconfig: the loader's answer for that shell wins */
	{ "ldd", pasted_read_ldd, SIGNS(" => "), PASTED_REACH_LINES },
	{ "env", pasted_read_env, NULL },
	{ "modinfo", pasted_read_modinfo, SIGNS("filename"), PASTED_REACH_BLOCK },
	{ "lspci", pasted_read_lspci, NULL },
	{ "docker-info", pasted_read_docker_info,
	  SIGNS("Default Runtime: ", "Runtimes: ", "CDI spec directories:"), PASTED_REACH_BLOCK },
	{ "rocminfo", pasted_read_rocminfo, SIGNS("ROCk module", "Agent ") },
	{ "rocm-smi", pasted_read_rocm_smi, SIGNS("GPU["), PASTED_REACH_LINES },
	{ "torch-arch", pasted_read_torch_arch, NULL },
	{ "tf-build-info", pasted_read_tf_build_info, SIGNS("'is_cuda_build'") },
	{ "cudnn", pasted_read_cudnn, SIGNS("CUDNN_STATUS_") },
	{ "nccl", pasted_read_nccl, SIGNS("NCCL", "nccl", "Cuda failure ") },
	{ NULL },
};
