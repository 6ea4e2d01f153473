#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv exporter`'s long-lived NVML child (src/vendor/session-keep.c) on a fixture with
the fake NVML (tests/fakes): one child serves many samples (with --nvml-child per-sample,
a new one each time); a child that hangs, crashes or writes garbage in the middle of its
session (the fake's "KIND.FUNCTION#N" injections: the Nth sweep) is killed and restarted,
counted in gpuenv_nvml_child_restarts_total and gpuenv_collection_errors_total, the sample
is flagged stale until a restarted child answers, and scrapes never wait on it; SIGTERM
leaves no process behind. A child that hangs in uninterruptible sleep (a driver call no
signal ends; the test build's GPUENV_TEST_STUCK_STATE stands in for the tasks' /proc state,
as a fake library cannot enter D state) is reported, gpuenv_nvml_child_stuck{wchan}, and not
restarted.
Usage: test-exporter-nvml-child.py GPUENV GPUENV_TEST"""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import (collection_children, comm, descendants,  # noqa: E402
                           fixture_args, free_port, parse, serving_process, start, value,
                           wait_http)

GPUENV = sys.argv[1]
GPUENV_TEST = sys.argv[2]
FIXTURE = "nvml-a100-persistence-off"  # two GPUs: a sweep is quick under the sanitizers
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


class Exporter:
    """The exporter on FIXTURE, with extra scenario lines appended to the fixture's."""

    def __init__(self, extra_scenario="", *args, gpuenv=GPUENV, extra_env=None):
        src_args, env = fixture_args(FIXTURE)
        env.update(extra_env or {})
        self.scenario = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
        with open(env["GPUENV_FAKE_SCENARIO"], encoding="utf-8") as f:
            self.scenario.write(f.read())
        self.scenario.write("\n[nvml]\n" + extra_scenario + "\n")
        self.scenario.close()
        env["GPUENV_FAKE_SCENARIO"] = self.scenario.name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.p = start(gpuenv, ["--listen", f"127.0.0.1:{self.port}", "--diagnose-every", "1h",
                                *args, *src_args], env)

    def metrics(self):
        st = wait_http(self.base + "/metrics", 10)
        return parse(st[2]) if st[0] == 200 else {}

    def num(self, name, **labels):
        v = value(self.metrics(), name, **labels)
        return float(v) if v is not None else None

    def wait_for(self, what, cond, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fams = self.metrics()
            if fams and cond(fams):
                check(True, what)
                return fams
            time.sleep(0.2)
        check(False, f"{what} (within {timeout} s)")
        return self.metrics()

    def stop(self):
        kids = descendants(self.p.pid)
        self.p.send_signal(signal.SIGTERM)
        try:
            rc = self.p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        os.unlink(self.scenario.name)
        time.sleep(0.5)
        left = {k for k in kids if os.path.exists(f"/proc/{k}")
                and not open(f"/proc/{k}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"}
        return rc, left


def samples(fams):
    return int(value(fams, "gpuenv_collections_total", kind="sample") or 0)


def test_one_child_many_samples():
    for mode, many in (("long-lived", False), ("per-sample", True)):
        e = Exporter("", "--interval", "300ms", "--vendor-timeout", "20000",
                     "--nvml-child", mode)
        try:
            e.wait_for(f"{mode}: a first sample", lambda f: samples(f) >= 1)
            first, seen = samples(e.metrics()), set()
            deadline = time.monotonic() + 120
            while samples(e.metrics()) < first + 4 and time.monotonic() < deadline:
                seen |= collection_children(e.p.pid)
                time.sleep(0.05)
            fams = e.metrics()
            n = samples(fams) - first
            if many:
                check(len(seen) > 3, f"per-sample: new children for each of {n} samples "
                      f"({len(seen)} processes seen)")
                check(value(fams, "gpuenv_nvml_child_restarts_total") is None,
                      "per-sample: no restart counter")
            else:
                check(n >= 4 and 1 <= len(seen) <= 3,
                      f"long-lived: one child tree (keeper, init, NVML child) served {n} "
                      f"samples ({len(seen)} processes seen)")
                check(value(fams, "gpuenv_nvml_child_restarts_total") == "0",
                      "long-lived: no restart")
                check(value(fams, "DCGM_FI_DEV_GPU_TEMP", gpu="1") == "31",
                      "long-lived: GPU 1's temperature from the fake")
                check(value(fams, "gpuenv_sample_stale") == "0", "long-lived: not stale")
        finally:
            rc, left = e.stop()
        check(rc == 0 and not left, f"{mode}: SIGTERM ends it with 0, nothing left "
              f"({rc}, {sorted(left)})")


def test_fault(name, injection, timeout_ms):
    e = Exporter(injection, "--interval", "500ms", "--vendor-timeout", str(timeout_ms))
    try:
        fams = e.wait_for(f"{name}: the child restarted",
                          lambda f: float(value(f, "gpuenv_nvml_child_restarts_total")
                                          or 0) >= 1)
        errors = float(value(fams, "gpuenv_collection_errors_total", kind="nvml_session"))
        check(errors >= 1, f"{name}: counted as an nvml_session error ({errors:.0f})")
        worst = 0.0
        for _ in range(15):
            t0 = time.monotonic()
            wait_http(e.base + "/metrics", 10)
            worst = max(worst, time.monotonic() - t0)
            time.sleep(0.1)
        check(worst < 1.0, f"{name}: scrapes never wait on the child (slowest {worst:.3f} s)")
        stamp = float(value(e.metrics(), "gpuenv_sample_timestamp_seconds"))
        e.wait_for(f"{name}: a restarted child's fresh sample",
                   lambda f: float(value(f, "gpuenv_sample_timestamp_seconds")) > stamp
                   and value(f, "gpuenv_sample_stale") == "0"
                   and value(f, "DCGM_FI_DEV_GPU_TEMP", gpu="0") == "33")
    finally:
        rc, left = e.stop()
    check(rc == 0 and not left, f"{name}: SIGTERM ends it with 0, nothing left "
          f"({rc}, {sorted(left)})")


def keeper(pid):
    """The NVML child's keeper: the collecting process's child that is not the serving
    process (the diagnosis child has ended once /readyz answers and --diagnose-every is 1h)."""
    kids = [k for k in collection_children(pid)
            if int(open(f"/proc/{k}/stat").read().rsplit(")", 1)[1].split()[1]) == pid]
    return kids[0] if len(kids) == 1 else None


def test_keeper_killed():
    """The keeper (and so the NVML child's tree) killed from outside: the scrapes go on, the
    next sample counts a restart and a new keeper, started by the collecting process, which has
    no thread but its own (the HTTP server is the serving process), serves fresh samples. The
    keeper and every process below it run the NVML child's program, gpuenv-nvml (not a fork
    of gpuenv, whose pages each would keep resident: docs/exporter.md, Load)."""
    e = Exporter("", "--interval", "500ms", "--vendor-timeout", "20000")
    try:
        e.wait_for("keeper killed: ready", lambda f: wait_http(e.base + "/readyz", 2)[0] == 200)
        first = keeper(e.p.pid)
        check(first is not None, f"keeper killed: one keeper below the collecting process "
              f"({first})")
        tree = [first] + sorted(descendants(first)) if first is not None else []
        names = [comm(k) for k in tree]
        check(len(tree) >= 2 and set(names) == {"gpuenv-nvml"},
              f"keeper killed: the keeper and the NVML child below it run gpuenv-nvml "
              f"({names})")
        tasks = len(os.listdir(f"/proc/{e.p.pid}/task"))
        check(tasks == 1, f"keeper killed: the collecting process has one thread ({tasks})")
        if first is not None:
            os.kill(first, signal.SIGKILL)
        st = wait_http(e.base + "/metrics", 10)
        check(st[0] == 200, f"keeper killed: the next scrape answers ({st[0]})")
        fams = e.wait_for("keeper killed: a restart counted",
                          lambda f: float(value(f, "gpuenv_nvml_child_restarts_total")
                                          or 0) >= 1)
        stamp = float(value(fams, "gpuenv_sample_timestamp_seconds"))
        e.wait_for("keeper killed: the new keeper's fresh sample",
                   lambda f: float(value(f, "gpuenv_sample_timestamp_seconds")) > stamp
                   and value(f, "gpuenv_sample_stale") == "0"
                   and value(f, "DCGM_FI_DEV_GPU_TEMP", gpu="1") == "31")
        again = keeper(e.p.pid)
        check(again is not None and again != first,
              f"keeper killed: a new keeper ({first} then {again})")
    finally:
        rc, left = e.stop()
    check(rc == 0 and not left, f"keeper killed: SIGTERM ends it with 0, nothing left "
          f"({rc}, {sorted(left)})")


def test_serving_process_killed():
    """The serving process killed from outside: the collecting process says so and exits 70
    (for the service manager to restart both), its NVML child's tree ended with it."""
    e = Exporter("", "--interval", "500ms", "--vendor-timeout", "20000")
    try:
        e.wait_for("serving process killed: ready",
                   lambda f: wait_http(e.base + "/readyz", 2)[0] == 200)
        server, kids = serving_process(e.p.pid), collection_children(e.p.pid)
        check(server is not None and kids, f"serving process killed: the serving process "
              f"({server}) and the NVML child's tree ({len(kids)} processes)")
        if server is not None:
            os.kill(server, signal.SIGKILL)
        try:
            rc = e.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            rc = None
        err = e.p.stderr.read() if rc is not None else ""
        check(rc == 70 and "the serving process" in err,
              f"serving process killed: the exporter exits 70 and says why ({rc})")
    finally:
        rc2, left = e.stop()
    left |= {k for k in kids if alive(k)}
    check(not left, f"serving process killed: nothing left ({sorted(left)})")


def alive(pid):
    """Whether pid is a process that has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_stuck(name, injection, timeout_ms):
    """The hang of test_fault, the hung task in D state: reported, never restarted."""
    with tempfile.TemporaryDirectory() as d:
        # proc(5)'s stat line of a task in uninterruptible sleep, and its wait channel
        with open(os.path.join(d, "stat"), "w", encoding="utf-8") as f:
            f.write("4242 (gpuenv) D 4200 4200 4200 0 -1 4194560 1532 0 0 0 3 1 0 0 20 0 2 "
                    "0 81234 2818048 1207\n")
        with open(os.path.join(d, "wchan"), "w", encoding="utf-8") as f:
            f.write("os_acquire_mutex")
        e = Exporter(injection, "--interval", "500ms", "--vendor-timeout", str(timeout_ms),
                     gpuenv=GPUENV_TEST, extra_env={"GPUENV_TEST_STUCK_STATE": d})
        try:
            fams = e.wait_for(f"{name}: reported stuck at the kernel function",
                              lambda f: value(f, "gpuenv_nvml_child_stuck",
                                              wchan="os_acquire_mutex") == "1")
            check(value(fams, "gpuenv_sample_stale") == "1", f"{name}: the sample is stale")
            errors = float(value(fams, "gpuenv_collection_errors_total", kind="nvml_session"))
            time.sleep(3)  # six intervals: a restart would have come after the 1 s backoff
            fams = e.metrics()
            check(value(fams, "gpuenv_nvml_child_restarts_total") == "0",
                  f"{name}: no new child while the task stays stuck")
            more = float(value(fams, "gpuenv_collection_errors_total", kind="nvml_session"))
            check(more > errors, f"{name}: each sample meanwhile counts an nvml_session error "
                  f"({errors:.0f} then {more:.0f})")
            check(value(fams, "gpuenv_nvml_child_stuck", wchan="os_acquire_mutex") == "1",
                  f"{name}: still reported")
        finally:
            rc, left = e.stop()
        err = e.p.stderr.read() if e.p.stderr else ""
        check("uninterruptible sleep" in err and "os_acquire_mutex" in err,
              f"{name}: said once on stderr")
        check(rc == 0 and not left, f"{name}: SIGTERM ends it with 0, nothing left "
              f"({rc}, {sorted(left)})")


# The fake counts calls per process: nvmlSystemGetDriverVersion is called once per sweep,
# so "#2" is the second sample a child answers (and again in each restarted child).
for t, args in ((test_one_child_many_samples, ()),
                (test_keeper_killed, ()),
                (test_serving_process_killed, ()),
                (test_fault, ("hang mid-session", "hang.nvmlSystemGetDriverVersion#3 = 1",
                              3000)),
                (test_fault, ("crash mid-session",
                              "crash.nvmlSystemGetDriverVersion#2 = SIGSEGV", 20000)),
                (test_fault, ("garbage mid-session",
                              "scribble.nvmlSystemGetDriverVersion#2 = {not the protocol",
                              20000)),
                (test_stuck, ("stuck in the driver", "hang.nvmlSystemGetDriverVersion#3 = 1",
                              3000))):
    print(f"== {t.__name__} {args[0] if args else ''}")
    t(*args)
print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
