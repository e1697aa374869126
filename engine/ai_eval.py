"""The computer opponent's position values (issue 11; docs/engine.md "The computer opponent").

Two scores of a ``GameState`` for one side, both "mine minus the enemy's", in pawn units:

* ``material``: piece values (01/R9.1 government pieces highest), held articles (01/§11),
  stun (RUL-11: a stunned piece can do nothing) and the game result (RUL-2);
* ``evaluate``: ``material`` less the threat (the most valuable piece the enemy's Moves could
  take next, 03/M0.7 combat Moves) and government safety (enemies near our primary piece).

The state given is the bot's own belief (``engine.ai_sample``), never the omniscient game.
"""
from __future__ import annotations

from .board import distance
from .movegen import piece_moves
from .pieces import DEFENCES, KINDS, TRANSPORTS, WEAPONS
from .state import GameState, Piece, enemy

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


def material(state: GameState, side: str) -> float:
    """Pieces, articles and stuns of ``side`` minus the enemy's; a decided game is +-WIN."""
    if state.result is not None:
        return 0.0 if state.result == "draw" else (WIN if state.result == side else -WIN)
    score = 0.0
    code = state.art_code
    for p in state.pieces.values():
        v = KIND_VALUE.get(p.kind, 1.0)
        if p.stun:
            v -= min(v, 60.0 if KINDS[p.kind].role == "primary" else v) * 0.08 * min(p.stun, 4)
        v += sum(ARTICLE_VALUE.get(code[a], 0.3) for a in p.arts)
        score += v if p.side == side else -v
    return score


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
    """The cells ``attacker``'s combat Moves could capture on now (03/M0.7)."""
    out = set()
    for p in list(state.pieces.values()):
        if p.side == attacker and KINDS[p.kind].combat:
            out.update(plan.cells[-1] for plan in piece_moves(state, attacker, p, nudges=False)
                       if plan.capture)
    return frozenset(out)


def quick_evaluate(state: GameState, side: str,
                   attacked: frozenset[tuple[int, int, str]]) -> float:
    """A cheap ``evaluate``: ``material`` less 0.7 of ``side``'s most valuable piece standing
    on a cell of ``attacked`` (the enemy's capture cells before the action)."""
    score = material(state, side)
    if state.result is not None:
        return score
    worst = 0.0
    for p in state.pieces.values():
        if p.side == side and (p.row, p.col, p.level) in attacked:
            worst = max(worst, KIND_VALUE.get(p.kind, 1.0))
    return score - 0.7 * worst


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
    score -= 0.7 * _best_capture(state, enemy(side))
    score -= 0.4 * government_danger(state, side) - 0.2 * government_danger(state, enemy(side))
    return score

