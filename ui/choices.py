"""Which legal actions a click means (04/U32–U42), as pure functions of the action list.

04/U33: at the start of a turn the left button works for Move (and the other non-Fire
actions), the right button for Fire. 04/U35: clicking a piece highlights the squares its
actions reach; clicking one of them chooses the action. When one square is reached by several
actions (levels, nudges, two pieces in a square: 04/U36), the scene asks with a short list.
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, Reinforce

__all__ = ["source_cell", "target_cell", "is_fire", "actions_from", "targets", "actions_to"]

Cell = tuple[int, int]


def source_cell(action: Action) -> Cell | None:
    """The square of the piece that acts (its 04/H11 description), or None for End Turn."""
    if isinstance(action, (Move, Fire, PickUp, Drop)):
        return action.piece.row, action.piece.col
    if isinstance(action, Exchange):
        return action.giver.row, action.giver.col
    if isinstance(action, Reinforce):
        return action.row, action.col
    return None


def target_cell(action: Action) -> Cell | None:
    """The square the user clicks second: destination, fire direction or target, receiver."""
    if isinstance(action, Move):
        return action.row, action.col
    if isinstance(action, Fire):
        if action.target is not None and not action.row:
            return action.target.row, action.target.col
        return action.row, action.col
    if isinstance(action, Exchange):
        return action.receiver.row, action.receiver.col
    return source_cell(action)        # PickUp, Drop, Reinforce act where the piece is


def is_fire(action: Action) -> bool:
    """True for a Fire (the right button's action, 04/U33)."""
    return isinstance(action, Fire)


def actions_from(actions: Sequence[Action], cell: Cell, fire: bool) -> list[Action]:
    """The actions of the pieces in ``cell``; Fires for the right button, the rest for the left."""
    return [a for a in actions if source_cell(a) == cell and is_fire(a) == fire]


def targets(actions: Sequence[Action]) -> list[Cell]:
    """The squares to highlight in yellow for ``actions`` (04/U35, U37), in first-seen order."""
    out: list[Cell] = []
    for a in actions:
        t = target_cell(a)
        if t is not None and t not in out:
            out.append(t)
    return out


def actions_to(actions: Sequence[Action], cell: Cell) -> list[Action]:
    """The actions among ``actions`` whose second click is ``cell``."""
    return [a for a in actions if target_cell(a) == cell and not isinstance(a, EndTurn)]
