"""Messages of the hidden-information exchanges (issue 8): commitments, openings and PSI.

Same style and codec as ``net/messages.py``: frozen dataclasses, ``[tag, {field: value}]`` in
canonical msgpack, every field checked (type, size) on decode and on encode; a bad type,
field or size raises ``ProtocolError`` naming it. They are kept in their own registry,
``HIDDEN``: a session that speaks the hidden protocol carries them in ``signed`` frames by
decoding with ``{**GAME, **HIDDEN}`` (docs/protocol.md "Hidden information").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from net.commitments import (MAX_SLOTS, MAX_VALUE, SALT_LEN, ActionOpening, Context, LeafOpening,
                             TurnCommitment)
from net.errors import ProtocolError
from net.frames import pack, unpack_strict
from net.messages import Message, _register, decode_fields, encode_fields

__all__ = ["HIDDEN", "PSI_MODES", "MAX_PSI_X", "MAX_PSI_Z", "HiddenAction", "ActionOpen",
           "LeafOpen", "TurnOpen", "PsiQuery", "PsiReply", "PsiStep", "PsiStepReply", "PsiResult",
           "PsiReveal", "encode_hidden", "decode_hidden"]

HIDDEN: dict[str, type[Message]] = {}
PSI_MODES = ("first", "set", "count")
MAX_PSI_X = 320          # the asker's padded list: at most every cell of the board (300)
MAX_PSI_Z = MAX_SLOTS    # the responder's padded set
Check = Callable[[Any], bool]


def _b(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == n


def _bmax(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) <= n


def _int(lo: int = 0, hi: int = 2**32 - 1) -> Check:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _list(item: Check, hi: int, lo: int = 0) -> Check:
    return lambda v: isinstance(v, list) and lo <= len(v) <= hi and all(item(x) for x in v)


def _choice(*values: str) -> Check:
    return lambda v: isinstance(v, str) and v in values


_HQ: Check = lambda v: isinstance(v, str) and v in {f"HQ-{i}" for i in range(1, 18)}
_SIDE = _choice("B", "W")
_POINT = _b(32)


def hidden(tag: str, **spec: Check) -> Callable[[type], type]:
    return _register(HIDDEN, tag, **spec)


# ---- commitments -------------------------------------------------------------------------------

@hidden("hidden-action", index=_int(), commit=_b(32))
@dataclass(frozen=True)
class HiddenAction(Message):
    """A hidden action (HQ-14..HQ-16): its number in the game and its salted commitment; the
    public consequences travel beside it (engine ``Consequences``)."""
    index: int
    commit: bytes


@hidden("action-open", index=_int(), ply=_int(), side=_SIDE, value=_bmax(MAX_VALUE), salt=_b(SALT_LEN))
@dataclass(frozen=True)
class ActionOpen(Message):
    """The opening of hidden action ``index`` (at the audit)."""
    index: int
    ply: int
    side: str
    value: bytes
    salt: bytes

    @classmethod
    def of(cls, op: ActionOpening) -> "ActionOpen":
        return cls(op.index, op.ctx.ply, op.ctx.side, op.value, op.salt)

    def opening(self, game_id: bytes) -> ActionOpening:
        return ActionOpening(Context(game_id, self.side, self.ply), self.index, self.value, self.salt)


@hidden("leaf-open", ply=_int(), side=_SIDE, n_slots=_int(1, MAX_SLOTS), slot=_int(0, MAX_SLOTS - 1),
        value=_bmax(MAX_VALUE), salt=_b(SALT_LEN), path=_list(_b(32), 10))
@dataclass(frozen=True)
class LeafOpen(Message):
    """One slot of the sender's root for ``ply`` opened (a piece an answer reveals, or the
    audit): the receiver checks it with ``net.commitments.verify_leaf``."""
    ply: int
    side: str
    n_slots: int
    slot: int
    value: bytes
    salt: bytes
    path: list[bytes]

    @classmethod
    def of(cls, op: LeafOpening) -> "LeafOpen":
        return cls(op.ctx.ply, op.ctx.side, op.n_slots, op.slot, op.value, op.salt, list(op.path))

    def opening(self, game_id: bytes) -> LeafOpening:
        return LeafOpening(Context(game_id, self.side, self.ply), self.n_slots, self.slot,
                           self.value, self.salt, tuple(self.path))


@hidden("turn-open", ply=_int(), side=_SIDE, values=_list(_bmax(MAX_VALUE), MAX_SLOTS, 1),
        salts=_list(_b(SALT_LEN), MAX_SLOTS, 1))
@dataclass(frozen=True)
class TurnOpen(Message):
    """At the audit: every slot of the sender's root for ``ply`` (values and salts in slot
    order; no paths: ``net.commitments.verify_turn`` rebuilds the tree). A game's slot count
    must keep it inside one frame (about 600 slots of piece rows)."""
    ply: int
    side: str
    values: list[bytes]
    salts: list[bytes]

    @classmethod
    def of(cls, tc: TurnCommitment) -> "TurnOpen":
        return cls(tc.ctx.ply, tc.ctx.side, list(tc.values), list(tc.salts))

    def openings(self, game_id: bytes) -> list[LeafOpening]:
        """The openings for ``verify_turn`` (:raises ProtocolError: value and salt counts differ)."""
        if len(self.values) != len(self.salts):
            raise ProtocolError(f"turn-open: {len(self.values)} values but {len(self.salts)} salts")
        ctx = Context(game_id, self.side, self.ply)
        n = len(self.values)
        return [LeafOpening(ctx, n, i, v, s, ()) for i, (v, s) in enumerate(zip(self.values, self.salts))]


# ---- private set intersection (net/psi.py) ------------------------------------------------------

@hidden("psi-query", qid=_int(), hq=_HQ, mode=_choice(*PSI_MODES), size=_int(1, MAX_PSI_X),
        root=_b(32), x=_list(_POINT, MAX_PSI_X, 1))
@dataclass(frozen=True)
class PsiQuery(Message):
    """The asker's blinded cells (all ``size`` of them, or the first one in mode ``first``),
    bound to the asker's committed root of this ply."""
    qid: int
    hq: str
    mode: str
    size: int
    root: bytes
    x: list[bytes]


