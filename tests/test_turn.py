"""The turn and its budget, moving on the board, and the end of the game (01/R2-R9; 02/G11, G12,
G35, G36, D20, D23; RUL-1, RUL-2, RUL-3, RUL-11, RUL-22, RUL-24, RUL-25, RUL-53, A-1, A-13,
A-14, A-28; 00/T1, T6, T7, T30, T31, T33, T38). Firing is Engine II."""
from __future__ import annotations

import pytest

from engine import api
from engine.actions import EndTurn
from engine.errors import GameOverError
from engine_helpers import at, held, legal, moves_of, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _dests(moves: set[str]) -> set[str]:
    """The destination part (level mark and square) of ``MV:`` texts."""
    return {m.rsplit("->", 1)[1] for m in moves}


# -- the turn budget (01/R4, RUL-1, RUL-3) ---------------------------------------------------

def test_end_turn_refused_before_the_move_01_R4_2_R4_1() -> None:
    """01/R4.1-R4.2, RUL-1: End Turn is refused while no Move has been made and one exists; the
    state is unchanged. After the Move, END is offered and passes the turn."""
    s = pos(KINGS)
    refused(s, "END", "01/R4.2")
    assert "END" not in legal(s)
    s = play(s, "MV:K(1,10)->(2,10)")
    assert "END" in legal(s) and s.ply == 1 and s.side_to_move == "B"
    s = play(s, "END")
    assert (s.ply, s.side_to_move, s.history) == (2, "W", ("MV:K(1,10)->(2,10)",))


def test_exactly_one_move_per_turn_01_R4_2_02_G12() -> None:
    """01/R4.2, 02/G12: no second Move; after the Move only END and non-Move actions remain."""
    s = play(pos(KINGS), "MV:K(1,10)->(2,10)")
    refused(s, "MV:K(2,10)->(3,10)", "01/R4.2")
    assert legal(s) == {"END"}


def test_no_legal_move_ends_the_turn_without_one_00_T33_RUL_3() -> None:
    """00/T33, RUL-3, RUL-11, RUL-36: the only Black piece, the King on a1, is stunned (2): END is
    the only action; the line is ``MV:-`` and the counter becomes 1."""
    s = pos("piece B K a1 G stun=2\npiece W K j10 G\n")
    assert api.legal_actions(s) == [EndTurn()]
    s = play(s, "END")
    assert s.history == ("MV:-",)
    assert s.pieces[1].stun == 1 and s.ply == 2


def test_other_actions_allowed_in_a_turn_without_move_RUL_3() -> None:
    """RUL-3: other actions are still allowed in that turn (a stunned King picks up, RUL-11)."""
    s = pos("piece B K a1 G stun=2\npiece W K j10 G\narticle SC a1\n")
    s = play(s, "PU:K(1,1)^SC", "END")
    assert s.history == ("MV:-,PU:K(1,1)^SC",)


def test_stunned_piece_cannot_move_RUL_11_01_R6_9() -> None:
    """RUL-11, 01/R6.9: a stunned piece cannot Move; its counter falls only on its owner's turns."""
    s = pos("piece B K j1 G\npiece B DS e5 G stun=3\npiece W K j10 G\n")
    refused(s, "MV:DS(5,5)->(6,5)", "RUL-11")
    s = play(s, "MV:K(1,10)->(2,10)", "END")
    assert s.pieces[2].stun == 2
    s = play(s, "MV:K(10,10)->(9,10)", "END")
    assert s.pieces[2].stun == 2
    s = play(s, "MV:K(2,10)->(1,10)", "END", "MV:K(9,10)->(10,10)", "END",
             "MV:K(1,10)->(2,10)", "END")
    assert s.pieces[2].stun == 0
    assert "MV:DS(5,5)->(6,5)" in legal(play(s, "MV:K(10,10)->(9,10)", "END"))


