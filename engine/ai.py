"""The computer opponent (issue 11; 04/U18): ``Bot(level, seed).choose(view, actions)``.

Levels: ``random`` (seeded uniform choice among the legal actions, captures preferred as in
``engine.bot``, but from the view), ``greedy`` and ``search`` (``engine.ai_search``).

A choice is a function of the bot's own view (``observe(state, side)``), its remembered earlier
views, its legal actions and the seed, nothing else: it cannot peek (tests/test_ai.py). Legal
actions are computable from the view (moves treat hidden enemies as absent, 03/M0.11), so the
caller passing ``legal_actions(state)`` hands over nothing hidden.

The budget is in nodes (``Budget.nodes``; a third of it for the choices after the turn's Move,
which matter less than the Move), or, with ``turn_nodes``, in nodes per turn shared out as the
clock's seconds are (below): the tournament's reproducible stand-in for a time budget. A wall-clock limit is the caller's: pass ``clock``
(a callable giving seconds, e.g. ``time.monotonic``) and ``seconds`` per turn; the bot then
also stops each choice when its share of the turn's time is used (the first action of a turn
gets 60 % of what is left, later ones half; 10 % of the turn is kept back for the caller's
work between the choices, ``RESERVE``). The clock is read before every node, the greedy
ranking included. With a clock the choice depends on the machine's
speed, which is harmless: the chosen action, not the thinking, is what enters the game record.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

from .actions import Action, EndTurn, Move
from .ai_sample import Memory
from .ai_search import Budget, greedy_choice, search_choice
from .view import PlayerView

LEVELS = ("random", "greedy", "search")
DEFAULT_NODES = {"random": 0, "greedy": 1000, "search": 4000}
DEFAULT_SECONDS = 1.0
#: the share of a turn's seconds the bot leaves unused: the caller's listing of the legal
#: actions and the views between its choices, and the last choice (End Turn) take time too
RESERVE = 0.1


class Bot:
    """One side's computer player; keep one per game (it remembers what it has seen)."""

    def __init__(self, level: str = "search", seed: int = 0, nodes: int | None = None,
                 clock: Callable[[], float] | None = None,
                 seconds: float = DEFAULT_SECONDS, turn_nodes: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(LEVELS)}, got {level!r}")
        if seconds <= 0:
            raise ValueError(f"the bot's time per turn must be positive, got {seconds}")
        if turn_nodes is not None and turn_nodes <= 0:
            raise ValueError(f"the bot's nodes per turn must be positive, got {turn_nodes}")
        self.level, self.seed = level, seed
        self.nodes = DEFAULT_NODES[level] if nodes is None else nodes
        self.turn_nodes = turn_nodes
        self._spent: tuple[int, int] = (-1, 0)     # (ply, nodes used in that turn so far)
        self.clock, self.seconds = clock, seconds
        self.memory = Memory()
        self.last_nodes = 0               # nodes the last choice used
        self._turn: tuple[int, float] | None = None
        self._seen_ply = -1

    def observe(self, view: PlayerView) -> None:
        """Remember a view (called by ``choose``; call it also on the enemy's turns)."""
        if view.ply != self._seen_ply or view.turn is None:
            self.memory.update(view)
            self._seen_ply = view.ply

    def choose(self, view: PlayerView, actions: Sequence[Action]) -> Action:
        """The bot's next action among ``actions`` (the legal actions of its side, which is to
        move in ``view``). :raises ValueError: no action to choose from."""
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.observe(view)
        done = len(view.turn.actions) if view.turn is not None else 0
        rng = random.Random(f"wec-bot:{self.seed}:{view.ply}:{done}")
        if self.level == "random":
            self.last_nodes = 0
            return _random(view, actions, rng)
        moved = view.turn is not None and view.turn.moved
        if self.turn_nodes is None or self.level != "search":     # greedy: its full ranking
            nodes = self.nodes // 3 if moved else self.nodes
        else:                             # the clock's shares, counted in nodes
            if self._spent[0] != view.ply:
                self._spent = (view.ply, 0)
            nodes = int((self.turn_nodes - self._spent[1]) * (0.5 if moved else 0.6))
        budget = Budget(max(nodes, 0), self._deadline(view))
        if (budget.deadline is not None and budget.deadline()) or \
                (self.turn_nodes is not None and self.level == "search" and nodes <= 0):
            ends = [a for a in actions if isinstance(a, EndTurn)]
            if ends:                      # the turn's time is up: end it where allowed
                self.last_nodes = 0
                return ends[0]
        if self.level == "greedy":
            choice = greedy_choice(view, self.memory, actions, rng, budget)
        else:
            choice = search_choice(view, self.memory, actions, rng, budget)
        self.last_nodes = budget.used
        if self.turn_nodes is not None:
            self._spent = (view.ply, self._spent[1] + budget.used)
        return choice

    def _deadline(self, view: PlayerView) -> Callable[[], bool] | None:
        clock = self.clock
        if clock is None:
            return None
        now = clock()
        if self._turn is None or self._turn[0] != view.ply:    # RESERVE kept for the caller
            self._turn = (view.ply, now + self.seconds * (1 - RESERVE))
        left = self._turn[1] - now
        moved = view.turn is not None and view.turn.moved
        stop = now + max(0.0, left) * (0.5 if moved else 0.6)
        return lambda: clock() >= stop


def _random(view: PlayerView, actions: Sequence[Action], rng: random.Random) -> Action:
    """Uniform among ``actions``, except that a Move onto a seen enemy is twenty times likelier."""
    enemies = {(s.row, s.col, s.level) for s in view.seen if s.side != view.player}
    weights = [20 if isinstance(a, Move) and (a.row, a.col, a.level) in enemies else 1
               for a in actions]
    return rng.choices(list(actions), weights=weights, k=1)[0]
