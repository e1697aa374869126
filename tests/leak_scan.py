"""The leak scanner of issue 8 ("What it must show": leak test, instrumented).

Given the omniscient replay of a finished game (``Timeline``: the agreed start and every action,
both sides' actions opened, as the audit has them) and one side's artifacts, report every place
where that side holds or received an enemy piece at a moment the rules hide it from that side
(RUL-18), other than what the HQ items open to it:

* ``scan_state``: its engine state at moment ``t`` (``t`` actions applied) holds no hidden enemy
  piece, and no hit counter, reveal, article countdown or lock source of one (RUL-50, RUL-19);
* ``scan_value``: a received or logged value (plain lists, ints, strings, bytes that are msgpack,
  net ``Message`` objects) holds no enemy piece row (``engine.partial_codec.dump_piece``, inside an
  ``Opening`` or not) of a piece hidden in the event's window, except at a position the caller's
  ``allow`` names (an answer's openings, HQ-1/HQ-4/HQ-6; a ``Shown`` of a piece visible after the
  event, HQ-16), and no notation text of a hidden enemy action (RUL-37 writes it ``?``);
* ``scan_wal`` / ``scan_save``: the same for every entry of a network log or save, the event
  window of each message taken from the messages themselves;
* ``scan_text``: the plain reader's check, ``strings`` on the bytes of a log or save taken at
  moment ``t``: no hidden enemy action's text, and no ``(row,col)`` square of a hidden enemy piece
  that no text the side may read names (its own actions, the enemy's public ones).

A moment is a number of actions applied: ``Timeline.states[t]``. An event of action ``t`` (and
the next mover's start phase after an End Turn) happens in the window ``(t, t + 1)``; a piece
counts as hidden there if the rules hide it from the side at either end, and its row is a leak
unless it names a position the side sees at one of them.
"""
from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import msgpack

from engine import api
from engine.actions import LEVELS, Drop, Exchange, Fire, Move, PickUp, Transport
from engine.state import GameState, Piece, enemy
from engine.visibility import hidden_from

#: allow(path, sid, window) -> the reason this occurrence is not a leak ("" = it is one)
Allow = Callable[[str, int, tuple[int, int]], str]


@dataclass(frozen=True)
class Finding:
    """One occurrence of an enemy piece, or of its hidden action or square, the side should not have."""

    artifact: str            # "state", "message", "log", "save", "text"
    kind: str                # "piece", "counter", "countdown", "lock", "action-text", "square-text"
    sid: int | None
    window: tuple[int, int]
    where: str
    detail: str

    def __str__(self) -> str:
        return (f"{self.artifact} {self.kind} at moments {self.window[0]}..{self.window[1]} "
                f"(piece {self.sid}) {self.where}: {self.detail}")


@dataclass
class Report:
    """What a scan found and what it looked at."""

    side: str
    leaks: list[Finding] = field(default_factory=list)
    allowed: Counter = field(default_factory=Counter)   # reason -> occurrences not counted as leaks
    piece_plies: int = 0          # hidden enemy pieces x moments checked in states
    values: int = 0               # values (messages, entries) scanned
    rows: int = 0                 # enemy piece rows met in values
    texts: int = 0                # text snapshots scanned

    def add(self, other: "Report") -> None:
        self.leaks += other.leaks
        self.allowed.update(other.allowed)
        self.piece_plies += other.piece_plies
        self.values += other.values
        self.rows += other.rows
        self.texts += other.texts

    def by_kind(self) -> Counter:
        return Counter((f.artifact, f.kind, _field_of(f.where)) for f in self.leaks)


def _field_of(where: str) -> str:
    return re.sub(r"\[\d+\]", "[]", where.split(" ", 1)[-1])


