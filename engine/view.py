"""What one player may know: ``observe(state, player) -> PlayerView`` (STYLE "one observe").

The state is omniscient; a ``PlayerView`` holds exactly what ``player`` may see now:

* its own pieces in full, with the hit counters, reveals and countdowns that belong to them,
  whether the enemy sees each of them (RUL-18; the owner must show a detected piece, HQ-10,
  HQ-16) and whether an enemy lock holds it (HQ-11, HQ-16);
* the enemy pieces it can see (RUL-18): type, side, cell, hand, held articles, stun counter,
  rate-of-fire countdowns and reveal (RUL-50 b) — never a serial number, so a piece that
  disappears and comes back is not identified (04/U29 shows only a last-seen marker);
* nothing at all of the enemy pieces hidden from it: not their number, type or cell;
* the public things of RUL-50 (b): ground articles, every projectile, the waiting
  reinforcements of both sides, the result; whose turn, the ply and the options;
* the locks its Anti-Stealth sources hold (RUL-19), with the target's cell when it is visible;
* the turn budget and actions of the turn in progress when the turn is its own.

Views are immutable, hashable values (named tuples: cheap enough to build for every question
an answerer is asked); ``view_key`` is the SHA-256 of their canonical JSON, so "states that
differ only in the enemy's hidden pieces give equal views" is a plain equality test.
The rules never import this module (engine rules stay view-free).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from .board import LEVEL_ORDER
from .options import Options
from .state import GameState, enemy
from .visibility import hidden_from, source_side, stealthy

__all__ = ["OwnPiece", "SeenPiece", "GroundArticle", "ProjectileView", "Reinforcement",
           "LockView", "OwnTurn", "PlayerView", "observe", "view_key", "history_for"]


class OwnPiece(NamedTuple):
    """One of the viewer's pieces, in full (every ``Piece`` field plus what it knows of it)."""

    sid: int
    kind: str
    side: str
    row: int
    col: int
    level: str
    hand: str
    arts: tuple[int, ...]                       # article ids, acquisition order (RUL-12)
    codes: tuple[str, ...]                      # their tokens
    art_ready: tuple[int, ...]                  # per held article: first ply it may fire (RUL-6)
    stun: int
    origin: bool
    trip: tuple[Any, ...] | None                # RUL-31 (article, level, ply, order, path)
    ready: tuple[tuple[str, int], ...]          # inherent weapons' countdowns (RUL-6)
    hits: tuple[tuple[str, int], ...]           # this turn's hit counters (RUL-7)
    revealed_until: int                         # RUL-20 reveal, 0 when none
    stealthy: bool                              # hiding reason S (RUL-18)
    exposed: bool                               # the enemy sees it now (RUL-18, HQ-10, HQ-16)
    locked: bool                                # an enemy Anti-Stealth lock holds it (HQ-16)


class SeenPiece(NamedTuple):
    """An enemy piece the viewer can see (RUL-18, RUL-50 b). No serial number."""

    kind: str
    side: str
    row: int
    col: int
    level: str
    hand: str
    codes: tuple[str, ...]
    art_ready: tuple[int, ...]
    stun: int
    ready: tuple[tuple[str, int], ...]
    revealed_until: int
    travelling: bool                            # on a Jump Pack / Scuba trip (RUL-51 d: no path)


class GroundArticle(NamedTuple):
    """An unowned article on a square's Ground, in ground order (RUL-50 b)."""

    row: int
    col: int
    code: str
    ready: int                                  # first ply it may fire again (0: ready)


class ProjectileView(NamedTuple):
    """A projectile in flight: public (RUL-50 b), in creation order (RUL-46)."""

    pid: int
    kind: str
    side: str
    row: int
    col: int
    level: str
    dr: int
    dc: int
    strength: int
    created: int
    homing: bool
    target: int                                 # the target's serial when it is the viewer's piece


class Reinforcement(NamedTuple):
    """A waiting reinforcement of either side (RUL-50 b; its type is in the public start)."""

    row: int
    col: int
    side: str
    kind: str
    hand: str


class LockView(NamedTuple):
    """A lock held by one of the viewer's Anti-Stealth sources (RUL-19)."""

    source: tuple[str, int]                     # ("p", holder sid) or ("a", article id)
    target: tuple[str, int, int, str] | None    # (kind, row, col, level) if visible, else None


class OwnTurn(NamedTuple):
    """The budget and actions of the turn in progress, when it is the viewer's (RUL-1)."""

    moved: bool
    mover: int
    fires: int
    fired: tuple[tuple[Any, ...], ...]
    picked: bool
    dropped: bool
    exchanged: bool
    reinforced: bool
    acted: tuple[int, ...]
    transported: tuple[int, ...]
    vacated: tuple[tuple[int, int], ...]
    obliged: tuple[int, ...]
    actions: tuple[str, ...]                    # in played order, E-4 notation


