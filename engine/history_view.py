"""The history as one player may read it (RUL-37, RUL-51 d; 04/C1-C8; docs/rulings.md V-*).

``history_for(state, viewer)`` is the full history in a non-competitive game and after the game
ends (04/C4, C8). In a running competitive game it is censored for ``viewer``:

* **Move part.** An enemy mover hidden from the viewer just before the Move prints ``?`` for its
  description; hidden just after, ``?`` for its destination; both: ``MV:?`` (00/T34).
* **Other parts** (transport, Doze entries, Fire, Pick-up, Exchange, Reinforce, Drop) of an
  enemy piece hidden both before and after its action are left out; a reveal by the action
  itself counts as visible (RUL-37).
* **Results** are kept when caused by the viewer (RUL-51 a), when they affect the viewer's
  piece or a piece it sees, or when they are projectile records; others are left out.
* **Trips.** An enemy Jump Pack / Scuba Fire prints ``->?`` for its destination and path
  (RUL-51 d); like every line it is not filled in later (no back-filling) before the game ends.
* **No back-filling.** Each decision uses the visibility of its own moment, never today's.

The game is replayed from its save (``engine.history.loads(dumps(state))``, 04/H1), which gives
the state before and after every action; each action's results are the ones it appended to
the turn's record. No rule module is touched. The strings use ``?`` and are display-only: the
parser refuses them (docs/rulings.md N-1). All censor printing lives in ``_Printer``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from .actions import (GROUND, Action, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc,
                      Reinforce, Result, Transport, Turn)
from .notation import LEVEL_MARKS, format_action, format_piece, format_turn, parse_turn
from .state import GameState, Piece
from .visibility import hidden_from

PROJECTILE_KINDS = ("R", "S", "T")
KILL_TOKENS = ("RK", "SK", "TK")
TRIP_ARTICLES = ("JU", "JP", "SC")


def history_for(state: GameState, viewer: str) -> list[str]:
    """The history lines ``viewer`` ("B"/"W") may read now (RUL-37). :raises ValueError: viewer."""
    if viewer not in ("B", "W"):
        raise ValueError(f"viewer must be 'B' or 'W', got {viewer!r}")
    if not state.options.competitive or state.result is not None:
        return list(state.history)                 # 04/C8, RUL-37 game end (A-20, 04/C4)
    return [_Printer(viewer, line).line() for line in _lines(state)]


# -- replay: what each action did ----------------------------------------------------------------

@dataclass(slots=True)
class _Step:
    """One transition of the replay: ``prev`` --action--> ``next`` and what it appended."""

    prev: GameState
    action: Action | None            # None: the start phase of the line (set off by End Turn)
    next: GameState
    results: tuple[Result, ...]
    transports: tuple[Transport, ...] = ()


@dataclass(slots=True)
class _Line:
    """One finished history line with the steps that wrote it, in played order."""

    ply: int
    turn: Turn
    steps: list[_Step] = field(default_factory=list)


def _chain(state: GameState) -> list[GameState]:
    """Every state of the replayed game, from the start to ``state``'s position (04/H1)."""
    from .history import dumps, loads

    s: GameState | None = loads(dumps(state))
    out = []
    while s is not None:
        out.append(s)
        s = s.parent
    out.reverse()
    return out


def _lines(state: GameState) -> list[_Line]:
    """The finished lines, each with the steps that wrote its parts and results."""
    states = _chain(state)
    lines: list[_Line] = []
    current = _Line(states[0].ply, Turn(None))
    for prev, nxt in zip(states, states[1:]):
        grew = len(nxt.actions) == len(prev.actions) + 1 and nxt.actions[:-1] == prev.actions
        action: Action = nxt.actions[-1] if grew else EndTurn()
        finished = len(nxt.history) > len(prev.history)
        if finished:
            turn = parse_turn(nxt.history[len(prev.history)])
            results = turn.results[len(prev.record.results):]
        else:
            turn = None
            results = tuple(nxt.record.results[len(prev.record.results):])
        current.steps.append(_Step(prev, action, nxt, tuple(results)))
        if finished:
            assert turn is not None
            current.turn = turn
            lines.append(current)
            current = _Line(nxt.ply, Turn(None))
            if nxt.result is None:                  # the next line's start phase (RUL-1, RUL-31)
                current.steps.append(_Step(_after_reveals(prev), None, nxt,
                                           tuple(nxt.record.results),
                                           tuple(nxt.record.transports)))
    return lines


