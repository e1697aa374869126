"""The ``OmniscientAnswerer``: answers the boundary's questions from the full state.

The questions themselves (``Answerer``, ``current_answerer``, ``answering``) live in the leaf
module ``engine.questions`` so every rule module can ask them; this module sits above the
rules it answers from (visibility, moves, effects, projectiles) and installs itself as the
default answerer when imported (hotseat, computer opponent, end-of-game audit). In a network
game the side that owns the hidden pieces answers. One engine, two answerers.
"""
from __future__ import annotations

from typing import Sequence

from .effects import takes_effect
from .movegen import shift_ok
from .projectiles import homing_step
from .questions import Answerer, Hit, answering, current_answerer, set_default_answerer
from .state import Cell, GameState, Projectile
from .visibility import hidden_from, lock_candidates

__all__ = ["Answerer", "OmniscientAnswerer", "answering", "current_answerer"]


class OmniscientAnswerer:
    """Answers from the full state: hotseat, computer opponent, end-of-game audit."""

    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> int | None:
        hidden = hidden_from(state, asker)
        for i, (r, c, lv) in enumerate(cells):
            if any(s in hidden for s in state.at(r, c, lv)):
                return i
        return None

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        cells = state.cells()
        return any(all(not cells.get(cell) for cell in route[:-1]) for route in routes)

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> tuple[int, ...]:
        hidden = hidden_from(state, asker)
        found = {s for (r, c, lv) in cells for s in state.at(r, c, lv) if s in hidden}
        return tuple(sorted(found))

    def any_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> bool:
        return bool(self.hidden_on(state, asker, cells))

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        cands = lock_candidates(state, side, square)
        return cands[0] if cands else None

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence[Hit]) -> dict[int, bool]:
        return takes_effect(state, list(hits))

    def homing_step(self, state: GameState, proj: Projectile) -> tuple[int, int] | None:
        return homing_step(state, proj)

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell], shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        hidden = self.hidden_on(state, asker, cells)
        pieces = [state.pieces[s] for s in (*group, *hidden)]
        stall = (len(pieces) - 2 > 4 or any(state.pieces[s].stun for s in hidden)
                 or not shift_ok(state, pieces, shift[0], shift[1], frozenset()))   # RUL-45
        return stall, hidden


set_default_answerer(OmniscientAnswerer())
