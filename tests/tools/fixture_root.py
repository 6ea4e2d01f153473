#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Materialises a fixture root: tests/fixtures/<name>/root copied (symlinks kept as symlinks)
plus the binary files that are never committed, made from the scenario.ini that describes them.
Every reader of a fixture root (run-scenario.py, the unit tests, the shell checks, bench/) goes
through here, so a generated file exists wherever a root is read.

scenario.ini sections it reads:
  [modules]  /lib/modules/REL/…/nvidia.ko[.xz|.zst|.gz] = VERSION, SIGNER|-, COMPRESSION[, LICENSE
             [, FLAGS]]: a kernel module made by mk-kmodule.sh (an ELF relocatable object with
             nvidia.ko's .modinfo keys; signed as scripts/sign-file.c signs when SIGNER is not
             "-"; LICENSE "NVIDIA" unless given, "Dual MIT/GPL" for the open module; FLAGS the
             words of vermagic after REL, "SMP mod_unload modversions" unless given, as a
             report's "version magic" line shows them). Needs gcc, objcopy
             (openssl to sign, the compressor to compress).
  [elf]      /PATH = KIND key=value…: a shared object built by a compiler:
             so soname=S [needed=A,B] [runpath=R | rpath=R] [defines=F,G] [uses=F,G]
                [exports=F,G] [imports=F,G]
                                  a tiny gcc-built shared object whose only content that matters
                                  is its DT_SONAME (ld.so and gpuenv read SONAMEs, not code),
                                  and the DT_NEEDED entries and DT_RUNPATH/DT_RPATH given;
                                  defines= functions versioned under S, uses= functions it
                                  needs from the first needed= library under that one's soname;
                                  exports= functions defined unversioned (as torch's libc10.so
                                  exports c10:: by its mangled names), imports= functions called
                                  and left undefined, unversioned (a torch extension's needs)
             cuda soname=S sass=75,80 ptx=90 [lto=90 [ltoir=1.66]] [needed=A,B] [rpath=R] [launch]
                                  one CUDA kernel compiled by nvcc 13.0 for SASS sm_<sass> and PTX
                                  compute_<ptx> (.nv_fatbin), linked by gcc with SONAME S, the
                                  DT_NEEDED entries A,B (empty stand-ins) and DT_RPATH R; `launch`
                                  adds the kernel's host launcher. Needs nvcc 13.0: the goldens
                                  name what it emits (PTX ISA 9.0). lto= adds LTO-IR for each
                                  architecture (-gencode arch=compute_90,code=lto_90, -rdc=true,
                                  stored uncompressed: nvcc 13.0 writes LTO-IR 1.65); ltoir=
                                  rewrites that version in each LTO-IR entry's header and in its
                                  NVVM container (docs/formats/fatbin.md §4), for a release the
                                  installed nvcc is not.
             fatbin soname=S sass=35,52 ptx=70 ptxisa=6.4 [needed=A,B]
                                  a gcc-built shared object whose .nv_fatbin holds one container
                                  written by fatbin_writer.py: SASS and PTX entries of toolkits
                                  older than nvcc 13.0 (below sm_75), headers as theirs, code a
                                  stand-in (fatbin_writer.py says what). Needs gcc.
             hip soname=S gfx=gfx900,gfx906
                                  two HIP kernels compiled by clang 15 for each gfx target,
                                  bundled by clang-offload-bundler (.hip_fatbin). Needs clang-15.
A file whose tools are missing is not made: prepare() returns it with the reason, and the
caller skips what depends on it, saying so (never a silent pass). Built files are cached under
$GPUENV_BUILD_ROOT/tests/fixture-files, keyed by the spec, the tool's version and this file;
the build fills the cache (--fill-cache, meson's fixture-files target), so tests only copy.

  fixture_root.py SCENARIO_DIR DEST        make DEST; exit 77 if incomplete, printing
                                           `SKIP <name><path>: <why>` for each file not made
  fixture_root.py --fill-cache FIXTURES STAMP  build every [elf] file of FIXTURES/* into the cache
  fixture_root.py --exec SCENARIO_DIR CMD… run CMD with GPUENV_FIXTURE_ROOT=<a made root>
                                           (and GPUENV_FIXTURE_MISSING="path: why;…")
"""
import configparser
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fatbin_writer  # noqa: E402 (tests/tools, beside this file)


class Missing(Exception):
    """A tool the file needs is not installed: the reason, for the caller's SKIP line."""


def read_ini(scenario_dir):
    ini = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    ini.optionxform = str
    ini.read(os.path.join(scenario_dir, "scenario.ini"))
    return ini


def generated(ini):
    """The (section, path, spec) of every file the scenario makes at test time."""
    return [(s, p, v) for s in ("modules", "elf") if ini.has_section(s) for p, v in ini.items(s)]


def need(*tools):
    for t in tools:
        if not shutil.which(t):
            raise Missing(f"{t} is not installed")


def run(cmd, **kw):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, **kw)


def parse_spec(path, spec):
    words = spec.split()
    if not words:
        sys.exit(f"[elf] {path}: empty spec, want 'so|cuda|hip key=value…'")
    opts = {}
    for w in words[1:]:
        k, _, v = w.partition("=")
        opts[k] = v
    if "soname" not in opts:
        sys.exit(f"[elf] {path} = {spec}: no soname=")
    return words[0], opts


def tool_version(kind):
    """The compiler's version line (part of the cache key); raises Missing without the tools."""
    if kind in ("so", "fatbin"):
        need("gcc")
        return subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    if kind == "cuda":
        need("nvcc", "gcc", "strip")
        v = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
        if "release 13.0," not in v:
            rel = [l for l in v.splitlines() if "release" in l]
            raise Missing(f"nvcc 13.0 is needed (here: {rel[0].strip() if rel else 'unknown'}): "
                          "the goldens name what nvcc 13.0 emits (PTX ISA 9.0)")
        return v
    if kind == "hip":
        need("clang-15", "strip")
        if not bundler():
            raise Missing("clang-offload-bundler (clang-tools) is not installed")
        return subprocess.run(["clang-15", "--version"], capture_output=True, text=True).stdout
    sys.exit(f"[elf]: unknown kind '{kind}' (want so, cuda, fatbin or hip)")


def bundler():
    return shutil.which("clang-offload-bundler") or shutil.which("clang-offload-bundler-15") or \
        shutil.which("clang-offload-bundler-14")


def versioned_functions(names, node):
    """C functions named names and a version script that puts them under the version node
    node, as NVIDIA's libraries version theirs under their soname
    (__nvJitLinkComplete_12_4@@libnvJitLink.so.12)."""
    src = "".join(f"int {n}(void) {{ return 0; }}\n" for n in names)
    return src.encode(), f"{node} {{ global: {'; '.join(names)}; local: *; }};\n"


def build_so(out, soname, o=None):
    """needed=A,B adds DT_NEEDED entries (empty stand-ins linked by name), runpath=R a
    DT_RUNPATH (ld's new dtags), rpath=R a DT_RPATH: what ld.so reads to find them.
    defines=F,G: functions F, G versioned under the soname (a version script); uses=F,G:
    calls to F, G, which the first needed= stand-in defines under its soname, so that they
    are undefined here, needed under that version (.gnu.version_r)."""
    o = o or {}
    needed = list(filter(None, o.get("needed", "").split(",")))
    uses = list(filter(None, o.get("uses", "").split(",")))
    defines = list(filter(None, o.get("defines", "").split(",")))
    exports = list(filter(None, o.get("exports", "").split(",")))
    imports = list(filter(None, o.get("imports", "").split(",")))
    body = b"int f(void) { return 1; }\n"
    body += "".join(f"int {n}(void) {{ return 0; }}\n" for n in exports).encode()
    if imports:
        body += "".join(f"int {n}(void);\n" for n in imports).encode()
        body += ("int h(void) { return " + " + ".join(f"{n}()" for n in imports) +
                 "; }\n").encode()
    with tempfile.TemporaryDirectory() as t:
        extra = []
        for i, so in enumerate(needed):
            src, script = b"", None
            if i == 0 and uses:
                src, script = versioned_functions(uses, so)
                with open(f"{t}/{so}.map", "w") as f:
                    f.write(script)
            run(["gcc", "-x", "c", "-", "-shared", "-fPIC", "-nostdlib", "-o", f"{t}/{so}",
                 f"-Wl,-soname,{so}"] + ([f"-Wl,--version-script,{t}/{so}.map"] if script else []),
                input=src)
        if needed:
            extra = ["-x", "none", "-Wl,--no-as-needed"] + [f"{t}/{so}" for so in needed]
        if "runpath" in o:
            extra += ["-Wl,--enable-new-dtags", f"-Wl,-rpath,{o['runpath']}"]
        elif "rpath" in o:
            extra += ["-Wl,--disable-new-dtags", f"-Wl,-rpath,{o['rpath']}"]
        if uses:
            body += "".join(f"int {n}(void);\n" for n in uses).encode()
            body += ("int g(void) { return " + " + ".join(f"{n}()" for n in uses) +
                     "; }\n").encode()
        if defines:
            src, script = versioned_functions(defines, soname)
            body += src
            with open(f"{t}/self.map", "w") as f:
                f.write(script)
            extra += [f"-Wl,--version-script,{t}/self.map"]
        run(["gcc", "-x", "c", "-", "-shared", "-fPIC", "-nostdlib", "-s", "-Wl,--build-id=none",
             "-Wl,-z,noseparate-code", "-Wl,-z,norelro", "-Wl,--hash-style=gnu",
             f"-Wl,-soname,{soname}", "-o", out] + extra, input=body)


CUDA_KERNEL = ("__global__ void gpuenv_fixture_fill(float *p, float v, int n)\n{\n"
               "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tp[i] = v;\n}\n")
CUDA_LAUNCH = ('extern "C" void gpuenv_fixture_launch(float *p, float v, int n)\n{\n'
               "\tgpuenv_fixture_fill<<<(n + 255) / 256, 256>>>(p, v, n);\n}\n")


def build_cuda(out, o):
    """One kernel: SASS for each of sass=, PTX for each of ptx= (nvcc's -gencode)."""
    with tempfile.TemporaryDirectory() as t:
        with open(f"{t}/k.cu", "w") as f:
            f.write(CUDA_KERNEL + (CUDA_LAUNCH if "launch" in o else ""))
        gen = []
        for a in filter(None, o.get("sass", "").split(",")):
            gen += ["-gencode", f"arch=compute_{a},code=sm_{a}"]
        for a in filter(None, o.get("ptx", "").split(",")):
            gen += ["-gencode", f"arch=compute_{a},code=compute_{a}"]
        for a in filter(None, o.get("lto", "").split(",")):
            gen += ["-gencode", f"arch=compute_{a},code=lto_{a}"]
        if "lto" in o:  # LTO-IR is device-link input: relocatable device code only
            gen += ["-rdc=true", "--compress-mode=none"]
        run(["nvcc", "-c", "-Xcompiler", "-fPIC", "-cudart", "none"] + gen +
            [f"{t}/k.cu", "-o", f"{t}/k.o"])
        link = ["gcc", "-shared", "-o", out, f"{t}/k.o"]
        needed = list(filter(None, o.get("needed", "").split(",")))
        if needed:
            open(f"{t}/e.c", "w").close()
            for so in needed:
                run(["gcc", "-shared", "-o", f"{t}/{so}", f"-Wl,-soname,{so}", f"{t}/e.c"])
            link += ["-Wl,--no-as-needed"]
        link += [f"-Wl,-soname,{o['soname']}"]
        if "rpath" in o:
            link += ["-Wl,--disable-new-dtags", f"-Wl,-rpath,{o['rpath']}"]
        run(link + [f"{t}/{so}" for so in needed])
        run(["strip", "--strip-unneeded", out])
    if "ltoir" in o:
        set_ltoir_version(out, o["ltoir"])


FATBIN_MAGIC = bytes.fromhex("50ed55ba")  # 0xba55ed50, little-endian (docs/formats/fatbin.md)
NVVM_MAGIC = bytes.fromhex("ed434e7f")    # an NVVM IR container (the LTO-IR payload)


def set_ltoir_version(path, version):
    """Writes MAJOR.MINOR into every uncompressed LTO-IR entry (kind 8) of every fat binary
    container in the file: the entry header's copy (+0x1a major, +0x18 minor, 16 bits each)
    and the NVVM container's own (bytes 4 and 5 of the payload), which nvJitLink reads."""
    major, minor = (int(x) for x in version.split("."))
    with open(path, "rb") as f:
        data = bytearray(f.read())
    done, pos = 0, data.find(FATBIN_MAGIC)
    while pos >= 0:
        hdr = int.from_bytes(data[pos + 6:pos + 8], "little")
        size = int.from_bytes(data[pos + 8:pos + 16], "little")
        off, end = pos + hdr, pos + hdr + size
        while off + 16 <= end:
            kind = int.from_bytes(data[off:off + 2], "little")
            ehdr = int.from_bytes(data[off + 4:off + 8], "little")
            psize = int.from_bytes(data[off + 8:off + 16], "little")
            body = off + ehdr
            if kind == 8 and data[body:body + 4] == NVVM_MAGIC:
                data[off + 0x18:off + 0x1a] = minor.to_bytes(2, "little")
                data[off + 0x1a:off + 0x1c] = major.to_bytes(2, "little")
                data[body + 4], data[body + 5] = major, minor
                done += 1
            if ehdr == 0:
                break
            off = body + psize
        pos = data.find(FATBIN_MAGIC, pos + 4)
    if not done:
        sys.exit(f"{path}: no uncompressed LTO-IR entry to set to {version}")
    with open(path, "wb") as f:
        f.write(data)


def build_fatbin(out, o):
    """The container of fatbin_writer.py in a shared object with SONAME S (and DT_NEEDED A,B)."""
    archs = lambda k: [int(a) for a in filter(None, o.get(k, "").split(","))]
    blob = fatbin_writer.container(archs("sass"), archs("ptx"), o.get("ptxisa", "6.4"))
    with tempfile.TemporaryDirectory() as t:
        with open(f"{t}/k.c", "w") as f:
            f.write(fatbin_writer.c_source(blob))
        link = ["gcc", "-shared", "-fPIC", "-o", out, f"{t}/k.c", f"-Wl,-soname,{o['soname']}"]
        needed = list(filter(None, o.get("needed", "").split(",")))
        for so in needed:
            run(["gcc", "-x", "c", "-", "-shared", "-fPIC", "-nostdlib", "-o", f"{t}/{so}",
                 f"-Wl,-soname,{so}"], input=b"")
        if needed:
            link += ["-Wl,--no-as-needed"] + [f"{t}/{so}" for so in needed]
        run(link)
        run(["strip", "--strip-unneeded", out])


HIP_KERNEL = """/* gpuenv test fixture: a stand-in for one translation unit of a HIP kernel library. The HIP
 * headers are not installed here, so the two runtime entry points the kernel's host stub calls
 * are declared as hip_runtime_api.h declares them. */
typedef unsigned long size_t;
struct dim3 {
	unsigned x, y, z;
};
typedef struct ihipStream_t *hipStream_t;
extern "C" int hipLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem,
			       hipStream_t stream);
extern "C" int __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, hipStream_t *stream);

__attribute__((global)) void gpuenv_fixture_%s(float *p, float v)
{
	p[0] %s v;
}
"""


def build_hip(out, o):
    """Two translation units, each a clang offload bundle (-type=o, -bundle-align=4096,
    host-x86_64-unknown-linux + hipv4-amdgcn-amd-amdhsa--<gfx>) of code objects for gfx=,
    embedded by clang's HIP host compile (-fcuda-include-gpubinary: .hip_fatbin)."""
    arches = o.get("gfx", "").split(",")
    with tempfile.TemporaryDirectory() as t:
        # clang's HIP device compile leaves a directory per source in $TMPDIR (/tmp/fill-…,
        # /tmp/scale-…): here they go with t
        env = dict(os.environ, TMPDIR=t)
        objs = []
        for name, op in (("fill", "="), ("scale", "*=")):
            src = f"{t}/{name}.hip"
            with open(src, "w") as f:
                f.write(HIP_KERNEL % (name, op))
            cos = []
            for a in arches:
                co = f"{t}/{name}-{a}.co"
                run(["clang-15", "-x", "hip", "--offload-device-only", "--no-gpu-bundle-output",
                     f"--offload-arch={a}", "-nogpulib", "-nogpuinc", "-O2", src, "-o", co],
                    env=env)
                cos.append(co)
            fb = f"{t}/{name}.hipfb"
            targets = ["host-x86_64-unknown-linux"] + [f"hipv4-amdgcn-amd-amdhsa--{a}" for a in arches]
            run([bundler(), "--type=o", "--bundle-align=4096", "--targets=" + ",".join(targets),
                 "--inputs=" + ",".join(["/dev/null"] + cos), f"--outputs={fb}"])
            obj = f"{t}/{name}.o"
            run(["clang-15", "-x", "hip", "--offload-host-only", "-nogpulib", "-nogpuinc", "-fPIC",
                 "-O2", "-c", src, "-Xclang", "-fcuda-include-gpubinary", "-Xclang", fb, "-o", obj],
                env=env)
            objs.append(obj)
        run(["clang-15", "-shared", "-o", out, f"-Wl,-soname,{o['soname']}"] + objs)
        run(["strip", "--strip-unneeded", out])


BUILDERS = {"so": lambda out, o: build_so(out, o["soname"], o), "cuda": build_cuda,
            "fatbin": build_fatbin, "hip": build_hip}


def make_elf(out, path, spec):
    """Builds one [elf] file at out (through the cache); raises Missing without its tools."""
    kind, opts = parse_spec(path, spec)
    key = hashlib.sha256("\0".join([kind, spec, tool_version(kind)]).encode())
    for src in (os.path.abspath(__file__), fatbin_writer.__file__):
        with open(src, "rb") as f:
            key.update(f.read())
    build_root = os.environ.get("GPUENV_BUILD_ROOT")
    cache = os.path.join(build_root, "tests", "fixture-files", key.hexdigest()) if build_root else None
    if not (cache and os.path.exists(cache)):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(out))
        os.close(fd)
        BUILDERS[kind](tmp, opts)
        if cache:
            try:
                os.makedirs(os.path.dirname(cache), exist_ok=True)
                shutil.copyfile(tmp, cache + f".{os.getpid()}")
                os.replace(cache + f".{os.getpid()}", cache)  # atomic: parallel tests share it
            except OSError as e:  # a build directory of another user: build each time
                sys.stderr.write(f"fixture_root.py: not cached ({cache}: {e.strerror})\n")
        os.replace(tmp, out)
    else:
        shutil.copyfile(cache, out)
    os.chmod(out, 0o755)


