"""Every protocol message as a frozen dataclass, with a symmetric strict codec.

Two layers (docs/protocol.md):
- link messages, one per frame: ``[tag, {field: value}]`` (hello, pairing, ping, signed envelope);
- game messages, carried in the signed payload of a ``Signed`` frame (see ``net/chain.py``):
  colour and toss, governments, rule requests, finish, actions, end turn, undo, desync.
Each class lists its fields with a validator; ``decode`` raises ``ProtocolError`` naming the
type, field or limit that is wrong. Tags of reserved types (hidden pieces, next issue) are
known but refused in protocol version 1.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from net.errors import ProtocolError
from net.frames import MAX_FRAME, pack, unpack_strict

PROTOCOL_VERSION = 1
COLOURS = ("white", "black")
Check = Callable[[Any], bool]


def _bytes(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == n


def _bytes_max(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) <= n


def _str(n: int) -> Check:
    return lambda v: isinstance(v, str) and len(v) <= n


def _int(lo: int = 0, hi: int = 2**63 - 1) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _opt(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _choice(*values: str) -> Check:
    return lambda v: isinstance(v, str) and v in values


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, str)) or (
        isinstance(v, list) and len(v) <= 64 and all(x is None or isinstance(x, (bool, int, str)) for x in v))


def _changes(v: Any) -> bool:
    return isinstance(v, dict) and 0 < len(v) <= 32 and all(
        isinstance(k, str) and len(k) <= 64 and _scalar(x) for k, x in v.items())


_HEX64: Check = lambda v: isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)

LINK: dict[str, type["Message"]] = {}
GAME: dict[str, type["Message"]] = {}
RESERVED_GAME_TAGS = frozenset({"commit-open", "audit"})


class Message:
    """Base of all messages: ``TAG`` and per-field validators in ``SPEC``."""

    TAG: ClassVar[str]
    SPEC: ClassVar[dict[str, Check]]

    def fields(self) -> dict[str, Any]:
        """The fields in declaration order (the canonical order on the wire)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]


def _register(registry: dict[str, type[Message]], tag: str, **spec: Check) -> Callable[[type], type]:
    def deco(cls: type) -> type:
        cls.TAG, cls.SPEC = tag, spec
        names = [f.name for f in dataclasses.fields(cls)]
        if names != list(spec):
            raise TypeError(f"{cls.__name__}: spec {list(spec)} != fields {names}")
        registry[tag] = cls
        return cls
    return deco


def link(tag: str, **spec: Check) -> Callable[[type], type]:
    return _register(LINK, tag, **spec)


def game(tag: str, **spec: Check) -> Callable[[type], type]:
    return _register(GAME, tag, **spec)


# ---- link messages -------------------------------------------------------------------------

@link("hello", v=_int(), mode=_choice("pair", "play"), name=_str(64), licence=_opt(_bytes_max(4096)),
      nonce=_bytes(32), chain=_opt(_bytes(32)), sent=_int(), recv=_int())
@dataclass(frozen=True)
class Hello(Message):
    """First message each way: version, intent, display name, licence token and resume point."""
    v: int
    mode: str
    name: str
    licence: bytes | None
    nonce: bytes
    chain: bytes | None
    sent: int
    recv: int


@link("refuse", reason=_str(512))
@dataclass(frozen=True)
class Refuse(Message):
    """Last message before closing: the reason, for the other player."""
    reason: str


@link("stopped", reason=_str(512))
@dataclass(frozen=True)
class Stopped(Message):
    """Last message before closing when the sender stopped the game (a message the protocol
    forbids, a lie caught, equivocation): it will not resume it. ``reason``: its diagnosis."""
    reason: str


LICENCE_REFUSAL_VERSION = 1


@link("licence-refused", v=_int(1, 1), code=_str(32), detail=_str(512))
@dataclass(frozen=True)
class LicenceRefused(Message):
    """Last message before closing when the receiver's licence token was refused at hello
    (issue 5, DESIGN §5): ``code`` is the stable ``LicenceError`` code (``not_activated`` when
    no token was sent), ``detail`` the reason. ``v`` = ``LICENCE_REFUSAL_VERSION`` (1)."""
    v: int
    code: str
    detail: str


