/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SHA-256 (NIST FIPS 180-4, section 6.2), streaming: what an OCI descriptor's "sha256:" digest
 * is computed over (image-spec descriptor.md, "Digests"), to check a layer blob against its
 * manifest without holding it in memory.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len; /* bytes hashed */
	uint8_t block[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL. */
void sha256_final_hex(struct sha256 *s, char hex[65]);
