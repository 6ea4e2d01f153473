#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv capture` (docs/fleet.md, "Capture"): bundles of fixture roots replay, unpacked with
GNU tar and read in place (--sysroot bundle.tar.zst), to the same `report --stable --json` as
the original root and as their own snapshot.json, which --from and diff also read from the
bundle; a root whose libraries grew past 64 MiB keeps only the ranges read (real size, holes
elsewhere) and still replays the same, in a bundle under 2 MB; a torch 2.11+cu130 venv made
of the real CUDA 13.0 libraries (2.2 GB) makes a bundle under 2 MB that replays the same GPU
code; the fake NVML's and libcuda's sessions and a kernel ring buffer are kept and replayed;
--redact leaves no host name, UUID or home directory's user name in any name, link or file
of the bundle, binaries included; a hostile or unwritable -o fails with a clear message and
exit 74, leaving no temporary file and an existing bundle untouched. The live machine's
bundle size is printed, and its replay keeps the kernel log it read.
Usage: test-capture-bundle.py GPUENV"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

GPUENV = os.path.abspath(sys.argv[1])
SRC = os.environ.get("GPUENV_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(SRC, "tests", "fixtures")
SIZE_CAP = 2 * 1000 * 1000
UUID = re.compile(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# UEFI's EFI_GLOBAL_VARIABLE and shim's GUIDs name no machine (efivars file names): kept
PUBLIC_GUIDS = (b"8be4df61-93ca-11d2-aa0d-00e098032b8c", b"605dab50-e046-4300-abb6-3dd810dd8b23")
failed = 0


def private_uuids(data):
    return [m.group(0) for m in UUID.finditer(data)
            if m.group(0).strip(b"0-") and m.group(0).lower() not in PUBLIC_GUIDS]


def expect(what, cond, detail=""):
    global failed
    print(f"ok: {what}" if cond else f"FAIL: {what} {detail}")
    failed |= not cond


def gpuenv(*args, **kw):
    return subprocess.run([GPUENV, *args], capture_output=True, **kw)


incomplete = set()  # fixtures whose generated files could not all be made here (no nvcc …)


def fixture_root(name, tmp):
    """The fixture's root as the scenario tests see it (generated files made)."""
    d = os.path.join(FIXTURES, name)
    ini = open(os.path.join(d, "scenario.ini")).read()
    if "[elf]" not in ini and "[modules]" not in ini:
        return os.path.join(d, "root")
    dest = os.path.join(tmp, name + ".root")
    if os.path.isdir(dest):
        return dest
    r = subprocess.run([sys.executable, os.path.join(HERE, "fixture_root.py"), d, dest],
                       capture_output=True, text=True)
    if r.returncode == 77:
        print(r.stdout.strip())
        incomplete.add(name)
    elif r.returncode != 0:
        sys.exit(f"FAIL: fixture_root.py {name}: {r.stderr}")
    return dest


def report(*args):
    r = gpuenv("report", "--stable", "--json", *args)
    return r.stdout if r.returncode == 0 else b"exit %d: %s" % (r.returncode, r.stderr)


def capture_and_unpack(root, tmp, name, *extra):
    bundle = os.path.join(tmp, name + ".tar.zst")
    r = gpuenv("capture", "-o", bundle, "--sysroot", root, "--no-vendor", *extra)
    if r.returncode != 0:
        return None, f"capture exit {r.returncode}: {r.stderr.decode(errors='replace')}"
    out = os.path.join(tmp, name + ".unpacked")
    os.mkdir(out)
    t = subprocess.run(["tar", "--zstd", "-xf", bundle, "-C", out], capture_output=True)
    if t.returncode != 0:
        return None, f"tar -x: {t.stderr.decode(errors='replace')}"
    return (bundle, out), ""


def check_replay(name, tmp):
    root = fixture_root(name, tmp)
    got, why = capture_and_unpack(root, tmp, name)
    if not got:
        expect(f"{name}: capture", False, why)
        return
    bundle, out = got
    orig = report("--sysroot", root, "--no-vendor")
    replay = report("--sysroot", os.path.join(out, "root"), "--no-vendor")
    in_place = report("--sysroot", bundle, "--no-vendor")
    from_snapshot = report("--from", os.path.join(out, "snapshot.json"))
    from_bundle = report("--from", bundle)
    size = os.path.getsize(bundle)
    expect(f"{name}: the bundle, unpacked or in place, replays to the same report, as does its "
           f"snapshot.json, read unpacked or by --from from the bundle ({size} bytes)",
           orig == replay == in_place == from_snapshot == from_bundle and size <= SIZE_CAP,
           f"size {size}; replay same: {orig == replay}, in place: {orig == in_place}, "
           f"snapshot: {orig == from_snapshot}, --from bundle: {orig == from_bundle}")


def check_large(tmp):
    """Libraries grown by 64 MiB of trailing zeros (nothing a parser reads): kept in part."""
    src = fixture_root("python-venv-torch24-cu124", tmp)
    if "python-venv-torch24-cu124" in incomplete:
        # the libraries a probe reads in part (libtorch_cuda.so's kernels) are nvcc's output
        print("SKIP capture-bundle large: python-venv-torch24-cu124 lacks its generated "
              "libraries here (see the SKIP above)")
        return
    root = os.path.join(tmp, "large.root")
    shutil.copytree(src, root, symlinks=True)
    grown = []
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as fh:
                if fh.read(4) != b"\x7fELF":
                    continue
            os.truncate(p, os.path.getsize(p) + (64 << 20))
            grown.append(p[len(root):])
    got, why = capture_and_unpack(root, tmp, "large")
    if not got:
        expect("large: capture", False, why)
        return
    bundle, out = got
    meta = json.load(open(os.path.join(out, "capture.json")))
    partial = {e["path"]: e for e in meta["partial"]}
    sizes_ok = all(os.path.getsize(os.path.join(out, "root") + p) == e["size"]
                   for p, e in partial.items())
    size = os.path.getsize(bundle)
    expect(f"large: {len(grown)} ELF files grown past 64 MiB, {len(partial)} read and kept in "
           f"part at their real size; bundle {size} bytes", partial and sizes_ok and
           size <= SIZE_CAP and all(e["kept"] < e["size"] for e in partial.values()),
           f"partial={list(partial)[:3]} sizes_ok={sizes_ok}")
    expect("large: the partial bundle replays to the same report",
           report("--sysroot", root, "--no-vendor") ==
           report("--sysroot", os.path.join(out, "root"), "--no-vendor"))


def check_torch_venv(tmp):
    """A torch venv of real CUDA 13.0 libraries: the GPU code of each library is kept as the
    scan's result, not as the bytes the scan read (libcufft's search reads 271 MB of it)."""
    root = os.path.join(tmp, "torch-venv.root")
    r = subprocess.run([sys.executable, os.path.join(HERE, "mk-torch-venv.py"), root],
                       capture_output=True, text=True)
    if r.returncode == 77:
        print(r.stdout.strip())
        return
    if r.returncode != 0:
        expect("torch venv: made", False, r.stderr)
        return
    got, why = capture_and_unpack(root, tmp, "torch-venv")
    if not got:
        expect("torch venv: capture", False, why)
        return
    bundle, out = got
    size = os.path.getsize(bundle)
    orig = report("--sysroot", root, "--no-vendor")
    doc = json.loads(orig)
    targets = [lib.get("arch_targets") for env in doc["framework"]["python_envs"]
               for lib in env.get("packages", {}).get("torch", {}).get("gpu_libraries", [])]
    scans = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(out, "root/.gpuenv-capture"))
             for f in fs]
    with_code = sum(isinstance(t, list) and bool(t) for t in targets)
    expect(f"torch venv: a bundle of {size} bytes (<= {SIZE_CAP}) keeping {len(scans)} scan "
           f"results for {len(targets)} GPU libraries, {with_code} of them with GPU code",
           size <= SIZE_CAP and len(targets) >= 14 and len(scans) >= 15 and with_code >= 10,
           f"{len(targets)} libraries, {with_code} with code")
    expect("torch venv: the bundle, unpacked or in place, replays to the same report",
           orig == report("--sysroot", os.path.join(out, "root"), "--no-vendor") ==
           report("--sysroot", bundle, "--no-vendor"))
    # a kept result stands only for the file it was taken of: another file there is scanned
    lib = next(p for p in scans if p.endswith("libtorch_cuda.so"))
    kept = json.load(open(lib))
    kept["head_fnv1a64"] = "0" * 16
    kept["targets"] = []
    with open(lib, "w") as f:
        json.dump(kept, f)
    stale = json.loads(report("--sysroot", os.path.join(out, "root"), "--no-vendor"))
    torch_lib = stale["framework"]["python_envs"][0]["packages"]["torch"]
    expect("torch venv: a kept result whose file identity differs is not used (the holes are "
           "scanned: no GPU code)",
           torch_lib["arch_targets"].get("state") == "absent",
           json.dumps(torch_lib["arch_targets"])[:200])


