"""Two partial states, one engine (issue 8 item 1; DESIGN §4; 00 HQ-1..HQ-17; docs/hidden.md).

In a network game each side's engine state holds its own pieces in full and, of the enemy,
only what ``observe()`` shows (``partial_state``). The rules run unchanged on that partial
state; whatever depends on the absent enemy pieces is asked of their owner through the
answerer interface (``PeerAnswerer``), and a piece an answer names is *opened*: the owner
hands it over in full (``Opening``) and it enters the asker's working state.

One action, one resolver: the side that acts (or, in a start phase, the side whose turn
begins) resolves the event on its own partial state. Then the two sides exchange three values:

* ``Consequences`` (resolver -> owner, HQ-14, HQ-15): the public part of the new state, the
  action itself when the owner could see the actor (None for a hidden action), and the new
  value of every piece of the owner's that the event touched (taken, hit, stunned, converted,
  nudged, come down), as the owner's engine must store it;
* ``Shown`` (each -> the other, HQ-10, HQ-16): the sender's pieces the receiver sees now, in
  full, computed by their owner against the receiver's disclosed detectors (``Detectors``);
* nothing else: a side's hidden pieces never leave it unless an answer or a reveal opens them.

``Side`` is one laptop's engine state; ``play`` drives one action through both sides. The
omniscient engine (hotseat, computer opponent, audit) is untouched; ``tests/test_partial.py``
checks after every action of seeded random games that each side's state equals
``partial_state`` of the omniscient state (``known_key``) and holds no hidden enemy piece.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import msgpack

from .actions import GROUND, Action, EndTurn, Move
from .answerer import OmniscientAnswerer
from .board import LEVEL_ORDER, distance, has_ability
from .descs import resolve_all
from .effects import takes_effect
from .errors import RuleError
from .movegen import shift_ok
from .questions import Hit, answering
from .rules import apply_action, begin_turn, end_phase
from .state import Cell, GameState, Piece, Projectile, TurnState, enemy, to_dict
from .view import PlayerView
from .visibility import hidden_from, source_side, stealthy

#: serials and article ids ``partial_from_view`` gives the seen enemy pieces and all articles
PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})
SEEN_SID, ART_ID = 5001, 50001

__all__ = ["partial_state", "partial_from_view", "known_key", "known_diff", "enemy_hidden_held", "Opening",
           "Consequences", "Shown", "Detectors", "PeerAnswerer", "Side", "play", "HQ_OF"]

#: fields of ``to_dict`` left out of ``known_key``: the history, the current turn's record and
#: actions are the transcript's business (issue 8 items 6-7), not the board's (docs/hidden.md)
TRANSCRIPT_FIELDS = ("history", "orders", "record", "actions")

#: the HQ items each question of the answerer interface serves (docs/hidden.md)
HQ_OF = {"first_hidden": ("HQ-1", "HQ-8", "HQ-12"), "any_route_clear": ("HQ-2",),
         "hidden_on": ("HQ-1", "HQ-3", "HQ-4", "HQ-5", "HQ-6", "HQ-7", "HQ-8"),
         "any_hidden": ("HQ-12", "HQ-13"),
         "lock_target": ("HQ-11",), "hit_outcomes": ("HQ-4", "HQ-5", "HQ-6", "HQ-7", "HQ-8"),
         "homing_step": ("HQ-9",), "nudge_outcome": ("HQ-3",)}


# -- what one side may hold -------------------------------------------------------------------

def partial_state(state: GameState, side: str) -> GameState:
    """``state`` as ``side``'s engine may hold it: its own pieces in full, the enemy pieces it
    sees (RUL-18) in full, the public things (RUL-50 b); none of the enemy pieces hidden from
    it, nor what they would give away (their articles' countdowns, hit counters, reveals, the
    locks their sources hold, their part of the turn budget). The history, record and actions
    of the turn are left empty (``TRANSCRIPT_FIELDS``)."""
    hidden = hidden_from(state, side)
    out = GameState(state.options)
    out.pieces = {s: state.pieces[s] for s in sorted(state.pieces) if s not in hidden}
    out.art_code = state.art_code                       # the public article catalogue (setup)
    held = {a for p in out.pieces.values() for a in p.arts}
    on_ground = {a for aids in state.ground.values() for a in aids}
    out.art_ready = {a: n for a, n in sorted(state.art_ready.items())
                     if a in held or a in on_ground}
    out.ground = dict(state.ground)
    out.ply = state.ply
    out.reinforcements = dict(state.reinforcements)
    out.next_sid = state.next_sid
    out.locks = {k: t for k, t in sorted(state.locks.items()) if _source_held(state, k, out)}
    out.reveals = {s: n for s, n in sorted(state.reveals.items()) if s in out.pieces}
    out.projectiles = state.projectiles
    out.next_pid = state.next_pid
    out.hits = {s: h for s, h in sorted(state.hits.items()) if s in out.pieces}
    out.result = state.result
    out.end_reason = state.end_reason
    out.turn = _turn_for(state.turn, side, state.side_to_move, out)
    out.start = state.start
    return out


def partial_from_view(view: PlayerView) -> GameState:
    """``partial_state(state, view.player)`` rebuilt from ``view = observe(state, player)``
    alone, for a player that holds only its view (the computer opponent, issue 11): the same
    pieces, articles, ground, projectiles, reinforcements, locks and turn budget as far as the
    view carries them (tests/test_partial.py compares the two). Enemy serials are never in a
    view (RUL-50 b), so the seen enemy pieces get serials from 5001 up (``SEEN_SID``) and their
    articles ids from 50001 up (``ART_ID``). What the view does not hold is guessed the way
    players would (docs/rulings.md AI-2): a seen enemy Pawn on its own second rank is still on
    its starting square (A-14); the reinforcement watch of the turn in progress is rebuilt from
    the own pieces on their reinforcement squares (RUL-34); a piece stunned now was stunned at
    the start of the turn (RUL-11)."""
    state = GameState(view.options)
    state.ply = view.ply
    me = view.player
    aid = ART_ID
    for o in view.own:
        for a, code, ready in zip(o.arts, o.codes, o.art_ready):
            state.art_code[a] = code
            if ready:
                state.art_ready[a] = ready
        state.pieces[o.sid] = Piece(o.sid, o.kind, o.side, o.row, o.col, o.level, o.hand,
                                    o.arts, o.stun, o.origin, o.trip, o.ready)
        if o.hits:
            state.hits[o.sid] = o.hits
        if o.revealed_until:
            state.reveals[o.sid] = o.revealed_until
    sid = SEEN_SID
    seen_sids = {}
    for s in view.seen:
        arts = []
        for code, ready in zip(s.codes, s.art_ready):
            state.art_code[aid] = code
            if ready:
                state.art_ready[aid] = ready
            arts.append(aid)
            aid += 1
        origin = s.kind in PAWNS and s.level == GROUND and s.row == (2 if s.side == "B" else 9)
        state.pieces[sid] = Piece(sid, s.kind, s.side, s.row, s.col, s.level, s.hand,
                                  tuple(arts), s.stun, origin, None, s.ready)
        if s.revealed_until:
            state.reveals[sid] = s.revealed_until
        seen_sids[(s.kind, s.row, s.col, s.level)] = sid
        sid += 1
    for g in view.ground:
        state.art_code[aid] = g.code
        if g.ready:
            state.art_ready[aid] = g.ready
        state.ground[(g.row, g.col)] = state.ground.get((g.row, g.col), ()) + (aid,)
        aid += 1
    state.projectiles = tuple(
        Projectile(p.pid, p.kind, p.side, p.row, p.col, p.dr, p.dc, p.strength, p.target,
                   p.created) for p in view.projectiles)
    state.next_pid = max((p.pid for p in view.projectiles), default=0) + 1
    for r in view.reinforcements:
        state.reinforcements[(r.row, r.col)] = (r.side, r.kind, r.hand)
    for lk in view.locks:
        if lk.target is not None and tuple(lk.target) in seen_sids:
            state.locks[tuple(lk.source)] = seen_sids[tuple(lk.target)]   # type: ignore[index]
    state.next_sid = max([sid, *(o.sid + 1 for o in view.own)])
    state.result, state.end_reason = view.result, view.end_reason
    state.turn = _view_turn(state, view, me)
    state.start = {"setup": "view"}
    state.touch()
    return state


def _view_turn(state: GameState, view: PlayerView, me: str) -> TurnState:
    stunned = frozenset(s for s, p in state.pieces.items() if p.stun > 0)
    t = view.turn
    if t is None:
        return TurnState(stunned=stunned)
    watch = []
    for sq, (owner, _kind, _hand) in sorted(state.reinforcements.items()):
        if owner == me:
            here = frozenset(p.sid for p in state.pieces.values()
                             if p.side == me and p.square == sq and p.level == GROUND)
            if here:
                watch.append((sq, here))
    return TurnState(t.moved, t.mover, t.fires, frozenset(t.fired), t.picked, t.dropped,
                     t.exchanged, t.reinforced, frozenset(t.acted), frozenset(t.transported),
                     tuple(watch), frozenset(t.vacated), frozenset(t.obliged), frozenset(),
                     stunned)


def _source_held(state: GameState, key: tuple[str, int], out: GameState) -> bool:
    """The lock's source (a piece's inherent Anti-Stealth or a held article) is in ``out``."""
    kind, ident = key
    holder = ident if kind == "p" else state.holder_of(ident)
    return holder is not None and holder in out.pieces


def _turn_for(t: TurnState, side: str, mover: str, out: GameState) -> TurnState:
    """The mover keeps its turn budget (its own actions); the other side knows only which of the
    pieces it holds were stunned when the turn began (RUL-11, RUL-13) and the fallen primary
    pieces (RUL-2, public)."""
    stunned = frozenset(s for s in t.stunned if s in out.pieces)
    if side == mover:
        return replace(t, stunned=stunned)
    return TurnState(stunned=stunned, lost_primary=t.lost_primary)


def _known_dict(state: GameState, side: str) -> dict[str, Any]:
    data = to_dict(partial_state(state, side))
    for key in TRANSCRIPT_FIELDS:
        data.pop(key)
    return data


def known_key(state: GameState, side: str) -> str:
    """SHA-256 of the canonical msgpack of ``partial_state(state, side)`` less the transcript:
    equal keys, equal knowledge. Works on an omniscient and on a partial state alike."""
    return hashlib.sha256(msgpack.packb(_known_dict(state, side), use_bin_type=True)).hexdigest()


def known_diff(a: GameState, b: GameState, side: str) -> str:
    """The first field where ``side``'s knowledge of two states differs ('' if none)."""
    da, db = _known_dict(a, side), _known_dict(b, side)
    for key in da:
        if da[key] != db[key]:
            va, vb = da[key], db[key]
            if isinstance(va, list) and isinstance(vb, list):
                extra = [x for x in va if x not in vb]
                missing = [x for x in vb if x not in va]
                return f"{key}: only in first {extra!r}; only in second {missing!r}"
            return f"{key}: {va!r} != {vb!r}"
    return ""


