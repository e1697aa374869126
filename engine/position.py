"""Position files: a board as data, written by the editor and the tests, loaded by the game
(01/§19). ``format_position`` writes any state a game can reach; ``parse_position`` reads it
back to the same state hash, history aside (``position_hash``).

One item per line; ``#`` starts a comment. Squares are ``a1``..``j10`` (02/§2.1), levels
``G``/``A``/``S``. The short form is what the editor writes by hand::

    # WEC position 1
    to-move B                        (B or W: ply 1 or 2; default B) or: ply 37
    piece B TA> a1 G FL ASH          side, kind[hand], square, level, held articles
    piece W RP a4 G SH stun=2        options: stun=N, moved (a Pawn that left its start)
    article SC e6                    an unowned article on the ground
    reinforcement B JE d8            a waiting reinforcement (kind[hand])
    lock e2 G f9 G                   the inherent Anti-Stealth of the piece on e2 G locks f9 G
    lock e2 G ASH f9 G               a held ASH article of the piece on e2 G locks f9 G

Pieces and articles are numbered in the order listed (RUL-40) unless they say otherwise. A
state of a game in progress needs more, and every addition is optional:

* ``piece`` attributes: ``id=N`` (serial), ``arts=5,40`` (ids of the held articles, in token
  order), ``art-ready=38,0`` (per held article: the first ply it may fire again, RUL-6),
  ``ready=FL:39`` (inherent weapons, RUL-6), ``hits=RL:1`` (this turn's counters, RUL-7),
  ``revealed=38`` (last ply of a reveal, RUL-20), ``origin`` (a start-square flag on a
  non-Pawn), ``trip=ART:LEVEL:PLY:ORDER:PATH`` (a Jump Pack / Scuba trip under way, RUL-31:
  the article's id or its token when the piece holds only one of that type, the trip's level,
  the ply and Fire number it began with, the squares still to go, ``b3-c4``);
* ``article CODE SQUARE id=N ready=PLY`` (``-`` for the square: an article held by nobody
  and lying nowhere);
* ``projectile KIND SIDE SQUARE DR DC strength=N created=PLY [target=N] [id=N]`` in flight,
  in creation order (RUL-15, RUL-16, RUL-46);
* ``lock ... source=p.N|a.N target=N``: the lock's source (a piece's inherent Anti-Stealth or
  an article) and target by id; with ids the cells may be left out (a source that has gone);
* ``removed N hits=... revealed=...``: what the turn still remembers of a piece now gone;
* ``next-id piece=N projectile=N``; ``result B|W|draw REASON``;
* ``turn moved mover=N fires=N fired=p.3,a.40 picked dropped exchanged reinforced acted=...
  transported=... watch=d8:3.4 vacated=d8 obliged=... lost=B stunned=...``: the turn in
  progress (RUL-1). With a ``turn`` line the start phase has already run; without one it runs
  when the file is read (trips advance, the Chopper obligation is fixed).

A lock whose source or target cannot be told apart by its cells is refused (``source=`` /
``target=`` name it), never guessed. Every problem is reported at once (STYLE: editor
validation), each with its line number.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgpack

from .actions import AIR, GROUND, SUB
from .errors import SaveError
from .options import Options
from .pieces import ARTICLES, KINDS
from .state import BLACK, WHITE, GameState, Piece, Projectile, TurnState, to_dict

MAGIC = "# WEC position 1"
_LEVELS = {"G": GROUND, "A": AIR, "S": SUB}
_NAMES = {v: k for k, v in _LEVELS.items()}
_PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})
_SIDES = (BLACK, WHITE)
_HISTORY = ("history", "orders", "record", "actions", "start")

__all__ = ["MAGIC", "format_position", "parse_position", "parse_square", "position_hash",
           "position_key", "square_name", "validate"]


def parse_square(text: str) -> tuple[int, int]:
    """``e4`` -> (row 4, col 5). :raises ValueError: not a square of the board."""
    if len(text) < 2 or text[0] not in "abcdefghij" or not text[1:].isdigit():
        raise ValueError(f"not a square: {text!r}")
    row = int(text[1:])
    if not 1 <= row <= 10 or text[1] == "0":
        raise ValueError(f"not a square: {text!r}")
    return row, "abcdefghij".index(text[0]) + 1


def square_name(row: int, col: int) -> str:
    """(row, col) -> ``e4``."""
    return f"{'abcdefghij'[col - 1]}{row}"


def position_key(state: GameState) -> dict[str, Any]:
    """Everything that identifies a state except its history: the finished lines, the current
    turn's record and actions and the start position (what a position file cannot hold)."""
    data = to_dict(state)
    for key in _HISTORY:
        del data[key]
    return data


