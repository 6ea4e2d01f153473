/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the vendor tests share (test-vendor.c, test-vendor-sandbox.c): vendor-test-util.c.
 */
#pragma once

#include <jansson.h>

#include "vendor/vendor.h"

/* $GPUENV_BUILD_ROOT/tests/fakes, and the scenario file the fakes read. */
extern char fakes[512], scenario[256];

/* The fake library `name` in fakes (a static buffer). */
const char *fake(const char *name);
/* Writes text to the scenario file and names it in GPUENV_FAKE_SCENARIO. */
void set_scenario(const char *text);
/* The leaf or node at a dotted path ("devices.1.name"). */
json_t *jget(json_t *j, const char *path);
const char *jstr(json_t *t, const char *path, const char *member);
void assert_fact(json_t *t, const char *path, const char *state, const char *source);
void assert_str(json_t *t, const char *path, const char *want);
void assert_int(json_t *t, const char *path, long long want);
void assert_error_contains(json_t *t, const char *path, const char *state, const char *text);
/* One NVML session over lib: its tree; a failure fails the test unless ret_failure takes it. */
json_t *nvml(const char *lib, unsigned timeout_ms, char **ret_failure);
/* One session of start (vendor_amdsmi_start, …) over lib, run to its end: its tree (the caller's
 * reference); a failure fails the test unless ret_failure takes a copy of it. */
json_t *session_tree(int (*start)(const struct vendor_req *, struct vendor_pending **),
		     const char *lib, unsigned timeout_ms, char **ret_failure);
/* The child's stderr fact (fails the test when there is none). */
const char *stderr_text(const struct vendor_result *r);
/* The kernel's Landlock ABI the session ran under (its "sandbox" fact), 0 for none. */
int landlock_abi(const struct vendor_result *r);

/* Sets fakes from $GPUENV_BUILD_ROOT: 0, or 77 (skip: not run through meson test). */
int vendor_test_fakes(void);
/* Sets fakes and creates the scenario file: 0, 77 (skip: not run through meson test) or 1. */
int vendor_test_init(void);
/* Removes the scenario file. */
void vendor_test_done(void);
