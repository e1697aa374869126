"""Two hidden-play machines fed each other's messages in one process (tests, demo, benchmarks).

    pair = HiddenPair(engine, options)           # white and black ``HiddenLockstep``
    pair.act(text)                                # the side to move acts; messages flow until quiet
    pair.machines["white"].state_value            # white's partial state

Each message goes, as in ``net.session``, first to its sender's machine (own) at once, then,
in the order sent, to the other's (peer), whose replies follow in order. ``pair.wire`` keeps
every message with its sender (the transcript both sides hold); ``pair.stops`` any stop;
``pair.tap`` may change a message on its way (a lying peer).
"""
from __future__ import annotations

import hashlib
from collections import deque
from types import ModuleType
from typing import Any, Callable

from net.hidden_play import HiddenLockstep
from net.messages import Message
from net.outputs import Event, Output, Send, Stop


class HiddenPair:
    """White and black machines of one game, connected directly."""

    def __init__(self, engine: ModuleType, options: Any, game_id: bytes | None = None,
                 seeds: tuple[bytes, bytes] | None = None, machine: type = HiddenLockstep,
                 machines: dict[str, Any] | None = None) -> None:
        gid = game_id or hashlib.sha256(b"wec/hidden-pair").digest()
        seeds = seeds or (hashlib.sha256(b"seed white").digest(), hashlib.sha256(b"seed black").digest())
        self.engine = engine
        self.machines: dict[str, Any] = machines or {
            "white": machine(engine, options, "white", gid, seed=seeds[0]),
            "black": machine(engine, options, "black", gid, seed=seeds[1])}
        self.wire: list[tuple[str, Message]] = []
        self.events: dict[str, list[Event]] = {"white": [], "black": []}
        self.stops: list[tuple[str, str]] = []
        #: who caught a lie, in order: a side's stop, or its win by breach with the claim's detail
        #: (docs/rulings.md N-6: the catcher wins, the accused's honest machine then stops)
        self.caught: list[tuple[str, str]] = []
        self._queue: deque[tuple[str, Send]] = deque()
        #: ``tap(sender, message) -> message`` changes what the receiver gets (a lying peer in tests)
        self.tap: Callable[[str, Message], Message] | None = None

    @property
    def mover(self) -> str | None:
        """The colour that may act now (None: nobody, e.g. the game is over)."""
        return next((c for c, m in self.machines.items() if m.my_move()), None)

    def command(self, colour: str, send: Send) -> None:
        """Issue ``colour``'s command (a ``Send`` from its machine) and run until quiet."""
        self._send(colour, send)
        self.run()

    def act(self, text: str, legal: bool = False) -> None:
        """The mover's action. :raises RuntimeError: nobody may act."""
        colour = self.mover
        if colour is None:
            raise RuntimeError("nobody may act now")
        self.command(colour, self.machines[colour].act(text, legal))

    def run(self) -> None:
        """Deliver the messages sent, in the order they were sent, until none is left."""
        while self._queue:
            colour, send = self._queue.popleft()
            other = "black" if colour == "white" else "white"
            peer = self.machines[other]
            peer.peer_seen += 1
            got = self.tap(colour, send.message) if self.tap is not None else send.message
            self._take(other, peer.feed(False, got))

    def _send(self, colour: str, send: Send) -> None:
        """As ``net.session`` issues a message: it joins the transcript, goes to its sender's own
        machine at once (whose replies are sent in turn), and waits for delivery to the peer."""
        self.wire.append((colour, send.message))
        self._queue.append((colour, send))
        self._take(colour, self.machines[colour].feed(True, send.message, send.secrets))

    def _take(self, colour: str, outs: list[Output]) -> None:
        for o in outs:
            if isinstance(o, Send):
                self._send(colour, o)
            elif isinstance(o, Event):
                self.events[colour].append(o)
                if o.kind == "game-over" and o.data.get("ending") == "breach" and o.data["outcome"] == colour:
                    self.caught.append((colour, o.data["detail"]))
            elif isinstance(o, Stop):
                self.stops.append((colour, o.reason))
                self.caught.append((colour, o.reason))
