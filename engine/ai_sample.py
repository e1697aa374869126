"""The computer opponent's beliefs: a ``GameState`` built from one side's ``PlayerView`` alone.

The bot never reads the game state (issue 11 "it cannot peek"): its base is the partial state
of its side rebuilt from ``observe(state, me)`` (``engine.partial.partial_from_view``, the
view-side twin of ``partial_state``), plus what it remembers of earlier views (``Memory``: the
last-seen cells of enemy pieces able to hide, RUL-18); it samples where the hidden ones may
be now (``sample_state``). docs/rulings.md AI-2 records the guesses.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import SUB
from .board import distance, on_board
from .partial import ART_ID, partial_from_view
from .pieces import KINDS
from .state import GameState, Piece, enemy
from .view import PlayerView
from .visibility import hidden_from

#: the bot's belief without its ghosts (``engine.partial.partial_from_view``)
state_from_view = partial_from_view


@dataclass(frozen=True, slots=True)
class Ghost:
    """An enemy piece that was seen and then vanished where it could hide (RUL-18)."""

    kind: str
    row: int
    col: int
    level: str
    hand: str
    codes: tuple[str, ...]
    ply: int                      # when it was last seen


def can_hide(kind: str, codes: tuple[str, ...], view: PlayerView) -> bool:
    """Whether an enemy piece of this type and articles could be hidden (RUL-18 S or U)."""
    o = view.options
    stealth = o.stealth_invisibility and ("SH" in KINDS[kind].inherent or (
        "SH" in codes and (KINDS[kind].role != "primary" or o.stealthy_primary_allowed)))
    return stealth or (kind == "SU" and o.submerged_invisibility)


@dataclass(slots=True)
class Memory:
    """What the bot remembers between its views: the ghosts, by last sighting."""

    ghosts: list[Ghost] = field(default_factory=list)
    last: tuple = ()              # the previous view's seen enemy pieces

    def update(self, view: PlayerView) -> None:
        """Fold a new view in: vanished hideable pieces become ghosts, reappearing pieces
        retire the nearest ghost of their type."""
        now = list(view.seen)
        for s in now:
            same = [g for g in self.ghosts if g.kind == s.kind]
            if same and not any(self._matches(s, q) for q in self.last):
                near = min(same, key=lambda g: (distance((g.row, g.col), (s.row, s.col)),
                                                g.ply, g.row, g.col))
                self.ghosts.remove(near)
        for q in self.last:
            if q.side == view.player or any(self._matches(q, s) for s in now):
                continue
            if can_hide(q.kind, q.codes, view):
                level = SUB if q.kind == "SU" else q.level
                self.ghosts.append(Ghost(q.kind, q.row, q.col, level, q.hand, q.codes,
                                         view.ply))
        self.last = tuple(now)

    @staticmethod
    def _matches(a, b) -> bool:                   # type: ignore[no-untyped-def]
        return a.kind == b.kind and distance((a.row, a.col), (b.row, b.col)) <= 2


def sample_state(view: PlayerView, memory: Memory, rng: random.Random,
                 base: GameState | None = None) -> GameState:
    """One determinization: the known position plus each ghost at its last-seen cell or a
    nearby one (it may have moved since, ply difference), kept only where it stays hidden
    from the bot and the cell holds no piece of the bot's (consistent with the view)."""
    state = (base or state_from_view(view)).clone()
    state.parent = None
    me = view.player
    sid = state.next_sid
    for g in memory.ghosts:
        drift = min(2, max(0, (view.ply - g.ply) // 2))
        for _try in range(4):
            r = g.row + (rng.randint(-drift, drift) if drift else 0)
            c = g.col + (rng.randint(-drift, drift) if drift else 0)
            if not on_board(r, c) or any(state.pieces[s].side == me
                                         for s in state.at(r, c, g.level)):
                continue
            arts = []
            for code in g.codes:
                aid = max(state.art_code, default=ART_ID) + 1
                state.art_code = {**state.art_code, aid: code}
                arts.append(aid)
            state.put(Piece(sid, g.kind, enemy(me), r, c, g.level, g.hand, tuple(arts)))
            if sid in hidden_from(state, me):
                sid += 1
                break
            del state.pieces[sid]
            state.touch()
    state.next_sid = sid
    return state
