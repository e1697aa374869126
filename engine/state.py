"""The game state: pieces, articles, the turn in progress and the history (01/R1-R5).

A ``GameState`` is treated as immutable by callers: ``engine.rules.apply_action`` copies it
(``clone``) and changes the copy. Pieces are frozen values replaced on change.
"""
from __future__ import annotations

import dataclasses
import hashlib
import operator
import weakref
from bisect import bisect_left
from itertools import islice
from dataclasses import dataclass
from typing import Any

import msgpack

from .actions import Action, fast_init
from .notation import format_action, format_turn
from .options import Options
from .pieces import KINDS
from .record import TurnRecord, current_turn, record_from_turn

BLACK, WHITE = "B", "W"

_GETTERS: dict[type, tuple[Any, dict[str, int]]] = {}


def replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace`` for the engine's dataclasses, about twice as fast: the fields
    are read by one ``attrgetter`` and the new value built positionally (the class's
    ``__init__``, hence ``__post_init__``, still runs). :raises TypeError: an unknown field."""
    cls = obj.__class__
    g = _GETTERS.get(cls)
    if g is None:
        names = [f.name for f in dataclasses.fields(cls)]
        if not all(f.init for f in dataclasses.fields(cls)):
            return dataclasses.replace(obj, **changes)
        g = _GETTERS[cls] = (operator.attrgetter(*names), {n: i for i, n in enumerate(names)})
    getter, index = g
    values = list(getter(obj))
    for name, value in changes.items():
        i = index.get(name)
        if i is None:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
        values[i] = value
    return cls(*values)
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
        return _PROJECTILE_LEVEL[self.kind]


_PROJECTILE_LEVEL = {"R": "G", "S": "A", "T": "S"}


for _cls in (Piece, TurnState, Projectile):
    fast_init(_cls)


class SharedDict(dict):
    """A dict that refuses changes, shared by a state and its copies (``ground`` and
    ``reinforcements``, which most actions leave alone: a copy then costs nothing and the
    undo record and the hash find them unchanged by identity). Write through
    ``GameState.own(name)``, which gives the state a dict of its own first."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a state's ground and reinforcements are shared with its copies: "
                        "write through state.own(name)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    pop = popitem = clear = update = setdefault = _refuse

    def __reduce__(self) -> Any:
        return (SharedDict, (dict(self),))

    def __copy__(self) -> "SharedDict":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "SharedDict":
        return self        # its keys and values are immutable


_SEE_OR_HIDE_CODES = frozenset({"SH", "TL", "ASH"})
_SEE_OR_HIDE_KINDS = frozenset(k for k, info in KINDS.items()
                               if not _SEE_OR_HIDE_CODES.isdisjoint(info.inherent))
_HIDDEN_KEYS = (("hidden", BLACK), ("hidden", WHITE))
#: cache entries a copy starts with (they hold until a change; see ``GameState._forget``)
_INHERITED = ("occ", "holders", *_HIDDEN_KEYS)
_PIECE_DERIVED = ("occ", "holders")      # cache entries that depend on the pieces alone


