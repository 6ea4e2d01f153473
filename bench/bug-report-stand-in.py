# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes bench/bench-explain.sh's stand-in for an nvidia-bug-report.log: text whose gzip -6 is
GZ_KIB KiB, laid out as nvidia-bug-report.sh lays out its log, from real text in this tree.

Usage: bug-report-stand-in.py OUT.txt GZ_KIB SRCDIR

No public report of that size was at hand to ship; its make-up follows a public one (an RTX
3060 Laptop GPU on Arch Linux, driver 520.56.06, 2022-10-27, pasted into a public repository:
895,678 bytes, read at its start and at five places through it): the script's prologue, then one section per file or command in
its order (a line of 44 underscores, an empty line, "*** PATH" and "*** ls: ..." of a file, or
the command line, the text, an empty line): /sys and /proc files, systemctl and journalctl
of the display server, coredumpctl, the Xorg logs, the kernel log (dmesg and the
journal's boots, the bulk of a large report, each line a new time stamp), /proc/asound,
nvidia-smi -q, and last `base64 "nvidia-nvml-temp<PID>.log"`: NVML's own log, opaque bytes as
base64 in lines of 76, 290 KB of that report's 896 KB (0.48 of the text before it). That part
gzip cannot shrink below three quarters, the logs shrink ten- to twentyfold: the whole
report about 3:1 (an estimate), not the 8:1 a report of text alone has.

Here the sections' text is the real pastes of tests/explain-corpus/ and the readers' samples
(tests/fuzz/corpus/pasted-*/), each a file section; the kernel log is every kernel-log line
of them and of the fixtures' logs (tests/fixtures/*/root/var/log/) and the kernel-log reader's
corpus (dmesg's "[   12.345678] " and the journal's "Mon DD HH:MM:SS host kernel: " forms),
re-stamped in order with rising times, as many passes as the size needs; the NVML log is
seeded pseudo-random bytes (its content is nothing explain reads). The tree has no Xorg log,
so the report has none (the public one's 280 KB of Xorg log repeat a few lines, and shrink
more than the kernel log does).
"""
import base64
import os
import random
import re
import sys
import zlib

out_path, gz_kib, src = sys.argv[1], int(sys.argv[2]), sys.argv[3]
want = gz_kib * 1024
rng = random.Random(12)
BAR = b"_" * 44


def samples():
    names = []
    for d in ["tests/explain-corpus"] + sorted(
            os.path.join("tests/fuzz/corpus", e) for e in os.listdir(os.path.join(src, "tests/fuzz/corpus"))
            if e.startswith("pasted-")):
        full = os.path.join(src, d)
        names += sorted(os.path.join(full, f) for f in os.listdir(full) if f.endswith(".txt"))
    for name in names:
        data = open(name, "rb").read()
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # a PowerShell redirect's UTF-16
            data = data.decode("utf-16").encode("utf-8")
        yield name, data


# a kernel message wherever a paste quotes it: after dmesg's time stamp, or the journal's or
# syslog's "kernel: " (and the time stamp some put after it)
KMSG = re.compile(rb"(?:^|\s)(?:\[ *\d+\.\d+\]|kernel:(?: \[ *\d+\.\d+\])?) (.*)$")

def kernel_logs():
    """The real kernel logs of the fixtures (root/var/log/) and of the kernel-log reader's corpus."""
    logs = os.path.join(src, "tests/fuzz/corpus/kernel-log")
    names = [os.path.join(logs, f) for f in sorted(os.listdir(logs))]
    fixtures = os.path.join(src, "tests/fixtures")
    for fx in sorted(os.listdir(fixtures)):
        d = os.path.join(fixtures, fx, "root/var/log")
        if os.path.isdir(d):
            names += [os.path.join(d, f) for f in sorted(os.listdir(d)) if os.path.isfile(os.path.join(d, f))]
    for name in names:
        yield name, open(name, "rb").read()


files, klog = [], []
for name, data in samples():
    files.append((name, data))
for name, data in files + list(kernel_logs()):
    for line in data.splitlines():
        m = KMSG.search(line)
        if m and m.group(1).strip():
            klog.append(m.group(1))


class Out:
    def __init__(self, path):
        self.f = open(path, "wb")
        self.z = zlib.compressobj(6, zlib.DEFLATED, 31)
        self.text = self.gz = 0

    def write(self, b):
        self.f.write(b)
        self.text += len(b)
        self.gz += len(self.z.compress(b))


out = Out(out_path)
out.write(BAR + b"\n\nStart of NVIDIA bug report log file.  Please include this file, along\n"
          b"with a detailed description of your problem, when reporting a graphics\n"
          b"driver bug via the NVIDIA Linux forum (see forums.developer.nvidia.com)\n"
          b"or by sending email to 'linux-bugs@nvidia.com'.\n\n"
          b"nvidia-bug-report.sh Version: 31831145\n\nDate: Mon Dec  7 00:00:00 UTC 2026\n"
          b"uname: Linux host 6.1.0-28-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 x86_64 GNU/Linux\n"
          b"command line flags: \n\n")
for name, data in files:
    path = b"/var/log/%s" % os.path.basename(name).encode()
    out.write(BAR + b"\n\n*** %s\n*** ls: -rw-r--r-- 1 root root %d 2026-12-07 00:00:00.000000000 +0000 %s\n"
              % (path, len(data), path) + data + (b"" if data.endswith(b"\n") else b"\n") + b"\n")

# The opaque part's share of the text before it, and what gzip leaves of it: 57 bytes of
# base64 (76 characters) hold 57 random bytes, plus the line's end.
# NVML_SHARE in the environment sets another share (0: a report of text alone).
NVML_SHARE, NVML_GZ = float(os.environ.get("NVML_SHARE", "0.48")), 58 / 77


def predicted():
    return out.gz + out.text * NVML_SHARE * NVML_GZ


t, boot = 0.0, 0
while predicted() < want:
    # dmesg of this boot, then the journal's copy of it (journalctl -b -N, newest first)
    for form in (b"dmesg", b"journalctl"):
        head = b"dmesg" if form == b"dmesg" else b"journalctl -b -%d" % boot
        out.write(BAR + b"\n\n" + head + b"\n\n")
        t = 0.0
        for msg in klog:
            t += rng.expovariate(1 / 0.05)
            if form == b"dmesg":
                out.write(b"[%12.6f] %s\n" % (t, msg))
            else:
                s = 1765065600 + int(t)
                stamp = b"Dec %02d %02d:%02d:%02d" % (7 - boot % 7, s // 3600 % 24, s // 60 % 60, s % 60)
                out.write(b"%s host kernel: %s\n" % (stamp, msg))
            if predicted() >= want:
                break
        out.write(b"\n")
        if predicted() >= want:
            break
    boot += 1

nvml = int(out.text * NVML_SHARE)
out.write(BAR + b"\n\nbase64 \"nvidia-nvml-temp4242.log\"\n\n")
for _ in range(nvml // 77):
    out.write(base64.b64encode(rng.randbytes(57)) + b"\n")
out.write(b"\n")
out.f.close()