def position_hash(state: GameState) -> str:
    """SHA-256 hex of ``position_key`` in canonical msgpack: the state hash, history aside."""
    return hashlib.sha256(msgpack.packb(position_key(state), use_bin_type=True)).hexdigest()


# -- reading ---------------------------------------------------------------------------------

@dataclass
class _PieceLine:
    number: int
    sid: int | None
    side: str
    kind: str
    hand: str
    row: int
    col: int
    level: str
    codes: list[str]
    aids: list[int] | None = None
    art_ready: list[int] | None = None
    stun: int = 0
    origin: bool = False
    ready: tuple[tuple[str, int], ...] = ()
    hits: tuple[tuple[str, int], ...] = ()
    revealed: int = 0
    trip: tuple[str, str, int, int, tuple[tuple[int, int], ...]] | None = None


@dataclass
class _ArticleLine:
    number: int
    code: str
    square: tuple[int, int] | None
    aid: int | None = None
    ready: int = 0


@dataclass
class _Reader:
    """What the lines said, before ids are assigned and cross-references resolved."""

    ply: int | None = None
    to_move: str | None = None
    pieces: list[_PieceLine] = field(default_factory=list)
    articles: list[_ArticleLine] = field(default_factory=list)     # ground, in file order
    order: list[Any] = field(default_factory=list)                 # piece and article lines
    reinforcements: dict[tuple[int, int], tuple[str, str, str]] = field(default_factory=dict)
    locks: list[tuple[int, list[str], dict[str, str]]] = field(default_factory=list)
    projectiles: list[tuple[int, list[str], dict[str, str]]] = field(default_factory=list)
    removed: list[tuple[int, int, dict[str, str]]] = field(default_factory=list)
    next_ids: dict[str, str] = field(default_factory=dict)
    result: tuple[str, str] | None = None
    turn: dict[str, str] | None = None


def parse_position(text: str, options: Options | None = None) -> GameState:
    """A game state from a position file.

    :raises SaveError: listing every problem found, each with its line number.
    """
    reader = _Reader()
    problems: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            _read_line(reader, number, line)
        except (ValueError, KeyError, IndexError) as exc:
            problems.append(f"line {number}: {exc}")
    state = GameState(options or Options())
    _build(state, reader, problems)
    problems += validate(state)
    if problems:
        raise SaveError("; ".join(problems))
    state.start = {"setup": "position", "text": text}
    if reader.turn is None:
        from .rules import begin_turn

        begin_turn(state)
    state.touch()
    return state


