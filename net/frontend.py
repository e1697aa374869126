"""What a front end (the game window, a terminal) and ``net.bridge.NetBridge`` say to each other.

Both directions are frozen values. Commands go in with ``NetBridge.post``; events come out of
``NetBridge.events`` (a ``queue.SimpleQueue``) in the order they happened. Nothing here does
I/O; docs/network.md ("Driving a game from a window") lists every value with its meaning.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# ---------------------------------------------------------------------------------------------
# The lobby
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LobbyPeer:
    """One game under PEERS (04/U59). ``state``: "paired", "new" or "in a game"; names are
    claims, so a name shared with another identity, or a pinned peer's name used by another
    identity, is marked (``net.peer_names``)."""

    key: str            # the discovery instance name: pass it to ``Join``
    name: str
    fingerprint: str
    state: str
    hosting: bool       # it waits for a guest: ``Join`` it
    address: str        # "host:port" it advertises
    same_name: bool = False          # another identity advertises the same name (issue 10 item 3)
    not_pinned_as: str | None = None  # it uses the name of a pinned peer with this fingerprint: possible impostor

    @property
    def short_fp(self) -> str:
        """The first 16 hex digits, as every screen shows them."""
        return self.fingerprint[:16]


@dataclass(frozen=True, slots=True)
class Me:
    """This laptop under ME: its name, fingerprint, IPv4 addresses and, while hosting, the port."""

    name: str
    fingerprint: str
    addresses: tuple[str, ...]
    port: int = 0
    status: str = "idle"


@dataclass(frozen=True, slots=True)
class Reason:
    """One likely reason why no game shows up, and what to do about it."""

    cause: str
    advice: str


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Why the lobby may be empty: this laptop's addresses (to type on the other one) and reasons."""

    addresses: tuple[str, ...]
    port: int
    reasons: tuple[Reason, ...]

    def lines(self) -> list[str]:
        """The diagnosis as text lines, for a terminal or a dialog."""
        where = ", ".join(f"{a}:{self.port}" if self.port else a for a in self.addresses) or "none"
        out = [f"No other game found. This laptop's addresses: {where}"]
        out += [f"- {r.cause}: {r.advice}" for r in self.reasons]
        return out


# ---------------------------------------------------------------------------------------------
# Events (bridge -> front end)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeersChanged:
    """PEERS and ME as they stand now (04/U59), sorted by name then key."""

    peers: tuple[LobbyPeer, ...]
    me: Me


@dataclass(frozen=True, slots=True)
class NothingFound:
    """No game showed up within ``BridgeConfig.hint_after`` seconds: show the diagnosis."""

    diagnosis: Diagnosis


@dataclass(frozen=True, slots=True)
class Hosting:
    """We listen for a guest on ``port`` (advertised as "hosting")."""

    port: int
    addresses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PairingCode:
    """First contact (04/U59 step 3): show ``code``; answer with ``ConfirmCode``."""

    code: str
    peer_name: str


@dataclass(frozen=True, slots=True)
class PeerRemembered:
    """Pairing was confirmed on both screens: the peer is pinned and will not be asked again."""

    name: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class PairingFailed:
    """First contact did not complete (a screen said no, or nobody answered in time)."""

    reason: str


@dataclass(frozen=True, slots=True)
class IdentityWarning:
    """A remembered peer presented another identity (or a game not the one it advertised): refused.
    ``forget``: the command that removes the old pin (or post ``ForgetPeer``), after which the next
    connection pairs again; empty when nothing is pinned."""

    message: str
    fingerprint: str
    forget: str


@dataclass(frozen=True, slots=True)
class Connected:
    """A game connection is up (``resumed``: an unfinished game continues from the log)."""

    peer: str
    role: str
    resumed: bool


@dataclass(frozen=True, slots=True)
class ConnectionLost:
    """The link dropped: "connection lost — waiting for the other laptop"; play resumes by itself."""

    reason: str


@dataclass(frozen=True, slots=True)
class Resumed:
    """The link is back and the game continues where it stopped."""

    peer: str


@dataclass(frozen=True, slots=True)
class RuleRequest:
    """One rule-change request and where it stands: "pending", "accepted" or "rejected"."""

    by: str            # "me" or "peer"
    rid: int
    changes: tuple[tuple[str, Any], ...]
    status: str


