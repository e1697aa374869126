"""Scenarios of hidden information, transport and reinforcement exactly as 00-rulings.md writes
them: 00/T18, T19, T20, T21, T24, T25, T26, T36, T37, T43, T44.

Pieces are numbered in the order the position lists them (RUL-40); expected values come from
the scenario text and the rulings it cites, not from engine output.
"""
from __future__ import annotations

import pytest

from engine import api
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, one, play, pos, refused

NONE: frozenset[int] = frozenset()


def _kings(state: api.GameState, *plies: str) -> api.GameState:
    """Play harmless King shuffles (j1 <-> i1 for Black, j10 <-> i10 for White), one per ply."""
    for _ in plies:
        side = state.side_to_move
        row = 1 if side == "B" else 10
        king = next(p for p in state.pieces.values() if p.side == side and p.kind == "K")
        dest = 9 if king.col == 10 else 10
        state = play(state, f"MV:K({row},{king.col})->({row},{dest})", "END")
    return state


def _shuffle(state: api.GameState, n: int) -> api.GameState:
    return _kings(state, *(["."] * n))


# -- 00/T18 Homing SAM: kept and lost lock (RUL-15, RUL-16, RUL-20, A-10) ----------------------

T18 = """
piece B K j1 G
piece B AAA e4 G
piece W K j10 G
piece W JE e7 A
"""


def _t18_fired() -> api.GameState:
    s = pos(T18)
    assert hidden_from(s, "W") == {2}                         # the AAA is hidden from White
    s = play(s, "MV:K(1,10)->(1,9)", "FI:SL/AAA(4,5)=>JE^(7,5)")
    return s


def test_t18_homing_sam_created_and_firer_revealed_00_T18_RUL_16_RUL_20() -> None:
    """00/T18 ply 1: the SAM is created at e5 A homing on the Jet; the AAA is visible to White
    until the end of ply 2 (RUL-20) and hidden again at ply 3."""
    s = _t18_fired()
    (sam,) = s.projectiles
    assert (sam.kind, sam.side, sam.row, sam.col, sam.level, sam.target) == ("S", "B", 5, 5, "A", 4)
    assert hidden_from(s, "W") == NONE
    s = play(s, "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:SL/AAA(4,5)=>JE^(7,5),RS:S->(5,5)(1,0)",)
    assert s.ply == 2 and hidden_from(s, "W") == NONE
    s = _shuffle(s, 1)
    assert s.ply == 3 and hidden_from(s, "W") == {2}


def test_t18_case_a_landing_breaks_the_lock_00_T18_A_9() -> None:
    """00/T18 case A: the Jet lands on e7 G at ply 2; the SAM flies north: e6 A (end of ply 2),
    e7 A (3), e8 (4), e9 (5), e10 (6) and leaves the board at the end of ply 7 (not written,
    RUL-36). The Jet is unharmed."""
    s = play(_t18_fired(), "END", "MV:JE^(7,5)->(7,5)", "END")
    assert s.history[1] == "MV:JE^(7,5)->(7,5),RS:S->(6,5)(1,0)"
    assert [(p.row, p.col, p.level, p.target) for p in s.projectiles] == [(6, 5, "A", 0)]
    for ply, row in ((3, 7), (4, 8), (5, 9), (6, 10)):
        s = _shuffle(s, 1)
        assert s.history[ply - 1].endswith(f",RS:S->({row},5)(1,0)")
        assert [(p.row, p.col) for p in s.projectiles] == [(row, 5)]
    s = _shuffle(s, 1)
    assert "RS:" not in s.history[6]
    assert s.projectiles == ()
    jet = one(s, "e7", "JE")
    assert (jet.side, jet.stun) == ("W", 0)


