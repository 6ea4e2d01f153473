/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The keys a UEFI key variable holds (db, MokListRT …), read from bytes only: a sequence of
 * EFI_SIGNATURE_LIST structures (UEFI Specification 2.10, §32.4.1 "Signature Database"):
 *
 *   EFI_GUID SignatureType; UINT32 SignatureListSize; UINT32 SignatureHeaderSize;
 *   UINT32 SignatureSize; UINT8 SignatureHeader[SignatureHeaderSize];
 *   EFI_SIGNATURE_DATA Signatures[…] (each SignatureSize bytes: EFI_GUID SignatureOwner,
 *   then the data),
 *
 * all little-endian. For EFI_CERT_X509_GUID lists each entry's data is one DER X.509
 * certificate (RFC 5280 §4.1): what is kept of it is what the kernel matches a module
 * signature's signer against (its issuer Name and serial number, the way
 * crypto/asymmetric_keys/x509_cert_parser.c builds the key id a PKCS#7 SignerInfo names) and
 * the commonNames `mokutil --list-enrolled` shows. Hash entries (EFI_CERT_SHA256_GUID …) are
 * counted only.
 *
 * The caller strips what the file system adds: efivarfs puts the variable's 4 attribute bytes
 * before the data (Documentation/filesystems/efivarfs.rst); the kernel's
 * /sys/firmware/efi/mok-variables/ files hold the data alone.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define EFI_SIGLIST_MAX_CERTS 256

struct efi_cert {
	char *subject_cn;    /* NULL: the subject has no commonName */
	char *issuer_cn;     /* NULL: the issuer has no commonName */
	char *serial;	     /* "AB:CD:…", as `modinfo` prints a sig_key */
	uint8_t *issuer_der; /* the issuer Name, whole DER SEQUENCE */
	size_t issuer_der_len;
	uint8_t *serial_bytes; /* the serial's magnitude (no leading 00 sign byte) */
	size_t serial_len;
};

struct efi_siglist {
	struct efi_cert *certs;
	size_t n_certs;
	size_t n_hashes;  /* entries of other signature types (hashes of binaries) */
	size_t n_dropped; /* certificates past EFI_SIGLIST_MAX_CERTS */
};

/*
 * Parses a variable's data: 0 (*ret filled, possibly empty), -EBADMSG with *why (a list or
 * certificate that does not fit its declared sizes), -ENOMEM. *why is malloc'ed or NULL.
 */
int efi_siglist_parse(const uint8_t *p, size_t len, struct efi_siglist *ret, char **why);
void efi_siglist_done(struct efi_siglist *l);
