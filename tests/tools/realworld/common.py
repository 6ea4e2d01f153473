# SPDX-License-Identifier: GPL-2.0-or-later
"""The helpers of the real-world fixture writers (tests/tools/realworld/<topic>.py, driven by
tests/tools/mk-real-world-fixtures.py). A real-world fixture is a machine rebuilt from a public
bug report: what the report pasted is kept as pasted, what it leaves out comes from a base
fixture (named in `source`) and is kept neutral. Each scenario.ini has the same layout:
[scenario], [env], the sections a topic adds ([devices], [modules], [efivars], [nvml] …),
[elf], then [real-world] (docs/HACKING.md, "Real-world fixtures and the corpus score").

The file helpers (w, link, so, base_root, venv, torch_dist) are those of mk-rules2-fixtures.py,
imported, not copied. Binary files are never written: so() records an [elf] line and
tests/tools/fixture_root.py makes the file at test time; kernel modules and EFI variables are
[modules] and [efivars] lines (fixture_root.py, run-scenario.py).
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(TOOLS, file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


mk2 = _load("mk_rules2_fixtures", "mk-rules2-fixtures.py")
fixture_root = _load("fixture_root", "fixture_root.py")

FIX = mk2.FIX
w, link, so = mk2.w, mk2.link, mk2.so
base_root, venv, torch_dist = mk2.base_root, mk2.venv, mk2.torch_dist
SRC_BASE = mk2.SRC_BASE
WRITER = "tests/tools/mk-real-world-fixtures.py"


def fresh(name, base=None):
    """tests/fixtures/<name> with an empty root/ (or a copy of <base>'s, symlinks kept); the
    goldens under expected/ stay. Returns (scenario dir, root)."""
    dst = f"{FIX}/{name}"
    os.makedirs(dst, exist_ok=True)
    root = f"{dst}/root"
    if os.path.exists(root):
        shutil.rmtree(root)
    mk2.ELF.pop(root, None)
    if base:
        shutil.copytree(f"{FIX}/{base}/root", root, symlinks=True)
    else:
        os.makedirs(root)
    return dst, root


def read(root, path):
    with open(os.path.join(root, path.lstrip("/"))) as f:
        return f.read()


def section(fixture, name):
    """One section of another fixture's scenario.ini, as "[name]\\n…lines…\\n"."""
    with open(f"{FIX}/{fixture}/scenario.ini") as f:
        text = f.read()
    start = text.index(f"[{name}]\n")
    end = text.find("\n[", start)
    return text[start:end if end >= 0 else len(text)].rstrip("\n") + "\n"


def env(variables):
    return "[env]\n" + "".join(f"{k}={v}\n" for k, v in variables.items())


def real_world(url, pasted, cause, root_cause, layer, fails, also=""):
    """also: "RULE URL; …", further errors the machine truly has, each with the public
    report that established it (score-real-world.py: they must fire, and are not extra)."""
    return (f"[real-world]\nurl = {url}\npasted = {pasted}\ncause = {cause}\n"
            f"root_cause = {root_cause}\nlayer = {layer}\nfails = {fails}\n"
            + (f"also = {also}\n" if also else ""))


def ini(dst, topic, desc, source, variables, rw, *sections, args="--no-vendor"):
    """Writes dst/scenario.ini: [scenario] (its source ending with the writer and topic that
    made the tree), [env], the sections given, [elf] (the so() lines of this root, sorted),
    [real-world]."""
    text = (f"[scenario]\ndescription = {desc}\nsource = {source}; the tree is written by "
            f"{WRITER} (topic {topic}: tests/tools/realworld/{topic}.py)\nargs = {args}\n")
    parts = [env(variables), *sections]
    elf = sorted(("/" + p.lstrip("/"), spec) for p, spec in mk2.ELF.get(f"{dst}/root", []))
    if elf:
        parts.append("[elf]\n" + "".join(f"{p} = {spec}\n" for p, spec in elf))
    parts.append(rw)
    text += "".join("\n" + p for p in parts if p)
    with open(f"{dst}/scenario.ini", "w") as f:
        f.write(text)


def torch_cu121(root, site, version):
    """A torch built with CUDA 12.1 as pip installs it: its dist with the
    nvidia-cuda-runtime-cu12==12.1.105 pin, and that wheel's dist-info only (its libcudart is
    not what fails in these reports; no ELF file)."""
    torch_dist(root, site, version, "'12.1'",
               requires=["nvidia-cuda-runtime-cu12==12.1.105; platform_system == \"Linux\" "
                         "and platform_machine == \"x86_64\""])
    di = f"{site}/nvidia_cuda_runtime_cu12-12.1.105.dist-info"
    w(root, f"{di}/METADATA", "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\n"
      "Version: 12.1.105\nSummary: CUDA Runtime native Libraries\n")
    w(root, f"{di}/INSTALLER", "pip\n")


def ldso_cache(dst):
    """etc/ld.so.cache as glibc's `ldconfig -r` writes it over the tree with its [elf] files
    made (in a temporary copy: the tree itself never holds them), so which copy of a library
    comes first is what ldconfig decides. Call after ini()."""
    with tempfile.TemporaryDirectory() as tmp:
        made = os.path.join(tmp, "root")
        missing = fixture_root.prepare(dst, made)
        if missing:
            sys.exit(f"{dst}: cannot make {missing} for ldconfig")
        # -r chroots (as root only), without which ldconfig refuses a relative `include`;
        # a user gets root's view of the tree in a user namespace of its own (unshare(1))
        ldconfig = ["/sbin/ldconfig", "-r", made]
        if os.geteuid() != 0:
            ldconfig = ["unshare", "--map-root-user"] + ldconfig
        subprocess.run(ldconfig, check=True, stderr=subprocess.DEVNULL)
        shutil.copyfile(f"{made}/etc/ld.so.cache", f"{dst}/root/etc/ld.so.cache")


def retarget(root, old, new):
    """Every text file of the tree outside sysfs that names `old` (a base fixture's driver
    version) names `new`; sysfs files are the caller's to rewrite."""
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.islink(p) or "/sys/" in p:
                continue
            try:
                text = open(p).read()
            except UnicodeDecodeError:
                continue
            changed = text.replace(old, new)
            if changed != text:
                w(root, os.path.relpath(p, root), changed)


def move_kernel(root, old, new):
    """The base tree's kernel <old> as <new>: /proc/sys/kernel/osrelease, the
    lib/modules/<rel>/build link and the headers' include/config/kernel.release."""
    w(root, "proc/sys/kernel/osrelease", new + "\n")
    shutil.rmtree(f"{root}/lib/modules/{old}")
    link(root, f"lib/modules/{new}/build", f"/usr/src/linux-headers-{new}")
    shutil.rmtree(f"{root}/usr/src/linux-headers-{old}")
    w(root, f"usr/src/linux-headers-{new}/include/config/kernel.release", new + "\n")


# ---- os-release(5) texts, verbatim from each distribution ---------------------------------

_UBUNTU_URLS = ('HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
                'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
                'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/'
                'privacy-policy"\n')


def dpkg(root, pkgs):
    """/var/lib/dpkg/status with one installed stanza per package: version."""
    text = ""
    for name, ver in pkgs.items():
        text += (f"Package: {name}\nStatus: install ok installed\nPriority: optional\n"
                 f"Section: libs\nArchitecture: amd64\nVersion: {ver}\n\n")
    w(root, "var/lib/dpkg/status", text)


def ubuntu_os_release(version, name, codename, logo=True):
    """The os-release of Ubuntu 22.04 and later (PRETTY_NAME first)."""
    return (f'PRETTY_NAME="Ubuntu {version} LTS"\nNAME="Ubuntu"\n'
            f'VERSION_ID="{version[:5]}"\nVERSION="{version} LTS ({name})"\n'
            f'VERSION_CODENAME={codename}\nID=ubuntu\nID_LIKE=debian\n' + _UBUNTU_URLS +
            f'UBUNTU_CODENAME={codename}\n' + ("LOGO=ubuntu-logo\n" if logo else ""))


UBUNTU2004_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="20.04.6 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 20.04.6 LTS"\nVERSION_ID="20.04"\n' + _UBUNTU_URLS +
    'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')
