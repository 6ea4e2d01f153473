# SPDX-License-Identifier: GPL-2.0-or-later
"""Compiled torch extensions built for another torch release or C++ ABI: flash-attn's
flash_attn_2_cuda and torchvision's _C.so need c10:: names (by their mangled spelling) that the
installed torch does not define, so the import fails with "undefined symbol: _ZN3c10…". The
std::string inside c10::Error's constructor mangles as Ss under the old C++ ABI and as
NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE under the new one (GCC's dual ABI;
torch's wheels moved to the new one with 2.6.0+cu126, pytorch/pytorch#152790, and the nm
output of pytorch/pytorch#65651 shows the old spelling in libc10.so). Each torch/lib library
is an [elf] stand-in exporting the name(s) the report shows its torch has; each extension
links torch's libraries as torch.utils.cpp_extension links a CUDAExtension (c10, torch,
torch_cpu, torch_python, c10_cuda, torch_cuda; cudart left out: not looked at here) and needs
the name the report pastes."""
from realworld.common import SRC_BASE, fresh, ini, mk2, real_world, section, w

TOPIC = "torch_ext"
FIXTURES = ("rw-fa-flash-attention-1644", "rw-fa-open-r1-684", "rw-fa-flash-attention-1783",
            "rw-fa-flash-attention-853", "rw-fa-flash-attention-1696", "rw-tv-ASFF-52",
            "rw-fa-flash-attention-1783-older-wheel")

OLD = "_ZN3c105ErrorC2ENS_14SourceLocationESs"
NEW = "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
TV_NEW = ("_ZN3c105ErrorC1ENS_14SourceLocationERKNSt7__cxx1112basic_stringIcSt11char_traits"
          "IcESaIcEEE")
TV_OLD = "_ZN3c105ErrorC1ENS_14SourceLocationERKSs"
TORCH_LIBS = ("libc10.so", "libtorch.so", "libtorch_cpu.so", "libtorch_python.so",
              "libc10_cuda.so", "libtorch_cuda.so")
SRC_ELF = ("the [elf] stand-ins (fixture_root.py exports=/imports=): torch/lib's libc10.so "
           "exports the name its torch defines, the other torch libraries only their soname; "
           "the extension's DT_NEEDED as torch.utils.cpp_extension links a CUDAExtension, its "
           "one undefined c10 name the report's")


