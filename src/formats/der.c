// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ASN.1 BER/DER element walking (ITU-T X.690 §8.1: identifier, length, contents; §8.1.3.6:
 * the indefinite form, ended by the end-of-contents octets 00 00). See der.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/der.h"
#include "shared/strbuf.h"

/* The element at the start of p[0..len): header size, content size, whether the content is
 * indefinite (then *ret_content excludes the 00 00 and *ret_total includes it). */
static int der_element(const uint8_t *p, size_t len, unsigned depth, uint8_t *ret_tag,
		       size_t *ret_hdr, size_t *ret_content, size_t *ret_total)
{
	size_t hdr = 2, clen = 0;
	uint8_t tag, l;

	if (len < 2)
		return -EBADMSG;
	tag = p[0];
	if ((tag & 0x1f) == 0x1f)
		return -EBADMSG; /* high tag numbers: never in what is read here */
	l = p[1];
	if (l == 0x80) {
		/* Indefinite: constructed only; walk the children to the 00 00. */
		size_t off = 2;

		if (!(tag & 0x20) || depth >= DER_MAX_DEPTH)
			return -EBADMSG;
		for (;;) {
			size_t h, c, t;
			uint8_t ct;
			int err;

			if (len - off >= 2 && p[off] == 0 && p[off + 1] == 0) {
				*ret_tag = tag;
				*ret_hdr = 2;
				*ret_content = off - 2;
				*ret_total = off + 2;
				return 0;
			}
			err = der_element(p + off, len - off, depth + 1, &ct, &h, &c, &t);
			if (err < 0)
				return err;
			off += t;
		}
	}
	if (l & 0x80) {
		unsigned n = l & 0x7f;

		if (n == 0 || n > 4 || len - 2 < n)
			return -EBADMSG;
		for (unsigned i = 0; i < n; i++)
			clen = clen << 8 | p[2 + i];
		hdr += n;
	} else {
		clen = l;
	}
	if (clen > len - hdr)
		return -EBADMSG;
	*ret_tag = tag;
	*ret_hdr = hdr;
	*ret_content = clen;
	*ret_total = hdr + clen;
	return 0;
}

int der_next(struct der *cur, uint8_t *ret_tag, struct der *ret_content, struct der *ret_whole)
{
	size_t hdr, clen, total;
	uint8_t tag;
	int err;

	if (cur->len == 0)
		return 1;
	err = der_element(cur->p, cur->len, 0, &tag, &hdr, &clen, &total);
	if (err < 0)
		return err;
	if (ret_tag)
		*ret_tag = tag;
	if (ret_content)
		*ret_content = (struct der){ cur->p + hdr, clen };
	if (ret_whole)
		*ret_whole = (struct der){ cur->p, total };
	cur->p += total;
	cur->len -= total;
	return 0;
}

int der_expect(struct der *cur, uint8_t tag, struct der *ret_content, struct der *ret_whole)
{
	struct der save = *cur;
	uint8_t t;
	int err = der_next(cur, &t, ret_content, ret_whole);

	if (err != 0 || t != tag) {
		*cur = save;
		return -EBADMSG;
	}
	return 0;
}

bool der_oid_is(const struct der *content, const uint8_t *oid, size_t oid_len)
{
	return content->len == oid_len && memcmp(content->p, oid, oid_len) == 0;
}

/* "AB:CD:…" */
char *der_hex_colons(const uint8_t *p, size_t n)
{
	char *s = malloc(n ? n * 3 : 1);

	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(s + i * 3, 4, "%02X%s", p[i], i + 1 < n ? ":" : "");
	return s;
}

char *der_text(const uint8_t *p, size_t n, bool ucs2)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = NULL;

	strbuf_init(&sb, 4096);
	for (size_t i = 0; i < n;) {
		unsigned c;

		if (ucs2) {
			if (n - i < 2)
				break;
			c = (unsigned)p[i] << 8 | p[i + 1];
			i += 2;
		} else {
			c = p[i++];
		}
		if (c < 0x20 || c == 0x7f)
			strbuf_printf(&sb, "\\x%02x", c);
		else if (!ucs2 || c < 0x80)
			strbuf_putc(&sb, (char)c);
		else if (c < 0x800)
			strbuf_printf(&sb, "%c%c", 0xc0 | c >> 6, 0x80 | (c & 0x3f));
		else
			strbuf_printf(&sb, "%c%c%c", 0xe0 | c >> 12, 0x80 | (c >> 6 & 0x3f),
				      0x80 | (c & 0x3f));
	}
	if (strbuf_steal(&sb, &s) < 0)
		return NULL;
	return s;
}

/* The commonName of an X.501 Name (SEQUENCE OF SET OF AttributeTypeAndValue), or NULL with 0
 * when it has none. */
int der_name_common_name(struct der name, char **ret)
{
	static const uint8_t oid_cn[] = { 0x55, 0x04, 0x03 }; /* 2.5.4.3 */
	struct der rdn;
	int err;

	*ret = NULL;
	while ((err = der_expect(&name, DER_SET, &rdn, NULL)) == 0) {
		struct der atv;

		while (der_expect(&rdn, DER_SEQUENCE, &atv, NULL) == 0) {
			struct der oid, val;
			uint8_t tag;

			if (der_expect(&atv, DER_OID, &oid, NULL) < 0 ||
			    der_next(&atv, &tag, &val, NULL) != 0)
				return -EBADMSG;
			if (!der_oid_is(&oid, oid_cn, sizeof(oid_cn)) || *ret)
				continue;
			if (tag != DER_UTF8_STRING && tag != DER_PRINTABLE_STRING &&
			    tag != DER_IA5_STRING && tag != DER_T61_STRING && tag != DER_BMP_STRING)
				return -EBADMSG;
			*ret = der_text(val.p, val.len, tag == DER_BMP_STRING);
			if (!*ret)
				return -ENOMEM;
		}
		if (rdn.len)
			return -EBADMSG;
	}
	return name.len ? -EBADMSG : 0;
}

int der_fail(char **why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		free(*why);
		va_start(ap, fmt);
		if (vasprintf(why, fmt, ap) < 0)
			*why = NULL;
		va_end(ap);
	}
	return -EBADMSG;
}