def test_at_most_one_pick_up_and_one_drop_01_R4_5() -> None:
    """01/R4.5: at most one Pick-up and one Drop per turn."""
    s = pos(KINGS + "piece B DS e5 G\npiece B AAA e5 G\narticle SC e5\narticle FL e5\n")
    s = play(s, "PU:DS(5,5)^SC")
    refused(s, "PU:AAA(5,5)^FL", "01/R4.5")
    s = play(s, "DR:DS(5,5)1SCvSC")
    refused(s, "DR:AAA(5,5)vFL", "01/R4.5")


def test_at_most_one_reinforce_01_R4_5() -> None:
    """01/R4.5, RUL-34 condition 5: a second Reinforce is refused even with a second square."""
    s = pos("piece B K j1 G\npiece B DO c8 G\npiece B SU c8 G\npiece W K j10 G\n"
            "reinforcement B CL< c8\nreinforcement B SU b8\n")
    s = play(s, "MV:DO(8,3)->(8,2),DO>(8,2)SU(8,3)", "RE:(8,3)CL<")
    assert one(s, "c8", "CL").hand == "<"
    refused(s, "RE:(8,3)CL<", "RUL-34")


def test_actions_in_any_order_recorded_move_first_01_R4_6_04_H3() -> None:
    """01/R4.6, 04/H3, 04/H11: a Pick-up before the Move is allowed; the line writes the Move
    first, each part describing its piece as it was just before that action."""
    s = pos(KINGS + "piece B DS e5 G\narticle SC e5\n")
    s = play(s, "PU:DS(5,5)^SC", "MV:DS(5,5)1SC->(6,5)", "END")
    assert s.history == ("MV:DS(5,5)1SC->(6,5),PU:DS(5,5)^SC",)


def test_illegal_action_leaves_the_state_unchanged_RUL_1() -> None:
    """STYLE/RUL-1: every refusal names a rule and leaves the state hash as it was."""
    s = pos(KINGS + "piece B DS e5 G\n")
    before = api.state_hash(s)
    refused(s, "MV:K(10,10)->(9,10)", "04/H11")          # not the mover's piece (01/R2.3)
    refused(s, "MV:DS(5,5)->(7,5)", "03/M1.4")           # not a destination
    refused(s, "PU:DS(5,5)^SC", "RUL-29")                # nothing to pick up
    assert api.state_hash(s) == before


def test_sides_alternate_black_first_01_R2_3_02_G11() -> None:
    """01/R2.3, 02/G11: Black plays ply 1, White ply 2, Black ply 3; a side cannot move the
    other side's pieces."""
    s = pos(KINGS)
    refused(s, "MV:K(10,10)->(9,10)", "04/H11")
    s = play(s, "MV:K(1,10)->(2,10)", "END")
    refused(s, "MV:K(2,10)->(3,10)", "04/H11")
    s = play(s, "MV:K(10,10)->(9,10)", "END")
    assert (s.ply, s.side_to_move) == (3, "B")


def test_white_may_start_a_position_01_R2_3() -> None:
    """01/R2.3 with an editor position that has White to move: its first ply is even."""
    s = pos("to-move W\n" + KINGS)
    assert (s.ply, s.side_to_move) == (2, "W")


# -- the board and capacity (01/R1, R5, RUL-24) -------------------------------------------------

def test_moves_stay_on_the_board_01_R1_1() -> None:
    """01/R1.1: a King in the corner a1 has exactly 3 Moves."""
    s = pos("piece B K a1 G\npiece W K j10 G\n")
    assert moves_of(s, "K(1,1)") == {"MV:K(1,1)->(2,1)", "MV:K(1,1)->(2,2)", "MV:K(1,1)->(1,2)"}


def test_coexistence_union_00_T30_RUL_24_01_R5_4() -> None:
    """00/T30, RUL-24, 01/R5.4, R6.4: the King may join the Jet on e4 (Jet in the union), not
    the Flamer Pawn on d4 (neither has Coexistence)."""
    s = pos("piece B K e3 G\npiece B JE e4 G\npiece B FP d4 G\npiece W K j10 G\n")
    assert "MV:K(3,5)->(4,5)" in legal(s)
    refused(s, "MV:K(3,5)->(4,4)", "01/R5.4")
    s = play(s, "MV:K(3,5)->(4,5)")
    assert sorted(p.kind for p in at(s, "e4")) == ["JE", "K"]


