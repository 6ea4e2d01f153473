// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * UTF-8 validation and repair (utf8.h). The decoder follows the well-formed byte sequences
 * table of the Unicode Standard (Table 3-7): the second byte's range depends on the first
 * (E0: A0-BF, ED: 80-9F, F0: 90-BF, F4: 80-8F), which excludes overlong forms, surrogates
 * and code points past U+10FFFF.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "utf8.h"

/* Length of the well-formed sequence at s (at most len bytes), or 0 if it is not one. */
static size_t seq_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = seq_len(p + i, len - i);

		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

char *utf8_make_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *w;

	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(len * 3 + 1); /* each bad byte grows to 3 */
	if (!out)
		return NULL;
	w = out;
	for (size_t i = 0; i < len;) {
		size_t n = seq_len(p + i, len - i);

		if (n == 0) {
			memcpy(w, "\xef\xbf\xbd", 3);
			w += 3;
			i++;
		} else {
			memcpy(w, p + i, n);
			w += n;
			i += n;
		}
	}
	*w = '\0';
	return out;
}

char *hex_encode(const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *out;

	if (len > (SIZE_MAX - 1) / 2)
		return NULL;
	out = malloc(len * 2 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[(unsigned char)s[i] >> 4];
		out[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	out[len * 2] = '\0';
	return out;
}

int hex_decode_text(const char *hex, char **ret)
{
	size_t n = strlen(hex);
	char *out;

	if (n % 2)
		return -EINVAL;
	out = malloc(n / 2 + 1);
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < n / 2; i++) {
		int a = parse_hex_digit(hex[2 * i]), b = parse_hex_digit(hex[2 * i + 1]);

		if (a < 0 || b < 0 || (a | b) == 0) {
			free(out);
			return -EINVAL;
		}
		out[i] = (char)(a << 4 | b);
	}
	out[n / 2] = '\0';
	*ret = out;
	return 0;
}