UBUNTU2104_OS_RELEASE = (
    'NAME="Ubuntu"\nVERSION="21.04 (Hirsute Hippo)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 21.04"\nVERSION_ID="21.04"\n' + _UBUNTU_URLS +
    'VERSION_CODENAME=hirsute\nUBUNTU_CODENAME=hirsute\n')
FEDORA36_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="36 (Workstation Edition)"\nID=fedora\nVERSION_ID=36\n'
    'VERSION_CODENAME=""\nPLATFORM_ID="platform:f36"\n'
    'PRETTY_NAME="Fedora Linux 36 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:36"\n'
    'HOME_URL="https://fedoraproject.org/"\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')
FEDORA41_OS_RELEASE = (
    'NAME="Fedora Linux"\nVERSION="41 (Workstation Edition)"\nRELEASE_TYPE=stable\nID=fedora\n'
    'VERSION_ID=41\nVERSION_CODENAME=""\nPLATFORM_ID="platform:f41"\n'
    'PRETTY_NAME="Fedora Linux 41 (Workstation Edition)"\nANSI_COLOR="0;38;2;60;110;180"\n'
    'LOGO=fedora-logo-icon\nCPE_NAME="cpe:/o:fedoraproject:fedora:41"\n'
    'DEFAULT_HOSTNAME="fedora"\nHOME_URL="https://fedoraproject.org/"\n'
    'DOCUMENTATION_URL="https://docs.fedoraproject.org/en-US/fedora/f41/system-administrators-guide/"\n'
    'SUPPORT_URL="https://ask.fedoraproject.org/"\n'
    'BUG_REPORT_URL="https://bugzilla.redhat.com/"\nREDHAT_BUGZILLA_PRODUCT="Fedora"\n'
    'REDHAT_BUGZILLA_PRODUCT_VERSION=41\nREDHAT_SUPPORT_PRODUCT="Fedora"\n'
    'REDHAT_SUPPORT_PRODUCT_VERSION=41\nSUPPORT_END=2025-12-15\nVARIANT="Workstation Edition"\n'
    'VARIANT_ID=workstation\n')
