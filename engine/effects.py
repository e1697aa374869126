"""Hits, defences and the resolution of one event (RUL-7, RUL-11..RUL-14, RUL-41, RUL-42).

Every weapon effect goes through ``resolve_hits``: counters add up per turn, each hit is
compared with the piece's defence as it stands before the event's outcomes are applied, the
outcomes are applied together, then articles, descents, follow-up projectile hits, locks and
the game-end check follow in the order of RUL-41. Outcomes for pieces the causing side cannot
see are asked of the answerer (HQ-4..HQ-8): one engine, two answerers. The hits of
projectiles on the cells they are in (``hit_cells``, ``arrival_hits``; RUL-15, RUL-46) live
here too, because an event's descents can land a piece in a projectile's cell (RUL-41 step 7).
"""
from __future__ import annotations

from .actions import GROUND, Result
from .board_ops import place_articles, remove_piece, truly_enterable
from .descs import describe
from .pieces import KINDS, native_levels
from .questions import Hit, current_answerer
from .state import GameState, Piece, replace
from .visibility import attempt_lock, end_locks, hidden_from, lock_sources

ANTI = {"FL": "AFL", "ST": "AST", "CS": "ACS", "RL": "ARL", "SL": "ASL", "TL": "ATL"}
EFFECT = {"FL": "destroy", "RL": "destroy", "SL": "destroy", "TL": "destroy",
          "ST": "stun", "CS": "convert"}
WEAPON = {"R": "RL", "S": "SL", "T": "TL"}
KILL = {"R": "RK", "S": "SK", "T": "TK"}


def defence(state: GameState, p: Piece, weapon: str) -> int:
    """Inherent Anti- ability (1) plus one per held Anti- article of that type (RUL-7)."""
    anti = ANTI[weapon]
    n = 1 if anti in KINDS[p.kind].inherent else 0
    return n + sum(1 for a in p.arts if state.art_code[a] == anti)


def counter(state: GameState, sid: int, weapon: str) -> int:
    """This turn's hit counter of a piece for one weapon type (RUL-7)."""
    return dict(state.hits.get(sid, ())).get(weapon, 0)


def takes_effect(state: GameState, hit_list: list[Hit]) -> dict[int, bool]:
    """Whether each hit piece's counter exceeds its defence after these hits (RUL-7, RUL-41.3).

    Pure: reads the counters and defences as they are before the event's outcomes.
    """
    totals: dict[tuple[int, str], int] = {}
    for h in hit_list:
        totals[(h.sid, h.weapon)] = totals.get((h.sid, h.weapon), 0) + h.strength
    out: dict[int, bool] = {}
    for (sid, weapon), k in totals.items():
        p = state.pieces[sid]
        out[sid] = out.get(sid, False) or counter(state, sid, weapon) + k > defence(state, p, weapon)
    return out


def off_native(state: GameState, p: Piece) -> bool:
    """A piece on a level it cannot occupy unaided (RUL-25): it needs a carrier there."""
    if p.trip is not None:
        return False
    return p.level not in native_levels(p.kind)


def carrier_of(state: GameState, p: Piece) -> Piece | None:
    """The friendly Chopper (Air) or Sub (Sub level) sharing the cell of a passenger (RUL-42)."""
    kind = {"A": "CH", "S": "SU"}.get(p.level)
    for s in state.at(p.row, p.col, p.level):
        q = state.pieces[s]
        if s != p.sid and q.kind == kind and q.side == p.side:
            return q
    return None