class Timeline:
    """The omniscient replay: ``states[t]`` after ``t`` actions; who acted; what each side could not see."""

    def __init__(self, start: GameState, actions: Sequence[Any]) -> None:
        self.states = [start]
        self.texts: list[str] = []
        self.movers: list[str] = []
        s = start
        for a in actions:
            act = api.parse_action(a) if isinstance(a, str) else a
            self.texts.append(api.format_action(act))
            self.movers.append(s.side_to_move)
            s = api.apply_action(s, act)
            self.states.append(s)
        self._hidden: dict[str, list[frozenset[int]]] = {
            side: [frozenset(hidden_from(st, side)) for st in self.states] for side in "BW"}
        self._memo: dict[Any, Any] = {}

    @property
    def end(self) -> int:
        return len(self.states) - 1

    def hidden(self, t: int, side: str) -> frozenset[int]:
        """Serials of the enemy pieces the rules hide from ``side`` at moment ``t`` (RUL-18)."""
        return self._hidden[side][min(max(t, 0), self.end)]

    def hidden_actions(self, side: str) -> dict[int, str]:
        if ("hidden", side) not in self._memo:
            self._memo[("hidden", side)] = self._hidden_actions(side)
        return self._memo[("hidden", side)]

    def _hidden_actions(self, side: str) -> dict[int, str]:
        """The enemy's actions hidden from ``side``: the actor was hidden from it before the action
        and it is not a Fire that uncovered its firer (docs/hidden.md H-3, RUL-37, RUL-20)."""
        out = {}
        for i, text in enumerate(self.texts):
            if self.movers[i] == side:
                continue
            action = api.parse_action(text)
            actors = _actor(self.states[i], action)
            if not actors or not actors <= self.hidden(i, side):
                continue
            if not isinstance(action, Move) and any(
                    self.states[i + 1].reveals.get(s, 0) > self.states[i].reveals.get(s, 0) for s in actors):
                continue      # a Fire that revealed its firer (RUL-20)
            out[i] = text
        return out

    def first_public(self, side: str, text: str) -> int:
        """The first action whose text is ``text`` and that ``side`` may read (huge if none)."""
        key = ("first", side)
        if key not in self._memo:
            hidden = self.hidden_actions(side)
            first: dict[str, int] = {}
            for i, t in enumerate(self.texts):
                if i not in hidden:
                    first.setdefault(t, i)
            self._memo[key] = first
        return self._memo[key].get(text, 10**9)

    def public_texts(self, side: str, upto: int) -> list[str]:
        """Action texts ``side`` may read among the first ``upto`` actions."""
        hidden = self.hidden_actions(side)
        return [t for i, t in enumerate(self.texts[:upto]) if i not in hidden]

    def hidden_piece_plies(self, side: str) -> int:
        return sum(len(h) for h in self._hidden[side])


def _actor(state: GameState, action: Any) -> frozenset[int]:
    """Serials of the mover's pieces the action's description names (none: End Turn, Reinforce)."""
    from engine.descs import resolve_all
    from engine.errors import RuleError
    desc = getattr(action, "piece", None) or getattr(action, "giver", None)
    if desc is None:
        return frozenset()
    try:
        return frozenset(p.sid for p in resolve_all(state, desc, state.side_to_move))
    except RuleError:
        return frozenset()


#: the disclosures docs/hidden.md §6 names as open gaps of this step (to be closed by PSI, O-3):
#: where they show in a value, and the gap's id
KNOWN_GAPS = (
    (re.compile(r"(hidden-)?(event|ack)\.det"), "G-3 detectors"),
    (re.compile(r"hidden-query\.question(<mp>)?\[1\]\[2\]"), "G-3 detectors (lock question)"),
    (re.compile(r"hidden-query\.question(<mp>)?\[1\]\[[01]\]"), "G-2 nudge landing"),
)


def gap_of(f: Finding) -> str:
    """The known gap a finding belongs to ('' = none: a leak)."""
    where = f.where.split(" ", 1)[-1]
    for pattern, gap in KNOWN_GAPS:
        if pattern.match(where):
            return gap
    return ""


def split_gaps(findings: Iterable[Finding]) -> tuple[list[Finding], Counter]:
    """(the findings outside the known gaps, occurrences per known gap)."""
    leaks, gaps = [], Counter()
    for f in findings:
        g = gap_of(f)
        if g:
            gaps[g] += 1
        else:
            leaks.append(f)
    return leaks, gaps


# -- states ------------------------------------------------------------------------------------

