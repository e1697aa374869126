"""Licence tokens (DESIGN §5): the signed format, offline verification, the vendor key.

A token is the msgpack array ``[payload: bin, sig: bin(64)]``. ``payload`` is a canonical
msgpack map (keys sorted, our own packer's bytes) and ``sig`` is the vendor's Ed25519
signature over ``TOKEN_CONTEXT + payload``. Verification checks the signature over the exact
received bytes first, then decodes and validates the payload; the only trust anchor is the
vendor public key built into the program (``net/vendor_key.py``), never one carried in a token.

Version 2 (issue 10 item 5) adds ``mach``, the machine fingerprint (``net/machine.py``): the
installation's own start-up check passes ``machine=`` and refuses a token of another machine
(``wrong_machine``: a copied data directory) or one without the field (``not_machine_bound``:
activated before this change; re-activating it reuses its seat). A peer cannot see our machine,
so the check of a peer's token binds it to the peer's identity key only.
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from net.identity import fingerprint
from net.keys import key_problem
from net.vendor_key import VENDOR_PUBLIC_KEY

__all__ = [
    "VENDOR_PUBLIC_KEY", "TOKEN_VERSION", "LicenceError", "LicenceToken", "verify_token",
    "verify_peer_token", "sign_token", "vendor_key_id", "check_public_key", "NETWORK_FEATURE",
]

TOKEN_VERSION = 2          # what the endpoint issues; 1 (no machine binding) is still decoded
TOKEN_CONTEXT = b"wec/licence-token/v1\x00"
MAX_TOKEN_BYTES = 4096
NETWORK_FEATURE = "network"
_PAYLOAD_KEYS = {1: ("dev", "ed", "exp", "feat", "iat", "kid", "lic", "v"),
                 2: ("dev", "ed", "exp", "feat", "iat", "kid", "lic", "mach", "v")}
REACTIVATE_HINT = ("re-activate this installation once with `wec activate KEY` (online, or by the offline "
                   "route); it keeps its seat")
COPY_HINT = ("this data directory was copied from another machine: activate this copy on its own with "
             "`wec activate KEY --new-installation` (it gets its own installation key and takes a seat "
             "of its own; the original keeps its seat)")


class LicenceError(Exception):
    """The licence is missing or was refused; ``code`` is stable, ``detail`` tells the player why."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


@dataclass(frozen=True, slots=True)
class LicenceToken:
    """A verified licence token: who issued it, for which licence and installation, what it allows."""

    vendor_key_id: str
    licence_id: str
    device: str
    issued_at: int
    edition: str
    features: tuple[str, ...]
    expires_at: int | None
    raw: bytes
    machine: str | None = None   # the machine fingerprint (version 2), None in a version 1 token

    @property
    def token_id(self) -> str:
        """SHA-256 hex of the token bytes (tokens are identified by their bytes, not re-encodings)."""
        return hashlib.sha256(self.raw).hexdigest()

    def allows(self, feature: str) -> bool:
        """True if the edition includes ``feature``."""
        return feature in self.features


def vendor_key_id(vendor_public_key: bytes) -> str:
    """Short id of a vendor public key: first 8 bytes of its SHA-256, hex."""
    return hashlib.sha256(vendor_public_key).hexdigest()[:16]


def check_public_key(raw: bytes, what: str = "public key") -> Ed25519PublicKey:
    """Load a raw Ed25519 public key. :raises LicenceError: ``weak_key`` if bad, small-order or non-canonical."""
    problem = key_problem(raw)
    if problem is not None:
        raise LicenceError("weak_key", f"{what} {problem}")
    return Ed25519PublicKey.from_public_bytes(raw)


