// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The streaming JSON reader of json-scan.h. Grammar: RFC 8259 §2-7 (values, objects, arrays,
 * numbers, strings). One loop with an explicit stack instead of recursion, so a hostile
 * nesting depth costs a bounded stack and is refused at JSON_SCAN_MAX_DEPTH.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "formats/json-scan.h"

struct scanner {
	const char *p, *end, *start;
	struct json_scan_error *err;
};

static int fail(struct scanner *s, const char *at, const char *reason)
{
	if (s->err) {
		s->err->offset = (size_t)(at - s->start);
		s->err->reason = reason;
	}
	return -EBADMSG;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* p at an opening quote: the closing quote, or NULL when the text ends first. An escaped quote
 * is one behind an odd run of backslashes. */
static const char *string_end(const char *p, const char *end)
{
	const char *q = p + 1;

	for (;;) {
		const char *b;

		q = memchr(q, '"', (size_t)(end - q));
		if (!q)
			return NULL;
		b = q;
		while (b > p + 1 && b[-1] == '\\')
			b--;
		if (((q - b) & 1) == 0)
			return q;
		q++;
	}
}

/* p at '{' or '[': just past the matching bracket. Brackets are matched by kind with one bit
 * per level (JSON_SCAN_MAX_DEPTH levels below the container), strings passed over whole. */
static int skip_container(struct scanner *s, const char **pp, unsigned depth)
{
	const char *p = *pp;
	uint64_t objects = 0;
	unsigned level = 0;

	for (; p < s->end; p++) {
		switch (*p) {
		case '"':
			p = string_end(p, s->end);
			if (!p)
				return fail(s, s->end, "unterminated string");
			break;
		case '{':
		case '[':
			if (level + depth >= JSON_SCAN_MAX_DEPTH || level >= 64)
				return -E2BIG;
			objects = (objects << 1) | (*p == '{');
			level++;
			break;
		case '}':
		case ']':
			if (level == 0 || (objects & 1) != (*p == '}'))
				return fail(s, p, "mismatched bracket");
			objects >>= 1;
			if (--level == 0) {
				*pp = p + 1;
				return 0;
			}
			break;
		}
	}
	return fail(s, s->end, "unterminated container");
}

static const char *scan_number(const char *p, const char *end)
{
	const char *d;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (p < end && *p == '.') {
		d = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return NULL;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		d = p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return NULL;
	}
	return p;
}

struct level {
	bool object;
	size_t n;
};

int json_scan(const char *text, size_t len, json_scan_fn fn, void *userdata,
	      struct json_scan_error *err)
{
	struct scanner s = { .p = text, .end = text + len, .start = text, .err = err };
	struct json_scan_seg path[JSON_SCAN_MAX_DEPTH];
	struct level stack[JSON_SCAN_MAX_DEPTH];
	struct json_scan_item it = { .path = path };
	const char *p = skip_ws(text, s.end), *q;
	unsigned depth = 0;
	int r;

	if (p == s.end)
		return fail(&s, p, "no JSON value");
value:
	it.depth = depth;
	it.value = NULL;
	it.value_len = 0;
	if (p == s.end)
		return fail(&s, p, "value expected");
	switch (*p) {
	case '{':
	case '[':
		it.event = *p == '{' ? JSON_SCAN_OBJECT : JSON_SCAN_ARRAY;
		r = fn(userdata, &it);
		if (r < 0)
			return r;
		if (r == JSON_SCAN_SKIP) {
			r = skip_container(&s, &p, depth);
			if (r < 0)
				return r;
			goto after;
		}
		if (depth >= JSON_SCAN_MAX_DEPTH)
			return -E2BIG;
		stack[depth] = (struct level){ .object = *p == '{', .n = 0 };
		depth++;
		p = skip_ws(p + 1, s.end);
		if (p < s.end && *p == (stack[depth - 1].object ? '}' : ']'))
			goto close;
		goto member;
	case '"':
		q = string_end(p, s.end);
		if (!q)
			return fail(&s, p, "unterminated string");
		it.event = JSON_SCAN_STRING;
		it.value = p + 1;
		it.value_len = (size_t)(q - p - 1);
		p = q + 1;
		break;
	case 't':
	case 'f':
	case 'n': {
		static const char *const words[] = { "true", "false", "null" };
		static const enum json_scan_event events[] = { JSON_SCAN_TRUE, JSON_SCAN_FALSE,
							       JSON_SCAN_NULL };
		size_t w = *p == 't' ? 0 : *p == 'f' ? 1 : 2, wl = strlen(words[w]);

		if ((size_t)(s.end - p) < wl || memcmp(p, words[w], wl) != 0)
			return fail(&s, p, "unknown literal");
		it.event = events[w];
		it.value = p;
		it.value_len = wl;
		p += wl;
		break;
	}
	default:
		q = scan_number(p, s.end);
		if (!q)
			return fail(&s, p, "unexpected character");
		it.event = JSON_SCAN_NUMBER;
		it.value = p;
		it.value_len = (size_t)(q - p);
		p = q;
		break;
	}
	r = fn(userdata, &it);
	if (r < 0)
		return r;
after:
	if (depth == 0) {
		p = skip_ws(p, s.end);
		return p == s.end ? 0 : fail(&s, p, "text after the value");
	}
	p = skip_ws(p, s.end);
	if (p == s.end)
		return fail(&s, p, "unterminated container");
	if (*p == ',') {
		stack[depth - 1].n++;
		p = skip_ws(p + 1, s.end);
		goto member;
	}
	if (*p != (stack[depth - 1].object ? '}' : ']'))
		return fail(&s, p, "',' or a closing bracket expected");
close:
	depth--;
	it.event = JSON_SCAN_END;
	it.depth = depth;
	it.value = NULL;
	it.value_len = 0;
	r = fn(userdata, &it);
	if (r < 0)
		return r;
	p++;
	goto after;
member:
	if (!stack[depth - 1].object) {
		path[depth - 1] = (struct json_scan_seg){ .index = stack[depth - 1].n };
		goto value;
	}
	if (p == s.end || *p != '"')
		return fail(&s, p, "member name expected");
	q = string_end(p, s.end);
	if (!q)
		return fail(&s, p, "unterminated string");
	path[depth - 1] = (struct json_scan_seg){ .key = p + 1, .key_len = (size_t)(q - p - 1) };
	p = skip_ws(q + 1, s.end);
	if (p == s.end || *p != ':')
		return fail(&s, p, "':' expected");
	p = skip_ws(p + 1, s.end);
	goto value;
}

static int hex4(const char *p, unsigned *ret)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -EBADMSG;
	}
	*ret = v;
	return 0;
}