class GameState:
    """The full (omniscient) state of one game."""

    __slots__ = ("options", "pieces", "art_code", "art_ready", "ground", "ply", "turn",
                 "reinforcements", "next_sid", "locks", "reveals", "projectiles", "result",
                 "end_reason", "history", "record", "actions", "start", "_prev", "_undo", "_cache",
                 "_seg", "hits", "next_pid", "orders", "_plog", "__weakref__")

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
        self._prev: Any = None                        # previous state (held, or a weak reference)
        self._undo: Any = None                        # undo record: the way back (None: none)
        self._cache: dict[Any, Any] = {}              # derived from this state alone
        self._seg: dict[Any, Any] = {}                # packed parts, shared along a game
        #: sid -> the piece value the parent had (``_GONE``: none), for every piece ``put`` or
        #: ``remove`` changed since ``clone``; None: not known (not a copy, or ``touch``)
        self._plog: dict[int, Any] | None = None

    # -- copying and undo ---------------------------------------------------------------------
    def clone(self) -> "GameState":
        """A copy that can be changed without touching this state; its parent is this state.

        The copy holds this state until the copy is itself cloned: then (its changes done) it
        keeps only an undo record, the parts that differ from this state, and a weak reference
        to this state, which ``parent`` returns while anyone else still holds it."""
        if self._undo is _PENDING:
            self._seal()
        new = GameState.__new__(GameState)
        new.options = self.options
        new.pieces = dict(self.pieces)
        new.art_code = self.art_code
        new.art_ready = dict(self.art_ready)
        g = self.ground                # shared from now on, by this state too (equal contents)
        if type(g) is not SharedDict:
            g = self.ground = SharedDict(g)
        new.ground = g
        new.ply = self.ply
        new.turn = self.turn
        g = self.reinforcements
        if type(g) is not SharedDict:
            g = self.reinforcements = SharedDict(g)
        new.reinforcements = g
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
        new._prev = self
        new._undo = _PENDING
        c = self._cache
        new._cache = {k: c[k] for k in _INHERITED if k in c} if c else {}
        new._seg = self._seg
        new._plog = {}
        return new

    def own(self, name: str) -> dict[Any, Any]:
        """``ground`` or ``reinforcements`` as a dict this state may write into (a copy of the
        one it shares with its parent, the first time)."""
        d = getattr(self, name)
        if type(d) is SharedDict:
            d = dict(d)
            setattr(self, name, d)
        return d

    def seal(self) -> None:
        """Keep only the undo record and a weak reference to the previous state from now on
        (what cloning this state does, once its changes are done; for the benchmarks)."""
        if self._undo is _PENDING:
            self._seal()

    def _seal(self) -> None:
        """Replace the hold on the previous state by an undo record (this state is done)."""
        prev = self._prev
        if prev._undo is _PENDING:
            prev._seal()
        self._undo = _delta(prev, self) + (prev._undo,)
        self._prev = weakref.ref(prev)
        self._plog = None

    @property
    def parent(self) -> "GameState | None":
        """The state before the last action (None at a game's start or after loading bytes):
        the very object while it is held elsewhere, else rebuilt from the undo record."""
        u = self._undo
        if u is None:
            return None
        if u is _PENDING:
            return self._prev
        ref = self._prev
        prev = ref() if ref is not None else None
        if prev is None:
            prev = _rebuild(self, u)
            self._prev = weakref.ref(prev)
        return prev

    @parent.setter
    def parent(self, prev: "GameState | None") -> None:
        """``None``: this state has no way back; a state: this one's previous state (held)."""
        self._prev = prev
        self._undo = None if prev is None else _PENDING
        self._plog = None             # the piece log is relative to the state cloned from

    def detached(self) -> "GameState":
        """An equal state that keeps no other state alive: only the undo record leads back
        (what a long game holds; for the benchmarks and tests of undo)."""
        if self._undo is _PENDING:
            self._seal()
        out = _rebuild(self, (self._undo,))
        return out

    def shared(self, name: str) -> dict[Any, Any]:
        """A cache shared by every state of this game, for values computed from immutable
        values alone (a piece's description, packed parts): check the entry's source."""
        d = self._seg.get(name)
        if d is None:
            d = self._seg[name] = {}
        return d

    def remember_legal(self, actions: list[Action]) -> None:
        """Keep the legal actions just listed (for this turn budget, until a change)."""
        self._cache["legal"] = [self.turn, actions, None]

    def known_legal(self) -> list[Action] | None:
        """The legal actions listed for this state and turn budget, if still known."""
        e = self._cache.get("legal")
        return e[1] if e is not None and e[0] is self.turn else None

    def listed(self, action: Action) -> bool:
        """Whether ``action`` is the very object a listing of this state's legal actions gave
        (so it is legal; an equal object from elsewhere is checked the long way)."""
        e = self._cache.get("legal")
        if e is None or e[0] is not self.turn:
            return False
        ids = e[2]
        if ids is None:
            ids = e[2] = {id(a): a for a in e[1]}
        return ids.get(id(action)) is action

    def touch_projectiles(self) -> None:
        """Forget what may depend on the projectiles in flight after they changed: occupancy,
        article holders and visibility do not (they depend on pieces, locks and reveals)."""
        c = self._cache
        if c:
            self._cache = {k: c[k] for k in _INHERITED if k in c}

    def touch_ground(self) -> None:
        """Forget what may depend on the articles lying on the ground after they changed:
        occupancy, article holders and visibility do not (as ``touch_projectiles``)."""
        c = self._cache
        if c:
            self._cache = {k: c[k] for k in _INHERITED if k in c}

    def touch_visibility(self) -> None:
        """Forget what may depend on who sees what, after a reveal or a lock changed (RUL-19,
        RUL-20): occupancy and article holders stay (they depend on the pieces alone)."""
        c = self._cache
        if c:
            self._cache = {k: c[k] for k in _PIECE_DERIVED if k in c}

    def touch_bytes(self) -> None:
        """Forget this state's serialised bytes and hash alone (the next hash puts them
        together again from the parts; for the benchmarks)."""
        self._cache.pop("bytes", None)
        self._cache.pop("hash", None)

    def touch(self) -> None:
        """Forget cached occupancy and visibility after a change (and what the hash and the
        undo record would take from the log of piece changes: the pieces may have been
        written directly)."""
        self._cache.clear()
        self._plog = None
        e = self._seg.get("pieces")
        if e is not None and e[0] is self.pieces:
            del self._seg["pieces"]

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
        arts = piece.arts
        return tuple(map(self.art_code.__getitem__, arts)) if arts else ()

    def put(self, piece: Piece) -> None:
        """Store a changed piece (or a new one)."""
        sid = piece.sid
        pieces = self.pieces
        old = pieces.get(sid)
        pieces[sid] = piece
        log = self._plog
        if log is not None and sid not in log:
            log[sid] = _GONE if old is None else old
        if self._seg.get("pieces", _NO_ROWS)[0] is pieces:   # packed before this change
            del self._seg["pieces"]
        if self._cache:
            self._forget(old, piece)

    def remove(self, sid: int) -> None:
        """Take a piece off the board."""
        old = self.pieces.pop(sid)
        log = self._plog
        if log is not None and sid not in log:
            log[sid] = old
        if self._seg.get("pieces", _NO_ROWS)[0] is self.pieces:
            del self._seg["pieces"]
        if self._cache:
            self._forget(old, None)

    def _may_hide_or_see(self, p: Piece) -> bool:
        """A piece that may count in who sees what: it may be hidden (Stealth, Sub level) or
        detect (Torpedo Launcher, Anti-Stealth), inherently or by an article (RUL-18, RUL-19).
        A superset is safe: it only forgets more."""
        if p.level == "S" or p.kind in _SEE_OR_HIDE_KINDS:
            return True
        return bool(p.arts) and not _SEE_OR_HIDE_CODES.isdisjoint(self.codes(p))

    def _forget(self, old: Piece | None, new: Piece | None) -> None:
        """Forget what a piece change makes stale, keep the rest (issue 13 item 8): occupancy
        is brought up to date, article holders kept while the piece holds the same articles,
        visibility kept when neither value can hide or detect, or when the change leaves the
        piece's side, kind, cell and articles as they were (a stun, a rate-of-fire countdown,
        a trip); everything else is dropped."""
        c = self._cache
        keep: dict[Any, Any] = {}
        occ = c.get("occ")
        if occ is not None:
            was = (old.row, old.col, old.level) if old is not None else None
            now = (new.row, new.col, new.level) if new is not None else None
            if was != now:
                occ = dict(occ)
                sid = (old or new).sid     # type: ignore[union-attr]
                if was is not None:
                    rest = tuple(s for s in occ[was] if s != sid)
                    if rest:
                        occ[was] = rest
                    else:
                        del occ[was]
                if now is not None:
                    occ[now] = tuple(sorted(occ.get(now, ()) + (sid,)))
            keep["occ"] = occ
        holders = c.get("holders")
        if holders is not None and (old.arts if old else ()) == (new.arts if new else ()):
            keep["holders"] = holders
        if (old is not None and new is not None and old.row == new.row and old.col == new.col
                and old.level == new.level and old.arts == new.arts and old.side == new.side
                and old.kind == new.kind) or not (
                    (old is not None and self._may_hide_or_see(old))
                    or (new is not None and self._may_hide_or_see(new))):
            # who sees what depends on a piece's side, kind, square, level and articles only
            for key in _HIDDEN_KEYS:
                h = c.get(key)
                if h is not None:
                    keep[key] = h
        self._cache = keep

    def move_piece(self, sid: int, row: int, col: int, level: str, **changes: Any) -> Piece:
        """Relocate a piece (and apply other field changes); returns the new value."""
        old = self.pieces[sid]
        if level != old.level:
            self.lose_homing(sid)
        if not changes or changes.keys() == {"origin"}:      # the usual Move: positional
            p = Piece(sid, old.kind, old.side, row, col, level, old.hand, old.arts, old.stun,
                      changes.get("origin", old.origin), old.trip, old.ready)
        else:
            p = replace(old, row=row, col=col, level=level, **changes)
        self.put(p)
        return p

    def lose_homing(self, sid: int) -> None:
        """RUL-16: homing projectiles locked on ``sid`` lose the lock for good (the target left
        their level or was converted); they fly on in the direction of their last step."""
        if any(p.target == sid for p in self.projectiles):
            self.projectiles = tuple(replace(p, target=0) if p.target == sid else p
                                     for p in self.projectiles)
            self._cache.clear()


