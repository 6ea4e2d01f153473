// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-errors: the "errors" reader over messages as users pasted them in public bug
 * reports (each quoted exactly, its URL above it), and every rule id it names is a rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-errors.h"
#include "formats/pasted.h"
#include "rules/rules.h"

static struct pasted_facts f;

static void read_text(const char *text)
{
	pasted_facts_done(&f);
	assert_true(pasted_read_errors(text, strlen(text), &f) > 0);
}

/* The facts read from text that may hold none. */
static int read_count(const char *text)
{
	pasted_facts_done(&f);
	return pasted_read_errors(text, strlen(text), &f);
}

static void want(const char *path, const char *value, unsigned line)
{
	const struct pasted_fact *x = pasted_facts_get(&f, path);

	if (!x)
		fail_msg("no fact %s", path);
	assert_string_equal(x->value, value);
	assert_int_equal(x->line, line);
	assert_string_equal(x->reader, "errors");
}

static void want_symptom(const char *rule, unsigned line)
{
	char path[128];
	const struct pasted_fact *x;

	snprintf(path, sizeof(path), "symptoms.%s", rule);
	x = pasted_facts_get(&f, path);
	if (!x)
		fail_msg("no symptom of %s", rule);
	assert_int_equal(x->line, line);
	assert_false(x->failed);
}

static void test_torch_capability(void **state)
{
	/* https://github.com/meituan/YOLOv6/issues/350 */
	read_text(".venv/lib/python3.7/site-packages/torch/cuda/__init__.py:146: UserWarning: \n"
		  "NVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not "
		  "compatible with the current PyTorch installation.\n"
		  "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 "
		  "sm_70.\n"
		  "If you want to use the NVIDIA GeForce RTX 3080 Laptop GPU GPU with PyTorch, "
		  "please check the instructions at https://pytorch.org/get-started/locally/\n");
	(void)state;
	want("driver.cuda.devices.0.compute_capability", "8.6", 2);
	want("driver.cuda.devices.0.name", "NVIDIA GeForce RTX 3080 Laptop GPU", 2);
	want("framework.python_envs.0.packages.torch.arch_targets.0.target", "sm_37", 3);
	want("framework.python_envs.0.packages.torch.arch_targets.3.target", "sm_70", 3);
	assert_null(pasted_facts_get(&f, "framework.python_envs.0.packages.torch.arch_targets.4."
					 "target"));
	want_symptom("framework.no-kernel-image", 2);
	/* https://github.com/bismex/MetaBIN/issues/15: compute_37 too; sm_120 (RTX 50xx)
	 * https://github.com/lmoe/wyoming-xtts/issues/1 */
	read_text("The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 "
		  "sm_70 sm_75 compute_37.\n"
		  "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with "
		  "the current PyTorch installation.\n");
	want("framework.python_envs.0.packages.torch.arch_targets.6.target", "compute_37", 1);
	want("driver.cuda.devices.0.compute_capability", "12.0", 2);
}

static void test_no_kernel_image(void **state)
{
	(void)state;
	read_text("RuntimeError: CUDA error: no kernel image is available for execution on the "
		  "device\n");
	want_symptom("framework.no-kernel-image", 1);
	read_text("Error: cudaErrorNoKernelImageForDevice\n");
	want_symptom("framework.no-kernel-image", 1);
	read_text("CUDA error 209 at foo.cu:12\n");
	want_symptom("framework.no-kernel-image", 1);
}

static void test_driver_too_old(void **state)
{
	(void)state;
	/* https://github.com/lllyasviel/Fooocus/issues/1313 */
	read_text("RuntimeError: The NVIDIA driver on your system is too old (found version "
		  "11040). Please update your GPU driver by downloading and installing a new "
		  "version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, "
		  "go to: https://pytorch.org to install a PyTorch version that has been compiled "
		  "with your version of the CUDA driver.\n");
	want("driver.cuda.driver_version", "11.4", 1);
	want_symptom("framework.cuda-newer-than-driver", 1);
	/* https://github.com/rikdz/GraphWriter/issues/6: CUDA 6.5 */
	read_text("The NVIDIA driver on your system is too old (found version 6050).\n");
	want("driver.cuda.driver_version", "6.5", 1);
}

static void test_nvml(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	/* https://github.com/lyulyul/shine-cluster/issues/30 */
	read_text("$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n");
	want_symptom("driver.nvml-version-mismatch", 2);
	x = pasted_facts_get(&f, "driver.nvml.init");
	assert_non_null(x);
	assert_true(x->failed);
	assert_string_equal(x->value,
			    "Driver/library version mismatch (NVML_ERROR_LIB_RM_VERSION_MISMATCH)");
}

/* nvmlInit's NVML_ERROR_DRIVER_NOT_LOADED: nvidia-smi's "Failed to initialize NVML: %s" with
 * nvmlErrorString()'s text; pynvml's exception for it (https://github.com/wookayin/gpustat/
 * issues/110, whose thread found the module not loaded after a kernel upgrade). */
static void test_nvml_driver_not_loaded(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	read_text("$ nvidia-smi\nFailed to initialize NVML: Driver Not Loaded\n");
	want_symptom("driver.module-not-loaded", 2);
	x = pasted_facts_get(&f, "driver.nvml.init");
	assert_non_null(x);
	assert_true(x->failed);
	assert_string_equal(x->value, "Driver Not Loaded (NVML_ERROR_DRIVER_NOT_LOADED)");
	read_text("    raise NVMLError(ret)\n"
		  "pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded\n");
	want_symptom("driver.module-not-loaded", 2);
	/* any NVML call may raise it: no nvmlInit fact from pynvml's words */
	assert_null(pasted_facts_get(&f, "driver.nvml.init"));
}

static void test_kernel_log(void **state)
{
	(void)state;
	/* https://github.com/ublue-os/bazzite/issues/2668 */
	read_text("[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but\n"
		  "               NVRM: this kernel module has the version 570.144.  Please\n"
		  "               NVRM: make sure that this kernel module and all NVIDIA driver\n"
		  "               NVRM: components have the same version.\n");
	want("driver.kernel_log.api_mismatch.client_version", "570.153.02", 1);
	want("driver.kernel_log.api_mismatch.kernel_version", "570.144", 1);
	want_symptom("driver.nvml-version-mismatch", 1);
	/* the facts' line is the kernel message's, not an earlier line's words */
	read_text("Driver/library API mismatch? dmesg says:\n"
		  "[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but\n"
		  "               NVRM: this kernel module has the version 570.144.  Please\n");
	want("driver.kernel_log.api_mismatch.client_version", "570.153.02", 2);
	/* https://github.com/NVIDIA/NVSentinel/issues/155 */
	read_text("x\nNVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus\n");
	want("driver.xid_events.0.code", "79", 2);
	want("driver.xid_events.0.bus_id", "0000:44:00", 2);
	want_symptom("driver.xid-errors", 2);
	want_symptom("hardware.pcie-link-down", 2);
}

/* The kernel's Xid lines for the GPU's memory name the memory rules as well as the Xid rule;
 * the same words outside an NVRM Xid line (a user's sentence) name none. */