@link("pair-commit", id_pub=_bytes(32), cert=_bytes_max(4096), commit=_bytes(32))
@dataclass(frozen=True)
class PairCommit(Message):
    """Initiator: its identity, its certificate and a commitment to its nonce."""
    id_pub: bytes
    cert: bytes
    commit: bytes


@link("pair-nonce", id_pub=_bytes(32), nonce=_bytes(32))
@dataclass(frozen=True)
class PairNonce(Message):
    """Responder: its identity and its nonce (only after the commitment arrived)."""
    id_pub: bytes
    nonce: bytes


@link("pair-reveal", nonce=_bytes(32))
@dataclass(frozen=True)
class PairReveal(Message):
    """Initiator: the nonce it committed to."""
    nonce: bytes


@link("pair-confirm", accept=_bool, sig=_bytes_max(64))
@dataclass(frozen=True)
class PairConfirm(Message):
    """The player's answer; if accepted, a signature over the pairing transcript."""
    accept: bool
    sig: bytes


@link("got", n=_int())
@dataclass(frozen=True)
class Got(Message):
    """Sent before closing by the side whose game a signed message of the other side ended (a
    resignation, a draw acceptance, a claim): its transcript holds ``n`` of the other side's signed
    messages, that one included, and is durable. The side whose message ended the game keeps its
    log the active one until this receipt covers it, so that a peer which left before reading it
    gets it on its return (docs/rulings.md N-6)."""
    n: int


@link("ping", n=_int())
@dataclass(frozen=True)
class Ping(Message):
    """Liveness probe on an idle link."""
    n: int


@link("pong", n=_int())
@dataclass(frozen=True)
class Pong(Message):
    """Answer to a ping."""
    n: int


@link("signed", payload=_bytes_max(MAX_FRAME), sig=_bytes(64))
@dataclass(frozen=True)
class Signed(Message):
    """A signed, numbered, chained game message (see net/chain.py)."""
    payload: bytes
    sig: bytes


# ---- game messages -------------------------------------------------------------------------

@game("colour", choice=_choice(*COLOURS), toss_commit=_bytes(32))
@dataclass(frozen=True)
class Colour(Message):
    """The colour a player wants, with a commitment to its coin-toss nonce."""
    choice: str
    toss_commit: bytes


@game("toss-reveal", nonce=_bytes(32))
@dataclass(frozen=True)
class TossReveal(Message):
    """Opens the toss commitment (sent only when both chose the same colour)."""
    nonce: bytes


@game("gov-commit", commit=_bytes(32))
@dataclass(frozen=True)
class GovCommit(Message):
    """Commitment to this player's secret government type."""
    commit: bytes


@game("gov-reveal", gov=_str(64), salt=_bytes(32))
@dataclass(frozen=True)
class GovReveal(Message):
    """Opens the government commitment (after both commitments arrived)."""
    gov: str
    salt: bytes


@game("rule-request", rid=_int(), changes=_changes)
@dataclass(frozen=True)
class RuleRequest(Message):
    """A requested rule change: option name -> new value."""
    rid: int
    changes: dict[str, Any]


@game("rule-answer", rid=_int(), accept=_bool, reason=_str(256))
@dataclass(frozen=True)
class RuleAnswer(Message):
    """The other player approves or rejects request ``rid``."""
    rid: int
    accept: bool
    reason: str


@game("finish", options_hash=_bytes(32))
@dataclass(frozen=True)
class Finish(Message):
    """Finish setup: signs the hash of the agreed options (and colours)."""
    options_hash: bytes


@game("action", index=_int(), text=_str(128))
@dataclass(frozen=True)
class Action(Message):
    """One action in engine notation; ``index`` is the number of actions applied before it."""
    index: int
    text: str


@game("action-result", index=_int(), ok=_bool, rule=_str(32), reason=_str(256))
@dataclass(frozen=True)
class ActionResult(Message):
    """The receiver applied action ``index`` (ok) or rejected it, naming the rule broken."""
    index: int
    ok: bool
    rule: str
    reason: str


