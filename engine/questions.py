"""The questions of the hidden-information boundary (DESIGN §3; 00 HQ-1..HQ-17): a leaf module.

Resolving an action may depend on enemy pieces its author cannot see. The rules never look
at those pieces directly: they ask the current ``Answerer``. This module only defines the
questions (the ``Answerer`` protocol and the ``Hit`` value some of them carry) and which
answerer is in force; it imports nothing of the rules, so every rule module may ask.
``engine.answerer`` holds the ``OmniscientAnswerer`` (above the rules it answers from) and
installs it as the default; in a network game the side that owns the hidden pieces answers.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from typing import Iterator, Protocol, Sequence

from .state import Cell, GameState, Projectile


@dataclass(frozen=True, slots=True)
class Hit:
    """``strength`` hits of ``weapon`` on piece ``sid``; ``cause`` is the result token (04/H20)."""

    sid: int
    weapon: str
    strength: int
    cause: str
    by: str = ""          # the side that caused the hit when it differs within one event


class Answerer(Protocol):
    """Answers questions about pieces hidden from the asking side."""

    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> int | None:
        """HQ-1: index of the first listed cell holding enemy pieces hidden from ``asker``.
        ``public``: the cells say nothing of the asker's hidden pieces (HQ-8, a projectile's
        cell: "asker discloses nothing"), so a network game may ask in clear (docs/rulings.md P-12)."""

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        """HQ-2: whether some route is free of the pieces hidden from ``asker`` (destination excluded)."""

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> tuple[int, ...]:
        """HQ-1, HQ-3..HQ-8: the hidden enemy pieces on these cells (sids, ascending): taken,
        hit or nudged by the action. ``public``: as for ``first_hidden`` (HQ-8)."""

    def any_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> bool:
        """HQ-12/HQ-13: whether these cells hold any enemy piece hidden from ``asker`` (a
        landing, descent, rise or Reinforce learns only that, not which pieces)."""

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        """HQ-11: the hidden stealthy enemy a new lock of ``side`` held on ``square`` takes."""

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence[Hit]) -> dict[int, bool]:
        """HQ-4..HQ-8: which of these hidden pieces the hits take effect on (RUL-7)."""

    def homing_step(self, state: GameState, proj: Projectile) -> tuple[int, int] | None:
        """HQ-9: the step towards a homing projectile's target, or None if the lock is lost."""

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell], shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        """HQ-3: (stall?, the hidden members on the chosen cells) for a nudge of ``group``."""


_CURRENT: contextvars.ContextVar[Answerer | None] = contextvars.ContextVar(
    "wec_answerer", default=None)
_DEFAULT: list[Answerer] = []     # set once by engine.answerer (dependency inversion)


def set_default_answerer(answerer: Answerer) -> None:
    """The answerer used where no ``answering`` block selects one (engine.answerer installs
    the ``OmniscientAnswerer`` when it is imported; ``engine`` imports it)."""
    _DEFAULT[:] = [answerer]


def current_answerer() -> Answerer:
    """The answerer in force for the action being resolved."""
    answerer = _CURRENT.get()
    if answerer is not None:
        return answerer
    if not _DEFAULT:
        raise RuntimeError("no answerer installed: import engine.answerer")
    return _DEFAULT[0]


@contextlib.contextmanager
def answering(answerer: Answerer | None) -> Iterator[None]:
    """Resolve actions inside the block with ``answerer`` (None keeps the current one)."""
    if answerer is None:
        yield
        return
    token = _CURRENT.set(answerer)
    try:
        yield
    finally:
        _CURRENT.reset(token)