def test_t18_case_b_the_sam_follows_and_destroys_the_jet_00_T18_RUL_16() -> None:
    """00/T18 case B: the Jet moves e7 A -> g7 A at ply 2; the SAM steps to f6 A at the end of
    ply 2 and enters g7 A at the end of ply 3, destroying the Jet (SK)."""
    s = play(_t18_fired(), "END", "MV:JE^(7,5)->^(7,7)", "END")
    assert s.history[1] == "MV:JE^(7,5)->^(7,7),RS:S->(6,6)(1,1)"
    s = _shuffle(s, 1)
    assert s.history[2] == "MV:K(1,9)->(1,10),RS:S->(7,7)(1,1),Sv(7,7),SK*JE^(7,7)0W"
    assert s.projectiles == ()
    assert not any(p.kind == "JE" for p in s.pieces.values())


def test_t18_case_c_target_beyond_homing_range_00_T18_A_10_02_D16() -> None:
    """00/T18 case C, A-10: a Jet on e8 A (distance 4) is not a legal homing target; at e7 A
    (distance 3) it is."""
    far = pos(T18.replace("JE e7 A", "JE e8 A"))
    assert {a for a in legal(far) if "=>" in a} == set()
    refused(far, "FI:SL/AAA(4,5)=>JE^(8,5)", "RUL-16")
    assert {a for a in legal(pos(T18)) if "=>" in a} == {"FI:SL/AAA(4,5)=>JE^(7,5)"}


# -- 00/T19 Torpedo detection; lock through invisibility (RUL-18, RUL-16, A-11) ----------------

T19 = """
piece B K j1 G
piece B DS e4 G
piece W K j10 G
piece W SU e7 S
"""


def test_t19_torpedo_detection_range_00_T19_A_11() -> None:
    """00/T19: the Sub on e7 S is visible to Black (distance 3); on e8 S (distance 4) hidden."""
    assert hidden_from(pos(T19), "B") == NONE
    assert hidden_from(pos(T19.replace("e7 S", "e8 S")), "B") == {4}


def test_t19_lock_holds_through_invisibility_00_T19_RUL_16() -> None:
    """00/T19: the torpedo is created at e5 S (ply 1); the Sub dives away to e8 S at ply 2 and is
    hidden, but the lock stays; the torpedo reaches e6 S (end of ply 2), e7 S (end of ply 3) and
    enters e8 S at the end of ply 4, destroying the Sub (TK)."""
    s = play(pos(T19), "MV:K(1,10)->(1,9)", "FI:TL/DS(4,5)=>SUv(7,5)", "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:TL/DS(4,5)=>SUv(7,5),RS:T->(5,5)(1,0)",)
    s = play(s, "MV:SUv(7,5)->v(8,5)")
    assert hidden_from(s, "B") == {4}
    s = play(s, "END")
    assert s.history[1] == "MV:SUv(7,5)->v(8,5),RS:T->(6,5)(1,0)"
    assert [(p.row, p.col, p.level, p.target) for p in s.projectiles] == [(6, 5, "S", 4)]
    s = _shuffle(s, 1)
    assert s.history[2] == "MV:K(1,9)->(1,10),RS:T->(7,5)(1,0)"
    s = _shuffle(s, 1)
    assert s.history[3] == "MV:K(10,10)->(10,9),RS:T->(8,5)(1,0),Tv(8,5),TK*SUv(8,5)0W"
    assert not any(p.kind == "SU" for p in s.pieces.values()) and s.projectiles == ()


def test_t19_case_surfacing_breaks_the_lock_00_T19_A_9() -> None:
    """00/T19 case: the Sub surfaces to e7 G at ply 2; the lock is lost and the torpedo continues
    north at Sub level (e6, e7, e8, ...) without hitting it."""
    s = play(pos(T19), "MV:K(1,10)->(1,9)", "FI:TL/DS(4,5)=>SUv(7,5)", "END",
             "MV:SUv(7,5)->(7,5)", "END")
    assert [(p.row, p.col, p.level, p.target) for p in s.projectiles] == [(6, 5, "S", 0)]
    s = _shuffle(s, 2)
    assert [(p.row, p.col, p.level) for p in s.projectiles] == [(8, 5, "S")]
    sub = one(s, "e7", "SU")
    assert (sub.side, sub.stun) == ("W", 0)
    assert "v(7,5)" not in s.history[2] and "TK" not in "".join(s.history)


