/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What gpuenv's side of a child (child.c) and its keeper (child-keeper.c) share. Not for
 * other files: child.h is the interface. */
#pragma once

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "child-stuck.h"
#include "child.h"

#define CHILD_REAP_GRACE_MS 500u /* after SIGKILL: how long to wait for a D-state child */
/* After SIGKILL, past the grace: how long at most a killed task that is not in D state is
 * waited for. It dies once it gets a CPU, which on a loaded machine (a parallel ASan test
 * suite on two cores) can take longer than the grace; calling it stuck then would be wrong. */
#define CHILD_REAP_LOADED_MS 10000u
/* The deadline stretches by the time the child spent waiting for a CPU, up to this many times
 * the timeout (see child_deadline()). */
#define CHILD_STARVED_MAX 4u

/* What the reaper (the keeper, or the init of the PID namespace) tells the parent. */
struct keeper_record {
	int32_t status; /* wait status of the child */
	uint8_t reaped, timed_out, mode;
	uint32_t strays, strays_left;
	struct child_stuck stuck; /* at the deadline, before the kill (.pid 0: none) */
};

struct keeper_args {
	child_fn fn;
	void *userdata;
	const struct child_opts *o;
	uint64_t deadline; /* UINT64_MAX: none (child_start_fn) */
	int out_w, err_w, st_w;
	int in_r; /* the read end of the request pipe (child_start_fn), or -1 */
};

/* Indexed by keeper_record.mode: 0 a PID namespace, 1 a subreaper, 2 the process group. */
extern const char *const child_contain_names[3];

void child_sleep_ms(unsigned ms);
/* Closes every descriptor above stderr but keep[0..n-1]. */
void child_close_other_fds(const int keep[], size_t n);
/* The keeper, forked by the parent (whose pid is parent): runs a->fn in the child under it
 * and writes the record to a->st_w. Never returns. */
_Noreturn void child_keeper(const struct keeper_args *a, pid_t parent);
