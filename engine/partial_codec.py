"""Plain forms of the values the two partial states exchange (issue 8; docs/hidden.md §3).

``dump_*`` turns a value into lists, ints, strings, booleans and None only (canonical msgpack:
the network layer signs, commits and logs these); ``load_*`` rebuilds the value and raises
``ValueError`` naming what is wrong when the input is not a well-formed value of its kind (a
peer's bytes are never trusted). An action travels as its notation text (04/H).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .actions import AIR, GROUND, SUB, Action
from .asking import REMOTE_KINDS, Answer, Question
from .notation import NotationError, format_action, parse_action
from .openings import Opening
from .partial import Consequences, Detectors, Shown
from .pieces import KINDS
from .state import Piece, Projectile, piece_row

__all__ = ["dump_piece", "load_piece", "dump_opening", "load_opening", "dump_consequences",
           "load_consequences", "dump_detectors", "load_detectors", "dump_shown", "load_shown",
           "dump_question", "load_question", "dump_answer", "load_answer", "dump_action",
           "load_action"]

_LEVELS = (GROUND, AIR, SUB)


class _Bad(ValueError):
    pass


def _int(v: Any, lo: int = -(2**31), hi: int = 2**31) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise _Bad(f"expected an integer in {lo}..{hi}, got {v!r:.40}")
    return v


def _str(v: Any, choices: Sequence[str] | None = None, hi: int = 64) -> str:
    if type(v) is not str or len(v) > hi or (choices is not None and v not in choices):
        raise _Bad(f"unexpected text {v!r:.40}")
    return v


def _list(v: Any, hi: int = 4096) -> list[Any]:
    if type(v) is not list or len(v) > hi:
        raise _Bad(f"expected a list, got {type(v).__name__}")
    return v


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise _Bad(f"expected true/false, got {v!r:.40}")
    return v


def _checked(what: str, fn: Callable[[Any], Any], data: Any) -> Any:
    try:
        return fn(data)
    except (_Bad, TypeError, ValueError, KeyError, IndexError, NotationError) as exc:
        raise ValueError(f"malformed {what}: {exc}") from None


# -- pieces, projectiles, cells ---------------------------------------------------------------

def dump_piece(p: Piece) -> list[Any]:
    """A piece as the state's canonical serialisation writes it (``engine.state.piece_row``)."""
    return piece_row(p)


def _piece(row: Any) -> Piece:
    sid, kind, side, r, c, level, hand, arts, stun, origin, trip, ready = _list(row, 12)
    if kind not in KINDS:
        raise _Bad(f"unknown piece type {kind!r:.20}")
    t = None
    if trip is not None:
        aid, tlevel, ply, order, path = _list(trip, 5)
        t = (_int(aid), _str(tlevel, _LEVELS), _int(ply), _int(order),
             tuple((_int(a), _int(b)) for a, b in (_list(sq, 2) for sq in _list(path, 64))))
    return Piece(_int(sid, 1), kind, _str(side, ("B", "W")), _int(r, 1, 10), _int(c, 1, 10),
                 _str(level, _LEVELS), _str(hand, ("", "<", ">")),
                 tuple(_int(a, 0) for a in _list(arts, 16)), _int(stun, 0), _bool(origin), t,
                 tuple((_str(w), _int(n)) for w, n in (_list(x, 2) for x in _list(ready, 16))))


def load_piece(data: Any) -> Piece:
    return _checked("piece", _piece, data)


def _dump_proj(p: Projectile) -> list[Any]:
    return [p.pid, p.kind, p.side, p.row, p.col, p.dr, p.dc, p.strength, p.target, p.created]


def _proj(row: Any) -> Projectile:
    pid, kind, side, r, c, dr, dc, strength, target, created = _list(row, 10)
    return Projectile(_int(pid, 0), _str(kind, ("R", "S", "T")), _str(side, ("B", "W")),
                      _int(r, 1, 10), _int(c, 1, 10), _int(dr, -10, 10), _int(dc, -10, 10),
                      _int(strength, 0), _int(target, 0), _int(created, 0))


def _cell(c: Any) -> tuple[int, int, str]:
    r, col, level = _list(c, 3)
    return (_int(r, 1, 10), _int(col, 1, 10), _str(level, _LEVELS))


def _cells(cs: Any) -> tuple[tuple[int, int, str], ...]:
    return tuple(_cell(c) for c in _list(cs, 300))


