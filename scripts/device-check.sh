#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The prepared check for a machine with a real NVIDIA GPU (the issues' "if the device tool
# lends a machine" steps), one short script, a few minutes at most. It compares what gpuenv
# says with what NVIDIA's and PyTorch's own tools say, and prints both side by side:
#   1. report --json against nvidia-smi --query-gpu (name, bus id, driver, compute cap, memory);
#   2. torch.__version__ / torch.version.cuda / torch.cuda.get_arch_list() and nvcc --version
#      beside gpuenv's framework and toolkit facts;
#   3. gpuenv scan of PyTorch's libtorch_cuda.so against cuobjdump --list-elf --list-ptx;
#   4. gpuenv doctor --json findings;
#   5. gpuenv doctor --launch --json: each GPU's launch result beside doctor's static
#      prediction, AGREE/DISAGREE (scripts/device-compare.py launch);
#   6. gpuenv exporter for 30 s (its summed resident memory read every 0.1 s), /metrics
#      scraped every 5 s while nvidia-smi --query-gpu is
#      read at the same moment: per field both values and their difference, and a summary
#      (scripts/device-compare.py exporter).
#   7. prediction vs what runs: `gpuenv check --json --image <the CUDA toolkit's lib dir>
#      --host <this machine's snapshot (step 1)>`: each library's predicted verdict against
#      what cuobjdump lists for this GPU (scripts/device-compare.py libraries) and, for
#      PyTorch, `scan --this-machine --from` the snapshot against torch.cuda.is_available()
#      and a small matmul. Prints AGREE/DISAGREE per item.
# Every step runs under timeout; the whole takes about 2-3 minutes. Outputs go to $OUT (at
# most 8 files come back from the device machine: stderr of every step goes to stderr.log).
# Usage: scripts/device-check.sh [GPUENV]   (default build/tools/gpuenv; the machine has no
# network, so the binary must be built beforehand and its shared libraries present)
set -u
gpuenv=${1:-build/tools/gpuenv}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpuenv-device-check}
mkdir -p "$out"
t() { timeout 120 "$@"; }
echo "== 1. report vs nvidia-smi"
t "$gpuenv" report --json >"$out/report.json" 2>>"$out/stderr.log"; echo "report exit $?"
t nvidia-smi --query-gpu=name,pci.bus_id,driver_version,compute_cap,memory.total --format=csv,noheader >"$out/smi.csv" 2>&1
cat "$out/smi.csv"
python3 - "$out/report.json" "$out/smi.csv" <<'PY'
import csv, json, sys
snap = json.load(open(sys.argv[1]))
v = lambda n: n.get("value") if isinstance(n, dict) else None
nvml = snap.get("driver", {}).get("nvml", {})
devs = nvml.get("devices", []) if isinstance(nvml.get("devices"), list) else []
rows = [r for r in csv.reader(open(sys.argv[2])) if len(r) >= 5]
print(f"gpuenv: {len(devs)} NVML devices, driver {v(nvml.get('driver_version', {}))}, "
      f"module {v(snap.get('driver', {}).get('nvidia', {}).get('module_version', {}))}")
ok = len(rows) == len(devs)
for d, r in zip(devs, rows):
    mine = (v(d["name"]), (v(d["pci_bus_id"]) or "").upper(), v(nvml.get("driver_version", {})),
            v(d["compute_capability"]), f"{v(d['memory_total_mib'])} MiB")
    theirs = tuple(x.strip() for x in r[:5])
    same = mine[0] == theirs[0] and mine[1].endswith(theirs[1].upper()[-12:]) and \
        mine[2] == theirs[2] and mine[3] == theirs[3] and mine[4] == theirs[4]
    ok &= same
    print(("same " if same else "DIFF ") + f"gpuenv {mine} | nvidia-smi {theirs}")
print("report vs nvidia-smi:", "AGREE" if ok else "DISAGREE")
PY
echo "== 2. framework and toolkit"
t python3 -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.get_arch_list())" 2>&1 | tail -1
t nvcc --version 2>&1 | tail -2
python3 - "$out/report.json" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
v = lambda n: n.get("value") if isinstance(n, dict) else None
for env in snap.get("framework", {}).get("python_envs", []):
    tor = env.get("packages", {}).get("torch")
    if tor:
        arch = [v(a.get("target")) for a in tor.get("arch_targets", []) if isinstance(a, dict)]
        print(f"gpuenv torch in {v(env['prefix'])}: {v(tor.get('version', {}))} cuda {v(tor.get('cuda', {}))} {arch}")
