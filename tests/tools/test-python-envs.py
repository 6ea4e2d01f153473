#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One Python-environment discovery for every probe (issue 11 section 4, issue 14 item 5).

1. A sysroot with one environment of each kind where its tool keeps it: conda bases of $HOME
   (~/miniforge3, ~/micromamba), /opt/conda, another user's ~/anaconda3, $MAMBA_ROOT_PREFIX, a
   prefix named only in ~/.conda/environments.txt; pipx, uv tools, a uv-managed interpreter, a
   uv project .venv (the working directory's), poetry, hatch, pyenv versions, virtualenvwrapper,
   app venvs (/opt/ComfyUI/venv, ~/stable-diffusion-webui/venv), /root's pipx. Each is found
   with its kind and what pointed there; the CUDA toolkit probe sees the conda env holding
   cuda-cudart through the same discovery.
2. Linear: a conda base with many environments, reached through CONDA_EXE, ~/miniconda3 and
   PATH: every environment is found and its envs/ is listed once (three times before).
3. Truncated: an envs/ with more entries than the cap makes framework.python_envs_truncated
   true and python_envs_complete unreadable (the rules then say "could not tell").

Usage: test-python-envs.py GPUENV
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

gpuenv = sys.argv[1]
fail = 0


def check(what, got, want):
    global fail
    if got == want:
        print(f"ok: {what} = {want!r}")
    else:
        print(f"FAIL: {what}: got {got!r}, want {want!r}")
        fail = 1


def value(x):
    return x.get("value") if isinstance(x, dict) else x


def mk(root, path, text=None):
    p = os.path.join(root, path.lstrip("/"))
    if text is None:
        os.makedirs(p, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def venv(root, prefix, extra=""):
    mk(root, f"{prefix}/pyvenv.cfg", f"home = /usr/bin\nversion = 3.11.2\n{extra}")
    mk(root, f"{prefix}/lib/python3.11/site-packages")


def conda(root, prefix, pkgs=()):
    mk(root, f"{prefix}/conda-meta/history", "")
    mk(root, f"{prefix}/lib/python3.11/site-packages")
    for name, ver in pkgs:
        mk(root, f"{prefix}/conda-meta/{name}-{ver}-0.json",
           json.dumps({"name": name, "version": ver, "build": "0", "channel": "nvidia"}))


def run(root, envtext, trace=None):
    env = os.path.join(root, "env")
    with open(env, "w", encoding="utf-8") as f:
        f.write(envtext)
    args = [gpuenv, "report", "--sysroot", root, "--env-file", env, "--json", "--stable",
            "--no-vendor"]
    if trace:
        args += ["--trace-paths", trace]
    r = subprocess.run(args, capture_output=True, text=True, check=False, timeout=300)
    if r.returncode not in (0, 2, 3):
        print(f"FAIL: gpuenv report exited {r.returncode}: {r.stderr[-2000:]}")
        sys.exit(1)
    return json.loads(r.stdout)


# ---- 1. every kind, where its tool keeps it ------------------------------------------------
with tempfile.TemporaryDirectory() as root:
    H = "/home/bob"
    conda(root, f"{H}/miniforge3")
    conda(root, f"{H}/miniforge3/envs/cuda",
          [("cuda-cudart", "12.4.127"), ("cuda-version", "12.4")])
    mk(root, f"{H}/miniforge3/envs/cuda/lib/libcudart.so.12", "")
    conda(root, f"{H}/micromamba/envs/mm")
    conda(root, "/srv/mamba/envs/shared")                      # $MAMBA_ROOT_PREFIX
    conda(root, "/data/proj/env")                              # only in environments.txt
    mk(root, f"{H}/.conda/environments.txt", "/data/proj/env\n/nonexistent\n")
    conda(root, "/opt/conda")
    conda(root, "/home/alice/anaconda3/envs/a1")               # another user's
    venv(root, f"{H}/.local/share/pipx/venvs/comfy-cli")
    venv(root, f"{H}/.local/share/uv/tools/vllm", "uv = 0.4.18\n")
    mk(root, f"{H}/.local/share/uv/python/cpython-3.12.7-linux-x86_64-gnu/lib/python3.12")
    venv(root, f"{H}/proj/.venv", "uv = 0.5.1\n")               # the working directory's
    venv(root, f"{H}/.cache/pypoetry/virtualenvs/app-Xk3pQ2aB-py3.11")
    mk(root, f"{H}/.local/share/hatch/env/virtual/.hidden")       # listed first, skipped
    venv(root, f"{H}/.local/share/hatch/env/virtual/proj/AbCdEfGh/proj")
    mk(root, f"{H}/.pyenv/versions/3.10.14/lib/python3.10")
    venv(root, f"{H}/.virtualenvs/work")
    venv(root, f"{H}/stable-diffusion-webui/venv")
    venv(root, "/opt/ComfyUI/venv")
    venv(root, "/root/.local/share/pipx/venvs/pkg")
    mk(root, "/home/bob/notes")                                # not an environment
    doc = run(root, f"HOME={H}\nPWD={H}/proj\nMAMBA_ROOT_PREFIX=/srv/mamba\n"
                    "PATH=/usr/bin\n")
    envs = {value(e["prefix"]): e for e in doc["framework"]["python_envs"]}
    want = {
        f"{H}/miniforge3": ("conda", f"~/miniforge3"),
        f"{H}/miniforge3/envs/cuda": ("conda", "~/miniforge3"),
        f"{H}/micromamba/envs/mm": ("conda", "~/micromamba"),
        "/srv/mamba/envs/shared": ("conda", "MAMBA_ROOT_PREFIX"),
        "/data/proj/env": ("conda", "~/.conda/environments.txt"),
        "/opt/conda": ("conda", "/opt/conda"),
        "/home/alice/anaconda3/envs/a1": ("conda", "/home/*/anaconda3"),
        f"{H}/.local/share/pipx/venvs/comfy-cli": ("pipx", "pipx venvs (~)"),
        f"{H}/.local/share/uv/tools/vllm": ("uv", "uv tools (~)"),
        f"{H}/.local/share/uv/python/cpython-3.12.7-linux-x86_64-gnu": ("uv", "uv python (~)"),
        f"{H}/proj/.venv": ("uv", "PWD/.venv"),
        f"{H}/.cache/pypoetry/virtualenvs/app-Xk3pQ2aB-py3.11": ("poetry",
                                                                "poetry virtualenvs (~)"),
        f"{H}/.local/share/hatch/env/virtual/proj/AbCdEfGh/proj": ("hatch", "hatch envs (~)"),
        f"{H}/.pyenv/versions/3.10.14": ("pyenv", "pyenv versions"),
        f"{H}/.virtualenvs/work": ("venv", "virtualenvwrapper (~)"),
        f"{H}/stable-diffusion-webui/venv": ("venv", "~/*/venv"),
        "/opt/ComfyUI/venv": ("venv", "/opt/*/venv"),
        "/root/.local/share/pipx/venvs/pkg": ("pipx", "pipx venvs (/root)"),
    }
    for prefix, (kind, via) in want.items():
        e = envs.get(prefix)
        if not e:
            check(f"{prefix} found", False, True)
            continue
        check(f"{prefix} kind", value(e["kind"]), kind)
        check(f"{prefix} found via {via}", via in [value(v) for v in e["found_via"]], True)
    check("nothing else under the homes or /opt",
          sorted(p for p in envs if p not in want and p.startswith(("/home", "/opt", "/root",
                                                                   "/srv", "/data"))), [])
    tks = doc["runtime"].get("cuda_toolkits", [])
    check("the toolkit probe sees the conda env with cuda-cudart through the same discovery",
          [value(t["path"]) for t in tks], [f"{H}/miniforge3/envs/cuda"])

# ---- 2. linear: each envs/ listed once ---------------------------------------------------
N = 300
with tempfile.TemporaryDirectory() as root:
    base = "/root/miniconda3"
    conda(root, base)
    for i in range(N):
        mk(root, f"{base}/envs/e{i:04d}/conda-meta")
    trace = os.path.join(root, "trace")
    doc = run(root, f"HOME=/root\nPATH={base}/bin:/usr/bin\nCONDA_EXE={base}/bin/conda\n", trace)
    found = [p for p in (value(e["prefix"]) for e in doc["framework"]["python_envs"])
             if p.startswith(f"{base}/envs/")]
    check(f"environments of a base with {N}", len(found), N)
    with open(trace, encoding="utf-8") as f:
        reads = collections.Counter(line.rstrip("\n").split("\t", 1)[1] for line in f)
    check(f"listings of {base}/envs", reads[f"{base}/envs"], 1)

# ---- 3. truncated: more than the cap -------------------------------------------------------
CAP = 10000
with tempfile.TemporaryDirectory() as root:
    base = "/opt/conda"
    conda(root, base)
    for i in range(CAP + 1):
        os.makedirs(os.path.join(root, f"opt/conda/envs/e{i:05d}"))
    doc = run(root, "PATH=/usr/bin\n")
    fw = doc["framework"]
    check("python_envs_truncated", value(fw.get("python_envs_truncated")), True)
    check("python_envs_complete state", fw["python_envs_complete"].get("state"), "unreadable")
sys.exit(fail)