def _read_line(reader: _Reader, number: int, line: str) -> None:
    words = line.split()
    head, rest = words[0], words[1:]
    if head == "to-move" and len(rest) == 1 and rest[0] in _SIDES:
        reader.to_move = rest[0]
    elif head == "ply" and len(rest) == 1:
        reader.ply = _int(rest[0], "ply", 1)
    elif head == "piece" and len(rest) >= 4:
        entry = _piece_line(number, rest)
        reader.pieces.append(entry)
        reader.order.append(entry)
    elif head == "article" and len(rest) >= 2 and rest[0] in ARTICLES:
        attrs = _attrs(rest[2:], {"id", "ready"})
        square = None if rest[1] == "-" else parse_square(rest[1])
        entry = _ArticleLine(number, rest[0], square, _opt_int(attrs, "id"),
                             _int(attrs.get("ready", "0"), "ready", 0))
        reader.articles.append(entry)
        reader.order.append(entry)
    elif head == "reinforcement" and len(rest) == 3 and rest[0] in _SIDES:
        kind, hand = _kind(rest[1])
        sq = parse_square(rest[2])
        if sq in reader.reinforcements:          # never drop one silently
            handed = hand or reader.reinforcements[sq][2]
            raise ValueError(_second_reinforcement(rest[2], handed))
        reader.reinforcements[sq] = (rest[0], kind, hand)
    elif head == "lock":
        plain = [w for w in rest if "=" not in w]
        reader.locks.append((number, plain, _attrs([w for w in rest if "=" in w],
                                                   {"source", "target"})))
    elif head == "projectile" and len(rest) >= 5:
        reader.projectiles.append((number, rest[:5], _attrs(
            rest[5:], {"strength", "created", "target", "id"})))
    elif head == "removed" and len(rest) >= 1:
        reader.removed.append((number, _int(rest[0], "serial", 1),
                               _attrs(rest[1:], {"hits", "revealed"})))
    elif head == "next-id":
        reader.next_ids = _attrs(rest, {"piece", "projectile"})
    elif head == "result" and rest and rest[0] in (BLACK, WHITE, "draw"):
        reader.result = (rest[0], " ".join(rest[1:]))
    elif head == "turn":
        reader.turn = _attrs(rest, set(_TURN_FLAGS) | set(_TURN_SETS) | {
            "mover", "fires", "fired", "watch", "vacated", "lost"}, flags=set(_TURN_FLAGS))
    else:
        raise ValueError(f"cannot read {line!r}")


def _piece_line(number: int, words: list[str]) -> _PieceLine:
    side, token, square, level = words[:4]
    if side not in _SIDES:
        raise ValueError(f"side must be B or W, got {side!r}")
    if level not in _LEVELS:
        raise ValueError(f"level must be G, A or S, got {level!r}")
    kind, hand = _kind(token)
    row, col = parse_square(square)
    entry = _PieceLine(number, None, side, kind, hand, row, col, _LEVELS[level], [])
    moved, origin = False, False
    for w in words[4:]:
        key, _, value = w.partition("=")
        if w in ARTICLES:
            entry.codes.append(w)
        elif w == "moved":
            moved = True
        elif w == "origin":
            origin = True
        elif key == "stun":
            entry.stun = _int(value, "stun", 0)
        elif key == "id":
            entry.sid = _int(value, "id", 1)
        elif key == "arts":
            entry.aids = [_int(v, "article id", 1) for v in value.split(",")]
        elif key == "art-ready":
            entry.art_ready = [_int(v, "art-ready", 0) for v in value.split(",")]
        elif key == "ready":
            entry.ready = _counts(value)
        elif key == "hits":
            entry.hits = _counts(value)
        elif key == "revealed":
            entry.revealed = _int(value, "revealed", 1)
        elif key == "trip":
            entry.trip = _trip(value)
        else:
            raise ValueError(f"unknown piece attribute {w!r}")
    for name, values in (("arts", entry.aids), ("art-ready", entry.art_ready)):
        if values is not None and len(values) != len(entry.codes):
            raise ValueError(f"{name}= lists {len(values)} values for {len(entry.codes)} "
                             "held articles")
    entry.origin = (kind in _PAWNS and not moved) or origin
    return entry


def _trip(value: str) -> tuple[str, str, int, int, tuple[tuple[int, int], ...]]:
    parts = value.split(":")
    if len(parts) != 5 or parts[1] not in (AIR, SUB) or not parts[4]:
        raise ValueError(f"trip= needs ARTICLE:LEVEL:PLY:ORDER:PATH, got {value!r}")
    path = tuple(parse_square(sq) for sq in parts[4].split("-"))
    return parts[0], parts[1], _int(parts[2], "trip ply", 1), _int(parts[3], "trip order", 0), path