@dataclass(frozen=True, slots=True)
class SetupChanged:
    """Where setting up the game stands (04/U60-U61), re-sent whenever any of it changes.

    ``colour_asked``: our request (None before ``ChooseColour``); ``colours``: role -> colour
    once decided; ``gov_chosen``: our secret government is committed; ``options``: the
    agreed options that differ from the standard game; ``ready``: ``FinishSetup`` is possible
    now; ``finished``: who has finished with the options as they stand ("me", "peer")."""

    role: str
    colour_asked: str | None
    colours: tuple[tuple[str, str], ...] | None
    gov_chosen: bool
    requests: tuple[RuleRequest, ...]
    options: tuple[tuple[str, Any], ...]
    ready: bool
    finished: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ColourToss:
    """Colours are decided: ``mine``; ``toss_winner`` ("me"/"peer") when both asked the same
    colour and the fair coin settled it (04/U60), else None."""

    mine: str
    toss_winner: str | None


@dataclass(frozen=True, slots=True)
class RuleChangeRequested:
    """The peer asks for a rule change (04/U61): answer with ``AnswerRuleChange(rid, ...)``."""

    rid: int
    changes: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class RuleChangeAnswered:
    """A request was answered. ``by``: who answered ("me"/"peer")."""

    by: str
    rid: int
    changes: tuple[tuple[str, Any], ...]
    accepted: bool
    reason: str


@dataclass(frozen=True, slots=True)
class RulesAgreed:
    """Both finished setup: the rules of this game, shown to both before the first move.

    ``changed``: the options that differ from the standard game; ``options``: all of them."""

    changed: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...]
    colours: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Play begins: our colour and what we see (an ``engine.api.PlayerView``)."""

    colour: str
    game_id: str
    view: Any


@dataclass(frozen=True, slots=True)
class YourTurn:
    """We may act: ``legal`` are the legal actions in notation, in the engine's order;
    ``end_turn`` the notation of ending the turn if that is legal now."""

    index: int
    legal: tuple[str, ...]
    end_turn: str | None
    view: Any


@dataclass(frozen=True, slots=True)
class Waiting:
    """"Waiting for ``side``…": the peer is to move, or must answer us first (``why``)."""

    side: str
    why: str


@dataclass(frozen=True, slots=True)
class PeerActed:
    """The peer's action, applied (``text`` in notation; the last action to highlight)."""

    index: int
    text: str
    view: Any


@dataclass(frozen=True, slots=True)
class MyActionApplied:
    """Our action, validated and applied by the peer too."""

    index: int
    text: str
    view: Any


@dataclass(frozen=True, slots=True)
class ActionRefused:
    """An action was refused (``by``: who refused it) with the rule it broke; nothing changed."""

    by: str
    text: str
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class CommandRefused:
    """A command could not be carried out now; nothing changed."""

    command: Any
    reason: str


@dataclass(frozen=True, slots=True)
class UndoRequested:
    """The peer asks to take back the last action: answer with ``AnswerUndo``."""

    index: int


@dataclass(frozen=True, slots=True)
class UndoAnswered:
    """An undo request was answered. ``asked_by``: whose request; ``accepted``; ``reason``."""

    asked_by: str
    accepted: bool
    reason: str
    view: Any


@dataclass(frozen=True, slots=True)
class DrawOffered:
    """The peer offers a draw (RUL-53): answer with ``AnswerDraw``; a "yes" posted before our
    next turn is sent when that turn begins (acceptance is allowed only then)."""

    turn: int


@dataclass(frozen=True, slots=True)
class DrawDeclined:
    """A draw offer was declined (``by``: "me"/"peer")."""

    by: str


