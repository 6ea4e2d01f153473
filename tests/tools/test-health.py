#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv health` and `health --slurm` against a stand-in scontrol on PATH that records its
# arguments and answers `show node` with a line in scontrol -o's format: a node with an error
# finding is drained with gpuenv's reason (one argument), a healthy node drained by gpuenv is
# resumed, one drained by someone else is left alone, an scontrol planted by --env-file's PATH
# is never run, a missing scontrol exits 69 (docs/fleet.md, "Slurm").
import os
import stat
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
src = os.environ["GPUENV_SOURCE_ROOT"]
fx = os.path.join(src, "tests", "fixtures")
broken = os.path.join(fx, "h100-link-faults", "expected", "report.json")
healthy = os.path.join(fx, "h100-sxm-550", "expected", "report.json")
failed = 0

FAKE = """#!/bin/sh
# records each call, one argument per line, then a blank line
for a in "$@"; do printf '%s\\n' "$a"; done >> "$SCONTROL_LOG"
echo >> "$SCONTROL_LOG"
if [ "$2" = show ]; then printf '%s\\n' "$SCONTROL_SHOW"; fi
exit 0
"""


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    failed |= not cond


with tempfile.TemporaryDirectory() as tmp:
    bindir = os.path.join(tmp, "bin")
    planted = os.path.join(tmp, "planted")
    for d, marker in ((bindir, ""), (planted, "PLANTED")):
        os.mkdir(d)
        p = os.path.join(d, "scontrol")
        open(p, "w").write(FAKE.replace("exit 0", f"echo {marker} >> \"$SCONTROL_LOG\"; exit 0")
                           if marker else FAKE)
        os.chmod(p, stat.S_IRWXU)
    log = os.path.join(tmp, "log")

    def run(*args, show="", path=bindir):
        if os.path.exists(log):
            os.unlink(log)
        env = dict(os.environ, PATH=path + ":/usr/bin:/bin", SCONTROL_LOG=log,
                   SCONTROL_SHOW=show)
        env.pop("SLURMD_NODENAME", None)
        p = subprocess.run([gpuenv, "health", *args], capture_output=True, text=True, env=env)
        calls = open(log).read().split("\n\n") if os.path.exists(log) else []
        return p.returncode, p.stdout, p.stderr, [c.split("\n") for c in calls if c.strip()]

    rc, out, _, _ = run("--from", broken)
    expect("no --slurm, an error: exit 2 and the reason line",
           rc == 2 and out.startswith("gpuenv: hardware.pcie-link-down: "), f"rc={rc} {out}")
    rc, out, _, _ = run("--from", healthy)
    expect("no --slurm, healthy (warnings only): exit 0, ok", rc == 0 and out == "ok\n",
           f"rc={rc} {out}")
    rc, out, _, calls = run("--slurm", "--dry-run", "--node", "gpu01", "--from", broken)
    expect("--dry-run prints the drain command and runs nothing",
           rc == 2 and out.startswith('scontrol update NodeName=gpu01 State=DRAIN '
                                      'Reason="gpuenv: hardware.pcie-link-down: ')
           and not calls, f"rc={rc} {out} {calls}")
    rc, out, err, calls = run("--slurm", "--node", "gpu01", "--from", broken)
    expect("an error: drained with gpuenv's reason as one argument",
           rc == 2 and len(calls) == 1 and calls[0][:4] == ["update", "NodeName=gpu01",
                                                           "State=DRAIN",
                                                           calls[0][3]]
           and calls[0][3].startswith("Reason=gpuenv: hardware.pcie-link-down: "),
           f"rc={rc} {calls} {err}")
    show_ours = ("NodeName=gpu01 Arch=x86_64 CoresPerSocket=1 State=IDLE+DRAIN ThreadsPerCore=1 "
                 "Reason=gpuenv: hardware.pcie-link-down: link not trained [root@2026-12-04T14:00:00]")
    rc, out, err, calls = run("--slurm", "--node", "gpu01", "--from", healthy, show=show_ours)
    expect("healthy again, drained by gpuenv: resumed",
           rc == 0 and len(calls) == 2 and calls[0][:4] == ["-o", "show", "node", "gpu01"]
           and [a for a in calls[1] if a] == ["update", "NodeName=gpu01", "State=RESUME"]
           and out == "resumed gpu01\n", f"rc={rc} {calls} {out} {err}")
    show_admin = ("NodeName=gpu01 Arch=x86_64 State=IDLE+DRAIN ThreadsPerCore=1 "
                  "Reason=bad fan, ticket 4711 [admin@2026-12-04T13:00:00]")
    rc, out, _, calls = run("--slurm", "--node", "gpu01", "--from", healthy, show=show_admin)
    expect("healthy, drained by an admin: left drained", rc == 0 and len(calls) == 1
           and calls[0][1] == "show", f"rc={rc} {calls}")
    rc, out, _, calls = run("--slurm", "--node", "gpu01", "--from", healthy,
                            show="NodeName=gpu01 State=IDLE Reason=gpuenv: old text")
    expect("healthy, not drained: nothing to do", rc == 0 and len(calls) == 1 and out == "ok\n",
           f"rc={rc} {calls}")
    rc, out, _, calls = run("--slurm", "--dry-run", "--node", "gpu01", "--from", healthy,
                            show=show_ours)
    expect("--dry-run on a node to resume prints the resume command",
           rc == 0 and out == "scontrol update NodeName=gpu01 State=RESUME\n"
           and len(calls) == 1, f"rc={rc} {out} {calls}")
    envf = os.path.join(tmp, "env")
    open(envf, "w").write(f"PATH={planted}\n")
    rc, _, _, calls = run("--slurm", "--node", "gpu01", "--env-file", envf, "--sysroot",
                          os.path.join(tmp), "--no-vendor")
    expect("an scontrol on --env-file's PATH is never run",
           not any("PLANTED" in c for call in calls for c in call), str(calls))
    rc, _, err, _ = run("--slurm", "--node", "gpu01", "--from", broken, path=os.path.join(tmp, "none"))
    expect("no scontrol on PATH: exit 69 with the reason", rc == 69 and "scontrol" in err,
           f"rc={rc} {err}")
    for args, want in [(("--dry-run",), 64), (("--slurm", "--node", "a b"), 64),
                       (("--slurm", "--node", "x=y"), 64)]:
        rc, _, err, _ = run(*args, "--from", healthy)
        expect(f"health {' '.join(args)}: exit {want}", rc == want, f"rc={rc} {err}")
sys.exit(failed)
