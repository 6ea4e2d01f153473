# SPDX-License-Identifier: GPL-2.0-or-later
"""CuPy's modules that `import cupy` does not load (tests/fixtures/cupy12x-*-module*): each is
imported on first use and links its own CUDA library (install/cupy_builder/_features.py: the
"cusolver" feature builds cupy_backends.cuda.libs.cusolver with -lcusolver), so a library the
loader finds nowhere fails cupy.linalg, not the import. Neither fixture is a report (no
[real-world]): a cupy-cuda12x 13.3.0 wheel in a virtualenv whose core extension and NVRTC load
from a CUDA 12 lib64 on LD_LIBRARY_PATH; in the first, libcusolver.so.11 is nowhere; in the
second (the negative), the nvidia-cusolver-cu12 wheel's nvidia/cusolver/lib is on
LD_LIBRARY_PATH. The sonames are CUDA 12's (libcusolver.so.11 is cuSOLVER 11 of CUDA 12).
Written by `tests/tools/mk-real-world-fixtures.py cupy_modules`.
"""
from realworld.common import fresh, ini, mk2, section, so, w
from realworld.libs import BASE, BASE_SRC, dist_info, make_venv

TOPIC = "cupy_modules"
FIXTURES = ("cupy12x-cusolver-module-missing", "cupy12x-cusolver-module-wheel-found")
TAG = "cpython-311-x86_64-linux-gnu"
LIB64 = "/usr/local/cuda-12.4/targets/x86_64-linux/lib"


def cupy_tree(root, site):
    """cupy-cuda12x 13.3.0: core links the runtime, the cuSOLVER module libcusolver.so.11."""
    dist_info(root, site, "cupy-cuda12x", "13.3.0")
    w(root, f"{site}/cupy/__init__.py", "")
    w(root, f"{site}/cupy/_version.py", "__version__ = '13.3.0'\n")
    mk2.ELF.setdefault(root, []).extend([
        (f"{site}/cupy/_core/core.{TAG}.so",
         f"so soname=core.{TAG}.so needed=libcudart.so.12,libcublas.so.12"),
        (f"{site}/cupy_backends/cuda/libs/cusolver.{TAG}.so",
         f"so soname=cusolver.{TAG}.so needed=libcusolver.so.11"),
        (f"{site}/cupy_backends/cuda/libs/cublas.{TAG}.so",
         f"so soname=cublas.{TAG}.so needed=libcublas.so.12"),
    ])
    for s in ("libcudart.so.12", "libcublas.so.12", "libnvrtc.so.12"):
        so(root, f"{LIB64}/{s}", s)


def case(name, desc, source, with_wheel):
    dst, root = fresh(name, BASE)
    venv, site = make_venv(root, "3.11.9")
    cupy_tree(root, site)
    llp = LIB64
    if with_wheel:
        lib = f"{site}/nvidia/cusolver/lib"
        dist_info(root, site, "nvidia-cusolver-cu12", "11.6.1.9")
        so(root, f"{lib}/libcusolver.so.11", "libcusolver.so.11")
        llp = f"{lib}:{LIB64}"
    ini(dst, TOPIC, desc, source + BASE_SRC,
        {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
         "HOME": "/home/user", "LD_LIBRARY_PATH": llp}, "", section(BASE, "devices"),
        section(BASE, "modules"))


def write():
    case("cupy12x-cusolver-module-missing",
         "cupy-cuda12x 13.3.0 in a virtualenv: import cupy works (CUDA 12.4's runtime, cuBLAS "
         "and NVRTC on LD_LIBRARY_PATH), but its cuSOLVER module links libcusolver.so.11, "
         "which is nowhere: cupy.linalg fails",
         "synthetic, the failure of https://github.com/cupy/cupy/issues/10095 (cupyx.cusolver "
         "does not import: its module's libcusolver is where the loader does not look) on "
         "CuPy 13 with a CUDA 12 toolkit, not that report's machine (CuPy 14, CUDA 13 "
         "wheels); CuPy's module layout (cupy_backends/cuda/libs/cusolver.*.so, "
         "install/cupy_builder/_features.py), CPython 3.11's extension tag (PEP 3149), CUDA "
         "12's sonames", False)
    case("cupy12x-cusolver-module-wheel-found",
         "the same virtualenv with the nvidia-cusolver-cu12 wheel installed and its "
         "nvidia/cusolver/lib on LD_LIBRARY_PATH: every CuPy module's library loads (the "
         "negative of cupy12x-cusolver-module-missing)",
         "synthetic (no report): cupy12x-cusolver-module-missing plus the wheel's dist-info "
         "and library (nvidia-cusolver-cu12 ships nvidia/cusolver/lib/libcusolver.so.11)",
         True)
