"""The answerer cut in two: the resolver asks, the owner answers (issue 8 items 1 and 3).

``AskingAnswerer`` is the resolver's side of the rules' questions (``engine.questions``). It
answers from its own working state whatever it can (its own pieces, the owner's pieces it
holds) and puts to the owner of the absent pieces only the part it cannot, as a
``Question``. ``owner_answer`` is the owner's side: a pure function of the owner's own
partial state and the question, so the question can travel to another laptop and the answer
back (signed and bound to the owner's commitment root by the network layer). An answer that
names absent pieces the rules act on carries their ``Opening``.

Every question says which of the owner's pieces the resolver's working state already holds
or has dealt with (``exclude``: the owner's pieces visible to it before the event and those
opened since); the owner answers about the others, its *absent* pieces.

The remote questions (``Question.kind``; args in order, ``exclude`` always last):

* ``first``  (cells,) -> index of the first cell holding an absent piece, or None  (HQ-1, HQ-8, HQ-12)
* ``routes`` (routes,) -> whether some route (destination excluded) is free of them  (HQ-2)
* ``open_on`` (cells,) -> the absent pieces on the cells, opened                   (HQ-1, HQ-3..HQ-8)
* ``any_on`` (cells,) -> whether an absent piece is on the cells                    (HQ-12, HQ-13)
* ``lock``   (square, asker, zones, held, reveals) -> the serial a new lock held on
  ``square`` takes, or None (HQ-11; the asker's detection zones, ``visibility.Zones``, and the
  owner's pieces the working state holds travel with it: docs/hidden.md G-3)
* ``homing`` (projectile,) -> the step towards its absent target, or None (lost)    (HQ-9)
* ``land``   (members, occupants, shift) -> whether every member of a nudge lands on an
  enterable Ground cell given the absent pieces there (HQ-3; docs/hidden.md G-2)
* ``lock_in`` (cell, locked) -> the lowest serial of an absent piece on ``cell`` a new lock
  may take (``lock_candidate``), or None: never asked by the engine, only by
  ``net.hidden_psi`` after the HQ-11 PSI found that cell

``resolve_asking`` runs one event with an ``ask`` callable; ``NeedAnswer`` is what a replaying
``ask`` raises when the answers given so far are used up (the network layer re-runs the event
with one more answer each time: the engine is deterministic, so the re-runs ask the same
questions in the same order).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from .answerer import OmniscientAnswerer
from .board import LEVEL_ORDER, distance
from .effects import takes_effect
from .movegen import shift_ok
from .openings import Opening, opening, put_opening
from .questions import Hit
from .actions import GROUND, SUB
from .state import Cell, GameState, Piece, Projectile
from .visibility import Zones, detection_zones, hidden_from, hidden_in_zones, stealthy

__all__ = ["Question", "Answer", "NeedAnswer", "AskingAnswerer", "owner_answer", "REMOTE_KINDS"]

REMOTE_KINDS = ("first", "routes", "open_on", "any_on", "lock", "homing", "land", "lock_in")


@dataclass(frozen=True)
class Question:
    """One question put to the owner: ``kind`` (``REMOTE_KINDS``), its ``args`` and the
    owner's pieces the resolver already holds or has dealt with (``exclude``)."""

    kind: str
    args: tuple[Any, ...]
    exclude: tuple[int, ...]
    #: the asker's cells disclose nothing of its own pieces (HQ-8: a projectile's cell); not sent:
    #: only the asker's choice of clear over PSI depends on it (docs/rulings.md P-12)
    public: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Answer:
    """The owner's answer: ``value`` and the ``Opening`` of every piece the rules now act on."""

    value: Any
    opened: tuple[Opening, ...] = ()