static void test_kernel_log_memory_errors(void **state)
{
	(void)state;
	/* https://github.com/NVIDIA/nvidia-docker/issues/849 (driver 390.30, pre-Ampere) */
	read_text("[Mon Oct 29 12:07:39 2018] NVRM: Xid (PCI:0000:8a:00): 48, An uncorrectable "
		  "double bit error (DBE) has been detected on GPU in the framebuffer at partition "
		  "4, subpartition 1.\n"
		  "[Mon Oct 29 12:07:40 2018] NVRM: Xid (PCI:0000:8a:00): 63, Dynamic Page "
		  "Retirement: New page retired, reboot to activate (0x00000000002ce8ac).\n");
	want_symptom("hardware.ecc-uncorrectable", 1);
	want_symptom("hardware.retired-pages-pending", 2);
	want_symptom("driver.xid-errors", 2);
	want("driver.xid_events.1.code", "63", 2);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.row-remap-pending"));
	/* the R470+ form with the process (https://github.com/NVIDIA/gpu-operator/issues/1146) */
	read_text("Dec  2 10:43:35 worker4 kernel: [240314.528856] NVRM: Xid (PCI:0000:07:00): 48, "
		  "pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has "
		  "been detected on GPU in the framebuffer at physAddr 0x7fdd60000 partition 3, "
		  "subpartition 0.\n");
	want_symptom("hardware.ecc-uncorrectable", 1);
	/* Ampere's Xid 63 is a row remapping, not a page retirement (the message as
	 * stas00/ml-engineering's compute/accelerator/nvidia/debug.md quotes it; the time and
	 * bus are illustrative) */
	read_text("[ 4223.116204] NVRM: Xid (PCI:0000:9c:00): 63, pid='<unknown>', "
		  "name=<unknown>, Row Remapper: New row marked for remapping, reset gpu to "
		  "activate.\n");
	want_symptom("hardware.row-remap-pending", 1);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.retired-pages-pending"));
	/* Xid 64 from Ampere on: a row the remapper could not take, and a DRAM retirement that
	 * failed (the messages as NVIDIA's open GPU kernel driver formats them,
	 * ECC_ROW_REMAPPING_FAILURE_TABLE_FULL / ECC_DRAM_RETIREMENT_FAILURE_NO_SPARE; the time,
	 * bus and address are illustrative): a failed remapping, and an Xid */
	read_text("[ 5120.331870] NVRM: Xid (PCI:0000:3b:00): 64, pid='<unknown>', "
		  "name=<unknown>, Row Remapper Error: (0x00000003fdf5e000) - Row Remapping "
		  "table is full\n"
		  "[ 5120.331902] NVRM: Xid (PCI:0000:3b:00): 64, pid='<unknown>', "
		  "name=<unknown>, DRAM Retirement failed due to no spare for retirement at "
		  "0x00000003fdf5e000\n");
	want_symptom("hardware.row-remap-failed", 2);
	want_symptom("driver.xid-errors", 2);
	want("driver.xid_events.0.code", "64", 2);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.row-remap-pending"));
	/* before Ampere a page that could not be retired has no rule of its own: the Xid's */
	read_text("NVRM: Xid (PCI:0000:8a:00): 64, Dynamic Page Retirement: Fatal error, unable "
		  "to retire page (0x00000000002ce8ac).\n");
	want_symptom("driver.xid-errors", 1);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.row-remap-failed"));
	assert_null(pasted_facts_get(&f, "symptoms.hardware.retired-pages-pending"));
	/* words quoted in prose are no kernel record */
	assert_int_equal(read_count("the log said Dynamic Page Retirement: New page retired and "
				    "An uncorrectable double bit error (DBE) has been detected\n"),
			 0);
	assert_int_equal(read_count("we saw Row Remapper Error: (0x1) and DRAM Retirement failed "
				    "due to HW limit\n"),
			 0);
}

/* DCGM's verdicts on the GPU's health name the rule of the state DCGM measured: the messages
 * are NVIDIA/DCGM's dcgmlib/dcgm_errors.h format strings (DCGM_FR_*_MSG) with the GPU id and
 * counts filled in (illustrative), as dcgmi health -j, nv-hostengine's log and the exporters
 * carry them on one line. */
static void test_dcgm_health_messages(void **state)
{
	(void)state;
	/* DCGM_FR_PCI_REPLAY_RATE, with its DCGM_FR_PCI_REPLAY_RATE_NEXT */
	read_text("\"msg\" : \"Detected more than 8 PCIe replays per minute for GPU 1 : 99999 "
		  "Reconnect PCIe card. Run system side PCIE diagnostic utilities to verify hops "
		  "off the GPU board. If issue is on the board, run the field diagnostic.\"\n");
	want_symptom("hardware.pcie-replays", 1);
	/* DCGM_FR_PENDING_PAGE_RETIREMENTS */
	read_text("PCIe system: Pass\n"
		  "Memory system: Warning - A pending retired page has been detected in GPU 0.\n");
	want_symptom("hardware.retired-pages-pending", 2);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.ecc-uncorrectable"));
	/* DCGM_FR_DBE_PENDING_PAGE_RETIREMENTS: the DBE is the fault, the pages follow */
	read_text("Pending page retirements together with a DBE were detected on GPU 2.\n");
	want_symptom("hardware.ecc-uncorrectable", 1);
	want_symptom("hardware.retired-pages-pending", 1);
	/* DCGM_FR_ROW_REMAP_FAILURE and DCGM_FR_PENDING_ROW_REMAP */
	read_text("GPU 3 had uncorrectable memory errors and row remapping failed.\n"
		  "GPU 4 had memory errors and row remappings are pending\n");
	want_symptom("hardware.row-remap-failed", 1);
	want_symptom("hardware.row-remap-pending", 2);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.ecc-uncorrectable"));
	/* DCGM_FR_UNCORRECTABLE_ROW_REMAP: rows remapped, nothing failed or pending */
	assert_int_equal(read_count("GPU 0 had uncorrectable memory errors and 2 rows were "
				    "remapped\n"),
			 0);
	/* DCGM_FR_PCIE_WIDTH compares against its own configured minimum, not the GPU's
	 * capability (an instance wired x8 by design fails it, aws/aws-k8s-tester#806) */
	assert_int_equal(read_count("GPU 0 is running at PCI link width 8X, which is below the "
				    "minimum allowed link generation of 16 (parameter "
				    "'min_pci_width')\n"),
			 0);
}

/* nv.c's "fallen off the bus" message is one printk of three lines: read joined, at its first
 * line, as dmesg/journalctl indent it and as syslog repeats the prefix; never across two
 * messages. */
static void test_kernel_message_wrapped(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	/* https://github.com/NVIDIA/NVSentinel/issues/155 */
	read_text("[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
		  "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
		  "               NVRM: fallen off the bus and is not responding to commands.\n"
		  "[ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).\n");
	want_symptom("hardware.pcie-link-down", 1);
	x = pasted_facts_get(&f, "symptoms.hardware.pcie-link-down");
	assert_string_equal(x->value, "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0 (PCI ID: "
				      "10de:26b5) installed in this system has fallen off the bus "
				      "and is not responding to commands.");
	/* the same record through rsyslog (each line carries the record's prefix) */
	read_text(
		"Jan  3 07:39:45 ubuntu kernel: [17257.355375] NVRM: The NVIDIA GPU 0000:5d:00.0\n"
		"Jan  3 07:39:45 ubuntu kernel: [17257.355375] NVRM: (PCI ID: 10de:2330) installed "
		"in this system has\n"
		"Jan  3 07:39:45 ubuntu kernel: [17257.355375] NVRM: fallen off the bus and is "
		"not responding to commands.\n");
	want_symptom("hardware.pcie-link-down", 1);
	/* two records (their own timestamps) are not one message */
	assert_int_equal(read_count("[ 1.000001] NVRM: GPU 0000:01:00.0 installed in this system "
				    "has\n[ 2.000002] NVRM: fallen off the bus\n"),
			 0);
	/* a sentence ended: the next NVRM line is another message */
	assert_int_equal(read_count("NVRM: installed in this system has.\n"
				    "NVRM: fallen off the bus\n"),
			 0);
}

/* nv.c's refusal of a GPU its release does not know, as the kernel-log probe reads it, the
 * GPU it names, and the module absent when every GPU was refused and none loaded after. */
