# SPDX-License-Identifier: GPL-2.0-or-later
"""JAX's CUDA plugin and an older nvJitLink on LD_LIBRARY_PATH: jax-cuda12-plugin's modules
open libcusparse.so.12 from the nvidia-cusparse-cu12 wheel (their DT_RPATH into site-packages/
nvidia), and that libcusparse needs the nvJitLink entry points of its own CUDA release; a
toolkit's older libnvJitLink.so.12 on LD_LIBRARY_PATH comes before the copy its DT_RUNPATH
names (the nvidia-nvjitlink-cu12 wheel), cuSPARSE does not load, and the plugin's version check
says "Unable to load cuSPARSE" and JAX falls back to the CPU (runtime.nvjitlink-older-than-
library). The thread's fix, LD_LIBRARY_PATH unset, is the third fixture. Written by
tests/tools/mk-real-world-fixtures.py jax_nvjitlink."""
from realworld.common import SRC_BASE, base_root, ini, link, mk2, real_world, section, w
from realworld.nvjitlink import names, wheel
from realworld.xla import nvcc_wheel

TOPIC = "jax_nvjitlink"
FIXTURES = ("rw-jax061-cusparse-nvjitlink-cuda121-jax-28929",
            "rw-jax061-cusparse-nvjitlink-unset-jax-28929",
            "rw-jax062-cusparse-nvjitlink-hpcsdk-jax-30050")
BASE = "rtx4090-open-module"
URL = "https://github.com/jax-ml/jax/issues/28929"
URL_HPC = "https://github.com/jax-ml/jax/issues/30050"
PASTED = ("Jax plugin configuration error: Exception when calling "
          "jax_plugins.xla_cuda12.initialize() ... RuntimeError: jaxlib/cuda/versions_helpers.cc:"
          "81: operation cusparseGetProperty(MAJOR_VERSION, &major) failed: The cuSPARSE library "
          "was not found. ... An NVIDIA GPU may be present on this machine, but a CUDA-enabled "
          "jaxlib is not installed. Falling back to cpu.")
# The LD_LIBRARY_PATH of the LD_DEBUG trace in jax-ml/jax#28929, as ld.so printed it
LD_28929 = ("/home/user/common_modules/nccl/nccl_2.18.3-1+cuda12.1_x86_64/lib:"
            "/home/user/common_modules/cudnn/cudnn-8.9.7.29_cuda12/lib:"
            "/home/user/common_modules/cuda/cuda-12.1/lib64:/usr/local/nccl2/lib:"
            "/usr/local/cuda/extras/CUPTI/lib64")
HPC = "/opt/nvidia/hpc_sdk/Linux_x86_64/24.5"
# The directories of the LD_LIBRARY_PATH of the trace in jax-ml/jax#30050 (its hwcaps
# subdirectories and the empty element are ld.so's own expansions, left out)
LD_30050 = (f"/usr/lib/x86_64-linux-gnu/openmpi/lib:{HPC}/cuda/12.4/lib64:"
            f"{HPC}/cuda/12.4/extras/CUPTI/lib64:{HPC}/comm_libs/12.4/nvshmem/lib:"
            f"{HPC}/comm_libs/12.4/nccl/lib:{HPC}/math_libs/12.4/lib64")


def dist(root, site, name, version, requires=()):
    d = f"{site}/{name.replace('-', '_')}-{version}.dist-info"
    req = "".join(f"Requires-Dist: {r}\n" for r in requires)
    w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n{req}")
    w(root, f"{d}/INSTALLER", "uv\n")
    w(root, f"{d}/RECORD", "")


