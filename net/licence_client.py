"""Licence client (DESIGN §5): activate once (online or by files), then verify offline at every start.

The token lives in the data directory as ``licence.token``. After activation nothing here
touches the network: ``check_installation`` reads two local files and verifies a signature.
"""
from __future__ import annotations

import ipaddress
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from net.atomic import write_atomic
from net.identity import load_or_create
from net.licence import VENDOR_PUBLIC_KEY, LicenceError, LicenceToken, verify_token
from net.machine import MachineIdError, machine_fingerprint
from net.licence_request import (
    b64d, b64e, build_request, dumps, loads_strict, parse_response,
)
from wec_p2p.paths import data_dir

TOKEN_FILE = "licence.token"
PENDING_FILE = "licence.pending"
DEFAULT_ENDPOINT = "https://licence.wec-game.example/v1/activate"
HTTP_TIMEOUT = 10.0       # per socket operation (anchors §3.3)
HTTP_DEADLINE = 30.0      # whole exchange
MAX_RESPONSE_BYTES = 65536
OFFLINE_HINT = ("If this computer has no internet, use the offline route: "
                "`wec activate KEY --request request.json`, take request.json to any connected "
                "machine and run `wec activate --relay request.json response.json`, bring "
                "response.json back and run `wec activate --response response.json`.")


def check_installation(directory: Path | None = None, *, vendor_public_key: bytes = VENDOR_PUBLIC_KEY,
                       now: float | None = None) -> LicenceToken:
    """Start-up check, offline: this installation's stored token is valid and bound to it.

    :raises LicenceError: not_activated, or any reason ``verify_token`` gives.
    """
    directory = data_dir() if directory is None else Path(directory)
    path = directory / TOKEN_FILE
    if not path.exists():
        raise LicenceError("not_activated", "this installation is not activated; run "
                           "`wec activate KEY` (network play needs a licence; hotseat and the "
                           "computer opponent do not)")
    identity = load_or_create(directory)
    return verify_token(path.read_bytes(), identity.public_bytes,
                        vendor_public_key=vendor_public_key, now=now, machine=this_machine(identity.public_bytes))


def this_machine(device_pub: bytes) -> str:
    """This machine's fingerprint for the installation key. :raises LicenceError: machine_id."""
    try:
        return machine_fingerprint(device_pub)
    except MachineIdError as exc:
        raise LicenceError("machine_id", str(exc)) from None


COPIED_DIR = "copied-installation"
INSTALLATION_FILES = ("identity.key", TOKEN_FILE, PENDING_FILE, "known_peers.json")


def set_aside_installation(directory: Path) -> Path | None:
    """``--new-installation`` (issue 10 item 5): move this copy's installation files (identity
    key, licence token, pending request, pinned peers) into ``copied-installation-N/``, so that
    the next activation creates an installation of its own. Games and saves stay. Returns the
    folder, or None if there was nothing to move."""
    present = [name for name in INSTALLATION_FILES if (directory / name).exists()]
    if not present:
        return None
    n = 1
    while (directory / f"{COPIED_DIR}-{n}").exists():
        n += 1
    aside = directory / f"{COPIED_DIR}-{n}"
    aside.mkdir(mode=0o700)
    for name in present:
        (directory / name).replace(aside / name)
    return aside


def activate(licence_key: str, *, endpoint: str = DEFAULT_ENDPOINT, directory: Path | None = None,
             vendor_public_key: bytes = VENDOR_PUBLIC_KEY, timeout: float = HTTP_TIMEOUT) -> LicenceToken:
    """Activate online: send the key and this installation's public key, store the verified token.

    :raises LicenceError: insecure_endpoint, offline, a server code (unknown_key, seat_limit,
        revoked, ...), bad_response, or a token verification reason.
    """
    directory = data_dir() if directory is None else Path(directory)
    identity = load_or_create(directory)
    request = build_request(licence_key, identity, machine=this_machine(identity.public_bytes))
    nonce, token = parse_response(post_json(endpoint, request, timeout=timeout))
    if nonce != b64d(request["nonce"], "nonce", 16):
        raise LicenceError("bad_response", "endpoint answered a different request")
    return _install(directory, token, identity.public_bytes, vendor_public_key)


def write_request(licence_key: str, request_path: Path, *, directory: Path | None = None) -> None:
    """Offline route, step 1: write a request file and remember its nonce."""
    directory = data_dir() if directory is None else Path(directory)
    identity = load_or_create(directory)
    request = build_request(licence_key, identity, machine=this_machine(identity.public_bytes))
    write_atomic(directory / PENDING_FILE, request["nonce"].encode("ascii"))
    write_atomic(Path(request_path), dumps(request) + b"\n")


