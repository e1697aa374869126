"""Rockets, SAMs and torpedoes in flight (RUL-15, RUL-16, RUL-46).

Projectiles are public (RUL-50 b). Whether a cell that looks empty holds a hidden piece is
asked of the answerer (HQ-8); a homing projectile's next step towards a hidden target is
asked too (HQ-9).
"""
from __future__ import annotations


from .actions import Result
from .answerer import current_answerer
from .board import on_board
from .effects import Hit, resolve_hits
from .state import GameState, Projectile, replace

WEAPON = {"R": "RL", "S": "SL", "T": "TL"}
KILL = {"R": "RK", "S": "SK", "T": "TK"}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def homing_step(state: GameState, p: Projectile) -> tuple[int, int] | None:
    """One king-step towards the target, or None when the lock is lost (RUL-16)."""
    t = state.pieces.get(p.target)
    if t is None or t.side == p.side or t.level != p.level:
        return None
    return _sign(t.row - p.row), _sign(t.col - p.col)


def create(state: GameState, kind: str, side: str, row: int, col: int, dr: int, dc: int,
           strength: int, target: int = 0) -> Projectile:
    """A new projectile; recorded ``X->(r,c)(dr,dc)``; hits at once if its cell is occupied."""
    proj = Projectile(state.next_pid, kind, side, row, col, dr, dc, strength, target, state.ply)
    state.next_pid += 1
    state.projectiles = state.projectiles + (proj,)
    state.record.results.append(Result(kind, "->", row, col, dr, dc))
    state.touch_projectiles()
    _hit_cells(state, [(row, col, proj.level)])
    return proj


def _occupied(state: GameState, side: str, cell: tuple[int, int, str]) -> bool:
    """A piece in the cell: visible to ``side``, or hidden and reported by the answerer (HQ-8)."""
    from .visibility import hidden_from

    hidden = hidden_from(state, side)
    sids = state.at(*cell)
    if any(s not in hidden for s in sids):
        return True
    return bool(sids) and current_answerer().first_hidden(state, side, [cell]) is not None


def _hit_cells(state: GameState, cells: list[tuple[int, int, str]]) -> None:
    """Joint hits of the projectiles in these cells on the pieces there (RUL-46 c), one event."""
    from .visibility import hidden_from

    hits: list[Hit] = []
    gone: set[int] = set()
    causer = None
    for cell in dict.fromkeys(cells):
        here = [p for p in state.projectiles if (p.row, p.col, p.level) == cell]
        if not here or not _occupied(state, here[0].side, cell):
            continue
        causer = causer or here[0].side
        strength = sum(p.strength for p in here)
        for p in here:
            state.record.results.append(Result(p.kind, "v", p.row, p.col))
            gone.add(p.pid)
        kind = here[0].kind
        visible = [s for s in state.at(*cell) if s not in hidden_from(state, here[0].side)]
        hidden = current_answerer().hidden_on(state, here[0].side, [cell])
        for sid in sorted(set(visible) | set(hidden)):
            hits.append(Hit(sid, WEAPON[kind], strength, KILL[kind], here[0].side))
    if gone:
        state.projectiles = tuple(p for p in state.projectiles if p.pid not in gone)
        state.touch_projectiles()
    if hits and causer is not None:
        resolve_hits(state, causer, hits)


def arrival_hits(state: GameState, sids: list[int]) -> None:
    """Pieces that just arrived in a projectile's cell are hit at once (RUL-15)."""
    cells = []
    for sid in sids:
        p = state.pieces.get(sid)
        if p is not None and any((q.row, q.col, q.level) == p.cell for q in state.projectiles):
            cells.append(p.cell)
    if cells:
        _hit_cells(state, cells)


def step_all(state: GameState) -> None:
    """End phase: every projectile not created this turn advances (RUL-15, RUL-16)."""
    for _ in range(state.options.projectile_speed):
        moving = [p for p in state.projectiles if p.created != state.ply]
        if not moving:
            return
        stepped: list[Projectile] = []
        for p in state.projectiles:
            if p.created == state.ply:
                stepped.append(p)
                continue
            dr, dc, target = p.dr, p.dc, p.target
            if target:
                step = current_answerer().homing_step(state, p)    # HQ-9
                if step is None:
                    target = 0                       # RUL-16: the lock is lost
                else:
                    dr, dc = step
            r, c = p.row + dr, p.col + dc
            if not on_board(r, c):
                continue                             # leaves the board, not written (RUL-36)
            new = replace(p, row=r, col=c, dr=dr, dc=dc, target=target)
            state.record.results.append(Result(p.kind, "->", r, c, dr, dc))
            stepped.append(new)
        state.projectiles = tuple(stepped)
        state.touch_projectiles()
        cells = [(p.row, p.col, p.level) for p in state.projectiles if p.created != state.ply]
        _hit_cells(state, cells)
        if state.turn.lost_primary:
            return