def enemy_hidden_held(partial: GameState, omniscient: GameState, side: str) -> list[int]:
    """Serials of enemy pieces ``partial`` (``side``'s state) holds that the omniscient state
    hides from ``side``: the leak check (RUL-18)."""
    hidden = hidden_from(omniscient, side)
    return sorted(s for s, p in partial.pieces.items() if p.side != side and s in hidden)


# -- the values that travel ---------------------------------------------------------------------

@dataclass(frozen=True)
class Opening:
    """One piece handed over in full by its owner (HQ-1 "in full", HQ-6, HQ-10, HQ-16): the piece,
    its hit counters this turn, its reveal, its held articles' countdowns, the locks its sources
    hold, and whether it was stunned when the turn began (RUL-11)."""

    piece: Piece
    hits: tuple[tuple[str, int], ...] = ()
    revealed_until: int = 0
    art_ready: tuple[tuple[int, int], ...] = ()
    locks: tuple[tuple[tuple[str, int], int], ...] = ()
    stunned_at_start: bool = False


def opening(state: GameState, sid: int) -> Opening:
    """The ``Opening`` of a piece ``state`` holds."""
    p = state.pieces[sid]
    locks = tuple((k, t) for k, t in sorted(state.locks.items())
                  if (k[0] == "p" and k[1] == sid) or (k[0] == "a" and k[1] in p.arts))
    return Opening(p, state.hits.get(sid, ()), state.reveals.get(sid, 0),
                   tuple((a, state.art_ready[a]) for a in p.arts if a in state.art_ready),
                   locks, sid in state.turn.stunned)


