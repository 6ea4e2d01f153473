# SPDX-License-Identifier: GPL-2.0-or-later
"""Real-world fixtures of runtime.library-not-found through CuPy's own extension modules
(tests/fixtures/rw-cupy*): `import cupy` fails because cupy._core.core (cupy.core.core before
CuPy 9) links a CUDA library the dynamic loader finds nowhere. Every module of CuPy's "cuda"
feature is linked with the same CUDA libraries (install/cupy_builder/_features.py; the link
line in cupy/cupy#4443: -lcublas -lcuda -lcudart -lcufft -lcurand -lcusparse -lnvrtc), so the
library the ImportError names is a DT_NEEDED entry of core's extension. Only that entry is
written (the others the reports do not show). Each is rebuilt from a public report whose
thread established the cause; what the report pasted is kept as pasted, what it did not show
is taken from the base fixture (rtx4090-open-module: an NVIDIA driver loaded, so only the
framework's libraries are at fault). Library files are [elf] lines (tiny shared objects with
the real SONAME and DT_NEEDED, made at test time). Written by
`tests/tools/mk-real-world-fixtures.py cupy_needed`; cupy12x-cuda12-toolkit-found is not a
report (no [real-world]): the negative, the same extension with CUDA 12's runtime installed.
"""
from realworld.common import fresh, ini, mk2, real_world, section, so, w
from realworld.libs import BASE, BASE_SRC

TOPIC = "cupy_needed"
FIXTURES = ("rw-cupy12x-cudart-cupy-7772", "rw-cupy101-cufft-cupy-3368",
            "rw-cupy12x-venv-cudart-cupy-8226", "rw-cupy102-cudart-cupy-3199",
            "cupy12x-cuda12-toolkit-found")
IMPORT_ERROR = "ImportError: {}: cannot open shared object file: No such file or directory"


def core_extension(root, site, subdir, tag, needed):
    """cupy/<subdir>/core.<tag>.so linking `needed`, and the package's __init__.py."""
    w(root, f"{site}/cupy/__init__.py", "")
    mk2.ELF.setdefault(root, []).append(
        (f"{site}/cupy/{subdir}/core.{tag}.so",
         f"so soname=core.{tag}.so needed={needed}"))


def cupy_case(name, site, subdir, tag, needed, desc, source, rw, variables, extra=None):
    """The base tree with CuPy's core extension; its device nodes and kernel module come
    along."""
    dst, root = fresh(name, BASE)
    core_extension(root, site, subdir, tag, needed)
    if extra:
        extra(root)
    ini(dst, TOPIC, desc, source + BASE_SRC, variables, rw, section(BASE, "devices"),
        section(BASE, "modules"))


def user_env(home):
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home}


def venv_env(venv):
    return {"PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin", "VIRTUAL_ENV": venv,
            "HOME": "/home/user"}


def pyvenv(venv, version):
    """Writes the virtualenv's pyvenv.cfg (PEP 405) as the venv module does."""
    return lambda root: w(root, f"{venv}/pyvenv.cfg", "home = /usr/bin\n"
                          f"include-system-site-packages = false\nversion = {version}\n")


def cupy12x_cudart_7772():
    """cupy/cupy#7772: `pip install cupy-cuda12x` into ~/.local (Python 3.10), chosen because
    nvidia-smi printed CUDA Version 12.0; no CUDA 12 runtime is installed, and CuPy 12's
    modules link libcudart.so.12."""
    home = "/home/user"
    cupy_case(
        "rw-cupy12x-cudart-cupy-7772", f"{home}/.local/lib/python3.10/site-packages", "_core",
        "cpython-310-x86_64-linux-gnu", "libcudart.so.12",
        "cupy-cuda12x installed with pip into the user site ~/.local (Python 3.10) on a "
        "machine with no CUDA 12 runtime: import cupy fails in cupy._core.core with "
        "libcudart.so.12: cannot open shared object file",
        "the report's paths (~/.local/lib/python3.10/site-packages/cupy/_core) and error; "
        "core's extension file name is CPython 3.10's (PEP 3149), its SONAME a placeholder, "
        "its one DT_NEEDED entry the library the ImportError names; the CuPy release and its "
        "dist-info are not shown and not written; the home directory is a placeholder",
        real_world(
            "https://github.com/cupy/cupy/issues/7772", IMPORT_ERROR.format("libcudart.so.12"),
            "cupy-cuda12x (CuPy 12) links the CUDA 12 runtime libcudart.so.12 and does not "
            "bring it; no CUDA 12 runtime is installed (nvidia-smi's 'CUDA Version: 12.0' is "
            "what the driver supports, not an installed toolkit), so the loader finds it "
            "nowhere", "runtime.library-not-found", "runtime", "yes"),
        user_env(home))


