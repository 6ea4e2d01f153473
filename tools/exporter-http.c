// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv exporter`'s HTTP server: libmicrohttpd (GNU libmicrohttpd manual,
 * https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html) with its own epoll
 * thread. It serves GET/HEAD of /metrics (the Prometheus text format 0.0.4, or OpenMetrics
 * 1.0 when the Accept header asks for application/openmetrics-text), /healthz and /readyz.
 * The exposition is rendered once per publication (exporter-collect.c), gzip-compressed once
 * there too, and held as shared libmicrohttpd responses over those buffers, replaced whole
 * when a collection publishes: a scrape takes a reference under a mutex, never waits on a
 * collection, and allocates nothing (the fixed answers, /healthz, 404 …, are made once at
 * start over static strings). A client whose Accept-Encoding names gzip (Prometheus sends
 * it on every scrape) gets the compressed body, with Vary: Accept-Encoding on both. The
 * epoll loop runs in one thread, not one per CPU: a scrape costs about 12 µs of CPU, so one
 * thread serves over 50,000 a second, and more threads only compete for the cores with the
 * node's work (or, in bench/bench-exporter.sh on 2 cores, with wrk's thread): a runnable
 * thread that waits for a time slice behind another puts the requests of its connections in
 * the latency tail.
 * Hostile clients: a connection limit, an idle timeout (slow-loris), a per-connection memory
 * cap (a request head larger than it gets 431 from libmicrohttpd), any other method 405,
 * any request body 413, any other path 404; no response echoes the request.
 * --web-config adds TLS (libmicrohttpd over GnuTLS, the certificate and key in memory),
 * client certificates (exporter-tls.c: the client CAs as libmicrohttpd's trust list, the
 * policy put on each session before its handshake), basic authentication on every path
 * (exporter-auth.c), with 401 and a WWW-Authenticate challenge otherwise, and the security
 * headers the file names on every response.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "exporter-libs.h"
#include "exporter.h"

#define HTTP_CONNECTION_LIMIT 4096 /* slow-loris and scrapers alike; see RLIMIT_NOFILE */
#define HTTP_IDLE_TIMEOUT_S   10
#define HTTP_MEMORY_LIMIT     (8u << 10) /* request head + response headers per connection */

#define CT_TEXT	       "text/plain; version=0.0.4; charset=utf-8"
#define CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_PLAIN       "text/plain; charset=utf-8"

/* libmicrohttpd's functions (exporter-libs.h), set by exporter_http_start() before the
 * server's thread starts; the library stays loaded for the process. */
static const struct exporter_mhd *mhd;

/* The answers that never change, each one shared response made at start. */
enum fixed_reply {
	FIXED_HEALTHZ,
	FIXED_READY,
	FIXED_NOT_READY,
	FIXED_INDEX,
	FIXED_NOT_FOUND,
	FIXED_METHOD,
	FIXED_BODY,
	FIXED_FORBIDDEN,
	FIXED_NO_SAMPLE,
	FIXED_COUNT,
};