class NeedAnswer(Exception):
    """The event needs the answer to ``question``, which is not there yet."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.kind)
        self.question = question


# -- the owner's side ---------------------------------------------------------------------------

def owner_answer(owner_state: GameState, owner: str, q: Question) -> Answer:
    """Answer ``q`` from the owner's own partial state (it changes nothing).
    :raises ValueError: a question of an unknown kind or shape."""
    excluded = set(q.exclude)
    absent = {s: p for s, p in owner_state.pieces.items() if p.side == owner and s not in excluded}
    try:
        handler = _OWNER[q.kind]
    except KeyError:
        raise ValueError(f"unknown question kind {q.kind!r}") from None
    try:
        return handler(owner_state, owner, absent, *q.args)
    except (TypeError, KeyError, IndexError) as exc:
        raise ValueError(f"malformed {q.kind!r} question: {exc}") from None


def _first(state: GameState, owner: str, absent: dict[int, Piece], cells: Sequence[Cell]) -> Answer:
    occupied = {p.cell for p in absent.values()}
    return Answer(next((i for i, c in enumerate(cells) if tuple(c) in occupied), None))


def _routes(state: GameState, owner: str, absent: dict[int, Piece],
            routes: Sequence[Sequence[Cell]]) -> Answer:
    occupied = {p.cell for p in absent.values()}
    return Answer(any(all(tuple(c) not in occupied for c in route[:-1]) for route in routes))


def _open_on(state: GameState, owner: str, absent: dict[int, Piece], cells: Sequence[Cell]) -> Answer:
    wanted = {tuple(c) for c in cells}
    found = tuple(s for s, p in sorted(absent.items()) if p.cell in wanted)
    return Answer(found, tuple(opening(state, s) for s in found))


def _any_on(state: GameState, owner: str, absent: dict[int, Piece], cells: Sequence[Cell]) -> Answer:
    wanted = {tuple(c) for c in cells}
    return Answer(any(p.cell in wanted for p in absent.values()))


def _lock(state: GameState, owner: str, absent: dict[int, Piece], square: tuple[int, int],
          asker: str, zones: Zones, held: Sequence[Piece],
          reveals: Sequence[tuple[int, int]]) -> Answer:
    """``PeerAnswerer._seen_now`` of docs/hidden.md: the owner's pieces hidden from ``asker`` at
    this moment, judged against the asker's detection zones (``visibility.Zones``: squares and
    locked serials, not the detectors), then the RUL-19/RUL-49 order from h."""
    mine = {**absent, **{p.sid: p for p in held}}
    rev = {s: n for s, n in {**state.reveals, **dict(reveals)}.items() if s in mine}
    hidden = hidden_in_zones(state, [p for _, p in sorted(mine.items())], zones, rev)
    cands = [p for s, p in sorted(mine.items()) if s in hidden and stealthy(state, p)]
    cands.sort(key=lambda p: (distance(p.square, tuple(square)), p.row, p.col,
                              LEVEL_ORDER[p.level], p.sid))
    return Answer(cands[0].sid if cands else None)


def lock_zone(options: Any, cell: Cell) -> str:
    """The zone that decides whether a stealthy piece on ``cell`` is hidden (RUL-18): "U" (the
    Torpedo Launcher zone) on the Sub level when submerged pieces hide and ``submerge``
    dominates, else "S" (the Anti-Stealth zone and the locks). Public: options and cell only."""
    if cell[2] == SUB and options.submerged_invisibility and options.detection_dominance == "submerge":
        return "U"
    return "S"


def lock_candidate(state: GameState, p: Piece, locked: Sequence[int]) -> bool:
    """A piece of the owner that a new lock may take, whatever the asker's zones: stealthy, not
    revealed now, and not locked already where the locks decide (``lock_zone`` "S")."""
    if not stealthy(state, p) or state.reveals.get(p.sid, 0) >= state.ply:
        return False
    return not (p.sid in set(locked) and lock_zone(state.options, p.cell) == "S")


def _lock_in(state: GameState, owner: str, absent: dict[int, Piece], cell: Cell,
             locked: Sequence[int]) -> Answer:
    """HQ-11 after the PSI (``net.hidden_psi``): the lowest serial among the owner's absent
    pieces on ``cell`` a new lock may take; the PSI showed the asker's zones do not reach it."""
    here = [s for s, p in sorted(absent.items()) if p.cell == tuple(cell) and lock_candidate(state, p, locked)]
    return Answer(here[0] if here else None)