def make_module(out, path, spec, keydir):
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) not in (3, 4, 5):
        sys.exit(f"[modules] {path} = {spec}: want 'VERSION, SIGNER|-, COMPRESSION[, LICENSE"
                 "[, FLAGS]]'")
    need("gcc", "objcopy", *(("openssl",) if parts[1] != "-" else ()),
         *({"xz": ("xz",), "zstd": ("zstd",), "gzip": ("gzip",)}.get(parts[2], ())))
    # the release of the …/lib/modules/REL/ directory it is in (NixOS's is a store path)
    mods = path.find("/lib/modules/")
    rel = (path[mods + len("/lib/modules/"):].split("/")[0] if mods >= 0
           else "6.8.0-45-generic")
    run(["sh", os.path.join(HERE, "mk-kmodule.sh"), out, parts[0], parts[1], parts[2], keydir, rel,
         parts[3] if len(parts) > 3 else "NVIDIA", "nvidia", *parts[4:]])


def prepare(scenario_dir, dest, keydir=None):
    """Copies scenario_dir/root to dest and makes its generated files there. Returns the
    [(path, why)] of the files it could not make (a tool missing)."""
    ini = read_ini(scenario_dir)
    shutil.copytree(os.path.join(scenario_dir, "root"), dest, symlinks=True)
    missing = []
    with tempfile.TemporaryDirectory() as tmp:
        for section, path, spec in generated(ini):
            out = os.path.join(dest, path.lstrip("/"))
            if os.path.lexists(out):
                sys.exit(f"[{section}] {path}: the file is committed in root/ too (it must not be)")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            try:
                if section == "modules":
                    make_module(out, path, spec, keydir or os.path.join(tmp, "keys"))
                else:
                    make_elf(out, path, spec)
            except Missing as e:
                missing.append((path, str(e)))
    return missing


