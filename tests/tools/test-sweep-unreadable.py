#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every fixture, every path its probes read, made unreadable in turn: no verdict improves.

Runs sweep-unreadable (tests/tools/sweep-unreadable.c, whose header defines "improves") once
per tests/fixtures/<scenario>/ with the scenario's [env], args and inject_errors, two
fixtures at a time. Device nodes of a [devices] section are not made (that needs root):
the baseline of the sweep is the fixture without them, which is what it compares against.
A fixture whose `requires` path is missing here is left out, and said so.
KNOWN (tests/sweep-unreadable-known.txt) lists "<fixture> <path>  # why" pairs whose
improvement is known and not fixed yet; it may only shrink: an entry that no longer
improves, or names a fixture that does not exist, fails the test too, so that it is deleted.
Usage: test-sweep-unreadable.py SWEEP_EXE FIXTURES_DIR FAKES_DIR KNOWN
"""
import concurrent.futures
import configparser
import os
import subprocess
import sys
import tempfile
import time


def command(sweep, scenario_dir, fakes, tmp):
    ini = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    ini.optionxform = str
    ini.read(os.path.join(scenario_dir, "scenario.ini"))
    needs = ini.get("scenario", "requires", fallback="")
    if needs and not os.path.exists(needs):
        return None, f"{needs} is not installed here"
    envfile = os.path.join(tmp, os.path.basename(scenario_dir) + ".env")
    with open(envfile, "w", encoding="utf-8") as f:
        if ini.has_section("env"):
            for k, v in ini.items("env"):
                f.write(f"{k}={v}\n")
    cmd = [sweep, "--sysroot", os.path.join(scenario_dir, "root"), "--env-file", envfile]
    cmd += ini.get("scenario", "args", fallback="").replace("@FAKES@", fakes).split()
    if ini.has_option("scenario", "inject_errors"):
        cmd += ["--inject", ini.get("scenario", "inject_errors")]
    return cmd, None


def main():
    sweep, fixtures, fakes, known_file = sys.argv[1:5]
    known = set()
    with open(known_file, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                known.add((line[0], line[1]))
    seen_known = set()
    names = sorted(n for n in os.listdir(fixtures)
                   if os.path.isfile(os.path.join(fixtures, n, "scenario.ini")))
    only = os.environ.get("GPUENV_SWEEP_ONLY")  # "a,b": just those fixtures (development)
    if only:
        names = [n for n in names if n in only.split(",")]
    env = dict(os.environ)
    # One sweep process collects hundreds of snapshots: ASan's quarantine (256 MB by default)
    # would keep the freed ones mapped, and each vendor child's fork(2) copies those page
    # tables. A small quarantine still catches use-after-free of the last runs.
    env["ASAN_OPTIONS"] = ":".join(x for x in (env.get("ASAN_OPTIONS", ""),
                                               "quarantine_size_mb=16") if x)
    failed = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {}
        # The biggest trees first, so that two workers finish together.
        size = {n: sum(len(f) for _, _, f in os.walk(os.path.join(fixtures, n, "root")))
                for n in names}
        for name in sorted(names, key=lambda n: -size[n]):
            d = os.path.join(fixtures, name)
            cmd, why = command(sweep, d, fakes, tmp)
            if cmd is None:
                print(f"SKIP {name}: {why}")
                continue
            env_n = dict(env, GPUENV_FAKE_SCENARIO=os.path.join(d, "scenario.ini"))
            jobs[name] = pool.submit(subprocess.run, cmd, capture_output=True, text=True,
                                     env=env_n, timeout=900)
        for name, job in sorted(jobs.items()):
            try:
                p = job.result()
            except subprocess.TimeoutExpired as e:
                print(f"{name}: still running after {e.timeout} s")
                failed.append(name)
                continue
            out = p.stdout.strip().splitlines()
            print(f"{name}: {out[-1] if out else '(no output)'}")
            new = []
            for line in out[:-1]:
                path = line.split(": ", 1)[0]
                if (name, path) in known:
                    seen_known.add((name, path))
                    print(f"  known: {line}")
                else:
                    new.append(line)
            if p.returncode not in (0, 1) or new:
                failed.append(name)
                for line in new:
                    print(f"  {line}")
                if p.stderr:
                    sys.stdout.write(p.stderr[-4000:])
        # The list cannot go stale unnoticed: an entry of a fixture that ran and no longer
        # improves, or of a fixture that does not exist (renamed, removed), fails.
        for name, path in sorted(known - seen_known):
            if name in jobs:
                print(f"{name}: {path} is in {known_file} but no longer improves: delete it")
            elif not os.path.isfile(os.path.join(fixtures, name, "scenario.ini")):
                print(f"{name}: in {known_file}, but there is no such fixture: delete it")
            else:
                continue
            if name not in failed:
                failed.append(name)
    print(f"{len(jobs)} fixtures swept in {time.monotonic() - start:.1f} s; "
          f"{len(failed)} failing: {' '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
