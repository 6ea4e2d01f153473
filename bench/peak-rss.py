#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Peak memory of a command, children included: peak-rss.py COMMAND [ARGS...]

Prints "SUM_KIB MAX_KIB PROCS": the sum over every process of the tree of its own peak
resident set (VmHWM), the largest single one, and how many processes there were.

Why not /usr/bin/time -v or getrusage(RUSAGE_CHILDREN): their ru_maxrss is the peak of the
largest single descendant, not of the tree (getrusage(2)), so a program that does its work in
children (gpuenv's vendor sessions, collect_env's nvidia-smi and pip) looks smaller than it is.
Why not a cgroup's memory.peak: cgroup v2 only, and it charges page cache to whoever first
read a file. Here the command runs under ptrace(2) with PTRACE_O_TRACEFORK/VFORK/CLONE, so
every descendant is traced from its first instruction, and PTRACE_O_TRACEEXIT stops each one
just before it exits, while /proc/PID/status still has its VmHWM (proc(5)). Threads share
their process's memory: only thread-group leaders are counted. The sum is an upper bound of
the true simultaneous peak (processes that never ran at the same time are added, and shared
library pages count once per process), the same bound for both commands compared. Tracing
slows the command down: use it for memory only, never for time.
"""
import ctypes
import os
import signal
import sys

PTRACE_TRACEME, PTRACE_CONT, PTRACE_SETOPTIONS, PTRACE_GETEVENTMSG = 0, 7, 0x4200, 0x4201
O_TRACEFORK, O_TRACEVFORK, O_TRACECLONE, O_TRACEEXEC, O_TRACEEXIT, O_EXITKILL = (
    0x2, 0x4, 0x8, 0x10, 0x40, 0x100000)
EVENT_EXIT = 6
WALL = 0x40000000

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long


def status_field(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return line.split()[1]
    except OSError:
        pass
    return None


def main():
    cmd = sys.argv[1:]
    if not cmd:
        sys.exit(__doc__)
    child = os.fork()
    if child == 0:
        libc.ptrace(PTRACE_TRACEME, 0, None, None)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execvp(cmd[0], cmd)
    opts = O_TRACEFORK | O_TRACEVFORK | O_TRACECLONE | O_TRACEEXEC | O_TRACEEXIT | O_EXITKILL
    total = biggest = procs = 0
    seen_opts = set()
    live = {child}
    while live:
        try:
            pid, st = os.waitpid(-1, WALL)
        except ChildProcessError:
            break
        if os.WIFEXITED(st) or os.WIFSIGNALED(st):
            live.discard(pid)
            continue
        if not os.WIFSTOPPED(st):
            continue
        live.add(pid)
        if pid not in seen_opts:
            libc.ptrace(PTRACE_SETOPTIONS, pid, None, ctypes.c_void_p(opts))
            seen_opts.add(pid)
        sig, event = os.WSTOPSIG(st), st >> 16
        deliver = 0
        if event == EVENT_EXIT:
            if status_field(pid, "Tgid") == str(pid):  # a process, not one of its threads
                hwm = int(status_field(pid, "VmHWM") or 0)
                total += hwm
                biggest = max(biggest, hwm)
                procs += 1
        elif event == 0 and sig not in (signal.SIGTRAP, signal.SIGSTOP):
            deliver = sig  # an ordinary signal: pass it on
        libc.ptrace(PTRACE_CONT, pid, None, ctypes.c_void_p(deliver))
    print(f"{total} {biggest} {procs}")


if __name__ == "__main__":
    main()