# -- undo records ------------------------------------------------------------------------------
#
# A state's undo record is one flat tuple: (name, old value, name, old value, ..., link), where
# link is the previous state's own record (None at the start). Dicts keep only the changed keys
# (flat key, old value pairs; _GONE for a key that was absent; the pieces' from the log ``put``
# and ``remove`` keep), the history and the played orders the old length, the turn budget, the
# turn's actions and its record their old values (small values sharing their parts with
# others; the record is the previous state's own, never changed once that state is done).

_PENDING = ("pending",)          # cloned, still being changed: the previous state is held
_GONE = object()                 # a key the previous state's dict did not have
_NO_ROWS = (None,)               # no packed pieces kept (see ``_packed_pieces``)

_SCALARS = ("options", "art_code", "ply", "next_sid", "projectiles", "next_pid", "result",
            "end_reason", "start")
_DICTS = ("art_ready", "ground", "reinforcements", "locks", "reveals", "hits")
_TURN_FIELDS = tuple(TurnState.__dataclass_fields__)


def _dict_delta(old: dict[Any, Any], new: dict[Any, Any]) -> tuple[Any, ...]:
    """(key, old value, ...) for the keys whose value changed, appeared or disappeared."""
    get = old.get
    changed = [k for k, v in new.items() if get(k, _GONE) is not v]
    out: list[Any] = []
    added = 0
    for k in changed:
        was = get(k, _GONE)
        out += (k, was)
        added += was is _GONE
    if len(old) > len(new) - added:
        for k, v in old.items():
            if k not in new:
                out += (k, v)
    return tuple(out)


