"""Changes to the board that several rule modules make: taking a piece off (RUL-2), placing
the articles it loses (RUL-12), a watched piece leaving an activation square (RUL-34), and
whether a cell is enterable counting hidden pieces too (HQ-12)."""
from __future__ import annotations

import functools

from .actions import GROUND
from .board import can_enter, to_board
from .pieces import KINDS
from .questions import current_answerer
from .state import GameState, Piece, replace
from .visibility import hidden_from


def remove_piece(state: GameState, victim: Piece) -> None:
    """Take a piece off the board, remembering a fallen primary piece (RUL-2) and ending the
    locks it took part in (RUL-19)."""
    state.remove(victim.sid)
    # RUL-19: the locks it held (inherent source or held article) and the locks on it end now,
    # whatever removes it (a blocked landing or a crash too, which write no step 8 of RUL-41)
    ended = [k for k, t in state.locks.items() if t == victim.sid or k == ("p", victim.sid)
             or (k[0] == "a" and k[1] in victim.arts)]
    for key in ended:
        del state.locks[key]
    if ended:
        state.touch_visibility()      # who sees what may change with the locks
    if KINDS[victim.kind].role == "primary":
        state.turn = replace(state.turn, lost_primary=state.turn.lost_primary | {victim.side})


def placement_order(p: Piece) -> tuple[tuple[int, int], ...]:
    """Squares searched for a lost article: own square, then rings (RUL-12, 04/N8)."""
    return _placement_order(p.side, p.row, p.col)


@functools.lru_cache(maxsize=256)
def _placement_order(side: str, row: int, col: int) -> tuple[tuple[int, int], ...]:
    order = [(row, col)]
    for k in range(1, 10):
        ring = [(dx, k) for dx in range(-k, k + 1)]                  # row k ahead, left to right
        ring += [(-k, dy) for dy in range(k - 1, -k, -1)]             # column k to the left
        ring += [(k, dy) for dy in range(k - 1, -k, -1)]              # column k to the right
        ring += [(dx, -k) for dx in range(-k, k + 1)]                 # row k behind
        for dx, dy in ring:
            dr, dc = to_board(side, dx, dy)
            r, c = row + dr, col + dc
            if 1 <= r <= 10 and 1 <= c <= 10:
                order.append((r, c))
    return tuple(order)


def place_articles(state: GameState, owner: Piece, aids: tuple[int, ...]) -> None:
    """Put articles that left ``owner`` involuntarily on the ground (RUL-12)."""
    for aid in aids:
        for sq in placement_order(owner):
            here = state.ground.get(sq, ())
            if len(here) < 2:
                state.own("ground")[sq] = here + (aid,)
                break
    if aids:
        state.touch_ground()


def track_leave(state: GameState, p: Piece, dest: tuple[int, int, str]) -> None:
    """RUL-34 condition 2 / RUL-47: a watched piece leaves an activation square's Ground."""
    if p.level != GROUND or dest == (p.row, p.col, GROUND):
        return
    for sq, sids in state.turn.watch:
        if sq == p.square and p.sid in sids:
            state.turn = replace(state.turn, vacated=state.turn.vacated | {sq})


def truly_enterable(state: GameState, p: Piece, cell: tuple[int, int, str]) -> bool:
    """Legally enterable counting hidden pieces too, asked of the answerer (HQ-12)."""
    if current_answerer().any_hidden(state, p.side, [cell]):
        return False
    moved = replace(p, row=cell[0], col=cell[1], level=cell[2])
    return can_enter(state, [moved], *cell, capture=False,
                     hidden=hidden_from(state, p.side))
