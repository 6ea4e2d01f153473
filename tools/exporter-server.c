// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv exporter`'s serving process (docs/exporter.md, Processes): the HTTP server
 * (exporter-http.c) runs in a process of its own, forked by the collecting process before
 * any thread exists, so that the process that forks (the long-lived NVML keeper and its
 * restarts, per-sample NVML children, the diagnosis child: core/child.c) never has a second
 * thread. fork() in a threaded process copies only the calling thread; the child may then
 * call only async-signal-safe functions until it execs (fork(2), signal-safety(7)), and a
 * lock another thread held at the fork stays held in the child for ever (GCC 12's libasan
 * allocator: the child's first allocation waited for ever). The serving process never forks.
 *
 * The collecting process sends each publication down a pipe: a fixed header (the lengths of
 * the two forms, their stable prefixes, the generation of those prefixes, readiness), then
 * the Prometheus text and the OpenMetrics text. The serving process reads them in its main
 * thread and publishes them to its epoll thread (exporter_http_publish: gzip there too). It
 * ends when the pipe's writer closes it (SIGTERM to the collecting process) and dies with
 * the collecting process (PR_SET_PDEATHSIG), so neither outlives the other for long.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exporter.h"

#define SERVER_NAME "gpuenv-http" /* its comm (ps, top; tests find it by it) */
/* A publication is an exposition of a few hundred kilobytes; more is not ours. */
#define SERVER_MAX_FORM	  (64u << 20)
#define SERVER_NO_FORM	  UINT64_MAX /* the form could not be made (OOM): keep the last */
#define SERVER_STOP_GRACE 5000u	     /* ms for the serving process to end on EOF */

struct publication {
	uint64_t len[2], stable_len[2], stable_gen;
	uint8_t ready;
};

static int write_full(int fd, const void *p, size_t len)
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

/* 1: read whole; 0: EOF before the first byte; -1: EOF halfway or an error. */
static int read_full(int fd, void *p, size_t len)
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

/* One form of a publication: NULL for SERVER_NO_FORM, or when it cannot be kept (it is read
 * and dropped then, so that the stream stays in step). false: the pipe broke. */
static bool read_form(int fd, uint64_t len, char **ret)
{
	char *s;

	*ret = NULL;
	if (len == SERVER_NO_FORM)
		return true;
	if (len > SERVER_MAX_FORM)
		return false;
	s = malloc((size_t)len + 1);
	if (!s) {
		char scratch[4096];

		for (uint64_t left = len; left > 0;) {
			size_t n = left < sizeof(scratch) ? (size_t)left : sizeof(scratch);

			if (read_full(fd, scratch, n) != 1)
				return false;
			left -= n;
		}
		return true;
	}
	if (len && read_full(fd, s, (size_t)len) != 1) {
		free(s);
		return false;
	}
	s[len] = '\0';
	*ret = s;
	return true;
}

_Noreturn static void server_main(int fd, int status_fd, pid_t parent, const char *listen,
				  const struct exporter_security *sec,
				  int (*load)(const struct exporter_security *sec))
{
	struct exporter_http *h = NULL;
	struct publication pub;
	int r[2] = { 0, 0 }; /* load's answer, exporter_http_start()'s */

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(1); /* the collecting process died before the line above */
	(void)prctl(PR_SET_NAME, SERVER_NAME, 0, 0, 0);
	r[0] = load(sec);
	if (r[0] == 0)
		r[1] = exporter_http_start(listen, sec, &h);
	(void)write_full(status_fd, r, sizeof(r));
	close(status_fd);
	if (r[0] < 0 || r[1] < 0)
		_exit(1);
	while (read_full(fd, &pub, sizeof(pub)) == 1) {
		char *form[2];
		size_t stable[2] = { (size_t)pub.stable_len[0], (size_t)pub.stable_len[1] };

		if (!read_form(fd, pub.len[0], &form[0]))
			break;
		if (!read_form(fd, pub.len[1], &form[1])) {
			free(form[0]);
			break;
		}
		exporter_http_publish(h, form[0], form[1], stable, pub.stable_gen, pub.ready);
		/* What the connections and the last exposition freed goes back to the system, so
		 * the resident size follows what is in use (glibc returns the free pages of every
		 * arena, not only each heap's top). */
		malloc_trim(0);
	}
	exporter_http_stop(h);
	_exit(0);
}

int exporter_server_start(const char *listen, const struct exporter_security *sec,
			  int (*load)(const struct exporter_security *sec), int *ret_load,
			  struct exporter_server *ret)
{
	int pub[2], status[2], r = 0, rs[2];
	pid_t pid, self = getpid();

	if (pipe2(pub, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(status, O_CLOEXEC) < 0) {
		r = -errno;
		close(pub[0]);
		close(pub[1]);
		return r;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(pub[0]);
		close(pub[1]);
		close(status[0]);
		close(status[1]);
		return r;
	}
	if (pid == 0) {
		close(pub[1]);
		close(status[0]);
		server_main(pub[0], status[1], self, listen, sec, load);
	}
	close(pub[0]);
	close(status[1]);
	/* Whether it listens: its answers, or none if it died first. */
	if (read_full(status[0], rs, sizeof(rs)) != 1)
		rs[0] = 0, rs[1] = -ECHILD;
	close(status[0]);
	*ret_load = rs[0];
	r = rs[0] < 0 ? rs[0] : rs[1];
	if (r < 0) {
		close(pub[1]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return r;
	}
	*ret = (struct exporter_server){ .pid = pid, .fd = pub[1] };
	return 0;
}

int exporter_server_publish(struct exporter_server *s, char *text, char *openmetrics,
			    const size_t stable_len[2], uint64_t stable_gen, bool ready)
{
	char *form[2] = { text, openmetrics };
	struct publication pub = { .stable_gen = stable_gen, .ready = ready };
	int r = 0;

	for (int om = 0; om < 2; om++) {
		pub.len[om] = form[om] ? strlen(form[om]) : SERVER_NO_FORM;
		pub.stable_len[om] = stable_len[om];
	}
	/* A serving process that died makes these EPIPE (SIGPIPE is ignored: cmd-exporter.c). */
	r = write_full(s->fd, &pub, sizeof(pub));
	for (int om = 0; om < 2 && r == 0; om++)
		if (form[om])
			r = write_full(s->fd, form[om], strlen(form[om]));
	free(text);
	free(openmetrics);
	return r;
}

void exporter_server_stop(struct exporter_server *s)
{
	unsigned left_ms;
	struct timespec ms = { 0, 1000000L };

	if (s->fd >= 0)
		close(s->fd); /* EOF: it stops its server and exits */
	s->fd = -1;
	if (s->pid <= 0)
		return;
	for (left_ms = SERVER_STOP_GRACE; left_ms > 0; left_ms--) {
		pid_t w = waitpid(s->pid, NULL, WNOHANG);

		if (w == s->pid || (w < 0 && errno != EINTR))
			break;
		nanosleep(&ms, NULL);
	}
	if (left_ms == 0) {
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	s->pid = 0;
}
