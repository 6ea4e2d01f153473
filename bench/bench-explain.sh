#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv explain` (docs/explain.md) on a typical paste and on a bug-report-sized gzip
# file, against baselines measured in the same run: `cat` of the paste (reading the bytes
# alone) and `gzip -dc` of the gzip file (inflating it alone). Targets: a 20 KB paste <= 5 ms,
# a 5 MB nvidia-bug-report.log.gz <= 200 ms, peak RSS <= 32 MiB (bench/peak-rss.py).
# The inputs are built from the real pastes of tests/explain-corpus/ and the readers' samples
# (tests/fuzz/corpus/pasted-*/): the 20 KB paste is their text; the bug-report stand-in is
# that text repeated, each copy's lines made distinct by a counter so that gzip cannot fold
# them away, to TEXT_MB of text (default 40: what a 5 MB nvidia-bug-report.log.gz holds at
# its usual 8:1), gzip -6. No public bug report was at hand to ship as the input.
# Usage: bench/bench-explain.sh [BUILD_DIR] [RUNS] [TEXT_MB]
set -eu
. "$(dirname "$0")/lib.sh"
build=${1:-build}
runs=${2:-100}
text_mb=${3:-40}
gpuenv="$build/tools/gpuenv"
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
src=$(dirname "$0")/..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$src"/tests/explain-corpus/*.txt "$src"/tests/fuzz/corpus/pasted-*/*.txt > "$tmp/all.txt"
head -c 20480 "$tmp/all.txt" > "$tmp/paste.txt"
python3 - "$tmp/all.txt" "$tmp/report.txt" "$text_mb" <<'PY'
import sys
src = open(sys.argv[1], "rb").read().splitlines()
want = int(sys.argv[3]) << 20
out, n, i = open(sys.argv[2], "wb"), 0, 0
while n < want:
    line = src[i % len(src)] + b" #%d\n" % i
    out.write(line)
    n += len(line)
    i += 1
PY
gzip -6 -c "$tmp/report.txt" > "$tmp/report.log.gz"
gz_kib=$(( $(wc -c < "$tmp/report.log.gz") / 1024 ))

set -- $(time_ms "$runs" cat "$tmp/paste.txt"); base=$1
set -- $(time_ms "$runs" "$gpuenv" explain "$tmp/paste.txt"); paste=$1 pastec=$2
greps=$(( runs / 10 > 3 ? runs / 10 : 3 ))
set -- $(time_ms "$greps" gzip -dc "$tmp/report.log.gz"); gzb=$1
set -- $(time_ms "$greps" "$gpuenv" explain "$tmp/report.log.gz"); rep=$1 repc=$2
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/paste.txt"); rss_paste=$1
set -- $(python3 "$src/bench/peak-rss.py" "$gpuenv" explain "$tmp/report.log.gz"); rss_rep=$1
set -- $(python3 "$src/bench/peak-rss.py" gzip -dc "$tmp/report.log.gz"); rss_gz=$1
echo "paste: $(wc -c < "$tmp/paste.txt") bytes; bug report stand-in: ${text_mb} MiB of text, ${gz_kib} KiB gzip"
echo "baseline cat of the paste:         $base ms"
echo "explain, 20 KB paste:              $paste ms (CPU $pastec ms; $(ratio "$paste" "$base")x cat; target <= 5 ms)"
echo "baseline gzip -dc of the report:   $gzb ms"
echo "explain, the .gz report:           $rep ms (CPU $repc ms; $(ratio "$rep" "$gzb")x gzip -dc; target <= 200 ms for 5 MB gz)"
echo "peak RSS: paste $rss_paste KiB, report $rss_rep KiB ($(ratio "$rss_rep" "$rss_gz")x gzip -dc's $rss_gz KiB; target <= 32768 KiB)"