def fill_cache(fixtures, stamp):
    """Builds every [elf] file of every scenario into the cache (the build step: meson's
    fixture-files target), so that no test waits on a compiler. A file whose tools are missing
    is named, not an error: the tests that need it skip."""
    lines = []
    with tempfile.TemporaryDirectory() as t:
        for name in sorted(os.listdir(fixtures)):
            if not os.path.isfile(os.path.join(fixtures, name, "scenario.ini")):
                continue
            for section, path, spec in generated(read_ini(os.path.join(fixtures, name))):
                if section != "elf":
                    continue
                try:
                    make_elf(os.path.join(t, "f"), path, spec)
                    lines.append(f"made {name}{path}")
                except Missing as e:
                    lines.append(f"not made {name}{path}: {e}")
                    print(f"fixture_root.py: not made: {name}{path}: {e} (its tests will skip)")
    with open(stamp, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--fill-cache":
        fill_cache(args[1], args[2])
        return
    if len(args) >= 3 and args[0] == "--exec":
        scenario_dir, cmd = args[1], args[2:]
        with tempfile.TemporaryDirectory(prefix="gpuenv-fixture-") as tmp:
            root = os.path.join(tmp, "root")
            missing = prepare(scenario_dir, root)
            env = dict(os.environ, GPUENV_FIXTURE_ROOT=root,
                       GPUENV_FIXTURE_MISSING="; ".join(f"{p}: {w}" for p, w in missing))
            sys.stdout.flush()
            sys.exit(subprocess.run(cmd, env=env).returncode)
    if len(args) != 2:
        sys.exit(__doc__)
    missing = prepare(args[0], args[1])
    for path, why in missing:
        # count-results.py's skip line: whatever needed this file was not checked
        print(f"SKIP {os.path.basename(os.path.normpath(args[0]))}{path}: {why}")
    sys.exit(77 if missing else 0)


if __name__ == "__main__":
    main()
