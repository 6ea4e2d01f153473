/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A Linux kernel module file (nvidia.ko, .ko.xz, .ko.zst, .ko.gz) read from bytes only: the
 * caller reads the file (inside the sysroot, through core/root) and hands over a read
 * callback; nothing here opens a path, follows a link or runs a program.
 *
 * What is read, and the documents that define it:
 * - the ELF header and section headers (System V ABI, "ELF-64 Object File Format"; Linux
 *   <elf.h>) and the module's .modinfo section: NUL-terminated "key=value" strings
 *   (include/linux/moduleparam.h __MODULE_INFO, as `modinfo` prints them);
 * - the appended signature (scripts/sign-file.c): the signature, a 12-byte
 *   struct module_signature { u8 algo, hash, id_type, signer_len, key_id_len, __pad[3];
 *   __be32 sig_len; } and the 28-byte magic "~Module signature appended~\n"
 *   (include/linux/module_signature.h). For id_type PKEY_ID_PKCS7 (2, every kernel since
 *   4.3) the signature is a DER CMS/PKCS#7 SignedData (RFC 5652) whose first SignerInfo
 *   names the signing certificate by issuer and serial number (or subjectKeyIdentifier):
 *   `modinfo` shows the issuer's commonName as "signer" and the serial as "sig_key"
 *   (kmod libkmod/libkmod-signature.c);
 * - compressed modules are signed before they are compressed (scripts/Makefile.modinst),
 *   so the trailer is at the end of the decompressed stream; xz (.xz container, liblzma),
 *   zstd (frame format, RFC 8878) and gzip (RFC 1952) as CONFIG_MODULE_COMPRESS_* makes them.
 *
 * Compressed input is decompressed as a stream with a hard cap on the output
 * (KMODULE_MAX_SIZE); what is kept is bounded whatever the input: the ELF header, the
 * section headers, the section-name table, .modinfo and the last KMODULE_TAIL bytes. A
 * second (rarely a third) pass over the stream fetches the parts whose place was learnt
 * after the stream had passed them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Caps: a stripped nvidia.ko is 40-100 MB; its .modinfo a few KiB; a PKCS#7 module
 * signature without certificates under 1 KiB (RSA-4096: ~700 bytes). */
#define KMODULE_MAX_SIZE    ((uint64_t)256 << 20) /* decompressed (or plain) module */
#define KMODULE_MAX_INPUT   ((uint64_t)256 << 20) /* compressed bytes read */
#define KMODULE_MAX_MODINFO ((size_t)1 << 20)
#define KMODULE_MAX_SHSTR   ((size_t)4 << 20)
#define KMODULE_MAX_SIG	    ((size_t)64 << 10)
#define KMODULE_TAIL	    ((size_t)1 << 20) /* end of the module kept while streaming */
/* Bytes a streamed module may run past the end of its ELF image: a signature. */
#define KMODULE_SIG_SLACK (KMODULE_MAX_SIG + 12 + 28 + 2 * 255)

enum kmodule_compression {
	KMODULE_PLAIN,
	KMODULE_XZ,
	KMODULE_ZSTD,
	KMODULE_GZIP,
};

/* The compression a module file's name says (".ko", ".ko.xz", ".ko.zst", ".ko.gz"); -EINVAL
 * for another name. */
int kmodule_compression_from_name(const char *name, enum kmodule_compression *ret);
const char *kmodule_compression_name(enum kmodule_compression c);

struct kmodule_sig {
	bool present;	       /* a "~Module signature appended~" trailer */
	const char *id_type;   /* "PKCS#7", "X509", "PGP" */
	const char *algo;      /* "rsa", "ecdsa" …, NULL when the signature does not say */
	const char *hash_algo; /* "sha256" …, NULL when unknown */
	char *signer;	       /* issuer commonName (PKCS#7) or the signer field; NULL: none */
	char *key_id;	       /* serial number or key id as "AB:CD:…"; NULL: none */
	size_t sig_len;
	/* PKCS#7 with issuerAndSerialNumber: the issuer Name (DER, whole SEQUENCE) and the
	 * serial's content bytes, to match an enrolled certificate; NULL otherwise. */
	uint8_t *issuer_der, *serial;
	size_t issuer_der_len, serial_len;
};

struct kmodule_info {
	enum kmodule_compression compression;
	uint64_t size; /* of the (decompressed) module */
	bool has_modinfo;
	/* From .modinfo; NULL when the key is absent. */
	char *version, *vermagic, *srcversion, *name;
	struct kmodule_sig sig;
	/* Why the signature could not be read while the rest could (NULL: it could). */
	char *sig_error;
	unsigned passes; /* passes over a compressed stream (1-3); 1 for a plain file */
};

struct kmodule_input {
	/* Copies bytes [off, off + n) of the file into buf; returns the count (fewer only at
	 * the end of the file) or a negative errno. */
	ssize_t (*read)(void *userdata, uint64_t off, void *buf, size_t n);
	void *userdata;
	uint64_t size; /* of the file as stored */
	enum kmodule_compression compression;
};

/*
 * Reads the module: 0 (*ret filled; a bad signature trailer alone is sig_error, not a
 * failure), -EFBIG (larger than a cap: *why says which), -EBADMSG (not a readable module:
 * *why says where), -ENOMEM, or the read callback's -errno. *why is malloc'ed or NULL.
 */
int kmodule_read(const struct kmodule_input *in, struct kmodule_info *ret, char **why);
/* The same over bytes in memory (tests, fuzzing). */
int kmodule_read_buffer(const uint8_t *p, size_t len, enum kmodule_compression c,
			struct kmodule_info *ret, char **why);
void kmodule_info_done(struct kmodule_info *m);

/* The pure parts, each over bytes in memory: */

/* The signature trailer at the end of the len bytes at p (the module's last bytes, or all
 * of it): 0 with ret->present false when there is none, 0 when one was read, -EBADMSG with
 * *why when it is malformed, -ENOMEM. */
int kmodule_parse_sig(const uint8_t *p, size_t len, struct kmodule_sig *ret, char **why);
void kmodule_sig_done(struct kmodule_sig *s);
/* The "key=value\0…" strings of a .modinfo section: fills version, vermagic, srcversion
 * and name (the first of each). 0 or -ENOMEM. */
int kmodule_parse_modinfo(const uint8_t *p, size_t len, struct kmodule_info *ret);
/* One .modinfo value: the first "key=" string's value (NUL-terminated within len), or NULL. */
const char *kmodule_modinfo_get(const uint8_t *p, size_t len, const char *key);
