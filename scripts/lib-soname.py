#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Prints the SONAME of the shared library the C compiler would link for -lNAME, for the
# libraries gpuenv dlopens on first use instead of linking (src/vendor/dl.h, dl_lazy): the
# soname it then asks for is the ABI it was compiled against. The library is found with
# `CC -print-file-name=libNAME.so` (the development symlink) and its DT_SONAME read from the
# ELF dynamic section (System V gABI, "Dynamic Section"). Usage: lib-soname.py NAME CC [ARGS…]
# tests/tools/check-needed.py reads DT_NEEDED and .note.dlopen through the same functions.
import struct
import subprocess
import sys


def _sections(data):
    """(header fields…) of each section header, and the struct formats of this ELF class."""
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file (a linker script?)")
    e = "<" if data[5] == 1 else ">"
    if data[4] == 2:
        shoff, = struct.unpack_from(e + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
        sh_fmt, dyn_fmt = e + "IIQQQQIIQQ", e + "qQ"
    else:
        shoff, = struct.unpack_from(e + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x2E)
        sh_fmt, dyn_fmt = e + "IIIIIIIIII", e + "iI"
    secs = [struct.unpack_from(sh_fmt, data, shoff + i * shentsize) for i in range(shnum)]
    return secs, secs[shstrndx][4] if shnum else 0, e, dyn_fmt


def _cstr(data, off):
    return data[off:data.index(b"\0", off)].decode()


def dynamic_strings(path, want_tag):
    """The strings of every dynamic entry with tag want_tag (1 DT_NEEDED, 14 DT_SONAME)."""
    with open(path, "rb") as f:
        data = f.read()
    secs, _, _, dyn_fmt = _sections(data)
    out = []
    for _, sh_type, _, _, off, size, link, _, _, _ in secs:
        if sh_type != 6:  # SHT_DYNAMIC
            continue
        stroff = secs[link][4]
        for pos in range(off, off + size, struct.calcsize(dyn_fmt)):
            tag, val = struct.unpack_from(dyn_fmt, data, pos)
            if tag == 0:  # DT_NULL
                break
            if tag == want_tag:
                out.append(_cstr(data, stroff + val))
    return out


def dlopen_notes(path):
    """The JSON texts of the FDO .note.dlopen notes (systemd docs/ELF_DLOPEN_METADATA.md)."""
    with open(path, "rb") as f:
        data = f.read()
    secs, names_off, e, _ = _sections(data)
    out = []
    for name, _, _, _, off, size, _, _, _, _ in secs:
        if _cstr(data, names_off + name) != ".note.dlopen":
            continue
        pos = off
        while pos + 12 <= off + size:
            namesz, descsz, ntype = struct.unpack_from(e + "III", data, pos)
            desc = pos + 12 + (namesz + 3) // 4 * 4
            if ntype == 0x407C0C0A:
                out.append(data[desc:desc + descsz].rstrip(b"\0").decode())
            pos = desc + (descsz + 3) // 4 * 4
    return out


def soname(path):
    names = dynamic_strings(path, 14)  # DT_SONAME
    if not names:
        raise ValueError("no DT_SONAME")
    return names[0]


def main():
    name, cc = sys.argv[1], sys.argv[2:]
    path = subprocess.run(cc + [f"-print-file-name=lib{name}.so"], check=True,
                          capture_output=True, text=True).stdout.strip()
    if "/" not in path:
        sys.exit(f"lib-soname: the compiler finds no lib{name}.so (install its -dev package)")
    try:
        print(soname(path))
    except (OSError, ValueError, struct.error, IndexError) as err:
        sys.exit(f"lib-soname: {path}: {err}")


if __name__ == "__main__":
    main()
