"""The installation's long-term Ed25519 identity key.

One key per installation, kept in the data directory as ``identity.key`` (raw 32-byte
seed, file mode 0600). Its public key identifies the device to peers (pairing, TLS
certificate pinning) and to the licence endpoint (the token is bound to it).
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

KEY_FILE = "identity.key"


class IdentityError(Exception):
    """The identity key file is unreadable or corrupt."""


@dataclass(frozen=True)
class Identity:
    """A private identity key and the public bytes derived from it."""

    private_key: Ed25519PrivateKey

    @property
    def public_bytes(self) -> bytes:
        """The raw 32-byte Ed25519 public key."""
        return self.private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        """SHA-256 hex of the raw public key: the installation fingerprint."""
        return fingerprint(self.public_bytes)

    def sign(self, data: bytes) -> bytes:
        """Sign ``data`` with the long-term key (64-byte Ed25519 signature)."""
        return self.private_key.sign(data)


def fingerprint(public_bytes: bytes) -> str:
    """SHA-256 hex of a raw 32-byte Ed25519 public key."""
    return hashlib.sha256(public_bytes).hexdigest()


def public_key_from_bytes(raw: bytes) -> Ed25519PublicKey:
    """Load a raw public key. :raises ValueError: wrong length or not a valid point."""
    if len(raw) != 32:
        raise ValueError(f"Ed25519 public key must be 32 bytes, got {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def load_or_create(directory: Path) -> Identity:
    """Load the identity from ``directory``, creating it (mode 0600) on first use.

    :raises IdentityError: the key file exists but is not a 32-byte seed.
    """
    path = Path(directory) / KEY_FILE
    if path.exists():
        seed = path.read_bytes()
        if len(seed) != 32:
            raise IdentityError(f"{path}: identity key must be 32 bytes, found {len(seed)}")
        return Identity(Ed25519PrivateKey.from_private_bytes(seed))
    key = Ed25519PrivateKey.generate()
    from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

    seed = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    Path(directory).mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, seed)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return Identity(key)
