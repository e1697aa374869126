"""The game state: pieces, articles, the turn in progress and the history (01/R1-R5).

A ``GameState`` is treated as immutable by callers: ``engine.rules.apply_action`` copies it
(``clone``) and changes the copy. Pieces are frozen values replaced on change.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

import msgpack

from .actions import Action
from .options import Options
from .record import TurnRecord, current_turn, record_from_turn

BLACK, WHITE = "B", "W"
Square = tuple[int, int]
Cell = tuple[int, int, str]


def enemy(side: str) -> str:
    """The other side."""
    return WHITE if side == BLACK else BLACK


def side_of_ply(ply: int) -> str:
    """Black plays the odd plies, White the even ones (RUL-1 conventions, 01/R2.3)."""
    return BLACK if ply % 2 == 1 else WHITE


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece on the board (01/R1.4)."""

    sid: int                      # permanent serial number (RUL-40)
    kind: str                     # piece-type token (04/H9b)
    side: str                     # "B" or "W"
    row: int
    col: int
    level: str                    # "G", "A" or "S"
    hand: str = ""                # "", "<" (left) or ">" (right) (03/M0.3)
    arts: tuple[int, ...] = ()    # held article ids, in acquisition order (RUL-12)
    stun: int = 0                 # stun counter (RUL-11)
    origin: bool = False          # Pawn still on its starting square and never left it
    trip: tuple[Any, ...] | None = None   # (article id, level, fire ply, fire order, path) RUL-31
    ready: tuple[tuple[str, int], ...] = ()  # inherent weapon -> first ply it may fire again (RUL-6)

    @property
    def square(self) -> Square:
        """(row, col)."""
        return (self.row, self.col)

    @property
    def cell(self) -> Cell:
        """(row, col, level)."""
        return (self.row, self.col, self.level)


@dataclass(frozen=True, slots=True)
class TurnState:
    """What has been spent of the turn's budget and what the turn must remember (RUL-1, 01/R4)."""

    moved: bool = False
    mover: int = 0                               # sid of the piece that made the Move
    fires: int = 0
    fired: frozenset[Any] = frozenset()           # fire sources used this turn (RUL-4)
    picked: bool = False
    dropped: bool = False
    exchanged: bool = False
    reinforced: bool = False
    acted: frozenset[int] = frozenset()           # pieces that took an action (02/D23 option)
    transported: frozenset[int] = frozenset()     # moved by transport this turn (RUL-30)
    watch: tuple[tuple[Square, frozenset[int]], ...] = ()  # activation squares (RUL-34 cond. 1)
    vacated: frozenset[Square] = frozenset()      # RUL-34 cond. 2
    obliged: frozenset[int] = frozenset()         # airborne Choppers at the start phase (RUL-44a)
    lost_primary: frozenset[str] = frozenset()    # sides whose primary piece fell this turn (RUL-2)
    stunned: frozenset[int] = frozenset()         # pieces stunned when the turn began (RUL-11)


@dataclass(frozen=True, slots=True)
class Projectile:
    """A rocket, SAM or torpedo in flight (RUL-15, RUL-16, RUL-46)."""

    pid: int
    kind: str                 # "R" (Ground), "S" (Air) or "T" (Sub)
    side: str                 # the firer's side at creation (RUL-46 e)
    row: int
    col: int
    dr: int                   # last step (or creation offset), in board rows/cols
    dc: int
    strength: int             # RUL-5
    target: int = 0           # homing target sid, 0 when directed or the lock is lost
    created: int = 0          # ply of creation

    @property
    def level(self) -> str:
        """The projectile's level for its whole life (RUL-46 a)."""
        return {"R": "G", "S": "A", "T": "S"}[self.kind]


