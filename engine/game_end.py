"""The finished turn's history line and the game end (RUL-2; 04/H3; docs/rulings.md E-1)."""
from __future__ import annotations

from .actions import Action, Drop, Exchange, Fire, Move, PickUp, Reinforce
from .notation import format_turn
from .record import current_turn
from .state import GameState, enemy


PART_ORDER = ("MV", "FI1", "FI2", "PU", "EX", "RE", "DR")


def part_tags(actions: tuple[Action, ...]) -> list[str]:
    """The history part each action wrote, in played order (04/H3)."""
    tags, fires = [], 0
    for a in actions:
        if isinstance(a, Move):
            tags.append("MV")
        elif isinstance(a, Fire):
            fires += 1
            tags.append(f"FI{fires}")
        elif isinstance(a, PickUp):
            tags.append("PU")
        elif isinstance(a, Exchange):
            tags.append("EX")
        elif isinstance(a, Reinforce):
            tags.append("RE")
        elif isinstance(a, Drop):
            tags.append("DR")
    return tags


def finish_line(state: GameState) -> None:
    """Append the finished turn's history line, and its played order when that differs from
    the printing order (docs/rulings.md E-1)."""
    tags = part_tags(state.actions)
    printed = [t for t in PART_ORDER if t in tags]
    state.history = state.history + (format_turn(current_turn(state)),)
    state.orders = state.orders + (",".join(tags) if tags != printed else "",)


def check_game_end(state: GameState) -> None:
    """RUL-2: a primary piece fell this turn: the mover loses if one of its own fell."""
    lost = state.turn.lost_primary
    if not lost or state.result is not None:
        return
    mover = state.side_to_move
    winner = enemy(mover) if mover in lost else mover
    state.result = winner
    state.end_reason = "primary government piece lost (RUL-2)"
    finish_line(state)
    state.touch()
