"""What an action did, as values: the events the window words and animates, and their public
form for one player (``events_for``), which the network sends (RUL-37, RUL-50, RUL-51).

Every event is a frozen value. Pieces are named by their permanent serial (``sid``, RUL-40),
articles by their id, projectiles by theirs; cells are ``(row, col, level)``. Piece events
carry which sides could see the piece (``seen``: just before the event; a ``Moved`` has
``seen_from`` and ``seen_to``), and the events a side caused carry ``cause`` (RUL-51 a), so the
public form is a function of the events and the player alone.

Events are derived by ``engine.event_diff.derive_events``; see docs/engine.md for the list and
the rule each one follows.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Union

Cell = tuple[int, int, str]
Square = tuple[int, int]

__all__ = ["ArticleDropped", "ArticleGiven", "ArticlePicked", "ArticlePlaced", "Captured",
           "Converted", "Destroyed", "Event", "GameEnded", "HiddenAgain", "Moved",
           "ProjectileCreated", "ProjectileHit", "ProjectileLost", "ProjectileStepped",
           "Reinforced", "Revealed", "Stunned", "TurnBegan", "events_for"]


@dataclass(frozen=True, slots=True)
class Moved:
    """A piece went from one cell to another. ``how``: ``move`` (its own Move, 03/M1),
    ``carried`` (a passenger, RUL-25), ``nudged`` (03/M1.3), ``bike`` (RUL-30), ``trip`` (a Jump
    Pack / Scuba rise, dive or step, RUL-31) or ``fell`` (a descent to the Ground, RUL-42).
    ``frm`` or ``to`` is None in a public form where that end was hidden (RUL-37)."""

    sid: int
    kind: str
    side: str
    frm: Cell | None
    to: Cell | None
    how: str
    seen_from: str = ""
    seen_to: str = ""


@dataclass(frozen=True, slots=True)
class Captured:
    """A piece was taken by an enemy Move into its cell (03/M0.10); ``by`` is the mover."""

    sid: int
    kind: str
    side: str
    cell: Cell
    by: int
    seen: str = ""
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Destroyed:
    """A piece left the board other than by capture. ``reason``: ``flame`` (RUL-9), ``rocket``,
    ``sam``, ``torpedo`` (RUL-15, RUL-17), ``conversion`` (a conversion kill, RUL-14) or ``fall``
    (no carrier, a crash or a blocked landing: RUL-12, RUL-31, RUL-42)."""

    sid: int
    kind: str
    side: str
    cell: Cell
    reason: str
    seen: str = ""
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Stunned:
    """A piece was stunned (RUL-11): ``counter`` turns, its articles placed (RUL-12)."""

    sid: int
    kind: str
    side: str
    cell: Cell
    counter: int
    seen: str = ""
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Converted:
    """A piece changed sides (RUL-13); ``side`` is its new side."""

    sid: int
    kind: str
    side: str
    cell: Cell
    seen: str = ""
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Reinforced:
    """A reinforcement entered the board (RUL-34); its marker's square is public (RUL-50 c)."""

    sid: int
    kind: str
    side: str
    cell: Cell
    seen: str = ""


@dataclass(frozen=True, slots=True)
class ArticlePlaced:
    """An article left ``owner`` involuntarily and was placed on the ground (RUL-12)."""

    aid: int
    code: str
    square: Square
    owner: int
    side: str
    seen: str = ""


@dataclass(frozen=True, slots=True)
class ArticlePicked:
    """A piece picked an article up from its square's ground (RUL-29)."""

    aid: int
    code: str
    square: Square
    sid: int
    side: str
    seen: str = ""


@dataclass(frozen=True, slots=True)
class ArticleDropped:
    """A piece dropped an article on its square's ground (RUL-29)."""

    aid: int
    code: str
    square: Square
    sid: int
    side: str
    seen: str = ""


@dataclass(frozen=True, slots=True)
class ArticleGiven:
    """An article passed from ``giver`` to ``receiver`` in an Exchange (RUL-29)."""

    aid: int
    code: str
    giver: int
    receiver: int
    side: str
    seen: str = ""


@dataclass(frozen=True, slots=True)
class ProjectileCreated:
    """A rocket, SAM or torpedo was launched (RUL-15); ``target`` is a homing target's serial
    (RUL-16), shown in a public form only to the target's owner."""

    pid: int
    kind: str
    side: str
    cell: Cell
    dr: int
    dc: int
    strength: int
    target: int = 0
    target_side: str = ""