# -- 00/T20 Lock-on at Pick-up (RUL-19, RUL-18, RUL-29) -----------------------------------------

T20 = """
piece B K j1 G
piece B CP b4 G
piece W K j10 G
piece W AAA c9 G
piece W DO d6 G SH
article ASH b4
"""


def test_t20_lock_on_at_pick_up_00_T20_RUL_19() -> None:
    """00/T20: ply 1 the Pawn picks up ASH and locks the Bulldozer (distance 2; AAA at 5): the
    Bulldozer is visible, the AAA stays hidden; ply 2 the Bulldozer moves d6 -> d7 and stays
    visible; ply 3 the Pawn drops ASH on b4: the lock ends, the Bulldozer is hidden again."""
    s = pos(T20)
    assert hidden_from(s, "B") == {4, 5}
    s = play(s, "PU:CP(4,2)^ASH")
    (aid,) = s.pieces[2].arts
    assert s.locks == {("a", aid): 5}
    assert hidden_from(s, "B") == {4}
    s = play(s, "MV:K(1,10)->(1,9)", "END", "MV:DO(6,4)1SH->(7,4)", "END")
    assert (s.pieces[5].row, s.pieces[5].col) == (7, 4)
    assert s.locks == {("a", aid): 5} and hidden_from(s, "B") == {4}
    s = play(s, "DR:CP(4,2)1ASHvASH")
    assert s.locks == {} and hidden_from(s, "B") == {4, 5}
    assert ground(s, "b4") == ["ASH"]


def test_t20_variant_locked_source_and_range_detection_00_T20_RUL_18_02_D14() -> None:
    """00/T20 variant: a Black Stealth Pawn on b8 whose Anti-Stealth is locked on the Bulldozer
    does not see the AAA on c9 (distance 1) unless stealth_range_detection is on."""
    text = T20.replace("piece B CP b4 G", "piece B SHP b8 G") + "lock b8 G d6 G\n"
    assert hidden_from(pos(text), "B") == {4}
    assert hidden_from(pos(text, stealth_range_detection=True), "B") == NONE


# -- 00/T21 Reveal by capture and by firing (RUL-20, A-2, A-3) ----------------------------------

T21 = """
to-move W
piece B K j1 G
piece B RP e5 G
piece W K j10 G
piece W RP e6 G SH
piece W AAA h9 G
"""


def test_t21_reveal_by_capture_and_by_firing_00_T21_RUL_20() -> None:
    """00/T21: at ply 2 the hidden W Pawn [SH] captures on e5 and the hidden AAA fires a directed
    SAM west (created at g9 A); both are visible to Black for the rest of ply 2 and during ply 3,
    and hidden again from ply 4."""
    s = pos(T21)
    assert hidden_from(s, "B") == {4, 5}
    s = play(s, "MV:RP(6,5)1SH->(5,5)")
    assert hidden_from(s, "B") == {5}
    s = play(s, "FI:SL/AAA(9,8)->(9,7)")
    assert hidden_from(s, "B") == NONE
    assert [(p.kind, p.row, p.col, p.level) for p in s.projectiles] == [("S", 9, 7, "A")]
    s = play(s, "END")
    assert s.history == ("MV:RP(6,5)1SH->(5,5),FI1:SL/AAA(9,8)->(9,7),"
                         "RS:RP*RP(5,5)0B,S->(9,7)(0,-1)",)
    assert s.ply == 3 and hidden_from(s, "B") == NONE
    s = play(s, "MV:K(1,10)->(1,9)")
    assert hidden_from(s, "B") == NONE
    s = play(s, "END")
    assert s.ply == 4 and hidden_from(s, "B") == {4, 5}


# -- 00/T24 Bike (RUL-30, RUL-4) ----------------------------------------------------------------

T24 = """
piece B K j1 G
piece B TA> a1 G
piece B SP c3 G BI
piece W K j10 G
piece W RP d3 G
"""


