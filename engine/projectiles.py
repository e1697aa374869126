"""Rockets, SAMs and torpedoes in flight (RUL-15, RUL-16, RUL-46).

Projectiles are public (RUL-50 b). A homing projectile's next step towards a hidden target is
asked of the answerer (HQ-9). The hits of projectiles on the pieces in their cells (HQ-8) are
one event like any other: ``engine.effects.hit_cells`` and ``arrival_hits``.
"""
from __future__ import annotations

from .actions import Result
from .board import on_board
from .effects import arrival_hits, hit_cells  # noqa: F401  (arrival_hits: re-exported)
from .questions import current_answerer
from .state import GameState, Projectile, replace


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
    hit_cells(state, [(row, col, proj.level)])
    return proj


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
        hit_cells(state, cells, public=True)     # stepped from public cells (HQ-8, P-12)
        if state.turn.lost_primary:
            return