def put_opening(state: GameState, op: Opening) -> None:
    """Enter an opened piece into ``state`` (keeps ``state.pieces`` in serial order)."""
    p = op.piece
    items = sorted({**state.pieces, p.sid: p}.items())
    state.pieces.clear()
    state.pieces.update(items)
    if op.hits:
        state.hits[p.sid] = op.hits
    if op.revealed_until:
        state.reveals[p.sid] = op.revealed_until
    state.art_ready.update(op.art_ready)
    state.locks.update(op.locks)
    if op.stunned_at_start:
        state.turn = replace(state.turn, stunned=state.turn.stunned | {p.sid})
    state.touch()


def _drop_piece(state: GameState, sid: int) -> None:
    """Forget a piece and what belongs to it (its hits, reveal, its sources' locks)."""
    p = state.pieces.pop(sid, None)
    state.hits.pop(sid, None)
    state.reveals.pop(sid, None)
    if p is not None:
        for a in p.arts:
            if a not in _ground_aids(state):
                state.art_ready.pop(a, None)
        for k in [k for k in state.locks if (k[0] == "p" and k[1] == sid)
                  or (k[0] == "a" and k[1] in p.arts)]:
            del state.locks[k]
    state.touch()


def _ground_aids(state: GameState) -> set[int]:
    return {a for aids in state.ground.values() for a in aids}