def check_vendor_replay(tmp):
    """The fake NVML's and libcuda's sessions: kept, and replayed without the libraries."""
    fakes = os.path.join(os.environ.get("GPUENV_BUILD_ROOT", ""), "tests", "fakes")
    if not os.path.isfile(os.path.join(fakes, "libnvidia-ml.so.1")):
        print(f"SKIP vendor replay: no fake NVML in {fakes}")
        return
    d = os.path.join(FIXTURES, "nvml-h100-healthy")
    bundle = os.path.join(tmp, "nvml.tar.zst")
    libs = ["--nvml-lib", os.path.join(fakes, "libnvidia-ml.so.1"),
            "--cuda-lib", os.path.join(fakes, "libcuda.so.1")]
    r = gpuenv("capture", "-o", bundle, "--sysroot", os.path.join(d, "root"), *libs,
               env=dict(os.environ, GPUENV_FAKE_SCENARIO=os.path.join(d, "scenario.ini")))
    if r.returncode != 0:
        expect("vendor replay: capture", False, r.stderr)
        return
    replay = report("--sysroot", bundle)
    doc = json.loads(replay) if replay.startswith(b"{") else {}
    expect("vendor replay: the NVML and libcuda sessions replay from the bundle as the capture "
           "saw them (8 GPUs), without the libraries",
           replay == report("--from", bundle) and
           len(doc["driver"]["nvml"]["devices"]) == 8 and
           doc["driver"]["nvml"]["session"]["value"] == "completed" and
           doc["driver"]["cuda"]["session"]["value"] == "completed", replay[:300])
    no_vendor = json.loads(report("--sysroot", bundle, "--no-vendor"))
    expect("vendor replay: --no-vendor still means no vendor facts",
           no_vendor["driver"]["nvml"]["library"]["state"] == "unprobed")