def resolve_hits(state: GameState, causer_side: str, hit_list: list[Hit]) -> None:
    """Resolve one event's hits (RUL-41 steps 2-10); mutates ``state``."""
    if not hit_list:
        return
    seen_hits: list[Hit] = []
    hidden_hits: dict[str, list[Hit]] = {}
    for h in hit_list:                  # each hit is judged from its causer's view (RUL-46 e)
        asker = h.by or causer_side
        if h.sid in hidden_from(state, asker):
            hidden_hits.setdefault(asker, []).append(h)
        else:
            seen_hits.append(h)
    effect = takes_effect(state, seen_hits)
    for asker in sorted(hidden_hits):
        effect.update(current_answerer().hit_outcomes(state, asker, hidden_hits[asker]))
    for h in hit_list:                              # step 3: counters accumulate
        counts = dict(state.hits.get(h.sid, ()))
        counts[h.weapon] = counts.get(h.weapon, 0) + h.strength
        state.hits[h.sid] = tuple(sorted(counts.items()))
    cause = {}
    for h in hit_list:
        cause.setdefault(h.sid, (h.weapon, h.cause))
    destroyed: list[Piece] = []
    stunned: list[Piece] = []
    converted: list[tuple[Piece, Piece]] = []
    for sid in sorted(effect):
        if not effect[sid] or sid not in state.pieces:
            continue
        weapon, token = cause[sid]
        p = state.pieces[sid]
        kind = EFFECT[weapon]
        if kind == "destroy":
            state.record.results.append(Result(token, "*", piece=describe(state, p), stun=0,
                                               colour=p.side))
            destroyed.append(p)
        elif kind == "stun":
            stunned.append(p)
        else:
            converted.append((p, replace(p, side=_other(p.side), origin=False)))
    _apply_outcomes(state, destroyed, stunned, converted, cause)


def _other(side: str) -> str:
    return "W" if side == "B" else "B"


def _apply_outcomes(state: GameState, destroyed: list[Piece], stunned: list[Piece],
                    converted: list[tuple[Piece, Piece]], cause: dict[int, tuple[str, str]]) -> None:
    duration = state.options.stun_duration
    falling: list[Piece] = []
    fall_desc = {}
    fall_record: dict[int, Result] = {}
    for p in destroyed:                                         # step 4
        remove_piece(state, p)
    for p in stunned:
        before = describe(state, p)
        new = replace(p, stun=duration, arts=())
        if p.trip is not None:                                  # a traveller falls (RUL-12)
            new = replace(new, trip=None)
            falling.append(new)
            fall_desc[p.sid] = before
        state.put(new)
        stun_record = Result(cause[p.sid][1], "*", piece=before, stun=duration, colour=p.side)
        state.record.results.append(stun_record)
        if p.trip is not None:
            fall_record[p.sid] = stun_record    # replaced by STK if it cannot come down
    conv_at = []
    for old, new in converted:
        conv_at.append((len(state.record.results), old.sid))
        state.record.results.append(Result(cause[old.sid][1], "*", piece=describe(state, old),
                                           stun=old.stun, colour=old.side))
        state.put(new)
        state.lose_homing(old.sid)                              # RUL-16
        if KINDS[old.kind].role == "primary":
            state.turn = replace(state.turn, lost_primary=state.turn.lost_primary | {old.side})
    kills = _conversion_kills(state, converted)
    killed = {p.sid for p in kills}
    for i, sid in reversed(conv_at):      # a conversion that is a kill is written CK only (RUL-36)
        if sid in killed:
            del state.record.results[i]
    for p in kills:
        remove_piece(state, p)
    for p in sorted(destroyed + kills + stunned, key=lambda q: q.sid):   # step 5
        place_articles(state, p, p.arts)
    descents = sorted(falling, key=lambda q: q.sid)
    for p in destroyed:                                         # passengers lose support
        for s in state.at(p.row, p.col, p.level):
            q = state.pieces[s]
            if q.side == p.side and off_native(state, q) and carrier_of(state, q) is None:
                descents.append(q)
    arrivals = []
    for p in sorted(descents, key=lambda q: q.sid):             # step 6, one at a time
        p = state.pieces.get(p.sid, p)
        if p.sid not in state.pieces:
            continue
        if _can_land(state, p):
            state.move_piece(p.sid, p.row, p.col, GROUND)
            state.record.results.append(Result(p.kind, "v", p.row, p.col))
            arrivals.append(p.sid)
        else:
            if p.sid in fall_record:               # a stun that kills is written STK only
                state.record.results.remove(fall_record[p.sid])
            token = "STK" if p.sid in fall_desc else p.kind
            desc = fall_desc.get(p.sid) or describe(state, p)
            state.record.results.append(Result(token, "*", piece=desc, stun=0, colour=p.side))
            remove_piece(state, p)
            place_articles(state, p, p.arts)
    end_locks(state)                                            # step 8
    for _old, new in sorted(converted, key=lambda pair: pair[1].sid):
        if new.sid in state.pieces:
            for key in lock_sources(state, state.pieces[new.sid]):
                attempt_lock(state, key, state.pieces[new.sid])
    if arrivals:                                                # step 7: follow-up hits
        arrival_hits(state, arrivals)


