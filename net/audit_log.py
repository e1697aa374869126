"""``wec audit LOG``: the end-of-game audit of hidden play re-run offline from a finished log.

A finished game's log (``games/<chain>.finished.wal``, or its ``.save``) holds the signed
transcript, our own secrets (the salt secret with our ``finish``) and both ``audit-open``
messages: rebuilding the game from it runs the same audit (``net.hidden_audit``) as at the end
of play, and gives the same verdict. Only the entries are trusted as far as their signatures go
(``net.saves.verify_transcript`` first).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from net.chain import ChainReader
from net.errors import NetError
from net.match import Match
from net.messages import Claim
from net.outputs import Send
from net.saves import SaveError, load_save, verify_transcript
from net.wal import WalError, read


@dataclass
class LogAudit:
    """``ok`` is None when there is nothing to audit (the game did not reach its audit)."""

    ok: bool | None
    report: str
    actions: int = 0


def audit_log(engine: ModuleType, path: Path) -> LogAudit:
    """Re-run the audit of the game in ``path`` (a .wal or .save). :raises ValueError: unreadable."""
    try:
        header, entries, _ = load_save(path) if path.suffix == ".save" else read(path)
        verify_transcript(header, entries)
    except (SaveError, WalError, NetError, OSError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    match = Match(engine, header.chain_id, header.role)
    derived: list[Claim] = []
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    for entry in entries:
        verified = readers[entry.direction].check(entry.signed)
        if verified is None:
            raise ValueError(f"{path}: the log repeats a message")
        readers[entry.direction].accept(verified)
        for out in match.feed(entry.direction == "out", verified.message, entry.secrets):
            if isinstance(out, Send) and isinstance(out.message, Claim) and out.message.kind == "breach":
                derived.append(out.message)   # the replay itself finds the peer's message at fault
    play = match.play
    if play is None:
        return LogAudit(None, "the game never started: nothing to audit")
    result = getattr(play, "result", None)
    if result is not None and result["ending"] == "breach":   # rulings N-6: not audited, re-checked here
        fault = getattr(play, "own_fault", None)
        if result["ours"] and not derived:
            return LogAudit(False, f"the log claims a breach that its replay does not find: {result['detail']}",
                            play.index)
        if not result["ours"] and fault is None:
            return LogAudit(False, f"the log accepts a breach claim that its replay does not find: "
                                   f"{result['detail']}", play.index)
        verdict = getattr(play, "verdict", None)
        if verdict is not None and not verdict.ok:   # the audit found the breach: it fails, as at the end of play
            return LogAudit(False, f"{verdict.report}; the game ended by breach: {result['detail']}", play.index)
        return LogAudit(None, f"no audit in this log: the game ended by breach, and the replay of the signed "
                              f"transcript finds the same fault: {result['detail']}", play.index)
    verdict = getattr(play, "verdict", None)
    if verdict is None:
        opened = sorted(getattr(play, "opens", {}))
        why = match.stopped or ("the game is not over" if not getattr(play, "ended", False)
                                else f"only {', '.join(opened) or 'nobody'} opened the secrets")
        return LogAudit(None, f"no audit in this log: {why}", play.index)
    return LogAudit(verdict.ok, verdict.report, play.index)