def _homing(state: GameState, owner: str, absent: dict[int, Piece], proj: Projectile) -> Answer:
    t = absent.get(proj.target)
    if t is None or t.side == proj.side or t.level != proj.level:
        return Answer(None)
    return Answer(((t.row > proj.row) - (t.row < proj.row), (t.col > proj.col) - (t.col < proj.col)))


def _land(state: GameState, owner: str, absent: dict[int, Piece], members: Sequence[Piece],
          occupants: Sequence[Piece], shift: tuple[int, int]) -> Answer:
    probe = GameState(state.options)
    probe.art_code = state.art_code
    probe.pieces = dict(sorted({**absent, **{p.sid: p for p in occupants}}.items()))
    probe.touch()
    return Answer(shift_ok(probe, list(members), shift[0], shift[1], frozenset()))


_OWNER: dict[str, Callable[..., Answer]] = {
    "first": _first, "routes": _routes, "open_on": _open_on, "any_on": _any_on, "lock": _lock,
    "homing": _homing, "land": _land, "lock_in": _lock_in}


# -- the resolver's side ------------------------------------------------------------------------

class AskingAnswerer:
    """The rules' answerer on the resolver's working state (``engine.questions.Answerer``).

    The owner's pieces "as they are now" are the working state's once the event holds them,
    else the owner's own (asked). A piece is hidden from the asker when the working state
    does not hold it, or holds it and the rules hide it (RUL-18). Questions whose asker is the
    owner (its projectiles, its falling pieces: RUL-46 e, HQ-8 "this includes B's own
    projectiles") combine the resolver's own answer about its pieces hidden from the owner
    with the owner's about its absent pieces."""

    def __init__(self, ask: Callable[[Question], Answer], owner: str, before: GameState) -> None:
        self.ask_fn = ask
        self.owner = owner
        self.touched: set[int] = {s for s, p in before.pieces.items() if p.side == owner}
        self.opened: list[int] = []
        self.asked: dict[str, int] = {}
        self.remote: dict[str, int] = {}
        self.local = OmniscientAnswerer()

    # -- bookkeeping
    def _ask(self, question: str) -> None:
        self.asked[question] = self.asked.get(question, 0) + 1

    def _remote(self, kind: str, *args: Any, public: bool = False) -> Answer:
        self.remote[kind] = self.remote.get(kind, 0) + 1
        return self.ask_fn(Question(kind, args, tuple(sorted(self.touched)), public))

    def _take(self, state: GameState, answer: Answer) -> tuple[int, ...]:
        """Enter the pieces an answer opened; their serials."""
        for op in answer.opened:
            sid = op.piece.sid
            if sid not in state.pieces:
                put_opening(state, op)
                self.touched.add(sid)
                self.opened.append(sid)
        return tuple(op.piece.sid for op in answer.opened)

    def _held_hidden(self, state: GameState, asker: str) -> dict[int, Piece]:
        """The owner's pieces the working state holds and the rules hide from ``asker``."""
        hidden = hidden_from(state, asker)
        return {s: p for s, p in state.pieces.items() if p.side == self.owner and s in hidden}

    def _held(self, state: GameState) -> list[Piece]:
        return [p for _, p in sorted(state.pieces.items()) if p.side == self.owner]

    # -- the questions
    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> int | None:
        self._ask("first_hidden")
        if asker == self.owner:
            here = self.local.first_hidden(state, asker, cells, public)
        else:
            occupied = {p.cell for p in self._held_hidden(state, asker).values()}
            here = next((i for i, cell in enumerate(cells) if tuple(cell) in occupied), None)
        upto = list(cells) if here is None else list(cells)[:here]
        if not upto:
            return here
        there = self._remote("first", _cells(upto), public=public).value
        return there if there is not None else here

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        if asker == self.owner:
            return self.local.any_route_clear(state, asker, routes)
        self._ask("any_route_clear")
        occupied = {p.cell for p in self._held_hidden(state, asker).values()}
        # the resolver's own cells count too (the omniscient answer counts every piece); its
        # route list already leaves out every cell holding a piece it sees
        occupied |= {c for c, sids in state.cells().items() if sids}
        open_here = [r for r in routes if all(tuple(c) not in occupied for c in r[:-1])]
        if not open_here:
            return False
        return bool(self._remote("routes", tuple(_cells(r) for r in open_here)).value)

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell], public: bool = False) -> tuple[int, ...]:
        self._ask("hidden_on")
        wanted = {tuple(c) for c in cells}
        if asker == self.owner:              # both sides' absent pieces (HQ-8)
            own = self._take(state, self._remote("open_on", _cells(cells), public=public))
            return tuple(sorted(set(self.local.hidden_on(state, asker, cells, public)) | set(own)))
        here = {s for s, p in self._held_hidden(state, asker).items() if p.cell in wanted}
        there = self._take(state, self._remote("open_on", _cells(cells), public=public))
        return tuple(sorted(here | set(there)))

    def any_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> bool:
        """HQ-12, HQ-13: only "something is there"; nothing is opened."""
        self._ask("any_hidden")
        wanted = {tuple(c) for c in cells}
        if asker == self.owner:
            here = self.local.any_hidden(state, asker, cells)
        else:
            here = any(p.cell in wanted for p in self._held_hidden(state, asker).values())
        return here or bool(self._remote("any_on", _cells(cells)).value)

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        if side == self.owner:
            return self.local.lock_target(state, side, square)
        self._ask("lock_target")
        # "hidden from me now": judged against the asker's detection zones as they are at this
        # moment (a new Anti-Stealth holder may already see some of them, RUL-18 range detection)
        zones = detection_zones(state, side)
        if state.options.detection_dominance != "submerge":
            # only stealthy pieces are candidates, and a stealthy piece's U reason decides
            # nothing under stealth dominance (RUL-18): the Torpedo Launcher zone stays home
            zones = replace(zones, submerged=frozenset())
        held = tuple(self._held(state))
        reveals = tuple((s, n) for s, n in sorted(state.reveals.items())
                        if s in {p.sid for p in held})
        return self._remote("lock", tuple(square), side, zones, held, reveals).value

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence[Hit]) -> dict[int, bool]:
        if asker == self.owner:
            return self.local.hit_outcomes(state, asker, hits)
        self._ask("hit_outcomes")
        missing = sorted({h.sid for h in hits} - set(state.pieces))
        if missing:       # hits land only on pieces a hidden_on answer opened (docs/hidden.md)
            raise RuntimeError(f"hits on pieces never opened: {missing}")
        return takes_effect(state, list(hits))     # on the opened pieces' own counters

    def homing_step(self, state: GameState, proj: Projectile) -> tuple[int, int] | None:
        if proj.side == self.owner:
            return self.local.homing_step(state, proj)
        self._ask("homing_step")
        t = state.pieces.get(proj.target)
        if t is None:
            if proj.target in self.touched:      # dealt with in this event: gone
                return None
            step = self._remote("homing", proj).value
            return None if step is None else (int(step[0]), int(step[1]))
        if t.side == proj.side or t.level != proj.level:
            return None
        return (t.row > proj.row) - (t.row < proj.row), (t.col > proj.col) - (t.col < proj.col)

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell],
                      shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        self._ask("nudge_outcome")
        wanted = {tuple(c) for c in cells}
        here = {s for s, p in self._held_hidden(state, asker).items() if p.cell in wanted}
        there = self._take(state, self._remote("open_on", _cells(cells)))
        hidden = tuple(sorted(here | set(there)))
        pieces = [state.pieces[s] for s in (*group, *hidden)]
        if len(pieces) - 2 > 4 or any(state.pieces[s].stun for s in hidden):   # RUL-45
            return True, hidden
        dr, dc = shift
        landing = {(p.row + dr, p.col + dc) for p in pieces}
        if not all(1 <= r <= 10 and 1 <= c <= 10 for r, c in landing):
            return True, hidden
        ids = {p.sid for p in pieces}
        occupants = tuple(p for s, p in sorted(state.pieces.items())
                          if s not in ids and p.level == GROUND and p.square in landing)
        ok = self._remote("land", tuple(pieces), occupants, (dr, dc)).value
        return not ok, hidden


def _cells(cells: Sequence[Sequence[Any]]) -> tuple[Cell, ...]:
    return tuple(tuple(c) for c in cells)     # type: ignore[misc]
