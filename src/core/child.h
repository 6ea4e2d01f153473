/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Work in a child process under a deadline: the seam that keeps a hanging vendor library
 * (an NVML call stuck in the driver, a libcuda that never returns from cuInit) from hanging
 * gpuenv. The child writes
 * its answer into a pipe; the parent reads at most max_output bytes until EOF or the
 * deadline, then kills the child's whole process group with SIGKILL. A child stuck in an
 * uninterruptible sleep (D state, typical of a wedged GPU driver) cannot be reaped even by
 * SIGKILL: the parent then gives up waiting after a short grace period and reports it, so
 * gpuenv still returns. The deadline counts the child's own time, running or blocked: what it
 * spent waiting for a CPU on a busy machine (/proc/PID/schedstat) moves it, up to four times
 * the timeout, so that children running alongside each other and gpuenv's probes on a few
 * loaded cores are not taken for hung.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child-stuck.h"

struct child_result {
	bool timed_out;	 /* the deadline passed; the child was sent SIGKILL */
	bool reaped;	 /* waitpid() collected the child (false: stuck even after SIGKILL) */
	int exit_status; /* exit code when it exited normally, else -1 */
	int term_signal; /* signal that ended it, else 0 */
	char *output;	 /* what the child wrote, NUL-terminated, at most max_output bytes */
	size_t output_len;
	bool truncated; /* the child wrote more than max_output */
	unsigned elapsed_ms;
	/* child_run_fn() only: */
	char *errout; /* the child's stderr, NUL-terminated, at most max_stderr bytes */
	size_t errout_len;
	uint64_t errout_total;	 /* bytes it wrote to stderr, kept or not */
	unsigned strays;	 /* other processes of its tree, killed when it ended */
	unsigned strays_left;	 /* of those, how many could not be reaped (D state) */
	const char *containment; /* CHILD_CONTAIN_*: how the tree was held (static string) */
	/* .pid > 0: a task of the tree was in uninterruptible sleep when the deadline passed
	 * (set by the caller that looked, vendor/session-keep.c) */
	struct child_stuck stuck;
};

/* How a child_run_fn() tree is held, best first. A PID namespace (needs CAP_SYS_ADMIN):
 * the kernel kills every process in it when its init exits, even when gpuenv itself is
 * killed. A subreaper (PR_SET_CHILD_SUBREAPER, Linux 3.4): orphans are re-parented to the
 * keeper, which kills them one by one. A process group: what left the group survives. */
#define CHILD_CONTAIN_PIDNS	"pid namespace"
#define CHILD_CONTAIN_SUBREAPER "subreaper"
#define CHILD_CONTAIN_PGROUP	"process group"

struct child_opts {
	unsigned timeout_ms;
	size_t max_output;
	size_t max_stderr;    /* bytes of stderr kept (the rest is counted); 0: none kept */
	uint64_t data_budget; /* RLIMIT_DATA = the data the child starts with + this; 0: none */
	bool no_file_growth;  /* RLIMIT_FSIZE 0 (SIGXFSZ ignored: EFBIG), no core dumps */
	/* Hold the tree with a subreaper even where a PID namespace is permitted: libcuda's
	 * cuInit() fails in one (CUDA_ERROR_OPERATING_SYSTEM, 304; docs/HACKING.md, vendor libraries). */
	bool no_pid_namespace;
	/* child_start_fn(), child_start_exec(), child_job_keeper_main(): a descriptor above
	 * stderr the keeper and the child keep open beside their pipes (every other one is
	 * closed): `gpuenv exporter`'s diagnosis gets its NVML sweep on it. 0: none. */
	int pass_fd;
};

/*
 * Runs fn(fd, userdata) in a forked child; fn writes its answer to fd, its return value
 * becomes the exit code; its stderr is captured (capped), stdin and stdout are left to fn.
 * The child runs under a keeper process that holds its whole process tree (see
 * CHILD_CONTAIN_*): when the child ends, or at the deadline, everything it started is killed
 * and counted, so nothing it forked outlives the call or holds its pipe open.
 * Returns 0 (see ret for what happened) or -errno when the child could not be started.
 */
typedef int (*child_fn)(int fd, void *userdata);
int child_run_fn(child_fn fn, void *userdata, const struct child_opts *opts,
		 struct child_result *ret);

/*
 * The same in two steps, so that the caller works while the child runs (gpuenv starts every
 * vendor session before the file probes, src/probe/probe.c): child_start_fn() forks and
 * returns at once (-errno when the child could not be started); child_collect() waits for
 * the result as child_run_fn() does and frees the job. The deadline runs from the start.
 * child_pump() reads what the child wrote so far without waiting, so a child that writes
 * more than a pipe holds is not held up (its deadline still runs) while the caller is busy.
 * child_cancel() collects and drops the result (the whole tree is killed at the deadline).
 * Any number of children may be pending at once; none holds another's pipes.
 */
struct child_job;
int child_start_fn(child_fn fn, void *userdata, const struct child_opts *opts,
		   struct child_job **ret);