def sign_token(vendor_private_key: Ed25519PrivateKey, *, licence_id: str, device_fingerprint: str,
               issued_at: int, edition: str, features: tuple[str, ...] | list[str],
               expires_at: int | None = None, machine: str | None = None) -> bytes:
    """Vendor side: build and sign a token for one installation (on one ``machine``: version 2;
    without it, a version 1 token as issued before machine binding)."""
    pub = vendor_private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    fields: dict[str, Any] = {
        "dev": device_fingerprint, "ed": edition, "exp": expires_at,
        "feat": sorted(set(features)), "iat": issued_at, "kid": vendor_key_id(pub),
        "lic": licence_id, "v": 1,
    }
    if machine is not None:
        fields = {**{k: v for k, v in fields.items() if k != "v"}, "mach": machine, "v": 2}
    _check_payload(fields)
    payload = msgpack.packb(fields, use_bin_type=True)
    sig = vendor_private_key.sign(TOKEN_CONTEXT + payload)
    return bytes(msgpack.packb([payload, sig], use_bin_type=True))


def verify_token(token_bytes: bytes, device_public_key: bytes, *,
                 vendor_public_key: bytes = VENDOR_PUBLIC_KEY, now: float | None = None,
                 machine: str | None = None) -> LicenceToken:
    """Verify a token offline for the installation whose public key is given (and, with
    ``machine``, for this machine: the installation's own check).

    :raises LicenceError: malformed, unknown_vendor_key, bad_signature, unsupported_version,
        wrong_device, not_machine_bound, wrong_machine, expired or weak_key, with a reason.
    """
    check_public_key(device_public_key, "installation key")
    vendor = check_public_key(vendor_public_key, "vendor key")
    payload, sig = _split(token_bytes)
    try:
        vendor.verify(sig, TOKEN_CONTEXT + payload)
    except InvalidSignature:
        raise _signature_error(payload, vendor_public_key) from None
    fields = _decode_payload(payload)
    if fields["kid"] != vendor_key_id(vendor_public_key):
        raise LicenceError("unknown_vendor_key", "token names a vendor key this program does not trust")
    if fields["dev"] != fingerprint(device_public_key):
        raise LicenceError("wrong_device", "token is bound to another installation "
                           "(copied from another machine?); activate this installation")
    if machine is not None and fields.get("mach") is None:
        raise LicenceError("not_machine_bound", "this licence token was issued before tokens were bound to "
                           "the machine: " + REACTIVATE_HINT)
    if machine is not None and fields["mach"] != machine:
        raise LicenceError("wrong_machine", "the licence token was activated on another machine; " + COPY_HINT)
    expires = fields["exp"]
    if expires is not None and (time.time() if now is None else now) >= expires:
        raise LicenceError("expired", "this edition's licence has expired; renew it")
    return LicenceToken(fields["kid"], fields["lic"], fields["dev"], fields["iat"], fields["ed"],
                        tuple(fields["feat"]), expires, bytes(token_bytes), fields.get("mach"))


def verify_peer_token(token_bytes: bytes, peer_public_key_bytes: bytes, *,
                      vendor_public_key: bytes = VENDOR_PUBLIC_KEY, now: float | None = None,
                      require_feature: str | None = NETWORK_FEATURE) -> LicenceToken:
    """Verify the token a peer sent in the handshake, bound to that peer's identity key.

    :raises LicenceError: as ``verify_token``, plus ``feature_missing`` if the edition lacks network play.
    """
    try:
        token = verify_token(token_bytes, peer_public_key_bytes,
                             vendor_public_key=vendor_public_key, now=now)
    except LicenceError as exc:
        raise LicenceError(exc.code, f"peer licence refused: {exc.detail}") from None
    if require_feature is not None and not token.allows(require_feature):
        raise LicenceError("feature_missing", f"peer's edition {token.edition!r} "
                           f"does not include {require_feature!r}")
    return token


def _split(token_bytes: bytes) -> tuple[bytes, bytes]:
    """Split the envelope. :raises LicenceError: malformed."""
    if not isinstance(token_bytes, (bytes, bytearray)) or not 0 < len(token_bytes) <= MAX_TOKEN_BYTES:
        raise LicenceError("malformed", f"a token is 1..{MAX_TOKEN_BYTES} bytes")
    obj = _unpack(bytes(token_bytes))
    if (not isinstance(obj, list) or len(obj) != 2 or not isinstance(obj[0], bytes)
            or not isinstance(obj[1], bytes) or len(obj[1]) != 64):
        raise LicenceError("malformed", "not a licence token envelope [payload, signature]")
    if msgpack.packb(obj, use_bin_type=True) != bytes(token_bytes):
        raise LicenceError("malformed", "token envelope is not canonically encoded")
    return obj[0], obj[1]


