#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `meson install --destdir` puts the shell completions where each shell looks for them:
# bash-completion's completionsdir (its pkg-config variable, else
# PREFIX/share/bash-completion/completions), PREFIX/share/zsh/site-functions/_gpuenv and
# PREFIX/share/fish/vendor_completions.d/gpuenv.fish, with the contents of shell-completion/.
# And the installed `gpuenv exporter` runs its serving process from the installed
# LIBEXECDIR/gpuenv/gpuenv-http (tools/exporter-server.c finds it from gpuenv's own
# directory, so under --destdir too) and serves; collecting live (the fake NVML of the
# build, tests/fakes), it starts its long-lived NVML child from the installed
# LIBEXECDIR/gpuenv/gpuenv-nvml (found the same way) and exports the fake's GPUs.
# Usage: test-install.sh SRCDIR BUILDDIR
set -u
src=$1
build=$2
meson=${MESON:-meson}
fail=0
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
# The suite's own build directory is complete: install what it holds, rebuild nothing.
if ! "$meson" install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$dest.log" 2>&1; then
	echo "FAIL: meson install --destdir failed:"
	cat "$dest.log"
	rm -f "$dest.log"
	exit 1
fi
rm -f "$dest.log"
opt() { "$meson" introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"; }
prefix=$(opt prefix)
datadir=$(opt datadir)
case $datadir in /*) ;; *) datadir=$prefix/$datadir ;; esac
bashdir=$(opt bashcompletiondir)
if [ -z "$bashdir" ]; then
	bashdir=$(pkg-config --define-variable=datadir="$datadir" --variable=completionsdir bash-completion 2>/dev/null)
	[ -n "$bashdir" ] || bashdir=$datadir/bash-completion/completions
fi
case $bashdir in /*) ;; *) bashdir=$prefix/$bashdir ;; esac
check() { # INSTALLED SOURCE
	if [ ! -f "$dest$1" ]; then
		echo "FAIL: $1 not installed"
		fail=1
	elif ! cmp -s "$dest$1" "$src/shell-completion/$2"; then
		echo "FAIL: $1 differs from shell-completion/$2"
		fail=1
	else
		echo "ok: $1"
	fi
}
check "$bashdir/gpuenv" bash/gpuenv
dir() { # OPTION DEFAULT: a completion directory, absolute
	d=$(opt "$1")
	[ -n "$d" ] || d=$2
	case $d in /*) echo "$d" ;; *) echo "$prefix/$d" ;; esac
}
check "$(dir zshcompletiondir "$datadir/zsh/site-functions")/_gpuenv" zsh/_gpuenv
check "$(dir fishcompletiondir "$datadir/fish/vendor_completions.d")/gpuenv.fish" fish/gpuenv.fish
# the exporter, installed: its serving process is the installed gpuenv-http, and it serves
abs() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
bin=$dest$(abs "$(opt bindir)")/gpuenv
http=$dest$(abs "$(opt libexecdir)")/gpuenv/gpuenv-http
if [ ! -x "$http" ]; then
	echo "FAIL: $http not installed"
	fail=1
else
	python3 - "$bin" "$http" "$src/tests/fixtures/nvml-h100-healthy/expected/report.json" <<'PY' || fail=1
import os, signal, socket, subprocess, sys, time, urllib.request
gpuenv, http, snap = sys.argv[1:]
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
p = subprocess.Popen([gpuenv, "exporter", "--from", snap, "--listen", f"127.0.0.1:{port}",
                      "--interval", "1h"], stderr=subprocess.PIPE)
ok = False
try:
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                ok = r.status == 200
                break
        except OSError:
            time.sleep(0.1)
    kids = open(f"/proc/{p.pid}/task/{p.pid}/children").read().split()
    exes = []
    for k in kids:  # a child may exit between the list and its link (a diagnosis fork)
        try:
            exes.append(os.path.realpath(os.readlink(f"/proc/{k}/exe")))
        except OSError:
            pass
    if not ok:
        print("FAIL: the installed gpuenv exporter did not answer /healthz")
    elif os.path.realpath(http) not in exes:
        print(f"FAIL: the installed exporter's serving process is not {http}: {exes}")
        ok = False
    else:
        print(f"ok: the installed gpuenv exporter serves from {http}")
finally:
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1].decode(errors="replace")
if not ok:
    print(err)
sys.exit(0 if ok else 1)
PY
fi
nvml=$dest$(abs "$(opt libexecdir)")/gpuenv/gpuenv-nvml
fake=$build/tests/fakes/libnvidia-ml.so.1
if [ ! -x "$nvml" ]; then
	echo "FAIL: $nvml not installed"
	fail=1
elif [ ! -f "$fake" ]; then
	echo "SKIP: the installed exporter collecting live: no fake NVML in $build (-Dtests=false)"
else
	python3 - "$bin" "$nvml" "$fake" "$src/tests/fixtures/nvml-a100-persistence-off" <<'PY' || fail=1
import os, signal, socket, subprocess, sys, time, urllib.request
gpuenv, nvml, fake, fixture = sys.argv[1:]
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
env = dict(os.environ, GPUENV_FAKE_SCENARIO=f"{fixture}/scenario.ini")
p = subprocess.Popen([gpuenv, "exporter", "--sysroot", f"{fixture}/root", "--nvml-lib", fake,
                      "--listen", f"127.0.0.1:{port}", "--interval", "500ms",
                      "--vendor-timeout", "20000"], env=env, stderr=subprocess.PIPE)
ok, why = False, "no GPU series from the fake NVML within 120 s"
try:
    for _ in range(1200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
                if "\nDCGM_FI_DEV_GPU_TEMP{" in r.read().decode():
                    ok = True
                    break
        except OSError:
            pass
        time.sleep(0.1)
    kids = open(f"/proc/{p.pid}/task/{p.pid}/children").read().split()
    exes = []
    for k in kids:  # a child may exit between the list and its link (a diagnosis fork)
        try:
            exes.append(os.path.realpath(os.readlink(f"/proc/{k}/exe")))
        except OSError:
            pass
    if ok and os.path.realpath(nvml) not in exes:
        ok, why = False, f"the NVML child's keeper is not {nvml}: {exes}"
finally:
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1].decode(errors="replace")
print(f"ok: the installed gpuenv exporter collects NVML through {nvml}" if ok
      else f"FAIL: {why}\n{err}")
sys.exit(0 if ok else 1)
PY
fi
# The diagnosis' libcuda session's program, found the same way (tools/exporter-cuda-main.c).
cuda=$dest$(abs "$(opt libexecdir)")/gpuenv/gpuenv-cuda
if [ -x "$cuda" ]; then
	echo "ok: $cuda installed"
else
	echo "FAIL: $cuda not installed"
	fail=1
fi
exit $fail