def test_t24_bike_destinations_and_ride_00_T24_RUL_30() -> None:
    """00/T24: after the Tank's Move a1 -> d8 the Pawn's Bike may go to b2, c2, d2, b3, b4, c4, d4
    (d3 holds a visible enemy); d4 puts the Pawn on d4 G at once and counts as one Fire."""
    s = play(pos(T24), "MV:TA(1,1)>->(8,4)")
    bikes = {a for a in legal(s) if a.startswith("FI:BI/")}
    assert bikes == {f"FI:BI/SP(3,3)1BI->{sq}" for sq in
                     ("(2,2)", "(2,3)", "(2,4)", "(3,2)", "(4,2)", "(4,3)", "(4,4)")}
    s = play(s, "FI:BI/SP(3,3)1BI->(4,4)")
    assert [p.kind for p in at(s, "d4")] == ["SP"] and at(s, "c3") == []
    assert held(s, s.pieces[3]) == ["BI"]
    assert s.turn.fires == 1
    s = play(s, "END")
    assert s.history == ("MV:TA(1,1)>->(8,4),FI1:BI/SP(3,3)1BI->(4,4)",)


def test_t24_the_moved_tank_cannot_ride_a_bike_00_T24_01_R15_9() -> None:
    """00/T24, 01/R15.9, RUL-30: the piece that made the turn's Move cannot fire a Bike, and a
    piece that rode a Bike cannot make the turn's Move afterwards."""
    text = T24.replace("piece B TA> a1 G", "piece B TA> a1 G BI")
    s = play(pos(text), "MV:TA(1,1)1BI>->(8,4)")
    assert not any(a.startswith("FI:BI/TA") for a in legal(s))
    refused(s, "FI:BI/TA(8,4)1BI>->(8,5)", "RUL-30")
    s = play(pos(text), "FI:BI/TA(1,1)1BI>->(1,2)")
    assert not any(a.startswith("MV:TA") for a in legal(s))
    refused(s, "MV:TA(1,2)1BI>->(8,5)", "RUL-30")


# -- 00/T25 Jump Pack trip and crashes (RUL-31, RUL-30, RUL-12) ---------------------------------

T25 = """
piece B K j1 G
piece B TA> e3 G JP
piece W K j10 G
"""


def _t25(text: str = T25) -> api.GameState:
    return play(pos(text), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)")


def test_t25_jump_pack_trip_00_T25_RUL_31() -> None:
    """00/T25: the Tank rises to e3 A at the Fire; e4 A at ply 3, e5 A at ply 5, e6 A and the
    landing on e6 G at ply 7 (start phases). It is never the Moved piece at plies 3, 5, 7."""
    s = _t25()
    tank = s.pieces[2]
    assert (tank.row, tank.col, tank.level) == (3, 5, "A")
    assert tank.trip == (1, "A", 1, 1, ((4, 5), (5, 5), (6, 5)))
    s = play(s, "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:JU/TA(3,5)1JP>->(6,5)",)
    s = _shuffle(s, 1)
    for ply, row in ((3, 4), (5, 5)):
        assert s.ply == ply
        assert s.pieces[2].cell == (row, 5, "A")
        assert not any(a.startswith("MV:TA") for a in legal(s))
        s = _shuffle(s, 2)
        assert s.history[ply - 1].endswith(f"-TRA->TA^({row - 1},5)1JP>^({row},5)")
    assert s.ply == 7
    tank = s.pieces[2]
    assert (tank.cell, tank.trip, held(s, tank)) == ((6, 5, "G"), None, ["JP"])
    assert not any(a.startswith("MV:TA") for a in legal(s))
    s = _shuffle(s, 1)
    assert s.history[6] == "MV:K(1,9)->(1,10)-TRA->TA^(5,5)1JP>^(6,5)-TRA->TA^(6,5)1JP>(6,5)"