def relay(request_path: Path, response_path: Path, *, endpoint: str = DEFAULT_ENDPOINT,
          timeout: float = HTTP_TIMEOUT) -> None:
    """Offline route, step 2 (on any connected machine): post a request file, write the response file.

    :raises LicenceError: as ``activate`` for the exchange; malformed for an unreadable request file.
    """
    request = loads_strict(Path(request_path).read_bytes())
    response = post_json(endpoint, request, timeout=timeout)
    parse_response(response)
    write_atomic(Path(response_path), dumps(response) + b"\n")


def install_response(response_path: Path, *, directory: Path | None = None,
                     vendor_public_key: bytes = VENDOR_PUBLIC_KEY) -> LicenceToken:
    """Offline route, step 3: check a response file against the pending request and install it.

    :raises LicenceError: no_pending_request, nonce_mismatch, bad_response or a token reason.
    """
    directory = data_dir() if directory is None else Path(directory)
    nonce, token = parse_response(loads_strict(Path(response_path).read_bytes()))
    pending = directory / PENDING_FILE
    if not pending.exists():
        raise LicenceError("no_pending_request", "no request was written on this installation; "
                           "run `wec activate KEY --request FILE` first")
    if b64e(nonce) != pending.read_text("ascii").strip():
        raise LicenceError("nonce_mismatch", "this response answers a different request file")
    result = _install(directory, token, load_or_create(directory).public_bytes, vendor_public_key)
    pending.unlink()
    return result


def check_endpoint(url: str) -> str:
    """Allow HTTPS anywhere, plain HTTP only to a loopback address. :raises LicenceError: insecure_endpoint."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and parts.hostname and _is_loopback(parts.hostname):
        return url
    raise LicenceError("insecure_endpoint", f"{url!r}: the licence endpoint must be https:// "
                       "(plain http:// only to a loopback address such as 127.0.0.1)")


def post_json(url: str, obj: Any, *, timeout: float = HTTP_TIMEOUT) -> Any:
    """POST a JSON object and return the decoded JSON answer, with no redirects.

    :raises LicenceError: insecure_endpoint, offline, the server's error code, or bad_response.
    """
    check_endpoint(url)
    host = urllib.parse.urlsplit(url).hostname or ""
    handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
    if _is_loopback(host):
        handlers.append(urllib.request.ProxyHandler({}))   # never send loopback traffic to a proxy
    opener = urllib.request.build_opener(*handlers)
    req = urllib.request.Request(url, data=dumps(obj), method="POST",
                                 headers={"Content-Type": "application/json"})
    deadline = time.monotonic() + HTTP_DEADLINE
    try:
        with opener.open(req, timeout=timeout) as resp:
            return loads_strict(_read_limited(resp, deadline))
    except urllib.error.HTTPError as exc:
        raise _server_error(exc, deadline) from None
    except LicenceError as exc:
        raise LicenceError("bad_response", f"endpoint answer unusable: {exc.detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LicenceError("offline", f"could not reach the licence endpoint {url} ({reason}). "
                           + OFFLINE_HINT) from None


def _install(directory: Path, token: bytes, device_pub: bytes, vendor_public_key: bytes) -> LicenceToken:
    """Verify a received token for this installation on this machine, then store it."""
    result = verify_token(token, device_pub, vendor_public_key=vendor_public_key, machine=this_machine(device_pub))
    write_atomic(directory / TOKEN_FILE, token)
    return result


def _server_error(exc: urllib.error.HTTPError, deadline: float) -> LicenceError:
    """Turn an HTTP error with a JSON ``{"error", "detail"}`` body into a LicenceError."""
    try:
        body = loads_strict(_read_limited(exc, deadline))
        code, detail = body["error"], body["detail"]
        if isinstance(code, str) and isinstance(detail, str):
            return LicenceError(code, detail)
    except (LicenceError, KeyError, TypeError, OSError):
        pass
    return LicenceError("bad_response", f"endpoint answered HTTP {exc.code} without a usable error")


def _read_limited(resp: Any, deadline: float) -> bytes:
    """Read at most MAX_RESPONSE_BYTES before the deadline. :raises LicenceError: bad_response."""
    chunks, total = [], 0
    while chunk := resp.read(8192):
        total += len(chunk)
        if total > MAX_RESPONSE_BYTES or time.monotonic() > deadline:
            raise LicenceError("bad_response", "endpoint answer too large or too slow")
        chunks.append(chunk)
    return b"".join(chunks)


def _is_loopback(host: str) -> bool:
    """True for localhost and loopback IP literals."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Refuse redirects: the key goes only to the endpoint named."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> None:
        """Never follow."""
        return None
