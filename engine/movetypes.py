"""Standard Chess and Mass Destruction Chess movement (03/M2, 03/M3; 02/D1).

``engine.movegen._Gen.moves`` (an ``engine.moveplan.MoveGenerator``) hands every piece here
when the option ``movement_type`` is not ``weaponized_chess``. Plans are built exactly as the Weaponized Chess generator builds them
(``MovePlan.cells`` = cells entered in order, destination last; Chopper ``routes`` in RUL-44
order), so resolution in ``engine.rules`` (stop at hidden enemies, capture) is shared:

* King, Bulldozer (and nudge), Destroyer and AAA move as in M1 (03/M2.2-M2.5, M3.2-M3.5);
* Sub and Jet move as in M1, combat only with ``sub_jet_combat`` (03/M2.6, M2.7, M3.6, M3.7);
* Pawn, Tank, Cleric, Chopper and Queen have the geometry of their movement type.
"""
from __future__ import annotations

from functools import lru_cache

from .actions import AIR, GROUND, Move
from .board import KING_STEPS, on_board, to_board
from .descs import describe
from .moveplan import MoveGenerator, MovePlan, chopper_routes
from .pieces import KINDS
from .state import Cell, Piece

STANDARD, MASS = "standard_chess", "mass_destruction_chess"

ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))      # forward, right, back, left
DIAG = ((1, 1), (1, -1), (-1, -1), (-1, 1))      # forward-right, back-right, back-left, forward-left
#: the 8 directions in clockwise order; turning by 45 degrees n times = index + n
COMPASS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

# 03/M2.1: chess pawn
STD_PAWN_MOVE = (0, 1)
STD_PAWN_DOUBLE = (0, 2)
STD_PAWN_ATTACKS = ((-1, 1), (1, 1))
# 03/M3.1.3-M3.1.5: Mass Destruction pawn variants (move = attack)
MD_PAWNS = {
    "all_sides_and_forward": ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0)),
    "all_forward": ((-1, 1), (0, 1), (1, 1)),
    "all_but_directly_ahead": ((-1, 1), (1, 1), (-1, 0), (1, 0)),
}
# 03/M2.10.1: both hands reach the 8 knight's-move squares
STD_CHOPPER = ((-1, 2), (1, 2), (-2, 1), (2, 1), (-2, -1), (2, -1), (-1, -2), (1, -2))
# 03/M3.10.1
MD_CHOPPER = {
    ">": ((1, 3), (-2, 2), (2, 2), (-3, 1), (3, -1), (-2, -2), (2, -2), (-1, -3)),
    "<": ((-1, 3), (-2, 2), (2, 2), (3, 1), (-3, -1), (-2, -2), (2, -2), (1, -3)),
}
ZIGZAG = (1, 0, -1, 0, 1, 0, -1, 0)              # 03/M3.8.1 sideways offset after steps 1..8
SPIRAL_TURNS = (0, 2, 2, 3, 3, 4, 4, 4)           # 03/M3.9.1 step k turns d by 45 deg * this

#: rule named when a Move of this movement class is refused (03/M2, M3)
MOVE_RULE = {
    STANDARD: {"pawn": "03/M2.1", "king": "03/M2.2", "step": "03/M2.3", "sub": "03/M2.6",
               "jet": "03/M2.7", "tank": "03/M2.8", "cleric": "03/M2.9",
               "chopper": "03/M2.10", "queen": "03/M2.11"},
    MASS: {"pawn": "03/M3.1", "king": "03/M3.2", "step": "03/M3.3", "sub": "03/M3.6",
           "jet": "03/M3.7", "tank": "03/M3.8", "cleric": "03/M3.9", "chopper": "03/M3.10",
           "queen": "03/M3.11"},
}

Offset = tuple[int, int]


# -- geometry (own offsets: dx to the mover's right, dy forward; 03/M0.1) ---------------------

def _turn(d: Offset, eighths: int) -> Offset:
    """``d`` turned clockwise by ``eighths`` x 45 degrees (negative: anticlockwise)."""
    return COMPASS[(COMPASS.index(d) + eighths) % 8]


def _hand_side(d: Offset, hand: str) -> Offset:
    """``d`` turned 90 degrees towards the piece's hand (right = clockwise)."""
    return _turn(d, 2 if hand == ">" else -2)


