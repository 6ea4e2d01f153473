// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Interning of module target sets (module-sets.h): the open module's indices are kept
 * sorted, and a set is found again through an open-addressing hash table over FNV-1a of its
 * indices (grown at half load), so a file of 100 000 distinct modules stays linear.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scan/module-sets.h"

static uint64_t set_hash(const uint16_t *v, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */

	for (size_t i = 0; i < n; i++) {
		h = (h ^ (v[i] & 0xff)) * 0x100000001b3ull;
		h = (h ^ (v[i] >> 8)) * 0x100000001b3ull;
	}
	return h;
}

/* The slot where set (v, n) is, or the empty slot where it goes. */
static uint32_t *slot_of(const struct module_sets *ms, const uint16_t *v, size_t n)
{
	size_t mask = ms->n_slots - 1;

	for (size_t i = set_hash(v, n) & mask;; i = (i + 1) & mask) {
		const struct module_set *s;

		if (ms->slots[i] == 0)
			return &ms->slots[i];
		s = &ms->sets[ms->slots[i] - 1];
		if (s->len == n && memcmp(s->targets, v, n * sizeof(*v)) == 0)
			return &ms->slots[i];
	}
}

static int grow_slots(struct module_sets *ms)
{
	size_t n = ms->n_slots ? ms->n_slots * 2 : 64;
	uint32_t *old = ms->slots;

	if (n > UINT32_MAX)
		return -E2BIG;
	ms->slots = calloc(n, sizeof(*ms->slots));
	if (!ms->slots) {
		ms->slots = old;
		return -ENOMEM;
	}
	ms->n_slots = n;
	for (size_t i = 0; i < ms->n_sets; i++)
		*slot_of(ms, ms->sets[i].targets, ms->sets[i].len) = (uint32_t)(i + 1);
	free(old);
	return 0;
}

int module_sets_end(struct module_sets *ms)
{
	struct module_set *s;
	uint32_t *slot;
	int rv;

	if (!ms->is_open)
		return 0;
	ms->is_open = false;
	ms->n_modules++;
	if (2 * (ms->n_sets + 1) > ms->n_slots) {
		rv = grow_slots(ms);
		if (rv < 0)
			return rv;
	}
	slot = slot_of(ms, ms->open, ms->open_len);
	if (*slot) {
		ms->sets[*slot - 1].count++;
		return 0;
	}
	s = reallocarray(ms->sets, ms->n_sets + 1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ms->sets = s;
	s = &s[ms->n_sets];
	s->targets = malloc(ms->open_len ? ms->open_len * sizeof(*s->targets) : 1);
	if (!s->targets)
		return -ENOMEM;
	memcpy(s->targets, ms->open, ms->open_len * sizeof(*s->targets));
	s->len = (uint16_t)ms->open_len;
	s->count = 1;
	*slot = (uint32_t)++ms->n_sets;
	return 0;
}

int module_sets_begin(struct module_sets *ms)
{
	int rv = module_sets_end(ms);

	if (rv < 0)
		return rv;
	ms->open_len = 0;
	ms->is_open = true;
	return 0;
}

int module_sets_add(struct module_sets *ms, uint16_t t)
{
	size_t i = 0;

	while (i < ms->open_len && ms->open[i] < t)
		i++;
	if (i < ms->open_len && ms->open[i] == t)
		return 0;
	if (ms->open_len >= UINT16_MAX)
		return 0; /* a module cannot hold more distinct targets than the file */
	if (ms->open_len == ms->open_cap) {
		size_t cap = ms->open_cap ? ms->open_cap * 2 : 16;
		uint16_t *v = reallocarray(ms->open, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		ms->open = v;
		ms->open_cap = cap;
	}
	memmove(&ms->open[i + 1], &ms->open[i], (ms->open_len - i) * sizeof(*ms->open));
	ms->open[i] = t;
	ms->open_len++;
	return 0;
}

void module_sets_done(struct module_sets *ms)
{
	for (size_t i = 0; i < ms->n_sets; i++)
		free(ms->sets[i].targets);
	free(ms->sets);
	free(ms->slots);
	free(ms->open);
	memset(ms, 0, sizeof(*ms));
}