def _locks(ls: Any) -> tuple[tuple[tuple[str, int], int], ...]:
    return tuple(((_str(k, ("p", "a")), _int(n, 0)), _int(t, 0))
                 for k, n, t in (_list(x, 3) for x in _list(ls, 256)))


def _pairs(ps: Any) -> tuple[tuple[Any, int], ...]:
    return tuple((a if type(a) is str else _int(a), _int(n)) for a, n in (_list(x, 2) for x in _list(ps, 256)))


# -- openings, detectors, shown -----------------------------------------------------------------

def dump_opening(op: Opening) -> list[Any]:
    return [dump_piece(op.piece), [list(h) for h in op.hits], op.revealed_until,
            [list(a) for a in op.art_ready], [[k[0], k[1], t] for k, t in op.locks],
            op.stunned_at_start]


def _opening(row: Any) -> Opening:
    piece, hits, rev, ready, locks, stunned = _list(row, 6)
    return Opening(_piece(piece), tuple((_str(w), _int(n)) for w, n in (_list(h, 2) for h in _list(hits, 16))),
                   _int(rev, 0), tuple((_int(a), _int(n)) for a, n in (_list(x, 2) for x in _list(ready, 16))),
                   _locks(locks), _bool(stunned))


def load_opening(data: Any) -> Opening:
    return _checked("opening", _opening, data)


def dump_detectors(det: Any) -> list[Any]:
    """``Detectors`` (``visibility.Zones``): [zone U squares, zone S squares, locked serials],
    each sorted."""
    return [[list(sq) for sq in sorted(det.submerged)], [list(sq) for sq in sorted(det.stealth)],
            sorted(det.locked)]


def _squares(v: Any) -> frozenset[tuple[int, int]]:
    out = [(_int(r, 1, 10), _int(c, 1, 10)) for r, c in (_list(x, 2) for x in _list(v, 100))]
    if len(set(out)) != len(out):
        raise _Bad("a square is listed twice")
    return frozenset(out)


def _zones(d: Any) -> Detectors:
    u, st, locked = _list(d, 3)
    serials = [_int(x, 1) for x in _list(locked, 256)]
    if len(set(serials)) != len(serials):
        raise _Bad("a locked serial is listed twice")
    return Detectors(_squares(u), _squares(st), frozenset(serials))


def load_detectors(data: Any) -> Any:
    return _checked("detectors", _zones, data)


def dump_shown(shown: Any) -> list[Any]:
    return [dump_opening(op) for op in shown.pieces]


def load_shown(data: Any) -> Any:
    return _checked("shown", lambda d: Shown(tuple(_opening(o) for o in _list(d, 128))), data)


# -- actions and consequences -------------------------------------------------------------------

def dump_action(action: Action | None) -> str | None:
    return None if action is None else format_action(action)


def load_action(text: Any) -> Action | None:
    if text is None:
        return None
    return _checked("action", lambda t: parse_action(_str(t, hi=1024)), text)


def dump_consequences(c: Any) -> list[Any]:
    return [dump_action(c.action), [[sid, None if op is None else dump_opening(op)] for sid, op in c.yours],
            c.ply, [[r, col, list(a)] for (r, col), a in c.ground], [list(x) for x in c.ground_ready],
            [[r, col, *v] for (r, col), v in c.reinforcements], c.next_sid,
            [_dump_proj(p) for p in c.projectiles], c.next_pid, c.result, c.end_reason,
            sorted(c.lost_primary), c.fresh_turn]


def load_consequences(data: Any) -> Any:
    def build(d: Any) -> Any:
        (action, yours, ply, ground, ready, reinf, next_sid, projs, next_pid, result, end_reason,
         lost, fresh) = _list(d, 13)
        return Consequences(
            load_action(action),
            tuple((_int(sid, 1), None if op is None else _opening(op))
                  for sid, op in (_list(y, 2) for y in _list(yours, 128))),
            _int(ply, 0),
            tuple(((_int(r, 1, 10), _int(col, 1, 10)), tuple(_int(a, 0) for a in _list(aids, 16)))
                  for r, col, aids in (_list(g, 3) for g in _list(ground, 100))),
            tuple((_int(a, 0), _int(n)) for a, n in (_list(x, 2) for x in _list(ready, 256))),
            tuple(((_int(r, 1, 10), _int(col, 1, 10)), (_str(s), _str(k), _str(h)))
                  for r, col, s, k, h in (_list(x, 5) for x in _list(reinf, 100))),
            _int(next_sid, 1), tuple(_proj(p) for p in _list(projs, 256)), _int(next_pid, 0),
            None if result is None else _str(result), _str(end_reason, hi=256),
            frozenset(_str(x, ("B", "W")) for x in _list(lost, 2)), _bool(fresh))
    return _checked("consequences", build, data)


