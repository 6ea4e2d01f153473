// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Children under a deadline (see child.h). fork(2) + a pipe; the child leads its own process
 * group (setpgid) so that the SIGKILL on timeout also reaches what it spawned (a vendor
 * library may fork helpers). gpuenv executes no program at all (tests/tools/check-no-exec.sh):
 * what a program would print, it reads from files.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "shared/macro.h"

#define CHILD_REAP_GRACE_MS 500u /* after SIGKILL: how long to wait for a D-state child */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void record_status(struct child_result *r, int status)
{
	r->reaped = true;
	if (WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->term_signal = WTERMSIG(status);
}

/* Polls waitpid until deadline; true when reaped. */
static bool reap_until(pid_t pid, uint64_t deadline, struct child_result *r)
{
	for (;;) {
		int status;
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			record_status(r, status);
			return true;
		}
		if (w < 0 && errno != EINTR)
			return false;
		if (now_ms() >= deadline)
			return false;
		sleep_ms(1);
	}
}

/* Reads the child's output until EOF or the deadline; then makes sure it is gone. */
static int collect(pid_t pid, int fd, uint64_t t0, unsigned timeout_ms, size_t max_output,
		   struct child_result *r)
{
	uint64_t deadline = t0 + timeout_ms;
	char *buf = malloc(max_output + 1);
	size_t len = 0;
	bool eof = false;

	if (!buf)
		return -ENOMEM;
	while (!eof) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ms();
		int n;

		if (now >= deadline) {
			r->timed_out = true;
			break;
		}
		n = poll(&pfd, 1, (int)MIN(deadline - now, (uint64_t)INT32_MAX));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue; /* timeout: the loop head notices */
		for (;;) {
			char scratch[4096];
			ssize_t k;

			if (len < max_output)
				k = read(fd, buf + len, max_output - len);
			else
				k = read(fd, scratch, sizeof(scratch)); /* drain, keep nothing */
			if (k < 0 && errno == EINTR)
				continue;
			if (k == 0 || (k < 0 && errno != EAGAIN)) {
				eof = true;
			} else if (k > 0) {
				if (len < max_output)
					len += (size_t)k;
				else
					r->truncated = true;
				continue;
			}
			break;
		}
	}
	buf[len] = '\0';
	r->output = buf;
	r->output_len = len;
	/* EOF does not mean exited (the child may have closed stdout and kept running). */
	if (!r->timed_out && !reap_until(pid, deadline, r))
		r->timed_out = true;
	if (r->timed_out) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		reap_until(pid, now_ms() + CHILD_REAP_GRACE_MS, r);
	}
	r->elapsed_ms = (unsigned)(now_ms() - t0);
	return 0;
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if (fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0) {
		int err = -errno;

		close(fds[0]);
		close(fds[1]);
		return err;
	}
	return 0;
}

int child_run_fn(child_fn fn, void *userdata, unsigned timeout_ms, size_t max_output,
		 struct child_result *ret)
{
	struct child_result r = { .exit_status = -1 };
	uint64_t t0 = now_ms();
	int fds[2], err;
	pid_t pid;

	if (!fn || !ret)
		return -EINVAL;
	err = make_pipe(fds);
	if (err < 0)
		return err;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		_exit(fn(fds[1], userdata) & 0xff);
	}
	setpgid(pid, pid); /* both sides set it: no race with the kill below */
	close(fds[1]);
	err = collect(pid, fds[0], t0, timeout_ms, max_output, &r);
	close(fds[0]);
	if (err < 0)
		return err;
	*ret = r;
	return 0;
}

void child_result_done(struct child_result *r)
{
	if (!r)
		return;
	free(r->output);
	r->output = NULL;
	r->output_len = 0;
}
