"""The computer opponent's position values (issue 11; docs/engine.md "The computer opponent").

Two scores of a ``GameState`` for one side, both "mine minus the enemy's", in pawn units:

* ``material``: piece values (01/R9.1 government pieces highest), held articles (01/§11),
  stun (RUL-11: a stunned piece can do nothing) and the game result (RUL-2);
* ``evaluate``: ``material`` less the own travellers whose landing is blocked (RUL-48), less
  the threat (the most valuable piece the enemy could take
  next: by its combat Moves, 03/M0.7; by its ready weapons' Fires, RUL-9 flame, RUL-10 stun,
  RUL-13 conversion, RUL-15 launch, RUL-17 restricted rocket; or by the projectiles in flight
  at their next step, RUL-15, RUL-16) and government safety (enemies near our primary piece).

The state given is the bot's own belief (``engine.ai_sample``), never the omniscient game.
"""
from __future__ import annotations

from .actions import GROUND
from .board import KING_STEPS, distance, on_board, to_board
from .board_ops import truly_enterable
from .effects import defence
from .movegen import piece_moves
from .pieces import DEFENCES, KINDS, TRANSPORTS, WEAPONS
from .state import GameState, Piece, enemy, replace

Cell = tuple[int, int, str]

WIN = 10_000.0

#: Piece values by movement class and role, in pawn units (our reading: reach and weapons).
KIND_VALUE = {
    "K": 60.0, "DI": 60.0, "AV": 60.0, "PR": 60.0,          # primary: its loss ends the game
    "Q": 9.0, "AS": 9.0, "AC": 9.0, "PM": 9.0,              # secondary (01/R9.1)
    "TA": 5.0, "CL": 5.0, "CH": 5.5, "JE": 5.0, "SU": 4.5, "DS": 3.5, "AAA": 3.0, "DO": 3.0,
    "RP": 1.5, "FP": 1.5, "SP": 1.5, "CP": 1.8, "SOP": 1.5, "XP": 1.5, "SHP": 1.5,
}
ARTICLE_VALUE = {**{w: 0.6 for w in WEAPONS}, **{t: 0.4 for t in TRANSPORTS},
                 **{d: 0.3 for d in DEFENCES}, "SH": 0.5, "ASH": 0.3, "XXX": 1.2}


def piece_value(kind: str) -> float:
    """The value of a piece type, pawn units."""
    return KIND_VALUE.get(kind, 1.0)


#: id(piece) -> (piece, value): pieces are immutable and shared by the states a search makes
#: from one another, so most of a state's pieces were valued before (the entry keeps the
#: piece itself, so an id reused after it was freed is not mistaken for it)
_VALUES: dict[int, tuple[Piece, float]] = {}
_VALUES_MAX = 200_000


def _piece_value(p: Piece, code: dict[int, str]) -> float:
    v = KIND_VALUE.get(p.kind, 1.0)
    if p.stun:
        v -= min(v, 60.0 if KINDS[p.kind].role == "primary" else v) * 0.08 * min(p.stun, 4)
    if p.arts:
        for a in p.arts:
            v += ARTICLE_VALUE.get(code[a], 0.3)
    return v


def material(state: GameState, side: str) -> float:
    """Pieces, articles and stuns of ``side`` minus the enemy's; a decided game is +-WIN."""
    if state.result is not None:
        return 0.0 if state.result == "draw" else (WIN if state.result == side else -WIN)
    score = 0.0
    code = state.art_code
    values = _VALUES
    if len(values) > _VALUES_MAX:
        values.clear()
    for p in state.pieces.values():
        e = values.get(id(p))
        if e is not None and e[0] is p:
            v = e[1]
        else:
            v = _piece_value(p, code)
            values[id(p)] = (p, v)
        score += v if p.side == side else -v
    return score


def stun_loss(kind: str, turns: int) -> float:
    """What ``material`` takes off a piece of ``kind`` stunned for ``turns`` (RUL-11)."""
    v = KIND_VALUE.get(kind, 1.0)
    return min(v, 60.0 if KINDS[kind].role == "primary" else v) * 0.08 * min(turns, 4)


def _best_capture(state: GameState, attacker: str) -> float:
    best = 0.0
    for p in list(state.pieces.values()):
        if p.side == attacker and KINDS[p.kind].combat:
            best = max(best, _capture_by(state, attacker, p))
    return best