def test_no_third_piece_on_a_level_00_T30_01_R5_1() -> None:
    """00/T30, 01/R5.1, 01/R5.6: with a second Black piece on e4, King -> e4 is illegal."""
    s = pos("piece B K e3 G\npiece B JE e4 G\npiece B DS e4 G\npiece W K j10 G\n")
    refused(s, "MV:K(3,5)->(4,5)", "01/R5.1")


@pytest.mark.parametrize("coexistence_set, jet_ok, dozer_ok", [
    ("union", True, True), ("overview", False, True), ("glossary", True, False)])
def test_coexistence_sets_RUL_24_01_R5_5_02_G35(coexistence_set: str, jet_ok: bool,
                                               dozer_ok: bool) -> None:
    """RUL-24, 01/R5.5 (overview list has the Bulldozer), 02/G35 (glossary list has the Jet)."""
    s = pos("piece B K e3 G\npiece B JE e4 G\npiece B DO f4 G\npiece W K j10 G\n",
            coexistence_set=coexistence_set)
    assert ("MV:K(3,5)->(4,5)" in legal(s)) == jet_ok
    assert ("MV:K(3,5)->(4,6)" in legal(s)) == dozer_ok


def test_enemies_never_share_a_level_01_R5_3() -> None:
    """01/R5.3: a non-combat piece cannot enter a cell holding an enemy; an enemy may stand on
    another level of the same square (a Black Jet flies over a White piece)."""
    s = pos("piece B K j1 G\npiece B DS e4 G\npiece B JE e5 A\npiece W K j10 G\n"
            "piece W DS e5 G\npiece W CP f5 G\n")
    dests = _dests(moves_of(s, "DS(4,5)"))
    assert "(5,5)" not in dests and "(5,6)" not in dests
    assert dests == {"(3,4)", "(3,5)", "(3,6)", "(4,4)", "(4,6)", "(5,4)"}
    assert "MV:JE^(5,5)->(5,5)" not in legal(s)          # cannot land on the enemy's level


def test_capture_takes_every_enemy_on_that_level_only_01_R6_3_A_28() -> None:
    """01/R6.3, A-28, 03/M0.10: the King takes both White pieces on e5 G; the White Jet in the
    Air over e5 stays."""
    s = pos("piece B K e4 G\npiece W K j10 G\npiece W DS e5 G\npiece W AAA e5 G\n"
            "piece W JE e5 A\n")
    s = play(s, "MV:K(4,5)->(5,5)", "END")
    assert [p.kind for p in at(s, "e5")] == ["K"]
    assert [p.kind for p in at(s, "e5", "A")] == ["JE"]
    assert s.history == ("MV:K(4,5)->(5,5),RS:K*DS(5,5)0W,K*AAA(5,5)0W",)
    assert len(s.pieces) == 3


# -- levels and movement overview (01/R6, R7, R8) -----------------------------------------------

def test_level_change_alone_is_a_move_01_R6_1_02_G8() -> None:
    """01/R6.1, 02/G8, 03/M1.7.2: a Jet on the Ground can only launch; launching is the Move."""
    s = pos(KINGS + "piece B JE e5 G\n")
    assert moves_of(s, "JE(5,5)") == {"MV:JE(5,5)->^(5,5)"}
    s = play(s, "MV:JE(5,5)->^(5,5)")
    assert [p.kind for p in at(s, "e5", "A")] == ["JE"]
    refused(s, "MV:K(1,10)->(2,10)", "01/R4.2")


