"""The computer opponent's choices: ``greedy`` and ``search`` over the bot's own beliefs.

Both decide one action at a time (a turn is several actions, RUL-1) on states built from the
bot's view (``engine.ai_sample``), never on the game state. A ``Budget`` counts nodes (one node
= one ``apply_action`` on a belief state) and may also carry a deadline: a callable the caller
passes in, returning True once its time is up. The engine reads no clock itself (docs/engine.md
"The computer opponent"); with a node budget alone every choice is a function of the view,
the legal actions and the seed.

``search`` is determinized expectimax, two plies and a capture answer deep: for each of the
best candidate actions by the greedy ranking, over sampled hidden positions (``sample_state``):
our action, End Turn (projectiles step, RUL-15), the enemy's most damaging capture Move or
Fire, our best capture answer, then ``evaluate``. Candidates are rolled out round-robin over
the samples (one sample when no hidden enemy is remembered), then the next candidates of the
ranking, until the budget runs out; the best mean wins.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from .actions import Action, EndTurn, Fire, Move
from .ai_eval import WIN, attacked_cells, evaluate, material, quick_evaluate
from .ai_sample import Memory, sample_state, state_from_view
from .board import on_board
from .errors import RuleError
from .movegen import generate
from .rules import apply_action, legal_actions
from .state import GameState, enemy
from .view import PlayerView

TRANSPORT_TOKENS = frozenset({"JU", "JP", "SC", "BI"})
LEVELS3 = ("G", "A", "S")
SAMPLES = 6                        # sampled hidden positions per candidate, when there are ghosts


@dataclass(slots=True)
class Budget:
    """How much a choice may spend: ``nodes`` applies, and ``deadline()`` if given."""

    nodes: int = 3000
    deadline: Callable[[], bool] | None = None
    used: int = 0

    def spent(self) -> bool:
        """Whether the budget is exhausted (checked before each node)."""
        return self.used >= self.nodes or (self.deadline is not None and self.deadline())

    def late(self) -> bool:
        """Whether the caller's time is up (the node count aside): checked before each node
        of the greedy ranking too, which the node count never cuts short."""
        return self.deadline is not None and self.deadline()

    def apply(self, state: GameState, action: Action) -> GameState | None:
        """One node: ``action`` applied to a belief state, or None if illegal there."""
        self.used += 1
        try:
            return apply_action(state, action)
        except RuleError:
            return None


def listed(state: GameState, actions: Sequence[Action]) -> list[Action]:
    """``actions`` as the very objects ``legal_actions(state)`` lists where equal (so that
    ``apply_action`` takes its fast path for listed actions), the others unchanged."""
    own = {a: a for a in legal_actions(state)}
    return [own.get(a, a) for a in actions]


def greedy_scores(state: GameState, actions: Sequence[Action], side: str, budget: Budget,
                  rng: random.Random, exact: int = 10) -> list[tuple[float, int]]:
    """(score, index) of every action, best first. The node count does not cut this ranking
    short (the bot's floor is greedy play); the caller's deadline does (``Budget.late``):
    then the actions not reached are left out, so at least the first is always scored.
    Every action is scored by ``quick_evaluate``; the ``exact`` best of those are scored
    again by ``evaluate`` (others rank below them); a seeded tie-break below 0.01 orders
    equal scores."""
    attacked = attacked_cells(state, enemy(side))
    quick = []
    own = listed(state, actions)
    for i, action in enumerate(own):
        if quick and budget.late():
            break
        new = budget.apply(state, action)
        if new is None:
            continue
        tie = rng.random() * 0.01
        quick.append((quick_evaluate(new, side, attacked) + tie, tie, i, new))
    quick.sort(key=lambda t: (-t[0], t[2]))
    out = []
    for n, (q, tie, i, new) in enumerate(quick):
        exact_here = n < exact and (n == 0 or not budget.late())
        out.append((evaluate(new, side) + tie if exact_here else q - WIN, i))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def greedy_choice(view: PlayerView, memory: Memory, actions: Sequence[Action], seed_rng:
                  random.Random, budget: Budget) -> Action:
    """The action whose immediate result ``evaluate`` scores best on one belief state."""
    state = sample_state(view, memory, seed_rng)
    scored = greedy_scores(state, actions, view.player, budget, seed_rng)
    return actions[scored[0][1]] if scored else actions[0]


def _best_for(state: GameState, side: str, budget: Budget,
              actions: Sequence[Action]) -> GameState | None:
    """Among ``actions``, the one leaving the best ``material`` for ``side``, if it beats the
    present by more than 0.05; else None."""
    best, best_val = None, material(state, side) + 0.05
    for action in actions:
        if budget.spent():
            break
        new = budget.apply(state, action)
        if new is not None and material(new, side) > best_val:
            best, best_val = new, material(new, side)
    return best


def _may_hit(state: GameState, fire: Fire, cells: dict) -> bool:  # type: ignore[type-arg]
    """Whether a Fire can change ``material`` at once: a homing or restricted-rocket Fire
    (it names a target), or a weapon aimed along a line that holds a piece within the stun
    line's reach (RUL-9, RUL-10, RUL-13, RUL-15). Transport articles (RUL-30, RUL-31) and
    weapons fired into an empty line cannot, and are left out of the replies."""
    if fire.article in TRANSPORT_TOKENS:
        return False
    if fire.target is not None:
        return True
    d = fire.piece
    dr, dc = fire.row - d.row, fire.col - d.col
    reach = max(state.options.stun_range, state.options.flamer_range, 1)
    for n in range(1, reach + 1):
        r, c = d.row + n * dr, d.col + n * dc
        if not on_board(r, c):
            return False
        if any((r, c, lv) in cells for lv in LEVELS3):
            return True
    return False


def _capture_reply(state: GameState, side: str, budget: Budget) -> GameState:
    """``side``'s most damaging capture Move or Fire (by ``material``), if it gains anything;
    else the state as it is."""
    if state.result is not None or state.side_to_move != side:
        return state
    capture = {p.move for p in generate(state, side) if p.capture}
    cells = state.cells()
    replies = [a for a in legal_actions(state)
               if (isinstance(a, Move) and a in capture)
               or (isinstance(a, Fire) and _may_hit(state, a, cells))]
    best = _best_for(state, side, budget, replies)
    return best if best is not None else state


def rollout(state: GameState, action: Action, me: str, budget: Budget) -> float | None:
    """The value of ``action`` in one belief state: applied, our turn ended (RUL-1 end phase:
    projectiles step, RUL-15), the enemy's best capture or Fire, our best answer of the same
    kind, then ``evaluate``. None when the action is illegal there or the turn cannot end
    yet (no Move made: RUL-3)."""
    st = budget.apply(state, action)
    if st is None:
        return None
    if st.result is None and st.side_to_move == me:
        if not st.turn.moved:
            return None
        st = budget.apply(st, EndTurn())
        if st is None:
            return None
    replied = _capture_reply(st, enemy(me), budget)
    if replied is not st:
        st = replied
        ended = budget.apply(st, EndTurn()) if st.result is None else None
        if ended is not None:             # a capture Move: the enemy's turn can end (RUL-3)
            st = _capture_reply(ended, me, budget)
    return evaluate(st, me)


def search_choice(view: PlayerView, memory: Memory, actions: Sequence[Action],
                  rng: random.Random, budget: Budget, width: int = 8) -> Action:
    """Determinized expectimax (module docstring); at least the greedy choice."""
    me = view.player
    base = state_from_view(view)
    first = sample_state(view, memory, rng, base)
    ranked = greedy_scores(first, actions, me, budget, rng)
    if not ranked:
        return actions[0]
    greedy = dict((i, s) for s, i in ranked)
    if view.turn is not None and not view.turn.moved:
        moves = [i for _s, i in ranked if isinstance(actions[i], Move)]
        other = [i for _s, i in ranked if not isinstance(actions[i], Move)]
        now = material(first, me)
        for i in other[:4]:               # a clear material gain before the Move (RUL-1: any
            new = budget.apply(first, actions[i])          # order); not a Fire into nothing
            if not moves or (new is not None and material(new, me) >= now + 0.3):
                return actions[i]
        pool = moves
    else:
        pool = [i for _s, i in ranked]
    cands = pool[:width]
    if len(cands) == 1:
        return actions[cands[0]]
    total: dict[int, float] = {}
    count: dict[int, int] = {}
    samples = [first]
    rounds = SAMPLES if memory.ghosts else 1      # no ghost: every sample is the same position
    k = 0
    while not budget.spent():
        if k >= rounds:                   # every sample done: widen by the next candidates
            if len(cands) >= len(pool):
                break
            cands = pool[:len(cands) + width]
            k = 0
        if k >= len(samples):
            samples.append(sample_state(view, memory, rng, base))
        for i in cands:
            if budget.spent():
                break
            if count.get(i, 0) > k:
                continue
            v = rollout(samples[k], actions[i], me, budget)
            total[i] = total.get(i, 0.0) + (v if v is not None else 0.0)
            count[i] = count.get(i, 0) + 1
            if v is None:
                total[i] = float("-inf")
        k += 1
    full = [i for i in cands if count.get(i, 0) > 0 and total[i] != float("-inf")]
    if not full:
        return actions[cands[0]]
    best = max(full, key=lambda i: (total[i] / count[i], greedy[i], -i))
    return actions[best]
