"""An answerer that knows only what the owner of the hidden pieces knows (DESIGN §3, HQ-1..HQ-13).

Every question is about pieces hidden from the asking side, so the side that owns them answers.
``PartialAnswerer`` answers each question from ``observe(state, owner)`` alone: the owner's own
pieces in full (with whether the asker sees each of them, which the owner must know to show a
detected piece, HQ-10/HQ-16) plus the public part of the view and the question's own
arguments. It never reads the asker's pieces or the omniscient state: ``state`` is only handed
to ``observe``. Where a rule needs a computation (RUL-7 hits, RUL-16 homing) it runs the
engine's own function on a small state rebuilt from the owner's view (one engine).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.board import LEVEL_ORDER, distance
from engine.effects import Hit, takes_effect
from engine.movegen import shift_ok
from engine.projectiles import homing_step
from engine.state import Cell, GameState, Piece, Projectile, enemy
from engine.view import OwnPiece, PlayerView, observe


class PartialAnswerer:
    """Answers as the owner of the hidden pieces, from the owner's view only."""

    def __init__(self) -> None:
        self.asked: Counter[str] = Counter()      # questions asked, by method (coverage)

    # -- HQ-1, HQ-8, HQ-12 (bike) ------------------------------------------------------------------
    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> int | None:
        """HQ-1: index of the first listed cell holding a piece of mine the asker cannot see."""
        view = self._view("first_hidden", state, enemy(asker))
        mine = _hidden_cells(view)
        return next((i for i, cell in enumerate(cells) if tuple(cell) in mine), None)

    # -- HQ-2 --------------------------------------------------------------------------------------
    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        """HQ-2: whether some route (destination excluded) holds none of my hidden pieces."""
        view = self._view("any_route_clear", state, enemy(asker))
        mine = _hidden_cells(view)
        return any(all(tuple(cell) not in mine for cell in route[:-1]) for route in routes)

    # -- HQ-3, HQ-4..8 (cells), HQ-12, HQ-13 ------------------------------------------------------
    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> tuple[int, ...]:
        """HQ-3/HQ-13: my pieces the asker cannot see on these cells (serials, ascending)."""
        view = self._view("hidden_on", state, enemy(asker))
        wanted = {tuple(c) for c in cells}
        return tuple(sorted(p.sid for p in view.own
                            if not p.exposed and (p.row, p.col, p.level) in wanted))

    def any_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> bool:
        """HQ-12/HQ-13: whether these cells hold a piece of mine the asker cannot see."""
        view = self._view("any_hidden", state, enemy(asker))
        wanted = {tuple(c) for c in cells}
        return any(not p.exposed and (p.row, p.col, p.level) in wanted for p in view.own)

    # -- HQ-11 -------------------------------------------------------------------------------------
    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        """HQ-11: my first stealthy piece hidden from ``side``, in RUL-19/RUL-49 order."""
        view = self._view("lock_target", state, enemy(side))
        cands = [p for p in view.own if p.stealthy and not p.exposed]
        cands.sort(key=lambda p: (distance((p.row, p.col), square), p.row, p.col,
                                  LEVEL_ORDER[p.level], p.sid))
        return cands[0].sid if cands else None

    # -- HQ-4..HQ-8 --------------------------------------------------------------------------------
    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence[Hit]) -> dict[int, bool]:
        """HQ-4..HQ-8: which of my hidden pieces the hits take effect on (RUL-7)."""
        view = self._view("hit_outcomes", state, enemy(asker))
        return takes_effect(_rebuild(view), list(hits))

    # -- HQ-9 --------------------------------------------------------------------------------------
    def homing_step(self, state: GameState, proj: Projectile) -> tuple[int, int] | None:
        """HQ-9: the step towards my targeted piece, or None when the lock is lost (RUL-16)."""
        view = self._view("homing_step", state, enemy(proj.side))
        return homing_step(_rebuild(view), proj)

    # -- HQ-3 --------------------------------------------------------------------------------------
    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell], shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        """HQ-3: stall or go for a nudge, and my hidden members (which I move myself).

        The question discloses the group the asker sees (HQ-3 "Asker discloses"); the board
        around it is what my view shows: my pieces and the enemy pieces I can see.
        """
        view = self._view("nudge_outcome", state, enemy(asker))
        wanted = {tuple(c) for c in cells}
        hidden = tuple(sorted(p.sid for p in view.own
                              if not p.exposed and (p.row, p.col, p.level) in wanted))
        mini = _rebuild(view)
        disclosed = [state.pieces[sid] for sid in group]    # the question names the group
        named = [(q.kind, q.side, q.row, q.col, q.level) for q in disclosed]
        for i, q in enumerate(view.seen):
            key = (q.kind, q.side, q.row, q.col, q.level)
            if key in named:
                named.remove(key)                           # the same piece, already disclosed
                continue
            mini.pieces[-1 - i] = Piece(-1 - i, q.kind, q.side, q.row, q.col, q.level, q.hand)
        for q in disclosed:
            mini.pieces[q.sid] = q
        mini.touch()
        pieces = [mini.pieces[s] for s in (*group, *hidden)]
        stall = (len(pieces) - 2 > 4 or any(mini.pieces[s].stun for s in hidden)
                 or not shift_ok(mini, pieces, shift[0], shift[1], frozenset()))
        return stall, hidden

    def _view(self, question: str, state: GameState, owner: str) -> PlayerView:
        self.asked[question] += 1
        return observe(state, owner)


def _hidden_cells(view: PlayerView) -> set[Cell]:
    """Cells of the owner's pieces that the other side cannot see."""
    return {(p.row, p.col, p.level) for p in view.own if not p.exposed}


def own_piece(p: OwnPiece) -> Piece:
    """The engine value of an own piece of a view."""
    return Piece(p.sid, p.kind, p.side, p.row, p.col, p.level, p.hand, p.arts, p.stun,
                 p.origin, p.trip, p.ready)


def _rebuild(view: PlayerView) -> GameState:
    """A state holding only the owner's pieces, their articles and hit counters (from the view)."""
    mini = GameState(view.options)
    mini.ply = view.ply
    for p in view.own:
        mini.pieces[p.sid] = own_piece(p)
        for aid, code, ready in zip(p.arts, p.codes, p.art_ready):
            mini.art_code[aid] = code
            if ready:
                mini.art_ready[aid] = ready
        if p.hits:
            mini.hits[p.sid] = p.hits
    return mini
