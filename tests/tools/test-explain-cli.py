#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv explain`: real pasted texts (quoted from the public reports named beside them) give
the root cause the rules find, the facts read with the user's line numbers, what to run to be
sure, and the exit codes of docs/explain.md: 0 nothing wrong found, 2 an error, 64 usage,
65 not text, 66 unreadable. Input as users paste it: Markdown fences and quotes, CRLF,
UTF-16LE with BOM (PowerShell's `>`), binary.

Usage: test-explain-cli.py GPUENV
"""
import json
import os
import subprocess
import sys
import tempfile

GPUENV = sys.argv[1]
failed = []


def run(args, data=None):
    p = subprocess.run([GPUENV, "explain"] + args, input=data, capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check(what, cond, detail=""):
    if cond:
        print(f"ok: {what}")
    else:
        print(f"FAIL: {what} {detail}")
        failed.append(what)


def explain_json(data, what):
    rc, out, err = run(["--json", "--stable"], data)
    try:
        doc = json.loads(out)
    except ValueError:
        check(f"{what}: JSON", False, f"rc={rc} stderr={err[:300]} out={out[:300]}")
        return rc, {}
    return rc, doc


def fact(doc, path):
    for f in doc.get("facts_read", []):
        if f["path"] == path:
            return f
    return None


def root_id(doc):
    rc = doc.get("root_cause")
    return rc["id"] if isinstance(rc, dict) else None


# https://github.com/meituan/YOLOv6/issues/350 (the warning, pasted in a fenced block of an
# issue reply, quoted), then the error it leads to
NO_KERNEL = (
    "> ```\n"
    "> .venv/lib/python3.7/site-packages/torch/cuda/__init__.py:146: UserWarning: \n"
    "> NVIDIA GeForce RTX 3080 Laptop GPU with CUDA capability sm_86 is not compatible with "
    "the current PyTorch installation.\n"
    "> The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70.\n"
    "> If you want to use the NVIDIA GeForce RTX 3080 Laptop GPU GPU with PyTorch, please check "
    "the instructions at https://pytorch.org/get-started/locally/\n"
    "> ```\n"
    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n")
rc, doc = explain_json(NO_KERNEL.encode(), "no kernel image")
check("no kernel image: exit 2", rc == 2, f"rc={rc}")
check("no kernel image: root cause framework.no-kernel-image",
      root_id(doc) == "framework.no-kernel-image", str(doc.get("root_cause")))
f = fact(doc, "driver.cuda.devices.0.compute_capability")
check("no kernel image: compute capability 8.6 on line 3",
      f is not None and f["value"] == "8.6" and f["line"] == 3, str(f))
f = fact(doc, "framework.python_envs.0.packages.torch.arch_targets.3.target")
check("no kernel image: arch list on line 4", f is not None and f["value"] == "sm_70" and
      f["line"] == 4, str(f))
check("no kernel image: asks for torch's arch list",
      any("get_arch_list" in a for a in doc.get("ask", [])), str(doc.get("ask")))
check("no kernel image: embedded snapshot has no symptoms section",
      "symptoms" not in doc.get("snapshot", {}))

# https://github.com/lyulyul/shine-cluster/issues/30
MISMATCH = b"$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n"
rc, doc = explain_json(MISMATCH, "NVML mismatch")
check("NVML mismatch: exit 2", rc == 2, f"rc={rc}")
check("NVML mismatch: root cause driver.nvml-version-mismatch",
      root_id(doc) == "driver.nvml-version-mismatch", str(doc.get("root_cause")))
f = fact(doc, "driver.nvml.init")
check("NVML mismatch: nvmlInit failed on line 2",
      f is not None and f["failed"] and f["line"] == 2, str(f))

# https://github.com/lllyasviel/Fooocus/issues/1313
TOO_OLD = (b"RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
           b"Please update your GPU driver by downloading and installing a new version from the "
           b"URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
           b"https://pytorch.org to install a PyTorch version that has been compiled with your "
           b"version of the CUDA driver.\n")
rc, doc = explain_json(TOO_OLD, "driver too old")
check("driver too old: exit 2", rc == 2, f"rc={rc}")
check("driver too old: root cause framework.cuda-newer-than-driver",
      root_id(doc) == "framework.cuda-newer-than-driver", str(doc.get("root_cause")))
f = fact(doc, "driver.cuda.driver_version")
check("driver too old: driver's CUDA 11.4", f is not None and f["value"] == "11.4", str(f))

with tempfile.TemporaryDirectory() as tmp:
    # PowerShell 5.1 `nvidia-smi > out.txt`: UTF-16LE with BOM and CRLF
    p16 = os.path.join(tmp, "utf16.txt")
    with open(p16, "wb") as fh:
        fh.write(b"\xff\xfe" + MISMATCH.decode().replace("\n", "\r\n").encode("utf-16-le"))
    rc, out, err = run(["--json", p16])
    doc = json.loads(out) if out.startswith("{") else {}
    check("UTF-16LE BOM file: exit 2 and the mismatch", rc == 2 and
          root_id(doc) == "driver.nvml-version-mismatch", f"rc={rc} {err[:200]}")
    f = fact(doc, "driver.nvml.init")
    check("UTF-16LE BOM file: line 2", f is not None and f["line"] == 2, str(f))

    pcr = os.path.join(tmp, "crlf.txt")
    with open(pcr, "wb") as fh:
        fh.write(b"\r\n\r\n" + TOO_OLD.replace(b"\n", b"\r\n"))
    rc, out, err = run(["--color", "never", pcr])
    check("CRLF file: exit 2", rc == 2, f"rc={rc} {err[:200]}")
    check("CRLF file: text names the fact on line 3",
          "line 3" in out and "driver.cuda.driver_version = 11.4" in out, out[:400])
    check("CRLF file: text says what to run", "To be sure, run:" in out)

    pbin = os.path.join(tmp, "bin")
    with open(pbin, "wb") as fh:
        fh.write(b"\x7fELF\x02\x01\x01" + bytes(64))
    rc, out, err = run([pbin])
    check("binary: exit 65 with a clear message", rc == 65 and "binary" in err, f"rc={rc} {err}")
    check("binary: nothing on stdout", out == "", out[:200])

    rc, out, err = run([os.path.join(tmp, "missing")])
    check("missing file: exit 66", rc == 66 and "missing" in err, f"rc={rc} {err}")

# over the 64 MiB cap: refused with the reason, nothing judged
rc, out, err = run(["-"], b"a" * ((64 << 20) + 1))
check("over 64 MiB: exit 65 with the cap named", rc == 65 and "64 MiB" in err and out == "",
      f"rc={rc} {err[:200]}")

rc, out, err = run(["-"], b"Epoch 12 loss 0.35\n")
check("nothing recognised: exit 0", rc == 0, f"rc={rc} {err}")
check("nothing recognised: says so and asks for nvidia-smi",
      "Nothing recognised" in out and "  nvidia-smi\n" in out, out[-400:])
check("nothing recognised: no layer marked ok", "✓" not in out, out[:800])

# An nvidia-smi table alone (tests/fuzz/corpus/pasted-nvidia-smi, a real paste): its facts are
# read, but no layer is ✓, since the module version, the device nodes and the rest of the
# driver layer were never shown.
SMI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus",
                   "pasted-nvidia-smi", "table-331-gtx680.txt")
with open(SMI, "rb") as fh:
    rc, out, err = run(["--color", "never", "-"], fh.read())
check("nvidia-smi alone: facts read", "driver.nvml.driver_version" in out, out[:400])
check("nvidia-smi alone: no layer marked ok", "✓" not in out, out[:1200])

# nvidia-smi and python -m torch.utils.collect_env as printed on a real, healthy H200 machine
# (driver 580.159.04, torch 2.11.0+cu130; the lent device machine, 2026-12-04): the facts are
# read from the lines that state them, nothing is an error, and no layer is ✓.
H200 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus",
                    "pasted-collect-env", "h200-580-torch211-cu130-with-nvidia-smi.txt")
with open(H200, "rb") as fh:
    rc, doc = explain_json(fh.read(), "real H200")
check("real H200: exit 0", rc == 0, f"rc={rc}")
for path, value in (("driver.nvml.driver_version", "580.159.04"),
                    ("driver.nvml.cuda_driver_version", "13.0"),
                    ("driver.nvml.devices.0.pci_bus_id", "00000000:00:06.0"),
                    ("framework.python_envs.0.packages.torch.version", "2.11.0+cu130"),
                    ("framework.python_envs.0.packages.torch.cuda", "13.0")):
    f = fact(doc, path)
    check(f"real H200: {path} = {value}", f is not None and f["value"] == value, str(f))
check("real H200: no finding", not doc.get("findings"), str(doc.get("findings"))[:300])
check("real H200: no layer ok", all(l["status"] != "ok" for l in doc.get("layers", [])),
      str([(l["layer"], l["status"]) for l in doc.get("layers", [])]))

# The driver nvidia-smi or collect_env names (NVML's version of the loaded module) judges a
# framework's CUDA when the text shows neither the module's version nor its version file:
# pytorch/pytorch#30071's collect_env (torch 1.3.1, CUDA 10.1, driver 410.48, "Is CUDA
# available: No"; the 1.3 wheels need driver >= 418.39), and the knowledge base's values are
# marked derived. Colab's 1.7 on 418.67 (pytorch/pytorch#46973) is fine; from Windows
# (pytorch/pytorch#51858) the driver is Windows's, judged on Windows's floors only: 535.98
# runs torch 2.0.1+cu117 (>= 516.01).
CENV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus",
                    "pasted-collect-env")
with open(os.path.join(CENV, "linux-1.3-eight-titans.txt"), "rb") as fh:
    rc, doc = explain_json(fh.read(), "collect_env 410.48")
check("collect_env 410.48: root cause framework.cuda-newer-than-driver from the facts",
      rc == 2 and root_id(doc) == "framework.cuda-newer-than-driver" and
      "410.48" in (doc.get("root_cause") or {}).get("why", "") and
      "symptom" not in (doc.get("root_cause") or {}).get("why", ""), str(doc.get("root_cause")))
check("collect_env 410.48: R410's CUDA is a derived fact",
      any(k.get("name") == "facts.driver_branches.cuda_version_reported" and
          k.get("mark") == "[facts]" for k in doc.get("facts_derived") or []),
      str(doc.get("facts_derived")))
for name in ("linux-1.7-colab-t4.txt", "windows-2.0-cu117-cudnn-dll.txt"):
    with open(os.path.join(CENV, name), "rb") as fh:
        rc, doc = explain_json(fh.read(), name)
    check(f"{name}: no framework.cuda-newer-than-driver",
          not any(x.get("rule") == "framework.cuda-newer-than-driver"
                  for x in doc.get("findings") or []), str(doc.get("findings"))[:300])

rc, out, err = run(["--markdown"], MISMATCH)
check("markdown: exit 2 and sections", rc == 2 and "### Read from the text" in out and
      "### To be sure, run" in out, out[:300])

# A large gzip input (nvidia-bug-report.log.gz) is read a window of about 2-4 MiB at a time
# (docs/explain.md): facts past the first window keep the user's line numbers, and the Xid
# events of every window are numbered on, none overwritten. The filler stands for a long
# kernel log; the Xid and NVRM lines are those of NVIDIA/gpu-operator#483, quoted above.
import gzip  # noqa: E402

filler = b"".join(b"[%8d.000000] usb 1-1: new high-speed USB device number %d\n" % (i, i)
                  for i in range(120000))  # about 7.6 MiB: three windows at least
xid1 = b"[    9.1] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n"
xid2 = b"[ 9999.1] NVRM: Xid (PCI:0000:d8:00): 48, pid=0, An uncorrectable double bit error\n"
ver = b"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
big = xid1 + filler + ver + filler + xid2
rc, doc = explain_json(gzip.compress(big, 6), "windowed gzip")
n_filler = filler.count(b"\n")
f = fact(doc, "driver.nvidia.proc_version")
check("windowed gzip: the version line past the first window keeps its number",
      f is not None and f["line"] == 2 + n_filler and f["value"] == "535.104.05", str(f))
codes = sorted((f["value"], f["line"]) for f in doc.get("facts_read", [])
               if f["path"].startswith("driver.xid_events.") and f["path"].endswith(".code"))
check("windowed gzip: both Xid events, first and last window, each at its line",
      codes == [("48", 3 + 2 * n_filler), ("79", 1)], str(codes))

# A file of 1 MiB or more is read in two halves at once (read_all in tools/cmd-explain.c,
# docs/explain.md): by its path, as standard input from its start, from where a shell left
# standard input in it, and through a pipe, the same document. A file of the gzip bytes after
# 1000 bytes that are not read, and the text itself (15 MiB), each.
for what, data in (("windowed gzip", gzip.compress(big, 6)), ("large text", big)):
    rc, want = explain_json(data, f"{what} through a pipe")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input")
        with open(path, "wb") as out:
            out.write(data)
        p = subprocess.run([GPUENV, "explain", "--json", "--stable", path], capture_output=True)
        check(f"{what} read by its path: the same document as through a pipe",
              p.returncode == rc and json.loads(p.stdout or b"{}") == want, p.stderr[:300])
        for skip in (0, 1000):
            with open(path, "wb") as out:
                out.write(b"#" * skip + data)
            with open(path, "rb") as f:
                f.seek(skip)
                p = subprocess.run([GPUENV, "explain", "--json", "--stable", "-"], stdin=f,
                                   capture_output=True)
            check(f"{what} as standard input from byte {skip} of a file: the same document",
                  p.returncode == rc and json.loads(p.stdout or b"{}") == want, p.stderr[:300])

# A real nvidia-bug-report.log (nvidia-bug-report.sh 20083567, driver 352.63, GTX TITAN X,
# Ubuntu 15.10), public at https://github.com/maz906/caffe/blob/
# 5b386f8d99b4fdbe71290cc4338bb581ef737466/nvidia-bug-report.log: an excerpt, whole sections
# as the script wrote them (the header, /etc/issue, lspci -d "10de:*" -v -xxx, lspci -nn,
# modinfo, the NVRM scan of the kernel log, /proc/modules, /proc/version, the driver's version
# and GPU information files, nvidia-smi -q), gzip -9n. Each section goes to its reader.
REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus",
                      "pasted-gzip", "nvidia-bug-report-titanx-352.63.log.gz")
with open(REPORT, "rb") as fh:
    rc, doc = explain_json(fh.read(), "bug report")
want = {
    "host.kernel_release": ("4.2.0-22-generic", "uname"),        # the header's uname: line
    "hardware.gpus.0.device_id": ("0x17c2", "lspci"),             # lspci -nn
    "hardware.gpus.0.driver": ("nvidia", "lspci"),                # lspci -v
    "driver.kernel_modules.nvidia": ("true", "lsmod"),            # /proc/modules
    "driver.kernel_log.loaded_versions.0": ("352.63", "kernel-log"),  # the NVRM scan
    "driver.nvidia.proc_version": ("352.63", "nvidia-version"),   # /proc/driver/nvidia/version
    "driver.nvml.driver_version": ("352.63", "nvidia-smi"),       # nvidia-smi -q
    "driver.nvml.devices.0.name": ("GeForce GTX TITAN X", "nvidia-smi"),
}
for path, (value, reader) in want.items():
    f = fact(doc, path)
    check(f"bug report: {path} = {value} from {reader}",
          f is not None and f["value"] == value and f["reader"] == reader, str(f))
check("bug report: nothing wrong found on a working 352.63", rc == 0 and not doc.get("findings"),
      f"rc={rc} {str(doc.get('findings'))[:300]}")
rc, out, err = run(["--redact", REPORT])
check("bug report --redact: the board's serial and UUID are not printed",
      rc == 0 and "0422715081539" not in out and "GPU-465c200a" not in out and
      "<redacted>" in out, out[:600])

# --this-machine: the text's facts beside a machine's, here the h100-sxm-550 fixture's image
# (driver 550.54.15). The pasted lines are those of NVIDIA/nvidia-docker#1368 style reports:
# the driver's version file of another moment (535), nvidia-smi's mismatch, uname -a.
H100 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                    "h100-sxm-550", "root")
THIS = (b"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC "
        b"2023\n"
        b"Failed to initialize NVML: Driver/library version mismatch\n"
        b"Linux gpu1 5.15.0-97-generic #107-Ubuntu SMP Wed Feb 7 13:26:48 UTC 2024 x86_64 "
        b"x86_64 x86_64 GNU/Linux\n")
rc, out, err = run(["--json", "--stable", "--this-machine", "--sysroot", H100, "--no-vendor"],
                   THIS)
doc = json.loads(out) if out.startswith("{") else {}
# the version file gives the loaded module's version twice (proc_version, module_version)
check("this machine: JSON says so, the version file's two facts in conflict",
      doc.get("this_machine") is True and doc.get("conflicts") == 2, f"rc={rc} {err[:300]}")
f = fact(doc, "driver.nvidia.proc_version")
check("this machine: 535 pasted against the machine's 550: a conflict, both shown",
      f is not None and f.get("origin") == "conflict" and f["value"] == "535.104.05" and
      f.get("machine_value") == "550.54.15" and
      f.get("machine_source") == "/proc/driver/nvidia/version", str(f))
snap_v = doc.get("snapshot", {}).get("driver", {}).get("nvidia", {}).get("proc_version", {})
check("this machine: the machine's version is the one judged",
      snap_v.get("value") == "550.54.15", str(snap_v))
f = fact(doc, "host.kernel_release")
check("this machine: the kernel both show agrees", f is not None and f.get("origin") == "both",
      str(f))
f = fact(doc, "driver.nvml.init")
check("this machine: nvmlInit's failure, not probed (--no-vendor), is the text's and judged",
      f is not None and f.get("origin") == "text" and root_id(doc) ==
      "driver.nvml-version-mismatch", f"{f} {root_id(doc)}")
rc, out, err = run(["--this-machine", "--sysroot", H100, "--no-vendor"], THIS)
check("this machine: text marks the conflict and lists it",
      "CONFLICT: machine has 550.54.15" in out and "(machine agrees)" in out and
      "The text and this machine disagree (2)" in out, out[:1200])
# --this-machine on the live machine (whatever it is: the verdict is the machine's, the
# facts' origins are the text's or the machine's, never missing); --no-vendor loads no
# vendor library.
rc, out, err = run(["--json", "--this-machine", "--no-vendor"], THIS)
doc = json.loads(out) if out.startswith("{") else {}
check("this machine, live: a verdict, each fact read with its origin",
      rc in (0, 1, 2) and doc.get("this_machine") is True and doc.get("facts_read") and
      all(f.get("origin") in ("text", "both", "conflict") for f in doc["facts_read"]),
      f"rc={rc} {err[:300]}")
rc, out, err = run(["--sysroot", H100], THIS)
check("machine options without --this-machine: exit 64", rc == 64, f"rc={rc} {err}")
rc, doc = explain_json(THIS, "text alone")
check("text alone: this_machine false, no origin",
      doc.get("this_machine") is False and "origin" not in (fact(doc, "host.kernel_release") or
                                                            {"origin": 1}), str(doc)[:300])

rc, out, err = run(["a", "b"])
check("two inputs: exit 64", rc == 64, f"rc={rc}")
rc, out, err = run(["--json", "--markdown"], b"")
check("--json --markdown: exit 64", rc == 64, f"rc={rc}")
rc, out, err = run(["--bogus"], b"")
check("unknown option: exit 64", rc == 64, f"rc={rc}")
rc, out, err = run(["--help"])
check("--help: exit 0 and names FILE|-", rc == 0 and "[FILE|-]" in out, out[:200])

# Facts derived through the knowledge base are marked "[facts]" in every output (issue 12), and
# only those: a fact read from the text never is. The Xid line as NVIDIA/NVSentinel#155's
# maintainer quoted it (https://github.com/NVIDIA/NVSentinel/issues/155).
XID79 = b"NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus\n"
rc, doc = explain_json(XID79, "Xid 79")
kb = doc.get("facts_derived") or []
check("Xid 79: the Xid table's row is a derived fact, marked [facts]",
      any(k.get("name") == "facts.xid" and k.get("mark") == "[facts]" and
          k.get("value", "").startswith("79 ") and k.get("rule") == "driver.xid-errors"
          for k in kb), f"{kb}")
check("Xid 79: no fact read from the text is a knowledge-base key",
      not any(f["path"].startswith("facts.") for f in doc.get("facts_read", [])),
      f"{doc.get('facts_read')}")
rc, out, err = run([], XID79)
check("Xid 79 text: the derived line is marked [facts] under its own heading",
      "Derived through the knowledge base (1), not read from the text:" in out and
      any(ln.strip().startswith("facts.xid = 79 ") and "[facts]" in ln
          for ln in out.splitlines()), out[:600])
check("Xid 79 text: no line read from the text is marked [facts]",
      not any(ln.startswith("  line ") and "[facts]" in ln for ln in out.splitlines()),
      out[:600])
rc, out, err = run(["--markdown"], XID79)
check("Xid 79 markdown: the derived row is marked **[facts]**",
      "### Derived through the knowledge base (1)" in out and
      any(ln.startswith("| `facts.xid` | 79 ") and "**[facts]**" in ln for ln in out.splitlines()),
      out[:600])
# A text whose judging takes nothing from the knowledge base: no section, an empty list.
rc, doc = explain_json(b"Failed to initialize NVML: Driver/library version mismatch\n", "nvml")
check("NVML mismatch alone: facts_derived empty", doc.get("facts_derived") == [],
      f"{doc.get('facts_derived')}")
rc, out, err = run([], b"Failed to initialize NVML: Driver/library version mismatch\n")
check("NVML mismatch alone: no derived section", "Derived through" not in out, out[:300])

# NCCL's own lines (https://github.com/InternLM/lmdeploy/issues/1108, NCCL_DEBUG=INFO): the
# driver's CUDA from "cudaDriverVersion", the return code; the INFO line about the optional
# libnccl-net.so plugin is no missing library; the messages.* facts stay out of the snapshot.
NCCL = (b"NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: "
        b"cannot open shared object file: No such file or directory\n"
        b"NCCL INFO NET/Plugin : No plugin found, using internal implementation\n"
        b"NCCL INFO cudaDriverVersion 11070\n\n"
        b"init.cc:1582 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA "
        b"runtime version'\n"
        b"Failed, NCCL error /lmdeploy/src/turbomind/utils/nccl_utils.cc:296 'unhandled cuda "
        b"error (run with NCCL_DEBUG=INFO for details)'\n")
rc, doc = explain_json(NCCL, "NCCL")
dv = fact(doc, "driver.cuda.driver_version") or {}
check("NCCL: driver CUDA 11.7 read by the nccl reader at line 3",
      dv.get("value") == "11.7" and dv.get("line") == 3 and dv.get("reader") == "nccl", f"{dv}")
check("NCCL: root cause runtime.toolkit-needs-newer-driver",
      root_id(doc) == "runtime.toolkit-needs-newer-driver", f"{root_id(doc)}")
check("NCCL: the optional plugin's INFO line is no library-not-found symptom",
      fact(doc, "symptoms.runtime.library-not-found") is None, f"{doc.get('facts_read')}")
check("NCCL: ncclUnhandledCudaError read, messages kept out of the snapshot",
      (fact(doc, "messages.nccl.result") or {}).get("value") == "ncclUnhandledCudaError" and
      "messages" not in (doc.get("snapshot") or {}), f"{doc.get('facts_read')}")

# Windows: a paste from Windows gets Windows commands to run, never Linux's (cat /proc/…,
# mokutil, lsmod, ldconfig). https://github.com/AlexeyAB/darknet/issues/86 (cmd, CRLF).
DARKNET_WIN = (b"D:\\darknet-master\\build\\darknet\\x64>darknet.exe detector test data/obj.data "
               b"config.cfg test.weights test.jpg\r\n"
               b"CUDA Error: no CUDA-capable device is detected\r\n\r\n"
               b"C:\\Program Files\\NVIDIA Corporation\\NVSMI>nvidia-smi\r\n"
               b"Unable to determine the device handle for GPU 0000:03:00.0: GPU is lost.  "
               b"Reboot\r\n the system to recover this GPU\r\n")
LINUX_ONLY = ("cat /proc", "mokutil", "lsmod", "ldconfig", "dmesg", "modinfo", "/dev/nvidia",
              "uname", "/etc/os-release", "grep")
rc, doc = explain_json(DARKNET_WIN, "windows cmd")
ask = doc.get("ask", [])
w = fact(doc, "messages.platform.windows") or {}
check("windows cmd: the mark read at line 1", w.get("value") == "D:\\" and w.get("line") == 1,
      str(w))
check("windows cmd: asks nvidia-smi", "nvidia-smi" in ask, str(ask))
check("windows cmd: no Linux command asked",
      not any(x in a for a in ask for x in LINUX_ONLY), str(ask))
# the same messages without the Windows lines: Linux's commands
rc, doc = explain_json(b"CUDA Error: no CUDA-capable device is detected\n"
                       b"Unable to determine the device handle for GPU 0000:03:00.0: GPU is "
                       b"lost.  Reboot\n the system to recover this GPU\n", "linux gpu lost")
check("linux: Linux commands asked",
      any(x in a for a in doc.get("ask", []) for x in LINUX_ONLY), str(doc.get("ask")))
# https://github.com/pytorch/pytorch/pull/137846 (collect_env on Windows 11): torch's own
# report asked for, through the py launcher
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "explain-corpus",
                       "win-cpu-collect-env-pytorch-137846.txt"), "rb") as fh:
    rc, doc = explain_json(fh.read(), "windows collect_env")
ask = doc.get("ask", [])
check("windows collect_env: py -m torch.utils.collect_env and nvidia-smi asked",
      "py -m torch.utils.collect_env" in ask and "nvidia-smi" in ask, str(ask))
check("windows collect_env: no Linux command asked",
      not any(x in a for a in ask for x in LINUX_ONLY), str(ask))
# WSL2 (constructed, uname -a as WSL2 prints it): a Windows path beside Linux's uname is
# Linux, whose commands run in the WSL shell
rc, doc = explain_json(b"Linux DESKTOP-1 5.15.153.1-microsoft-standard-WSL2 #1 SMP Fri Mar 29 "
                       b"23:14:13 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux\n"
                       b"PATH=/usr/bin:/mnt/c/Users/user/AppData\n"
                       b"C:\\Users\\user>wsl\n"
                       b"RuntimeError: No CUDA GPUs are available\n", "wsl")
check("wsl: Linux commands asked despite a Windows path",
      any(x in a for a in doc.get("ask", []) for x in LINUX_ONLY), str(doc.get("ask")))

# No NVIDIA GPU: a whole lspci listing (from 00:00.0) whose only GPU is Intel's is stated as
# a finding with its line (https://github.com/ChrisTitusTech/ArchTitus/issues/95, the first
# devices of the listing as pasted)
ARCHTITUS = (b"00:00.0 Host bridge: Intel Corporation Xeon E3-1200 v6/7th Gen Core Processor "
             b"Host Bridge/DRAM Registers (rev 02)\n"
             b"00:02.0 VGA compatible controller: Intel Corporation HD Graphics 620 (rev 02)\n"
             b"00:14.0 USB controller: Intel Corporation Sunrise Point-LP USB 3.0 xHCI "
             b"Controller (rev 21)\n"
             b"00:14.2 Signal processing controller: Intel Corporation Sunrise Point-LP Thermal "
             b"subsystem (rev 21)\n"
             b"00:15.0 Signal processing controller: Intel Corporation Sunrise Point-LP Serial "
             b"IO I2C Controller #0 (rev 21)\n")
rc, doc = explain_json(ARCHTITUS, "no nvidia gpu")
tf = doc.get("text_findings", [])
check("no NVIDIA GPU: stated as a finding at the GPU's line 2",
      len(tf) == 1 and tf[0]["id"] == "no-nvidia-gpu" and tf[0]["line"] == 2 and
      "Intel" in tf[0]["message"] and "5 devices" in tf[0]["message"], str(tf))
check("no NVIDIA GPU: no root cause named from it", root_id(doc) is None, str(doc.get("root_cause")))
rc, out, err = run([], ARCHTITUS)
check("no NVIDIA GPU: text output says it", "Found in the text:" in out and
      "line 2     no NVIDIA GPU" in out, out[:600])
# `lspci -nn | grep VGA` shows only the Intel GPU where a 3D controller (NVIDIA's) is cut
# out by the grep (https://github.com/Antergos/nvidia-installer/issues/12): nothing stated
rc, doc = explain_json(b"00:02.0 VGA compatible controller [0300]: Intel Corporation HD "
                       b"Graphics 620 [8086:5916] (rev 02)\n", "grep vga")
check("grep'd lspci: no NVIDIA GPU not stated", doc.get("text_findings") == [],
      str(doc.get("text_findings")))

# NVML's Unknown Error in a container after a systemd reload
# (https://github.com/NVIDIA/nvidia-container-toolkit/issues/1227): no rule named; the host's
# cgroup version, the engines' cgroup driver, no-cgroups and the /dev/char links are asked
rc, doc = explain_json(b"(container) $ nvidia-smi -L\nFailed to initialize NVML: Unknown Error\n",
                       "nvml unknown")
check("nvml unknown: no rule named", root_id(doc) is None, str(doc.get("root_cause")))
check("nvml unknown: asks the cgroup version, the cgroup driver, no-cgroups and /dev/char",
      any(a.startswith("stat -fc %T /sys/fs/cgroup") for a in doc.get("ask", [])) and
      any("CgroupDriver" in a for a in doc.get("ask", [])) and
      any("no-cgroups" in a for a in doc.get("ask", [])) and
      any(a.startswith("ls -l /dev/char") for a in doc.get("ask", [])), str(doc.get("ask")))
# the same line beside the host's `systemctl daemon-reload`
# (https://github.com/NVIDIA/nvidia-docker/issues/1671): container.dev-char-links-missing, its
# evidence both lines (pasted-container-cgroup.c)
rc, doc = explain_json(b"(on host):\n`systemctl daemon-reload`\n\n(inside same running container):\n"
                       b"root@098b49afe624:/# nvidia-smi\n"
                       b"Failed to initialize NVML: Unknown Error\n", "nvml unknown + reload")
ev = [e.get("source") for f in doc.get("findings", []) for e in f.get("evidence", [])
      if f.get("rule") == "container.dev-char-links-missing"]
check("nvml unknown + reload: container.dev-char-links-missing from lines 6 and 2",
      root_id(doc) == "container.dev-char-links-missing" and "pasted:6" in ev and
      "pasted:2" in ev, f"{doc.get('root_cause')} {ev}")
# the hook's refused device rules: unsure alone (libnvidia-container 1.8.0 printed it as root,
# its #151), container.rootless-no-cgroups beside a rootless daemon's socket
# (https://github.com/NVIDIA/nvidia-container-toolkit/issues/85)
BPF = (b"nvidia-container-cli: mount error: failed to add device rules: unable to find any "
       b"existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) "
       b"failed: operation not permitted: unknown.\n")
rc, doc = explain_json(BPF, "bpf alone")
check("bpf alone: no rule named", root_id(doc) is None, str(doc.get("root_cause")))
rc, doc = explain_json(b"$ DOCKER_HOST=unix://$XDG_RUNTIME_DIR/docker.sock docker run --rm "
                       b"--gpus all nvidia/cuda:12.0.0-base-ubuntu20.04 nvidia-smi\n" + BPF,
                       "bpf rootless")
check("bpf + rootless DOCKER_HOST: container.rootless-no-cgroups",
      root_id(doc) == "container.rootless-no-cgroups", str(doc.get("root_cause")))
# another NVML error does not ask them
rc, doc = explain_json(b"Failed to initialize NVML: Driver/library version mismatch\n",
                       "nvml mismatch")
check("nvml mismatch: no cgroup command asked",
      not any("cgroup" in a.lower() for a in doc.get("ask", [])), str(doc.get("ask")))

# kmod refuses an unsigned nvidia.ko and one signed by an untrusted key with the same words
# (https://github.com/canonical/nvidia-graphics-drivers/issues/61): no rule named, asked
REFUSED = (b"$ sudo modprobe nvidia\n"
           b"modprobe: ERROR: could not insert 'nvidia': Key was rejected by service\n")
rc, doc = explain_json(REFUSED, "key rejected")
check("key rejected alone: no rule named", root_id(doc) is None, str(doc.get("root_cause")))
check("key rejected alone: asks mokutil --sb-state and modinfo nvidia",
      "mokutil --sb-state" in doc.get("ask", []) and "modinfo nvidia" in doc.get("ask", []),
      str(doc.get("ask")))
# the kernel's reason next to it (kernel/module/signing.c) tells which
rc, doc = explain_json(REFUSED + b"[  912.004417] Loading of unsigned module is rejected\n",
                       "key rejected, unsigned")
check("key rejected + unsigned: driver.secure-boot-unsigned-module",
      root_id(doc) == "driver.secure-boot-unsigned-module", str(doc.get("root_cause")))
f = fact(doc, "messages.module_signature")
check("key rejected + unsigned: the kernel's reason read at line 3",
      f is not None and f["line"] == 3, str(f))
rc, doc = explain_json(b"Signing module /var/lib/dkms/nvidia/535.113.01/build/nvidia.ko\n" +
                       REFUSED, "key rejected, dkms signed")
check("key rejected + DKMS signed it: driver.secure-boot-key-not-enrolled",
      root_id(doc) == "driver.secure-boot-key-not-enrolled", str(doc.get("root_cause")))

# an Intel GPU and nothing else (https://github.com/intel-gpu/intel-gpu-i915-backports/issues/209):
# its binding and the kernel are asked, not the NVIDIA driver's
rc, doc = explain_json(b"03:00.0 VGA compatible controller: Intel Corporation Battlemage G21 "
                       b"[Intel Graphics]\n", "intel only")
ask = doc.get("ask", [])
check("Intel GPU only: asks lspci -nnk and uname -a, not nvidia-smi",
      any(a.startswith("lspci -nnk") for a in ask) and "uname -a" in ask and
      "nvidia-smi" not in ask, str(ask))
# ollama skipping a gfx1031 (https://github.com/ollama/ollama/issues/8679): the override's
# absence cannot be told from the log, so the environment is asked, with HSA_ variables
rc, doc = explain_json(b'time=2025-01-29T21:15:25.522-03:00 level=WARN source=amd_linux.go:378 '
                       b'msg="amdgpu is not supported (supported types:[gfx1030 gfx1100])" '
                       b'gpu_type=gfx1031 gpu=0 library=/opt/rocm/lib\n', "ollama gfx")
check("ollama unsupported gfx: no rule named", root_id(doc) is None, str(doc.get("root_cause")))
check("ollama unsupported gfx: env with HSA_ asked",
      any(a.startswith("env |") and "HSA" in a for a in doc.get("ask", [])), str(doc.get("ask")))
# An info rule's symptom is what the user met in the text: a warning there, named as the root
# cause (https://github.com/tensorflow/tensorflow/issues/62320: TensorFlow's PTX JIT on an H100)
rc, doc = explain_json(b"TensorFlow was not built with CUDA kernel binaries compatible with "
                       b"compute capability 9.0. CUDA kernels will be jit-compiled from PTX, "
                       b"which could take 30 minutes or longer.\n", "ptx jit")
check("info rule's symptom: the root cause, as a warning",
      root_id(doc) == "framework.ptx-jit-only" and doc.get("counts", {}).get("warning") == 1 and
      doc.get("counts", {}).get("info") == 0, str(doc.get("counts")))

# A pasted `env` of a container whose request is "void" (the NVIDIA Container Toolkit's
# documented value: no GPU, no driver libraries): the container's request is judged, and where the
# process ran is not stated, since no container marker was pasted
rc, out, err = run([], b"NVIDIA_VISIBLE_DEVICES=void\nCUDA_VERSION=12.4.1\n")
check("env void: root cause container.visible-devices-void",
      "root cause: \u2717 container.visible-devices-void" in out, out[:400])
check("env void: not said to be outside a container", "not in a container" not in out and
      "container: not probed" in out, out[-2000:])
# An amdgpu or Intel driver rule's own layer is asked with that vendor's module, not NVIDIA's
# version file (https://github.com/thesofproject/sof-test/issues/767: i915's GuC failing;
# https://github.com/ROCm/ROCm/issues/1357's kernel log is in the corpus as amdgpu-fw-mi100)
rc, doc = explain_json(b"[    5.289539] kernel: i915 0000:00:02.0: GuC initialization failed -2\n"
                       b"[    5.289564] kernel: i915 0000:00:02.0: Enabling uc failed (-5)\n",
                       "i915 guc")
ask = doc.get("ask", [])
check("Intel driver rule: asks modinfo i915/xe and dmesg, not NVIDIA's version file",
      root_id(doc) == "driver.intel-firmware-failed" and "modinfo i915 | head" in ask and
      "modinfo xe | head" in ask and "uname -a" in ask and
      "cat /proc/driver/nvidia/version" not in ask, str(ask))
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "explain-corpus",
                       "amdgpu-fw-mi100-rocm-1357.txt"), "rb") as fh:
    rc, doc = explain_json(fh.read(), "amdgpu firmware")
ask = doc.get("ask", [])
check("amdgpu driver rule: asks modinfo amdgpu and its version file, not NVIDIA's",
      root_id(doc) == "driver.amdgpu-firmware-failed" and "modinfo amdgpu | head" in ask and
      "cat /sys/module/amdgpu/version" in ask and
      "cat /proc/driver/nvidia/version" not in ask, str(ask))

# lspci -nnk's block without "Kernel driver in use:" (the whole listing, from 00:00.0): no driver
# bound, read as an absent driver, and the hardware rule names it
NO_DRIVER = (b"00:00.0 Host bridge [0600]: Intel Corporation 8th Gen Core Processor Host "
             b"Bridge/DRAM Registers [8086:3ec2] (rev 07)\n"
             b"\tSubsystem: Dell Device [1028:0869]\n"
             b"\tKernel driver in use: skl_uncore\n"
             b"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation GP104 [GeForce GTX "
             b"1080] [10de:1b80] (rev a1)\n"
             b"\tSubsystem: Dell Device [1028:3367]\n"
             b"\tKernel modules: nvidiafb, nouveau\n")
rc, doc = explain_json(NO_DRIVER, "no driver bound")
f = fact(doc, "hardware.gpus.0.driver")
check("lspci -nnk without a driver line: the driver read as absent at the GPU's line",
      f is not None and f.get("absent") is True and f["line"] == 4, str(f))
check("lspci -nnk without a driver line: hardware.gpu-without-driver",
      root_id(doc) == "hardware.gpu-without-driver", str(doc.get("root_cause")))
rc, out, err = run([], NO_DRIVER)
check("lspci -nnk without a driver line: the text output says none",
      "hardware.gpus.0.driver none:" in out, out[:600])

# A lone Xid 31 (a GPU memory page fault) stays info, no root cause: NVIDIA's Xid catalogue
# restarts and debugs the application first and suspects the driver only when the application
# did not change but the driver did, which the log cannot show; the driver's version is asked
# (https://github.com/doitsujin/dxvk/issues/2495, a game's crash on 510.47.03)
rc, doc = explain_json(b"NVRM: Xid (PCI:0000:0c:00): 31, pid=11461, Ch 00000053, intr 10000000. "
                       b"MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_2 faulted @ 0x0_00000000. "
                       b"Fault is of type FAULT_PDE ACCESS_TYPE_READ\n", "xid 31")
check("lone Xid 31: info, no root cause, the driver's version asked",
      root_id(doc) is None and doc.get("counts", {}).get("info") == 1 and
      "cat /proc/driver/nvidia/version" in doc.get("ask", []),
      f"{doc.get('root_cause')} {doc.get('counts')} {doc.get('ask')}")

# Where the corpus shows a paste cannot decide, the command that would (libgpuenv-explain.c,
# rule_asks), each a real command of the platform the text shows, and only there.
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "explain-corpus")


def corpus_ask(name):
    with open(os.path.join(CORPUS, name), "rb") as f:
        return explain_json(f.read(), name)[1].get("ask", [])


# numba/numba#9032: WSL2 with Ubuntu's libnvidia-compute-510 installed: which libcuda the
# loader finds, and WSL's own
ask = corpus_ask("wsl-libnvidia-compute-510-numba-9032.txt")
check("wsl linux driver: asks ldconfig -p | grep libcuda and ls -l /usr/lib/wsl/lib",
      "ldconfig -p | grep libcuda" in ask and "ls -l /usr/lib/wsl/lib" in ask, str(ask))
# ollama/ollama#8679: an override in the ollama unit, the server started by hand
ask = corpus_ask("override-not-inherited-ollama-8679.txt")
check("ollama override: asks systemctl cat ollama", "systemctl cat ollama" in ask, str(ask))
# intel-gpu/intel-gpu-i915-backports#209 (an Arc B580 under 6.8) and thesofproject/sof-test#767
# (GuC init failed): the render nodes, clinfo -l, sycl-ls
for name in ("intel-bmg-kernel-68-i915-backports-209.txt", "intel-guc-init-sof-test-767.txt"):
    ask = corpus_ask(name)
    check(f"intel {name}: asks ls -l /dev/dri, clinfo -l and sycl-ls",
          all(a in ask for a in ("ls -l /dev/dri", "clinfo -l", "sycl-ls")), str(ask))
# an NVIDIA case asks none of Intel's, ollama's or WSL's
ask = corpus_ask("cudnn-older-jax-gcbfplus-1.txt")
check("jax cudnn: no Intel, ollama, WSL or dpkg command asked",
      not any(x in a for a in ask for x in ("sycl-ls", "/dev/dri", "systemctl", "wsl", "dpkg")),
      str(ask))
# a missing cuDNN (the line of https://github.com/daswer123/xtts-finetune-webui/issues/31,
# which `sudo apt install nvidia-cudnn` fixed on Ubuntu): dpkg's list on Debian and Ubuntu only
CUDNN_MISSING = (b"Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: "
                 b"cannot open shared object file: No such file or directory\n")
ask = explain_json(b"ID=ubuntu\nVERSION_ID=\"22.04\"\n" + CUDNN_MISSING, "cudnn ubuntu")[1].get(
    "ask", [])
check("missing cudnn on ubuntu: asks dpkg -l | grep cudnn", "dpkg -l | grep cudnn" in ask,
      str(ask))
for os_lines, what in ((b"", "no os"), (b"ID=fedora\nVERSION_ID=39\n", "fedora")):
    ask = explain_json(os_lines + CUDNN_MISSING, f"cudnn {what}")[1].get("ask", [])
    check(f"missing cudnn, {what}: dpkg not asked", not any("dpkg" in a for a in ask), str(ask))

if failed:
    print(f"{len(failed)} failed")
    sys.exit(1)