class PlayerView(NamedTuple):
    """Everything ``player`` may know of the position now."""

    player: str
    ply: int
    side_to_move: str
    options: Options
    result: str | None
    end_reason: str
    own: tuple[OwnPiece, ...]                   # by serial
    seen: tuple[SeenPiece, ...]                 # by cell, then type
    ground: tuple[GroundArticle, ...]           # by square, ground order within a square
    projectiles: tuple[ProjectileView, ...]     # creation order
    reinforcements: tuple[Reinforcement, ...]   # by square
    locks: tuple[LockView, ...]                 # by source
    turn: OwnTurn | None                        # None during the enemy's turn


def observe(state: GameState, player: str) -> PlayerView:
    """What ``player`` ("B" or "W") may see of ``state`` now. :raises ValueError: bad player."""
    if player not in ("B", "W"):
        raise ValueError(f"player must be 'B' or 'W', got {player!r}")
    return PlayerView(
        player=player, ply=state.ply, side_to_move=state.side_to_move,
        options=state.options, result=state.result, end_reason=state.end_reason,
        own=_own(state, player), seen=_seen(state, player), ground=_ground(state),
        projectiles=_projectiles(state, player), reinforcements=_reinforcements(state),
        locks=_locks(state, player), turn=_turn(state, player))


def view_key(view: PlayerView) -> str:
    """SHA-256 hex of the view's canonical JSON (fields in declaration order; equal views, equal
    keys)."""
    data = (*view[:3], sorted(view.options.to_dict().items()), *view[4:])   # options: a map
    text = json.dumps(["wec-view-1", data], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def history_for(state: GameState, viewer: str) -> list[str]:
    """The history lines ``viewer`` may read (RUL-37, RUL-51 d, 04/C1-C8); see history_view."""
    from .history_view import history_for as _history_for

    return _history_for(state, viewer)


# -- parts of the view -------------------------------------------------------------------------

def _own(state: GameState, player: str) -> tuple[OwnPiece, ...]:
    exposed_to = hidden_from(state, enemy(player))
    locked = {t for k, t in state.locks.items() if source_side(state, k) == enemy(player)}
    out = []
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        if p.side != player:
            continue
        out.append(OwnPiece(
            p.sid, p.kind, p.side, p.row, p.col, p.level, p.hand, p.arts, state.codes(p),
            tuple(state.art_ready.get(a, 0) for a in p.arts), p.stun, p.origin, p.trip,
            p.ready, state.hits.get(p.sid, ()), state.reveals.get(p.sid, 0),
            stealthy(state, p), p.sid not in exposed_to, p.sid in locked))
    return tuple(out)


def _seen(state: GameState, player: str) -> tuple[SeenPiece, ...]:
    hidden = hidden_from(state, player)
    out = []
    for p in state.pieces.values():
        if p.side == player or p.sid in hidden:
            continue
        out.append(SeenPiece(
            p.kind, p.side, p.row, p.col, p.level, p.hand, state.codes(p),
            tuple(state.art_ready.get(a, 0) for a in p.arts), p.stun, p.ready,
            state.reveals.get(p.sid, 0), p.trip is not None))
    out.sort(key=lambda s: (s.row, s.col, LEVEL_ORDER[s.level], s.kind, s.hand, s.codes,
                            s.side, s.stun, s.ready, s.art_ready, s.revealed_until,
                            s.travelling))
    return tuple(out)


def _ground(state: GameState) -> tuple[GroundArticle, ...]:
    return tuple(GroundArticle(r, c, state.art_code[a], state.art_ready.get(a, 0))
                 for (r, c), aids in sorted(state.ground.items()) for a in aids)


def _projectiles(state: GameState, player: str) -> tuple[ProjectileView, ...]:
    out = []
    for p in state.projectiles:
        t = state.pieces.get(p.target) if p.target else None
        mine = t is not None and t.side == player
        out.append(ProjectileView(p.pid, p.kind, p.side, p.row, p.col, p.level, p.dr, p.dc,
                                  p.strength, p.created, bool(p.target),
                                  p.target if mine else 0))
    return tuple(out)


def _reinforcements(state: GameState) -> tuple[Reinforcement, ...]:
    return tuple(Reinforcement(r, c, side, kind, hand)
                 for (r, c), (side, kind, hand) in sorted(state.reinforcements.items()))


def _locks(state: GameState, player: str) -> tuple[LockView, ...]:
    hidden = hidden_from(state, player)
    out = []
    for key in sorted(state.locks):
        if source_side(state, key) != player:
            continue
        t = state.pieces.get(state.locks[key])
        target = None
        if t is not None and t.sid not in hidden:
            target = (t.kind, t.row, t.col, t.level)
        out.append(LockView(key, target))
    return tuple(out)


def _turn(state: GameState, player: str) -> OwnTurn | None:
    if state.side_to_move != player or state.result is not None:
        return None
    from .notation import format_action

    t = state.turn
    return OwnTurn(t.moved, t.mover, t.fires, tuple(sorted(t.fired)), t.picked, t.dropped,
                   t.exchanged, t.reinforced, tuple(sorted(t.acted)),
                   tuple(sorted(t.transported)), tuple(sorted(t.vacated)),
                   tuple(sorted(t.obliged)), tuple(format_action(a) for a in state.actions))
