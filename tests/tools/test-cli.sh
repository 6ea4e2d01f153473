#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# CLI behaviour: a live report runs; bad inputs give the documented exit code (66 for an
# unreadable input, 64 for usage) and a message naming the path and the reason.
set -u
gpuenv="$1"
. "$(dirname "$0")/lib-check.sh"
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
# fixture NAME: the committed fixture's root made by fixture_root.py (its generated files too)
# in $fixtures/NAME, which it sets $root to. A file that could not be made (a tool missing) is
# named on stderr; no check below reads one that needs more than gcc.
fixture() {
	root=$fixtures/$1
	python3 "$(dirname "$0")/fixture_root.py" "$GPUENV_SOURCE_ROOT/tests/fixtures/$1" "$root" >&2
	rc=$?
	[ $rc = 0 ] || [ $rc = 77 ] || { echo "FAIL: cannot make the $1 fixture (exit $rc)"; exit 1; }
}
check 0 "" "$gpuenv" report
check 0 "" "$gpuenv" report --json
check 66 "/nonexistent-gpuenv: No such file or directory" "$gpuenv" report --sysroot /nonexistent-gpuenv
check 66 "/etc/hostname: not a directory, an image or a tar archive" "$gpuenv" report --sysroot /etc/hostname
check 66 "--from /nonexistent.json: No such file or directory" "$gpuenv" report --from /nonexistent.json
tmp=$(mktemp)
echo '{"schema_version": 99}' >"$tmp"
check 66 "not a gpuenv snapshot" "$gpuenv" report --from "$tmp"
check 66 "not a version this gpuenv reads (1 or 2)" "$gpuenv" report --from "$tmp"
echo 'BAD LINE=1' >"$tmp"
check 66 "env file $tmp: line 1: white space in the variable name" "$gpuenv" report --env-file "$tmp"
rm -f "$tmp"
check 66 "--pci-ids /nonexistent.ids: No such file or directory" "$gpuenv" report --pci-ids /nonexistent.ids
check 64 "unknown command" "$gpuenv" frobnicate
check 64 "unexpected argument" "$gpuenv" report extra
# hides SECRET CMD…: CMD's output shows SECRET, CMD --redact's does not. The first half keeps
# the second from passing because the value was never printed at all.
hides() {
	secret=$1
	shift
	if ! "$@" 2>/dev/null | grep -qF -- "$secret"; then
		echo "FAIL: $*: prints no '$secret' even without --redact: the --redact check would prove nothing"
		fail=1
	elif "$@" --redact 2>/dev/null | grep -qF -- "$secret"; then
		echo "FAIL: $* --redact shows an environment value ('$secret')"
		fail=1
	else
		echo "ok: $* --redact hides '$secret'"
	fi
}
# --redact hides environment values (and UUIDs, serials, host names) in both renderers.
for fmt in "" --json; do
	hides secret-uuid-1234 env CUDA_VISIBLE_DEVICES=secret-uuid-1234 "$gpuenv" report $fmt
done
# --redact hides the user name of home directories (/home/<name>/…) in every renderer: a venv
# under /home/user is the framework layer's source, its files the evidence.
venv=$(mktemp)
printf 'PATH=/home/user/venv/bin:/usr/bin:/bin\nVIRTUAL_ENV=/home/user/venv\n' >"$venv"
# --from a snapshot of schema 1 (an older gpuenv: TensorFlow's METADATA version was `version`,
# docs/snapshot-schema.md "Schema versions"): read with the key renamed, the same report and
# the same doctor verdict as the schema-2 snapshot it was made from.
fixture python-tf215
"$gpuenv" report --json --stable --no-vendor --sysroot "$root" >"$fixtures/v2.json" 2>/dev/null
python3 - "$fixtures/v2.json" "$fixtures/v1.json" <<'PY'
import json, sys
snap = json.load(open(sys.argv[1]))
snap["schema_version"] = 1
n = 0
for env in snap["framework"]["python_envs"]:
    tf = env.get("packages", {}).get("tensorflow")
    if tf and "dist_version" in tf:
        tf["version"] = tf.pop("dist_version")
        n += 1
if not n:
    sys.exit("no packages.tensorflow.dist_version in the python-tf215 report: nothing to test")