static void test_gpu_refused_by_release(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	/* https://github.com/ZaidQureshi/bam/issues/38 */
	read_text("[  422.450961] NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)\n"
		  "               NVRM: installed in this system is not supported by the\n"
		  "               NVRM: NVIDIA 470.256.02 driver release.\n"
		  "[  422.451145] nvidia: probe of 0000:8a:00.0 failed with error -1\n"
		  "[  422.451178] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
		  "[  422.451179] NVRM: None of the NVIDIA devices were initialized.\n"
		  "[  422.737854] NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)\n"
		  "               NVRM: installed in this system is not supported by the\n"
		  "               NVRM: NVIDIA 470.256.02 driver release.\n");
	want("driver.kernel_log.unsupported_gpus.0.bus_id", "0000:8a:00.0", 1);
	want("driver.kernel_log.unsupported_gpus.0.pci_id", "10de:26b9", 1);
	want("driver.kernel_log.unsupported_gpus.0.driver_version", "470.256.02", 1);
	want("driver.kernel_log.unsupported_gpus.0.count", "2", 1);
	want("hardware.gpus.0.bus_id", "0000:8a:00.0", 1);
	want("hardware.gpus.0.vendor_id", "0x10de", 1);
	want("hardware.gpus.0.device_id", "0x26b9", 1);
	x = pasted_facts_get(&f, "driver.nvidia.module_version");
	assert_non_null(x);
	assert_true(x->absent);
	assert_int_equal(x->line, 6);
	assert_non_null(pasted_facts_get(&f, "driver.nvidia.proc_version"));
	/* #38's message, then a module loaded after it (another release installed): not absent */
	read_text(
		"[ 10.1] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2684)\n"
		"        NVRM: installed in this system is not supported by the\n"
		"        NVRM: NVIDIA 470.199.02 driver release.\n"
		"[ 10.2] NVRM: None of the NVIDIA devices were initialized.\n"
		"[ 90.3] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22\n");
	want("driver.kernel_log.unsupported_gpus.0.driver_version", "470.199.02", 1);
	assert_null(pasted_facts_get(&f, "driver.nvidia.module_version"));
	/* #38's message for one GPU with no "None of …" (another GPU initialized): the module may
	 * be loaded */
	read_text("NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2684)\n"
		  "NVRM: installed in this system is not supported by the\n"
		  "NVRM: NVIDIA 470.199.02 driver release.\n"
		  "NVRM: The NVIDIA probe routine failed for 1 device(s).\n");
	want("hardware.gpus.0.device_id", "0x2684", 1);
	assert_null(pasted_facts_get(&f, "driver.nvidia.module_version"));
	/* https://github.com/NVIDIA/open-gpu-kernel-modules/issues/587: the open module's GSP
	 * refusal names no release: nothing read as a release refusal */
	pasted_facts_done(&f);
	pasted_read_errors("NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2331)\n"
			   "NVRM: installed in this system is not supported by open\n"
			   "NVRM: nvidia.ko because it does not include the required GPU\n"
			   "NVRM: System Processor (GSP).\n",
			   strlen("NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2331)\n"
				  "NVRM: installed in this system is not supported by open\n"
				  "NVRM: nvidia.ko because it does not include the required GPU\n"
				  "NVRM: System Processor (GSP).\n"),
			   &f);
	assert_null(pasted_facts_get(&f, "driver.kernel_log.unsupported_gpus.0.bus_id"));
	assert_null(pasted_facts_get(&f, "hardware.gpus.0.bus_id"));
}

