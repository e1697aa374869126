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


def replay_log(path: Path, engine: Any) -> Any:
    """The ``Match`` a finished log rebuilds (every entry verified and fed, as a resume does)."""
    from net.match import Match
    header, entries, _ = read(Path(path))
    match = Match(engine, header.chain_id, header.role)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    for e in entries:
        v = readers[e.direction].check(e.signed)
        assert v is not None
        readers[e.direction].accept(v)
        match.feed(e.direction == "out", v.message, e.secrets)
    return match


def history_from_log(path: Path) -> list[str]:
    """The full history of a finished, audited game from one side's log alone: public actions
    from the events (either side's), hidden ones from both sides' audit openings."""
    from net.hidden_wire import AuditOpen, HiddenEvent
    header, entries, _ = read(Path(path))
    from net.chain import _fields
    from net.messages import GAME, decode_fields
    texts: dict[int, str] = {}
    for e in entries:
        m = decode_fields(_fields(e.signed.payload)[-1], GAME, "game")
        if isinstance(m, HiddenEvent) and m.text:
            texts[m.index] = m.text
        elif isinstance(m, AuditOpen):
            for i, t in m.actions:
                texts[i] = t
    n = max(texts) + 1 if texts else 0
    missing = [i for i in range(n) if i not in texts]
    if missing:
        raise ValueError(f"actions {missing[:5]} are neither public nor opened in {path}")
    return [texts[i] for i in range(n)]
