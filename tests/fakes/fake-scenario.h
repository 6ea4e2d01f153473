/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the fake vendor libraries (test code): the scenario file named by
 * GPUENV_FAKE_SCENARIO (a fixture's scenario.ini; run-scenario.py sets it), read once with
 * stdio. Sections "[nvml]", "[nvml.device.N]", "[cuda]", "[cuda.device.N]" hold values;
 * "error.<function> = NAME|number", "hang.<function> = 1", "crash.<function> = SIGSEGV" and
 * "mknod.<function> = PATH" (do what the real libraries do when /dev/nvidiactl is missing:
 * mknodat(PATH, S_IFCHR|0666, makedev(195, 255))) inject behaviour into one call, in the
 * library's section or a device's; "delay.<function> = MS" makes the call take MS ms first. Hostile behaviours, each reported on stderr:
 * "stderr_flood.<function> = BYTES" (escape sequences included), "write_file.<function> =
 * PATH" (append, else create), "alloc.<function> = BYTES" (touched), "fork.<function> = N"
 * (children that leave the process group and wait forever), "exit.<function> = CODE",
 * "scribble.<function> = TEXT" (a line written into every pipe the process holds for
 * writing). "KIND.<function>#N" injects into the function's Nth call in the process only
 * (a long-lived session that fails mid-way: hang.nvmlSystemGetDriverVersion#3 = 1 hangs
 * in the third sample).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define FAKE_API __attribute__((visibility("default")))

/* Value of key in [section], or NULL. */
const char *fake_get(const char *section, const char *key);
/* Number of sections named "<prefix>N" for N = 0, 1, … without a gap. */
unsigned fake_count(const char *prefix);
bool fake_uint(const char *section, const char *key, unsigned long long *ret);
/*
 * Injection for function fn: hangs or crashes when told to, performs a requested mknod,
 * and returns true with *ret_code when an error is to be returned. dev_section may be NULL.
 * name_to_code turns "NVML_ERROR_GPU_IS_LOST" into its number (-1: unknown).
 */
bool fake_inject(const char *section, const char *dev_section, const char *fn,
		 int (*name_to_code)(const char *name), int *ret_code);

/* One row of a fake library's table of return codes (the real library's names and texts). */
struct fake_code {
	int code;
	const char *name, *text;
};
/* The row of table[0..n-1] with this code / this name, or NULL. */
const struct fake_code *fake_code_by_value(const struct fake_code *table, size_t n, int code);
const struct fake_code *fake_code_by_name(const struct fake_code *table, size_t n,
					  const char *name);
