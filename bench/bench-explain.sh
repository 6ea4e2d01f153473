#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv explain` (docs/explain.md) on a typical paste and on a bug-report-sized gzip
# file, against baselines measured in the same run: `cat` of the paste (reading the bytes
# alone) and `gzip -dc` of the gzip file (inflating it alone). Targets: a 20 KB paste <= 5 ms,
# a 5 MB nvidia-bug-report.log.gz <= 200 ms, peak RSS <= 32 MiB (bench/peak-rss.py).
# The inputs are built from the real pastes of tests/explain-corpus/ and the readers' samples
# (tests/fuzz/corpus/pasted-*/): the 20 KB paste is their text. The bug report is a stand-in,
# not a real report (no public one of that size was at hand to ship), of GZ_KIB KiB as gzip -6
# (default 5120: the issue's 5 MB): bench/bug-report-stand-in.py lays it out as
# nvidia-bug-report.sh does, with the make-up of a public report (its sections, the kernel
# log the bulk of the text, NVML's log as base64 last, 0.48 of the text before it: about
# 3:1 as gzip). A second stand-in of the same gzip size is text alone (about 8:1, so 2.7 times
# the text to read), and a third has no empty line at all (the text alone's size: each line
# of the first composition made distinct by a counter, blank ones too): text a block reader's
# section must not run on through to the end of the window; its peak RSS is printed against
# the same target.
# A second baseline is the floor: bench/start-floor.c, a program that only returns, linked as
# gpuenv is (PIE, RELRO, DT_RELR, libc alone), built here with cc: what every start costs
# before gpuenv runs a line of its own (exec, the dynamic loader, libc's start); and the same
# program linked -static-pie, what that start costs without the dynamic loader and libc.so.
# With BASELINE=path/to/an/older/gpuenv (the previous commit's, built elsewhere) both binaries are
# timed in the same run and the ratio printed. With valgrind installed, the instructions each
# command executes (callgrind's count: a figure a shared, loaded machine cannot skew) are
# printed too, for the paste and for a 4 MiB slice of the report against gzip -dc of it;
# INSNS=0 skips that.
# Usage: bench/bench-explain.sh [BUILD_DIR] [RUNS] [GZ_KIB]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-100}
gz_kib=${3:-5120}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
src=$(dirname "$0")/..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A sample saved as UTF-16 (a PowerShell redirect) joins the others as the UTF-8 it decodes to:
# its raw bytes among UTF-8 ones would be NULs, and explain rightly refuses such text as binary.
python3 - "$tmp/all.txt" "$src"/tests/explain-corpus/*.txt "$src"/tests/fuzz/corpus/pasted-*/*.txt <<'PY'
import sys
with open(sys.argv[1], "wb") as out:
    for name in sys.argv[2:]:
        data = open(name, "rb").read()
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            data = data.decode("utf-16").encode("utf-8")
        out.write(data)
PY
head -c 20480 "$tmp/all.txt" > "$tmp/paste.txt"
python3 "$src/bench/bug-report-stand-in.py" "$tmp/report.txt" "$gz_kib" "$src"
NVML_SHARE=0 python3 "$src/bench/bug-report-stand-in.py" "$tmp/text.txt" "$gz_kib" "$src"
python3 - "$tmp/unbroken.txt" "$(wc -c < "$tmp/text.txt")" "$src"/tests/explain-corpus/*.txt "$src"/tests/fuzz/corpus/pasted-*/*.txt <<'PY'
import os, sys
src = []
for name in sys.argv[3:]:
    data = open(name, "rb").read()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data.decode("utf-16").encode("utf-8")
    path = b"/var/log/%s" % os.path.basename(name).encode()
    src += [b"_" * 44, b"", b"*** " + path,
            b"*** ls: -rw-r--r-- 1 root root %d 2026-01-01 00:00:00.000000000 +0000 %s" % (len(data), path)]
    src += data.splitlines() + [b""]
want = int(sys.argv[2])
out, n, i = open(sys.argv[1], "wb"), 0, 0
while n < want:
    line = src[i % len(src)] + b" #%d\n" % i
    out.write(line)
    n += len(line)
    i += 1
PY
gzip -6 -c "$tmp/report.txt" > "$tmp/report.log.gz"
gzip -6 -c "$tmp/text.txt" > "$tmp/text.log.gz"
gzip -6 -c "$tmp/unbroken.txt" > "$tmp/unbroken.log.gz"
kib() { echo $(( $(wc -c < "$1") / 1024 )); }

