"""The Fire action: weapons, group fire, rates of fire and transport articles.

01/R12, 01/R15; RUL-4..RUL-10, RUL-13, RUL-15..RUL-17, RUL-20, RUL-30, RUL-31, RUL-48,
RUL-50 (d), RUL-52.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import AIR, GROUND, SUB, Fire, Result
from .board import KING_STEPS, can_enter, distance, on_board, to_board
from .board_ops import track_leave, truly_enterable
from .descs import describe, resolve_all
from .effects import Hit, arrival_hits, resolve_hits
from .errors import RuleError
from .pieces import KINDS, TRANSPORTS, WEAPONS
from .projectiles import create
from .questions import current_answerer
from .state import GameState, Piece, replace
from .visibility import hidden_from, reveal, stealthy, submerged

LAUNCHED = {"RL": "R", "SL": "S", "TL": "T"}
FIRE_RULE = {"FL": "RUL-9", "ST": "RUL-10", "CS": "RUL-13", "RL": "RUL-15", "SL": "RUL-15",
             "TL": "RUL-15", "BI": "RUL-30", "JP": "RUL-31", "SC": "RUL-31"}


@dataclass(frozen=True, slots=True)
class FirePlan:
    """A checked Fire: who fires, with which sources, and at what."""

    sid: int
    weapon: str                          # article token; JP for the Jump Pack
    sources: tuple[tuple[Any, ...], ...]  # RUL-4 key of each source taking part (RUL-5 k)
    aids: tuple[int, ...]                # articles taking part
    inherent: bool                       # the piece's inherent ability takes part
    restricted: bool = False             # Jet/Sub restricted rocket (RUL-17)


def _weapon(token: str) -> str:
    return "JP" if token == "JU" else token


def _inherent_key(state: GameState, p: Piece, weapon: str) -> tuple[Any, ...]:
    rule = state.options.fire_limit_rule
    if rule == "per_piece":
        return ("piece", p.sid)
    if rule == "per_weapon":
        return ("p", p.sid, weapon)
    return ("p", p.sid)


def _article_key(state: GameState, p: Piece, aid: int) -> tuple[Any, ...]:
    return ("piece", p.sid) if state.options.fire_limit_rule == "per_piece" else ("a", aid)


def sources(state: GameState, p: Piece, weapon: str) -> FirePlan | None:
    """The sources of ``p`` that fire ``weapon`` now, grouped (RUL-5, RUL-6, RUL-52)."""
    fired = state.turn.fired
    ply = state.ply
    keys: list[tuple[Any, ...]] = []
    aids: list[int] = []
    inherent = False
    if weapon in TRANSPORTS:                       # never grouped; no rate of fire (RUL-52)
        for aid in p.arts:
            key = _article_key(state, p, aid)
            if state.art_code[aid] == weapon and key not in fired and not _in_use(p, aid):
                return FirePlan(p.sid, weapon, (key,), (aid,), False)
        return None
    if weapon in KINDS[p.kind].inherent:
        key = _inherent_key(state, p, weapon)
        if key not in fired and dict(p.ready).get(weapon, 0) <= ply:
            keys.append(key)
            inherent = True
    for aid in p.arts:
        if state.art_code[aid] != weapon:
            continue
        key = _article_key(state, p, aid)
        # RUL-5: every ready source joins, one key each, so the strength is len(keys); under
        # per_piece every source has the piece's key (RUL-4), which then repeats here
        if key not in fired and state.art_ready.get(aid, 0) <= ply:
            keys.append(key)
            aids.append(aid)
    if not keys:
        return None
    restricted = weapon == "RL" and p.kind in ("JE", "SU")
    return FirePlan(p.sid, weapon, tuple(keys), tuple(aids), inherent, restricted)


def _in_use(p: Piece, aid: int) -> bool:
    return p.trip is not None and p.trip[0] == aid


def _can_fire(state: GameState, p: Piece) -> str | None:
    """Why ``p`` may not fire at all now, or None."""
    t = state.turn
    if t.fires >= 2:
        return "01/R4.3"
    if state.options.move_only:
        return "02/D23"
    if state.options.one_action_per_piece and p.sid in t.acted:
        return "02/D23"
    if not state.options.stunned_may_act and p.stun > 0:
        return "RUL-11"
    return None


def _transport_ok(state: GameState, p: Piece, weapon: str) -> tuple[str, str] | None:
    """RUL-30 conditions on the firing piece of a transport article: (rule, why) or None."""
    if p.stun > 0:
        return "RUL-11", "a stunned piece cannot fire a transport article (RUL-11)"
    if p.trip is not None:
        return "RUL-30", "the piece is already on a trip (RUL-30)"
    if state.turn.moved and state.turn.mover == p.sid:
        return "RUL-30", ("the piece that made this turn's Move cannot fire a transport article "
                          "(01/R15.9)")
    if p.level != GROUND:
        special = not state.options.transport_ground_to_ground_only
        allowed = (weapon == "JP" and p.level == AIR) or (weapon == "SC" and p.level == SUB)
        if not (special and allowed):
            return "RUL-30", "transport articles fire from the Ground only (02/D22, RUL-25)"
    if weapon in ("JP", "SC") and KINDS[p.kind].role == "primary" \
            and not state.options.primary_may_fly_or_dive:
        # 01/R6.10, 03/M1.2.3: the option forbids using transport articles to fly or dive
        return "01/R6.10", ("a primary government piece may not fly or dive by transport "
                            "article in this game (primary_may_fly_or_dive off, 01/§20 O3)")
    return None


def legal_fires(state: GameState, side: str) -> list[Fire]:
    """Every legal Fire of ``side`` now, by piece serial, then weapon, then aim."""
    if state.turn.fires >= 2 or state.options.move_only:
        return []
    out: list[Fire] = []
    for sid in sorted(state.pieces):
        p = state.pieces[sid]
        if p.side != side or _can_fire(state, p):
            continue
        kinds = list(dict.fromkeys([w for w in KINDS[p.kind].inherent if w in WEAPONS]
                                   + list(state.codes(p))))
        for weapon in kinds:
            if weapon not in WEAPONS and weapon not in TRANSPORTS:
                continue
            if sources(state, p, weapon) is None:
                continue
            if weapon in TRANSPORTS and _transport_ok(state, p, weapon):
                continue
            out.extend(_aims(state, p, weapon))
    return out


def _aims(state: GameState, p: Piece, weapon: str) -> list[Fire]:
    desc = describe(state, p)
    token = "JU" if weapon == "JP" else weapon
    out = []
    if weapon == "RL" and p.kind in ("JE", "SU"):
        for target in _rocket_targets(state, p):
            out.append(Fire(token, desc, target=describe(state, target)))
        return out
    if weapon in ("FL", "ST", "CS", "RL", "SL", "TL"):
        for dx, dy in KING_STEPS:
            dr, dc = to_board(p.side, dx, dy)
            if on_board(p.row + dr, p.col + dc):
                out.append(Fire(token, desc, p.row + dr, p.col + dc))
        if weapon in ("SL", "TL"):
            for target in _homing_targets(state, p, weapon):
                out.append(Fire(token, desc, target=describe(state, target)))
        return out
    if weapon == "BI":
        for r, c in _bike_destinations(state, p):
            out.append(Fire(token, desc, r, c))
        return out
    reach = state.options.transport_max_distance
    for r in range(p.row - reach, p.row + reach + 1):
        for c in range(p.col - reach, p.col + reach + 1):
            if not on_board(r, c) or (r, c) == p.square:
                continue
            for orient in trip_shapes(p.square, (r, c)):
                out.append(Fire(token, desc, r, c, orient))
    return out


def _rocket_targets(state: GameState, p: Piece) -> list[Piece]:
    """RUL-17: Ground cells within range holding a visible piece, not the firer's own cell."""
    hidden = hidden_from(state, p.side)
    rng = state.options.restricted_rocket_range
    out = []
    for r in range(p.row - rng, p.row + rng + 1):
        for c in range(p.col - rng, p.col + rng + 1):
            if not on_board(r, c) or (p.level == GROUND and (r, c) == p.square):
                continue
            seen = [s for s in state.at(r, c, GROUND) if s not in hidden and s != p.sid]
            if seen:
                out.append(state.pieces[seen[0]])
    return out


