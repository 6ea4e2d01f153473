// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `gpuenv exporter`'s serving process (docs/exporter.md, Processes): the HTTP server
 * (exporter-http.c) runs in a process of its own, gpuenv-http (exporter-http-main.c), forked
 * by the collecting process before any thread exists and exec'd from gpuenv's own libexec
 * directory, so that the process that forks (the long-lived NVML keeper and its restarts,
 * per-sample NVML children, the diagnosis child: core/child.c) never has a second thread.
 * fork() in a threaded process copies only the calling thread; the child may then call only
 * async-signal-safe functions until it execs (fork(2), signal-safety(7)), and a lock another
 * thread held at the fork stays held in the child for ever (GCC 12's libasan allocator: the
 * child's first allocation waited for ever). Exec'd rather than only forked, it maps none of
 * gpuenv's code (bench/bench-exporter.sh: its resident size against libmicrohttpd's floor).
 *
 * The program is found from this executable's own directory, never from input: installed,
 * GPUENV_HTTP_FROM_BINDIR (meson.build: libexecdir/gpuenv/gpuenv-http relative to bindir, so
 * that a --destdir or relocated install finds its own); in the build tree, tools/gpuenv-http
 * beside tools/gpuenv (or beside tests/gpuenv-test, the test build of the CLI). The NVML
 * child's program, gpuenv-nvml (exporter-nvml-main.c), is found the same way and exec'd
 * for each start of the long-lived NVML child's keeper (vendor.h vendor_nvml_keep_exec()).
 *
 * The collecting process sends what --web-config asks of the server, then each publication,
 * down a pipe (exporter-wire.h). The serving process ends when the pipe's writer closes it
 * (SIGTERM to the collecting process) and dies with the collecting process
 * (PR_SET_PDEATHSIG), so neither outlives the other for long.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exporter-wire.h"
#include "exporter.h"
#include "shared/macro.h"
#include "vendor/vendor.h"

#define SERVER_STOP_GRACE 5000u /* ms for the serving process to end on EOF */
#define SERVER_PROGRAM	  "gpuenv-http"

/* A program of gpuenv's (name, installed at from_bindir) into buf (PATH_MAX): the first of
 * the candidates above that is an executable file. -ENOENT when none is. */
