// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The keeper side of a vendor session's child (see child.c for the whole picture): the
 * process gpuenv forks, which holds the child in a PID namespace where permitted (else as a
 * PR_SET_CHILD_SUBREAPER, prctl(2)), applies its limits, waits for it until the deadline,
 * kills the rest of its tree and sends gpuenv one record. gpuenv's own side (pipes, reading,
 * collecting) stays in child.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child-keeper.h"
#include "shared/macro.h"

const char *const child_contain_names[3] = { CHILD_CONTAIN_PIDNS, CHILD_CONTAIN_SUBREAPER,
					     CHILD_CONTAIN_PGROUP };

void child_sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000u, .tv_nsec = (long)(ms % 1000u) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* child_settled()'s hook (child.h): set only in a program of its own that runs a keeper. */
static void (*settled_hook)(void);

void child_set_settled_hook(void (*hook)(void))
{
	settled_hook = hook;
}

void child_settled(void)
{
	if (settled_hook)
		settled_hook();
}

/* In a child_start_fn() child: the read end of its request pipe. */
static int child_requests = -1;

int child_request_fd(void)
{
	return child_requests;
}

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
void child_close_other_fds(const int keep[], size_t n)
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

/* After SIGKILL, at or past the grace period that began at grace: whether to go on waiting.
 * Yes while no task below the reaper is in uninterruptible sleep (a killed task in any other
 * state only waits for a CPU to die), up to CHILD_REAP_LOADED_MS past the grace; no where
 * one is (it may never return: the grace was its wait) or the tree cannot be read. */
static bool killed_still_dying(uint64_t grace)
{
	struct child_stuck st;

	return child_now_ms() < grace + CHILD_REAP_LOADED_MS &&
	       child_tree_find_stuck_below_self(&st) == 0;
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

	/* The init of a PID namespace outlives its parent, the keeper, unless told: without this
	 * a killed gpuenv left it (and the hung child under it) running until the deadline. The
	 * kernel delivers this SIGKILL to an init, since it comes from the ancestor namespace. */
	if (mode == 0)
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
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
	child_settled(); /* from here on it only waits */
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
		/* Looked at before the kill: a task in uninterruptible sleep (a driver call that
		 * does not return) stays after it. */
		if (child_tree_find_stuck_below_self(&rec.stuck) != 1)
			rec.stuck = (struct child_stuck){ 0 };
		kill(-s, SIGKILL);
		kill(s, SIGKILL);
		grace = child_now_ms() + CHILD_REAP_GRACE_MS;
		rec.reaped = wait_for(s, grace, &status, &others);
		while (!rec.reaped && kill(s, 0) == 0 && killed_still_dying(grace))
			rec.reaped = wait_for(s, child_now_ms() + 10u, &status, &others);
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
		if (w < 0 || mode == 2)
			break; /* ECHILD: all gone */
		if (child_now_ms() >= grace) {
			if (!killed_still_dying(grace))
				break;
			child_sleep_ms(10); /* past the grace: each look reads /proc */
			continue;
		}
		child_sleep_ms(1);
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
_Noreturn void child_keeper(const struct keeper_args *a, pid_t parent)
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
		child_settled(); /* it only waits for the namespace's init */
		while (waitpid(init, &st, 0) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	reaper(a, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 1 : 2);
}