def check_kmsg_replay(tmp):
    """A kernel ring buffer a capture kept (root/.gpuenv-capture/kmsg) is read as /dev/kmsg."""
    src = fixture_root("xid-79-fallen-off-bus", tmp) if os.path.isdir(
        os.path.join(FIXTURES, "xid-79-fallen-off-bus")) else None
    if not src:
        print("SKIP kmsg replay: no xid-79-fallen-off-bus fixture")
        return
    root = os.path.join(tmp, "kmsg.root")
    shutil.copytree(src, root, symlinks=True)
    kept = os.path.join(root, ".gpuenv-capture")
    os.makedirs(kept)
    with open(os.path.join(kept, "kmsg"), "w") as f:
        # as kmsg_record_to_text() writes a record (formats/kernel-log.c)
        f.write("[ 1234.567890] NVRM: Xid (PCI:0000:3b:00): 31, pid=1234, name=python3, "
                "Ch 00000008, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 "
                "faulted @ 0x7f3c_12340000. Fault is of type FAULT_PDE ACCESS_TYPE_READ\n")
    doc = json.loads(report("--sysroot", root, "--no-vendor"))
    kl = doc["driver"]["kernel_log"]
    xids = [x["code"]["value"] for x in doc["driver"]["xid_events"]]
    expect("kmsg replay: the kept ring buffer is the kernel log (kmsg, source /dev/kmsg, its "
           "Xid 31), not /var/log's", kl["kmsg"]["value"] is True and
           kl["source"]["value"] == "/dev/kmsg" and xids == [31], f"{kl} {xids}")
    with open(os.path.join(kept, "kmsg.error"), "w") as f:
        f.write("EPERM")
    doc = json.loads(report("--sysroot", root, "--no-vendor"))
    kl = doc["driver"]["kernel_log"]
    expect("kmsg replay: a ring buffer the capture could not read (EPERM) is said so, and the "
           "log files are read", kl["kmsg"]["state"] == "unreadable" and
           kl["source"]["value"] != "/dev/kmsg", json.dumps(kl)[:300])