static const struct {
	unsigned code;
	const char *body;
} fixed_replies[FIXED_COUNT] = {
	[FIXED_HEALTHZ] = { MHD_HTTP_OK, "ok\n" },
	[FIXED_READY] = { MHD_HTTP_OK, "ready\n" },
	[FIXED_NOT_READY] = { MHD_HTTP_SERVICE_UNAVAILABLE, "no sample yet\n" },
	[FIXED_INDEX] = { MHD_HTTP_OK,
			  "gpuenv exporter: /metrics (Prometheus, OpenMetrics), /healthz, /readyz\n" },
	[FIXED_NOT_FOUND] = { MHD_HTTP_NOT_FOUND, "not found\n" },
	[FIXED_METHOD] = { MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n" },
	[FIXED_BODY] = { MHD_HTTP_CONTENT_TOO_LARGE, "no request body expected\n" },
	[FIXED_FORBIDDEN] = { MHD_HTTP_FORBIDDEN, "forbidden\n" },
	[FIXED_NO_SAMPLE] = { MHD_HTTP_SERVICE_UNAVAILABLE, "no sample yet\n" },
};

struct exporter_http {
	struct MHD_Daemon *daemon;
	struct exporter_auth *auth; /* NULL: no authentication */
	const char *const *headers; /* the web configuration's, on every response */
	pthread_mutex_t lock;
	/* [openmetrics][gzip]; NULL before the first publication */
	struct MHD_Response *metrics[2][2];
	/* The gzip member of each form's stable part (exporter_http_publish()), and which
	 * publication of that part it is; used by the publishing thread only. */
	char *stable_gz[2];
	size_t stable_gz_len[2];
	uint64_t stable_gen;
	bool ready;
	struct MHD_Response *fixed[FIXED_COUNT]; /* made at start, shared by every request */
};

static struct MHD_Response *fixed(const char *body, const char *type)
{
	struct MHD_Response *r = mhd->MHD_create_response_from_buffer(strlen(body), (void *)body,
								      MHD_RESPMEM_PERSISTENT);

	if (r)
		mhd->MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

static void add_headers(struct MHD_Response *r, const char *const *headers)
{
	for (; r && headers && headers[0] && headers[1]; headers += 2)
		mhd->MHD_add_response_header(r, headers[0], headers[1]);
}

/* The fixed answers, with the web configuration's headers; false on OOM. */
static bool fixed_make(struct exporter_http *h)
{
	for (size_t i = 0; i < FIXED_COUNT; i++) {
		h->fixed[i] = fixed(fixed_replies[i].body, CT_PLAIN);
		if (!h->fixed[i])
			return false;
		add_headers(h->fixed[i], h->headers);
	}
	return true;
}

static void fixed_free(struct exporter_http *h)
{
	for (size_t i = 0; i < FIXED_COUNT; i++)
		if (h->fixed[i])
			mhd->MHD_destroy_response(h->fixed[i]);
}

static enum MHD_Result reply(struct exporter_http *h, struct MHD_Connection *c,
			     enum fixed_reply which)
{
	return mhd->MHD_queue_response(c, fixed_replies[which].code, h->fixed[which]);
}

/* Credentials checked on every request when users are configured (exporter-toolkit does
 * the same for every path): none or wrong gets 401 with the Basic challenge. */
static bool authorized(struct exporter_http *h, struct MHD_Connection *c)
{
	char *pass = NULL, *user;
	bool ok;

	if (!h->auth)
		return true;
	user = mhd->MHD_basic_auth_get_username_password(c, &pass);
	ok = user && pass && exporter_auth_check(h->auth, user, pass);
	if (user)
		mhd->MHD_free(user);
	if (pass)
		mhd->MHD_free(pass);
	return ok;
}

static enum MHD_Result challenge(struct exporter_http *h, struct MHD_Connection *c)
{
	struct MHD_Response *r = fixed("unauthorized\n", CT_PLAIN);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	add_headers(r, h->headers);
	ret = mhd->MHD_queue_basic_auth_fail_response(c, "gpuenv exporter", r);
	mhd->MHD_destroy_response(r);
	return ret;
}

static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = mhd->MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");

	return accept && strstr(accept, "application/openmetrics-text");
}

/* Whether Accept-Encoding (RFC 9110 section 12.5.3) lists gzip or x-gzip without q=0. */
static bool accepts_gzip(const char *ae)
{
	while (ae && *ae) {
		const char *tok, *end;
		size_t len;

		while (*ae == ' ' || *ae == '\t' || *ae == ',')
			ae++;
		tok = ae;
		while (*ae && *ae != ',' && *ae != ';' && *ae != ' ' && *ae != '\t')
			ae++;
		len = (size_t)(ae - tok);
		end = strchr(ae, ',');
		if ((len == 4 && !strncasecmp(tok, "gzip", 4)) ||
		    (len == 6 && !strncasecmp(tok, "x-gzip", 6))) {
			const char *q = strstr(ae, "q=");

			/* q=0, q=0.0, q=0.000: not acceptable */
			if (!q || (end && q > end))
				return true;
			q += 2;
			if (*q != '0')
				return true;
			for (q++; *q == '.' || *q == '0'; q++)
				;
			return isdigit((unsigned char)*q);
		}
		ae = end;
	}
	return false;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	struct exporter_http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	bool om, gz, ready;

	(void)version, (void)upload_data;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply(h, c, FIXED_METHOD);
	/* No request here has a body: one announced is refused before it is read. */
	if (*upload_data_size ||
	    mhd->MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH) ||
	    mhd->MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return reply(h, c, FIXED_BODY);
	/* The first call comes when the head is in. A response queued then is an "early" one,
	 * after which libmicrohttpd closes the connection (it will not read what may follow):
	 * right for the refusals above, but every scrape would cost a new TCP connection.
	 * Answered on the second call, the request complete, the connection stays open. */
	if (!*con_cls) {
		*con_cls = h;
		return MHD_YES;
	}
	/* A connection whose TLS session did not get the client certificate policy. */
	if (!exporter_tls_applied(c))
		return reply(h, c, FIXED_FORBIDDEN);
	if (!authorized(h, c))
		return challenge(h, c);
	if (strcmp(url, "/metrics") == 0) {
		om = wants_openmetrics(c);
		gz = accepts_gzip(mhd->MHD_lookup_connection_value(
			c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
		pthread_mutex_lock(&h->lock);
		r = h->metrics[om][gz] ? h->metrics[om][gz] : h->metrics[om][0];
		ret = r ? mhd->MHD_queue_response(c, MHD_HTTP_OK, r) : MHD_NO;
		pthread_mutex_unlock(&h->lock);
		return r ? ret : reply(h, c, FIXED_NO_SAMPLE);
	}
	if (strcmp(url, "/healthz") == 0)
		return reply(h, c, FIXED_HEALTHZ);
	if (strcmp(url, "/readyz") == 0) {
		pthread_mutex_lock(&h->lock);
		ready = h->ready; /* read under the lock */
		pthread_mutex_unlock(&h->lock);
		return reply(h, c, ready ? FIXED_READY : FIXED_NOT_READY);
	}
	if (strcmp(url, "/") == 0)
		return reply(h, c, FIXED_INDEX);
	return reply(h, c, FIXED_NOT_FOUND);
}

/* text gzip-compressed (RFC 1952) in one pass; NULL on failure (then only the plain form is
 * served). memLevel 4, not zlib's default 8: the state's hash table and symbol buffer are 8
 * KiB instead of 128 (zlib's deflateInit2 documentation, zconf.h), about 120 KiB less heap
 * resident while a publication is compressed, and the 8 GPUs' exposition comes out 3 %
 * smaller (8,008 bytes at 8, 7,741 at 4: its lines repeat within the 32 KiB window, which
 * stays). */
static char *gzip_text(const char *text, size_t len, size_t *ret_len)
{
	z_stream z = { 0 };
	uLong cap;
	char *out;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 4, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return NULL;
	cap = deflateBound(&z, (uLong)len);
	out = malloc(cap);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	if (!out || deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*ret_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* A shared response over body (taken: freed with the response). */
static struct MHD_Response *metrics_response(const struct exporter_http *h, char *body, size_t len,
					     bool om, bool gz)
{
	struct MHD_Response *r;

	if (!body)
		return NULL;
	r = mhd->MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return NULL;
	}
	mhd->MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				     om ? CT_OPENMETRICS : CT_TEXT);
	mhd->MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gz)
		mhd->MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	add_headers(r, h->headers);
	return r;
}

/* The gzip body of plain[0..len): the stable part's member, compressed again only when the
 * part changed (gen), then a member of the rest; NULL when out of memory. */
static char *gzip_body(struct exporter_http *h, int om, const char *plain, size_t len,
		       size_t stable_len, uint64_t gen, size_t *ret_len)
{
	size_t tail_len = 0;
	char *tail, *body;

	if (stable_len > len)
		stable_len = len;
	if (!h->stable_gz[om] || gen != h->stable_gen) {
		free(h->stable_gz[om]);
		h->stable_gz[om] = gzip_text(plain, stable_len, &h->stable_gz_len[om]);
		if (!h->stable_gz[om])
			return NULL;
	}
	tail = gzip_text(plain + stable_len, len - stable_len, &tail_len);
	body = tail ? malloc(h->stable_gz_len[om] + tail_len) : NULL;
	if (body) {
		memcpy(body, h->stable_gz[om], h->stable_gz_len[om]);
		memcpy(body + h->stable_gz_len[om], tail, tail_len);
		*ret_len = h->stable_gz_len[om] + tail_len;
	}
	free(tail);
	return body;
}

void exporter_http_publish(struct exporter_http *h, char *text, char *openmetrics,
			   const size_t stable_len[2], uint64_t stable_gen, bool ready)
{
	char *plain[2] = { text, openmetrics };
	struct MHD_Response *n[2][2], *old[2][2];

	for (int om = 0; om < 2; om++) {
		size_t len = plain[om] ? strlen(plain[om]) : 0, zlen = 0;
		char *z = plain[om] ? gzip_body(h, om, plain[om], len, stable_len[om], stable_gen,
						&zlen)
				    : NULL;

		n[om][0] = metrics_response(h, plain[om], len, om, false);
		n[om][1] = n[om][0] ? metrics_response(h, z, zlen, om, true) : (free(z), NULL);
	}
	h->stable_gen = stable_gen;
	pthread_mutex_lock(&h->lock);
	for (int om = 0; om < 2; om++) {
		/* keep the previous exposition when the new one could not be made (OOM); a
		 * missing gzip form falls back to the plain one (handle()) */
		bool keep = !n[om][0];

		for (int gz = 0; gz < 2; gz++) {
			old[om][gz] = keep ? NULL : h->metrics[om][gz];
			if (!keep)
				h->metrics[om][gz] = n[om][gz];
		}
	}
	h->ready = ready;
	pthread_mutex_unlock(&h->lock);
	/* A response a connection still sends holds its own reference (libmicrohttpd counts
	 * them): this drops only ours. */
	for (int om = 0; om < 2; om++)
		for (int gz = 0; gz < 2; gz++)
			if (old[om][gz])
				mhd->MHD_destroy_response(old[om][gz]);
}

/* "HOST:PORT", "[V6]:PORT" or ":PORT" (all addresses) into a socket address. */
static int parse_listen(const char *listen, struct sockaddr_storage *ss)
{
	char host[256];
	const char *colon = strrchr(listen, ':');
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	size_t hl;
	char *end;
	long port;

	if (!colon || colon - listen >= (ptrdiff_t)sizeof(host))
		return -EINVAL;
	port = strtol(colon + 1, &end, 10);
	if (*end || end == colon + 1 || port < 0 || port > 65535)
		return -EINVAL;
	hl = (size_t)(colon - listen);
	if (hl >= 2 && listen[0] == '[' && listen[hl - 1] == ']')
		snprintf(host, sizeof(host), "%.*s", (int)hl - 2, listen + 1);
	else
		snprintf(host, sizeof(host), "%.*s", (int)hl, listen);
	if (getaddrinfo(*host ? host : NULL, colon + 1, &hints, &ai) != 0 || !ai)
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	return 0;
}

int exporter_http_start(const char *listen, const struct exporter_security *sec,
			struct exporter_http **ret)
{
	struct sockaddr_storage ss = { 0 };
	struct exporter_http *h;
	/* Not MHD_USE_TURBO: without its shutdown() before close, a refused request's unread
	 * rest (a 431 head) makes the kernel reset the connection, and the answer is lost. */
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD;
	bool tls = sec && sec->cert_pem && sec->key_pem;
	bool client_certs = tls && sec->client_auth != WEB_CLIENT_NO_CERT;
	int r = parse_listen(listen, &ss);

	if (r < 0)
		return r;
	if (exporter_mhd(&mhd, NULL) < 0)
		return -ELIBACC;
	if (tls && mhd->MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
		return -ENOTSUP;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	pthread_mutex_init(&h->lock, NULL);
	if (sec && sec->n_users &&
	    (r = exporter_auth_new(sec->users, sec->n_users, &h->auth)) < 0) {
		pthread_mutex_destroy(&h->lock);
		free(h);
		return r;
	}
	h->headers = sec ? sec->headers : NULL;
	if (!fixed_make(h)) {
		fixed_free(h);
		exporter_auth_free(h->auth);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -ENOMEM;
	}
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (tls)
		flags |= MHD_USE_TLS;
	if (exporter_tls_policy(client_certs ? sec : NULL) < 0) {
		fixed_free(h);
		exporter_auth_free(h->auth);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -ELIBACC;
	}
	/* The TLS options are passed only with TLS: libmicrohttpd refuses them otherwise; the
	 * client certificate ones only with a policy that asks for certificates. */
	h->daemon = mhd->MHD_start_daemon(
		flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)HTTP_CONNECTION_LIMIT,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_MEMORY_LIMIT,
		tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, tls ? sec->key_pem : NULL,
		MHD_OPTION_HTTPS_MEM_CERT, tls ? sec->cert_pem : NULL, MHD_OPTION_HTTPS_PRIORITIES,
		tls ? sec->tls_priorities : NULL,
		client_certs ? MHD_OPTION_NOTIFY_CONNECTION : MHD_OPTION_END, exporter_tls_notify,
		NULL,
		client_certs && sec->client_ca_pem ? MHD_OPTION_HTTPS_MEM_TRUST : MHD_OPTION_END,
		client_certs ? sec->client_ca_pem : NULL, MHD_OPTION_END);
	if (!h->daemon) {
		exporter_tls_policy(NULL);
		fixed_free(h);
		exporter_auth_free(h->auth);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -EADDRINUSE; /* libmicrohttpd says no more: bind, listen or TLS set-up failed */
	}
	*ret = h;
	return 0;
}

void exporter_http_stop(struct exporter_http *h)
{
	if (!h)
		return;
	mhd->MHD_stop_daemon(h->daemon);
	exporter_auth_free(h->auth);
	fixed_free(h);
	for (int om = 0; om < 2; om++)
		for (int gz = 0; gz < 2; gz++)
			if (h->metrics[om][gz])
				mhd->MHD_destroy_response(h->metrics[om][gz]);
	free(h->stable_gz[0]);
	free(h->stable_gz[1]);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
