"""Validation of peer Ed25519 public keys (anchors-reliability §1.12, §3.4).

pyca/cryptography loads small-order keys, under which the signature (R=identity, S=0)
verifies any message; such keys and non-canonical encodings (y >= p) are refused.
"""
from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.errors import ProtocolError

_P = 2**255 - 19
SMALL_ORDER = frozenset(bytes.fromhex(h) for h in (
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
))


class WeakKeyError(ProtocolError):
    """The peer's identity key is small-order, non-canonical or not a valid point."""


def key_problem(raw: object) -> str | None:
    """Why ``raw`` is not a usable Ed25519 public key (anchors §1.12), or None if it is."""
    if not isinstance(raw, bytes) or len(raw) != 32:
        return "must be 32 bytes"
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    if raw in SMALL_ORDER or y >= _P:
        return "is a small-order or non-canonical point"
    try:
        Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        return "is not a valid Ed25519 point"
    return None


def check_public_key(raw: object) -> Ed25519PublicKey:
    """Load a peer's raw Ed25519 key. :raises WeakKeyError: invalid identity key."""
    problem = key_problem(raw)
    if problem is not None:
        raise WeakKeyError(f"invalid identity key: {problem}")
    assert isinstance(raw, bytes)
    return Ed25519PublicKey.from_public_bytes(raw)


def verify(public: Ed25519PublicKey, signature: bytes, data: bytes) -> bool:
    """True if ``signature`` is a valid Ed25519 signature of ``data``."""
    try:
        public.verify(signature, data)
    except InvalidSignature:
        return False
    return True
