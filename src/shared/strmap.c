// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * strmap.h: open addressing, linear probing, capacity a power of two, load at most 1/2; the
 * hash is FNV-1a's step over eight-byte words (the 64-bit offset basis and prime of the FNV
 * reference, IETF draft-eastlake-fnv) with MurmurHash3's finalizer (key_hash).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

/* key's hash, and its length in *ret_len: FNV-1a's step (xor, then multiply by the 64-bit FNV
 * prime) over the key's eight-byte words, the last one zero-padded, and its length; then
 * MurmurHash3's fmix64 finalizer (Austin Appleby, public domain), which spreads every bit
 * into the low ones the slot index takes. A word at a time: byte by byte, the keys of a paste's
 * facts ("framework.python_envs.0.packages.torch.version", some 40 bytes) were five
 * instructions a byte, most of what a fact's insertion cost. */
static uint64_t key_hash(const char *s, size_t *ret_len)
{
	size_t n = strlen(s), i = 0;
	uint64_t h = 0xcbf29ce484222325ull ^ n, w;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * 0x100000001b3ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	*ret_len = n;
	return h;
}

/* The slot of key (of hash h), or the empty slot where it would go; cap must be non-zero.
 * The hashes are compared first: a probe passes other keys without a strcmp. */
static struct strmap_slot *find(struct strmap_slot *slots, size_t cap, const char *key, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	while (slots[i].key && (slots[i].hash != h || strcmp(slots[i].key, key) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

bool strmap_get(const struct strmap *m, const char *key, size_t *ret)
{
	const struct strmap_slot *s;

	size_t len;

	if (m->n == 0)
		return false;
	s = find(m->slots, m->cap, key, key_hash(key, &len));
	if (!s->key)
		return false;
	*ret = s->value;
	return true;
}

static int grow(struct strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	struct strmap_slot *slots;

	if (cap < m->cap)
		return -ENOMEM;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) { /* the keys are distinct: the first empty slot */
		const struct strmap_slot *o = &m->slots[i];
		size_t k = (size_t)o->hash & (cap - 1);

		if (!o->key)
			continue;
		while (slots[k].key)
			k = (k + 1) & (cap - 1);
		slots[k] = *o;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

/* The slot of key in *ret, taken for it (its copy made) when it was empty: 1 where it was,
 * 0 where key was there already, or -ENOMEM. */
static int slot_of(struct strmap *m, const char *key, struct strmap_slot **ret)
{
	struct strmap_slot *s;
	size_t len;
	uint64_t h = key_hash(key, &len);

	if ((m->n + 1) * 2 > m->cap) {
		int r = grow(m);

		if (r < 0)
			return r;
	}
	s = find(m->slots, m->cap, key, h);
	*ret = s;
	if (s->key)
		return 0;
	s->key = malloc(len + 1); /* strdup, its length known */
	if (!s->key)
		return -ENOMEM;
	memcpy(s->key, key, len + 1);
	s->hash = h;
	m->n++;
	return 1;
}

int strmap_put(struct strmap *m, const char *key, size_t value)
{
	struct strmap_slot *s;
	int r = slot_of(m, key, &s);

	if (r < 0)
		return r;
	s->value = value;
	return 0;
}

int strmap_put_new(struct strmap *m, const char *key, size_t value, size_t *ret_value,
		   const char **ret_key)
{
	struct strmap_slot *s;
	int r = slot_of(m, key, &s);

	if (r == 0)
		*ret_value = s->value;
	if (r <= 0)
		return r;
	s->value = value;
	*ret_key = s->key;
	return 1;
}

void strmap_done(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	*m = STRMAP_INIT;
}
