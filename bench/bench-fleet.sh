#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `gpuenv fleet` over N machines (default 10,000) against a baseline measured in the same run:
# `cat` of the same files to /dev/null (warm cache), the cost of reading every byte once.
# Each machine is a variant of the largest fixture's `gpuenv doctor --json` document (the
# largest snapshot the scenarios write), made in a temporary directory: its own GPU UUIDs, and a few machines with another driver, a GPU whose link trained at x8, an
# error finding, or a malformed file. Goal (docs/fleet.md): <= 3 s and <= 256 MB peak RSS for
# 10,000; printed beside the baseline, the ratio and the disk space the variants took.
# Usage: bench/bench-fleet.sh [BUILD_DIR] [MACHINES] [ROUNDS]
set -eu
build=${1:-build}
machines=${2:-10000}
rounds=${3:-3}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the largest doctor.json of the scenario goldens
largest=$(ls -S "$here"/../tests/fixtures/*/expected/doctor.json | head -1)
python3 - "$largest" "$tmp/fleet" "$machines" <<'PY'
import json, os, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out)
doc = json.load(open(src))
snap = doc["snapshot"]
base = json.dumps(doc, indent=2, sort_keys=False)
# the variable parts are replaced in the text, so each file costs a string replace, not a dump
driver = snap["driver"]["nvidia"]["module_version"]["value"]
for i in range(n):
    text = base
    if i % 97 == 3:
        text = text.replace('"value": "%s"' % driver, '"value": "550.90.07"')
    if i % 211 == 5:
        text = text.replace('"value": 16', '"value": 8', 1)
    text = text.replace('"GPU-', '"GPU-%05d-' % i)
    if i % 1000 == 999:
        text = text[: len(text) // 2]  # a truncated upload: counted as not read
    with open(os.path.join(out, "node-%05d.json" % i), "w") as f:
        f.write(text)
PY
size=$(du -sm "$tmp/fleet" | cut -f1)

python3 - "$rounds" "$gpuenv" "$tmp/fleet" "$machines" "$size" "$here/peak-rss.py" <<'PY'
import glob, os, resource, subprocess, sys, time
rounds, gpuenv, d, n, size, peak = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
files = sorted(glob.glob(os.path.join(d, "*.json")))

def timed(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu, p

best = {}
for _ in range(rounds):
    for name, cmd in (("cat", ["sh", "-c", 'cat "$0"/*.json > /dev/null', d]),
                      ("fleet", [gpuenv, "fleet", "--json", d])):
        timed(cmd)  # warm
        wall, cpu, p = timed(cmd)
        if name not in best or wall < best[name][0]:
            best[name] = (wall, cpu, p)
out = subprocess.run([sys.executable, peak, gpuenv, "fleet", "--json", d],
                     capture_output=True, text=True)
try:
    rss = "%.0f MB" % (int(out.stdout.split()[0]) / 1024)
except (IndexError, ValueError):
    rss = "? (peak-rss.py: %s)" % out.stderr.strip()[:200]
import json
doc = json.loads(best["fleet"][2].stdout)
cw, cc, _ = best["cat"]
fw, fc, _ = best["fleet"]
print(f"bench-fleet: {n} machines, {len(files)} files, {size} MB of doctor --json on disk")
print(f"  cat to /dev/null : {cw:.2f} s wall, {cc:.2f} s CPU")
print(f"  gpuenv fleet     : {fw:.2f} s wall, {fc:.2f} s CPU   ratio {fw / cw:.1f}x wall, "
      f"{fc / max(cc, 1e-3):.1f}x CPU   (goal: <= 3 s)")
print(f"  peak RSS         : {rss}   (goal: <= 256 MB)")
print(f"  read {doc['machines']} machines, {len(doc['not_read'])} not read; "
      f"{sum(1 for k in doc['keys'] if not k['uniform'])} keys differ")
PY
