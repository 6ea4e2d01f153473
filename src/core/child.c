// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Children under a deadline (see child.h). fork(2) + a pipe; the child leads its own process
 * group (setpgid) so that the SIGKILL on timeout also reaches what it spawned (a vendor
 * library may fork helpers). gpuenv executes no program at all (tests/tools/check-no-exec.sh):
 * what a program would print, it reads from files.
 *
 * child_run_fn() (vendor sessions) goes further, since what runs there is a library we do
 * not control: parent → keeper → (in a new PID namespace: init →) child. The reaper (the
 * namespace's init, or the keeper as PR_SET_CHILD_SUBREAPER, prctl(2)) waits for the child
 * until the deadline, then kills the rest of its tree: kill(-1) as a namespace's init
 * (pid_namespaces(7)), else each process listed in /proc/self/task/TID/children until none
 * is left, since orphans are re-parented to a subreaper. It then sends the parent one record
 * (the child's wait status, strays killed), after which nothing of the tree holds the pipes.
 * Everyone below the parent has PR_SET_PDEATHSIG SIGKILL, so a killed gpuenv takes them along.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child-keeper.h"
#include "child.h"
#include "shared/macro.h"

uint64_t child_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

#define now_ms child_now_ms

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
		if (child_now_ms() >= deadline)
			return false;
		child_sleep_ms(1);
	}
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

/* Reads what is there now (the fd is non-blocking), keeping at most cap bytes. */
static void stream_read(struct child_stream *s)
{
	for (;;) {
		char scratch[4096];
		ssize_t k;

		if (s->len < s->cap)
			k = read(s->fd, s->buf + s->len, s->cap - s->len);
		else
			k = read(s->fd, scratch, sizeof(scratch));
		if (k < 0 && errno == EINTR)
			continue;
		if (k == 0 || (k < 0 && errno != EAGAIN)) {
			s->eof = true;
			return;
		}
		if (k < 0)
			return;
		if (s->len < s->cap)
			s->len += (size_t)k;
		s->total += (uint64_t)k;
	}
}

/* A started child (child_start_fn()): the keeper, the parent's ends of the three pipes and
 * what has been read from them so far. */
struct child_job {
	pid_t keeper;
	uint64_t t0, backstop;
	struct child_stream st[3]; /* output, stderr, the reaper's record */
};

static void job_free(struct child_job *j)
{
	for (size_t i = 0; i < 3; i++) {
		if (j->st[i].fd >= 0)
			close(j->st[i].fd);
		free(j->st[i].buf);
	}
	free(j);
}

/* A pipe's capacity raised towards what the child may write (fcntl(2) F_SETPIPE_SZ; an
 * unprivileged caller gets at most /proc/sys/fs/pipe-max-size, 1 MiB by default): a child
 * started while the caller does other work then rarely blocks on a full pipe before it is
 * read. Best effort: the default 64 KiB only means the child waits for child_pump(). */
static void widen_pipe(int fd, size_t want)
{
	if (want > 65536)
		(void)fcntl(fd, F_SETPIPE_SZ, (int)MIN(want, (size_t)1 << 20));
}

/* child_start_fn() and child_start_exec(): the keeper forked with fn, or started by
 * exec_keeper. */
static int job_start(child_fn fn, void *userdata, child_exec_fn exec_keeper, void *exec_data,
		     const struct child_opts *opts, struct child_job **ret)
{
	struct child_job *j;
	struct keeper_args a;
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, err = 0;
	pid_t pid, self = getpid();

	if ((!fn && !exec_keeper) || !opts || !ret)
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->t0 = child_now_ms();
	j->st[0].cap = opts->max_output;
	j->st[1].cap = opts->max_stderr;
	j->st[2].cap = sizeof(struct keeper_record);
	for (size_t i = 0; i < 3; i++)
		j->st[i].fd = -1;
	for (size_t i = 0; i < 3; i++) {
		err = make_pipe(p[i]);
		if (err < 0)
			goto fail;
		j->st[i].fd = p[i][0];
		j->st[i].buf = malloc(j->st[i].cap + 1);
		if (!j->st[i].buf) {
			err = -ENOMEM;
			goto fail;
		}
	}
	widen_pipe(p[0][0], opts->max_output);
	widen_pipe(p[1][0], opts->max_stderr);
	a = (struct keeper_args){ .fn = fn,
				  .userdata = userdata,
				  .o = opts,
				  .deadline = j->t0 + opts->timeout_ms,
				  .out_w = p[0][1],
				  .err_w = p[1][1],
				  .st_w = p[2][1],
				  .in_r = -1 };
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto fail;
	}
	if (pid == 0) {
		/* Only its own pipes: not the parent's files, nor another started child's pipes,
		 * whose EOF would otherwise wait for this one. */
		child_close_other_fds((int[]){ a.out_w, a.err_w, a.st_w, opts->pass_fd }, 4);
		if (exec_keeper) {
			/* no request pipe: a one-shot child reads none */
			exec_keeper((const int[CHILD_PROC_FDS]){ -1, a.out_w, a.err_w, a.st_w },
				    self, exec_data);
			_exit(127); /* it returned: the exec failed */
		}
		child_keeper(&a, self);
	}
	setpgid(pid, pid);
	for (size_t i = 0; i < 3; i++)
		close(p[i][1]);
	j->keeper = pid;
	/* The reaper has its own deadline (stretched at most to CHILD_STARVED_MAX times the
	 * timeout, and its waits for killed tasks past the grace by CHILD_REAP_LOADED_MS each);
	 * this one only covers a keeper that went wrong. */
	j->backstop = a.deadline + (uint64_t)(CHILD_STARVED_MAX - 1u) * opts->timeout_ms +
		      3 * CHILD_REAP_GRACE_MS + 2 * CHILD_REAP_LOADED_MS + 1000u;
	*ret = j;
	return 0;
fail:
	for (size_t i = 0; i < 3; i++)
		if (p[i][1] >= 0)
			close(p[i][1]);
	job_free(j);
	return err;
}

