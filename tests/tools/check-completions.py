#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The shell completions (shell-completion/) stay true to --help.

Every command `gpuenv help` lists and every option `gpuenv COMMAND --help` prints must be
offered by the bash, zsh and fish completions for that command, and an option whose value is
a FILE, DIR or PATH must complete paths. bash is run for real (its completion function is
called as bash-completion would); zsh and fish are read (their files are small declarative
tables), and when fish is installed it is also asked for real (`complete -C`). Each file is
syntax-checked with its shell when that shell is installed; a missing shell prints a SKIP
line.

Usage: check-completions.py GPUENV SRCDIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

gpuenv, srcdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
comp = os.path.join(srcdir, "shell-completion")
files = {"bash": os.path.join(comp, "bash", "gpuenv"),
         "zsh": os.path.join(comp, "zsh", "_gpuenv"),
         "fish": os.path.join(comp, "fish", "gpuenv.fish")}
failures = 0


def fail(msg):
    global failures
    failures += 1
    print(f"FAIL: {msg}")


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, check=False)


# --- what --help says -------------------------------------------------------------------
top = run(gpuenv, "help").stdout
m = re.search(r"^Commands:\n((?:  \S.*\n)+)", top, re.M)
commands = [line.split()[0] for line in m.group(1).splitlines()] if m else []
if not commands:
    fail("no commands parsed from `gpuenv help`: every check below would be empty")
OPTLINE = re.compile(r"^\s+(?:-([A-Za-z]), )?(--[a-z][a-z-]*)(?:[ =]([A-Z]+))?")
options = {}  # command -> {long: (short or None, metavar or None)}
for cmd in commands:
    out = run(gpuenv, cmd, "--help").stdout
    if not out.startswith("Usage:"):
        fail(f"`gpuenv {cmd} --help` prints no usage")
        continue
    opts = {}
    for line in out.splitlines():
        mo = OPTLINE.match(line)
        if mo:
            opts[mo.group(2)] = (mo.group(1), mo.group(3))
    options[cmd] = opts
if not any(options.values()):
    fail("no options parsed from any `gpuenv COMMAND --help`: the checks would be empty")
PATHLIKE = {"FILE", "DIR", "PATH"}


def want(cmd):
    """Every spelling of every option of cmd: the long and, where there is one, the short."""
    for long, (short, _) in options.get(cmd, {}).items():
        yield long
        if short:
            yield "-" + short


# --- bash: call _gpuenv as bash-completion would ----------------------------------------
def bash_complete(words, cwd):
    script = (f"source {shq(files['bash'])}\n"
              f"COMP_WORDS=({' '.join(shq(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
              "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}\n"
              "_gpuenv gpuenv; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True,
                       text=True, cwd=cwd, check=False)
    if r.returncode != 0 or r.stderr:
        fail(f"bash completion of {words!r}: exit {r.returncode}: {r.stderr.strip()}")
    return set(r.stdout.split("\n")) - {""}


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def check_syntax(shell, args):
    if shutil.which(shell) is None:
        print(f"SKIP {shell} syntax check: {shell} is not installed")
        return
    r = run(shell, *args, files[shell])
    if r.returncode != 0:
        fail(f"{shell} -n {files[shell]}: {r.stderr.strip()}")
    else:
        print(f"ok: {shell} -n")


check_syntax("bash", ["-n"])
check_syntax("zsh", ["-n"])
check_syntax("fish", ["--no-execute"])

with tempfile.TemporaryDirectory() as tmp:
    os.mkdir(os.path.join(tmp, "somedir"))
    open(os.path.join(tmp, "somefile.json"), "w").close()
    got = bash_complete(["gpuenv", ""], tmp)
    for cmd in commands:
        if cmd not in got:
            fail(f"bash: command {cmd} not offered after `gpuenv `")
    for cmd, opts in options.items():
        got = bash_complete(["gpuenv", cmd, "-"], tmp)
        for o in want(cmd):
            if o not in got:
                fail(f"bash: `gpuenv {cmd} -<TAB>` does not offer {o}")
        for long, (_, meta) in opts.items():
            if meta not in PATHLIKE:
                continue
            got = bash_complete(["gpuenv", cmd, long, "some"], tmp)
            expect = "somedir" if meta == "DIR" else "somefile.json"
            if expect not in got:
                fail(f"bash: `gpuenv {cmd} {long} some<TAB>` offers {sorted(got)}, not {expect}")
    if "scan" in options and "somefile.json" not in bash_complete(["gpuenv", "scan", "some"], tmp):
        fail("bash: `gpuenv scan some<TAB>` does not complete the path")
    print("ok: bash completion run for", " ".join(options))

