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

/* Where bytes b..b + 3 of a word of eight bytes read from memory are in it, as folded4()
 * reads four bytes from memory. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define WORD_SHIFT(b) (8 * (4 - (b)))
#else
#define WORD_SHIFT(b) (8 * (b))
#endif

/* Is the filter's bit set for the four folded bytes k (what maybe() tests)? */
static bool filtered(const struct pasted_scan *sc, uint32_t k)
{
	unsigned h = hash(k);

	return sc->filter[h >> 6] & ((uint64_t)1 << (h & 63));
}

/* The first position from i on, before last (with i + 8 <= n for every word read), where
 * the filter's bit is set; last when none. The filter test of maybe() at each position, five
 * positions from one load of eight bytes: most of a text's positions start no needle, and
 * this is what explain spends on every byte of every line. */
static size_t next_candidate(const struct pasted_scan *sc, const char *p, size_t i, size_t last)
{
	for (; i + 5 <= last; i += 5) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		w |= 0x2020202020202020ull;
		for (unsigned b = 0; b < 5; b++)
			if (filtered(sc, (uint32_t)(w >> WORD_SHIFT(b))))
				return i + b;
	}
	for (; i < last; i++)
		if (filtered(sc, folded4(p + i)))
			return i;
	return last;
}

/* The first position from i on where the filter's bit is set, as long as four bytes are
 * left (i + 4 <= n); when none, a position past them. */
static size_t candidate(const struct pasted_scan *sc, const char *p, size_t i, size_t n)
{
	if (i + 8 <= n) {
		i = next_candidate(sc, p, i, n - 7);
		if (i < n - 7)
			return i;
	}
	return i + 4 <= n ? next_candidate(sc, p, i, n - 3) : n;
}

bool pasted_scan_any(const struct pasted_scan *sc, const char *p, size_t n)
{
	uint32_t k;
	int w;

	for (size_t i = candidate(sc, p, 0, n); i + 4 <= n; i = candidate(sc, p, i + 1, n))
		if ((w = maybe(sc, p + i, &k)) >= 0 && needle_at(sc, 0, w, k, p + i, n - i))
			return true;
	return false;
}

void pasted_scan_mark(const struct pasted_scan *sc, const char *p, size_t n, bool *found)
{
	uint32_t k;
	int w;

	for (size_t i = candidate(sc, p, 0, n); i + 4 <= n; i = candidate(sc, p, i + 1, n)) {
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

	for (size_t i = candidate(sc, p, 0, n); i + 4 <= n; i = candidate(sc, p, i + 1, n)) {
		if ((w = maybe(sc, p + i, &k)) < 0)
			continue;
		for (unsigned m = needle_at(sc, 0, w, k, p + i, n - i); m;
		     m = needle_at(sc, m, w, k, p + i, n - i))
			t |= tags[m - 1];
	}
	return t;
}