@dataclass(frozen=True)
class Consequences:
    """What the resolver of an event sends the other side (HQ-14, HQ-15, RUL-50 c).

    ``action`` is the action when the receiver saw the actor before it, or a Fire revealed the
    firer (docs/hidden.md H-3); else None (a hidden action: in the protocol, a commitment).
    ``yours`` gives, for every piece of the receiver's the event opened or changed, its new
    value, or None when it left the receiver (destroyed, or converted: a converted piece comes
    back in ``Shown`` if the receiver sees it).
    The rest is the public state (RUL-50 b)."""

    action: Action | None
    yours: tuple[tuple[int, Opening | None], ...]
    ply: int
    ground: tuple[tuple[tuple[int, int], tuple[int, ...]], ...]
    ground_ready: tuple[tuple[int, int], ...]
    reinforcements: tuple[tuple[tuple[int, int], tuple[str, str, str]], ...]
    next_sid: int
    projectiles: tuple[Projectile, ...]
    next_pid: int
    result: str | None
    end_reason: str
    lost_primary: frozenset[str]         # RUL-2: public
    fresh_turn: bool                     # a start phase: hit counters reset (RUL-7)


@dataclass(frozen=True)
class Detectors:
    """HQ-10 "Asker discloses T" (and RUL-19 locks): the pieces of a side that can detect enemy
    pieces (Torpedo Launcher or Anti-Stealth holders, hidden ones included), and the locks its
    sources hold. The receiver uses them only to say which of its own pieces the sender sees."""

    pieces: tuple[Piece, ...]
    locks: tuple[tuple[tuple[str, int], int], ...]


@dataclass(frozen=True)
class Shown:
    """HQ-10, HQ-16: the sender's pieces the receiver sees now, in full. Pieces the receiver
    held before and that are not listed have become hidden: it withdraws them."""

    pieces: tuple[Opening, ...]


# -- the answerer backed by the owner's partial state -----------------------------------------