def scan_state(tl: Timeline, side: str, t: int, state: GameState, where: str = "") -> Report:
    """The side's engine state at moment ``t`` holds nothing of an enemy piece hidden then."""
    rep = Report(side)
    hidden = tl.hidden(t, side)
    rep.piece_plies += len(hidden)
    win = (t, t)
    here = f"state {where}".strip()
    for sid, p in state.pieces.items():
        if p.side != side and sid in hidden:
            rep.leaks.append(Finding("state", "piece", sid, win, f"{here} pieces[{sid}]",
                                     f"holds hidden {p.kind} at {(p.row, p.col, p.level)}"))
    for name in ("hits", "reveals"):
        for sid in getattr(state, name, {}) or {}:
            if sid in hidden:
                rep.leaks.append(Finding("state", "counter", sid, win, f"{here} {name}[{sid}]",
                                         f"{name} of a hidden piece"))
    omni = tl.states[t]
    carried = {a: p.sid for p in omni.pieces.values() if p.sid in hidden for a in p.arts}
    for aid in getattr(state, "art_ready", {}) or {}:
        if aid in carried:
            rep.leaks.append(Finding("state", "countdown", carried[aid], win, f"{here} art_ready[{aid}]",
                                     "countdown of an article a hidden piece carries"))
    for (kind, ident), target in (getattr(state, "locks", {}) or {}).items():
        src = ident if kind == "p" else omni.holder_of(ident)
        if src in hidden:
            rep.leaks.append(Finding("state", "lock", src, win, f"{here} locks[{kind},{ident}]",
                                     f"lock of a hidden source on {target}"))
    return rep


# -- values ------------------------------------------------------------------------------------

def _as_piece(v: Any) -> Piece | None:
    """``v`` as a piece row (``engine.partial_codec.dump_piece``, ``engine.state`` rows), or None."""
    if not (isinstance(v, list) and len(v) == 12 and type(v[0]) is int and isinstance(v[1], str)
            and v[2] in ("B", "W") and type(v[3]) is int and type(v[4]) is int and v[5] in LEVELS
            and 1 <= v[3] <= 10 and 1 <= v[4] <= 10):
        return None
    sid, kind, side, r, c, level, hand, arts, stun, origin, trip, ready = v
    try:
        return Piece(sid, kind, side, r, c, level, hand, tuple(arts), stun, origin, None,
                     tuple(tuple(x) for x in ready))
    except TypeError:
        return None


def _unpack(b: bytes) -> Any:
    try:
        return msgpack.unpackb(b, raw=False, strict_map_key=False)
    except Exception:
        return None


def _unpickle(b: bytes) -> Any:
    """A value of the engine's classes in a restricted pickle (the stand-in codec of
    ``net.hidden_engine`` before the engine's plain codecs), or None."""
    try:
        import io

        from net.hidden_engine import _Unpickler   # type: ignore[attr-defined]
        return _Unpickler(io.BytesIO(b)).load()
    except Exception:
        return None


