# SPDX-License-Identifier: GPL-2.0-or-later
"""An nvJitLink older than the cuSPARSE that links it: torch 2.5.1's nvidia-cusparse-cu12 wheel
needs the nvJitLink entry points of CUDA 12.4 (__nvJitLinkComplete_12_4@libnvJitLink.so.12),
and a CUDA 12.2 toolkit's libnvJitLink on LD_LIBRARY_PATH comes before the copy its DT_RUNPATH
names (the nvidia-nvjitlink-cu12 wheel), so `import torch` fails; the reporter's fix (the
variable reset) is the second fixture."""
from realworld.common import SRC_BASE, base_root, ini, link, mk2, real_world, section, w

TOPIC = "nvjitlink"
FIXTURES = ("rw-torch251-cusparse-old-nvjitlink-on-path", "rw-torch251-cusparse-nvjitlink-unset")

URL = "https://github.com/pytorch/pytorch/issues/144244"
PREFIX = "/root/.cache/pypoetry/virtualenvs/soccer-eventpred-YF5lB--H-py3.10"
PASTED = (f"ImportError: {PREFIX}/lib/python3.10/site-packages/torch/lib/../../nvidia/cusparse/"
          "lib/libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version "
          "libnvJitLink.so.12")
UBUNTU2204 = ('PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
              'VERSION="22.04.4 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\n'
              'ID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\n'
              'SUPPORT_URL="https://help.ubuntu.com/"\n'
              'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
              'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
              'UBUNTU_CODENAME=jammy\n')
# The nvJitLink entry points cuSPARSE calls (`nm -D` of CUDA 13.0's libcusparse.so.12:
# __nvJitLinkAddData_13_0@libnvJitLink.so.13 and these seven more), by the names nvJitLink.h
# of a release gives them: __<name>_<major>_<minor>.
API = ("nvJitLinkComplete", "nvJitLinkAddData", "nvJitLinkCreate", "nvJitLinkDestroy",
       "nvJitLinkGetErrorLog", "nvJitLinkGetErrorLogSize", "nvJitLinkGetLinkedCubin",
       "nvJitLinkGetLinkedCubinSize")


def names(minors):
    return ",".join(f"__{a}_12_{m}" for m in minors for a in API)


def wheel(root, site, name, version, lib, spec):
    """An nvidia-* wheel as mk2.nvidia_wheel writes it (dist-info, nvidia/<lib>), its library
    built as spec says."""
    libdir, soname = lib.rsplit("/", 1)
    mk2.nvidia_wheel(root, site, name, version, libdir, [soname])
    path = f"{site}/nvidia/{lib}"
    mk2.ELF[root] = [(p, spec if p == path else s) for p, s in mk2.ELF[root]]


def tree(name, ld_library_path):
    dst, root = base_root(name, 0x2230, 0x1459, "NVIDIA RTX A6000", "535.161.07")
    w(root, "etc/os-release", UBUNTU2204)
    # the CUDA 12.2 toolkit as NVIDIA's packages lay it out
    cuda = "usr/local/cuda-12.2"
    link(root, "usr/local/cuda", "cuda-12.2")
    link(root, f"{cuda}/lib64", "targets/x86_64-linux/lib")
    lib = f"{cuda}/targets/x86_64-linux/lib"
    mk2.ELF.setdefault(root, []).append(
        (f"{lib}/libnvJitLink.so.12.2.140",
         f"so soname=libnvJitLink.so.12 defines={names(range(0, 3))}"))
    link(root, f"{lib}/libnvJitLink.so.12", "libnvJitLink.so.12.2.140")
    w(root, f"{cuda}/version.json",
      '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.2.2"\n   },\n'
      '   "libnvjitlink" : {\n      "name" : "CUDA nvJitLink",\n      "version" : "12.2.140"\n'
      "   }\n}\n")
    # the poetry environment
    w(root, "usr/bin/python3.10", "", 0o755)
    link(root, "usr/bin/python3", "python3.10")
    site = mk2.venv(root, PREFIX, "3.10.12")
    mk2.torch_dist(root, site, "2.5.1", "'12.4'",
                   requires=["nvidia-cusparse-cu12==12.3.1.170; platform_system == \"Linux\" "
                             "and platform_machine == \"x86_64\"",
                             "nvidia-nvjitlink-cu12==12.4.127; platform_system == \"Linux\" "
                             "and platform_machine == \"x86_64\""])
    mk2.ELF[root].append(
        (f"{site}/torch/lib/libtorch_cuda.so",
         "so soname=libtorch_cuda.so needed=libcusparse.so.12 "
         "rpath=$ORIGIN/../../nvidia/cusparse/lib:$ORIGIN/../../nvidia/nvjitlink/lib:$ORIGIN"))
    wheel(root, site, "nvidia-cusparse-cu12", "12.3.1.170", "cusparse/lib/libcusparse.so.12",
          f"so soname=libcusparse.so.12 needed=libnvJitLink.so.12 uses={names([4])} "
          "runpath=$ORIGIN/../../nvjitlink/lib")
    wheel(root, site, "nvidia-nvjitlink-cu12", "12.4.127", "nvjitlink/lib/libnvJitLink.so.12",
          f"so soname=libnvJitLink.so.12 defines={names(range(0, 5))}")
    variables = {"PATH": f"{PREFIX}/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
                         "/usr/sbin:/usr/bin:/sbin:/bin",
                 "HOME": "/root", "VIRTUAL_ENV": PREFIX}
    if ld_library_path:
        variables["LD_LIBRARY_PATH"] = ld_library_path
    return dst, variables


