#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Start-up stays light: the libraries gpuenv loads on first use (libzip, libpci, libarchive,
# libnettle for --image-verify, libisal for explain of a gzip file, and for gpuenv exporter
# libmicrohttpd and libcrypt;
# src/vendor/dl.h, dl_lazy) must not come
# back as DT_NEEDED of the gpuenv tool or of libgpuenv.so (they would bring libcrypto,
# libudev, and GnuTLS with its chain into every run again), and each must
# be declared in the binary's .note.dlopen for packagers (systemd ELF_DLOPEN_METADATA.md).
# With -Dstatic_deps=true (STATIC=1) the tool links the archives of libelf, jansson, zstd,
# liblzma, lz4, zlib and libyaml, so none of them may be a DT_NEEDED of it either.
# gpuenv exporter's serving program, gpuenv-http, is held to the same: libmicrohttpd and
# libcrypt loaded on first use and declared.
# Usage: check-needed.py SOURCE_ROOT GPUENV GPUENV_HTTP LIBGPUENV_SO STATIC CC [ARGS…]
import importlib.util
import json
import subprocess
import sys

root, tool, http, lib = sys.argv[1:5]
static, cc = sys.argv[5] == "1", sys.argv[6:]
spec = importlib.util.spec_from_file_location("lib_soname", root + "/scripts/lib-soname.py")
elfinfo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(elfinfo)

def soname_of(name):
    path = subprocess.run(cc + [f"-print-file-name=lib{name}.so"], check=True,
                          capture_output=True, text=True).stdout.strip()
    return elfinfo.soname(path)


tool_lazy = ("zip", "pci", "archive", "microhttpd", "crypt", "nettle", "isal")
lazy = {name: soname_of(name) for name in tool_lazy}
archived = {soname_of(name) for name in ("elf", "jansson", "zstd", "lzma", "lz4", "z", "yaml")}
# what the lazy libraries themselves would have pulled in
heavy = {"libcrypto.so.3", "libudev.so.1", "libbz2.so.1.0", soname_of("gnutls")}

fail = 0
for path, lazy_here in ((tool, ("zip", "pci", "archive", "nettle", "isal")),
                        (http, ("microhttpd", "crypt")), (lib, ("zip", "nettle", "isal"))):
    needed = elfinfo.dynamic_strings(path, 1)
    if not needed:
        print(f"FAIL: {path}: no DT_NEEDED read (not a dynamically linked ELF?)")
        fail = 1
        continue
    bad = sorted((set(lazy.values()) | heavy) & set(needed))
    linked = sorted(archived & set(needed)) if static and path in (tool, http) else []
    if bad:
        print(f"FAIL: {path} links {', '.join(bad)} at start-up; they are loaded on first use")
        fail = 1
    elif linked:
        print(f"FAIL: {path} links {', '.join(linked)} shared; -Dstatic_deps links the archives")
        fail = 1
    else:
        print(f"ok: {path} needs only {' '.join(needed)}")
    declared = set()
    for note in elfinfo.dlopen_notes(path):
        for feature in json.loads(note):
            declared.update(feature["soname"])
    for name in lazy_here:
        if lazy[name] in declared:
            print(f"ok: {path} declares {lazy[name]} in .note.dlopen")
        else:
            print(f"FAIL: {path}: {lazy[name]} is not in its .note.dlopen")
            fail = 1
sys.exit(fail)