def _build(state: GameState, reader: _Reader, problems: list[str]) -> None:
    """Assign ids, place everything and resolve the cross-references into ``state``."""
    ply = reader.ply or (2 if reader.to_move == WHITE else 1)
    if reader.ply and reader.to_move and (ply % 2 == 0) != (reader.to_move == WHITE):
        problems.append(f"ply {ply} is not a turn of {reader.to_move} (01/R2.3)")
    state.ply = ply
    sids = _assign([p.sid for p in reader.pieces], "piece id", [p.number for p in reader.pieces],
                   problems)
    explicit: list[int | None] = []
    numbers: list[int] = []
    for entry in reader.order:
        if isinstance(entry, _PieceLine):
            explicit += entry.aids if entry.aids is not None else [None] * len(entry.codes)
            numbers += [entry.number] * len(entry.codes)
        else:
            explicit.append(entry.aid)
            numbers.append(entry.number)
    aids = iter(_assign(explicit, "article id", numbers, problems))
    serials = iter(sids)
    for entry in reader.order:
        if isinstance(entry, _PieceLine):
            held = [next(aids) for _ in entry.codes]
            _place_piece(state, entry, next(serials), held, problems)
        else:
            aid = next(aids)
            state.art_code[aid] = entry.code
            if entry.ready:
                state.art_ready[aid] = entry.ready
            if entry.square is not None:
                state.ground[entry.square] = state.ground.get(entry.square, ()) + (aid,)
    state.reinforcements = dict(reader.reinforcements)
    for number, sid, attrs in reader.removed:
        _remembered(state, sid, attrs.get("hits"), attrs.get("revealed"), number, problems)
    for number, words, attrs in reader.projectiles:
        _catch(problems, number, _projectile, state, words, attrs)
    for number, plain, attrs in reader.locks:
        _catch(problems, number, _lock, state, plain, attrs)
    state.next_sid = max(state.pieces, default=0) + 1
    state.next_pid = max((p.pid for p in state.projectiles), default=0) + 1
    _catch(problems, 0, _next_ids, state, reader.next_ids)
    if reader.result is not None:
        state.result, state.end_reason = reader.result
    if reader.turn is not None:
        _catch(problems, 0, _turn, state, reader.turn)


def _catch(problems: list[str], number: int, fn: Any, *args: Any) -> None:
    try:
        fn(*args)
    except (ValueError, KeyError, IndexError) as exc:
        problems.append(f"line {number}: {exc}" if number else str(exc))


def _assign(explicit: list[int | None], what: str, numbers: list[int],
            problems: list[str]) -> list[int]:
    """Explicit ids kept, the others numbered 1, 2, ... in file order skipping taken ones."""
    taken: set[int] = set()
    for ident, number in zip(explicit, numbers):
        if ident is not None:
            if ident in taken:
                problems.append(f"line {number}: {what} {ident} is used twice")
            taken.add(ident)
    out, counter = [], 1
    for ident in explicit:
        if ident is None:
            while counter in taken:
                counter += 1
            ident = counter
            taken.add(counter)
        out.append(ident)
    return out


def _place_piece(state: GameState, e: _PieceLine, sid: int, aids: list[int],
                 problems: list[str]) -> None:
    for aid, code in zip(aids, e.codes):
        state.art_code[aid] = code
    for aid, ready in zip(aids, e.art_ready or ()):
        if ready:
            state.art_ready[aid] = ready
    trip = None
    if e.trip is not None:
        art, level, ply, order, path = e.trip
        if art.isdigit():
            held = [int(art)] if int(art) in aids else []
        else:
            held = [a for a, c in zip(aids, e.codes) if c == art]
        if len(held) != 1:
            problems.append(f"line {e.number}: trip= names {art!r}: the piece must hold exactly "
                            "one such article (name it by id, arts=) (RUL-31)")
        else:
            trip = (held[0], level, ply, order, path)
    state.pieces[sid] = Piece(sid, e.kind, e.side, e.row, e.col, e.level, e.hand, tuple(aids),
                              e.stun, e.origin, trip, e.ready)
    if e.hits:
        state.hits[sid] = e.hits
    if e.revealed:
        state.reveals[sid] = e.revealed


