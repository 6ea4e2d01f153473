// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuenv-cuda: the keeper of the libcuda session of `gpuenv exporter`'s diagnosis
 * (docs/exporter.md, Collection), exec'd by the diagnosis child (exporter-server.c) from
 * gpuenv's own libexec directory for each diagnosis, never installed on a PATH and never run
 * by hand. It runs what a fork of the diagnosis child ran before (core/child.c
 * child_start_fn(): the keeper, holding the tree as a subreaper since cuInit fails in a PID
 * namespace, and the sandboxed child that opens libcuda and queries it once,
 * vendor/cuda.c), with the same limits, seccomp filter, Landlock rules, deadline and
 * protocol; a program of its own, so that neither of its processes keeps gpuenv's code or
 * the diagnosis child's heap resident (a fork shares them copy-on-write, and the resident
 * set counts them in each process).
 *
 * Once the keeper only waits (after its fork) it unmaps the pages start-up alone touched
 * (exporter-pages.c).
 *
 * Usage (by exporter-server.c only): gpuenv-cuda PARENT_PID DEADLINE_MS TIMEOUT_MS LIBRARY DIR
 * SKIP_INIT FLAGS, DEADLINE_MS the session's end (CLOCK_MONOTONIC milliseconds), TIMEOUT_MS
 * its length, LIBRARY the library to dlopen ("": libcuda.so.1), DIR the child's private
 * directory ("": none), SKIP_INIT why cuInit is not called ("": call it), FLAGS "-" or any
 * of 'l' (launch the probe kernel) and 't' (no measured times), with the output on
 * descriptor 4, stderr's pipe on 5 and the keeper's record on 6 (core/child.h
 * child_start_exec()).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exporter.h"
#include "shared/parse.h"
#include "vendor/vendor.h"

#define EXIT_USAGE 64 /* sysexits.h EX_USAGE */

static void drop_pages(void)
{
	(void)exporter_drop_startup_pages();
}

static int usage(void)
{
	fprintf(stderr, "gpuenv-cuda: run by gpuenv exporter only\n");
	return EXIT_USAGE;
}

int main(int argc, char *argv[])
{
	const int fds[CHILD_PROC_FDS] = { -1, 4, 5, 6 };
	struct vendor_keep_exec what;
	uint64_t deadline;
	unsigned parent, timeout;

	if (argc != 8 || parse_uint(argv[1], 10, &parent) < 0 || parent == 0 ||
	    parse_u64(argv[2], 10, &deadline) < 0 || parse_uint(argv[3], 10, &timeout) < 0 ||
	    strspn(argv[7], "-lt") != strlen(argv[7]) || !argv[7][0])
		return usage();
	for (int i = 1; i < CHILD_PROC_FDS; i++)
		if (fcntl(fds[i], F_GETFD) < 0)
			return usage();
	what = (struct vendor_keep_exec){ .library = argv[4][0] ? argv[4] : NULL,
					  .dir = argv[5][0] ? argv[5] : NULL,
					  .deadline_ms = deadline,
					  .timeout_ms = timeout,
					  .skip_init = argv[6][0] ? argv[6] : NULL,
					  .launch = strchr(argv[7], 'l') != NULL,
					  .no_timings = strchr(argv[7], 't') != NULL };
	child_set_settled_hook(drop_pages);
	vendor_cuda_keeper_main(fds, (pid_t)parent, &what);
}
