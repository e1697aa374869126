"""The partial-state engine's disclosing questions through private set intersection (issue 8
item 4; 00 HQ-1, HQ-10, HQ-12, HQ-13; docs/protocol.md "The leak table"; docs/hidden.md G-3).

Two uses of ``net.psi`` (DH-PSI over X25519), each a small pure state machine per exchange
(messages in, messages out; no I/O, no clock; the scalars and padding seeds are handed in):

* **The zone test (HQ-10, RUL-18, RUL-19).** After every event each side must say which of its
  own pieces the other sees (``engine.partial.Side.shown_to``). What decides it is only whether
  the squares of its pieces with a hiding reason lie in the other's detection zones
  (``engine.visibility.Zones``). ``ZoneAsker`` is the *owner* of the pieces, the PSI asker in
  mode ``set`` with the squares of its pieces that have a hiding reason (tagged ``zone-U`` /
  ``zone-S``), padded to ``zone_sizes`` (in network play to the public bounds of
  ``capped_zone_sizes``, docs/rulings.md P-8); ``ZoneResponder`` is the *viewer*, the responder
  with its zone squares padded to 100 per zone. The owner learns which of its squares lie in the
  zones (exactly what it needs to compute ``Shown``), the viewer only the padded sizes. The
  result is not sent: the owner's ``Shown`` that follows is what the rules make it show. The
  viewer's lock targets (``Zones.locked``) travel in clear: the owner answered those locks.
* **Remote questions whose cells are the asker's secret (HQ-1, HQ-2, HQ-12, HQ-13).** When
  the event's actor is hidden from the owner (``use_psi``), the resolver's ``first`` (PSI mode
  ``first``: it learns only the index of the first cell holding an absent owner piece),
  ``any_on`` (mode ``count``: only how many of the cells, one cell in practice), ``routes``
  (mode ``set`` over the route cells: which of them are blocked, docs/rulings.md K-3) and ``open_on``
  (mode ``set``: which cells hold absent pieces; then ``open_on`` is asked in clear only for
  those cells, whose pieces the owner must open anyway) go through ``QuestionAsker`` (the
  resolver) and ``QuestionResponder`` (the owner, with the cells of its absent pieces, padded
  to ``piece_bound``). The owner learns the kind, the padded sizes and the serials in
  ``exclude`` (its own pieces the resolver holds, known to it); never the cells.
* **The lock search (HQ-11)**, always through PSI: mode ``first`` over the 300 cells in
  RUL-19/RUL-49 order from the holder's square h, less those whose square the resolver's
  deciding zone reaches (``lock_plan``), against the cells of the owner's absent pieces a lock
  may take (``lock_cells``); then ``lock_in`` in clear for the cell found. Neither h nor the
  zones travel (docs/rulings.md P-5).

Every exchange keeps its messages (``record``) for the audit: ``audit`` calls
``net.psi.audit_exchange`` with both sides' reveals and the true cells, which the audit's
omniscient replay gives through ``question_cells``, ``absent_cells``, ``zone_asker_cells`` and
``zone_responder_cells``. The asker's ``PsiResult`` is kept by the asker and handed over at the
audit (``record().result``), never during play.

The answers equal ``engine.asking.owner_answer``'s exactly (``tests/test_hidden_psi.py`` plays
whole games through this path against the omniscient engine).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from engine.actions import EndTurn
from engine.asking import Answer, Question, lock_candidate, lock_zone, owner_answer
from engine.board import LEVEL_ORDER, distance
from engine.pieces import KINDS
from engine.partial import Detectors, Resolved, Side
from engine.state import GameState, enemy
from engine.visibility import SQUARES, Zones, detection_zones, hidden_in_zones, stealthy
from net.errors import ProtocolError
from net.hidden_messages import (MAX_PSI_X, MAX_PSI_Z, PsiQuery, PsiReply, PsiResult, PsiReveal,
                                 PsiStep, PsiStepReply, hidden, _choice, _int, _list)
from net.messages import Message
from net.psi import Cell, PsiAsker, PsiContext, PsiError, PsiResponder, audit_exchange

__all__ = ["PSI_KINDS", "ALWAYS_PSI", "LOCK_SIZE", "goes_through_psi", "lock_order", "lock_plan",
           "lock_cells", "QUESTION_MODE", "QUESTION_HQ", "ZONE_HQ", "SIZE_BUCKETS", "PsiAsk",
           "use_psi", "padded_size", "piece_bound", "zone_sizes", "ZoneCaps", "zone_caps",
           "zones_in_play", "capped_zone_sizes", "question_cells", "absent_cells",
           "zone_asker_cells", "zone_responder_cells", "Record", "QuestionAsker",
           "QuestionResponder", "ZoneAsker", "ZoneResponder", "audit", "Link", "drive", "ask_psi",
           "zone_test", "event", "play"]

#: remote questions (engine.asking) that go through PSI when the actor is hidden from the owner
#: (``use_psi``); ``lock`` (HQ-11) always does (``goes_through_psi``)
PSI_KINDS = ("first", "any_on", "open_on", "routes", "lock")
ALWAYS_PSI = ("lock",)
QUESTION_MODE = {"first": "first", "any_on": "count", "open_on": "set", "routes": "set", "lock": "first"}
QUESTION_HQ = {"first": "HQ-1", "any_on": "HQ-12", "open_on": "HQ-1", "routes": "HQ-2", "lock": "HQ-11"}
#: HQ-11: the lock search lists every cell of the board in RUL-19/RUL-49 order (K-5)
LOCK_SIZE = 300
ZONE_HQ = "HQ-10"
#: the asker's padded list sizes (public): a line of the board holds at most 10 cells, so every
#: path, ray, ride and landing of the rules fits the first bucket; larger lists (never seen in
#: play) take the next one
SIZE_BUCKETS = (10, 30, 100, 300)
ZONE_TAGS = ("zone-U", "zone-S")


@hidden("psi-ask", qid=_int(), kind=_choice(*PSI_KINDS), exclude=_list(_int(1), MAX_PSI_Z),
        size=_int(1, MAX_PSI_X), z_size=_int(1, MAX_PSI_Z), locked=_list(_int(1), MAX_PSI_Z))
@dataclass(frozen=True)
class PsiAsk(Message):
    """The resolver's remote question ``kind`` asked through PSI: everything of the
    ``engine.asking.Question`` except its cells (``exclude``: the owner's pieces the resolver
    already holds or has dealt with), the padded sizes, and for ``lock`` the asker's lock
    targets (the owner's pieces, which it answered); the ``psi-query`` follows."""
    qid: int
    kind: str
    exclude: list[int]
    size: int
    z_size: int
    locked: list[int]


# -- the public parameters ------------------------------------------------------------------------

def use_psi(side: Side, action: Any) -> bool:
    """Whether the remote questions of ``side``'s event go through PSI: unless its actor is
    visible to the owner before it (its Move path and destination are then in its public
    notation, H-3) or the action names no piece (Reinforce: the marker is public, HQ-13).
    A start phase (``None``: travellers, HQ-12) and an end phase (``EndTurn``: descents) always
    do. Both sides can tell: the owner knows which of the resolver's pieces it sees."""
    if action is None or isinstance(action, EndTurn):
        return True
    actors = side.actors(action)
    return bool(actors) and not (actors & side.exposed)


def goes_through_psi(q: Question, psi: bool) -> bool:
    """Whether remote question ``q`` goes through PSI in an event whose ``use_psi`` is ``psi``:
    ``lock`` always (its square h is a holder's, often hidden, HQ-11), the other
    ``PSI_KINDS`` when ``psi`` unless the asker's cells are public (``Question.public``: a
    projectile's cell, HQ-8, asked in clear, docs/rulings.md P-12); the rest never."""
    return q.kind in ALWAYS_PSI or (psi and q.kind in PSI_KINDS and not q.public)


def padded_size(n: int) -> int:
    """The public padded length of an asker's list of ``n`` cells."""
    for b in SIZE_BUCKETS:
        if n <= b:
            return b
    raise PsiError(f"{n} cells exceed the largest PSI list ({SIZE_BUCKETS[-1]})")


def piece_bound(state: GameState, known: int = 0) -> int:
    """The responder's padded set size for a remote question: every serial issued so far
    (``next_sid - 1``, public, RUL-40) bounds the owner's pieces and so its distinct cells.
    Both sides take it from their state before the event, which agree. ``known``: serials both
    sides know are not among the owner's absent pieces (in network play, P-8: the ``exclude``
    serials and the resolver's pieces the owner holds, ``Side.exposed``), taken off the bound."""
    n = max(1, state.next_sid - 1 - known)
    if n > MAX_PSI_Z:
        raise PsiError(f"{n} serials exceed the PSI set limit {MAX_PSI_Z}")
    return n


def zone_sizes(state: GameState) -> tuple[int, int]:
    """(asker size, responder set size) of the zone test: per zone in play (U always, S with
    ``stealth_range_detection``), at most every own piece's square (``next_sid - 1``, at most
    the 100 squares) against every square of the zone (100)."""
    zones = 2 if state.options.stealth_range_detection else 1
    return zones * max(1, min(100, state.next_sid - 1)), zones * len(SQUARES)


@dataclass(frozen=True)
class ZoneCaps:
    """Public bounds on how many pieces can have each hiding reason (docs/rulings.md P-8), from
    the agreed start (public) and the article catalogue fixed at setup: ``subs`` pieces of kind
    Sub, ``stealth_kinds`` pieces of a kind with inherent Stealth, ``scuba`` / ``stealth_arts``
    Scuba and Stealth articles, ``next_sid`` the start's next serial (every later serial may be
    of any kind). Both sides hold the same, and so does the audit's re-run."""

    subs: int
    stealth_kinds: int
    scuba: int
    stealth_arts: int
    next_sid: int


def zone_caps(start: GameState) -> ZoneCaps:
    """The ``ZoneCaps`` of a game from its agreed omniscient start (every piece of both sides:
    a conversion, RUL-14, may move a piece to the other side)."""
    kinds = [p.kind for p in start.pieces.values()]
    codes = list(start.art_code.values())
    return ZoneCaps(sum(k == "SU" for k in kinds), sum("SH" in KINDS[k].inherent for k in kinds),
                    codes.count("SC"), codes.count("SH"), start.next_sid)


def zones_in_play(options: Any) -> tuple[str, ...]:
    """The zone tags a zone test carries with ``ZoneCaps`` (P-8): ``zone-U`` with
    ``submerged_invisibility`` (else no piece has hiding reason U), ``zone-S`` with
    ``stealth_range_detection`` and ``stealth_invisibility``. Public: options are agreed."""
    return tuple(t for t, on in (("zone-U", options.submerged_invisibility),
                                 ("zone-S", options.stealth_range_detection and options.stealth_invisibility))
                 if on)


def capped_zone_sizes(state: GameState, caps: ZoneCaps) -> tuple[int, int]:
    """(asker size, responder set size) of the zone test under ``caps`` (P-8). The asker's
    list per zone is padded to a public bound on the owner's pieces with that hiding reason, not
    to every serial: at the Sub level stand only Subs, pieces on a Scuba trip (each holds its
    Scuba article) and passengers off their native level (one per Sub; RUL-25, RUL-31); a
    stealthy piece is of a Stealth kind or holds a Stealth article (RUL-18). Serials issued since
    the start count as possible Subs and Stealth kinds. (0, 0): no zone in play."""
    new = max(0, state.next_sid - caps.next_sid)
    every = max(1, min(100, state.next_sid - 1))
    bound = {"zone-U": min(every, max(1, 2 * (caps.subs + new) + caps.scuba)),
             "zone-S": min(every, max(1, caps.stealth_kinds + new + caps.stealth_arts))}
    tags = zones_in_play(state.options)
    return sum(bound[t] for t in tags), len(tags) * len(SQUARES)


# -- the true cells (what each side feeds in; the audit recomputes them) ----------------------------

def question_cells(q: Question) -> tuple[Cell, ...]:
    """The asker's cells of a remote question: in order for ``first``; distinct, in order of
    first appearance, for ``any_on`` and ``open_on`` (a set); for ``routes`` the distinct
    cells of every route but its destination (HQ-2: the destination does not block)."""
    if q.kind == "routes":
        return tuple(dict.fromkeys(tuple(c) for r in q.args[0] for c in r[:-1]))  # type: ignore[misc]
    cells = tuple(tuple(c) for c in q.args[0])
    if q.kind == "first":
        return cells                                            # type: ignore[return-value]
    return tuple(dict.fromkeys(cells))                          # type: ignore[arg-type]


def lock_order(h: tuple[int, int]) -> tuple[Cell, ...]:
    """Every cell of the board in RUL-19/RUL-49 order from square ``h`` (distance, rank, file,
    level; the serial breaks ties inside a cell)."""
    cells = [(r, c, lv) for r, c in SQUARES for lv in LEVEL_ORDER]
    return tuple(sorted(cells, key=lambda x: (distance((x[0], x[1]), h), x[0], x[1], LEVEL_ORDER[x[2]])))


def lock_plan(state: GameState, q: Question) -> tuple[tuple[Cell, ...], Any, tuple[int, ...]]:
    """The resolver's side of a ``lock`` question (HQ-11): (its PSI cells, the best candidate
    among the owner's pieces it holds or None, its lock targets). The cells are those of
    ``lock_order`` from h up to the held candidate's cell, less those whose square lies in the
    zone that would show a stealthy piece there (``lock_zone``): a match is then exactly an
    absent piece hidden from the asker now, as ``engine.asking`` judges it."""
    h, asker, zones, held, reveals = q.args
    rev = dict(reveals)
    mine = [p for _, p in sorted({p.sid: p for p in held}.items())]
    hidden = hidden_in_zones(state, mine, zones, rev)
    cands = sorted((p for p in mine if p.sid in hidden and stealthy(state, p)),
                   key=lambda p: (distance(p.square, tuple(h)), p.row, p.col, LEVEL_ORDER[p.level], p.sid))
    best = cands[0] if cands else None
    cells = []
    for cell in lock_order(tuple(h)):
        zone = zones.submerged if lock_zone(state.options, cell) == "U" else zones.stealth
        if (cell[0], cell[1]) not in zone:
            cells.append(cell)
        if best is not None and cell == best.cell:
            break
    return tuple(cells), best, tuple(sorted(zones.locked))


def lock_cells(owner_state: GameState, owner: str, exclude: Sequence[int],
               locked: Sequence[int]) -> tuple[Cell, ...]:
    """The owner's side of a ``lock`` question: the cells of its absent pieces a new lock may
    take (``engine.asking.lock_candidate``), sorted."""
    ex = set(exclude)
    return tuple(sorted({p.cell for s, p in owner_state.pieces.items()
                         if p.side == owner and s not in ex and lock_candidate(owner_state, p, locked)}))


def absent_cells(owner_state: GameState, owner: str, exclude: Sequence[int]) -> tuple[Cell, ...]:
    """The responder's cells: those of the owner's pieces the resolver does not hold (the same
    ``absent`` pieces ``engine.asking.owner_answer`` answers about), sorted."""
    ex = set(exclude)
    return tuple(sorted({p.cell for s, p in owner_state.pieces.items()
                         if p.side == owner and s not in ex}))


def zone_asker_cells(side: Side) -> tuple[Cell, ...]:
    """The owner's cells in the zone test: its pieces' squares with a hiding reason
    (``Side.hiding_squares``), tagged with the zone that can neutralise it."""
    sq = side.hiding_squares()
    return tuple((r, c, "zone-U") for r, c in sq["U"]) + tuple((r, c, "zone-S") for r, c in sq["S"])


def zone_responder_cells(viewer: Side) -> tuple[Cell, ...]:
    """The viewer's cells in the zone test: the squares of its detection zones, tagged."""
    z = detection_zones(viewer.state, viewer.side)
    return (tuple((r, c, "zone-U") for r, c in sorted(z.submerged))
            + tuple((r, c, "zone-S") for r, c in sorted(z.stealth)))


# -- the exchanges ----------------------------------------------------------------------------------

@dataclass
class Record:
    """One exchange's messages, as ``net.psi.audit_exchange`` wants them (``result`` is the
    asker's, kept by it until the audit)."""

    ctx: PsiContext
    query: PsiQuery | None = None
    reply: PsiReply | None = None
    steps: list[PsiStep] = field(default_factory=list)
    step_replies: list[PsiStepReply] = field(default_factory=list)
    result: PsiResult | None = None


class _AskerBase:
    """The asker's side of one exchange: ``start()`` gives the first messages, ``on_message``
    takes each reply and gives the next messages; ``done`` once the result is known."""

    def __init__(self, ctx: PsiContext, mode: str, cells: Sequence[Cell], size: int, z_size: int,
                 root: bytes, peer_root: bytes, secret: tuple[bytes, bytes]) -> None:
        self.cells = tuple(cells)
        self.z_size = z_size
        self.psi = PsiAsker(ctx, mode, self.cells, size, root, peer_root, *secret)
        self.rec = Record(ctx)
        self.done = False

    def _query(self) -> PsiQuery:
        q = self.psi.query()
        self.rec.query = q
        return q

    def on_message(self, msg: Message) -> list[Message]:
        """:raises PsiError: a message out of place, of another exchange, or malformed."""
        if self.done:
            raise PsiError(f"PSI exchange {self.rec.ctx.qid} is over; got {msg.TAG}")
        if isinstance(msg, PsiReply) and self.rec.reply is None:
            self.rec.reply = msg
            out = self.psi.on_reply(msg, self.z_size)
        elif isinstance(msg, PsiStepReply) and self.rec.reply is not None:
            self.rec.step_replies.append(msg)
            out = self.psi.on_step_reply(msg)
        else:
            raise PsiError(f"PSI exchange {self.rec.ctx.qid}: unexpected {msg.TAG}")
        if isinstance(out, PsiStep):
            self.rec.steps.append(out)
            return [out]
        self.rec.result = out
        self.done = True
        self._finish(out)
        return []

    def _finish(self, result: PsiResult) -> None:
        raise NotImplementedError

    def record(self) -> Record:
        return self.rec

    def reveal(self) -> PsiReveal:
        """At the audit: this side's scalar and padding seed."""
        return self.psi.reveal()


class _ResponderBase:
    def __init__(self, ctx: PsiContext, mode: str, size: int, cells: Sequence[Cell], z_size: int,
                 root: bytes, secret: tuple[bytes, bytes]) -> None:
        self.cells = tuple(cells)
        self.psi = PsiResponder(ctx, mode, size, self.cells, z_size, root, *secret)
        self.rec = Record(ctx)
        self.size = size
        self.mode = mode

    @property
    def done(self) -> bool:
        """Every value the asker may send has been answered."""
        if self.rec.reply is None:
            return False
        return self.mode != "first" or 1 + len(self.rec.steps) == self.size

    def on_message(self, msg: Message) -> list[Message]:
        """:raises PsiError: a message out of place, of another exchange, or malformed."""
        if isinstance(msg, PsiQuery) and self.rec.query is None:
            self.rec.query = msg
            self.rec.reply = self.psi.on_query(msg)
            return [self.rec.reply]
        if isinstance(msg, PsiStep) and self.rec.reply is not None and not self.done:
            self.rec.steps.append(msg)
            r = self.psi.on_step(msg)
            self.rec.step_replies.append(r)
            return [r]
        raise PsiError(f"PSI exchange {self.rec.ctx.qid}: unexpected {msg.TAG}")

    def record(self) -> Record:
        return self.rec

    def reveal(self) -> PsiReveal:
        return self.psi.reveal()


class QuestionAsker(_AskerBase):
    """The resolver's half of one remote question (``PSI_KINDS``) through PSI.

    ``question`` comes from ``Side.resolve_step``; ``state`` is the resolver's ``Side.state``
    (before the event: it gives ``piece_bound``). When ``done``: ``answer`` is the
    ``Answer`` to feed back to ``resolve_step``; or ``follow_up`` is a plain question to ask
    in clear (``open_on`` for the cells found only; ``lock_in`` for the cell of the lock's
    target) and ``complete(its answer)`` is the ``Answer`` to feed back."""

    def __init__(self, game_id: bytes, qid: int, asker: str, state: GameState, question: Question,
                 root: bytes, peer_root: bytes, secret: tuple[bytes, bytes],
                 exposed: frozenset[int] | None = None) -> None:
        if question.kind not in PSI_KINDS:
            raise PsiError(f"question {question.kind!r} does not go through PSI")
        self.question = question
        self.held_best: Any = None
        self.locked: tuple[int, ...] = ()
        if question.kind == "lock":
            cells, self.held_best, self.locked = lock_plan(state, question)
            size = LOCK_SIZE
        else:
            cells = question_cells(question)
            size = padded_size(len(cells))
        ctx = PsiContext(game_id, state.ply, qid, QUESTION_HQ[question.kind], asker)
        known = 0 if exposed is None else len(set(question.exclude) | set(exposed))
        super().__init__(ctx, QUESTION_MODE[question.kind], cells, size, piece_bound(state, known), root,
                         peer_root, secret)
        self.answer: Answer | None = None
        self.follow_up: Question | None = None

    def start(self) -> list[Message]:
        q = self.question
        return [PsiAsk(self.rec.ctx.qid, q.kind, list(q.exclude), self.psi.size, self.z_size,
                       list(self.locked)), self._query()]

    def _finish(self, result: PsiResult) -> None:
        kind = self.question.kind
        if kind == "first":
            self.answer = Answer(self.psi.first)
        elif kind == "any_on":
            self.answer = Answer(self.psi.count > 0)
        elif kind == "routes":
            blocked = {self.cells[i] for i in self.psi.matched}
            self.answer = Answer(any(all(tuple(c) not in blocked for c in r[:-1])
                                     for r in self.question.args[0]))
        elif kind == "lock":
            if self.psi.first is None:
                self.answer = Answer(None if self.held_best is None else self.held_best.sid)
            else:
                self.follow_up = Question("lock_in", (self.cells[self.psi.first], self.locked),
                                          self.question.exclude)
        else:
            found = [self.cells[i] for i in sorted(self.psi.matched)]
            if found:
                self.follow_up = Question("open_on", (tuple(found),), self.question.exclude)
            else:
                self.answer = Answer((), ())

    def complete(self, answer: Answer) -> Answer:
        """The answer to feed back to ``resolve_step`` from the ``follow_up``'s answer (for a
        lock, the held candidate in the same cell may come first by serial, RUL-40).
        :raises PsiError: a ``lock_in`` answer naming nothing where the PSI found a piece."""
        if self.question.kind != "lock":
            return answer
        if answer.value is None:
            raise PsiError(f"lock_in {self.rec.ctx.qid}: the PSI found a piece, the answer names none")
        best = self.held_best
        if best is not None and best.cell == self.follow_up.args[0] and best.sid < answer.value:  # type: ignore[union-attr]
            return Answer(best.sid)
        return answer


class QuestionResponder(_ResponderBase):
    """The owner's half of a remote question through PSI, built from the ``psi-ask``: its cells
    are those of its pieces the resolver does not hold (``absent_cells``; for ``lock`` those
    of them a new lock may take, ``lock_cells``).
    :raises PsiError: the sizes are not the public ones."""

    def __init__(self, game_id: bytes, asker: str, owner_state: GameState, owner: str, ask: PsiAsk,
                 root: bytes, secret: tuple[bytes, bytes], tight: bool = False) -> None:
        if ask.size not in SIZE_BUCKETS or (ask.kind == "lock") != (ask.size == LOCK_SIZE):
            raise PsiError(f"psi-ask {ask.qid}: size {ask.size} is not the public one for {ask.kind!r}")
        if ask.locked and ask.kind != "lock":
            raise PsiError(f"psi-ask {ask.qid}: lock targets sent with a {ask.kind!r} question")
        held = {sid for sid, p in owner_state.pieces.items() if p.side == asker} if tight else set()
        bound = piece_bound(owner_state, len(set(ask.exclude) | held) if tight else 0)
        if ask.z_size != bound:
            raise PsiError(f"psi-ask {ask.qid}: set size {ask.z_size}, the serials issued are {bound}")
        ctx = PsiContext(game_id, owner_state.ply, ask.qid, QUESTION_HQ[ask.kind], asker)
        cells = lock_cells(owner_state, owner, ask.exclude, ask.locked) if ask.kind == "lock" \
            else absent_cells(owner_state, owner, ask.exclude)
        super().__init__(ctx, QUESTION_MODE[ask.kind], ask.size, cells, ask.z_size, root, secret)
        self.ask = ask


class ZoneAsker(_AskerBase):
    """The owner's half of the zone test (HQ-10): which of its pieces' squares lie in the
    viewer's zones. ``side`` is the owner's ``Side`` after ``receive`` (resolver: after
    ``adopt``). When ``done``, ``detectors(locked)`` is the ``Detectors`` to pass to
    ``Side.shown_to`` (the zones restricted to the squares found, and the viewer's lock
    targets as it sent them)."""

    def __init__(self, game_id: bytes, qid: int, side: Side, root: bytes, peer_root: bytes,
                 secret: tuple[bytes, bytes], caps: ZoneCaps | None = None) -> None:
        size, z_size = zone_sizes(side.state) if caps is None else capped_zone_sizes(side.state, caps)
        ctx = PsiContext(game_id, side.state.ply, qid, ZONE_HQ, side.side)
        cells = zone_asker_cells(side)
        if caps is not None:
            tags = zones_in_play(side.state.options)
            cells = tuple(c for c in cells if c[2] in tags)
        super().__init__(ctx, "set", cells, size, z_size, root, peer_root, secret)
        self.found: tuple[Cell, ...] = ()

    def start(self) -> list[Message]:
        return [self._query()]

    def _finish(self, result: PsiResult) -> None:
        self.found = tuple(self.cells[i] for i in sorted(self.psi.matched))

    def detectors(self, locked: frozenset[int] | Sequence[int]) -> Detectors:
        if not self.done:
            raise PsiError(f"zone test {self.rec.ctx.qid} is not finished")
        return Zones(frozenset((r, c) for r, c, t in self.found if t == "zone-U"),
                     frozenset((r, c) for r, c, t in self.found if t == "zone-S"),
                     frozenset(locked))


class ZoneResponder(_ResponderBase):
    """The viewer's half of the zone test: its detection zones' squares, padded to 100 per
    zone. ``asker`` is the owner's colour, ``qid`` the exchange number the owner uses."""

    def __init__(self, game_id: bytes, qid: int, viewer: Side, asker: str, root: bytes,
                 secret: tuple[bytes, bytes], caps: ZoneCaps | None = None) -> None:
        size, z_size = zone_sizes(viewer.state) if caps is None else capped_zone_sizes(viewer.state, caps)
        ctx = PsiContext(game_id, viewer.state.ply, qid, ZONE_HQ, asker)
        cells = zone_responder_cells(viewer)
        if caps is not None:
            tags = zones_in_play(viewer.state.options)
            cells = tuple(c for c in cells if c[2] in tags)
        super().__init__(ctx, "set", size, cells, z_size, root, secret)


def audit(rec: Record, asker_cells: Sequence[Cell], asker_reveal: PsiReveal,
          responder_cells: Sequence[Cell], responder_reveal: PsiReveal) -> None:
    """The audit of one exchange (``net.psi.audit_exchange``) from the asker's record (the
    responder's holds the same signed messages, less the result) and the true cells from the
    omniscient replay. :raises PsiAuditError: naming the side and value at fault;
    ProtocolError: the record is incomplete."""
    if rec.query is None or rec.reply is None or rec.result is None:
        raise ProtocolError(f"PSI exchange {rec.ctx.qid}: incomplete record for the audit")
    audit_exchange(rec.ctx, rec.query, rec.reply, rec.steps, rec.step_replies, rec.result,
                   asker_cells, asker_reveal, responder_cells, responder_reveal)


# -- one event with these exchanges, in one process (the order a network machine follows) ----------

class Link:
    """What ``event`` needs from its surroundings; the default keeps values as they are. A
    network machine does the same steps with each message signed and sent; a test or the
    benchmark overrides ``send`` (the wire), ``plain`` (a question in clear) or ``exchanged``."""

    def __init__(self, game_id: bytes, roots: dict[str, bytes], secret: Any) -> None:
        self.game_id = game_id
        self.roots = roots
        self.secret = secret            # () -> (scalar, pad_seed), fresh per side and exchange
        self.qid = 0

    def next_qid(self) -> int:
        self.qid += 1
        return self.qid

    def send(self, msg: Message, own_cells: Sequence[Cell], ctx: PsiContext) -> Message:
        return msg

    def plain(self, owner: Side, q: Question) -> Answer:
        return owner_answer(owner.state, owner.side, q)

    def exchanged(self, kind: str, asker: Any, responder: Any, truth: tuple[Any, Any]) -> None:
        """One exchange ended (``truth``: the true cells of both sides, for the audit)."""

    def answered(self, owner: Side, q: Question, answer: Answer) -> None:
        """A remote question was answered through PSI (a test compares with the plain one)."""

    def carry(self, what: str, value: Any) -> Any:
        """A value of the four steps crossing to the other side (``what``: consequences,
        locked, shown, targets, gone)."""
        return value


def drive(link: Link, asker: Any, responder: Any, msgs: list[Message]) -> None:
    """Run one exchange to its end through ``link.send``."""
    ctx = asker.rec.ctx
    while msgs:
        back = [r for m in msgs for r in responder.on_message(link.send(m, asker.cells, ctx))]
        msgs = [n for m in back for n in asker.on_message(link.send(m, responder.cells, ctx))]
    if not (asker.done and responder.done):
        raise PsiError(f"PSI exchange {ctx.qid} stopped before its end")


def ask_psi(link: Link, resolver: Side, owner: Side, q: Question) -> Answer:
    """One remote question through PSI, then the plain follow-up for what it found."""
    qa = QuestionAsker(link.game_id, link.next_qid(), resolver.side, resolver.state, q,
                       link.roots[resolver.side], link.roots[owner.side], link.secret())
    first = qa.start()
    header = link.send(first[0], qa.cells, qa.rec.ctx)
    qr = QuestionResponder(link.game_id, resolver.side, owner.state, owner.side, header,  # type: ignore[arg-type]
                           link.roots[owner.side], link.secret())
    drive(link, qa, qr, first[1:])
    truth = (qa.cells, lock_cells(owner.state, owner.side, q.exclude, qa.locked)) if q.kind == "lock" \
        else (question_cells(q), absent_cells(owner.state, owner.side, q.exclude))
    link.exchanged(q.kind, qa, qr, truth)
    answer = qa.complete(link.plain(owner, qa.follow_up)) if qa.follow_up is not None else qa.answer
    assert answer is not None
    link.answered(owner, q, answer)
    return answer


def zone_test(link: Link, owner: Side, viewer: Side, locked: frozenset[int]) -> Detectors:
    """The zone test: ``owner`` learns which of its squares lie in ``viewer``'s zones; the
    ``Detectors`` for ``owner.shown_to``."""
    za = ZoneAsker(link.game_id, link.next_qid(), owner, link.roots[owner.side],
                   link.roots[viewer.side], link.secret())
    zr = ZoneResponder(link.game_id, za.rec.ctx.qid, viewer, owner.side, link.roots[viewer.side],
                       link.secret())
    drive(link, za, zr, za.start())
    link.exchanged("zone", za, zr, (zone_asker_cells(owner), zone_responder_cells(viewer)))
    return za.detectors(locked)


def event(link: Link, resolver: Side, owner: Side, action: Any, always: bool = False) -> Any:
    """One event (docs/hidden.md §3) with the PSI exchanges: hidden-api.md's four steps, the
    ``Detectors`` replaced by the lock targets in clear and a zone test each way.

    1. R: ``resolve_step`` until ``Resolved`` (questions of ``PSI_KINDS`` through PSI when
       ``use_psi``); ``adopt``.                                   R -> O: event{c, locked_R}
    2. O: ``receive(c)``; zone test O asks, R answers -> ``shown_O = O.shown_to(...)``;
       ``targets``; ``locked_O``.                                 O -> R: ack{targets, shown_O, locked_O}
    3. R: ``gone``; zone test R asks, O answers (O's zones do not depend on its locks) ->
       ``shown_R = R.shown_to(... locked_O - gone)``; ``accept(shown_O)``.  R -> O: shown{gone, shown_R}
    4. O: ``end_locks_on(gone)``; ``accept(shown_R)``.
    Returns the ``Resolved`` event."""
    psi = always or use_psi(resolver, action)
    answers: list[Answer] = []
    while True:
        step = resolver.resolve_step(action, answers)
        if isinstance(step, Resolved):
            break
        if goes_through_psi(step, psi):
            answers.append(ask_psi(link, resolver, owner, step))
        else:
            answers.append(link.plain(owner, step))
    res = step
    resolver.adopt(res.work)
    locked_r = link.carry("locked", resolver.detectors().locked)
    owner.receive(link.carry("consequences", res.consequences))
    shown_o = link.carry("shown", owner.shown_to(zone_test(link, owner, resolver, locked_r)))
    targets = link.carry("targets", owner.lock_targets())
    locked_o = link.carry("locked", owner.detectors().locked)
    gone = link.carry("gone", resolver.gone(res.before, res.work, targets))
    shown_r = link.carry("shown", resolver.shown_to(zone_test(link, resolver, owner, locked_o - gone)))
    resolver.accept(shown_o)
    owner.end_locks_on(gone)
    owner.accept(shown_r)
    return res


def play(link: Link, sides: dict[str, Side], action: Any, always: bool = False) -> list[Any]:
    """One action through both sides (and after End Turn the next mover's start phase), as
    ``engine.partial.play`` with the PSI exchanges."""
    mover = next(s for s in sides.values() if s.state.side_to_move == s.side)
    other = sides[enemy(mover.side)]
    done = [event(link, mover, other, action, always)]
    if isinstance(action, EndTurn) and mover.state.result is None:
        done.append(event(link, other, mover, None, always))
    return done
