#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test of one fixture scenario (tests/fixtures/<name>/).

scenario.ini:
  [scenario]  description = …   source = where the files were copied from
              requires = a host path the scenario needs (a real vendor library); when it
                         is missing the test is skipped (exit 77) and says why
              args = extra gpuenv arguments (@FAKES@ expands to the fake-library dir,
                     and the golden files name that dir @FAKES@ too; the dir is reached
                     through a symlink of fixed length, so that text wrapped around it does
                     not depend on where the tree is checked out)
  [env]       KEY = VALUE lines, the environment of the judged process (--env-file)
  [devices]   /dev/PATH = c|b MAJOR:MINOR MODE UID:GID, device nodes git cannot store
              (`/dev/nvidia0 = c 195:0 0666 0:0`): root/ is copied to a temporary directory
              (symlinks kept as symlinks) and the nodes are made there with mknod(2), the mode
              and owner given. Where mknod or chown is not permitted the test is skipped
              (exit 77) with the reason printed.
  [modules]   /lib/modules/REL/…/nvidia.ko[.xz|.zst|.gz] = VERSION, SIGNER|-, COMPRESSION:
              kernel modules are never committed; each is made in the copied root by
              tests/tools/mk-kmodule.sh (an ELF object with a .modinfo, signed as
              scripts/sign-file.c signs when SIGNER is not "-"). Skipped (77) without
              gcc/objcopy/openssl.
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
import configparser
import difflib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile


def run(cmd, env, ok_codes=(0,)):
    """Runs cmd; returns (stdout, exit code). Any other exit code, or a run past 60 s, ends the
    test naming the command and showing its stderr."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
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
        with open(path, "w", encoding="utf-8") as f:
            f.write(actual)
        return True
    with open(path, encoding="utf-8") as f:
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


def make_modules(root, tmp, modules):
    """Makes the [modules] kernel modules in the copied root; exits 77 without the tools."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mk-kmodule.sh")
    for path, spec in modules:
        parts = [p.strip() for p in spec.split(",")]
        if len(parts) != 3:
            sys.stderr.write(f"[modules] {path} = {spec}: want 'VERSION, SIGNER|-, COMPRESSION'\n")
            sys.exit(1)
        for t in ("gcc", "objcopy") + (("openssl",) if parts[1] != "-" else ()):
            if not shutil.which(t):
                print(f"SKIP: {t} is not installed: cannot make {path}")
                sys.exit(77)
        rel = path.split("/")[3] if path.startswith("/lib/modules/") else "6.8.0-45-generic"
        out = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run(["sh", tool, out, parts[0], parts[1], parts[2],
                        os.path.join(tmp, "keys"), rel], check=True)


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


def make_root_with_devices(src, tmp, devices, modules=(), efivars=()):
    """Copies the fixture root and makes its device nodes; exits 77 where that is not allowed."""
    root = os.path.join(tmp, "root")
    shutil.copytree(src, root, symlinks=True)
    make_modules(root, tmp, modules)
    make_efivars(root, tmp, efivars)
    for path, spec in devices:
        kind, mode, dev, uid, gid = parse_device(path, spec)
        node = os.path.join(root, path.lstrip("/"))
        os.makedirs(os.path.dirname(node), exist_ok=True)
        try:
            os.mknod(node, kind | mode, dev)
            os.chmod(node, mode)
            os.chown(node, uid, gid)
        except PermissionError as e:
            print(f"SKIP: cannot make device node {path} ({e.strerror}): mknod/chown need "
                  "CAP_MKNOD and CAP_CHOWN (run as root, outside a restricted container)")
            sys.exit(77)
    return root


def sandbox_neutral(out):
    out = re.sub(r"^(\s*sandbox: ).*$", r"\1@SANDBOX@", out, flags=re.M)
    return re.sub(r'("sandbox": \{[^{}]*?"value": )"[^"]*"', r'\1"@SANDBOX@"', out)


def main():
    gpuenv, scenario_dir, fakes_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    update = os.environ.get("GPUENV_UPDATE_EXPECTED") == "1"
    ini = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    ini.optionxform = str
    ini.read(os.path.join(scenario_dir, "scenario.ini"))
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
    # The fakes are named through /tmp/gpuenv-fakes-XXXXXXXX/f (always 28 characters): the
    # build directory's own path would make the doctor text wrap differently in every checkout.
    with tempfile.TemporaryDirectory() as tmp, \
            tempfile.TemporaryDirectory(prefix="gpuenv-fakes-", dir="/tmp") as link_dir:
        fakes = os.path.join(link_dir, "f")
        os.symlink(os.path.abspath(fakes_dir), fakes)
        args = ini.get("scenario", "args", fallback="").replace("@FAKES@", fakes).split()
        root = os.path.join(scenario_dir, "root")
        if any(ini.has_section(x) for x in ("devices", "modules", "efivars")):
            root = make_root_with_devices(
                root, tmp, *(ini.items(x) if ini.has_section(x) else []
                             for x in ("devices", "modules", "efivars")))
        envfile = os.path.join(tmp, "env")
        with open(envfile, "w", encoding="utf-8") as f:
            if ini.has_section("env"):
                for k, v in ini.items("env"):
                    f.write(f"{k}={v}\n")
        base = [gpuenv, "report", "--sysroot", root, "--stable",
                "--env-file", envfile] + args
        text, _ = run(base, env)
        js, _ = run(base + ["--json"], env)
        snap = os.path.join(tmp, "snap.json")
        with open(snap, "w", encoding="utf-8") as f:
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
    if dback != djson:
        sys.stderr.write("doctor --from (judging the saved snapshot) differs from doctor --json:\n")
        diff(djson, dback, "doctor --json", "doctor --from --json")
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
