// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor of the exporter's serving process's memory, for bench/bench-exporter.sh: the
 * smallest process that serves HTTP with Debian's libmicrohttpd as tools/exporter-http.c
 * does (one epoll thread, the same connection limit, idle timeout and 8 KiB per
 * connection, one malloc arena), answering every request with a fixed body of BYTES bytes.
 * Linked, not dlopen'ed, and nothing else: what it keeps resident is libc, libmicrohttpd and
 * the GnuTLS chain that Debian's libmicrohttpd12 always loads (DT_NEEDED libgnutls.so.30),
 * which no serving process built on that library can go below.
 * Usage: mhd-floor PORT BYTES (runs until killed)
 */
#include <arpa/inet.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *body;
static size_t body_len;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	struct MHD_Response *response;
	enum MHD_Result r;

	(void)cls, (void)url, (void)method, (void)version, (void)upload_data;
	(void)upload_data_size, (void)req_cls;
	response = MHD_create_response_from_buffer(body_len, body, MHD_RESPMEM_PERSISTENT);
	if (!response)
		return MHD_NO;
	MHD_add_response_header(response, "Content-Encoding", "gzip");
	r = MHD_queue_response(connection, MHD_HTTP_OK, response);
	MHD_destroy_response(response);
	return r;
}

int main(int argc, char *argv[])
{
	struct MHD_Daemon *d;
	struct sockaddr_in loopback = { .sin_family = AF_INET };

	if (argc != 3)
		return 2;
	loopback.sin_port = htons((uint16_t)atoi(argv[1]));
	loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	mallopt(M_ARENA_MAX, 1);
	body_len = strtoul(argv[2], NULL, 10);
	body = malloc(body_len ? body_len : 1);
	if (!body)
		return 1;
	memset(body, 'x', body_len);
	d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD, 0, NULL, NULL, answer, NULL,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&loopback,
			     MHD_OPTION_CONNECTION_LIMIT, 4096u, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(8u << 10),
			     MHD_OPTION_END);
	if (!d)
		return 1;
	for (;;)
		pause();
}
