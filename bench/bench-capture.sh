#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The size of a `gpuenv capture` bundle of a machine with a torch 2.11+cu130 venv made of the
# real CUDA 13.0 libraries (tests/tools/mk-torch-venv.py: 2.2 GB of hard links into LIB64),
# against baselines measured in the same run: the bytes of the files the collection read
# (what copying them would cost) and `gpuenv report` of the same root (the time a capture adds).
# Goal (docs/fleet.md, issue 17): a typical machine's bundle <= 2 MB.
# Usage: bench/bench-capture.sh [BUILD_DIR] [LIB64]
set -eu
build=${1:-build}
lib64=${2:-/usr/local/cuda/lib64}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
python3 "$here/../tests/tools/mk-torch-venv.py" "$tmp/root" "$lib64" || rc=$?
[ "$rc" = 77 ] && exit 0
[ "$rc" = 0 ] || exit "$rc"

python3 - "$gpuenv" "$tmp" <<'PY'
import json, os, subprocess, sys, tarfile, time
gpuenv, tmp = sys.argv[1], sys.argv[2]
root, bundle = os.path.join(tmp, "root"), os.path.join(tmp, "bundle.tar.zst")

def timed(*args):
    t0 = time.perf_counter()
    subprocess.run([gpuenv, *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0

t_report = timed("report", "--no-vendor", "--sysroot", root)
t_capture = timed("capture", "--no-vendor", "--sysroot", root, "-o", bundle)
os.mkdir(os.path.join(tmp, "out"))
subprocess.run(["tar", "--zstd", "-xf", bundle, "-C", os.path.join(tmp, "out"), "capture.json"],
               check=True)
meta = json.load(open(os.path.join(tmp, "out", "capture.json")))
read = sum(e["size"] for e in meta["partial"])
size = os.path.getsize(bundle)
same = (subprocess.run([gpuenv, "report", "--stable", "--no-vendor", "--sysroot", root],
                       capture_output=True).stdout ==
        subprocess.run([gpuenv, "report", "--stable", "--no-vendor", "--sysroot", bundle],
                       capture_output=True).stdout)
print(f"bench-capture: torch 2.11+cu130 venv of real CUDA 13.0 libraries, "
      f"{meta['files_read']} files read, {len(meta['partial'])} kept in part")
print(f"  files read (baseline) : {read / 1e6:.1f} MB")
print(f"  bundle                : {size / 1e6:.3f} MB   ratio {size / read:.5f}   "
      f"(goal: <= 2 MB)   replays the same: {'yes' if same else 'NO'}")
print(f"  report (baseline)     : {t_report:.2f} s")
print(f"  capture               : {t_capture:.2f} s   ratio {t_capture / t_report:.1f}x")
PY
