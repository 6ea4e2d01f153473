# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers of the `gpuenv exporter` tests: run it on a fixture with the fake NVML, parse an
exposition strictly (Prometheus text format 0.0.4 or OpenMetrics 1.0), find a free port."""
import os
import re
import socket
import subprocess
import time

SRC = os.environ.get("GPUENV_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("GPUENV_BUILD_ROOT", "")
FAKES = os.path.join(BUILD, "tests", "fakes")


def fixture_args(name, scenario=None):
    """(arguments, environment) that run gpuenv on tests/fixtures/<name> with the fakes."""
    d = os.path.join(SRC, "tests", "fixtures", name)
    args = ["--sysroot", os.path.join(d, "root")]
    with open(os.path.join(d, "scenario.ini"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("args ="):
                args += line.split("=", 1)[1].replace("@FAKES@", FAKES).split()
    env = dict(os.environ, GPUENV_FAKE_SCENARIO=scenario or os.path.join(d, "scenario.ini"))
    return args, env


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')
_SAMPLE = re.compile(r"^(" + _NAME + r")(?:\{(.*)\})? (\S+)$")


def _unescape(v):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "\\": "\\", '"': '"'}[m.group(1)], v)


def parse(text, openmetrics=False):
    """Families {name: {"type", "help", "samples": [(name, labels dict, value str)]}}.
    Raises ValueError on anything either format forbids: a sample outside its family, a
    family declared twice, a malformed line or label, a duplicate series, a value that is
    not a number, a missing or misplaced # EOF."""
    fams, seen, cur = {}, set(), None
    lines = text.split("\n")
    if lines[-1] != "":
        raise ValueError("no final line feed")
    lines = lines[:-1]
    if openmetrics:
        if not lines or lines[-1] != "# EOF":
            raise ValueError("OpenMetrics exposition does not end with # EOF")
        lines = lines[:-1]
    for n, line in enumerate(lines, 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, name, rest = line[2:6], *line[7:].split(" ", 1)
            if not re.fullmatch(_NAME, name):
                raise ValueError(f"line {n}: bad family name {name!r}")
            if name in fams and (cur != name or kind.lower() in fams[name]):
                raise ValueError(f"line {n}: family {name} declared twice or split")
            fams.setdefault(name, {"samples": []})[kind.lower()] = rest
            cur = name
            continue
        if line.startswith("#") or not line:
            raise ValueError(f"line {n}: unexpected line {line!r}")
        m = _SAMPLE.match(line)
        if not m:
            raise ValueError(f"line {n}: not a sample: {line!r}")
        name, body, value = m.groups()
        labels, pos = {}, 0
        while body and pos < len(body):
            lm = _LABEL.match(body, pos)
            if not lm:
                raise ValueError(f"line {n}: bad labels at {body[pos:]!r}")
            labels[lm.group(1)] = _unescape(lm.group(2))
            pos = lm.end()
        float(value)  # raises on a bad number
        fam = cur
        suffixes = [""]
        if openmetrics and fam and fams[fam].get("type") == "counter":
            suffixes = ["_total", "_created"]
        if openmetrics and fam and fams[fam].get("type") == "info":
            suffixes = ["_info"]
        if fam is None or name not in [fam + s for s in suffixes]:
            raise ValueError(f"line {n}: sample {name} outside its family ({fam})")
        key = (name, tuple(sorted(labels.items())))
        if key in seen:
            raise ValueError(f"line {n}: duplicate series {line!r}")
        seen.add(key)
        fams[fam]["samples"].append((name, labels, value))
    for name, f in fams.items():
        if "type" not in f:
            raise ValueError(f"family {name} has no # TYPE")
    return fams


def value(fams, name, **labels):
    """The value of the one sample of family name whose labels include labels, or None."""
    hits = [v for _, l, v in fams.get(name, {}).get("samples", [])
            if all(l.get(k) == w for k, w in labels.items())]
    if len(hits) > 1:
        raise ValueError(f"{name} {labels}: {len(hits)} samples")
    return hits[0] if hits else None


def wait_http(url, timeout, want=200, headers=None):
    """Polls url until it answers want; returns the last (status, headers, body)."""
    import urllib.error
    import urllib.request
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        try:
            req = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(req, timeout=5) as r:
                last = (r.status, dict(r.headers), r.read().decode())
        except urllib.error.HTTPError as e:
            last = (e.code, dict(e.headers), e.read().decode())
        except OSError as e:
            last = (None, {}, str(e))
        if last[0] == want:
            return last
        time.sleep(0.2)
    return last


def descendants(pid):
    """The pids of every live process below pid."""
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def serving_process(pid):
    """The exporter's serving process (tools/exporter-server.c, named gpuenv-http), or
    None."""
    kids = [k for k in descendants(pid) if comm(k) == "gpuenv-http"]
    return kids[0] if len(kids) == 1 else None


def collection_children(pid):
    """What the collecting process started below it (NVML keepers and children, the
    diagnosis child), without the serving process, which forks nothing."""
    return {k for k in descendants(pid) if comm(k) != "gpuenv-http"}


def threads(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def start(gpuenv, args, env):
    return subprocess.Popen([gpuenv, "exporter"] + args, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