def _delta(old: GameState, new: GameState) -> tuple[Any, ...]:
    """What ``old`` has that ``new`` does not (the undo record without its link)."""
    out: list[Any] = []
    olds, news = _SCALAR_GET(old), _SCALAR_GET(new)
    if not all(map(operator.is_, olds, news)):
        for name, was, now in zip(_SCALARS, olds, news):
            if now is not was:
                out += (name, was)
    if old.turn is not new.turn:
        out += ("turn", old.turn)     # the old budget itself: undo then builds nothing
    log = new._plog
    if log is None:
        d = _dict_delta(old.pieces, new.pieces)
    else:                           # the pieces changed by ``put`` and ``remove`` alone
        get = new.pieces.get
        d = tuple([x for sid, was in log.items() if get(sid, _GONE) is not was
                   for x in (sid, was)])
    if d:
        out += ("pieces", d)
    olds, news = _DICT_GET(old), _DICT_GET(new)
    if olds != news:
        for name, was, now in zip(_DICTS, olds, news):
            if was != now:
                out += (name, _dict_delta(was, now))
    was, now = old.history, new.history
    if was is not now:              # a line appended: the old value is a prefix of the new one
        n = len(was)
        out += ("history", n if n <= len(now) and now[:n] == was else was)
        was, now = old.orders, new.orders
        if was is not now:
            n = len(was)
            out += ("orders", n if n <= len(now) and now[:n] == was else was)
    elif old.orders is not new.orders:
        out += ("orders", old.orders)
    if old.actions is not new.actions:
        out += ("actions", old.actions)   # a short tuple of shared values: kept itself
    # the old record itself: the state it belongs to is done (a copy gets its own record)
    out += ("record", old.record)
    return tuple(out)


_SCALAR_GET = operator.attrgetter(*_SCALARS)
_DICT_GET = operator.attrgetter(*_DICTS)