SOURCE = (f"Rebuilt from {URL} (pasted: the ImportError with the poetry environment's path, "
          "PyTorch 2.5.1, CUDA 12.2 installed (nvcc), driver 535.161.07, Python 3.10, Ubuntu "
          "22.04, 3x RTX A6000; the thread's fix: resetting LD_LIBRARY_PATH); torch 2.5.1's "
          "PyPI METADATA pins of the two wheels this tree holds (nvidia-cusparse-cu12 "
          "12.3.1.170, nvidia-nvjitlink-cu12 12.4.127); libtorch_cuda.so's DT_RPATH into the "
          "nvidia wheels (manylinux's ld writes DT_RPATH: the pasted path is that of "
          "$ORIGIN/../../nvidia/cusparse/lib) and libcusparse.so.12's DT_RUNPATH "
          "$ORIGIN/../../nvjitlink/lib, which LD_LIBRARY_PATH precedes (ld.so(8); "
          "https://github.com/jax-ml/jax/pull/28977: cuSPARSE finds nvJitLink via RUNPATH); "
          "the nvJitLink entry points versioned under the soname, as "
          "__nvJitLinkAddData_12_0@@libnvJitLink.so.12 in "
          "https://github.com/NVlabs/cuda-oxide/pull/1103, with the release in the name "
          "(\"nvJitLink has versioned symbols that are added in each new CTK release\", "
          "https://github.com/NVIDIA/cuvs/pull/1862); the [elf] stand-ins (fixture_root.py "
          "defines=/uses=) carry the eight entry points CUDA 13.0's libcusparse.so.12 needs "
          "(observed with nm -D here: AddData, Complete, Create, Destroy, GetErrorLog(Size), "
          "GetLinkedCubin(Size)) under the names of "
          "CUDA 12.4 (cuSPARSE's needs), 12.0-12.2 (the toolkit's copy) and 12.0-12.4 (the "
          "wheel's): the report shows only __nvJitLinkComplete_12_4, the other names are "
          "chosen here; libnvJitLink.so.12.2.140 and version.json as CUDA 12.2.2 ships them "
          "(the file list of https://github.com/NVIDIA/cuda-python/pull/578); not in the "
          "report and chosen here: the toolkit at /usr/local/cuda-12.2, "
          "LD_LIBRARY_PATH=/usr/local/cuda/lib64, one of the three GPUs (10de:2230); " +
          SRC_BASE)


def old_on_path():
    dst, variables = tree(FIXTURES[0], "/usr/local/cuda/lib64")
    ini(dst, TOPIC,
        "poetry environment (Python 3.10) with torch 2.5.1 and its nvidia-cusparse-cu12 "
        "12.3.1.170 and nvidia-nvjitlink-cu12 12.4.127 wheels; LD_LIBRARY_PATH names CUDA "
        "12.2's lib64, whose libnvJitLink.so.12 (12.2.140) comes before the wheel's copy "
        "libcusparse's DT_RUNPATH names and lacks the CUDA 12.4 entry points cuSPARSE needs: "
        "importing torch fails",
        SOURCE, variables,
        real_world(URL, PASTED,
                   "the CUDA 12.2 toolkit's libnvJitLink on LD_LIBRARY_PATH is loaded for the "
                   "nvidia-cusparse-cu12 wheel's libcusparse.so.12 instead of the "
                   "nvidia-nvjitlink-cu12 wheel's, and lacks __nvJitLinkComplete_12_4; "
                   "resetting LD_LIBRARY_PATH fixed it",
                   "runtime.nvjitlink-older-than-library", "runtime", "yes"),
        section("rtx4090-open-module", "devices"))


def unset():
    dst, variables = tree(FIXTURES[1], None)
    ini(dst, TOPIC,
        "the machine of rw-torch251-cusparse-old-nvjitlink-on-path after the reporter's fix: "
        "LD_LIBRARY_PATH unset, libcusparse.so.12 gets the nvidia-nvjitlink-cu12 12.4.127 "
        "wheel's libnvJitLink through its DT_RUNPATH, which defines the CUDA 12.4 entry "
        "points: torch imports",
        SOURCE, variables,
        real_world(URL, "(the reporter's fix: LD_LIBRARY_PATH reset; torch imports)",
                   "with LD_LIBRARY_PATH reset, libcusparse.so.12 loads the wheel's "
                   "libnvJitLink, which defines what it needs",
                   "none", "none", "no"),
        section("rtx4090-open-module", "devices"))


def write():
    old_on_path()
    unset()