class PeerAnswerer:
    """Answers the rules' questions about the ``owner``'s pieces from the owner's own state.

    ``owner_state`` is the owner's partial state before the event; ``before`` the resolver's.
    The owner's pieces "as they are now" are the resolver's working copy once the event touched
    them (it changes them there), else the owner's own. A piece is hidden from the asker when
    the working state does not hold it, or holds it (opened) and the rules hide it (RUL-18).
    Questions whose asker is the owner itself are about the resolver's own pieces (the owner's
    projectiles, its falling pieces): the resolver answers those from its own state.
    ``hidden_on`` and ``nudge_outcome`` open the pieces they name into the working state.
    """

    def __init__(self, owner_state: GameState, owner: str, before: GameState) -> None:
        self.owner_state = owner_state
        self.owner = owner
        self.touched: set[int] = {s for s, p in before.pieces.items() if p.side == owner}
        self.opened: list[int] = []
        self.asked: dict[str, int] = {}
        self.local = OmniscientAnswerer()

    # -- bookkeeping
    def _ask(self, question: str) -> None:
        self.asked[question] = self.asked.get(question, 0) + 1

    def _mine(self, state: GameState) -> dict[int, Piece]:
        out = {s: p for s, p in self.owner_state.pieces.items()
               if p.side == self.owner and s not in self.touched}
        out.update((s, p) for s, p in state.pieces.items() if p.side == self.owner)
        return out

    def _hidden(self, state: GameState, asker: str) -> dict[int, Piece]:
        seen_hidden = hidden_from(state, asker)
        return {s: p for s, p in sorted(self._mine(state).items())
                if s not in state.pieces or s in seen_hidden}

    def _seen_now(self, state: GameState, asker: str) -> dict[int, Piece]:
        """The owner's pieces hidden from ``asker`` at this moment, against the asker's
        detectors in ``state`` (HQ-10 "Asker discloses T")."""
        mine = self._mine(state)
        probe = GameState(state.options)
        probe.ply = state.ply
        probe.art_code = state.art_code
        det = {s: p for s, p in state.pieces.items() if p.side == asker
               and (has_ability(state, p, "TL") or has_ability(state, p, "ASH"))}
        probe.pieces = dict(sorted({**det, **mine}.items()))
        probe.locks = {k: t for k, t in state.locks.items() if source_side(state, k) == asker}
        probe.reveals = {s: n for s, n in {**self.owner_state.reveals, **state.reveals}.items()
                         if s in mine}
        hidden = hidden_from(probe, asker)
        return {s: p for s, p in sorted(mine.items()) if s in hidden}

    def _open(self, state: GameState, sids: Sequence[int]) -> None:
        for sid in sids:
            if sid not in state.pieces:
                put_opening(state, opening(self.owner_state, sid))
                self.touched.add(sid)
                self.opened.append(sid)

    # -- the questions (engine.questions.Answerer)
    def _absent(self, state: GameState) -> dict[int, Piece]:
        """The owner's pieces the working state does not hold."""
        return {s: p for s, p in self._mine(state).items() if s not in state.pieces}

    def first_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> int | None:
        self._ask("first_hidden")
        if asker == self.owner:
            # the owner's own projectile or falling piece: the resolver's pieces hidden from
            # the owner (answered by the resolver), and the owner's own pieces the working
            # state does not hold (HQ-8: "this includes B's own projectiles")
            mine = self.local.first_hidden(state, asker, cells)
            occupied = {p.cell for p in self._absent(state).values()}
            own = next((i for i, cell in enumerate(cells) if tuple(cell) in occupied), None)
            return min((i for i in (mine, own) if i is not None), default=None)
        occupied = {p.cell for p in self._hidden(state, asker).values()}
        return next((i for i, cell in enumerate(cells) if tuple(cell) in occupied), None)

    def any_route_clear(self, state: GameState, asker: str,
                        routes: Sequence[Sequence[Cell]]) -> bool:
        if asker == self.owner:
            return self.local.any_route_clear(state, asker, routes)
        self._ask("any_route_clear")
        occupied = {p.cell for p in self._hidden(state, asker).values()}
        # the resolver's own cells count too (the omniscient answer counts every piece); its
        # route list already leaves out every cell holding a piece it sees
        occupied |= {c for c, sids in state.cells().items() if sids}
        return any(all(tuple(c) not in occupied for c in route[:-1]) for route in routes)

    def hidden_on(self, state: GameState, asker: str, cells: Sequence[Cell]) -> tuple[int, ...]:
        self._ask("hidden_on")
        wanted = {tuple(c) for c in cells}
        if asker == self.owner:              # as in first_hidden: both sides' absent pieces
            own = tuple(s for s, p in self._absent(state).items() if p.cell in wanted)
            self._open(state, own)
            return tuple(sorted(set(self.local.hidden_on(state, asker, cells)) | set(own)))
        found = tuple(s for s, p in self._hidden(state, asker).items() if p.cell in wanted)
        self._open(state, found)
        return found

    def any_hidden(self, state: GameState, asker: str, cells: Sequence[Cell]) -> bool:
        """HQ-12, HQ-13: only "something is there"; nothing is opened."""
        self._ask("any_hidden")
        wanted = {tuple(c) for c in cells}
        if asker == self.owner:
            return self.local.any_hidden(state, asker, cells) or \
                any(p.cell in wanted for p in self._absent(state).values())
        return any(p.cell in wanted for p in self._hidden(state, asker).values())

    def lock_target(self, state: GameState, side: str, square: tuple[int, int]) -> int | None:
        if side == self.owner:
            return self.local.lock_target(state, side, square)
        self._ask("lock_target")
        # "hidden from me now": judged against the asker's detectors as they are at this moment
        # (a new Anti-Stealth holder may already see some of them, RUL-18 range detection),
        # not by what the asker's state held before the event
        cands = [p for p in self._seen_now(state, side).values() if stealthy(state, p)]
        cands.sort(key=lambda p: (distance(p.square, square), p.row, p.col,
                                  LEVEL_ORDER[p.level], p.sid))
        return cands[0].sid if cands else None

    def hit_outcomes(self, state: GameState, asker: str, hits: Sequence[Hit]) -> dict[int, bool]:
        if asker == self.owner:
            return self.local.hit_outcomes(state, asker, hits)
        self._ask("hit_outcomes")
        self._open(state, sorted({h.sid for h in hits}))
        return takes_effect(state, list(hits))     # on the opened pieces' own counters

    def homing_step(self, state: GameState, proj: Projectile) -> tuple[int, int] | None:
        if proj.side == self.owner:
            return self.local.homing_step(state, proj)
        self._ask("homing_step")
        t = state.pieces.get(proj.target) or self._mine(state).get(proj.target)
        if t is None or t.side == proj.side or t.level != proj.level:
            return None
        return (t.row > proj.row) - (t.row < proj.row), (t.col > proj.col) - (t.col < proj.col)

    def nudge_outcome(self, state: GameState, asker: str, group: Sequence[int],
                      cells: Sequence[Cell],
                      shift: tuple[int, int]) -> tuple[bool, tuple[int, ...]]:
        self._ask("nudge_outcome")
        wanted = {tuple(c) for c in cells}
        hidden = tuple(s for s, p in self._hidden(state, asker).items() if p.cell in wanted)
        self._open(state, hidden)
        # the stall test needs every piece on the landing cells, the resolver's hidden ones too
        # (an owner's hidden member may land on them): docs/hidden.md "HQ-3 gap"
        joint = state.clone()
        for s, p in self._mine(state).items():
            if s not in joint.pieces:
                joint.pieces[s] = p
        joint.touch()
        pieces = [joint.pieces[s] for s in (*group, *hidden)]
        stall = (len(pieces) - 2 > 4 or any(joint.pieces[s].stun for s in hidden)
                 or not shift_ok(joint, pieces, shift[0], shift[1], frozenset()))   # RUL-45
        return stall, hidden