static size_t utf8_put(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

int json_scan_unescape(const char *raw, size_t len, char *out, size_t cap, size_t *ret_len)
{
	const char *p = raw, *end = raw + len;
	size_t o = 0;

	while (p < end) {
		char buf[4];
		size_t n = 1;
		unsigned cp;

		if ((unsigned char)*p < 0x20)
			return -EBADMSG;
		if (*p != '\\') {
			buf[0] = *p++;
		} else {
			if (end - p < 2)
				return -EBADMSG;
			switch (p[1]) {
			case '"':
			case '\\':
			case '/':
				buf[0] = p[1];
				break;
			case 'b':
				buf[0] = '\b';
				break;
			case 'f':
				buf[0] = '\f';
				break;
			case 'n':
				buf[0] = '\n';
				break;
			case 'r':
				buf[0] = '\r';
				break;
			case 't':
				buf[0] = '\t';
				break;
			case 'u':
				if (end - p < 6 || hex4(p + 2, &cp) < 0 || cp == 0)
					return -EBADMSG;
				if (cp >= 0xdc00 && cp <= 0xdfff)
					return -EBADMSG;
				if (cp >= 0xd800 && cp <= 0xdbff) {
					unsigned lo;

					if (end - p < 12 || p[6] != '\\' || p[7] != 'u' ||
					    hex4(p + 8, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
						return -EBADMSG;
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
				n = utf8_put(buf, cp);
				p += 4;
				break;
			default:
				return -EBADMSG;
			}
			p += 2;
		}
		if (o + n + 1 > cap)
			return -ENOSPC;
		memcpy(out + o, buf, n);
		o += n;
	}
	if (o + 1 > cap)
		return -ENOSPC;
	out[o] = '\0';
	if (ret_len)
		*ret_len = o;
	return 0;
}