def _capture_by(state: GameState, attacker: str, piece: Piece) -> float:
    best = 0.0
    for plan in piece_moves(state, attacker, piece, nudges=False):
        if not plan.capture:
            continue
        r, c, lv = plan.cells[-1]
        for s in state.at(r, c, lv):
            p = state.pieces[s]
            if p.side != attacker:
                best = max(best, KIND_VALUE.get(p.kind, 1.0))
    return best


def attacked_cells(state: GameState, attacker: str) -> frozenset[tuple[int, int, str]]:
    """The cells ``attacker`` could take a piece on next: its combat Moves' captures
    (03/M0.7), its ready weapons' destroying or converting reach and the projectiles' next
    cells (``fire_threats``)."""
    out = set()
    for p in list(state.pieces.values()):
        if p.side == attacker and KINDS[p.kind].combat:
            out.update(plan.cells[-1] for plan in piece_moves(state, attacker, p, nudges=False)
                       if plan.capture)
    out.update(cell for cell, (weapon, _k) in fire_threats(state, attacker).items()
               if weapon != "ST")
    return frozenset(out)


def _ready_sources(state: GameState, p: Piece, weapon: str, ply: int) -> int:
    """How many of ``p``'s sources of ``weapon`` are ready at ``ply`` (RUL-5, RUL-6)."""
    n = 1 if weapon in KINDS[p.kind].inherent and dict(p.ready).get(weapon, 0) <= ply else 0
    code = state.art_code
    for a in p.arts:
        if code[a] == weapon and state.art_ready.get(a, 0) <= ply:
            n += 1
    return n


def fire_threats(state: GameState, attacker: str) -> dict[Cell, tuple[str, int]]:
    """Cell -> (weapon, strength) that ``attacker`` could hit next, as far as the bot's
    state shows: at ``attacker``'s next turn each of its pieces able to fire (RUL-11) with a
    ready source (RUL-6) reaches the flame cells (RUL-9), the first occupied cell of each stun
    line (RUL-10), the neighbouring cells for conversion (RUL-13) and launches (RUL-15: a
    projectile hits its first cell at once), a restricted rocket's Ground cells (RUL-17); and
    the cells every projectile in flight enters at its next step(s) (RUL-15, RUL-16, either
    side's: a projectile hits whatever is in its cell). The strongest hit per cell is kept."""
    o = state.options
    out: dict[Cell, tuple[str, int]] = {}

    def mark(cell: Cell, weapon: str, k: int) -> None:
        old = out.get(cell)
        if old is None or (old[0] == "ST" and weapon != "ST") or \
                (old[0] == weapon and old[1] < k):
            out[cell] = (weapon, k)

    for pr in state.projectiles:
        r, c, dr, dc = pr.row, pr.col, pr.dr, pr.dc
        target = state.pieces.get(pr.target) if pr.target else None
        for _ in range(o.projectile_speed):
            if target is not None and target.side != pr.side and target.level == pr.level:
                dr = (target.row > r) - (target.row < r)
                dc = (target.col > c) - (target.col < c)
            r, c = r + dr, c + dc
            if not on_board(r, c):
                break
            mark((r, c, pr.level), {"R": "RL", "S": "SL", "T": "TL"}[pr.kind], pr.strength)
    if o.move_only:
        return out
    ply = state.ply + (0 if state.side_to_move == attacker else 1)
    cells = state.cells()
    for p in list(state.pieces.values()):
        if p.side != attacker or (p.stun > 1 and not o.stunned_may_act):
            continue
        if p.trip is not None and state.side_to_move != attacker:
            p = _after_trip_step(state, p)
        weapons = [w for w in KINDS[p.kind].inherent if w in WEAPONS]
        weapons += [state.art_code[a] for a in p.arts if state.art_code[a] in WEAPONS]
        for weapon in dict.fromkeys(weapons):
            k = _ready_sources(state, p, weapon, ply)
            if not k:
                continue
            if weapon == "RL" and p.kind in ("JE", "SU"):
                rr = o.restricted_rocket_range
                for r in range(p.row - rr, p.row + rr + 1):
                    for c in range(p.col - rr, p.col + rr + 1):
                        if on_board(r, c) and (r, c) != p.square:
                            mark((r, c, GROUND), "RL", k)
                continue
            for dx, dy in KING_STEPS:
                dr, dc = to_board(p.side, dx, dy)
                if weapon == "FL":
                    for n in range(1, o.flamer_range + 1):
                        if on_board(p.row + n * dr, p.col + n * dc):
                            mark((p.row + n * dr, p.col + n * dc, p.level), "FL", k)
                elif weapon == "ST":
                    for n in range(1, o.stun_range + 1):
                        cell = (p.row + n * dr, p.col + n * dc, p.level)
                        if not on_board(cell[0], cell[1]):
                            break
                        if cells.get(cell):
                            mark(cell, "ST", k)
                            break
                elif on_board(p.row + dr, p.col + dc):
                    level = {"RL": GROUND, "SL": "A", "TL": "S"}.get(weapon, p.level)
                    mark((p.row + dr, p.col + dc, level), weapon, k)
    return out


