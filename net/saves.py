"""Saves and transcripts: each side saves from its own data (its view, its secrets, the signed transcript).

A save is ``magic || sha256(body) || body`` with body = msgpack of the log header and every
logged entry, written atomically after every turn (the previous save kept as ``.bak``).
``verify_transcript`` re-checks both signed chains (signatures, numbering, links) offline.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from net.atomic import remove_stale_temps, write_atomic
from net.chain import ChainReader
from net.errors import IntegrityError
from net.frames import pack, unpack_strict
from net.messages import Signed
from net.wal import Entry, Header

MAGIC = b"WECSAVE1"


class SaveError(Exception):
    """The save file is damaged, truncated or not a WEC network save."""


@dataclass(frozen=True)
class TranscriptSummary:
    """What a verified transcript holds."""

    ours: int
    theirs: int
    chain_id: bytes


def write_save(path: Path, header: Header, entries: list[Entry], state_hash: str) -> None:
    """Write the save atomically, keeping the previous one as ``.bak``."""
    write_packed_save(path, header, [pack(entry_record(e)) for e in entries], state_hash)


def entry_record(entry: Entry) -> list[Any]:
    """One entry as the save (and the write-ahead log) record it."""
    return [entry.direction, entry.signed.payload, entry.signed.sig, entry.secrets]


def write_packed_save(path: Path, header: Header, packed_entries: list[bytes], state_hash: str) -> None:
    """``write_save`` from entries already packed (``pack(entry_record(e))``): the same bytes, but
    no Python-level pass over the whole transcript, so a save thread barely holds the GIL."""
    packer = msgpack.Packer(use_bin_type=True)
    body = b"".join([packer.pack_array_header(3), pack(header.encode()),
                     packer.pack_array_header(len(packed_entries)), *packed_entries, pack(state_hash)])
    remove_stale_temps(path)   # one writer per save: the session of that game
    keep_previous(path)
    write_atomic(path, MAGIC + hashlib.sha256(body).digest() + body)


def keep_previous(path: Path) -> None:
    """Make ``path.bak`` a copy of the current save without ever removing ``path``: a hard link
    renamed over the old ``.bak`` (a copy where links are not supported). The new save then
    replaces ``path`` atomically, so a crash at any point leaves a complete save in place."""
    if not path.exists():
        return
    bak = path.with_suffix(path.suffix + ".bak")
    link = path.with_name(f".tmp-{path.name}.link")
    link.unlink(missing_ok=True)
    try:
        os.link(path, link)
    except OSError:
        write_atomic(bak, path.read_bytes())
        return
    os.replace(link, bak)


def load_save(path: Path) -> tuple[Header, list[Entry], str]:
    """Read and check a save. :raises SaveError: with a clear reason."""
    data = Path(path).read_bytes()
    if data[:8] != MAGIC:
        raise SaveError(f"{path}: not a WEC network save")
    digest, body = data[8:40], data[40:]
    if hashlib.sha256(body).digest() != digest:
        raise SaveError(f"{path}: damaged or truncated (checksum mismatch)")
    try:
        head, raw, state_hash = unpack_strict(body, max_bin=len(body) + 1, max_array=1 << 20)
        header = Header(*head[2:])
        entries = [Entry(d, Signed(p, s), sec) for d, p, s, sec in raw]
    except Exception as exc:
        raise SaveError(f"{path}: unreadable save ({exc})") from None
    return header, entries, state_hash


def verify_transcript(header: Header, entries: list[Entry]) -> TranscriptSummary:
    """Check both signed chains of a transcript. :raises IntegrityError: naming the first bad message."""
    ours, theirs = ChainReader(header.me, header.chain_id), ChainReader(header.peer, header.chain_id)
    for n, entry in enumerate(entries):
        reader = ours if entry.direction == "out" else theirs
        verified = reader.check(entry.signed)
        if verified is None:
            raise IntegrityError(f"transcript entry {n} repeats an earlier message")
        reader.accept(verified)
    return TranscriptSummary(ours.seq, theirs.seq, header.chain_id)