@dataclass(frozen=True, slots=True)
class DrawLapsed:
    """A draw offer ran out unanswered at the end of the receiver's next turn (``by``: who offered)."""

    by: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over on both sides: ``result`` "white", "black" or "draw", and why."""

    result: str
    reason: str
    state_hash: str
    view: Any


@dataclass(frozen=True, slots=True)
class AuditStarted:
    """The game has ended (``result`` "white", "black", "draw", or None when the board decided it:
    a capture) and both laptops open their secrets; each now checks the other's every hidden-play
    message ("Checking the game (audit)…"). ``GameOver`` follows once the audit has passed."""

    result: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class AuditVerdict:
    """The end-of-game audit of the peer (``net.hidden_audit``): ``passed``, and ``report`` as the
    audit wrote it. A failure names the ``turn``, what was ``claim``-ed that is false and the
    peer's signed message ``seq`` (its chain number) that proves it, when the report says so.
    A passed audit is followed by ``GameOver``; a failed one stops the session (``SessionEnded``)."""

    passed: bool
    report: str
    turn: int | None = None
    claim: str = ""
    seq: int | None = None
    done: bool = True       # False: a side did not open its secrets in time, its opponent claimed the win

    def words(self) -> str:
        """The verdict in words, as both game-over screens show it."""
        if not self.done:
            return f"No audit: {self.report}"
        if self.passed:
            return "Audit passed: nobody lied"
        if self.turn is not None and self.seq is not None:
            return f"Audit failed: turn {self.turn}, {self.claim} — proven by signed message #{self.seq}"
        return f"Audit failed: {self.claim or self.report}"


AUDIT_RUNNING = "Checking the game (audit)…"


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """The network session is over: ``status`` finished, stopped, disconnected or refused."""

    status: str
    reason: str
    result: str | None
    transcript: str | None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something went wrong outside a game (cannot listen, no answer from an address...)."""

    message: str


# ---------------------------------------------------------------------------------------------
# Commands (front end -> bridge)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Host:
    """Listen for the other laptop (and advertise "hosting")."""


@dataclass(frozen=True, slots=True)
class Join:
    """Connect to a peer: a ``LobbyPeer.key``, a name, a fingerprint prefix, or "host:port"."""

    target: str


@dataclass(frozen=True, slots=True)
class Rescan:
    """Restart discovery on the current interfaces (the lobby's Discover button)."""


@dataclass(frozen=True, slots=True)
class ConfirmCode:
    """Answer the pairing code: ``yes`` when both screens show the same code."""

    yes: bool


@dataclass(frozen=True, slots=True)
class ForgetPeer:
    """Remove a pin (after an ``IdentityWarning`` about a reinstalled laptop)."""

    fingerprint: str


@dataclass(frozen=True, slots=True)
class ChooseColour:
    """Ask for a colour ("white" or "black"); a clash is settled by the fair coin."""

    colour: str


@dataclass(frozen=True, slots=True)
class ChooseGovernment:
    """Our secret government type (needs no approval, 04/U21)."""

    gov: str


@dataclass(frozen=True, slots=True)
class RequestRuleChange:
    """Ask the peer to change one rule option (04/U61)."""

    option: str
    value: Any


@dataclass(frozen=True, slots=True)
class AnswerRuleChange:
    """Approve or reject the peer's request ``rid``."""

    rid: int
    yes: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FinishSetup:
    """Finish WiFi Setup (04/U61): the game starts when both have finished on the same rules."""


@dataclass(frozen=True, slots=True)
class Act:
    """Play one action, in notation (one of ``YourTurn.legal``)."""

    text: str


@dataclass(frozen=True, slots=True)
class RequestUndo:
    """Ask to take back the last action (non-competitive games)."""


@dataclass(frozen=True, slots=True)
class AnswerUndo:
    """Approve or reject the peer's undo request."""

    yes: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Resign:
    """Resign during our own turn (RUL-53): the signed ``resign`` message; the other side wins."""


@dataclass(frozen=True, slots=True)
class OfferDraw:
    """Offer a draw during our own turn (RUL-53); it stands until the end of the peer's next turn."""


@dataclass(frozen=True, slots=True)
class AnswerDraw:
    """Accept or decline the peer's standing draw offer (RUL-53)."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Quit:
    """Leave: close the game connection and discovery (an unfinished game resumes next time)."""


GAME_COMMANDS = (ChooseColour, ChooseGovernment, RequestRuleChange, AnswerRuleChange, FinishSetup, Act,
                 RequestUndo, AnswerUndo, Resign, OfferDraw, AnswerDraw)
