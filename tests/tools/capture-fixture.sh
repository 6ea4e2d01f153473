#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns a run into a fixture: runs `gpuenv report --trace-paths` on this machine (or on the
# root given with --sysroot) and copies every path it read successfully into
# tests/fixtures/<name>/root/, keeping symlinks as symlinks and resolving them the way
# gpuenv does (absolute targets inside the root), so `--sysroot` replays the same reads
# (util-linux tests/ts/lscpu/mk-input.sh, but exact). Device nodes cannot live in git: they
# become [devices] lines of scenario.ini (see docs/HACKING.md). When a GPU was named from
# pci.ids, the lines of pci.ids that named it are kept as usr/share/misc/pci.ids. Review the
# copy before committing: it may contain host names, serial numbers and UUIDs.
# --report FILE also keeps the JSON report of the traced run (tests/tools/test-capture.sh
# compares it with the report of the copy).
# Usage: tests/tools/capture-fixture.sh [--sysroot DIR] [--report FILE] GPUENV NAME [DEST_DIR]
set -eu
sysroot=/
report=
while :; do
	case ${1:-} in
	--sysroot) sysroot=$2 ;;
	--report) report=$2 ;;
	*) break ;;
	esac
	shift 2
done
gpuenv=$1
name=$2
dest=${3:-$(dirname "$0")/../fixtures}/$name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$sysroot" = / ]; then
	"$gpuenv" report --trace-paths "$tmp/trace" --json --stable >"$tmp/report.json"
else
	"$gpuenv" report --sysroot "$sysroot" --no-vendor --trace-paths "$tmp/trace" --json --stable \
		>"$tmp/report.json"
fi
mkdir -p "$dest/root"
python3 - "$sysroot" "$dest" "$tmp/trace" "$tmp/report.json" <<'PY'
import json, os, posixpath, stat, sys

src, dest, trace, report = sys.argv[1:5]
src = os.path.abspath(src)
out = os.path.join(dest, "root")
live = src == "/"
devices = {}


def host(p):
    return src + p if src != "/" else p


def mkdirs(p):
    os.makedirs(out + p, exist_ok=True)


def copy_link(p):
    if not os.path.lexists(out + p):
        mkdirs(posixpath.dirname(p))
        os.symlink(os.readlink(host(p)), out + p)


def walk(path, listed, depth=0, content=True):
    """Resolves path inside the root component by component, copying each link met.
    content=False (a link found in a listed directory): links and directories only."""
    if depth > 40:
        return
    parts = [c for c in path.split("/") if c and c != "."]
    cur = "/"
    for i, comp in enumerate(parts):
        if comp == "..":
            cur = posixpath.dirname(cur) or "/"
            continue
        nxt = posixpath.join(cur, comp)
        rest = "/".join(parts[i + 1:])
        if live and nxt in ("/proc/self", "/proc/thread-self"):
            mkdirs(nxt)  # our own pid: a plain directory in the fixture
            cur = nxt
            continue
        if os.path.islink(host(nxt)):
            copy_link(nxt)
            target = os.readlink(host(nxt))
            base = "/" if target.startswith("/") else cur
            walk(posixpath.join(base, target, rest) if rest else posixpath.join(base, target),
                 listed, depth + 1, content)
            return
        cur = nxt
    copy_final(cur, listed, content)


