"""The search's fast path for Moves (``engine.rules.apply_move_plan``): a plan made for the very
state is applied as ``apply_action`` would apply its Move, and refused where the turn's budget
forbids it."""
from __future__ import annotations

import pytest

from engine import api
from engine.errors import RuleError
from engine.movegen import piece_moves
from engine.rules import apply_move_plan
from engine_helpers import pos

QUEEN_AND_TANK = """
    piece B K a1 G
    piece B Q e3 G
    piece W K j8 G
    piece W TA> h10 G
"""


def _capture_plan(state: api.GameState):  # type: ignore[no-untyped-def]
    queen = next(p for p in state.pieces.values() if p.kind == "Q")
    return next(pl for pl in piece_moves(state, "B", queen, nudges=False)
                if pl.capture and pl.cells[-1][:2] == (10, 8))


def test_a_move_plan_applies_as_its_move_does_03_M0_10() -> None:
    """03/M0.10: the Queen's combat Move onto h10 takes the Tank; applied from its plan the
    resulting state is the one ``apply_action`` gives for the listed Move (same hash)."""
    s = pos(QUEEN_AND_TANK)
    plan = _capture_plan(s)
    listed = next(a for a in api.legal_actions(s)
                  if api.format_action(a) == "MV:Q(3,5)->(10,8)")
    fast = apply_move_plan(s, plan)
    assert api.state_hash(fast) == api.state_hash(api.apply_action(s, listed))
    assert not [p for p in fast.pieces.values() if p.kind == "TA"]


def test_a_move_plan_after_the_turns_move_is_refused_01_R4_2() -> None:
    """01/R4.2: one Move a turn; a plan applied after the turn's Move is refused with that rule
    and the state stays as it was."""
    s = pos(QUEEN_AND_TANK)
    king = next(p for p in s.pieces.values() if p.kind == "K" and p.side == "B")
    moved = apply_move_plan(s, piece_moves(s, "B", king, nudges=False)[0])
    before = api.state_hash(moved)
    queen = next(p for p in moved.pieces.values() if p.kind == "Q")
    plan = piece_moves(moved, "B", queen, nudges=False)[0]
    with pytest.raises(RuleError) as info:
        apply_move_plan(moved, plan)
    assert info.value.rule == "01/R4.2"
    assert api.state_hash(moved) == before
