/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the rule tests (tests/unit/test-rules-<layer>.c, one per layer of src/rules, and
 * test-rules-engine.c) share: the snapshot builders that make a machine in C, and the
 * assertions that run the rules over it. A test builds base(), adds the problem, checks that
 * its rule fires (YES), then fixes it and checks the rule is quiet (NO) or, where the inputs
 * could not be read, skipped (SKIPPED). Every assertion fails the running cmocka test.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rules/rules.h"
#include "snapshot/snapshot.h"

/* ---- snapshot builders ----------------------------------------------------------------- */

/* A Linux host (kernel 6.8.0-45-generic) with 12 PCI devices and no GPU, no NVIDIA module
 * loaded (its file on disk signed by the DKMS key), no device node, no SecureBoot EFI
 * variable, no CUDA toolkit, no container and none of the environment variables the rules
 * read. */
struct gpuenv_snapshot *base(void);
/* The snapshot node at path ("driver.nvidia", "hardware.gpus.0"). */
struct snap_node *node(struct gpuenv_snapshot *s, const char *path);
/* An H100 SXM (10de:2330, CC 9.0) unless device says otherwise. */
struct snap_node *gpu(struct gpuenv_snapshot *s, const char *device, const char *driver);
/* nvidia.ko `version` loaded, with /dev/nvidiactl, /dev/nvidia-uvm and /dev/nvidia0. */
void driver_loaded(struct gpuenv_snapshot *s, const char *version);
/* A CUDA toolkit at path (resolved: its real directory) of that version. */
struct snap_node *toolkit(struct gpuenv_snapshot *s, const char *path, const char *resolved,
			  const char *version);
/* The environment variable key=value (and the container request, for those it is). */
void env(struct gpuenv_snapshot *s, const char *key, const char *value);
/* Inside a Docker container. */
void in_docker(struct gpuenv_snapshot *s);
/* driver.userspace.<lib>: the copy ld.so.cache gives, at path, of that version (NULL: not
 * read). */
struct snap_node *userspace(struct gpuenv_snapshot *s, const char *lib, const char *path,
			    const char *version);
/* A venv with torch `version` for CUDA `cuda` (NULL: CPU) and fat-binary targets. */
struct snap_node *torch_env(struct gpuenv_snapshot *s, const char *version, const char *cuda,
			    const char *const *targets);

/* A NULL-terminated list of strings, for torch_env()'s targets. */
#define TARGETS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* ---- running ------------------------------------------------------------------------- */

/* The rules run over s (the snapshot and the run must succeed); diagnosis_free() it. */
struct gpuenv_doctor *diag(struct gpuenv_snapshot *s);
/* The nth finding (0: the first) of rule id, or NULL. */
const struct finding *find(const struct gpuenv_doctor *d, const char *id, size_t nth);
/* How many findings rule id has. */
size_t count(const struct gpuenv_doctor *d, const char *id);
/* The skip record of rule id, or NULL. */
const struct rule_skip *skip_of(const struct gpuenv_doctor *d, const char *id);
/* Runs the rules over s: rule `id` must fire n times with severity sev (n == 0: never), and
 * be skipped (could not be evaluated) exactly when `skipped` says: a rule that did not fire
 * because its inputs were missing is not a rule that judged the machine fine. */
void expect(struct gpuenv_snapshot *s, const char *id, size_t n, enum gpuenv_severity sev,
	    const char *substr, bool skipped);
/* Does the first finding of rule id carry a fix line containing substr? */
bool fix_has(struct gpuenv_snapshot *s, const char *id, const char *substr);
/* Does the first finding of rule id carry a verify line containing substr? */
bool verify_has(struct gpuenv_snapshot *s, const char *id, const char *substr);
/* The first finding of rule id: its message lacks text (no_text), or a fix line has it. */
void expect_text(struct gpuenv_snapshot *s, const char *id, const char *no_text,
		 const char *fix_text);
/* No fix line of the first finding of rule id has text. */
void NO_FIX(struct gpuenv_snapshot *s, const char *id, const char *text);

/* YES: fired once. NO: evaluated and did not fire. SKIPPED: not evaluated (inputs missing). */
#define YES(s, id, sev, substr) expect(s, id, 1, sev, substr, false)
#define NO(s, id)		expect(s, id, 0, 0, NULL, false)
#define SKIPPED(s, id)		expect(s, id, 0, 0, NULL, true)
#define NO_TEXT(s, id, text)	expect_text(s, id, text, NULL)
#define FIX(s, id, text)	expect_text(s, id, NULL, text)