# --- zsh: the _arguments specs of each _gpuenv_COMMAND function -------------------------
zsh = open(files["zsh"], encoding="utf-8").read()
arrays = {name: body for name, body in re.findall(r"^(_gpuenv_\w+)=\(\n(.*?)^\)", zsh, re.M | re.S)}


def zsh_specs(cmd):
    mo = re.search(rf"^_gpuenv_{cmd}\(\) {{\n(.*?)^}}", zsh, re.M | re.S)
    if not mo:
        return None
    body = mo.group(1)
    for name, arr in arrays.items():
        body = body.replace("$" + name, arr)
    return body.splitlines()


for cmd in commands:
    if not re.search(rf"^\s+'{cmd}:", zsh, re.M):
        fail(f"zsh: command {cmd} not in the commands list")
for cmd, opts in options.items():
    lines = zsh_specs(cmd)
    if lines is None:
        if opts:
            fail(f"zsh: no _gpuenv_{cmd} function")
        continue
    for long, (short, meta) in opts.items():
        # a spec is '--long=[…]', '--long[…]' or {-s+,--long=}'[…]'
        hit = [ln for ln in lines if re.search(rf"[',{{*]{re.escape(long)}[=\[}}']", ln)]
        if not hit:
            fail(f"zsh: {cmd} lacks {long}")
            continue
        if short and not any(re.search(rf"[{{,]-{short}[+,]", ln) for ln in hit):
            fail(f"zsh: {cmd} {long} lacks its short form -{short}")
        if meta in PATHLIKE and not any("_files" in ln for ln in hit):
            fail(f"zsh: {cmd} {long} {meta} does not complete paths")
print("ok: zsh completion read for", " ".join(options))

# --- fish: the `complete` lines and the commands each condition admits ------------------
fish = open(files["fish"], encoding="utf-8").read()
fvars = dict(re.findall(r"^set -l (\w+) (.*)$", fish, re.M))


def fish_words(s):
    s = s.strip()
    return s[1:-1] if s[:1] in "\"'" else s


for k, v in list(fvars.items()):
    fvars[k] = fish_words(v)
for k, v in list(fvars.items()):
    fvars[k] = re.sub(r"\$(\w+)", lambda mo: fvars.get(mo.group(1), ""), v)


def admits(cond, cmd):
    """Whether a -n condition of this file holds once `gpuenv CMD` was typed."""
    result = True
    for part in cond.split("; and "):
        part = part.strip()
        if not part:
            continue
        neg = part.startswith("not ")
        part = part[4:] if neg else part
        if part.startswith("__fish_seen_subcommand_from "):
            seen = cmd in part.split()[1:]
            result &= (not seen) if neg else seen
        elif part.startswith("__fish_is_nth_token"):
            pass
        else:
            raise SystemExit(f"check-completions: unknown fish condition {part!r}")
    return result


flines = []
for ln in fish.splitlines():
    if not ln.startswith("complete -c gpuenv"):
        continue
    mo = re.search(r" -n (\"[^\"]*\"|'[^']*'|\$\w+)", ln)
    cond = ""
    if mo:
        cond = fish_words(mo.group(1))
        cond = re.sub(r"^\$(\w+)$", lambda x: fvars.get(x.group(1), ""), cond)
        cond = re.sub(r"\$(\w+)", lambda x: fvars.get(x.group(1), ""), cond)
    flines.append((cond, ln))
for cmd in commands:
    if not any(re.search(rf" -a {cmd} ", ln) and "not __fish_seen_subcommand_from" in c
               for c, ln in flines):
        fail(f"fish: command {cmd} not offered")
for cmd, opts in options.items():
    mine = [ln for c, ln in flines if admits(c, cmd)]
    for long, (short, meta) in opts.items():
        hit = [ln for ln in mine if re.search(rf" -l {re.escape(long[2:])}( |$)", ln)]
        if not hit:
            fail(f"fish: {cmd} lacks {long}")
            continue
        if short and not any(f" -s {short} " in ln for ln in hit):
            fail(f"fish: {cmd} {long} lacks its short form -{short}")
        if meta in PATHLIKE and not any(" -F" in ln or "__fish_complete_directories" in ln
                                        for ln in hit):
            fail(f"fish: {cmd} {long} {meta} does not complete paths")
print("ok: fish completion read for", " ".join(options))

if shutil.which("fish") is None:
    print("SKIP fish completion run: fish is not installed (the file was read instead)")
else:
    for cmd in options:
        r = run("fish", "--no-config", "-c",
                f"source {files['fish']}; complete -C 'gpuenv {cmd} -'")
        got = {ln.split("\t")[0] for ln in r.stdout.splitlines()}
        for o in want(cmd):
            if o not in got:
                fail(f"fish: `gpuenv {cmd} -<TAB>` does not offer {o}")
    print("ok: fish completion run for", " ".join(options))

sys.exit(1 if failures else 0)
