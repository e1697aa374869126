"""One network game's protocol state: the setup machine, then the lockstep machine.

``feed`` takes every logged message in order (ours and the peer's), so a ``Match`` can be
rebuilt exactly from the write-ahead log after a crash or a dropped connection.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

from net.hidden_play import HiddenLockstep
from net.lockstep import PlayState
from net.messages import Message
from net.negotiation import Setup, SetupState
from net.outputs import Event, Output, Stop


class Match:
    """Setup, then play, for one side (``role`` "host" or "guest")."""

    def __init__(self, engine: ModuleType, chain_id: bytes, role: str, audit_seconds: int | None = None) -> None:
        self.engine, self.chain_id, self.role = engine, chain_id, role
        self.audit_seconds = audit_seconds   # the audit's time limit (None: the product's)
        self.setup = Setup(engine, chain_id, role)
        self.play: HiddenLockstep | None = None
        self.game_id: bytes | None = None
        self.stopped: str | None = None
        self.peer_fed = 0   # the peer's game messages fed (a claim names how many it rests on)
        self.own_fed = 0    # ours (our message #k, its chain seq k, is the (k+1)-th fed)

    @property
    def colour(self) -> str | None:
        """Our colour once decided."""
        return self.setup.colours[self.role] if self.setup.colours else None

    @property
    def finished(self) -> bool:
        """The game reached its end and both hashes agreed."""
        return self.play is not None and self.play.state is PlayState.FINISHED

    @property
    def over(self) -> bool:
        """Finished or stopped: nothing more will happen on this game."""
        return self.finished or self.stopped is not None

    def feed(self, own: bool, msg: Message, secrets: dict[str, Any] | None = None) -> list[Output]:
        """Route one logged message to the active machine."""
        if not own:
            self.peer_fed += 1
            if self.play is not None:
                self.play.peer_seen = self.peer_fed
        else:
            self.own_fed += 1
            if self.play is not None:
                self.play.own_seen = self.own_fed
        if self.setup.state is SetupState.OPEN or self.play is None:
            outs = self.setup.feed(own, msg, secrets)
        else:
            outs = self.play.feed(own, msg, secrets)
        for out in outs:
            if isinstance(out, Event) and out.kind == "started":
                self.game_id = out.data["game_id"]
                seed = out.data.get("hidden_seed")
                if seed is None:   # a game set up before hidden play (no secret in our finish)
                    self.stopped = ("this game was set up without the secret behind hidden-play commitments "
                                    "(docs/rulings.md HN-1); start a new game")
                    return outs + [Stop(self.stopped)]
                kw = {} if self.audit_seconds is None else {"audit_seconds": self.audit_seconds}
                net_options = out.data.get("net_options", {})
                # HN-1: every network game runs hidden play (each side holds only what it may know)
                self.play = HiddenLockstep(self.engine, out.data["options"], out.data["colours"][self.role],
                                           self.game_id, move_time_limit=net_options.get("move_time_limit", 0),
                                           seed=seed, psi=bool(net_options.get("hidden_psi", 1)), **kw)
                self.play.peer_seen, self.play.own_seen = self.peer_fed, self.own_fed
            elif isinstance(out, Stop) and self.stopped is None:
                self.stopped = out.reason
        return outs
