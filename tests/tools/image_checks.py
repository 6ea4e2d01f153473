# SPDX-License-Identifier: GPL-2.0-or-later
"""What the --image and --wheel tests share: counted checks, running gpuenv with a clean
environment (the sanitizers' options kept), and the image index fact of a snapshot."""
import os
import subprocess

FAILS = []
COUNT = [0]


def check(cond, what):
    COUNT[0] += 1
    if not cond:
        FAILS.append(what)
        print("FAIL", what)


def run(gpuenv, *args, timeout=120):
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    return subprocess.run([gpuenv, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, timeout=timeout, text=True)


def index_state(d):
    return d["container"]["image"]["index"] if d else None


def summary(skips=0):
    """Prints the count line; the exit status."""
    print("%d checks, %d failed%s" % (COUNT[0], len(FAILS),
                                       ", %d skipped" % skips if skips else ""))
    return 1 if FAILS else 0