def jax_env(root, site, version, cusparse, nvjitlink, cusparse_cuda_minor, nvcc):
    """jax[cuda12] as pip/uv installs it: jax, jaxlib, jax-cuda12-plugin, jax-cuda12-pjrt,
    the nvidia-cusparse-cu12 wheel (its libcusparse needing the nvJitLink entry points of CUDA
    12.<cusparse_cuda_minor>), the nvidia-nvjitlink-cu12 wheel that defines them and the
    nvidia-cuda-nvcc-cu12 wheel (<nvcc>) whose ptxas and libdevice XLA compiles with."""
    dist(root, site, "jax", version)
    w(root, f"{site}/jax/version.py", f'_version = "{version}"\n')
    dist(root, site, "jaxlib", version)
    w(root, f"{site}/jaxlib/version.py", f'_version = "{version}"\n')
    so = mk2.ELF.setdefault(root, [])
    so.append((f"{site}/jaxlib/xla_extension.so", "so soname=xla_extension.so"))
    dist(root, site, "jax-cuda12-plugin", version,
             [f"jax-cuda12-pjrt=={version}",
              "nvidia-cusparse-cu12>=12.1.0.106; extra == \"with-cuda\"",
              "nvidia-nvjitlink-cu12>=12.1.105; extra == \"with-cuda\""])
    # the plugin's version check module, which opens cuSPARSE through its DT_RPATH
    so.append((f"{site}/jax_cuda12_plugin/_versions.so",
               "so soname=_versions.so rpath=$ORIGIN/../nvidia/cusparse/lib:"
               "$ORIGIN/../nvidia/nvjitlink/lib"))
    w(root, f"{site}/jax_cuda12_plugin/__init__.py", "")
    dist(root, site, "jax-cuda12-pjrt", version)
    so.append((f"{site}/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
               "cuda soname=xla_cuda_plugin.so sass=75,80,86,89,90 ptx=90"))
    w(root, f"{site}/jax_plugins/xla_cuda12/__init__.py", "")
    wheel(root, site, "nvidia-cusparse-cu12", cusparse, "cusparse/lib/libcusparse.so.12",
          f"so soname=libcusparse.so.12 needed=libnvJitLink.so.12 "
          f"uses={names([cusparse_cuda_minor])} runpath=$ORIGIN/../../nvjitlink/lib")
    wheel(root, site, "nvidia-nvjitlink-cu12", nvjitlink, "nvjitlink/lib/libnvJitLink.so.12",
          f"so soname=libnvJitLink.so.12 defines={names(range(0, 10))}")
    nvcc_wheel(root, site, nvcc, "uv")


def toolkit_nvjitlink(root, libdir, full, minor):
    """A toolkit's libnvJitLink.so.12 (release 12.<minor>, file <full>) in libdir."""
    mk2.ELF.setdefault(root, []).append(
        (f"{libdir}/libnvJitLink.so.{full}",
         f"so soname=libnvJitLink.so.12 defines={names(range(0, minor + 1))}"))
    link(root, f"{libdir}/libnvJitLink.so.12", f"libnvJitLink.so.{full}")


PREFIX = "/home/user/project/.venv"
SITE = f"{PREFIX}/lib/python3.13/site-packages"
SOURCE = (f"Rebuilt from {URL} (pasted: `uv venv` with CPython 3.13.3, `uv pip install -U "
          "\"jax[cuda12]\"` installing jax, jaxlib, jax-cuda12-plugin and jax-cuda12-pjrt "
          "0.6.1 with nvidia-cusparse-cu12 12.5.9.5, nvidia-nvjitlink-cu12 12.9.41 and "
          "nvidia-cuda-nvcc-cu12 12.9.41 among its wheels, the plugin's RuntimeError and the "
          "fall-back to the CPU; the JAX "
          "developers' LD_DEBUG trace in the thread: libcusparse.so.12 opened from "
          "site-packages/jax_cuda12_plugin/../nvidia/cusparse/lib, its libnvJitLink.so.12 "
          "searched along LD_LIBRARY_PATH (the value printed, kept here but for the home "
          "below) and taken from its common_modules/cuda/cuda-12.1/lib64; the cause and fix "
          "the thread gives: "
          "cuSPARSE's nvJitLink found via LD_LIBRARY_PATH before its RUNPATH, unset "
          "LD_LIBRARY_PATH (jax-ml/jax#29843 repeats it, confirmed), and jax-ml/jax#28977 "
          "preloads the wheel's nvJitLink for it); the plugin's Requires-Dist lines as "
          "jax-cuda12-plugin's METADATA writes them (extra with-cuda); the nvJitLink entry "
          "points as rw-torch251-cusparse-old-nvjitlink-on-path has them (nvjitlink.py: "
          "cuSPARSE 12.5.9.5 is CUDA 12.9's, needing the _12_9 names; the 12.1 toolkit's copy "
          "defines up to _12_1, the 12.9.41 wheel's up to _12_9); inferred from the trace's "
          "order (the wheel's cuSPARSE found before LD_LIBRARY_PATH's directories): the "
          "DT_RPATH of jax_cuda12_plugin/_versions.so (the module of versions_helpers.cc); "
          "placeholders, not in the report: the venv's place /home/user/project/.venv (the "
          "trace prints a venv under another user's home), the trace's /home/<name>/"
          "common_modules kept under /home/user/ (the tree names no home but the placeholder "
          "user's), uv as INSTALLER, the toolkit's file name "
          "libnvJitLink.so.12.1.105, the GPU and driver (the base fixture's RTX 4090 on "
          "the open module), the stand-in xla_cuda_plugin.so built by nvcc 13.0 for "
          "sm_75-sm_90 with compute_90 PTX, xla_extension.so a gcc-built stand-in; the other "
          "directories of LD_LIBRARY_PATH hold nothing here (the trace shows no nvJitLink in "
          "them); " + SRC_BASE)


