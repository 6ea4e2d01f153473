/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the pasted-text reader tests (tests/unit/test-pasted-<name>.c) share: running a reader
 * over one of its real samples (the seed corpus of its fuzz target,
 * tests/fuzz/corpus/pasted-<name>/, where the unit test cites each sample's source) or over a
 * string, and asserting the facts it read. Every assertion fails the running cmocka test.
 */
#pragma once

#include <stddef.h>

#include "formats/pasted.h"

/* Runs read over tests/fuzz/corpus/<dir>/<file> into *f (emptied first); the reader's result. */
int pasted_run_sample(pasted_reader_fn read, const char *dir, const char *file,
		      struct pasted_facts *f);
/* Runs read over text into *f (emptied first); the reader's result. */
int pasted_run_text(pasted_reader_fn read, const char *text, struct pasted_facts *f);
/* The fact at path has this value, read from this line (0: any line). */
void pasted_expect(const struct pasted_facts *f, const char *path, const char *value,
		   unsigned line);
/* No fact at path. */
void pasted_expect_none(const struct pasted_facts *f, const char *path);
/* No fact whose path starts with prefix. */
void pasted_expect_no_prefix(const struct pasted_facts *f, const char *prefix);
