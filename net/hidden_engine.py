"""The engine side of a hidden network game, as the play machine uses it (issue 8).

One narrow seam between ``net.hidden_play`` and the engine's partial states (docs/hidden.md):
resolving one event step by step (``Side.resolve_step``: the next ``Question`` for the owner,
or ``Resolved``), the owner's answer (``owner_answer``), the plain codecs of the values that
travel (``engine.partial_codec``; their canonical msgpack bytes are what is signed, logged and
compared by the audit), the public hash of a partial state and the committed value of a piece
(``leaf_value``: the plain ``Opening``).
"""
from __future__ import annotations

from typing import Any, Sequence

from engine import partial_codec as codec
from engine.actions import Action
from engine.asking import Answer, Question, owner_answer
from engine.errors import RuleError
from engine.openings import Opening, opening
from engine.partial import Consequences, Detectors, Resolved, Side, public_hash
from engine.state import GameState
from net.errors import ProtocolError
from net.frames import pack, unpack_strict

__all__ = ["Question", "Answer", "Resolved", "resolve_step", "owner_answer", "public_hash", "leaf_value",
           "dump_question", "load_question", "dump_answer", "load_answer", "dump_consequences",
           "load_consequences", "dump_detectors", "load_detectors", "dump_opening", "load_opening",
           "answer_openings", "plain", "RuleError"]


def resolve_step(side: Side, action: Action | None, answers: Sequence[Answer]) -> Resolved | Question:
    """Re-run ``side``'s event with the answers so far (deterministic): the next question for the
    owner, or the event resolved. ``action`` None = the start phase. :raises RuleError: illegal."""
    return side.resolve_step(action, answers)


def answer_openings(a: Answer) -> tuple[Opening, ...]:
    """The pieces an answer opens."""
    return a.opened


def leaf_value(state: GameState, sid: int) -> list[Any]:
    """The committed value of own piece ``sid`` in ``state``: its plain ``Opening``."""
    return codec.dump_opening(opening(state, sid))


def dump_opening(op: Opening) -> list[Any]:
    return codec.dump_opening(op)


def load_opening(raw: Any) -> Opening:
    """:raises ValueError: not an opening."""
    return codec.load_opening(raw)


def _load(data: bytes, what: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(unpack_strict(data), *args)
    except ProtocolError as exc:
        raise ValueError(f"undecodable {what}: {exc}") from None


def dump_question(q: Question) -> bytes:
    return pack(codec.dump_question(q))


def load_question(data: bytes) -> Question:
    """:raises ValueError: not a question."""
    return _load(data, "question", codec.load_question)


def dump_answer(a: Answer) -> bytes:
    return pack(codec.dump_answer(a))


def load_answer(data: bytes, kind: str) -> Answer:
    """The answer to a question of ``kind``. :raises ValueError: not one."""
    return _load(data, "answer", codec.load_answer, kind)


def dump_consequences(c: Consequences) -> bytes:
    return pack(codec.dump_consequences(c))


def load_consequences(data: bytes) -> Consequences:
    return _load(data, "consequences", codec.load_consequences)


def dump_detectors(d: Detectors) -> bytes:
    return pack(codec.dump_detectors(d))


def load_detectors(data: bytes) -> Detectors:
    return _load(data, "detectors", codec.load_detectors)


def plain(data: bytes) -> Any:
    """The plain value behind a blob (for reports)."""
    try:
        return unpack_strict(data)
    except ProtocolError:
        return data
