"""``engine.partial.partial_from_view``: the partial state a player that holds only its view
rebuilds (the computer opponent, issue 11) against ``partial_state`` of the omniscient game
(RUL-18 what a side sees, RUL-50 b what is public): over positions of seeded random games,
for both sides, the two hold the same own pieces in full, the same seen enemy pieces (all but
their serials, which no view carries, RUL-50 b), the same ground articles, projectiles,
reinforcement squares, ply, result and own turn budget, and no hidden enemy piece."""
from __future__ import annotations

import random

from engine import api
from engine.partial import partial_from_view, partial_state
from engine.view import observe
from engine.visibility import hidden_from


def _enemy_pieces(state: api.GameState, side: str) -> list[tuple]:
    return sorted((p.kind, p.side, p.row, p.col, p.level, p.hand, state.codes(p), p.stun, p.ready)
                  for p in state.pieces.values() if p.side != side)


def _ground(state: api.GameState) -> dict:
    return {sq: sorted(state.art_code[a] for a in aids) for sq, aids in state.ground.items() if aids}


def test_partial_from_view_holds_what_partial_state_holds_RUL_18() -> None:
    rng = random.Random(8)
    checked = hidden_seen = 0
    for game in range(6):
        state = api.new_game()
        while state.result is None and len(state.history) < 40:
            for side in ("B", "W"):
                mine = partial_state(state, side)
                built = partial_from_view(observe(state, side))
                own = {s: p for s, p in mine.pieces.items() if p.side == side}
                assert {s: p for s, p in built.pieces.items() if p.side == side} == own
                assert _enemy_pieces(built, side) == _enemy_pieces(mine, side)
                assert _ground(built) == _ground(mine)
                assert built.projectiles == mine.projectiles
                assert built.reinforcements == mine.reinforcements
                assert (built.ply, built.result) == (mine.ply, mine.result)
                for p in own.values():
                    assert [built.art_ready.get(a, 0) for a in p.arts] == \
                        [mine.art_ready.get(a, 0) for a in p.arts]
                if side == state.side_to_move:
                    t, u = built.turn, mine.turn
                    assert (t.moved, t.fires, t.fired, t.picked, t.dropped, t.exchanged,
                            t.reinforced) == (u.moved, u.fires, u.fired, u.picked, u.dropped,
                                              u.exchanged, u.reinforced)
                    assert api.legal_actions(built) == api.legal_actions(state)
                hidden = hidden_from(state, side)
                hidden_seen += bool(hidden)
                assert len(built.pieces) == len(state.pieces) - len(hidden)
                checked += 1
            state = api.apply_action(state, api.random_action(state, rng))
    assert checked > 400 and hidden_seen > 50
