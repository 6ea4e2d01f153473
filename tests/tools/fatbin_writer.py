# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes CUDA fat binary containers for architectures nvcc 13.0 can no longer target
(below sm_75), for fixtures of framework builds made with old toolkits (TensorFlow 2.3:
CUDA 10.1, SASS sm_35..sm_61, PTX compute_70). The layout is docs/formats/fatbin.md's:
the container header (§3), entry headers (§4) with the flags of a Linux 64-bit build (§6),
uncompressed payloads, ELF entries in the ABI-7 form of CUDA <= 12 (§9.1, §9.2: EI_OSABI
0x33, EI_ABIVERSION 7, e_flags EF_CUDA_SM | EF_CUDA_TEXMODE_UNIFIED | EF_CUDA_64BIT_ADDRESS |
EF_CUDA_VIRTUAL_SM << 16, entry version 1.7), and PTX entries whose text starts with the
.version/.target/.address_size directives (§8) of the ISA the toolkit wrote.

What the entries hold is a stand-in, said here and in every fixture that uses it: a cubin is
an ELF header and a section table with one `.text.<kernel>` section of zero bytes (no SASS
instructions), a PTX entry is the three directives and one empty `.entry`. Readers of the
headers (gpuenv's scanner, `cuobjdump --list-elf --list-ptx`) see what the old toolkit's
output shows them; nothing can run it.
"""
import struct

CONTAINER_MAGIC = 0xBA55ED50  # fatbin.md §3
KIND_PTX, KIND_ELF = 1, 2  # §4
FLAGS_LINUX_64 = 0x11  # §6: FATBIN_FLAG_64BIT | host Linux
EM_CUDA = 190
ELFOSABI_CUDA = 0x33  # §9.1, ABI version 7
EF_CUDA_TEXMODE_UNIFIED, EF_CUDA_64BIT_ADDRESS = 0x100, 0x400  # §9.2


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def cubin(sm, kernel):
    """An ABI-7 cubin for sm_<sm>: ELF header, sections null, .shstrtab, .text.<kernel>."""
    names = b"\0.shstrtab\0.text." + kernel.encode() + b"\0"
    text = b"\0" * 16  # the kernel's code: no instructions (a stand-in)
    ehsize, shentsize = 64, 64
    names_off = ehsize
    text_off = names_off + len(pad8(names))
    shoff = text_off + len(text)
    e_flags = sm | EF_CUDA_TEXMODE_UNIFIED | EF_CUDA_64BIT_ADDRESS | (sm << 16)
    ident = b"\x7fELF" + bytes([2, 1, 1, ELFOSABI_CUDA, 7]) + b"\0" * 7
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", 2, EM_CUDA, 1, 0, 0, shoff, e_flags, ehsize,
                              0, 0, shentsize, 3, 1)
    sh = b"\0" * shentsize
    # name, type, flags, addr, offset, size, link, info, addralign, entsize
    sh += struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names_off, len(names), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 11, 1, 0x6, 0, text_off, len(text), 0, 0, 128, 0)
    return hdr + pad8(names) + text + sh


def ptx(arch, isa, kernel):
    return (f".version {isa}\n.target sm_{arch}\n.address_size 64\n\n"
            f".visible .entry {kernel}()\n{{\n\tret;\n}}\n").encode() + b"\0"


def entry(kind, arch, major, minor, payload):
    """One entry (fatbin.md §4): a 64-byte header, the payload padded to 8 bytes."""
    body = pad8(payload)
    return struct.pack("<HHIQIIHHIIIQQQ", kind, 0x0101, 64, len(body), 0, 0, minor, major, arch,
                       0, 0, FLAGS_LINUX_64, 0, 0) + body


def container(sass, ptx_archs, ptx_isa, kernel="gpuenv_fixture_fill"):
    """One container: an ELF entry per SASS arch, then a PTX entry per virtual arch."""
    isa_major, isa_minor = (int(x) for x in ptx_isa.split("."))
    entries = b"".join(entry(KIND_ELF, a, 1, 7, cubin(a, kernel)) for a in sass)
    entries += b"".join(entry(KIND_PTX, a, isa_major, isa_minor, ptx(a, ptx_isa, kernel))
                        for a in ptx_archs)
    return struct.pack("<IHHQ", CONTAINER_MAGIC, 1, 16, len(entries)) + entries


def c_source(blob):
    """C that places the container in .nv_fatbin with its wrapper in .nvFatBinSegment (§1, §2:
    FATBINC_MAGIC 0x466243B1, version 1), as a host object nvcc compiled holds them."""
    data = ",".join(str(b) for b in blob)
    return ("__attribute__((section(\".nv_fatbin\"), aligned(8), used))\n"
            f"static const unsigned char fatbin[{len(blob)}] = {{{data}}};\n"
            "struct wrapper { int magic, version; const void *data; void *filename; };\n"
            "__attribute__((section(\".nvFatBinSegment\"), aligned(8), used))\n"
            "static const struct wrapper w = { 0x466243B1, 1, fatbin, 0 };\n"
            "int gpuenv_fixture_host(void) { return 1; }\n")