for tk in snap.get("runtime", {}).get("cuda_toolkits", []):
    print(f"gpuenv toolkit {v(tk['path'])}: {v(tk.get('version', {}))}")
PY
echo "== 3. scan libtorch_cuda.so vs cuobjdump"
lib=$(python3 -c "import torch, os; print(os.path.join(os.path.dirname(torch.__file__), 'lib', 'libtorch_cuda.so'))" 2>/dev/null)
if [ -n "$lib" ] && [ -f "$lib" ]; then
	t "$gpuenv" scan --json "$lib" >"$out/scan.json"
	t cuobjdump --list-elf --list-ptx "$lib" >"$out/cuobjdump.txt" 2>&1
	python3 - "$out/scan.json" "$out/cuobjdump.txt" <<'PY'
import json, re, sys
scan = json.load(open(sys.argv[1]))
mine = set()
for f in scan.get("files", []):
    mine |= set(f.get("sass", []))
    mine |= {p["target"] for p in f.get("ptx", [])}
text = open(sys.argv[2]).read()
theirs = {"sm_" + m for m in re.findall(r"\.sm_(\d+[af]?)\.cubin", text)}
theirs |= {"compute_" + m for m in re.findall(r"\.sm_(\d+[af]?)\.ptx", text)}
print("gpuenv scan:", sorted(mine)); print("cuobjdump:  ", sorted(theirs))
print("scan vs cuobjdump:", "AGREE" if mine == theirs else "DISAGREE")
PY
else
	echo "no libtorch_cuda.so (PyTorch with CUDA not installed)"
fi
echo "== 4. doctor"
t "$gpuenv" doctor --json >"$out/doctor.json" 2>>"$out/stderr.log"; echo "doctor exit $?"
python3 -c "
import json,sys
d=json.load(open('$out/doctor.json'))
for f in d.get('findings', []): print(f.get('severity'), f.get('rule'), '-', (f.get('message') or '')[:120])
"
echo "== 5. doctor --launch vs the static prediction"
t "$gpuenv" doctor --launch --json >"$out/doctor-launch.json" 2>>"$out/stderr.log"
echo "doctor --launch exit $?"
t python3 "$here/device-compare.py" launch "$out/doctor-launch.json"
echo "== 6. exporter vs nvidia-smi (30 s, a scrape every 5 s)"
port=19417
samples=$(mktemp -d)
# --interval 1s: a scrape serves a sample at most about a second old. 90 s: up to 30 s to be
# ready, then six scrapes 5 s apart, with room for slow scrapes (60 s could end it before
# the last scrape when readiness took its 30 s).
timeout 90 "$gpuenv" exporter --listen "127.0.0.1:$port" --interval 1s 2>>"$out/stderr.log" &
exporter=$!
# Ready (/readyz 200) once its first sample is in: at most 30 s.
for _ in $(seq 30); do
	timeout 5 python3 -c 'import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=2)' "http://127.0.0.1:$port/readyz" 2>/dev/null && break
	sleep 1
done
# Issue 16's memory target with the real libnvidia-ml (the fake NVML's figures are in
# docs/exporter.md): the resident size (VmRSS) of every process of the exporter, summed,
# read every 0.1 s while it runs (the NVML child's tree and a diagnosis child included).
gp=$(pgrep -P "$exporter" -x gpuenv | head -n 1)
python3 - "${gp:-0}" "$samples/rss" <<'PY' &
import os, sys, time
root, out = int(sys.argv[1]), open(sys.argv[2], "w")
def rss(p):
    try:
        with open(f"/proc/{p}/status") as f:
            return next((int(l.split()[1]) for l in f if l.startswith("VmRSS:")), 0)
    except OSError:
        return 0
while root and os.path.exists(f"/proc/{root}"):
    kids = {}
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as f:
                kids.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(d))
        except (OSError, IndexError, ValueError):
            pass
    todo, total = [root], 0
    while todo:
        p = todo.pop()
        total += rss(p)
        todo += kids.get(p, [])
    print(total, file=out, flush=True)
    time.sleep(0.1)
