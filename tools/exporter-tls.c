// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mutual TLS for `gpuenv exporter` (exporter.h): the client_auth_type policies of the
 * exporter-toolkit web configuration (Go's tls.ClientAuthType, which it names) on GnuTLS
 * sessions made by libmicrohttpd. libmicrohttpd loads the client CAs into the server's
 * credentials (MHD_OPTION_HTTPS_MEM_TRUST) and only asks for a certificate when given them;
 * here, when a connection starts (MHD_CONNECTION_NOTIFY_STARTED comes after the session is
 * made and before its handshake), each session gets the level the policy wants
 * (gnutls_certificate_server_set_request: REQUEST, or REQUIRE, which fails the handshake
 * without a certificate) and a verification callback run during the handshake
 * (gnutls_session_set_verify_function): the chain is checked against the client CAs
 * (gnutls_certificate_verify_peers2) for the Verify policies, and the first certificate's
 * subject alternative names against client_allowed_sans (DNS names, e-mail addresses, IP
 * addresses as Go prints them, URIs: exporter-toolkit's VerifyPeerCertificate). A failed
 * check fails the handshake, as in Go. GnuTLS manual: "Certificate authentication",
 * https://www.gnutls.org/manual/html_node/Certificate-authentication.html.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <string.h>

#include "exporter-libs.h"
#include "exporter.h"

/* One server per process: the policy is set before it starts and only read afterwards. */
static const struct exporter_security *policy;
/* GnuTLS's and libmicrohttpd's functions, loaded on first use (exporter-libs.c). */
static const struct exporter_gnutls *gt;
static const struct exporter_mhd *mt;

int exporter_tls_policy(const struct exporter_security *sec)
{
	policy = NULL;
	if (sec && (exporter_gnutls(&gt, NULL) < 0 || exporter_mhd(&mt, NULL) < 0))
		return -ELIBACC;
	policy = sec;
	return 0;
}

/* A SAN of the certificate as Go's x509 package prints it (net.IP.String() for addresses);
 * false for the kinds client_allowed_sans does not match. */
static bool san_text(int type, const char *raw, size_t len, char *out, size_t size)
{
	switch (type) {
	case GNUTLS_SAN_DNSNAME:
	case GNUTLS_SAN_RFC822NAME:
	case GNUTLS_SAN_URI:
		if (len >= size || memchr(raw, '\0', len))
			return false;
		memcpy(out, raw, len);
		out[len] = '\0';
		return true;
	case GNUTLS_SAN_IPADDRESS:
		return (len == 4 || len == 16) &&
		       inet_ntop(len == 4 ? AF_INET : AF_INET6, raw, out, (socklen_t)size);
	default:
		return false;
	}
}

static bool san_allowed(const gnutls_datum_t *der)
{
	gnutls_x509_crt_t crt;
	bool ok = false;

	if (gt->gnutls_x509_crt_init(&crt) < 0)
		return false;
	if (gt->gnutls_x509_crt_import(crt, der, GNUTLS_X509_FMT_DER) < 0) {
		gt->gnutls_x509_crt_deinit(crt);
		return false;
	}
	for (unsigned i = 0; !ok; i++) {
		char raw[1024], text[1024];
		size_t len = sizeof(raw);
		int type = gt->gnutls_x509_crt_get_subject_alt_name(crt, i, raw, &len, NULL);

		if (type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE)
			break;
		if (type < 0 || !san_text(type, raw, len, text, sizeof(text)))
			continue; /* too long, or a kind that is never matched */
		for (const char *const *s = policy->client_allowed_sans; *s && !ok; s++)
			ok = strcmp(*s, text) == 0;
	}
	gt->gnutls_x509_crt_deinit(crt);
	return ok;
}

/* During the handshake, once the client's certificates (or none) came: 0 lets it go on. */
static int verify_client(gnutls_session_t session)
{
	enum web_client_auth mode = policy->client_auth;
	unsigned n = 0, status = 0;
	const gnutls_datum_t *certs = gt->gnutls_certificate_get_peers(session, &n);

	if (!certs || n == 0)
		return mode == WEB_CLIENT_REQUIRE_ANY || mode == WEB_CLIENT_REQUIRE_AND_VERIFY ? -1
											       : 0;
	if ((mode == WEB_CLIENT_VERIFY_IF_GIVEN || mode == WEB_CLIENT_REQUIRE_AND_VERIFY) &&
	    (gt->gnutls_certificate_verify_peers2(session, &status) < 0 || status != 0))
		return -1;
	if (policy->client_allowed_sans && !san_allowed(&certs[0]))
		return -1;
	return 0;
}

void exporter_tls_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
			 enum MHD_ConnectionNotificationCode toe)
{
	const union MHD_ConnectionInfo *info;
	gnutls_session_t session;

	(void)cls;
	if (toe != MHD_CONNECTION_NOTIFY_STARTED || !policy || !policy->client_auth)
		return;
	info = mt->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!info || !info->tls_session)
		return; /* not marked: its requests are refused (exporter_tls_applied) */
	session = (gnutls_session_t)info->tls_session;
	gt->gnutls_certificate_server_set_request(
		session, policy->client_auth == WEB_CLIENT_REQUIRE_ANY ||
					 policy->client_auth == WEB_CLIENT_REQUIRE_AND_VERIFY
				 ? GNUTLS_CERT_REQUIRE
				 : GNUTLS_CERT_REQUEST);
	gt->gnutls_session_set_verify_function(session, verify_client);
	*socket_context = (void *)&policy; /* the mark: any non-NULL pointer */
}

bool exporter_tls_applied(struct MHD_Connection *connection)
{
	const union MHD_ConnectionInfo *info;

	if (!policy || !policy->client_auth)
		return true;
	info = mt->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info && info->socket_context;
}
