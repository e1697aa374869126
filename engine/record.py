"""Conversion between the turn in progress (``TurnRecord``) and a history ``Turn`` value."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Turn

if TYPE_CHECKING:
    from .state import GameState, TurnRecord


def current_turn(state: "GameState") -> Turn:
    """The current turn's parts so far, as a history line value (04/H3 order)."""
    r = state.record
    return Turn(r.move, tuple(r.transports), tuple(r.fires), r.pickup, r.exchange,
                r.reinforce, r.drop, tuple(r.results))


def record_from_turn(turn: Turn) -> "TurnRecord":
    """Inverse of ``current_turn``."""
    from .state import TurnRecord

    return TurnRecord(turn.move, list(turn.transports), list(turn.fires), turn.pickup,
                      turn.exchange, turn.reinforce, turn.drop, list(turn.results))
