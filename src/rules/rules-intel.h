/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Intel GPU and OpenCL checks (rules-intel.c, rules-opencl.c), the Intel lines of a
 * diagnosis (rules-summary-intel.c) and the helpers they share. Apart from rules-internal.h
 * so that the other layers' files do not depend on them.
 */
#pragma once

#include "rules/rules-internal.h"

/* An Intel (0x8086) display or processing controller. */
bool gpu_is_intel(const struct snap_node *gpu);
/* ... with i915 or xe bound to it. */
bool gpu_intel_bound(const struct snap_node *gpu);
/* The torch of an environment is an XPU build (torch.version.xpu, libtorch_xpu.so or a
 * "+xpu" local version). */
bool torch_is_xpu(const struct snap_node *torch);
/* Some environment holds a torch XPU build or intel-extension-for-pytorch: *ret_what names it
 * ("torch 2.5.1+xpu in /opt/venv"). */
bool intel_framework_present(const struct snap_node *root, char *buf, size_t len);
/* An OpenCL ICD file that names a GPU implementation (not PoCL, the Intel CPU runtime or
 * Oclgrind) is registered (rules-opencl.c). */
bool opencl_gpu_icd_registered(const struct snap_node *root);

RULE_CHECK(check_intel_firmware_failed);
RULE_CHECK(check_intel_force_probe);
RULE_CHECK(check_intel_kernel_too_old);
RULE_CHECK(check_level_zero_missing);
RULE_CHECK(check_level_zero_no_gpu_driver);
RULE_CHECK(check_level_zero_no_device);
RULE_CHECK(check_intel_compute_runtime_drops_gpu);
RULE_CHECK(check_ipex_torch_mismatch);
RULE_CHECK(check_ipex_oneapi_mismatch);
RULE_CHECK(check_opencl_icd_library_missing);
RULE_CHECK(check_opencl_no_platforms);
RULE_CHECK(check_opencl_cpu_only);

/* The Intel chain of a diagnosis (rules-intel-chain.c), after the AMD one. */
void intel_chain(struct gpuenv_doctor *d, const struct snap_node *root);

struct facts_intel_kernel;
/* rules-intel-kernel.c: the confirmed intel_gpu_kernel.tsv row of an Intel GPU's PCI id, or
 * NULL; and that row as evidence ("first_default_release") of f. */
const struct facts_intel_kernel *intel_kernel_row(const struct snap_node *gpu);
void intel_kernel_evidence(struct finding *f, const struct facts_intel_kernel *row);

/* The Intel driver and runtime lines of a diagnosis; clears absent[] for the layers that have
 * an Intel stack (an Arc with i915 and Level Zero is not "driver absent"). */
void rules_summarize_intel(struct gpuenv_doctor *d, const struct snap_node *root,
			   bool absent[RULE_LAYERS]);
/* The XPU build of a framework: "XPU (SYCL 20250101)"; NULL when it is not one. */
const char *fw_xpu_text(const struct fw_build *b, char *buf, size_t len);