/*
 * child_start_fn() with the keeper a program of its own rather than a fork of the caller
 * (`gpuenv exporter`'s diagnosis runs its libcuda session so: docs/exporter.md, a fork keeps
 * the caller's pages resident in each process of the tree). exec_keeper is called as
 * child_proc_start_exec()'s is, with the request descriptor -1 (a one-shot child reads
 * none), and execs a program that calls child_job_keeper_main() with what it was given and
 * the deadline the caller meant (CLOCK_MONOTONIC ms, child_now_ms()); the caller collects the
 * job as child_start_fn()'s. A program that does not run ends the keeper without its record:
 * the result says timed_out, as for a keeper that died.
 */
#define CHILD_PROC_FDS 4
typedef void (*child_exec_fn)(const int fds[CHILD_PROC_FDS], pid_t parent, void *data);
int child_start_exec(child_exec_fn exec_keeper, void *data, const struct child_opts *opts,
		     struct child_job **ret);
/* In that program: child_start_fn()'s keeper (its limits, containment, deadline and record)
 * running fn(fd, userdata) in the child under it. Never returns. */
_Noreturn void child_job_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent, child_fn fn,
				     void *userdata, const struct child_opts *opts,
				     uint64_t deadline_ms);
void child_pump(struct child_job *j);
int child_collect(struct child_job *j, struct child_result *ret);
void child_cancel(struct child_job *j);

/*
 * A child that stays (the long-lived vendor session of `gpuenv exporter`): started like
 * child_run_fn()'s, under the same keeper, limits and containment, but with no deadline of
 * its own: fn reads its requests from child_request_fd() (the write end is in_fd, never
 * blocking; not standard input, which a vendor child points at /dev/null) and answers on fd;
 * the caller reads the answers with child_proc_read() under a deadline of its choosing and
 * ends the child with child_proc_stop().
 */
struct child_stream {
	int fd; /* non-blocking read end */
	char *buf;
	size_t cap, len; /* at most cap bytes kept */
	uint64_t total;	 /* bytes read, kept or not */
	bool eof;
};

struct child_proc {
	int keeper; /* pid */
	int in_fd;
	struct child_stream out, err, st;
	const char *containment; /* CHILD_CONTAIN_*, once the keeper said (NULL before) */
	bool ended; /* the child and its tree are gone (the keeper's record came, or it died) */
};

int child_proc_start(child_fn fn, void *userdata, const struct child_opts *opts,
		     struct child_proc *ret);
/*
 * The same with the keeper a program of its own rather than a fork of the caller (`gpuenv
 * exporter`'s NVML child, docs/exporter.md: a fork keeps the caller's pages resident in each
 * process of the tree). In the forked process, exec_keeper gets the keeper's descriptors
 * (CHILD_PROC_FDS: requests, output, stderr, the keeper's announcement and record; nothing
 * else is open above stderr) and the caller's pid, and execs a program that calls
 * child_proc_keeper_main() with them; it returns only when the exec failed. libgpuenv itself
 * executes nothing (tests/tools/check-no-exec.sh): exec_keeper is the caller's.
 */
int child_proc_start_exec(child_exec_fn exec_keeper, void *data, const struct child_opts *opts,
			  struct child_proc *ret);
/* In that program: the keeper of child_proc_start() (its limits, containment and record),
 * running fn(fd, userdata) in the child under it, with opts as the caller would have given
 * them. Never returns. */
_Noreturn void child_proc_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent, child_fn fn,
				      void *userdata, const struct child_opts *opts);
/* A process of a child's tree that is done starting (the keeper and the reaper once they
 * forked, a long-lived child once its library is open, vendor/session-keep.c) calls
 * child_settled(): the hook a program set with child_set_settled_hook() runs (none by
 * default), e.g. to drop the pages only start-up touched (tools/exporter-pages.c). */
void child_set_settled_hook(void (*hook)(void));
void child_settled(void);
/* Reads what the child writes until enough(out.buf, out.len, userdata) is true (1), the child
 * has ended (0), deadline (CLOCK_MONOTONIC milliseconds) passed (-ETIME), or out is full
 * (-EMSGSIZE). */
int child_proc_read(struct child_proc *p, uint64_t deadline_ms,
		    bool (*enough)(const char *buf, size_t len, void *userdata), void *userdata);
/* Ends the child: closes its request pipe, gives it grace_ms to end, then kills its whole
 * tree (ret->timed_out) and reaps the keeper. ret (may be NULL) gets how it ended, what it
 * wrote since the last child_proc_read() that was taken (output and stderr are moved into
 * it; free with child_result_done()). Frees p's buffers and descriptors. */
void child_proc_stop(struct child_proc *p, unsigned grace_ms, struct child_result *ret);
uint64_t child_now_ms(void); /* CLOCK_MONOTONIC */
/* In the child of child_proc_start(): the descriptor its requests come on (-1 elsewhere). */
int child_request_fd(void);

/* A private directory (mode 0700) under $TMPDIR or /tmp for a child to use as HOME and cache,
 * and its removal with everything in it (symbolic links are removed, never followed). */
int child_tmpdir_create(char **ret_path);
/* Where temporary files go: $TMPDIR when it is an absolute path, else /tmp. */
const char *child_tmp_base(void);
int child_tmpdir_remove(const char *path);
/* Writes text to name ("vendors/x.icd": one directory level at most) in such a directory. */
int child_tmpdir_put(const char *dir, const char *name, const char *text);

void child_result_done(struct child_result *r);
