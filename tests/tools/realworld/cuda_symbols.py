# SPDX-License-Identifier: GPL-2.0-or-later
"""A CUDA library whose sibling's copy lacks a versioned name it needs: torch 1.13.1's
nvidia-cublas-cu11 wheel ships libcublas.so.11 and libcublasLt.so.11 side by side, and
libcublas.so.11 finds libcublasLt.so.11 through DT_RUNPATH $ORIGIN, which LD_LIBRARY_PATH
precedes; an older toolkit's libcublasLt.so.11 there is the copy it gets, and it lacks
cublasLtHSHMatmulAlgoInit@libcublasLt.so.11, so `import torch` fails (NVIDIA's explanation in
pytorch/pytorch#174320). The second fixture is the same machine with LD_LIBRARY_PATH unset."""
from realworld.common import SRC_BASE, base_root, ini, link, mk2, real_world, section, w

TOPIC = "cuda_symbols"
FIXTURES = ("rw-torch113-cublas-wheel-old-cublaslt-on-path",
            "rw-torch113-cublas-wheel-cublaslt-path-unset")

URL = "https://github.com/pytorch/pytorch/pull/174320"
# the report's /home/ubuntu, written /home/user (tests/tools/check-private-refs.py)
HOME = "/home/user"
SITE = f"{HOME}/.local/lib/python3.8/site-packages"
PASTED = (f"OSError: {SITE}/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: undefined "
          "symbol: cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11")
# torch 1.13.1's PyPI METADATA pins (the same four as 1.13.0's, rw-torch113-wheel-cudnn-shadowed)
PINS = ["nvidia-cuda-runtime-cu11 (==11.7.99)", "nvidia-cudnn-cu11 (==8.5.0.96)",
        "nvidia-cublas-cu11 (==11.10.3.66)", "nvidia-cuda-nvrtc-cu11 (==11.7.99)"]
# The names the stand-ins carry: the one the report shows, and two of cublasLt.h's API that
# every cuBLASLt 11 exports (chosen here: what an older copy also defines).
NEEDED = "cublasLtHSHMatmulAlgoInit"
COMMON = "cublasLtCreate,cublasLtMatmul"
UBUNTU2004 = ('NAME="Ubuntu"\nVERSION="20.04.5 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
              'PRETTY_NAME="Ubuntu 20.04.5 LTS"\nVERSION_ID="20.04"\n'
              'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
              'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
              'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')


def tree(name, ld_library_path):
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "550.120")
    w(root, "etc/os-release", UBUNTU2004)
    # an older CUDA 11 toolkit's cuBLASLt, as the report names it: only that file
    mk2.ELF.setdefault(root, []).append(
        ("usr/local/cuda/lib64/libcublasLt.so.11", f"so soname=libcublasLt.so.11 defines={COMMON}"))
    # pip install --user: the user site of Ubuntu 20.04's Python 3.8 (PEP 370)
    w(root, "usr/bin/python3.8", "", 0o755)
    link(root, "usr/bin/python3", "python3.8")
    mk2.torch_dist(root, SITE, "1.13.1", "'11.7'", requires=PINS)
    # torch's library: DT_RPATH into the wheels (the pasted path is $ORIGIN/../../nvidia/cublas/lib
    # of torch/lib), DT_NEEDED libcublas.so.11 and not libcublasLt.so.11 (one it linked would be
    # mapped first from its own run path, the wheel's, and nothing would fail)
    mk2.ELF[root].append(
        (f"{SITE}/torch/lib/libtorch_cuda.so",
         "so soname=libtorch_cuda.so needed=libcublas.so.11 "
         "rpath=$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN"))
    mk2.nvidia_wheel(root, SITE, "nvidia-cublas-cu11", "11.10.3.66", "cublas/lib",
                     ["libcublas.so.11", "libcublasLt.so.11"])
    specs = {f"{SITE}/nvidia/cublas/lib/libcublas.so.11":
             f"so soname=libcublas.so.11 needed=libcublasLt.so.11 uses={NEEDED},{COMMON} "
             "runpath=$ORIGIN",
             f"{SITE}/nvidia/cublas/lib/libcublasLt.so.11":
             f"so soname=libcublasLt.so.11 defines={NEEDED},{COMMON}"}
    mk2.ELF[root] = [(p, specs.get(p, s)) for p, s in mk2.ELF[root]]
    variables = {"PATH": f"{HOME}/.local/bin:/usr/local/sbin:/usr/local/bin:"
                         "/usr/sbin:/usr/bin:/sbin:/bin",
                 "HOME": HOME}
    if ld_library_path:
        variables["LD_LIBRARY_PATH"] = ld_library_path
    return dst, variables