def _signature_error(payload: bytes, vendor_public_key: bytes) -> LicenceError:
    """Explain a failed signature: another vendor's key, or altered bytes."""
    try:
        kid = _unpack(payload).get("kid")
    except (LicenceError, AttributeError):
        kid = None
    if isinstance(kid, str) and kid != vendor_key_id(vendor_public_key):
        return LicenceError("unknown_vendor_key", "token was signed by a key this program does not trust")
    return LicenceError("bad_signature", "token signature does not match: the token was altered")


def _decode_payload(payload: bytes) -> dict[str, Any]:
    """Decode and schema-check signed payload bytes. :raises LicenceError: malformed/unsupported_version."""
    fields = _unpack(payload)
    if not isinstance(fields, dict):
        raise LicenceError("malformed", "token payload must be a map")
    version = fields.get("v")
    if type(version) is not int or version not in _PAYLOAD_KEYS:
        raise LicenceError("unsupported_version", f"token version {version!r} is not supported")
    if tuple(fields) != _PAYLOAD_KEYS[version]:
        raise LicenceError("malformed", f"token fields must be exactly {list(_PAYLOAD_KEYS[version])} in order")
    _check_payload(fields)
    if msgpack.packb(fields, use_bin_type=True) != payload:
        raise LicenceError("malformed", "token payload is not canonically encoded")
    return fields


def _check_payload(f: dict[str, Any]) -> None:
    """Type and range checks on payload fields. :raises LicenceError: malformed."""
    def ok_str(v: Any, n: int) -> bool:
        return isinstance(v, str) and 0 < len(v) <= n

    def ok_int(v: Any) -> bool:
        return type(v) is int and 0 <= v < 2**63

    checks = {
        "dev": isinstance(f["dev"], str) and len(f["dev"]) == 64
        and all(c in "0123456789abcdef" for c in f["dev"]),
        "ed": ok_str(f["ed"], 64), "exp": f["exp"] is None or ok_int(f["exp"]),
        "feat": isinstance(f["feat"], list) and len(f["feat"]) <= 16
        and all(ok_str(x, 32) for x in f["feat"]) and f["feat"] == sorted(set(f["feat"])),
        "iat": ok_int(f["iat"]), "kid": ok_str(f["kid"], 16) and len(f["kid"]) == 16,
        "lic": ok_str(f["lic"], 64), "v": f["v"] in _PAYLOAD_KEYS,
    }
    if "mach" in f:
        checks["mach"] = (isinstance(f["mach"], str) and len(f["mach"]) == 64
                          and all(c in "0123456789abcdef" for c in f["mach"]))
    bad = [k for k, good in checks.items() if not good]
    if bad:
        raise LicenceError("malformed", f"token field(s) {bad} have the wrong type or range")


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """Build a map, refusing duplicate keys (msgpack would keep the last)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate map key")
    return d


def _no_ext(code: int, data: bytes) -> Any:
    """Refuse msgpack extension types."""
    raise ValueError("ext types not allowed")


def _unpack(data: bytes) -> Any:
    """Strict msgpack decode (anchors §3.1). :raises LicenceError: malformed."""
    try:
        return msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, timestamp=0,
            ext_hook=_no_ext, object_pairs_hook=_pairs, max_str_len=1024,
            max_bin_len=MAX_TOKEN_BYTES, max_array_len=64, max_map_len=64, max_ext_len=0)
    except Exception as exc:  # msgpack raises ValueError, ExtraData, FormatError, StackError...
        raise LicenceError("malformed", f"not a licence token ({type(exc).__name__})") from None
