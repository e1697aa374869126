"""Piece descriptions (04/H11): describing a piece as it is now, and finding the pieces a
description names (docs/rulings.md E-6)."""
from __future__ import annotations

from .actions import PieceDesc
from .errors import RuleError
from .notation import format_piece
from .state import GameState, Piece


def describe(state: GameState, p: Piece) -> PieceDesc:
    """The notation description of a piece as it is now (04/H11)."""
    descs = state.shared("desc")              # sid -> (piece value, its description)
    e = descs.get(p.sid)
    if e is None or e[0] is not p:
        e = descs[p.sid] = (p, PieceDesc(p.kind, p.level, p.row, p.col, state.codes(p), p.hand))
    return e[1]


def resolve(state: GameState, desc: PieceDesc, side: str | None, rule: str = "04/H11") -> Piece:
    """The piece a description names (lowest serial among exact matches).

    :raises RuleError: no piece of ``side`` matches the description.
    """
    return resolve_all(state, desc, side, rule)[0]


def resolve_all(state: GameState, desc: PieceDesc, side: str | None,
                rule: str = "04/H11") -> list[Piece]:
    """Every piece a description fits exactly, by serial (docs/rulings.md E-6).

    :raises RuleError: no piece of ``side`` matches the description.
    """
    kind = {"STP": "SP"}.get(desc.kind, desc.kind)
    found = []
    for sid in state.at(desc.row, desc.col, desc.level):
        p = state.pieces[sid]
        if (p.kind == kind and p.hand == desc.orient and state.codes(p) == desc.articles
                and (side is None or p.side == side)):
            found.append(p)
    if found:
        return found
    who = "" if side is None else f" of {'Black' if side == 'B' else 'White'}"
    raise RuleError(rule, f"no piece{who} matches {format_piece(desc)}")