int child_start_fn(child_fn fn, void *userdata, const struct child_opts *opts,
		   struct child_job **ret)
{
	return fn ? job_start(fn, userdata, NULL, NULL, opts, ret) : -EINVAL;
}

int child_start_exec(child_exec_fn exec_keeper, void *data, const struct child_opts *opts,
		     struct child_job **ret)
{
	return exec_keeper ? job_start(NULL, NULL, exec_keeper, data, opts, ret) : -EINVAL;
}

_Noreturn void child_job_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent, child_fn fn,
				     void *userdata, const struct child_opts *opts,
				     uint64_t deadline_ms)
{
	const struct keeper_args a = { .fn = fn,
				       .userdata = userdata,
				       .o = opts,
				       .deadline = deadline_ms,
				       .in_r = -1,
				       .out_w = fds[1],
				       .err_w = fds[2],
				       .st_w = fds[3] };

	child_close_other_fds((int[]){ fds[1], fds[2], fds[3], opts->pass_fd }, 4);
	child_keeper(&a, parent);
}

void child_pump(struct child_job *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < 3; i++)
		if (!j->st[i].eof)
			stream_read(&j->st[i]);
}

int child_collect(struct child_job *j, struct child_result *ret)
{
	struct child_result r = { .exit_status = -1 };
	struct child_stream *st;
	struct keeper_record rec;

	if (!j || !ret)
		return -EINVAL;
	st = j->st;
	for (;;) {
		struct pollfd pfd[3];
		uint64_t now = child_now_ms();
		nfds_t n = 0;

		/* The record comes after the child and its tree are gone (or given up on): what
		 * they wrote is in the pipes by then, even if a stuck process still holds one. */
		if (st[2].len == sizeof(rec)) {
			stream_read(&st[0]);
			stream_read(&st[1]);
			break;
		}
		if (st[2].eof || now >= j->backstop)
			break;
		for (size_t i = 0; i < 3; i++)
			if (!st[i].eof)
				pfd[n++] = (struct pollfd){ .fd = st[i].fd, .events = POLLIN };
		if (poll(pfd, n, (int)MIN(j->backstop - now, (uint64_t)INT32_MAX)) < 0 &&
		    errno != EINTR)
			break;
		child_pump(j);
	}
	if (st[2].len == sizeof(rec)) {
		memcpy(&rec, st[2].buf, sizeof(rec));
		r.timed_out = rec.timed_out;
		if (rec.reaped)
			record_status(&r, rec.status);
		r.strays = rec.strays;
		r.strays_left = rec.strays_left;
		r.stuck = rec.stuck;
		r.containment = child_contain_names[rec.mode < 3 ? rec.mode : 2];
	} else {
		r.timed_out = true; /* the keeper died or hung: nothing is known of the child */
		r.containment = CHILD_CONTAIN_PGROUP;
	}
	/* The keeper exits right after the record (in a namespace, once its init is gone). */
	{
		struct child_result kr = { 0 };

		if (!reap_until(j->keeper, child_now_ms() + CHILD_REAP_GRACE_MS, &kr)) {
			kill(-j->keeper, SIGKILL);
			kill(j->keeper, SIGKILL);
			reap_until(j->keeper, child_now_ms() + CHILD_REAP_GRACE_MS, &kr);
		}
	}
	for (size_t i = 0; i < 2; i++)
		st[i].buf[st[i].len] = '\0';
	r.output = TAKE_PTR(st[0].buf);
	r.output_len = st[0].len;
	r.truncated = st[0].total > st[0].len;
	r.errout = TAKE_PTR(st[1].buf);
	r.errout_len = st[1].len;
	r.errout_total = st[1].total;
	r.elapsed_ms = (unsigned)(child_now_ms() - j->t0);
	job_free(j);
	*ret = r;
	return 0;
}