def check_redact(tmp):
    src = fixture_root("h100-old-frameworks", tmp)
    root = os.path.join(tmp, "redact.root")
    shutil.copytree(src, root, symlinks=True)
    host = "gpu-node-17.example.org"
    os.makedirs(os.path.join(root, "proc/sys/kernel"), exist_ok=True)
    with open(os.path.join(root, "proc/sys/kernel/hostname"), "w") as f:
        f.write(host + "\n")
    # an RPATH-like string in a binary file the probes read whole (a small ELF library)
    elf = None
    for d, _, files in os.walk(os.path.join(root, "home")):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p) and open(p, "rb").read(4) == b"\x7fELF":
                elf = elf or p
    if elf:
        with open(elf, "ab") as f:
            f.write(b"\0/home/alice/.local/lib:/home/alice/cuda\0")
    plain, _ = capture_and_unpack(root, tmp, "unredacted")
    got, why = capture_and_unpack(root, tmp, "redacted", "--redact")
    if not got or not plain:
        expect("redact: capture", False, why)
        return
    bundle, out = got
    names = subprocess.run(["tar", "--zstd", "-tvf", bundle], capture_output=True).stdout
    leaks = []
    for needle, what in ((host.encode(), "host name"), (b"/home/user", "user name"),
                         (b"/home/alice", "user name")):
        if needle in names:
            leaks.append(f"{what} in a name or link")
    if private_uuids(names):
        leaks.append("a UUID in a name or link")
    for d, _, files in os.walk(out):
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            data = open(p, "rb").read()
            for needle, what in ((host.encode(), "host name"), (b"/home/user/", "user name"),
                                 (b"/home/alice", "user name in a binary")):
                if needle in data:
                    leaks.append(f"{what} in {p[len(out):]}")
            if private_uuids(data):
                leaks.append(f"a UUID in {p[len(out):]}")
    unredacted_has = (host.encode() in open(os.path.join(plain[1], "snapshot.json"), "rb").read()
                      and UUID.search(open(os.path.join(
                          plain[1], "root/proc/driver/nvidia/gpus/0000:01:00.0/information"),
                          "rb").read()))
    expect("redact: the unredacted bundle has the host name and a UUID (the test can fail)",
           bool(unredacted_has))
    if not elf:
        # the fixture's ELF libraries (libtorch_cuda.so …) are nvcc's output
        print("SKIP capture-bundle redact of a binary: h100-old-frameworks lacks its generated "
              "libraries here (see the SKIP above)")
    else:
        unredacted_elf = open(plain[1] + "/root" + elf[len(root):], "rb").read()
        expect("redact: the unredacted binary has its home path (the test can fail)",
               b"/home/alice/.local/lib" in unredacted_elf)
        redacted_elf = open(out + "/root" + elf[len(root):].replace(
            "/home/user/", "/home/<user>/"), "rb").read()
        expect("redact: the binary keeps its length, the user name replaced by as many x",
               len(redacted_elf) == len(unredacted_elf) and
               (b"/home/" + b"x" * 5 + b"/.local/lib:/home/" + b"x" * 5 + b"/cuda")
               in redacted_elf)
    expect("redact: no host name, UUID or home user name in any name, link or file",
           not leaks, "; ".join(leaks[:8]))


