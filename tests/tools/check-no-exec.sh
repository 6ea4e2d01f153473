#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gpuenv never executes a program of its input: what `nvcc --version` would print it reads from nvcc's
# bytes, and a program found through its input (CUDA_HOME or PATH of an --env-file, a
# --sysroot tree, the judged process) must never run. Fails when the library or the tool
# imports a function that runs one (the exec family, posix_spawn, popen, system); the
# symbols, not the source text, so a call through any wrapper counts too.
# One exception, in the tool only: `gpuenv health --slurm` runs the caller's own scontrol
# (posix_spawnp on gpuenv's PATH, never a path from its input; docs/fleet.md). It is allowed
# only while tools/cmd-health.c is the one object of the tool that imports it.
set -u
fail=0
for f in "$@"; do
	allowed=
	objs=$(dirname "$f")/$(basename "$f").p
	if [ -d "$objs" ]; then
		users=$(for o in "$objs"/*.o; do
			nm --undefined-only "$o" | awk '{print $NF}' | grep -qx posix_spawnp && basename "$o"
		done)
		if [ "$users" = "cmd-health.c.o" ]; then
			allowed=posix_spawnp
		elif [ -n "$users" ]; then
			echo "FAIL: $f: posix_spawnp imported by $(echo $users), not only cmd-health.c.o"
			fail=1
		fi
	fi
	bad=$(nm -D --undefined-only "$f" | awk '{print $NF}' | sed 's/@.*//' |
		grep -xE 'execve|execveat|execv|execvp|execvpe|execl|execlp|execle|fexecve|posix_spawn|posix_spawnp|popen|system' |
		grep -vx "${allowed:-^$}" || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $f imports $(echo $bad)"
		fail=1
	else
		echo "ok: $f imports no exec, posix_spawn, popen or system${allowed:+ (but posix_spawnp, from cmd-health.c.o only)}"
	fi
done
exit $fail
