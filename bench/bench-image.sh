#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv check --image` of a large `docker save` tarball against `tar -tf` of the same
# file, measured in the same run (issue 15 §4: faster than tar -tf, peak RSS <= 64 MB), and
# prints both as ratios, and against `tar -tf` of every layer (what listing the image's files
# with tar takes). Without IMAGE, the tarball is written here (tests/tools/make_image.py, the
# test suite's writer): a base layer and COPIES copies of the CUDA toolkit's lib64 (as a
# PyTorch image carries CUDA libraries twice, the toolkit's and the nvidia-* wheels'), each
# copy split over two layers, with a whiteout in the last; written to TMPDIR and removed on
# exit. The page cache is warm for both commands (each runs once before it is timed): the
# figures compare work, not the disk.
# Usage: bench/bench-image.sh [BUILD_DIR] [ROUNDS] [IMAGE]
#   COPIES=2 (about 4.8 GB with CUDA 13.0's lib64); LIB64=/usr/local/cuda/lib64
set -eu
build=${1:-build}
rounds=${2:-3}
image=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
gpuenv="$build/tools/gpuenv"
lib64=${LIB64:-/usr/local/cuda/lib64}
copies=${COPIES:-2}
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
if [ -z "$image" ]; then
	if [ ! -d "$lib64" ]; then
		echo "bench-image: $lib64 missing (no CUDA toolkit here): skipped"
		exit 0
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	image=$tmp/image.tar
	echo "writing a docker save tarball from $copies copies of $lib64 ..." >&2
	python3 - "$here/../tests/tools" "$lib64" "$copies" "$image" <<'PY'
import os, sys, tarfile
sys.path.insert(0, sys.argv[1])
import make_image as mi
lib64, copies, image = sys.argv[2], int(sys.argv[3]), sys.argv[4]
tmp = os.path.dirname(image)
libs = sorted(os.listdir(lib64))
base = [("etc/os-release", "file", b'ID=ubuntu\nVERSION_ID="22.04"\n'),
        ("etc/ld.so.conf", "file", b"include /etc/ld.so.conf.d/*.conf\n"),
        ("etc/ld.so.conf.d/cuda.conf", "file", b"/usr/local/cuda/lib64\n")]
layer_files = [os.path.join(tmp, "layer0.tar")]
with open(layer_files[0], "wb") as f:
    f.write(mi.layer_tar(base))
prefixes = ["usr/local/cuda-13.0/targets/x86_64-linux/lib"] + [
    "usr/local/lib/python3.10/dist-packages/nvidia/copy%d/lib" % i for i in range(1, copies)]
for n, prefix in enumerate(prefixes):
    for half in (0, 1):
        path = os.path.join(tmp, "layer%d-%d.tar" % (n, half))
        with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
            for name in libs[half::2]:
                t.add(os.path.join(lib64, name), arcname=prefix + "/" + name, recursive=False)
            if n == len(prefixes) - 1 and half == 1:
                info = tarfile.TarInfo(prefix + "/.wh." + libs[0])
                t.addfile(info)
        layer_files.append(path)
# the outer tar, streamed from the layer files (never all in memory)
import json
with tarfile.open(image, "w", format=tarfile.PAX_FORMAT) as t:
    ids = []
    for i, path in enumerate(layer_files):
        layer_id = "%064x" % (i + 1)
        t.add(path, arcname=layer_id + "/layer.tar")
        ids.append(layer_id)
        os.unlink(path)
    config = mi.config_json(["PATH=/usr/local/cuda/bin:/usr/bin:/bin", "CUDA_VERSION=13.0.0",
                             "NVIDIA_REQUIRE_CUDA=cuda>=13.0",
                             "LD_LIBRARY_PATH=/usr/local/cuda/lib64"], ids)
    mi._add(t, "config.json", config)
    mi._add(t, "manifest.json", json.dumps([{"Config": "config.json",
                                              "RepoTags": ["bench:latest"],
                                              "Layers": [x + "/layer.tar" for x in ids]}]).encode())
PY
fi

exec python3 - "$rounds" "$gpuenv" "$image" "$here/peak-rss.py" <<'PY'
import os, resource, subprocess, sys, time

rounds, gpuenv, image, peak = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# GNU tar lists a regular file by seeking from header to header, so `tar -tf` of a docker
# save tarball reads a few headers (one per layer member); listing the image's files with tar
# means listing every layer too, each streamed out of the outer tar: the second baseline.
layers = [n for n in subprocess.run(["tar", "-tf", image], stdout=subprocess.PIPE,
                                    text=True).stdout.split("\n") if n.endswith("layer.tar")]
every = " ; ".join("tar -xOf \"$0\" '%s' | tar -t" % n for n in layers)
cmds = {
    "tar -tf": ["tar", "-tf", image],
    "tar -tf of every layer": ["sh", "-c", every, image],
    "gpuenv check --image": [gpuenv, "check", "--no-vendor", "--image", image],
}


def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = (time.perf_counter() - t0) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000


best = {k: [float("inf"), float("inf")] for k in cmds}
for _ in range(rounds):
    for k, cmd in cmds.items():
        run(cmd)  # warm
        w, c = run(cmd)
        best[k] = [min(best[k][0], w), min(best[k][1], c)]
rss = {}
for k, cmd in cmds.items():
    out = subprocess.run([sys.executable, peak] + cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout.split()
    rss[k] = int(out[1]) if out else -1
size = os.path.getsize(image)
entries = subprocess.run(["tar", "-tf", image], stdout=subprocess.PIPE, text=True).stdout.count("\n")
print("image: %s, %.2f GB, %d outer entries" % (os.path.basename(image), size / 1e9, entries))
for k in cmds:
    print("%-22s wall %8.1f ms  cpu %8.1f ms  peak RSS %7.1f MB" % (k, best[k][0], best[k][1],
                                                                   rss[k] / 1024))
g = best["gpuenv check --image"]
for base in ("tar -tf", "tar -tf of every layer"):
    t = best[base]
    print("ratio gpuenv / %s: wall %.2f, cpu %.2f (goal < 1)" % (base, g[0] / t[0],
                                                                 g[1] / max(t[1], 0.1)))
print("gpuenv peak RSS: %.1f MB (goal <= 64 MB)" % (rss["gpuenv check --image"] / 1024))
PY
