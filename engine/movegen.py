"""Move generation for Weaponized Chess movement (03/M0, 03/M1; RUL-21..RUL-27).

Moves are generated from the mover's own view: enemy pieces hidden from the mover are
treated as absent (03/M0.11, RUL-3). Each generated ``Move`` knows its path (``MovePlan``)
so that resolution (``engine.rules``) can ask the answerer about hidden pieces on it.
"""
from __future__ import annotations

from itertools import combinations

from . import movetypes      # 03/M2, 03/M3 (02/D1)
from .actions import AIR, GROUND, SUB, Move
from .board import KING_STEPS, can_enter, coexists, on_board, to_board
from .descs import describe
from .moveplan import MovePlan, chopper_routes
from .pieces import KINDS, native_levels
from .state import Cell, GameState, Piece
from .visibility import hidden_from

PAWN_MOVES = ((-1, 1), (1, 1))
PAWN_DOUBLE = ((-2, 2), (2, 2))
PAWN_ATTACKS = ((0, 1), (-1, 0), (1, 0))
ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))      # forward, right, back, left (03/M1.8.1)
DIAG = ((1, 1), (1, -1), (-1, -1), (-1, 1))      # forward-right, back-right, back-left, forward-left
CHOPPER = {
    ">": ((-2, 2), (1, 2), (2, 2), (-2, 1), (2, -1), (-2, -2), (-1, -2), (2, -2)),   # 03/M1.10.1
    "<": ((-2, 2), (-1, 2), (2, 2), (2, 1), (-2, -1), (-2, -2), (1, -2), (2, -2)),
}
MOVE_RULE = {
    "pawn": "03/M1.1", "king": "03/M1.2", "step": "03/M1.4", "sub": "03/M1.6", "jet": "03/M1.7",
    "tank": "03/M1.8", "cleric": "03/M1.9", "chopper": "03/M1.10", "queen": "03/M1.11",
}


def turn_right(d: tuple[int, int]) -> tuple[int, int]:
    """Own direction turned 90 degrees to the right."""
    return (d[1], -d[0])


def turn_left(d: tuple[int, int]) -> tuple[int, int]:
    """Own direction turned 90 degrees to the left."""
    return (-d[1], d[0])


def tank_path(d: tuple[int, int], hand: str) -> list[tuple[int, int]]:
    """Own offsets of the 8 steps of a Tank path (03/M1.8.1)."""
    h = turn_right(d) if hand == ">" else turn_left(d)
    out = []
    for k in range(1, 9):
        if k <= 4:
            out.append((k * d[0], k * d[1]))
        else:
            n = k - 4
            out.append((4 * d[0] + n * (d[0] + h[0]), 4 * d[1] + n * (d[1] + h[1])))
    return out


def cleric_path(d: tuple[int, int], hand: str) -> list[tuple[int, int]]:
    """Own offsets of the 8 steps of a Cleric path (03/M1.9.1)."""
    t = turn_right(d) if hand == ">" else turn_left(d)
    out = [(k * d[0], k * d[1]) for k in range(1, 6)]
    out.append((5 * d[0] + t[0], 5 * d[1] + t[1]))
    out.append((5 * d[0] + 2 * t[0], 5 * d[1] + 2 * t[1]))
    out.append((6 * d[0] + 2 * t[0], 6 * d[1] + 2 * t[1]))
    return out


def ranged_paths(kind: str, hand: str, state: GameState) -> list[tuple[list[tuple[int, int]], int]]:
    """(own path, range) pairs of a Tank, Cleric or Queen (03/M1.8, M1.9, M1.11; RUL-21)."""
    o = state.options
    if kind == "TA":
        return [(tank_path(d, hand), o.tank_range) for d in ORTHO]
    if kind == "CL":
        return [(cleric_path(d, hand), o.cleric_range) for d in DIAG]
    paths = []
    for h in (">", "<"):
        paths += [(tank_path(d, h), o.queen_tank_range) for d in ORTHO]
    for h in (">", "<"):
        paths += [(cleric_path(d, h), o.queen_cleric_range) for d in DIAG]
    return paths


