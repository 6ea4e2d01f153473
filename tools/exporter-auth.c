// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Basic authentication for `gpuenv exporter --web-config` (RFC 7617): the users and bcrypt
 * hashes of the exporter-toolkit web configuration, checked with libcrypt's crypt_rn()
 * (libxcrypt, Debian libcrypt-dev, which implements bcrypt's $2a$/$2b$/$2y$). bcrypt is slow
 * on purpose (cost 10: tens of milliseconds), and Prometheus sends the same credentials on
 * every scrape, so a verdict is cached per (user, password), as exporter-toolkit does; the
 * cache is small and overwritten round-robin, so a flood of wrong passwords costs bcrypt
 * each time but never memory. Unknown users are checked against a dummy hash, so the answer
 * takes as long as for a known one (no user enumeration by timing).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exporter-libs.h"
#include "exporter.h"

#define AUTH_CACHE_SIZE 64

struct auth_entry {
	size_t user; /* index into the users */
	char *password;
	bool ok;
};

struct exporter_auth {
	pthread_mutex_t lock;
	const struct exporter_crypt *libcrypt; /* crypt_rn(), loaded on first use */
	const struct exporter_user *users;
	size_t n_users;
	struct auth_entry cache[AUTH_CACHE_SIZE];
	size_t next;
};

/* A valid bcrypt hash of a random string nobody knows, for unknown users. */
static const char dummy_hash[] = "$2b$10$PcnW4m37JYTMCcq9LD7RzemvwnaV/wN6nuH9puYj.8peHD4xYCaUu";

/* Compares without stopping at the first difference. */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static bool bcrypt_matches(const struct exporter_auth *a, const char *password, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd)); /* 32 KiB: not on a thread's stack */
	const char *out;
	bool ok;

	if (!cd)
		return false;
	out = a->libcrypt->crypt_rn(password, hash, cd, (int)sizeof(*cd));
	ok = out && out[0] != '*' && same(out, hash);
	free(cd);
	return ok;
}

int exporter_auth_new(const struct exporter_user *users, size_t n, struct exporter_auth **ret)
{
	const struct exporter_crypt *libcrypt;
	struct exporter_auth *a;

	if (exporter_crypt(&libcrypt, NULL) < 0)
		return -ELIBACC;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	a->libcrypt = libcrypt;
	a->users = users;
	a->n_users = n;
	*ret = a;
	return 0;
}

bool exporter_auth_check(struct exporter_auth *a, const char *user, const char *password)
{
	size_t u = a->n_users;
	bool ok;

	for (size_t i = 0; i < a->n_users; i++)
		if (same(a->users[i].name, user))
			u = i;
	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; u < a->n_users && i < AUTH_CACHE_SIZE; i++) {
		struct auth_entry *e = &a->cache[i];

		if (e->password && e->user == u && same(e->password, password)) {
			ok = e->ok;
			pthread_mutex_unlock(&a->lock);
			return ok;
		}
	}
	pthread_mutex_unlock(&a->lock);
	if (u == a->n_users) {
		bcrypt_matches(a, password, dummy_hash);
		return false;
	}
	ok = bcrypt_matches(a, password, a->users[u].hash);
	pthread_mutex_lock(&a->lock);
	{
		struct auth_entry *e = &a->cache[a->next];
		char *copy = strdup(password);

		if (copy) {
			free(e->password);
			e->password = copy;
			e->user = u;
			e->ok = ok;
			a->next = (a->next + 1) % AUTH_CACHE_SIZE;
		}
	}
	pthread_mutex_unlock(&a->lock);
	return ok;
}

void exporter_auth_free(struct exporter_auth *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < AUTH_CACHE_SIZE; i++)
		free(a->cache[i].password);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