static void test_other_messages(void **state)
{
	(void)state;
	/* https://github.com/google-research/deeplab2/issues/66 */
	read_text("2021-10-13 17:19:29.385716: E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] "
		  "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.  CuDNN "
		  "library needs to have matching major version and equal or higher minor "
		  "version.\n");
	want("framework.python_envs.0.packages.tensorflow.cudnn.version", "8.0.4", 1);
	want("framework.python_envs.0.packages.tensorflow.build_info.cudnn_version", "8.1.0", 1);
	want_symptom("runtime.cudnn-older-than-framework", 1);
	/* JAX's own check, both libraries it is read for: jax-ml/jax#18027 (CUDA runtime 12.1
	 * under a jaxlib built with 12.2) and MIT-REALM/gcbfplus#1 (cuDNN 8.6.0 under 8.9.6) */
	read_text(
		"CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built "
		"against version 12020, which is newer. The copy of CUDA that is installed must be "
		"at least as new as the version against which JAX was built. (Set "
		"TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n");
	want("framework.python_envs.0.packages.jax.cudart.version", "12.1", 1);
	want("framework.python_envs.0.packages.jax.build_info.cuda_version", "12.2", 1);
	want_symptom("runtime.cudart-older-than-framework", 1);
	read_text(
		"CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built "
		"against version 8906, which is newer. The copy of cuDNN that is installed must be "
		"at least as new as the version against which JAX was built.\n");
	want("framework.python_envs.0.packages.jax.cudnn.version", "8.6.0", 1);
	want("framework.python_envs.0.packages.jax.build_info.cudnn_version", "8.9.6", 1);
	want_symptom("runtime.cudnn-older-than-framework", 1);
	assert_null(pasted_facts_get(&f, "framework.python_envs.0.packages.jax.cudart.version"));
	/* cuDNN 9's number (cudnn_version.h: 10000 * major): 9.1.0 under 9.3.0 */
	read_text("Found cuDNN version 90100, but JAX was built against version 90300, which is "
		  "newer.\n");
	want("framework.python_envs.0.packages.jax.cudnn.version", "9.1.0", 1);
	want("framework.python_envs.0.packages.jax.build_info.cudnn_version", "9.3.0", 1);
	/* cuBLAS's check (jax-ml/jax#19430): no rule judges it, nothing read as CUDA or cuDNN */
	(void)read_count("CUDA backend failed to initialize: Found cuBLAS version 120103, but "
			 "JAX was built against version 120205, which is newer.\n");
	assert_null(pasted_facts_get(&f, "framework.python_envs.0.packages.jax.cudart.version"));
	assert_null(pasted_facts_get(&f, "framework.python_envs.0.packages.jax.cudnn.version"));
	assert_null(pasted_facts_get(&f, "symptoms.runtime.cudart-older-than-framework"));
	/* nvJitLink's refusal of newer LTO-IR (Genesis-Embodied-AI/genesis-world#2814, diagnosed
	 * in gs-madrona#59: CUDA 13's NVRTC wrote it, nvJitLink 12 linked it) */
	read_text("CUDA linking Failed!\nERROR 4 in nvvmAddNVVMContainerToProgram, may need newer "
		  "version of nvJitLink library\n");
	want_symptom("framework.ltoir-needs-newer-nvjitlink", 2);
	/* https://github.com/tensorflow/tensorflow/issues/39842 (TF 2.0) */
	read_text("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
		  "dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
		  "shared object file: No such file or directory\n");
	want_symptom("runtime.library-not-found", 1);
	/* https://github.com/AILab-CVC/Make-Your-Video/issues/4: cuDNN's own words, alone */
	read_text("Error: Could not load library libcudnn_cnn_infer.so.8\n");
	want_symptom("runtime.library-not-found", 1);
	/* the Windows forms: https://github.com/pytorch/pytorch/issues/46312 (a DLL the nightly
	 * wheel left out), vladmandic/sdnext#1756 */
	read_text("Could not load library cudnn_ops_infer64_8.dll. Error code 126\n"
		  "Please make sure cudnn_ops_infer64_8.dll is in your library path!\n");
	want_symptom("runtime.library-not-found", 1);
	read_text("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your "
		  "library path!\n");
	want_symptom("runtime.library-not-found", 1);
	/* https://github.com/tensorflow/nmt/issues/212: TensorFlow 1.x's self-check on Windows */
	read_text("ImportError: Could not find 'cudart64_80.dll'. TensorFlow requires that this "
		  "DLL be installed in a directory that is named in your %PATH% environment "
		  "variable. Download and install CUDA 8.0 from this URL: "
		  "https://developer.nvidia.com/cuda-toolkit\n");
	want_symptom("runtime.library-not-found", 1);
	/* TensorFlow 1.3's wording, wrapped (https://github.com/tensorflow/tensorflow/issues/13837) */
	read_text("- Could not load 'cudart64_80.dll'. The GPU version of TensorFlow\n"
		  "  requires that this DLL be installed in a directory that is named in\n"
		  "  your %PATH% environment variable. Download and install CUDA 8.0 from\n");
	want_symptom("runtime.library-not-found", 2);
	/* the container hook without the driver's NVML: no driver on the host, or WSL2 without
	 * GPU paravirtualization (https://github.com/AbdBarho/stable-diffusion-webui-docker/issues/129) */
	read_text("nvidia-container-cli: initialization error: load library failed: "
		  "libnvidia-ml.so.1: cannot open shared object file: no such file or directory: "
		  "unknown\n");
	want_symptom("unsure.driver.module-not-loaded", 1);
	want_symptom("unsure.driver.wsl-no-gpu-paravirtualization", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.library-not-found"));
	/* the driver's own DLL: no NVIDIA driver at all, not a runtime library (tensorflow#13442) */
	assert_int_equal(read_count("Could not find 'nvcuda.dll'. TensorFlow requires that this "
				    "DLL be installed in a directory that is named in your %PATH% "
				    "environment variable. Typically it is installed in "
				    "'C:\\Windows\\System32'.\n"),
			 0);
	/* https://github.com/NVIDIA/nvidia-docker/issues/1352 */
	read_text("docker: Error response from daemon: could not select device driver \"\" with "
		  "capabilities: [[gpu]].\n");
	want_symptom("container.no-nvidia-runtime", 1);
	/* https://github.com/lwfinger/rtlwifi_new/issues/175 words the same kmod message */
	read_text("modprobe: ERROR: could not insert 'nvidia': Required key not available\n");
	/* an unsigned module and an untrusted key are refused alike: it asks */
	want_symptom("unsure.driver.secure-boot-unsigned-module", 1);
	want_symptom("unsure.driver.secure-boot-key-not-enrolled", 1);
	assert_null(pasted_facts_get(&f, "symptoms.driver.secure-boot-unsigned-module"));
	/* https://github.com/NVIDIA/gpu-operator/issues/266: nvidia-installer's reason, the same
	 * for both kinds */
	read_text("Building kernel modules\n\nERROR: The kernel module failed to load, because it "
		  "was not signed by a key that is trusted by the kernel. Please try installing "
		  "the driver again, and sign the kernel module when prompted to do so.\n");
	want_symptom("unsure.driver.secure-boot-unsigned-module", 3);
	want_symptom("unsure.driver.secure-boot-key-not-enrolled", 3);
	/* amdkfd without a node for the GPU (ROCm/legacy-rocm-build#1318), i915's GuC
	 * (thesofproject/sof-test#767), ROCr's version check (ROCm/legacy-rocm-build#1583) */
	read_text("[    2.244241] kfd kfd: DID 7340 is missing in supported_devices\n"
		  "[    5.289539] kernel: i915 0000:00:02.0: GuC initialization failed -2\n"
		  "HSA Error:  Incompatible kernel and userspace, Vega 20 WKS GL-XE [Radeon Pro "
		  "VII] disabled. Upgrade amdgpu.\n"
		  "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate "
		  "the necessary resources.\n");
	want_symptom("driver.amdgpu-no-kfd", 1);
	want_symptom("driver.intel-firmware-failed", 2);
	want_symptom("driver.amdgpu-kmd-userspace", 3);
	want_symptom("unsure.driver.amdgpu-no-kfd", 4);
	want_symptom("unsure.driver.no-permission", 4);
	read_text("bash: nvidia-smi: command not found\n");
	want_symptom("unsure.driver.module-not-loaded", 1);
	want_symptom("unsure.runtime.no-driver-for-toolkit", 1);
	want_symptom("unsure.container.no-gpu-devices", 1);
	assert_null(pasted_facts_get(&f, "symptoms.driver.module-not-loaded"));
	/* Ubuntu's command-not-found (Qengineering/Jetson-Nano-Ubuntu-20-image#80) */
	read_text(
		"Command 'nvidia-smi' not found, but can be installed with:\n\n"
		"sudo apt install nvidia-utils-525         # version 525.147.05-0ubuntu0.20.04.1, "
		"or\n");
	want_symptom("unsure.driver.module-not-loaded", 1);
	want_symptom("unsure.container.no-gpu-devices", 1);
	read_text("cudaErrorCompatNotSupportedOnDevice: forward compatibility was attempted on non "
		  "supported HW\nCUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE\n");
	want_symptom("runtime.cuda-compat-unsupported", 2);
	assert_true(pasted_facts_get(&f, "driver.cuda.init")->failed);
	want("driver.cuda.init", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)", 2);
	read_text("CUDA_ERROR_UNSUPPORTED_PTX_VERSION\n");
	want_symptom("framework.ptx-too-new-for-driver", 1);
	read_text("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime "
		  "version (35)\n");
	want_symptom("runtime.toolkit-needs-newer-driver", 1);
	read_text("cudaErrorStubLibrary\n");
	want_symptom("runtime.stub-libcuda", 1);
	/* Slurm's gres.c on an AutoDetect= value it does not know
	 * (SlinkyProject/slurm-operator#57: AutoDetect=amdgpu) */
	read_text("[2025-10-03T10:12:01.000] error: unknown autodetect flag 'amdgpu'\n");
	want_symptom("runtime.slurm-autodetect-unknown", 1);
}

static void test_nothing_guessed(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	/* numbers without CUDA or an error context are not codes */
	static const char t[] = "Epoch 209 loss 35.0\nerror 804 in module foo\n"
				"The NVIDIA driver on your system is too old (found version x)\n";
	assert_int_equal(pasted_read_errors(t, sizeof(t) - 1, &f), 1);
	assert_null(pasted_facts_get(&f, "driver.cuda.driver_version"));
	assert_null(pasted_facts_get(&f, "symptoms.framework.no-kernel-image"));
}

/* CUDA_ERROR_SYSTEM_NOT_READY (802): Fabric Manager not running at the driver's version on an
 * NVSwitch system. Only the driver name says cuInit answered it (driver.cuda.init, which
 * driver.system-not-ready reads); the runtime's name, the number and the message alone are
 * its symptom. */
static void test_system_not_ready(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	/* https://github.com/jax-ml/jax/issues/24866 (XLA's words) */
	read_text(
		"E external/xla/xla/stream_executor/cuda/cuda_driver.cc:152] failed call to cuInit: "
		"INTERNAL: CUDA error: Failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system "
		"not yet initialized\n");
	want_symptom("driver.system-not-ready", 1);
	x = pasted_facts_get(&f, "driver.cuda.init");
	assert_non_null(x);
	assert_true(x->failed);
	want("driver.cuda.init", "CUDA_ERROR_SYSTEM_NOT_READY (802)", 1);
	/* https://github.com/dstackai/dstack/issues/2348 (torch: the runtime's number) */
	read_text(
		"UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did "
		"you run some cuda functions before calling NumCudaDevices() that might have "
		"already set an error? Error 802: system not yet initialized\n");
	want_symptom("driver.system-not-ready", 1);
	assert_null(pasted_facts_get(&f, "driver.cuda.init"));
	/* https://github.com/pytorch/pytorch/issues/35710 (the bandwidthTest sample) */
	read_text("cudaGetDeviceProperties returned 802\n-> system not yet initialized\n"
		  "CUDA error at bandwidthTest.cu:256 code=802(cudaErrorSystemNotReady) "
		  "\"cudaSetDevice(currentDevice)\"\n");
	assert_non_null(pasted_facts_get(&f, "symptoms.driver.system-not-ready"));
	assert_null(pasted_facts_get(&f, "driver.cuda.init"));
	/* https://github.com/ollama/ollama/issues/12136 (ggml: the message alone) */
	read_text("ggml_cuda_init: failed to initialize CUDA: system not yet initialized\n");
	want_symptom("driver.system-not-ready", 1);
	assert_null(pasted_facts_get(&f, "driver.cuda.init"));
	/* 802 that is no CUDA error code */
	assert_int_equal(read_count("Epoch 802 loss 0.5\nHTTP error 802 from proxy\n"), 0);
	pasted_facts_done(&f);
}

/* PyTorch's "Found no NVIDIA driver" is printed with or without an NVIDIA GPU: its causes are
 * recorded as unsure, never as a rule's symptom. */
static void test_found_no_driver_unsure(void **state)
{
	const struct pasted_fact *x;

	(void)state;
	read_text(
		"RuntimeError: Found no NVIDIA driver on your system. Please check that you have "
		"an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n");
	assert_null(pasted_facts_get(&f, "symptoms.driver.module-not-loaded"));
	assert_null(pasted_facts_get(&f, "symptoms.hardware.no-gpu"));
	x = pasted_facts_get(&f, "symptoms.unsure.driver.module-not-loaded");
	assert_non_null(x);
	assert_int_equal(x->line, 1);
	assert_non_null(pasted_facts_get(&f, "symptoms.unsure.hardware.no-gpu"));
	assert_non_null(pasted_facts_get(&f, "symptoms.unsure.runtime.no-driver-for-toolkit"));
	pasted_facts_done(&f);
}

/* CUDA error 803 is a libcuda of another version than the loaded module: the driver's own
 * after an upgrade (driver.nvml-version-mismatch) or a cuda-compat libcuda on the loader path
 * (ggml-org/llama.cpp#17542, gpustack/gpustack#4678): by its message or its number alone both
 * are unsure, and NVML's own mismatch line still names the driver's. */
static void test_driver_mismatch_803_unsure(void **state)
{
	(void)state;
	read_text("ggml_cuda_init: failed to initialize CUDA: system has unsupported display "
		  "driver / cuda driver combination\n");
	assert_null(pasted_facts_get(&f, "symptoms.driver.nvml-version-mismatch"));
	assert_null(pasted_facts_get(&f, "symptoms.runtime.cuda-compat-unsupported"));
	want_symptom("unsure.driver.nvml-version-mismatch", 1);
	want_symptom("unsure.runtime.cuda-compat-unsupported", 1);
	read_text("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda "
		  "functions before calling NumCudaDevices() that might have already set an error? "
		  "Error 803: system has unsupported display driver / cuda driver combination\n");
	assert_null(pasted_facts_get(&f, "symptoms.driver.nvml-version-mismatch"));
	want_symptom("unsure.runtime.cuda-compat-unsupported", 1);
	read_text("cuInit failed: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH\n"
		  "Failed to initialize NVML: Driver/library version mismatch\n");
	want_symptom("unsure.runtime.cuda-compat-unsupported", 1);
	want_symptom("driver.nvml-version-mismatch", 2);
	pasted_facts_done(&f);
}

/* pytorch/pytorch#135867 (the Level Zero loader: its own rule, not also library-not-found),
 * NVIDIA/nvidia-container-toolkit#450 (crun and a stale CDI spec; another library's path is
 * no CDI symptom) */
static void test_specific_library(void **state)
{
	(void)state;
	read_text("ImportError: libze_loader.so.1: cannot open shared object file: No such file or "
		  "directory\n");
	want_symptom("runtime.level-zero-missing", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.library-not-found"));
	read_text("Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file or "
		  "directory: OCI runtime attempted to invoke a command that was not found\n");
	want_symptom("container.cdi-spec-stale", 1);
	assert_int_equal(read_count("Error: crun: cannot stat `/srv/data`: No such file or "
				    "directory\n"),
			 0);
}

/* intel/compute-runtime#832 (the Level Zero loader's trace: the GPU driver missing is its
 * own rule; the NPU driver missing is no symptom), vllm-project/vllm#1453 (torch's wrapped
 * CUDA mismatch), intel/ipex-llm#9646 (oneMKL's SYCL library of another oneAPI),
 * pytorch/pytorch#80637 (torch's cuDNN check: a copy that shadows the bundled one) */
static void test_runtime_library_messages(void **state)
{
	(void)state;
	read_text(
		"ZE_LOADER_DEBUG_TRACE:Loading Driver libze_intel_gpu.so.1\n"
		"ZE_LOADER_DEBUG_TRACE:Load Library of libze_intel_gpu.so.1 failed with "
		"libze_intel_gpu.so.1: cannot open shared object file: No such file or directory\n"
		"ZE_LOADER_DEBUG_TRACE:Load Library of libze_intel_vpu.so.1 failed with "
		"libze_intel_vpu.so.1: cannot open shared object file: No such file or directory\n");
	want_symptom("runtime.level-zero-no-gpu-driver", 2);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.library-not-found"));
	/* ROCm/legacy-rocm-build#1331: clinfo's loader cannot open the library a stale ICD
	 * file names, and lists the platform that did load */
	read_text("clinfo\n"
		  "dlerror: /opt/rocm-3.1.0/opencl/lib/x86_64/libamdocl64.so: cannot open shared "
		  "object file: No such file or directory\n"
		  "Number of platforms:\t\t\t\t 1\n");
	want_symptom("runtime.opencl-icd-library-missing", 2);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.library-not-found"));
	/* a library the vendor library needs is named alone: not the vendor library's row
	 * (illinois-scicomp/machine-shop-maintenance#57) */
	read_text("ocl-icd(ocl_icd_loader.c:246): _load_icd: error while dlopening the IDL: "
		  "'libamd_comgr.so.1: cannot open shared object file: No such file or "
		  "directory',\n");
	want_symptom("runtime.library-not-found", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.opencl-icd-library-missing"));
	read_text(
		"      RuntimeError:\n"
		"      The detected CUDA version (11.8) mismatches the version that was used to "
		"compile\n      PyTorch (12.1). Please make sure to use the same CUDA versions.\n");
	want_symptom("framework.system-toolkit-irrelevant", 2);
	assert_int_equal(read_count("the version that was used to compile it mismatches\n"), 0);
	read_text("ImportError: libmkl_sycl.so.3: cannot open shared object file: No such file or "
		  "directory\n");
	want_symptom("framework.ipex-oneapi-mismatch", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.library-not-found"));
	read_text(
		"RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, "
		"2) but linked against (8, 0, 3)\n");
	want_symptom("runtime.library-shadowed", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.cudnn-older-than-framework"));
}

/* Every symptom fact names a rule of the table. */
/* TensorFlow leaving out a GPU older than its build: https://github.com/tensorflow/tensorflow/issues/17445
 * (one line), #6125 (the paste wraps the line before "ompute capability"); the other reason
 * it prints, too few multiprocessors, is not that symptom. */
static void test_tf_ignoring_device(void **state)
{
	(void)state;
	read_text(
		"2018-03-05 13:43:54.533246: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1283] "
		"Ignoring visible gpu device (device: 0, name: Quadro K2000M, pci bus id: "
		"0000:01:00.0, compute capability: 3.0) with Cuda compute capability 3.0. The "
		"minimum required Cuda capability is 3.5.\n");
	want_symptom("framework.gpu-too-old-for-build", 1);
	read_text(
		"I c:\\tf_jenkins\\home\\workspace\\release-win\\device\\gpu\\os\\windows\\tensorflow\\core\\"
		"common_runtime\\gpu\\gpu_device.cc:948] Ignoring visible gpu device (device: 0, "
		"name: GeForce GTX 660 Ti, pci bus id: 0000:01:00.0) with Cuda c\n"
		"ompute capability 3.0. The minimum required Cuda capability is 3.5.\n");
	want_symptom("framework.gpu-too-old-for-build", 1);
	assert_int_equal(
		read_count("I gpu_device.cc:1455] Ignoring visible gpu device (device: 0, "
			   "name: Tesla K80, pci bus id: 0000:00:1e.0, compute capability: "
			   "3.7) with core count: 2. The minimum required count is 8.\n"),
		0);
}

/* Level Zero's zeInit refusal names no cause by itself: it is recorded as unsure for each
 * (https://github.com/oneapi-src/level-zero/issues/196, Windows; #140 lists the causes) */
static void test_level_zero_uninitialized(void **state)
{
	(void)state;
	read_text("ZE_LOADER_DEBUG_TRACE:Tracing Layer Library Path: ze_tracing_layer.dll\n"
		  "Driver not initialized: ZE_RESULT_ERROR_UNINITIALIZED\n"
		  "Did NOT find matching ZE_DEVICE_TYPE_GPU device!\n");
	want_symptom("unsure.runtime.level-zero-no-gpu-driver", 2);
	want_symptom("unsure.driver.no-permission", 2);
	want_symptom("unsure.runtime.level-zero-no-device", 2);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.level-zero-no-gpu-driver"));
}

/* torch's "No CUDA GPUs are available" (cudaGetDeviceCount() == 0) names no cause by itself:
 * no GPU, a MIG device CUDA cannot match, CUDA_VISIBLE_DEVICES past the GPUs
 * (lucidrains/DALLE-pytorch#111, Grace9994/CoMoSVC#6) or, under WSL2, a Linux driver's
 * libcuda (numba/numba#9032) are each recorded as unsure */
static void test_no_cuda_gpus_unsure(void **state)
{
	(void)state;
	read_text("RuntimeError: No CUDA GPUs are available\n");
	want_symptom("unsure.hardware.no-gpu", 1);
	want_symptom("unsure.runtime.mig-device-selection", 1);
	want_symptom("unsure.runtime.visible-devices-none", 1);
	want_symptom("unsure.driver.wsl-linux-driver-installed", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.visible-devices-none"));
}

/* cudaErrorNoDevice by its message, its names or its number, the error "No CUDA GPUs are
 * available" comes from, has its causes: CUDA_VISIBLE_DEVICES=-1 (numba/numba#5793), =1 on
 * a one-GPU machine (kuku-sichuan/FPN_Faster_RCNN#3), =2,3,7,8 on a one-GPU laptop
 * (rapidsai/dask-cuda#171) printed it as well as a machine without a GPU */
static void test_no_device_unsure(void **state)
{
	static const char *const texts[] = {
		"E tensorflow/stream_executor/cuda/cuda_driver.cc:300] failed call to cuInit: "
		"CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n",
		"numba.cuda.cudadrv.driver.CudaAPIError: [100] Call to cuInit results in "
		"CUDA_ERROR_NO_DEVICE\n",
		"CUDA Error: no CUDA-capable device is detected\n",
		"RuntimeError: cudaErrorNoDevice\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		read_text(texts[i]);
		want_symptom("unsure.hardware.no-gpu", 1);
		want_symptom("unsure.runtime.visible-devices-none", 1);
		/* numba/numba#9032: WSL2 with a Linux driver's libcuda, which the text alone
		 * cannot tell from the rest: the rule's facts (uname -r, libcuda's path) decide */
		want_symptom("unsure.driver.wsl-linux-driver-installed", 1);
		assert_null(pasted_facts_get(&f, "symptoms.hardware.no-gpu"));
		assert_null(pasted_facts_get(&f, "symptoms.driver.wsl-linux-driver-installed"));
	}
}

/* kmod's "not found" for the nvidia module, in its three forms: modprobe's of older kmod
 * (https://github.com/NVIDIA/nvidia-docker/issues/365: uname -a shows 3.13.0-116-generic,
 * find /lib/modules an nvidia.ko under 3.13.0-88-generic only; nvidia-smi runs modprobe
 * first), today's modprobe naming the directory, and modinfo's, the answer to the
 * `modinfo nvidia` explain asks for; the other modules' lines are no symptom of it */
static void test_module_not_found(void **state)
{
	(void)state;
	read_text("$ nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\n"
		  "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
		  "Make sure that the latest NVIDIA driver is installed and running.\n");
	want_symptom("driver.module-missing-for-kernel", 2);
	read_text("modprobe: FATAL: Module nvidia not found in directory "
		  "/lib/modules/5.15.0-91-generic\n");
	want_symptom("driver.module-missing-for-kernel", 1);
	read_text("$ modinfo nvidia\nmodinfo: ERROR: Module nvidia not found.\n");
	want_symptom("driver.module-missing-for-kernel", 2);
	assert_int_equal(read_count("$ sudo nvidia-modprobe -u -c=0\n"
				    "modprobe: FATAL: Module nvidia-uvm not found.\n"
				    "modprobe: FATAL: Module nvidia_drm not found in directory "
				    "/lib/modules/5.5.9-zen1-2-zen\n"),
			 0);
}

/* ROCr's fault report with no address and no reason, as it prints it (the reason
 * capitalised: https://github.com/ROCm/legacy-rocm-build/issues/5238, an MI210 under an
 * HSA_OVERRIDE_GFX_VERSION of gfx1030); other faults can end so too, so it asks */
static void test_rocr_fault_unknown(void **state)
{
	(void)state;
	read_text("Memory access fault by GPU node-2 (Agent handle: 0x63155be5d980) on address "
		  "(nil). Reason: Unknown.\nAborted (core dumped)\n");
	want_symptom("unsure.runtime.hsa-override-wrong-target", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.hsa-override-wrong-target"));
	/* a fault with an address and a reason is a program's own */
	assert_true(read_count("Memory access fault by GPU node-1 (Agent handle: 0x724828692930) "
			       "on address 0x72370e95c000. Reason: Page not present or supervisor "
			       "privilege.\n") >= 0);
	assert_null(pasted_facts_get(&f, "symptoms.unsure.runtime.hsa-override-wrong-target"));
}

/* NVML's "GPU access blocked by the operating system" from the Windows driver's own
 * nvidia-smi in a GPU-PV VM (staralt/dxgkrnl-dkms#7: driver files copied incompletely) is no
 * Linux driver in WSL2: recorded as unsure, the rule's facts decide */
static void test_nvml_blocked_unsure(void **state)
{
	(void)state;
	read_text(
		"$ /usr/lib/wsl/lib/nvidia-smi\n"
		"Failed to initialize NVML: GPU access blocked by the operating system\n"
		"Failed to properly shut down NVML: GPU access blocked by the operating system\n");
	want_symptom("unsure.driver.wsl-linux-driver-installed", 2);
	assert_null(pasted_facts_get(&f, "symptoms.driver.wsl-linux-driver-installed"));
}

/* The NVIDIA container images' entrypoint warning (NVIDIA/nvidia-docker#1071, a container
 * started without --gpus) names candidates, not a cause */
static void test_container_driver_not_detected(void **state)
{
	(void)state;
	read_text("Docker version 19.03.1, build 74b1e89\n"
		  "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be "
		  "available.\n"
		  "   Use 'nvidia-docker run' to start this container; see\n"
		  "   https://github.com/NVIDIA/nvidia-docker/wiki/nvidia-docker\n");
	want_symptom("unsure.container.no-gpu-devices", 2);
	want_symptom("unsure.container.visible-devices-void", 2);
	want_symptom("unsure.hardware.no-gpu", 2);
	assert_null(pasted_facts_get(&f, "symptoms.container.no-gpu-devices"));
	/* prose that names the warning without its sentence's end is no symptom */
	assert_true(read_count("I get WARNING: The NVIDIA Driver was not detected in docker\n") >=
		    0);
	assert_null(pasted_facts_get(&f, "symptoms.unsure.container.no-gpu-devices"));
}

/* HIP's two words for a build without code for the GPU's gfx target (framework.rocm-gfx-
 * unsupported): the runtime's hipErrorNoBinaryForGpu, and "invalid device function" as torch
 * raises it from a kernel launch. CUDA's own "invalid device function" is not ROCm's. */
/* nvidia-smi's "No devices were found" is printed with a GPU on the bus as well as without:
 * its candidates are unsure, never hardware.no-gpu's sure symptom */
static void test_no_devices_unsure(void **state)
{
	(void)state;
	/* https://github.com/NVIDIA/open-gpu-kernel-modules/issues/862 (an RTX 5090 with
	 * Above 4G Decoding off: RmInitAdapter failed) */
	read_text("# nvidia-smi\nNo devices were found\n\n"
		  "Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: rm_init_adapter failed, "
		  "device minor number 0\n"
		  "Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: RmInitAdapter failed! "
		  "(0x22:0x56:884)\n");
	want_symptom("unsure.hardware.no-gpu", 2);
	want_symptom("unsure.hardware.bar1-small", 2);
	want_symptom("unsure.driver.branch-predates-gpu", 2);
	want_symptom("unsure.container.visible-devices-void", 2);
	assert_null(pasted_facts_get(&f, "symptoms.hardware.no-gpu"));
	pasted_facts_done(&f);
}

static void test_hip_no_binary(void **state)
{
	(void)state;
	/* https://github.com/pytorch/pytorch/issues/147626 (RX 7600 XT, torch 2.x+rocm) */
	read_text("RuntimeError: HIP error: invalid device function\n"
		  "HIP kernel errors might be asynchronously reported at some other API call, so "
		  "the stacktrace below might be incorrect.\n"
		  "For debugging consider passing AMD_SERIALIZE_KERNEL=3\n"
		  "Compile with TORCH_USE_HIP_DSA to enable device-side assertions.\n");
	want_symptom("framework.rocm-gfx-unsupported", 1);
	assert_int_equal(f.n, 1);
	/* https://github.com/pytorch/pytorch/issues/164346 (torch 2.9's AcceleratorError, the
	 * ROCm 7.0 nightly) */
	read_text("torch.AcceleratorError: HIP error: invalid device function\n"
		  "Search for `hipErrorInvalidDeviceFunction' in "
		  "https://docs.nvidia.com/cuda/cuda-runtime-api/group__HIPRT__TYPES.html for more "
		  "information.\n");
	want_symptom("framework.rocm-gfx-unsupported", 1);
	/* https://github.com/oobabooga/textgen/issues/5 (the HIP runtime at start-up) */
	read_text("\"hipErrorNoBinaryForGpu: Unable to find code object for all current "
		  "devices!\"\n");
	want_symptom("framework.rocm-gfx-unsupported", 1);
	/* CUDA's cudaErrorInvalidDeviceFunction (98) is no ROCm symptom */
	assert_true(read_count("RuntimeError: CUDA error: invalid device function\n") >= 0);
	assert_null(pasted_facts_get(&f, "symptoms.framework.rocm-gfx-unsupported"));
	pasted_facts_done(&f);
}

/* CUDA_ERROR_INVALID_PTX (218) and CUDA_ERROR_JIT_COMPILER_NOT_FOUND (221), quoted in
 * runtime.kernel-launch-failed's symptom: names, numbers and cudaGetErrorString()'s texts each
 * give an unsure symptom (several causes print them, and only doctor --launch judges the
 * rule), never a sure one. */
static void test_ptx_jit_unsure(void **state)
{
	(void)state;
	/* https://github.com/NVIDIA-AI-IOT/Lidar_AI_Solution/issues/35 (the runtime's name and
	 * number) */
	read_text(
		"Create by resnet50int8, int8\n"
		"CUDA Runtime error create_frustum_kernel # a PTX JIT compilation failed, code = "
		"cudaErrorInvalidPtx [ 218 ] in file "
		"/mnt/Lidar_AI_Solution-master/CUDA-BEVFusion/src/bevfusion/camera-geometry.cu:209\n");
	want_symptom("unsure.framework.ptx-too-new-for-driver", 2);
	want_symptom("unsure.runtime.kernel-launch-failed", 2);
	assert_null(pasted_facts_get(&f, "symptoms.framework.ptx-too-new-for-driver"));
	assert_null(pasted_facts_get(&f, "symptoms.runtime.kernel-launch-failed"));
	/* https://github.com/Rust-GPU/rust-cuda/issues/34 (cuda-memcheck: the driver's name) */
	read_text("========= CUDA-MEMCHECK\n"
		  "========= Program hit CUDA_ERROR_INVALID_PTX (error 218) due to \"a PTX JIT "
		  "compilation failed\" on CUDA API call to cuModuleLoadData.\n");
	want_symptom("unsure.framework.ptx-too-new-for-driver", 2);
	assert_null(pasted_facts_get(&f, "driver.cuda.init"));
	/* https://github.com/jax-ml/jax/issues/9644 (XLA: the text alone) */
	read_text(
		"RuntimeError: UNKNOWN: PTX JIT compiler library not found\n"
		"in external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_asm_compiler.cc(56)"
		": 'cuLinkCreate(0, nullptr, nullptr, &link_state)'\n");
	want_symptom("unsure.runtime.kernel-launch-failed", 1);
	assert_null(pasted_facts_get(&f, "symptoms.unsure.framework.ptx-too-new-for-driver"));
	assert_null(pasted_facts_get(&f, "symptoms.runtime.kernel-launch-failed"));
	/* https://github.com/JuliaGPU/cuTile.jl/issues/9 (CUDA.jl: text and number) */
	read_text("ERROR: CUDA error: PTX JIT compiler library not found (code 221, "
		  "ERROR_JIT_COMPILER_NOT_FOUND)\n");
	want_symptom("unsure.runtime.kernel-launch-failed", 1);
	/* the driver's name alone (cuda.h CUresult 221) */
	read_text("cuModuleLoadData failed: CUDA_ERROR_JIT_COMPILER_NOT_FOUND\n");
	want_symptom("unsure.runtime.kernel-launch-failed", 1);
}

/* Messages met in the explain corpus's outside evaluation (2026-12-06): JAX's older wording
 * of its cuDNN check, ollama's discovery failing on an entry point an old driver lacks, and
 * NVML's Unknown Error, which more than one state prints. */
static void test_jax_cudnn_and_ollama_old_driver(void **state)
{
	(void)state;
	/* https://github.com/MIT-REALM/gcbfplus/issues/1 */
	read_text("CUDA backend failed to initialize: Found cuDNN version 8600, but JAX was built "
		  "against version 8906, which is newer. The copy of cuDNN that is installed must "
		  "be at least as new as the version against which JAX was built. (Set "
		  "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n");
	want_symptom("runtime.cudnn-older-than-framework", 1);
	/* the same check of the CUDA runtime is not cuDNN's (hollowstrawberry/kohya-colab#94):
	 * runtime.cudart-older-than-framework's */
	read_text("CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built "
		  "against version 12020, which is newer.\n");
	want_symptom("runtime.cudart-older-than-framework", 1);
	assert_null(pasted_facts_get(&f, "symptoms.runtime.cudnn-older-than-framework"));
	assert_null(pasted_facts_get(&f, "framework.python_envs.0.packages.jax.cudnn.version"));
	/* "Found cuDNN version" from another program, without JAX's words */
	assert_int_equal(read_count("Found cuDNN version 8.9.7 in /usr/lib/x86_64-linux-gnu\n"), 0);
	/* https://github.com/ollama/ollama/issues/6604 (Windows, server.log) */
	read_text("time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg=\"unable to "
		  "load cuda driver library\" library=C:\\WINDOWS\\system32\\nvcuda.dll "
		  "error=\"symbol lookup for cuCtxCreate_v3 failed: \\r\\n\"\n");
	want_symptom("framework.cuda-newer-than-driver", 1);
	/* https://github.com/ollama/ollama/issues/5493 (Linux, OLLAMA_DEBUG=1) */
	read_text(
		"time=2024-07-04T17:13:20.135+08:00 level=DEBUG source=gpu.go:385 msg=\"Unable to "
		"load nvcuda\" library=/usr/lib64/libcuda.so.418.74 error=\"symbol lookup for "
		"cuCtxCreate_v3 failed: /usr/lib64/libcuda.so.418.74: undefined symbol: "
		"cuCtxCreate_v3\"\n");
	want_symptom("framework.cuda-newer-than-driver", 1);
	/* https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227: NVML's Unknown Error in
	 * a container whose device cgroup lost the nodes at a systemd reload (the host's
	 * nvidia-smi fine): missing /dev/nvidia* print it too, so it is unsure */
	read_text("(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error\n");
	want_symptom("unsure.driver.device-nodes-missing", 2);
	assert_null(pasted_facts_get(&f, "symptoms.driver.device-nodes-missing"));
	pasted_facts_done(&f);
}

/* XLA's (and TensorFlow's) CUDA diagnostics after a failed cuInit: the loaded module's version
 * and the libcuda's, each as XLA prints it (three numbers, no zero padding), read as the facts
 * the probe writes; the mismatch line names driver.nvml-version-mismatch only where both sides
 * are versions. */
static void test_nvjitlink_undefined_symbol(void **state)
{
	(void)state;
	/* https://github.com/pytorch/pytorch/issues/144244 */
	read_text(
		"  File \"/root/.cache/pypoetry/virtualenvs/x-py3.10/lib/python3.10/site-packages/"
		"torch/__init__.py\", line 367, in <module>\n"
		"    from torch._C import *  # noqa: F403\n"
		"ImportError: /root/.cache/pypoetry/virtualenvs/x-py3.10/lib/python3.10/"
		"site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: undefined "
		"symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12\n");
	want("messages.nvjitlink.symbol", "__nvJitLinkComplete_12_4", 3);
	want("messages.nvjitlink.release", "12.4", 3);
	want("messages.nvjitlink.version", "libnvJitLink.so.12", 3);
	want("messages.nvjitlink.library",
	     "/root/.cache/pypoetry/virtualenvs/x-py3.10/lib/python3.10/site-packages/torch/lib/"
	     "../../nvidia/cusparse/lib/libcusparse.so.12",
	     3);
	want_symptom("runtime.nvjitlink-older-than-library", 3);
	/* jitify's dlsym answer names no library and no version (NVIDIA/jitify#121): the symbol
	 * and its release only; a name without a release gives none */
	read_text("OSError: undefined symbol: __nvJitLinkCreate_12_1\n");
	want("messages.nvjitlink.symbol", "__nvJitLinkCreate_12_1", 1);
	want("messages.nvjitlink.release", "12.1", 1);
	assert_null(pasted_facts_get(&f, "messages.nvjitlink.version"));
	assert_null(pasted_facts_get(&f, "messages.nvjitlink.library"));
	read_text("lib.so: undefined symbol: __nvJitLinkAPI, version libnvJitLink.so.13\n");
	want("messages.nvjitlink.symbol", "__nvJitLinkAPI", 1);
	assert_null(pasted_facts_get(&f, "messages.nvjitlink.release"));
	assert_null(pasted_facts_get(&f, "messages.nvjitlink.library"));
}

/* ld.so's answer for a CUDA library whose sibling copy lacks a versioned name: the name, its
 * version node and the library, read as messages.library_symbol (never as nvJitLink's), and
 * runtime.cuda-library-symbol-missing's symptom, also in the older "not defined in file"
 * wording; an nvJitLink line stays the nvjitlink rule's alone. */
static void test_library_undefined_symbol(void **state)
{
	(void)state;
	/* https://github.com/int-brain-lab/ibl-sorter/issues/41 */
	read_text("    module = self._system_import(name, *args, **kwargs)\n"
		  "ImportError: /usr/local/cuda/targets/x86_64-linux/lib/libcusolver.so.11: "
		  "undefined symbol: cublasSetEnvironmentMode, version libcublas.so.12\n");
	want("messages.library_symbol.symbol", "cublasSetEnvironmentMode", 2);
	want("messages.library_symbol.version", "libcublas.so.12", 2);
	want("messages.library_symbol.library",
	     "/usr/local/cuda/targets/x86_64-linux/lib/libcusolver.so.11", 2);
	assert_null(pasted_facts_get(&f, "messages.library_symbol.release"));
	assert_null(pasted_facts_get(&f, "messages.nvjitlink.symbol"));
	want_symptom("runtime.cuda-library-symbol-missing", 2);
	/* https://github.com/deepmodeling/deepmd-kit/pull/2241: the other wording, no facts */
	read_text(
		"OSError: /home/user/anaconda3/envs/tf/lib/python3.10/site-packages/nvidia/cublas/lib/"
		"libcublas.so.11: symbol cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11 "
		"not defined in file libcublasLt.so.11 with link time reference\n");
	want_symptom("runtime.cuda-library-symbol-missing", 1);
	assert_null(pasted_facts_get(&f, "messages.library_symbol.symbol"));
	/* nvJitLink's line: not this reader's */
	read_text("lib.so: undefined symbol: __nvJitLinkAPI, version libnvJitLink.so.13\n");
	assert_null(pasted_facts_get(&f, "messages.library_symbol.symbol"));
	assert_null(pasted_facts_get(&f, "symptoms.runtime.cuda-library-symbol-missing"));
}

static void test_xla_dso_mismatch(void **state)
{
	(void)state;
	/* https://github.com/tensorflow/tensorflow/issues/4768 */
	read_text("I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:185] libcuda reported "
		  "version is: 361.93.2\n"
		  "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:189] kernel reported "
		  "version is: 352.63.0\n"
		  "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:296] kernel version "
		  "352.63.0 does not match DSO version 361.93.2 -- cannot find working devices in "
		  "this configuration\n");
	want("driver.userspace.libcuda.version", "361.93.2", 3);
	want("driver.nvidia.module_version", "352.63.0", 3);
	want("driver.nvidia.proc_version", "352.63.0", 3);
	want_symptom("driver.nvml-version-mismatch", 3);
	/* the reported lines alone (https://github.com/tensorflow/tensorflow/issues/1158) */
	read_text("2018-01-22 10:12:52.860790: I tensorflow/stream_executor/cuda/"
		  "cuda_diagnostics.cc:189] libcuda reported version is: 384.111.0\n"
		  "2018-01-22 10:12:52.860907: I tensorflow/stream_executor/cuda/"
		  "cuda_diagnostics.cc:193] kernel reported version is: 384.90.0\n");
	want("driver.userspace.libcuda.version", "384.111.0", 1);
	want("driver.nvidia.module_version", "384.90.0", 2);
	assert_null(pasted_facts_get(&f, "symptoms.driver.nvml-version-mismatch"));
	/* a side XLA could not read is its error status, not a version: nothing of it is read,
	 * and the line names no rule (XLA's DriverVersionStatusToString() of a failed read) */
	read_text("E external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:262] kernel "
		  "version NOT_FOUND: could not find kernel module information in driver version "
		  "file contents does not match DSO version 535.104.5 -- cannot find working "
		  "devices in this configuration\n"
		  "I external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:168] libcuda "
		  "reported version is: NOT_FOUND: was unable to find libcuda.so DSO loaded into "
		  "this program\n");
	want("driver.userspace.libcuda.version", "535.104.5", 1);
	assert_null(pasted_facts_get(&f, "driver.nvidia.module_version"));
	assert_null(pasted_facts_get(&f, "symptoms.driver.nvml-version-mismatch"));
	/* a version with something glued to it, or one number: not read */
	assert_int_equal(read_count("libcuda reported version is: 470.57.2x\n"
				    "kernel reported version is: 470\n"),
			 0);
	pasted_facts_done(&f);
}

static void test_rule_ids(void **state)
{
	static const char all[] =
		"no kernel image is available for execution on the device\n"
		"is not compatible with the current PyTorch installation\n"
		"PyTorch no longer supports this GPU because it is too old\n"
		"CUDA driver version is insufficient for CUDA runtime version\n"
		"the provided PTX was compiled with an unsupported toolchain\n"
		"forward compatibility was attempted on non supported HW\n"
		"system has unsupported display driver / cuda driver combination\n"
		"CUDA driver is a stub library\nNVRM: API mismatch\n"
		"Failed to initialize NVML: Insufficient Permissions\n"
		"Failed to initialize NVML: GPU access blocked by the operating system\n"
		"Failed to initialize NVML: Unknown Error\n"
		"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver\n"
		"Key was rejected by service\nmodprobe: FATAL: Module nvidia not found in directory\n"
		"The NVIDIA probe routine was not called\n"
		"This PCI I/O region assigned to your NVIDIA device is invalid\n"
		"No CUDA GPUs are available\nTorch not compiled with CUDA enabled\n"
		"mismatches the version that was used to compile PyTorch\n"
		"TensorFlow was not built with CUDA kernel binaries compatible with compute "
		"capability\nhipErrorNoBinaryForGpu\ncuDNN version incompatibility\n"
		"invalid device ordinal\nUnsupported gpu architecture 'compute_\n"
		"requirement error: unsatisfied condition: cuda>=\nError: setting up CDI devices\n"
		"Error: crun: cannot stat `/lib64/libEGL_nvidia.so.550.54.14`: No such file\n"
		"uncorrectable ECC error encountered\ncudaErrorUnknown\ncudaErrorNoDevice\n"
		"nvidia-smi: command not found\nWARNING: The NVIDIA Driver was not detected.\n"
		"a PTX JIT compilation failed\nPTX JIT compiler library not found\n"
		"Detected more than 8 PCIe replays per minute for GPU 0 : 25\n"
		"A pending retired page has been detected in GPU 0.\n"
		"Pending page retirements together with a DBE were detected on GPU 0.\n"
		"GPU 0 had uncorrectable memory errors and row remapping failed.\n"
		"GPU 0 had memory errors and row remappings are pending\n"
		"Found cuDNN version 8600, but JAX was built against version 8906\n"
		"symbol lookup for cuCtxCreate_v3 failed\n";
	size_t seen = 0;

	(void)state;
	read_text(all);
	for (size_t i = 0; i < f.n; i++) {
		if (strncmp(f.v[i].path, "symptoms.", 9) != 0)
			continue;
		seen++;
		const char *id = f.v[i].path + 9;
		if (strncmp(id, "unsure.", 7) == 0)
			id += 7;
		if (!rule_find(id))
			fail_msg("%s names no rule", f.v[i].path);
	}
	assert_true(seen >= 25);
	pasted_facts_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specific_library),
		cmocka_unit_test(test_hip_no_binary),
		cmocka_unit_test(test_no_devices_unsure),
		cmocka_unit_test(test_torch_capability),
		cmocka_unit_test(test_no_kernel_image),
		cmocka_unit_test(test_driver_too_old),
		cmocka_unit_test(test_nvml_driver_not_loaded),
		cmocka_unit_test(test_nvml),
		cmocka_unit_test(test_kernel_log),
		cmocka_unit_test(test_kernel_log_memory_errors),
		cmocka_unit_test(test_kernel_message_wrapped),
		cmocka_unit_test(test_gpu_refused_by_release),
		cmocka_unit_test(test_other_messages),
		cmocka_unit_test(test_nothing_guessed),
		cmocka_unit_test(test_found_no_driver_unsure),
		cmocka_unit_test(test_driver_mismatch_803_unsure),
		cmocka_unit_test(test_no_cuda_gpus_unsure),
		cmocka_unit_test(test_no_device_unsure),
		cmocka_unit_test(test_module_not_found),
		cmocka_unit_test(test_nvml_blocked_unsure),
		cmocka_unit_test(test_container_driver_not_detected),
		cmocka_unit_test(test_system_not_ready),
		cmocka_unit_test(test_runtime_library_messages),
		cmocka_unit_test(test_tf_ignoring_device),
		cmocka_unit_test(test_level_zero_uninitialized),
		cmocka_unit_test(test_rocr_fault_unknown),
		cmocka_unit_test(test_ptx_jit_unsure),
		cmocka_unit_test(test_dcgm_health_messages),
		cmocka_unit_test(test_jax_cudnn_and_ollama_old_driver),
		cmocka_unit_test(test_xla_dso_mismatch),
		cmocka_unit_test(test_nvjitlink_undefined_symbol),
		cmocka_unit_test(test_library_undefined_symbol),
		cmocka_unit_test(test_rule_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