@dataclass(frozen=True, slots=True)
class ProjectileStepped:
    """A projectile advanced one step in the end phase (RUL-15, RUL-16)."""

    pid: int
    kind: str
    frm: Cell
    to: Cell
    dr: int
    dc: int


@dataclass(frozen=True, slots=True)
class ProjectileHit:
    """A projectile ended in an occupied cell and hit what is there (RUL-15, RUL-46)."""

    pid: int
    kind: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class ProjectileLost:
    """A projectile left the board (RUL-15); ``cell`` is its last cell on the board."""

    pid: int
    kind: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class Revealed:
    """A piece hidden from ``viewer`` became visible to it (RUL-18, RUL-19, RUL-20);
    ``until`` is the last ply of a RUL-20 reveal, 0 when it is seen for another reason."""

    sid: int
    kind: str
    side: str
    cell: Cell
    viewer: str
    until: int = 0


@dataclass(frozen=True, slots=True)
class HiddenAgain:
    """A piece ``viewer`` could see became hidden from it (RUL-18, RUL-20 expiry, RUL-50 a);
    ``cell`` is where the viewer last saw it (its last-seen marker, 04/U29), never where it is."""

    sid: int
    kind: str
    side: str
    cell: Cell
    viewer: str


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """A new ply began (RUL-1); its start-phase events follow."""

    ply: int
    side: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended (RUL-2, RUL-53): ``result`` is B, W or draw."""

    result: str
    reason: str


Event = Union[Moved, Captured, Destroyed, Stunned, Converted, Reinforced, ArticlePlaced,
              ArticlePicked, ArticleDropped, ArticleGiven, ProjectileCreated, ProjectileStepped,
              ProjectileHit, ProjectileLost, Revealed, HiddenAgain, TurnBegan, GameEnded]

_PUBLIC = (ProjectileStepped, ProjectileHit, ProjectileLost, TurnBegan, GameEnded)
_RESULTS = (Captured, Destroyed, Stunned)


def events_for(events: tuple[Event, ...], player: str) -> tuple[Event, ...]:
    """The public form of ``events`` for ``player`` (RUL-37, RUL-50, RUL-51 a).

    Events of the player's own pieces are kept whole. An enemy piece is never named by its
    serial (``sid`` 0: a piece that hides and comes back is not identified, RUL-50 a, 04/U29);
    a Move of an enemy piece shows only the ends the player could see and disappears when it
    saw neither (RUL-37); a capture, kill, stun or conversion shows when the player caused it
    or saw the piece (RUL-37, RUL-51 a); ground articles, projectiles and reinforcement markers
    are public (RUL-50 b, c) but a hidden actor is not shown. :raises ValueError: bad player.
    """
    if player not in ("B", "W"):
        raise ValueError(f"player must be 'B' or 'W', got {player!r}")
    out = []
    for e in events:
        shown = _public(e, player)
        if shown is not None:
            out.append(shown)
    return tuple(out)


def _public(e: Event, me: str) -> Event | None:
    if isinstance(e, _PUBLIC):
        return e
    if isinstance(e, ProjectileCreated):
        return e if e.target_side in ("", me) else replace(e, target=0, target_side="")
    if isinstance(e, (Revealed, HiddenAgain)):
        if e.side == me:
            return e
        return replace(e, sid=0) if e.viewer == me else None
    if isinstance(e, Moved):
        if e.side == me:
            return e
        frm = e.frm if me in e.seen_from else None
        to = e.to if me in e.seen_to else None
        if frm is None and to is None:
            return None
        return replace(e, sid=0, frm=frm, to=to)
    if isinstance(e, Converted):
        return e                # both owners know the piece: the old one lost it, the new one has it
    if isinstance(e, _RESULTS):
        if e.side == me:        # the player's own piece; an enemy capturer is not named
            return replace(e, by=0) if isinstance(e, Captured) else e
        if e.cause == me or me in e.seen:
            return replace(e, sid=0)
        return None
    if isinstance(e, Reinforced):
        return e if e.side == me else replace(e, sid=0)      # the marker is public (RUL-50 c)
    if isinstance(e, ArticleGiven):
        if e.side == me:
            return e
        return replace(e, giver=0, receiver=0) if me in e.seen else None
    if isinstance(e, (ArticlePlaced, ArticlePicked, ArticleDropped)):
        if e.side == me:
            return e
        return replace(e, owner=0) if isinstance(e, ArticlePlaced) else replace(e, sid=0)
    raise TypeError(f"not an event: {e!r}")