# -- questions and answers ----------------------------------------------------------------------

def dump_question(q: Question) -> list[Any]:
    a = q.args
    if q.kind in ("first", "open_on", "any_on"):
        args: list[Any] = [[list(c) for c in a[0]]]
    elif q.kind == "routes":
        args = [[[list(c) for c in r] for r in a[0]]]
    elif q.kind == "lock":
        square, asker, zones, held, reveals = a
        args = [list(square), asker, dump_detectors(zones), [dump_piece(p) for p in held],
                [list(x) for x in reveals]]
    elif q.kind == "homing":
        args = [_dump_proj(a[0])]
    elif q.kind == "lock_in":
        args = [list(a[0]), sorted(a[1])]
    elif q.kind == "land":
        members, occupants, shift = a
        args = [[dump_piece(p) for p in members], [dump_piece(p) for p in occupants], list(shift)]
    else:
        raise ValueError(f"unknown question kind {q.kind!r}")
    return [q.kind, args, list(q.exclude)]


def _question(d: Any) -> Question:
    kind, args, exclude = _list(d, 3)
    kind = _str(kind, REMOTE_KINDS)
    args = _list(args, 8)
    if kind in ("first", "open_on", "any_on"):
        (cells,) = args
        built: tuple[Any, ...] = (_cells(cells),)
    elif kind == "routes":
        (routes,) = args
        built = (tuple(_cells(r) for r in _list(routes, 64)),)
    elif kind == "lock":
        square, asker, zones, held, reveals = args
        sq = _list(square, 2)
        built = ((_int(sq[0], 1, 10), _int(sq[1], 1, 10)), _str(asker, ("B", "W")), _zones(zones),
                 tuple(_piece(p) for p in _list(held, 128)),
                 tuple((_int(s, 1), _int(n)) for s, n in (_list(x, 2) for x in _list(reveals, 128))))
    elif kind == "homing":
        (proj,) = args
        built = (_proj(proj),)
    elif kind == "lock_in":
        cell, locked = args
        built = (_cell(cell), tuple(_int(x, 1) for x in _list(locked, 256)))
    else:
        members, occupants, shift = args
        sh = _list(shift, 2)
        built = (tuple(_piece(p) for p in _list(members, 16)), tuple(_piece(p) for p in _list(occupants, 64)),
                 (_int(sh[0], -1, 1), _int(sh[1], -1, 1)))
    return Question(kind, built, tuple(_int(s, 1) for s in _list(exclude, 256)))


def load_question(data: Any) -> Question:
    return _checked("question", _question, data)


def dump_answer(a: Answer) -> list[Any]:
    v = a.value
    value = list(v) if isinstance(v, tuple) else v
    return [value, [dump_opening(op) for op in a.opened]]


def load_answer(data: Any, kind: str) -> Answer:
    """An answer to a question of ``kind`` (its value's shape depends on the kind)."""

    def build(d: Any) -> Answer:
        value, opened = _list(d, 2)
        ops = tuple(_opening(o) for o in _list(opened, 128))
        if kind in ("routes", "any_on", "land"):
            v: Any = _bool(value)
        elif kind in ("first", "lock", "lock_in"):
            v = None if value is None else _int(value, 0)
        elif kind == "open_on":
            v = tuple(_int(s, 1) for s in _list(value, 128))
            if v != tuple(op.piece.sid for op in ops):
                raise _Bad("the opened pieces are not the ones named")
        elif kind == "homing":
            v = None if value is None else (lambda s: (_int(s[0], -1, 1), _int(s[1], -1, 1)))(_list(value, 2))
        else:
            raise _Bad(f"unknown question kind {kind!r:.20}")
        if kind != "open_on" and ops:
            raise _Bad(f"a {kind!r} answer opens no piece")
        return Answer(v, ops)
    return _checked(f"{kind} answer", build, data)
