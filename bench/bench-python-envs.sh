#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times Python environment discovery (`gpuenv report` over a synthetic sysroot) with N conda
# environments under /opt/conda/envs, each a conda-meta/ and a lib/python3.11/site-packages/
# with one distribution, against a baseline measured in the same run: the same tree with no
# environment. Discovery is linear when the cost per environment stays flat as N grows.
# Then one environment whose site-packages holds 20,000 distributions (40,000 entries) and
# torch: it must be read (torch found), and timed.
# Usage: bench/bench-python-envs.sh [BUILD_DIR] [RUNS] [N…]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-3}
[ $# -gt 2 ] && shift 2 && ns="$*" || ns="63 630 6300"
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# mkroot DIR N [SITE_ENTRIES]: N conda envs; with SITE_ENTRIES, one more env "big" holding
# that many distributions (a package directory and a .dist-info each) and torch 2.4.0.
mkroot() {
	python3 - "$@" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
big = int(sys.argv[3]) if len(sys.argv) > 3 else 0
def env(name):
    p = f"{root}/opt/conda/envs/{name}"
    os.makedirs(f"{p}/conda-meta", exist_ok=True)
    site = f"{p}/lib/python3.11/site-packages"
    os.makedirs(f"{site}/six-1.16.0.dist-info", exist_ok=True)
    with open(f"{site}/six-1.16.0.dist-info/METADATA", "w") as f:
        f.write("Metadata-Version: 2.1\nName: six\nVersion: 1.16.0\n")
    return site
os.makedirs(f"{root}/opt/conda/conda-meta", exist_ok=True)
os.makedirs(f"{root}/opt/conda/envs", exist_ok=True)
for i in range(n):
    env(f"e{i}")
if big:
    site = env("big")
    for i in range(big):
        os.makedirs(f"{site}/pkg{i}", exist_ok=True)
        os.makedirs(f"{site}/pkg{i}-1.0.dist-info", exist_ok=True)
    os.makedirs(f"{site}/torch", exist_ok=True)
    with open(f"{site}/torch/version.py", "w") as f:
        f.write("__version__ = '2.4.0+cu124'\ncuda = '12.4'\nhip = None\n")
    os.makedirs(f"{site}/torch-2.4.0+cu124.dist-info", exist_ok=True)
    with open(f"{site}/torch-2.4.0+cu124.dist-info/METADATA", "w") as f:
        f.write("Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0+cu124\n")
PY
}

printf 'PATH=/usr/bin:/bin\nHOME=/root\n' >"$tmp/env"
run() { time_ms "$runs" "$gpuenv" report --sysroot "$1" --stable --no-vendor --env-file "$tmp/env"; }

mkroot "$tmp/r0" 0
echo "runs per figure: $runs; wall ms (CPU ms = user+sys) per run"
set -- $(run "$tmp/r0"); base=$1 basec=$2
echo "baseline, no environment:     $base ms (CPU $basec ms)"
for n in $ns; do
	mkroot "$tmp/r$n" "$n"
	set -- $(run "$tmp/r$n")
	per=$(python3 -c "print(f'{($2-$basec)*1000/$n:.1f}')")
	echo "$n environments:  $1 ms (CPU $2 ms); CPU over the baseline per environment: $per us"
	rm -rf "$tmp/r$n"
done
mkroot "$tmp/big" 0 20000
found=$("$gpuenv" report --sysroot "$tmp/big" --stable --no-vendor --env-file "$tmp/env" --json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); e=[x for x in d["framework"]["python_envs"] if "torch" in x.get("packages",{})]; print("torch found" if e else "torch NOT FOUND")')
set -- $(run "$tmp/big")
echo "site-packages of 20,000 distributions (40,000 entries): $1 ms (CPU $2 ms), $found"