def _homing_targets(state: GameState, p: Piece, weapon: str) -> list[Piece]:
    """A-10, RUL-16: visible enemy pieces at the projectile's level within homing range."""
    level = {"SL": AIR, "TL": SUB}[weapon]
    hidden = hidden_from(state, p.side)
    out = [q for q in state.pieces.values()
           if q.side != p.side and q.level == level and q.sid not in hidden
           and distance(q.square, p.square) <= state.options.homing_range]
    return sorted(out, key=lambda q: q.sid)


def _bike_destinations(state: GameState, p: Piece) -> list[tuple[int, int]]:
    """RUL-30: up to ``bike_distance`` squares along a line, crossed cells clear as seen."""
    hidden = hidden_from(state, p.side)
    out = []
    for dx, dy in KING_STEPS:
        dr, dc = to_board(p.side, dx, dy)
        for n in range(1, state.options.bike_distance + 1):
            r, c = p.row + n * dr, p.col + n * dc
            if not on_board(r, c):
                break
            if can_enter(state, [p], r, c, GROUND, capture=False, hidden=hidden):
                out.append((r, c))
            if any(s not in hidden for s in state.at(r, c, GROUND)):
                break
    return out


def trip_shapes(start: tuple[int, int], dest: tuple[int, int]) -> list[str]:
    """Path marks allowed for a Jump Pack / Scuba destination (RUL-31): "" straight, "<", ">"."""
    dr, dc = dest[0] - start[0], dest[1] - start[1]
    n, m = max(abs(dr), abs(dc)), min(abs(dr), abs(dc))
    if m == 0 or m == n:
        return [""]
    return ["<", ">"]


