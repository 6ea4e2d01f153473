// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The security record of exporter-wire.h: a presence byte, then each string as a 32-bit
 * length (WIRE_NULL for none) and its bytes, the lists (users as name and hash, headers as
 * name and value, allowed SANs) each as a count and their strings, the client policy as a
 * 32-bit number.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exporter-wire.h"

#define WIRE_NULL     UINT32_MAX
#define WIRE_MAX_STR  (16u << 20) /* a CA bundle is a few hundred kilobytes */
#define WIRE_MAX_LIST 4096u

int exporter_write_full(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t k = write(fd, c, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		c += k;
		len -= (size_t)k;
	}
	return 0;
}

int exporter_read_full(int fd, void *p, size_t len)
{
	char *c = p;
	size_t got = 0;

	while (got < len) {
		ssize_t k = read(fd, c + got, len - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k == 0 && got == 0 ? 0 : -1;
		got += (size_t)k;
	}
	return 1;
}

static int send_u32(int fd, uint32_t v)
{
	return exporter_write_full(fd, &v, sizeof(v));
}

static int send_str(int fd, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	int r;

	if (s && len >= WIRE_MAX_STR)
		return -E2BIG;
	r = send_u32(fd, s ? (uint32_t)len : WIRE_NULL);
	return r < 0 || !s ? r : exporter_write_full(fd, s, len);
}

/* A NULL-terminated list of n strings (n counted here when n is SIZE_MAX). */
static int send_list(int fd, const char *const *v, size_t n)
{
	int r;

	if (n == SIZE_MAX)
		for (n = 0; v && v[n];)
			n++;
	if (n > WIRE_MAX_LIST * 2)
		return -E2BIG;
	r = send_u32(fd, (uint32_t)n);
	for (size_t i = 0; i < n && r == 0; i++)
		r = send_str(fd, v[i]);
	return r;
}

int exporter_security_send(int fd, const struct exporter_security *sec)
{
	uint8_t present = sec != NULL;
	int r = exporter_write_full(fd, &present, 1);

	if (r < 0 || !sec)
		return r;
	if ((r = send_str(fd, sec->cert_pem)) < 0 || (r = send_str(fd, sec->key_pem)) < 0 ||
	    (r = send_str(fd, sec->tls_priorities)) < 0 ||
	    (r = send_str(fd, sec->client_ca_pem)) < 0 ||
	    (r = send_u32(fd, (uint32_t)sec->client_auth)) < 0)
		return r;
	if (sec->n_users > WIRE_MAX_LIST)
		return -E2BIG;
	r = send_u32(fd, (uint32_t)sec->n_users);
	for (size_t i = 0; i < sec->n_users && r == 0; i++)
		if ((r = send_str(fd, sec->users[i].name)) == 0)
			r = send_str(fd, sec->users[i].hash);
	if (r == 0)
		r = send_list(fd, sec->headers, SIZE_MAX);
	if (r == 0)
		r = send_list(fd, sec->client_allowed_sans, SIZE_MAX);
	return r;
}

static int recv_u32(int fd, uint32_t *v)
{
	return exporter_read_full(fd, v, sizeof(*v)) == 1 ? 0 : -EPROTO;
}

static int recv_str(int fd, char **ret)
{
	uint32_t len;
	char *s;

	*ret = NULL;
	if (recv_u32(fd, &len) < 0 || (len != WIRE_NULL && len >= WIRE_MAX_STR))
		return -EPROTO;
	if (len == WIRE_NULL)
		return 0;
	s = malloc((size_t)len + 1);
	if (!s)
		return -ENOMEM;
	if (len && exporter_read_full(fd, s, len) != 1) {
		free(s);
		return -EPROTO;
	}
	s[len] = '\0';
	*ret = s;
	return 0;
}

/* A list sent by send_list(), NULL-terminated (NULL when empty). */
static int recv_list(int fd, char ***ret)
{
	uint32_t n;
	char **v;
	int r = 0;

	*ret = NULL;
	if (recv_u32(fd, &n) < 0 || n > WIRE_MAX_LIST * 2)
		return -EPROTO;
	if (n == 0)
		return 0;
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < n && r == 0; i++)
		if ((r = recv_str(fd, &v[i])) == 0 && !v[i])
			r = -EPROTO;
	*ret = v; /* freed by the caller's exporter_security_free() on error too */
	return r;
}

static void free_list(const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		free((char *)v[i]);
	free((void *)v);
}

void exporter_security_free(struct exporter_security *sec)
{
	if (!sec)
		return;
	free(sec->cert_pem);
	free(sec->key_pem);
	free((char *)sec->tls_priorities);
	free(sec->client_ca_pem);
	for (size_t i = 0; i < sec->n_users; i++) {
		free((char *)sec->users[i].name);
		free((char *)sec->users[i].hash);
	}
	free((void *)sec->users);
	free_list(sec->headers);
	free_list(sec->client_allowed_sans);
	free(sec);
}

int exporter_security_recv(int fd, struct exporter_security **ret)
{
	struct exporter_security *sec;
	struct exporter_user *users = NULL;
	uint8_t present;
	uint32_t auth, n_users;
	char *tls_priorities = NULL, **headers = NULL, **sans = NULL;
	int r;

	*ret = NULL;
	if (exporter_read_full(fd, &present, 1) != 1)
		return -EPROTO;
	if (!present)
		return 0;
	sec = calloc(1, sizeof(*sec));
	if (!sec)
		return -ENOMEM;
	if ((r = recv_str(fd, &sec->cert_pem)) < 0 || (r = recv_str(fd, &sec->key_pem)) < 0 ||
	    (r = recv_str(fd, &tls_priorities)) < 0 ||
	    (r = (sec->tls_priorities = tls_priorities, recv_str(fd, &sec->client_ca_pem))) < 0 ||
	    (r = recv_u32(fd, &auth)) < 0 || (r = recv_u32(fd, &n_users)) < 0)
		goto fail;
	sec->client_auth = (enum web_client_auth)auth;
	if (n_users > WIRE_MAX_LIST) {
		r = -EPROTO;
		goto fail;
	}
	if (n_users) {
		users = calloc(n_users, sizeof(*users));
		if (!users) {
			r = -ENOMEM;
			goto fail;
		}
		sec->users = users;
		for (uint32_t i = 0; i < n_users; i++, sec->n_users++) {
			char *name, *hash = NULL;

			if ((r = recv_str(fd, &name)) < 0 || (r = recv_str(fd, &hash)) < 0 ||
			    !name || !hash) {
				users[i] = (struct exporter_user){ .name = name, .hash = hash };
				sec->n_users++;
				r = r < 0 ? r : -EPROTO;
				goto fail;
			}
			users[i] = (struct exporter_user){ .name = name, .hash = hash };
		}
	}
	r = recv_list(fd, &headers);
	sec->headers = (const char *const *)headers;
	if (r < 0)
		goto fail;
	r = recv_list(fd, &sans);
	sec->client_allowed_sans = (const char *const *)sans;
	if (r < 0)
		goto fail;
	*ret = sec;
	return 0;
fail:
	exporter_security_free(sec);
	return r;
}
