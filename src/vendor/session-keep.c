// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A vendor session that stays (session.h, "A session that stays"): the vendor library is
 * opened and initialised once in a sandboxed child (core/child.c child_proc_start(): the same
 * keeper, limits, seccomp, Landlock and private directory as a one-shot session) and then
 * answers one sweep per request, as NVIDIA's own tools hold one NVML session (nvidia-smi
 * --loop, DCGM's host engine). Protocol, on top of session.h's lines:
 *   {"end":"open"}     after the library was opened and initialised (once)
 *   {"end":"sample"}   after each sweep, answering one byte on its request pipe
 * The parent keeps the opening's lines and folds them with each sweep's, so every result
 * is a whole tree. A sweep that misses the deadline, a child that dies, and a child that
 * writes a line the protocol does not allow (or more than the output cap) are failures: the
 * child's tree is killed, the result says what happened as a one-shot session's does, and the
 * next start waits 1 s, 2 s, 4 s … (at most 64 s) while the failures go on in a row.
 * A child that missed the deadline inside the kernel (a task of its tree in uninterruptible
 * sleep, core/child-stuck.h: a hung driver call) cannot be killed: the result names the task
 * and the kernel function, the fact "session_stuck" carries it, and no new child is started
 * while that task stays stuck (another would hang the same way, and each would stay).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "session.h"

#define KEEP_OPEN_END	       "{\"end\":\"open\"}\n"
#define KEEP_SAMPLE_END	       "{\"end\":\"sample\"}\n"
#define KEEP_BACKOFF_MS	       1000u
#define KEEP_BACKOFF_MAX_SHIFT 6u
/* How long a child told to end (its request pipe closed) may take before it is killed. */
#define KEEP_STOP_GRACE_MS 1000u

struct vendor_keep {
	struct child_proc proc;
	bool running;
	char *dir; /* the running child's private directory */
	uint64_t data_budget;
	char *opening; /* the lines up to KEEP_OPEN_END, once they came */
	size_t opening_len;
	unsigned restarts;	  /* children started after a failure */
	unsigned failures;	  /* in a row */
	uint64_t not_before_ms;	  /* no start before (the backoff) */
	struct child_stuck stuck; /* .pid > 0: a killed child's task stuck in the kernel */
};

#define KEEP_PROC_DIR "/proc"

/* ---- child side ---------------------------------------------------------------------- */

