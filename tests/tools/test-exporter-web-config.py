#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`gpuenv exporter --web-config`: TLS and basic authentication in the web configuration
format of Prometheus exporters (exporter-toolkit's docs/web-configuration.md).

A self-signed certificate made here with openssl (skipped visibly without it) and bcrypt
hashes made with libcrypt through python's crypt module: over TLS, /metrics answers 200 with
the right user and password, 401 with a Basic challenge without them, with a wrong password
or an unknown user (every path, /healthz too); plain HTTP to the TLS port gets no HTTP answer;
the configured security headers come back; TLS 1.2 is refused when min_version is TLS13.
Client certificates (mutual TLS) with an openssl-made CA, a client certificate it signed,
one another CA signed and none: each client_auth_type lets through and refuses what Go's
crypto/tls does (the handshake fails), and client_allowed_sans matches the SAN.
Configurations that ask for what gpuenv cannot do (cipher suites, rate_limit, verifying
without client_ca_file), unknown keys, a hash that is not bcrypt, a missing certificate, and
--once with --web-config are refused with a message naming the file (and the line) and exit
65/66/64."""
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


def make_ca(name):
    crt, key = os.path.join(tmp, f"{name}.crt"), os.path.join(tmp, f"{name}.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={name}", "-keyout", key, "-out", crt],
                   check=True, capture_output=True)
    return crt, key


def make_client(name, ca, san):
    """A client certificate signed by ca (crt, key) with subjectAltName san."""
    crt, key, csr = (os.path.join(tmp, f"{name}.{x}") for x in ("crt", "key", "csr"))
    ext = os.path.join(tmp, f"{name}.ext")
    with open(ext, "w", encoding="utf-8") as f:
        f.write(f"subjectAltName={san}\nextendedKeyUsage=clientAuth\n")
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}",
                    "-keyout", key, "-out", csr], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca[0], "-CAkey", ca[1],
                    "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", crt],
                   check=True, capture_output=True)
    return crt, key


def mutual_tls(cert, key):
    """Each client_auth_type against a right, a wrong-CA and no client certificate."""
    ca, other_ca = make_ca("client-ca"), make_ca("other-ca")
    right = make_client("scraper", ca, "DNS:scraper.example")
    wrong_ca = make_client("intruder", other_ca, "DNS:scraper.example")
    other_san = make_client("other", ca, "DNS:other.example,IP:10.0.0.1")
    cases = [  # policy, extra lines, {client: should it get 200}
        ("RequireAndVerifyClientCert", "", {"right": True, "wrong CA": False, "none": False}),
        ("VerifyClientCertIfGiven", "", {"right": True, "wrong CA": False, "none": True}),
        ("RequireAnyClientCert", None, {"right": True, "wrong CA": True, "none": False}),
        ("RequestClientCert", None, {"right": True, "wrong CA": True, "none": True}),
        ("RequireAndVerifyClientCert", "  client_allowed_sans: [scraper.example]\n",
         {"right": True, "other SAN": False, "none": False}),
        ("RequireAnyClientCert", "  client_allowed_sans: ['10.0.0.1']\n",
         {"right": False, "other SAN": True, "wrong CA": False}),
    ]
    clients = {"right": right, "wrong CA": wrong_ca, "other SAN": other_san, "none": None}
    cfg = os.path.join(tmp, "mtls.yml")
    for policy, extra, want in cases:
        with open(cfg, "w", encoding="utf-8") as f:
            f.write(f"tls_server_config:\n  cert_file: {cert}\n  key_file: {key}\n"
                    f"  client_auth_type: {policy}\n"
                    + (f"  client_ca_file: {ca[0]}\n" if extra is not None else "")
                    + (extra or ""))
        port = free_port()
        p = start(gpuenv, ["--from", SNAP, "--listen", f"127.0.0.1:{port}", "--interval", "1h",
                           "--web-config", cfg], dict(os.environ))
        url = f"https://127.0.0.1:{port}/healthz"
        try:
            ready = False
            for _ in range(300):  # started: a TLS 1.2 handshake is answered at all
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    ready = True
                    break
                except OSError:
                    if p.poll() is not None:
                        break
                    time.sleep(0.1)
            check(f"{policy}: the server starts ({p.poll()})", ready)
            for who, ok in want.items():
                for version in (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3):
                    ctx = ssl.create_default_context(cafile=cert)
                    ctx.minimum_version = ctx.maximum_version = version
                    if clients[who]:
                        ctx.load_cert_chain(*clients[who])
                    status, _h = request(url, ctx)
                    what = f"{policy}{' + SANs' if extra else ''}, {version.name}, {who} cert"
                    check(f"{what}: {status}, want {'200' if ok else 'refused'}",
                          status == 200 if ok else status == 0)
        finally:
            p.terminate()
            p.wait(timeout=30)
        err = p.stderr.read()
        check(f"{policy}: the start-up line names it: {err!r}",
              f"(client certificates: {policy})" in err)


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

        mutual_tls(cert, key)

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
        "verify without client_ca_file": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                                          "  client_auth_type: RequireAndVerifyClientCert\n",
                                          65, "line 2"),
        "client_ca_file without a policy": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                                            "  client_ca_file: ca.crt\n", 65, "line 2"),
        "unknown client_auth_type": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                                     "  client_auth_type: Sometimes\n", 65, "line 4"),
        "SANs without a required certificate": (
            "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: c\n"
            "  client_auth_type: VerifyClientCertIfGiven\n  client_allowed_sans: [x]\n",
            65, "line 2"),
        "inline client CA": ("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                             "  client_ca: x\n", 65, "line 4"),

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
    if os.path.exists(os.path.join(tmp, "server.crt")):  # made above when openssl is there
        bad["missing client CA file"] = (
            "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
            "  client_ca_file: nothere-ca.crt\n"
            "  client_auth_type: RequireAndVerifyClientCert\n", 66, "nothere-ca.crt")
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
