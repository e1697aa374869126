"""The reference endpoint's sqlite store: licence keys, seats, activations (DESIGN §5, issue 5 item 4).

Settings from anchors-reliability §3.6: WAL, ``synchronous=FULL`` (an acknowledged activation
survives power loss), a busy timeout, ``BEGIN IMMEDIATE`` around seat-check-then-insert, and
``UNIQUE(key_id, device_fp)`` as the last line of defence. Keys are stored as SHA-256 hashes.
Each activation also records the machine fingerprint its token is bound to (issue 10 item 5;
NULL for a seat taken before machine binding, which the installation's next activation binds).
"""
from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net.identity import fingerprint
from net.licence import NETWORK_FEATURE, sign_token
from net.licence_request import ActivationRequest, normalise_key

_SCHEMA = """
CREATE TABLE IF NOT EXISTS keys (
    id INTEGER PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    licence_id TEXT NOT NULL UNIQUE,
    seats INTEGER NOT NULL CHECK (seats >= 1),
    edition TEXT NOT NULL,
    features TEXT NOT NULL,
    valid_days INTEGER,
    revoked_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS activations (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL REFERENCES keys(id),
    device_fp TEXT NOT NULL,
    token BLOB NOT NULL,
    activated_at INTEGER NOT NULL,
    UNIQUE (key_id, device_fp)
);
"""