@game("end-turn", turn=_int(), index=_int(), state_hash=_HEX64, commit_root=_opt(_bytes(32)))
@dataclass(frozen=True)
class EndTurn(Message):
    """State hash after turn ``turn`` (``index`` actions applied); ``commit_root`` is for hidden pieces."""
    turn: int
    index: int
    state_hash: str
    commit_root: bytes | None


@game("undo-request", index=_int())
@dataclass(frozen=True)
class UndoRequest(Message):
    """Ask to take back the last action (non-competitive games only)."""
    index: int


@game("undo-answer", index=_int(), accept=_bool, reason=_str(256))
@dataclass(frozen=True)
class UndoAnswer(Message):
    """Approve or reject undo request ``index``; ``reason`` says why it was rejected ("" if approved)."""
    index: int
    accept: bool
    reason: str


@game("desync", turn=_int(), state_hash=_HEX64, detail=_str(512))
@dataclass(frozen=True)
class DesyncReport(Message):
    """The sender's state hash differs: the game stops with this diagnosis."""
    turn: int
    state_hash: str
    detail: str


# ---- endings (issue 10 item 1, RUL-53) ------------------------------------------------------

CLAIM_KINDS = ("abandoned", "time", "refused-actions", "audit", "breach")


@game("resign", turn=_int(), index=_int())
@dataclass(frozen=True)
class Resign(Message):
    """The sender resigns during its own turn ``turn`` with ``index`` actions applied: it loses (RUL-53)."""
    turn: int
    index: int


@game("draw-offer", turn=_int())
@dataclass(frozen=True)
class DrawOffer(Message):
    """A draw offered during the sender's turn ``turn``; it stands until the end of the receiver's next turn."""
    turn: int


@game("draw-answer", turn=_int(), accept=_bool)
@dataclass(frozen=True)
class DrawAnswer(Message):
    """Answer to the draw offered in turn ``turn``: an acceptance (in the receiver's next turn) draws the game."""
    turn: int
    accept: bool


@game("claim", kind=_choice(*CLAIM_KINDS), turn=_int(), index=_int(), seen=_int(), detail=_str(256))
@dataclass(frozen=True)
class Claim(Message):
    """The sender claims the game: the other side abandoned it, ran out of its move time, or sent too
    many refused actions in one turn. ``seen`` = how many of the other side's messages the sender
    holds (the signed evidence the claim rests on is the transcript up to them)."""
    kind: str
    turn: int
    index: int
    seen: int
    detail: str


def encode_fields(msg: Message) -> list[Any]:
    """``[tag, {field: value}]`` for ``msg`` (validated, so we never send what we would refuse)."""
    fields = msg.fields()
    _validate(type(msg), fields)
    return [msg.TAG, fields]


def encode_link(msg: Message) -> bytes:
    """Frame body for a link message."""
    if LINK.get(msg.TAG) is not type(msg):
        raise TypeError(f"{type(msg).__name__} is not a link message")
    return pack(encode_fields(msg))


def decode_link(body: bytes) -> Message:
    """Decode a frame body. :raises ProtocolError: naming what is wrong."""
    return decode_fields(unpack_strict(body), LINK, "link")


def decode_fields(obj: Any, registry: dict[str, type[Message]], layer: str) -> Message:
    """Build a message from ``[tag, {fields}]``. :raises ProtocolError: bad shape, tag or field."""
    if not (isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], dict)):
        raise ProtocolError(f"{layer} message must be [tag, fields]")
    tag, fields = obj
    if layer == "game" and tag in RESERVED_GAME_TAGS:
        raise ProtocolError(f"message type {tag!r} is reserved (hidden pieces) and not used "
                            f"in protocol v{PROTOCOL_VERSION}")
    cls = registry.get(tag)
    if cls is None:
        raise ProtocolError(f"unknown {layer} message type {tag[:32]!r}")
    _validate(cls, fields)
    return cls(**fields)


def _validate(cls: type[Message], fields: dict[str, Any]) -> None:
    if list(fields) != list(cls.SPEC):
        raise ProtocolError(f"{cls.TAG}: fields {sorted(fields)[:12]} != expected {list(cls.SPEC)}")
    for name, check in cls.SPEC.items():
        if not check(fields[name]):
            raise ProtocolError(f"{cls.TAG}: field {name!r} has a bad type, value or size")
