"""Reading a finished network log: the peer's signed messages by chain number (the evidence)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from net.chain import ChainReader
from net.wal import read


def peer_messages(path: Path) -> dict[int, Any]:
    """seq -> the peer's game message, every signature and chain link verified."""
    header, entries, _ = read(Path(path))
    reader = ChainReader(header.peer, header.chain_id)
    out = {}
    for e in entries:
        if e.direction != "in":
            continue
        v = reader.check(e.signed)
        assert v is not None
        reader.accept(v)
        out[v.seq] = v.message
    return out


def own_messages(path: Path) -> list[Any]:
    """Our own game messages in order (decoded from the log)."""
    from net.chain import _fields
    from net.messages import GAME, decode_fields
    _, entries, _ = read(Path(path))
    return [decode_fields(_fields(e.signed.payload)[-1], GAME, "game") for e in entries if e.direction == "out"]
