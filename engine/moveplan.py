"""What the move generators share: ``MovePlan`` (a legal Move and what resolving it needs),
the Chopper's 3D routes, and ``MoveGenerator``, the part of ``engine.movegen``'s generator the
other movement types (``engine.movetypes``) build on."""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Protocol

from .actions import AIR, GROUND, Move
from .board import on_board
from .state import Cell, GameState, Piece


class MovePlan(NamedTuple):
    """A legal Move and what resolving it needs (an immutable record; a named tuple because
    the generator makes one per Move and a tuple is built in half the time of a frozen
    dataclass)."""

    move: Move
    sid: int
    cells: tuple[Cell, ...]            # cells entered in order, destination last
    capture: bool                      # combat Move (03/M0.7)
    passenger: int = 0
    routes: tuple[tuple[Cell, ...], ...] = ()   # Chopper routes seen as free, in RUL-44 order
    members: tuple[int, ...] = ()      # nudge members other than the Bulldozer
    shift: tuple[int, int] = (0, 0)    # nudge displacement (drow, dcol)


@lru_cache(maxsize=None)
def chopper_routes(start: Cell, dest: Cell) -> tuple[tuple[Cell, ...], ...]:
    """3D routes of a Chopper (03/M1.10.3), in RUL-23/RUL-44 order; the start cell is excluded."""
    (sr, sc, sl), (dr_, dc_, dl) = start, dest
    routes = []
    for mr in range(sr - 1, sr + 2):
        for mc in range(sc - 1, sc + 2):
            if (mr, mc) == (sr, sc) or max(abs(dr_ - mr), abs(dc_ - mc)) != 1:
                continue
            if not on_board(mr, mc):
                continue
            for l1 in (GROUND, AIR):          # level flown from the start to the middle square
                for l2 in (GROUND, AIR):      # level flown from the middle to the destination
                    cells: list[Cell] = []
                    if l1 != sl:
                        cells.append((sr, sc, l1))
                    cells.append((mr, mc, l1))
                    if l2 != l1:
                        cells.append((mr, mc, l2))
                    cells.append((dr_, dc_, l2))
                    if dl != l2:
                        cells.append((dr_, dc_, dl))
                    routes.append(tuple(cells))
    def key(route: tuple[Cell, ...]) -> tuple[object, ...]:
        airs = sum(1 for cell in route if cell[2] == AIR)
        squares = [cell[:2] for cell in route if cell[:2] not in ((sr, sc), (dr_, dc_))]
        return (airs, squares, [0 if cell[2] == GROUND else 1 for cell in route])
    routes.sort(key=key)
    return tuple(routes)


class MoveGenerator(Protocol):
    """Move generation for one side in one state (``engine.movegen._Gen``), as
    ``engine.movetypes`` uses it."""

    state: GameState
    side: str
    nudges: bool

    def clear(self, r: int, c: int, lv: str) -> bool: ...

    def enter(self, movers: list[Piece], r: int, c: int, lv: str, capture: bool,
              leaving: frozenset[int] = frozenset()) -> bool: ...

    def sees_enemy(self, r: int, c: int, lv: str) -> bool: ...

    def _plan(self, p: Piece, r: int, c: int, lv: str, cells: list[Cell], capture: bool,
              **extra: object) -> MovePlan: ...

    def _steps(self, p: Piece, combat: bool) -> list[MovePlan]: ...

    def _sub(self, p: Piece) -> list[tuple[int, int, str, list[Cell]]]: ...

    def _passengers(self, p: Piece) -> list[Piece | None]: ...

    def _passenger_ok(self, q: Piece, level: str) -> bool: ...

    def _nudges(self, p: Piece) -> list[MovePlan]: ...
