"""Who sees what: hiding reasons, neutralisers, locks and reveals (RUL-18, RUL-19, RUL-20, RUL-49)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Mapping

from .actions import SUB
from .board import LEVEL_ORDER, distance
from .pieces import KINDS
from .questions import current_answerer
from .state import GameState, Piece


_SH_KINDS = frozenset(k for k, info in KINDS.items() if "SH" in info.inherent)


def stealthy(state: GameState, p: Piece) -> bool:
    """Hiding reason S: a Stealth ability that has effect (RUL-18; 02/D21 for primary pieces)."""
    if not state.options.stealth_invisibility:
        return False
    if "SH" in KINDS[p.kind].inherent:
        return True
    if "SH" in state.codes(p):
        return KINDS[p.kind].role != "primary" or state.options.stealthy_primary_allowed
    return False


def submerged(state: GameState, p: Piece) -> bool:
    """Hiding reason U (RUL-18)."""
    return p.level == SUB and state.options.submerged_invisibility


def source_side(state: GameState, key: tuple[str, int]) -> str | None:
    """Side owning a lock source: a piece's inherent Anti-Stealth or a held article."""
    kind, ident = key
    if kind == "p":
        p = state.pieces.get(ident)
        return p.side if p else None
    holder = state.holder_of(ident)
    return state.pieces[holder].side if holder is not None else None


def _locked_targets(state: GameState, viewer: str) -> set[int]:
    return {t for k, t in state.locks.items() if source_side(state, k) == viewer}


def _squares_with(state: GameState, pieces: list[Piece], code: str) -> list[tuple[int, int]]:
    """The squares of those ``pieces`` with the ability ``code``, inherent or held (01/R10.5):
    ``has_ability`` for many pieces at once."""
    art = state.art_code
    return [p.square for p in pieces
            if code in KINDS[p.kind].inherent or (p.arts and any(art[a] == code for a in p.arts))]


Square = tuple[int, int]
#: every square of the board (RUL-8 distances are between squares, whatever the level)
SQUARES: tuple[Square, ...] = tuple((r, c) for r in range(1, 11) for c in range(1, 11))


@dataclass(frozen=True)
class Zones:
    """What ``hidden_from`` needs of a viewer to judge the other side's pieces (RUL-18,
    RUL-19; HQ-10): the squares within ``submerged_detect_range`` of its Torpedo Launcher
    holders (``submerged``, neutralises hiding reason U), the squares within
    ``stealth_detect_range`` of its Anti-Stealth holders when ``stealth_range_detection`` is on
    (``stealth``, neutralises S; empty when off) and the serials its sources lock (``locked``,
    neutralises S). Nothing of which piece, what type, or how many detectors."""

    submerged: frozenset[Square]
    stealth: frozenset[Square]
    locked: frozenset[int]


def _reasons(state: GameState, pieces: Iterable[Piece],
             viewer: str | None = None) -> list[tuple[Piece, bool, bool]]:
    """Those ``pieces`` (not ``viewer``'s) with a hiding reason, each with its reasons S and U
    (RUL-18): ``stealthy`` and ``submerged`` for many pieces at once."""
    opts = state.options
    stealth_on, sub_on = opts.stealth_invisibility, opts.submerged_invisibility
    if not (stealth_on or sub_on):
        return []
    code = state.art_code
    primary_ok = opts.stealthy_primary_allowed
    cands = []
    for p in pieces:
        if p.side == viewer:
            continue
        s_reason = False
        if stealth_on:
            if p.kind in _SH_KINDS:
                s_reason = True
            elif p.arts and any(code[a] == "SH" for a in p.arts):
                s_reason = primary_ok or KINDS[p.kind].role != "primary"
        u_reason = sub_on and p.level == SUB
        if s_reason or u_reason:
            cands.append((p, s_reason, u_reason))
    return cands


def _zone(centres: list[Square], r: int, squares: Iterable[Square]) -> frozenset[Square]:
    """Those ``squares`` within ``r`` of one of the ``centres`` (RUL-8 distance)."""
    if not centres:
        return frozenset()
    if squares is SQUARES:   # the whole board: the union of each centre's square of side 2r + 1
        return frozenset((row, col) for cr, cc in centres
                         for row in range(max(1, cr - r), min(10, cr + r) + 1)
                         for col in range(max(1, cc - r), min(10, cc + r) + 1))
    return frozenset(sq for sq in squares if any(distance(c, sq) <= r for c in centres))


def _zones(state: GameState, viewer: str, squares: Iterable[Square] = SQUARES, submerged: bool = True,
           stealth: bool = True) -> tuple[frozenset[Square], frozenset[Square], Collection[int]]:
    """``viewer``'s zones U and S over ``squares`` (all by default) and the serials its sources
    lock (``Zones``' fields); ``submerged`` / ``stealth`` False leaves that zone empty."""
    opts = state.options
    mine = [p for p in state.pieces.values() if p.side == viewer]
    u = _zone(_squares_with(state, mine, "TL"), opts.submerged_detect_range, squares) \
        if submerged else frozenset()
    s = _zone(_squares_with(state, mine, "ASH"), opts.stealth_detect_range, squares) \
        if stealth and opts.stealth_range_detection else frozenset()
    return u, s, _locked_targets(state, viewer) if state.locks else ()


