"""Two partial states, one engine (issue 8 item 1; DESIGN §4; 00 HQ-1..HQ-17; docs/hidden.md).

In a network game each side's engine state holds its own pieces in full and, of the enemy,
only what ``observe()`` shows (``partial_state``). The rules run unchanged on that partial
state; whatever depends on the absent enemy pieces is asked of their owner through the
answerer interface (``engine.asking``: the resolver asks, the owner answers), and a piece an answer names is *opened*: the owner
hands it over in full (``Opening``) and it enters the asker's working state.

One action, one resolver: the side that acts (or, in a start phase, the side whose turn
begins) resolves the event on its own partial state. Then the two sides exchange three values:

* ``Consequences`` (resolver -> owner, HQ-14, HQ-15): the public part of the new state, the
  action itself when the owner could see the actor (None for a hidden action), and the new
  value of every piece of the owner's that the event touched (taken, hit, stunned, converted,
  nudged, come down), as the owner's engine must store it;
* ``Shown`` (each -> the other, HQ-10, HQ-16): the sender's pieces the receiver sees now, in
  full, computed by their owner against the receiver's detection zones (``Detectors``, the
  squares its detectors reach and its lock targets; over the network tested by PSI,
  ``net.hidden_psi``);
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
from .asking import Answer, AskingAnswerer, NeedAnswer, Question, owner_answer
from .descs import resolve_all
from .errors import RuleError
from .openings import Opening, drop_piece, ground_aids, opening, put_opening
from .questions import answering
from .rules import apply_action, begin_turn, end_phase
from .state import GameState, Piece, Projectile, TurnState, enemy, to_dict
from .view import PlayerView
from .visibility import (Zones, detection_zones, hidden_from, hidden_in_zones, source_side,
                         stealthy, submerged)

#: serials and article ids ``partial_from_view`` gives the seen enemy pieces and all articles
PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})
SEEN_SID, ART_ID = 5001, 50001

__all__ = ["partial_state", "partial_from_view", "known_key", "known_diff", "enemy_hidden_held",
           "public_hash", "Opening", "Consequences", "Shown", "Detectors", "Zones", "Question", "Answer",
           "owner_answer", "Resolved", "Side", "without_locks_on", "play", "HQ_OF"]

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


#: HQ-10 (and RUL-19 locks), docs/hidden.md G-3: what a side tells the other so that the other
#: can say which of its own pieces the sender sees: ``Zones`` (the squares within range of its
#: Torpedo Launcher holders, those within range of its Anti-Stealth holders when
#: ``stealth_range_detection`` is on, and the serials its sources lock), never the detectors
#: themselves. Over the network the zones do not travel either: ``net.hidden_psi`` tests the
#: owner's squares against them by private set intersection.
Detectors = Zones


@dataclass(frozen=True)
class Shown:
    """HQ-10, HQ-16: the sender's pieces the receiver sees now, in full. Pieces the receiver
    held before and that are not listed have become hidden: it withdraws them."""

    pieces: tuple[Opening, ...]


@dataclass(frozen=True)
class Resolved:
    """One event resolved by its resolver (``Side.resolve_step``): the working state after it,
    the ``Consequences`` for the owner, the resolver's state before it, the answerer's record
    (touched, opened, asked) and the questions the owner answered, in order."""

    work: GameState
    consequences: Consequences
    before: GameState
    answerer: AskingAnswerer
    questions: tuple[Question, ...]


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
    def resolve(self, action: Action | None, peer: "Side") -> tuple[GameState, AskingAnswerer]:
        """Resolve ``action`` (None: the start phase of this side's turn) on a copy of the own
        partial state, the peer answering about its hidden pieces in the same process."""
        answerer = AskingAnswerer(lambda q: owner_answer(peer.state, peer.side, q),
                                  peer.side, self.state)
        return self._run(action, answerer), answerer

    def resolve_step(self, action: Action | None, answers: Sequence[Answer]) -> "Resolved | Question":
        """One more try at resolving ``action`` (None: the start phase of this side's turn)
        with the owner's ``answers`` so far: the next ``Question`` for the owner, or the
        ``Resolved`` event. The engine is deterministic, so each try asks the same questions in
        the same order. :raises RuleError: an illegal action (nothing changes)."""
        asked: list[Question] = []

        def ask(q: Question) -> Answer:
            if len(asked) < len(answers):
                asked.append(q)
                return answers[len(asked) - 1]
            raise NeedAnswer(q)

        answerer = AskingAnswerer(ask, enemy(self.side), self.state)
        try:
            work = self._run(action, answerer)
        except NeedAnswer as need:
            return need.question
        c = self.consequences(work, answerer, action)
        return Resolved(work, self.public(c, action, work), self.state, answerer, tuple(asked))

    def _run(self, action: Action | None, answerer: AskingAnswerer) -> GameState:
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
        return work

    def public(self, c: "Consequences", action: Action | None, work: GameState) -> "Consequences":
        """A Fire that reveals its firer counts as seen (RUL-37, RUL-20): its ``Consequences``
        carry the action."""
        if c.action is not None or action is None or isinstance(action, Move):
            return c
        before = self.state
        if any(work.reveals.get(s, 0) > before.reveals.get(s, 0) for s in self.actors(action)):
            return replace(c, action=action)
        return c

    def consequences(self, work: GameState, answerer: AskingAnswerer,
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
        ground = ground_aids(work)
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
            drop_piece(s, sid)
            if op is not None:
                put_opening(s, op)
        ground_before = ground_aids(s)
        s.ply = c.ply
        s.ground = dict(c.ground)
        for a in ground_before - ground_aids(s):
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
        """HQ-10 T, as zones: the squares my Torpedo Launcher holders reach, those my
        Anti-Stealth holders reach (with ``stealth_range_detection``), my sources' lock targets
        (``visibility.detection_zones``; docs/hidden.md G-3)."""
        return detection_zones(self.state, self.side)

    def shown_to(self, det: Detectors) -> Shown:
        """HQ-10, HQ-16: which of my pieces a viewer with zones ``det`` sees now, opened in
        full. Only the membership of my own pieces' squares in the zones counts, so ``det``
        may hold just those squares (what the PSI of ``net.hidden_psi`` finds)."""
        s = self.state
        mine = [p for _, p in sorted(s.pieces.items()) if p.side == self.side]
        hidden = hidden_in_zones(s, mine, det)
        visible = [p.sid for p in mine if p.sid not in hidden]
        self.exposed = frozenset(visible)
        return Shown(tuple(opening(s, sid) for sid in visible))

    def hiding_squares(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """The squares of my pieces whose visibility depends on the other side's zones, by
        zone ("U": a hiding reason U; "S": a hiding reason S, only with
        ``stealth_range_detection``), sorted, without repeats: the PSI asker's cells
        (``net.hidden_psi``). Pieces revealed now or without a hiding reason are left out:
        their visibility does not depend on any zone."""
        s = self.state
        out: dict[str, set[tuple[int, int]]] = {"U": set(), "S": set()}
        for p in s.pieces.values():
            if p.side != self.side or s.reveals.get(p.sid, 0) >= s.ply:
                continue
            if submerged(s, p):
                out["U"].add(p.square)
            if stealthy(s, p) and s.options.stealth_range_detection:
                out["S"].add(p.square)
        return {k: tuple(sorted(v)) for k, v in out.items()}

    def accept(self, shown: Shown) -> None:
        """Replace the enemy pieces held by the ones the other side shows (HQ-16)."""
        s = self.state
        for sid in [sid for sid, p in s.pieces.items() if p.side != self.side]:
            drop_piece(s, sid)
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
    """One event through both sides, in the order the network game follows (docs/hidden.md §3)."""
    owner_before = owner.state
    work, answerer = resolver.resolve(action, owner)
    before = resolver.state
    c = resolver.public(resolver.consequences(work, answerer, action), action, work)
    resolver.adopt(work)                                   # 1. R: event{c, det_R}
    det_r = resolver.detectors()
    owner.receive(c)                                       # 2. O: ack{targets, shown_O, det_O}
    shown_by_owner = owner.shown_to(det_r)
    targets = owner.lock_targets()
    det_o = owner.detectors()
    gone = resolver.gone(before, work, targets)            # 3. R: shown{gone, shown_R}
    shown_by_resolver = resolver.shown_to(without_locks_on(det_o, gone))
    resolver.accept(shown_by_owner)
    owner.end_locks_on(gone)                               # 4. O
    owner.accept(shown_by_resolver)
    resolver.over_opened += len(_over_opened(answerer, owner_before, owner, resolver))
    return c


def _over_opened(answerer: AskingAnswerer, owner_before: GameState, owner: Side,
                 resolver: Side) -> list[int]:
    """Pieces the event's answers opened that the HQ items would not have shown the resolver:
    still the owner's, not stunned by the event (HQ-4 shows those), hidden again afterwards.
    Taken, destroyed and converted pieces are shown by HQ-1, HQ-5..HQ-8 and HQ-6."""
    out = []
    before = owner_before.pieces
    for sid in answerer.opened:
        now = owner.state.pieces.get(sid)
        if now is None or now.side != owner.side or sid in resolver.state.pieces:
            continue
        if now.stun > before[sid].stun:
            continue
        out.append(sid)
    return out


def without_locks_on(det: Detectors, gone: frozenset[int]) -> Detectors:
    """The ``Detectors`` once the locks on ``gone`` pieces ended (RUL-19): what the owner's
    detectors are after step 4, computed by the resolver in step 3."""
    return replace(det, locked=det.locked - frozenset(gone))


def public_hash(state: GameState) -> str:
    """SHA-256 of the public part of a state (RUL-50 b): ply, ground and its countdowns,
    reinforcement markers, next serial, projectiles, result, fallen primary pieces. Both sides
    hold it alike after every event; the lockstep compares it next to the roots."""
    ground = ground_aids(state)
    data = [state.ply, sorted([r, c, list(a)] for (r, c), a in state.ground.items() if a),
            sorted([a, n] for a, n in state.art_ready.items() if a in ground),
            sorted([r, c, *v] for (r, c), v in state.reinforcements.items()), state.next_sid,
            [[p.pid, p.kind, p.side, p.row, p.col, p.dr, p.dc, p.strength, p.target, p.created]
             for p in state.projectiles], state.next_pid, state.result, state.end_reason,
            sorted(state.turn.lost_primary)]
    return hashlib.sha256(b"wec/public/v1\0" + msgpack.packb(data, use_bin_type=True)).hexdigest()