def jax061_tree(name, ld_library_path):
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "570.133.07",
                          flavor="open", audio=0x22ba)
    w(root, "usr/bin/python3.13", "", 0o755)
    mk2.venv(root, PREFIX, "3.13.3")
    jax_env(root, SITE, "0.6.1", "12.5.9.5", "12.9.41", 9, "12.9.41")
    toolkit_nvjitlink(root, "home/user/common_modules/cuda/cuda-12.1/lib64", "12.1.105", 1)
    variables = {"PATH": f"{PREFIX}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                         "/sbin:/bin", "VIRTUAL_ENV": PREFIX, "HOME": "/home/user"}
    if ld_library_path:
        variables["LD_LIBRARY_PATH"] = ld_library_path
    return dst, variables


def jax061_cuda121_on_path():
    dst, variables = jax061_tree(FIXTURES[0], LD_28929)
    ini(dst, TOPIC,
        "a uv venv (CPython 3.13.3) with jax[cuda12] 0.6.1: jax-cuda12-plugin opens the "
        "nvidia-cusparse-cu12 12.5.9.5 wheel's libcusparse.so.12 (CUDA 12.9's), whose "
        "libnvJitLink.so.12 is taken from the CUDA 12.1 toolkit on LD_LIBRARY_PATH before its "
        "DT_RUNPATH reaches the nvidia-nvjitlink-cu12 12.9.41 wheel; the 12.1 copy lacks the "
        "CUDA 12.9 entry points, cuSPARSE does not load and JAX falls back to the CPU",
        SOURCE, variables,
        real_world(URL, PASTED,
                   "the CUDA 12.1 toolkit's libnvJitLink on LD_LIBRARY_PATH is loaded for the "
                   "nvidia-cusparse-cu12 wheel's libcusparse.so.12 instead of the "
                   "nvidia-nvjitlink-cu12 wheel's, and lacks the CUDA 12.9 entry points it "
                   "needs; unsetting LD_LIBRARY_PATH fixes it",
                   "runtime.nvjitlink-older-than-library", "runtime", "yes"),
        section(BASE, "devices"))


def jax061_unset():
    dst, variables = jax061_tree(FIXTURES[1], None)
    ini(dst, TOPIC,
        "the machine of rw-jax061-cusparse-nvjitlink-cuda121-jax-28929 after the thread's fix: "
        "LD_LIBRARY_PATH unset, libcusparse.so.12 gets the nvidia-nvjitlink-cu12 12.9.41 "
        "wheel's libnvJitLink through its DT_RUNPATH, which defines the CUDA 12.9 entry "
        "points: the CUDA plugin initialises",
        SOURCE, variables,
        real_world(URL, "(the thread's fix: unset LD_LIBRARY_PATH; JAX finds the GPU)",
                   "with LD_LIBRARY_PATH unset, libcusparse.so.12 loads the wheel's "
                   "libnvJitLink, which defines what it needs",
                   "none", "none", "no"),
        section(BASE, "devices"))


def jax062_hpcsdk():
    name = FIXTURES[2]
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "570.133.07",
                          flavor="open", audio=0x22ba)
    base, env = "/home/user/micromamba", "/home/user/micromamba/envs/jax"
    w(root, f"{env}/conda-meta/history", "")
    w(root, f"{env}/bin/python3.10", "", 0o755)
    link(root, f"{env}/bin/python", "python3.10")
    site = f"{env}/lib/python3.10/site-packages"
    jax_env(root, site, "0.6.2", "12.5.10.65", "12.9.86", 9, "12.9.86")
    toolkit_nvjitlink(root, f"{HPC}/cuda/12.4/lib64", "12.4.127", 4)
    ini(dst, TOPIC,
        "a micromamba environment (Python 3.10) with jax[cuda12] 0.6.2 on a machine whose "
        "LD_LIBRARY_PATH names the NVIDIA HPC SDK 24.5's CUDA 12.4 (needed to compile CUDA "
        "code): the nvidia-cusparse-cu12 wheel's libcusparse.so.12 gets the HPC SDK's "
        "libnvJitLink.so.12 (CUDA 12.4) before its DT_RUNPATH reaches the nvidia-nvjitlink-"
        "cu12 wheel, lacks the CUDA 12.9 entry points it needs, and JAX falls back to the CPU",
        f"Rebuilt from {URL_HPC} (pasted: jax[cuda12]==0.6.2 in a fresh micromamba "
        "environment, the traceback under <home>/micromamba/envs/jax/lib/python3.10/"
        "site-packages/jax_plugins/xla_cuda12/ (the reporter's home kept as /home/user "
        "here), 'Unable to load cuSPARSE', 'I cannot unset "
        "LD_LIBRARY_PATH since I need to compile and use CUDA code', and the LD_DEBUG trace: "
        "libcusparse.so.12 from the site's nvidia/cusparse/lib, its libnvJitLink.so.12 "
        "searched along LD_LIBRARY_PATH (those directories kept here) and taken from "
        f"{HPC}/cuda/12.4/lib64; the cause is jax-ml/jax#28929's, which the thread points to, "
        "and jax-ml/jax#28977 preloads the wheel's nvJitLink for it); placeholders, not in "
        "the report: the wheels' versions (nvidia-cusparse-cu12 12.5.10.65 and "
        "nvidia-nvjitlink-cu12 12.9.86, PyPI's newest CUDA 12.9 builds in July 2025, and "
        "nvidia-cuda-nvcc-cu12 12.9.86 of the same release; the "
        "trace shows only that the HPC SDK's copy lacks what the wheel's cuSPARSE needs), the "
        "HPC SDK's file name libnvJitLink.so.12.4.127, the environment's conda-meta, the GPU "
        "and driver (the base fixture's RTX 4090 on the open module); the plugin's layout, "
        "entry points and stand-ins as in rw-jax061-cusparse-nvjitlink-cuda121-jax-28929; "
        "the other directories of LD_LIBRARY_PATH hold nothing here; " + SRC_BASE,
        {"PATH": f"{env}/bin:{base}/condabin:{HPC}/cuda/12.4/bin:/usr/local/sbin:"
                 "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
         "CONDA_PREFIX": env, "CONDA_DEFAULT_ENV": "jax", "MAMBA_ROOT_PREFIX": base,
         "HOME": "/home/user", "LD_LIBRARY_PATH": LD_30050},
        real_world(URL_HPC, "RuntimeError: Unable to load cuSPARSE. Is it installed? ... An "
                   "NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is "
                   "not installed. Falling back to cpu.",
                   "the HPC SDK's CUDA 12.4 libnvJitLink on LD_LIBRARY_PATH is loaded for the "
                   "nvidia-cusparse-cu12 wheel's libcusparse.so.12 instead of the "
                   "nvidia-nvjitlink-cu12 wheel's and lacks the newer entry points it needs",
                   "runtime.nvjitlink-older-than-library", "runtime", "yes"),
        section(BASE, "devices"))


def write():
    jax061_cuda121_on_path()
    jax061_unset()
    jax062_hpcsdk()