class _Scan:
    def __init__(self, tl: Timeline, side: str, artifact: str, allow: Allow | None,
                 hidden_texts: dict[int, str], rep: Report) -> None:
        self.tl, self.side, self.artifact, self.allow = tl, side, artifact, allow
        self.hidden_texts, self.rep = hidden_texts, rep

    def walk(self, v: Any, path: str, win: tuple[int, int]) -> None:
        if isinstance(v, Piece):
            self._piece(v, path, win)
            return
        if isinstance(v, GameState):
            for sid, p in v.pieces.items():
                self._piece(p, f"{path}.pieces[{sid}]", win)
            return
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            tag = getattr(v, "TAG", type(v).__name__)
            for f in dataclasses.fields(v):
                here = f"{path}{tag}.{f.name}" if not path or path.endswith(" ") else f"{path}.{f.name}"
                self.walk(getattr(v, f.name), here, win)
            return
        if isinstance(v, (bytes, bytearray)):
            self._text(bytes(v).decode("latin-1"), path, win)
            inner = _unpack(bytes(v))
            if isinstance(inner, (list, dict, str)):
                self.walk(inner, path + "<mp>", win)
            elif bytes(v[:1]) == b"\x80":
                obj = _unpickle(bytes(v))
                if obj is not None:
                    self.walk(obj, path + "<pickle>", win)
            return
        if isinstance(v, str):
            self._text(v, path, win)
            return
        if isinstance(v, dict):
            for k, x in v.items():
                self.walk(x, f"{path}.{k}" if path else str(k), win)
            return
        if isinstance(v, (list, tuple)):
            p = _as_piece(list(v)) if isinstance(v, list) else None
            if p is not None:
                self._piece(p, path, win)
            for i, x in enumerate(v):
                self.walk(x, f"{path}[{i}]", win)

    def _piece(self, p: Piece, path: str, win: tuple[int, int]) -> None:
        if p.side == self.side:
            return
        self.rep.rows += 1
        moments = range(win[0], win[1] + 1)
        if not any(p.sid in self.tl.hidden(t, self.side) for t in moments):
            return
        known = {(q.row, q.col, q.level) for t in moments if p.sid not in self.tl.hidden(t, self.side)
                 for q in [self.tl.states[min(t, self.tl.end)].pieces.get(p.sid)] if q is not None}
        if (p.row, p.col, p.level) in known:
            return
        reason = self.allow(path, p.sid, win) if self.allow else ""
        if reason:
            self.rep.allowed[reason] += 1
            return
        self.rep.leaks.append(Finding(self.artifact, "piece", p.sid, win, path,
                                      f"hidden {p.kind} at {(p.row, p.col, p.level)}"))

    def _text(self, s: str, path: str, win: tuple[int, int]) -> None:
        for i, text in self.hidden_texts.items():
            if i < win[1] and text in s and self.tl.first_public(self.side, text) > win[0]:
                # a hidden action is readable only after the game (the audit opens it)
                if win[0] < self.tl.end:
                    self.rep.leaks.append(Finding(self.artifact, "action-text", None, win, path,
                                                  f"hidden action {i} {text!r}"))


def scan_value(tl: Timeline, side: str, value: Any, window: tuple[int, int], where: str = "",
               allow: Allow | None = None, artifact: str = "message") -> Report:
    """One received (or logged) value, sent during ``window``."""
    rep = Report(side, values=1)
    _Scan(tl, side, artifact, allow, tl.hidden_actions(side), rep).walk(value, where, window)
    return rep


# -- network logs and saves ------------------------------------------------------------------------

#: positions of a network message at which an enemy piece is opened to its receiver by the rules
_OPENED_IN = ("hidden-answer.opened", "hidden-answer.answer")
_SHOWN_IN = ("ack.shown", "shown.shown")
_EVENT_TAGS = ("event", "hidden-event")     # the wire tag, and the in-process recorder's name


def net_allow(tl: Timeline, side: str) -> Allow:
    """What the HQ items open to ``side`` in hidden-play messages (docs/protocol.md "Hidden play"):
    an answer's leaf openings (HQ-1, HQ-4, HQ-6; the piece is the resolver's for one event, G-1),
    a ``Shown`` leaf of a piece the side sees after the event (HQ-16), and, in the side's own
    event, the consequences for a piece one of its answers opened in that event or that it saw
    when the event began."""
    opened: set[tuple[int, int]] = set()

    def allow(path: str, sid: int, win: tuple[int, int]) -> str:
        head = path.split(" ", 1)[-1]
        if head.startswith(_OPENED_IN):
            opened.add((win[0], sid))
            return "answer opening (HQ-1, HQ-4, HQ-6)"
        head = head.removeprefix("hidden-")
        if head.startswith(_SHOWN_IN):
            if sid not in tl.hidden(win[1], side):
                return "shown (HQ-16)"
            return ""
        if head.startswith("event.cons") and (win[0], sid) in opened:
            return "consequences of an opened piece (G-1)"
        if head.startswith("event.cons") and sid not in tl.hidden(win[0], side):
            # our own event moved an enemy piece we saw into hiding (a nudge, 04 Dozer): where it went
            # follows from our own action and what we saw; the owner is told its new value (HQ-15)
            return "consequences of a piece seen before our event (HQ-15)"
        return ""
    return allow


def _decode_entries(entries: Iterable[Any]) -> list[tuple[str, Any, Any]]:
    """(direction, game message, secrets) of each logged entry."""
    from net.chain import _fields
    from net.messages import GAME, decode_fields
    out = []
    for e in entries:
        body = _fields(e.signed.payload)[-1]
        out.append((e.direction, decode_fields(body, GAME, "game"), e.secrets))
    return out


