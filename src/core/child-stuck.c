// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Finds a task in uninterruptible sleep in a child's tree (child-stuck.h): the tree is walked
 * through /proc/PID/task/TID/children (proc(5); Linux 3.5, CONFIG_PROC_CHILDREN), each
 * task's state read from /proc/PID/task/TID/stat and, for one in "D", the kernel function it
 * waits in from /proc/PID/task/TID/wchan (proc(5): a symbol name, or "0" when the reader
 * may not see kernel addresses).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child-stuck.h"

#define STUCK_MAX_TASKS 256u

const char *child_stuck_state_override;

int proc_stat_parse(const char *text, size_t len, char comm[16], char *state)
{
	const char *open = memchr(text, '(', len), *close = NULL;
	size_t n;

	for (size_t i = len; i > 0; i--)
		if (text[i - 1] == ')') {
			close = text + i - 1;
			break;
		}
	if (!open || !close || close < open || (size_t)(close - text) + 3 > len ||
	    close[1] != ' ' || close[2] < 'A' || close[2] > 'z')
		return -EBADMSG;
	n = (size_t)(close - open - 1);
	n = n < 15 ? n : 15;
	memcpy(comm, open + 1, n);
	comm[n] = '\0';
	*state = close[2];
	return 0;
}

/* A small /proc file into buf, NUL-terminated; its length, or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t k;

	if (fd < 0)
		return -errno;
	do
		k = read(fd, buf, size - 1);
	while (k < 0 && errno == EINTR);
	if (k < 0)
		k = -errno;
	close(fd);
	if (k >= 0)
		buf[k] = '\0';
	return k;
}

/* The task's state file, or the test's stand-in. */
static void task_path(char *buf, size_t size, const char *proc_dir, int pid, int tid,
		      const char *file)
{
	if (child_stuck_state_override)
		snprintf(buf, size, "%s/%s", child_stuck_state_override, file);
	else
		snprintf(buf, size, "%s/%d/task/%d/%s", proc_dir, pid, tid, file);
}

/* Whether task tid of pid is in uninterruptible sleep; *ret filled when it is. */
static bool task_stuck(const char *proc_dir, int pid, int tid, struct child_stuck *ret)
{
	char path[256], buf[1024], state;
	ssize_t k;

	task_path(path, sizeof(path), proc_dir, pid, tid, "stat");
	k = read_small(path, buf, sizeof(buf));
	if (k <= 0 || proc_stat_parse(buf, (size_t)k, ret->comm, &state) < 0 || state != 'D')
		return false;
	ret->pid = tid;
	/* A test's stand-in is the whole stat line, the task's id (its first field) included:
	 * the id the report names is then the same on every run. */
	if (child_stuck_state_override && atoi(buf) > 0)
		ret->pid = atoi(buf);
	task_path(path, sizeof(path), proc_dir, pid, tid, "wchan");
	k = read_small(path, buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	/* "0": the address is hidden from this reader; keep only a symbol's characters */
	if (k <= 0 || !strcmp(buf, "0") ||
	    strspn(buf, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != strlen(buf))
		buf[0] = '\0';
	snprintf(ret->wchan, sizeof(ret->wchan), "%.63s", buf);
	return true;
}

int child_tree_find_stuck(const char *proc_dir, int pid, struct child_stuck *ret)
{
	int queue[STUCK_MAX_TASKS];
	unsigned head = 0, tail = 0, tasks = 0;

	queue[tail++] = pid;
	while (head < tail && tasks < STUCK_MAX_TASKS) {
		int p = queue[head++];
		char path[256];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "%s/%d/task", proc_dir, p);
		d = opendir(path);
		if (!d) {
			if (p == pid)
				return -errno;
			continue; /* ended meanwhile */
		}
		while ((de = readdir(d)) && tasks < STUCK_MAX_TASKS) {
			char buf[1024], *s, *end;
			int tid = (int)strtol(de->d_name, &end, 10);

			if (tid <= 0 || *end)
				continue;
			tasks++;
			if (task_stuck(proc_dir, p, tid, ret)) {
				closedir(d);
				return 1;
			}
			snprintf(path, sizeof(path), "%s/%d/task/%d/children", proc_dir, p, tid);
			if (read_small(path, buf, sizeof(buf)) <= 0)
				continue;
			for (s = buf;; s = end) {
				long c = strtol(s, &end, 10);

				if (end == s || c <= 0 || tail >= STUCK_MAX_TASKS)
					break;
				queue[tail++] = (int)c;
			}
		}
		closedir(d);
	}
	return 0;
}

bool child_stuck_still(const char *proc_dir, const struct child_stuck *s)
{
	struct child_stuck now;

	/* /proc/TID reaches any thread by its id, listed or not (proc(5)) */
	return s->pid > 0 && task_stuck(proc_dir, s->pid, s->pid, &now);
}

int child_tree_find_stuck_below_self(struct child_stuck *ret)
{
	char self[32];
	ssize_t k = readlink("/proc/self", self, sizeof(self) - 1);

	if (k <= 0)
		return k < 0 ? -errno : -EIO;
	self[k] = '\0';
	return child_tree_find_stuck("/proc", atoi(self), ret);
}
