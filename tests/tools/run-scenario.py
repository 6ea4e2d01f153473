#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test of one fixture scenario (tests/fixtures/<name>/).

scenario.ini:
  [scenario]  description = …   source = where the files were copied from
              requires = a host path the scenario needs (a real vendor library); when it
                         is missing the test is skipped (exit 77) and says why
              inject_errors = PATH=ERRNAME,… reads that fail (EACCES, EIO …): the
                     scenario runs the test build of the CLI, gpuenv-test (4th argument)
              stuck_state = DIR (in the scenario's directory) holding a task's proc(5) "stat"
                     and "wchan": read for every task of a vendor child instead of its own
                     (a fake library cannot enter D state); also runs gpuenv-test
              args = extra gpuenv arguments (@FAKES@ expands to the fake-library dir,
                     and the golden files name that dir @FAKES@ too; the dir is reached
                     through a symlink of fixed length, so that text wrapped around it does
                     not depend on where the tree is checked out)
  [env]       KEY = VALUE lines, the environment of the judged process (--env-file)
  [devices]   /dev/PATH = c|b MAJOR:MINOR MODE UID:GID, device nodes git cannot store
              (`/dev/nvidia0 = c 195:0 0666 0:0`): root/ is copied to a temporary directory
              (symlinks kept as symlinks) and the nodes are made there with mknod(2), the mode
              and owner given. Where mknod or chown is not permitted (a user's `make test`),
              or GPUENV_FIXTURE_NODES=archive asks for it, the copy and its nodes are written
              as a capture bundle instead (root/ beside snapshot.json, in a tar whose device
              entries keep type, numbers, mode and owner: POSIX ustar devmajor/devminor) and
              gpuenv reads that as --sysroot FILE, as it replays any capture; the verdicts
              are the goldens' all the same.
  [modules], [elf]  files never committed (kernel modules, shared objects built by gcc, nvcc,
              clang): tests/tools/fixture_root.py makes them in a copy of root/ (see there);
              where a tool is missing the test is skipped (exit 77) naming the file and the tool.
  [efivars]   NAME-GUID = ATTRIBUTES, SIGNER; SIGNER…: a UEFI key variable (MokListRT, db)
              under /sys/firmware/efi/efivars holding the certificates of those signers,
              made by tests/tools/mk-efivar.py with the keys [modules] signs with (the same
              key directory), so a module signed by a listed signer is signed by an enrolled
              key. Skipped (77) without openssl.
  [real-world] url, pasted, cause, root_cause, layer, fails: the public report a fixture
              was rebuilt from, what the user pasted there, the cause the thread established,
              and the answer expected of doctor (read by the scoring tools, not here).
Runs `gpuenv report --sysroot root --stable` as text and as JSON, compares with
expected/report.txt and expected/report.json, and checks that the JSON loads back
(`--from`) to identical JSON. Then runs `gpuenv doctor` the same way and compares its text,
its JSON and its exit code with expected/doctor.txt, expected/doctor.json and
expected/doctor.rc; the doctor run from the saved snapshot (`--from`) must agree.
GPUENV_UPDATE_EXPECTED=1 rewrites the golden files.
"""
import difflib
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture_root  # noqa: E402  (tests/tools/fixture_root.py)


def run(cmd, env, ok_codes=(0,)):
    """Runs cmd; returns (stdout, exit code). Any other exit code, or a run past 60 s, ends the
    test naming the command and showing its stderr."""
    try:
        # Text output keeps bytes that are not UTF-8 as they are (a Latin-1 os-release):
        # surrogateescape carries them through the comparison and into the golden files.
        p = subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="surrogateescape",
                           env=env, timeout=60)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if e.stderr else ""  # bytes, even with text=True
        sys.stderr.write(f"{' '.join(cmd)}: still running after {e.timeout} s\n{err}")
        sys.exit(1)
    if p.returncode not in ok_codes:
        sys.stderr.write(f"{' '.join(cmd)}: exit {p.returncode}, want {' or '.join(map(str, ok_codes))}"
                         f"\n{p.stderr}")
        sys.exit(1)
    return p.stdout, p.returncode


def diff(expected, actual, expected_name, actual_name):
    sys.stderr.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                               expected_name, actual_name))


def compare(path, actual, update):
    if update or not os.path.exists(path):
        if not update:
            sys.stderr.write(f"{path}: missing golden file (run with GPUENV_UPDATE_EXPECTED=1)\n")
            return False
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(actual)
        return True
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        expected = f.read()
    if expected == actual:
        return True
    diff(expected, actual, path, "actual")
    return False


def parse_device(path, spec):
    """"c 195:0 0666 0:0" -> (mode bits incl. type, dev_t, uid, gid)."""
    f = spec.split()
    if len(f) != 4 or f[0] not in ("c", "b") or not path.startswith("/dev/"):
        sys.stderr.write(f"[devices] {path} = {spec}: want '/dev/… = c|b MAJOR:MINOR MODE UID:GID'\n")
        sys.exit(1)
    major, minor = (int(x) for x in f[1].split(":"))
    uid, gid = (int(x) for x in f[3].split(":"))
    kind = stat.S_IFCHR if f[0] == "c" else stat.S_IFBLK
    return kind, int(f[2], 8), os.makedev(major, minor), uid, gid


def make_efivars(root, tmp, efivars):
    """Makes the [efivars] key variables in the copied root; exits 77 without openssl."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mk-efivar.py")
    for name, spec in efivars:
        attrs, _, signers = spec.partition(",")
        if not attrs.strip().startswith("0x") or "/" in name:
            sys.stderr.write(f"[efivars] {name} = {spec}: want 'NAME-GUID = 0xATTR, SIGNER; …'\n")
            sys.exit(1)
        if not shutil.which("openssl"):
            print(f"SKIP: openssl is not installed: cannot make the efivar {name}")
            sys.exit(77)
        out = os.path.join(root, "sys/firmware/efi/efivars", name)
        subprocess.run([sys.executable, tool, out, os.path.join(tmp, "keys"), attrs.strip()]
                       + [x.strip() for x in signers.split(";") if x.strip()], check=True)


def bundle_root(root, tmp, nodes):
    """The tree at root and the device nodes (path, mode with type, dev_t, uid, gid) as a
    capture bundle tar (what `gpuenv capture` writes: root/ beside snapshot.json), owned by
    root as the copy made by root would be; returns its path."""
    out = os.path.join(tmp, "root.tar")

    def as_root(info):
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        data = b"{}\n"  # a replay reads the tree, not this: --from would read it
        info = as_root(tarfile.TarInfo("snapshot.json"))
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        tar.add(root, arcname="root", filter=as_root)
        for path, mode, dev, uid, gid in nodes:
            info = tarfile.TarInfo("root" + path)
            info.type = tarfile.CHRTYPE if stat.S_ISCHR(mode) else tarfile.BLKTYPE
            info.mode = stat.S_IMODE(mode)
            info.devmajor, info.devminor = os.major(dev), os.minor(dev)
            info.uid, info.gid = uid, gid
            tar.addfile(info)
    return out


def make_root(scenario_dir, tmp, devices, efivars=()):
    """Materialises the fixture root (fixture_root.py) and makes its device nodes; exits 77
    where a generated file cannot be made. Where mknod is not allowed the root is a capture
    bundle holding the nodes (bundle_root()): the path returned is then that file."""
    root = os.path.join(tmp, "root")
    missing = fixture_root.prepare(scenario_dir, root, os.path.join(tmp, "keys"))
    if missing:
        print(f"SKIP: cannot make {missing[0][0]}: {missing[0][1]}")
        sys.exit(77)
    make_efivars(root, tmp, efivars)
    nodes = []
    for path, spec in devices:
        kind, mode, dev, uid, gid = parse_device(path, spec)
        nodes.append((os.path.normpath(path), kind | mode, dev, uid, gid))
    archive = os.environ.get("GPUENV_FIXTURE_NODES") == "archive"
    for path, mode, dev, uid, gid in ([] if archive else nodes):
        node = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(node), exist_ok=True)
        try:
            os.mknod(node, mode, dev)
            os.chmod(node, stat.S_IMODE(mode))
            os.chown(node, uid, gid)
        except PermissionError:
            archive = True  # mknod/chown need CAP_MKNOD and CAP_CHOWN: not a user's
            if os.path.lexists(node):
                os.unlink(node)
            break
    return bundle_root(root, tmp, nodes) if archive and nodes else root


