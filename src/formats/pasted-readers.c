/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The readers gpuenv explain runs over pasted text, one line each (see pasted.h), with the
 * words without which each reads nothing (its "signs": the lines it keys on, as its file
 * reads them; NULL where no word is needed, as for pip list's or env's lines). */
#include "formats/pasted-cudnn.h"
#include "formats/pasted-errors.h"
#include "formats/pasted-nccl.h"
#include "formats/pasted-readers.h"
#include "formats/pasted.h"

#define SIGNS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The error messages first: a command's output pasted with them states the same facts
 * (a driver version, the GPU) more completely, and the later fact for a path wins. */
const struct pasted_reader pasted_readers[] = {
	{ "errors", pasted_read_errors, NULL }, /* skips lines by its own needles */
	{ "nvidia-smi", pasted_read_nvidia_smi, NULL },
	{ "collect-env", pasted_read_collect_env, NULL },
	{ "packages", pasted_read_packages, NULL },
	{ "toolkit", pasted_read_toolkit,
	  SIGNS("Cuda compilation tools, release ", "CUDA Version ", "\"version\"") },
	{ "nvidia-version", pasted_read_nvidia_version, SIGNS("NVRM version:") },
	{ "kernel-log", pasted_read_kernel_log,
	  SIGNS("Linux version ", "NVRM: loading NVIDIA UNIX ") },
	{ "uname", pasted_read_uname, SIGNS("Linux ") },
	{ "os-release", pasted_read_os_release, NULL },
	{ "lsmod", pasted_read_lsmod, SIGNS("nvidia", "nouveau", "amdgpu") },
	{ "mokutil", pasted_read_mokutil,
	  SIGNS("SecureBoot enabled", "SecureBoot disabled", "Secure boot enabled",
		"Secure boot disabled") },
	{ "ldconfig", pasted_read_ldconfig, SIGNS(") => ") },
	/* after ldconfig: the loader's answer for that shell wins */
	{ "ldd", pasted_read_ldd, SIGNS(" => ") },
	{ "env", pasted_read_env, NULL },
	{ "modinfo", pasted_read_modinfo, SIGNS("filename") },
	{ "lspci", pasted_read_lspci, NULL },
	{ "docker-info", pasted_read_docker_info, SIGNS("Default Runtime: ") },
	{ "rocminfo", pasted_read_rocminfo, SIGNS("ROCk module", "Agent ") },
	{ "rocm-smi", pasted_read_rocm_smi, SIGNS("GPU[") },
	{ "torch-arch", pasted_read_torch_arch, NULL },
	{ "tf-build-info", pasted_read_tf_build_info, SIGNS("'is_cuda_build'") },
	{ "cudnn", pasted_read_cudnn, SIGNS("CUDNN_STATUS_") },
	{ "nccl", pasted_read_nccl, SIGNS("NCCL", "nccl", "Cuda failure ") },
	{ NULL, NULL, NULL },
};
