/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SHA-256 (NIST FIPS 180-4) from libnettle, loaded on first use (dl.h, struct dl_lazy): only
 * --image-verify hashes anything (an OCI descriptor's "sha256:" digest, image-spec
 * descriptor.md "Digests", checked against the layer blob it names), so every other run
 * leaves the library unmapped. The pointers have the types of nettle's own <nettle/sha2.h>
 * declarations (its sha256_* macros name the nettle_sha256_* functions).
 */
#pragma once

#include <nettle/sha2.h>

#include "dl.h"

#define VENDOR_NETTLE_SYMBOLS(X, T)                                                                \
	X(T, nettle_sha256_init)                                                                   \
	X(T, nettle_sha256_update)                                                                 \
	X(T, nettle_sha256_digest)

struct vendor_nettle {
	VENDOR_NETTLE_SYMBOLS(DL_LAZY_FIELD, _)
};

/* libnettle's functions: 0 and *ret, or a dl_lazy_load() error with *ret_error saying why. */
int vendor_nettle(const struct vendor_nettle **ret, const char **ret_error);

/* A streaming SHA-256 through those functions. */
struct vendor_sha256 {
	const struct vendor_nettle *fns;
	struct sha256_ctx ctx;
};
/* 0, or vendor_nettle()'s error with *ret_error saying why (libnettle not installed). */
int vendor_sha256_init(struct vendor_sha256 *s, const char **ret_error);
void vendor_sha256_update(struct vendor_sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL. */
void vendor_sha256_final_hex(struct vendor_sha256 *s, char hex[65]);