def cupy101_cufft_3368():
    """cupy/cupy#3368: cupy-cuda101 in the nvidia/cudagl:10.1-base-ubuntu18.04 image, which
    holds the CUDA runtime but not cuFFT; the maintainer: CuPy requires the toolkit's
    libraries, install cuda-cufft-10-1."""
    site = "/usr/local/lib/python3.6/site-packages"
    cupy_case(
        "rw-cupy101-cufft-cupy-3368", site, "core", "cpython-36m-x86_64-linux-gnu",
        "libcufft.so.10",
        "cupy-cuda101 installed with pip (Python 3.6 under /usr/local) where CUDA 10.1's "
        "cuFFT is not installed: import cupy fails in cupy.core.core with libcufft.so.10: "
        "cannot open shared object file",
        "the report's paths (/usr/local/lib/python3.6/site-packages/cupy/core) and error; "
        "core's extension file name is CPython 3.6's (PEP 3149), its SONAME a placeholder, its "
        "one DT_NEEDED entry the library the ImportError names; the report's machine is a "
        "container of the nvidia/cudagl:10.1-base-ubuntu18.04 image, which this tree does "
        "not rebuild (no /.dockerenv, no image runtime): only what the loader finds for "
        "CuPy is the report's",
        real_world(
            "https://github.com/cupy/cupy/issues/3368", IMPORT_ERROR.format("libcufft.so.10"),
            "CuPy links the CUDA toolkit's libraries (cuFFT among them); the image has no "
            "cuFFT 10 (the maintainer: install cuda-cufft-10-1), so the loader finds "
            "libcufft.so.10 nowhere", "runtime.library-not-found", "runtime", "yes"),
        {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"})


def cupy12x_venv_cudart_8226():
    """cupy/cupy#8226: cupy in a virtualenv whose site-packages is under lib64 (Python 3.9);
    libcudart.so.12 is found nowhere."""
    venv = "/home/user/venv"
    site = f"{venv}/lib64/python3.9/site-packages"
    cupy_case(
        "rw-cupy12x-venv-cudart-cupy-8226", site, "_core", "cpython-39-x86_64-linux-gnu",
        "libcudart.so.12",
        "CuPy in a virtualenv (Python 3.9, site-packages under lib64) on a machine whose "
        "loader finds no libcudart.so.12: import cupy fails in cupy._core.core",
        "the report's layout (venv/lib64/python3.9/site-packages/cupy/_core) and error; the "
        "virtualenv's place is a placeholder; core's extension file name is CPython 3.9's "
        "(PEP 3149), its SONAME a placeholder, its one DT_NEEDED entry the library the "
        "ImportError names; the CuPy distribution and release are not shown and not written",
        real_world(
            "https://github.com/cupy/cupy/issues/8226", IMPORT_ERROR.format("libcudart.so.12"),
            "the CUDA 12 runtime CuPy's extension links (libcudart.so.12) is not on the "
            "loader's path", "runtime.library-not-found", "runtime", "yes"),
        venv_env(venv), extra=pyvenv(venv, "3.9"))


def cupy102_cudart_3199():
    """cupy/cupy#3199: cupy-cuda102 from pip in a virtualenv (Python 3.6): libcudart.so.10.2
    cannot be opened; the reporter's fix was CuPy from conda, which brings its own CUDA
    runtime (cudatoolkit)."""
    venv = "/home/user/python_envs/nt_env"
    site = f"{venv}/lib/python3.6/site-packages"
    cupy_case(
        "rw-cupy102-cudart-cupy-3199", site, "core", "cpython-36m-x86_64-linux-gnu",
        "libcudart.so.10.2",
        "cupy-cuda102 installed with pip in a virtualenv (Python 3.6): import cupy fails in "
        "cupy.core.core with libcudart.so.10.2: cannot open shared object file",
        "the report's paths (<home>/python_envs/nt_env/lib/python3.6/site-packages/cupy/core; "
        "the home directory a placeholder) and error; core's extension file name is CPython "
        "3.6's (PEP 3149), its SONAME a placeholder, its one DT_NEEDED entry the library the "
        "ImportError names; the CuPy release is not shown and not written",
        real_world(
            "https://github.com/cupy/cupy/issues/3199",
            IMPORT_ERROR.format("libcudart.so.10.2"),
            "cupy-cuda102 links the CUDA 10.2 runtime (libcudart.so.10.2), which the loader "
            "finds nowhere for this virtualenv; CuPy from conda, which brings its own CUDA "
            "runtime, worked", "runtime.library-not-found", "runtime", "yes"),
        venv_env(venv), extra=pyvenv(venv, "3.6.10"))


def cupy12x_toolkit_found():
    """Not a report: the 7772 extension with CUDA 12's runtime where the loader looks
    (/usr/local/cuda-12.0/targets/x86_64-linux/lib on LD_LIBRARY_PATH): nothing is missing."""
    home = "/home/user"
    lib = "/usr/local/cuda-12.0/targets/x86_64-linux/lib"

    def toolkit(root):
        so(root, f"{lib}/libcudart.so.12.0.146", "libcudart.so.12")
        mk2.link(root, f"{lib}/libcudart.so.12", "libcudart.so.12.0.146")

    cupy_case(
        "cupy12x-cuda12-toolkit-found", f"{home}/.local/lib/python3.10/site-packages", "_core",
        "cpython-310-x86_64-linux-gnu", "libcudart.so.12",
        "cupy-cuda12x in the user site ~/.local (Python 3.10) with CUDA 12.0's runtime "
        "installed where the loader looks: CuPy's extension loads (the negative of "
        "rw-cupy12x-cudart-cupy-7772)",
        "synthetic (no report): the extension of rw-cupy12x-cudart-cupy-7772; CUDA 12.0's "
        "libcudart file name as its runfile installs it (libcudart.so.12.0.146), found "
        "through LD_LIBRARY_PATH",
        "",
        {**user_env(home), "LD_LIBRARY_PATH": lib},
        extra=toolkit)


def write():
    cupy12x_cudart_7772()
    cupy101_cufft_3368()
    cupy12x_venv_cudart_8226()
    cupy102_cudart_3199()
    cupy12x_toolkit_found()