def check_output_errors(tmp):
    ok_bundle = os.path.join(tmp, "kept.tar.zst")
    root = os.path.join(FIXTURES, "no-gpu", "root")
    r = gpuenv("capture", "-o", ok_bundle, "--sysroot", root, "--no-vendor")
    expect("a plain capture exits 0", r.returncode == 0, r.stderr)
    before = open(ok_bundle, "rb").read()
    for out, why in ((os.path.join(tmp, "no-such-dir", "b.tar.zst"), b"No such file or directory"),
                     ("/dev/null", b"exists and is not a regular file"),
                     (tmp, b"Is a directory"),
                     ("/proc/version", b"")):
        r = gpuenv("capture", "-o", out, "--sysroot", root, "--no-vendor")
        expect(f"-o {out}: exit 74, the path and the reason on stderr",
               r.returncode == 74 and out.encode() in r.stderr and why in r.stderr,
               f"exit {r.returncode}: {r.stderr!r}")
    r = gpuenv("capture", "-o", ok_bundle, "--sysroot", os.path.join(tmp, "absent"))
    expect("a failed capture leaves the existing bundle as it was and no temporary file",
           r.returncode == 66 and open(ok_bundle, "rb").read() == before and
           not [f for f in os.listdir(tmp) if f.startswith("kept.tar.zst.")],
           f"exit {r.returncode} {os.listdir(tmp)}")
    r = gpuenv("capture", "--from", os.path.join(FIXTURES, "no-gpu", "expected", "report.json"))
    expect("--from is refused (a capture records a collection): exit 64", r.returncode == 64)


def check_live(tmp):
    bundle = os.path.join(tmp, "live.tar.zst")
    r = gpuenv("capture", "-o", bundle)
    if r.returncode != 0:
        expect("live capture", False, r.stderr)
        return
    out = os.path.join(tmp, "live")
    os.mkdir(out)
    t = subprocess.run(["tar", "--zstd", "-xf", bundle, "-C", out], capture_output=True,
                       text=True)
    if t.returncode != 0:
        # The live /dev's device nodes: only root can make them (mknod needs CAP_MKNOD).
        other = [line for line in t.stderr.splitlines()
                 if "Cannot mknod" not in line and "due to previous errors" not in line]
        if os.geteuid() == 0 or other:
            expect("live: tar unpacks the bundle", False, t.stderr[-2000:])
            return
        print("SKIP capture-bundle live device nodes: tar cannot make them as a user "
              "(mknod needs CAP_MKNOD); the rest unpacked")
    meta = json.load(open(os.path.join(out, "capture.json")))
    print(f"live: bundle {os.path.getsize(bundle)} bytes, {meta['entries']} entries, "
          f"{meta['files_read']} files read, {len(meta['partial'])} kept in part")
    seen = json.load(open(os.path.join(out, "snapshot.json")))["driver"]["kernel_log"]
    replayed = json.loads(report("--sysroot", bundle))["driver"]["kernel_log"]
    expect(f"live: the replay reads the kernel log the capture read (kmsg: "
           f"{seen['kmsg'].get('value', seen['kmsg'].get('state'))})",
           seen.get("kmsg") == replayed.get("kmsg") and
           seen.get("source") == replayed.get("source"), f"{seen} {replayed}")


def check_diff_bundle(tmp):
    bundle = os.path.join(tmp, "h100-link-faults.tar.zst")
    out = os.path.join(tmp, "h100-link-faults.unpacked", "snapshot.json")
    r = gpuenv("diff", bundle, out)
    expect("diff takes a bundle as it takes a snapshot: no difference to its own snapshot.json",
           r.returncode == 0, r.stderr)
    r = gpuenv("report", "--from", os.path.join(FIXTURES, "no-gpu", "scenario.ini"))
    junk = os.path.join(tmp, "junk.tar.zst")
    with open(junk, "wb") as f:
        f.write(b"\x28\xb5\x2f\xfd" + os.urandom(64))
    r = gpuenv("report", "--from", junk)
    expect("--from a damaged archive: exit 66 naming it", r.returncode == 66 and
           junk.encode() in r.stderr and b"not a readable archive" in r.stderr, r.stderr)


with tempfile.TemporaryDirectory(prefix="gpuenv-capture-") as tmpdir:
    for fixture in ("h100-link-faults", "docker-nvidia-runtime", "cdi-spec-stale-driver",
                    "python-venv-torch24-cu124", "rw-ubuntu2404-550-upgraded-no-reboot"):
        check_replay(fixture, tmpdir)
    check_diff_bundle(tmpdir)
    check_large(tmpdir)
    check_torch_venv(tmpdir)
    check_vendor_replay(tmpdir)
    check_kmsg_replay(tmpdir)
    check_redact(tmpdir)
    check_output_errors(tmpdir)
    check_live(tmpdir)
sys.exit(failed)
