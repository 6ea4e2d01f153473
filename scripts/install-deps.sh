#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the Debian 12 packages gpuenv needs to build (and, with --test, to run its
# test suite; with --bench, to compare with PyTorch in bench/). As root it uses apt-get;
# otherwise it names what is missing and fails.
set -eu

# The -dev packages also ship the static archives the gpuenv tool links (-Dstatic_deps).
build_pkgs="meson ninja-build gcc pkg-config python3 libelf-dev libjansson-dev liblzma-dev
zlib1g-dev libzstd-dev liblz4-dev libzip-dev libyaml-dev libpci-dev pci.ids libmicrohttpd-dev
libcrypt-dev libarchive-dev libgnutls28-dev nettle-dev libdeflate-dev libisal-dev"
# One LLVM: PoCL (the OpenCL live test) depends on clang-15 and LLVM 15, whose compiler-rt
# (libclang-common-15-dev) holds libFuzzer, so `make fuzz` uses clang-15 and the format check
# clang-format-15; clang 14 besides would add 257 MiB (README "Dependencies"). lld-15: clang-15
# links the HIP fixture files' amdgcn code objects with lld (a minbase root has no linker for it).
# locales: localedef and the de_DE source for the comma-decimal runs (with-comma-locale.sh);
# zsh and fish: the completion check runs both shells (syntax, and fish's own completion).
# prometheus: promtool tests the shipped alert rules, and a real Prometheus scrapes `gpuenv
# exporter` (tests/tools/test-alert-rules.sh, test-exporter-prometheus.py); python3-yaml reads
# the rules for check-exported-metrics.py.
# slurmctld, slurmd, slurm-client and munge: a real Slurm on loopback drains and resumes a node
# through `gpuenv health --slurm` (tests/tools/test-slurm.py).
# Without them a fresh root's make test skipped those checks.
test_pkgs="libcmocka-dev clang-15 clang-tools-15 lld-15 clang-format-15 openssl xz-utils ocl-icd-libopencl1
ocl-icd-opencl-dev pocl-opencl-icd clinfo zstd lz4 zip binutils python3-jsonschema groff-base
locales zsh fish prometheus python3-yaml libxml2-utils slurmctld slurmd slurm-client munge wrk"

# bench/bench-doctor.sh compares doctor with PyTorch's collect_env (large: not a test need).
# bench/bench-exporter.sh loads `gpuenv exporter` with wrk (in the test set too: the
# exporter's load figures are part of its acceptance, issue 16) and counts its instructions
# per request with valgrind's callgrind.
bench_pkgs="python3-torch wrk valgrind"

pkgs=$build_pkgs
[ "${1:-}" = "--test" ] && pkgs="$build_pkgs $test_pkgs"
[ "${1:-}" = "--bench" ] && pkgs="$build_pkgs $bench_pkgs"

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "gpuenv: missing Debian packages:$missing" >&2
	echo "gpuenv: install them as root: apt-get install$missing" >&2
	echo "gpuenv: or with sudo: sudo apt-get install$missing" >&2
	exit 1
fi
# apt's progress goes to stderr: `make run ARGS="report --json" > f` must leave only JSON in f.
echo "gpuenv: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