def test_jet_in_the_air_A_13_01_R6_6() -> None:
    """A-13, 01/R6.6: in the Air a Jet goes 1 or 2 squares along the 8 lines (16 squares) or
    lands where it is; a piece on the intermediate Air cell blocks the 2-square move."""
    s = pos(KINGS + "piece B JE e5 A\n")
    want = {f"({5 + dr * k},{5 + dc * k})" for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) for k in (1, 2)}
    assert _dests(moves_of(s, "JE^(5,5)")) == {"^" + d for d in want} | {"(5,5)"}
    s = pos(KINGS + "piece B JE e5 A\npiece B JE e6 A\n")
    dests = _dests(moves_of(s, "JE^(5,5)"))
    assert "^(7,5)" not in dests                      # 03/M1.7.5: cannot pass through e6 A
    assert "^(6,5)" in dests                          # joining a friendly Jet (RUL-24)


def test_only_jet_chopper_sub_change_level_by_themselves_01_R6_5_02_G9() -> None:
    """01/R6.5, 02/G9: a King never leaves the Ground by its own Move; a Sub dives to the Sub
    level of its own square."""
    s = pos("piece B K e5 G\npiece B SU c3 G\npiece W K j10 G\n")
    assert all("^" not in m and "v" not in m for m in moves_of(s, "K(5,5)"))
    assert "MV:SU(3,3)->v(3,3)" in legal(s)
    assert all("^" not in m for m in moves_of(s, "SU(3,3)"))


def test_sub_at_sub_level_01_R6_8() -> None:
    """01/R6.8, 03/M1.6.1: at the Sub level a Sub moves one square (8) or surfaces in place."""
    s = pos(KINGS + "piece B SU e5 S\n")
    want = {f"v({5 + dr},{5 + dc})" for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)} | {"(5,5)"}
    assert _dests(moves_of(s, "SUv(5,5)")) == want


T6 = "piece B K j1 G\npiece B CH> d1 G\npiece W K j10 G\n"


def test_chopper_must_land_next_turn_00_T6_RUL_22_01_R6_7() -> None:
    """00/T6, RUL-22, 01/R6.7: after d1 -> e3 A, Black's only Moves at ply 3 are Chopper Moves to
    the Ground of c5, f5, g5, c4, g2, c1, d1, g1; END before it is refused."""
    s = play(pos(T6), "MV:CH(1,4)>->^(3,5)", "END", "MV:K(10,10)->(9,10)", "END")
    moves = {m for m in legal(s) if m.startswith("MV:")}
    squares = {"(5,3)", "(5,6)", "(5,7)", "(4,3)", "(2,7)", "(1,3)", "(1,4)", "(1,7)"}
    assert moves == {f"MV:CH^(3,5)>->{sq}" for sq in squares}
    refused(s, "MV:K(1,10)->(1,9)", "RUL-22")
    refused(s, "END", "RUL-44")


def test_chopper_landing_option_off_00_T6_variant() -> None:
    """00/T6 variant: with chopper_must_land_next_turn off the King may move; the Chopper's own
    Moves still end on the Ground."""
    s = play(pos(T6, chopper_must_land_next_turn=False), "MV:CH(1,4)>->^(3,5)", "END",
             "MV:K(10,10)->(9,10)", "END")
    assert "MV:K(1,10)->(1,9)" in legal(s)
    assert all("^" not in d for d in _dests(moves_of(s, "CH^(3,5)>")))


def test_pawn_moves_01_R7_1_R7_3_A_14() -> None:
    """01/R7.1-R7.3, A-14: from its origin a Pawn has 4 diagonal Moves; after leaving it, 2."""
    s = pos(KINGS + "piece B RP e2 G\n")
    assert _dests(moves_of(s, "RP(2,5)")) == {"(3,4)", "(3,6)", "(4,3)", "(4,7)"}
    s = play(s, "MV:RP(2,5)->(3,6)", "END", "MV:K(10,10)->(9,10)", "END")
    assert _dests(moves_of(s, "RP(3,6)")) == {"(4,5)", "(4,7)"}
    s = pos(KINGS + "piece B RP e2 G moved\n")
    assert _dests(moves_of(s, "RP(2,5)")) == {"(3,4)", "(3,6)"}


