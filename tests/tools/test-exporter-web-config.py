#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv exporter --web-config`: TLS and basic authentication in the web configuration
format of Prometheus exporters (exporter-toolkit's docs/web-configuration.md).

A self-signed certificate made here with openssl (skipped visibly without it) and bcrypt
hashes made with libcrypt through python's crypt module: over TLS, /metrics answers 200 with
the right user and password, 401 with a Basic challenge without them, with a wrong password
or an unknown user (every path, /healthz too); plain HTTP to the TLS port gets no HTTP answer;
the configured security headers come back; TLS 1.2 is refused when min_version is TLS13.
Configurations that ask for what gpuenv cannot do (client certificates, cipher suites,
rate_limit), unknown keys, a hash that is not bcrypt, a missing certificate, and --once with
--web-config are refused with a message naming the file (and the line) and exit 65/66/64."""
import base64
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from exporter_util import SRC, free_port, start  # noqa: E402

gpuenv = sys.argv[1]
fails = skips = 0
SNAP = os.path.join(SRC, "tests", "fixtures", "nvml-h100-healthy", "expected", "report.json")


def check(what, ok):
    global fails
    if not ok:
        print("FAIL:", what)
        fails += 1


def skip(what, why):
    global skips
    print(f"SKIP {what}: {why}")
    skips += 1


def bcrypt(password):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import crypt
        except ImportError:
            return None
    h = crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16))
    return h if h and h.startswith("$2") else None


def request(url, ctx, user=None, password=None):
    """(status, headers) of a GET; status 0 when no HTTP answer came."""
    req = urllib.request.Request(url)
    if user is not None:
        tok = base64.b64encode(f"{user}:{password}".encode()).decode()
        req.add_header("Authorization", "Basic " + tok)
    try:
        with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
            return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers
    except (urllib.error.URLError, ssl.SSLError, ConnectionError, socket.timeout):
        return 0, {}


def run(args, timeout=30):
    return subprocess.run([gpuenv, "exporter"] + args, capture_output=True, text=True,
                          timeout=timeout)


tmp = tempfile.mkdtemp(prefix="gpuenv-webcfg-")
try:
    hash_alice = bcrypt("s3cret")
    if not shutil.which("openssl"):
        skip("exporter TLS", "openssl is not installed (Debian: openssl)")
    elif not hash_alice:
        skip("exporter basic authentication", "python's crypt module cannot make bcrypt hashes")
    else:
        cert, key = os.path.join(tmp, "server.crt"), os.path.join(tmp, "server.key")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                        "-keyout", key, "-out", cert], check=True, capture_output=True)
        cfg = os.path.join(tmp, "web.yml")
        with open(cfg, "w", encoding="utf-8") as f:
            # cert_file relative to the configuration's directory, as exporter-toolkit reads it
            f.write("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                    "http_server_config:\n  headers:\n    X-Frame-Options: deny\n"
                    f"basic_auth_users:\n  alice: {hash_alice}\n")
        port = free_port()
        p = start(gpuenv, ["--from", SNAP, "--listen", f"127.0.0.1:{port}", "--interval", "1h",
                           "--web-config", cfg], dict(os.environ))
        ctx = ssl.create_default_context(cafile=cert)
        url = f"https://127.0.0.1:{port}"
        try:
            status = 0
            for _ in range(300):
                status, _h = request(url + "/readyz", ctx, "alice", "s3cret")
                if status == 200 or p.poll() is not None:
                    break
                time.sleep(0.1)
            check(f"TLS + right password: /readyz {status}", status == 200)
            status, hdr = request(url + "/metrics", ctx, "alice", "s3cret")
            check(f"TLS + right password: /metrics {status}", status == 200)
            check("security header on the answer", hdr.get("X-Frame-Options") == "deny")
            for what, user, pw, path in (("no credentials", None, None, "/metrics"),
                                         ("wrong password", "alice", "nope", "/metrics"),
                                         ("unknown user", "mallory", "s3cret", "/metrics"),
                                         ("no credentials on /healthz", None, None, "/healthz")):
                status, hdr = request(url + path, ctx, user, pw)
                check(f"{what}: {status}, want 401", status == 401)
                check(f"{what}: Basic challenge", "Basic" in (hdr.get("WWW-Authenticate") or ""))
            # the cached verdict must not let a wrong password through after a right one
            request(url + "/metrics", ctx, "alice", "s3cret")
            status, _h = request(url + "/metrics", ctx, "alice", "s3cret!")
            check(f"wrong password after a right one: {status}", status == 401)
            status, _h = request(f"http://127.0.0.1:{port}/metrics", None, "alice", "s3cret")
            check(f"plain HTTP to the TLS port: {status}, want no HTTP answer", status != 200)
        finally:
            p.terminate()
            p.wait(timeout=30)
        err = p.stderr.read()
        check(f"start-up line names TLS and authentication: {err!r}",
              "(TLS)" in err and "(basic authentication)" in err)

        # min_version TLS13: a TLS 1.2 client is refused
        with open(cfg, "w", encoding="utf-8") as f:
            f.write(f"tls_server_config:\n  cert_file: {cert}\n  key_file: {key}\n"
                    "  min_version: TLS13\n")
        port = free_port()
        p = start(gpuenv, ["--from", SNAP, "--listen", f"127.0.0.1:{port}", "--interval", "1h",
                           "--web-config", cfg], dict(os.environ))
        try:
            status = 0
            for _ in range(300):
                status, _h = request(f"https://127.0.0.1:{port}/readyz", ctx)
                if status == 200 or p.poll() is not None:
                    break
                time.sleep(0.1)
            check(f"TLS 1.3 client: {status}", status == 200)
            old = ssl.create_default_context(cafile=cert)
            old.maximum_version = ssl.TLSVersion.TLSv1_2
            status, _h = request(f"https://127.0.0.1:{port}/readyz", old)
            check(f"TLS 1.2 client with min_version TLS13: {status}, want refused", status == 0)
        finally:
            p.terminate()
            p.wait(timeout=30)

    # configurations refused before anything listens
    bad = {
        "client certificates": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                                "  client_auth_type: RequireAndVerifyClientCert\n", 65, "line 4"),
        "cipher suites": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                          "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n", 65, "line 4"),
        "rate limit": ("rate_limit:\n  interval: 1s\n", 65, "line 2"),
        "unknown key": ("basic_auth_user:\n  alice: x\n", 65, "line 2"),
        "not bcrypt": ("basic_auth_users:\n  alice: plaintext\n", 65, "line 2"),
        "cert without key": ("tls_server_config:\n  cert_file: a\n", 65, "line 2"),
        "header not allowed": ("http_server_config:\n  headers:\n    Set-Cookie: x\n", 65, "line 3"),
        "missing certificate": ("tls_server_config:\n  cert_file: nothere.crt\n"
                                "  key_file: nothere.key\n", 66, "nothere.crt"),
        "not YAML": ("tls_server_config: [\n", 65, "web.yml"),
    }
    for what, (text, code, needle) in bad.items():
        cfg = os.path.join(tmp, "web.yml")
        with open(cfg, "w", encoding="utf-8") as f:
            f.write(text)
        r = run(["--from", SNAP, "--listen", f"127.0.0.1:{free_port()}", "--web-config", cfg])
        check(f"{what}: exit {r.returncode}, want {code}: {r.stderr!r}", r.returncode == code)
        check(f"{what}: message names {needle!r}: {r.stderr!r}", needle in r.stderr)
    r = run(["--from", SNAP, "--listen", "127.0.0.1:1", "--web-config", os.path.join(tmp, "none")])
    check(f"missing web config: exit {r.returncode}, want 66", r.returncode == 66)
    r = run(["--from", SNAP, "--once", "--web-config", cfg])
    check(f"--once with --web-config: exit {r.returncode}, want 64", r.returncode == 64)
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"exporter web config: {'FAIL' if fails else 'ok'} ({skips} skipped)")
sys.exit(1 if fails else 0)
