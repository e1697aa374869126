"""Write-ahead log of one network game: every signed message, in local processing order.

Every entry is written (``os.write``) *before* its message is sent or applied, so a process
killed at any point (SIGKILL) loses nothing it sent or acknowledged: the bytes are in the
kernel, and the restart resends exactly them (never two messages with one number). The fsync
that protects against a power loss or an OS crash is off the critical path: a flusher thread
makes the log durable right behind the writes, and the game never waits for it, except for
entries whose loss the peer could not repair (ours that carry secrets, and everything we send
during the setup), which are fsynced before they are sent. What a power loss can still take
is the tail since the last fsync; the peer holds every message of ours it received and gives
them back on resume (docs/protocol.md, "Durability off the critical path").

File (v2): ``b"WECWAL2\n"`` then records ``uint32 length || uint32 crc32(body) ||
uint32 crc32(length, body crc) || msgpack body``. Each record carries its own checksums, so
a damaged record in the middle (``WalDamaged``, naming the file and the entry) is told from a
torn tail (a record cut short by a crash, or zeros, at the very end), which is cut off on open.
A damaged log is never truncated or rewritten. v1 files (no magic, ``length || crc32``) are read too.
"""
from __future__ import annotations

import os
import struct
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.atomic import fsync
from net.frames import pack, unpack_strict
from net.messages import Signed

_REC = struct.Struct(">II")        # v1 record header
_REC2 = struct.Struct(">III")      # v2 record header
MAGIC = b"WECWAL2\n"
MAX_RECORD = 128 * 1024


class WalError(Exception):
    """The log is unreadable (not a torn tail: real corruption or a foreign file)."""


class WalDamaged(WalError):
    """A record that is not the torn tail fails its checksum: the log is damaged at ``entry``.

    ``header`` and ``entries`` are what precedes the damage (``header`` None if the damage is in it)."""

    def __init__(self, path: Path, entry: int, offset: int, header: "Header | None", entries: "list[Entry]",
                 detail: str) -> None:
        where = "its header" if entry == 0 else f"entry {entry}"
        super().__init__(f"{path}: {where} (at byte {offset}) is damaged ({detail}); "
                         f"{max(0, entry - 1)} entries before it are intact")
        self.path, self.entry, self.offset, self.header, self.entries = path, entry, offset, header, entries


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


class _Flusher(threading.Thread):
    """fsyncs a log right behind its writes, coalescing (at most one fsync per ``INTERVAL``: a
    power loss may take that much of the tail, which the peer gives back); never waited for."""

    INTERVAL = 0.05

    def __init__(self, fd: int) -> None:
        super().__init__(name="wec-wal-fsync", daemon=True)
        self.fd, self.wanted, self.stopped = fd, threading.Event(), threading.Event()

    def run(self) -> None:
        while True:
            self.wanted.wait()
            if self.stopped.is_set():
                return
            self.wanted.clear()
            try:
                fsync(self.fd)
            except OSError:
                return
            if self.stopped.wait(self.INTERVAL):
                return

    def stop(self) -> None:
        self.stopped.set()
        self.wanted.set()
        self.join()