def test_white_pawn_moves_toward_rank_1_01_R2_4_R7_4() -> None:
    """01/R2.4, R7.4: White's forward is toward row 1."""
    s = pos("to-move W\n" + KINGS + "piece W RP e7 G moved\n")
    assert _dests(moves_of(s, "RP(7,5)")) == {"(6,4)", "(6,6)"}


def test_pawn_moves_and_attacks_00_T7_01_R7_5() -> None:
    """00/T7, 01/R7.5, RUL-27: exactly three Pawn Moves: capture on e3 (front), capture on d2
    (left), and f3 sharing with the Destroyer; not f2 (no enemy), d3 (enemy on a move square),
    c4 or g4 (intermediate squares occupied)."""
    s = pos("""
        piece B K j1 G
        piece B FP e2 G
        piece B DS f3 G
        piece W K j10 G
        piece W RP e3 G
        piece W SP d2 G
        piece W CP d3 G
    """)
    assert _dests(moves_of(s, "FP(2,5)")) == {"(3,5)", "(2,4)", "(3,6)"}
    s = play(s, "MV:FP(2,5)->(2,4)", "END")
    assert s.history == ("MV:FP(2,5)->(2,4),RS:FP*SP(2,4)0W",)


def test_destroyer_does_not_carry_its_pawn_01_R8_4() -> None:
    """01/R8.4: a Destroyer sharing a level with a Pawn moves alone."""
    s = pos(KINGS + "piece B DS d2 G\npiece B CP d2 G\n")
    s = play(s, "MV:DS(2,4)->(3,4)")
    assert [p.kind for p in at(s, "d2")] == ["CP"] and [p.kind for p in at(s, "d3")] == ["DS"]


def test_chopper_carries_and_captures_sub_does_not_00_T31_RUL_25() -> None:
    """00/T31, RUL-25, 02/G35: the Chopper takes the Jet along to e3 and captures the Pawn; the
    Sub cannot move onto b2 (visible enemy) but may dive with the Bulldozer."""
    s = pos("""
        piece B K j1 G
        piece B CH> d1 G
        piece B JE d1 G
        piece B SU b1 G
        piece B DO b1 G
        piece W K j10 G
        piece W RP e3 G
        piece W SP b2 G
    """)
    line = "MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5)"
    assert not any(m.startswith("MV:SU(1,2)->(2,2)") for m in legal(s))
    t = play(s, "MV:SU(1,2)->v(1,2)-TRA->DO(1,2)v(1,2)")
    assert sorted(p.kind for p in at(t, "b1", "S")) == ["DO", "SU"]
    s = play(s, line, "END")
    assert s.history == (line + ",RS:CH*RP(3,5)0W",)
    assert sorted(p.kind for p in at(s, "e3")) == ["CH", "JE"]


def test_stunned_pieces_are_not_carried_or_nudged_00_T38_RUL_11() -> None:
    """00/T38, RUL-11: the Chopper may move but not take the stunned Jet; the Bulldozer cannot
    nudge its stunned Sub but may make a plain Move."""
    s = pos("""
        piece B K j1 G
        piece B CH> d1 G
        piece B JE d1 G stun=2
        piece B DO b1 G
        piece B SU b1 G stun=2
        piece W K j10 G
    """)
    moves = legal(s)
    assert "MV:CH(1,4)>->(3,5)" in moves
    assert not any("-TRA->" in m for m in moves)
    assert not any(",DO>" in m for m in moves)
    assert "MV:DO(1,2)->(2,2)" in moves