def copy_final(p, listed, content=True):
    try:
        st = os.lstat(host(p))
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        mkdirs(p)
        if not content:
            return
        if listed:  # names in a listed directory are data (node0, 0000:18:00.0 …)
            for e in sorted(os.listdir(host(p))):
                q = posixpath.join(p, e)
                if os.path.islink(host(q)):
                    walk(q, False, content=False)  # the link and where it leads, no file data
                elif os.path.isdir(host(q)):
                    mkdirs(q)
                elif os.path.isfile(host(q)) and not os.path.exists(out + q):
                    # Its name is what was read (libcudart.so.12.4.127): an empty stand-in;
                    # a file whose bytes a probe read is in the trace and copied whole.
                    open(out + q, "wb").close()
    elif not content:
        return
    elif stat.S_ISREG(st.st_mode) and (not os.path.exists(out + p) or
                                       os.path.getsize(out + p) == 0):  # or a stand-in
        mkdirs(posixpath.dirname(p))
        try:
            with open(host(p), "rb") as f:  # procfs/sysfs report size 0: read them
                data = f.read()
        except OSError:
            return
        with open(out + p, "wb") as f:
            f.write(data)
        os.chmod(out + p, stat.S_IMODE(st.st_mode) | 0o200)  # probes look at the x bits
    elif (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)) and p != "/dev/kmsg":
        # /dev/kmsg is read live only; a fixture replays the kernel log from /var/log.
        mkdirs(posixpath.dirname(p))
        devices[p] = "%s %d:%d %04o %d:%d" % ("c" if stat.S_ISCHR(st.st_mode) else "b",
                                             os.major(st.st_rdev), os.minor(st.st_rdev),
                                             stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid)


paths = sorted({l.split("\t", 1)[1].rstrip("\n") for l in open(trace) if l.startswith("ok\t")})
for p in paths:
    walk(p, True)
# A symlink loop is data too (ELOOP is what the probe recorded): copy its links.
for p in sorted({l.split("\t", 1)[1].rstrip("\n") for l in open(trace) if l.startswith("ELOOP\t")}):
    walk(p, False, content=False)

# GPUs named from pci.ids: keep the header and the vendor/device lines that named them.
ids = set()
for g in json.load(open(report)).get("hardware", {}).get("gpus", []):
    n = g.get("name", {})
    if n.get("source") == "pci.ids":
        ids.add((g["vendor_id"]["value"][2:], g["device_id"]["value"][2:]))
if ids:
    for cand in ("/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids"):
        if os.path.isfile(host(cand)):
            keep, vendor = [], None
            for line in open(host(cand), encoding="utf-8", errors="replace"):
                if line.startswith("#") and not keep:
                    keep.append(line)
                elif line[:1] not in ("\t", "#", "\n") and len(line) > 6:
                    vendor = line[:4]
                    if any(v == vendor for v, _ in ids):
                        keep.append(line)
                elif line.startswith("\t") and not line.startswith("\t\t") and \
                        (vendor, line[1:5]) in ids:
                    keep.append(line)
            mkdirs("/usr/share/misc")
            with open(out + "/usr/share/misc/pci.ids", "w") as f:
                f.writelines(keep)
            break

ini = os.path.join(dest, "scenario.ini")
if devices and os.path.exists(ini) and "[devices]" not in open(ini).read():
    with open(ini, "a") as f:
        f.write("\n[devices]\n" + "".join("%s = %s\n" % kv for kv in sorted(devices.items())))
elif devices and not os.path.exists(ini):
    open(os.path.join(dest, ".devices"), "w").write(
        "".join("%s = %s\n" % kv for kv in sorted(devices.items())))
print("captured %d paths into %s" % (len(paths), dest))
PY
if [ ! -f "$dest/scenario.ini" ]; then
	{
		printf '[scenario]\ndescription = captured from %s\nsource = tests/tools/capture-fixture.sh on %s\nargs = --no-vendor\n\n[env]\n' \
			"$(cat "$sysroot/proc/sys/kernel/osrelease" 2>/dev/null || uname -r)" "$(date -u +%Y-%m-%d)"
		# Only the variables gpuenv reads for the GPU stack (probe-environment.c), never the
		# rest. Under --sysroot the environment is empty (as gpuenv assumes without --env-file).
		if [ "$sysroot" = / ]; then
			env | grep -E '^(PATH|LD_LIBRARY_PATH|LD_PRELOAD|CUDA_[A-Z_]*|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|HSA_OVERRIDE_GFX_VERSION|NVIDIA_[A-Z_]*|CONDA_PREFIX|VIRTUAL_ENV|XLA_FLAGS)=' ||
				[ $? = 1 ] # none set
		fi
		if [ -f "$dest/.devices" ]; then
			printf '\n[devices]\n'
			cat "$dest/.devices"
		fi
	} >"$dest/scenario.ini"
	rm -f "$dest/.devices"
fi
[ -z "$report" ] || cp "$tmp/report.json" "$report"
