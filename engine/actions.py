"""Actions and history records as frozen values (04/H7 grammar, 00/RUL-36).

Every action carries the description of the pieces it names exactly as the Game History
writes them (04/H11: the piece as it was just before the action), so an action is a
self-contained value: ``engine.notation`` prints and parses it without a game state, and
the rules resolve the description against the state (``engine.rules``).

Levels are ``"G"`` (Ground, written with no mark), ``"A"`` (Air, ``^``) and ``"S"`` (Sub, ``v``).
Squares are ``(row, col)`` 1..10 as in the notation (04/H10): row 1 is Black's back rank.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Union

GROUND, AIR, SUB = "G", "A", "S"
LEVELS = (GROUND, AIR, SUB)


@dataclass(frozen=True, slots=True)
class PieceDesc:
    """A piece as the history describes it: ``Piece_typeLevelLocationArticlesOrient`` (04/H11)."""

    kind: str                      # piece-type token as printed, e.g. "TA", "SP", "AAA"
    level: str                     # "G", "A" or "S"
    row: int
    col: int
    articles: tuple[str, ...] = ()  # carried article tokens, in acquisition order (04/H24)
    orient: str = ""               # "" none, "<" left, ">" right


@dataclass(frozen=True, slots=True)
class Transport:
    """``-TRA->Piece Level Square``: a piece moved other than by its own Move (04/H13)."""

    piece: PieceDesc
    level: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Move:
    """``MV:Piece->LevelSquare`` plus the passenger (RUL-25) and the nudge members (04/H14).

    ``doze`` lists the nudged pieces as ``(kind, row, col)`` with their starting squares, the
    co-located piece first; it is non-empty only for a Bulldozer nudge (03/M1.3).
    """

    piece: PieceDesc
    level: str
    row: int
    col: int
    passenger: PieceDesc | None = None
    doze: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Fire:
    """``FIn:Article/Piece`` aimed ``->Square[Orient]`` or ``=>TargetPiece`` (04/H15).

    For weapons the square is the adjacent direction square (RUL-8); for Bike, Jump Pack and
    Scuba it is the destination and ``orient`` the path (RUL-31). ``target`` is set for a
    homing Fire (RUL-16) and for the restricted rocket (RUL-17).
    """

    article: str
    piece: PieceDesc
    row: int = 0
    col: int = 0
    orient: str = ""
    target: PieceDesc | None = None


@dataclass(frozen=True, slots=True)
class PickUp:
    """``PU:Piece^Article`` (04/H16)."""

    piece: PieceDesc
    article: str


@dataclass(frozen=True, slots=True)
class Drop:
    """``DR:PiecevArticle`` (04/H19)."""

    piece: PieceDesc
    article: str


@dataclass(frozen=True, slots=True)
class Exchange:
    """``EX:Giver->Article(->|<=>Swapped<-)Receiver`` (04/H17)."""

    giver: PieceDesc
    article: str
    receiver: PieceDesc
    swapped: str | None = None


@dataclass(frozen=True, slots=True)
class Reinforce:
    """``RE:SquarePiece_typeOrient`` (04/H18, RUL-34)."""

    row: int
    col: int
    kind: str
    orient: str = ""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (RUL-1 phase 3). Not a part of the history line; printed ``END``."""


Action = Union[Move, Fire, PickUp, Drop, Exchange, Reinforce, EndTurn]


@dataclass(frozen=True, slots=True)
class Result:
    """One entry of ``RS:`` (04/H20, RUL-36).

    ``form`` is ``"->"`` (projectile at a square with an offset), ``"v"`` (ended at a square)
    or ``"*"`` (happened to ``piece``, with stun counter after the event and colour).
    """

    kind: str
    form: str
    row: int = 0
    col: int = 0
    dr: int = 0
    dc: int = 0
    piece: PieceDesc | None = None
    stun: int = 0
    colour: str = ""


@dataclass(frozen=True, slots=True)
class Turn:
    """One history line (04/H2, H7): the parts of one ply in the fixed printing order.

    ``move`` is ``None`` for a turn without a Move, printed ``MV:-`` (RUL-3, RUL-36).
    ``transports`` holds automatic transport steps (trips, RUL-31); a passenger is ``Move.passenger``.
    """

    move: Move | None
    transports: tuple[Transport, ...] = ()
    fires: tuple[Fire, ...] = ()
    pickup: PickUp | None = None
    exchange: Exchange | None = None
    reinforce: Reinforce | None = None
    drop: Drop | None = None
    results: tuple[Result, ...] = ()


def fast_init(cls: type) -> None:
    """Give a frozen, slotted dataclass an ``__init__`` that stores each field through its
    slot's own setter: the same signature, defaults and frozen instances, about twice as fast
    to build as the generated one (which calls ``object.__setattr__`` per field); the engine
    builds actions, pieces and turn budgets by the thousand in a search."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or not all(
            f.init and f.default_factory is dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: only plain fields are supported")
    ns: dict[str, Any] = {}
    params, body = [], []
    for f in fields:
        ns[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    exec(f"def __init__(self, {', '.join(params)}):\n{''.join(body)}", ns)   # noqa: S102
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init     # type: ignore[misc]


for _cls in (PieceDesc, Transport, Move, Fire, PickUp, Drop, Exchange, Reinforce, Result,
             Turn):
    fast_init(_cls)
