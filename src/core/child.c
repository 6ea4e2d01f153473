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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "shared/macro.h"

#define CHILD_REAP_GRACE_MS 500u /* after SIGKILL: how long to wait for a D-state child */
/* The deadline stretches by the time the child spent waiting for a CPU, up to this many times
 * the timeout (see child_deadline()). */
#define CHILD_STARVED_MAX 4u

uint64_t child_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

#define now_ms child_now_ms

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
		if (child_now_ms() >= deadline)
			return false;
		sleep_ms(1);
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

/* ---- child_run_fn: the child under a keeper ----------------------------------------- */

/* In a child_start_fn() child: the read end of its request pipe. */
static int child_requests = -1;

int child_request_fd(void)
{
	return child_requests;
}

/* What the reaper (the keeper, or the init of the PID namespace) tells the parent. */
struct keeper_record {
	int32_t status; /* wait status of the child */
	uint8_t reaped, timed_out, mode;
	uint32_t strays, strays_left;
};

static const char *const contain_names[] = { CHILD_CONTAIN_PIDNS, CHILD_CONTAIN_SUBREAPER,
					     CHILD_CONTAIN_PGROUP };

struct keeper_args {
	child_fn fn;
	void *userdata;
	const struct child_opts *o;
	uint64_t deadline; /* UINT64_MAX: none (child_start_fn) */
	int out_w, err_w, st_w;
	int in_r; /* the read end of the request pipe (child_start_fn), or -1 */
};

static void write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len > 0) {
		ssize_t k = write(fd, c, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		c += k;
		len -= (size_t)k;
	}
}

/* Data (private writable) pages the process has now: /proc/self/statm's sixth field, "data +
 * stack" in pages (proc(5)). RLIMIT_DATA counts the same mappings (setrlimit(2)). */
static uint64_t data_bytes_now(void)
{
	char buf[256];
	unsigned long long f[6] = { 0 };
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (fd < 0)
		return 0;
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return 0;
	buf[k] = '\0';
	if (sscanf(buf, "%llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
		   &f[5]) != 6)
		return 0;
	return (uint64_t)f[5] * (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * Limits of the child itself, before fn runs. RLIMIT_DATA rather than RLIMIT_AS: libcuda
 * reserves address space far beyond what it uses (unified addressing), so a cap on the
 * address space makes cuInit fail where a cap on private writable memory does not; the
 * limit is relative to what the child already has because a sanitizer's shadow mappings
 * count too. RLIMIT_NPROC is not used: it counts every process and thread of the user across
 * the machine (root is exempt), so a cap low enough to matter makes a library's own threads
 * fail at random; process creation is denied by the caller's seccomp filter instead, and the
 * keeper kills whatever was started.
 */
static void child_limits(const struct child_opts *o)
{
	if (o->data_budget) {
		uint64_t want = data_bytes_now() + o->data_budget;
		struct rlimit rl;

		if (getrlimit(RLIMIT_DATA, &rl) == 0 &&
		    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want)) {
			rl.rlim_cur = rl.rlim_max = want;
			(void)setrlimit(RLIMIT_DATA, &rl);
		}
	}
	if (o->no_file_growth) {
		struct rlimit zero = { 0, 0 };

		/* A write that would grow a file fails with EFBIG instead of killing the library.
		 */
		signal(SIGXFSZ, SIG_IGN);
		(void)setrlimit(RLIMIT_FSIZE, &zero);
		/* No core file either: RLIMIT_CORE 0, and not dumpable for a piped core_pattern
		 * (core(5)), which ignores RLIMIT_CORE. */
		(void)setrlimit(RLIMIT_CORE, &zero);
		(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	}
}

/* Kills the reaper's children listed in /proc/self/task/TID/children (Linux 3.5, proc(5));
 * the number signalled, or -1 when the list cannot be read. */
static int kill_listed_children(void)
{
	char path[64], buf[4096];
	int fd, n = 0;
	ssize_t k;
	size_t have = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		char *p = buf, *end;

		k = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		have += (size_t)k;
		buf[have] = '\0';
		for (;;) {
			long pid = strtol(p, &end, 10);

			if (end == p || (*end != ' ' && *end != '\0'))
				break;
			if (*end == '\0' && have == sizeof(buf) - 1)
				break; /* may be cut: read again */
			if (pid > 1 && pid != getpid() && kill((pid_t)pid, SIGKILL) == 0)
				n++;
			p = end;
			while (*p == ' ')
				p++;
		}
		have = strlen(p);
		memmove(buf, p, have);
	}
	close(fd);
	return n;
}

/* Closes every descriptor above stderr but keep[0..n-1]: a vendor library (and the keeper
 * and reaper around it) never holds gpuenv's files, or the listening socket of `gpuenv
 * exporter`, which it could accept connections on. */
static void close_other_fds(const int keep[], size_t n)
{
	unsigned from = STDERR_FILENO + 1;

	for (;;) {
		unsigned next = ~0u; /* the lowest kept descriptor at or above from */

		for (size_t i = 0; i < n; i++)
			if (keep[i] >= (int)from && (unsigned)keep[i] < next)
				next = (unsigned)keep[i];
		if (next == ~0u) {
			close_range(from, ~0u, 0);
			return;
		}
		if (next > from)
			close_range(from, next - 1, 0);
		from = next + 1;
	}
}

/* Waits (SIGCHLD blocked, sigtimedwait) until pid is reaped or deadline; reaps the others it
 * meets on the way and counts them in *others. */
static bool wait_for(pid_t pid, uint64_t deadline, int *status, unsigned *others)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG | __WALL);
		uint64_t now;
		struct timespec ts;

		if (w > 0) {
			if (w == pid) {
				*status = st;
				return true;
			}
			(*others)++;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return false; /* ECHILD: nothing left to wait for */
		now = child_now_ms();
		if (now >= deadline)
			return false;
		/* No deadline (UINT64_MAX): an hour at a time. */
		now = deadline - now > 3600000u ? deadline - 3600000u : now;
		ts.tv_sec = (time_t)((deadline - now) / 1000u);
		ts.tv_nsec = (long)((deadline - now) % 1000u) * 1000000L;
		(void)sigtimedwait(&chld, NULL, &ts);
	}
}