class ActivationRefused(Exception):
    """The endpoint refuses an activation; ``code`` and ``status`` are stable, ``detail`` explains."""

    def __init__(self, code: str, status: int, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code, self.status, self.detail = code, status, detail


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One licence key as the vendor sees it (the key itself is never stored)."""

    licence_id: str
    seats: int
    used: int
    edition: str
    features: tuple[str, ...]
    valid_days: int | None
    revoked: bool


class LicenceStore:
    """Keys and activations in one sqlite file; safe to use from many threads and processes."""

    def __init__(self, path: Path) -> None:
        """Open (creating if needed) the database at ``path``."""
        self.path = Path(path)
        self._writer = threading.Lock()   # queue this process's writers instead of busy-polling
        with self._connect() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.executescript(_SCHEMA)
            columns = [row[1] for row in con.execute("PRAGMA table_info(activations)")]
            if "machine_fp" not in columns:   # a database from before machine binding
                con.execute("ALTER TABLE activations ADD COLUMN machine_fp TEXT")

    def add_key(self, *, seats: int = 1, edition: str = "standard",
                features: tuple[str, ...] = (NETWORK_FEATURE,), valid_days: int | None = None,
                key: str | None = None) -> str:
        """Issue a new licence key and return it (shown once: only its hash is kept)."""
        if seats < 1 or (valid_days is not None and valid_days < 1):
            raise ValueError("seats and valid_days must be at least 1")
        key = normalise_key(key) if key else _new_key()
        with self._connect() as con:
            con.execute("INSERT INTO keys (key_hash, licence_id, seats, edition, features, "
                        "valid_days, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (_hash(key), _licence_id(key), seats, edition,
                         json.dumps(sorted(set(features))), valid_days, int(time.time())))
        return key

    def revoke(self, key_or_id: str) -> bool:
        """Refuse all future activations of a key (given as the key or its licence id)."""
        ident = key_or_id.strip()
        with self._connect() as con:
            cur = con.execute("UPDATE keys SET revoked_at = ? WHERE revoked_at IS NULL AND "
                              "(licence_id = ? OR key_hash = ?)",
                              (int(time.time()), ident.lower(), _hash(ident.upper())))
            return cur.rowcount > 0

    def keys(self) -> list[KeyInfo]:
        """Every key with its seat usage."""
        with self._connect() as con:
            rows = con.execute("SELECT k.licence_id, k.seats, COUNT(a.id), k.edition, k.features, "
                               "k.valid_days, k.revoked_at FROM keys k LEFT JOIN activations a "
                               "ON a.key_id = k.id GROUP BY k.id ORDER BY k.id").fetchall()
        return [KeyInfo(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5], r[6] is not None)
                for r in rows]

    def activate(self, request: ActivationRequest, vendor_key: Ed25519PrivateKey) -> bytes:
        """Issue (or re-issue the stored) token for a validated request, within the seat limit.

        :raises ActivationRefused: unknown_key, revoked or seat_limit.
        """
        device = fingerprint(request.device_pub)
        with self._connect() as con, self._writer:
            con.execute("BEGIN IMMEDIATE")
            try:
                token = self._activate_locked(con, request.licence_key, device, request.machine, vendor_key)
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return token

    def activations(self) -> Iterator[tuple[str, str, bytes]]:
        """Yield ``(licence_id, device fingerprint, token)`` for every activation."""
        with self._connect() as con:
            yield from con.execute("SELECT k.licence_id, a.device_fp, a.token FROM activations a "
                                   "JOIN keys k ON k.id = a.key_id ORDER BY a.id").fetchall()

    def _activate_locked(self, con: sqlite3.Connection, key: str, device: str, machine: str,
                         vendor_key: Ed25519PrivateKey) -> bytes:
        """Seat check and insert, inside the caller's IMMEDIATE transaction."""
        row = con.execute("SELECT id, licence_id, seats, edition, features, valid_days, revoked_at "
                          "FROM keys WHERE key_hash = ?", (_hash(key),)).fetchone()
        if row is None:
            raise ActivationRefused("unknown_key", 404, "this licence key does not exist")
        key_id, licence_id, seats, edition, features, valid_days, revoked_at = row
        if revoked_at is not None:
            raise ActivationRefused("revoked", 403, "this licence key has been revoked")
        again = con.execute("SELECT id, token, machine_fp FROM activations WHERE key_id = ? AND device_fp = ?",
                            (key_id, device)).fetchone()
        if again is not None and again[2] == machine:
            return bytes(again[1])      # re-activation: same token, no new seat
        if again is not None and again[2] is not None:
            raise ActivationRefused("copied_installation", 409,
                                    "this installation key is already activated on another machine: the data "
                                    "directory was copied. Activate the copy on its own with `wec activate KEY "
                                    "--new-installation` (it takes a seat of its own)")
        if again is None:
            used = con.execute("SELECT COUNT(*) FROM activations WHERE key_id = ?", (key_id,)).fetchone()[0]
            if used >= seats:
                raise ActivationRefused("seat_limit", 409, f"all {seats} seat(s) of this licence key "
                                        "are in use")
        now = int(time.time())
        token = sign_token(vendor_key, licence_id=licence_id, device_fingerprint=device,
                           issued_at=now, edition=edition, features=json.loads(features),
                           expires_at=None if valid_days is None else now + valid_days * 86400,
                           machine=machine)
        if again is not None:   # a seat from before machine binding: bound now, no new seat
            con.execute("UPDATE activations SET token = ?, machine_fp = ? WHERE id = ?", (token, machine, again[0]))
        else:
            con.execute("INSERT INTO activations (key_id, device_fp, token, activated_at, machine_fp) "
                        "VALUES (?, ?, ?, ?, ?)", (key_id, device, token, now, machine))
        return token

    def _connect(self) -> _Connection:
        """A fresh connection with the durability settings (one per request thread)."""
        return _Connection(self.path)


class _Connection:
    """Context manager: an autocommit sqlite connection with WAL/FULL settings, closed on exit."""

    def __init__(self, path: Path) -> None:
        """Connect and apply the per-connection pragmas."""
        self.con = sqlite3.connect(path, timeout=5.0, isolation_level=None)
        for pragma in ("synchronous=FULL", "busy_timeout=5000", "foreign_keys=ON"):
            self.con.execute(f"PRAGMA {pragma}")

    def __enter__(self) -> sqlite3.Connection:
        """The connection."""
        return self.con

    def __exit__(self, *exc: object) -> None:
        """Close the connection."""
        self.con.close()


def _new_key() -> str:
    """A fresh key like ``WEC-7K2Q-M9XD-4RTA-PLW3`` (80 random bits, Crockford-style alphabet)."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    groups = ["".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(4)]
    return "WEC-" + "-".join(groups)


def _hash(key: str) -> str:
    """SHA-256 hex of a normalised key (what the database stores)."""
    return hashlib.sha256(b"wec/licence-key/v1\x00" + key.encode()).hexdigest()


def _licence_id(key: str) -> str:
    """Public id of a key (in tokens and listings): a different hash, so it reveals nothing."""
    return hashlib.sha256(b"wec/licence-id/v1\x00" + key.encode()).hexdigest()[:16]
