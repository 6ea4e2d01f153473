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
	return (v * 0x9E3779B1u) >> 18; /* Fibonacci hashing: the top 14 bits */
}

/* Three bytes folded as folded4() folds them, as one number, the first lowest whatever the
 * byte order (as next_even() reads them out of a word). */
static uint32_t folded3(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return ((uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16) | 0x202020u;
}

static void set_bit(uint64_t *filter, unsigned h)
{
	filter[h >> 6] |= (uint64_t)1 << (h & 63);
}

int pasted_scan_init(struct pasted_scan *sc, const struct pasted_needle *needles, size_t n)
{
	if (n > PASTED_SCAN_MAX)
		return -EINVAL;
	memset(sc->filter, 0, sizeof(sc->filter));
	memset(sc->filter3, 0, sizeof(sc->filter3));
	memset(sc->head, 0, sizeof(sc->head));
	sc->needles = needles;
	sc->n = n;
	/* backwards, so that each chain lists its needles in their order */
	for (size_t i = n; i-- > 0;) {
		size_t len = strlen(needles[i].s);
		unsigned h;

		if (len < 4 || len > UINT16_MAX)
			return -EINVAL;
		sc->len[i] = (uint16_t)len;
		sc->key[i] = folded4(needles[i].s);
		h = hash(sc->key[i]);
		set_bit(sc->filter, h);
		set_bit(sc->filter3, hash(folded3(needles[i].s)));
		set_bit(sc->filter3, hash(folded3(needles[i].s + 1)));
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

/* Is the filter's bit set for the four folded bytes k (what maybe() tests)? */
static bool filtered(const struct pasted_scan *sc, uint32_t k)
{
	unsigned h = hash(k);

	return sc->filter[h >> 6] & ((uint64_t)1 << (h & 63));
}

/* Is the bit of the three folded bytes k (folded3()) set in the filter of the needles' bytes
 * 0..2 and 1..3? */
static bool filtered3(const struct pasted_scan *sc, uint32_t k)
{
	unsigned h = hash(k);

	return sc->filter3[h >> 6] & ((uint64_t)1 << (h & 63));
}

/* Eight bytes read as a number, the first lowest, whatever the byte order. */
static uint64_t word_le(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The first even position from i (even) on, before last (n - 2 for a text of n bytes: three
 * bytes at each, and eight at each word read), whose three bytes are the first or second three of some needle's (filter3); last
 * when none. Every needle is at least four bytes long, so one that starts at j holds the
 * three bytes at j and at j + 1, one of which is even: testing every second position finds
 * it, at half the cost of testing each. Three positions from one load of eight bytes: most of
 * a text's positions start no needle, and this is what explain spends on every byte of every
 * line. */
static size_t next_even(const struct pasted_scan *sc, const char *p, size_t i, size_t last)
{
	for (; i + 6 <= last; i += 6) {
		uint64_t w = word_le(p + i) | 0x2020202020202020ull;

		if (filtered3(sc, (uint32_t)w & 0xFFFFFFu))
			return i;
		if (filtered3(sc, (uint32_t)(w >> 16) & 0xFFFFFFu))
			return i + 2;
		if (filtered3(sc, (uint32_t)(w >> 32) & 0xFFFFFFu))
			return i + 4;
	}
	for (; i < last; i += 2)
		if (filtered3(sc, folded3(p + i)))
			return i;
	return last;
}

/* The first position from i on where a needle may start (the four bytes' bit set: what
 * maybe() tests), as long as four bytes are left (i + 4 <= n); when none, a position past
 * them. A needle at an odd j is found from the even j + 1 (next_even), one at an even j from
 * j itself. */
static size_t candidate(const struct pasted_scan *sc, const char *p, size_t i, size_t n)
{
	size_t e = i + (i & 1); /* the first even position that may find a needle at i */

	while (e + 3 <= n) {
		e = next_even(sc, p, e, n - 2);
		if (e + 3 > n)
			break;
		if (e > i && filtered(sc, folded4(p + e - 1))) /* e + 3 <= n: four bytes at e - 1 */
			return e - 1;
		if (e + 4 <= n && filtered(sc, folded4(p + e)))
			return e;
		e += 2;
	}
	return n;
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
