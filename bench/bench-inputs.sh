#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times the loading of the CLI's two text inputs at scale, each against a baseline measured in
# the same rounds: `cat` of the same file (reading every byte) and gpuenv's start-up floor (the
# same command without the input). --env-file: 10,000 and 100,000 lines (the cap) under an
# empty --sysroot; --from: snapshots with 20,000 and 200,000 facts in one object, keys in
# reverse order (the case an in-place insertion made quadratic). Loading must be linear: the
# 10x input must cost about 10x above the floor, not 100x. Prints wall and CPU ms (best of
# the rounds, each run a new process), peak RSS (with GNU time, where installed), the ratios.
# Usage: bench/bench-inputs.sh [BUILD_DIR] [ROUNDS]
set -eu
build=${1:-build}
rounds=${2:-5}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/empty"

python3 - "$rounds" "$gpuenv" "$tmp" <<'PY'
import json, os, subprocess, sys, time

rounds, gpuenv, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3]
empty = os.path.join(tmp, "empty")


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
RSS = os.path.join(tmp, "rss")


def run(cmd):
    """(wall ms, cpu ms, peak RSS MiB) of one run of cmd, a new process. The peak comes from
    GNU time, whose small process forks the command: a child forked from this Python would
    carry Python's own high-water mark into ru_maxrss across the exec."""
    if GNU_TIME:
        cmd = [GNU_TIME, "-f", "%M", "-o", RSS] + cmd
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null)
        _, _, ru = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - t0) * 1000
    rss = float("nan")
    if GNU_TIME:
        with open(RSS) as f:
            rss = int(f.read().split()[-1]) / 1024
    return wall, (ru.ru_utime + ru.ru_stime) * 1000, rss


def best(cmds):
    """Each command's best (wall, cpu) and largest RSS over the rounds, all run in each round."""
    res = {k: [1e18, 1e18, 0.0] for k in cmds}
    for _ in range(rounds):
        for k, cmd in cmds.items():
            w, c, m = run(cmd)
            r = res[k]
            r[0], r[1], r[2] = min(r[0], w), min(r[1], c), max(r[2], m)
    return res


def env_file(n):
    path = os.path.join(tmp, f"env-{n}")
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"VAR_{(i * 7919) % n}=/opt/value/{i}\n")
    return path


def snapshot(n):
    base = subprocess.run([gpuenv, "report", "--json", "--no-vendor", "--sysroot", empty],
                          capture_output=True, text=True).stdout
    doc = json.loads(base)
    doc["environment"]["bulk"] = {f"k{i:07d}": {"state": "present", "value": f"v{i}",
                                                "source": "/bench"} for i in reversed(range(n))}
    path = os.path.join(tmp, f"snap-{n}.json")
    with open(path, "w") as f:
        json.dump(doc, f)  # insertion order: keys reversed
    return path


def report(title, sizes, make, command, floor):
    cmds = {"floor": floor}
    for n in sizes:
        path = make(n)
        cmds[f"cat {n}"] = ["cat", path]
        cmds[f"gpuenv {n}"] = command(path)
    r = best(cmds)
    print(f"== {title} ({rounds} rounds, best wall/cpu ms, peak RSS)")
    fw, fc, fm = r["floor"]
    print(f"  start-up floor: {fw:.1f} / {fc:.1f} ms, {fm:.1f} MiB")
    above = {}
    for n in sizes:
        cw, cc, _ = r[f"cat {n}"]
        gw, gc, gm = r[f"gpuenv {n}"]
        size = os.path.getsize(make.last[n]) / 1e6
        above[n] = max(gc - fc, 0.001)
        print(f"  {n:>7}: {size:6.1f} MB  cat {cw:7.1f} / {cc:6.1f} ms   gpuenv {gw:8.1f} / "
              f"{gc:8.1f} ms, {gm:6.1f} MiB   gpuenv/cat wall {gw / cw:6.1f}x   "
              f"CPU above the floor {above[n]:8.1f} ms")
    a, b = sizes
    print(f"  {b // a}x the input: {above[b] / above[a]:.1f}x the CPU above the floor "
          f"(linear: ~{b // a}x; quadratic: ~{(b // a) ** 2}x)")


def remember(fn):
    def wrapped(n):
        path = fn(n)
        wrapped.last[n] = path
        return path
    wrapped.last = {}
    return wrapped


env_file, snapshot = remember(env_file), remember(snapshot)
report("--env-file", [10000, 100000], env_file,
       lambda p: [gpuenv, "report", "--no-vendor", "--sysroot", empty, "--env-file", p],
       [gpuenv, "report", "--no-vendor", "--sysroot", empty])
base = snapshot(1)
report("--from", [20000, 200000], snapshot,
       lambda p: [gpuenv, "doctor", "--from", p], [gpuenv, "doctor", "--from", base])
PY