static int own_program(const char *name, const char *from_bindir, char *buf)
{
	/* installed; beside gpuenv; beside gpuenv-test (tests/) in the build tree */
	const char *const where[] = { from_bindir, "", "../tools/" };
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(where); i++) {
		/* from_bindir ends with the name already */
		const char *tail = i == 0 ? "" : name;
		int k = where[i][0] == '/'
				? snprintf(buf, PATH_MAX, "%s", where[i])
				: snprintf(buf, PATH_MAX, "%s/%s%s", self, where[i], tail);

		if (k > 0 && k < PATH_MAX && access(buf, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}

/* In the forked child: the pipes on descriptors 3 and 4, the exec. Async-signal-safe calls
 * only (the collecting process has one thread, but the rule costs nothing). */
_Noreturn static void server_exec(const char *program, int pub_fd, int status_fd,
				  const char *listen, const char *parent)
{
	char *const argv[] = { (char *)SERVER_PROGRAM, (char *)listen, (char *)parent, NULL };
	int r[2] = { 0, -ENOEXEC };

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* the fds to 3 and 4 without losing either: first out of the way, above 4 */
	pub_fd = fcntl(pub_fd, F_DUPFD_CLOEXEC, 5);
	status_fd = fcntl(status_fd, F_DUPFD_CLOEXEC, 5);
	if (pub_fd < 0 || status_fd < 0 || dup2(pub_fd, 3) < 0 || dup2(status_fd, 4) < 0)
		_exit(127);
	execv(program, argv);
	(void)!write(status_fd, r, sizeof(r));
	_exit(127);
}

int exporter_server_start(const char *listen, const struct exporter_security *sec, int *ret_load,
			  struct exporter_server *ret)
{
	int pub[2], status[2], r = 0, rs[2];
	char program[PATH_MAX], parent[24];
	pid_t pid;

	*ret_load = 0;
	if (own_program(SERVER_PROGRAM, GPUENV_HTTP_FROM_BINDIR, program) < 0)
		return -ENOEXEC;
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
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
	if (pid == 0)
		server_exec(program, pub[0], status[1], listen, parent);
	close(pub[0]);
	close(status[1]);
	/* What --web-config asks (a serving process that died makes this EPIPE), then whether
	 * it listens: its answers, or none if it died first. */
	r = exporter_security_send(pub[1], sec);
	if (exporter_read_full(status[0], rs, sizeof(rs)) != 1)
		rs[0] = 0, rs[1] = r < 0 ? r : -ECHILD;
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
	struct exporter_publication pub = { .stable_gen = stable_gen, .ready = ready };
	int r = 0;

	for (int om = 0; om < 2; om++) {
		pub.len[om] = form[om] ? strlen(form[om]) : EXPORTER_NO_FORM;
		pub.stable_len[om] = stable_len[om];
	}
	/* A serving process that died makes these EPIPE (SIGPIPE is ignored: cmd-exporter.c). */
	r = exporter_write_full(s->fd, &pub, sizeof(pub));
	for (int om = 0; om < 2 && r == 0; om++)
		if (form[om])
			r = exporter_write_full(s->fd, form[om], strlen(form[om]));
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

/* ---- the NVML child's program ------------------------------------------------------- */

#define NVML_PROGRAM "gpuenv-nvml"

/* Found once, before the first sample (exporter_nvml_program()). */
static char nvml_program[PATH_MAX];

/* vendor_nvml_keep_exec()'s launcher, in the process forked for the keeper (async-signal-safe
 * calls only): the descriptors to 3..6 (first out of the way, above 6, so that none is lost),
 * then the program with the caller's pid, the library and the private directory ("": none). */
static void nvml_exec(const int fds[CHILD_PROC_FDS], pid_t parent, void *data)
{
	const struct vendor_keep_exec *what = data;
	char pid[24], *p = pid + sizeof(pid) - 1;
	int moved[CHILD_PROC_FDS];
	unsigned long v = (unsigned long)parent;

	/* snprintf is not async-signal-safe: the digits by hand */
	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < CHILD_PROC_FDS; i++) {
		moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3 + CHILD_PROC_FDS);
		if (moved[i] < 0)
			return;
	}
	for (int i = 0; i < CHILD_PROC_FDS; i++)
		if (dup2(moved[i], 3 + i) < 0)
			return;
	execv(nvml_program, (char *const[]){ (char *)NVML_PROGRAM, p,
					     (char *)(what->library ? what->library : ""),
					     (char *)(what->dir ? what->dir : ""), NULL });
}

/* ---- the diagnosis' libcuda session's program ---------------------------------------- */

#define CUDA_PROGRAM "gpuenv-cuda"

/* Found once, before the first diagnosis (exporter_cuda_program()). */
static char cuda_program[PATH_MAX];

/* The decimal digits of v, by hand (snprintf is not async-signal-safe), ending at end. */
static char *digits(char *end, uint64_t v)
{
	*end = '\0';
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* vendor_cuda_exec()'s launcher, in the process forked for the keeper (async-signal-safe
 * calls only): the output, stderr and record descriptors to 4..6 (first out of the way,
 * above 6; the one-shot session has no request pipe, fds[0] is -1), then the program with
 * the caller's pid, the deadline, the timeout, the library, the private directory, why
 * cuInit is skipped ("": none) and the flags. */
static void cuda_exec(const int fds[CHILD_PROC_FDS], pid_t parent, void *data)
{
	const struct vendor_keep_exec *what = data;
	char pid[24], deadline[24], timeout[24], flags[3] = "-";
	int moved[CHILD_PROC_FDS];

	for (int i = 1; i < CHILD_PROC_FDS; i++) {
		moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3 + CHILD_PROC_FDS);
		if (moved[i] < 0)
			return;
	}
	for (int i = 1; i < CHILD_PROC_FDS; i++)
		if (dup2(moved[i], 3 + i) < 0)
			return;
	if (what->launch || what->no_timings) {
		char *f = flags;

		if (what->launch)
			*f++ = 'l';
		if (what->no_timings)
			*f++ = 't';
		*f = '\0';
	}
	execv(cuda_program,
	      (char *const[]){ (char *)CUDA_PROGRAM,
			       digits(pid + sizeof(pid) - 1, (uint64_t)parent),
			       digits(deadline + sizeof(deadline) - 1, what->deadline_ms),
			       digits(timeout + sizeof(timeout) - 1, what->timeout_ms),
			       (char *)(what->library ? what->library : ""),
			       (char *)(what->dir ? what->dir : ""),
			       (char *)(what->skip_init ? what->skip_init : ""), flags, NULL });
}

