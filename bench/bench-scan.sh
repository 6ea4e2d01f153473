#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv scan` on the CUDA toolkit's libraries against a baseline measured in the same
# run: `cat` of the same file to /dev/null (warm cache), i.e. the cost of reading every byte.
# Listing targets is header-only, so the ratio must stay small (target <= 5%).
# Each run is a new process, so the ratio also carries the cost of starting one, which
# differs tenfold between machines (a VM whose page faults and system calls trap to the
# hypervisor vs bare metal). Measured in the same run, and printed beside the raw ratio:
# the start-up floors (`gpuenv --version`; `cat /dev/null` through the same sh), the ratio
# of the work above them, and what the scan touched, which no machine changes: the page
# faults above start-up's (the mapped pages holding headers) and the bytes read(2).
# Usage: bench/bench-scan.sh [BUILD_DIR] [RUNS] [FILE] [DIR]
set -eu
build=${1:-build}
runs=${2:-21}
file=${3:-/usr/local/cuda/lib/libcublasLt.so.13}
dir=${4:-/usr/local/cuda/lib}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
if [ ! -r "$file" ] || [ ! -d "$dir" ]; then
	echo "bench-scan: $file or $dir missing (no CUDA toolkit here): skipped"
	exit 0
fi

measure() { # command… → "wall_ms cpu_ms": the best of $runs runs each (after a warm-up run);
	# cpu = user + system time of the child, less disturbed by other load on a shared machine
	python3 - "$runs" "$@" <<'PY'
import resource, subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the cache
bw = bc = None
for _ in range(runs):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = (time.perf_counter() - t0) * 1000; r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    c = ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000
    bw = w if bw is None or w < bw else bw
    bc = c if bc is None or c < bc else bc
print(f"{bw:.1f} {bc:.1f}")
PY
}
pct() { python3 -c "print(f'{100*$1/$2:.1f}')"; }
over() { python3 -c "print(f'{100*max($1-$2,0)/($3-$4):.1f}')"; } # (a - a0) / (b - b0)
io_of() { # command… → "rchar syscr minflt" of one run (read before the zombie is reaped)
	python3 - "$@" <<'PY'
import os, resource, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
io = dict(l.split(": ") for l in open(f"/proc/{p.pid}/io").read().split("\n") if l)
_, _, ru = os.wait4(p.pid, 0)
print(io["rchar"], io["syscr"], ru.ru_minflt)
PY
}
size=$(stat -L -c %s "$file")
set -- $(measure sh -c "cat '$file' > /dev/null"); cat_w=$1 cat_c=$2
set -- $(measure "$gpuenv" scan "$file"); list_w=$1 list_c=$2
set -- $(measure "$gpuenv" scan --deep "$file"); deep_w=$1 deep_c=$2
set -- $(measure /bin/true); true_w=$1 true_c=$2
set -- $(measure "$gpuenv" --version); start_w=$1 start_c=$2
set -- $(measure sh -c "cat /dev/null > /dev/null"); cat0_w=$1 cat0_c=$2
set -- $(io_of "$gpuenv" scan "$file"); rchar=$1 syscr=$2 minflt=$3
set -- $(io_of "$gpuenv" --version); minflt0=$3
set -- $(measure "$gpuenv" scan "$dir"); dir_w=$1 dir_c=$2
set -- $(measure sh -c "cat '$dir'/*.so* > /dev/null"); dcat_w=$1 dcat_c=$2
targets=$("$gpuenv" scan "$file" | sed -n 's/^  SASS *//p' | head -1)
echo "file:                        $file ($((size / 1048576)) MiB), warm page cache, best of $runs"
echo "                             wall ms   cpu ms (user+sys)"
echo "baseline cat > /dev/null:    $cat_w    $cat_c"
echo "exec of /bin/true:           $true_w    $true_c"
echo "start-up: gpuenv --version:  $start_w    $start_c"
echo "start-up: sh -c cat /dev/null: $cat0_w    $cat0_c"
echo "gpuenv scan (list targets):  $list_w    $list_c   = $(pct "$list_w" "$cat_w")% / $(pct "$list_c" "$cat_c")% of cat (target <= 5%)"
echo "  work over start-up:        $(over "$list_w" "$start_w" "$cat_w" "$cat0_w")% / $(over "$list_c" "$start_c" "$cat_c" "$cat0_c")% of cat's (scan - gpuenv --version) / (cat - cat of /dev/null)"
echo "  touched:                   $((minflt - minflt0)) page faults over start-up's $minflt0; $rchar bytes of $size read(2) in $syscr calls"
echo "gpuenv scan --deep:          $deep_w    $deep_c   = $(pct "$deep_w" "$cat_w")% / $(pct "$deep_c" "$cat_c")% of cat"
echo "SASS targets listed:         $targets"
echo "gpuenv scan $dir:  $dir_w    $dir_c   (cat of its libraries: $dcat_w / $dcat_c; $(pct "$dir_w" "$dcat_w")% / $(pct "$dir_c" "$dcat_c")%)"