def trip_path(start: tuple[int, int], dest: tuple[int, int], orient: str) -> tuple[tuple[int, int], ...]:
    """The squares of a trip after the start, destination last (RUL-31 path shapes)."""
    dr, dc = dest[0] - start[0], dest[1] - start[1]
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    n, m = max(abs(dr), abs(dc)), min(abs(dr), abs(dc))
    diag = (sr, sc)
    ortho = (sr, 0) if abs(dr) > abs(dc) else (0, sc)
    if m == 0 or m == n:
        steps = [diag] * n
    else:
        first_ortho = [ortho] * (n - m) + [diag] * m
        first_diag = [diag] * m + [ortho] * (n - m)
        a, b = first_ortho[0], first_ortho[-1]
        cross = a[1] * b[0] - a[0] * b[1]          # x = column (east), y = row (north)
        clockwise = first_ortho if cross < 0 else first_diag
        anticlockwise = first_diag if cross < 0 else first_ortho
        steps = clockwise if orient == ">" else anticlockwise
    out, r, c = [], start[0], start[1]
    for sr_, sc_ in steps:
        r, c = r + sr_, c + sc_
        out.append((r, c))
    return tuple(out)


# -- checking and applying ------------------------------------------------------------------

def check_fire(state: GameState, action: Fire) -> FirePlan:
    """:raises RuleError: the Fire is not legal now (the rule it breaks).

    When several pieces fit the description exactly (docs/rulings.md E-6), the lowest serial
    that may make this Fire makes it.
    """
    first_error: RuleError | None = None
    for p in resolve_all(state, action.piece, state.side_to_move):
        try:
            return _check_fire_by(state, action, p)
        except RuleError as exc:
            first_error = first_error or exc
    assert first_error is not None   # resolve_all raises when nothing matches
    raise first_error


