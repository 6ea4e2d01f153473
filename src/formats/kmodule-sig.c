// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The appended module signature (kmodule.h): the trailer of scripts/sign-file.c and
 * include/linux/module_signature.h, checked as the kernel's mod_check_sig()
 * (kernel/module_signature.c) checks it, and for PKCS#7 the first SignerInfo of the CMS
 * SignedData (RFC 5652 §5.1, §5.3) read the way kmod's libkmod-signature.c reports it
 * (signer: the issuer's commonName; sig_key: the serial number; sig_hashalgo: the digest
 * algorithm), with our own bounds-checked DER walk (der.h) instead of a crypto library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/der.h"
#include "formats/kmodule.h"
#include "shared/macro.h"

static const char sig_magic[] = "~Module signature appended~\n";
#define SIG_MAGIC_LEN (sizeof(sig_magic) - 1)
#define SIG_INFO_LEN  12 /* struct module_signature */

/* include/linux/module_signature.h enum pkey_id_type */
enum { PKEY_ID_PGP, PKEY_ID_X509, PKEY_ID_PKCS7 };

/* include/uapi/linux/hash_info.h, the index the legacy (non-PKCS#7) trailers carry. */
static const char *const hash_info[] = {
	"md4",	  "md5",    "sha1",   "rmd160", "sha256",      "sha384",      "sha512",
	"sha224", "rmd128", "rmd256", "rmd320", "wp256",       "wp384",	      "wp512",
	"tgr128", "tgr160", "tgr192", "sm3",	"streebog256", "streebog512",
};

static void *memdup_(const void *p, size_t n)
{
	void *d = malloc(n ? n : 1);

	if (d && n)
		memcpy(d, p, n);
	return d;
}

static const char *digest_name(const struct der *oid)
{
	/* 2.16.840.1.101.3.4.2.x (NIST hash algorithms), 1.3.14.3.2.26 (SHA-1) */
	static const uint8_t nist[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02 };
	static const uint8_t sha1[] = { 0x2b, 0x0e, 0x03, 0x02, 0x1a };
	static const char *const names[] = {
		[1] = "sha256",	  [2] = "sha384",   [3] = "sha512",   [4] = "sha224",
		[8] = "sha3-256", [9] = "sha3-384", [10] = "sha3-512"
	};

	if (der_oid_is(oid, sha1, sizeof(sha1)))
		return "sha1";
	if (oid->len == sizeof(nist) + 1 && memcmp(oid->p, nist, sizeof(nist)) == 0 &&
	    oid->p[sizeof(nist)] < ARRAY_SIZE(names))
		return names[oid->p[sizeof(nist)]];
	return NULL;
}

static const char *sig_algo_name(const struct der *oid)
{
	/* 1.2.840.113549.1.1.* (PKCS #1, RSA), 1.2.840.10045.* (ANSI X9.62, ECDSA) */
	static const uint8_t pkcs1[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01 };
	static const uint8_t x962[] = { 0x2a, 0x86, 0x48, 0xce, 0x3d };

	if (oid->len > sizeof(pkcs1) && memcmp(oid->p, pkcs1, sizeof(pkcs1)) == 0)
		return "rsa";
	if (oid->len > sizeof(x962) && memcmp(oid->p, x962, sizeof(x962)) == 0)
		return "ecdsa";
	return NULL;
}

