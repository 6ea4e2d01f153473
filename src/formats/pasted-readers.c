/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The readers gpuenv explain runs over pasted text, one line each (see pasted.h). */
#include "formats/pasted-errors.h"
#include "formats/pasted-readers.h"
#include "formats/pasted.h"

/* The error messages first: a command's output pasted with them states the same facts
 * (a driver version, the GPU) more completely, and the later fact for a path wins. */
const struct pasted_reader pasted_readers[] = {
	{ "errors", pasted_read_errors },
	{ "nvidia-smi", pasted_read_nvidia_smi },
	{ "collect-env", pasted_read_collect_env },
	{ "packages", pasted_read_packages },
	{ "toolkit", pasted_read_toolkit },
	{ "nvidia-version", pasted_read_nvidia_version },
	{ "kernel-log", pasted_read_kernel_log },
	{ "uname", pasted_read_uname },
	{ "os-release", pasted_read_os_release },
	{ "lsmod", pasted_read_lsmod },
	{ "mokutil", pasted_read_mokutil },
	{ "ldconfig", pasted_read_ldconfig },
	{ "ldd", pasted_read_ldd }, /* after ldconfig: the loader's answer for that shell wins */
	{ "env", pasted_read_env },
	{ "modinfo", pasted_read_modinfo },
	{ "lspci", pasted_read_lspci },
	{ "docker-info", pasted_read_docker_info },
	{ "rocminfo", pasted_read_rocminfo },
	{ "rocm-smi", pasted_read_rocm_smi },
	{ "torch-arch", pasted_read_torch_arch },
	{ "tf-build-info", pasted_read_tf_build_info },
	{ NULL, NULL },
};