def test_primary_may_be_carried_into_the_air_01_R6_10() -> None:
    """01/R6.10, 01/§20 O3: by default a Right Chopper on e5 may lift the King to the Air of f7
    (offset (1,2), 03/M1.10.1); with primary_may_fly_or_dive off it may not."""
    text = "piece B CH> e5 G\npiece B K e5 G\npiece W K j10 G\n"
    lift = "MV:CH(5,5)>->^(7,6)-TRA->K(5,5)^(7,6)"
    assert lift in legal(pos(text))
    s = play(pos(text), lift)
    assert sorted(p.kind for p in at(s, "f7", "A")) == ["CH", "K"]
    assert lift not in legal(pos(text, primary_may_fly_or_dive=False))


def test_nudge_is_the_bulldozers_move_02_G36_D20() -> None:
    """02/G36, 02/D20, RUL-26: in a nudge the Bulldozer makes the Move and the co-located piece
    and a chosen adjacent enemy are in motion; it uses the turn's Move."""
    s = pos(KINGS + "piece B DO e4 G\npiece B DS e4 G\npiece W DS d5 G\n")
    nudge = "MV:DO(4,5)->(5,5),DO>(5,5)DS(4,5),DS(5,4)"
    assert nudge in legal(s)
    s = play(s, nudge)
    assert sorted(p.kind for p in at(s, "e5")) == ["DO", "DS"]
    assert [(p.kind, p.side) for p in at(s, "d6")] == [("DS", "W")]
    refused(s, "MV:K(1,10)->(2,10)", "01/R4.2")
    s = pos(KINGS + "piece B DO e4 G\npiece B DS e4 G\npiece W DS d5 G\n", enemy_nudging=False)
    assert nudge not in legal(s)


# -- government pieces (01/R9) -----------------------------------------------------------------

GOVS = ("monarchy", "dictatorship", "theocracy", "democracy")
TYPES = {"monarchy": ("K", "Q"), "dictatorship": ("DI", "AS"), "theocracy": ("AV", "AC"),
         "democracy": ("PR", "PM")}


@pytest.mark.parametrize("gov", GOVS)
def test_government_pieces_move_alike_01_R9_3_R6_2(gov: str) -> None:
    """01/R9.3, R6.2: every primary type moves like the King (8 steps from e5); every secondary
    type like the Queen: from a1 on an empty board only (3,7) -> d8 and (7,3) -> h4 (03/M1.11.2)."""
    p, q = TYPES[gov]
    s = pos(f"piece B {p} e5 G\npiece B {q} a1 G\npiece W K j10 G\n", gov_black=gov)
    assert _dests(moves_of(s, f"{p}(5,5)")) == {
        f"({5 + dr},{5 + dc})" for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)}
    assert _dests(moves_of(s, f"{q}(1,1)")) == {"(8,4)", "(4,8)"}


def test_losing_the_secondary_piece_does_not_end_the_game_01_R9_4_R3_5() -> None:
    """01/R9.4, R3.5: the Queen is taken and play goes on."""
    s = pos("piece B K e4 G\npiece W K j10 G\npiece W Q e5 G\n")
    s = play(s, "MV:K(4,5)->(5,5)")
    assert s.result is None
    s = play(s, "END")
    assert (s.ply, s.result) == (2, None)


# -- end of the game (01/R3, RUL-2, A-1, RUL-53) -----------------------------------------------

def test_capturing_the_king_wins_at_once_00_T1_RUL_2_01_R3_2() -> None:
    """00/T1, RUL-2, 01/R3.2-R3.4, 02/G11: the Tank a1 -> d8 takes the White King; the game ends
    at once, Black wins, the turn's line is written, and nothing more is allowed."""
    s = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K d8 G\n")
    assert moves_of(s, "TA(1,1)>") == {"MV:TA(1,1)>->(8,4)"}
    s = play(s, "MV:TA(1,1)>->(8,4)")
    assert (s.result, api.outcome(s)) == ("B", "black")
    assert s.history == ("MV:TA(1,1)>->(8,4),RS:TA*K(8,4)0W",)
    assert api.legal_actions(s) == []
    for action in ("END", "MV:K(1,10)->(2,10)"):
        err = refused(s, action, "RUL-2")
        assert isinstance(err, GameOverError)


