"""Questions an outsider asks of a position: which pieces an action names, the legal actions of
one piece or one square, and what one side sees of one cell (RUL-18, RUL-50).

Pieces are named by their permanent serial (RUL-40), as in ``OwnPiece.sid`` and the events.
Identical pieces in one cell offer one action between them (docs/rulings.md E-6): such an
action is listed for each of them, and names the lowest serial, the one the rules move.
"""
from __future__ import annotations

from typing import NamedTuple

from .actions import Action, Drop, Exchange, Fire, Move, PickUp, PieceDesc, Reinforce
from .descs import describe, resolve_all
from .errors import RuleError
from .rules import legal_actions
from .state import GameState, enemy
from .view import GroundArticle, OwnPiece, ProjectileView, SeenPiece, observe

__all__ = ["CellView", "action_pieces", "actions_at", "actions_of", "cell_view",
           "describe_piece"]


def describe_piece(state: GameState, sid: int) -> PieceDesc:
    """The notation description of piece ``sid`` now (04/H11). :raises KeyError: no such piece."""
    return describe(state, state.pieces[sid])


def action_pieces(state: GameState, action: Action) -> tuple[int, ...]:
    """Serials of the pieces ``action`` names, actor first: a Move's mover and passenger, a
    Fire's firer and homing target, a Pick-up's or Drop's piece, an Exchange's giver and
    receiver; none for a Reinforce or End Turn. :raises RuleError: a description fits no piece.
    """
    side = state.side_to_move
    if isinstance(action, Move):
        out = [_named(state, action.piece, side)]
        if action.passenger is not None:
            out.append(_named(state, action.passenger, side))
        return tuple(out)
    if isinstance(action, Fire):
        out = [_named(state, action.piece, side)]
        if action.target is not None:
            out.append(_named(state, action.target, enemy(side)))
        return tuple(out)
    if isinstance(action, (PickUp, Drop)):
        return (_named(state, action.piece, side),)
    if isinstance(action, Exchange):
        return (_named(state, action.giver, side), _named(state, action.receiver, side))
    return ()


def actions_of(state: GameState, sid: int) -> list[Action]:
    """The legal actions of piece ``sid``, as actor or Exchange partner, in ``legal_actions``
    order; empty for an enemy piece or when it may not act now."""
    if sid not in state.pieces:
        return []
    return [a for a in legal_actions(state) if sid in _fitting(state, a)]


def actions_at(state: GameState, row: int, col: int, level: str | None = None) -> list[Action]:
    """The legal actions of the pieces on a square (one level, or all three), and the
    Reinforce of that square's marker (RUL-34), in ``legal_actions`` order."""
    out = []
    for a in legal_actions(state):
        if isinstance(a, Reinforce):
            if (a.row, a.col) == (row, col) and level in (None, "G"):
                out.append(a)
            continue
        for desc in _actors(a):
            if (desc.row, desc.col) == (row, col) and level in (None, desc.level):
                out.append(a)
                break
    return out


class CellView(NamedTuple):
    """What ``player`` sees of one cell now: exactly the entries of ``observe(state, player)``
    in that cell (RUL-18, RUL-50 b)."""

    row: int
    col: int
    level: str
    own: tuple[OwnPiece, ...]
    seen: tuple[SeenPiece, ...]
    projectiles: tuple[ProjectileView, ...]
    ground: tuple[GroundArticle, ...]             # the square's ground articles (Ground level)


def cell_view(state: GameState, player: str, row: int, col: int, level: str) -> CellView:
    """What ``player`` sees of the cell (row, col, level). :raises ValueError: bad player."""
    view = observe(state, player)
    here = (row, col, level)
    return CellView(
        row, col, level,
        tuple(p for p in view.own if (p.row, p.col, p.level) == here),
        tuple(p for p in view.seen if (p.row, p.col, p.level) == here),
        tuple(p for p in view.projectiles if (p.row, p.col, p.level) == here),
        tuple(g for g in view.ground if (g.row, g.col) == (row, col)) if level == "G" else ())


# -- helpers -----------------------------------------------------------------------------------

def _named(state: GameState, desc: PieceDesc, side: str) -> int:
    return resolve_all(state, desc, side)[0].sid


def _actors(action: Action) -> tuple[PieceDesc, ...]:
    if isinstance(action, (Move, Fire, PickUp, Drop)):
        return (action.piece,)
    if isinstance(action, Exchange):
        return (action.giver, action.receiver)
    return ()


def _fitting(state: GameState, action: Action) -> set[int]:
    side = state.side_to_move
    out: set[int] = set()
    for desc in _actors(action):
        try:
            out.update(p.sid for p in resolve_all(state, desc, side))
        except RuleError:
            pass
    return out