def _rebuild(state: GameState, record: tuple[Any, ...]) -> GameState:
    """The state the undo record ``record`` (flat pairs, then the link) leads back to. The
    dicts the record does not change are shared with ``state``: both are done (a copy made
    to be changed gets its own dicts, ``clone``)."""
    prev = GameState.__new__(GameState)
    prev.options = state.options
    prev.pieces = state.pieces
    prev.art_code = state.art_code
    prev.art_ready = state.art_ready
    prev.ground = state.ground
    prev.ply = state.ply
    prev.turn = state.turn
    prev.reinforcements = state.reinforcements
    prev.next_sid = state.next_sid
    prev.locks = state.locks
    prev.reveals = state.reveals
    prev.projectiles = state.projectiles
    prev.next_pid = state.next_pid
    prev.hits = state.hits
    prev.result = state.result
    prev.end_reason = state.end_reason
    prev.history = state.history
    prev.orders = state.orders
    prev.record = state.record
    prev.actions = state.actions
    prev.start = state.start
    prev._prev = None
    prev._undo = record[-1]
    prev._cache = {}
    prev._seg = state._seg
    prev._plog = None
    for i in range(0, len(record) - 1, 2):
        name, was = record[i], record[i + 1]
        if name == "pieces" or name in _DICTS:
            d = dict(getattr(state, name))
            for j in range(0, len(was), 2):
                k, v = was[j], was[j + 1]
                if v is _GONE:
                    del d[k]
                else:
                    d[k] = v
            setattr(prev, name, d)
        elif name == "history" or name == "orders":
            setattr(prev, name, getattr(state, name)[:was] if type(was) is int else was)
        else:
            setattr(prev, name, was)
    return prev


# -- canonical serialisation and hash ----------------------------------------------------------

def piece_row(p: Piece) -> list[Any]:
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


_TURN_PACKERS: dict[str, Any] = {
    "fired": lambda v: sorted(map(list, v)), "acted": sorted, "transported": sorted,
    "watch": lambda v: [[list(sq), sorted(s)] for sq, s in v],
    "vacated": lambda v: sorted(map(list, v)), "obliged": sorted, "lost_primary": sorted,
    "stunned": sorted}
_TURN_HEAD = msgpack.Packer().pack_array_header(15)


def _turn_row(t: TurnState) -> list[Any]:
    return [t.moved, t.mover, t.fires, sorted(map(list, t.fired)), t.picked, t.dropped,
            t.exchanged, t.reinforced, sorted(t.acted), sorted(t.transported),
            [[list(sq), sorted(s)] for sq, s in t.watch], sorted(map(list, t.vacated)),
            sorted(t.obliged), sorted(t.lost_primary), sorted(t.stunned)]


