#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The NVIDIA device table (src/facts/data/nvidia_devices.tsv) against the machine's pci.ids:
# prints the coverage; fails when an id it maps names another chip there. Then proves the
# check can fail: a pci.ids of the table's own version with a GPU the table lacks, and one
# whose chip disagrees, are both refused; the HD audio function of a board is not a GPU.
# usage: test-nvidia-devices.sh SOURCE_ROOT
set -eu
src=$1
gen="$src/src/facts/gen-nvidia-devices.py"
table="$src/src/facts/data/nvidia_devices.tsv"
rc=0
python3 "$gen" --coverage --skip-missing --pci-ids "${GPUENV_PCI_IDS:-/usr/share/misc/pci.ids}" || rc=$?
case $rc in 0|77) ;; *) echo "FAIL: coverage of the machine's pci.ids"; exit 1 ;; esac

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
version=$(sed -n 's/^# pci_ids_version = //p' "$table")
fake() { printf '#\tVersion: %s\n10de  NVIDIA Corporation\n%s\n10df  Other\n' "$version" "$1" > "$tmp/pci.ids"; }

fake "$(printf '\t25a0  GA107M [GeForce RTX 3050 Ti Mobile]')"
python3 "$gen" --coverage --pci-ids "$tmp/pci.ids" >/dev/null || { echo "FAIL: a listed id refused"; exit 1; }
fake "$(printf '\tfff0  GA107M [GeForce RTX 9999 Imaginary]')"
if python3 "$gen" --coverage --pci-ids "$tmp/pci.ids" >/dev/null; then echo "FAIL: a missing id passed"; exit 1; fi
fake "$(printf '\t25a0  AD107M [GeForce RTX 3050 Ti Mobile]')"
if python3 "$gen" --coverage --pci-ids "$tmp/pci.ids" >/dev/null; then echo "FAIL: a wrong chip passed"; exit 1; fi
fake "$(printf '\t22ba  AD102 High Definition Audio Controller\n\t2684  AD102 [GeForce RTX 4090]')"
python3 "$gen" --pci-ids "$tmp/pci.ids" > "$tmp/out.tsv"
grep -q '^2684	AD102 \[GeForce RTX 4090\]	AD102	' "$tmp/out.tsv" || { echo "FAIL: 2684 not generated"; exit 1; }
if grep -q '^22ba' "$tmp/out.tsv"; then echo "FAIL: an audio function generated as a GPU"; exit 1; fi
echo "ok: nvidia device table"
exit 0