# -- one laptop's engine state ---------------------------------------------------------------

@dataclass
class Side:
    """One side's engine state in a network game: ``state`` is its partial state; ``exposed``
    the serials of its own pieces the other side sees now (from the last ``Shown`` it sent)."""

    side: str
    state: GameState
    exposed: frozenset[int] = frozenset()
    asked: dict[str, int] = field(default_factory=dict)   # questions put to the peer, by kind
    opened: int = 0                                        # peer pieces its answers opened
    over_opened: int = 0         # of those, survivors the HQ items would not show (gap G-1)

    @classmethod
    def from_omniscient(cls, state: GameState, side: str) -> "Side":
        """The start of a game: each side builds its partial state from the public start."""
        return cls(side, partial_state(state, side),
                   frozenset(s for s, p in state.pieces.items()
                             if p.side == side and s not in hidden_from(state, enemy(side))))

    # -- resolving one's own event
    def resolve(self, action: Action | None, peer: "Side") -> tuple[GameState, PeerAnswerer]:
        """Resolve ``action`` (None: the start phase of this side's turn) on a copy of the own
        partial state, the peer answering about its hidden pieces."""
        answerer = PeerAnswerer(peer.state, peer.side, self.state)
        if action is None:
            work = self.state.clone()
            with answering(answerer):
                begin_turn(work)
        elif isinstance(action, EndTurn):
            work = end_phase(self.state, answerer)
        else:
            work = apply_action(self.state, action, answerer=answerer)
        for k, v in answerer.asked.items():
            self.asked[k] = self.asked.get(k, 0) + v
        self.opened += len(answerer.opened)
        return work, answerer

    def consequences(self, work: GameState, answerer: PeerAnswerer,
                     action: Action | None) -> Consequences:
        """HQ-14, HQ-15: the value the owner of the touched pieces receives."""
        owner = answerer.owner
        yours = []
        for sid in sorted(answerer.touched):
            now = opening(work, sid) if sid in work.pieces and work.pieces[sid].side == owner \
                else None
            if sid in answerer.opened or sid not in self.state.pieces or \
                    now != opening(self.state, sid):
                yours.append((sid, now))       # opened, changed or gone; unchanged ones not sent
        public = action if action is not None and self._acted_in_view(work, action) else None
        ground = _ground_aids(work)
        return Consequences(
            public, tuple(yours), work.ply, tuple(sorted(work.ground.items())),
            tuple((a, n) for a, n in sorted(work.art_ready.items()) if a in ground),
            tuple(sorted(work.reinforcements.items())), work.next_sid, work.projectiles,
            work.next_pid, work.result, work.end_reason, work.turn.lost_primary,
            action is None)

    def _acted_in_view(self, work: GameState, action: Action) -> bool:
        """The actor was visible to the other side before the action (RUL-37: "hidden from V
        at the time of the action"; ``_event`` adds a Fire that reveals its firer, RUL-20. A
        Move of a piece hidden before stays hidden even when it ends in view: its text would
        give away the start square, RUL-37 writes `?` for it)."""
        return bool(self.actors(action) & self.exposed) or not self.actors(action)

    def actors(self, action: Action) -> frozenset[int]:
        """Serials of the own pieces an action's description names (none: End Turn,
        Reinforce)."""
        desc = getattr(action, "piece", None) or getattr(action, "giver", None)
        if desc is None:
            return frozenset()
        try:
            return frozenset(p.sid for p in resolve_all(self.state, desc, self.side))
        except RuleError:
            return frozenset()

    def receive(self, c: Consequences) -> None:
        """The owner applies what the other side's event did: its touched pieces (it stores
        their new values itself), its ended locks, and the public part."""
        s = self.state.clone()
        s.parent = None
        for sid, op in c.yours:
            _drop_piece(s, sid)
            if op is not None:
                put_opening(s, op)
        ground_before = _ground_aids(s)
        s.ply = c.ply
        s.ground = dict(c.ground)
        for a in ground_before - _ground_aids(s):
            if s.holder_of(a) is None:
                s.art_ready.pop(a, None)
        s.art_ready.update(c.ground_ready)
        s.reinforcements = dict(c.reinforcements)
        s.next_sid = c.next_sid
        s.projectiles = c.projectiles
        s.next_pid = c.next_pid
        s.result = c.result
        s.end_reason = c.end_reason
        if c.fresh_turn:      # RUL-7, RUL-11: counters reset; stunned when this turn began
            s.hits = {x: h for x, h in s.hits.items() if x in dict(c.yours)}
            own_stunned = {x for x, p in s.pieces.items() if p.side == self.side and p.stun}
        else:
            own_stunned = {x for x in self.state.turn.stunned if x in s.pieces}
        s.turn = TurnState(stunned=frozenset(own_stunned), lost_primary=c.lost_primary)
        s.touch()
        self.state = s

    def lock_targets(self) -> tuple[int, ...]:
        """RUL-19: the targets of my locks (the other side's pieces), asked after its event."""
        s = self.state
        return tuple(sorted({t for k, t in s.locks.items() if source_side(s, k) == self.side}))

    def gone(self, before: GameState, work: GameState, targets: Sequence[int]) -> frozenset[int]:
        """RUL-19: which of these pieces of mine the event destroyed or converted (their locks
        end). The answer is the lock ending, which the rules make known to the locker."""
        return frozenset(t for t in targets if t in before.pieces
                         and before.pieces[t].side == self.side
                         and (t not in work.pieces or work.pieces[t].side != self.side))

    def end_locks_on(self, gone: frozenset[int]) -> None:
        """Drop my locks whose target is gone."""
        for k in [k for k, t in self.state.locks.items() if t in gone]:
            del self.state.locks[k]
        self.state.touch()

    def adopt(self, work: GameState) -> None:
        """The resolver keeps its working state (the other side's pieces fixed by ``Shown``)."""
        work.parent = None
        self.state = work

    # -- visibility exchange
    def detectors(self) -> Detectors:
        """HQ-10 T: my Torpedo Launcher and Anti-Stealth holders, and my sources' locks."""
        s = self.state
        mine = tuple(p for _, p in sorted(s.pieces.items()) if p.side == self.side
                     and (has_ability(s, p, "TL") or has_ability(s, p, "ASH")))
        locks = tuple((k, t) for k, t in sorted(s.locks.items())
                      if source_side(s, k) == self.side)
        return Detectors(mine, locks)

    def shown_to(self, det: Detectors) -> Shown:
        """HQ-10, HQ-16: which of my pieces the holder of ``det`` sees now, opened in full."""
        s = self.state
        probe = GameState(s.options)
        probe.ply = s.ply
        probe.art_code = s.art_code
        mine = {sid: p for sid, p in s.pieces.items() if p.side == self.side}
        probe.pieces = dict(sorted({**{p.sid: p for p in det.pieces}, **mine}.items()))
        probe.locks = dict(det.locks)
        probe.reveals = {sid: n for sid, n in s.reveals.items() if sid in mine}
        hidden = hidden_from(probe, enemy(self.side))
        visible = [sid for sid in sorted(mine) if sid not in hidden]
        self.exposed = frozenset(visible)
        return Shown(tuple(opening(s, sid) for sid in visible))

    def accept(self, shown: Shown) -> None:
        """Replace the enemy pieces held by the ones the other side shows (HQ-16)."""
        s = self.state
        for sid in [sid for sid, p in s.pieces.items() if p.side != self.side]:
            _drop_piece(s, sid)
        for op in shown.pieces:
            put_opening(s, op)
        # locks of my sources keep their target serial while the target is hidden (RUL-19);
        # the transcript fields are left empty (TRANSCRIPT_FIELDS): the resolver's record may
        # name pieces its answers opened, which the history of the other side may not show
        self.state = partial_state(s, self.side)