def _after_reveals(state: GameState) -> GameState:
    """``state`` less the reveals that end with its turn: the visibility at the next start phase
    (RUL-20 duration, RUL-50 a)."""
    out = state.clone()
    out.reveals = {sid: until for sid, until in state.reveals.items() if until > state.ply}
    out.touch()
    return out


# -- who and what could be seen ------------------------------------------------------------------

def _matches(state: GameState, p: Piece, desc: PieceDesc) -> bool:
    kind = {"STP": "SP"}.get(desc.kind, desc.kind)
    return (p.kind == kind and p.hand == desc.orient and p.cell == (desc.row, desc.col, desc.level)
            and state.codes(p) == desc.articles)


def _described(state: GameState, desc: PieceDesc, side: str | None) -> list[int]:
    """Sids of the pieces ``desc`` names exactly in ``state`` (04/H11)."""
    return [s for s in state.at(desc.row, desc.col, desc.level)
            if _matches(state, state.pieces[s], desc)
            and (side is None or state.pieces[s].side == side)]


def _moved(step: _Step) -> set[int]:
    """Pieces that changed cell or left the board in a step."""
    out = set()
    for sid, p in step.prev.pieces.items():
        q = step.next.pieces.get(sid)
        if q is None or q.cell != p.cell:
            out.add(sid)
    return out


def _identify(step: _Step, desc: PieceDesc, side: str | None) -> list[int]:
    """The piece a description (as it was just before an event of ``step``) names.

    Exact match before the step, else after it; else the pieces of that type, hand and side that
    moved or left the board in the step (a piece that moved and was then hit, RUL-41)."""
    for st in (step.prev, step.next):
        found = _described(st, desc, side)
        if found:
            return found
    kind = {"STP": "SP"}.get(desc.kind, desc.kind)
    moved = _moved(step) | (set(step.next.pieces) - set(step.prev.pieces))
    out = []
    for sid in sorted(moved):
        p = step.prev.pieces.get(sid) or step.next.pieces[sid]
        if p.kind == kind and p.hand == desc.orient and (side is None or p.side == side):
            out.append(sid)
    return out


def _seen_in(state: GameState, sid: int, viewer: str) -> bool:
    """The piece exists in ``state`` and ``viewer`` sees it there (own pieces always, RUL-18)."""
    p = state.pieces.get(sid)
    return p is not None and (p.side == viewer or sid not in hidden_from(state, viewer))


def _before_after(step: _Step, sid: int, viewer: str) -> tuple[bool, bool]:
    """Visible just before and just after the step; a piece gone afterwards keeps its 'before'."""
    before = _seen_in(step.prev, sid, viewer)
    after = _seen_in(step.next, sid, viewer) if sid in step.next.pieces else before
    return before, after


# -- the printer ---------------------------------------------------------------------------------

def _dest(level: str, row: int, col: int) -> str:
    return f"{LEVEL_MARKS[level]}({row},{col})"


def _strip_mv(text: str) -> str:
    """Body of a part printed by ``format_turn`` on a turn without a Move (``MV:-``)."""
    assert text.startswith("MV:-")
    return text[len("MV:-"):]


