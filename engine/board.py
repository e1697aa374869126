"""Board geometry and square capacity (01/R1, 01/R5, 03/M0.1, RUL-8, RUL-24)."""
from __future__ import annotations

from typing import Iterable

from .actions import AIR, GROUND, SUB
from .pieces import KINDS
from .state import BLACK, GameState, Piece

KING_STEPS = ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1))
LEVEL_ORDER = {GROUND: 0, AIR: 1, SUB: 2}

_COEXIST_SETS = {
    "union": frozenset({"SU", "CH", "JE", "DO", "DS", "AAA"}),      # RUL-24 default
    "overview": frozenset({"SU", "CH", "DO", "DS", "AAA"}),          # 01/R5.5
    "glossary": frozenset({"SU", "CH", "JE", "DS", "AAA"}),          # 02/G35
}


def on_board(row: int, col: int) -> bool:
    """True for squares of the 10x10 board."""
    return 1 <= row <= 10 and 1 <= col <= 10


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Chebyshev distance between squares, ignoring levels (RUL-8)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def to_board(side: str, dx: int, dy: int) -> tuple[int, int]:
    """Own offset (dx right, dy forward) to (drow, dcol) on the board (03/M0.1)."""
    return (dy, dx) if side == BLACK else (-dy, -dx)


def coexists(state: GameState, kind: str) -> bool:
    """Whether a piece type has Coexistence under the option ``coexistence_set`` (RUL-24)."""
    return kind in _COEXIST_SETS[state.options.coexistence_set]


def is_mixed(state: GameState, row: int, col: int, level: str) -> bool:
    """A cell holding pieces of both sides (RUL-14)."""
    sides = {state.pieces[s].side for s in state.at(row, col, level)}
    return len(sides) > 1


def can_enter(state: GameState, movers: Iterable[Piece], row: int, col: int, level: str, *,
              capture: bool, leaving: frozenset[int] = frozenset(),
              hidden: frozenset[int] = frozenset()) -> bool:
    """Whether ``movers`` may all arrive in a cell (the 'legally enterable' test of 00 conventions).

    ``leaving`` are pieces that leave the cell in the same motion; ``hidden`` are enemy pieces
    the mover cannot see, treated as absent (03/M0.11). With ``capture`` the enemy pieces
    there are taken (03/M0.10); otherwise any enemy there forbids the entry.
    """
    movers = list(movers)
    if not on_board(row, col):
        return False
    side = movers[0].side
    ids = {m.sid for m in movers}
    occupants = [state.pieces[s] for s in state.at(row, col, level)
                 if s not in ids and s not in leaving and s not in hidden]
    friends = [o for o in occupants if o.side == side]
    enemies = [o for o in occupants if o.side != side]
    if enemies and (not capture or friends):
        return False          # non-combat entry, or a mixed cell (RUL-14, A-22)
    group = friends + movers
    if len(group) > 2:
        return False          # 01/R5.1
    if len(group) == 2 and not any(coexists(state, p.kind) for p in group):
        return False          # 01/R5.4
    return True


def capacity(state: GameState, piece: Piece) -> int:
    """How many articles a piece may hold (RUL-28)."""
    if piece.kind == "XP":
        return 2
    if "XXX" in state.codes(piece):
        return 3
    return 1


def has_ability(state: GameState, piece: Piece, code: str) -> bool:
    """Inherent or held article ability (01/R10.5)."""
    return code in KINDS[piece.kind].inherent or code in state.codes(piece)


def levels() -> tuple[str, str, str]:
    """Ground, Air, Sub."""
    return (GROUND, AIR, SUB)
