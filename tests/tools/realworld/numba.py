# SPDX-License-Identifier: GPL-2.0-or-later
"""numba's CUDA target and libNVVM (framework.numba-nvvm-not-found): numba compiles its kernels
with the toolkit's libNVVM and looks for it in one place, the first of its list that is set
(CUDA_HOME before /usr/local/cuda); where that place holds none it opens the bare libnvvm.so,
which the loader does not find. The machine around it is the rtx4090-open-module tree as the
report's driver (base_root)."""
from realworld.common import (SRC_BASE, base_root, ini, ldso_cache, link, move_kernel,
                              real_world, so, ubuntu_os_release, w)
from realworld.driver import userspace

TOPIC = "numba"
FIXTURES = ("rw-numba-cuda-home-list-nvvm-9216", "numba-cuda118-home-nvvm-found",
            "rw-numba046-debian-nvvm-4979", "numba048-debian-nvvm-via-loader")

URL_9216 = "https://github.com/numba/numba/issues/9216"
URL_4979 = "https://github.com/numba/numba/issues/4979"
BIONIC_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="18.04.3 LTS (Bionic Beaver)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 18.04.3 LTS"\nVERSION_ID="18.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'SUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\nVERSION_CODENAME=bionic\n'
    'UBUNTU_CODENAME=bionic\n')
DEVICES = ("[devices]\n/dev/nvidia0 = c 195:0 0666 0:0\n/dev/nvidiactl = c 195:255 0666 0:0\n"
           "/dev/nvidia-uvm = c 510:0 0666 0:0\n/dev/nvidia-uvm-tools = c 510:1 0666 0:0\n")


def cuda_toolkit(root, prefix, version, cudart, nvrtc, nvvm):
    """A runfile-installed toolkit at <prefix> as its installer lays it out: lib64 ->
    targets/x86_64-linux/lib with libcudart and libnvrtc (and the unversioned development
    links numba opens by name), nvvm/lib64 with libNVVM 4 (nvvm/lib64/libnvvm.so.4.0.0, its
    SONAME libnvvm.so.4), version.json's top entries."""
    w(root, f"{prefix}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
      '   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n      "version" : "%s"\n   }\n}\n'
      % (version, version))
    lib = f"{prefix}/targets/x86_64-linux/lib"
    so(root, f"{lib}/libcudart.so.{cudart}", "libcudart.so.11.0")
    link(root, f"{lib}/libcudart.so.11.0", f"libcudart.so.{cudart}")
    link(root, f"{lib}/libcudart.so", "libcudart.so.11.0")
    so(root, f"{lib}/libnvrtc.so.{nvrtc}", "libnvrtc.so.11.2")
    link(root, f"{lib}/libnvrtc.so.11.2", f"libnvrtc.so.{nvrtc}")
    link(root, f"{lib}/libnvrtc.so", "libnvrtc.so.11.2")
    link(root, f"{prefix}/lib64", "targets/x86_64-linux/lib")
    so(root, f"{prefix}/nvvm/lib64/libnvvm.so.{nvvm}", "libnvvm.so.4")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so.4", f"libnvvm.so.{nvvm}")
    link(root, f"{prefix}/nvvm/lib64/libnvvm.so", "libnvvm.so.4")
    w(root, f"{prefix}/bin/nvcc", "", 0o755)