PY
rss_reader=$!
for i in 1 2 3 4 5 6; do
	# Both reads start together; each writes its own file.
	timeout 10 nvidia-smi --format=csv,noheader,nounits \
		--query-gpu=index,uuid,temperature.gpu,utilization.gpu,memory.used,memory.total,power.draw,clocks.sm,clocks.mem \
		>"$samples/smi.$i" 2>>"$out/stderr.log" &
	smi=$!
	timeout 10 python3 -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
		"http://127.0.0.1:$port/metrics" >"$samples/metrics.$i" 2>>"$out/stderr.log"
	wait "$smi"
	{ echo "### sample $i"; echo "### nvidia-smi"; cat "$samples/smi.$i"
	  echo "### metrics"; cat "$samples/metrics.$i"; } >>"$out/exporter-samples.txt"
	[ "$i" = 6 ] || sleep 5
done
kill "$exporter" 2>/dev/null; wait "$exporter" 2>/dev/null
wait "$rss_reader" 2>/dev/null
sort -n "$samples/rss" | awk '$1 > 0 {v[++n] = $1; if ($1 > 8192) over++}
	END {if (n) printf "exporter summed RSS (KiB), %d readings every 0.1 s: median %d, max %d, over 8192 in %d (target < 8192)\n", n, v[int((n + 1) / 2)], v[n], over; else print "exporter summed RSS: no reading"}'
rm -rf "$samples"
t python3 "$here/device-compare.py" exporter "$out/exporter-samples.txt"
echo "== 7. predicted from the snapshot vs what runs here"
pdir=$(mktemp -d) # not $OUT: at most 8 files come back
# The CUDA toolkit of this machine: nvcc's, else /usr/local/cuda; its library directory
# (lib64 is a link to targets/<arch>/lib) is judged as an unpacked image on the snapshot.
nvcc=$(command -v nvcc 2>/dev/null)
cuda=${nvcc:+$(dirname "$(dirname "$(readlink -f "$nvcc")")")}
[ -n "$cuda" ] && [ -d "$cuda/lib64" ] || cuda=$(readlink -f /usr/local/cuda 2>/dev/null)
libdir=$(readlink -f "${cuda:-/usr/local/cuda}/lib64" 2>/dev/null)
if [ -n "$libdir" ] && [ -d "$libdir" ]; then
	t "$gpuenv" check --json --image "$libdir" --host "$out/report.json" >"$pdir/check-host.json" \
		2>>"$out/stderr.log"
	echo "check --image $libdir --host report.json exit $?"
	command -v cuobjdump >/dev/null 2>&1 || export CUOBJDUMP="$cuda/bin/cuobjdump"
	timeout 240 python3 "$here/device-compare.py" libraries "$pdir/check-host.json" "$libdir"
else
	echo "no CUDA toolkit library directory (nvcc, /usr/local/cuda/lib64): nothing to judge"
fi
# PyTorch's libtorch_cuda.so (step 3) judged for this machine from the snapshot, against a
# small matmul
if [ -n "$lib" ] && [ -f "$lib" ]; then
	t "$gpuenv" scan --json --this-machine --from "$out/report.json" "$lib" >"$pdir/predict.json" \
		2>>"$out/stderr.log"
	python3 - "$pdir/predict.json" "$lib" <<'PY'
import json, subprocess, sys
pred = json.load(open(sys.argv[1])) if open(sys.argv[1]).read().strip() else {}
def runs_torch():
    code = ("import torch; ok = torch.cuda.is_available(); "
            "a = torch.ones(64, 64, device='cuda') if ok else None; "
            "print(bool(ok and float((a @ a).sum()) == 64 ** 3))")
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=40)
        return r.stdout.strip().endswith("True")
    except Exception:
        return False
for f in pred.get("files", []):
    for v in f.get("verdicts", [])[:1]:
        predicted = v["verdict"] in ("native", "ptx-jit")
        actual = runs_torch()
        tag = "AGREE   " if predicted == actual else "DISAGREE"
        print(f"{tag} {f['path']}: predicted {v['verdict']}, torch matmul: {'runs' if actual else 'fails'}")
PY
fi
rm -rf "$pdir"
