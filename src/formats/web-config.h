/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The web configuration file of Prometheus exporters (the exporter-toolkit format,
 * https://github.com/prometheus/exporter-toolkit/blob/master/docs/web-configuration.md),
 * which `gpuenv exporter --web-config FILE` reads for TLS and basic authentication, so that
 * a site that secures node_exporter secures gpuenv with the same file. Parsing is pure and
 * capped; paths are returned as written (the caller resolves them against the file's
 * directory, as exporter-toolkit does). Keys the format has but gpuenv cannot honour
 * (cipher and curve choices, inline PEM, client certificates verified against the system's
 * CAs) are errors, never ignored: a file that asks for more security than it gets must not
 * start a server.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "yaml-walk.h"

#define WEB_CONFIG_MAX_INPUT ((size_t)1 << 20)
#define WEB_CONFIG_MAX_NODES 20000u
#define WEB_CONFIG_MAX_ITEMS 1024u /* users, headers */
#define WEB_CONFIG_MAX_TEXT  4096u

enum web_tls_version {
	WEB_TLS_DEFAULT = 0,
	WEB_TLS10,
	WEB_TLS11,
	WEB_TLS12,
	WEB_TLS13,
};

/* client_auth_type: Go's tls.ClientAuthType policies, which exporter-toolkit names. */
enum web_client_auth {
	WEB_CLIENT_NO_CERT = 0,	       /* NoClientCert: none asked for */
	WEB_CLIENT_REQUEST,	       /* RequestClientCert: asked for, not required or checked */
	WEB_CLIENT_REQUIRE_ANY,	       /* RequireAnyClientCert: required, not checked */
	WEB_CLIENT_VERIFY_IF_GIVEN,    /* VerifyClientCertIfGiven: checked when sent */
	WEB_CLIENT_REQUIRE_AND_VERIFY, /* RequireAndVerifyClientCert */
};

struct web_user {
	char *name;
	char *hash; /* bcrypt, "$2a$", "$2b$" or "$2y$", cost 4..31, 60 characters */
};

struct web_header {
	char *name; /* one of the five exporter-toolkit allows */
	char *value;
};

struct web_config {
	char *cert_file, *key_file; /* both or neither: TLS on when set */
	enum web_tls_version min_version, max_version;
	enum web_client_auth client_auth;
	char *client_ca_file;	    /* the CAs client certificates are checked against */
	char **client_allowed_sans; /* one must be among the certificate's SANs; NULL: any */
	size_t n_client_allowed_sans;
	struct web_user *users;
	size_t n_users;
	struct web_header *headers;
	size_t n_headers;
	bool http2; /* asked for; gpuenv serves HTTP/1.1 only */
};

/* 0 with *ret; -EBADMSG, -E2BIG with err set (its line, when it has one); -ENOMEM. */
int web_config_parse(const char *data, size_t len, struct web_config **ret, struct yaml_error *err);
struct web_config *web_config_free(struct web_config *c);
static inline void web_config_freep(struct web_config **c)
{
	web_config_free(*c);
}
/* "RequireAndVerifyClientCert" for WEB_CLIENT_REQUIRE_AND_VERIFY. */
const char *web_client_auth_name(enum web_client_auth a);
/* "TLS12" for WEB_TLS12; the default is TLS 1.2, as exporter-toolkit's. */
const char *web_tls_version_name(enum web_tls_version v);