def sandbox_neutral(out):
    # the value with the lines it wraps onto (four columns deeper than its key)
    out = re.sub(r"^( *)(sandbox: ).*(?:\n\1    \S.*)*$", r"\1\2@SANDBOX@", out, flags=re.M)
    # The milliseconds between NVML's two reads of the PCIe replay counter: a timing.
    out = re.sub(r"(pcie_replay_interval_ms:? =? ?)\d+", r"\1@MS@", out)
    out = re.sub(r'(pcie_replay_interval_ms",\s*"value": )"\d+"', r'\1"@MS@"', out)
    out = re.sub(r'("pcie_replay_interval_ms": \{[^{}]*?"value": )\d+', r'\1"@MS@"', out)
    return re.sub(r'("sandbox": \{[^{}]*?"value": )"[^"]*"', r'\1"@SANDBOX@"', out)


def read_ini(scenario_dir):
    return fixture_root.read_ini(scenario_dir)


def prepare(scenario_dir, fakes_dir, tmp, link_dir):
    """Everything a gpuenv run over the scenario needs: (environment, root, env file, extra
    arguments, the fakes' path as the arguments name it). Exits 77 where the scenario cannot
    be made here (a required path missing, a generated file, no mknod). Shared with
    score-real-world.py."""
    ini = read_ini(scenario_dir)
    needs = ini.get("scenario", "requires", fallback="")
    if needs and not os.path.exists(needs):
        print(f"SKIP: {needs} is not installed here")
        sys.exit(77)
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1",
           "GPUENV_FAKE_SCENARIO": os.path.join(scenario_dir, "scenario.ini")}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    if ini.has_option("scenario", "inject_errors"):
        env["GPUENV_TEST_INJECT_ERRORS"] = ini.get("scenario", "inject_errors")
    if ini.has_option("scenario", "stuck_state"):
        env["GPUENV_TEST_STUCK_STATE"] = os.path.join(os.path.abspath(scenario_dir),
                                                      ini.get("scenario", "stuck_state"))
    # The fakes are named through /tmp/gpuenv-fakes-XXXXXXXX/f (always 28 characters): the
    # build directory's own path would make the doctor text wrap differently in every checkout.
    fakes = os.path.join(link_dir, "f")
    os.symlink(os.path.abspath(fakes_dir), fakes)
    args = ini.get("scenario", "args", fallback="").replace("@FAKES@", fakes).split()
    root = os.path.join(scenario_dir, "root")
    if any(ini.has_section(x) for x in ("devices", "efivars")) or fixture_root.generated(ini):
        root = make_root(scenario_dir, tmp,
                         ini.items("devices") if ini.has_section("devices") else [],
                         ini.items("efivars") if ini.has_section("efivars") else [])
    envfile = os.path.join(tmp, "env")
    with open(envfile, "w", encoding="utf-8") as f:
        if ini.has_section("env"):
            for k, v in ini.items("env"):
                f.write(f"{k}={v}\n")
    return env, root, envfile, args, fakes


