"""Commit-reveal helpers: the fair colour coin and hidden choices (government types).

Commitments are context-bound (domain tag, game chain id, the committer's role) so a peer
can neither copy ours (mirror attack) nor reuse one from another game; values are
length-prefixed; salts and nonces are 32 bytes from ``secrets``.
"""
from __future__ import annotations

import hashlib
import secrets

ROLES = ("host", "guest")


def toss_commit(chain_id: bytes, role: str, nonce: bytes) -> bytes:
    """Commitment to a coin-toss nonce."""
    return _h(b"wec/toss-commit/v1", chain_id, role.encode(), nonce)


def coin(chain_id: bytes, host_nonce: bytes, guest_nonce: bytes) -> str:
    """The role that wins the toss; uniform if either nonce is uniform and was committed first."""
    return ROLES[_h(b"wec/toss/v1", chain_id, host_nonce, guest_nonce)[0] & 1]


def choice_commit(chain_id: bytes, role: str, what: str, value: str, salt: bytes) -> bytes:
    """Commitment to a secret choice ``what`` (e.g. "gov") with value ``value``."""
    return _h(b"wec/choice-commit/v1", chain_id, role.encode(), what.encode(), value.encode(), salt)


def fresh() -> bytes:
    """A fresh 32-byte nonce or salt."""
    return secrets.token_bytes(32)


def _h(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(len(p).to_bytes(4, "big") + p for p in parts)).digest()
