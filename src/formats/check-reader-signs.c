// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Build-time check (run by src/formats/meson.build, never installed): the signs of every
 * reader of pasted_readers[] (pasted-readers.c), listed and computed (more_signs), fit the one
 * scan explain's dispatcher holds them in (PASTED_SCAN_MAX, pasted-scan.h). Readers, their
 * signs and the errors reader's symptom rows are added on several branches at once; where
 * they came to more than a scan holds, pasted_dispatch_init() refused every paste with EINVAL
 * once the branches were merged. Here the build fails instead, saying by how much.
 * The count is known only once every reader's file is compiled (the errors reader's signs
 * are its symptom table's rows), hence a program and not a _Static_assert.
 * Usage: check-reader-signs > STAMP (the count, for the build's record).
 */
#include <stdio.h>

#include "formats/pasted-scan.h"
#include "formats/pasted.h"

#define COUNT_MAX 4096u /* a computed list longer than this is too long anyway */

int main(int argc, char **argv)
{
	static struct pasted_needle more[COUNT_MAX];
	size_t total = 0;

	if (argc != 1) {
		fprintf(stderr, "usage: %s > STAMP\n", argv[0]);
		return 2;
	}
	for (const struct pasted_reader *rd = pasted_readers; rd->name; rd++) {
		size_t n = 0;

		for (size_t k = 0; rd->signs && rd->signs[k]; k++)
			n++;
		if (rd->more_signs)
			n += rd->more_signs(more, COUNT_MAX);
		total += n;
	}
	if (total > PASTED_SCAN_MAX) {
		fprintf(stderr,
			"%s: the readers of pasted_readers[] have %zu signs, %zu more than the %u "
			"one scan holds (PASTED_SCAN_MAX, src/formats/pasted-scan.h): explain "
			"would refuse every paste\n",
			argv[0], total, total - PASTED_SCAN_MAX, PASTED_SCAN_MAX);
		return 1;
	}
	printf("%zu of %u\n", total, PASTED_SCAN_MAX);
	return fflush(stdout) == 0 ? 0 : 1;
}