class _Printer:
    """Prints one line for one viewer: the only place that writes ``?`` (RUL-36, RUL-37)."""

    def __init__(self, viewer: str, line: _Line) -> None:
        self.viewer = viewer
        self.line_ = line
        self.mover_side = "B" if line.ply % 2 == 1 else "W"

    def line(self) -> str:
        """The censored line."""
        turn = self.line_.turn
        acts = [s for s in self.line_.steps if s.action is not None]
        by_kind = {cls: [s for s in acts if isinstance(s.action, cls)]
                   for cls in (Move, Fire, PickUp, Exchange, Reinforce, Drop)}
        start = [s for s in self.line_.steps if s.action is None]
        parts = [self._move(turn.move, by_kind[Move])]
        for step in start:
            parts += [self._transport(t, step) for t in step.transports]
        for n, (f, step) in enumerate(zip(turn.fires, by_kind[Fire]), 1):
            parts.append(self._fire(n, f, step))
        for part, cls in ((turn.pickup, PickUp), (turn.exchange, Exchange),
                          (turn.reinforce, Reinforce), (turn.drop, Drop)):
            if part is not None:
                parts.append(self._other(part, by_kind[cls][0]))
        results = [self._results(step) for step in self.line_.steps]
        shown = [r for rs in results for r in rs]
        text = "".join(p for p in parts if p)
        if shown:
            text += ",RS:" + ",".join(shown)
        return text

    # -- parts ---------------------------------------------------------------------------------
    def _own_line(self) -> bool:
        return self.mover_side == self.viewer

    def _move(self, move: Move | None, steps: list[_Step]) -> str:
        if move is None:
            return "MV:-"                                             # RUL-3, RUL-36
        step = steps[0]
        if self._own_line():                   # own activity is never hidden (04/C3) ...
            head, after = format_action(replace(move, doze=())), True
        else:
            sid = _described(step.prev, move.piece, self.mover_side)[0]
            before, after = _before_after(step, sid, self.viewer)
            if not before and not after:
                head = "MV:?"
            else:
                piece = format_piece(move.piece) if before else "?"
                dest = _dest(move.level, move.row, move.col) if after else "?"
                head = f"MV:{piece}->{dest}"
            if move.passenger is not None:
                head += self._carried(move, step)
        if move.doze:
            head += self._doze(move, step, after)
        return head

    def _carried(self, move: Move, step: _Step) -> str:
        """The passenger's ``-TRA->`` (RUL-36) under the transport rule (RUL-37)."""
        assert move.passenger is not None
        sids = _identify(step, move.passenger, self.mover_side)
        return self._tra(move.passenger, move.level, move.row, move.col, step, sids)

    def _doze(self, move: Move, step: _Step, dest_seen: bool) -> str:
        """Doze entries of pieces the viewer could not see are left out, even in the viewer's
        own nudge (... but an enemy's hidden member is not its activity: RUL-37, 00/T41)."""
        entries = []
        for kind, r, c in move.doze:
            sids = [s for s in step.prev.at(r, c, GROUND) if step.prev.pieces[s].kind == kind]
            if any(any(_before_after(step, s, self.viewer)) for s in sids):
                entries.append(format_piece(PieceDesc(kind, GROUND, r, c)))
        if not entries:
            return ""
        square = f"({move.row},{move.col})" if dest_seen else "?"
        return f",DO>{square}" + ",".join(entries)

    def _transport(self, t: Transport, step: _Step) -> str:
        if self._own_line():
            return _strip_mv(format_turn(Turn(None, transports=(t,))))
        sids = _identify(step, t.piece, self.mover_side)
        return self._tra(t.piece, t.level, t.row, t.col, step, sids)

    def _tra(self, piece: PieceDesc, level: str, row: int, col: int, step: _Step,
             sids: list[int]) -> str:
        """``-TRA->``: left out when hidden before and after, ``?`` for a hidden end (V-4)."""
        if self._own_line():
            return f"-TRA->{format_piece(piece)}{_dest(level, row, col)}"
        seen = [_before_after(step, s, self.viewer) for s in sids] or [(False, False)]
        before = all(b for b, _ in seen)
        after = all(a for _, a in seen)
        if not before and not after:
            return ""
        return (f"-TRA->{format_piece(piece) if before else '?'}"
                f"{_dest(level, row, col) if after else '?'}")

    def _fire(self, n: int, f: Fire, step: _Step) -> str:
        body = format_action(f)[len("FI:"):]
        if self._own_line():
            return f",FI{n}:{body}"
        sids = _identify(step, f.piece, self.mover_side)
        if not self._acted_visibly(step, sids):
            return ""
        if f.article in TRIP_ARTICLES:                # RUL-51 (d), no back-filling (V-3)
            art = format_action(f)[len("FI:"):].split("/", 1)[0]
            return f",FI{n}:{art}/{format_piece(f.piece)}->?"
        return f",FI{n}:{body}"

    def _other(self, part: PickUp | Exchange | Reinforce | Drop, step: _Step) -> str:
        text = "," + format_action(part)
        if self._own_line():
            return text
        if isinstance(part, (PickUp, Drop)):
            sids = _identify(step, part.piece, self.mover_side)
            return text if self._acted_visibly(step, sids) else ""
        if isinstance(part, Exchange):                    # both pieces must be seen (V-5)
            ok = all(self._acted_visibly(step, _identify(step, d, self.mover_side))
                     for d in (part.giver, part.receiver))
            return text if ok else ""
        new = [s for s in step.next.at(part.row, part.col, GROUND)
               if s not in step.prev.pieces]           # the reinforcement that appeared (V-6)
        return text if new and all(_seen_in(step.next, s, self.viewer) for s in new) else ""

    def _acted_visibly(self, step: _Step, sids: list[int]) -> bool:
        """Seen before or after its action (a reveal by the action counts, RUL-37)."""
        return bool(sids) and all(any(_before_after(step, s, self.viewer)) for s in sids)

    # -- results ---------------------------------------------------------------------------------
    def _results(self, step: _Step) -> list[str]:
        """The step's results the viewer may read (RUL-37, RUL-51 a)."""
        default = None if step.action is None else self.mover_side   # start phase: no side
        causer = default
        hit_squares: set[tuple[int, int]] = set()
        out = []
        previous_hit = False
        for r in step.results:
            text = _strip_mv(format_turn(Turn(None, results=(r,))))[len(",RS:"):]
            if r.kind in PROJECTILE_KINDS and r.form in ("->", "v"):
                out.append(text)                                     # projectile records
                if r.form == "v":
                    if not previous_hit:
                        causer = self._projectile_side(step, r, default)
                        hit_squares = set()
                    hit_squares.add((r.row, r.col))
                previous_hit = r.form == "v"
                continue
            previous_hit = False
            if hit_squares and not self._in_chain(r, hit_squares):
                causer, hit_squares = default, set()
            if causer == self.viewer or self._affects_seen(r, step):
                out.append(text)
        return out

    @staticmethod
    def _in_chain(r: Result, squares: set[tuple[int, int]]) -> bool:
        """Kills and descents that follow a projectile hit belong to its event (RUL-41)."""
        if r.kind in KILL_TOKENS:
            return True
        sq = (r.piece.row, r.piece.col) if r.piece is not None else (r.row, r.col)
        return sq in squares

    @staticmethod
    def _projectile_side(step: _Step, r: Result, default: str | None) -> str | None:
        """The side of the (first, RUL-46 c) projectile that hit at ``r``'s square (RUL-51 a)."""
        gone = [p for p in step.prev.projectiles
                if p.kind == r.kind and p.pid not in {q.pid for q in step.next.projectiles}]
        here = [p for p in gone if (p.row, p.col) == (r.row, r.col)]
        for group in (here, gone):
            if group:
                return group[0].side
        return default                                   # created and hit within the step

    def _affects_seen(self, r: Result, step: _Step) -> bool:
        """The result affects the viewer's piece or a piece it could see (RUL-37)."""
        if r.form == "*":
            assert r.piece is not None
            if r.colour == self.viewer:
                return True
            sids = _identify(step, r.piece, r.colour)
            return bool(sids) and all(any(_before_after(step, s, self.viewer)) for s in sids)
        for st in (step.next, step.prev):              # "Typev(r,c)": where the piece ended
            sids = [s for lv in ("G", "A", "S") for s in st.at(r.row, r.col, lv)
                    if st.pieces[s].kind == {"STP": "SP"}.get(r.kind, r.kind)]
            if sids:
                return all(_seen_in(st, s, self.viewer) for s in sids)
        return False
