"""Derive an action's events from the states before and after it and the results it wrote.

``derive_events(before, action, after)`` touches no rule module and costs the apply path
nothing: the diff of the two states gives who moved, left, changed side, picked up or lost an
article and who became visible or hidden; the results the action appended to the turn's record
(the history's own ordered account, 04/H20, RUL-36, RUL-51) give the order, the causes and what
a diff cannot see (a projectile created and spent in one action, the steps of a homing or fast
projectile, a stun of a piece already stunned, the trip steps of the start phase). Same method
as ``engine.history_view``. Reading the states leaves every state hash unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import GROUND, Action, Drop, EndTurn, Fire, Move, PieceDesc, Reinforce, Result, \
    Transport
from .effects import defence
from .events import (ArticleDropped, ArticleGiven, ArticlePicked, ArticlePlaced, Captured,
                     Converted, Destroyed, Event, GameEnded, HiddenAgain, Moved,
                     ProjectileCreated, ProjectileHit, ProjectileLost, ProjectileStepped,
                     Reinforced, Revealed, Stunned, TurnBegan)
from .notation import parse_turn
from .record import current_turn
from .state import GameState, Piece
from .visibility import hidden_from

Cell = tuple[int, int, str]
_LEVEL = {"R": "G", "S": "A", "T": "S"}
_KILL = {"RK": "rocket", "SK": "sam", "TK": "torpedo"}
_WEAPON = {"FL": "flame", "RL": "rocket", "SL": "sam", "TL": "torpedo"}
_SIDES = ("B", "W")

__all__ = ["derive_events"]


def derive_events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    """The events of ``action`` taking ``before`` to ``after`` (``after`` must be
    ``apply_action(before, action)``), in the order they happened."""
    d = _Derivation(before, action, after)
    return d.run()


@dataclass
class _Derivation:
    before: GameState
    action: Action
    after: GameState
    out: list[Event] = field(default_factory=list)
    where: dict[int, Cell] = field(default_factory=dict)     # last known cell of each piece
    done: set[int] = field(default_factory=set)               # pieces whose fate is written
    seen_to: dict[int, str] = field(default_factory=dict)     # who saw a moved piece arrive
    shots: dict[int, list[Any]] = field(default_factory=dict)   # pid -> [kind, r, c, steps,
    #                                                  side, dr, dc, homing, moves]
    spent: set[int] = field(default_factory=set)              # projectiles that hit
    new_pid: int = 0
    hit_side: str = ""                                        # side of the last projectile hit
    side: str = ""                                            # the side to move: the actor
    hb: dict[str, frozenset[int]] = field(default_factory=dict)   # hidden from each side, before
    ha: dict[str, frozenset[int]] = field(default_factory=dict)   # and after

    def run(self) -> tuple[Event, ...]:
        b, a = self.before, self.after
        self.hb = {s: hidden_from(b, s) for s in _SIDES}
        self.ha = {s: hidden_from(a, s) for s in _SIDES}
        self.side = b.side_to_move
        self.where = {sid: p.cell for sid, p in b.pieces.items()}
        self.shots = {p.pid: [p.kind, p.row, p.col, 0, p.side, p.dr, p.dc, bool(p.target),
                             p.created != b.ply] for p in b.projectiles}
        self.new_pid = b.next_pid
        lines = a.history[len(b.history):]
        skip = len(b.record.results)
        if isinstance(self.action, EndTurn):
            end = parse_turn(lines[0]) if lines else current_turn(a)
            self._walk(end.results[skip:], phase="end")
            self._lost()
            if a.ply > b.ply:
                self.out.append(TurnBegan(a.ply, a.side_to_move))
                start = parse_turn(lines[1]) if len(lines) > 1 else current_turn(a)
                self._trips(start.transports)
                self._walk(start.results, phase="start")
        else:
            self._actor_moves()
            self._walk(current_turn(a).results[skip:], phase="action")
        self._leftovers()
        self._articles()
        self._visibility()
        if a.result is not None and b.result is None:
            self.out.append(GameEnded(a.result, a.end_reason))
        return tuple(self.out)

    # -- who sees a piece --------------------------------------------------------------------
    def _seen(self, p: Piece, hidden: dict[str, frozenset[int]]) -> str:
        return "".join(s for s in _SIDES if s == p.side or p.sid not in hidden[s])

    def _seen_before(self, sid: int) -> str:
        p = self.before.pieces.get(sid)
        return self._seen(p, self.hb) if p is not None else self._seen_after(sid)

    def _seen_after(self, sid: int) -> str:
        p = self.after.pieces.get(sid)
        return self._seen(p, self.ha) if p is not None else ""

    def _old(self, sid: int) -> Piece:
        """The piece as it was before the action (a reinforcement: as it entered)."""
        p = self.before.pieces.get(sid) or self.after.pieces.get(sid)
        if p is None:
            p = self._reinforcement()
            assert p is not None and p.sid == sid
        return p

    # -- the action's own motion -------------------------------------------------------------
    def _actor_moves(self) -> None:
        b, a, act = self.before, self.after, self.action
        if isinstance(act, Reinforce):
            p = self._reinforcement()
            if p is not None:
                self.where[p.sid] = p.cell
                self.out.append(Reinforced(p.sid, p.kind, p.side, p.cell,
                                           self._seen_after(p.sid) or p.side))
            return
        if isinstance(act, Move):
            mover = a.turn.mover if a.turn.moved and not b.turn.moved else 0
            order = [mover] + sorted(s for s in b.pieces if s != mover)
            for sid in order:
                if sid not in b.pieces:
                    continue
                to = self._end_cell(sid, act)
                if to is None or to == b.pieces[sid].cell:
                    continue
                how = "move" if sid == mover else "nudged" if act.doze else "carried"
                self._move(sid, to, how)
        elif isinstance(act, Fire) and act.article in ("BI", "JP", "JU", "SC"):
            for sid in sorted(self._fired_by()):
                q, p = a.pieces.get(sid), b.pieces[sid]
                to = q.cell if q is not None else (act.row, act.col, GROUND) \
                    if act.article == "BI" else (p.row, p.col, "S" if act.article == "SC" else "A")
                if to != p.cell:          # gone: it arrived and a projectile there took it
                    self._move(sid, to, "bike" if act.article == "BI" else "trip")

    def _end_cell(self, sid: int, act: Move) -> Cell | None:
        """Where a piece that moved in a Move ended: its cell now, or where it died there."""
        b, a = self.before, self.after
        q = a.pieces.get(sid)
        if q is not None:
            if q.level != b.pieces[sid].level and q.level == GROUND and \
                    (q.row, q.col) == (act.row, act.col) and act.level != GROUND:
                return (q.row, q.col, act.level)          # carried up, then fell (RUL-42)
            return q.cell
        mover = a.turn.mover
        if sid == mover:
            return (act.row, act.col, act.level)
        m0 = b.pieces.get(mover)
        if m0 is None:
            return None
        m1 = self._end_cell(mover, act)
        p = b.pieces[sid]
        if m1 is None:
            return None
        if act.doze and any((e[1], e[2]) == p.square for e in act.doze):   # nudged (03/M1.3)
            return (p.row + m1[0] - m0.row, p.col + m1[1] - m0.col, p.level)
        if not act.doze and p.cell == m0.cell and act.passenger is not None:   # RUL-25
            return m1
        return None

    def _move(self, sid: int, to: Cell, how: str, frm: Cell | None = None) -> None:
        p = self._old(sid)
        frm = frm or self.where.get(sid, p.cell)
        seen_from = self.seen_to.get(sid) or self._seen_before(sid)
        seen_to = self._seen_after(sid) or self._seen_before(sid)   # gone: as it was seen
        self.out.append(Moved(sid, p.kind, p.side, frm, to, how, seen_from, seen_to))
        self.where[sid] = to
        self.seen_to[sid] = seen_to

    def _trips(self, transports: tuple[Transport, ...]) -> None:
        """Start phase: each Transport entry is one trip step or landing (RUL-31)."""
        for t in transports:
            sid = self._find(t.piece, None, moved_ok=True, alive_ok=True)
            if sid is not None:
                self._move(sid, (t.row, t.col, t.level), "trip", frm=self.where[sid])

    # -- the results, in the order they were written -----------------------------------------
    def _walk(self, results: tuple[Result, ...], phase: str) -> None:
        for r in results:
            if r.kind in _LEVEL and r.form == "->":
                self._projectile_step(r, phase)
            elif r.kind in _LEVEL and r.form == "v":
                self._projectile_hit(r)
            elif r.form == "v":
                self._descent(r)
            elif r.form == "*" and r.piece is not None:
                self._result(r, phase)

    def _projectile_step(self, r: Result, phase: str) -> None:
        cell = (r.row, r.col, _LEVEL[r.kind])
        if phase == "action":                       # a Fire creates; nothing steps in an action
            pid = self.new_pid
            self.new_pid += 1
            now = next((p for p in self.after.projectiles if p.pid == pid), None)
            strength = now.strength if now else len(self.after.turn.fired - self.before.turn.fired)
            target = now.target if now else 0
            t = self.before.pieces.get(target)
            self.out.append(ProjectileCreated(pid, r.kind, self.side, cell, r.dr, r.dc,
                                              max(strength, 1), target, t.side if t else ""))
            self.shots[pid] = [r.kind, r.row, r.col, 0, self.side, r.dr, r.dc, True, False]
            return
        prev = (r.row - r.dr, r.col - r.dc)
        cands = [pid for pid, s in self.shots.items()
                 if s[0] == r.kind and (s[1], s[2]) == prev and pid not in self.spent and s[8]
                 and (s[7] or (s[5], s[6]) == (r.dr, r.dc))]     # a directed one flies straight
        if not cands:
            return
        pid = min(cands, key=lambda p: (self.shots[p][3], p))   # RUL-51 b: creation order
        s = self.shots[pid]
        self.out.append(ProjectileStepped(pid, r.kind, (s[1], s[2], _LEVEL[r.kind]), cell,
                                          r.dr, r.dc))
        s[1], s[2], s[3], s[5], s[6] = r.row, r.col, s[3] + 1, r.dr, r.dc   # type: ignore[operator]

    def _projectile_hit(self, r: Result) -> None:
        cands = [pid for pid, s in self.shots.items()
                 if s[0] == r.kind and (s[1], s[2]) == (r.row, r.col) and pid not in self.spent]
        if not cands:                   # a restricted rocket strikes without flying (RUL-17)
            self.hit_side = self.side
        else:
            pid = min(cands)
            self.spent.add(pid)
            self.hit_side = str(self.shots[pid][4])
            self.out.append(ProjectileHit(pid, r.kind, (r.row, r.col, _LEVEL[r.kind])))

    def _lost(self) -> None:
        alive = {p.pid for p in self.after.projectiles}
        for pid in sorted(self.shots):
            if pid not in alive and pid not in self.spent and pid < self.before.next_pid:
                kind, row, col = self.shots[pid][:3]
                self.out.append(ProjectileLost(pid, kind, (row, col, _LEVEL[kind])))  # type: ignore[index, arg-type]
                self.spent.add(pid)

    def _descent(self, r: Result) -> None:
        """``Typev(r,c)``: a piece came down to the Ground there (RUL-42, RUL-51 b), or a mover
        stopped short (already written by its Moved)."""
        for sid in sorted(self.where):
            p = self.after.pieces.get(sid)
            if p is None or p.kind != r.kind or p.cell != (r.row, r.col, GROUND):
                continue
            if self.where[sid] != p.cell:
                self._move(sid, p.cell, "fell", frm=self.where[sid])
                return

    def _result(self, r: Result, phase: str) -> None:
        desc = r.piece
        assert desc is not None
        sid = self._find(desc, r.colour, moved_ok=True, alive_ok=True, prefer_changed=True)
        if sid is None:
            return
        p = self._old(sid)
        cell = (desc.row, desc.col, desc.level)
        now = self.after.pieces.get(sid)
        seen = self._seen_before(sid)
        cause = self.hit_side if r.kind in _KILL else self._cause(phase)
        if r.kind == "STK" or (r.stun and now is not None and now.stun == r.stun
                               and r.colour == now.side and self._hit_by(sid, "ST")):
            self.out.append(Stunned(sid, p.kind, p.side, cell, self.after.options.stun_duration,
                                    seen, cause))
            if now is not None:
                return
        if now is not None:
            if now.side != r.colour:
                self.out.append(Converted(sid, p.kind, now.side, cell, seen, cause))
                self.done.add(sid)
            return
        self.done.add(sid)
        act = self.action
        if isinstance(act, Move) and phase == "action" and p.side != self.side and \
                cell == self.where.get(self.after.turn.mover):
            self.out.append(Captured(sid, p.kind, p.side, cell, self.after.turn.mover, seen,
                                     cause))
            return
        reason = _KILL.get(r.kind, "")
        if r.kind == "CK":
            reason = "conversion"
        elif r.kind == "STK":
            reason = "fall"
        elif not reason and isinstance(act, Fire) and act.article == "FL" and \
                self._hit_by(sid, "FL"):
            reason = "flame"
        elif not reason:
            reason = "fall"
        self.out.append(Destroyed(sid, p.kind, p.side, cell, reason, seen, cause))

    def _cause(self, phase: str) -> str:
        """The side that caused a result (RUL-51 a); a start-phase crash has none."""
        return "" if phase == "start" else self.side

    def _hit_by(self, sid: int, weapon: str) -> bool:
        """This action's hits of ``weapon`` on ``sid`` exceeded its defence (RUL-7)."""
        if isinstance(self.action, EndTurn):
            return False
        old = dict(self.before.hits.get(sid, ())).get(weapon, 0)
        new = dict(self.after.hits.get(sid, ())).get(weapon, 0)
        return new > old and new > defence(self.before, self._old(sid), weapon)

    def _find(self, desc: PieceDesc, colour: str | None, *, moved_ok: bool, alive_ok: bool,
              prefer_changed: bool = False) -> int | None:
        """The piece a record's description names, at its last known cell (04/H11)."""
        kind = {"STP": "SP"}.get(desc.kind, desc.kind)
        cell = (desc.row, desc.col, desc.level)
        cands = []
        for sid in sorted(self.where):
            p = self._old(sid)
            if sid in self.done or p.kind != kind or p.hand != desc.orient:
                continue
            if colour is not None and p.side != colour and \
                    (self.after.pieces.get(sid) is None or self.after.pieces[sid].side != colour):
                continue
            if self.where[sid] == cell or p.cell == cell:
                cands.append(sid)
        if prefer_changed:
            changed = [s for s in cands if self._changed(s)]
            cands = changed or cands
        return cands[0] if cands else None

    def _changed(self, sid: int) -> bool:
        p, q = self.before.pieces.get(sid), self.after.pieces.get(sid)
        return p is None or q is None or p.side != q.side or q.stun > p.stun or \
            self.after.hits.get(sid) != self.before.hits.get(sid)

    # -- what the record does not order --------------------------------------------------------
    def _leftovers(self) -> None:
        """Changes no result named (defensive: every one should have been matched)."""
        b, a = self.before, self.after
        for sid in sorted(b.pieces):
            if sid in self.done:
                continue
            p, q = b.pieces[sid], a.pieces.get(sid)
            cell = self.where.get(sid, p.cell)
            if q is None:
                self.out.append(Destroyed(sid, p.kind, p.side, cell, "", self._seen_before(sid),
                                          self._cause("action")))
            elif q.side != p.side:
                self.out.append(Converted(sid, p.kind, q.side, cell, self._seen_before(sid),
                                          self.side))
            elif q.stun > p.stun and not any(isinstance(e, Stunned) and e.sid == sid
                                             for e in self.out):
                self.out.append(Stunned(sid, p.kind, p.side, cell, q.stun,
                                        self._seen_before(sid), self.side))
            elif q.cell != self.where.get(sid, p.cell):
                self._move(sid, q.cell, "fell")

    def _articles(self) -> None:
        """Pick-ups, Drops, Exchanges and placements (RUL-12, RUL-29), by article id."""
        b, a = self.before, self.after
        held_b = {aid: p.sid for p in b.pieces.values() for aid in p.arts}
        held_a = {aid: p.sid for p in a.pieces.values() for aid in p.arts}
        ground_b = {aid: sq for sq, aids in b.ground.items() for aid in aids}
        ground_a = {aid: sq for sq, aids in a.ground.items() for aid in aids}
        dropping = isinstance(self.action, Drop)
        for aid in sorted(set(held_b) | set(held_a) | set(ground_b) | set(ground_a)):
            code = a.art_code[aid]
            if aid in ground_b and aid in held_a:
                sid = held_a[aid]
                self.out.append(ArticlePicked(aid, code, ground_b[aid], sid, a.pieces[sid].side,
                                              self._seen_before(sid)))
            elif aid in held_b and aid in ground_a:
                sid = held_b[aid]
                owner = b.pieces[sid]
                if dropping and sid in a.pieces and aid not in held_a:
                    self.out.append(ArticleDropped(aid, code, ground_a[aid], sid, owner.side,
                                                   self._seen_before(sid)))
                else:
                    self.out.append(ArticlePlaced(aid, code, ground_a[aid], sid, owner.side,
                                                  self._seen_before(sid)))
            elif aid in held_b and aid in held_a and held_b[aid] != held_a[aid]:
                giver = b.pieces[held_b[aid]]
                self.out.append(ArticleGiven(aid, code, giver.sid, held_a[aid], giver.side,
                                             self._seen_before(giver.sid)))

    def _visibility(self) -> None:
        """Pieces that became visible to, or hidden from, the enemy (RUL-18..RUL-20, RUL-50 a)."""
        b, a = self.before, self.after
        for viewer in _SIDES:
            for sid in sorted(set(b.pieces) & set(a.pieces)):
                p, q = b.pieces[sid], a.pieces[sid]
                if p.side == viewer or q.side == viewer:
                    continue
                was, now = sid in self.hb[viewer], sid in self.ha[viewer]
                if was and not now:
                    self.out.append(Revealed(sid, q.kind, q.side, q.cell, viewer,
                                             a.reveals.get(sid, 0)
                                             if a.reveals.get(sid, 0) >= a.ply else 0))
                elif now and not was:
                    self.out.append(HiddenAgain(sid, p.kind, p.side, p.cell, viewer))  # last seen

    # -- small helpers -----------------------------------------------------------------------
    def _fired_by(self) -> set[int]:
        """The pieces whose sources fired in this action (RUL-4 keys)."""
        out = set()
        for key in self.after.turn.fired - self.before.turn.fired:
            if key[0] == "a":
                holder = self.before.holder_of(key[1])
                if holder is not None:
                    out.add(holder)
            else:
                out.add(key[1])
        return out

    def _reinforcement(self) -> Piece | None:
        """The piece a Reinforce brought in, also when a projectile took it at once (RUL-15)."""
        b, a = self.before, self.after
        if not isinstance(self.action, Reinforce) or a.next_sid == b.next_sid:
            return None
        sid = b.next_sid
        if sid in a.pieces:
            return a.pieces[sid]
        sq = (self.action.row, self.action.col)
        side, kind, hand = b.reinforcements[sq]
        return Piece(sid, kind, side, sq[0], sq[1], GROUND, hand)

