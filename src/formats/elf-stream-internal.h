/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the wanted functions of elf-stream.h share: reading a header field of either byte
 * order and collecting ranges. Internal to formats/.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "formats/elf-stream.h"

static inline bool elf_range_ok(uint64_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off;
}

/* An unsigned field of n bytes (1..8) at img + off in the file's byte order. */
static inline uint64_t elf_field(const uint8_t *img, uint64_t off, unsigned n, bool msb)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)img[off + i] << (8 * (msb ? n - 1 - i : i));
	return v;
}

struct elf_wants {
	struct elf_range *r;
	size_t n, cap;
	int (*have)(void *, uint64_t, uint64_t);
	void *userdata;
};

/* Adds [off, off + len) to the wanted ranges; true when it is kept already. */
static inline bool elf_want(struct elf_wants *w, uint64_t off, uint64_t len)
{
	if (w->n < w->cap)
		w->r[w->n++] = (struct elf_range){ off, len };
	return w->have(w->userdata, off, len) > 0;
}