set -- $(time_ms "$runs" cat "$tmp/paste.txt"); base=$1
# The floor, linked with the flags the gpuenv tool gets (meson.build: b_pie, Debian's default
# -z relro; tools/meson.build: -z pack-relative-relocs where the linker has it).
floor=$tmp/start-floor
relr=
if printf 'int main(void){return 0;}' | cc -x c - -o "$tmp/relr-test" -Wl,-z,pack-relative-relocs 2>/dev/null; then
	relr=-Wl,-z,pack-relative-relocs
fi
if cc -std=c11 -O2 -fPIE -pie -Wl,-z,relro $relr "$(dirname "$0")/start-floor.c" -o "$floor" 2>"$tmp/floor.log"; then
	set -- $(time_ms "$runs" "$floor"); floor_ms=$1
else
	floor=
fi
# The same program linked -static-pie (glibc's libc.a, in libc6-dev): no dynamic loader, no
# libc.so to map and relocate. What that start would save is printed beside the floor; gpuenv
# itself cannot be linked so (docs/explain.md, a typical paste: "A static-pie gpuenv").
floor_static=$tmp/start-floor-static
if cc -std=c11 -O2 -fPIE -static-pie -Wl,-z,relro $relr "$(dirname "$0")/start-floor.c" -o "$floor_static" 2>/dev/null; then
	set -- $(time_ms "$runs" "$floor_static"); floor_static_ms=$1
else
	floor_static=
fi
set -- $(time_ms "$runs" "$gpuenv" explain "$tmp/paste.txt"); paste=$1 pastec=$2
greps=$(( runs / 10 > 3 ? runs / 10 : 3 ))
set -- $(time_ms "$greps" gzip -dc "$tmp/report.log.gz"); gzb=$1 gzbc=$2
set -- $(time_ms "$greps" "$gpuenv" explain "$tmp/report.log.gz"); rep=$1 repc=$2
set -- $(time_ms "$greps" gzip -dc "$tmp/text.log.gz"); gzt=$1 gztc=$2
set -- $(time_ms "$greps" "$gpuenv" explain "$tmp/text.log.gz"); txt=$1 txtc=$2
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/paste.txt"); rss_paste=$1
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/report.log.gz"); rss_rep=$1
set -- $(python3 "$src/bench/peak-rss.py" gzip -dc "$tmp/report.log.gz"); rss_gz=$1
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/text.log.gz"); rss_txt=$1
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/unbroken.log.gz"); rss_unb=$1
echo "paste: $(wc -c < "$tmp/paste.txt") bytes; bug report stand-in: $(kib "$tmp/report.log.gz") KiB gzip of $(kib "$tmp/report.txt") KiB; text alone: $(kib "$tmp/text.log.gz") KiB gzip of $(kib "$tmp/text.txt") KiB"
echo "baseline cat of the paste:         $base ms"
if [ -n "$floor" ]; then
	echo "floor: an empty program linked like gpuenv: $floor_ms ms (bench/start-floor.c)"
else
	echo "floor: not measured: bench/start-floor.c does not build with cc: $(head -c 300 "$tmp/floor.log")"
fi
if [ -n "$floor_static" ]; then
	echo "  the floor linked -static-pie:    $floor_static_ms ms (no dynamic loader, no libc.so)"
fi
echo "explain, 20 KB paste:              $paste ms (CPU $pastec ms; $(ratio "$paste" "$base")x cat; target <= 5 ms)"
# CPU beside wall: on a loaded machine the wall times measure the load, the CPU the work
# (explain's two threads' CPU together)
echo "baseline gzip -dc of the report:   $gzb ms (CPU $gzbc ms)"
echo "explain, the .gz report:           $rep ms (CPU $repc ms; $(ratio "$rep" "$gzb")x gzip -dc, CPU $(ratio "$repc" "$gzbc")x; target <= 200 ms for 5 MB gz)"
echo "baseline gzip -dc of the text alone: $gzt ms (CPU $gztc ms)"
echo "explain, the text alone:           $txt ms (CPU $txtc ms; $(ratio "$txt" "$gzt")x gzip -dc, CPU $(ratio "$txtc" "$gztc")x)"
echo "peak RSS: paste $rss_paste KiB, report $rss_rep KiB ($(ratio "$rss_rep" "$rss_gz")x gzip -dc's $rss_gz KiB; target <= 32768 KiB), text alone $rss_txt KiB"
echo "peak RSS: the stand-in without empty lines ($(kib "$tmp/unbroken.log.gz") KiB gzip): $rss_unb KiB (target <= 32768 KiB)"