def test_white_wins_by_capture_RUL_2_01_R3_3() -> None:
    """RUL-2, 01/R3.3: White, the mover, takes the Black King: White wins, Black loses."""
    s = pos("to-move W\npiece B K e5 G\npiece W K e6 G\n")
    s = play(s, "MV:K(6,5)->(5,5)")
    assert (s.result, api.outcome(s)) == ("W", "white")
    refused(s, "END", "RUL-2")


def test_capturing_any_primary_ends_the_game_A_21() -> None:
    """A-21 (editor): with two Black Kings, losing either ends the game."""
    s = pos("to-move W\npiece B K e5 G\npiece B K a1 G\npiece W K e6 G\n")
    assert play(s, "MV:K(6,5)->(5,5)").result == "W"


def test_ply_limit_draw_RUL_53() -> None:
    """RUL-53: with ply_limit 2 the game is drawn at the end of ply 2, and over."""
    s = pos(KINGS, ply_limit=2)
    s = play(s, "MV:K(1,10)->(2,10)", "END")
    assert (s.ply, s.result) == (2, None)
    s = play(s, "MV:K(10,10)->(9,10)", "END")
    assert (s.result, api.outcome(s)) == ("draw", "draw")
    assert s.history == ("MV:K(1,10)->(2,10)", "MV:K(10,10)->(9,10)")
    refused(s, "MV:K(2,10)->(3,10)", "RUL-2")


def test_no_ply_limit_by_default_RUL_53() -> None:
    """RUL-53: the default ply_limit 0 means none."""
    s = pos(KINGS)
    for i in range(3):
        s = play(s, "MV:K(1,10)->(2,10)", "END", "MV:K(10,10)->(9,10)", "END",
                 "MV:K(2,10)->(1,10)", "END", "MV:K(9,10)->(10,10)", "END")
    assert (s.ply, s.result) == (13, None)


def test_held_articles_survive_the_turn_01_R10_1() -> None:
    """01/R10.1: a held article stays with its holder across turns."""
    s = pos(KINGS + "piece B DS e5 G FL\n")
    s = play(s, "MV:DS(5,5)1FL->(6,5)", "END", "MV:K(10,10)->(9,10)", "END")
    assert held(s, one(s, "e6", "DS")) == ["FL"]


def test_no_piece_enters_a_mixed_cell_A_22_RUL_14() -> None:
    """A-22, RUL-14: while d8 G holds a Black Bulldozer and a White Destroyer, no other piece may
    move in: not the Black King (even beside a Coexistence piece), not the White King."""
    s = pos("piece B K d7 G\npiece B DO d8 G\npiece W DS d8 G\npiece W K e9 G\n")
    assert "MV:K(7,4)->(8,4)" not in legal(s)
    s = play(s, "MV:K(7,4)->(7,3)", "END")
    assert "MV:K(9,5)->(8,4)" not in legal(s)


def test_secondary_piece_is_a_combat_mover_A_27() -> None:
    """A-27, 03/M1.11: the Queen on a1 takes a White Destroyer on d8 along the Right Tank path."""
    s = pos("piece B K j1 G\npiece B Q a1 G\npiece W K j10 G\npiece W DS d8 G\n")
    s = play(s, "MV:Q(1,1)->(8,4)", "END")
    assert s.history == ("MV:Q(1,1)->(8,4),RS:Q*DS(8,4)0W",)


def test_every_piece_is_on_exactly_one_cell_01_R1_4() -> None:
    """01/R1.4: after a carry (Chopper + Jet) every piece is on exactly one cell."""
    s = pos("piece B K j1 G\npiece B CH> d1 G\npiece B JE d1 G\npiece W K j10 G\n")
    s = play(s, "MV:CH(1,4)>->^(3,5)-TRA->JE(1,4)^(3,5)")
    cells = s.cells()
    assert sorted(sid for sids in cells.values() for sid in sids) == sorted(s.pieces)
    assert cells[(3, 5, "A")] == (2, 3)