def _check_fire_by(state: GameState, action: Fire, p: Piece) -> FirePlan:
    weapon = _weapon(action.article)
    why = _can_fire(state, p)
    if why:
        raise RuleError(why, "no further Fire is allowed for this piece this turn")
    has = weapon in KINDS[p.kind].inherent or weapon in state.codes(p)
    if not has or (weapon not in WEAPONS and weapon not in TRANSPORTS):
        raise RuleError("01/R4.9", f"{action.piece.kind} has no {action.article} to fire")
    plan = sources(state, p, weapon)
    if plan is None:
        ready = (weapon in KINDS[p.kind].inherent and dict(p.ready).get(weapon, 0) <= state.ply) \
            or any(state.art_code[a] == weapon and state.art_ready.get(a, 0) <= state.ply
                   for a in p.arts)
        if ready:     # a ready source exists, so every one of them has fired this turn
            raise RuleError("RUL-4", f"every ready {action.article} source of this piece has "
                                     "already fired this turn")
        raise RuleError("RUL-6", f"no {action.article} of this piece is ready yet (rate of fire)")
    if weapon in TRANSPORTS:
        why_t = _transport_ok(state, p, weapon)
        if why_t:
            raise RuleError(*why_t)
    if not state.listed(action) and action not in _aims(state, p, weapon):
        rule = "RUL-17" if plan.restricted else FIRE_RULE[weapon]
        if action.target is not None and weapon in ("SL", "TL"):
            rule = "RUL-16"          # homing: a visible enemy at its level within range
        raise RuleError(rule, f"{action.article} cannot be aimed that way from "
                                           f"({p.row},{p.col})")
    return plan


def do_fire(state: GameState, action: Fire, plan: FirePlan) -> None:
    """Carry out a checked Fire; mutates ``state``."""
    p = state.pieces[plan.sid]
    t = state.turn
    state.turn = replace(t, fires=t.fires + 1, fired=t.fired | set(plan.sources),
                         acted=t.acted | {p.sid})
    state.record.fires.append(action)
    if plan.weapon in WEAPONS:
        ready = state.ply + 2 * state.options.rate_of_fire(plan.weapon)    # RUL-6
        if plan.inherent:
            r = dict(p.ready)
            r[plan.weapon] = ready
            p = replace(p, ready=tuple(sorted(r.items())))
            state.put(p)
        for aid in plan.aids:
            state.art_ready[aid] = ready
    _reveal_firer(state, p)
    k = len(plan.sources)
    w = plan.weapon
    if w == "FL":
        _flame(state, p, action, k)
    elif w == "ST":
        _stun_ray(state, p, action, k)
    elif w == "CS":
        _convert(state, p, action, k)
    elif plan.restricted:
        _restricted_rocket(state, p, action, k)
    elif w in LAUNCHED:
        _launch(state, p, action, k)
    elif w == "BI":
        _bike(state, p, action)
    else:
        _take_off(state, p, action, plan)


def _reveal_firer(state: GameState, p: Piece) -> None:
    """RUL-20: a hidden firer is revealed at the moment of firing."""
    o = state.options
    if (stealthy(state, p) and o.reveal_stealth_on_fire) or \
            (submerged(state, p) and o.reveal_submerged_on_fire):
        reveal(state, p.sid)


def _line(p: Piece, action: Fire, length: int) -> list[tuple[int, int, str]]:
    dr, dc = action.row - p.row, action.col - p.col
    cells = []
    for k in range(1, length + 1):
        r, c = p.row + k * dr, p.col + k * dc
        if not on_board(r, c):
            break
        cells.append((r, c, p.level))
    return cells


def _all_in(state: GameState, side: str, cells: list[tuple[int, int, str]]) -> list[int]:
    """Every piece on these cells: the visible ones and the hidden ones the answerer reports."""
    hidden = hidden_from(state, side)
    seen = {s for cell in cells for s in state.at(*cell) if s not in hidden}
    return sorted(seen | set(current_answerer().hidden_on(state, side, cells)))


def _flame(state: GameState, p: Piece, action: Fire, k: int) -> None:
    """RUL-9: every piece on the cells 1..flamer_range, friends included (HQ-5)."""
    cells = _line(p, action, state.options.flamer_range)
    hits = [Hit(s, "FL", k, p.kind) for s in _all_in(state, p.side, cells)]
    resolve_hits(state, p.side, hits)


