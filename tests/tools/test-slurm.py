#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A real Slurm (Debian's slurmctld, slurmd, slurm-client and munge) drains and resumes a node
through `gpuenv health --slurm` as its HealthCheckProgram (docs/fleet.md, "Slurm").

Everything lives in one temporary directory: a munge key and munged on a socket of its own, a
slurm.conf (slurm.conf(5)) with one node named as this host, slurmctld and slurmd on free
loopback ports, their state and logs. The health check is a wrapper that runs gpuenv on the
fixture named in a file: first h100-link-faults (a PCIe link down: an error finding), and the
test waits until `scontrol show node` says DRAIN with gpuenv's reason; then the file names a
healthy fixture, and the test waits until the node is resumed. Last, an administrator's drain
is left alone through two more health checks. Skipped, saying so, without the packages or
root (slurmd runs the health check as root; munged checks its key's ownership), or where
munged or the daemons cannot start here. Usage: test-slurm.py GPUENV"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from poll import until  # noqa: E402

GPUENV = os.path.abspath(sys.argv[1])
SRC = os.environ.get("GPUENV_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(SRC, "tests", "fixtures")
BROKEN = os.path.join(FIXTURES, "h100-link-faults", "root")
HEALTHY = os.path.join(FIXTURES, "docker-nvidia-runtime", "root")
HEALTH_INTERVAL_S = 5
WAIT_S = 120  # an ASan gpuenv on a loaded machine takes seconds per health check
ADMIN_REASON = "admin: replacing a fan"
PATHS = "/usr/sbin:/usr/bin:/sbin:/bin"


def skip(why):
    print(f"SKIP slurm: {why}")
    sys.exit(77)


def tool(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":" + PATHS)


TOOLS = {n: tool(n) for n in ("munged", "slurmctld", "slurmd", "scontrol")}
missing = [n for n, p in TOOLS.items() if not p]
if missing:
    skip(f"{', '.join(missing)} not installed (Debian: slurmctld slurmd slurm-client munge)")
if os.geteuid() != 0:
    skip("not root (slurmd runs HealthCheckProgram as root; munged checks its key's owner)")

NODE = socket.gethostname().split(".")[0]
started = []  # daemons, each in a process group of its own


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(argv, log, env):
    p = subprocess.Popen(argv, stdout=open(log, "w"), stderr=subprocess.STDOUT, env=env,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    started.append(p)
    return p


def stop_all():
    for p in reversed(started):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in reversed(started):
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    started.clear()


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError as e:
        return f"({path}: {e.strerror})"


def write_atomic(path, text, mode=0o644):
    with open(path + ".new", "w") as f:
        f.write(text)
    os.chmod(path + ".new", mode)
    os.replace(path + ".new", path)


def main(tmp):
    t0 = time.monotonic()
    os.chmod(tmp, 0o711)  # munged wants every directory above its socket searchable by all
    mdir = os.path.join(tmp, "munge")
    os.mkdir(mdir, 0o711)
    key = os.path.join(mdir, "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    sock = os.path.join(mdir, "munge.socket")
    env = {"PATH": PATHS, "SLURM_CONF": os.path.join(tmp, "slurm.conf"), "LANG": "C"}
    munged = start([TOOLS["munged"], "-F", f"--socket={sock}", f"--key-file={key}",
                    f"--pid-file={mdir}/munged.pid", f"--log-file={mdir}/munged.log",
                    f"--seed-file={mdir}/munged.seed"], os.path.join(tmp, "munged.out"), env)
    if not until(lambda: os.path.exists(sock) or munged.poll() is not None, 20) or \
            not os.path.exists(sock):
        skip(f"munged did not start:\n{tail(os.path.join(tmp, 'munged.out'))}")

    fixture_file = os.path.join(tmp, "fixture")
    runs = os.path.join(tmp, "health.runs")
    health_log = os.path.join(tmp, "health.log")
    write_atomic(fixture_file, BROKEN + "\n")
    wrapper = os.path.join(tmp, "gpuenv-slurm-health")
    # slurmd runs HealthCheckProgram with SLURMD_NODENAME alone in its environment
    write_atomic(wrapper, f"""#!/bin/sh
SLURM_CONF='{env["SLURM_CONF"]}'
PATH='{PATHS}'
export SLURM_CONF PATH
echo run >> '{runs}'
exec '{GPUENV}' health --slurm --no-vendor --sysroot "$(cat '{fixture_file}')" >> '{health_log}' 2>&1
""", 0o755)
    for d in ("state", "spool"):
        os.mkdir(os.path.join(tmp, d), 0o700)
    with open(env["SLURM_CONF"], "w") as f:
        f.write(f"""ClusterName=gpuenvtest
SlurmctldHost=localhost
SlurmctldAddr=127.0.0.1
SlurmUser=root
SlurmdUser=root
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
HealthCheckProgram={wrapper}
HealthCheckInterval={HEALTH_INTERVAL_S}
NodeName={NODE} NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=gpu Nodes={NODE} Default=YES State=UP
""")

    def show():
        p = subprocess.run([TOOLS["scontrol"], "-o", "show", "node", NODE], env=env,
                           capture_output=True, text=True, timeout=30)
        return p.stdout if p.returncode == 0 else ""

    def field(line, name):
        """A field of scontrol -o: Reason runs to the end of its ' [user@time]' stamp."""
        at = line.find(f" {name}=")
        if at < 0:
            return ""
        rest = line[at + len(name) + 2:]
        if name == "Reason":
            return rest.split(" [", 1)[0]
        return rest.split(" ", 1)[0]

    ctld = start([TOOLS["slurmctld"], "-D", "-c", "-i", "-f", env["SLURM_CONF"]],
                 os.path.join(tmp, "slurmctld.out"), env)
    if not until(lambda: show() or ctld.poll() is not None, 60) or not show():
        skip(f"slurmctld did not start:\n{tail(os.path.join(tmp, 'slurmctld.out'))}")
    slurmd = start([TOOLS["slurmd"], "-D", "-N", NODE, "-f", env["SLURM_CONF"]],
                   os.path.join(tmp, "slurmd.out"), env)
    print(f"slurm up on {NODE} ({time.monotonic() - t0:.1f} s)")

    def fail(what):
        print(f"FAIL: {what}")
        print(f"  scontrol show node: {show().strip()}")
        for name in ("health.log", "slurmd.out", "slurmctld.out"):
            print(f"  --- {name}:\n{tail(os.path.join(tmp, name))}")
        sys.exit(1)

    # what gpuenv itself says of the broken fixture: the reason slurm must show
    direct = subprocess.run([GPUENV, "health", "--no-vendor", "--sysroot", BROKEN],
                            capture_output=True, text=True, env=dict(os.environ, PATH=PATHS))
    if direct.returncode != 2 or not direct.stdout.startswith("gpuenv: hardware.pcie-link-down: "):
        fail(f"gpuenv health on h100-link-faults: exit {direct.returncode}, {direct.stdout!r}")
    reason = direct.stdout.strip()

    drained = until(lambda: "DRAIN" in field(show(), "State")
                    and field(show(), "Reason") == reason, WAIT_S)
    if not drained or slurmd.poll() is not None:
        fail(f"the node was not drained with gpuenv's reason within {WAIT_S} s")
    print(f"ok: drained by the health check: State={field(show(), 'State')} "
          f"Reason={field(show(), 'Reason')} ({time.monotonic() - t0:.1f} s)")

    write_atomic(fixture_file, HEALTHY + "\n")
    if not until(lambda: "DRAIN" not in field(show(), "State"), WAIT_S):
        fail(f"the healed node was not resumed within {WAIT_S} s")
    if f"resumed {NODE}" not in open(health_log).read():
        fail("the node came back without gpuenv saying it resumed it")
    print(f"ok: healed fixture, node resumed: State={field(show(), 'State')} "
          f"({time.monotonic() - t0:.1f} s)")

    r = subprocess.run([TOOLS["scontrol"], "update", f"NodeName={NODE}", "State=DRAIN",
                        f"Reason={ADMIN_REASON}"], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"scontrol update State=DRAIN (the admin's): {r.stderr.strip()}")
    n = len(open(runs).read().split())
    if not until(lambda: len(open(runs).read().split()) >= n + 2, WAIT_S):
        fail(f"the health check did not run twice more within {WAIT_S} s")
    time.sleep(2)  # the second run's scontrol calls, if any, are done
    line = show()
    if "DRAIN" not in field(line, "State") or field(line, "Reason") != ADMIN_REASON:
        fail("an administrator's drain was not left alone")
    print(f"ok: an admin's drain left alone through two health checks: "
          f"State={field(line, 'State')} Reason={field(line, 'Reason')}")
    print(f"slurm test: {time.monotonic() - t0:.1f} s")


def on_signal(signum, _frame):
    stop_all()
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)
tmpdir = tempfile.mkdtemp(prefix="gpuenv-slurm-")
try:
    main(tmpdir)
finally:
    stop_all()
    shutil.rmtree(tmpdir, ignore_errors=True)
