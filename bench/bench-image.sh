#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times `gpuenv check --image` of a large `docker save` tarball against GNU tar listing the
# same file, measured in the same run (issue 15 §4: faster than `tar -tf`, peak RSS <= 64 MB).
# The check is the default one, with no policy: it judges the GPU code of every shared library
# of the image on the target (the clause image.gpu_libraries, a coverage row each), so each
# one's fat binaries are read out of the layers. The bench checks that it did that work: the
# libraries it judged and their verdicts must be those of the same check over the same
# libraries read from disk (a policy naming them: `architectures.binaries`).
#
# Without IMAGE, the tarball is written here (tests/tools/make_image.py, the test suite's
# writer) from the CUDA toolkit's lib64, laid out as a PyTorch-on-CUDA image carries it twice:
# the toolkit under /usr/local/cuda-13.0/targets/x86_64-linux/lib (with the /usr/local/cuda
# and lib64 links of NVIDIA's images) and the pip wheels' copy under
# site-packages/nvidia/{cu13,cudnn,nccl}/lib (CUDA 13 wheels' layout); each copy split over
# two layers, a whiteout in the last. No torch wheel is here, so the framework is a STAND-IN,
# and the output says so: a last layer with site-packages/torch (version.py: 2.5.1+cu124,
# cuda "12.4"; a dist-info) and torch/lib/libtorch_cuda.so, one kernel built here by nvcc for
# sm_80 and sm_90 SASS and compute_90 PTX (no cudart linked; a real one is 1.5 GB and links
# libcudart.so.12). Written to TMPDIR and removed on exit. The page cache is warm for every
# command (each runs once before it is timed): the figures compare work, not the disk.
#
# Baselines, all GNU tar on the same file:
#   tar -tf IMAGE            what a user types; on a regular file GNU tar SEEKS from header to
#                            header, so it reads the outer headers and nothing else
#   tar --no-seek -tf IMAGE  the same listing reading every byte
#   cat IMAGE | tar -t       the same from a pipe, as `docker save IMG | tar -t` reads it
#   tar -tf of every layer   listing the image's files: each layer streamed out and listed
# Usage: bench/bench-image.sh [BUILD_DIR] [ROUNDS] [IMAGE]
#   COPIES=2 (about 4.8 GB with CUDA 13.0's lib64); LIB64=/usr/local/cuda/lib64;
#   TARGET="gpu=H100,driver=580.65.06"
set -eu
build=${1:-build}
rounds=${2:-3}
image=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
gpuenv="$build/tools/gpuenv"
lib64=${LIB64:-/usr/local/cuda/lib64}
copies=${COPIES:-2}
target=${TARGET:-gpu=H100,driver=580.65.06}
[ -x "$gpuenv" ] || { echo "build first: make build" >&2; exit 1; }
if [ ! -d "$lib64" ]; then
	echo "bench-image: $lib64 missing (no CUDA toolkit here): skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The framework's stand-in library (see above), when nvcc is here.
standin=
if command -v nvcc > /dev/null 2>&1; then
	printf '__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }\n' > "$tmp/k.cu"
	if nvcc -shared -Xcompiler -fPIC -cudart none -gencode arch=compute_80,code=sm_80 \
		-gencode 'arch=compute_90,code=[sm_90,compute_90]' -o "$tmp/libtorch_cuda.so" \
		"$tmp/k.cu" > /dev/null 2>&1; then
		standin=$tmp/libtorch_cuda.so
	fi
fi
# The same libraries read from disk, named by a policy: the reference verdicts.
{
	printf 'version: 1\narchitectures:\n  targets: [sm_80, sm_90, sm_120]\n  binaries:\n'
	printf '    - %s/lib*.so*\n' "$(cd "$lib64" && pwd -P)"
	[ -z "$standin" ] || printf '    - %s\n' "$standin"
} > "$tmp/disk.yml"
if [ -z "$image" ]; then
	image=$tmp/image.tar
	echo "writing a docker save tarball from $copies copies of $lib64 ..." >&2
	python3 - "$here/../tests/tools" "$lib64" "$copies" "$image" "$standin" <<'PY'