def main():
    gpuenv, scenario_dir, fakes_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    # The test build of the CLI (gpuenv-test): only it reads GPUENV_TEST_INJECT_ERRORS and
    # GPUENV_TEST_STUCK_STATE.
    gpuenv_test = sys.argv[4] if len(sys.argv) > 4 else None
    update = os.environ.get("GPUENV_UPDATE_EXPECTED") == "1"
    hooks = [k for k in ("inject_errors", "stuck_state")
             if read_ini(scenario_dir).has_option("scenario", k)]
    if hooks:
        if not gpuenv_test:
            sys.exit(f"FAIL: {hooks[0]} needs the test build of gpuenv (gpuenv-test) as the "
                     "fourth argument: the installed gpuenv has no test hook")
        gpuenv = gpuenv_test
    with tempfile.TemporaryDirectory() as tmp, \
            tempfile.TemporaryDirectory(prefix="gpuenv-fakes-", dir="/tmp") as link_dir:
        env, root, envfile, args, fakes = prepare(scenario_dir, fakes_dir, tmp, link_dir)
        base = [gpuenv, "report", "--sysroot", root, "--stable",
                "--env-file", envfile] + args
        text, _ = run(base, env)
        js, _ = run(base + ["--json"], env)
        snap = os.path.join(tmp, "snap.json")
        with open(snap, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(js)
        back, _ = run([gpuenv, "report", "--from", snap, "--json", "--stable"], env)
        doctor = [gpuenv, "doctor", "--sysroot", root, "--stable",
                  "--env-file", envfile] + args
        codes = (0, 1, 2, 3)
        dtext, rc = run(doctor, env, codes)
        djson, rc_json = run(doctor + ["--json"], env, codes)
        dback, rc_back = run([gpuenv, "doctor", "--from", snap, "--json", "--stable"], env, codes)
    # The fake libraries' build directory differs between checkouts: goldens say @FAKES@.
    text, js, back = (x.replace(fakes, "@FAKES@") for x in (text, js, back))
    dtext, djson, dback = (x.replace(fakes, "@FAKES@") for x in (dtext, djson, dback))
    # How a vendor child was held depends on the machine (a PID namespace as root, a
    # subreaper otherwise; seccomp where the kernel has it): goldens say @SANDBOX@.
    text, js, back, dtext, djson, dback = (
        sandbox_neutral(x) for x in (text, js, back, dtext, djson, dback))
    exp = os.path.join(scenario_dir, "expected")
    ok = compare(os.path.join(exp, "report.txt"), text, update)
    ok &= compare(os.path.join(exp, "report.json"), js, update)
    if back != js:
        sys.stderr.write("report --from (the JSON loaded back) differs from report --json:\n")
        diff(js, back, "report --json", "report --from")
        ok = False
    ok &= compare(os.path.join(exp, "doctor.txt"), dtext, update)
    ok &= compare(os.path.join(exp, "doctor.json"), djson, update)
    ok &= compare(os.path.join(exp, "doctor.rc"), f"{rc}\n", update)
    if rc_json != rc or rc_back != rc:
        sys.stderr.write(f"doctor: text exit {rc}, --json exit {rc_json}, --from exit {rc_back}\n")
        ok = False
    for name, doc in (("report --json", js), ("doctor --json", djson)):
        try:  # strict UTF-8 (a byte kept by surrogateescape fails here) and JSON
            json.loads(doc.encode("utf-8").decode("utf-8"))
        except (UnicodeError, ValueError) as e:
            sys.stderr.write(f"{name}: not valid UTF-8 JSON: {e}\n")
            ok = False
    if dback != djson:
        sys.stderr.write("doctor --from (judging the saved snapshot) differs from doctor --json:\n")
        diff(djson, dback, "doctor --json", "doctor --from --json")
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