def play(sides: dict[str, Side], action: Action) -> dict[str, Consequences]:
    """One action of the side to move through both sides (and, after End Turn, the next
    mover's start phase). Returns the ``Consequences`` each event sent."""
    mover = next(s for s in sides.values() if s.state.side_to_move == s.side)
    other = sides[enemy(mover.side)]
    sent = {"action": _event(mover, other, action)}
    if isinstance(action, EndTurn) and mover.state.result is None:
        sent["start"] = _event(other, mover, None)     # the next mover's start phase
    return sent


def _event(resolver: Side, owner: Side, action: Action | None) -> Consequences:
    before = resolver.state
    work, answerer = resolver.resolve(action, owner)
    c = resolver.consequences(work, answerer, action)
    before_actors = resolver.actors(action) if action is not None else frozenset()
    owner.receive(c)
    owner.end_locks_on(resolver.gone(before, work, owner.lock_targets()))
    resolver.adopt(work)
    # visibility exchange in both directions (HQ-10, HQ-16)
    shown_by_owner = owner.shown_to(resolver.detectors())
    shown_by_resolver = resolver.shown_to(owner.detectors())
    resolver.accept(shown_by_owner)
    owner.accept(shown_by_resolver)
    resolver.over_opened += len(_over_opened(answerer, owner, resolver))
    if c.action is None and action is not None and not isinstance(action, Move) and \
            any(work.reveals.get(s, 0) > before.reveals.get(s, 0) for s in before_actors):
        c = replace(c, action=action)   # a Fire that reveals its firer counts as seen (RUL-37)
    return c


def _over_opened(answerer: PeerAnswerer, owner: Side, resolver: Side) -> list[int]:
    """Pieces the event's answers opened that the HQ items would not have shown the resolver:
    still the owner's, not stunned by the event (HQ-4 shows those), hidden again afterwards.
    Taken, destroyed and converted pieces are shown by HQ-1, HQ-5..HQ-8 and HQ-6."""
    out = []
    before = answerer.owner_state.pieces
    for sid in answerer.opened:
        now = owner.state.pieces.get(sid)
        if now is None or now.side != owner.side or sid in resolver.state.pieces:
            continue
        if now.stun > before[sid].stun:
            continue
        out.append(sid)
    return out

