"""Actions and history lines in plain words, for people (issue 12 item 3).

"Tank (2,5) to (5,5), takes Rocket Launcher Pawn": piece names from ``engine.pieces``, squares
as ``(row,column)`` in the U71 coordinates drawn on the board edges (04/U71: row 1 is Black's
nearest row, columns count to Black's right), levels named when not Ground. Pure functions of
the action and, where a capture is worth saying, the viewer's ``PlayerView``: nothing the
viewer cannot see is ever worded (RUL-18).
"""
from __future__ import annotations

import re

from engine.actions import (AIR, SUB, Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc,
                            Reinforce, Result, Turn)
from engine.pieces import KINDS
from engine.view import PlayerView

__all__ = ["ARTICLE_NAMES", "describe", "describe_turn", "kind_name", "article_name", "square", "split_rule"]

#: 01-overview.md's 18 article types (04/H9c tokens; JU is the Jump Pack when fired).
ARTICLE_NAMES = {
    "FL": "Flamer", "ST": "Stunner", "CS": "Conversion", "RL": "Rocket Launcher", "SL": "SAM Launcher",
    "TL": "Torpedo Launcher", "SH": "Stealth", "AFL": "Anti-Flamer", "AST": "Anti-Stunner",
    "ACS": "Anti-Conversion", "ARL": "Anti-Rocket", "ASL": "Anti-SAM", "ATL": "Anti-Torpedo",
    "ASH": "Anti-Stealth", "BI": "Bike", "JP": "Jump Pack", "JU": "Jump Pack", "SC": "Scuba",
    "XXX": "XXX",
}
_LEVEL = {AIR: " in the Air", SUB: " under water"}
_TRANSPORT = {"BI", "JP", "JU", "SC"}
_PROJECTILE = {"R": "Rocket", "T": "Torpedo", "S": "SAM"}
#: 04/H9e kill codes; any other code is the type of the piece that caused the effect (H20).
_KILL = {"RK": "destroyed by a Rocket", "TK": "destroyed by a Torpedo", "SK": "destroyed by a SAM",
         "STK": "lost: stunned off the Ground", "CK": "converted"}


_RULE_ID = r"(?:\d\d/[A-Z§][\w.§]*|RUL-\d+|[A-Z]{1,2}-\d+)"
_LEADING = re.compile(rf"^({_RULE_ID}): (.*)$", re.S)
_TRAILING = re.compile(rf"^(.*?)\s*\(({_RULE_ID}(?:, {_RULE_ID})*)\)\s*$", re.S)


def split_rule(text: str) -> tuple[str, str]:
    """A message for people and its rule ids apart: ``"03/M0.10: a Tank cannot ..."`` and
    ``"... (04/U31, 02/D24)"`` give the words first (capitalised) and the ids second ("" if none)."""
    m = _LEADING.match(text)
    if m:
        words, rule = m.group(2), m.group(1)
    else:
        m = _TRAILING.match(text)
        words, rule = (m.group(1), m.group(2)) if m else (text, "")
    return (words[:1].upper() + words[1:] if words else words), rule


def kind_name(kind: str) -> str:
    """The piece type's name ("TA" -> "Tank"); an unknown token is returned as it is."""
    info = KINDS.get(kind)
    return info.name if info is not None else kind


def article_name(code: str) -> str:
    """The article type's name ("FL" -> "Flamer")."""
    return ARTICLE_NAMES.get(code, code)


def square(row: int, col: int, level: str = "G") -> str:
    """``(row,col)`` in U71 coordinates, with the level when it is not Ground."""
    return f"({row},{col}){_LEVEL.get(level, '')}"


def describe(action: Action, view: PlayerView | None = None) -> str:
    """One action in words; with ``view``, a Move onto a visible enemy says what it takes."""
    if isinstance(action, EndTurn):
        return "End Turn"
    if isinstance(action, Move):
        return _move(action, view)
    if isinstance(action, Fire):
        return _fire(action)
    if isinstance(action, PickUp):
        return f"{_piece(action.piece)} picks up {article_name(action.article)}"
    if isinstance(action, Drop):
        return f"{_piece(action.piece)} drops {article_name(action.article)}"
    if isinstance(action, Exchange):
        if action.swapped:
            return (f"{_piece(action.giver)} swaps {article_name(action.article)} for "
                    f"{article_name(action.swapped)} with {_piece(action.receiver)}")
        return f"{_piece(action.giver)} gives {article_name(action.article)} to {_piece(action.receiver)}"
    if isinstance(action, Reinforce):
        return f"Reinforcement: a {kind_name(action.kind)} enters at {square(action.row, action.col)}"
    raise TypeError(f"not an action: {action!r}")


def describe_turn(turn: Turn) -> str:
    """A whole history line (04/H7) in words: its parts in printing order, then the results."""
    parts = [describe(turn.move) if turn.move is not None else "no Move"]
    parts += [f"{_piece(t.piece)} carried to {square(t.row, t.col, t.level)}" for t in turn.transports]
    parts += [_fire(f) for f in turn.fires]
    for extra in (turn.pickup, turn.exchange, turn.reinforce, turn.drop):
        if extra is not None:
            parts.append(describe(extra))
    text = "; ".join(parts)
    if turn.results:
        text += " — " + ", ".join(_result(r) for r in turn.results)
    return text


# -- helpers -----------------------------------------------------------------------------------

def _piece(p: PieceDesc) -> str:
    return f"{kind_name(p.kind)} {square(p.row, p.col, p.level)}"


def _move(m: Move, view: PlayerView | None) -> str:
    text = f"{_piece(m.piece)} to {square(m.row, m.col, m.level)}"
    if m.passenger is not None:
        text += f", carrying {kind_name(m.passenger.kind)}"
    if m.doze:
        text += ", nudging " + ", ".join(kind_name(k) for k, _, _ in m.doze)
    if view is not None:
        taken = [s for s in view.seen if (s.row, s.col, s.level) == (m.row, m.col, m.level)]
        if taken:
            text += ", takes " + " and ".join(kind_name(s.kind) for s in taken)
    return text


def _fire(f: Fire) -> str:
    who, what = _piece(f.piece), article_name(f.article)
    if f.article in _TRANSPORT:
        return f"{who} uses the {what} to go to {square(f.row, f.col)}"
    if f.target is not None:
        return f"{who} fires {what} at {_piece(f.target)}"
    return f"{who} fires {what} towards {square(f.row, f.col)}"


def _result(r: Result) -> str:
    """04/H20 in words (the recommended readings)."""
    side = {"B": "Black ", "W": "White "}.get(r.colour, "")
    if r.form == "*" and r.piece is not None:
        happened = _KILL.get(r.kind) or f"hit by {kind_name(r.kind)}"
        text = f"{side}{_piece(r.piece)} {happened}"
        return text + (f", stunned for {r.stun}" if r.stun else "")
    if r.kind in _PROJECTILE:
        where = square(r.row, r.col)
        return f"{_PROJECTILE[r.kind]} at {where}" if r.form == "->" else f"{_PROJECTILE[r.kind]} ended at {where}"
    return f"{kind_name(r.kind)} stopped at {square(r.row, r.col)}"
