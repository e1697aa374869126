"""Rule bugs found by the engine review, each pinned by a scenario worked out by hand from
00-rulings.md (the rule id is in each docstring)."""
from __future__ import annotations

from engine_helpers import pos
from fire_helpers import act


def test_homing_target_is_the_enemy_piece_in_a_mixed_cell_RUL_16() -> None:
    """RUL-16, A-10, RUL-14: a homing target is an enemy piece. e5 A is a mixed cell holding a
    Black Jet (serial 3) and a White Jet (serial 5) with the same description `JE^(5,5)`; the
    Black AAA's homing SAM at `JE^(5,5)` locks onto the White Jet, never onto its own Jet."""
    s = pos("piece B K j1 G\npiece B AAA e3 G\npiece B JE e5 A\npiece W K j10 G\n"
            "piece W JE e5 A")
    s = act(s, "FI:SL/AAA(3,5)=>JE^(5,5)")
    (sam,) = s.projectiles
    assert (sam.row, sam.col, sam.dr, sam.dc) == (4, 5, 1, 0)
    assert sam.target == 5 and s.pieces[5].side == "W"