static void keep_write(struct vwriter *w, const char *line)
{
	size_t len = strlen(line), off = 0;

	while (off < len && !w->err) {
		ssize_t k = write(w->fd, line + off, len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			w->err = -EPIPE;
		else
			off += (size_t)k;
	}
}

void vendor_keep_serve(struct vwriter *w, void (*sweep)(void *userdata), void *userdata)
{
	keep_write(w, KEEP_OPEN_END);
	child_settled(); /* the library is open: what only its opening ran may go */
	while (!w->err) {
		char req;
		ssize_t k = read(child_request_fd(), &req, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return; /* the parent closed the pipe: the session ends */
		sweep(userdata);
		/* The sweep's code waits for the next request, and goes before the end line: the
		 * parent starts decoding the sweep only once it has the line, so the two never
		 * hold their sample's pages at the same moment (the exporter's summed resident
		 * size peaked where they did; docs/exporter.md, Load). */
		child_settled();
		keep_write(w, KEEP_SAMPLE_END);
	}
}

/* ---- parent side --------------------------------------------------------------------- */

static bool ends_with(const char *buf, size_t len, const char *line)
{
	size_t n = strlen(line);

	return len >= n && memcmp(buf + len - n, line, n) == 0;
}

static bool sample_answered(const char *buf, size_t len, void *userdata)
{
	(void)userdata;
	return ends_with(buf, len, KEEP_SAMPLE_END);
}

static void keep_stop(struct vendor_keep *k, struct child_result *cr)
{
	if (k->running)
		child_proc_stop(&k->proc, cr && cr->timed_out ? 0 : KEEP_STOP_GRACE_MS, cr);
	k->running = false;
	child_tmpdir_remove(k->dir);
	free(k->dir);
	k->dir = NULL;
	free(k->opening);
	k->opening = NULL;
	k->opening_len = 0;
}

void vendor_keep_free(struct vendor_keep *k)
{
	if (!k)
		return;
	keep_stop(k, NULL);
	free(k);
}

static int keep_start(struct vendor_keep *k, const struct vendor_session *vs)
{
	struct session_child_args args = { .vs = vs };
	struct child_opts opts;
	int err;

	session_child_opts(vs, &opts);
	k->data_budget = opts.data_budget;
	if (session_make_private_dir(vs, &k->dir) < 0)
		return -ENOMEM;
	args.dir = k->dir;
	if (vs->exec) {
		struct vendor_keep_exec what = vs->exec_what;

		what.dir = k->dir;
		/* the launcher's data is copied into the forked process with the stack */
		err = child_proc_start_exec(vs->exec, &what, &opts, &k->proc);
	} else {
		err = child_proc_start(session_child, &args, &opts, &k->proc);
	}
	if (err < 0) {
		child_tmpdir_remove(k->dir);
		free(k->dir);
		k->dir = NULL;
		return err;
	}
	k->running = true;
	if (k->failures)
		k->restarts++;
	return 0;
}

/* The result of a sample that started no child: every expected fact carries failure (taken;
 * NULL: out of memory). */
static int not_started(const struct vendor_session *vs, char *failure, struct vendor_result *ret)
{
	struct vendor_result res = { .tree = json_object(), .failure = failure, .no_child = true };
	char source[64];

	snprintf(source, sizeof(source), "%schild", vs->prefix);
	if (!res.tree || !failure || session_not_reached(vs, res.tree, source, failure) < 0) {
		vendor_result_done(&res);
		return -ENOMEM;
	}
	*ret = res;
	return 0;
}

/* The result while a restart is held back. */
static int held_back(const struct vendor_session *vs, const struct vendor_keep *k, uint64_t now,
		     struct vendor_result *ret)
{
	char *failure;

	if (asprintf(&failure,
		     "the long-lived vendor child failed %u time(s) in a row; its restart is held "
		     "back %llu ms more",
		     k->failures, (unsigned long long)(k->not_before_ms - now)) < 0)
		failure = NULL;
	return not_started(vs, failure, ret);
}

/* The result while the last child's task stays in uninterruptible sleep: no new child. */
static int still_stuck(const struct vendor_session *vs, const struct vendor_keep *k,
		       struct vendor_result *ret)
{
	char *failure;

	if (asprintf(
		    &failure,
		    "task %d (%s) of the long-lived vendor child is still in uninterruptible "
		    "sleep (D state) in the kernel%s%s, a driver call that does not return; no new "
		    "child is started while it stays",
		    k->stuck.pid, k->stuck.comm, k->stuck.wchan[0] ? " at " : "",
		    k->stuck.wchan) < 0)
		failure = NULL;
	return not_started(vs, failure, ret);
}

/* The opening's lines and this sweep's, the way a one-shot session's output reads:
 * completed sweeps end with SESSION_COMPLETE. */
static char *keep_text(const struct vendor_keep *k, const char *out, size_t len, bool complete,
		       size_t *ret_len)
{
	size_t n = k->opening_len + len + (complete ? strlen(SESSION_COMPLETE) : 0);
	char *text = malloc(n + 1);

	if (!text)
		return NULL;
	memcpy(text, k->opening ? k->opening : "", k->opening_len);
	memcpy(text + k->opening_len, out, len);
	if (complete)
		memcpy(text + k->opening_len + len, SESSION_COMPLETE, strlen(SESSION_COMPLETE));
	text[n] = '\0';
	*ret_len = n;
	return text;
}

/* Moves the opening (up to KEEP_OPEN_END) out of the output, once. */
static int take_opening(struct vendor_keep *k)
{
	struct child_stream *o = &k->proc.out;
	const char *end;
	size_t n;

	if (k->opening)
		return 0;
	o->buf[o->len] = '\0';
	end = strstr(o->buf, KEEP_OPEN_END);
	if (!end)
		return 0;
	n = (size_t)(end - o->buf) + strlen(KEEP_OPEN_END);
	k->opening = strndup(o->buf, n);
	if (!k->opening)
		return -ENOMEM;
	k->opening_len = n;
	memmove(o->buf, o->buf + n, o->len - n);
	o->len -= n;
	o->total -= n;
	return 0;
}

/* One byte asks for a sweep. A child that is not reading (EAGAIN: its pipe is full) is
 * judged by the deadline like one that does not answer, and one that is gone (EPIPE) by its
 * end; the SIGPIPE of the latter is taken here, not left to kill the caller. */
static void ask(int fd)
{
	sigset_t pipe_set, old;
	ssize_t k;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	k = write(fd, "s", 1);
	if (k < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE))
		(void)sigtimedwait(&pipe_set, NULL, &(struct timespec){ 0 });
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static json_t *int_leaf(const char *prefix, long long v)
{
	char source[64];

	snprintf(source, sizeof(source), "%schild", prefix);
	return session_make_leaf("present", source, NULL, json_integer(v));
}

/* The keeper's own facts on every result: restarts, and the stuck task while there is one. */
static int keep_facts(const struct vendor_session *vs, const struct vendor_keep *k,
		      struct vendor_result *ret)
{
	char source[64];

	snprintf(source, sizeof(source), "%schild", vs->prefix);
	if (json_object_set_new(ret->tree, "session_restarts", int_leaf(vs->prefix, k->restarts)) <
		    0 ||
	    (k->stuck.pid > 0 &&
	     json_object_set_new(ret->tree, "session_stuck",
				 session_make_leaf("present", source, NULL,
						   json_string(k->stuck.wchan[0] ? k->stuck.wchan
										 : "unknown"))) <
		     0)) {
		vendor_result_done(ret);
		return -ENOMEM;
	}
	return 0;
}

/* The sweep's pages of the output buffer, read and folded, go back to the system (madvise(2)
 * MADV_DONTNEED: the range, whole pages inside the buffer, reads as zeros next time): the
 * buffer stays reserved at the output cap, but a sweep's worth of it would stay resident between
 * sweeps, and in every process forked from this one (a fork copies the page tables of anonymous
 * memory; `gpuenv exporter`'s diagnosis, docs/exporter.md). */
static void release_pages(char *buf, size_t used)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)buf + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)buf + used) & ~(page - 1);

	if (end > start)
		(void)madvise((void *)start, end - start, MADV_DONTNEED);
}

