"""The engine side of a hidden network game, as the play machine uses it (issue 8).

One narrow seam between ``net.hidden_play`` and ``engine.partial`` (docs/hidden.md): resolving
one event step by step (``resolve_step``: the next ``Question`` for the owner, or ``Resolved``),
the owner's answer (``owner_answer``), the plain codecs of the values that travel, the public
hash of a partial state and the committed value of a piece (``leaf_value``).

STAND-IN: until the engine's split (lead, branch ``split8``: ``Side.resolve_step``,
``owner_answer``, plain codecs, ``public_hash``) lands, a question here carries the resolver's
working state (which the owner's ``PeerAnswerer`` reads), so the owner learns more than the HQ
items allow; the question, answer, consequences and detectors travel as a restricted pickle
(only engine value classes may be rebuilt). Only this module changes when the split lands.
"""
from __future__ import annotations

import hashlib
import io
import pickle
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import msgpack

from engine.actions import Action, EndTurn, Move
from engine.errors import RuleError
from engine.partial import Consequences, Detectors, Opening, PeerAnswerer, Shown, Side, opening, put_opening
from engine.questions import answering
from engine.rules import apply_action, begin_turn, end_phase
from engine.state import GameState, Piece, deserialise, enemy, serialise, to_dict

__all__ = ["Question", "Answer", "Resolved", "resolve_step", "owner_answer", "public_hash", "leaf_value",
           "dump", "load", "dump_opening", "load_opening", "answer_openings", "RuleError"]


@dataclass(frozen=True)
class Question:
    """One question of the resolver's engine for the owner (stand-in: the answerer method, its
    arguments, the working state it reads, the serials the event touched and opened so far)."""

    kind: str
    args: tuple[Any, ...]
    work: bytes
    touched: tuple[int, ...]
    opened: tuple[int, ...]


@dataclass(frozen=True)
class Answer:
    """The owner's answer: the value the rules get, and the pieces it opens (in full)."""

    value: Any
    openings: tuple[Opening, ...] = ()


@dataclass
class Record:
    """What the owner's answers did during one event (``PeerAnswerer``'s bookkeeping)."""

    owner: str
    touched: set[int] = field(default_factory=set)
    opened: list[int] = field(default_factory=list)
    asked: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Resolved:
    """The event resolved: the resolver's new state, what the owner receives, the state before."""

    work: GameState
    consequences: Consequences
    before: GameState
    answerer: Record


class _Need(BaseException):
    """Raised inside the rules at the first question without an answer yet."""

    def __init__(self, question: Question) -> None:
        self.question = question


_KINDS = ("first_hidden", "any_route_clear", "hidden_on", "any_hidden", "lock_target", "hit_outcomes",
          "homing_step", "nudge_outcome")


class _Script:
    """An ``Answerer`` that gives the answers received so far, in order, and raises ``_Need``
    with the next question. Openings enter the working state exactly as ``PeerAnswerer._open``."""

    def __init__(self, before: GameState, owner: str, answers: Sequence[Answer]) -> None:
        self.record = Record(owner, {s for s, p in before.pieces.items() if p.side == owner})
        self.answers, self.i = answers, 0

    def _ask(self, kind: str, state: GameState, args: tuple[Any, ...]) -> Any:
        rec = self.record
        rec.asked[kind] = rec.asked.get(kind, 0) + 1
        if self.i >= len(self.answers):
            raise _Need(Question(kind, args, serialise(state), tuple(sorted(rec.touched)), tuple(rec.opened)))
        answer = self.answers[self.i]
        self.i += 1
        for op in answer.openings:
            sid = op.piece.sid
            if sid not in state.pieces:
                put_opening(state, op)
                rec.touched.add(sid)
                rec.opened.append(sid)
        return answer.value

    def __getattr__(self, kind: str) -> Any:
        if kind not in _KINDS:
            raise AttributeError(kind)
        return lambda state, *args: self._ask(kind, state, args)


def resolve_step(side: Side, action: Action | None, answers: Sequence[Answer]) -> Resolved | Question:
    """Re-run ``side``'s event from its state with the answers so far (deterministic): the next
    question for the owner, or the event resolved. ``action`` None = the start phase.

    :raises RuleError: the action is illegal (the state is unchanged)."""
    script = _Script(side.state, enemy(side.side), answers)
    try:
        if action is None:
            work = side.state.clone()
            with answering(script):   # type: ignore[arg-type]
                begin_turn(work)
        elif isinstance(action, EndTurn):
            work = end_phase(side.state, script)    # type: ignore[arg-type]
        else:
            work = apply_action(side.state, action, answerer=script)   # type: ignore[arg-type]
    except _Need as need:
        return need.question
    before = side.state
    c = side.consequences(work, script.record, action)   # type: ignore[arg-type]
    actors = side.actors(action) if action is not None else frozenset()
    if c.action is None and action is not None and not isinstance(action, Move) and \
            any(work.reveals.get(s, 0) > before.reveals.get(s, 0) for s in actors):
        c = replace(c, action=action)   # a Fire that reveals its firer counts as seen (RUL-37, RUL-20)
    return Resolved(work, c, before, script.record)


