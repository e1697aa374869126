"""Jump Pack and Scuba trips under way: the start-phase steps, landings and crashes (RUL-31, RUL-48)."""
from __future__ import annotations

from .actions import GROUND, Result, Transport
from .board_ops import place_articles, remove_piece, truly_enterable
from .descs import describe
from .effects import arrival_hits
from .game_end import check_game_end
from .state import GameState, Piece, replace


def advance_trips(state: GameState) -> None:
    """Start phase: the mover's travellers step, earliest trip first (RUL-1, RUL-48)."""
    side = state.side_to_move
    travellers = sorted((p for p in state.pieces.values() if p.side == side and p.trip),
                        key=lambda p: (p.trip[2], p.trip[3], p.sid))    # type: ignore[index]
    for traveller in travellers:
        for _ in range(state.options.transport_speed):
            p = state.pieces.get(traveller.sid)
            if p is None or p.trip is None or state.result is not None:
                break
            _step(state, p)
            state.turn = replace(state.turn, transported=state.turn.transported | {p.sid})
            if p.sid in state.pieces:
                arrival_hits(state, [p.sid])
            check_game_end(state)


def _step(state: GameState, p: Piece) -> None:
    """One step of one traveller, with its landing or crash: one event (RUL-41)."""
    aid, level, ply, order, path = p.trip  # type: ignore[misc]
    r, c = path[0]
    before = describe(state, p)
    if not truly_enterable(state, p, (r, c, level)):
        _crash(state, p)
        return
    rest = path[1:]
    p = state.move_piece(p.sid, r, c, level, trip=(aid, level, ply, order, rest) if rest else None)
    state.record.transports.append(Transport(before, level, r, c))
    if rest:
        return
    before = describe(state, p)                       # arrived: land or surface now
    if truly_enterable(state, p, (r, c, GROUND)):
        state.move_piece(p.sid, r, c, GROUND, trip=None)
        state.record.transports.append(Transport(before, GROUND, r, c))
    else:                                             # a blocked landing destroys (RUL-48)
        state.record.results.append(Result(p.kind, "*", piece=before, stun=0, colour=p.side))
        remove_piece(state, p)
        place_articles(state, p, p.arts)


def _crash(state: GameState, p: Piece) -> None:
    """RUL-31 crash: the trip ends; come down in place, or be destroyed (RUL-42)."""
    p = state.move_piece(p.sid, p.row, p.col, p.level, trip=None)
    if truly_enterable(state, p, (p.row, p.col, GROUND)):
        state.move_piece(p.sid, p.row, p.col, GROUND)
        state.record.results.append(Result(p.kind, "v", p.row, p.col))
    else:
        state.record.results.append(Result(p.kind, "*", piece=describe(state, p), stun=0,
                                           colour=p.side))
        remove_piece(state, p)
        place_articles(state, p, p.arts)