def _after_trip_step(state: GameState, p: Piece) -> Piece:
    """Where a traveller fires from at its side's next turn: its start phase steps it
    ``transport_speed`` squares along its path, landing on the Ground at the end (RUL-31)."""
    aid, level, ply, order, path = p.trip  # type: ignore[misc]
    n = min(state.options.transport_speed, len(path))
    r, c = path[n - 1]
    if n == len(path):
        return replace(p, row=r, col=c, level=GROUND, trip=None)
    return replace(p, row=r, col=c, level=level, trip=(aid, level, ply, order, path[n:]))


def _fire_damage(state: GameState, attacker: str) -> float:
    """The most ``material`` one of ``attacker``'s next Fires or a projectile step could take
    from the other side (``fire_threats``; a hit takes effect above the defence, RUL-7)."""
    best = 0.0
    duration = state.options.stun_duration
    for (r, c, lv), (weapon, k) in fire_threats(state, attacker).items():
        for s in state.at(r, c, lv):
            q = state.pieces[s]
            if q.side == attacker or k <= defence(state, q, weapon):
                continue
            v = KIND_VALUE.get(q.kind, 1.0)
            if weapon == "ST":
                v = 0.0 if q.stun else stun_loss(q.kind, duration)
            elif weapon == "CS":
                v = 2 * v if KINDS[q.kind].role != "primary" else v
            best = max(best, v)
    return best


def quick_evaluate(state: GameState, side: str,
                   attacked: frozenset[tuple[int, int, str]]) -> float:
    """A cheap ``evaluate``: ``material`` less 0.7 of ``side``'s most valuable piece standing
    on a cell of ``attacked`` (the enemy's capture cells before the action)."""
    score = material(state, side)
    if state.result is not None:
        return score
    score -= trip_loss(state, side)
    worst = 0.0
    for p in state.pieces.values():
        if p.side == side and (p.row, p.col, p.level) in attacked:
            worst = max(worst, KIND_VALUE.get(p.kind, 1.0))
    return score - 0.7 * worst


def trip_loss(state: GameState, side: str) -> float:
    """The value of ``side``'s travellers whose landing square is blocked now: a blocked
    landing destroys the traveller (RUL-48), a primary piece's loss ends the game (RUL-2)."""
    loss = 0.0
    for p in state.pieces.values():
        if p.side == side and p.trip is not None:
            r, c = p.trip[4][-1]
            if not truly_enterable(state, p, (r, c, GROUND)):
                loss += KIND_VALUE.get(p.kind, 1.0)
    return loss


def government_danger(state: GameState, side: str) -> float:
    """Enemy pieces within two squares of ``side``'s primary pieces, less friends there."""
    danger = 0.0
    primaries = [p for p in state.pieces.values()
                 if p.side == side and KINDS[p.kind].role == "primary"]
    for g in primaries:
        for p in state.pieces.values():
            if p.sid == g.sid or distance(p.square, g.square) > 2:
                continue
            danger += 1.0 if p.side != side else -0.5
    return max(danger, 0.0)


def evaluate(state: GameState, side: str) -> float:
    """``material`` with the threat balance and government safety, from ``side``'s view,
    scored as if the enemy moves next (the bot evaluates the position its turn leaves)."""
    score = material(state, side)
    if state.result is not None:
        return score
    foe = enemy(side)
    score -= trip_loss(state, side)
    score -= 0.7 * max(_best_capture(state, foe), _fire_damage(state, foe))
    score -= 0.4 * government_danger(state, side) - 0.2 * government_danger(state, enemy(side))
    return score