@hidden("psi-reply", qid=_int(), root=_b(32), z=_list(_POINT, MAX_PSI_Z, 1), y=_list(_POINT, MAX_PSI_X, 1))
@dataclass(frozen=True)
class PsiReply(Message):
    """The responder's blinded set ``z`` (padded, sorted) and the asker's values blinded again,
    bound to the responder's committed root of this ply."""
    qid: int
    root: bytes
    z: list[bytes]
    y: list[bytes]


@hidden("psi-step", qid=_int(), i=_int(1, MAX_PSI_X - 1), x=_POINT)
@dataclass(frozen=True)
class PsiStep(Message):
    """Mode ``first``: the asker's next blinded cell (position ``i``; a padding value after a hit)."""
    qid: int
    i: int
    x: bytes


@hidden("psi-step-reply", qid=_int(), i=_int(1, MAX_PSI_X - 1), y=_POINT)
@dataclass(frozen=True)
class PsiStepReply(Message):
    """Mode ``first``: position ``i`` blinded again."""
    qid: int
    i: int
    y: bytes


@hidden("psi-result", qid=_int(), hits=_list(_int(0, MAX_PSI_Z - 1), MAX_PSI_Z), count=_int(0, MAX_PSI_X))
@dataclass(frozen=True)
class PsiResult(Message):
    """What the asker found: the positions in ``z`` that matched (so the responder opens the
    pieces there) and the number of matches."""
    qid: int
    hits: list[int]
    count: int


@hidden("psi-reveal", qid=_int(), scalar=_b(32), pad_seed=_b(32))
@dataclass(frozen=True)
class PsiReveal(Message):
    """At the audit: the sender's blinding scalar and padding seed for exchange ``qid``."""
    qid: int
    scalar: bytes
    pad_seed: bytes


def encode_hidden(msg: Message) -> bytes:
    """Canonical msgpack bytes of a hidden-protocol message. :raises ProtocolError: bad field."""
    if HIDDEN.get(msg.TAG) is not type(msg):
        raise TypeError(f"{type(msg).__name__} is not a hidden-protocol message")
    return pack(encode_fields(msg))


def decode_hidden(body: bytes) -> Message:
    """Decode one hidden-protocol message. :raises ProtocolError: naming the type, field or size."""
    return decode_fields(unpack_strict(body), HIDDEN, "hidden")
