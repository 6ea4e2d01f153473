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

#include <stdbool.h>
#include <string.h>

#define SIGNS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The lines pasted_read_env() reads: "NAME=" in the first column, NAME of [A-Z0-9_], or a
 * shell command line setting variables after a prompt. */
static bool env_line(const char *p, size_t n)
{
	size_t k = 0;

	while (k < n &&
	       ((p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_'))
		k++;
	return (k > 0 && k < n && p[k] == '=') || pasted_env_after_prompt(p, n) > 0;
}

/* The lines pasted_read_os_release() reads: a capital in the first column and an '='. */
static bool os_release_line(const char *p, size_t n)
{
	return n > 1 && p[0] >= 'A' && p[0] <= 'Z' && memchr(p + 1, '=', n - 1);
}

/* Blanks as pasted_strip() skips them. */
static const char *skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f'))
		p++;
	return p;
}

/* The lines pasted_read_toolkit() reads besides its signs' (version.json's): a JSON object
 * opened (`"cuda" : {`) or closed, a quote or a brace first. */
static bool toolkit_line(const char *p, size_t n)
{
	const char *s = skip_blanks(p, p + n);

	return s < p + n && (*s == '"' || *s == '}');
}

/* The lines pasted_read_rocminfo() reads in an agent's block besides its signs' (ROCk
 * module, Agent N): the keys it keeps, first on the line. */
static bool rocminfo_line(const char *p, size_t n)
{
	const char *s = skip_blanks(p, p + n);
	size_t left = (size_t)(p + n - s);

	return (left >= 4 && (memcmp(s, "Name", 4) == 0 || memcmp(s, "Node", 4) == 0)) ||
	       (left >= 11 && memcmp(s, "Device Type", 11) == 0);
}

/* The GPU lines pasted_read_nvidia_smi_health() reads besides its signs' ("GPU 0000…"): "GPU "
 * and a hex digit first on the line, as a bus id whose domain is not 0000 starts. */
static bool nvidia_smi_gpu_line(const char *p, size_t n)
{
	const char *s = skip_blanks(p, p + n);

	return (size_t)(p + n - s) > 4 && memcmp(s, "GPU ", 4) == 0 &&
	       ((s[4] >= '0' && s[4] <= '9') || ((s[4] | 0x20) >= 'a' && (s[4] | 0x20) <= 'f'));
}

/* The lines pasted_read_windows() reads besides its signs': a drive path's ":\" (any, as a
 * PyTorch warning's "Triggered internally at C:\actions-runner\...", which the
 * pasted-dispatch fuzz target found left unread when the signs listed only some directories;
 * a sign is at least four bytes), and "C:/…" (Python's and CMake's form of a Windows path): a
 * letter, ":/" and a letter, the letter not inside a word ("http://", "https://" are not).
 * One walk over the line's ":" for both: a memchr for "\\" first cost every line a call more
 * (docs/explain.md). */
static bool windows_line(const char *p, size_t n)
{
	for (const char *q = p, *e = p + n; (q = memchr(q, ':', (size_t)(e - q))); q++)
		if (e - q > 1 && q[1] == '\\')
			return true;
		else if (q > p && e - q > 2 && q[1] == '/' &&
			 ((q[2] | 0x20) >= 'a' && (q[2] | 0x20) <= 'z') &&
			 ((q[-1] | 0x20) >= 'a' && (q[-1] | 0x20) <= 'z') &&
			 (q - 1 == p || !((q[-2] | 0x20) >= 'a' && (q[-2] | 0x20) <= 'z')))
			return true;
	return false;
}

/* The error messages first: a command's output pasted with them states the same facts
 * (a driver version, the GPU) more completely, and the later fact for a path wins. */
const struct pasted_reader pasted_readers[] = {
	{ "errors", pasted_read_errors, NULL, PASTED_REACH_LINES, pasted_errors_signs },
	{ "nvidia-smi", pasted_read_nvidia_smi, NULL },
	/* its report starts at one of these keys (pasted-collect-env.c starts_report) */
	{ "collect-env", pasted_read_collect_env,
	  SIGNS("PyTorch version", "Is debug build", "CUDA used to build PyTorch",
		"ROCM used to build PyTorch") },
	{ "packages", pasted_read_packages, NULL, PASTED_REACH_LINES, pasted_packages_signs },
	/* dpkg -l, apt list, rpm -qa, dnf list: the packages doctor reads from dpkg's status, each
	 * name holding one of these; dnf's headings (pasted-os-packages.c) */
	{ "os-packages", pasted_read_os_packages,
	  SIGNS("libze", "level-zero", "intel-opencl-icd", "nvidia-container", "amdgpu-dkms",
		"podman", "Installed Packages", "Installed packages", "Available Packages",
		"Available packages"),
	  PASTED_REACH_LINES },
	{ "toolkit", pasted_read_toolkit,
	  SIGNS("Cuda compilation tools, release ", "CUDA Version ", "\"version\""),
	  PASTED_REACH_LINES, NULL, toolkit_line },
	{ "nvidia-version", pasted_read_nvidia_version, SIGNS("NVRM version:", "GCC version:"),
	  PASTED_REACH_LINES },
	{ "kernel-log", pasted_read_kernel_log,
	  SIGNS("Linux version ", "NVRM: loading NVIDIA UNIX ", " is already bound to "),
	  PASTED_REACH_LINES },
	{ "uname", pasted_read_uname, SIGNS("Linux "), PASTED_REACH_LINES },
	{ "os-release", pasted_read_os_release, NULL, PASTED_REACH_LINES, NULL, os_release_line },
	/* hostnamectl's Kernel: and Operating System: fields, and those only it prints, which
	 * tell its Operating System: from docker info's (pasted-hostnamectl.c) */
	{ "hostnamectl", pasted_read_hostnamectl,
	  SIGNS("Kernel: ", "Operating System: ", "Static hostname: ", "Machine ID: ", "Boot ID: ",
		"Icon name: "),
	  PASTED_REACH_LINES },
	{ "lsmod", pasted_read_lsmod, SIGNS("nvidia", "nouveau", "amdgpu"), PASTED_REACH_LINES },
	/* mount, /proc/mounts, mountinfo, findmnt: the mount at /dev (pasted-mounts.c) */
	{ "mounts", pasted_read_mounts, SIGNS("/dev "), PASTED_REACH_LINES },
	{ "mokutil", pasted_read_mokutil,
	  SIGNS("SecureBoot enabled", "SecureBoot disabled", "Secure boot enabled",
		"Secure boot disabled"),
	  PASTED_REACH_LINES },
	{ "ldconfig", pasted_read_ldconfig, SIGNS(") => ", " libs found in cache `"),
	  PASTED_REACH_LINES },
	/* after ldconfig: the loader's answer for that shell wins */
	{ "ldd", pasted_read_ldd, SIGNS(" => "), PASTED_REACH_LINES },
	{ "env", pasted_read_env, NULL, PASTED_REACH_LINES, NULL, env_line },
	{ "modinfo", pasted_read_modinfo, SIGNS("filename"), PASTED_REACH_BLOCK },
	{ "lspci", pasted_read_lspci, NULL },
	{ "docker-info", pasted_read_docker_info,
	  SIGNS("Default Runtime: ", "Runtimes: ", "CDI spec directories:"), PASTED_REACH_BLOCK },
	/* docker context ls: the table from its header to an empty line; docker info's and docker
	 * version's Client section (its Context line) */
	{ "docker-context", pasted_read_docker_context, SIGNS("DOCKER ENDPOINT", "Client:"),
	  PASTED_REACH_BLOCK },
	{ "rocminfo", pasted_read_rocminfo, SIGNS("ROCk module", "Agent "), PASTED_REACH_LINES,
	  NULL, rocminfo_line },
	{ "rocm-smi", pasted_read_rocm_smi, SIGNS("GPU["), PASTED_REACH_LINES },
	/* ollama's server log: its ROCm's targets, a GPU it skips, its override, the GPUs it
	 * keeps, its version (pasted-ollama-log.c) */
	{ "ollama-log", pasted_read_ollama_log,
	  SIGNS("amdgpu is not supported (supported types:[",
		"skipping rocm gfx compatibility check", "msg=\"inference compute\"",
		"msg=\"Listening on ", "ollama version is "),
	  PASTED_REACH_LINES },
	/* a prompt or call and the answer under it; a list of quoted architectures */
	{ "torch-arch", pasted_read_torch_arch,
	  SIGNS("torch.__version__", "torch.version.cuda", "get_device_capability(",
		"get_device_name(", "'sm_", "\"sm_", "'compute_", "\"compute_", "'gfx", "\"gfx"),
	  PASTED_REACH_NEXT },
	{ "tf-build-info", pasted_read_tf_build_info, SIGNS("'is_cuda_build'") },
	{ "cudnn", pasted_read_cudnn, SIGNS("CUDNN_STATUS_"), PASTED_REACH_LINES },
	{ "nccl", pasted_read_nccl, SIGNS("NCCL", "nccl", "Cuda failure "), PASTED_REACH_LINES },
	/* a Windows paste's marks, and WSL1's kernel release (pasted-windows.c) */
	{ "windows", pasted_read_windows,
	  SIGNS("Microsoft Windows", "WDDM", " TCC", "\tTCC", "NVIDIA-SMI ", ".dll", "-Microsoft",
		"NVIDIA", "DriverVersion", "Driver Version", "Driver version", "Intel", "AMD ",
		"Radeon"),
	  PASTED_REACH_LINES, NULL, windows_line },
	/* why the kernel refused the NVIDIA module's signature (pasted-module-sig.c) */
	{ "module-sig", pasted_read_module_sig,
	  SIGNS("Key was rejected by service", "Required key not available",
		"Loading of unsigned module is rejected",
		"Loading of module with unavailable key is rejected",
		"PKCS#7 signature not signed with a trusted key", "Signing module ",
		"not signed by a key that is trusted", "Unable to load the kernel module 'nvidia",
		"Kernel module load error: ", "UEFI Secure Boot enabled",
		"(Answer: Install without signing)"),
	  PASTED_REACH_LINES },
	/* why a container lost or could not get its GPU's device cgroup: the unsure line and the
	 * line that decides it (pasted-container-cgroup.c) */
	{ "container-cgroup", pasted_read_container_cgroup,
	  SIGNS("Failed to initialize NVML: Unknown Error", "nvidia-container-cli",
		"systemctl daemon-reload", "systemd[1]: Reloading", "docker.sock", "rootless"),
	  PASTED_REACH_LINES },
	/* nvidia-smi -q's health sections, from their title (or the GPU line above them) to the
	 * first line back at its indentation, or an empty one (pasted-nvidia-smi-health.c ends
	 * a section there) */
	{ "nvidia-smi-health", pasted_read_nvidia_smi_health,
	  SIGNS("GPU 0000", "Remapped Rows", "Retired Pages", "Clocks Event Reasons",
		"Clocks Throttle Reasons", "Temperature", "GPU Link Info", "Replays Since Reset",
		"Replays since reset"),
	  PASTED_REACH_INDENTED, NULL, nvidia_smi_gpu_line },
	/* nvidia-smi nvlink -s: a GPU line and its link lines */
	{ "nvlink", pasted_read_nvlink, SIGNS(" (UUID: ", "<inactive>", " GB/s"),
	  PASTED_REACH_LINES },
	/* clinfo's platform count, or clGetPlatformIDs' "no ICD" error; a listing of ICD files;
	 * the platforms' names (clinfo, clinfo -l, the miners' "CL Platform N name: ") and the
	 * miners' count of each one's GPU devices ("Platform N devices: M", "Error -1: Getting
	 * Device IDs (num)") */
	{ "clinfo", pasted_read_clinfo,
	  SIGNS("Number of platforms", "CL_PLATFORM_NOT_FOUND_KHR", "-1001", ".icd",
		"Platform Name", "Platform #", "CL Platform ",
		" devices: ", "Error -1: Getting Device IDs"),
	  PASTED_REACH_LINES },
	/* torch.utils.cpp_extension's CUDA check, its second line after it */
	{ "torch-ext", pasted_read_torch_ext, SIGNS("The detected CUDA version ("),
	  PASTED_REACH_NEXT },
	/* JAX's check of its CUDA libraries in the multi-line wording (pasted-jax-check.c) */
	{ "jax-check", pasted_read_jax_check,
	  SIGNS("Outdated ",
		"Version JAX was built against: ", "Minimum supported: ", "Installed version: "),
	  PASTED_REACH_LINES },
	/* TensorFlow's and XLA's lines naming a GPU's compute capability (pasted-tf-device.c) */
	{ "tf-device", pasted_read_tf_device,
	  SIGNS("(device: ", "Found device ", " computeCapability: ", "major: ",
		"TensorFlow was not built with CUDA kernel binaries", "ptxas does not support CC "),
	  PASTED_REACH_LINES },
	/* the kernel's report of a task stuck in D state and its call trace, to the next empty
	 * line (pasted-hung-task.c ends a report there) */
	{ "hung-task", pasted_read_hung_task, SIGNS("blocked for more than", " state:D"),
	  PASTED_REACH_BLOCK },
	/* nvidia-smi -mig's warning for a MIG mode change left pending (pasted-nvidia-smi-mig.c) */
	{ "nvidia-smi-mig", pasted_read_nvidia_smi_mig, SIGNS("MIG mode is in pending "),
	  PASTED_REACH_LINES },
	{ NULL },
};
