// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuenv-http: `gpuenv exporter`'s serving process (docs/exporter.md, Processes), exec'd by
 * the collecting process (exporter-server.c) from gpuenv's own libexec directory, never
 * installed on a PATH and never run by hand. A program of its own rather than a fork of
 * gpuenv, so that it maps none of gpuenv's code: what it keeps resident is libc,
 * libmicrohttpd with the GnuTLS chain Debian's libmicrohttpd always loads, the HTTP server
 * (exporter-http.c) and the bodies (bench/bench-exporter.sh measures it against a
 * libmicrohttpd-only floor, bench/mhd-floor.c).
 *
 * Usage (by exporter-server.c only): gpuenv-http LISTEN PARENT_PID, with the publications'
 * pipe on descriptor 3 and the status pipe on 4. It reads what --web-config asks of the
 * server first (exporter-wire.h), loads its libraries, starts the server, writes two ints to
 * the status pipe (the loading's answer, exporter_http_start()'s) and closes it; then it
 * reads each publication (a fixed header: the lengths of the two forms, their stable
 * prefixes, the generation of those prefixes, readiness; then the Prometheus text and the
 * OpenMetrics text) and publishes it to its epoll thread. It ends when the pipe's writer
 * closes it, and dies with the collecting process (PR_SET_PDEATHSIG, set before the exec and
 * kept across it).
 */
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "exporter-libs.h"
#include "exporter-wire.h"
#include "exporter.h"

#define FD_PUBLICATIONS 3
#define FD_STATUS	4

/* A publication is an exposition of a few hundred kilobytes; more is not ours. */
#define SERVER_MAX_FORM (64u << 20)

/* One form of a publication: NULL for EXPORTER_NO_FORM, or when it cannot be kept (it is read
 * and dropped then, so that the stream stays in step). false: the pipe broke. */
static bool read_form(int fd, uint64_t len, char **ret)
{
	char *s;

	*ret = NULL;
	if (len == EXPORTER_NO_FORM)
		return true;
	if (len > SERVER_MAX_FORM)
		return false;
	s = malloc((size_t)len + 1);
	if (!s) {
		char scratch[4096];

		for (uint64_t left = len; left > 0;) {
			size_t n = left < sizeof(scratch) ? (size_t)left : sizeof(scratch);

			if (exporter_read_full(fd, scratch, n) != 1)
				return false;
			left -= n;
		}
		return true;
	}
	if (len && exporter_read_full(fd, s, (size_t)len) != 1) {
		free(s);
		return false;
	}
	s[len] = '\0';
	*ret = s;
	return true;
}

/* libmicrohttpd, and libcrypt for basic authentication, are loaded on first use, not linked
 * (exporter-libs.c): a machine without them is told so here. 0, or -ELIBACC after the
 * message. */
static int libs_load(const struct exporter_security *sec)
{
	const struct exporter_mhd *mhd;
	const struct exporter_crypt *libcrypt;
	const char *why = NULL;

	if (exporter_mhd(&mhd, &why) < 0 ||
	    (sec && sec->n_users && exporter_crypt(&libcrypt, &why) < 0)) {
		fprintf(stderr, "gpuenv exporter: cannot serve HTTP: %s (Debian: apt install %s)\n",
			why, "libmicrohttpd12 libcrypt1");
		return -ELIBACC;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	struct exporter_http *h = NULL;
	struct exporter_security *sec = NULL;
	struct exporter_publication pub;
	int r[2] = { 0, 0 }; /* the loading's answer, exporter_http_start()'s */
	char *end;
	long parent;

	if (argc != 3)
		return 2;
	parent = strtol(argv[2], &end, 10);
	if (*end || parent <= 1 || getppid() != (pid_t)parent)
		return 1; /* not started by exporter-server.c, or its parent already died */
	/* Its name in ps and top, whatever ran it (valgrind's launcher, for one): tests and the
	 * bench find it by it. */
	(void)prctl(PR_SET_NAME, "gpuenv-http", 0, 0, 0);
	/* One malloc arena for every thread: the HTTP threads allocate only when a connection
	 * opens (its 8 KiB pool), and an arena each grew by what 1,000 connections left
	 * scattered in it and kept it resident (bench/bench-exporter.sh: 0.3 MB more at start
	 * and a resident size that crept with each wave of connections; one arena stays flat). */
	mallopt(M_ARENA_MAX, 1);
	r[0] = exporter_security_recv(FD_PUBLICATIONS, &sec);
	if (r[0] == 0)
		r[0] = libs_load(sec);
	if (r[0] == 0)
		r[1] = exporter_http_start(argv[1], sec, &h);
	(void)exporter_write_full(FD_STATUS, r, sizeof(r));
	close(FD_STATUS);
	if (r[0] < 0 || r[1] < 0)
		return 1;
	while (exporter_read_full(FD_PUBLICATIONS, &pub, sizeof(pub)) == 1) {
		char *form[2];
		size_t stable[2] = { (size_t)pub.stable_len[0], (size_t)pub.stable_len[1] };

		if (!read_form(FD_PUBLICATIONS, pub.len[0], &form[0]))
			break;
		if (!read_form(FD_PUBLICATIONS, pub.len[1], &form[1])) {
			free(form[0]);
			break;
		}
		exporter_http_publish(h, form[0], form[1], stable, pub.stable_gen, pub.ready);
		/* What the connections and the last exposition freed goes back to the system, so
		 * the resident size follows what is in use (glibc returns the free pages of every
		 * arena, not only each heap's top). */
		malloc_trim(0);
		/* Start-up is over once the first exposition is served: the pages only it
		 * touched (the GnuTLS chain's initialisation above all) leave the resident set
		 * (exporter-pages.c). Later, after each publication, the pages it faulted in (the
		 * pipe's reads, zlib's deflate, the responses' making: 0.3-0.6 MiB of file pages
		 * under scrapes, until the next one) go too, under a scrape load as well: the
		 * scrapes fault back only what they run (0.7-0.9 MiB, 64 KiB a fault, once a
		 * second), and the diagnosis runs beside a busy server too (docs/exporter.md,
		 * Load). */
		(void)exporter_drop_startup_pages();
	}
	exporter_http_stop(h);
	exporter_security_free(sec);
	return 0;
}
