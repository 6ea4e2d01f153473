#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gpuenv never executes a program: what `nvcc --version` would print it reads from nvcc's
# bytes, and a program found through its input (CUDA_HOME or PATH of an --env-file, a
# --sysroot tree, the judged process) must never run. Fails when the library or the tool
# imports a function that runs one (the exec family, posix_spawn, popen, system); the
# symbols, not the source text, so a call through any wrapper counts too.
set -u
fail=0
for f in "$@"; do
	bad=$(nm -D --undefined-only "$f" | awk '{print $NF}' | sed 's/@.*//' |
		grep -xE 'execve|execveat|execv|execvp|execvpe|execl|execlp|execle|fexecve|posix_spawn|posix_spawnp|popen|system' || true)
	if [ -n "$bad" ]; then
		echo "FAIL: $f imports $(echo $bad)"
		fail=1
	else
		echo "ok: $f imports no exec, posix_spawn, popen or system"
	fi
done
exit $fail
