"""The reference licence endpoint (DESIGN §5, issue 5 item 4): stdlib HTTP server + sqlite.

``POST /v1/activate`` with an activation request (``net/licence_request.py``) returns
``{"v", "nonce", "token"}``; every refusal is ``{"error": code, "detail": text}`` with a
stable code. Limits from anchors-reliability §3.3/§3.8: handler timeout 10 s, body at most
8 KiB (413 before reading), at most 64 concurrent handlers (else 503).

Run: ``python -m wec_p2p.licence_server serve --db licences.sqlite --vendor-key vendor.key``
(same as ``wec licence-server serve``); it prints ``listening on http://HOST:PORT``.
"""
from __future__ import annotations

import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from net.licence import LicenceError
from net.licence_request import MAX_BODY_BYTES, build_response, dumps, loads_strict, parse_request
from wec_p2p.licence_store import ActivationRefused, LicenceStore

ACTIVATE_PATH = "/v1/activate"
HEALTH_PATH = "/v1/health"
MAX_HANDLERS = 64


class LicenceServer(ThreadingHTTPServer):
    """A threading HTTP server holding the store, the vendor signing key and the handler cap."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], store: LicenceStore, vendor_key: Ed25519PrivateKey,
                 quiet: bool = True, handler_timeout: float = 10.0) -> None:
        """Bind to ``address`` (port 0 picks a free port)."""
        super().__init__(address, _Handler)
        self.store, self.vendor_key, self.quiet = store, vendor_key, quiet
        self.handler_timeout = handler_timeout
        self.slots = threading.BoundedSemaphore(MAX_HANDLERS)


def respond(store: LicenceStore, vendor_key: Ed25519PrivateKey, body: bytes) -> tuple[int, dict[str, Any]]:
    """Answer one activation request body: ``(HTTP status, JSON object)``; never raises on bad input."""
    if len(body) > MAX_BODY_BYTES:
        return 413, _error("too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
    try:
        request = parse_request(loads_strict(body))
        return 200, build_response(request.nonce, store.activate(request, vendor_key))
    except LicenceError as exc:
        return 400, _error(exc.code, exc.detail)
    except ActivationRefused as exc:
        return exc.status, _error(exc.code, exc.detail)


def load_vendor_key(path: Path) -> Ed25519PrivateKey:
    """Load the vendor's private signing key (PKCS#8 PEM). :raises ValueError: not an Ed25519 key."""
    key = load_pem_private_key(Path(path).read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 private key")
    return key


def serve(db: Path, vendor_key_path: Path, host: str = "127.0.0.1", port: int = 8470,
          quiet: bool = True, handler_timeout: float = 10.0) -> int:
    """Run the endpoint until SIGINT/SIGTERM; prints the bound URL first. Returns an exit code.
    ``handler_timeout``: the seconds a request may take to arrive (a test injects a long one)."""
    server = LicenceServer((host, port), LicenceStore(db), load_vendor_key(vendor_key_path), quiet,
                           handler_timeout)
    signal.signal(signal.SIGTERM, _interrupt)
    bound_port = server.server_address[1]
    print(f"listening on http://{host}:{bound_port}{ACTIVATE_PATH}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


class _Handler(BaseHTTPRequestHandler):
    """One request: check framing before reading, parse strictly, answer JSON, close."""

    server: LicenceServer
    timeout = 10
    protocol_version = "HTTP/1.1"
    server_version = "wec-licence/1"

    def setup(self) -> None:
        self.timeout = self.server.handler_timeout   # the socket timeout StreamRequestHandler sets
        super().setup()

    def do_POST(self) -> None:
        """Activation."""
        if not self.server.slots.acquire(blocking=False):
            self._send(503, _error("busy", "too many requests in progress; retry shortly"))
            return
        try:
            self._send(*self._activate())
        except Exception as exc:  # last resort: a JSON 500, never a traceback to the client
            self.log_error("internal error: %r", exc)
            self._send(500, _error("internal", "the endpoint failed; nothing was recorded"))
        finally:
            self.server.slots.release()

    def do_GET(self) -> None:
        """Health check, else 404/405."""
        if self.path == HEALTH_PATH:
            self._send(200, {"status": "ok"})
        elif self.path == ACTIVATE_PATH:
            self._send(405, _error("method_not_allowed", "use POST"))
        else:
            self._send(404, _error("not_found", f"no such endpoint {self.path!r}"))

    def _activate(self) -> tuple[int, dict[str, Any]]:
        """Framing checks (without reading an unwanted body), then ``respond``."""
        if self.path != ACTIVATE_PATH:
            return 404, _error("not_found", f"no such endpoint {self.path!r}")
        if self.headers.get("Transfer-Encoding"):
            return 411, _error("length_required", "send Content-Length, not Transfer-Encoding")
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            return 411, _error("length_required", "Content-Length is required")
        if int(length) > MAX_BODY_BYTES:
            return 413, _error("too_large", f"request body must be at most {MAX_BODY_BYTES} bytes")
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return 415, _error("unsupported_media_type", "Content-Type must be application/json")
        try:
            body = self.rfile.read(int(length))
        except TimeoutError:
            return 408, _error("timeout", f"request body not received within {self.timeout} s")
        if len(body) != int(length):
            return 400, _error("malformed", "request body shorter than Content-Length")
        return respond(self.server.store, self.server.vendor_key, body)

    def _send(self, status: int, obj: dict[str, Any]) -> None:
        """Write a JSON response and close the connection."""
        body = dumps(obj)
        self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors raised by http.server itself (bad request line, unknown method) as JSON too."""
        codes = {400: "malformed", 408: "timeout", 414: "too_large", 431: "too_large",
                 501: "method_not_allowed"}
        self._send(code, _error(codes.get(code, "http_error"), message or explain or "bad request"))

    def log_message(self, format: str, *args: Any) -> None:
        """Log requests to stderr unless quiet (errors are always logged)."""
        if not self.server.quiet:
            super().log_message(format, *args)

    def log_error(self, format: str, *args: Any) -> None:
        """Always log errors."""
        super().log_message(format, *args)


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM: stop serving like Ctrl-C."""
    raise KeyboardInterrupt


def _error(code: str, detail: str) -> dict[str, Any]:
    """The JSON error body."""
    return {"error": code, "detail": detail}


if __name__ == "__main__":
    from wec_p2p.cli import main

    sys.exit(main(["licence-server", *sys.argv[1:]]))