void child_cancel(struct child_job *j)
{
	struct child_result r;

	/* Collected all the same: only the keeper's reaper kills what the child started. */
	if (j && child_collect(j, &r) == 0)
		child_result_done(&r);
}

int child_run_fn(child_fn fn, void *userdata, const struct child_opts *opts,
		 struct child_result *ret)
{
	struct child_job *j;
	int err = child_start_fn(fn, userdata, opts, &j);

	return err < 0 ? err : child_collect(j, ret);
}

/* ---- child_proc_start: a child that stays ------------------------------------------- */

/* child_proc_start() and child_proc_start_exec(): the keeper forked with fn, or started by
 * exec_keeper. */
static int proc_start(child_fn fn, void *userdata, child_exec_fn exec_keeper, void *exec_data,
		      const struct child_opts *opts, struct child_proc *ret)
{
	struct child_proc c = { .in_fd = -1 };
	struct child_stream *st[3] = { &c.out, &c.err, &c.st };
	/* requests, output, stderr, the keeper's announcement and record */
	int p[4][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } }, err = 0;
	struct keeper_args a;
	pid_t pid, self = getpid();

	if ((!fn && !exec_keeper) || !opts || !ret)
		return -EINVAL;
	c.out.cap = opts->max_output;
	c.err.cap = opts->max_stderr;
	c.st.cap = 1 + sizeof(struct keeper_record);
	for (size_t i = 0; i < 4; i++) {
		err = make_pipe(p[i]);
		if (err < 0)
			goto fail;
		if (i == 0)
			continue;
		st[i - 1]->fd = p[i][0];
		st[i - 1]->buf = malloc(st[i - 1]->cap + 1);
		if (!st[i - 1]->buf) {
			err = -ENOMEM;
			goto fail;
		}
	}
	/* The request pipe: the child reads it blocking, gpuenv never waits to write it. */
	if (fcntl(p[0][0], F_SETFL, 0) < 0 || fcntl(p[0][1], F_SETFL, O_NONBLOCK) < 0) {
		err = -errno;
		goto fail;
	}
	a = (struct keeper_args){ .fn = fn,
				  .userdata = userdata,
				  .o = opts,
				  .deadline = UINT64_MAX,
				  .in_r = p[0][0],
				  .out_w = p[1][1],
				  .err_w = p[2][1],
				  .st_w = p[3][1] };
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto fail;
	}
	if (pid == 0) {
		close(p[0][1]);
		for (size_t i = 1; i < 4; i++)
			close(p[i][0]);
		child_close_other_fds((int[]){ a.in_r, a.out_w, a.err_w, a.st_w }, 4);
		if (exec_keeper) {
			exec_keeper((const int[CHILD_PROC_FDS]){ a.in_r, a.out_w, a.err_w, a.st_w },
				    self, exec_data);
			_exit(127); /* it returned: the exec failed */
		}
		child_keeper(&a, self);
	}
	setpgid(pid, pid);
	close(p[0][0]);
	for (size_t i = 1; i < 4; i++)
		close(p[i][1]);
	c.keeper = pid;
	c.in_fd = p[0][1];
	*ret = c;
	return 0;
fail:
	for (size_t i = 0; i < 4; i++) {
		if (p[i][0] >= 0) {
			close(p[i][0]);
			close(p[i][1]);
		}
		if (i > 0)
			free(st[i - 1]->buf);
	}
	return err;
}

int child_proc_start(child_fn fn, void *userdata, const struct child_opts *opts,
		     struct child_proc *ret)
{
	return proc_start(fn, userdata, NULL, NULL, opts, ret);
}

int child_proc_start_exec(child_exec_fn exec_keeper, void *data, const struct child_opts *opts,
			  struct child_proc *ret)
{
	return exec_keeper ? proc_start(NULL, NULL, exec_keeper, data, opts, ret) : -EINVAL;
}

