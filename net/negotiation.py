"""Setting up a game: colours (clash decided by a commit-reveal coin), secret governments
(commit-reveal), rule-change requests approved or rejected by the other side, and Finish.

Every message, ours and the peer's, goes through ``feed`` in the order it was logged, so the
machine can be rebuilt from the write-ahead log. Commands (``choose_colour``, ``request``...)
only build the message; it changes nothing until it is fed back as our own.
The game starts when both sides have sent ``Finish`` with the hash of the same options.
"""
from __future__ import annotations

import enum
import hashlib
from types import ModuleType
from typing import Any, Callable

from net.errors import ProtocolError
from net.frames import pack
from net.messages import (COLOURS, Colour, Finish, GovCommit, GovReveal, Message, RuleAnswer, RuleRequest,
                          TossReveal)
from net.outputs import Event, Output, Send, Stop
from net.toss import ROLES, choice_commit, coin, fresh, toss_commit

GOV_FIELDS = ("gov_white", "gov_black")
# Options of the network game itself, negotiated like the engine's (issue 10 item 1): name ->
# (default, lowest, highest). They are in the options hash only when not at their default, so
# the hash (and game id) of a game that does not use them is what it was before they existed.
NET_OPTIONS: dict[str, tuple[int, int, int]] = {
    "move_time_limit": (0, 0, 86400),   # seconds for each action of the side to move; 0 = no limit
}


