#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a UEFI key variable as efivarfs shows it, for the tests (never committed):
4 attribute bytes (little-endian UINT32, Documentation/filesystems/efivarfs.rst), then one
EFI_SIGNATURE_LIST per certificate (UEFI Specification 2.10 §32.4.1: SignatureType
EFI_CERT_X509_GUID, SignatureListSize, SignatureHeaderSize 0, SignatureSize = 16 + the DER
size; one EFI_SIGNATURE_DATA: SignatureOwner GUID, then the certificate), the way shim
mirrors MokList into MokListRT. Each certificate is the test key of that signer name made by
mk-signing-key.sh in KEYDIR, so a module mk-kmodule.sh signed with the same name and KEYDIR
is signed by an enrolled key.

Usage: mk-efivar.py OUT KEYDIR ATTRIBUTES SIGNER_CN...   (ATTRIBUTES: hex, e.g. 0x6)
"""
import os
import struct
import subprocess
import sys
import uuid

X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072").bytes_le
# SHIM_LOCK_GUID, the owner shim gives the entries it mirrors.
OWNER = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23").bytes_le


def main():
    out, keydir, attrs = sys.argv[1], sys.argv[2], int(sys.argv[3], 16)
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mk-signing-key.sh")
    data = struct.pack("<I", attrs)
    for cn in sys.argv[4:]:
        key = subprocess.run(["sh", tool, keydir, cn], check=True, capture_output=True,
                             text=True).stdout.strip()
        der = subprocess.run(["openssl", "x509", "-in", key + ".pem", "-outform", "DER"],
                             check=True, capture_output=True).stdout
        size = 16 + len(der)
        data += X509 + struct.pack("<III", 28 + size, 0, size) + OWNER + der
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
