/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A string → size_t map: open addressing with linear probing (Knuth, TAOCP vol. 3, 6.4,
 * "Algorithm L"), FNV-1a's step over eight-byte words for hashes, grown to keep the load at most
 * 1/2. For the lookups that were linear searches over a growing list (directory listings of the
 * loader, Python environments by resolved prefix), which made discovery quadratic. Keys are copied;
 * no removal.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Defined apart from struct strmap: clang-format 14 and 15 format "} *slots;" differently. */
struct strmap_slot {
	char *key; /* NULL: empty */
	size_t value;
	uint64_t hash; /* key's: compared before the key, kept for growing */
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap, n;
};

#define STRMAP_INIT ((struct strmap){ 0 })

/* The value of key in *ret; false when absent. */
bool strmap_get(const struct strmap *m, const char *key, size_t *ret);
/* Adds key → value, or replaces the value of a key already there. 0 or -ENOMEM. */
int strmap_put(struct strmap *m, const char *key, size_t value);
/* Adds key → value where key is not there yet, its stored copy in *ret_key (alive until
 * strmap_done: a caller's record of the key can be that copy); else the value of the key there
 * in *ret_value. 1 added, 0 there already, or -ENOMEM. One hash and one probe for both. */
int strmap_put_new(struct strmap *m, const char *key, size_t value, size_t *ret_value,
		   const char **ret_key);
void strmap_done(struct strmap *m);
