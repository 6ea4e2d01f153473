// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The exporter-toolkit web configuration reader (web-config.h). Schema:
 * https://github.com/prometheus/exporter-toolkit/blob/master/docs/web-configuration.md
 * (tls_server_config, http_server_config, basic_auth_users, rate_limit). Passwords are bcrypt
 * hashes ("About bcrypt" there); a hash that is not one is refused here, at start-up, rather
 * than failing every request later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "web-config.h"
#include "shared/macro.h"

static const char *const allowed_headers[] = {
	"Content-Security-Policy", "X-Frame-Options",		"X-Content-Type-Options",
	"X-XSS-Protection",	   "Strict-Transport-Security", NULL,
};

/* Keys of the format that gpuenv's server (libmicrohttpd over GnuTLS) does not implement. */
static const char *const unsupported_tls_keys[] = {
	"cipher_suites",
	"curve_preferences",
	"prefer_server_cipher_suites",
	NULL,
};

/* client_auth_type's values, in enum web_client_auth's order ("RequireClientCert": the older
 * name exporter-toolkit still takes for RequireAnyClientCert). */
static const char *const client_auth_names[] = {
	"NoClientCert",
	"RequestClientCert",
	"RequireAnyClientCert",
	"VerifyClientCertIfGiven",
	"RequireAndVerifyClientCert",
	NULL,
};

const char *web_client_auth_name(enum web_client_auth a)
{
	return (unsigned)a < ARRAY_SIZE(client_auth_names) - 1 ? client_auth_names[a] : "?";
}

static int parse_client_auth(struct yaml_walk *w, const yaml_node_t *v, const char *key,
			     enum web_client_auth *ret)
{
	const char *s;
	int r = yaml_walk_scalar(w, v, key, &s);

	if (r < 0)
		return r;
	if (streq(s, "RequireClientCert")) {
		*ret = WEB_CLIENT_REQUIRE_ANY;
		return 0;
	}
	for (size_t i = 0; client_auth_names[i]; i++)
		if (streq(s, client_auth_names[i])) {
			*ret = (enum web_client_auth)i;
			return 0;
		}
	return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
			     "%s: '%s' is not NoClientCert, RequestClientCert, "
			     "RequireAnyClientCert, VerifyClientCertIfGiven or "
			     "RequireAndVerifyClientCert",
			     key, s);
}

static int parse_sans(struct yaml_walk *w, yaml_node_t *v, struct web_config *c)
{
	const char *key = "client_allowed_sans";
	size_t n;
	int r = yaml_walk_kind(w, v, YAML_SEQUENCE_NODE, key);

	if (r < 0)
		return r;
	if (c->client_allowed_sans)
		return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG, "%s given twice", key);
	n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	c->client_allowed_sans = calloc(n + 1, sizeof(char *));
	if (!c->client_allowed_sans)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *item = yaml_walk_get(w, v->data.sequence.items.start[i]);
		const char *s;

		if (!item)
			return yaml_walk_err(w, yaml_walk_line(v), -E2BIG, "%s: too many nodes",
					     key);
		r = yaml_walk_scalar(w, item, key, &s);
		if (r >= 0 && !*s)
			r = yaml_walk_err(w, yaml_walk_line(item), -EBADMSG, "%s: an empty name",
					  key);
		if (r < 0)
			return r;
		c->client_allowed_sans[i] = strdup(s);
		if (!c->client_allowed_sans[c->n_client_allowed_sans++])
			return -ENOMEM;
	}
	return 0;
}

/* What exporter-toolkit's ConfigToTLSConfig() refuses, and what gpuenv cannot do: verifying
 * without a client_ca_file (Go would use the system's CAs). */
static int check_client_auth(struct yaml_walk *w, unsigned line, const struct web_config *c)
{
	const char *sec = "tls_server_config";
	bool verify = c->client_auth == WEB_CLIENT_VERIFY_IF_GIVEN ||
		      c->client_auth == WEB_CLIENT_REQUIRE_AND_VERIFY;

	if (c->client_auth && !c->cert_file)
		return yaml_walk_err(w, line, -EBADMSG,
				     "%s: client_auth_type %s needs TLS (cert_file, key_file)", sec,
				     client_auth_names[c->client_auth]);
	if (c->client_ca_file && c->client_auth == WEB_CLIENT_NO_CERT)
		return yaml_walk_err(w, line, -EBADMSG,
				     "%s: client_ca_file without a client_auth_type that asks for "
				     "certificates",
				     sec);
	if (verify && !c->client_ca_file)
		return yaml_walk_err(w, line, -EBADMSG,
				     "%s: client_auth_type %s needs client_ca_file (gpuenv does "
				     "not check client certificates against the system's CAs)",
				     sec, client_auth_names[c->client_auth]);
	if (c->client_allowed_sans && c->client_auth != WEB_CLIENT_REQUIRE_ANY &&
	    c->client_auth != WEB_CLIENT_REQUIRE_AND_VERIFY)
		return yaml_walk_err(w, line, -EBADMSG,
				     "%s: client_allowed_sans needs client_auth_type "
				     "RequireAnyClientCert or RequireAndVerifyClientCert",
				     sec);
	return 0;
}