def dist(root, site, name, version, files=()):
    di = f"{site}/{name}-{version}.dist-info"
    w(root, f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    w(root, f"{di}/INSTALLER", "pip\n")
    w(root, f"{di}/RECORD", "".join(f"{f},,\n" for f in files) + f"{di.rsplit('/', 1)[1]}/METADATA,,\n")


def torch(root, site, version, cuda, exports):
    mk2.torch_dist(root, site, version, cuda)
    for lib in TORCH_LIBS:
        spec = f"so soname={lib}" + (f" exports={exports}" if lib == "libc10.so" else "")
        mk2.ELF.setdefault(root, []).append((f"{site}/torch/lib/{lib}", spec))


def extension(root, path, needs):
    soname = path.rsplit("/", 1)[1]
    mk2.ELF.setdefault(root, []).append(
        (path, f"so soname={soname} needed={','.join(TORCH_LIBS)} imports={needs}"))


def flash_attn(root, site, pyver, version, needs):
    tag = pyver.replace(".", "")
    so = f"flash_attn_2_cuda.cpython-{tag}-x86_64-linux-gnu.so"
    dist(root, site, "flash_attn", version, ["flash_attn/__init__.py", so])
    w(root, f"{site}/flash_attn/__init__.py", f'__version__ = "{version}"\n')
    extension(root, f"{site}/{so}", needs)
    return f"{site}/{so}"


def machine(name, pyver, site, conda=None):
    dst, root = fresh(name, "rtx4090-open-module")
    w(root, f"usr/bin/python{pyver}", "", 0o755)
    if conda:
        w(root, f"{conda}/conda-meta/history", "==> 2025-01-01 00:00:00 <==\n")
        w(root, f"{conda}/bin/python{pyver}", "", 0o755)
    return dst, root


def write_one(name, url, pasted, cause, fails, desc, source, variables, root_cause):
    dst = f"{mk2.FIX}/{name}"
    ini(dst, TOPIC, desc, source, variables,
        real_world(url, pasted, cause, root_cause,
                   "framework" if root_cause != "none" else "none", fails),
        section("rtx4090-open-module", "devices"))


def fa1644():
    name = FIXTURES[0]
    site = "/home/user/.local/lib/python3.10/site-packages"
    dst, root = machine(name, "3.10", site)
    torch(root, site, "2.7.0+cu128", "'12.8'", NEW)
    so = flash_attn(root, site, "3.10", "2.7.4.post1", OLD)
    write_one(name, "https://github.com/Dao-AILab/flash-attention/issues/1644",
              f"ImportError: {so}: undefined symbol: {OLD}",
              "flash-attn 2.7.4.post1 from pip was built for torch's old C++ ABI; torch "
              "2.7.0+cu128 (like 2.6.0+cu126) is built with the new one and no longer exports "
              "c10::Error's old-ABI constructor (pytorch/pytorch#152790, malfet)", "yes",
              "pip --user install of torch 2.7.0+cu128 and flash-attn 2.7.4.post1 (Python "
              "3.10): flash_attn_2_cuda needs the old-ABI c10::Error constructor, torch's "
              "libc10.so defines only the new-ABI one: importing flash_attn fails",
              "Rebuilt from https://github.com/Dao-AILab/flash-attention/issues/1644 (pasted: "
              "the ImportError under /home/user/.local/lib/python3.10/site-packages, "
              "torch 2.7.0 (cuda 12.8), flash_attn-2.7.4.post1, the nm -D of libc10_cuda.so "
              "naming _ZN3c105ErrorC2ENS_14SourceLocationESs in cu124's build and not in "
              "cu126's) and https://github.com/pytorch/pytorch/issues/152790 (the ABI change); "
              + SRC_ELF + "; not in the report and chosen here: the GPU and driver (the base "
              "tree's), /usr/bin/python3.10; " + SRC_BASE,
              {"PATH": "/home/user/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                       "/usr/bin:/sbin:/bin", "HOME": "/home/user"},
              "framework.extension-abi-mismatch")


def conda_case(name, url, user, env, pyver, torch_v, cuda, fa_v, exports, needs, cause, fails,
               desc, shown, pasted=None):
    prefix = f"/home/{user}/miniconda3/envs/{env}"
    site = f"{prefix}/lib/python{pyver}/site-packages"
    dst, root = machine(name, pyver, site, conda=prefix)
    torch(root, site, torch_v, cuda, exports)
    so = flash_attn(root, site, pyver, fa_v, needs)
    write_one(name, url, pasted or f"ImportError: {so}: undefined symbol: {needs}", cause, fails,
              desc, f"Rebuilt from {url} (pasted: {shown}); " + SRC_ELF +
              "; not in the report and chosen here: the GPU and driver (the base tree's) "
              + ("" if "miniconda3" in shown else f", the conda prefix {prefix}") + "; " +
              SRC_BASE,
              {"PATH": f"{prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                       "/bin", "HOME": f"/home/{user}", "CONDA_PREFIX": prefix},
              "framework.extension-abi-mismatch" if fails == "yes" else "none")


def openr1():
    conda_case(FIXTURES[1], "https://github.com/huggingface/open-r1/issues/684", "user", "openr1",
               "3.11", "2.6.0", "'12.4'", "2.8.0.post2", OLD, NEW,
               "flash-attn 2.8.0.post2 was built with _GLIBCXX_USE_CXX11_ABI=1, torch 2.6.0 "
               "with 0; installing flash-attn 2.7.4.post1 fixed it", "yes",
               "conda env openr1 (Python 3.11) with torch 2.6.0 and flash-attn 2.8.0.post2: "
               "flash_attn_2_cuda needs the new-ABI c10::Error constructor, torch's libc10.so "
               "defines only the old-ABI one",
               "the ImportError under /home/$USER/miniconda3/envs/openr1/lib/python3.11/"
               "site-packages, torch==2.6.0, flash_attn==2.8.0.post2 and the commenter's "
               "_GLIBCXX_USE_CXX11_ABI=1 against 0, and 2.7.4.post1 as the fix")


def fa1783(older):
    name = FIXTURES[6] if older else FIXTURES[2]
    fa_v, needs = ("2.7.4.post1", OLD) if older else ("2.8.2", NEW)
    url = "https://github.com/Dao-AILab/flash-attention/issues/1783"
    conda_case(name, url, "user", "fa", "3.11", "2.6.0+cu124", "'12.4'", fa_v, OLD, needs,
               "the flash_attn-2.8.2+cu12torch2.6cxx11abiFALSE wheel needs the new-ABI "
               "c10::Error constructor although torch 2.6.0+cu124 is built with the old ABI "
               "(torch._C._GLIBCXX_USE_CXX11_ABI False); the 2.7.4.post1 wheel of the same tag "
               "works" if not older else
               "with the flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE wheel (the "
               "reporter's workaround) the extension's needs are torch's: it imports",
               "no" if older else "yes",
               ("the machine of rw-fa-flash-attention-1783 with the reporter's workaround, "
                "flash-attn 2.7.4.post1 (old ABI), which torch 2.6.0+cu124 defines: imports")
               if older else
               "Python 3.11 environment with torch 2.6.0+cu124 (old C++ ABI) and the "
               "flash-attn 2.8.2 cxx11abiFALSE wheel, whose flash_attn_2_cuda needs the "
               "new-ABI c10::Error constructor",
               "torch 2.6.0+cu124, CUDA 12.4, Python 3.11.10, Ubuntu 22.04, "
               "torch._C._GLIBCXX_USE_CXX11_ABI False, the wheel names, the ImportError (its "
               "path redacted as /path/to) and the 2.7.4.post1 workaround",
               pasted="(the reporter's workaround: flash_attn-2.7.4.post1 imports)" if older
               else None)


def fa853():
    conda_case(FIXTURES[3], "https://github.com/Dao-AILab/flash-attention/issues/853", "user",
               "fa", "3.8", "2.2.0+cu118", "'11.8'", "2.5.5", OLD, NEW,
               "the flash_attn-2.5.5+cu118torch2.2cxx11abiTRUE wheel (new C++ ABI) under torch "
               "2.2.0 (old ABI); the cxx11abiFALSE wheel fixed it", "yes",
               "conda env (Python 3.8) with torch 2.2.0+cu118 and the flash-attn 2.5.5 "
               "cxx11abiTRUE wheel: flash_attn_2_cuda needs the new-ABI c10::Error constructor",
               "nspyf's comment: pip install of flash_attn-2.5.5+cu118torch2.2cxx11abiTRUE-cp38, "
               "PyTorch 2.2.0, CUDA 11.8, Python 3.8.18, fixed by the cxx11abiFALSE wheel; the "
               "missing name is not pasted there: the new-ABI c10::Error constructor of the same "
               "wheel family, as #680 and #1691 paste it, is chosen here")


def fa1696():
    conda_case(FIXTURES[4], "https://github.com/Dao-AILab/flash-attention/issues/1696", "user",
               "ml", "3.10", "2.7.0", "'12.6'", "2.7.3", NEW, OLD,
               "pip install flash-attn gave a flash_attn_2_cuda built for an older torch (old "
               "C++ ABI) under torch 2.7.0 (new ABI); building it from source with pip install "
               "--no-build-isolation fixed it", "yes",
               "conda env (Python 3.10) with torch 2.7.0 and flash-attn 2.7.3 from pip: "
               "flash_attn_2_cuda needs the old-ABI c10::Error constructor",
               "PyTorch 2.7.0, CUDA 12.6, Python 3.10, Ubuntu (Azure ML), flash-attn 2.7.3 via "
               "pip install flash-attn, the ImportError cut at _ZN3c105ErrorC2ENS_14Source, and "
               "the source build with --no-build-isolation as the fix; the rest of the name is "
               "the old-ABI spelling Dao-AILab/flash-attention#1644 pastes for torch 2.7.0")


def asff52():
    name = FIXTURES[5]
    prefix = "/home/user/anaconda3/envs/PkuNet_apex"
    site = f"{prefix}/lib/python3.7/site-packages"
    dst, root = machine(name, "3.7", site, conda=prefix)
    torch(root, site, "1.3.0", "'10.1'", TV_OLD)
    w(root, f"{site}/torchvision/__init__.py", "")
    so = f"{site}/torchvision/_C.so"
    extension(root, so, TV_NEW)
    write_one(name, "https://github.com/GOATmessi8/ASFF/issues/52",
              f"ImportError: {so}: undefined symbol: {TV_NEW}",
              "torchvision's _C.so was built for another torch (the new C++ ABI) than the "
              "torch 1.3 installed; the maintainer's answer: reinstall torchvision", "yes",
              "conda env PkuNet_apex (Python 3.7) with torch 1.3 (CUDA 10.1) and a torchvision "
              "whose _C.so needs the new-ABI c10::Error constructor: torchvision.ops.nms fails",
              "Rebuilt from https://github.com/GOATmessi8/ASFF/issues/52 (pasted: the "
              "ImportError of /home/user/anaconda3/envs/PkuNet_apex/lib/python3.7/"
              "site-packages/torchvision/_C.so, python3.7, pytorch1.3, cuda10.1; the "
              "maintainer's reinstall of torchvision); torch's old-ABI spelling as "
              "pytorch/pytorch#65651's nm of the official wheel shows it (RKSs for the "
              "const std::string& of torch 1.3's constructor); " + SRC_ELF +
              "; not in the report and chosen here: the patch release 1.3.0, the GPU and "
              "driver (the base tree's); " + SRC_BASE,
              {"PATH": f"{prefix}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
                       "/bin", "HOME": "/home/user", "CONDA_PREFIX": prefix},
              "framework.extension-abi-mismatch")


def write():
    fa1644()
    openr1()
    fa1783(False)
    fa853()
    fa1696()
    asff52()
    fa1783(True)
