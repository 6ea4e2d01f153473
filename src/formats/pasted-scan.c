// SPDX-License-Identifier: LGPL-2.1-or-later
/* One pass over pasted text for a set of needles: see pasted-scan.h. */
#include "formats/pasted-scan.h"

#include <errno.h>
#include <string.h>

/* Four bytes as they stand. */
static uint32_t load4(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* 0x20 on byte k of four (in the text's order, as load4() reads them) for each bit k of bits:
 * a needle's fold as the mask its first four bytes are compared under. */
static uint32_t fold4(unsigned bits)
{
#define F(b)                                                                                       \
	{                                                                                          \
		(b) & 1 ? 0x20 : 0, (b)&2 ? 0x20 : 0, (b)&4 ? 0x20 : 0, (b)&8 ? 0x20 : 0           \
	}
	static const unsigned char bytes[16][4] = { F(0),  F(1),  F(2),	 F(3), F(4),  F(5),
						    F(6),  F(7),  F(8),	 F(9), F(10), F(11),
						    F(12), F(13), F(14), F(15) };
#undef F
	uint32_t v;

	memcpy(&v, bytes[bits & 15], 4);
	return v;
}

/* Four bytes with ASCII letters folded to lower case (0x20 set on every byte: letters fold,
 * other bytes change the same way in needle and text, and a needle is compared exactly), where
 * some needle is matched in either case; as they are where none is (sc->case_bits). */
static uint32_t folded4(const struct pasted_scan *sc, const char *p)
{
	return load4(p) | (uint32_t)sc->case_bits;
}

static unsigned hash(uint32_t v)
{
	return (v * 0x9E3779B1u) >> 18; /* Fibonacci hashing: the top 14 bits */
}

/* Three bytes folded as folded4() folds them, as one number, the first lowest whatever the
 * byte order (as next_even() reads them out of a word). */
static uint32_t folded3(const struct pasted_scan *sc, const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return ((uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16) |
	       ((uint32_t)sc->case_bits & 0xFFFFFFu);
}

static void set_bit(uint64_t *filter, unsigned h)
{
	filter[h >> 6] |= (uint64_t)1 << (h & 63);
}

/* Is bit h set? Written as a shift of the word, which compiles to one bit test (x86's bt
 * masks the bit number itself), not a mask built by a shift and an and: two instructions
 * fewer at each of the three tests per six bytes of next_even(). */
static bool bit_set(const uint64_t *filter, unsigned h)
{
	return (filter[h >> 6] >> (h & 63)) & 1;
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
	/* Folded only where some needle is matched in either case: a set of exact needles'
	 * filters hold their bytes as they are, and a text's lower-case words, most of a log,
	 * then hit them far less ("dri", "int" for "Driver Version", "Intel"). */
	sc->case_bits = 0;
	for (size_t i = 0; i < n; i++)
		if (needles[i].nocase)
			sc->case_bits = 0x2020202020202020ull;
	/* backwards, so that each chain lists its needles in their order */
	for (size_t i = n; i-- > 0;) {
		size_t len = strlen(needles[i].s);
		unsigned h;

		if (len < 4 || len > UINT16_MAX)
			return -EINVAL;
		sc->len[i] = (uint16_t)len;
		/* bit k: byte k is a letter of a needle matched in either case */
		sc->fold[i] = 0;
		for (unsigned k = 0; k < 8 && k < len && needles[i].nocase; k++) {
			unsigned char c = (unsigned char)(needles[i].s[k] | 0x20);

			if (c >= 'a' && c <= 'z')
				sc->fold[i] |= (uint8_t)(1u << k);
		}
		sc->exact4[i][0] = load4(needles[i].s) | fold4(sc->fold[i]);
		sc->exact4[i][1] = len >= 8 ? load4(needles[i].s + 4) | fold4(sc->fold[i] >> 4) : 0;
		h = hash(folded4(sc, needles[i].s));
		set_bit(sc->filter, h);
		set_bit(sc->filter3, hash(folded3(sc, needles[i].s)));
		set_bit(sc->filter3, hash(folded3(sc, needles[i].s + 1)));
		sc->chain[i] = sc->head[h >> 6];
		sc->head[h >> 6] = (uint16_t)(i + 1);
	}
	return 0;
}

/* ASCII letters folded to lower case, other bytes as they are: strncasecmp's folding in the C
 * locale, which explain runs in (pasted-scan.h: "ASCII letters match in either case"). */
static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

/* Does needle i start at p (left bytes from p on)? Its first four bytes in one comparison
 * (exact4/fold4: a byte of a letter of a needle matched in either case, any other exactly),
 * then, where it has eight, its next four so, the rest, if any, byte by byte: compared here,
 * not by a call to memcmp or strncasecmp, which cost more than the comparison (callgrind:
 * 674,533 memcmp calls, 12.6 M instructions, on the 5 MB report's readers' thread). The
 * second four: needles that share their first four bytes with each other and with much of a
 * log ("NVRM: ") were a memcmp call each at each such line (971 calls, 36 K instructions, on
 * the bench's 20 KB paste). Inlined into the chain walks. */
__attribute__((always_inline)) static inline bool match(const struct pasted_scan *sc, size_t i,
							const char *p, size_t left)
{
	const unsigned char *a = (const unsigned char *)p,
			    *b = (const unsigned char *)sc->needles[i].s;
	size_t n = sc->len[i], k = 4;

	if (n > left || (load4(p) | fold4(sc->fold[i])) != sc->exact4[i][0])
		return false;
	if (n >= 8) {
		if ((load4(p + 4) | fold4(sc->fold[i] >> 4)) != sc->exact4[i][1])
			return false;
		k = 8;
	}
	if (!sc->needles[i].nocase)
		return n == k || memcmp(a + k, b + k, n - k) == 0;
	for (; k < n; k++)
		if (lower(a[k]) != lower(b[k]))
			return false;
	return true;
}

/* The first needle after `from` (index + 1; 0: the word's first) in the chain of word w that
 * starts at p, as index + 1; 0 when none. */
static unsigned needle_at(const struct pasted_scan *sc, unsigned from, unsigned w, const char *p,
			  size_t left)
{
	for (unsigned i = from ? sc->chain[from - 1] : sc->head[w]; i; i = sc->chain[i - 1])
		if (match(sc, i - 1, p, left))
			return i;
	return 0;
}

/* Is the bit of the three folded bytes k (folded3()) set in the filter of the needles' bytes
 * 0..2 and 1..3? */
static bool filtered3(const struct pasted_scan *sc, uint32_t k)
{
	return bit_set(sc->filter3, hash(k));
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
 * bytes at each, and eight at each word read), whose three bytes are the first or second three of
 * some needle's (filter3); last when none. Every needle is at least four bytes long, so one that
 * starts at j holds the three bytes at j and at j + 1, one of which is even: testing every second
 * position finds it, at half the cost of testing each. Three positions from one load of eight
 * bytes: most of a text's positions start no needle, and this is what explain spends on every byte
 * of every line. */
static size_t next_even(const struct pasted_scan *sc, const char *p, size_t i, size_t last)
{
	for (; i + 6 <= last; i += 6) {
		uint64_t w = word_le(p + i) | sc->case_bits;

		if (filtered3(sc, (uint32_t)w & 0xFFFFFFu))
			return i;
		if (filtered3(sc, (uint32_t)(w >> 16) & 0xFFFFFFu))
			return i + 2;
		if (filtered3(sc, (uint32_t)(w >> 32) & 0xFFFFFFu))
			return i + 4;
	}
	for (; i < last; i += 2)
		if (filtered3(sc, folded3(sc, p + i)))
			return i;
	return last;
}

/* A walk over the positions where a needle may start (the four bytes' bit set in the filter),
 * in order, each once: a needle at an odd j is found from the even j + 1 (next_even), one at
 * an even j from j itself, so each even position whose three bytes hit (filter3) offers the
 * one before it and itself. The walk keeps where it is, and hands the filter word with the
 * position: a walk that started again from the position after each one found tested that
 * even position's three bytes again, and the caller hashed the four bytes again for the word
 * (callgrind: about 100 instructions a line of the 721 the dispatcher's scan took). */
struct walk {
	size_t e;  /* the even position whose positions are offered next */
	bool at_e; /* e - 1 was offered: e itself is left */
};

/* The next position where a needle may start, its filter word in *w; n when none is left
 * (fewer than four bytes from it on). */
__attribute__((always_inline)) static inline size_t
next_candidate(const struct pasted_scan *sc, const char *p, size_t n, struct walk *wk, unsigned *w)
{
	unsigned h;

	for (;;) {
		if (wk->at_e) {
			size_t e = wk->e;

			wk->at_e = false;
			wk->e += 2;
			if (e + 4 <= n && bit_set(sc->filter, h = hash(folded4(sc, p + e)))) {
				*w = h >> 6;
				return e;
			}
		}
		if (wk->e + 3 > n)
			return n;
		wk->e = next_even(sc, p, wk->e, n - 2);
		if (wk->e + 3 > n)
			return n;
		wk->at_e = true;
		/* e + 3 <= n: four bytes at e - 1 */
		if (wk->e > 0 && bit_set(sc->filter, h = hash(folded4(sc, p + wk->e - 1)))) {
			*w = h >> 6;
			return wk->e - 1;
		}
	}
}

bool pasted_scan_any(const struct pasted_scan *sc, const char *p, size_t n)
{
	struct walk wk = { 0, false };
	unsigned w;

	for (size_t i; (i = next_candidate(sc, p, n, &wk, &w)) < n;)
		if (needle_at(sc, 0, w, p + i, n - i))
			return true;
	return false;
}

void pasted_scan_mark(const struct pasted_scan *sc, const char *p, size_t n, bool *found)
{
	struct walk wk = { 0, false };
	unsigned w;

	/* a needle found already is not compared again (its line's "cuda" once) */
	for (size_t i; (i = next_candidate(sc, p, n, &wk, &w)) < n;)
		for (unsigned m = sc->head[w]; m; m = sc->chain[m - 1])
			if (!found[m - 1] && match(sc, m - 1, p + i, n - i))
				found[m - 1] = true;
}

uint64_t pasted_scan_tags(const struct pasted_scan *sc, const uint64_t *tags, const char *p,
			  size_t n)
{
	struct walk wk = { 0, false };
	uint64_t t = 0;
	unsigned w;

	/* a needle whose owners are all found already is not compared (a pip list row's
	 * "nvidia" and "cuda", both the packages reader's) */
	for (size_t i; (i = next_candidate(sc, p, n, &wk, &w)) < n;)
		for (unsigned m = sc->head[w]; m; m = sc->chain[m - 1])
			if ((tags[m - 1] & ~t) && match(sc, m - 1, p + i, n - i))
				t |= tags[m - 1];
	return t;
}
