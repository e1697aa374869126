"""Helpers for the movement tests (03/M0, 03/M1): positions, destination sets, offsets file.

Expected values in the tests are derived from the rules or from the copy of the verified
offsets in ``tests/data/movement-offsets.json``, never from the engine. Squares are written
``e4`` (file a..j = column 1..10, rank = row); a destination cell is written ``"e4"`` on the
Ground, ``"e4^"`` in the Air and ``"e4v"`` at the Sub level.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from engine.actions import Move
from engine.api import apply_action, legal_actions, parse_action
from engine.options import Options
from engine.position import parse_position
from engine.state import GameState

OFFSETS = json.loads((Path(__file__).parent / "data" / "movement-offsets.json").read_text())
WC = OFFSETS["movement_types"]["weaponized_chess"]

FILES = "abcdefghij"
MARK = {"G": "", "A": "^", "S": "v"}


def sq(name: str) -> tuple[int, int]:
    """``e4`` -> (row 4, col 5)."""
    return int(name[1:]), FILES.index(name[0]) + 1


def name(row: int, col: int, level: str = "G") -> str:
    """(4, 5, "A") -> ``e4^``."""
    return f"{FILES[col - 1]}{row}{MARK[level]}"


def on_board(row: int, col: int) -> bool:
    return 1 <= row <= 10 and 1 <= col <= 10


def to_square(side: str, origin: tuple[int, int], off: Iterable[int]) -> tuple[int, int]:
    """An own offset (dx right, dy forward) from ``origin`` as a board square (03/M0.1).

    Black: (dcol, drow) = (dx, dy); White: (dcol, drow) = (-dx, -dy).
    """
    dx, dy = off
    r, c = origin
    return (r + dy, c + dx) if side == "B" else (r - dy, c - dx)


def pos(text: str, **options: object) -> GameState:
    """A position (engine.position format) with the given options."""
    return parse_position(text, Options(**options) if options else None)  # type: ignore[arg-type]


def moves(state: GameState, at: str, level: str = "G", kind: str | None = None) -> list[Move]:
    """Legal Moves of the piece(s) standing on cell ``at``/``level`` (optionally of one kind)."""
    r, c = sq(at)
    return [a for a in legal_actions(state) if isinstance(a, Move)
            and (a.piece.row, a.piece.col, a.piece.level) == (r, c, level)
            and (kind is None or a.piece.kind == kind)]


def dests(state: GameState, at: str, level: str = "G", kind: str | None = None) -> set[str]:
    """Destination cells of plain Moves (no passenger, no nudge) of the piece on ``at``."""
    return {name(m.row, m.col, m.level) for m in moves(state, at, level, kind)
            if m.passenger is None and not m.doze}


def all_moves(state: GameState) -> set[str]:
    """Every legal Move, as ``"e4->e5^"`` strings (piece square and level -> destination)."""
    return {f"{name(m.piece.row, m.piece.col, m.piece.level)}->{name(m.row, m.col, m.level)}"
            for m in legal_actions(state) if isinstance(m, Move)}


def play(state: GameState, *actions: str) -> GameState:
    """Apply actions given in notation (``END`` ends the turn)."""
    for text in actions:
        state = apply_action(state, parse_action(text))
    return state


def where(state: GameState) -> set[tuple[str, str, str]]:
    """Placement of every piece: (side, kind+hand, cell)."""
    return {(p.side, p.kind + p.hand, name(p.row, p.col, p.level)) for p in state.pieces.values()}
