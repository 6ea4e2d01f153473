# SPDX-License-Identifier: GPL-2.0-or-later
"""CuPy's NVRTC for the wrong CUDA major (tests/fixtures/*cupy11x-nvrtc*): CuPy 13 opens NVRTC
at run time by the soname of its CUDA runtime's major (cupy_backends/cuda/libs/_cnvrtc.pxi,
_get_softlink(): 11 → libnvrtc.so.11.2, 12 → libnvrtc.so.12), so a cupy-cuda11x wheel on a
machine whose toolkit moved to CUDA 12 finds no NVRTC it can open, though CUDA 12's is on the
loader path. rw-cupy11x-nvrtc112-cuda122-warpx-4621 is rebuilt from BLAST-WarpX/warpx#4621
(Perlmutter after its January 2024 upgrade to CUDA 12.2, BLAST-WarpX/warpx#4620; the fix was
cupy-cuda12x); cupy12x-nvrtc12-cuda122-found is not a report (no [real-world]): the negative,
the same machine with that fix made. What the reports do not show is the base fixture's
(rtx4090-open-module) or a placeholder named in `source`. Written by
`tests/tools/mk-real-world-fixtures.py cupy_nvrtc`.
"""
from realworld.common import fresh, ini, real_world, section, so, w
from realworld.libs import BASE, BASE_SRC, dist_info, make_venv

TOPIC = "cupy_nvrtc"
FIXTURES = ("rw-cupy11x-nvrtc112-cuda122-warpx-4621", "cupy12x-nvrtc12-cuda122-found")
# NVHPC 23.9's CUDA 12.2 (BLAST-WarpX/warpx#4620: "NVCC 12.2.91 (from NVHPC 23.9)"), where the
# SDK's installer puts it (Linux_x86_64/<release>/cuda/<major.minor>)
CUDA = "/opt/nvidia/hpc_sdk/Linux_x86_64/23.9/cuda/12.2"
NVRTC_SRC = ("the cupy wheel's release is not in the report: 13.0.0, the first whose NVRTC "
             "load is by name (cupy/cupy#8317, the SoftLink of the traceback), is the "
             "placeholder, like the virtualenv's place and Python 3.11; CUDA 12.2's lib64 "
             "holds only libnvrtc.so.12 of the NVRTC sonames and is on LD_LIBRARY_PATH (the "
             "toolkit module's, as NERSC's modules set it)")


def case(name, dist, desc, source, rw):
    dst, root = fresh(name, BASE)
    venv, site = make_venv(root, "3.11.7")
    dist_info(root, site, dist, "13.0.0")
    w(root, f"{site}/cupy/_version.py", "__version__ = '13.0.0'\n")
    for s in ("libnvrtc.so.12", "libcublas.so.12", "libcufft.so.11", "libcurand.so.10",
              "libcusparse.so.12"):
        so(root, f"{CUDA}/lib64/{s}", s)
    ini(dst, TOPIC, desc, source + BASE_SRC,
        {"PATH": f"{venv}/bin:{CUDA}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
         "HOME": "/home/user", "LD_LIBRARY_PATH": f"{CUDA}/lib64"}, rw,
        section(BASE, "devices"), section(BASE, "modules"))


def write():
    case("rw-cupy11x-nvrtc112-cuda122-warpx-4621", "cupy-cuda11x",
         "cupy-cuda11x 13.0.0 in a virtualenv on a system upgraded to CUDA 12.2 (NVHPC 23.9): "
         "the wheel opens CUDA 11's libnvrtc.so.11.2 at run time, and only CUDA 12.2's "
         "libnvrtc.so.12 is on the loader path",
         "BLAST-WarpX/warpx#4621's error and the system of BLAST-WarpX/warpx#4620 (CUDA 12.2 "
         "from NVHPC 23.9 as the new default); " + NVRTC_SRC,
         real_world(
             "https://github.com/BLAST-WarpX/warpx/pull/4621",
             "RuntimeError: CuPy failed to load libnvrtc.so.11.2: OSError: libnvrtc.so.11.2: "
             "cannot open shared object file: No such file or directory",
             "the system's default CUDA became 12.2 (BLAST-WarpX/warpx#4620); the cupy-cuda11x "
             "wheel loads CUDA 11's NVRTC (libnvrtc.so.11.2), which is no longer on the "
             "loader path; the fix merged was installing cupy-cuda12x instead",
             "runtime.library-not-found", "runtime", "yes"))
    case("cupy12x-nvrtc12-cuda122-found", "cupy-cuda12x",
         "the same system with cupy-cuda12x 13.0.0 in place of cupy-cuda11x (the fix of "
         "BLAST-WarpX/warpx#4621): the wheel's libnvrtc.so.12 is CUDA 12.2's, on "
         "LD_LIBRARY_PATH (the negative of rw-cupy11x-nvrtc112-cuda122-warpx-4621)",
         "synthetic (no report): rw-cupy11x-nvrtc112-cuda122-warpx-4621 with the merged fix; "
         + NVRTC_SRC, "")