def windows(msgs: Sequence[Any]) -> list[tuple[int, int]]:
    """The event window of each message of a hidden-play transcript, from the messages: an event
    names the actions applied before it (``index``); its questions, answers, ack and shown carry
    its number (``ev``); a start phase belongs to the End Turn before it."""
    ev_index: dict[int, tuple[int, int]] = {}
    for m in msgs:
        if getattr(m, "TAG", "") in _EVENT_TAGS:
            start = not m.text and m.commit is None
            ev_index[m.ev] = (m.index - 1, m.index) if start else (m.index, m.index + 1)
    out, last = [], (0, 0)
    for m in msgs:
        ev = getattr(m, "ev", None)
        if ev is not None and ev in ev_index:
            last = ev_index[ev]
        elif getattr(m, "TAG", "") in ("audit-open",):
            last = (10**9, 10**9)
        out.append(last)
    return out


def scan_entries(tl: Timeline, side: str, entries: Sequence[Any], artifact: str) -> Report:
    """Every logged message (both directions) and its secrets, at its event's window."""
    rep = Report(side)
    decoded = _decode_entries(entries)
    wins = windows([m for _, m, _ in decoded])
    allow = net_allow(tl, side)
    hidden_texts = tl.hidden_actions(side)
    for k, ((direction, msg, secrets), win) in enumerate(zip(decoded, wins)):
        if win[0] >= tl.end:
            continue          # the audit: everything is open at the end of the game (issue 8 item 5)
        scan = _Scan(tl, side, artifact, allow, hidden_texts, rep)
        scan.walk(msg, f"#{k}/{direction} ", win)
        if secrets:
            scan.walk(secrets, f"#{k}/{direction} secrets", win)
        rep.values += 1
    return rep


def scan_wal(tl: Timeline, side: str, path: Any) -> Report:
    from net.wal import read
    _, entries, _ = read(path)
    return scan_entries(tl, side, entries, "log")


def scan_save(tl: Timeline, side: str, path: Any) -> Report:
    from net.saves import load_save
    _, entries, _ = load_save(path)
    return scan_entries(tl, side, entries, "save")


# -- the plain reader's check -----------------------------------------------------------------

_PRINTABLE = re.compile(rb"[\x20-\x7e]{4,}")
_SQUARE = re.compile(r"\((\d{1,2}),(\d{1,2})\)")


def strings(data: bytes) -> list[str]:
    """What ``strings`` prints: runs of at least 4 printable ASCII characters."""
    return [m.group().decode("ascii") for m in _PRINTABLE.finditer(data)]


def secret_squares(tl: Timeline, side: str, t: int) -> dict[tuple[int, int], int]:
    """Squares (row, col) on which an enemy piece stood hidden from ``side`` at a moment <= ``t``
    and that no text ``side`` may read among the first ``t`` actions names; -> a piece's serial."""
    named = {(int(a), int(b)) for text in tl.public_texts(side, t) for a, b in _SQUARE.findall(text)}
    out = {}
    for m in range(0, min(t, tl.end) + 1):
        st = tl.states[m]
        for sid in tl.hidden(m, side):
            p = st.pieces.get(sid)
            if p is not None and (p.row, p.col) not in named:
                out.setdefault((p.row, p.col), sid)
    return out


def scan_text(tl: Timeline, side: str, data: bytes, t: int, artifact: str = "text") -> Report:
    """``strings`` on a file's bytes taken at moment ``t`` (before the game's end)."""
    rep = Report(side, texts=1)
    if t > tl.end:
        return rep
    hidden = {i: x for i, x in tl.hidden_actions(side).items() if i < t and tl.first_public(side, x) >= t}
    secret = secret_squares(tl, side, t)
    for s in strings(data):
        for i, text in hidden.items():
            if text in s:
                rep.leaks.append(Finding(artifact, "action-text", None, (t, t), f"strings {s[:60]!r}",
                                         f"hidden action {i} {text!r}"))
        for a, b in _SQUARE.findall(s):
            sq = (int(a), int(b))
            if sq in secret:
                rep.leaks.append(Finding(artifact, "square-text", secret[sq], (t, t), f"strings {s[:60]!r}",
                                         f"square {sq} of hidden piece {secret[sq]}"))
    return rep


def enemy_of(side: str) -> str:
    return enemy(side)