import json, os, sys, tarfile
sys.path.insert(0, sys.argv[1])
import make_image as mi
lib64, copies, image, standin = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
tmp = os.path.dirname(image)
libs = sorted(os.listdir(lib64))
base = [("etc/os-release", "file", b'ID=ubuntu\nVERSION_ID="22.04"\n'),
        ("etc/ld.so.conf", "file", b"include /etc/ld.so.conf.d/*.conf\n"),
        ("etc/ld.so.conf.d/cuda.conf", "file", b"/usr/local/cuda/lib64\n"),
        ("usr/local/cuda", "symlink", "cuda-13.0"),
        ("usr/local/cuda-13.0/lib64", "symlink", "targets/x86_64-linux/lib")]
layer_files = [os.path.join(tmp, "layer0.tar")]
with open(layer_files[0], "wb") as f:
    f.write(mi.layer_tar(base))


def wheel_dir(name):
    """site-packages/nvidia/<dir>/lib of the wheel that ships name (CUDA 13 wheels: cu13)."""
    for prefix, d in (("libcudnn", "cudnn"), ("libnccl", "nccl")):
        if name.startswith(prefix):
            return d
    return "cu13"


toolkit = "usr/local/cuda-13.0/targets/x86_64-linux/lib/"
site = "usr/local/lib/python3.10/dist-packages/nvidia/%s/lib/"
for n in range(copies):
    for half in (0, 1):
        path = os.path.join(tmp, "layer%d-%d.tar" % (n, half))
        with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
            for name in libs[half::2]:
                if n > 0 and os.path.isdir(os.path.join(lib64, name)):
                    continue  # cmake/, stubs/: the toolkit's only
                where = toolkit if n == 0 else site % wheel_dir(name)
                if n > 1:
                    where = where.replace("/nvidia/", "/nvidia%d/" % n)
                t.add(os.path.join(lib64, name), arcname=where + name, recursive=False)
            if n == copies - 1 and half == 1:  # hides a library of the layer below
                victim = next(x for x in libs[0::2] if ".so." in x
                              and not os.path.islink(os.path.join(lib64, x)))
                where = toolkit if n == 0 else site % wheel_dir(victim)
                if n > 1:
                    where = where.replace("/nvidia/", "/nvidia%d/" % n)
                t.addfile(tarfile.TarInfo(where + ".wh." + victim))
        layer_files.append(path)
if standin:  # the framework's layer: a stand-in torch (see the header)
    site = "usr/local/lib/python3.10/dist-packages/"
    ver = "2.5.1+cu124"
    with open(standin, "rb") as f:
        lib = f.read()
    path = os.path.join(tmp, "layer-torch.tar")
    with open(path, "wb") as f:
        f.write(mi.layer_tar([
            (site + "torch/__init__.py", "file", b""),
            (site + "torch/version.py", "file",
             ("__version__ = '%s'\ndebug = False\ncuda = '12.4'\n"
              "git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip = None\n"
              % ver).encode()),
            (site + "torch/lib/libtorch_cuda.so", "file", lib, 0o755),
            (site + "torch-%s.dist-info/METADATA" % ver, "file",
             ("Metadata-Version: 2.1\nName: torch\nVersion: %s\n" % ver).encode()),
            (site + "torch-%s.dist-info/INSTALLER" % ver, "file", b"pip\n"),
            (site + "torch-%s.dist-info/RECORD" % ver, "file", b"")]))
    layer_files.append(path)
# the outer tar, streamed from the layer files (never all in memory)
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

python3 - "$rounds" "$gpuenv" "$image" "$here/peak-rss.py" "$tmp" "$target" "$standin" <<'PY'
import json, os, resource, subprocess, sys, time

rounds, gpuenv, image, peak, tmp, target, standin = (int(sys.argv[1]),) + tuple(sys.argv[2:])
layers = [n for n in subprocess.run(["tar", "-tf", image], stdout=subprocess.PIPE,
                                    text=True).stdout.split("\n") if n.endswith("layer.tar")]
