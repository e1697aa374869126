"""The computer opponent's choices: ``greedy`` and ``search`` over the bot's own beliefs.

Both decide one action at a time (a turn is several actions, RUL-1) on states built from the
bot's view (``engine.ai_sample``), never on the game state. A ``Budget`` counts nodes (one node
= one ``apply_action`` on a belief state) and may also carry a deadline: a callable the caller
passes in, returning True once its time is up. The engine reads no clock itself (docs/engine.md
"The computer opponent"); with a node budget alone every choice is a function of the view,
the legal actions and the seed.

``search`` is determinized lookahead over whole turns, greedy's ranking as its floor: the
candidates are greedy's best actions (before the turn's Move: the Moves and the four best other
actions, each followed by greedy's Move, RUL-1 any order), greedy's own choice first. A
rollout of a candidate in one sampled hidden position (``sample_state``): the action, the rest
of our turn as far as it takes material (up to two capture Moves or Fires), End Turn
(projectiles step, RUL-15), the enemy's turn as far as it takes material (its capture Move and
two Fires, RUL-1, RUL-4; each step the best by ``material`` among its six likeliest, ordered
by a cheap guess of what they take), our answer of the same kind, then ``evaluate`` (greedy's
evaluation). Candidates are rolled out round-robin over the samples (one sample when no hidden
enemy is remembered), then the next candidates of the ranking, until the budget runs out.
Each candidate is compared with greedy's choice on the same samples; the search plays another
action only when its mean is ``MARGIN`` better.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from .actions import GROUND, SUB, Action, EndTurn, Fire, Move
from .ai_eval import WIN, attacked_cells, evaluate, material, piece_value, quick_evaluate
from .ai_sample import Memory, sample_state, state_from_view
from .board import on_board
from .errors import RuleError
from .fire import legal_fires
from .movegen import MovePlan, piece_moves
from .pieces import KINDS
from .rules import apply_action, apply_move_plan, legal_actions
from .state import GameState, enemy
from .view import PlayerView

TRANSPORT_TOKENS = frozenset({"JU", "JP", "SC", "BI"})
SAMPLES = 6                        # sampled hidden positions per candidate, when there are ghosts
OWN_STEPS = 2                      # our captures and Fires after the action, in the rollout
ENEMY_STEPS = 3                    # the enemy's: its capture Move and two Fires (RUL-1, RUL-4)
TOP_REPLIES = 6                    # damaging actions tried per step, by a cheap guess
MARGIN = 0.3                       # how much better than greedy's choice a deviation must look


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

    def apply_plan(self, state: GameState, step: Action | MovePlan) -> GameState | None:
        """One node: an action or a Move plan made for ``state`` applied, or None."""
        if not isinstance(step, MovePlan):
            return self.apply(state, step)
        self.used += 1
        try:
            return apply_move_plan(state, step)
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
              actions: Sequence[Action | MovePlan]) -> GameState | None:
    """Among ``actions``, the one leaving the best ``material`` for ``side``, if it beats the
    present by more than 0.05; else None."""
    best, best_val = None, material(state, side) + 0.05
    for action in actions:
        if budget.spent():
            break
        new = budget.apply_plan(state, action)
        if new is not None and material(new, side) > best_val:
            best, best_val = new, material(new, side)
    return best


def _enemy_values(state: GameState, side: str) -> dict[tuple[int, int, str], float]:
    """(row, col, level) -> what a hit there takes from ``side``'s enemy: its most valuable
    piece there (a stunned one counts as is, RUL-11)."""
    out: dict[tuple[int, int, str], float] = {}
    for q in state.pieces.values():
        if q.side != side:
            cell = (q.row, q.col, q.level)
            v = piece_value(q.kind)
            if v > out.get(cell, 0.0):
                out[cell] = v
    return out


def _hit_value(state: GameState, fire: Fire, values: dict[tuple[int, int, str], float],
               cells: dict) -> float:  # type: ignore[type-arg]
    """A cheap guess at what a Fire can take at once (0: nothing), by the reach of each
    weapon as ``engine.ai_eval.fire_threats`` reads it: a named target's value (homing,
    restricted rocket: RUL-16, RUL-17); flame, every cell of its range (RUL-9); stun, the
    first occupied cell of its line (RUL-10), at what the stun takes (``stun_loss``);
    conversion (RUL-13, twice: lost to one side, gained by the other) and launches (RUL-15:
    the first cell at once, Ground rocket, Air SAM, Sub torpedo), the neighbouring cell.
    Transport articles (RUL-30, RUL-31) take nothing."""
    art = fire.article
    if art in TRANSPORT_TOKENS:
        return 0.0
    if fire.target is not None:
        return piece_value(fire.target.kind)
    d = fire.piece
    dr, dc = fire.row - d.row, fire.col - d.col
    o = state.options
    if art == "FL":
        best = 0.0
        for n in range(1, o.flamer_range + 1):
            best = max(best, values.get((d.row + n * dr, d.col + n * dc, d.level), 0.0))
        return best
    if art == "ST":
        for n in range(1, o.stun_range + 1):
            cell = (d.row + n * dr, d.col + n * dc, d.level)
            if not on_board(cell[0], cell[1]):
                return 0.0
            if cells.get(cell):
                v = values.get(cell, 0.0)
                return min(v, 60.0) * 0.08 * min(o.stun_duration, 4) if v else 0.0
        return 0.0
    level = {"RL": GROUND, "SL": "A", "TL": SUB}.get(art, d.level)
    v = values.get((fire.row, fire.col, level), 0.0)
    return 2 * v if art == "CS" and v < 60.0 else v


def _damaging(state: GameState, side: str, top: int = TOP_REPLIES) -> list[Action | MovePlan]:
    """``side``'s ``top`` likeliest material-taking actions, best guess first: capture Moves
    (among the turn's allowed Moves, RUL-1, RUL-44a; by the value taken, 03/M0.10) and Fires
    that can hit (``_hit_value``; RUL-4: at most two a turn)."""
    values = _enemy_values(state, side)
    cells = state.cells()
    scored = []
    t, o = state.turn, state.options
    n = 0
    for sid in sorted(state.pieces) if not t.moved else ():
        p = state.pieces[sid]              # combat pieces able to act (03/M0.7, RUL-11, 02/D23)
        if p.side != side or not KINDS[p.kind].combat or (p.stun and not o.stunned_may_act) \
                or (o.one_action_per_piece and sid in t.acted):
            continue
        for plan in piece_moves(state, side, p, nudges=False):
            if plan.capture:              # a Chopper obligation (RUL-44a) the apply checks
                scored.append((-values.get(plan.cells[-1], 0.5), n, plan))
                n += 1
    for n, fire in enumerate(legal_fires(state, side)):
        v = _hit_value(state, fire, values, cells)
        if v > 0:
            scored.append((-v, 10_000 + n, fire))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [a for _v, _n, a in scored[:top]]


def _capture_reply(state: GameState, side: str, budget: Budget, steps: int = 1) -> GameState:
    """``side``'s turn as far as it takes material: up to ``steps`` actions, each the most
    damaging capture Move or Fire (by ``material``) if it gains anything (a turn holds a
    Move and Fires, RUL-1, RUL-4); else the state as it is."""
    for _ in range(steps):
        if state.result is not None or state.side_to_move != side:
            break
        best = _best_for(state, side, budget, _damaging(state, side))
        if best is None:
            break
        state = best
    return state


def rollout(state: GameState, action: Action, me: str, budget: Budget,
            then: Sequence[Action] = ()) -> float | None:
    """The value of ``action`` in one belief state: applied, our turn's further damage (up to
    two captures or Fires, RUL-1), our turn ended (RUL-1 end phase: projectiles step,
    RUL-15), the enemy's turn as far as it takes material (a capture Move and two Fires),
    our answer of the same kind, then ``evaluate``. None when the action is illegal there,
    the budget ran out on the way, or the turn cannot end yet (no Move made: RUL-3)."""
    st = budget.apply(state, action)
    if st is None:
        return None
    if st.result is None and st.side_to_move == me and not st.turn.moved:
        for move in then:                 # an action before the Move: greedy's Move next
            nxt = budget.apply(st, move)
            if nxt is not None:
                st = nxt
                break
    if st.result is None and st.side_to_move == me:
        st = _capture_reply(st, me, budget, OWN_STEPS)
        if st.result is None and st.side_to_move == me:
            st = budget.apply(st, EndTurn())   # RuleError (no Move yet, RUL-3): None
            if st is None:
                return None
    foe = enemy(me)
    replied = _capture_reply(st, foe, budget, ENEMY_STEPS)
    if replied is not st and replied.result is None and replied.turn.moved:
        ended = budget.apply(replied, EndTurn())
        if ended is not None:             # the enemy's turn ends (RUL-3); our answer
            replied = _capture_reply(ended, me, budget, OWN_STEPS)
    if budget.spent():
        return None
    return evaluate(replied, me)


def search_choice(view: PlayerView, memory: Memory, actions: Sequence[Action],
                  rng: random.Random, budget: Budget, width: int = 8) -> Action:
    """Determinized expectimax (module docstring); at least the greedy choice."""
    me = view.player
    base = state_from_view(view)
    first = sample_state(view, memory, rng, base)
    ranked = greedy_scores(first, actions, me, budget, rng)
    if not ranked:
        return actions[0]
    then: tuple[Action, ...] = ()
    if view.turn is not None and not view.turn.moved:
        moves = [i for _s, i in ranked if isinstance(actions[i], Move)]
        other = [i for _s, i in ranked if not isinstance(actions[i], Move)][:4]
        keep = set(moves) | set(other)    # the best few actions before the Move (RUL-1:
        pool = [i for _s, i in ranked if i in keep]        # any order), then greedy's Move
        then = tuple(actions[i] for i in moves[:2])
    else:
        pool = [i for _s, i in ranked]
    cands = pool[:width]
    if len(cands) == 1:
        return actions[cands[0]]
    ref = cands[0]                        # greedy's choice (its best in the pool)
    values: dict[int, list[float]] = {}   # candidate -> its value in samples 0, 1, ...
    illegal: set[int] = set()
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
            done = values.setdefault(i, [])
            if len(done) > k or i in illegal:
                continue
            v = rollout(samples[k], actions[i], me, budget, then)
            if v is None:
                if budget.spent():        # cut short by the budget: not a value
                    break
                illegal.add(i)
                continue
            done.append(v)
        k += 1
    base_vals = values.get(ref, [])
    best, best_gain = ref, MARGIN         # deviate only where the lookahead says so
    for i in cands:
        got = values.get(i, [])
        n = min(len(got), len(base_vals))
        if i == ref or i in illegal or n == 0:
            continue
        gain = (sum(got[:n]) - sum(base_vals[:n])) / n
        if gain > best_gain:
            best, best_gain = i, gain
    return actions[best]
