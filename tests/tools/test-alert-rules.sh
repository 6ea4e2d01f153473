#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped Prometheus rules (deploy/prometheus/gpuenv-alerts.yml) load (`promtool check
# rules`) and pass their unit tests (`promtool test rules gpuenv-alerts.test.yml`): each alert
# fires on the series that mean trouble and not on the ones that do not. promtool comes with
# Debian's prometheus package (scripts/install-deps.sh --test); skipped, saying so, without it.
# Usage: test-alert-rules.sh SOURCE_ROOT
set -eu
dir=$1/deploy/prometheus
if ! command -v promtool >/dev/null 2>&1; then
	echo "SKIP promtool: not installed (Debian: prometheus)"
	exit 77
fi
promtool check rules "$dir/gpuenv-alerts.yml"
cd "$dir"
promtool test rules gpuenv-alerts.test.yml
