"""A bot driver: plays the engine's computer opponent and follows a simple setup script.

``level`` None plays the engine's seeded ``random_action`` (the historical network bot);
``random``, ``greedy`` or ``search`` play ``engine.api.Bot`` from our own side's
``observe()`` view alone (issue 11), ``seconds`` of thinking per turn. With ``resign_after`` N
it resigns on its move once it has taken N actions of its own (RUL-53): a game whose length is
not the point still ends, and is audited.
Used by ``wec host/join --bot LEVEL``, the tests and the benchmark. It measures, for each
of its own actions, the time from "action taken" to "applied on both sides" (the peer's
signed ok arrived and we applied it).
"""
from __future__ import annotations

import random
import time
from types import ModuleType
from typing import Any, Callable

from net.match import Match
from net.negotiation import SetupState
from net.outputs import Event, Send


class BotDriver:
    """Random-play bot. ``requests``: rule changes to ask for; ``approve(changes) -> bool``;
    ``max_actions``: stop acting (stay connected) after that many own actions; ``resign_after``:
    resign instead, on the move after that many own actions."""

    def __init__(self, engine: ModuleType, seed: int = 0, colour: str = "white", gov: str | None = None,
                 requests: list[dict[str, Any]] | None = None,
                 approve: Callable[[dict[str, Any]], bool] = lambda changes: True,
                 approve_undo: bool = True, max_actions: int | None = None,
                 level: str | None = None, seconds: float = 1.0, resign_after: int | None = None) -> None:
        self.engine, self.rng, self.colour, self.gov = engine, random.Random(seed), colour, gov
        self.bot = None if level is None else engine.Bot(level, seed=seed, clock=time.monotonic,
                                                          seconds=seconds)
        self.requests = list(requests or [])
        self.approve, self.approve_undo, self.max_actions = approve, approve_undo, max_actions
        self.resign_after = resign_after
        self.events: list[Event] = []
        self.latencies: list[float] = []
        self._taken: dict[int, float] = {}
        self.actions = 0

    def decide(self, match: Match) -> Send | None:
        """The next command, or None to wait for the peer."""
        if match.play is None:
            return self._setup(match)
        play = match.play
        if self.resigns_now(play):
            return play.resign()
        if play.undo_asked is not None and play.undo_asked[0] == "peer":
            return play.answer_undo(self.approve_undo)
        if play.my_move() and (self.max_actions is None or self.actions < self.max_actions):
            action = self._choose(play)
            self._taken[play.index] = time.perf_counter()
            self.actions += 1
            return play.act(self.engine.format_action(action), legal=True)   # taken from legal_actions
        return None

    def resigns_now(self, play: Any) -> bool:
        """True if, on ``play`` (None before the game), the bot's next command is its resignation."""
        return (self.resign_after is not None and play is not None and play.my_move()
                and self.actions >= self.resign_after and play.result is None)

    def on_event(self, event: Event) -> None:
        """Record events and the latency of our own actions."""
        self.events.append(event)
        if event.kind == "applied" and event.data["mine"]:
            start = self._taken.pop(event.data["index"] - 1, None)
            if start is not None:
                self.latencies.append(time.perf_counter() - start)

    def _choose(self, play: Any) -> Any:
        state = play.state_value
        if self.bot is None:
            return self.engine.random_action(state, self.rng)
        side = "B" if play.colour == "black" else "W"
        return self.bot.choose(self.engine.observe(state, side), self.engine.legal_actions(state))

    def kinds(self) -> list[str]:
        """Kinds of the events seen so far."""
        return [e.kind for e in self.events]

    def _setup(self, match: Match) -> Send | None:
        s = match.setup
        if s.state is not SetupState.OPEN:
            return None
        if s.role not in s.choice:
            return s.choose_colour(self.colour)
        if s.role not in s.gov_commits:
            return s.commit_gov(self.gov or self.engine.Options().to_dict()["gov_" + self.colour])
        for side, rid in s.pending():
            if side == s.peer:
                changes = s.requests[(side, rid)]["changes"]
                ok = self.approve(changes)
                return s.answer(rid, ok, "" if ok else "the bot rejects this change")
        if self.requests and s.role not in s.finished:
            return s.request(self.requests.pop(0))
        if s.ready() and s.finished.get(s.role) != s.options_hash():
            return s.finish()
        return None