def owner_answer(owner_state: GameState, owner: str, q: Question) -> Answer:
    """The owner's answer to ``q`` from its own partial state."""
    if q.kind not in _KINDS:
        raise ValueError(f"unknown question {q.kind!r}")
    answerer = PeerAnswerer(owner_state, owner, GameState(owner_state.options))
    answerer.touched = set(q.touched)
    answerer.opened = list(q.opened)
    work = deserialise(q.work)
    value = getattr(answerer, q.kind)(work, *q.args)
    new = answerer.opened[len(q.opened):]
    return Answer(value, tuple(opening(owner_state, sid) for sid in new))


def answer_openings(a: Answer) -> tuple[Opening, ...]:
    """The pieces an answer opens."""
    return a.openings


# -- public hash and committed values --------------------------------------------------------

_PUBLIC = ("ply", "ground", "reinforcements", "next_sid", "projectiles", "next_pid", "result", "end_reason")


def public_hash(state: GameState) -> str:
    """SHA-256 of the public part of a (partial) state: equal on both sides after an event."""
    d = to_dict(state)
    ground = {a for aids in state.ground.values() for a in aids}
    pub = [d[k] for k in _PUBLIC] + [sorted(state.turn.lost_primary),
                                     sorted([a, n] for a, n in state.art_ready.items() if a in ground)]
    return hashlib.sha256(b"wec/public/v1\0" + msgpack.packb(pub, use_bin_type=True)).hexdigest()


def _piece_row(p: Piece) -> list[Any]:
    trip = None
    if p.trip is not None:
        aid, level, ply, order, path = p.trip
        trip = [aid, level, ply, order, [list(sq) for sq in path]]
    return [p.sid, p.kind, p.side, p.row, p.col, p.level, p.hand, list(p.arts), p.stun, p.origin, trip,
            [list(r) for r in p.ready]]


def dump_opening(op: Opening) -> list[Any]:
    """The plain (msgpack) form of an ``Opening``: the value a piece's leaf commits to."""
    return [_piece_row(op.piece), [list(h) for h in op.hits], op.revealed_until,
            [list(x) for x in op.art_ready], [[list(k), t] for k, t in op.locks], op.stunned_at_start]


def load_opening(raw: Any) -> Opening:
    """:raises ValueError: not an opening."""
    try:
        row, hits, rev, ready, locks, stunned = raw
        sid, kind, side, r, c, level, hand, arts, stun, origin, trip, pready = row
        trip_t = None if trip is None else (trip[0], trip[1], trip[2], trip[3], tuple(tuple(sq) for sq in trip[4]))
        piece = Piece(sid, kind, side, r, c, level, hand, tuple(arts), stun, origin, trip_t,
                      tuple(tuple(x) for x in pready))
        return Opening(piece, tuple(tuple(h) for h in hits), rev, tuple(tuple(x) for x in ready),
                       tuple(((k[0], k[1]), t) for k, t in locks), bool(stunned))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a piece opening: {exc}") from None


def leaf_value(state: GameState, sid: int) -> list[Any]:
    """The committed value of own piece ``sid`` in ``state``."""
    return dump_opening(opening(state, sid))


# -- codecs of the values that travel (stand-in: restricted pickle) ---------------------------

_ALLOWED_MODULES = ("engine.state", "engine.partial", "engine.questions", "engine.actions", "engine.options",
                    "net.hidden_engine")
_ALLOWED_BUILTINS = {"frozenset", "set", "tuple", "list", "dict", "int", "str", "bool", "bytes"}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _ALLOWED_BUILTINS:
            return super().find_class(module, name)
        if module in _ALLOWED_MODULES and not name.startswith("_") and name[:1].isupper():
            cls = super().find_class(module, name)
            if isinstance(cls, type):
                return cls
        if module == "copyreg" and name == "_reconstructor":
            return super().find_class(module, name)
        raise ValueError(f"refused to decode {module}.{name}")


def dump(value: Question | Answer | Consequences | Detectors | Shown) -> bytes:
    """Bytes of a value that travels (stand-in codec)."""
    return pickle.dumps(value, protocol=4)


def load(data: bytes, kind: type) -> Any:
    """Decode ``data`` as a ``kind``. :raises ValueError: not one."""
    try:
        value = _Unpickler(io.BytesIO(data)).load()
    except ValueError:
        raise
    except Exception as exc:
        raise ValueError(f"undecodable {kind.__name__}: {type(exc).__name__}") from None
    if not isinstance(value, kind):
        raise ValueError(f"expected a {kind.__name__}, got {type(value).__name__}")
    return value
