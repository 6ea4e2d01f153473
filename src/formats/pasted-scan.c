// SPDX-License-Identifier: LGPL-2.1-or-later
/* One pass over pasted text for a set of needles: see pasted-scan.h. */
#include "formats/pasted-scan.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

/* Four bytes with ASCII letters folded to lower case (0x20 set on every byte: letters fold,
 * other bytes change the same way in needle and text, and a needle is compared exactly). */
static uint32_t folded4(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v | 0x20202020u;
}

static unsigned hash(uint32_t v)
{
	return (v * 0x9E3779B1u) >> 16; /* Fibonacci hashing: the top 16 bits */
}

int pasted_scan_init(struct pasted_scan *sc, const struct pasted_needle *needles, size_t n)
{
	if (n > PASTED_SCAN_MAX)
		return -EINVAL;
	memset(sc->filter, 0, sizeof(sc->filter));
	memset(sc->head, 0, sizeof(sc->head));
	sc->needles = needles;
	sc->n = n;
	/* backwards, so that each chain lists its needles in their order */
	for (size_t i = n; i-- > 0;) {
		unsigned h;

		sc->len[i] = strlen(needles[i].s);
		if (sc->len[i] < 4)
			return -EINVAL;
		sc->key[i] = folded4(needles[i].s);
		h = hash(sc->key[i]);
		sc->filter[h >> 6] |= (uint64_t)1 << (h & 63);
		sc->chain[i] = sc->head[h >> 6];
		sc->head[h >> 6] = (uint16_t)(i + 1);
	}
	return 0;
}

static bool match(const struct pasted_scan *sc, size_t i, const char *p, size_t left)
{
	if (sc->len[i] > left)
		return false;
	return sc->needles[i].nocase ? strncasecmp(p, sc->needles[i].s, sc->len[i]) == 0
				     : memcmp(p, sc->needles[i].s, sc->len[i]) == 0;
}

/* The filter word p's first four bytes hash to, or -1 when their bit is not set: no needle
 * starts at p. */
static int maybe(const struct pasted_scan *sc, const char *p, uint32_t *ret_key)
{
	uint32_t k = folded4(p);
	unsigned h = hash(k);

	if (!(sc->filter[h >> 6] & ((uint64_t)1 << (h & 63))))
		return -1;
	*ret_key = k;
	return (int)(h >> 6);
}

/* The first needle after `from` (index + 1; 0: the word's first) in the chain of word w that
 * starts at p, as index + 1; 0 when none. */
static unsigned needle_at(const struct pasted_scan *sc, unsigned from, int w, uint32_t k,
			  const char *p, size_t left)
{
	for (unsigned i = from ? sc->chain[from - 1] : sc->head[w]; i; i = sc->chain[i - 1])
		if (sc->key[i - 1] == k && match(sc, i - 1, p, left))
			return i;
	return 0;
}

bool pasted_scan_any(const struct pasted_scan *sc, const char *p, size_t n)
{
	uint32_t k;
	int w;

	for (size_t i = 0; i + 4 <= n; i++)
		if ((w = maybe(sc, p + i, &k)) >= 0 && needle_at(sc, 0, w, k, p + i, n - i))
			return true;
	return false;
}

void pasted_scan_mark(const struct pasted_scan *sc, const char *p, size_t n, bool *found)
{
	uint32_t k;
	int w;

	for (size_t i = 0; i + 4 <= n; i++) {
		if ((w = maybe(sc, p + i, &k)) < 0)
			continue;
		for (unsigned m = needle_at(sc, 0, w, k, p + i, n - i); m;
		     m = needle_at(sc, m, w, k, p + i, n - i))
			found[m - 1] = true;
	}
}

uint64_t pasted_scan_tags(const struct pasted_scan *sc, const uint64_t *tags, const char *p,
			  size_t n)
{
	uint64_t t = 0;
	uint32_t k;
	int w;

	for (size_t i = 0; i + 4 <= n; i++) {
		if ((w = maybe(sc, p + i, &k)) < 0)
			continue;
		for (unsigned m = needle_at(sc, 0, w, k, p + i, n - i); m;
		     m = needle_at(sc, m, w, k, p + i, n - i))
			t |= tags[m - 1];
	}
	return t;
}