def split_options(opts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """(engine options, network options with defaults filled in) from one agreed options dict."""
    net = {k: opts.get(k, default) for k, (default, _, _) in NET_OPTIONS.items()}
    return {k: v for k, v in opts.items() if k not in NET_OPTIONS}, net


def check_net_option(name: str, value: Any) -> None:
    """:raises ValueError: naming the option and its range."""
    _, lo, hi = NET_OPTIONS[name]
    if not (isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi):
        raise ValueError(f"option {name} must be an integer from {lo} to {hi} (seconds; 0 = none), got {value!r}")


class SetupState(enum.Enum):
    OPEN = "negotiating"
    STARTED = "started"
    BROKEN = "broken"


def options_hash(options_dict: dict[str, Any], host_colour: str) -> bytes:
    """Hash of the agreed options and colours (both sides sign it in ``Finish``)."""
    return hashlib.sha256(b"wec/options/v1" + pack([[[k, options_dict[k]] for k in sorted(options_dict)],
                                                    host_colour])).digest()


def game_id(chain_id: bytes, opts_hash: bytes) -> bytes:
    """The game id: the transcript's chain id bound to the agreed options."""
    return hashlib.sha256(b"wec/game-id/v1" + chain_id + opts_hash).digest()


class Setup:
    """The setup machine for one side (``role`` is "host" or "guest")."""

    def __init__(self, engine: ModuleType, chain_id: bytes, role: str) -> None:
        self.engine, self.chain_id, self.role = engine, chain_id, role
        self.peer = ROLES[1 - ROLES.index(role)]
        self.state = SetupState.OPEN
        self.choice: dict[str, str] = {}
        self.toss_commits: dict[str, bytes] = {}
        self.toss_nonces: dict[str, bytes] = {}
        self.colours: dict[str, str] | None = None
        self.gov_commits: dict[str, bytes] = {}
        self.govs: dict[str, str] = {}
        self.requests: dict[tuple[str, int], dict[str, Any]] = {}
        self.accepted: list[tuple[str, int]] = []
        self.finished: dict[str, bytes] = {}
        self._secrets: dict[str, Any] = {}

    # ---- commands: build our next message (fed back through ``feed`` once logged) ----

    def choose_colour(self, colour: str) -> Send:
        """Our colour choice, with a commitment to a fresh toss nonce."""
        self._require(self.role not in self.choice, "colour already chosen")
        nonce = fresh()
        return Send(Colour(colour, toss_commit(self.chain_id, self.role, nonce)), {"toss_nonce": nonce})

    def commit_gov(self, gov: str) -> Send:
        """Our secret government type (needs no approval, U21), committed now, revealed later."""
        self._require(self.role not in self.gov_commits, "government already chosen")
        self._check_gov(gov)
        salt = fresh()
        return Send(GovCommit(choice_commit(self.chain_id, self.role, "gov", gov, salt)), {"gov": gov, "salt": salt})

    def request(self, changes: dict[str, Any]) -> Send:
        """A rule-change request. :raises ValueError: invalid option, or a government field."""
        self._require(self.role not in self.finished, "already finished: no more requests")
        self._check_changes(changes)
        rid = sum(1 for side, _ in self.requests if side == self.role)
        return Send(RuleRequest(rid, dict(changes)))

    def answer(self, rid: int, accept: bool, reason: str = "") -> Send:
        """Approve or reject the peer's request ``rid``."""
        self._require(self.requests.get((self.peer, rid), {}).get("status") == "pending", f"no pending request {rid}")
        return Send(RuleAnswer(rid, accept, reason if not accept else ""))

    def finish(self) -> Send:
        """Finish setup, signing the hash of the options as they stand."""
        self._require(self.ready(), "cannot finish yet (colours, governments or requests pending)")
        # the secret behind every salt of our hidden-play commitments (issue 8): logged, never sent
        # until the audit; each finish brings a fresh one, the one of our last finish is used
        return Send(Finish(self.options_hash()), secrets={"hidden_seed": fresh()})

    # ---- queries ----

    def ready(self) -> bool:
        """Colours decided, governments revealed, no request pending."""
        return (self.state is SetupState.OPEN and self.colours is not None and len(self.govs) == 2
                and not self.pending())

    def pending(self) -> list[tuple[str, int]]:
        """Requests not yet answered."""
        return [k for k, r in sorted(self.requests.items()) if r["status"] == "pending"]

    def options_dict(self) -> dict[str, Any]:
        """The options agreed so far: accepted requests in order (host's first, then by id), then governments."""
        opts = self.engine.Options().to_dict()
        for key in sorted(self.accepted, key=lambda k: (ROLES.index(k[0]), k[1])):
            opts.update(self.requests[key]["changes"])
        if self.colours is not None:
            for side, gov in self.govs.items():
                opts[f"gov_{self.colours[side]}"] = gov
        for name, (default, _, _) in NET_OPTIONS.items():
            if opts.get(name, default) == default:
                opts.pop(name, None)
        return dict(opts)

    def options(self) -> Any:
        """The agreed options as an engine ``Options``."""
        return self.engine.Options.from_dict(split_options(self.options_dict())[0])

    def net_options(self) -> dict[str, int]:
        """The agreed network-game options (``NET_OPTIONS``), defaults filled in."""
        return split_options(self.options_dict())[1]

    def options_hash(self) -> bytes:
        """Hash of the current options and colours."""
        return options_hash(self.options_dict(), self.colours["host"] if self.colours else "")

    # ---- feeding messages ----

    def feed(self, own: bool, msg: Message, secrets: dict[str, Any] | None = None) -> list[Output]:
        """Apply one logged message (ours if ``own``). Peer errors break the machine with a reason."""
        if self.state is not SetupState.OPEN:
            return [Stop(f"setup message {msg.TAG!r} after setup ended")] if not own else []
        handler = _TRANSITIONS.get(type(msg))
        if handler is None:
            return self._break(f"unexpected {msg.TAG!r} during setup")
        if own and secrets:
            self._secrets.update(secrets)
        try:
            return handler(self, self.role if own else self.peer, msg)
        except (ProtocolError, ValueError) as exc:
            return self._break(f"setup: {exc}")

    def _on_colour(self, side: str, msg: Colour) -> list[Output]:
        self._check(side not in self.choice, "colour chosen twice")
        if side == self.peer and self.toss_commits.get(self.role) == msg.toss_commit:
            raise ProtocolError("peer copied our toss commitment (mirror attack)")
        self.choice[side], self.toss_commits[side] = msg.choice, msg.toss_commit
        if len(self.choice) < 2:
            return []
        if self.choice["host"] != self.choice["guest"]:
            return self._decide(dict(self.choice))
        return [Send(TossReveal(self._secrets["toss_nonce"]))]

    def _on_toss_reveal(self, side: str, msg: TossReveal) -> list[Output]:
        self._check(len(self.choice) == 2 and self.choice["host"] == self.choice["guest"], "toss reveal without a clash")
        self._check(side not in self.toss_nonces, "toss revealed twice")
        if toss_commit(self.chain_id, side, msg.nonce) != self.toss_commits[side]:
            raise ProtocolError("toss reveal does not match its commitment")
        self.toss_nonces[side] = msg.nonce
        if len(self.toss_nonces) < 2:
            return []
        winner = coin(self.chain_id, self.toss_nonces["host"], self.toss_nonces["guest"])
        wanted = self.choice[winner]
        other = COLOURS[1 - COLOURS.index(wanted)]
        return self._decide({winner: wanted, ROLES[1 - ROLES.index(winner)]: other}, toss=winner)

    def _on_gov_commit(self, side: str, msg: GovCommit) -> list[Output]:
        self._check(side not in self.gov_commits, "government committed twice")
        if side == self.peer and self.gov_commits.get(self.role) == msg.commit:
            raise ProtocolError("peer copied our government commitment (mirror attack)")
        self.gov_commits[side] = msg.commit
        if len(self.gov_commits) == 2:
            return [Send(GovReveal(self._secrets["gov"], self._secrets["salt"]))]
        return []

    def _on_gov_reveal(self, side: str, msg: GovReveal) -> list[Output]:
        self._check(len(self.gov_commits) == 2, "government revealed before both were committed")
        self._check(side not in self.govs, "government revealed twice")
        if choice_commit(self.chain_id, side, "gov", msg.gov, msg.salt) != self.gov_commits[side]:
            raise ProtocolError("government reveal does not match its commitment")
        self._check_gov(msg.gov)
        self.govs[side] = msg.gov
        return [Event("governments", dict(self.govs))] if len(self.govs) == 2 else []

    def _on_request(self, side: str, msg: RuleRequest) -> list[Output]:
        self._check(side not in self.finished, "rule request after finishing")
        expected = sum(1 for s, _ in self.requests if s == side)
        self._check(msg.rid == expected, f"rule request id {msg.rid}, expected {expected}")
        self.requests[(side, msg.rid)] = {"changes": dict(msg.changes), "status": "pending"}
        if side == self.role:
            return []
        try:
            self._check_changes(msg.changes)
        except ValueError as exc:
            return [Send(RuleAnswer(msg.rid, False, f"invalid request: {exc}"[:256]))]
        return [Event("rule-request", {"rid": msg.rid, "changes": dict(msg.changes)})]

    def _on_answer(self, side: str, msg: RuleAnswer) -> list[Output]:
        requester = ROLES[1 - ROLES.index(side)]
        req = self.requests.get((requester, msg.rid))
        if req is None or req["status"] != "pending":
            raise ProtocolError(f"answer to unknown or settled request {msg.rid}")
        req["status"] = "accepted" if msg.accept else "rejected"
        if msg.accept:
            self.accepted.append((requester, msg.rid))
            self.finished.clear()  # the options changed: both must finish again
        return [Event("rule-answer", {"by": side, "rid": msg.rid, "accept": msg.accept, "reason": msg.reason})]

    def _on_finish(self, side: str, msg: Finish) -> list[Output]:
        self._check(self.ready(), "finish before colours, governments and requests were settled")
        if msg.options_hash != self.options_hash():
            raise ProtocolError("finish signs other options than ours (options disagreement)")
        self.finished[side] = msg.options_hash
        if len(self.finished) < 2:
            return []
        self.state = SetupState.STARTED
        return [Event("started", {"options": self.options(), "net_options": self.net_options(),
                                  "colours": dict(self.colours or {}), "hidden_seed": self._secrets.get("hidden_seed"),
                                  "game_id": game_id(self.chain_id, msg.options_hash)})]

    # ---- helpers ----

    def _decide(self, colours: dict[str, str], toss: str | None = None) -> list[Output]:
        self.colours = colours
        return [Event("colours", {"colours": dict(colours), "toss_winner": toss})]

    def _check_changes(self, changes: dict[str, Any]) -> None:
        if not changes:
            raise ValueError("empty rule request")
        bad = [k for k in changes if k in GOV_FIELDS]
        if bad:
            raise ValueError(f"{bad[0]} is chosen secretly by its player, not requested")
        for name in NET_OPTIONS:
            if name in changes:
                check_net_option(name, changes[name])
        merged = split_options({**self.options_dict(), **changes})[0]
        self.engine.Options.from_dict(merged)  # raises ValueError naming the bad option

    def _check_gov(self, gov: str) -> None:
        self.engine.Options.from_dict({**self.engine.Options().to_dict(), "gov_white": gov})

    def _break(self, reason: str) -> list[Output]:
        self.state = SetupState.BROKEN
        return [Stop(reason)]

    @staticmethod
    def _check(ok: bool, what: str) -> None:
        if not ok:
            raise ProtocolError(what)

    @staticmethod
    def _require(ok: bool, what: str) -> None:
        if not ok:
            raise RuntimeError(what)


_TRANSITIONS: dict[type, Callable[[Setup, str, Any], list[Output]]] = {
    Colour: Setup._on_colour,
    TossReveal: Setup._on_toss_reveal,
    GovCommit: Setup._on_gov_commit,
    GovReveal: Setup._on_gov_reveal,
    RuleRequest: Setup._on_request,
    RuleAnswer: Setup._on_answer,
    Finish: Setup._on_finish,
}
