"""Write-ahead log of one network game: every signed message, in local processing order.

Our own messages (and the secrets behind their commitments) are appended and fsynced
*before* they are sent, so a crash-restart resends the same bytes and never looks like
equivocation; received messages are appended after verification, before they are applied,
without an fsync of their own: the next fsync (of our next message) makes them durable with
it, since the file is flushed in order, and one lost after a crash is simply sent again by
the peer (hello says how many we hold). So no reply of ours is ever durable without the
messages it answers, and each action costs two fsyncs on its critical path instead of four.
Record: ``uint32 length || crc32 || msgpack body``; a torn last record is cut off on open.
"""
from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.atomic import fsync
from net.frames import pack, unpack_strict
from net.messages import Signed

_REC = struct.Struct(">II")
MAX_RECORD = 128 * 1024


class WalError(Exception):
    """The log is unreadable (not a torn tail: real corruption or a foreign file)."""


@dataclass(frozen=True)
class Header:
    """Who plays this game: our role, both identities and the chain id."""

    chain_id: bytes
    role: str  # "host" or "guest"
    me: bytes
    peer: bytes

    def encode(self) -> list[Any]:
        return ["wec-wal", 1, self.chain_id, self.role, self.me, self.peer]


@dataclass(frozen=True)
class Entry:
    """One logged message: ``out`` (ours, with its secrets) or ``in`` (the peer's, verified)."""

    direction: str
    signed: Signed
    secrets: dict[str, Any] | None = None


class Wal:
    """Append-only, fsynced log file."""

    def __init__(self, path: Path, fd: int, sync: bool) -> None:
        self.path, self._fd, self.sync = path, fd, sync

    @classmethod
    def create(cls, path: Path, header: Header, sync: bool = True) -> "Wal":
        """Start a new log (fails if one exists)."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        wal = cls(path, fd, sync)
        wal._write(header.encode())
        return wal

    @classmethod
    def open(cls, path: Path, sync: bool = True) -> tuple["Wal", Header, list[Entry]]:
        """Reopen a log, cutting off a torn last record. :raises WalError: corrupt or foreign."""
        header, entries, good = read(path)
        with open(path, "r+b") as f:
            f.truncate(good)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        return cls(path, fd, sync), header, entries

    def append(self, entry: Entry) -> bytes:
        """Append one entry; ours (``out``) is fsynced (if ``sync``) before this returns. Returns
        the packed record (the same bytes a save holds for it)."""
        return self._write([entry.direction, entry.signed.payload, entry.signed.sig, entry.secrets],
                           sync=entry.direction == "out")

    def close(self) -> None:
        """Close the file; safe to call twice."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _write(self, obj: Any, sync: bool = True) -> bytes:
        body = pack(obj)
        os.write(self._fd, _REC.pack(len(body), zlib.crc32(body)) + body)
        if self.sync and sync:
            fsync(self._fd)
        return body


def read(path: Path) -> tuple[Header, list[Entry], int]:
    """Parse a log; returns the header, the entries and the length of the valid prefix."""
    data = Path(path).read_bytes()
    records, pos = [], 0
    while pos + _REC.size <= len(data):
        length, crc = _REC.unpack_from(data, pos)
        body = data[pos + _REC.size: pos + _REC.size + length]
        if length > MAX_RECORD or len(body) < length or zlib.crc32(body) != crc:
            break  # torn or damaged tail: everything after it is dropped
        try:
            records.append(unpack_strict(body, max_bin=MAX_RECORD))
        except Exception as exc:
            raise WalError(f"{path}: unreadable record at byte {pos}: {exc}") from None
        pos += _REC.size + length
    if not records or not (isinstance(records[0], list) and records[0][:2] == ["wec-wal", 1]):
        raise WalError(f"{path}: not a WEC game log")
    _, _, chain_id, role, me, peer = records[0]
    entries = []
    for rec in records[1:]:
        direction, payload, sig, secrets = rec
        entries.append(Entry(direction, Signed(payload, sig), secrets))
    return Header(chain_id, role, me, peer), entries, pos