class GameState:
    """The full (omniscient) state of one game."""

    __slots__ = ("options", "pieces", "art_code", "art_ready", "ground", "ply", "turn",
                 "reinforcements", "next_sid", "locks", "reveals", "projectiles", "result",
                 "end_reason", "history", "record", "actions", "start", "parent", "_cache",
                 "hits", "next_pid", "orders")

    def __init__(self, options: Options) -> None:
        self.options = options
        self.pieces: dict[int, Piece] = {}
        self.art_code: dict[int, str] = {}            # article id -> token (never changes)
        self.art_ready: dict[int, int] = {}           # article id -> first ply it may fire again
        self.ground: dict[Square, tuple[int, ...]] = {}   # unowned articles per square (<= 2)
        self.ply = 1
        self.turn = TurnState()
        self.reinforcements: dict[Square, tuple[str, str, str]] = {}  # square -> (side, kind, hand)
        self.next_sid = 1
        self.locks: dict[tuple[str, int], int] = {}   # ("p", sid) or ("a", aid) -> target sid
        self.reveals: dict[int, int] = {}             # sid -> last ply of the reveal (RUL-20)
        self.projectiles: tuple[Projectile, ...] = ()  # in creation order (RUL-15, RUL-40)
        self.next_pid = 1
        self.hits: dict[int, tuple[tuple[str, int], ...]] = {}  # this turn's hit counters (RUL-7)
        self.result: str | None = None                # "B", "W" or "draw"
        self.end_reason = ""
        self.history: tuple[str, ...] = ()           # finished turns, one line each (04/H2)
        self.orders: tuple[str, ...] = ()            # played part order per line, "" = as printed
        self.record = TurnRecord()                    # current turn's parts
        self.actions: tuple[Action, ...] = ()         # current turn's actions, in played order
        self.start: dict[str, Any] = {}               # the starting position (for saves/replay)
        self.parent: GameState | None = None          # previous state, for undo; not serialised
        self._cache: dict[Any, Any] = {}

    # -- copying -----------------------------------------------------------------------------
    def clone(self) -> "GameState":
        """A copy that can be changed without touching this state; its parent is this state."""
        new = GameState.__new__(GameState)
        new.options = self.options
        new.pieces = dict(self.pieces)
        new.art_code = self.art_code
        new.art_ready = dict(self.art_ready)
        new.ground = dict(self.ground)
        new.ply = self.ply
        new.turn = self.turn
        new.reinforcements = dict(self.reinforcements)
        new.next_sid = self.next_sid
        new.locks = dict(self.locks)
        new.reveals = dict(self.reveals)
        new.projectiles = self.projectiles
        new.next_pid = self.next_pid
        new.hits = dict(self.hits)
        new.result = self.result
        new.end_reason = self.end_reason
        new.history = self.history
        new.orders = self.orders
        new.record = self.record.copy()
        new.actions = self.actions
        new.start = self.start
        new.parent = self
        new._cache = {}
        return new

    def touch(self) -> None:
        """Forget cached occupancy and visibility after a change."""
        self._cache.clear()

    # -- lookups -----------------------------------------------------------------------------
    @property
    def side_to_move(self) -> str:
        """"B" on odd plies, "W" on even ones."""
        return side_of_ply(self.ply)

    def cells(self) -> dict[Cell, tuple[int, ...]]:
        """Occupancy: (row, col, level) -> sids there, ascending."""
        occ = self._cache.get("occ")
        if occ is None:
            occ = {}
            for sid in sorted(self.pieces):
                p = self.pieces[sid]
                key = (p.row, p.col, p.level)
                occ[key] = occ.get(key, ()) + (sid,)
            self._cache["occ"] = occ
        return occ

    def at(self, row: int, col: int, level: str) -> tuple[int, ...]:
        """Sids on one cell."""
        return self.cells().get((row, col, level), ())

    def holder_of(self, aid: int) -> int | None:
        """The sid holding article ``aid``, or None if it lies on the ground."""
        holders = self._cache.get("holders")
        if holders is None:
            holders = {a: p.sid for p in self.pieces.values() for a in p.arts}
            self._cache["holders"] = holders
        return holders.get(aid)

    def codes(self, piece: Piece) -> tuple[str, ...]:
        """Article tokens a piece holds, in acquisition order."""
        return tuple(self.art_code[a] for a in piece.arts)

    def put(self, piece: Piece) -> None:
        """Store a changed piece."""
        self.pieces[piece.sid] = piece
        self._cache.clear()

    def move_piece(self, sid: int, row: int, col: int, level: str, **changes: Any) -> Piece:
        """Relocate a piece (and apply other field changes); returns the new value."""
        if level != self.pieces[sid].level:
            self.lose_homing(sid)
        p = replace(self.pieces[sid], row=row, col=col, level=level, **changes)
        self.put(p)
        return p

    def lose_homing(self, sid: int) -> None:
        """RUL-16: homing projectiles locked on ``sid`` lose the lock for good (the target left
        their level or was converted); they fly on in the direction of their last step."""
        if any(p.target == sid for p in self.projectiles):
            self.projectiles = tuple(replace(p, target=0) if p.target == sid else p
                                     for p in self.projectiles)
            self._cache.clear()


# -- canonical serialisation and hash ----------------------------------------------------------

def _piece_row(p: Piece) -> list[Any]:
    trip = None
    if p.trip is not None:
        aid, level, ply, order, path = p.trip
        trip = [aid, level, ply, order, [list(sq) for sq in path]]
    return [p.sid, p.kind, p.side, p.row, p.col, p.level, p.hand, list(p.arts), p.stun,
            p.origin, trip, [list(r) for r in p.ready]]


def _trip(raw: Any) -> tuple[Any, ...] | None:
    if raw is None:
        return None
    aid, level, ply, order, path = raw
    return (aid, level, ply, order, tuple(tuple(sq) for sq in path))


