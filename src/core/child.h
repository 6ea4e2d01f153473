/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Work in a child process under a deadline: the seam that keeps a hanging vendor library
 * (an NVML call stuck in the driver, a libcuda that never returns from cuInit) from hanging
 * gpuenv. The child writes
 * its answer into a pipe; the parent reads at most max_output bytes until EOF or the
 * deadline, then kills the child's whole process group with SIGKILL. A child stuck in an
 * uninterruptible sleep (D state, typical of a wedged GPU driver) cannot be reaped even by
 * SIGKILL: the parent then gives up waiting after a short grace period and reports it, so
 * gpuenv still returns.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct child_result {
	bool timed_out;	 /* the deadline passed; the child was sent SIGKILL */
	bool reaped;	 /* waitpid() collected the child (false: stuck even after SIGKILL) */
	int exit_status; /* exit code when it exited normally, else -1 */
	int term_signal; /* signal that ended it, else 0 */
	char *output;	 /* what the child wrote, NUL-terminated, at most max_output bytes */
	size_t output_len;
	bool truncated; /* the child wrote more than max_output */
	unsigned elapsed_ms;
};

/* Runs fn(fd, userdata) in a forked child; fn writes its answer to fd, its return value
 * becomes the exit code. Returns 0 (see ret for what happened) or -errno when the child
 * could not be started. */
typedef int (*child_fn)(int fd, void *userdata);
int child_run_fn(child_fn fn, void *userdata, unsigned timeout_ms, size_t max_output,
		 struct child_result *ret);

void child_result_done(struct child_result *r);