/* ContentInfo { signedData, [0] SignedData { …, SignerInfos { SignerInfo … } } } */
static int parse_pkcs7(const uint8_t *p, size_t len, struct kmodule_sig *s, char **why)
{
	static const uint8_t oid_signed_data[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7,
						   0x0d, 0x01, 0x07, 0x02 };
	struct der all = { p, len }, ci, oid, explicit0, sd, infos, si, sid, alg, aoid;
	uint8_t tag;
	int err;

	if (der_expect(&all, DER_SEQUENCE, &ci, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: not a DER SEQUENCE");
	if (der_expect(&ci, DER_OID, &oid, NULL) < 0 ||
	    !der_oid_is(&oid, oid_signed_data, sizeof(oid_signed_data)))
		return der_fail(why, "PKCS#7 signature: not a signedData ContentInfo");
	if (der_expect(&ci, DER_CONTEXT_0, &explicit0, NULL) < 0 ||
	    der_expect(&explicit0, DER_SEQUENCE, &sd, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: no SignedData");
	/* version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls */
	if (der_expect(&sd, DER_INTEGER, NULL, NULL) < 0 ||
	    der_expect(&sd, DER_SET, NULL, NULL) < 0 ||
	    der_expect(&sd, DER_SEQUENCE, NULL, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: malformed SignedData header");
	(void)der_expect(&sd, DER_CONTEXT_0, NULL, NULL);
	(void)der_expect(&sd, DER_CONTEXT_1, NULL, NULL);
	if (der_expect(&sd, DER_SET, &infos, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: no signerInfos");
	if (der_expect(&infos, DER_SEQUENCE, &si, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: no SignerInfo");
	if (der_expect(&si, DER_INTEGER, NULL, NULL) < 0 || der_next(&si, &tag, &sid, NULL) != 0)
		return der_fail(why, "PKCS#7 signature: malformed SignerInfo");
	if (tag == DER_SEQUENCE) {
		/* IssuerAndSerialNumber { issuer Name, serialNumber INTEGER } */
		struct der name, name_whole, serial;

		if (der_expect(&sid, DER_SEQUENCE, &name, &name_whole) < 0 ||
		    der_expect(&sid, DER_INTEGER, &serial, NULL) < 0 || serial.len == 0)
			return der_fail(why, "PKCS#7 signature: malformed issuerAndSerialNumber");
		err = der_name_common_name(name, &s->signer);
		if (err == -ENOMEM)
			return err;
		if (err < 0)
			return der_fail(why, "PKCS#7 signature: malformed issuer name");
		/* The INTEGER's magnitude, as OpenSSL's ASN1_INTEGER holds it. */
		if (serial.len > 1 && serial.p[0] == 0 && (serial.p[1] & 0x80)) {
			serial.p++;
			serial.len--;
		}
		s->key_id = der_hex_colons(serial.p, serial.len);
		s->issuer_der = memdup_(name_whole.p, name_whole.len);
		s->serial = memdup_(serial.p, serial.len);
		if (!s->key_id || !s->issuer_der || !s->serial)
			return -ENOMEM;
		s->issuer_der_len = name_whole.len;
		s->serial_len = serial.len;
	} else if (tag == DER_CONTEXT_P0) {
		/* subjectKeyIdentifier (sign-file -k): no issuer to name */
		s->key_id = der_hex_colons(sid.p, sid.len);
		if (!s->key_id)
			return -ENOMEM;
	} else {
		return der_fail(why, "PKCS#7 signature: unknown signer identifier (tag 0x%02x)",
				tag);
	}
	if (der_expect(&si, DER_SEQUENCE, &alg, NULL) < 0 ||
	    der_expect(&alg, DER_OID, &aoid, NULL) < 0)
		return der_fail(why, "PKCS#7 signature: malformed digestAlgorithm");
	s->hash_algo = digest_name(&aoid);
	(void)der_expect(&si, DER_CONTEXT_0, NULL, NULL); /* signedAttrs */
	if (der_expect(&si, DER_SEQUENCE, &alg, NULL) == 0 &&
	    der_expect(&alg, DER_OID, &aoid, NULL) == 0)
		s->algo = sig_algo_name(&aoid);
	return 0;
}

int kmodule_parse_sig(const uint8_t *p, size_t len, struct kmodule_sig *ret, char **why)
{
	static const char *const id_types[] = {
		[PKEY_ID_PGP] = "PGP", [PKEY_ID_X509] = "X509", [PKEY_ID_PKCS7] = "PKCS#7"
	};
	const uint8_t *info;
	size_t sig_len, body;
	int err;

	*ret = (struct kmodule_sig){ 0 };
	if (len < SIG_MAGIC_LEN || memcmp(p + len - SIG_MAGIC_LEN, sig_magic, SIG_MAGIC_LEN) != 0)
		return 0; /* not signed */
	ret->present = true;
	if (len - SIG_MAGIC_LEN < SIG_INFO_LEN)
		return der_fail(why, "signature trailer: struct module_signature truncated");
	info = p + len - SIG_MAGIC_LEN - SIG_INFO_LEN;
	body = len - SIG_MAGIC_LEN - SIG_INFO_LEN;
	sig_len = (size_t)info[8] << 24 | (size_t)info[9] << 16 | (size_t)info[10] << 8 | info[11];
	if (info[2] >= ARRAY_SIZE(id_types))
		return der_fail(why, "signature trailer: unknown id_type %u", info[2]);
	ret->id_type = id_types[info[2]];
	ret->sig_len = sig_len;
	if (sig_len == 0 || sig_len > KMODULE_MAX_SIG)
		return der_fail(why, "signature trailer: sig_len %zu out of range (1..%zu)",
				sig_len, KMODULE_MAX_SIG);
	if (info[2] == PKEY_ID_PKCS7) {
		/* mod_check_sig(): PKCS#7 leaves algo, hash, signer_len and key_id_len zero */
		if (info[0] || info[1] || info[3] || info[4] || info[5] || info[6] || info[7])
			return der_fail(why,
					"signature trailer: PKCS#7 with non-zero legacy fields");
		if (sig_len > body)
			return der_fail(why, "signature trailer: sig_len %zu exceeds the module",
					sig_len);
		err = parse_pkcs7(p + body - sig_len, sig_len, ret, why);
		if (err < 0) {
			/* keep "a PKCS#7 signature is there" with the reason it was not read */
			kmodule_sig_done(ret);
			ret->present = true;
			ret->id_type = "PKCS#7";
			ret->sig_len = sig_len;
		}
		return err;
	}
	/* Legacy (kernels before 4.3): [signer][key id][signature] before the struct. */
	if ((size_t)info[3] + info[4] + sig_len > body)
		return der_fail(why, "signature trailer: lengths exceed the module");
	ret->algo = info[0] == 0 ? "dsa" : info[0] == 1 ? "rsa" : NULL;
	ret->hash_algo = info[1] < ARRAY_SIZE(hash_info) ? hash_info[info[1]] : NULL;
	{
		const uint8_t *key = p + body - sig_len - info[4];
		const uint8_t *signer = key - info[3];

		if (info[3]) {
			ret->signer = der_text(signer, info[3], false);
			if (!ret->signer)
				return -ENOMEM;
		}
		if (info[4]) {
			ret->key_id = der_hex_colons(key, info[4]);
			if (!ret->key_id)
				return -ENOMEM;
		}
	}
	return 0;
}

void kmodule_sig_done(struct kmodule_sig *s)
{
	free(s->signer);
	free(s->key_id);
	free(s->issuer_der);
	free(s->serial);
	*s = (struct kmodule_sig){ 0 };
}
