#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the Python-environment fixture trees (tests/fixtures/python-*/root, scenario.ini).

Run once, review, commit; the goldens then come from
`GPUENV_UPDATE_EXPECTED=1 meson test -C build-test --suite scenarios`. Every file is written
in the format its tool writes it (sources in each scenario.ini): pip's dist-info
(METADATA headers, RECORD rows `path,sha256=<urlsafe b64>,size`, INSTALLER `pip`), venv's
pyvenv.cfg, conda's conda-meta JSON (sorted keys, indent 2), pytorch's generated version.py,
TensorFlow's generated build_info.py, jax's release-rewritten version.py. Package payloads
are reduced to the files gpuenv reads, and every .so other than the stand-ins below is left
out (RECORD still lists them, as pip wrote it). The stand-ins (tiny gcc-built libraries with
the wheels' SONAMEs, the nvcc-built libtorch_cuda.so, the clang-built libtorch_hip.so) are not
written: each scenario.ini's [elf] section describes them and tests/tools/fixture_root.py
builds them at test time. Their RECORD rows carry the hash of that build, made here through
fixture_root.py too (a row without hash where the compiler is missing, said on stderr).

  mk-python-fixtures.py FIXTURES_DIR
"""
import base64
import hashlib
import json
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402

TOP = None
ELF = []  # the [elf] lines of the scenario being written: (path, spec)


def w(path, text, mode=None):
    full = os.path.join(TOP, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    with open(full, "wb") as f:
        f.write(data)
    if mode:
        os.chmod(full, mode)
    return data


def link(path, target):
    full = os.path.join(TOP, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.lexists(full):
        os.unlink(full)
    os.symlink(target, full)


def rec_hash(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={d},{len(data)}"


class Dist:
    """One installed distribution: files written under site, RECORD kept as pip writes it."""

    def __init__(self, site, name, version, metadata, top_level, installer="pip",
                 wheel_gen="bdist_wheel (0.41.2)", tag="cp310-cp310-linux_x86_64"):
        self.site, self.rows = site, []
        self.di = f"{name.replace('-', '_')}-{version}.dist-info"
        self.put(f"{self.di}/METADATA", metadata)
        self.put(f"{self.di}/WHEEL", f"Wheel-Version: 1.0\nGenerator: {wheel_gen}\n"
                 f"Root-Is-Purelib: false\nTag: {tag}\n\n")
        self.put(f"{self.di}/top_level.txt", top_level + "\n")
        self.installer = installer

    def put(self, rel, text):
        data = w(f"{self.site}/{rel}", text)
        self.rows.append(f"{rel},{rec_hash(data)}")

    def listed(self, rel):
        """A file of the wheel left out of the fixture: listed in RECORD only."""
        self.rows.append(f"{rel},,")

    def done(self):
        self.put(f"{self.di}/INSTALLER", self.installer + "\n")
        self.rows.append(f"{self.di}/RECORD,,")
        w(f"{self.site}/{self.di}/RECORD", "\n".join(self.rows) + "\n")


NV_META = """Metadata-Version: 2.1
Name: {name}
Version: {version}
Summary: {summary}
Home-page: https://developer.nvidia.com/cuda-zone
Author: Nvidia CUDA Installer Team
Author-email: cuda_installer@nvidia.com
License: NVIDIA Proprietary Software
Keywords: cuda,nvidia,runtime,machine learning,deep learning
Classifier: Development Status :: 4 - Beta
Classifier: Intended Audience :: Developers
Classifier: Intended Audience :: Education
Classifier: Intended Audience :: Science/Research
Classifier: License :: Other/Proprietary License
Classifier: Natural Language :: English
Classifier: Programming Language :: Python :: 3
Classifier: Programming Language :: Python :: 3.5
Classifier: Programming Language :: Python :: 3.6
Classifier: Programming Language :: Python :: 3.7
Classifier: Programming Language :: Python :: 3.8
Classifier: Programming Language :: Python :: 3.9
Classifier: Programming Language :: Python :: 3.10
Classifier: Programming Language :: Python :: 3.11
Classifier: Programming Language :: Python :: 3 :: Only
Classifier: Topic :: Scientific/Engineering
Classifier: Topic :: Scientific/Engineering :: Mathematics
Classifier: Topic :: Scientific/Engineering :: Artificial Intelligence
Classifier: Topic :: Software Development
Classifier: Topic :: Software Development :: Libraries
Classifier: Operating System :: Microsoft :: Windows
Classifier: Operating System :: POSIX :: Linux
Requires-Python: >=3
License-File: License.txt
{requires}
{summary}
"""

# dist name -> (component dir under nvidia/, libraries, summary)
NV = {
    "nvidia-cuda-runtime-cu12": ("cuda_runtime", ["libcudart.so.12"], "CUDA Runtime native Libraries"),
    "nvidia-cuda-nvrtc-cu12": ("cuda_nvrtc", ["libnvrtc-builtins.so.12.{m}", "libnvrtc.so.12"], "NVRTC native runtime libraries"),
    "nvidia-cuda-cupti-cu12": ("cuda_cupti", ["libcupti.so.12", "libnvperf_host.so", "libnvperf_target.so", "libpcsamplingutil.so"], "CUDA profiling tools runtime libs."),
    "nvidia-cudnn-cu12": ("cudnn", ["libcudnn.so.{cudnn}", "libcudnn_adv.so.{cudnn}", "libcudnn_cnn.so.{cudnn}", "libcudnn_ops.so.{cudnn}"], "cuDNN runtime libraries"),
    "nvidia-cublas-cu12": ("cublas", ["libcublas.so.12", "libcublasLt.so.12", "libnvblas.so.12"], "CUBLAS native runtime libraries"),
    "nvidia-cufft-cu12": ("cufft", ["libcufft.so.11", "libcufftw.so.11"], "CUFFT native runtime libraries"),
    "nvidia-curand-cu12": ("curand", ["libcurand.so.10"], "CURAND native runtime libraries"),
    "nvidia-cusolver-cu12": ("cusolver", ["libcusolver.so.11", "libcusolverMg.so.11"], "CUDA solver native runtime libraries"),
    "nvidia-cusparse-cu12": ("cusparse", ["libcusparse.so.12"], "CUSPARSE native runtime libraries"),
    "nvidia-nccl-cu12": ("nccl", ["libnccl.so.2"], "NVIDIA Collective Communication Library (NCCL) Runtime"),
    "nvidia-nvtx-cu12": ("nvtx", ["libnvToolsExt.so.1"], "NVIDIA Tools Extension"),
    "nvidia-nvjitlink-cu12": ("nvjitlink", ["libnvJitLink.so.12"], "Nvidia JIT LTO Library"),
}


def elf(path, spec):
    """Describes a generated ELF file at path (scenario.ini [elf]); returns its bytes as
    fixture_root.py builds them, or None where the compiler is missing."""
    ELF.append((path, spec))
    with tempfile.TemporaryDirectory() as t:
        try:
            fixture_root.make_elf(os.path.join(t, "f"), path, spec)
        except fixture_root.Missing as e:
            sys.stderr.write(f"{path}: RECORD row without hash: {e}\n")
            return None
        with open(os.path.join(t, "f"), "rb") as f:
            return f.read()


def record_elf(d, rel, spec):
    data = elf(f"{d.site}/{rel}", spec)
    d.rows.append(f"{rel},{rec_hash(data)}" if data is not None else f"{rel},,")


def nvidia_wheel(site, name, version, requires=(), tag="py3-none-manylinux2014_x86_64",
                 real=()):
    comp, libs, summary = NV[name]
    cudnn_major = version.split(".")[0]
    minor = version.split(".")[1]
    req = "".join(f"Requires-Dist: {r}\n" for r in requires)
    d = Dist(site, name, version, NV_META.format(name=name, version=version, summary=summary,
                                                 requires=req), "nvidia", tag=tag,
             wheel_gen="bdist_wheel (0.42.0)")
    d.put("nvidia/__init__.py", "")
    d.rows.append("nvidia/__pycache__/__init__.cpython-310.pyc,,")
    d.put(f"nvidia/{comp}/__init__.py", "")
    d.put(f"nvidia/{comp}/lib/__init__.py", "")
    for lib in libs:
        lib = lib.format(cudnn=cudnn_major, m=minor)
        if lib in real:
            # A file ld.so can open, under the wheel's name and SONAME (wheels hold no links).
            record_elf(d, f"nvidia/{comp}/lib/{lib}", f"so soname={lib}")
        else:
            d.listed(f"nvidia/{comp}/lib/{lib}")
    d.done()


TORCH_META = """Metadata-Version: 2.1
Name: torch
Version: {version}
Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration
Home-page: https://pytorch.org/
Download-URL: https://github.com/pytorch/pytorch/tags
Author: PyTorch Team
Author-email: packages@pytorch.org
License: BSD-3
Keywords: pytorch,machine learning
Classifier: Development Status :: 5 - Production/Stable
Classifier: Intended Audience :: Developers
Classifier: Intended Audience :: Education
Classifier: Intended Audience :: Science/Research
Classifier: License :: OSI Approved :: BSD License
Classifier: Topic :: Scientific/Engineering
Classifier: Topic :: Scientific/Engineering :: Mathematics
Classifier: Topic :: Scientific/Engineering :: Artificial Intelligence
Classifier: Topic :: Software Development
Classifier: Topic :: Software Development :: Libraries
Classifier: Topic :: Software Development :: Libraries :: Python Modules
Classifier: Programming Language :: C++
Classifier: Programming Language :: Python :: 3
Requires-Python: >=3.8.0
Description-Content-Type: text/markdown
License-File: LICENSE
License-File: NOTICE
Requires-Dist: filelock
Requires-Dist: typing-extensions>=4.8.0
Requires-Dist: sympy
Requires-Dist: networkx
Requires-Dist: jinja2
Requires-Dist: fsspec
{requires}Provides-Extra: opt-einsum
Requires-Dist: opt-einsum>=3.3; extra == "opt-einsum"
Provides-Extra: optree
Requires-Dist: optree>=0.11.0; extra == "optree"

![PyTorch Logo](https://github.com/pytorch/pytorch/raw/main/docs/source/_static/img/pytorch-logo-dark.png)

--------------------------------------------------------------------------------

PyTorch is a Python package that provides two high-level features:
- Tensor computation (like NumPy) with strong GPU acceleration
- Deep neural networks built on a tape-based autograd system
"""

TORCH_VERSION_PY = """from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '{version}'
debug = False
cuda: Optional[str] = {cuda}
git_version = '{git}'
hip: Optional[str] = {hip}
"""

LINUX = 'platform_system == "Linux" and platform_machine == "x86_64"'


def torch_dist(site, version, cuda, hip, git, pins, extra_requires="", tag="cp310-cp310-linux_x86_64",
               bundled=(), kernel_so=None, hip_so=None):
    req = "".join(f"Requires-Dist: {p}; {LINUX}\n" for p in pins) + extra_requires
    d = Dist(site, "torch", version, TORCH_META.format(version=version, requires=req), "functorch\ntorch\ntorchgen",
             tag=tag, wheel_gen="bdist_wheel (0.43.0)")
    q = lambda v: "None" if v is None else f"'{v}'"
    d.put("torch/version.py", TORCH_VERSION_PY.format(version=version, cuda=q(cuda), hip=q(hip), git=git))
    d.put("torch/__init__.py", "")
    # The libraries gpuenv only lists: zero-length files under their real names.
    for lib in ["libc10.so", "libshm.so", "libtorch.so", "libtorch_cpu.so", "libtorch_global_deps.so",
                "libtorch_python.so"] + list(bundled):
        w(f"{site}/torch/lib/{lib}", b"")
        d.listed(f"torch/lib/{lib}")
    if hip and not hip_so:
        d.listed("torch/lib/libtorch_hip.so")
    if hip_so:
        record_elf(d, "torch/lib/libtorch_hip.so", hip_so)
    if kernel_so:
        record_elf(d, "torch/lib/libtorch_cuda.so", kernel_so)
    d.done()


def venv(prefix, version, home="/usr/bin", exe="python3.10"):
    w(f"{prefix}/pyvenv.cfg", f"home = {home}\ninclude-system-site-packages = false\nversion = {version}\n")
    link(f"{prefix}/bin/python", f"{home}/python3")
    link(f"{prefix}/bin/python3", "python")
    link(f"{prefix}/bin/{exe}", "python")
    w(f"{prefix}/bin/activate", f"# This file must be used with \"source bin/activate\" *from bash*\n"
      f"VIRTUAL_ENV=\"{prefix}\"\nexport VIRTUAL_ENV\n")


def system_python(exe="python3.10", prefix="/usr"):
    # The interpreter itself is not read by gpuenv: a zero-length stand-in.
    w(f"{prefix}/bin/{exe}", b"", 0o755)
    link(f"{prefix}/bin/python3", exe)


def os_release(pretty, ident, vid):
    w("/etc/os-release", f'PRETTY_NAME="{pretty}"\nNAME="{pretty.split()[0]}"\nVERSION_ID="{vid}"\nID={ident}\n')


def scenario(name, description, source, env, args="--no-vendor"):
    if "mk-python-fixtures.py" not in source:
        source += "; the tree is written by tests/tools/mk-python-fixtures.py"
    if ELF:
        source += ("; its ELF files are not committed: [elf] describes them and "
                   "tests/tools/fixture_root.py builds them at test time")
    lines = ["[scenario]", f"description = {description}", f"source = {source}", f"args = {args}", "", "[env]"]
    lines += [f"{k}={v}" for k, v in env.items()]
    if ELF:
        lines += ["", "[elf]"] + [f"{p} = {spec}" for p, spec in ELF]
    with open(os.path.join(TOP, "..", "scenario.ini"), "w") as f:
        f.write("\n".join(lines) + "\n")


def begin(fixtures, name):
    global TOP
    base = os.path.join(fixtures, name)
    TOP = os.path.join(base, "root")
    ELF.clear()
    if os.path.exists(TOP):
        shutil.rmtree(TOP)
    os.makedirs(TOP)


# ---- scenarios ------------------------------------------------------------------------------

CU124_PINS = ["nvidia-cuda-nvrtc-cu12==12.4.99", "nvidia-cuda-runtime-cu12==12.4.99",
              "nvidia-cuda-cupti-cu12==12.4.99", "nvidia-cudnn-cu12==9.1.0.70",
              "nvidia-cublas-cu12==12.4.2.65", "nvidia-cufft-cu12==11.2.0.44",
              "nvidia-curand-cu12==10.3.5.119", "nvidia-cusolver-cu12==11.6.0.99",
              "nvidia-cusparse-cu12==12.3.0.142", "nvidia-nccl-cu12==2.20.5",
              "nvidia-nvtx-cu12==12.4.99", "nvidia-nvjitlink-cu12==12.4.99"]

CU121_PINS = ["nvidia-cuda-nvrtc-cu12==12.1.105", "nvidia-cuda-runtime-cu12==12.1.105",
              "nvidia-cuda-cupti-cu12==12.1.105", "nvidia-cudnn-cu12==8.9.2.26",
              "nvidia-cublas-cu12==12.1.3.1", "nvidia-cufft-cu12==11.0.2.54",
              "nvidia-curand-cu12==10.3.2.106", "nvidia-cusolver-cu12==11.4.5.107",
              "nvidia-cusparse-cu12==12.1.0.106", "nvidia-nccl-cu12==2.19.3",
              "nvidia-nvtx-cu12==12.1.105"]


def pins_to_wheels(site, pins, extra=(), real=()):
    for p in list(pins) + list(extra):
        name, ver = p.split("==")
        reqs = []
        if name == "nvidia-cusolver-cu12":
            reqs = ["nvidia-cublas-cu12", "nvidia-nvjitlink-cu12", "nvidia-cusparse-cu12"]
        elif name == "nvidia-cusparse-cu12":
            reqs = ["nvidia-nvjitlink-cu12"]
        elif name == "nvidia-cudnn-cu12":
            reqs = ["nvidia-cublas-cu12"]
        nvidia_wheel(site, name, ver, reqs, real=real)


def venv_torch24(fixtures):
    begin(fixtures, "python-venv-torch24-cu124")
    os_release("Ubuntu 22.04.4 LTS", "ubuntu", "22.04")
    system_python()
    w("/usr/local/cuda-11.8/version.json", json.dumps({
        "cuda": {"name": "CUDA SDK", "version": "11.8.0"},
        "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "11.8.89"},
        "cuda_nvcc": {"name": "CUDA NVCC", "version": "11.8.89"}}, indent=3) + "\n")
    w("/usr/local/cuda-11.8/bin/nvcc", b"", 0o755)
    # The toolkit's runtime libraries as the CUDA 11.8 runfile lays them out: lib64 ->
    # targets/x86_64-linux/lib, soname links to the versioned files (component versions of the
    # CUDA 11.8.0 release notes). libcurand.so.10 and libnvToolsExt.so.1 share their sonames
    # with the cu12 wheels: the ones LD_LIBRARY_PATH offers and torch's DT_RPATH overrides.
    tl = "/usr/local/cuda-11.8/targets/x86_64-linux/lib"
    link("/usr/local/cuda-11.8/lib64", "targets/x86_64-linux/lib")
    for soname, real in [("libcudart.so.11.0", "libcudart.so.11.8.89"),
                         ("libcublas.so.11", "libcublas.so.11.11.3.6"),
                         ("libcublasLt.so.11", "libcublasLt.so.11.11.3.6"),
                         ("libcufft.so.10", "libcufft.so.10.9.0.58"),
                         ("libcurand.so.10", "libcurand.so.10.3.0.86"),
                         ("libcusparse.so.11", "libcusparse.so.11.7.5.86"),
                         ("libnvToolsExt.so.1", "libnvToolsExt.so.1.0.0")]:
        elf(f"{tl}/{real}", f"so soname={soname}")
        link(f"{tl}/{soname}", real)
        link(f"{tl}/{soname.split('.so')[0]}.so", soname)
    link("/usr/local/cuda", "/usr/local/cuda-11.8")
    v = "/home/user/venv"
    venv(v, "3.10.12")
    site = f"{v}/lib/python3.10/site-packages"
    torch_dist(site, "2.4.0+cu124", "12.4", None, "e4ee3be4063b7c430974252fdf7db42273388d86",
               CU124_PINS, 'Requires-Dist: triton==3.0.0; platform_system == "Linux" and '
               'platform_machine == "x86_64" and python_version < "3.13"\n', kernel_so=LIBTORCH_CUDA)
    # The libraries libtorch_cuda.so's DT_NEEDED asks for, as tiny ELF files with their SONAMEs.
    pins_to_wheels(site, CU124_PINS, real={
        "libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcudnn.so.9",
        "libnccl.so.2", "libcusparse.so.12", "libcufft.so.11", "libcurand.so.10",
        "libnvToolsExt.so.1"})
    scenario("python-venv-torch24-cu124",
             "venv (Ubuntu 22.04, Python 3.10) with torch 2.4.0+cu124 and its nvidia-*-cu12 wheels; the system toolkit /usr/local/cuda is 11.8, first on PATH and on LD_LIBRARY_PATH, but libtorch_cuda.so's DT_RPATH (searched before LD_LIBRARY_PATH) points at site-packages/nvidia: the wheels win, also over the toolkit's libcurand.so.10 and libnvToolsExt.so.1",
             "torch version.py as tools/generate_torch_version.py writes it (2.4.0 git_version from real 2.4.0 installs); METADATA head and Requires-Dist pins of the download.pytorch.org cu124 wheel (pins as pip logs of torch==2.4.0 show them); nvidia-* METADATA/RECORD in pip's format; pyvenv.cfg as Python 3.10's venv writes it; torch/lib/libtorch_cuda.so is a 31 KB stand-in built by nvcc 13.0 (sm_75, sm_80, sm_86, sm_90, compute_90 PTX: the real cu124 wheel also has sm_50/60/70, which nvcc 13 cannot target) with the real wheel's SONAME, DT_NEEDED subset and DT_RPATH; torch's other libraries are zero-length files under their real names; the nvidia libraries libtorch_cuda.so needs are tiny gcc-built ELF files with the wheels' file names and SONAMEs (nvidia_pip_packages.tsv), the others are listed in RECORD only; CUDA 11.8 version.json as NVIDIA ships it, and its lib64 -> targets/x86_64-linux/lib with soname links to files named by the CUDA 11.8.0 release notes' component versions (tiny ELF stand-ins); LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64 as the CUDA 11.8 installation guide's post-installation actions set it",
             {"PATH": "/home/user/venv/bin:/usr/local/cuda/bin:/usr/bin:/bin", "VIRTUAL_ENV": v,
              "HOME": "/home/user", "LD_LIBRARY_PATH": "/usr/local/cuda-11.8/lib64"})


def conda_json(prefix, name, version, build, channel, depends, files, subdir="linux-64",
               requested=None):
    fn = f"{name}-{version}-{build}.conda"
    rec = {
        "build": build, "build_number": 0, "channel": f"https://conda.anaconda.org/{channel}/{subdir}",
        "constrains": [], "depends": depends,
        "extracted_package_dir": f"/opt/conda/pkgs/{name}-{version}-{build}",
        "files": files, "fn": fn, "license": "", "link": {"source": f"/opt/conda/pkgs/{name}-{version}-{build}", "type": 1},
        "md5": hashlib.md5(fn.encode()).hexdigest(), "name": name,
        "package_tarball_full_path": f"/opt/conda/pkgs/{fn}",
        "paths_data": {"paths": [{"_path": p, "path_type": "hardlink", "size_in_bytes": 0} for p in files],
                       "paths_version": 1},
        "requested_spec": requested or "None", "sha256": hashlib.sha256(fn.encode()).hexdigest(),
        "size": 0, "subdir": subdir, "timestamp": 1707300000000, "track_features": "",
        "url": f"https://conda.anaconda.org/{channel}/{subdir}/{fn}", "version": version,
    }
    w(f"{prefix}/conda-meta/{name}-{version}-{build}.json", json.dumps(rec, indent=2, sort_keys=True) + "\n")


def conda_torch_cu121(fixtures):
    begin(fixtures, "python-conda-torch-cu121")
    os_release("Ubuntu 22.04.4 LTS", "ubuntu", "22.04")
    base, env = "/opt/conda", "/opt/conda/envs/ml"
    w(f"{base}/conda-meta/history", "==> 2024-03-01 10:00:00 <==\n# cmd: /opt/conda/bin/conda create -n ml python=3.11\n")
    conda_json(base, "python", "3.11.5", "h955ad1f_0", "pkgs/main",
               ["bzip2 >=1.0.8,<2.0a0", "libffi >=3.4,<4.0a0"], ["bin/python3.11"])
    system_python("python3.11", base)
    w(f"{env}/conda-meta/history", "==> 2024-03-01 10:01:00 <==\n# cmd: /opt/conda/bin/conda create -n ml python=3.11\n")
    conda_json(env, "python", "3.11.8", "hab00c5b_0_cpython", "conda-forge",
               ["bzip2 >=1.0.8,<2.0a0", "ld_impl_linux-64 >=2.36.1", "libffi >=3.4,<4.0a0"],
               ["bin/python3.11"], requested="python=3.11")
    conda_json(env, "pip", "24.0", "pyhd8ed1ab_0", "conda-forge", ["python >=3.7"],
               ["lib/python3.11/site-packages/pip/__init__.py"], subdir="noarch")
    system_python("python3.11", env)
    site = f"{env}/lib/python3.11/site-packages"
    torch_dist(site, "2.2.2+cu121", "12.1", None, "39901f229520a5256505ec24782f716ee7ddc843",
               CU121_PINS, 'Requires-Dist: triton==2.2.0; platform_system == "Linux" and '
               'platform_machine == "x86_64" and python_version < "3.12"\n', tag="cp311-cp311-linux_x86_64")
    pins_to_wheels(site, CU121_PINS, ["nvidia-nvjitlink-cu12==12.4.127"])
    scenario("python-conda-torch-cu121",
             "conda env /opt/conda/envs/ml (CONDA_PREFIX, Python 3.11 from conda-forge) with torch 2.2.2+cu121 and nvidia-*-cu12 wheels installed by pip; the conda base env beside it",
             "conda-meta records in conda's format (sorted keys, indent 2; files/paths_data trimmed); torch 2.2.2+cu121 version.py (git_version of the 2.2.2 release) and METADATA with the cu121 pins (cuDNN 8.9.2.26, NCCL 2.19.3) of pytorch's generate_binary_build_matrix.py for 2.2; nvjitlink 12.4.127 pulled by cusolver; torch/lib holds zero-length files under the real names, libtorch_cuda.so is not included (recorded absent)",
             {"PATH": f"{env}/bin:/opt/conda/condabin:/usr/bin:/bin", "CONDA_PREFIX": env,
              "CONDA_DEFAULT_ENV": "ml", "HOME": "/root"})


TF_BUILD_INFO = '''# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict([('cpu_compiler', '/usr/lib/llvm-16/bin/clang'), ('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '12.2'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])
'''

TF_META = """Metadata-Version: 2.1
Name: tensorflow
Version: 2.15.0
Summary: TensorFlow is an open source machine learning framework for everyone.
Home-page: https://www.tensorflow.org/
Download-URL: https://github.com/tensorflow/tensorflow/tags
Author: Google Inc.
Author-email: packages@tensorflow.org
License: Apache 2.0
Keywords: tensorflow tensor machine learning
Classifier: Development Status :: 5 - Production/Stable
Classifier: Environment :: GPU :: NVIDIA CUDA :: 12
Classifier: Environment :: GPU :: NVIDIA CUDA :: 12 :: 12.2
Classifier: Programming Language :: Python :: 3.11
Requires-Python: >=3.9
Description-Content-Type: text/markdown
Requires-Dist: absl-py >=1.0.0
Requires-Dist: numpy <2.0.0,>=1.23.5
Requires-Dist: tensorboard <2.16,>=2.15
Requires-Dist: keras <2.16,>=2.15.0
Provides-Extra: and-cuda
Requires-Dist: nvidia-cublas-cu12 ==12.2.5.6 ; extra == 'and-cuda'
Requires-Dist: nvidia-cuda-cupti-cu12 ==12.2.142 ; extra == 'and-cuda'
Requires-Dist: nvidia-cuda-nvcc-cu12 ==12.2.140 ; extra == 'and-cuda'
Requires-Dist: nvidia-cuda-nvrtc-cu12 ==12.2.140 ; extra == 'and-cuda'
Requires-Dist: nvidia-cuda-runtime-cu12 ==12.2.140 ; extra == 'and-cuda'
Requires-Dist: nvidia-cudnn-cu12 ==8.9.4.25 ; extra == 'and-cuda'
Requires-Dist: nvidia-cufft-cu12 ==11.0.8.103 ; extra == 'and-cuda'
Requires-Dist: nvidia-curand-cu12 ==10.3.3.141 ; extra == 'and-cuda'
Requires-Dist: nvidia-cusolver-cu12 ==11.5.2.141 ; extra == 'and-cuda'
Requires-Dist: nvidia-cusparse-cu12 ==12.1.2.141 ; extra == 'and-cuda'
Requires-Dist: nvidia-nccl-cu12 ==2.16.5 ; extra == 'and-cuda'
Requires-Dist: nvidia-nvjitlink-cu12 ==12.2.140 ; extra == 'and-cuda'
Requires-Dist: tensorrt ==8.6.1.post1 ; extra == 'and-cuda'
Requires-Dist: tensorrt-bindings ==8.6.1 ; extra == 'and-cuda'
Requires-Dist: tensorrt-libs ==8.6.1 ; extra == 'and-cuda'

[![Python](https://img.shields.io/pypi/pyversions/tensorflow.svg?style=plastic)](https://badge.fury.io/py/tensorflow)
"""


def tf215(fixtures):
    begin(fixtures, "python-tf215")
    w("/etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n')
    system_python("python3.11", "/usr/local")
    site = "/usr/local/lib/python3.11/site-packages"
    d = Dist(site, "tensorflow", "2.15.0", TF_META, "tensorflow", tag="cp311-cp311-manylinux_2_17_x86_64",
             wheel_gen="bdist_wheel (0.41.3)")
    d.put("tensorflow/python/platform/build_info.py", TF_BUILD_INFO)
    d.put("tensorflow/__init__.py", "")
    for so in ["tensorflow/libtensorflow_cc.so.2", "tensorflow/libtensorflow_framework.so.2",
               "tensorflow/python/_pywrap_tensorflow_internal.so"]:
        d.listed(so)
    d.done()
    # The and-cuda wheels of the libraries TensorFlow opens by name (dso_loader.cc: cudart,
    # cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE, cuDNN), at the versions its METADATA pins.
    for name, ver, req in [("nvidia-cuda-runtime-cu12", "12.2.140", []),
                           ("nvidia-cudnn-cu12", "8.9.4.25", ["nvidia-cublas-cu12"]),
                           ("nvidia-cublas-cu12", "12.2.5.6", []),
                           ("nvidia-cufft-cu12", "11.0.8.103", []),
                           ("nvidia-curand-cu12", "10.3.3.141", []),
                           ("nvidia-cusolver-cu12", "11.5.2.141",
                            ["nvidia-cublas-cu12", "nvidia-nvjitlink-cu12", "nvidia-cusparse-cu12"]),
                           ("nvidia-cusparse-cu12", "12.1.2.141", ["nvidia-nvjitlink-cu12"])]:
        nvidia_wheel(site, name, ver, req)
    scenario("python-tf215",
             "python:3.11 image layout (/usr/local) with tensorflow[and-cuda]==2.15.0: build_info says CUDA 12.2, cuDNN 8, sm_35…sm_75 + compute_80; the seven of its nvidia-*-cu12 wheels whose libraries TensorFlow opens by name",
             "build_info.py in the form tensorflow/tools/build_info/gen_build_info.py writes (collections.OrderedDict of the sorted items; TF 2.15 Linux values: CUDA 12.2 / cuDNN 8 per tensorflow/docs tested configurations, compute capabilities of TF's .bazelrc, clang 16 as in 2.14/2.15 builds); METADATA pins of the and-cuda extra of tensorflow 2.15.0; the TensorFlow shared objects are listed in RECORD only (kernel_library recorded absent)",
             {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"})


def jax_version_py(v):
    return f'''# Copyright 2018 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");

# This file is included as part of both jax and jaxlib. It is also
# eval()-ed by setup.py, so it should not have any dependencies.
from __future__ import annotations

import datetime
import os
import pathlib
import subprocess

_version = "{v}"
# The following line is overwritten by build scripts in distributions &
# releases. Do not modify this manually, or jax/jaxlib build will fail.
_release_version: str = '{v}'

# The following line is overwritten by build scripts in distributions &
# releases. Do not modify this manually, or jax/jaxlib build will fail.
_git_hash: str | None = None

def _get_version_string() -> str:
  # The build/source distribution for jax & jaxlib overwrites _release_version.
  # In this case we return it directly.
  if _release_version is not None:
    return _release_version
  return _version_from_git_tree(_version) or _version_from_todays_date(_version)


def _write_version(fname: str) -> None:
  """Used by setup.py to write the specified version info into the source tree."""
  release_version = _get_version_for_build()
  old_version_string = "_release_version: str = '{v}'"
  new_version_string = f"_release_version: str = {{release_version!r}}"


__version__ = _get_version_string()
_minimum_jaxlib_version = "{v}"

def _version_as_tuple(version_str):
  return tuple(int(i) for i in version_str.split(".") if i.isdigit())

__version_info__ = _version_as_tuple(__version__)
_minimum_jaxlib_version_info = _version_as_tuple(_minimum_jaxlib_version)
'''


def jax_meta(name, v, summary, requires):
    req = "".join(f"Requires-Dist: {r}\n" for r in requires)
    return (f"Metadata-Version: 2.1\nName: {name}\nVersion: {v}\nSummary: {summary}\n"
            f"Home-page: https://github.com/jax-ml/jax\nAuthor: JAX team\nAuthor-email: jax-dev@google.com\n"
            f"License: Apache-2.0\nClassifier: Development Status :: 5 - Production/Stable\n"
            f"Classifier: Programming Language :: Python :: 3.12\nRequires-Python: >=3.10\n"
            f"License-File: LICENSE\n{req}\n")


def jax_cuda12(fixtures):
    begin(fixtures, "python-jax-cuda12")
    os_release("Ubuntu 24.04.1 LTS", "ubuntu", "24.04")
    system_python("python3.12")
    v = "/home/user/.venvs/jax"
    venv(v, "3.12.3", exe="python3.12")
    w(f"{v}/pyvenv.cfg", f"home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n"
      f"executable = /usr/bin/python3.12\ncommand = /usr/bin/python3 -m venv {v}\n")
    site = f"{v}/lib/python3.12/site-packages"
    V = "0.5.0"
    d = Dist(site, "jax", V, jax_meta("jax", V, "Differentiate, compile, and transform Numpy code.",
                                      [f"jaxlib<={V},>={V}", "ml_dtypes>=0.4.0", "numpy>=1.25",
                                       "opt_einsum", "scipy>=1.11.1",
                                       f'jax-cuda12-plugin[with_cuda]<={V},>={V}; extra == "cuda12"',
                                       f'jaxlib=={V}; extra == "cuda12"']), "jax", tag="py3-none-any")
    d.put("jax/version.py", jax_version_py(V))
    d.done()
    d = Dist(site, "jaxlib", V, jax_meta("jaxlib", V, "XLA library for JAX",
                                         ["scipy>=1.11.1", "numpy>=1.25", "ml_dtypes>=0.2.0"]),
             "jaxlib", tag="cp312-cp312-manylinux2014_x86_64")
    d.put("jaxlib/version.py", jax_version_py(V))
    d.listed("jaxlib/xla_extension.so")
    d.done()
    d = Dist(site, "jax-cuda12-plugin", V, jax_meta(
        "jax-cuda12-plugin", V, "JAX Plugin for NVIDIA GPUs",
        [f"jax-cuda12-pjrt=={V}", 'nvidia-cublas-cu12>=12.1.3.1; extra == "with-cuda"',
         'nvidia-cuda-runtime-cu12>=12.1.105; extra == "with-cuda"',
         'nvidia-cudnn-cu12<10.0,>=9.1; extra == "with-cuda"']),
        "jax_cuda12_plugin", tag="cp312-cp312-manylinux2014_x86_64")
    d.put("jax_cuda12_plugin/version.py", jax_version_py(V))
    for so in ["_versions", "cuda_plugin_extension", "_solver", "_linalg", "_prng", "_rnn", "_sparse"]:
        d.listed(f"jax_cuda12_plugin/{so}.so")
    d.done()
    d = Dist(site, "jax-cuda12-pjrt", V, jax_meta("jax-cuda12-pjrt", V, "JAX XLA PJRT Plugin for NVIDIA GPUs", []),
             "jax_plugins", tag="py3-none-manylinux2014_x86_64")
    d.put("jax_plugins/xla_cuda12/__init__.py", "")
    d.listed("jax_plugins/xla_cuda12/xla_cuda_plugin.so")
    d.done()
    for name, ver in [("nvidia-cuda-runtime-cu12", "12.8.57"), ("nvidia-cudnn-cu12", "9.7.1.26"),
                      ("nvidia-cublas-cu12", "12.8.3.14")]:
        nvidia_wheel(site, name, ver, ["nvidia-cublas-cu12"] if "cudnn" in name else [])
    # nvidia-cuda-nvcc-cu12 (CUDA 12.8.0's 12.8.61): the ptxas and libdevice XLA compiles
    # with (src/probe/framework-xla.c); stand-in files, only their places are read
    d = Dist(site, "nvidia-cuda-nvcc-cu12", "12.8.61",
             NV_META.format(name="nvidia-cuda-nvcc-cu12", version="12.8.61",
                            summary="CUDA nvcc", requires=""), "nvidia",
             tag="py3-none-manylinux2014_x86_64", wheel_gen="bdist_wheel (0.42.0)")
    d.put("nvidia/cuda_nvcc/__init__.py", "")
    d.put("nvidia/cuda_nvcc/bin/ptxas", "")
    w(f"{site}/nvidia/cuda_nvcc/bin/ptxas", "", 0o755)
    d.put("nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc", "")
    d.done()
    scenario("python-jax-cuda12",
             "venv (Ubuntu 24.04, Python 3.12) with jax[cuda12] 0.5.0: jaxlib, jax-cuda12-plugin, jax-cuda12-pjrt and nvidia-*-cu12 wheels; XLA's plugin library is not in the fixture (recorded absent)",
             "jax/jaxlib version.py as the 0.5.0 release build leaves it (_release_version written, as seen in installed copies), plugin METADATA per jax_plugins/cuda/plugin_setup.py and jaxlib/tools/build_gpu_kernels_wheel.py (package layout), pyvenv.cfg with the executable/command lines Python >= 3.11 writes",
             {"PATH": f"{v}/bin:/usr/bin:/bin", "VIRTUAL_ENV": v, "HOME": "/home/user"})


def rocm62(fixtures):
    begin(fixtures, "python-rocm62-torch")
    os_release("Ubuntu 22.04.4 LTS", "ubuntu", "22.04")
    system_python()
    w("/opt/rocm-6.2.0/.info/version", "6.2.0-66\n")
    link("/opt/rocm", "/etc/alternatives/rocm")
    link("/etc/alternatives/rocm", "/opt/rocm-6.2.0")
    v = "/home/user/venv-rocm"
    venv(v, "3.10.12")
    site = f"{v}/lib/python3.10/site-packages"
    bundled = ["libamdhip64.so", "libhipblas.so", "libhipblaslt.so", "libhipfft.so", "libhiprand.so",
               "libhipsolver.so", "libhipsparse.so", "libhsa-runtime64.so", "libMIOpen.so",
               "librccl.so", "librocblas.so", "librocfft.so", "librocrand.so", "librocsolver.so",
               "librocsparse.so", "libroctracer64.so", "libroctx64.so"]
    torch_dist(site, "2.5.1+rocm6.2", None, "6.2.41133-dd7f95766", "a8d6afb511a69687bbb2b7e88a3cf67917e1697e",
               [], 'Requires-Dist: pytorch-triton-rocm==3.1.0; platform_system == "Linux" and '
               'platform_machine == "x86_64"\n', bundled=bundled, hip_so=LIBTORCH_HIP)
    scenario("python-rocm62-torch",
             "ROCm 6.2.0 machine (/opt/rocm -> /etc/alternatives/rocm -> /opt/rocm-6.2.0) with torch 2.5.1+rocm6.2 from download.pytorch.org/whl/rocm6.2 in a venv",
             "torch version.py of the rocm6.2 wheel (hip '6.2.41133-dd7f95766' = ROCm 6.2.0's HIP version, cuda None, 2.5.1 git_version; the hip string and git hash are UNVERIFIED: not checked against a downloaded wheel); the ROCm wheels bundle the ROCm user-space libraries in torch/lib: they are zero-length files under their real names here; torch/lib/libtorch_hip.so is a 76 KB stand-in built by tests/tools/mk-python-fixtures.py build_libtorch_hip(): two HIP translation units (one kernel each) compiled by clang 15 (--offload-device-only --no-gpu-bundle-output, code object v4) for gfx900, gfx906, gfx908, gfx90a, gfx1030, gfx1100 (the wheel's list minus gfx942, which LLVM 15 cannot target; plain target IDs, as PYTORCH_ROCM_ARCH builds spell them), each set bundled by clang-offload-bundler 14 (-type=o, -bundle-align=4096, host-x86_64-unknown-linux + hipv4-amdgcn-amd-amdhsa--<gfx>) and embedded by clang's own HIP host compile (-fcuda-include-gpubinary: .hip_fatbin + .hipFatBinSegment), linked with SONAME libtorch_hip.so (the real library's DT_NEEDED on libamdhip64.so, libMIOpen.so ... is not reproduced); /opt/rocm-6.2.0/.info/version as the ROCm 6.2.0 packages install it",
             {"PATH": f"{v}/bin:/opt/rocm/bin:/usr/bin:/bin", "VIRTUAL_ENV": v, "HOME": "/home/user"})


def bad_input(fixtures):
    begin(fixtures, "python-bad-input")
    os_release("Ubuntu 22.04.4 LTS", "ubuntu", "22.04")
    system_python()
    v = "/home/user/venv"
    venv(v, "3.10.12")
    site = f"{v}/lib/python3.10/site-packages"
    # torch: version.py cut in the middle of __version__, METADATA with no Version header.
    w(f"{site}/torch/version.py", "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.4.0+cu1")
    w(f"{site}/torch-2.4.0+cu124.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\n\x00\x00\x00\x00garbage")
    w(f"{site}/torch-2.4.0+cu124.dist-info/INSTALLER", "pip\n")
    # A truncated ELF where libtorch_cuda.so should be.
    w(f"{site}/torch/lib/libtorch_cuda.so", b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 24)
    # tensorflow -> tensorflow: a symlink loop in site-packages.
    link(f"{site}/tensorflow", "tensorflow")
    # An nvidia wheel whose RECORD is gone and whose METADATA lost its Version.
    w(f"{site}/nvidia_cuda_runtime_cu12-12.4.99.dist-info/METADATA", "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\n")
    w(f"{site}/nvidia_cuda_runtime_cu12-12.4.99.dist-info/INSTALLER", "pip\n")
    # A conda env: its pytorch record is cut short and its site-packages is a loop.
    c = "/opt/conda/envs/broken"
    w(f"{c}/conda-meta/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json", '{\n  "build": "py3.11_cuda12.1_cudnn8.9.2_0",\n  "build_number": 0,\n  "channel": "https://conda.anaconda.org/pytorch/linux-64",\n  "files": [\n    "lib/python3.11/site-packages/torch/__init__.py",\n')
    link(f"{c}/lib/python3.11/site-packages", "site-packages")
    scenario("python-bad-input",
             "Broken Python installs: truncated torch/version.py, METADATA without Version and with NUL bytes, a 32-byte libtorch_cuda.so, a tensorflow -> tensorflow symlink loop, an nvidia wheel without RECORD, a truncated conda-meta record and a site-packages directory that links to itself: each becomes a recorded state",
             "hand-made damage on the layouts of python-venv-torch24-cu124 and python-conda-torch-cu121 (pip dist-info, conda-meta); file contents cut at arbitrary points",
             {"PATH": f"{v}/bin:/usr/bin:/bin", "VIRTUAL_ENV": v, "CONDA_PREFIX": c, "HOME": "/home/user"})


# The stand-in for libtorch_cuda.so (fixture_root.py [elf] kind cuda): one kernel for
# sm_75/80/86/90 + compute_90 PTX, its host launcher, libtorch_cuda.so's SONAME, a subset of its
# DT_NEEDED and the DT_RPATH of pytorch's .ci/manywheel/build_cuda.sh.
LIBTORCH_CUDA = ("cuda soname=libtorch_cuda.so sass=75,80,86,90 ptx=90 needed=" + ",".join(
    ["libc10_cuda.so", "libc10.so", "libtorch_cpu.so", "libcudart.so.12", "libcublas.so.12",
     "libcublasLt.so.12", "libcudnn.so.9", "libnccl.so.2", "libcusparse.so.12", "libcufft.so.11",
     "libcurand.so.10", "libnvToolsExt.so.1"]) + " rpath=" + ":".join(
    f"$ORIGIN/../../nvidia/{c}/lib" for c in
    ["cublas", "cuda_cupti", "cuda_nvrtc", "cuda_runtime", "cudnn", "cufft", "curand", "cusolver",
     "cusparse", "nccl", "nvtx"]) + ":$ORIGIN launch")

# The ROCm stand-in (kind hip): code objects for the wheel's targets LLVM 15 can build.
LIBTORCH_HIP = "hip soname=libtorch_hip.so gfx=gfx900,gfx906,gfx908,gfx90a,gfx1030,gfx1100"


def main():
    fixtures = os.path.abspath(sys.argv[1])
    venv_torch24(fixtures)
    conda_torch_cu121(fixtures)
    tf215(fixtures)
    jax_cuda12(fixtures)
    rocm62(fixtures)
    bad_input(fixtures)


if __name__ == "__main__":
    main()
