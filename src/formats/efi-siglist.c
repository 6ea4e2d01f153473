// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * EFI_SIGNATURE_LIST sequences (UEFI Specification 2.10 §32.4.1) and the X.509 certificates
 * (RFC 5280 §4.1) in them: see efi-siglist.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/der.h"
#include "formats/efi-siglist.h"
#include "shared/macro.h"

/* EFI_CERT_X509_GUID {0xa5c059a1, 0x94e4, 0x4aa7, {0x87,0xb5,0xab,0x15,0x5c,0x2b,0xf0,0x72}}
 * as stored: the first three fields little-endian. */
static const uint8_t guid_x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
				       0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };

#define LIST_HDR  28 /* SignatureType, SignatureListSize, SignatureHeaderSize, SignatureSize */
#define OWNER_LEN 16 /* EFI_SIGNATURE_DATA.SignatureOwner */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cert_done(struct efi_cert *c)
{
	free(c->subject_cn);
	free(c->issuer_cn);
	free(c->serial);
	free(c->issuer_der);
	free(c->serial_bytes);
}

/* Certificate { tbsCertificate { [0] version OPTIONAL, serialNumber, signature, issuer,
 * validity, subject, … }, … } */
static int parse_cert(const uint8_t *p, size_t len, struct efi_cert *c)
{
	struct der all = { p, len }, cert, tbs, serial, issuer, issuer_whole, subject;
	uint8_t tag;
	struct der first;
	int err;

	if (der_expect(&all, DER_SEQUENCE, &cert, NULL) < 0 ||
	    der_expect(&cert, DER_SEQUENCE, &tbs, NULL) < 0)
		return -EBADMSG;
	if (der_next(&tbs, &tag, &first, NULL) != 0)
		return -EBADMSG;
	if (tag == DER_CONTEXT_0) {
		if (der_expect(&tbs, DER_INTEGER, &serial, NULL) < 0)
			return -EBADMSG;
	} else if (tag == DER_INTEGER) {
		serial = first; /* v1 certificate: no version field */
	} else {
		return -EBADMSG;
	}
	if (serial.len == 0 || der_expect(&tbs, DER_SEQUENCE, NULL, NULL) < 0 ||
	    der_expect(&tbs, DER_SEQUENCE, &issuer, &issuer_whole) < 0 ||
	    der_expect(&tbs, DER_SEQUENCE, NULL, NULL) < 0 ||
	    der_expect(&tbs, DER_SEQUENCE, &subject, NULL) < 0)
		return -EBADMSG;
	/* The INTEGER's magnitude, as the module signature's serial is kept (kmodule-sig.c). */
	if (serial.len > 1 && serial.p[0] == 0 && (serial.p[1] & 0x80)) {
		serial.p++;
		serial.len--;
	}
	err = der_name_common_name(issuer, &c->issuer_cn);
	if (err < 0)
		return err;
	err = der_name_common_name(subject, &c->subject_cn);
	if (err < 0)
		return err;
	c->serial = der_hex_colons(serial.p, serial.len);
	c->issuer_der = malloc(issuer_whole.len);
	c->serial_bytes = malloc(serial.len);
	if (!c->serial || !c->issuer_der || !c->serial_bytes)
		return -ENOMEM;
	memcpy(c->issuer_der, issuer_whole.p, issuer_whole.len);
	c->issuer_der_len = issuer_whole.len;
	memcpy(c->serial_bytes, serial.p, serial.len);
	c->serial_len = serial.len;
	return 0;
}

static int add_cert(struct efi_siglist *l, const uint8_t *p, size_t len, size_t list_no,
		    size_t entry_no, char **why)
{
	struct efi_cert c = { 0 }, *n;
	int err;

	if (l->n_certs >= EFI_SIGLIST_MAX_CERTS) {
		l->n_dropped++;
		return 0;
	}
	err = parse_cert(p, len, &c);
	if (err < 0) {
		cert_done(&c);
		if (err == -ENOMEM)
			return err;
		return der_fail(why, "signature list %zu, entry %zu: not a DER X.509 certificate",
				list_no, entry_no);
	}
	n = realloc(l->certs, (l->n_certs + 1) * sizeof(*n));
	if (!n) {
		cert_done(&c);
		return -ENOMEM;
	}
	l->certs = n;
	l->certs[l->n_certs++] = c;
	return 0;
}

int efi_siglist_parse(const uint8_t *p, size_t len, struct efi_siglist *ret, char **why)
{
	size_t off = 0;
	int err = 0;

	*ret = (struct efi_siglist){ 0 };
	for (size_t list_no = 0; off < len; list_no++) {
		uint32_t list_size, hdr_size, sig_size;
		size_t body, count;
		bool x509;

		if (len - off < LIST_HDR) {
			err = der_fail(why, "signature list %zu: %zu bytes left, a header needs %d",
				       list_no, len - off, LIST_HDR);
			break;
		}
		x509 = memcmp(p + off, guid_x509, sizeof(guid_x509)) == 0;
		list_size = le32(p + off + 16);
		hdr_size = le32(p + off + 20);
		sig_size = le32(p + off + 24);
		if (list_size < LIST_HDR || list_size > len - off ||
		    hdr_size > list_size - LIST_HDR) {
			err = der_fail(why,
				       "signature list %zu: SignatureListSize %" PRIu32
				       " / SignatureHeaderSize %" PRIu32
				       " do not fit the %zu bytes left",
				       list_no, list_size, hdr_size, len - off);
			break;
		}
		body = list_size - LIST_HDR - hdr_size;
		if (sig_size <= OWNER_LEN || body % sig_size != 0) {
			err = der_fail(why,
				       "signature list %zu: SignatureSize %" PRIu32
				       " does not divide its %zu bytes of entries",
				       list_no, sig_size, body);
			break;
		}
		count = body / sig_size;
		for (size_t i = 0; i < count && err == 0; i++) {
			const uint8_t *e = p + off + LIST_HDR + hdr_size + i * sig_size;

			if (x509)
				err = add_cert(ret, e + OWNER_LEN, sig_size - OWNER_LEN, list_no, i,
					       why);
			else
				ret->n_hashes++;
		}
		if (err < 0)
			break;
		off += list_size;
	}
	if (err < 0) {
		efi_siglist_done(ret);
		return err;
	}
	return 0;
}

void efi_siglist_done(struct efi_siglist *l)
{
	for (size_t i = 0; i < l->n_certs; i++)
		cert_done(&l->certs[i]);
	free(l->certs);
	*l = (struct efi_siglist){ 0 };
}
