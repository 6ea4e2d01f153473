# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the bench-*.sh scripts (sourced, not run): finding the largest fixture, timing a
# command, ratios, and the Python that has PyTorch for the collect_env comparison.

# The fixture whose root/ holds the most entries: sets $largest (its root) and $largest_name.
largest_fixture() {
	best=0
	for d in "$(dirname "$0")"/../tests/fixtures/*/root; do
		[ -f "$d/../scenario.ini" ] || continue
		n=$(find "$d" | wc -l)
		if [ "$n" -gt "$best" ]; then
			best=$n
			largest=$d
		fi
	done
	largest_name=$(basename "$(dirname "$largest")")
}

# RUNS command… → "WALL CPU": mean wall ms and mean CPU ms (user+sys of the child) per run,
# after one warm-up run. The CPU figure stays meaningful on a loaded machine, where wall time
# also counts waiting for a core.
time_ms() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm the cache
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
for _ in range(runs):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = (time.perf_counter() - t0) * 1000 / runs
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000 / runs
print(f"{wall:.3f} {cpu:.3f}")
PY
}

ratio() { python3 -c "print(f'{$1/$2:.1f}')"; }

# The first python3 that imports torch (Debian: python3-torch), or nothing.
torch_python() {
	for py in python3 /usr/bin/python3; do
		if "$py" -c 'import torch' >/dev/null 2>&1; then
			echo "$py"
			return
		fi
	done
}

# LIVE_MS WHAT: times `python3 -m torch.utils.collect_env` (what PyTorch's bug template asks
# for) 3 times and prints it and the ratio to LIVE_MS, or why it was not timed.
vs_collect_env() {
	py=$(torch_python)
	if [ -z "$py" ]; then
		echo "collect_env: not timed: PyTorch is not installed here (Debian: apt install python3-torch)"
		return
	fi
	set -- "$1" "$2" $(time_ms 3 "$py" -m torch.utils.collect_env)
	echo "$py -m torch.utils.collect_env: $3 ms (3 runs)"
	echo "collect_env / $2: $(ratio "$3" "$1")x"
}
