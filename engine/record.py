"""The turn in progress (``TurnRecord``) and its conversion to and from a history ``Turn`` value.

Below ``engine.state``: it needs only the action values.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .actions import Drop, Exchange, Fire, Move, PickUp, Reinforce, Result, Transport, Turn


@dataclass(slots=True)
class TurnRecord:
    """The parts of the current turn's history line, collected as they happen (04/H3)."""

    move: Move | None = None
    transports: list[Transport] = field(default_factory=list)
    fires: list[Fire] = field(default_factory=list)
    pickup: PickUp | None = None
    exchange: Exchange | None = None
    reinforce: Reinforce | None = None
    drop: Drop | None = None
    results: list[Result] = field(default_factory=list)

    def copy(self) -> "TurnRecord":
        """An independent copy."""
        return TurnRecord(self.move, list(self.transports), list(self.fires), self.pickup,
                          self.exchange, self.reinforce, self.drop, list(self.results))


class _Recording(Protocol):
    """What ``current_turn`` reads of a ``GameState``."""

    record: TurnRecord


def current_turn(state: _Recording) -> Turn:
    """The current turn's parts so far, as a history line value (04/H3 order)."""
    r = state.record
    return Turn(r.move, tuple(r.transports), tuple(r.fires), r.pickup, r.exchange,
                r.reinforce, r.drop, tuple(r.results))


def record_from_turn(turn: Turn) -> TurnRecord:
    """Inverse of ``current_turn``."""
    return TurnRecord(turn.move, list(turn.transports), list(turn.fires), turn.pickup,
                      turn.exchange, turn.reinforce, turn.drop, list(turn.results))
