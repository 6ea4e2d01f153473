/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Intel GPU kernel drivers' (i915, xe) firmware and probe lines in the kernel log text,
 * over (text, len) with no I/O (docs/formats/intel-gpu-log.md). The lines, as the drivers
 * print them through drm_info/drm_err/drm_notice ("i915 0000:03:00.0: [drm] …"):
 * - i915 intel_uc_fw.c: "[drm] GT0: GuC firmware i915/dg2_guc_70.bin version 70.20.0"
 *   (older: "[drm] GuC firmware i915/… version 70.1"), "GuC firmware i915/dg2_guc_70.2.0.bin:
 *   fetch failed with error -2", "GuC firmware i915/… (70.12.1) is recommended, but only
 *   i915/… (70.11.0) was found", the same for HuC and DMC ("Finished loading DMC firmware
 *   i915/dg2_dmc_ver2_08.bin (v2.8)");
 * - i915 intel_guc.c / intel_uc.c: "GT0: GUC: load failed: status = 0x40000056, …",
 *   "*ERROR* GT0: GuC initialization failed -ENOEXEC", "HuC: load failed", "HuC:
 *   authenticated for all workloads", "GUC: submission enabled";
 * - xe xe_uc_fw.c: "Using GuC firmware from i915/dg2_guc_70.bin version 70.36.0",
 *   "GuC firmware i915/… : fetch failed with error -2";
 * - i915 i915_pci.c: "Your graphics device 56a0 is not properly supported by i915 in this
 *   kernel version. To force driver probe anyway, use i915.force_probe=56a0 module parameter
 *   or CONFIG_DRM_I915_FORCE_PROBE=56a0 configuration option, or (recommended) check for kernel
 *   updates." (xe: "Your graphics device … is not officially supported by xe driver …").
 * Fuzzed by tests/fuzz/fuzz-kernel-log.c (probe_parse_kernel_log() runs it).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INTEL_LOG_EVENTS_MAX 32u

enum intel_fw_state {
	INTEL_FW_LOADED, /* "firmware … version X" / "Finished loading" / "Using … firmware" */
	INTEL_FW_FETCH_FAILED,	/* the file was not found or not readable (request_firmware) */
	INTEL_FW_LOAD_FAILED,	/* found, but the GPU refused it or initialisation failed */
	INTEL_FW_OUTDATED,	/* "is recommended, but only … was found" */
	INTEL_FW_AUTHENTICATED, /* HuC: "authenticated" */
	INTEL_FW_FORCE_PROBE, /* "not properly supported … force_probe": no firmware, no driver */
};

struct intel_log_event {
	char driver[8]; /* "i915", "xe" */
	char bus[16];	/* "0000:03:00.0", or "" */
	char kind[8];	/* "GuC", "HuC", "DMC", "GSC", "probe" */
	enum intel_fw_state state;
	char file[96]; /* "i915/dg2_guc_70.bin", or the device id for INTEL_FW_FORCE_PROBE */
	char version[32];
	char text[256]; /* the message from the driver name on */
	uint64_t line;
};

struct intel_log {
	struct intel_log_event ev[INTEL_LOG_EVENTS_MAX];
	size_t n_ev;
	uint64_t dropped; /* events past INTEL_LOG_EVENTS_MAX */
};

/* Parses the kernel log text (up to len or an embedded NUL) into *ret; a later line about the
 * same driver, bus, kind and state replaces the earlier one (a reload logs again). Returns 0. */
int intel_gpu_log_parse(const char *text, size_t len, struct intel_log *ret);

const char *intel_fw_state_name(enum intel_fw_state s);
