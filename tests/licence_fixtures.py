"""Shared pieces for the licence tests: a real endpoint subprocess on 127.0.0.1, a test vendor key,
installations in their own data dirs, raw HTTP, and a socket audit to prove "no network call"."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding, NoEncryption, PrivateFormat, PublicFormat,
)

from net.identity import Identity, load_or_create
from wec_p2p.licence_store import LicenceStore

REPO = Path(__file__).resolve().parent.parent


@dataclass
class Vendor:
    """A test vendor: private key, raw public key, PEM file."""

    private: Ed25519PrivateKey
    public: bytes
    pem_path: Path


class Endpoint:
    """A real ``python -m wec_p2p.licence_server serve`` process on 127.0.0.1 with its sqlite file."""

    def __init__(self, db: Path, vendor: Vendor, log: Path, *extra: str) -> None:
        """Start the process (``extra``: more ``serve`` options) and wait for its ``listening on
        URL`` line."""
        self.db, self.vendor = db, vendor
        self.store = LicenceStore(db)
        self._log = open(log, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wec_p2p.licence_server", "serve", "--db", str(db),
             "--vendor-key", str(vendor.pem_path), "--host", "127.0.0.1", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=self._log, cwd=REPO)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        self.url = line.removeprefix("listening on ")
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname or "", parts.port or 0

    def add_key(self, **kw: object) -> str:
        """Issue a key in the endpoint's database (as `wec licence-server add-key` does)."""
        return self.store.add_key(**kw)  # type: ignore[arg-type]

    def kill(self) -> None:
        """SIGKILL the process (crash) and wait for it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)

    def stop(self) -> None:
        """SIGTERM, wait, close."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stdout:
            self.proc.stdout.close()
        self._log.close()


def make_vendor(directory: Path) -> Vendor:
    """Generate a vendor key pair for a test; the PEM goes to ``directory``."""
    key = Ed25519PrivateKey.generate()
    path = directory / "vendor.pem"
    path.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return Vendor(key, key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw), path)


@pytest.fixture(scope="module")
def vendor(tmp_path_factory: pytest.TempPathFactory) -> Vendor:
    """The test vendor key (tests inject it through the Python API, never via env or flags)."""
    return make_vendor(tmp_path_factory.mktemp("vendor"))


@pytest.fixture(scope="module")
def endpoint(vendor: Vendor, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    """One endpoint process per test module."""
    d = tmp_path_factory.mktemp("endpoint")
    ep = Endpoint(d / "licences.sqlite", vendor, d / "server.log")
    yield ep
    ep.stop()


@pytest.fixture
def fresh_endpoint(vendor: Vendor, tmp_path: Path) -> Iterator[Endpoint]:
    """An endpoint process of its own (for tests that kill it)."""
    ep = Endpoint(tmp_path / "licences.sqlite", vendor, tmp_path / "server.log")
    yield ep
    ep.stop()


def installation(root: Path, name: str) -> tuple[Path, Identity]:
    """A separate installation: its own data dir and identity key."""
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    return d, load_or_create(d)


def raw_post(ep: Endpoint, body: bytes, headers: dict[str, str], path: str = "/v1/activate",
             send_body: bool = True) -> tuple[int, bytes]:
    """POST with exactly these headers (no Content-Length added); returns status and body."""
    conn = http.client.HTTPConnection(ep.host, ep.port, timeout=15)
    try:
        conn.putrequest("POST", path, skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders()
        if send_body and body:
            conn.send(body)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def json_headers(body: bytes) -> dict[str, str]:
    """Well-formed headers for a JSON body."""
    return {"Content-Type": "application/json", "Content-Length": str(len(body))}


_AUDIT = threading.local()
_NET_EVENTS = {"socket.connect", "socket.getaddrinfo", "socket.sendto", "socket.sendmsg",
               "socket.gethostbyname", "urllib.Request"}


def _audit_hook(event: str, args: tuple[object, ...]) -> None:
    """Record network events while a ``no_network`` block is active on this thread."""
    seen = getattr(_AUDIT, "seen", None)
    if seen is not None and event in _NET_EVENTS:
        seen.append((event, args))


sys.addaudithook(_audit_hook)


@contextmanager
def record_network() -> Iterator[list[tuple[str, tuple[object, ...]]]]:
    """Collect every network audit event raised in the block (sys.addaudithook, PEP 578)."""
    _AUDIT.seen = []
    try:
        yield _AUDIT.seen
    finally:
        _AUDIT.seen = None


def closed_port() -> int:
    """A loopback port with nothing listening."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wec(*args: str, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real ``wec`` command line in a subprocess."""
    env = dict(os.environ)
    if data_dir is not None:
        env["WEC_DATA_DIR"] = str(data_dir)
    return subprocess.run([sys.executable, "-m", "wec_p2p.cli", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=30)