@lru_cache(maxsize=None)
def line_path(d: Offset) -> tuple[Offset, ...]:
    """8 steps straight along ``d`` (03/M2.8.1, M2.9.1)."""
    return tuple((k * d[0], k * d[1]) for k in range(1, 9))


@lru_cache(maxsize=None)
def zigzag_path(d: Offset, hand: str) -> tuple[Offset, ...]:
    """Mass Destruction Tank path: step k = k*d + z(k)*h (03/M3.8.1)."""
    h = _hand_side(d, hand)
    return tuple((k * d[0] + z * h[0], k * d[1] + z * h[1])
                 for k, z in zip(range(1, 9), ZIGZAG))


@lru_cache(maxsize=None)
def spiral_path(d: Offset, hand: str) -> tuple[Offset, ...]:
    """Mass Destruction Cleric path (03/M3.9.1): steps d, d+90, d+90, d+135, d+135, d+180 x3,
    clockwise for the left Cleric and anticlockwise for the right one (M3.9.6: as labelled)."""
    sign = 1 if hand == "<" else -1
    x = y = 0
    out = []
    for n in SPIRAL_TURNS:
        sx, sy = _turn(d, sign * n)
        x, y = x + sx, y + sy
        out.append((x, y))
    return tuple(out)


def ranged_paths(movement: str, kind: str, hand: str, options) -> list[tuple[tuple[Offset, ...], int]]:
    """(own path, range) pairs of a Tank, Cleric or Queen (03/M2.8-M2.11, M3.8-M3.11; RUL-21).

    Queen order as in Weaponized Chess: right Tank, left Tank, right Cleric, left Cleric paths.
    """
    if movement == STANDARD:
        tank = {h: [line_path(d) for d in ORTHO] for h in (">", "<")}      # M2.8.2: no hand
        cleric = {h: [line_path(d) for d in DIAG] for h in (">", "<")}     # M2.9.2
    else:
        tank = {h: [zigzag_path(d, h) for d in ORTHO] for h in (">", "<")}
        cleric = {h: [spiral_path(d, h) for d in DIAG] for h in (">", "<")}
    if kind == "TA":
        return [(p, options.tank_range) for p in tank[hand or ">"]]
    if kind == "CL":
        return [(p, options.cleric_range) for p in cleric[hand or ">"]]
    hands = (">",) if movement == STANDARD else (">", "<")   # M2: both hands are the same paths
    out = []
    for h in hands:
        out += [(p, options.queen_tank_range) for p in tank[h]]
    for h in hands:
        out += [(p, options.queen_cleric_range) for p in cleric[h]]
    return out


@lru_cache(maxsize=None)
def chopper_routes3(start: Cell, dest: Cell) -> tuple[tuple[Cell, ...], ...]:
    """3D routes of 3 horizontal steps (03/M1.10.3, M3.10.2), in the RUL-23/RUL-44 order of
    ``moveplan.chopper_routes``; each step brings the Chopper one square closer (Chebyshev) and
    the Chopper may change between Ground and Air on any square it passes; start excluded."""
    (sr, sc, sl), (er, ec, el) = start, dest

    def closer(a: tuple[int, int], left: int) -> list[tuple[int, int]]:
        return [(a[0] + i, a[1] + j) for i in (-1, 0, 1) for j in (-1, 0, 1)
                if (i, j) != (0, 0) and on_board(a[0] + i, a[1] + j)
                and max(abs(er - a[0] - i), abs(ec - a[1] - j)) == left]

    routes = []
    for m1 in closer((sr, sc), 2):
        for m2 in closer(m1, 1):
            squares = [(sr, sc), m1, m2, (er, ec)]
            for bits in range(8):
                legs = [AIR if bits >> i & 1 else GROUND for i in range(3)]
                cells: list[Cell] = []
                level = sl
                for i, leg in enumerate(legs):
                    if leg != level:                     # change level on the square left
                        cells.append((*squares[i], leg))
                        level = leg
                    cells.append((*squares[i + 1], leg))
                if el != level:
                    cells.append((er, ec, el))
                routes.append(tuple(cells))

    def key(route: tuple[Cell, ...]) -> tuple[object, ...]:
        airs = sum(1 for cell in route if cell[2] == AIR)
        mids = [cell[:2] for cell in route if cell[:2] not in ((sr, sc), (er, ec))]
        return (airs, mids, [0 if cell[2] == GROUND else 1 for cell in route])
    routes.sort(key=key)
    return tuple(routes)


