"""One piece handed over in full by its owner (docs/hidden.md §2; HQ-1 "in full", HQ-6, HQ-16):
the ``Opening`` value, and entering it into or dropping it from a state. A leaf module of the
partial-state engine (``engine.asking`` and ``engine.partial`` stand on it)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .state import GameState, Piece

__all__ = ["Opening", "opening", "put_opening", "drop_piece", "ground_aids"]


@dataclass(frozen=True)
class Opening:
    """One piece handed over in full by its owner (HQ-1 "in full", HQ-6, HQ-10, HQ-16): the piece,
    its hit counters this turn, its reveal, its held articles' countdowns, the locks its sources
    hold, and whether it was stunned when the turn began (RUL-11)."""

    piece: Piece
    hits: tuple[tuple[str, int], ...] = ()
    revealed_until: int = 0
    art_ready: tuple[tuple[int, int], ...] = ()
    locks: tuple[tuple[tuple[str, int], int], ...] = ()
    stunned_at_start: bool = False


def opening(state: GameState, sid: int) -> Opening:
    """The ``Opening`` of a piece ``state`` holds."""
    p = state.pieces[sid]
    locks = tuple((k, t) for k, t in sorted(state.locks.items())
                  if (k[0] == "p" and k[1] == sid) or (k[0] == "a" and k[1] in p.arts))
    return Opening(p, state.hits.get(sid, ()), state.reveals.get(sid, 0),
                   tuple((a, state.art_ready[a]) for a in p.arts if a in state.art_ready),
                   locks, sid in state.turn.stunned)


def put_opening(state: GameState, op: Opening) -> None:
    """Enter an opened piece into ``state`` (keeps ``state.pieces`` in serial order)."""
    p = op.piece
    items = sorted({**state.pieces, p.sid: p}.items())
    state.pieces.clear()
    state.pieces.update(items)
    if op.hits:
        state.hits[p.sid] = op.hits
    if op.revealed_until:
        state.reveals[p.sid] = op.revealed_until
    state.art_ready.update(op.art_ready)
    state.locks.update(op.locks)
    if op.stunned_at_start:
        state.turn = replace(state.turn, stunned=state.turn.stunned | {p.sid})
    state.touch()


def drop_piece(state: GameState, sid: int) -> None:
    """Forget a piece and what belongs to it (its hits, reveal, its sources' locks)."""
    p = state.pieces.pop(sid, None)
    state.hits.pop(sid, None)
    state.reveals.pop(sid, None)
    if p is not None:
        for a in p.arts:
            if a not in ground_aids(state):
                state.art_ready.pop(a, None)
        for k in [k for k in state.locks if (k[0] == "p" and k[1] == sid)
                  or (k[0] == "a" and k[1] in p.arts)]:
            del state.locks[k]
    state.touch()


def ground_aids(state: GameState) -> set[int]:
    return {a for aids in state.ground.values() for a in aids}