def _stun_ray(state: GameState, p: Piece, action: Fire, k: int) -> None:
    """RUL-10: the first cell holding any piece, hidden or not (HQ-4)."""
    cells = _line(p, action, state.options.stun_range)
    hidden = hidden_from(state, p.side)
    m = next((i for i, cell in enumerate(cells) if any(s not in hidden for s in state.at(*cell))),
             len(cells))
    i = current_answerer().first_hidden(state, p.side, cells[:m])
    stop = i if i is not None else (m if m < len(cells) else None)
    if stop is None:
        return
    hits = [Hit(s, "ST", k, p.kind) for s in _all_in(state, p.side, [cells[stop]])]
    resolve_hits(state, p.side, hits)


def _convert(state: GameState, p: Piece, action: Fire, k: int) -> None:
    """RUL-13: each enemy piece on the neighbouring cell at the firer's level (HQ-6)."""
    cell = (action.row, action.col, p.level)
    hits = [Hit(s, "CS", k, p.kind) for s in _all_in(state, p.side, [cell])
            if state.pieces[s].side != p.side]
    resolve_hits(state, p.side, hits)


def _restricted_rocket(state: GameState, p: Piece, action: Fire, k: int) -> None:
    """RUL-17: Rocket hits on every piece of the target Ground cell at once (HQ-7)."""
    target = action.target
    assert target is not None   # guaranteed by check_fire: restricted fires always name a target
    cell = (target.row, target.col, GROUND)
    state.record.results.append(Result("R", "v", target.row, target.col))
    hits = [Hit(s, "RL", k, "RK") for s in _all_in(state, p.side, [cell])]
    resolve_hits(state, p.side, hits)


def _launch(state: GameState, p: Piece, action: Fire, k: int) -> None:
    """RUL-15, RUL-16: a directed or homing projectile at the launcher's level."""
    kind = LAUNCHED[_weapon(action.article)]
    if action.target is None:
        dr, dc = action.row - p.row, action.col - p.col
        create(state, kind, p.side, action.row, action.col, dr, dc, k)
        return
    # the first visible enemy in range that the description names, never a friendly or hidden
    # piece of the same description in that cell (RUL-16, A-10; docs/rulings.md E-6)
    target = next(q for q in _homing_targets(state, p, _weapon(action.article))
                  if describe(state, q) == action.target)
    dr = (target.row > p.row) - (target.row < p.row)
    dc = (target.col > p.col) - (target.col < p.col)
    create(state, kind, p.side, p.row + dr, p.col + dc, dr, dc, k, target.sid)


def _bike(state: GameState, p: Piece, action: Fire) -> None:
    """RUL-30: the rider moves at once; a hidden piece on the way makes it crash (HQ-12)."""
    dr = (action.row > p.row) - (action.row < p.row)
    dc = (action.col > p.col) - (action.col < p.col)
    n = max(abs(action.row - p.row), abs(action.col - p.col))
    cells = [(p.row + i * dr, p.col + i * dc, GROUND) for i in range(1, n + 1)]
    t = state.turn
    state.turn = replace(t, transported=t.transported | {p.sid})
    if current_answerer().first_hidden(state, p.side, cells) is not None:
        state.record.results.append(Result(p.kind, "v", p.row, p.col))    # RUL-51 (b)
        return
    track_leave(state, p, cells[-1])
    state.move_piece(p.sid, action.row, action.col, GROUND, origin=False)
    arrival_hits(state, [p.sid])


def _take_off(state: GameState, p: Piece, action: Fire, plan: FirePlan) -> None:
    """RUL-31: rise to the Air (Jump Pack) or dive to the Sub level (Scuba) in place."""
    level = AIR if plan.weapon == "JP" else SUB
    t = state.turn
    state.turn = replace(t, transported=t.transported | {p.sid})
    if not truly_enterable(state, p, (p.row, p.col, level)):
        state.record.results.append(Result(p.kind, "v", p.row, p.col))   # blocked rise
        return
    path = trip_path(p.square, (action.row, action.col), action.orient)
    track_leave(state, p, (p.row, p.col, level))
    state.move_piece(p.sid, p.row, p.col, level, origin=False,
                     trip=(plan.aids[0], level, state.ply, state.turn.fires, path))
    arrival_hits(state, [p.sid])
