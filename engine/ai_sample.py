"""The computer opponent's beliefs: a ``GameState`` built from one side's ``PlayerView`` alone.

The bot never reads the game state (issue 11 "it cannot peek"): it builds its own state from
``observe(state, me)`` and from what it remembers of earlier views (``Memory``: the last-seen
cells of enemy pieces able to hide, RUL-18), and samples where the hidden ones may be now
(``sample_state``). Enemy serials are never in a view (RUL-50 b), so seen enemy pieces get
serials of the bot's own from 5001 up, articles from 50001 up. What the view does not hold
is guessed the way players would: a seen enemy Pawn on its own second rank is still on its
starting square (A-14); the reinforcement watch of the turn in progress is rebuilt from the
own pieces on their reinforcement squares (RUL-34); a piece stunned now was stunned at the
start of the turn (RUL-11). docs/rulings.md AI-2 records these guesses.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .actions import GROUND, SUB
from .board import distance, on_board
from .pieces import KINDS
from .state import GameState, Piece, Projectile, TurnState, enemy
from .view import PlayerView
from .visibility import hidden_from

PAWNS = frozenset({"RP", "FP", "SP", "CP", "SOP", "XP", "SHP"})
SEEN_SID, ART_ID = 5001, 50001


@dataclass(frozen=True, slots=True)
class Ghost:
    """An enemy piece that was seen and then vanished where it could hide (RUL-18)."""

    kind: str
    row: int
    col: int
    level: str
    hand: str
    codes: tuple[str, ...]
    ply: int                      # when it was last seen


def can_hide(kind: str, codes: tuple[str, ...], view: PlayerView) -> bool:
    """Whether an enemy piece of this type and articles could be hidden (RUL-18 S or U)."""
    o = view.options
    stealth = o.stealth_invisibility and ("SH" in KINDS[kind].inherent or (
        "SH" in codes and (KINDS[kind].role != "primary" or o.stealthy_primary_allowed)))
    return stealth or (kind == "SU" and o.submerged_invisibility)


@dataclass(slots=True)
class Memory:
    """What the bot remembers between its views: the ghosts, by last sighting."""

    ghosts: list[Ghost] = field(default_factory=list)
    last: tuple = ()              # the previous view's seen enemy pieces

    def update(self, view: PlayerView) -> None:
        """Fold a new view in: vanished hideable pieces become ghosts, reappearing pieces
        retire the nearest ghost of their type."""
        now = list(view.seen)
        for s in now:
            same = [g for g in self.ghosts if g.kind == s.kind]
            if same and not any(self._matches(s, q) for q in self.last):
                near = min(same, key=lambda g: (distance((g.row, g.col), (s.row, s.col)),
                                                g.ply, g.row, g.col))
                self.ghosts.remove(near)
        for q in self.last:
            if q.side == view.player or any(self._matches(q, s) for s in now):
                continue
            if can_hide(q.kind, q.codes, view):
                level = SUB if q.kind == "SU" else q.level
                self.ghosts.append(Ghost(q.kind, q.row, q.col, level, q.hand, q.codes,
                                         view.ply))
        self.last = tuple(now)

    @staticmethod
    def _matches(a, b) -> bool:                   # type: ignore[no-untyped-def]
        return a.kind == b.kind and distance((a.row, a.col), (b.row, b.col)) <= 2


def state_from_view(view: PlayerView) -> GameState:
    """The position as ``view.player`` knows it, with no hidden enemy piece in it."""
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
    state.turn = _turn(state, view, me)
    state.start = {"setup": "view"}
    state.touch()
    return state


def _turn(state: GameState, view: PlayerView, me: str) -> TurnState:
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


def sample_state(view: PlayerView, memory: Memory, rng: random.Random,
                 base: GameState | None = None) -> GameState:
    """One determinization: the known position plus each ghost at its last-seen cell or a
    nearby one (it may have moved since, ply difference), kept only where it stays hidden
    from the bot and the cell holds no piece of the bot's (consistent with the view)."""
    state = (base or state_from_view(view)).clone()
    state.parent = None
    me = view.player
    sid = state.next_sid
    for g in memory.ghosts:
        drift = min(2, max(0, (view.ply - g.ply) // 2))
        for _try in range(4):
            r = g.row + (rng.randint(-drift, drift) if drift else 0)
            c = g.col + (rng.randint(-drift, drift) if drift else 0)
            if not on_board(r, c) or any(state.pieces[s].side == me
                                         for s in state.at(r, c, g.level)):
                continue
            arts = []
            for code in g.codes:
                aid = max(state.art_code, default=ART_ID) + 1
                state.art_code = {**state.art_code, aid: code}
                arts.append(aid)
            state.put(Piece(sid, g.kind, enemy(me), r, c, g.level, g.hand, tuple(arts)))
            if sid in hidden_from(state, me):
                sid += 1
                break
            del state.pieces[sid]
            state.touch()
    state.next_sid = sid
    return state
