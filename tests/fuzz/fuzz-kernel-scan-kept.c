// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the reader of the fat-binary scan results a capture keeps
 * (src/probe/kernel-scan-kept.c, kernel_scan_parse()), for a file of a fixed identity (the
 * corpus carries it, so the fuzzer starts past the identity check). What it accepts must
 * survive the round trip: written again (kernel_scan_format()) and read back, the same
 * result, the same targets in the same order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/kernel-scan-kept.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct kernel_scan_id fuzz_id = { .size = 1048576, .head = "0123456789abcdef" };

static void same_or_die(const struct fatbin_targets *a, int ra, const struct fatbin_targets *b,
			int rb)
{
	bool same = ra == rb && a->n == b->n && a->n_amdgcn == b->n_amdgcn &&
		    a->truncated == b->truncated;

	for (size_t i = 0; same && i < a->n; i++) {
		const struct fatbin_target *x = &a->t[i], *y = &b->t[i];

		same = x->kind == y->kind && x->arch == y->arch && x->variant == y->variant &&
		       x->ptx_major == y->ptx_major && x->ptx_minor == y->ptx_minor &&
		       x->lto_major == y->lto_major && x->lto_minor == y->lto_minor &&
		       x->count == y->count && !strcmp(x->name, y->name) && !strcmp(x->gfx, y->gfx);
	}
	if (!same) {
		fprintf(stderr, "kernel-scan-kept: the round trip changed the result\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fatbin_targets k = { .max = 256 }, again = { .max = 256 };
	int r = 0, r2 = 0, got;
	char *text;

	got = kernel_scan_parse((const char *)data, size, &fuzz_id, &k, &r);
	if (got == 1) {
		text = kernel_scan_format(&fuzz_id, r, &k);
		if (text) {
			if (kernel_scan_parse(text, strlen(text), &fuzz_id, &again, &r2) != 1) {
				fprintf(stderr,
					"kernel-scan-kept: its own output does not read back\n");
				abort();
			}
			same_or_die(&k, r, &again, r2);
			free(text);
		}
	} else if (k.t || k.n) {
		fprintf(stderr, "kernel-scan-kept: a refused result left targets behind\n");
		abort();
	}
	fatbin_targets_done(&k);
	fatbin_targets_done(&again);
	return 0;
}