def _remembered(state: GameState, sid: int, hits: str | None, revealed: str | None,
                number: int, problems: list[str]) -> None:
    try:
        if hits:
            state.hits[sid] = _counts(hits)
        if revealed:
            state.reveals[sid] = _int(revealed, "revealed", 1)
    except ValueError as exc:
        problems.append(f"line {number}: {exc}")


def _projectile(state: GameState, words: list[str], attrs: dict[str, str]) -> None:
    kind, side, square, dr, dc = words
    if kind not in ("R", "S", "T") or side not in _SIDES:
        raise ValueError(f"a projectile is R, S or T of B or W, got {kind} {side}")
    row, col = parse_square(square)
    pid = _opt_int(attrs, "id") or max((p.pid for p in state.projectiles), default=0) + 1
    if any(p.pid == pid for p in state.projectiles):
        raise ValueError(f"projectile id {pid} is used twice")
    target = _int(attrs.get("target", "0"), "target", 0)
    proj = Projectile(pid, kind, side, row, col, int(dr), int(dc),
                      _int(attrs.get("strength", "1"), "strength", 1), target,
                      _int(attrs.get("created", "0"), "created", 0))
    state.projectiles = state.projectiles + (proj,)


def _lock(state: GameState, plain: list[str], attrs: dict[str, str]) -> None:
    """One lock (RUL-19): by ids, by cells, or both (then they must agree)."""
    article = len(plain) == 5 and plain[2] == "ASH"
    if article:
        plain = plain[:2] + plain[3:]
    if plain and len(plain) != 4:
        raise ValueError("a lock is 'lock SQUARE LEVEL [ASH] SQUARE LEVEL' (RUL-19)")
    src = _cell_pieces(state, plain[:2]) if plain else None
    dst = _cell_pieces(state, plain[2:]) if plain else None
    if "source" in attrs:
        key = _source_key(attrs["source"])
        if src is not None and key not in _sources(state, src, key[0] == "a"):
            raise ValueError(f"source={attrs['source']} is not an Anti-Stealth source on "
                             f"{plain[0]} {plain[1]} (RUL-19)")
    elif src is None:
        raise ValueError("a lock needs its source cell or source= (RUL-19)")
    else:
        keys = [k for k in _sources(state, src, article) if k not in state.locks]
        if not keys:
            what = "a held ASH article" if article else "an inherent Anti-Stealth"
            raise ValueError(f"no piece on {plain[0]} {plain[1]} has {what} free to lock "
                             "(RUL-19)")
        if len(keys) > 1:
            raise ValueError(f"ambiguous lock source on {plain[0]} {plain[1]}: {len(keys)} "
                             "Anti-Stealth sources could hold it; name one with source= "
                             "(RUL-19)")
        key = keys[0]
    if "target" in attrs:
        target = _int(attrs["target"], "target", 1)
        if dst is not None and target not in dst:
            raise ValueError(f"target={target} is not on {plain[2]} {plain[3]} (RUL-19)")
    elif not dst:
        raise ValueError("a lock needs a piece on its target cell or target= (RUL-19)")
    elif len(dst) > 1:
        raise ValueError(f"ambiguous lock target on {plain[2]} {plain[3]}: name it with "
                         "target= (RUL-19)")
    else:
        target = dst[0]
    if key in state.locks:
        raise ValueError(f"the source {attrs.get('source', '')} already holds a lock (RUL-19)")
    state.locks[key] = target


def _cell_pieces(state: GameState, words: list[str]) -> list[int]:
    r, c = parse_square(words[0])
    return sorted(p.sid for p in state.pieces.values() if p.cell == (r, c, _LEVELS[words[1]]))


def _sources(state: GameState, sids: list[int], article: bool) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for sid in sids:
        p = state.pieces[sid]
        if article:
            out += [("a", a) for a in p.arts if state.art_code[a] == "ASH"]
        elif "ASH" in KINDS[p.kind].inherent:
            out.append(("p", sid))
    return out


def _source_key(text: str) -> tuple[str, int]:
    kind, _, ident = text.partition(".")
    if kind not in ("p", "a"):
        raise ValueError(f"source= is p.SERIAL or a.ARTICLE, got {text!r}")
    return kind, _int(ident, "source", 1)


