"""The hidden-information boundary (DESIGN §3; 00 'Hidden-information questions' HQ-1..HQ-17).

Resolving an action may depend on enemy pieces its author cannot see. The rules never look
at those pieces directly: they ask the current ``Answerer``. Locally (hotseat, computer
opponent, audit) the ``OmniscientAnswerer`` replies from the full state; in a network game
the side that owns the hidden pieces answers. One engine, two answerers.
"""
from __future__ import annotations

import contextlib
import contextvars
from typing import TYPE_CHECKING, Iterator, Protocol, Sequence

from .state import Cell, GameState

if TYPE_CHECKING:
    from .effects import Hit
    from .state import Projectile


class Answerer(Protocol):
    """Answers questions about pieces hidden from the asking side."""

    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> int | None:
        """HQ-1: index of the first listed cell holding enemy pieces hidden from ``asker``."""

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        """HQ-2: whether some route is free of the pieces hidden from ``asker`` (destination excluded)."""

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell]) -> tuple[int, ...]:
        """HQ-3/HQ-13: the hidden enemy pieces on these cells (sids, ascending)."""

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        """HQ-11: the hidden stealthy enemy a new lock of ``side`` held on ``square`` takes."""

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence["Hit"]) -> dict[int, bool]:
        """HQ-4..HQ-8: which of these hidden pieces the hits take effect on (RUL-7)."""

    def homing_step(self, state: GameState, proj: "Projectile") -> tuple[int, int] | None:
        """HQ-9: the step towards a homing projectile's target, or None if the lock is lost."""

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell], shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        """HQ-3: (stall?, the hidden members on the chosen cells) for a nudge of ``group``."""


class OmniscientAnswerer:
    """Answers from the full state: hotseat, computer opponent, end-of-game audit."""

    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> int | None:
        from .visibility import hidden_from

        hidden = hidden_from(state, asker)
        for i, (r, c, lv) in enumerate(cells):
            if any(s in hidden for s in state.at(r, c, lv)):
                return i
        return None

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        cells = state.cells()
        return any(all(not cells.get(cell) for cell in route[:-1]) for route in routes)

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell]) -> tuple[int, ...]:
        from .visibility import hidden_from

        hidden = hidden_from(state, asker)
        found = {s for (r, c, lv) in cells for s in state.at(r, c, lv) if s in hidden}
        return tuple(sorted(found))

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        from .visibility import lock_candidates

        cands = lock_candidates(state, side, square)
        return cands[0] if cands else None

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence["Hit"]) -> dict[int, bool]:
        from .effects import takes_effect

        return takes_effect(state, list(hits))

    def homing_step(self, state: GameState, proj: "Projectile") -> tuple[int, int] | None:
        from .projectiles import homing_step

        return homing_step(state, proj)

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell], shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        from .movegen import shift_ok

        hidden = self.hidden_on(state, asker, cells)
        pieces = [state.pieces[s] for s in (*group, *hidden)]
        stall = (len(pieces) - 2 > 4 or any(state.pieces[s].stun for s in hidden)
                 or not shift_ok(state, pieces, shift[0], shift[1], frozenset()))   # RUL-45
        return stall, hidden


_CURRENT: contextvars.ContextVar[Answerer] = contextvars.ContextVar(
    "wec_answerer", default=OmniscientAnswerer())


def current_answerer() -> Answerer:
    """The answerer in force for the action being resolved."""
    return _CURRENT.get()


@contextlib.contextmanager
def answering(answerer: Answerer | None) -> Iterator[None]:
    """Resolve actions inside the block with ``answerer`` (None keeps the current one)."""
    if answerer is None:
        yield
        return
    token = _CURRENT.set(answerer)
    try:
        yield
    finally:
        _CURRENT.reset(token)