def to_dict(state: GameState) -> dict[str, Any]:
    """Canonical, msgpack-safe form of everything that identifies the state (STYLE state_key)."""
    t = state.turn
    return {
        "v": 1,
        "options": state.options.to_dict(),
        "ply": state.ply,
        "pieces": [piece_row(state.pieces[s]) for s in sorted(state.pieces)],
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
        "turn": _turn_row(t),
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


_PACK = msgpack.Packer(use_bin_type=True)
_KEYS = ("v", "options", "ply", "pieces", "articles", "ground", "reinforcements", "next_sid",
         "locks", "reveals", "projectiles", "next_pid", "hits", "result", "end_reason", "turn",
         "history", "orders", "record", "actions", "start")
_K = {k: msgpack.packb(k, use_bin_type=True) for k in _KEYS}
_HEAD = _PACK.pack_map_header(len(_KEYS)) + _K["v"] + _PACK.pack(1)
_FMT_LIMIT = 4096                 # formatted parts kept per game (the memo is then restarted)


def _snapshot(d: dict[Any, Any]) -> dict[Any, Any]:
    """What a packed part keeps of a dict to compare with later: a ``SharedDict`` itself (it
    never changes, and the next state most often shares it), a copy of any other dict."""
    return d if type(d) is SharedDict else dict(d)


def _same(seg: dict[Any, Any], key: str, value: Any) -> bytes | None:
    """The packed bytes cached for ``key`` if they were packed from a value equal to ``value``."""
    e = seg.get(key)
    if e is not None and (e[0] is value or e[0] == value):
        return e[1]
    return None


def _packed_dict(seg: dict[Any, Any], key: str, value: dict[Any, Any],
                 make: Any, state: "GameState") -> bytes:
    """``key: make(state)`` packed, reused while the dict keeps equal contents (a copy is
    kept: the dict itself may be changed later)."""
    b = _same(seg, key, value)
    if b is None:
        b = _K[key] + _PACK.pack(make(state))
        seg[key] = (_snapshot(value), b)
    return b


def _packed_growing(seg: dict[Any, Any], key: str, value: tuple[str, ...],
                    parts: list[bytes]) -> None:
    """Append ``key: list(value)`` packed, for a tuple of strings that only grows (history,
    orders): the packed items of the part already seen are kept."""
    e = seg.get(key)
    if e is not None and e[0] is not value:
        old = e[0]
        n = len(old)
        if n <= len(value) and value[:n] == old:
            e = seg[key] = (value, e[1] + b"".join([_PACK.pack(x) for x in value[n:]]))
        else:
            e = None
    if e is None:
        e = seg[key] = (value, b"".join([_PACK.pack(x) for x in value]))
    parts.append(_K[key] + _PACK.pack_array_header(len(value)))
    parts.append(e[1])


def _packed_turn(seg: dict[Any, Any], t: TurnState) -> bytes:
    """``turn: _turn_row(t)`` packed in one call: the sets sorted (a set of tuples sorts as
    ``_turn_row``'s lists do, and msgpack packs tuples as arrays), empty sets as empty arrays.
    The last result is kept with the budget it came from."""
    e = seg.get("turn")
    if e is not None and e[0] is t:
        return e[1]
    (moved, mover, fires, fired, picked, dropped, exchanged, reinforced, acted, transported,
     watch, vacated, obliged, lost, stunned) = _TURN_GET(t)
    b = _K["turn"] + _PACK.pack((
        moved, mover, fires, sorted(fired) if fired else (), picked, dropped, exchanged,
        reinforced, sorted(acted) if acted else (), sorted(transported) if transported else (),
        [(sq, sorted(w)) for sq, w in watch] if watch else (),
        sorted(vacated) if vacated else (), sorted(obliged) if obliged else (),
        sorted(lost) if lost else (), sorted(stunned) if stunned else ()))
    seg["turn"] = (t, b)
    return b


_TURN_GET = operator.attrgetter(*TurnState.__dataclass_fields__)
#: a piece's fields in ``piece_row`` order: packed as a tuple they give the row's very bytes
#: (msgpack packs tuples as arrays, so ``arts``, ``trip`` and ``ready`` need no conversion)
_PIECE_GET = operator.attrgetter(*Piece.__dataclass_fields__)
assert tuple(Piece.__dataclass_fields__) == ("sid", "kind", "side", "row", "col", "level", "hand",
                                             "arts", "stun", "origin", "trip", "ready")


def _packed_pieces(seg: dict[Any, Any], state: "GameState") -> bytes:
    """``pieces:`` and the packed rows of the pieces by serial. The last result is kept as
    (the pieces dict packed, its serials in order, the part's head then the rows, the bytes):
    the dict is unchanged while the entry lasts (``put``, ``remove`` and ``touch`` drop it).

    A state whose parent (still held) was packed last takes the parent's rows and packs again
    only the pieces its log names (``put``, ``remove``): one or two after an action. Otherwise
    the rows are found by piece value (each row is a pure function of a frozen ``Piece``)."""
    pieces = state.pieces
    last = seg.get("pieces")
    if last is not None and last[0] is pieces:      # this very dict, unchanged since
        return last[3]
    log = state._plog
    if (last is not None and log is not None and state._undo is _PENDING
            and last[0] is state._prev.pieces):
        _, sids, rows, blob = last
        if log:
            rows = list(rows)
            resized = False      # a piece added or taken off: sids copied, head repacked
            get = pieces.get
            for sid, was in log.items():
                p = get(sid)
                if p is was:
                    continue
                i = bisect_left(sids, sid)
                if i < len(sids) and sids[i] == sid:
                    if p is None:
                        if not resized:
                            sids, resized = list(sids), True
                        del sids[i], rows[i + 1]
                    else:
                        rows[i + 1] = _PACK.pack(_PIECE_GET(p))
                elif p is not None:
                    if not resized:
                        sids, resized = list(sids), True
                    sids.insert(i, sid)
                    rows.insert(i + 1, _PACK.pack(_PIECE_GET(p)))
            if resized:
                rows[0] = _K["pieces"] + _PACK.pack_array_header(len(sids))
            blob = b"".join(rows)
        seg["pieces"] = (pieces, sids, rows, blob)
        return blob
    sids = sorted(pieces)
    head = _K["pieces"] + _PACK.pack_array_header(len(sids))
    if last is None:
        rows = [head, *[_PACK.pack(_PIECE_GET(pieces[k])) for k in sids]]
    else:   # the last dict packed is alive and unchanged: its values stand for its rows
        old = last[0]
        known = {id(old[k]): row for k, row in zip(last[1], islice(last[2], 1, None))}
        rows = [head]
        for k in sids:
            p = pieces[k]
            rows.append(known.get(id(p)) or _PACK.pack(_PIECE_GET(p)))
    blob = b"".join(rows)
    seg["pieces"] = (pieces, sids, rows, blob)
    return blob


def _packed_record(seg: dict[Any, Any], state: "GameState") -> bytes:
    """``record:`` and ``actions:`` packed: the turn in progress printed from its record (each
    part's text taken from the memo, only new parts printed: comparing the parts with the
    last ones would cost about as much), its actions packed by item, as they only grow within
    a turn."""
    memo = seg.get("fmt")
    if memo is None or len(memo) > _FMT_LIMIT:
        memo = seg["fmt"] = {}
    text = format_turn(state.record, memo)          # the record has a Turn's fields
    actions = state.actions
    a = seg.get("actions")
    if a is None or a[0] is not actions:
        if a is not None and len(a[0]) <= len(actions) and actions[:len(a[0])] == a[0]:
            rest = actions[len(a[0]):]
            items = a[2]
        else:
            rest, items = actions, b""
        if rest:
            items += b"".join([_PACK.pack(format_action(x, memo)) for x in rest])
        a = seg["actions"] = (actions, _K["actions"] + _PACK.pack_array_header(len(actions))
                              + items, items)
    return b"".join((_K["record"], _PACK.pack(text), a[1]))


def _memo(seg: dict[Any, Any]) -> dict[int, tuple[Any, str]]:
    memo = seg.get("fmt")
    if memo is None or len(memo) > _FMT_LIMIT:
        memo = seg["fmt"] = {}
    return memo


def _packed_head(seg: dict[Any, Any], state: "GameState") -> tuple[bytes, bytes]:
    """The map header, ``v`` and ``options`` packed (options by value), and ``ply`` packed:
    the first part is the same all game, so the hash starts from its SHA-256 state."""
    e = seg.get("head")
    if e is not None and e[1] == state.ply and (e[0] is state.options or e[0] == state.options):
        return e[2], e[3]
    b = _same(seg, "options", state.options)
    if b is None:
        b = _K["options"] + _PACK.pack(state.options.to_dict())
        seg["options"] = (state.options, b)
    e = seg.get("prefix")
    if e is None or e[0] is not b:
        e = seg["prefix"] = (b, _HEAD + b)
    seg["head"] = (state.options, state.ply, e[1], _K["ply"] + _PACK.pack(state.ply))
    return seg["head"][2], seg["head"][3]


def _packed_articles(seg: dict[Any, Any], state: "GameState") -> bytes:
    """``articles:`` packed, reused while the codes and the readiness keep equal contents."""
    e = seg.get("articles")
    if e is not None and e[1] == state.art_ready and e[0] == state.art_code:
        return e[2]
    b = _K["articles"] + _PACK.pack([[a, state.art_code[a], state.art_ready.get(a, 0)]
                                      for a in sorted(state.art_code)])
    seg["articles"] = (dict(state.art_code), dict(state.art_ready), b)
    return b


def _make_ground(state: "GameState") -> list[Any]:
    return [[r, c, list(a)] for (r, c), a in sorted(state.ground.items()) if a]


def _make_reinforcements(state: "GameState") -> list[Any]:
    return [[r, c, *v] for (r, c), v in sorted(state.reinforcements.items())]


def _make_locks(state: "GameState") -> list[Any]:
    return sorted([k[0], k[1], v] for k, v in state.locks.items())


def _make_reveals(state: "GameState") -> list[Any]:
    return sorted([k, v] for k, v in state.reveals.items())


def _make_hits(state: "GameState") -> list[Any]:
    return sorted([sid, [list(h) for h in hs]] for sid, hs in state.hits.items())


def _packed_board(seg: dict[Any, Any], state: "GameState") -> bytes:
    """``articles`` to ``reveals`` packed (the articles, the ground, the reinforcements, the
    next serial, the locks, the reveals): reused whole while all are equal, as after most
    actions (one tuple comparison); otherwise part by part."""
    key = (state.ground, state.reinforcements, state.next_sid, state.locks, state.reveals,
           state.art_ready, state.art_code)
    e = seg.get("board")
    if e is not None and e[0] == key:
        return e[1]
    b = b"".join([_packed_articles(seg, state),
                  _packed_dict(seg, "ground", state.ground, _make_ground, state),
                  _packed_dict(seg, "reinforcements", state.reinforcements,
                               _make_reinforcements, state),
                  _K["next_sid"], _PACK.pack(state.next_sid),
                  _packed_dict(seg, "locks", state.locks, _make_locks, state),
                  _packed_dict(seg, "reveals", state.reveals, _make_reveals, state)])
    seg["board"] = ((_snapshot(state.ground), _snapshot(state.reinforcements), state.next_sid,
                     dict(state.locks), dict(state.reveals), dict(state.art_ready),
                     dict(state.art_code)), b)
    return b


def _packed_flight(seg: dict[Any, Any], state: "GameState") -> bytes:
    """``projectiles`` to ``end_reason`` packed (the projectiles, the next projectile id, the
    hit counters, the result and its reason), reused whole while all are equal."""
    e = seg.get("flight")
    if (e is not None and e[0] is state.projectiles and e[1] == state.next_pid
            and e[2] == state.hits and e[3] == state.result and e[4] == state.end_reason):
        return e[5]
    b = _same(seg, "projectiles", state.projectiles)
    if b is None:
        b = _K["projectiles"] + _PACK.pack([[p.pid, p.kind, p.side, p.row, p.col, p.dr, p.dc,
                                             p.strength, p.target, p.created]
                                            for p in state.projectiles])
        seg["projectiles"] = (state.projectiles, b)
    b = b"".join([b, _K["next_pid"], _PACK.pack(state.next_pid),
                  _packed_dict(seg, "hits", state.hits, _make_hits, state),
                  _K["result"], _PACK.pack(state.result),
                  _K["end_reason"], _PACK.pack(state.end_reason)])
    seg["flight"] = (state.projectiles, state.next_pid, dict(state.hits), state.result,
                     state.end_reason, b)
    return b


def _parts(state: GameState) -> list[bytes]:
    """The canonical bytes of the state in parts (joined, ``serialise``), put together from
    parts packed once and reused while they do not change."""
    seg = state._seg
    head, ply = _packed_head(seg, state)
    parts = [head, ply, _packed_pieces(seg, state), _packed_board(seg, state),
             _packed_flight(seg, state), _packed_turn(seg, state.turn)]
    e = seg.get("story")
    if e is None or e[0] is not state.history or e[1] is not state.orders:
        story: list[bytes] = []
        _packed_growing(seg, "history", state.history, story)
        _packed_growing(seg, "orders", state.orders, story)
        e = seg["story"] = (state.history, state.orders, b"".join(story))
    parts.append(e[2])
    parts.append(_packed_record(seg, state))
    b = _same(seg, "start", state.start)
    if b is None:
        b = _K["start"] + _PACK.pack(state.start)
        seg["start"] = (dict(state.start), b)
    parts.append(b)
    return parts


def serialise(state: GameState) -> bytes:
    """Canonical msgpack bytes of the state: byte for byte ``packb(to_dict(state))``, put
    together from parts packed once and reused while they do not change (pieces by value,
    dicts by contents, the history by its lines)."""
    cached = state._cache.get("bytes")
    if cached is None:
        cached = state._cache["bytes"] = b"".join(_parts(state))
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
    """SHA-256 hex of the canonical serialisation (``serialise``). Without the bytes at hand it
    is taken over the parts themselves, not joined first, starting from the kept SHA-256
    state of the first part (the map header and the options, the same all game)."""
    c = state._cache
    h = c.get("hash")
    if h is None:
        b = c.get("bytes")
        if b is not None:
            h = hashlib.sha256(b).hexdigest()
        else:
            parts = _parts(state)
            seg = state._seg
            e = seg.get("sha_prefix")
            if e is None or e[0] is not parts[0]:
                e = seg["sha_prefix"] = (parts[0], hashlib.sha256(parts[0]))
            sha = e[1].copy()
            for part in islice(parts, 1, None):
                sha.update(part)
            h = sha.hexdigest()
        c["hash"] = h
    return h


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


