/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The subset of ASN.1 BER/DER (ITU-T X.690) that reading a module signature and an X.509
 * certificate needs: one-byte tags (tag numbers below 31), definite lengths up to 4 length
 * bytes and, for constructed values, the indefinite form ended by 00 00 (BER, as CMS
 * streaming writers may emit). Every length is checked against what is left; nesting of
 * indefinite values is limited (DER_MAX_DEPTH). Views only: nothing is copied.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/macro.h"

#define DER_MAX_DEPTH 32

/* Universal and context tags used by the callers. */
enum {
	DER_INTEGER = 0x02,
	DER_BIT_STRING = 0x03,
	DER_OCTET_STRING = 0x04,
	DER_NULL = 0x05,
	DER_OID = 0x06,
	DER_UTF8_STRING = 0x0c,
	DER_PRINTABLE_STRING = 0x13,
	DER_T61_STRING = 0x14,
	DER_IA5_STRING = 0x16,
	DER_BMP_STRING = 0x1e,
	DER_SEQUENCE = 0x30,
	DER_SET = 0x31,
	DER_CONTEXT_0 = 0xa0, /* [0] constructed */
	DER_CONTEXT_1 = 0xa1,
	DER_CONTEXT_P0 = 0x80, /* [0] primitive (IMPLICIT OCTET STRING) */
};

struct der {
	const uint8_t *p;
	size_t len;
};

/*
 * Takes the next element off *cur: its tag, its content (*ret_content) and, if ret_whole,
 * the whole element (tag and length included). Returns 0, 1 at the end of *cur, or
 * -EBADMSG for a truncated or unsupported encoding.
 */
int der_next(struct der *cur, uint8_t *ret_tag, struct der *ret_content, struct der *ret_whole);
/* der_next() that wants the given tag: -EBADMSG for another tag or the end. */
int der_expect(struct der *cur, uint8_t tag, struct der *ret_content, struct der *ret_whole);
/* The content equals the OID's DER content bytes. */
bool der_oid_is(const struct der *content, const uint8_t *oid, size_t oid_len);

/* Bytes of a string value as text: control bytes as \xHH, other bytes kept; ucs2: an ASN.1
 * BMPString (UCS-2, big-endian) converted to UTF-8. NULL on OOM. */
char *der_text(const uint8_t *p, size_t n, bool ucs2);
/* "AB:CD:…" (upper-case hex, colon-separated), as `modinfo` prints a sig_key. NULL on OOM. */
char *der_hex_colons(const uint8_t *p, size_t n);
/* The commonName of an X.501 Name's content (SEQUENCE OF SET OF AttributeTypeAndValue):
 * 0 with *ret set, or NULL when it has none; -EBADMSG, -ENOMEM. */
int der_name_common_name(struct der name, char **ret);
/* A parse error of a caller of this file: *why (if why) set to the formatted reason (the
 * previous one freed; NULL if that fails), and -EBADMSG returned. */
int der_fail(char **why, const char *fmt, ...) _printf_(2, 3);
