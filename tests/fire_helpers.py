"""Helpers for the weapon tests (tests/test_fire.py, test_projectiles.py, test_scenarios_fire.py):
results of the turn in progress, projectiles placed from "earlier turns", idle turns."""
from __future__ import annotations

from dataclasses import replace

from engine import api
from engine.actions import EndTurn
from engine.position import parse_square
from engine.record import current_turn
from engine.state import GameState, Projectile

#: Harmless King shuffles used to fill a turn's compulsory Move (01/R4.2).
KING_SHUFFLE = {"j1": "i1", "i1": "j1", "j10": "i10", "i10": "j10", "a1": "b1", "b1": "a1",
                "a10": "b10", "b10": "a10"}


def rs(state: GameState) -> str:
    """The ``RS:`` part of the turn in progress, without the ``RS:`` ('' when there is none)."""
    line = api.format_turn(current_turn(state))
    return line.split(",RS:", 1)[1] if ",RS:" in line else ""


def last_line(state: GameState) -> str:
    """The last finished history line."""
    return state.history[-1]


def sq(name: str) -> tuple[int, int]:
    """``e4`` -> (4, 5)."""
    return parse_square(name)


def king_move(state: GameState) -> str:
    """The notation of the side to move's idle King Move (KING_SHUFFLE)."""
    side = state.side_to_move
    kings = [p for p in state.pieces.values()
             if p.side == side and p.kind in ("K", "PR", "DI", "AV") and p.level == "G"]
    assert kings, "no King to shuffle"
    k = kings[0]
    here = "abcdefghij"[k.col - 1] + str(k.row)
    r, c = parse_square(KING_SHUFFLE[here])
    return f"MV:{k.kind}({k.row},{k.col})->({r},{c})"


def act(state: GameState, *actions: str) -> GameState:
    """Apply actions in notation; ``END`` ends the turn, ``K`` makes the idle King Move."""
    for text in actions:
        if text == "END":
            action = EndTurn()
        elif text == "K":
            action = api.parse_action(king_move(state))
        else:
            action = api.parse_action(text)
        state = api.apply_action(state, action)
    return state


def idle(state: GameState, plies: int = 1) -> GameState:
    """Play ``plies`` turns of an idle King Move and End Turn."""
    for _ in range(plies):
        state = act(state, "K", "END")
    return state


def add_projectile(state: GameState, kind: str, side: str, square: str, dr: int, dc: int,
                   strength: int = 1, target: int = 0, created: int = 0) -> Projectile:
    """Put a projectile fired in an earlier turn (``created`` < the current ply) on the board,
    directly into ``state.projectiles`` (the position format has none), bumping ``next_pid``."""
    r, c = parse_square(square)
    proj = Projectile(state.next_pid, kind, side, r, c, dr, dc, strength, target, created)
    state.next_pid += 1
    state.projectiles = state.projectiles + (proj,)
    state.touch()
    return proj


def on_trip(state: GameState, square: str, level: str, article: str,
            path: tuple[str, ...]) -> None:
    """Put the piece on ``square``/``level`` on a Jump Pack or Scuba trip fired in an earlier
    turn (the position format has no trips): the trip's article, level, ply 0, first Fire, and
    the squares still ahead, destination last (RUL-31)."""
    r, c = parse_square(square)
    (sid,) = state.at(r, c, level)
    p = state.pieces[sid]
    aid = next(a for a in p.arts if state.art_code[a] == article)
    state.put(replace(p, trip=(aid, level, 0, 1, tuple(parse_square(s) for s in path))))


def where(state: GameState) -> list[tuple[str, str, int, int]]:
    """Projectiles now: (kind, square, dr, dc) in creation order."""
    return [(p.kind, "abcdefghij"[p.col - 1] + str(p.row), p.dr, p.dc) for p in state.projectiles]