def _next_ids(state: GameState, attrs: dict[str, str]) -> None:
    if "piece" in attrs:
        n = _int(attrs["piece"], "next piece id", 1)
        if n < state.next_sid:
            raise ValueError(f"next-id piece={n} is not above every piece id (RUL-40)")
        state.next_sid = n
    if "projectile" in attrs:
        n = _int(attrs["projectile"], "next projectile id", 1)
        if n < state.next_pid:
            raise ValueError(f"next-id projectile={n} is not above every projectile id")
        state.next_pid = n


_TURN_FLAGS = ("moved", "picked", "dropped", "exchanged", "reinforced")
_TURN_SETS = ("acted", "transported", "obliged", "stunned")


def _turn(state: GameState, attrs: dict[str, str]) -> None:
    def ints(key: str) -> frozenset[int]:
        return frozenset(_int(v, key, 0) for v in attrs[key].split(",")) if key in attrs \
            else frozenset()

    watch = []
    for item in attrs.get("watch", "").split(",") if "watch" in attrs else ():
        sq, _, sids = item.partition(":")
        watch.append((parse_square(sq), frozenset(_int(v, "watch", 1) for v in sids.split("."))))
    vacated = frozenset(parse_square(v) for v in attrs["vacated"].split(",")) \
        if "vacated" in attrs else frozenset()
    lost = frozenset(attrs["lost"].split(",")) if "lost" in attrs else frozenset()
    if not lost <= set(_SIDES):
        raise ValueError(f"turn lost= lists sides B and W, got {attrs['lost']!r}")
    state.turn = TurnState(
        moved="moved" in attrs, mover=_int(attrs.get("mover", "0"), "mover", 0),
        fires=_int(attrs.get("fires", "0"), "fires", 0),
        fired=frozenset(_fired(v) for v in attrs["fired"].split(",")) if "fired" in attrs
        else frozenset(),
        picked="picked" in attrs, dropped="dropped" in attrs, exchanged="exchanged" in attrs,
        reinforced="reinforced" in attrs, acted=ints("acted"), transported=ints("transported"),
        watch=tuple(watch), vacated=vacated, obliged=ints("obliged"), lost_primary=lost,
        stunned=ints("stunned"))


def _fired(text: str) -> tuple[Any, ...]:
    """A Fire source key of RUL-4: ``p.3``, ``piece.3``, ``a.40`` or ``p.3.FL``."""
    parts = text.split(".")
    if parts[0] not in ("p", "a", "piece") or len(parts) not in (2, 3):
        raise ValueError(f"cannot read the Fire source {text!r}")
    return (parts[0], _int(parts[1], "fired", 1), *parts[2:])


def _attrs(words: list[str], allowed: set[str],
           flags: frozenset[str] | set[str] = frozenset()) -> dict[str, str]:
    out: dict[str, str] = {}
    for w in words:
        key, eq, value = w.partition("=")
        if key not in allowed or (not eq and key not in flags) or (eq and key in flags):
            raise ValueError(f"unknown attribute {w!r}")
        out[key] = value
    return out


def _counts(value: str) -> tuple[tuple[str, int], ...]:
    out = []
    for item in value.split(","):
        name, _, n = item.partition(":")
        out.append((name, _int(n, name, 0)))
    return tuple(out)


