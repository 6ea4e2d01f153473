#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The memory `gpuenv report --wheel` costs for a wheel whose library is large (a torch wheel's
# libtorch_cuda.so is 1.5 GB), against the same wheel with the library unpadded, measured in
# the same run: the library is a real nvcc-built shared object (sm_80 and sm_90 SASS, compute
# PTX) padded with a .pad section of PAD_MB MiB of incompressible bytes (a zero pad would be a
# decompression bomb to the wheel reader), deflated into a wheel as pip's are. Memory is the
# process tree's peak resident set (peak-rss.py) plus the peak growth of the system's shared
# memory (/proc/meminfo Shmem, sampled every 20 ms): a member decompressed into an anonymous
# memory file is shared memory that no resident-set figure shows. Disk is the peak growth of
# the used space of TMPDIR's file system (statvfs, sampled likewise): what a member spilled to
# an unlinked file there costs. The ratio padded/unpadded should stay near 1. The framework
# library, a compressed member past LAYERS_SPILL_MIN, has its GPU code scanned as it is
# inflated (root_stream(), the fatbin stream scanner) and its dynamic section read from the
# inflated stream too (the loader emulation: formats/elf-dynamic-stream.c), never copied
# whole: the padded run's TMPDIR growth should stay near the unpadded one's. Other processes'
# shared memory and disk writes move the figures a little: run it on a quiet machine.
# Usage: bench/bench-wheel-memory.sh [BUILD_DIR]   PAD_MB=1536 NVCC=/usr/local/cuda/bin/nvcc
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
gpuenv="$build/tools/gpuenv"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
pad=${PAD_MB:-1536}
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
if [ ! -x "$nvcc" ]; then
	echo "bench-wheel-memory: $nvcc missing (no CUDA toolkit here): skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/k.cu" <<'CU'
__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }
extern "C" void launch(float *x) { scale<<<1, 32>>>(x); }
CU
"$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 \
	-gencode arch=compute_90,code=[sm_90,compute_90] -o "$tmp/libk.so" "$tmp/k.cu"
python3 - "$gpuenv" "$tmp" "$pad" "$here/peak-rss.py" <<'PY'
import os, subprocess, sys, threading, time, zipfile

gpuenv, tmp, pad, peak = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lib = os.path.join(tmp, "libk.so")


def wheel(name, library):
    path = os.path.join(tmp, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("torch/__init__.py", "")
        z.writestr("torch/version.py", "from typing import Optional\n__version__ = '2.4.0+cu124'\n"
                   "debug = False\ncuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n")
        z.write(library, "torch/lib/libtorch_cuda.so")
        z.writestr("torch-2.4.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n")
        z.writestr("torch-2.4.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                   "Tag: cp312-cp312-linux_x86_64\n")
        z.writestr("torch-2.4.0.dist-info/RECORD", "")
    return path


def shmem():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Shmem:"):
                return int(line.split()[1])
    return 0


def disk_used(where):
    st = os.statvfs(where)
    return (st.f_blocks - st.f_bfree) * st.f_frsize // 1024


def measure(path):
    """(peak RSS of the tree, peak Shmem growth, peak TMPDIR growth) in KiB, and the targets
    found."""
    tmpdir = os.environ.get("TMPDIR", "/tmp")
    base, top, stop = shmem(), [0], threading.Event()
    dbase, dtop = disk_used(tmpdir), [0]

    def sample():
        while not stop.is_set():
            top[0] = max(top[0], shmem() - base)
            dtop[0] = max(dtop[0], disk_used(tmpdir) - dbase)
            time.sleep(0.02)
    t = threading.Thread(target=sample)
    t.start()
    out = subprocess.run([sys.executable, peak, gpuenv, "report", "--json", "--stable",
                          "--no-vendor", "--wheel", path], capture_output=True, text=True)
    stop.set()
    t.join()
    rss = int(out.stdout.split()[0])
    rep = subprocess.run([gpuenv, "report", "--json", "--stable", "--no-vendor", "--wheel", path],
                         capture_output=True, text=True).stdout
    return rss, top[0], dtop[0], rep.count('"value": "sm_90"') > 0


small = wheel("small.whl", lib)
padded_lib = os.path.join(tmp, "libtorch_cuda.so")
block = os.urandom(1 << 20)
with open(os.path.join(tmp, "pad.bin"), "wb") as f:
    for _ in range(pad):
        f.write(block)
subprocess.run(["objcopy", "--add-section", ".pad=" + os.path.join(tmp, "pad.bin"),
                "--set-section-flags", ".pad=noload,readonly", lib, padded_lib], check=True)
os.unlink(os.path.join(tmp, "pad.bin"))
big = wheel("big.whl", padded_lib)
os.unlink(padded_lib)
r0, s0, d0, ok0 = measure(small)
r1, s1, d1, ok1 = measure(big)
print(f"library {os.path.getsize(lib) // 1024} KiB, padded by {pad} MiB; wheel {os.path.getsize(big) >> 20} MiB")
print(f"unpadded: peak RSS {r0} KiB, Shmem growth {s0} KiB, TMPDIR growth {d0} KiB, sm_90 found: {ok0}")
print(f"padded:   peak RSS {r1} KiB, Shmem growth {s1} KiB, TMPDIR growth {d1} KiB, sm_90 found: {ok1}")
print(f"memory ratio padded/unpadded (RSS + Shmem growth): {(r1 + s1) / max(1, r0 + s0):.2f}")
PY
