#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gpuenv stopped during a vendor session leaves no private directory behind (issue 13).

A session's child hangs in nvmlDeviceGetCount_v2 (the nvml-hang fixture's fake NVML, with a
60 s deadline), so gpuenv sits in the session with its gpuenv-vendor-* directory in a TMPDIR of
this test's own. Then:
- SIGTERM, SIGINT, SIGHUP: gpuenv ends by that signal and the directory is gone;
- SIGKILL: the directory stays (nothing can run), and the next gpuenv run that starts a session
  removes it, but not the decoys beside it: the directory of a live process (this test's), one
  of another PID namespace, one of another user (as root), and a symbolic link named like a
  stale directory (never followed: what it points to stays).

Usage: test-vendor-tmpdir.py GPUENV SOURCE_ROOT FAKES_DIR
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

PREFIX = "gpuenv-vendor-"


def env_for(tmp, ini):
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "TMPDIR": tmp, "GPUENV_FAKE_SCENARIO": ini}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    return env


def ours(tmp):
    return sorted(n for n in os.listdir(tmp) if n.startswith(PREFIX))


def start(gpuenv, fixture, fakes, tmp, timeout_ms):
    cmd = [gpuenv, "report", "--stable", "--sysroot", os.path.join(fixture, "root"),
           "--nvml-lib", os.path.join(fakes, "libnvidia-ml.so.1"), "--vendor-timeout",
           str(timeout_ms)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env_for(tmp, os.path.join(fixture, "scenario.ini")))


def in_session(proc, tmp):
    """Waits until proc's private directory exists (the child is then in the session)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        mine = [n for n in ours(tmp) if n.startswith(f"{PREFIX}{proc.pid}-")]
        if mine:
            time.sleep(0.3)  # the child is started and hangs
            return mine[0]
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.kill()
    sys.exit(f"FAIL: gpuenv (pid {proc.pid}) made no {PREFIX}{proc.pid}-* directory in {tmp}; "
             f"stderr: {proc.communicate()[1].decode(errors='replace')[-500:]}")


def main():
    gpuenv, source_root, fakes = sys.argv[1:4]
    fixture = os.path.join(source_root, "tests/fixtures/nvml-hang")
    ns = os.stat("/proc/self/ns/pid").st_ino
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            p = start(gpuenv, fixture, fakes, tmp, 60000)
            name = in_session(p, tmp)
            p.send_signal(sig)
            p.communicate(timeout=60)
            left = ours(tmp)
            if p.returncode != -sig or left:
                print(f"FAIL: {sig.name}: exit {p.returncode} (want {-sig}), left {left}")
                ok = False
            else:
                print(f"ok: {sig.name} in a session: {name} removed, gpuenv ended by {sig.name}")

        p = start(gpuenv, fixture, fakes, tmp, 60000)
        killed = in_session(p, tmp)
        p.kill()
        p.communicate(timeout=60)
        if killed not in ours(tmp):
            print(f"note: SIGKILL: {killed} already gone")
        decoys = [f"{PREFIX}{os.getpid()}-{ns}-live", f"{PREFIX}{p.pid}-{ns + 1}-otherns"]
        for d in decoys:
            os.mkdir(os.path.join(tmp, d))
            open(os.path.join(tmp, d, "kept"), "w").close()
        target = os.path.join(tmp, "target")
        os.mkdir(target)
        open(os.path.join(target, "kept"), "w").close()
        os.symlink(target, os.path.join(tmp, f"{PREFIX}{p.pid}-{ns}-link"))
        decoys.append(f"{PREFIX}{p.pid}-{ns}-link")
        if os.geteuid() == 0:
            other = f"{PREFIX}{p.pid}-{ns}-otheruser"
            os.mkdir(os.path.join(tmp, other))
            os.chown(os.path.join(tmp, other), 65534, 65534)
            decoys.append(other)

        q = start(gpuenv, fixture, fakes, tmp, 300)  # the session times out at once
        q.communicate(timeout=60)
        left = ours(tmp)
        if killed in left:
            print(f"FAIL: after SIGKILL: the next run left {killed}")
            ok = False
        else:
            print(f"ok: SIGKILL: the next run removed {killed}")
        gone = [d for d in decoys if d not in left]
        if gone or not os.path.exists(os.path.join(target, "kept")):
            print(f"FAIL: the next run removed what was not a stale directory: {gone}")
            ok = False
        else:
            print(f"ok: kept {', '.join(decoys)} and the link's target")
        if set(left) - set(decoys):
            print(f"FAIL: left {sorted(set(left) - set(decoys))}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