class Wal:
    """Append-only log file: written before every send, fsynced behind the writes."""

    def __init__(self, path: Path, fd: int, sync: bool) -> None:
        self.path, self._fd, self.sync = path, fd, sync
        self._flusher: _Flusher | None = None
        self._dirty = False

    @classmethod
    def create(cls, path: Path, header: Header, sync: bool = True, entries: list[Entry] = ()) -> "Wal":  # type: ignore[assignment]
        """Start a new log (fails if one exists), optionally holding ``entries`` already (a
        rebuild from a save); durable before this returns."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        wal = cls(path, fd, sync)
        os.write(fd, MAGIC)
        wal._write(header.encode(), durable=not entries)
        for n, entry in enumerate(entries):
            wal.append(entry, durable=n == len(entries) - 1)
        return wal

    @classmethod
    def open(cls, path: Path, sync: bool = True) -> tuple["Wal", Header, list[Entry]]:
        """Reopen a log, cutting off a torn last record.

        :raises WalDamaged: a damaged record (the file is left as it is). :raises WalError: foreign."""
        header, entries, good = read(path)
        if good < path.stat().st_size:
            with open(path, "r+b") as f:
                f.truncate(good)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        return cls(path, fd, sync), header, entries

    def append(self, entry: Entry, durable: bool = False) -> bytes:
        """Append one entry (written when this returns, so a killed process keeps it); fsynced
        before returning if ``durable``, else by the flusher thread after ``flush_behind``.
        Returns the packed record (the same bytes a save holds for it)."""
        return self._write([entry.direction, entry.signed.payload, entry.signed.sig, entry.secrets], durable)

    def close(self) -> None:
        """Make everything durable and close the file; safe to call twice."""
        if self._fd < 0:
            return
        if self._flusher is not None:
            self._flusher.stop()
            self._flusher = None
        if self.sync:
            try:
                fsync(self._fd)
            except OSError:
                pass
        os.close(self._fd)
        self._fd = -1

    def _write(self, obj: Any, durable: bool) -> bytes:
        body = pack(obj)
        crc = zlib.crc32(body)
        os.write(self._fd, _REC2.pack(len(body), crc, zlib.crc32(_REC.pack(len(body), crc))) + body)
        if self.sync and durable:
            fsync(self._fd)
        elif self.sync:
            self._dirty = True
        return body

    def flush_behind(self) -> None:
        """Have the flusher thread fsync what was written so far (the caller does not wait; call it
        after the send, so that waking the thread is not on the critical path either)."""
        if not (self.sync and self._dirty) or self._fd < 0:
            return
        self._dirty = False
        if self._flusher is None:
            self._flusher = _Flusher(self._fd)
            self._flusher.start()
        self._flusher.wanted.set()


def read(path: Path) -> tuple[Header, list[Entry], int]:
    """Parse a log; returns the header, the entries and the length of the valid prefix (a torn
    tail after it is not counted).

    :raises WalDamaged: a record other than the torn tail fails its checksum.
    :raises WalError: not a WEC game log, or an unreadable record."""
    path = Path(path)
    data = path.read_bytes()
    v2 = data.startswith(MAGIC)
    size = _REC2.size if v2 else _REC.size
    records: list[Any] = []
    pos = len(MAGIC) if v2 else 0

    def damaged(detail: str) -> WalDamaged:
        return WalDamaged(path, len(records), pos, *_parsed(records), detail)

    def zeros(start: int) -> bool:
        return data.count(0, start) == len(data) - start

    while pos < len(data):
        if len(data) - pos < size:
            break                                   # torn tail: a header cut short
        if v2:
            length, crc, head_crc = _REC2.unpack_from(data, pos)
            if zlib.crc32(_REC.pack(length, crc)) != head_crc:
                if zeros(pos):
                    break                           # torn tail: zeros where the last record was going
                raise damaged("record header checksum mismatch")
        else:
            length, crc = _REC.unpack_from(data, pos)
            if length > MAX_RECORD and pos + size + length > len(data):
                break                               # v1 cannot tell a damaged length from a torn tail
        if length > MAX_RECORD:
            raise damaged(f"record of {length} bytes exceeds {MAX_RECORD}")
        end = pos + size + length
        if end > len(data):
            break                                   # torn tail: the body cut short by a crash
        body = data[pos + size: end]
        if zlib.crc32(body) != crc:
            if end == len(data) and zeros(pos + size):
                break                               # torn tail: a last record left as zeros
            raise damaged("checksum mismatch")
        try:
            records.append(unpack_strict(body, max_bin=MAX_RECORD))
        except Exception as exc:
            raise damaged(f"unreadable record: {exc}") from None
        pos = end
    header, entries = _parsed(records)
    if header is None:
        raise WalError(f"{path}: not a WEC game log")
    return header, entries, pos


def _parsed(records: list[Any]) -> tuple[Header | None, list[Entry]]:
    """The header and entries of parsed records (header None if there is none or it is foreign)."""
    if not records or not (isinstance(records[0], list) and len(records[0]) == 6 and records[0][:2] == ["wec-wal", 1]):
        return None, []
    _, _, chain_id, role, me, peer = records[0]
    entries = []
    for rec in records[1:]:
        direction, payload, sig, secrets = rec
        entries.append(Entry(direction, Signed(payload, sig), secrets))
    return Header(chain_id, role, me, peer), entries
