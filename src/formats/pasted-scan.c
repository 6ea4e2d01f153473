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
	sc->needles = needles;
	sc->n = n;
	for (size_t i = 0; i < n; i++) {
		unsigned h;

		sc->len[i] = strlen(needles[i].s);
		if (sc->len[i] < 4)
			return -EINVAL;
		sc->key[i] = folded4(needles[i].s);
		h = hash(sc->key[i]);
		sc->filter[h >> 6] |= (uint64_t)1 << (h & 63);
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

/* The first needle at or after needle `from` that starts at p, or sc->n. */
static size_t needle_at(const struct pasted_scan *sc, size_t from, const char *p, size_t left)
{
	uint32_t k = folded4(p);

	for (size_t i = from; i < sc->n; i++)
		if (sc->key[i] == k && match(sc, i, p, left))
			return i;
	return sc->n;
}

static bool maybe(const struct pasted_scan *sc, const char *p)
{
	unsigned h = hash(folded4(p));

	return sc->filter[h >> 6] & ((uint64_t)1 << (h & 63));
}

bool pasted_scan_any(const struct pasted_scan *sc, const char *p, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (maybe(sc, p + i) && needle_at(sc, 0, p + i, n - i) < sc->n)
			return true;
	return false;
}

void pasted_scan_mark(const struct pasted_scan *sc, const char *p, size_t n, bool *found)
{
	for (size_t i = 0; i + 4 <= n; i++) {
		if (!maybe(sc, p + i))
			continue;
		for (size_t k = needle_at(sc, 0, p + i, n - i); k < sc->n;
		     k = needle_at(sc, k + 1, p + i, n - i))
			found[k] = true;
	}
}

uint64_t pasted_scan_tags(const struct pasted_scan *sc, const uint64_t *tags, const char *p,
			  size_t n)
{
	uint64_t t = 0;

	for (size_t i = 0; i + 4 <= n; i++) {
		if (!maybe(sc, p + i))
			continue;
		for (size_t k = needle_at(sc, 0, p + i, n - i); k < sc->n;
		     k = needle_at(sc, k + 1, p + i, n - i))
			t |= tags[k];
	}
	return t;
}