ARCH_OS_RELEASE = (
    'NAME="Arch Linux"\nPRETTY_NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n'
    'ANSI_COLOR="38;2;23;147;209"\nHOME_URL="https://archlinux.org/"\n'
    'DOCUMENTATION_URL="https://wiki.archlinux.org/"\nSUPPORT_URL="https://bbs.archlinux.org/"\n'
    'BUG_REPORT_URL="https://gitlab.archlinux.org/groups/archlinux/-/issues"\n'
    'PRIVACY_POLICY_URL="https://terms.archlinux.org/docs/privacy-policy/"\nLOGO=archlinux-logo\n')


# ---- WSL2 -----------------------------------------------------------------------------------

WSL_RELEASE = "5.15.167.4-microsoft-standard-WSL2"
WSL_LD_CONF = ("# This file was automatically generated by WSL. To stop automatic generation of "
               "this file, add the following entry to /etc/wsl.conf:\n# [automount]\n"
               "# ldconfig = false\n/usr/lib/wsl/lib\n")
MULTIARCH_LD_CONF = ("# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
                     "/usr/lib/x86_64-linux-gnu\n")


def driver_libs(root, version, libdir="usr/lib/x86_64-linux-gnu", dev_links=("libcuda.so",)):
    """A driver's libcuda and libnvidia-ml as its packages install them: lib<x>.so.<version>
    (an [elf] stand-in with the real SONAME), the SONAME link and the development links."""
    for lib in ("libcuda", "libnvidia-ml"):
        so(root, f"{libdir}/{lib}.so.{version}", f"{lib}.so.1")
        link(root, f"{libdir}/{lib}.so.1", f"{lib}.so.{version}")
    for d in dev_links:
        link(root, f"{libdir}/{d}", d[:-3].split("/")[-1] + ".so.1")