json.dump(snap, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
[ $? = 0 ] || fail=1
for cmd in "report --json --stable" "doctor --json"; do
	# shellcheck disable=SC2086
	"$gpuenv" $cmd --from "$fixtures/v1.json" >"$fixtures/from-v1" 2>&1
	rc1=$?
	# shellcheck disable=SC2086
	"$gpuenv" $cmd --from "$fixtures/v2.json" >"$fixtures/from-v2" 2>&1
	rc2=$?
	if [ $rc1 != $rc2 ] || ! cmp -s "$fixtures/from-v1" "$fixtures/from-v2"; then
		echo "FAIL: $cmd --from a schema-1 snapshot: exit $rc1, not the schema-2 snapshot's ($rc2) or other output"
		diff "$fixtures/from-v2" "$fixtures/from-v1" | head -20
		fail=1
	else
		echo "ok: $cmd --from a schema-1 snapshot = --from schema 2 (exit $rc1)"
	fi
done
fixture python-venv-torch24-cu124
venv_root=$root
for cmd in report "report --json" doctor "doctor --json" "doctor --markdown" "doctor --mermaid"; do
	hides /home/user "$gpuenv" $cmd --sysroot "$venv_root" --env-file "$venv" --no-vendor
done
# doctor --markdown says which gpuenv, OS and kernel it describes (a pasted report's first question)
ver=$("$gpuenv" version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
# version --json is JSON with the same version
jver=$("$gpuenv" version --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["version"]); assert d["major"] == int(d["version"].split(".")[0])') ||
	{ echo "FAIL: version --json is not the JSON object the man page describes"; fail=1; }
if [ "$jver" = "$("$gpuenv" version | sed 's/^gpuenv //')" ]; then
	echo "ok: version --json gives the version ($jver)"
else
	echo "FAIL: version --json says '$jver'"
	fail=1
fi

fixture xid-79-fallen-off-bus
xid_root=$root
want="gpuenv $ver · OS $(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' "$xid_root/etc/os-release") · kernel $(cat "$xid_root/proc/sys/kernel/osrelease")"
if "$gpuenv" doctor --markdown --sysroot "$xid_root" --no-vendor | grep -qxF -- "$want"; then
	echo "ok: doctor --markdown has the line '$want'"
else
	echo "FAIL: doctor --markdown lacks the line '$want'"
	fail=1
fi
# its root-cause sentence ends before "It explains …" (a message has no full stop of its own)
rc_line=$("$gpuenv" doctor --markdown --sysroot "$xid_root" --no-vendor | grep '^\*\*Root cause:\*\*')
case $rc_line in
*'. It explains `'*) echo "ok: doctor --markdown: the root cause is a sentence before 'It explains'" ;;
*) echo "FAIL: doctor --markdown root cause: '$rc_line'"; fail=1 ;;
esac
# doctor text fits 80 columns when stdout is no terminal (here: a pipe): only a word longer
# than the line (a path, a command) may exceed it.
fixture h100-sxm-550
h100_root=$root
wide=$("$gpuenv" doctor --sysroot "$h100_root" --no-vendor --color never | python3 -c '
import sys
print(sum(1 for l in sys.stdin.read().splitlines() if len(l) > 80 and " " in l.strip()[:80]
          and not l.lstrip().startswith(("fix ", "verify ", "#", "sudo "))))')
if [ "$wide" = 0 ]; then echo "ok: doctor text wraps at 80 columns"; else
	echo "FAIL: $wide doctor line(s) wider than 80 columns that could have wrapped"
	fail=1
fi
rm -f "$venv"
# doctor: usage errors, "could not evaluate", warnings-only with and without --strict.
check 64 "unrecognized option" "$gpuenv" doctor --bogus
check 64 "exclude each other" "$gpuenv" doctor --json --markdown
check 64 "unexpected argument" "$gpuenv" doctor extra
empty=$(mktemp -d)
check 3 "" "$gpuenv" doctor --sysroot "$empty" --no-vendor
check 3 "" "$gpuenv" --sysroot "$empty" --no-vendor
mkdir -p "$empty/sys/module/nvidia"
echo 550.54.15 >"$empty/sys/module/nvidia/version"
check 0 "" "$gpuenv" doctor --sysroot "$empty" --no-vendor
check 1 "" "$gpuenv" doctor --sysroot "$empty" --no-vendor --strict
if NO_COLOR=1 "$gpuenv" doctor --sysroot "$empty" --no-vendor --color always | grep -q "$(printf '\033')"; then
	echo "FAIL: doctor prints colour with NO_COLOR"
	fail=1
else
	echo "ok: no colour with NO_COLOR"
fi
if "$gpuenv" doctor --sysroot "$empty" --no-vendor --color always | grep -q "$(printf '\033')"; then
	echo "ok: --color always colours"
else
	echo "FAIL: --color always prints no colour"
	fail=1
fi
for fmt in --json --markdown --mermaid; do
	check 0 "" "$gpuenv" doctor --sysroot "$empty" --no-vendor $fmt
done
for fmt in "" --json --markdown; do
	check 0 "" "$gpuenv" doctor --list-rules $fmt
done
rm -rf "$empty"
# --redact: an environment value quoted by a finding is hidden in every format.
stubdir=""
for d in /usr/local/cuda/lib64/stubs /usr/local/cuda/lib/stubs; do
	[ -f "$d/libcuda.so" ] && stubdir=$d && break
done
if [ -n "$stubdir" ]; then
	# --mermaid draws the diagnosis path and quotes no environment value: nothing to redact.
	for fmt in "" --json --markdown; do
		hides secret-user-1234 env LD_LIBRARY_PATH="/opt/secret-user-1234:$stubdir" "$gpuenv" doctor --no-vendor $fmt
	done
else
	echo "SKIP doctor --redact: no stub libcuda.so under /usr/local/cuda/lib64/stubs or lib/stubs (the finding that quotes LD_LIBRARY_PATH needs one)"
fi
exit $fail
