"""Who sees what: hiding reasons, neutralisers, locks and reveals (RUL-18, RUL-19, RUL-20, RUL-49)."""
from __future__ import annotations

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


def hidden_from(state: GameState, viewer: str) -> frozenset[int]:
    """Sids of the enemy pieces ``viewer`` cannot see now (RUL-18)."""
    key = ("hidden", viewer)
    cached = state._cache.get(key)
    if cached is not None:
        return cached
    opts = state.options
    stealth_on, sub_on = opts.stealth_invisibility, opts.submerged_invisibility
    # the enemy pieces with a hiding reason first (stealthy, submerged): most positions have
    # few or none, and then the viewer's detectors need not be gathered at all
    cands = []
    if stealth_on or sub_on:
        code = state.art_code
        primary_ok = opts.stealthy_primary_allowed
        for p in state.pieces.values():
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
    if not cands:
        result: frozenset[int] = frozenset()
        state._cache[key] = result
        return result
    mine = [p for p in state.pieces.values() if p.side == viewer]
    torpedo = _squares_with(state, mine, "TL") if any(c[2] for c in cands) else []
    anti_stealth = _squares_with(state, mine, "ASH") \
        if opts.stealth_range_detection and any(c[1] for c in cands) else []
    locked = _locked_targets(state, viewer) if state.locks else set()
    hidden = set()
    for p, s_reason, u_reason in cands:
        revealed = state.reveals.get(p.sid, 0) >= state.ply
        s_neutral = revealed or p.sid in locked or (
            opts.stealth_range_detection
            and any(distance(sq, p.square) <= opts.stealth_detect_range for sq in anti_stealth))
        u_neutral = revealed or any(
            distance(sq, p.square) <= opts.submerged_detect_range for sq in torpedo)
        if s_reason and u_reason:
            visible = u_neutral if opts.detection_dominance == "submerge" else s_neutral
        elif s_reason:
            visible = s_neutral
        else:
            visible = u_neutral
        if not visible:
            hidden.add(p.sid)
    result = frozenset(hidden)
    state._cache[key] = result
    return result


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