def _can_land(state: GameState, p: Piece) -> bool:
    """The Ground of the piece's square is legally enterable, hidden pieces included (RUL-42);
    the hidden ones are asked of the answerer (HQ-12)."""
    return truly_enterable(state, p, (p.row, p.col, GROUND))


def _conversion_kills(state: GameState, converted: list[tuple[Piece, Piece]]) -> list[Piece]:
    """RUL-14, A-23: a Conversion that splits a carrier from its passenger kills the passenger."""
    before = {old.sid: old for old, _new in converted}
    kills: list[Piece] = []
    for old, _new in converted:
        for s in state.at(old.row, old.col, old.level):
            if s == old.sid or s in before:
                continue                      # both converted: still one side together
            q = state.pieces[s]
            if q.side != old.side:
                continue                      # they were not a friendly pair
            if old.kind in ("CH", "SU") and off_native(state, q):
                victim = q
            elif q.kind in ("CH", "SU") and off_native(state, old):
                victim = state.pieces[old.sid]
            else:
                continue
            if any(k.sid == victim.sid for k in kills):
                continue
            colour = before[victim.sid].side if victim.sid in before else victim.side
            desc = describe(state, before.get(victim.sid, victim))
            state.record.results.append(Result("CK", "*", piece=desc, stun=victim.stun,
                                               colour=colour))
            kills.append(victim)
    return kills


# -- projectile hits (RUL-15, RUL-46): a projectile's cell is hit like any event's target --

def _occupied(state: GameState, side: str, cell: tuple[int, int, str], public: bool) -> bool:
    """A piece in the cell: visible to ``side``, or hidden and reported by the answerer (HQ-8);
    ``public`` as for ``hit_cells``."""
    hidden = hidden_from(state, side)
    if any(s not in hidden for s in state.at(*cell)):
        return True
    # asked even when the state holds nothing there: a partial state (engine.partial) does not
    # hold the pieces hidden from ``side`` at all (HQ-8: "for each projectile cell that holds
    # no piece A can see")
    return current_answerer().first_hidden(state, side, [cell], public=public) is not None


def hit_cells(state: GameState, cells: list[tuple[int, int, str]], public: bool = False) -> None:
    """Joint hits of the projectiles in these cells on the pieces there (RUL-46 c), one event.
    ``public``: the cells tell the other side nothing it cannot work out (the end phase's steps
    of projectiles in flight, from their public cells and directions, HQ-8, HQ-9): a network game
    asks about them in clear (docs/rulings.md P-12). Not so for a projectile created now by a
    firer that may stay hidden (its cell is next to the firer), nor for a piece arriving on a
    projectile's cell (it may be a hidden mover)."""
    hits: list[Hit] = []
    gone: set[int] = set()
    causer = None
    for cell in dict.fromkeys(cells):
        here = [p for p in state.projectiles if (p.row, p.col, p.level) == cell]
        if not here or not _occupied(state, here[0].side, cell, public):
            continue
        causer = causer or here[0].side
        strength = sum(p.strength for p in here)
        for p in here:
            state.record.results.append(Result(p.kind, "v", p.row, p.col))
            gone.add(p.pid)
        kind = here[0].kind
        visible = [s for s in state.at(*cell) if s not in hidden_from(state, here[0].side)]
        hidden = current_answerer().hidden_on(state, here[0].side, [cell], public=public)
        for sid in sorted(set(visible) | set(hidden)):
            hits.append(Hit(sid, WEAPON[kind], strength, KILL[kind], here[0].side))
    if gone:
        state.projectiles = tuple(p for p in state.projectiles if p.pid not in gone)
        state.touch_projectiles()
    if hits and causer is not None:
        resolve_hits(state, causer, hits)


def arrival_hits(state: GameState, sids: list[int]) -> None:
    """Pieces that just arrived in a projectile's cell are hit at once (RUL-15)."""
    if not state.projectiles:
        return
    flying = {(q.row, q.col, q.level) for q in state.projectiles}
    cells = []
    for sid in sids:
        p = state.pieces.get(sid)
        if p is not None and p.cell in flying:
            cells.append(p.cell)
    if cells:
        hit_cells(state, cells)     # the arriving piece may be hidden: its cell stays in PSI
