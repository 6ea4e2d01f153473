#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""libmicrohttpd and libcrypt are loaded by `gpuenv exporter` when it starts its server, not
linked (tools/exporter-libs.c): with a library that does not load or lacks a function, the
exporter stops with exit 69 and a message naming the library and what to install, while
every other command (explain, doctor, the exporter's own --once, which serves nothing) works
as before. The libraries are replaced through LD_LIBRARY_PATH by ones made here with the C
compiler: an empty libmicrohttpd.so.12 (no MHD_start_daemon), a libcrypt.so.1 without
crypt_rn(), and a libmicrohttpd.so.12 that is not an ELF file at all. And a gpuenv whose
serving program, gpuenv-http, is not where it looks for it, and one whose NVML child's
program, gpuenv-nvml, is not.
Usage: test-exporter-libs.py GPUENV SOURCE_ROOT CC [ARGS…]"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

gpuenv, src, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
SNAP = os.path.join(src, "tests", "fixtures", "nvml-h100-healthy", "expected", "report.json")
fails = 0


def check(what, ok, detail=""):
    global fails
    if ok:
        print("ok:", what)
    else:
        print("FAIL:", what, detail)
        fails += 1


def soname_of(name):
    """The soname gpuenv asks for: the one of the library the compiler links (as meson.build
    finds it, scripts/lib-soname.py)."""
    return subprocess.run([sys.executable, os.path.join(src, "scripts", "lib-soname.py"), name]
                          + cc, check=True, capture_output=True, text=True).stdout.strip()


def stub(directory, soname, body="int gpuenv_stub_only;\n"):
    os.makedirs(directory, exist_ok=True)
    c = os.path.join(directory, "stub.c")
    with open(c, "w", encoding="utf-8") as f:
        f.write(body)
    subprocess.run(cc + ["-shared", "-fPIC", "-o", os.path.join(directory, soname),
                         f"-Wl,-soname,{soname}", c], check=True)
    os.unlink(c)


def run(args, libdir, stdin=None):
    """The finished command; one still running after 60 s (an exporter that started serving
    where it should have stopped) is killed and counts as exit -1."""
    env = dict(os.environ, LD_LIBRARY_PATH=libdir)
    try:
        return subprocess.run([gpuenv] + args, env=env, input=stdin, capture_output=True,
                              text=True, timeout=60)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(e.cmd, -1, e.stdout or "", str(e.stderr or ""))


mhd, crypt = soname_of("microhttpd"), soname_of("crypt")
with tempfile.TemporaryDirectory(prefix="gpuenv-exporter-libs-") as tmp:
    no_mhd = os.path.join(tmp, "no-mhd")
    stub(no_mhd, mhd)
    r = run(["exporter", "--from", SNAP, "--listen", "127.0.0.1:0"], no_mhd)
    check("exporter without MHD_start_daemon exits 69", r.returncode == 69,
          f"(exit {r.returncode}, stderr {r.stderr!r})")
    check("the message names the library, the function and the package",
          "cannot serve HTTP" in r.stderr and mhd in r.stderr and "MHD_" in r.stderr
          and "apt install libmicrohttpd12" in r.stderr, repr(r.stderr))

    r = run(["exporter", "--from", SNAP, "--once"], no_mhd)
    check("exporter --once serves nothing and needs no libmicrohttpd",
          r.returncode == 0 and "gpuenv_" in r.stdout, f"(exit {r.returncode}, {r.stderr!r})")
    r = run(["explain", "-"], no_mhd,
            "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n")
    check("explain runs without libmicrohttpd", r.returncode == 2 and "line 1" in r.stdout,
          f"(exit {r.returncode}, {r.stderr!r})")
    r = run(["doctor", "--from", SNAP], no_mhd)
    check("doctor runs without libmicrohttpd", r.returncode in (0, 1, 2) and
          "gpuenv doctor" in r.stdout, f"(exit {r.returncode}, {r.stderr!r})")

    not_elf = os.path.join(tmp, "not-elf")
    os.makedirs(not_elf)
    with open(os.path.join(not_elf, mhd), "w", encoding="utf-8") as f:
        f.write("not a shared object\n")
    r = run(["exporter", "--from", SNAP, "--listen", "127.0.0.1:0"], not_elf)
    check("exporter with a libmicrohttpd that does not load exits 69",
          r.returncode == 69 and "cannot serve HTTP" in r.stderr and mhd in r.stderr,
          f"(exit {r.returncode}, stderr {r.stderr!r})")

    no_crypt = os.path.join(tmp, "no-crypt")
    stub(no_crypt, crypt)
    cfg = os.path.join(tmp, "web.yml")
    with open(cfg, "w", encoding="utf-8") as f:
        # a bcrypt hash (exporter-toolkit's example format); never checked: the start fails
        f.write("basic_auth_users:\n"
                "  alice: $2b$10$PcnW4m37JYTMCcq9LD7RzemvwnaV/wN6nuH9puYj.8peHD4xYCaUu\n")
    r = run(["exporter", "--from", SNAP, "--listen", "127.0.0.1:0", "--web-config", cfg],
            no_crypt)
    check("exporter with basic authentication and no crypt_rn() exits 69",
          r.returncode == 69 and "crypt_rn" in r.stderr and crypt in r.stderr,
          f"(exit {r.returncode}, stderr {r.stderr!r})")

    # The serving program (tools/exporter-server.c) is found from gpuenv's own directory only:
    # a gpuenv copied where no gpuenv-http is beside it or in ../libexec/gpuenv stops with
    # exit 69 and says what is missing, and --once still works.
    alone = os.path.join(tmp, "alone", "bin")
    os.makedirs(alone)
    shutil.copy2(gpuenv, os.path.join(alone, "gpuenv"))
    r = subprocess.run([os.path.join(alone, "gpuenv"), "exporter", "--from", SNAP, "--listen",
                        "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    check("exporter without its serving program exits 69 and names it",
          r.returncode == 69 and "gpuenv-http" in r.stderr and "libexec" in r.stderr,
          f"(exit {r.returncode}, stderr {r.stderr!r})")
    r = subprocess.run([os.path.join(alone, "gpuenv"), "exporter", "--from", SNAP, "--once"],
                       capture_output=True, text=True, timeout=60)
    check("exporter --once needs no serving program", r.returncode == 0 and "gpuenv_" in r.stdout,
          f"(exit {r.returncode}, {r.stderr!r})")

    # The NVML child's program, gpuenv-nvml, is found the same way: beside a serving program
    # but without it, a live exporter stops with exit 69 and names it before it samples;
    # with --from (nothing of NVML runs) it serves.
    nonvml = os.path.join(tmp, "nonvml", "bin")
    os.makedirs(nonvml)
    shutil.copy2(gpuenv, os.path.join(nonvml, "gpuenv"))
    shutil.copy2(os.path.join(os.path.dirname(gpuenv), "gpuenv-http"),
                 os.path.join(nonvml, "gpuenv-http"))
    root = os.path.join(src, "tests", "fixtures", "nvml-h100-healthy", "root")
    r = subprocess.run([os.path.join(nonvml, "gpuenv"), "exporter", "--sysroot", root,
                        "--listen", "127.0.0.1:0"], capture_output=True, text=True, timeout=60)
    check("live exporter without its NVML child's program exits 69 and names it",
          r.returncode == 69 and "gpuenv-nvml" in r.stderr and "libexec" in r.stderr,
          f"(exit {r.returncode}, stderr {r.stderr!r})")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    p = subprocess.Popen([os.path.join(nonvml, "gpuenv"), "exporter", "--from", SNAP,
                          "--listen", f"127.0.0.1:{port}", "--interval", "1h"],
                         stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=60)
    check("exporter --from needs no NVML child's program", "listening on" in first,
          f"(exit {p.returncode}, stderr {first!r})")
sys.exit(1 if fails else 0)
