"""Activation request and response: the JSON shared by the HTTP endpoint and the offline files.

Request  ``{"v": 2, "licence_key": str, "device_pub": b64(32), "machine": hex64, "nonce": b64(16),
"proof": b64(64)}`` where ``machine`` is the machine fingerprint (``net/machine.py``, issue 10
item 5) and ``proof`` is the installation's signature over
``REQUEST_CONTEXT + msgpack([key, pub, nonce, machine])`` (proof that the requester holds the
key the token will be bound to).
Response ``{"v": 1, "nonce": b64(16), "token": b64}``; errors ``{"error": code, "detail": text}``.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature

from net.identity import Identity
from net.licence import MAX_TOKEN_BYTES, LicenceError, check_public_key
from net.machine import machine_fingerprint

REQUEST_VERSION = 2            # 2: with the machine fingerprint (issue 10 item 5)
RESPONSE_VERSION = 1
REQUEST_CONTEXT = b"wec/licence-request/v2\x00"
MAX_BODY_BYTES = 8192
_REQUEST_KEYS = {"v", "licence_key", "device_pub", "machine", "nonce", "proof"}
_RESPONSE_KEYS = {"v", "nonce", "token"}
_KEY_RE = re.compile(r"[A-Z0-9][A-Z0-9-]{6,62}[A-Z0-9]")


@dataclass(frozen=True, slots=True)
class ActivationRequest:
    """A validated activation request (the proof has been checked)."""

    licence_key: str
    device_pub: bytes
    nonce: bytes
    machine: str


def normalise_key(licence_key: str) -> str:
    """Canonical form of a licence key as typed. :raises LicenceError: malformed."""
    key = licence_key.strip().upper() if isinstance(licence_key, str) else ""
    if not _KEY_RE.fullmatch(key):
        raise LicenceError("malformed", "a licence key is 8-64 letters, digits and dashes")
    return key


def build_request(licence_key: str, identity: Identity, nonce: bytes | None = None,
                  machine: str | None = None) -> dict[str, Any]:
    """The JSON object asking to activate ``identity`` on this machine (or ``machine``) with ``licence_key``."""
    key = normalise_key(licence_key)
    nonce = secrets.token_bytes(16) if nonce is None else nonce
    machine = machine_fingerprint(identity.public_bytes) if machine is None else machine
    proof = identity.sign(_proof_message(key, identity.public_bytes, nonce, machine))
    return {"v": REQUEST_VERSION, "licence_key": key, "device_pub": b64e(identity.public_bytes),
            "machine": machine, "nonce": b64e(nonce), "proof": b64e(proof)}


def parse_request(obj: Any) -> ActivationRequest:
    """Validate a request object. :raises LicenceError: malformed, weak_key or bad_proof."""
    _exact_keys(obj, _REQUEST_KEYS, "request")
    if obj["v"] != REQUEST_VERSION or type(obj["v"]) is not int:
        raise LicenceError("malformed", f"request version must be {REQUEST_VERSION} (update WEC)")
    machine = obj["machine"]
    if not (isinstance(machine, str) and len(machine) == 64 and all(c in "0123456789abcdef" for c in machine)):
        raise LicenceError("malformed", "machine must be 64 lower-case hex digits")
    key = normalise_key(obj["licence_key"])
    pub = b64d(obj["device_pub"], "device_pub", 32)
    nonce = b64d(obj["nonce"], "nonce", 16)
    proof = b64d(obj["proof"], "proof", 64)
    device = check_public_key(pub, "device_pub")
    try:
        device.verify(proof, _proof_message(key, pub, nonce, machine))
    except InvalidSignature:
        raise LicenceError("bad_proof", "proof is not this device key's signature of the request") from None
    return ActivationRequest(key, pub, nonce, machine)


def build_response(nonce: bytes, token: bytes) -> dict[str, Any]:
    """The JSON object carrying an issued token back to the installation."""
    return {"v": RESPONSE_VERSION, "nonce": b64e(nonce), "token": b64e(token)}


def parse_response(obj: Any) -> tuple[bytes, bytes]:
    """Return ``(nonce, token)`` from a response object. :raises LicenceError: bad_response."""
    try:
        _exact_keys(obj, _RESPONSE_KEYS, "response")
        if obj["v"] != RESPONSE_VERSION or type(obj["v"]) is not int:
            raise LicenceError("malformed", f"response version must be {RESPONSE_VERSION}")
        return b64d(obj["nonce"], "nonce", 16), b64d(obj["token"], "token", None)
    except LicenceError as exc:
        raise LicenceError("bad_response", f"not a licence response: {exc.detail}") from None


def loads_strict(body: bytes) -> Any:
    """Parse JSON, refusing duplicate keys, NaN/Infinity, bad UTF-8 and deep nesting.

    :raises LicenceError: malformed.
    """
    try:
        return json.loads(body.decode("utf-8"), object_pairs_hook=_no_dups, parse_constant=_no_nan)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise LicenceError("malformed", f"body is not valid JSON ({type(exc).__name__})") from None


def dumps(obj: Any) -> bytes:
    """Canonical JSON bytes (sorted keys, no spaces, ASCII)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode("ascii")


def b64e(data: bytes) -> str:
    """Standard base64 with padding."""
    return base64.b64encode(data).decode("ascii")


def b64d(value: Any, name: str, length: int | None) -> bytes:
    """Decode canonical base64 of an exact length. :raises LicenceError: malformed."""
    if not isinstance(value, str) or len(value) > 4 * MAX_TOKEN_BYTES:
        raise LicenceError("malformed", f"{name} must be a base64 string")
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise LicenceError("malformed", f"{name} is not valid base64") from None
    if b64e(raw) != value:
        raise LicenceError("malformed", f"{name} is not canonical base64")
    if length is not None and len(raw) != length:
        raise LicenceError("malformed", f"{name} must be {length} bytes, got {len(raw)}")
    return raw


def _proof_message(key: str, pub: bytes, nonce: bytes, machine: str) -> bytes:
    """The exact bytes the installation signs to prove it holds ``pub``."""
    return REQUEST_CONTEXT + bytes(msgpack.packb([key, pub, nonce, machine], use_bin_type=True))


def _exact_keys(obj: Any, keys: set[str], what: str) -> None:
    """Require a JSON object with exactly ``keys``. :raises LicenceError: malformed."""
    if not isinstance(obj, dict):
        raise LicenceError("malformed", f"{what} must be a JSON object")
    if set(obj) != keys:
        missing, extra = sorted(keys - set(obj)), sorted(set(obj) - keys)
        raise LicenceError("malformed", f"{what} fields wrong: missing {missing}, unexpected {extra}")


def _no_dups(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build an object, refusing duplicate keys (json keeps the last)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate key")
    return d


def _no_nan(name: str) -> Any:
    """Refuse NaN and Infinity."""
    raise ValueError(f"{name} is not allowed")
