// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gpuenv-nvml: the keeper of `gpuenv exporter`'s long-lived NVML child (docs/exporter.md,
 * Collection), exec'd by the collecting process (exporter-server.c) from gpuenv's own libexec
 * directory for each start of the child, never installed on a PATH and never run by hand.
 * It runs what a fork of gpuenv ran before (core/child.c child_proc_start(): the keeper, in a
 * PID namespace where permitted its init, and the sandboxed child that opens NVML once and
 * sweeps it per request, vendor/session-keep.c), with the same limits, seccomp filter,
 * Landlock rules and protocol; a program of its own, so that none of its processes keeps
 * gpuenv's code or the collecting process's heap resident (a fork shares them copy-on-write,
 * and the resident set counts them in each process).
 *
 * Once a process of the tree only waits (the keeper and the init after their fork) or only
 * sweeps (the child once NVML is open), it unmaps the pages start-up alone touched
 * (exporter-pages.c): the loader's relocations, libc's and jansson's initialisation, and the
 * vendor library's opening and nvmlInit.
 *
 * Usage (by exporter-server.c only): gpuenv-nvml PARENT_PID LIBRARY DIR, LIBRARY the library
 * to dlopen ("": the usual sonames), DIR the child's private directory ("": none), with the
 * request pipe on descriptor 3, the output on 4, stderr's pipe on 5 and the keeper's record
 * on 6 (core/child.h child_proc_start_exec()).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exporter.h"
#include "shared/parse.h"
#include "vendor/vendor.h"

#define EXIT_USAGE 64 /* sysexits.h EX_USAGE */

static void drop_pages(void)
{
	(void)exporter_drop_startup_pages();
}

int main(int argc, char *argv[])
{
	const int fds[CHILD_PROC_FDS] = { 3, 4, 5, 6 };
	struct vendor_keep_exec what;
	unsigned parent;

	if (argc != 4 || parse_uint(argv[1], 10, &parent) < 0 || parent == 0) {
		fprintf(stderr, "gpuenv-nvml: run by gpuenv exporter only\n");
		return EXIT_USAGE;
	}
	for (int i = 0; i < CHILD_PROC_FDS; i++)
		if (fcntl(fds[i], F_GETFD) < 0) {
			fprintf(stderr, "gpuenv-nvml: run by gpuenv exporter only\n");
			return EXIT_USAGE;
		}
	what = (struct vendor_keep_exec){ .library = argv[2][0] ? argv[2] : NULL,
					  .dir = argv[3][0] ? argv[3] : NULL };
	child_set_settled_hook(drop_pages);
	vendor_nvml_keeper_main(fds, (pid_t)parent, &what);
}