# -- generation -------------------------------------------------------------------------------

def sub_jet_combat(options) -> bool:
    """Sub and Jet Moves are combat (03/M2.0.4; M3.0.4: only with Move-Only; RUL-38)."""
    if not options.sub_jet_combat:
        return False
    if options.movement_type == STANDARD:
        return True
    return options.movement_type == MASS and options.move_only


def moves(gen: MoveGenerator, p: Piece) -> list[MovePlan]:
    """Every legal Move of ``p`` under Standard Chess or Mass Destruction movement.

    The caller (``_Gen.moves``) has already excluded stunned pieces, pieces on a trip or
    transported this turn, and passengers off their native level.
    """
    st = gen.state
    mt = st.options.movement_type
    movement = KINDS[p.kind].movement
    if movement == "pawn":
        return _std_pawn(gen, p) if mt == STANDARD else _md_pawn(gen, p)
    if movement in ("king", "step"):                 # M2.2-M2.5, M3.2-M3.5: as M1
        plans = gen._steps(p, KINDS[p.kind].combat)
        if p.kind == "DO":
            plans += gen._nudges(p) if gen.nudges else []
        return plans
    if movement == "sub":
        return _sub(gen, p, sub_jet_combat(st.options))
    if movement == "jet":
        return _jet(gen, p, sub_jet_combat(st.options))
    if movement == "chopper":
        if mt == STANDARD:
            return _chopper(gen, p, STD_CHOPPER)
        return _chopper(gen, p, MD_CHOPPER[p.hand or ">"])
    return _ranged(gen, p, ranged_paths(mt, p.kind, p.hand, st.options))


def _square(p: Piece, off: Offset) -> tuple[int, int]:
    dr, dc = to_board(p.side, *off)
    return p.row + dr, p.col + dc


def _std_pawn(gen: MoveGenerator, p: Piece) -> list[MovePlan]:
    """03/M2.1, RUL-27: (0,1) without taking, (0,2) from the starting square through a clear
    (0,1); (+-1,1) only to take a visible enemy. No en passant, no promotion (M2.1.2)."""
    out = []
    lv = p.level
    r, c = _square(p, STD_PAWN_MOVE)
    if on_board(r, c) and gen.enter([p], r, c, lv, capture=False):
        out.append(gen._plan(p, r, c, lv, [(r, c, lv)], False))
    if p.origin:                                     # M2.1.3, A-14: (0,1) must be clear too
        r2, c2 = _square(p, STD_PAWN_DOUBLE)
        if on_board(r2, c2) and gen.clear(r, c, lv) and \
                gen.enter([p], r2, c2, lv, capture=False):
            out.append(gen._plan(p, r2, c2, lv, [(r, c, lv), (r2, c2, lv)], False))
    for off in STD_PAWN_ATTACKS:
        r, c = _square(p, off)
        if on_board(r, c) and gen.sees_enemy(r, c, lv) and gen.enter([p], r, c, lv, capture=True):
            out.append(gen._plan(p, r, c, lv, [(r, c, lv)], True))
    return out


def _md_pawn(gen: MoveGenerator, p: Piece) -> list[MovePlan]:
    """03/M3.1: every square of the variant may be entered empty or to take (M3.1.1); no
    two-square move (M3.1.2)."""
    out = []
    for off in MD_PAWNS[gen.state.options.md_pawn_variant]:
        r, c = _square(p, off)
        if on_board(r, c) and gen.enter([p], r, c, p.level, capture=True):
            out.append(gen._plan(p, r, c, p.level, [(r, c, p.level)], True))
    return out


