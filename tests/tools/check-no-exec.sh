#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gpuenv never executes a program of its input: what `nvcc --version` would print it reads from nvcc's
# bytes, and a program found through its input (CUDA_HOME or PATH of an --env-file, a
# --sysroot tree, the judged process) must never run. Fails when the library or the tool
# imports a function that runs one (the exec family, posix_spawn, popen, system); the
# symbols, not the source text, so a call through any wrapper counts too.
# Two exceptions, in the tool only, each allowed only while one object of the tool imports it:
# `gpuenv health --slurm` runs the caller's own scontrol (posix_spawnp on gpuenv's PATH, never
# a path from its input; docs/fleet.md), from tools/cmd-health.c; `gpuenv exporter` execs its
# own serving program, gpuenv-http, found beside gpuenv's own executable or in its libexec
# directory, never from input (execv; docs/exporter.md), from tools/exporter-server.c.
set -u
fail=0
ALLOWED="posix_spawnp:cmd-health.c.o execv:exporter-server.c.o"
for f in "$@"; do
	allowed=
	objs=$(dirname "$f")/$(basename "$f").p
	if [ -d "$objs" ]; then
		for pair in $ALLOWED; do
			sym=${pair%%:*} obj=${pair#*:}
			users=$(for o in "$objs"/*.o; do
				nm --undefined-only "$o" | awk '{print $NF}' | grep -qx "$sym" && basename "$o"
			done)
			if [ "$users" = "$obj" ]; then
				allowed="$allowed $sym"
			elif [ -n "$users" ]; then
				echo "FAIL: $f: $sym imported by $(echo $users), not only $obj"
				fail=1
			fi
		done
	fi
	bad=$(nm -D --undefined-only "$f" | awk '{print $NF}' | sed 's/@.*//' |
		grep -xE 'execve|execveat|execv|execvp|execvpe|execl|execlp|execle|fexecve|posix_spawn|posix_spawnp|popen|system' |
		grep -vxF -e '^$' $(for a in $allowed; do printf -- ' -e %s' "$a"; done) || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $f imports $(echo $bad)"
		fail=1
	else
		echo "ok: $f imports no exec, posix_spawn, popen or system${allowed:+ (but$allowed, each from its one object)}"
	fi
done
exit $fail
