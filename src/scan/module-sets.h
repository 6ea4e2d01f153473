/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The modules of a scanned file (its CUDA containers with code, one per translation unit)
 * kept by their set of targets: each distinct set once, with how many modules have it. A
 * verdict's modules_without_image then judges each distinct set once, and memory grows
 * with the distinct sets, not the modules (a library such as libcublasLt holds thousands of
 * modules and a few dozen sets; one small allocation per module cost page faults on every
 * scan: bench/ measures it).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct module_set {
	uint16_t *targets; /* indices into the file's targets, ascending */
	uint16_t len;
	size_t count; /* modules with exactly this set */
};

struct module_sets {
	struct module_set *sets;
	size_t n_sets;
	size_t n_modules;
	/* internal: hash index over sets (set index + 1; 0 empty), the module being filled */
	uint32_t *slots;
	size_t n_slots;
	uint16_t *open;
	size_t open_len, open_cap;
	bool is_open;
};

/* Files the open module (if any) and opens a new, empty one. 0 or -ENOMEM. */
int module_sets_begin(struct module_sets *ms);
/* Adds target index t to the open module (once). 0 or -ENOMEM. */
int module_sets_add(struct module_sets *ms, uint16_t t);
/* Files the open module: its set is counted (added when new). 0 or -ENOMEM, -E2BIG. */
int module_sets_end(struct module_sets *ms);
/* Frees everything; ms is empty afterwards. */
void module_sets_done(struct module_sets *ms);
