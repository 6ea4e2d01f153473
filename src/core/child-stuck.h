/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A child's tree stuck in the kernel (child-stuck.c): a task in uninterruptible sleep, the
 * "D" state of proc(5) /proc/PID/stat, is inside a kernel call (a hung driver ioctl) and
 * cannot be killed until the call returns, so killing and restarting such a child leaks it
 * and starts another that hangs the same way.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct child_stuck {
	int pid;	/* the task (a thread id), as the reader's /proc numbers it */
	char comm[16];	/* its command name (TASK_COMM_LEN: 15 characters) */
	char wchan[64]; /* the kernel function it sleeps in; "" when hidden (kptr_restrict) */
};

/* The state and command name of a /proc/PID/stat line (proc(5): "PID (COMM) STATE …"; comm
 * may hold spaces and parentheses, so it ends at the last ')'). 0, or -EBADMSG. */
int proc_stat_parse(const char *text, size_t len, char comm[16], char *state);

/* Looks through the tree of processes under pid (each task of it and, recursively, of the
 * children /proc/PID/task/TID/children lists, at most 256 tasks) in proc_dir ("/proc") for a
 * task in uninterruptible sleep. 1 and *ret, 0 when none, -errno when pid's /proc entry
 * cannot be read. */
int child_tree_find_stuck(const char *proc_dir, int pid, struct child_stuck *ret);
/* The same below the calling process (a keeper's reaper): /proc/self names it by the number
 * /proc uses, also inside a PID namespace whose /proc was not remounted (where getpid() is
 * 1). */
int child_tree_find_stuck_below_self(struct child_stuck *ret);
/* Whether the task *s found is still there and still in uninterruptible sleep. */
bool child_stuck_still(const char *proc_dir, const struct child_stuck *s);

/* Test hook (testhooks.h): a directory whose "stat" and "wchan" files are read for every
 * task instead of the task's own, so a test can show a tree a hung driver call holds (a fake
 * library cannot enter D state); the task found is the one that stat line names. NULL: the
 * tasks' own. */
extern const char *child_stuck_state_override;