def conda_env(root, base, name, dists, py="3.8", day="2023-09-20", installer="pip"):
    env = f"{base}/envs/{name}"
    site = f"{env}/lib/python{py}/site-packages"
    w(root, f"{env}/conda-meta/history", f"==> {day} 10:01:00 <==\n"
      f"# cmd: {base}/bin/conda create -n {name} python={py}\n")
    w(root, f"{base}/bin/conda", "#!/bin/sh\n", 0o755)
    w(root, f"{env}/bin/python{py}", "", 0o755)
    link(root, f"{env}/bin/python", f"python{py}")
    for dist, version in dists:
        d = f"{site}/{dist}-{version}.dist-info"
        w(root, f"{d}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        w(root, f"{d}/INSTALLER", f"{installer}\n")
        w(root, f"{d}/RECORD", f"{dist}/__init__.py,,\n")
        w(root, f"{site}/{dist}/__init__.py", "")
    return env


SOURCE_9216 = (
    "Rebuilt from https://github.com/numba/numba/issues/9216 (pasted: the miniconda "
    "environment monoflex with Python 3.8 (the reporter's user name replaced by user), "
    "numba's NvvmSupportError from "
    "nvvm.py's open_cudalib('nvvm') with 'libnvvm.so: cannot open shared object file', "
    "cuda.cudadrv.libs.test(): the driver loaded from libcuda.so, mapped to "
    "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05, 'Finding nvvm from CUDA_HOME / Located "
    "at libnvvm.so / ERROR: failed to open nvvm', nvrtc and cudart from CUDA_HOME opened by "
    "their bare names; the maintainer: the user had `export "
    "CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8`, CUDA_HOME must be a path, not a "
    "colon-separated list; the reporter: with CUDA_HOME=/usr/local/cuda-11.8 'It work "
    "well'); not in the report and chosen here: CUDA_HOME's value is "
    "':/usr/local/cuda-11.8' (that export with CUDA_HOME unset before it), LD_LIBRARY_PATH "
    "names /usr/local/cuda-11.8/lib64 (where the bare libnvrtc.so and libcudart.so that "
    "opened are found), the toolkit's patch release 11.8.0 and its runfile layout with the "
    "/usr/local/cuda link, the numba 0.58.0 and llvmlite 0.41.0 releases of September 2023, "
    "the GPU (the base fixture's RTX 4090: the thread names none), Ubuntu 22.04 and its "
    "kernel; the prompt's host name (4c37173a9629) looks like a container's but the thread "
    "does not say so, and the torch in that environment (its release is not shown) is left "
    "out; the driver's libcuda/libnvidia-ml and the toolkit's libraries are [elf] stand-ins "
    "with the real SONAMEs, etc/ld.so.cache written by glibc's ldconfig -r over the tree; ")


def machine(name, cuda_home):
    dst, root = base_root(name, 0x2684, 0x167c, "NVIDIA GeForce RTX 4090", "535.104.05")
    rel = "5.15.0-84-generic"
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", ubuntu_os_release("22.04.3", "Jammy Jellyfish", "jammy"))
    userspace(root, "535.104.05")
    tk = "/usr/local/cuda-11.8"
    cuda_toolkit(root, tk, "11.8.0", "11.8.89", "11.8.89", "4.0.0")
    link(root, "/usr/local/cuda", "cuda-11.8")
    base = "/home/user/miniconda3"
    env = conda_env(root, base, "monoflex", (("numba", "0.58.0"), ("llvmlite", "0.41.0")))
    variables = {"PATH": f"{env}/bin:{base}/condabin:{tk}/bin:/usr/local/sbin:/usr/local/bin:"
                         "/usr/sbin:/usr/bin:/sbin:/bin",
                 "LD_LIBRARY_PATH": f"{tk}/lib64", "CUDA_HOME": cuda_home,
                 "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda", "HOME": "/home/user"}
    return dst, root, rel, variables


def numba_9216():
    """numba/numba#9216: CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8, so numba looked for
    libNVVM in ':/usr/local/cuda-11.8/nvvm/lib64' and then by the bare name; fixed by
    CUDA_HOME=/usr/local/cuda-11.8."""
    name = "rw-numba-cuda-home-list-nvvm-9216"
    dst, root, rel, variables = machine(name, ":/usr/local/cuda-11.8")
    ini(dst, TOPIC,
        "An RTX 4090 machine on driver 535.104.05 with CUDA 11.8 in /usr/local/cuda-11.8 whose "
        "user set CUDA_HOME=$CUDA_HOME:/usr/local/cuda-11.8: numba takes CUDA_HOME as one "
        "directory, finds no libnvvm.so.<version> in ':/usr/local/cuda-11.8/nvvm/lib64', opens "
        "the bare libnvvm.so, which the loader does not find (nvvm/lib64 is on no search "
        "path), and every @cuda.jit kernel fails with NvvmSupportError",
        SOURCE_9216 + SRC_BASE,
        variables,
        real_world(
            URL_9216,
            "numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda "
            "install cudatoolkit`: libnvvm.so: cannot open shared object file: No such file "
            "or directory",
            "CUDA_HOME was set to a colon-separated list ($CUDA_HOME:/usr/local/cuda-11.8), "
            "so numba looked for libNVVM under that whole string and then by the bare name "
            "libnvvm.so, which the loader does not find; CUDA_HOME=/usr/local/cuda-11.8 fixed "
            "it",
            "framework.numba-nvvm-not-found", "framework", "yes"),
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.104.05, -, none, NVIDIA\n")
    ldso_cache(dst)


def numba_9216_fixed():
    """The same machine with the thread's fix, CUDA_HOME=/usr/local/cuda-11.8: numba finds
    nvvm/lib64/libnvvm.so.4.0.0 there (the negative of framework.numba-nvvm-not-found)."""
    name = "numba-cuda118-home-nvvm-found"
    dst, root, rel, variables = machine(name, "/usr/local/cuda-11.8")
    ini(dst, TOPIC,
        "The machine of numba/numba#9216 after the thread's fix: CUDA_HOME=/usr/local/cuda-11.8 "
        "names the toolkit, whose nvvm/lib64 holds libnvvm.so.4.0.0, so numba compiles its "
        "kernels (healthy)",
        "The machine of " + URL_9216 + " with the fix the reporter confirmed "
        "(CUDA_HOME=/usr/local/cuda-11.8); otherwise as rw-numba-cuda-home-list-nvvm-9216: "
        + SOURCE_9216 + SRC_BASE,
        variables, "",
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 535.104.05, -, none, NVIDIA\n")
    ldso_cache(dst)


SOURCE_4979 = (
    "Rebuilt from https://github.com/numba/numba/issues/4979 (pasted: the miniconda "
    "environment pyarrow with Python 3.7 (the reporter's user name replaced by user), "
    "numba 0.46.0 from conda-forge "
    "failing in nvvm.py's open_cudalib('nvvm') with 'OSError: library nvvm not found' where "
    "0.45.0 worked, with NUMBAPRO_NVVM=/usr/lib/x86_64-linux-gnu/libnvvm.so and "
    "NUMBAPRO_LIBDEVICE=/usr/lib/cuda/nvvm/libdevice exported: the Debian packages' "
    "libNVVM and libdevice; the maintainer's fix, numba/numba#5016 'Fixes #4979' (numba "
    "0.48): the NUMBAPRO variables being gone, get_cudalib returns the bare libnvvm.so for "
    "the system loader to search when no known place holds it); not in the report and chosen "
    "here: Ubuntu 18.04 and its nvidia-cuda-toolkit 9.1.85 packages (libnvvm3's "
    "libnvvm.so.3.2.0, SONAME libnvvm.so.3, with the development link libnvvm.so the "
    "variable names; libdevice.10.bc), no /usr/local/cuda and no CUDA_HOME, the llvmlite "
    "0.30.0 of numba 0.46.0, the GPU and driver (10de:1b06 GeForce GTX 1080 Ti on 430.50, "
    "a placeholder: the thread names none) and its kernel; the driver's libcuda/libnvidia-ml "
    "and libNVVM are [elf] stand-ins with the real SONAMEs, etc/ld.so.cache written by "
    "glibc's ldconfig -r over the tree; ")


def debian_machine(name, numba, llvmlite):
    dst, root = base_root(name, 0x1b06, 0x120f, "GeForce GTX 1080 Ti", "430.50")
    rel = "4.15.0-72-generic"
    move_kernel(root, "6.8.0-45-generic", rel)
    w(root, "etc/os-release", BIONIC_OS_RELEASE)
    userspace(root, "430.50")
    lib = "/usr/lib/x86_64-linux-gnu"
    so(root, f"{lib}/libnvvm.so.3.2.0", "libnvvm.so.3")
    link(root, f"{lib}/libnvvm.so.3", "libnvvm.so.3.2.0")
    link(root, f"{lib}/libnvvm.so", "libnvvm.so.3")
    w(root, "/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc", "")
    base = "/home/user/miniconda3"
    env = conda_env(root, base, "pyarrow", (("numba", numba), ("llvmlite", llvmlite)),
                    py="3.7", day="2019-12-17", installer="conda")
    variables = {"PATH": f"{env}/bin:{base}/condabin:/usr/local/sbin:/usr/local/bin:"
                         "/usr/sbin:/usr/bin:/sbin:/bin",
                 "NUMBAPRO_NVVM": f"{lib}/libnvvm.so",
                 "NUMBAPRO_LIBDEVICE": "/usr/lib/cuda/nvvm/libdevice",
                 "CONDA_PREFIX": env, "CONDA_EXE": f"{base}/bin/conda",
                 "HOME": "/home/user"}
    return dst, root, rel, variables


def numba_4979():
    """numba/numba#4979: numba 0.46.0 no longer reads NUMBAPRO_NVVM and looks for libNVVM only
    in its own places, none of which holds Debian's /usr/lib/x86_64-linux-gnu/libnvvm.so;
    numba 0.48 (numba/numba#5016) asks the loader, which finds it."""
    name = "rw-numba046-debian-nvvm-4979"
    dst, root, rel, variables = debian_machine(name, "0.46.0", "0.30.0")
    ini(dst, TOPIC,
        "A GTX 1080 Ti machine on Ubuntu 18.04 with the distribution's CUDA 9.1 packages "
        "(libNVVM in /usr/lib/x86_64-linux-gnu) and numba 0.46.0 in a conda environment: "
        "numba no longer reads NUMBAPRO_NVVM, none of its places (the environment, "
        "CUDA_HOME, /usr/local/cuda) is there, and before 0.48 it does not ask the loader, so "
        "every @cuda.jit kernel fails with 'library nvvm not found'",
        SOURCE_4979 + SRC_BASE,
        variables,
        real_world(
            URL_4979,
            "OSError: library nvvm not found (numba 0.46.0; 0.45.0 was fine)",
            "numba 0.46 dropped NUMBAPRO_NVVM, so a libNVVM outside the places numba knows "
            "(Debian's packages put it in /usr/lib/x86_64-linux-gnu) was not found; the "
            "maintainers' fix (numba/numba#5016, numba 0.48) lets the system loader find it",
            "framework.numba-nvvm-not-found", "framework", "yes"),
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 430.50, -, none, NVIDIA\n")
    ldso_cache(dst)


def numba_4979_fixed():
    """The same machine with numba 0.48.0, whose get_cudalib asks the loader for libnvvm.so
    (numba/numba#5016): found in /usr/lib/x86_64-linux-gnu (the negative of
    framework.numba-nvvm-not-found through the loader)."""
    name = "numba048-debian-nvvm-via-loader"
    dst, root, rel, variables = debian_machine(name, "0.48.0", "0.31.0")
    ini(dst, TOPIC,
        "The machine of numba/numba#4979 with numba 0.48.0, the release of its fix: numba "
        "asks the loader for the bare libnvvm.so, which finds the distribution's "
        "/usr/lib/x86_64-linux-gnu/libnvvm.so (healthy)",
        "The machine of " + URL_4979 + " with numba 0.48.0 and llvmlite 0.31.0, the releases "
        "of the maintainers' fix (numba/numba#5016); otherwise as "
        "rw-numba046-debian-nvvm-4979: " + SOURCE_4979 + SRC_BASE,
        variables, "",
        DEVICES,
        f"[modules]\n/lib/modules/{rel}/updates/dkms/nvidia.ko = 430.50, -, none, NVIDIA\n")
    ldso_cache(dst)


def write():
    numba_9216()
    numba_9216_fixed()
    numba_4979()
    numba_4979_fixed()