/* /proc/PID/schedstat of the reaper's only child, opened right after the fork: the reaper's
 * own number as the proc mount sees it (readlink /proc/self: the host's, even inside a PID
 * namespace of its own), its children list (proc(5), /proc/PID/task/TID/children), the one
 * pid there. -1 when any step fails (the deadline then does not stretch). */
static int open_child_schedstat(void)
{
	char self[32], path[96], buf[32];
	ssize_t k = readlink("/proc/self", self, sizeof(self) - 1);
	long pid;
	int fd;

	if (k <= 0)
		return -1;
	self[k] = '\0';
	snprintf(path, sizeof(path), "/proc/%s/task/%s/children", self, self);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = '\0';
	pid = strtol(buf, NULL, 10);
	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%ld/schedstat", pid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Milliseconds the child has spent runnable but waiting for a CPU since its fork: the second
 * field of /proc/PID/schedstat, "time spent waiting on a runqueue" in nanoseconds
 * (Documentation/scheduler/sched-stats.rst; zeroed at fork, sched_fork()). 0 when unknown. */
static uint64_t child_queued_ms(int fd)
{
	char buf[96];
	unsigned long long run, wait;
	ssize_t k;

	if (fd < 0)
		return 0;
	k = pread(fd, buf, sizeof(buf) - 1, 0);
	if (k <= 0)
		return 0;
	buf[k] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return 0;
	return wait / 1000000u;
}

/* The deadline a child is held to: the timeout counts the child's own time, running or
 * blocked (a hang blocks: a call stuck in the driver, pause()), not the time it waited for a
 * CPU on a busy machine, where the vendor children, gpuenv's own probes and everything else
 * share the cores. That wait moves the deadline, up to CHILD_STARVED_MAX times the timeout. */
static uint64_t child_deadline(const struct keeper_args *a, int schedstat_fd)
{
	uint64_t last = a->deadline + (uint64_t)(CHILD_STARVED_MAX - 1u) * a->o->timeout_ms;

	return MIN(a->deadline + child_queued_ms(schedstat_fd), last);
}

/* In the reaper: runs the child, waits for it until the deadline, kills the rest of the tree,
 * tells the parent. Never returns. */
_Noreturn static void reaper(const struct keeper_args *a, uint8_t mode)
{
	struct keeper_record rec = { .mode = mode };
	unsigned others = 0;
	uint64_t grace, deadline;
	int status = 0, schedstat_fd;
	pid_t s;

	s = fork();
	if (s < 0)
		_exit(1);
	if (s == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		setpgid(0, 0);
		dup2(a->err_w, STDERR_FILENO);
		if (a->err_w != STDERR_FILENO)
			close(a->err_w);
		child_requests = a->in_r;
		close(a->st_w);
		child_limits(a->o);
		_exit(a->fn(a->out_w, a->userdata) & 0xff);
	}
	/* Only the child's tree may hold the pipes: their EOF is its end. */
	close(a->out_w);
	close(a->err_w);
	if (a->in_r >= 0)
		close(a->in_r);
	/* A child that stays is told at once how it is held (child_proc.containment). */
	if (a->deadline == UINT64_MAX)
		write_all(a->st_w, &mode, 1);
	schedstat_fd = open_child_schedstat();
	for (deadline = a->deadline;;) {
		uint64_t later;

		if (wait_for(s, deadline, &status, &others)) {
			rec.reaped = 1;
			break;
		}
		later = child_deadline(a, schedstat_fd);
		if (child_now_ms() < deadline || later <= deadline)
			break; /* nothing left to wait for, or the deadline is final */
		deadline = later;
	}
	if (schedstat_fd >= 0)
		close(schedstat_fd);
	if (!rec.reaped) {
		rec.timed_out = 1;
		kill(-s, SIGKILL);
		kill(s, SIGKILL);
		rec.reaped = wait_for(s, child_now_ms() + CHILD_REAP_GRACE_MS, &status, &others);
	}
	rec.status = status;
	/* The rest of the tree. */
	grace = child_now_ms() + CHILD_REAP_GRACE_MS;
	if (mode == 0) {
		/* The init of a PID namespace: kill(-1) reaches every other process in it, and
		 * nothing outside it (pid_namespaces(7)). Never reached outside one. */
		if (getpid() == 1)
			kill(-1, SIGKILL);
	} else {
		kill(-s, SIGKILL);
	}
	for (;;) {
		int st;
		pid_t w;

		if (mode == 1 && kill_listed_children() < 0)
			mode = 2; /* no children list: what left the group is out of reach */
		w = waitpid(-1, &st, WNOHANG | __WALL);
		if (w > 0) {
			if (w != s)
				others++;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || mode == 2 || child_now_ms() >= grace)
			break; /* ECHILD: all gone */
		sleep_ms(1);
	}
	rec.strays = others;
	if (mode == 1) {
		/* What is still a child after the grace period is stuck (D state). In a namespace
		 * the list holds the host's numbers, which kill() there would misread. */
		int left = kill_listed_children();

		if (left > 0)
			rec.strays_left = (uint32_t)left;
	}
	write_all(a->st_w, &rec, sizeof(rec));
	_exit(0);
}

/* The keeper, forked by the parent: a PID namespace where permitted and wanted, else a
 * subreaper. */
_Noreturn static void keeper(const struct keeper_args *a, pid_t parent)
{
	sigset_t chld;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(1); /* the parent died before the line above */
	setpgid(0, 0);
	/* The host program may ignore SIGCHLD (then waitpid() finds nothing): not here. */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (!a->o->no_pid_namespace && unshare(CLONE_NEWPID) == 0) {
		pid_t init = fork();
		int st;

		if (init == 0)
			reaper(a, 0);
		close(a->out_w);
		close(a->err_w);
		close(a->st_w);
		if (a->in_r >= 0)
			close(a->in_r);
		if (init < 0)
			_exit(1);
		while (waitpid(init, &st, 0) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	reaper(a, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 1 : 2);
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

int child_start_fn(child_fn fn, void *userdata, const struct child_opts *opts,
		   struct child_job **ret)
{
	struct child_job *j;
	struct keeper_args a;
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, err = 0;
	pid_t pid, self = getpid();

	if (!fn || !opts || !ret)
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
		close_other_fds((int[]){ a.out_w, a.err_w, a.st_w }, 3);
		keeper(&a, self);
	}
	setpgid(pid, pid);
	for (size_t i = 0; i < 3; i++)
		close(p[i][1]);
	j->keeper = pid;
	/* The reaper has its own deadline (stretched at most to CHILD_STARVED_MAX times the
	 * timeout); this one only covers a keeper that went wrong. */
	j->backstop = a.deadline + (uint64_t)(CHILD_STARVED_MAX - 1u) * opts->timeout_ms +
		      3 * CHILD_REAP_GRACE_MS + 1000u;
	*ret = j;
	return 0;
fail:
	for (size_t i = 0; i < 3; i++)
		if (p[i][1] >= 0)
			close(p[i][1]);
	job_free(j);
	return err;
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
		r.containment = contain_names[rec.mode < 3 ? rec.mode : 2];
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

int child_proc_start(child_fn fn, void *userdata, const struct child_opts *opts,
		     struct child_proc *ret)
{
	struct child_proc c = { .in_fd = -1 };
	struct child_stream *st[3] = { &c.out, &c.err, &c.st };
	/* requests, output, stderr, the keeper's announcement and record */
	int p[4][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } }, err = 0;
	struct keeper_args a;
	pid_t pid, self = getpid();

	if (!fn || !opts || !ret)
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
		close_other_fds((int[]){ a.in_r, a.out_w, a.err_w, a.st_w }, 4);
		keeper(&a, self);
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
				contain_names[(uint8_t)p->st.buf[0] < 3 ? p->st.buf[0] : 2];
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

/* ---- a private directory ------------------------------------------------------------ */

const char *child_tmp_base(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && tmp[0] == '/' ? tmp : "/tmp";
}

int child_tmpdir_create(char **ret_path)
{
	const char *tmp = child_tmp_base();
	char *path;

	if (asprintf(&path, "%s/gpuenv-vendor-XXXXXX", tmp) < 0)
		return -ENOMEM;
	if (!mkdtemp(path)) {
		int err = -errno;

		free(path);
		return err;
	}
	*ret_path = path;
	return 0;
}

int child_tmpdir_put(const char *dir, const char *name, const char *text)
{
	_cleanup_free_ char *sub = NULL;
	const char *slash = strchr(name, '/');
	int dfd, fd, err = 0;

	if (!*name || name[0] == '/' || (slash && strchr(slash + 1, '/')) || strstr(name, ".."))
		return -EINVAL;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (slash) {
		sub = strndup(name, (size_t)(slash - name));
		if (!sub) {
			close(dfd);
			return -ENOMEM;
		}
		if (mkdirat(dfd, sub, 0700) < 0 && errno != EEXIST)
			err = -errno;
	}
	fd = err < 0 ? -1
		     : openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			      0600);
	if (fd < 0 && !err)
		err = -errno;
	close(dfd);
	if (fd >= 0) {
		write_all(fd, text, strlen(text));
		if (close(fd) < 0)
			err = -errno;
	}
	return err;
}

/* Removes what dirfd holds, depth first, never following a symbolic link (unlinkat removes the
 * link itself); depth-capped against a hostile tree. */
static int remove_contents(int dirfd, unsigned depth)
{
	DIR *d;
	struct dirent *e;
	int err = 0;

	if (depth > 64) {
		close(dirfd);
		return -ELOOP;
	}
	d = fdopendir(dirfd);
	if (!d) {
		err = -errno;
		close(dirfd);
		return err;
	}
	while ((e = readdir(d))) {
		int fd;

		if (streq(e->d_name, ".") || streq(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd, e->d_name, 0) == 0)
			continue;
		fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			int r = remove_contents(fd, depth + 1);

			if (r < 0 && !err)
				err = r;
		}
		if (unlinkat(dirfd, e->d_name, AT_REMOVEDIR) < 0 && !err)
			err = -errno;
	}
	closedir(d);
	return err;
}

int child_tmpdir_remove(const char *path)
{
	int fd, err;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	err = remove_contents(fd, 0);
	if (rmdir(path) < 0 && !err)
		err = -errno;
	return err;
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