# Minor page faults of one run ("N" for COMMAND…, getrusage's ru_minflt): each page a start
# touches first costs one, and on a virtual machine one costs tens of microseconds, a large
# part of a paste's time; a count a loaded machine cannot skew.
faults() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - r0)
PY
}
paste_f=$(faults "$gpuenv" explain "$tmp/paste.txt")
echo "page faults: explain of the paste $paste_f, cat of it $(faults cat "$tmp/paste.txt")${floor:+, the floor $(faults "$floor")}"

# The traps alone, where perf can count them: getrusage's count also has a page-table fill
# for each batch of pages a madvise(MADV_POPULATE_*) maps at once (tools/start-prefault.c),
# which is no trap; "perf stat -e page-faults" leaves those out.
traps() {
	perf stat -x, -o "$tmp/traps.csv" -e page-faults "$@" >/dev/null 2>&1 || : # explain's verdict
	sed -n 's/^\([0-9]*\),.*page-faults.*/\1/p' "$tmp/traps.csv"
}
have_traps=
if command -v perf >/dev/null && [ -n "$(traps true)" ]; then
	have_traps=1
	echo "traps (perf): explain of the paste $(traps "$gpuenv" explain "$tmp/paste.txt"), cat of it $(traps cat "$tmp/paste.txt")${floor:+, the floor $(traps "$floor")}${floor_static:+ (static-pie $(traps "$floor_static"))}"
fi

if [ -n "${BASELINE:-}" ]; then
	echo "  baseline: explain of the paste $(faults "$BASELINE" explain "$tmp/paste.txt") page faults${have_traps:+, $(traps "$BASELINE" explain "$tmp/paste.txt") traps}"
	set -- $(time_ms "$runs" "$BASELINE" explain "$tmp/paste.txt"); opaste=$1 opastec=$2
	set -- $(time_ms "$greps" "$BASELINE" explain "$tmp/report.log.gz"); orep=$1 orepc=$2
	set -- $(time_ms "$greps" "$BASELINE" explain "$tmp/text.log.gz"); otxt=$1 otxtc=$2
	set -- $(python3 "$src/bench/peak-rss.py" "$BASELINE" explain "$tmp/report.log.gz"); orss=$1
	set -- $(python3 "$src/bench/peak-rss.py" "$BASELINE" explain "$tmp/unbroken.log.gz"); orss_unb=$1
	echo "baseline $BASELINE: paste $opaste ms (CPU $opastec ms), report $orep ms (CPU $orepc ms), text alone $otxt ms (CPU $otxtc ms); peak RSS: report $orss KiB, without empty lines $orss_unb KiB"
	echo "  this build / baseline, CPU: paste $(ratio "$pastec" "$opastec")x, report $(ratio "$repc" "$orepc")x, text alone $(ratio "$txtc" "$otxtc")x"
fi

# Instructions executed, counted by callgrind: "N" for COMMAND…
insns() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
if [ "${INSNS:-1}" != 0 ] && command -v valgrind >/dev/null; then
	head -c 4194304 "$tmp/report.txt" | gzip -6 > "$tmp/slice.log.gz"
	cat_i=$(insns cat "$tmp/paste.txt")
	floor_i=${floor:+$(insns "$floor")}
	paste_i=$(insns "$gpuenv" explain "$tmp/paste.txt")
	gz_i=$(insns gzip -dc "$tmp/slice.log.gz")
	slice_i=$(insns "$gpuenv" explain "$tmp/slice.log.gz")
	echo "instructions (callgrind): explain of the paste $paste_i ($(ratio "$paste_i" "$cat_i")x cat's $cat_i${floor_i:+; the floor $floor_i})"
	echo "instructions (callgrind): explain of a 4 MiB slice as .gz $slice_i ($(ratio "$slice_i" "$gz_i")x gzip -dc's $gz_i)"
	if [ -n "${BASELINE:-}" ]; then
		opaste_i=$(insns "$BASELINE" explain "$tmp/paste.txt")
		oslice_i=$(insns "$BASELINE" explain "$tmp/slice.log.gz")
		echo "  baseline: paste $opaste_i, slice $oslice_i; this build / baseline: $(ratio "$paste_i" "$opaste_i")x, $(ratio "$slice_i" "$oslice_i")x"
	fi
fi