every = " ; ".join("tar -xOf \"$0\" '%s' | tar -t" % n for n in layers)
check = [gpuenv, "check", "--no-vendor", "--image", image]
cmds = {
    "tar -tf (seeks)": ["tar", "-tf", image],
    "tar --no-seek -tf": ["tar", "--no-seek", "-tf", image],
    "cat IMAGE | tar -t": ["sh", "-c", "cat \"$0\" | tar -t", image],
    "tar -tf of every layer": ["sh", "-c", every, image],
    "check (default)": check + ["--target", target],
}


def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = (time.perf_counter() - t0) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000


# The verdicts are compared on three GPUs (one --target each: a matrix), from the coverage
# rows, which hold every library (the clause's text lists the failing ones).
GPUS = ["gpu=A100,driver=580.65.06", "gpu=H100,driver=580.65.06", "gpu=12.0,driver=580.65.06"]


def judged(cmd, prefix):
    """(exit status, {path: {target: verdict}}, {target: clause}) of cmd --json on GPUS."""
    tg = [a for g in GPUS for a in ("--target", g)]
    p = subprocess.run(cmd + tg + ["--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    v, cl = {}, {}
    for doc in json.loads(p.stdout)["targets"]:
        for c in doc.get("coverage", []):
            if c["subject"].startswith(prefix):
                v.setdefault(c["subject"][len(prefix):], {})[doc["target"]] = c["verdict"]
        for c in doc.get("clauses", []):
            if c["id"] == "image.gpu_libraries":
                cl[doc["target"]] = c
    return p.returncode, v, cl


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
print("image: %s, %.2f GB, %d outer entries, %d layers; target %s" %
      (os.path.basename(image), size / 1e9, entries, len(layers), target))
print("framework: %s" % ("torch 2.5.1+cu124, a STAND-IN (version.py and an nvcc-built "
                         "libtorch_cuda.so of one kernel; no torch wheel here)" if standin
                         else "none (nvcc missing: no stand-in torch)"))
for k in cmds:
    print("%-24s wall %8.1f ms  cpu %8.1f ms  peak RSS %7.1f MB" % (k, best[k][0], best[k][1],
                                                                     rss[k] / 1024))

# What the check did, and whether its verdicts are those of the same libraries on disk.
rc, img, clauses = judged(check, "library ")
_, disk, _ = judged([gpuenv, "check", "--no-vendor", "--policy", os.path.join(tmp, "disk.yml")],
                    "binary ")
# a pattern names a library by its first name (libcublas.so, a link): its file's is the key
by_name = {os.path.basename(os.path.realpath(p)): v for p, v in disk.items()}
gpu_on_disk = sorted(n for n, v in by_name.items() if any(x != "no-gpu-code" for x in v.values()))
same = differ = 0
for path, v in sorted(img.items()):
    ref = by_name.get(os.path.basename(path))
    if ref == v:
        same += 1
    else:
        differ += 1
        print("  DIFFERS %s: image %s, disk %s" % (path, v, ref))
seen = {os.path.basename(p) for p in img}
missed = [n for n in gpu_on_disk if n not in seen]
msg = clauses.get(GPUS[1], {}).get("message", "no clause")
print("check (default) on %s: exit %d; image.gpu_libraries: %s" % (GPUS[1], rc, msg[:400]))
print("GPU libraries judged in the image: %d (%d distinct names); with GPU code on disk: %d "
      "distinct, %d of them not judged in the image%s" %
      (len(img), len(seen), len(gpu_on_disk), len(missed),
       (": " + ", ".join(missed)) if missed else ""))
print("verdicts on %s equal to the same libraries' read from disk: %d of %d (%d differ)" %
      (", ".join(GPUS), same, len(img), differ))
g = best["check (default)"]
for base in ("tar -tf (seeks)", "tar --no-seek -tf", "cat IMAGE | tar -t",
             "tar -tf of every layer"):
    t = best[base]
    print("ratio check / %s: wall %.2f, cpu %.2f (goal < 1)" %
          (base, g[0] / t[0], g[1] / max(t[1], 0.1)))
print("check peak RSS: %.1f MB (goal <= 64 MB)" % (rss["check (default)"] / 1024))
PY
