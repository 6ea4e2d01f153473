/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The errors reader's symptom rows (pasted-errors.c), in two forms. `struct symptom` is the
 * row as pasted-errors-symptoms.inc writes it, pointers to its strings; only the build's
 * generator (gen-errors-symptoms.c) compiles the rows so. The reader holds them as
 * `struct symptom_row`, offsets into one string array (pasted-errors-symptoms-table.h, the
 * generator's output): a table of pointers in a position-independent program is written by
 * the dynamic loader at every start, a page of copy-on-write each 4 KiB, whatever the command
 * (docs/explain.md, "Performance: a typical paste"); offsets are read-only data.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define ERRORS_MAX_IDS 4 /* "No devices were found" names four rules */

/* A message whose text names one or more rules' symptom. */
struct symptom {
	const char *needle;
	const char *rules[ERRORS_MAX_IDS];
	const char *also;   /* a word the line must hold too (NULL: none) */
	const char *unless; /* a word that makes the line no symptom (NULL: none) */
	/* Printed for several causes the text alone cannot tell apart: written as
	 * "symptoms.unsure.<rule id>", which names no rule's fault by itself (explain asks for
	 * the facts that decide; the rule fires only when they show it). */
	bool unsure;
	/* More specific than the entries after it: a line it reads is not read by them (the
	 * Level Zero loader's "cannot open shared object file" is not also library-not-found). */
	bool last;
};

#define NVSMI_NO_DRIVER                                                                            \
	{                                                                                          \
		"driver.module-not-loaded", "driver.module-missing-for-kernel",                    \
			"driver.secure-boot-unsigned-module"                                       \
	}

/* A symptom row as the reader holds it: each string an offset into symptom_text[] (the
 * generated table), 0 where the row has none (symptom_text[0] is the empty string). */
struct symptom_row {
	uint16_t needle;
	uint16_t rules[ERRORS_MAX_IDS];
	uint16_t also, unless;
	bool unsure, last;
};