def _hidden(state: GameState, cands: list[tuple[Piece, bool, bool]], submerged: Collection[Square],
            stealth: Collection[Square], locked: Collection[int], reveals: Mapping[int, int]) -> frozenset[int]:
    """Sids of the ``cands`` (``_reasons``) that a viewer with those zones and locks (``Zones``)
    cannot see now, under ``reveals`` (RUL-18: each reason neutralised, or the one
    ``detection_dominance`` names when a piece has both)."""
    ply, submerge_wins = state.ply, state.options.detection_dominance == "submerge"
    hidden = set()
    for p, s_reason, u_reason in cands:
        if reveals.get(p.sid, 0) >= ply:
            continue
        if s_reason and (not u_reason or not submerge_wins):
            visible = p.sid in locked or p.square in stealth
        else:
            visible = p.square in submerged
        if not visible:
            hidden.add(p.sid)
    return frozenset(hidden)


def hidden_from(state: GameState, viewer: str) -> frozenset[int]:
    """Sids of the enemy pieces ``viewer`` cannot see now (RUL-18)."""
    key = ("hidden", viewer)
    cached = state._cache.get(key)
    if cached is not None:
        return cached
    # the enemy pieces with a hiding reason first (stealthy, submerged): most positions have
    # few or none, and then the viewer's detectors need not be gathered at all; the zones
    # are built over those pieces' squares only
    cands = _reasons(state, state.pieces.values(), viewer)
    result: frozenset[int] = frozenset()
    if cands:
        zones = _zones(state, viewer, [c[0].square for c in cands],
                       submerged=any(c[2] for c in cands), stealth=any(c[1] for c in cands))
        result = _hidden(state, cands, *zones, state.reveals)
    state._cache[key] = result
    return result


def detection_zones(state: GameState, viewer: str) -> Zones:
    """The ``Zones`` of ``viewer``'s pieces in ``state`` (its own pieces must all be there)."""
    u, s, locked = _zones(state, viewer)
    return Zones(u, s, frozenset(locked))


def hidden_in_zones(state: GameState, pieces: Iterable[Piece], zones: Zones,
                    reveals: Mapping[int, int] | None = None) -> frozenset[int]:
    """Sids of ``pieces`` (one side's) that a viewer with ``zones`` cannot see now: the same
    judgement as ``hidden_from`` (RUL-18), with the detector ranges given as squares.
    ``reveals`` defaults to ``state.reveals``; ``state`` gives the options, ply and articles."""
    return _hidden(state, _reasons(state, pieces), zones.submerged, zones.stealth, zones.locked,
                   state.reveals if reveals is None else reveals)


def hiding_reasons(state: GameState, p: Piece) -> str:
    """"U", "S", "SU" or "": the hiding reasons a piece has now (RUL-18), before neutralisers."""
    return ("S" if stealthy(state, p) else "") + ("U" if submerged(state, p) else "")


def lock_candidates(state: GameState, side: str, square: tuple[int, int]) -> list[int]:
    """Enemy stealthy pieces hidden from ``side``, in RUL-19/RUL-49 lock order from ``square``."""
    hidden = hidden_from(state, side)
    cands = [state.pieces[s] for s in hidden if stealthy(state, state.pieces[s])]
    cands.sort(key=lambda p: (distance(p.square, square), p.row, p.col,
                              LEVEL_ORDER[p.level], p.sid))
    return [p.sid for p in cands]


def lock_sources(state: GameState, p: Piece) -> list[tuple[str, int]]:
    """Anti-Stealth sources of a piece: inherent first, then articles in acquisition order."""
    keys: list[tuple[str, int]] = []
    if "ASH" in KINDS[p.kind].inherent:
        keys.append(("p", p.sid))
    keys.extend(("a", a) for a in p.arts if state.art_code[a] == "ASH")
    return keys


def attempt_lock(state: GameState, key: tuple[str, int], holder: Piece) -> None:
    """A newly acquired, unlocked Anti-Stealth source tries to lock (RUL-19); mutates ``state``."""
    if not state.options.stealth_lock_on or key in state.locks:
        return
    target = current_answerer().lock_target(state, holder.side, holder.square)
    if target is not None:
        state.locks[key] = target
        state.touch_visibility()


def end_locks(state: GameState) -> None:
    """Drop locks whose target was converted, or whose source left its side (RUL-19).

    A destroyed target's locks end when it is removed (``board_ops.remove_piece``); a target
    the state does not hold is alive but hidden (a partial state, ``engine.partial``)."""
    changed = False
    for key, target in list(state.locks.items()):
        side = source_side(state, key)
        t = state.pieces.get(target)
        if side is None or (t is not None and t.side == side):
            del state.locks[key]
            changed = True
    if changed:
        state.touch_visibility()


def reveal(state: GameState, sid: int) -> None:
    """Make a piece visible to the enemy until the end of the enemy's next turn (RUL-20)."""
    state.reveals[sid] = max(state.reveals.get(sid, 0), state.ply + 1)
    state.touch_visibility()