const char *web_tls_version_name(enum web_tls_version v)
{
	static const char *const names[] = { "TLS12", "TLS10", "TLS11", "TLS12", "TLS13" };

	return (unsigned)v < ARRAY_SIZE(names) ? names[v] : "?";
}

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (streq(*list, s))
			return true;
	return false;
}

static int dup_text(const char *s, char **ret)
{
	free(*ret);
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

/* "$2a$", "$2b$" or "$2y$", a two-digit cost 04..31, "$", then 53 characters of bcrypt's
 * base-64 alphabet (./A-Za-z0-9): 22 of salt, 31 of hash. */
static bool is_bcrypt(const char *h)
{
	int cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9' || h[6] != '$')
		return false;
	cost = (h[4] - '0') * 10 + (h[5] - '0');
	if (cost < 4 || cost > 31)
		return false;
	return strspn(h + 7, "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
	       53;
}

static int parse_version(struct yaml_walk *w, const yaml_node_t *v, const char *key,
			 enum web_tls_version *ret)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	const char *s;
	int r = yaml_walk_scalar(w, v, key, &s);

	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (streq(s, names[i])) {
			*ret = (enum web_tls_version)(WEB_TLS10 + i);
			return 0;
		}
	return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
			     "%s: '%s' is not TLS10, TLS11, TLS12 or TLS13", key, s);
}

static int parse_tls(struct yaml_walk *w, yaml_node_t *map, struct web_config *c)
{
	const char *sec = "tls_server_config";
	unsigned line = yaml_walk_line(map);
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, sec);

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key, *s;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, sec, &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "cert_file") || streq(key, "key_file") ||
		    streq(key, "client_ca_file")) {
			r = yaml_walk_scalar(w, v, key, &s);
			if (r >= 0 && !*s)
				r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG, "%s: empty", key);
			if (r >= 0)
				r = dup_text(s, streq(key, "cert_file")	 ? &c->cert_file
						: streq(key, "key_file") ? &c->key_file
									 : &c->client_ca_file);
		} else if (streq(key, "cert") || streq(key, "key") || streq(key, "client_ca")) {
			r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					  "%s: %s: inline PEM is not supported by gpuenv: "
					  "give %s_file",
					  sec, key, key);
		} else if (streq(key, "client_auth_type")) {
			r = parse_client_auth(w, v, key, &c->client_auth);
		} else if (streq(key, "client_allowed_sans")) {
			r = parse_sans(w, v, c);
		} else if (streq(key, "min_version")) {
			r = parse_version(w, v, key, &c->min_version);
		} else if (streq(key, "max_version")) {
			r = parse_version(w, v, key, &c->max_version);
		} else if (in_list(unsupported_tls_keys, key)) {
			r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					  "%s: %s is not supported by gpuenv", sec, key);
		} else {
			return yaml_walk_unknown_key(w, v, sec, key);
		}
		if (r < 0)
			return r;
	}
	if (!c->cert_file != !c->key_file)
		return yaml_walk_err(w, line, -EBADMSG, "%s: cert_file and key_file go together",
				     sec);
	if (c->min_version && c->max_version && c->max_version < c->min_version)
		return yaml_walk_err(w, line, -EBADMSG, "%s: max_version below min_version", sec);
	return check_client_auth(w, line, c);
}