def _sub(gen: MoveGenerator, p: Piece, combat: bool) -> list[MovePlan]:
    """03/M2.6, M3.6: M1.6 Moves (with a passenger, RUL-25); combat when the option says so,
    diving and surfacing included (M2.6.2). A Sub that carries a passenger never takes: only a
    Chopper's Move captures while carrying (RUL-25, 01/R15.4)."""

    out = []
    passengers = gen._passengers(p)
    for r, c, lv, cells in gen._sub(p):
        if None in passengers and gen.enter([p], r, c, lv, capture=combat):
            out.append(gen._plan(p, r, c, lv, cells, combat))
        for q in passengers:
            if q is not None and gen._passenger_ok(q, lv) and \
                    gen.enter([p, q], r, c, lv, capture=False):
                move = Move(describe(gen.state, p), lv, r, c, describe(gen.state, q))
                out.append(MovePlan(move, p.sid, tuple(cells), False, passenger=q.sid))
    return out


def _jet(gen: MoveGenerator, p: Piece, combat: bool) -> list[MovePlan]:
    """03/M2.7, M3.7: M1.7 Moves; with combat, launch, landing and 1-square Air moves take,
    2-square Air moves never do (M2.7.2, M3.7.2). The intermediate Air cell must be clear."""
    out = []
    if p.level == GROUND:                            # M1.7.2: only the launch
        if gen.enter([p], p.row, p.col, AIR, capture=combat):
            out.append(gen._plan(p, p.row, p.col, AIR, [(p.row, p.col, AIR)], combat))
        return out
    if gen.enter([p], p.row, p.col, GROUND, capture=combat):
        out.append(gen._plan(p, p.row, p.col, GROUND, [(p.row, p.col, GROUND)], combat))
    for dx, dy in KING_STEPS:                        # M1.7.3, A-13
        dr, dc = to_board(p.side, dx, dy)
        for n in (1, 2):
            r, c = p.row + n * dr, p.col + n * dc
            if not on_board(r, c):
                break
            take = combat and n == 1
            cells = [(p.row + k * dr, p.col + k * dc, AIR) for k in range(1, n + 1)]
            if gen.enter([p], r, c, AIR, capture=take):
                out.append(gen._plan(p, r, c, AIR, cells, take))
            if not gen.clear(r, c, AIR):
                break                                # M1.7.5
    return out


def _ranged(gen: MoveGenerator, p: Piece, paths) -> list[MovePlan]:
    """Exactly ``range`` steps along a path whose earlier squares are clear at the piece's
    level, all on the board (03/M0.2, M0.8, M0.9, M2.8.4, M2.9.4, M3.8.4, M3.9.4; RUL-21); combat (M0.7, A-27). When
    two Queen paths end on the same square, the first clear one is the Move's path."""
    out = []
    seen = set()
    lv = p.level
    for path, rng in paths:
        squares = [_square(p, off) for off in path[:rng]]
        r, c = squares[-1]
        if not on_board(r, c) or (r, c) in seen:
            continue
        if all(gen.clear(sr, sc, lv) for sr, sc in squares[:-1]) and \
                gen.enter([p], r, c, lv, capture=True):
            seen.add((r, c))
            out.append(gen._plan(p, r, c, lv, [(sr, sc, lv) for sr, sc in squares], True))
    return out


def _chopper(gen: MoveGenerator, p: Piece, offsets: tuple[Offset, ...]) -> list[MovePlan]:
    """03/M2.10, M3.10 with M1.10.2-M1.10.5: from the Ground end on the Ground or in the Air,
    from the Air on the Ground; a route of max(|dx|,|dy|) steps must look free (M1.10.3)."""

    out = []
    passengers = gen._passengers(p)
    for off in offsets:
        r, c = _square(p, off)
        if not on_board(r, c):
            continue
        steps = max(abs(off[0]), abs(off[1]))
        for lv in ((GROUND, AIR) if p.level == GROUND else (GROUND,)):
            found = chopper_routes(p.cell, (r, c, lv)) if steps == 2 else \
                chopper_routes3(p.cell, (r, c, lv))
            routes = [rt for rt in found if all(gen.clear(*cell) for cell in rt[:-1])]
            if not routes:
                continue
            for q in passengers:
                if q is not None and not gen._passenger_ok(q, lv):
                    continue
                movers = [p] if q is None else [p, q]
                if not gen.enter(movers, r, c, lv, capture=True):
                    continue
                move = Move(describe(gen.state, p), lv, r, c,
                            None if q is None else describe(gen.state, q))
                out.append(MovePlan(move, p.sid, routes[0], True,
                                    passenger=0 if q is None else q.sid, routes=tuple(routes)))
    return out


