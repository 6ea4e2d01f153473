# SPDX-License-Identifier: GPL-2.0-or-later
"""Waiting in the tests that start real daemons (Slurm, Prometheus, the exporter)."""
import time


def until(fn, timeout, interval=0.5):
    """fn()'s first true answer, asked every interval seconds for timeout seconds; else None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = fn()
        if got:
            return got
        time.sleep(interval)
    return None