static int parse_http(struct yaml_walk *w, yaml_node_t *map, struct web_config *c)
{
	const char *sec = "http_server_config";
	int r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, sec);

	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, sec, &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "http2")) {
			r = yaml_walk_bool(w, v, key, &c->http2);
		} else if (streq(key, "headers")) {
			size_t n;

			if (c->headers)
				return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "%s: headers given twice", sec);
			r = yaml_walk_kind(w, v, YAML_MAPPING_NODE, "headers");
			if (r < 0)
				return r;
			n = (size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start);
			c->headers = calloc(n ? n : 1, sizeof(*c->headers));
			if (!c->headers)
				return -ENOMEM;
			YAML_FOREACH_PAIR(h, v)
			{
				const char *name = NULL, *value = "";
				yaml_node_t *hv;

				r = yaml_walk_pair(w, h, "headers", &name, &hv);
				if (r >= 0)
					r = yaml_walk_scalar(w, hv, name, &value);
				if (r >= 0 && !in_list(allowed_headers, name))
					r = yaml_walk_err(w, yaml_walk_line(hv), -EBADMSG,
							  "headers: '%s' is not one of the "
							  "headers the format allows",
							  name);
				/* a value is one header line: no CR or LF smuggled in */
				if (r >= 0 && strpbrk(value, "\r\n"))
					r = yaml_walk_err(w, yaml_walk_line(hv), -EBADMSG,
							  "headers: %s: a line break in the value",
							  name);
				for (size_t i = 0; r >= 0 && i < c->n_headers; i++)
					if (strcasecmp(c->headers[i].name, name) == 0)
						r = yaml_walk_err(w, yaml_walk_line(hv), -EBADMSG,
								  "headers: %s given twice", name);
				if (r < 0)
					return r;
				c->headers[c->n_headers].name = strdup(name);
				c->headers[c->n_headers].value = strdup(value);
				if (!c->headers[c->n_headers].name ||
				    !c->headers[c->n_headers++].value)
					return -ENOMEM;
			}
		} else {
			return yaml_walk_unknown_key(w, v, sec, key);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_users(struct yaml_walk *w, yaml_node_t *map, struct web_config *c)
{
	size_t n;
	int r;

	if (map->type == YAML_SCALAR_NODE && map->data.scalar.length == 0)
		return 0; /* "basic_auth_users:" with nothing under it */
	r = yaml_walk_kind(w, map, YAML_MAPPING_NODE, "basic_auth_users");
	if (r < 0)
		return r;
	n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	c->users = calloc(n ? n : 1, sizeof(*c->users));
	if (!c->users)
		return -ENOMEM;
	YAML_FOREACH_PAIR(pair, map)
	{
		const char *name = NULL, *hash = NULL;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, "basic_auth_users", &name, &v);
		if (r >= 0)
			r = yaml_walk_scalar(w, v, name, &hash);
		if (r < 0)
			return r;
		if (!*name || strchr(name, ':'))
			return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					     "basic_auth_users: '%s' is not a user name (empty, or "
					     "holds ':')",
					     name);
		for (size_t i = 0; i < c->n_users; i++)
			if (streq(c->users[i].name, name))
				return yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "basic_auth_users: '%s' given twice", name);
		if (!is_bcrypt(hash))
			return yaml_walk_err(
				w, yaml_walk_line(v), -EBADMSG,
				"basic_auth_users: %s: not a bcrypt hash ($2y$10$ "
				"and 53 characters; htpasswd -nBC 10 \"\" | tr -d ':\\n')",
				name);
		c->users[c->n_users].name = strdup(name);
		c->users[c->n_users].hash = strdup(hash);
		if (!c->users[c->n_users].name || !c->users[c->n_users++].hash)
			return -ENOMEM;
	}
	return 0;
}

static int parse_root(struct yaml_walk *w, yaml_node_t *root, struct web_config *c)
{
	int r;

	if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0)
		return 0; /* an empty file: plain HTTP, no authentication, as exporter-toolkit */
	r = yaml_walk_kind(w, root, YAML_MAPPING_NODE, "the web configuration");
	if (r < 0)
		return r;
	YAML_FOREACH_PAIR(pair, root)
	{
		const char *key;
		yaml_node_t *v;

		r = yaml_walk_pair(w, pair, NULL, &key, &v);
		if (r < 0)
			return r;
		if (streq(key, "tls_server_config"))
			r = parse_tls(w, v, c);
		else if (streq(key, "http_server_config"))
			r = parse_http(w, v, c);
		else if (streq(key, "basic_auth_users"))
			r = c->users ? yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
						     "basic_auth_users given twice")
				     : parse_users(w, v, c);
		else if (streq(key, "rate_limit"))
			r = yaml_walk_err(w, yaml_walk_line(v), -EBADMSG,
					  "rate_limit is not supported by gpuenv (its server has "
					  "a connection limit and timeouts instead)");
		else
			return yaml_walk_unknown_key(w, v, NULL, key);
		if (r < 0)
			return r;
	}
	return 0;
}

struct web_config *web_config_free(struct web_config *c)
{
	if (!c)
		return NULL;
	free(c->cert_file);
	free(c->key_file);
	free(c->client_ca_file);
	for (size_t i = 0; i < c->n_client_allowed_sans; i++)
		free(c->client_allowed_sans[i]);
	free(c->client_allowed_sans);
	for (size_t i = 0; i < c->n_users; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	free(c->users);
	for (size_t i = 0; i < c->n_headers; i++) {
		free(c->headers[i].name);
		free(c->headers[i].value);
	}
	free(c->headers);
	free(c);
	return NULL;
}

int web_config_parse(const char *data, size_t len, struct web_config **ret, struct yaml_error *err)
{
	struct yaml_error err_local;
	struct yaml_walk w = { .err = err ? err : &err_local,
			       .max_nodes = WEB_CONFIG_MAX_NODES,
			       .max_items = WEB_CONFIG_MAX_ITEMS,
			       .max_text = WEB_CONFIG_MAX_TEXT,
			       .schema = "a web configuration key (exporter-toolkit's "
					 "web-configuration.md)" };
	_cleanup_(web_config_freep) struct web_config *c = calloc(1, sizeof(*c));
	yaml_node_t *root;
	int r;

	if (!c)
		return -ENOMEM;
	r = yaml_walk_load(&w, data, len, WEB_CONFIG_MAX_INPUT, 16, &root);
	if (r < 0)
		return r;
	r = root ? parse_root(&w, root, c) : 0;
	yaml_walk_done(&w);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(c);
	return 0;
}
