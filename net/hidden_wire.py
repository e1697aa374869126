"""The game messages of hidden play (issue 8): questions, answers, events, acks, shown, the audit.

Registered in the ``GAME`` registry (signed, numbered, chained like every game message; the
chain reader imports this module). Every message of the per-action exchange carries the
sender's current commitment root (``rn``: its number, ``root``) and the hash of its public
state (``phash``); a piece it shows or opens travels as a leaf opening of that root
(``[slot, value, salt, path]``, ``net.commitments.verify_leaf``). docs/protocol.md "Hidden play".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from net.commitments import MAX_SLOTS, MAX_VALUE, SALT_LEN, Context, LeafOpening
from net.messages import Message, game

__all__ = ["HiddenQuery", "HiddenAnswer", "HiddenEvent", "HiddenAck", "HiddenShown", "AuditOpen", "leaf",
           "unleaf", "MAX_BLOB", "MAX_OPENED", "HIDDEN_PLAY"]

MAX_BLOB = 48 * 1024      # one question, answer, consequences or detectors (a frame is 64 KiB)
MAX_OPENED = 64           # leaf openings in one message (a side never shows more pieces)
MAX_AUDIT_ACTIONS = 2048
Check = Callable[[Any], bool]


def _int(lo: int = 0, hi: int = 2**32 - 1) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _b(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == n


def _bmax(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) <= n


def _ints(hi: int) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= hi and all(_int()(x) for x in v)


def _leaf(v: Any) -> bool:
    """``[slot, value, salt, path]`` (``leaf``). Written out, not composed of the checks above:
    an ``ack`` or ``shown`` carries some 25 leaves of about ten fields each, checked when it is
    signed and when it is received, on the critical path (issue 10 item 6)."""
    if not (type(v) is list and len(v) == 4):
        return False
    slot, value, salt, path = v
    return (type(slot) is int and 0 <= slot <= MAX_SLOTS - 1 and type(value) is bytes and len(value) <= MAX_VALUE
            and type(salt) is bytes and len(salt) == SALT_LEN and type(path) is list and len(path) <= 10
            and all(type(h) is bytes and len(h) == 32 for h in path))


def _leaves(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_OPENED and all(_leaf(x) for x in v)


_HEX64: Check = lambda v: isinstance(v, str) and len(v) == 64 and not v.strip("0123456789abcdef")
_ROOT = dict(rn=_int(), root=_b(32), phash=_HEX64)


def _audit_actions(v: Any) -> bool:
    return (isinstance(v, list) and len(v) <= MAX_AUDIT_ACTIONS
            and all(isinstance(x, list) and len(x) == 2 and _int()(x[0]) and isinstance(x[1], str)
                    and len(x[1]) <= 128 for x in v))


def leaf(op: LeafOpening) -> list[Any]:
    """The wire form of one leaf opening (its context is the message's root)."""
    return [op.slot, op.value, op.salt, list(op.path)]


def unleaf(raw: list[Any], ctx: Context, n_slots: int) -> LeafOpening:
    """The leaf opening ``raw`` of the root numbered by ``ctx``."""
    return LeafOpening(ctx, n_slots, raw[0], raw[1], raw[2], tuple(raw[3]))


SEAL_LEN = 128 + 16       # an action's text, padded to 128 bytes, sealed with ChaCha20-Poly1305
_SEAL = lambda v: v is None or (isinstance(v, bytes) and len(v) == SEAL_LEN)  # noqa: E731


@game("hidden-query", ev=_int(), n=_int(), question=_bmax(MAX_BLOB), seal=_SEAL, **_ROOT)
@dataclass(frozen=True)
class HiddenQuery(Message):
    """Resolver -> owner: question ``n`` of event ``ev`` (HQ-1..HQ-13). The first message of our
    action carries ``seal``: its text encrypted to ourselves (net.hidden_seal), so that the peer's
    copy rebuilds our log after a crash while only we can read it."""
    ev: int
    n: int
    question: bytes
    seal: bytes | None
    rn: int
    root: bytes
    phash: str


@game("hidden-answer", ev=_int(), n=_int(), answer=_bmax(MAX_BLOB), opened=_leaves, **_ROOT)
@dataclass(frozen=True)
class HiddenAnswer(Message):
    """Owner -> resolver: the answer to question ``n``, bound to the owner's root; every piece it
    opens is one of ``opened`` (checked against ``root`` at once)."""
    ev: int
    n: int
    answer: bytes
    opened: list[list[Any]]
    rn: int
    root: bytes
    phash: str


@game("event", ev=_int(), index=_int(), text=lambda v: isinstance(v, str) and len(v) <= 128,
      commit=lambda v: v is None or (isinstance(v, bytes) and len(v) == 32), cons=_bmax(MAX_BLOB),
      det=_bmax(MAX_BLOB), seal=_SEAL, **_ROOT)
@dataclass(frozen=True)
class HiddenEvent(Message):
    """Resolver -> owner: event ``ev`` resolved (action ``index``; a start phase has
    ``text`` "" and no ``commit``): a public action's ``text``, or a hidden action's
    ``commit`` (``commit_action``); the consequences for the owner and the resolver's detectors."""
    ev: int
    index: int
    text: str
    commit: bytes | None
    cons: bytes
    det: bytes
    seal: bytes | None
    rn: int
    root: bytes
    phash: str


@game("ack", ev=_int(), targets=_ints(MAX_SLOTS), shown=_leaves, det=_bmax(MAX_BLOB), **_ROOT)
@dataclass(frozen=True)
class HiddenAck(Message):
    """Owner -> resolver: consequences applied; the targets of its locks (RUL-19), its pieces the
    resolver sees now (``shown``, leaf openings, HQ-10, HQ-16) and its detectors."""
    ev: int
    targets: list[int]
    shown: list[list[Any]]
    det: bytes
    rn: int
    root: bytes
    phash: str


@game("shown", ev=_int(), gone=_ints(MAX_SLOTS), shown=_leaves, **_ROOT)
@dataclass(frozen=True)
class HiddenShown(Message):
    """Resolver -> owner: which lock targets the event destroyed or converted (``gone``) and the
    resolver's pieces the owner sees now (leaf openings). Ends event ``ev``."""
    ev: int
    gone: list[int]
    shown: list[list[Any]]
    rn: int
    root: bytes
    phash: str


@game("audit-open", seed=_b(32), actions=_audit_actions)
@dataclass(frozen=True)
class AuditOpen(Message):
    """At the game's end: the sender's salt secret (every salt of its roots and commitments is
    derived from it) and each of its hidden actions ``[index, text]`` (issue 8 item 5)."""
    seed: bytes
    actions: list[list[Any]]


HIDDEN_PLAY = (HiddenQuery, HiddenAnswer, HiddenEvent, HiddenAck, HiddenShown)

