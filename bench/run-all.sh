#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every benchmark against the release build (make bench).
set -eu
cd "$(dirname "$0")/.."
./bench/bench-report.sh build
./bench/bench-scan.sh build
./bench/bench-doctor.sh build
./bench/bench-policy.sh build
./bench/bench-python-envs.sh build
./bench/bench-inputs.sh build
./bench/bench-explain.sh build
./bench/bench-nvml-child.sh build
./bench/bench-exporter.sh build
./bench/bench-capture.sh build