SOURCE = (f"Rebuilt from {URL} (NVIDIA's explanation in that PR: the pip-installed "
          "libcublas.so finds libcublasLt.so through its RUNPATH [$ORIGIN], so a system "
          "libcublasLt.so is used for it and, where its version mismatches, loading fails with "
          "the quoted OSError; the fix preloads the wheel's libcublasLt) and the error it "
          "quotes from https://github.com/pytorch/pytorch/issues/91067 (torch 1.13.1 installed "
          "with pip --user under /home/<user>/.local/lib/python3.8 on Ubuntu 20.04 (the report's "
          "/home/ubuntu is written /home/user here); in that "
          "thread readelf -d of the nvidia-cublas-cu11 wheel's libcublas.so.11 shows RUNPATH "
          "[$ORIGIN]); a system copy can come before that RUNPATH only from LD_LIBRARY_PATH "
          "(ld.so(8)), as the Paddle PR https://github.com/PaddlePaddle/Paddle/pull/78285 "
          "also found for libcublas.so.12; torch 1.13.1's PyPI METADATA pins "
          "(nvidia-cublas-cu11 11.10.3.66 among them); libtorch_cuda.so's DT_RPATH into the "
          "wheels (the pasted path is torch/lib's $ORIGIN/../../nvidia/cublas/lib, found "
          "before LD_LIBRARY_PATH) with DT_NEEDED libcublas.so.11 only; the [elf] stand-ins "
          "(fixture_root.py defines=/uses=) carry cublasLtHSHMatmulAlgoInit, the name the "
          "report shows, under libcublasLt.so.11, and two names chosen here (cublasLtCreate, "
          "cublasLtMatmul, which every cuBLASLt 11 exports); not in the report and chosen here: "
          "the older copy at /usr/local/cuda/lib64 (only its libcublasLt.so.11: the toolkit's "
          "release is not in the thread, so no version.json or other file of it), "
          "LD_LIBRARY_PATH=/usr/local/cuda/lib64, the GPU and driver (#91067's reproduction ran "
          "on a CPU-only EC2 instance and is not rebuilt); " + SRC_BASE)


def old_on_path():
    dst, variables = tree(FIXTURES[0], "/usr/local/cuda/lib64")
    ini(dst, TOPIC,
        "torch 1.13.1 installed with pip --user (Python 3.8, Ubuntu 20.04) with its "
        "nvidia-cublas-cu11 11.10.3.66 wheel; LD_LIBRARY_PATH names /usr/local/cuda/lib64, "
        "whose older libcublasLt.so.11 comes before the wheel's copy libcublas.so.11's "
        "DT_RUNPATH $ORIGIN names and lacks cublasLtHSHMatmulAlgoInit: importing torch fails",
        SOURCE, variables,
        real_world(URL, PASTED,
                   "the nvidia-cublas-cu11 wheel's libcublas.so.11 finds libcublasLt.so.11 "
                   "through DT_RUNPATH $ORIGIN, after LD_LIBRARY_PATH, so an older system "
                   "libcublasLt.so.11 is loaded for it and lacks cublasLtHSHMatmulAlgoInit; "
                   "the wheel's libcublasLt must be the one loaded",
                   "runtime.cuda-library-symbol-missing", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))


def unset():
    dst, variables = tree(FIXTURES[1], None)
    ini(dst, TOPIC,
        "the machine of rw-torch113-cublas-wheel-old-cublaslt-on-path with LD_LIBRARY_PATH "
        "unset: libcublas.so.11 gets the nvidia-cublas-cu11 wheel's libcublasLt.so.11 through "
        "its DT_RUNPATH, which defines what it needs: torch imports",
        SOURCE, variables,
        real_world(URL, "(LD_LIBRARY_PATH unset: the wheel's libcublasLt.so.11 is loaded)",
                   "without LD_LIBRARY_PATH, libcublas.so.11 loads the wheel's libcublasLt, "
                   "which defines what it needs",
                   "none", "none", "no"),
        section("rtx4090-open-module", "devices"))


def write():
    old_on_path()
    unset()