def to_dict(state: GameState) -> dict[str, Any]:
    """Canonical, msgpack-safe form of everything that identifies the state (STYLE state_key)."""
    from .notation import format_action, format_turn  # late import: notation has no deps on us

    t = state.turn
    return {
        "v": 1,
        "options": state.options.to_dict(),
        "ply": state.ply,
        "pieces": [_piece_row(state.pieces[s]) for s in sorted(state.pieces)],
        "articles": [[a, state.art_code[a], state.art_ready.get(a, 0)] for a in sorted(state.art_code)],
        "ground": [[r, c, list(a)] for (r, c), a in sorted(state.ground.items()) if a],
        "reinforcements": [[r, c, *v] for (r, c), v in sorted(state.reinforcements.items())],
        "next_sid": state.next_sid,
        "locks": sorted([k[0], k[1], v] for k, v in state.locks.items()),
        "reveals": sorted([k, v] for k, v in state.reveals.items()),
        "projectiles": [[p.pid, p.kind, p.side, p.row, p.col, p.dr, p.dc, p.strength, p.target,
                         p.created] for p in state.projectiles],
        "next_pid": state.next_pid,
        "hits": sorted([sid, [list(h) for h in hs]] for sid, hs in state.hits.items()),
        "result": state.result,
        "end_reason": state.end_reason,
        "turn": [t.moved, t.mover, t.fires, sorted(map(list, t.fired)), t.picked, t.dropped,
                 t.exchanged, t.reinforced, sorted(t.acted), sorted(t.transported),
                 [[list(sq), sorted(s)] for sq, s in t.watch], sorted(map(list, t.vacated)),
                 sorted(t.obliged), sorted(t.lost_primary), sorted(t.stunned)],
        "history": list(state.history),
        "orders": list(state.orders),
        "record": format_turn(current_turn(state)),
        "actions": [format_action(a) for a in state.actions],
        "start": state.start,
    }


def from_dict(data: dict[str, Any]) -> GameState:
    """Rebuild a state from ``to_dict`` output. :raises ValueError: malformed data."""
    from .notation import parse_action, parse_turn

    try:
        state = GameState(Options.from_dict(data["options"]))
        state.ply = int(data["ply"])
        for row in data["pieces"]:
            sid, kind, side, r, c, level, hand, arts, stun, origin, trip, ready = row
            state.pieces[sid] = Piece(sid, kind, side, r, c, level, hand, tuple(arts), stun,
                                      bool(origin), _trip(trip),
                                      tuple((w, n) for w, n in ready))
        for aid, code, ready_ply in data["articles"]:
            state.art_code[aid] = code
            if ready_ply:
                state.art_ready[aid] = ready_ply
        state.ground = {(r, c): tuple(a) for r, c, a in data["ground"]}
        state.reinforcements = {(r, c): (s, k, h) for r, c, s, k, h in data["reinforcements"]}
        state.next_sid = int(data["next_sid"])
        state.locks = {(k, n): v for k, n, v in data["locks"]}
        state.reveals = {k: v for k, v in data["reveals"]}
        state.projectiles = tuple(Projectile(*p) for p in data["projectiles"])
        state.next_pid = int(data["next_pid"])
        state.hits = {sid: tuple((w, n) for w, n in hs) for sid, hs in data["hits"]}
        state.result = data["result"]
        state.end_reason = data["end_reason"]
        (moved, mover, fires, fired, picked, dropped, exchanged, reinforced, acted,
         transported, watch, vacated, obliged, lost, stunned) = data["turn"]
        state.turn = TurnState(moved, mover, fires, frozenset(tuple(f) for f in fired), picked,
                               dropped, exchanged, reinforced, frozenset(acted),
                               frozenset(transported),
                               tuple((tuple(sq), frozenset(s)) for sq, s in watch),
                               frozenset(tuple(v) for v in vacated), frozenset(obliged),
                               frozenset(lost), frozenset(stunned))
        state.history = tuple(data["history"])
        state.orders = tuple(data["orders"])
        if len(state.orders) != len(state.history):
            raise ValueError("orders and history differ in length")
        state.record = record_from_turn(parse_turn(data["record"]))
        state.actions = tuple(parse_action(a) for a in data["actions"])
        state.start = data["start"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"malformed state: {exc}") from exc
    return state


def serialise(state: GameState) -> bytes:
    """Canonical msgpack bytes of the state."""
    cached = state._cache.get("bytes")
    if cached is None:
        cached = msgpack.packb(to_dict(state), use_bin_type=True)
        state._cache["bytes"] = cached
    return cached


def deserialise(data: bytes) -> GameState:
    """Inverse of ``serialise``. :raises ValueError: malformed bytes."""
    try:
        obj = msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)
    except Exception as exc:  # msgpack raises several types for bad input
        raise ValueError(f"malformed state bytes: {exc}") from exc
    if not isinstance(obj, dict):
        raise ValueError("malformed state bytes: not a map")
    return from_dict(obj)


def state_hash(state: GameState) -> str:
    """SHA-256 hex of the canonical serialisation."""
    return hashlib.sha256(serialise(state)).hexdigest()


def state_diff(a: GameState, b: GameState) -> str:
    """The first differing part of two states, for a lockstep diagnosis ('' if equal)."""
    da, db = to_dict(a), to_dict(b)
    for key in da:
        if da[key] != db.get(key):
            va, vb = da[key], db.get(key)
            if isinstance(va, list) and isinstance(vb, list):
                for i, (x, y) in enumerate(zip(va, vb)):
                    if x != y:
                        return f"{key}[{i}]: {x!r} != {y!r}"
                return f"{key}: length {len(va)} != {len(vb)}"
            return f"{key}: {va!r} != {vb!r}"
    return ""