class _Gen:
    """Move generation for one side in one state."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.hidden = hidden_from(state, side)
        self.nudges = True                    # False: a caller checking a plain Move only
        self.cells = state.cells()
        self.occupied = {cell for cell, sids in self.cells.items()
                         if any(s not in self.hidden for s in sids)}

    def visible_at(self, r: int, c: int, lv: str) -> tuple[int, ...]:
        """Pieces on a cell as the mover sees them."""
        return tuple(s for s in self.cells.get((r, c, lv), ()) if s not in self.hidden)

    def clear(self, r: int, c: int, lv: str) -> bool:
        """No piece seen on the cell (03/M0.9)."""
        return 1 <= r <= 10 and 1 <= c <= 10 and (r, c, lv) not in self.occupied

    def enter(self, movers: list[Piece], r: int, c: int, lv: str, capture: bool,
              leaving: frozenset[int] = frozenset()) -> bool:
        """Legally enterable as the mover sees it."""
        if len(movers) == 1 and (r, c, lv) not in self.cells and 1 <= r <= 10 and 1 <= c <= 10:
            return True          # a lone mover into an empty cell (what can_enter finds)
        return can_enter(self.state, movers, r, c, lv, capture=capture, leaving=leaving,
                         hidden=self.hidden)

    def sees_enemy(self, r: int, c: int, lv: str) -> bool:
        """A visible enemy piece on the cell."""
        return any(self.state.pieces[s].side != self.side for s in self.visible_at(r, c, lv))

    # -- per piece ------------------------------------------------------------------------------
    def moves(self, p: Piece) -> list[MovePlan]:
        """Every legal Move of piece ``p`` (none if it cannot Move now)."""
        st = self.state
        if p.stun > 0 or p.trip is not None or p.sid in st.turn.transported:
            return []            # RUL-11, RUL-31, RUL-30
        if p.level not in native_levels(p.kind):
            return []            # a passenger off its native level has no Moves (RUL-25)
        if st.options.movement_type != "weaponized_chess":
            return movetypes.moves(self, p)
        movement = KINDS[p.kind].movement
        if movement == "pawn":
            plans = self._pawn(p)
        elif movement in ("king", "step"):
            plans = self._steps(p, KINDS[p.kind].combat)
            if p.kind == "DO":
                plans += self._nudges(p) if self.nudges else []
        elif movement == "sub":
            plans = self._carried(p, self._sub(p))
        elif movement == "jet":
            plans = self._jet(p)
        elif movement == "chopper":
            plans = self._chopper(p)
        else:
            plans = self._ranged(p)
        return plans

    def _plan(self, p: Piece, r: int, c: int, lv: str, cells: list[Cell], capture: bool,
              **extra: object) -> MovePlan:
        move = Move(describe(self.state, p), lv, r, c)
        return MovePlan(move, p.sid, tuple(cells), capture, **extra)  # type: ignore[arg-type]

    def _pawn(self, p: Piece) -> list[MovePlan]:
        out = []
        for dx, dy in PAWN_MOVES:            # 03/M1.1.2, RUL-27: move squares never capture
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if on_board(r, c) and self.enter([p], r, c, p.level, capture=False):
                out.append(self._plan(p, r, c, p.level, [(r, c, p.level)], False))
        if p.origin:                          # 03/M1.1.3, A-14
            for dx, dy in PAWN_DOUBLE:
                dr, dc = to_board(p.side, dx, dy)
                mr, mc = p.row + dr // 2, p.col + dc // 2
                r, c = p.row + dr, p.col + dc
                if (on_board(r, c) and self.clear(mr, mc, p.level)
                        and self.enter([p], r, c, p.level, capture=False)):
                    out.append(self._plan(p, r, c, p.level,
                                          [(mr, mc, p.level), (r, c, p.level)], False))
        for dx, dy in PAWN_ATTACKS:           # attack squares: only to take a visible enemy
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if (on_board(r, c) and self.sees_enemy(r, c, p.level)
                    and self.enter([p], r, c, p.level, capture=True)):
                out.append(self._plan(p, r, c, p.level, [(r, c, p.level)], True))
        return out

    def _steps(self, p: Piece, combat: bool) -> list[MovePlan]:
        out = []
        for dx, dy in KING_STEPS:            # 03/M1.2.2, M1.3.2, M1.4.2, M1.5.2
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if on_board(r, c) and self.enter([p], r, c, p.level, capture=combat):
                out.append(self._plan(p, r, c, p.level, [(r, c, p.level)], combat))
        return out

    def _sub(self, p: Piece) -> list[tuple[int, int, str, list[Cell]]]:
        """Sub destinations (03/M1.6): 8 steps on its level, dive or surface in place."""
        out = []
        for dx, dy in KING_STEPS:
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if on_board(r, c):
                out.append((r, c, p.level, [(r, c, p.level)]))
        other = SUB if p.level == GROUND else GROUND
        out.append((p.row, p.col, other, [(p.row, p.col, other)]))
        return out

    def _carried(self, p: Piece, dests: list[tuple[int, int, str, list[Cell]]]) -> list[MovePlan]:
        """Sub Moves with and without a passenger (RUL-25); the Sub never captures."""
        out = []
        passengers = self._passengers(p)
        for r, c, lv, cells in dests:
            if None in passengers and self.enter([p], r, c, lv, capture=False):
                out.append(self._plan(p, r, c, lv, cells, False))
            for q in passengers:
                if q is not None and self._passenger_ok(q, lv) and \
                        self.enter([p, q], r, c, lv, capture=False):
                    move = Move(describe(self.state, p), lv, r, c, describe(self.state, q))
                    out.append(MovePlan(move, p.sid, tuple(cells), False, passenger=q.sid))
        return out

    def _passengers(self, p: Piece) -> list[Piece | None]:
        """Who may ride along: None (nobody) unless a passenger off its native level must (RUL-25)."""
        st = self.state
        mates = [st.pieces[s] for s in self.cells.get(p.cell, ()) if s != p.sid]
        if any(q.side != p.side for q in mates):
            return [None]                    # no carrying across a mixed cell (RUL-14)
        stranded = [q for q in mates if q.trip is None          # a traveller is at home (RUL-25)
                    and q.level not in native_levels(q.kind)]
        ok = [q for q in mates if q.stun == 0 and q.trip is None]
        if stranded:
            return [q for q in stranded if q in ok]      # must take it; stunned: no Move at all
        return [None, *ok]

    def _passenger_ok(self, q: Piece, level: str) -> bool:
        """A primary piece may leave the Ground only with ``primary_may_fly_or_dive`` (01/§20 O3)."""
        if level != GROUND and KINDS[q.kind].role == "primary":
            return self.state.options.primary_may_fly_or_dive
        return True

    def _jet(self, p: Piece) -> list[MovePlan]:
        out = []
        if p.level == GROUND:                 # 03/M1.7.2: a Jet on the Ground only launches
            if self.enter([p], p.row, p.col, AIR, capture=False):
                out.append(self._plan(p, p.row, p.col, AIR, [(p.row, p.col, AIR)], False))
            return out
        if self.enter([p], p.row, p.col, GROUND, capture=False):
            out.append(self._plan(p, p.row, p.col, GROUND, [(p.row, p.col, GROUND)], False))
        for dx, dy in KING_STEPS:             # 03/M1.7.3, A-13: 1 or 2 squares on a line
            dr, dc = to_board(p.side, dx, dy)
            for n in (1, 2):
                r, c = p.row + n * dr, p.col + n * dc
                if not on_board(r, c):
                    break
                cells = [(p.row + k * dr, p.col + k * dc, AIR) for k in range(1, n + 1)]
                if self.enter([p], r, c, AIR, capture=False):
                    out.append(self._plan(p, r, c, AIR, cells, False))
                if not self.clear(r, c, AIR):
                    break                     # 03/M1.7.5: the intermediate Air cell must be empty
        return out

    def _ranged(self, p: Piece) -> list[MovePlan]:
        out = []
        seen = set()
        for path, rng in ranged_paths(p.kind, p.hand, self.state):
            squares = []
            for dx, dy in path[:rng]:
                dr, dc = to_board(p.side, dx, dy)
                squares.append((p.row + dr, p.col + dc))
            r, c = squares[-1]
            if not on_board(r, c) or (r, c) in seen:
                continue
            if all(self.clear(sr, sc, p.level) for sr, sc in squares[:-1]) and \
                    self.enter([p], r, c, p.level, capture=True):
                seen.add((r, c))
                out.append(self._plan(p, r, c, p.level, [(sr, sc, p.level) for sr, sc in squares],
                                      True))
        return out

    def _chopper(self, p: Piece) -> list[MovePlan]:
        out = []
        passengers = self._passengers(p)
        for dx, dy in CHOPPER[p.hand or ">"]:
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if not on_board(r, c):
                continue
            for lv in ((GROUND, AIR) if p.level == GROUND else (GROUND,)):   # 03/M1.10.2
                # every route cell is on the board (chopper_routes): clear = not occupied
                routes = [rt for rt in chopper_routes(p.cell, (r, c, lv))
                          if self.occupied.isdisjoint(rt[:-1])]
                if not routes:
                    continue                                                # 03/M1.10.3
                for q in passengers:
                    movers = [p] if q is None else [p, q]
                    if q is not None and not self._passenger_ok(q, lv):
                        continue
                    if not self.enter(movers, r, c, lv, capture=True):
                        continue
                    move = Move(describe(self.state, p), lv, r, c,
                                None if q is None else describe(self.state, q))
                    out.append(MovePlan(move, p.sid, routes[0], True,
                                        passenger=0 if q is None else q.sid,
                                        routes=tuple(routes)))
        return out

    def _nudges(self, p: Piece) -> list[MovePlan]:
        """Bulldozer nudges (03/M1.3, RUL-26)."""
        st = self.state
        if p.level != GROUND:
            return []
        mates = [st.pieces[s] for s in self.visible_at(*p.cell) if s != p.sid]
        if len(mates) != 1 or mates[0].side != p.side or mates[0].stun:
            return []                         # exactly one co-located friendly, not stunned
        mate = mates[0]
        squares = []
        for dx, dy in KING_STEPS:
            dr, dc = to_board(p.side, dx, dy)
            r, c = p.row + dr, p.col + dc
            if not on_board(r, c):
                continue
            members = [st.pieces[s] for s in self.visible_at(r, c, GROUND)]
            if not members or any(m.stun for m in members):
                continue
            if not st.options.enemy_nudging and any(m.side != p.side for m in members):
                continue                      # 02/D20
            squares.append(((r, c), members))
        out = []
        home = (p.row, p.col)
        for dx, dy in KING_STEPS:
            dr, dc = to_board(p.side, dx, dy)
            if not on_board(p.row + dr, p.col + dc):
                continue
            usable = [(sq, ms) for sq, ms in squares if on_board(sq[0] + dr, sq[1] + dc)]
            # A landing cell receives the pieces of exactly one member square; it keeps its
            # own Ground pieces unless they are members too. So each member square is fine
            # or not depending only on whether its landing square is a member square.
            alone, beside = {}, {}
            for sq, ms in [(home, [p, mate]), *usable]:
                land = (sq[0] + dr, sq[1] + dc)
                stay = [st.pieces[s] for s in self.visible_at(land[0], land[1], GROUND)]
                alone[sq] = _group_ok(st, ms)
                beside[sq] = _group_ok(st, ms + stay)
            for n in range(len(usable) + 1):
                for combo in combinations(usable, n):
                    members = [m for _, ms in combo for m in ms]
                    if len(members) > 4:
                        continue                  # 03/M1.3.5
                    chosen = {home} | {sq for sq, _ in combo}
                    if not all((alone if (sq[0] + dr, sq[1] + dc) in chosen else beside)[sq]
                               for sq in chosen):
                        continue                  # 03/M1.3.6: direction blocked
                    doze = tuple((m.kind, m.row, m.col) for m in [mate, *members])
                    move = Move(describe(st, p), GROUND, p.row + dr, p.col + dc, doze=doze)
                    out.append(MovePlan(move, p.sid, ((p.row + dr, p.col + dc, GROUND),),
                                        False, members=tuple(m.sid for m in [mate, *members]),
                                        shift=(dr, dc)))
        return out


def _group_ok(state: GameState, group: list[Piece]) -> bool:
    """One Ground cell can hold these pieces together (01/R5.1, R5.3, R5.4)."""

    if len(group) > 2 or len({x.side for x in group}) > 1:
        return False
    return len(group) < 2 or coexists(state, group[0].kind) or coexists(state, group[1].kind)


def shift_ok(state: GameState, group: list[Piece], dr: int, dc: int,
             hidden: frozenset[int]) -> bool:
    """Every member lands on the board in a Ground cell that can hold it (03/M1.3.6)."""

    ids = {m.sid for m in group}
    landing: dict[tuple[int, int], list[Piece]] = {}
    for m in group:
        r, c = m.row + dr, m.col + dc
        if not (1 <= r <= 10 and 1 <= c <= 10):
            return False
        landing.setdefault((r, c), []).append(m)
    cells = state.cells()
    pieces = state.pieces
    for (r, c), arriving in landing.items():
        everyone = [pieces[s] for s in cells.get((r, c, GROUND), ())
                    if s not in ids and s not in hidden] + arriving
        n = len(everyone)
        if n > 2:
            return False
        if n == 2 and (everyone[0].side != everyone[1].side or not (
                coexists(state, everyone[0].kind) or coexists(state, everyone[1].kind))):
            return False
    return True


def piece_moves(state: GameState, side: str, p: Piece, nudges: bool = True) -> list[MovePlan]:
    """The legal Moves of one piece of ``side`` (the same plans ``generate`` lists for it);
    with ``nudges`` False a Bulldozer's nudges are left out (checking a plain Move)."""
    cached = state._cache.get(("moves", side))
    if cached is not None:
        return [pl for pl in cached if pl.sid == p.sid and (nudges or not pl.members)]
    gen = state._cache.get(("gen", side, nudges))
    if gen is None:
        gen = state._cache[("gen", side, nudges)] = _Gen(state, side)
        gen.nudges = nudges
    return gen.moves(p)


def generate(state: GameState, side: str) -> list[MovePlan]:
    """All legal Moves of ``side`` from its view, by piece serial (cached per state)."""
    key = ("moves", side)
    cached = state._cache.get(key)
    if cached is None:
        gen = _Gen(state, side)
        cached = []
        for sid in sorted(state.pieces):
            p = state.pieces[sid]
            if p.side == side:
                cached.extend(gen.moves(p))
        state._cache[key] = cached
    return cached