def test_t25_variant_a_blocked_landing_destroys_00_T25_RUL_48() -> None:
    """00/T25 variant A: a W Pawn on e6 G at the start of ply 7: the landing crashes and the Tank
    is destroyed (RUL-48); its JP goes to the Ground of e6 (RUL-12)."""
    s = play(_t25(T25 + "piece W RP e6 G\n"), "END")
    s = _shuffle(s, 5)
    assert s.ply == 7
    assert not any(p.kind == "TA" for p in s.pieces.values())
    assert ground(s, "e6") == ["JP"]
    s = _shuffle(s, 1)
    assert s.history[6] == "MV:K(1,9)->(1,10)-TRA->TA^(5,5)1JP>^(6,5),RS:TA*TA^(6,5)1JP>0B"


def test_t25_variant_b_crash_comes_down_in_place_00_T25_RUL_31() -> None:
    """00/T25 variant B: a W Jet on e5 A at the start of ply 5: the Tank crashes, comes down on
    e4 G (empty) and still holds its JP."""
    s = play(_t25(T25 + "piece W JE e5 A\n"), "END")
    s = _shuffle(s, 3)
    assert s.ply == 5
    tank = s.pieces[2]
    assert (tank.cell, tank.trip, held(s, tank)) == ((4, 5, "G"), None, ["JP"])
    s = _shuffle(s, 1)
    assert s.history[4] == "MV:K(1,10)->(1,9),RS:TAv(4,5)"


# -- 00/T26 Scuba path shapes and notation (RUL-31, RUL-36) -------------------------------------

T26 = """
piece B K j1 G
piece B DO e3 G SC
piece W K j10 G
"""


def test_t26_scuba_path_shapes_00_T26_RUL_31() -> None:
    """00/T26: to f5 (east 1, north 2) only port and starboard are legal; starboard goes e4 S then
    f5 S, port f4 S then f5 S."""
    s = pos(T26)
    assert {a for a in legal(s) if "->(5,6)" in a} == {"FI:SC/DO(3,5)1SC->(5,6)<",
                                                       "FI:SC/DO(3,5)1SC->(5,6)>"}
    refused(s, "FI:SC/DO(3,5)1SC->(5,6)", "RUL-31")
    star = play(s, "FI:SC/DO(3,5)1SC->(5,6)>")
    port = play(s, "FI:SC/DO(3,5)1SC->(5,6)<")
    assert star.pieces[2].trip[4] == ((4, 5), (5, 6))
    assert port.pieces[2].trip[4] == ((4, 6), (5, 6))


def test_t26_port_trip_and_notation_00_T26_RUL_36() -> None:
    """00/T26 with port: Fire part ``FI1:SC/DO(3,5)1SC->(5,6)<``; e3 S after ply 1, f4 S at ply
    3, f5 S and surfacing to f5 G at ply 5; hidden from White while at Sub level."""
    s = play(pos(T26), "MV:K(1,10)->(1,9)", "FI:SC/DO(3,5)1SC->(5,6)<", "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:SC/DO(3,5)1SC->(5,6)<",)
    assert s.pieces[2].cell == (3, 5, "S") and hidden_from(s, "W") == {2}
    s = _shuffle(s, 1)
    assert s.pieces[2].cell == (4, 6, "S") and hidden_from(s, "W") == {2}
    s = _shuffle(s, 2)
    assert s.pieces[2].cell == (5, 6, "G") and s.pieces[2].trip is None
    assert hidden_from(s, "W") == NONE
    s = _shuffle(s, 1)
    assert s.history[4] == "MV:K(1,10)->(1,9)-TRA->DOv(4,6)1SCv(5,6)-TRA->DOv(5,6)1SC(5,6)"


def test_t26_white_torpedo_launcher_within_3_detects_00_T26_02_D8() -> None:
    """00/T26: a White Destroyer on f7 does not see the diver on e3 S (distance 4) but sees it on
    f4 S (distance 3)."""
    s = play(pos(T26 + "piece W DS f7 G\n"), "MV:K(1,10)->(1,9)", "FI:SC/DO(3,5)1SC->(5,6)<",
             "END")
    assert hidden_from(s, "W") == {2}
    s = _shuffle(s, 1)
    assert s.pieces[2].cell == (4, 6, "S") and hidden_from(s, "W") == NONE