def _int(text: str, what: str, least: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, got {text!r}") from None
    if n < least:
        raise ValueError(f"{what} must be at least {least}, got {n}")
    return n


def _opt_int(attrs: dict[str, str], key: str) -> int | None:
    return _int(attrs[key], key, 1) if key in attrs else None


def _second_reinforcement(square: str, handed: str) -> str:
    """Why a second reinforcement on one square is refused (04/N11; the engine keeps one)."""
    if handed:
        return f"{square}: a handed reinforcement must be the only one on its square (04/N11)"
    return f"{square}: one reinforcement per square (several on one square are not supported)"


def _kind(token: str) -> tuple[str, str]:
    hand = token[-1] if token[-1] in "<>" else ""
    kind = token[:-1] if hand else token
    kind = {"STP": "SP"}.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown piece type {kind!r}")
    if KINDS[kind].handed != bool(hand):
        raise ValueError(f"{kind} {'needs' if KINDS[kind].handed else 'has no'} a hand (< or >)")
    return kind, hand


def validate(state: GameState) -> list[str]:
    """Every problem of a position at once (01/R5, 01/R10.3, RUL-28)."""
    from .board import capacity, coexists

    problems = []
    for cell, sids in sorted(state.cells().items()):
        ps = [state.pieces[s] for s in sids]
        name = f"{square_name(cell[0], cell[1])} {cell[2]}"
        if len(ps) > 2:
            problems.append(f"{name}: more than 2 pieces (01/R5.1)")
        elif len(ps) == 2 and ps[0].side == ps[1].side and \
                not any(coexists(state, p.kind) for p in ps):
            problems.append(f"{name}: two pieces without Coexistence (01/R5.4)")
    for sq, aids in sorted(state.ground.items()):
        if len(aids) > 2:
            problems.append(f"{square_name(*sq)}: more than 2 articles (01/R1.5)")
    for p in state.pieces.values():
        if len(p.arts) > capacity(state, p):
            problems.append(f"{square_name(p.row, p.col)} {p.kind}: over capacity (RUL-28)")
    if len(state.art_code) > 200:
        problems.append("more than 200 articles (01/R10.3)")
    for side in (BLACK, WHITE) if state.result is None else ():
        if not any(p.side == side and KINDS[p.kind].role == "primary"
                   for p in state.pieces.values()):
            problems.append(f"{'Black' if side == BLACK else 'White'} has no primary "
                            "government piece (01/R3.1)")
    return problems


# -- writing ---------------------------------------------------------------------------------

def format_position(state: GameState) -> str:
    """The position file of the state as it is now: everything but its history, so that
    ``parse_position(format_position(s), s.options)`` has ``s``'s ``position_hash``."""
    auto_sids = sorted(state.pieces) == list(range(1, len(state.pieces) + 1))
    auto_aids = _article_order(state) == list(range(1, len(state.art_code) + 1))
    # ``to-move`` is implied by the ply (01/R2.3); it is written for readers of the short form
    lines = [MAGIC, f"ply {state.ply}", f"to-move {state.side_to_move}"]
    for sid in sorted(state.pieces):
        lines.append(_piece_text(state, state.pieces[sid], auto_sids, auto_aids))
    for sq in sorted(state.ground):
        for a in state.ground[sq]:
            lines.append(_article_text(state, a, square_name(*sq), auto_aids))
    for a in _nowhere(state):
        lines.append(_article_text(state, a, "-", auto_aids))
    for sq, (side, kind, hand) in sorted(state.reinforcements.items()):
        lines.append(f"reinforcement {side} {kind}{hand} {square_name(*sq)}")
    for key, target in sorted(state.locks.items()):
        lines.append(_lock_text(state, key, target))
    for p in state.projectiles:
        extra = f" target={p.target}" if p.target else ""
        lines.append(f"projectile {p.kind} {p.side} {square_name(p.row, p.col)} {p.dr} {p.dc} "
                     f"strength={p.strength} created={p.created}{extra} id={p.pid}")
    for sid in sorted((set(state.hits) | set(state.reveals)) - set(state.pieces)):
        extra = _remembered_text(state, sid)
        lines.append(f"removed {sid}{extra}")
    ids = []
    if state.next_sid != max(state.pieces, default=0) + 1:
        ids.append(f"piece={state.next_sid}")
    if state.next_pid != max((p.pid for p in state.projectiles), default=0) + 1:
        ids.append(f"projectile={state.next_pid}")
    if ids:
        lines.append("next-id " + " ".join(ids))
    if state.result is not None:
        if "#" in state.end_reason:
            raise ValueError("an end reason with '#' cannot be written")
        lines.append(f"result {state.result} {state.end_reason}".rstrip())
    lines.append(_turn_text(state.turn))
    return "\n".join(lines) + "\n"


def _article_order(state: GameState) -> list[int]:
    """Article ids in the order the file lists them (held by serial, then ground, nowhere)."""
    order = [a for sid in sorted(state.pieces) for a in state.pieces[sid].arts]
    order += [a for sq in sorted(state.ground) for a in state.ground[sq]]
    return order + _nowhere(state)


def _nowhere(state: GameState) -> list[int]:
    placed = {a for p in state.pieces.values() for a in p.arts}
    placed |= {a for aids in state.ground.values() for a in aids}
    return sorted(set(state.art_code) - placed)


def _piece_text(state: GameState, p: Piece, auto_sids: bool, auto_aids: bool) -> str:
    words = ["piece", p.side, p.kind + p.hand, square_name(p.row, p.col), _NAMES[p.level],
             *state.codes(p)]
    if p.stun:
        words.append(f"stun={p.stun}")
    if p.kind in _PAWNS and not p.origin:
        words.append("moved")
    if p.kind not in _PAWNS and p.origin:
        words.append("origin")
    if not auto_sids:
        words.append(f"id={p.sid}")
    if p.arts and not auto_aids:
        words.append("arts=" + ",".join(map(str, p.arts)))
    if any(state.art_ready.get(a, 0) for a in p.arts):
        words.append("art-ready=" + ",".join(str(state.art_ready.get(a, 0)) for a in p.arts))
    if p.ready:
        words.append("ready=" + _counts_text(p.ready))
    if p.trip is not None:
        aid, level, ply, order, path = p.trip
        codes = state.codes(p)
        art = state.art_code[aid] if auto_aids and codes.count(state.art_code[aid]) == 1 \
            else str(aid)
        words.append(f"trip={art}:{level}:{ply}:{order}:" +
                     "-".join(square_name(*sq) for sq in path))
    return " ".join(words) + _remembered_text(state, p.sid)


def _remembered_text(state: GameState, sid: int) -> str:
    out = ""
    if sid in state.hits:
        out += " hits=" + _counts_text(state.hits[sid])
    if sid in state.reveals:
        out += f" revealed={state.reveals[sid]}"
    return out


def _article_text(state: GameState, aid: int, where: str, auto_aids: bool) -> str:
    out = f"article {state.art_code[aid]} {where}"
    if not auto_aids:
        out += f" id={aid}"
    if state.art_ready.get(aid, 0):
        out += f" ready={state.art_ready[aid]}"
    return out


def _lock_text(state: GameState, key: tuple[str, int], target: int) -> str:
    kind, ident = key
    holder = ident if kind == "p" else state.holder_of(ident)
    src, dst = state.pieces.get(holder) if holder else None, state.pieces.get(target)
    cells = ""
    if src is not None and dst is not None:
        cells = (f" {square_name(src.row, src.col)} {_NAMES[src.level]}"
                 f"{' ASH' if kind == 'a' else ''}"
                 f" {square_name(dst.row, dst.col)} {_NAMES[dst.level]}")
    return f"lock{cells} source={kind}.{ident} target={target}"


def _turn_text(t: TurnState) -> str:
    words = ["turn"]
    words += [flag for flag in _TURN_FLAGS if getattr(t, flag)]
    if t.mover:
        words.append(f"mover={t.mover}")
    if t.fires:
        words.append(f"fires={t.fires}")
    if t.fired:
        words.append("fired=" + ",".join(".".join(map(str, k)) for k in sorted(t.fired)))
    for name in ("acted", "transported", "obliged", "stunned"):
        values = getattr(t, name)
        if values:
            words.append(f"{name}=" + ",".join(map(str, sorted(values))))
    if t.watch:
        words.append("watch=" + ",".join(f"{square_name(*sq)}:" + ".".join(map(str, sorted(s)))
                                         for sq, s in t.watch))
    if t.vacated:
        words.append("vacated=" + ",".join(square_name(*sq) for sq in sorted(t.vacated)))
    if t.lost_primary:
        words.append("lost=" + ",".join(sorted(t.lost_primary)))
    return " ".join(words)


def _counts_text(counts: tuple[tuple[str, int], ...]) -> str:
    return ",".join(f"{name}:{n}" for name, n in counts)
