/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program's hook between the steps of a long piece of the library's work (the probe table's
 * rows, probe/probe.c; the rule table's layers, rules/rules-engine.c): none by default, so
 * the library's callers (gpuenv doctor, check, explain) run as without it. gpuenv exporter's
 * diagnosis child sets one that drops the code pages the step before faulted in
 * (tools/exporter-pages.c), so that each step's pages are resident in turn rather than all
 * at once (docs/exporter.md, Load).
 */
#pragma once

/* hook runs at each step_hook_run() of this process from now on; NULL: none. */
void step_hook_set(void (*hook)(void));
/* Between two steps: the hook set, if any. */
void step_hook_run(void);