_Noreturn void child_proc_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent, child_fn fn,
				      void *userdata, const struct child_opts *opts)
{
	const struct keeper_args a = { .fn = fn,
				       .userdata = userdata,
				       .o = opts,
				       .deadline = UINT64_MAX,
				       .in_r = fds[0],
				       .out_w = fds[1],
				       .err_w = fds[2],
				       .st_w = fds[3] };

	child_close_other_fds(fds, CHILD_PROC_FDS);
	child_keeper(&a, parent);
}

static bool record_in(const struct child_proc *p)
{
	return p->st.len == p->st.cap;
}

int child_proc_read(struct child_proc *p, uint64_t deadline_ms,
		    bool (*enough)(const char *buf, size_t len, void *userdata), void *userdata)
{
	for (;;) {
		struct child_stream *st[3] = { &p->out, &p->err, &p->st };
		struct pollfd pfd[3];
		uint64_t now = child_now_ms();
		nfds_t n = 0;

		if (p->st.len > 0 && !p->containment)
			p->containment =
				child_contain_names[(uint8_t)p->st.buf[0] < 3 ? p->st.buf[0] : 2];
		if (enough(p->out.buf, p->out.len, userdata))
			return 1;
		if (p->out.total > p->out.len)
			return -EMSGSIZE;
		/* The record comes after the child's tree is gone: what it wrote is in the pipes. */
		if (record_in(p) || p->st.eof) {
			stream_read(&p->out);
			stream_read(&p->err);
			p->ended = true;
			return enough(p->out.buf, p->out.len, userdata) ? 1 : 0;
		}
		if (now >= deadline_ms)
			return -ETIME;
		for (size_t i = 0; i < 3; i++)
			if (!st[i]->eof)
				pfd[n++] = (struct pollfd){ .fd = st[i]->fd, .events = POLLIN };
		if (poll(pfd, n, (int)MIN(deadline_ms - now, (uint64_t)INT32_MAX)) < 0 &&
		    errno != EINTR)
			return -errno;
		for (size_t i = 0; i < 3; i++)
			if (!st[i]->eof)
				stream_read(st[i]);
	}
}

static bool never(const char *buf, size_t len, void *userdata)
{
	(void)buf, (void)len, (void)userdata;
	return false;
}

void child_proc_stop(struct child_proc *p, unsigned grace_ms, struct child_result *ret)
{
	struct child_result r = { .exit_status = -1 };
	struct child_result kr = { 0 };

	if (p->in_fd >= 0)
		close(p->in_fd); /* no more requests: a well-behaved child ends now */
	p->in_fd = -1;
	if (!p->ended)
		(void)child_proc_read(p, child_now_ms() + grace_ms, never, NULL);
	if (record_in(p)) {
		struct keeper_record rec;

		memcpy(&rec, p->st.buf + 1, sizeof(rec));
		r.timed_out = rec.timed_out;
		if (rec.reaped)
			record_status(&r, rec.status);
		r.strays = rec.strays;
		r.strays_left = rec.strays_left;
	} else {
		/* Still running (hung) or its keeper gone: the keeper's group goes (in a PID
		 * namespace its init, and with it everything in the namespace; else the child by
		 * PR_SET_PDEATHSIG). */
		kill(-p->keeper, SIGKILL);
		kill(p->keeper, SIGKILL);
		r.timed_out = true;
		r.reaped = true;
	}
	if (!reap_until(p->keeper, child_now_ms() + CHILD_REAP_GRACE_MS, &kr)) {
		kill(-p->keeper, SIGKILL);
		kill(p->keeper, SIGKILL);
		reap_until(p->keeper, child_now_ms() + CHILD_REAP_GRACE_MS, &kr);
	}
	r.containment = p->containment ? p->containment : CHILD_CONTAIN_PGROUP;
	p->out.buf[p->out.len] = '\0';
	p->err.buf[p->err.len] = '\0';
	r.output = p->out.buf;
	r.output_len = p->out.len;
	r.truncated = p->out.total > p->out.len;
	r.errout = p->err.buf;
	r.errout_len = p->err.len;
	r.errout_total = p->err.total;
	close(p->out.fd);
	close(p->err.fd);
	close(p->st.fd);
	free(p->st.buf);
	if (ret)
		*ret = r;
	else
		child_result_done(&r);
	*p = (struct child_proc){ .in_fd = -1, .keeper = 0 };
}

void child_result_done(struct child_result *r)
{
	if (!r)
		return;
	free(r->output);
	free(r->errout);
	r->output = r->errout = NULL;
	r->output_len = r->errout_len = 0;
}
