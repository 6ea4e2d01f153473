// SPDX-License-Identifier: LGPL-2.1-or-later
/* Strict number and version parsing; see parse.h for the accepted forms. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "macro.h"
#include "parse.h"

/* Accepts the end of the token: NUL, or one '\n' followed by NUL. */
static bool at_end(const char *p)
{
	return *p == '\0' || (p[0] == '\n' && p[1] == '\0');
}

int parse_u64(const char *s, int base, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !at_end(end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int parse_i64(const char *s, int64_t *ret)
{
	long long v;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || !at_end(end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int parse_uint(const char *s, int base, unsigned *ret)
{
	uint64_t v;
	int r = parse_u64(s, base, &v);

	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (unsigned)v;
	return 0;
}

int parse_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int parse_decimal_prefix(const char *s, unsigned decimals, uint64_t *ret, const char **ret_end)
{
	uint64_t v = 0;
	unsigned frac = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (bool point = false;; p++) {
		unsigned d;

		if (*p == '.' && !point) {
			if (!isdigit((unsigned char)p[1]))
				return -EINVAL;
			point = true;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			break;
		if (point && ++frac > decimals)
			return -EINVAL;
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	for (; frac < decimals; frac++) {
		if (v > UINT64_MAX / 10)
			return -ERANGE;
		v *= 10;
	}
	*ret = v;
	*ret_end = p;
	return 0;
}

int parse_bool(const char *s, bool *ret)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on" };
	static const char *const no[] = { "0", "n", "no", "false", "off" };
	char buf[8];
	size_t n;

	if (!s)
		return -EINVAL;
	n = strcspn(s, "\n");
	if (n == 0 || n >= sizeof(buf) || !at_end(s + n))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(buf, yes[i]) == 0) {
			*ret = true;
			return 0;
		}
		if (strcasecmp(buf, no[i]) == 0) {
			*ret = false;
			return 0;
		}
	}
	return -EINVAL;
}

int version_parse_prefix(const char *s, struct version *ret, const char **ret_end)
{
	struct version v = { 0 };
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	for (;;) {
		uint64_t field = 0;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p)) {
			field = field * 10 + (uint64_t)(*p - '0');
			if (field > UINT32_MAX)
				return -ERANGE;
			p++;
		}
		if (v.n == VERSION_MAX_PARTS)
			return -EINVAL;
		v.part[v.n++] = (uint32_t)field;
		if (*p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	*ret = v;
	if (ret_end)
		*ret_end = p;
	return 0;
}

int version_parse(const char *s, struct version *ret)
{
	struct version v;
	const char *end;
	int r = version_parse_prefix(s, &v, &end);

	if (r < 0)
		return r;
	if (!at_end(end))
		return -EINVAL;
	*ret = v;
	return 0;
}

int version_cmp(const struct version *a, const struct version *b)
{
	unsigned n = a->n > b->n ? a->n : b->n;

	for (unsigned i = 0; i < n; i++) {
		uint32_t x = i < a->n ? a->part[i] : 0;
		uint32_t y = i < b->n ? b->part[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int version_cmp_str(const char *a, const char *b)
{
	struct version va, vb;
	bool oka = a && version_parse_prefix(a, &va, NULL) == 0;
	bool okb = b && version_parse_prefix(b, &vb, NULL) == 0;

	if (!oka || !okb)
		return (int)oka - (int)okb;
	return version_cmp(&va, &vb);
}

void cuda_version_format(int v, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}