int exporter_cuda_program(void)
{
	if (own_program(CUDA_PROGRAM, GPUENV_CUDA_FROM_BINDIR, cuda_program) < 0)
		return -ENOEXEC;
	vendor_cuda_exec(cuda_exec);
	return 0;
}

/* ---- the diagnosis child's program: gpuenv itself --------------------------------------- */

/* gpuenv's own executable, found once (exporter_diagnosis_program()): by its path rather
 * than as /proc/self/exe, so that the process is named after it (comm: ps, top). */
static char self_program[PATH_MAX];
/* "gpuenv", "exporter", the slot of --diagnosis-child=…, the exporter's options, NULL. */
static char **diag_argv;

/* exporter_diagnosis_program()'s launcher, in the process forked for the keeper
 * (async-signal-safe calls only): the output, stderr and record descriptors to 4..6 (fds[0]
 * is -1: no request pipe) and the NVML sweep's to 3 where there is one, then gpuenv's own
 * executable with --diagnosis-child=PARENT:DEADLINE[:sweep] before the exporter's own
 * options. */
static void diagnosis_exec(const int fds[CHILD_PROC_FDS], pid_t parent, void *data)
{
	static const char opt[] = "--diagnosis-child=", sweep[] = ":sweep";
	const struct exporter_diagnosis_exec *what = data;
	char arg[sizeof(opt) + sizeof(sweep) + 48], num[24], *d;
	int moved[CHILD_PROC_FDS], sweep_fd = -1;
	size_t n = sizeof(opt) - 1;

	/* first all out of the way, above 6, then each to its place */
	for (int i = 1; i < CHILD_PROC_FDS; i++) {
		moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3 + CHILD_PROC_FDS);
		if (moved[i] < 0)
			return;
	}
	if (what->sweep_fd >= 0 &&
	    (sweep_fd = fcntl(what->sweep_fd, F_DUPFD_CLOEXEC, 3 + CHILD_PROC_FDS)) < 0)
		return;
	for (int i = 1; i < CHILD_PROC_FDS; i++)
		if (dup2(moved[i], 3 + i) < 0)
			return;
	if (sweep_fd >= 0 && dup2(sweep_fd, 3) < 0)
		return;
	memcpy(arg, opt, n);
	for (d = digits(num + sizeof(num) - 1, (uint64_t)parent); *d;)
		arg[n++] = *d++;
	arg[n++] = ':';
	for (d = digits(num + sizeof(num) - 1, what->deadline_ms); *d;)
		arg[n++] = *d++;
	if (sweep_fd >= 0) {
		memcpy(arg + n, sweep, sizeof(sweep) - 1);
		n += sizeof(sweep) - 1;
	}
	arg[n] = '\0';
	diag_argv[2] = arg; /* this process's own copy of the array */
	execv(self_program, diag_argv);
}

int exporter_diagnosis_program(int argc, char *const argv[])
{
	ssize_t n = readlink("/proc/self/exe", self_program, sizeof(self_program) - 1);

	if (n <= 0 || (size_t)n >= sizeof(self_program) - 1)
		return -ENOEXEC;
	self_program[n] = '\0';
	if (access(self_program, X_OK) < 0)
		return -ENOEXEC;
	free(diag_argv);
	diag_argv = calloc((size_t)argc + 3, sizeof(*diag_argv));
	if (!diag_argv)
		return -ENOMEM;
	diag_argv[0] = (char *)"gpuenv";
	for (int i = 0; i < argc; i++)
		diag_argv[i + (i ? 2 : 1)] = argv[i];
	return 0;
}

child_exec_fn exporter_diagnosis_launcher(void)
{
	return diag_argv ? diagnosis_exec : NULL;
}

int exporter_nvml_program(void)
{
	if (own_program(NVML_PROGRAM, GPUENV_NVML_FROM_BINDIR, nvml_program) < 0)
		return -ENOEXEC;
	vendor_nvml_keep_exec(nvml_exec);
	return 0;
}
