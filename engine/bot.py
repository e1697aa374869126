"""A computer opponent that plays seeded random legal actions, biased towards captures."""
from __future__ import annotations

import random

from .actions import Action, Move
from .movegen import generate
from .pieces import KINDS
from .rules import legal_actions
from .state import GameState
from .visibility import hidden_from


def random_action(state: GameState, rng: random.Random) -> Action:
    """A legal action chosen with ``rng``: takes a visible primary piece when it can, prefers
    captures, otherwise uniform. :raises ValueError: no legal action (game over)."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no legal action: the game is over")
    side = state.side_to_move
    hidden = hidden_from(state, side)
    captures: dict[Move, bool] = {}
    for plan in (() if state.turn.moved else generate(state, side)):
        if not plan.capture:
            continue
        r, c, lv = plan.cells[-1]
        enemies = [state.pieces[s] for s in state.at(r, c, lv)
                   if state.pieces[s].side != side and s not in hidden]
        if enemies:
            captures[plan.move] = any(KINDS[e.kind].role == "primary" for e in enemies)
    for action in actions:
        if captures.get(action):           # type: ignore[call-overload]
            return action
    weights = [20 if action in captures else 1 for action in actions]
    return rng.choices(actions, weights=weights, k=1)[0]