/* A serial session's answered sweep, its child already ended: the result as any answered
 * sweep's (the private directory still counts: it goes with the keep). */
static int serial_result(const struct vendor_session *vs, struct vendor_keep *k,
			 const struct child_result *cr, struct vendor_result *ret)
{
	int r = session_result(vs, cr, k->dir, k->data_budget, ret);

	if (r < 0)
		return r;
	if (ret->failure) {
		unsigned shift = MIN(k->failures, KEEP_BACKOFF_MAX_SHIFT);

		k->failures++;
		k->not_before_ms = child_now_ms() + ((uint64_t)KEEP_BACKOFF_MS << shift);
	} else {
		k->failures = 0;
	}
	keep_stop(k, NULL);
	return keep_facts(vs, k, ret);
}

int vendor_keep_sample(struct vendor_keep **keep, const struct vendor_session *vs,
		       struct vendor_result *ret)
{
	struct vendor_keep *k = *keep;
	struct child_result cr = { .exit_status = 0, .reaped = true };
	uint64_t t0 = child_now_ms();
	_cleanup_free_ char *text = NULL;
	bool answered, failed;
	int r;

	if (!k) {
		k = *keep = calloc(1, sizeof(*k));
		if (!k)
			return -ENOMEM;
	}
	if (!k->running && k->stuck.pid > 0) {
		if (child_stuck_still(KEEP_PROC_DIR, &k->stuck)) {
			r = still_stuck(vs, k, ret);
			return r < 0 ? r : keep_facts(vs, k, ret);
		}
		k->stuck = (struct child_stuck){ 0 }; /* the call returned: start anew */
	}
	if (!k->running) {
		if (t0 < k->not_before_ms)
			return held_back(vs, k, t0, ret);
		r = keep_start(k, vs);
		if (r < 0)
			return r;
	}
	ask(k->proc.in_fd);
	if (vs->serial)
		child_settled(); /* the caller's: from here on it only waits */
	r = child_proc_read(&k->proc, t0 + vs->timeout_ms, sample_answered, NULL);
	if (r == -ENOMEM || take_opening(k) < 0)
		return -ENOMEM;
	answered = r == 1;
	cr.containment = k->proc.containment;
	cr.elapsed_ms = (unsigned)(child_now_ms() - t0);
	if (answered || r == -EMSGSIZE) {
		/* The sweep's lines (the marker, too, is skipped by the fold). */
		cr.truncated = r == -EMSGSIZE;
		text = keep_text(k, k->proc.out.buf, k->proc.out.len, true, &cr.output_len);
		cr.errout = k->proc.err.buf;
		cr.errout_len = k->proc.err.len;
		cr.errout_total = k->proc.err.total;
		cr.output = text;
		if (!text)
			return -ENOMEM;
		if (vs->serial) {
			/* One sweep only: the child's tree ends before the fold, with what it wrote
			 * to stderr so far (a copy: the stop frees the buffer). */
			_cleanup_free_ char *errout = strndup(k->proc.err.buf, k->proc.err.len);

			if (!errout)
				return -ENOMEM;
			cr.errout = errout;
			child_proc_stop(&k->proc, KEEP_STOP_GRACE_MS, NULL);
			k->running = false;
			return serial_result(vs, k, &cr, ret);
		}
		r = session_result(vs, &cr, k->dir, k->data_budget, ret);
		release_pages(k->proc.out.buf, k->proc.out.len);
		k->proc.out.len = k->proc.out.total = 0;
		k->proc.err.len = k->proc.err.total = 0;
	} else {
		/* Hung (the deadline) or ended (crashed, exited): its tree goes, and the result is
		 * what a one-shot session would have said. */
		struct child_result end = { .timed_out = r == -ETIME };

		/* Looked at before the kill: what sleeps in the kernel stays after it. */
		if (r == -ETIME &&
		    child_tree_find_stuck(KEEP_PROC_DIR, k->proc.keeper, &k->stuck) != 1)
			k->stuck = (struct child_stuck){ 0 };
		child_proc_stop(&k->proc, end.timed_out ? 0 : KEEP_STOP_GRACE_MS, &end);
		k->running = false;
		end.timed_out = end.timed_out || r == -ETIME;
		end.elapsed_ms = cr.elapsed_ms;
		end.stuck = k->stuck;
		text = keep_text(k, end.output, end.output_len, false, &end.output_len);
		free(end.output);
		end.output = text;
		text = NULL;
		r = end.output ? session_result(vs, &end, k->dir, k->data_budget, ret) : -ENOMEM;
		child_result_done(&end);
	}
	if (r < 0)
		return r;
	/* A child that ended cleanly before serving (the library would not initialise) said
	 * all it had to say, as a one-shot session does: no failure, no backoff. */
	failed = ret->failure != NULL || (!answered && k->running);
	if (failed || !answered)
		keep_stop(k, NULL);
	if (failed) {
		unsigned shift = MIN(k->failures, KEEP_BACKOFF_MAX_SHIFT);

		k->failures++;
		k->not_before_ms = child_now_ms() + ((uint64_t)KEEP_BACKOFF_MS << shift);
	} else {
		k->failures = 0;
	}
	return keep_facts(vs, k, ret);
}