# -- 00/T36 Stealth / submerge dominance (RUL-18) -----------------------------------------------

T36 = """
piece B K j1 G
piece B DS e4 G
piece W K j10 G
piece W SU e6 S SH
"""


@pytest.mark.parametrize("dominance, at_sub, at_ground",
                         [("submerge", NONE, {4}), ("stealth", {4}, {4})])
def test_t36_dominance_00_T36_RUL_18_04_N9(dominance: str, at_sub: frozenset[int],
                                           at_ground: frozenset[int]) -> None:
    """00/T36, 04/N9: the Sub [SH] on e6 S is visible to the Destroyer (distance 2) under
    'submerge', hidden under 'stealth'; surfaced to e6 G it is hidden under either."""
    s = pos(T36, detection_dominance=dominance)
    assert hidden_from(s, "B") == at_sub
    s = play(s, "MV:K(1,10)->(1,9)", "END", "MV:SUv(6,5)1SH->(6,5)")
    assert hidden_from(s, "B") == at_ground


# -- 00/T37 Primary piece and Stealth (RUL-18, RUL-29) ------------------------------------------

T37 = """
piece B K b5 G
piece W K j10 G
article SH b5
"""


def test_t37_primary_pick_up_of_stealth_00_T37_02_D21() -> None:
    """00/T37: the King's Pick-up of SH is illegal by default and legal with
    stealthy_primary_allowed on (and the King is then hidden from White)."""
    s = pos(T37)
    assert "PU:K(5,2)^SH" not in legal(s)
    refused(s, "PU:K(5,2)^SH", "RUL-18")
    s = pos(T37, stealthy_primary_allowed=True)
    assert "PU:K(5,2)^SH" in legal(s)
    s = play(s, "PU:K(5,2)^SH")
    assert held(s, s.pieces[1]) == ["SH"] and hidden_from(s, "W") == {1}


# -- 00/T43 A Reinforce blocked by a hidden piece (RUL-47) --------------------------------------

T43 = """
piece B K j1 G
piece B DO d8 G
piece W AAA d8 G ACS
piece W K j10 G
reinforcement B JE d8
"""


def test_t43_reinforce_fails_on_hidden_occupant_00_T43_RUL_47() -> None:
    """00/T43: after DO d8 -> c8 the Reinforce on d8 is legal from Black's view but fails: no Jet,
    d8 keeps its Jet, the turn's Reinforce is used, the AAA is not revealed; record
    ``MV:DO(8,4)->(8,3),RE:(8,4)JE`` with no result."""
    s = pos(T43)
    assert hidden_from(s, "B") == {3}
    s = play(s, "MV:DO(8,4)->(8,3)")
    assert "RE:(8,4)JE" in legal(s)
    s = play(s, "RE:(8,4)JE")
    assert [p.kind for p in at(s, "d8")] == ["AAA"]
    assert s.reinforcements == {(8, 4): ("B", "JE", "")}
    assert s.turn.reinforced and "RE:(8,4)JE" not in legal(s)
    assert hidden_from(s, "B") == {3} and s.reveals == {}
    s = play(s, "END")
    assert s.history == ("MV:DO(8,4)->(8,3),RE:(8,4)JE",)


# -- 00/T44 Lock tie-break inside one cell (RUL-49, RUL-40) -------------------------------------

def test_t44_lock_tie_break_inside_one_cell_00_T44_RUL_49() -> None:
    """00/T44: AAA and Flamer Pawn [SH] on d6 are both at distance 2 on one cell; the AAA is
    listed first, so it is locked and visible; the Flamer Pawn stays hidden."""
    s = pos("""
        piece B K j1 G
        piece B CP b4 G
        piece W K j10 G
        piece W AAA d6 G
        piece W FP d6 G SH
        article ASH b4
    """)
    assert hidden_from(s, "B") == {4, 5}
    s = play(s, "PU:CP(4,2)^ASH")
    assert s.locks == {("a", s.pieces[2].arts[0]): 4}
    assert hidden_from(s, "B") == {5}
