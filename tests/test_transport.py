"""Moving pieces together, transport articles and reinforcements.

01/R15.1-R15.16, 01/R16.1-R16.6, 01/R20.1 (O2, O9); 02/D10, D20, D22; 04/N10, N11;
00/A-8, A-18, A-19, A-24; RUL-25, RUL-30, RUL-31, RUL-34, RUL-47, RUL-48, RUL-51 (b).
Expected values are derived from the rule texts; pieces are numbered in listed order (RUL-40).
"""
from __future__ import annotations

import pytest

from engine import api
from engine.errors import SaveError
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"
NONE: frozenset[int] = frozenset()


def _fires(state: api.GameState, prefix: str) -> set[str]:
    return {a for a in legal(state) if a.startswith(prefix)}


# -- carried by a Chopper or a Sub (01/R15.1-R15.4, RUL-25) -------------------------------------

def test_chopper_carries_one_passenger_to_its_destination_01_R15_1_RUL_25() -> None:
    """01/R15.1, RUL-25: the Chopper takes the co-located Jet along in its own Move; the Jet ends
    in the Chopper's destination cell, the passenger's ride is written as a Transport part and
    is not the Jet's Move."""
    s = pos(KINGS + "piece B CH> e5 G\npiece B JE e5 G\n")
    assert "MV:CH(5,5)>->^(7,6)-TRA->JE(5,5)^(7,6)" in legal(s)
    s = play(s, "MV:CH(5,5)>->^(7,6)-TRA->JE(5,5)^(7,6)", "END")
    assert [p.kind for p in at(s, "f7", "A")] == ["CH", "JE"]
    assert s.history == ("MV:CH(5,5)>->^(7,6)-TRA->JE(5,5)^(7,6)",)


def test_carried_piece_may_fire_weapons_01_R15_2_RUL_25() -> None:
    """01/R15.2, RUL-25: a Tank carried in the Air fires its Flamer (8 directions); by default it
    may not fire its Jump Pack from the Air (01/R15.3)."""
    s = pos(KINGS + "piece B CH> e5 A\npiece B TA> e5 A JP\n")
    assert len(_fires(s, "FI:FL/TA^(5,5)1JP>")) == 8
    assert _fires(s, "FI:JU/") == set()
    refused(s, "FI:JU/TA^(5,5)1JP>->(5,7)", "RUL-30")


def test_special_forces_jump_pack_from_the_air_01_R15_15_01_S20_O9_A_19_RUL_25() -> None:
    """01/R15.15, O9, A-19, RUL-25: with transport_ground_to_ground_only off, the carried Tank
    fires its Jump Pack from the Air: from e5 with reach 3 that is 24 straight destinations and
    24 off-line ones with 2 path shapes each (72 Fires). It leaves the carrier: the Chopper's
    Moves no longer take it along."""
    s = pos(KINGS + "piece B CH> e5 A\npiece B TA> e5 A JP\n", transport_ground_to_ground_only=False)
    assert len(_fires(s, "FI:JU/TA^(5,5)1JP>")) == 24 + 2 * 24
    s = play(s, "FI:JU/TA^(5,5)1JP>->(8,5)")
    tank = s.pieces[4]
    assert (tank.cell, tank.trip) == ((5, 5, "A"), (1, "A", 1, 1, ((6, 5), (7, 5), (8, 5))))
    chopper_moves = {a for a in legal(s) if a.startswith("MV:CH")}
    assert chopper_moves and not any("-TRA->" in m for m in chopper_moves)


def test_special_forces_levels_jump_pack_air_scuba_sub_RUL_25_01_R15_10() -> None:
    """RUL-25, 01/R15.10: under special forces a Jump Pack fires from Ground or Air and a Scuba
    from Ground or Sub: a passenger at Sub level has Scuba Fires but no Jump Pack Fires, one in
    the Air the reverse."""
    opts = {"transport_ground_to_ground_only": False}
    sub = pos(KINGS + "piece B SU e5 S\npiece B XP e5 S JP SC\n", **opts)
    assert _fires(sub, "FI:JU/") == set() and len(_fires(sub, "FI:SC/XPv(5,5)")) == 72
    air = pos(KINGS + "piece B CH> e5 A\npiece B XP e5 A JP SC\n", **opts)
    assert _fires(air, "FI:SC/") == set() and len(_fires(air, "FI:JU/XP^(5,5)")) == 72


def test_transport_ground_to_ground_by_default_02_D22_01_R15_13() -> None:
    """02/D22, 01/R15.13: by default a Scuba passenger at Sub level cannot start a trip."""
    s = pos(KINGS + "piece B SU e5 S\npiece B XP e5 S JP SC\n")
    assert _fires(s, "FI:SC/") == set() and _fires(s, "FI:JU/") == set()
    refused(s, "FI:SC/XPv(5,5)2JPSC->(5,7)", "RUL-30")


def test_only_a_chopper_captures_sub_passenger_ride_does_not_01_R15_4() -> None:
    """01/R15.4: joint movement captures only when a Chopper moves: a Bike never enters a
    visible enemy's square (it is not offered), and a Jump Pack landing on an enemy does not take
    it: the traveller is destroyed instead (00/T25 variant A)."""
    s = pos(KINGS + "piece B SP c3 G BI\npiece W RP d3 G\n")
    assert "FI:BI/SP(3,3)1BI->(3,4)" not in legal(s)
    refused(s, "FI:BI/SP(3,3)1BI->(3,4)", "RUL-30")


# -- Bulldozer nudge and enemy pieces (01/R15.5-R15.6, 02/D20) -----------------------------------

NUDGE = KINGS + "piece B DO e4 G\npiece B FP e4 G\npiece W RP f4 G\n"


def test_nudge_moves_enemy_pieces_by_default_01_R15_5_02_D20() -> None:
    """01/R15.5, 02/D20: the nudge may push an adjacent enemy piece; west moves the Bulldozer and
    its Pawn to d4 and White's Pawn from f4 to e4, capturing nothing."""
    s = play(pos(NUDGE), "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),RP(4,6)")
    assert [p.kind for p in at(s, "d4")] == ["DO", "FP"]
    assert [(p.kind, p.side) for p in at(s, "e4")] == [("RP", "W")]
    assert len(s.pieces) == 5


def test_enemy_nudging_off_02_D20() -> None:
    """02/D20 option off: no nudge includes the enemy Pawn; the plain co-located nudge stays."""
    s = pos(NUDGE, enemy_nudging=False)
    assert not any("RP(4,6)" in a for a in legal(s))
    assert "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5)" in legal(s)
    refused(s, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),RP(4,6)", "RUL-26")


# -- firing transport articles (01/R15.7-R15.11, RUL-30) ----------------------------------------

def test_move_one_piece_and_bike_another_01_R15_7_R15_9() -> None:
    """01/R15.7, R15.9 (00/T24): the Tank makes the turn's Move and the Bike moves another piece
    in the same turn; both changed square."""
    s = pos(KINGS + "piece B TA> a1 G\npiece B SP c3 G BI\n")
    s = play(s, "MV:TA(1,1)>->(8,4)", "FI:BI/SP(3,3)1BI->(4,3)")
    assert (s.pieces[3].cell, s.pieces[4].cell) == ((8, 4, "G"), (4, 3, "G"))


def test_stunned_piece_cannot_fire_its_transport_01_R15_8_RUL_30() -> None:
    """01/R15.8, RUL-30, RUL-11: a stunned piece may not fire its Bike (stunned pieces may act
    otherwise, but a transport moves the piece)."""
    s = pos(KINGS + "piece B SP c3 G BI stun=2\n")
    assert _fires(s, "FI:BI/") == set()
    refused(s, "FI:BI/SP(3,3)1BI->(4,3)", "RUL-11")


def test_bike_is_one_fire_with_no_rate_of_fire_RUL_30_RUL_4() -> None:
    """RUL-30, RUL-4: a Bike Fire uses one of the two Fires and one source; it has no rate of
    fire: the same Bike rides again on the owner's next turn."""
    s = pos(KINGS + "piece B SP c3 G BI\n")
    s = play(s, "FI:BI/SP(3,3)1BI->(4,3)")
    assert s.turn.fires == 1 and _fires(s, "FI:BI/") == set()
    s = play(s, "MV:K(1,10)->(1,9)", "END", "MV:K(10,10)->(10,9)", "END")
    assert "FI:BI/SP(4,3)1BI->(5,3)" in legal(s)


def test_bike_distance_option_RUL_30() -> None:
    """RUL-30 bike_distance 2: up to 2 squares along the 8 lines from c3, crossed cells clear:
    east is closed by the visible enemy on d3, north by the friendly Pawn on c4 (Pawn + Pawn
    may not share); 12 destinations remain. Default 1: the 6 free neighbours."""
    text = KINGS + "piece B SP c3 G BI\npiece W RP d3 G\npiece B RP c4 G\n"
    want = {"(2,3)", "(1,3)", "(3,2)", "(3,1)", "(4,4)", "(5,5)", "(4,2)", "(5,1)", "(2,4)",
            "(1,5)", "(2,2)", "(1,1)"}
    assert _fires(pos(text, bike_distance=2), "FI:BI/") == {f"FI:BI/SP(3,3)1BI->{sq}"
                                                            for sq in want}
    assert _fires(pos(text), "FI:BI/") == {f"FI:BI/SP(3,3)1BI->{sq}" for sq in
                                           ("(2,3)", "(3,2)", "(4,4)", "(4,2)", "(2,4)", "(2,2)")}


def test_bike_crash_on_a_hidden_enemy_RUL_30_RUL_51_b() -> None:
    """RUL-30, RUL-51 (b): the Bike to d4, where a hidden AAA stands, is offered but crashes: the
    rider stays on c3, the Fire is used, ``SPv(3,3)`` is written and the AAA stays hidden."""
    s = pos(KINGS + "piece B SP c3 G BI\npiece W AAA d4 G\n")
    assert "FI:BI/SP(3,3)1BI->(4,4)" in legal(s)
    s = play(s, "FI:BI/SP(3,3)1BI->(4,4)")
    assert s.pieces[3].cell == (3, 3, "G") and s.turn.fires == 1
    assert hidden_from(s, "B") == {4}
    s = play(s, "MV:K(1,10)->(1,9)", "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:BI/SP(3,3)1BI->(4,4),RS:SPv(3,3)",)


# -- Jump Pack and Scuba trips (01/R15.12-R15.16, RUL-31, RUL-48, 04/N10) -----------------------

TRIP = KINGS + "piece B TA> e3 G JP\n"


def test_trip_destinations_within_transport_max_distance_RUL_31() -> None:
    """RUL-31: destinations within transport_max_distance (3) of e3: rows 1-6, files b-h less the
    start = 41 squares; 21 on the 8 lines (one straight path each), 20 off-line (port and
    starboard each) = 61 Fires. With the option at 1: the 8 neighbours, straight only."""
    assert len(_fires(pos(TRIP), "FI:JU/")) == 21 + 2 * 20
    assert _fires(pos(TRIP, transport_max_distance=1), "FI:JU/") == {
        f"FI:JU/TA(3,5)1JP>->({r},{c})" for r in (2, 3, 4) for c in (4, 5, 6) if (r, c) != (3, 5)}


def test_transport_speed_option_RUL_31() -> None:
    """RUL-31 transport_speed 2: the trip e3 -> e6 takes 2 steps at ply 3 (e4 A, e5 A) and the
    last step and the landing at ply 5."""
    s = play(pos(TRIP, transport_speed=2), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)",
             "END", "MV:K(10,10)->(10,9)", "END")
    assert s.pieces[3].cell == (5, 5, "A")
    s = play(s, "MV:K(1,9)->(1,10)", "END", "MV:K(10,9)->(10,10)", "END")
    assert (s.pieces[3].cell, s.pieces[3].trip) == ((6, 5, "G"), None)


def test_no_check_at_the_fire_first_step_may_crash_04_N10_RUL_31() -> None:
    """04/N10, RUL-31: the Fire is not checked against the path: a Jump Pack towards e5 over a
    visible enemy Jet on e4 A is offered; at ply 3 the first step crashes and the Tank comes down
    on e3 G, keeping its JP."""
    s = pos(TRIP + "piece W JE e4 A\n")
    assert "FI:JU/TA(3,5)1JP>->(5,5)" in legal(s)
    s = play(s, "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(5,5)", "END",
             "MV:K(10,10)->(10,9)", "END")
    tank = s.pieces[3]
    assert (tank.cell, tank.trip, held(s, tank)) == ((3, 5, "G"), None, ["JP"])


def test_blocked_rise_leaves_the_piece_in_place_RUL_31() -> None:
    """RUL-31: a blocked rise (a visible enemy Jet on e3 A) leaves the Tank on e3 G; the Fire is
    used and ``TAv(3,5)`` is written."""
    s = pos(TRIP + "piece W JE e3 A\n")
    s = play(s, "FI:JU/TA(3,5)1JP>->(5,5)")
    assert (s.pieces[3].cell, s.pieces[3].trip, s.turn.fires) == ((3, 5, "G"), None, 1)
    s = play(s, "MV:K(1,10)->(1,9)", "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:JU/TA(3,5)1JP>->(5,5),RS:TAv(3,5)",)


def test_several_travellers_earliest_trip_first_RUL_48_01_R15_14() -> None:
    """01/R15.14, RUL-48: two trips fired in one turn both towards e4. At ply 3 the first-fired
    traveller steps and lands on e4 G first; the second then finds e4 G taken by a friend
    without Coexistence and is destroyed (blocked landing), its JP placed on e4."""
    text = KINGS + "piece B TA> e3 G JP\npiece B FP f3 G JP\n"
    s = play(pos(text), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(4,5)",
             "FI:JU/FP(3,6)1JP->(4,5)", "END", "MV:K(10,10)->(10,9)", "END")
    assert [p.kind for p in at(s, "e4")] == ["TA"] and 4 not in s.pieces
    assert ground(s, "e4") == ["JP"]
    s = play(s, "MV:K(1,9)->(1,10)", "END")
    assert s.history[2] == ("MV:K(1,9)->(1,10)-TRA->TA^(3,5)1JP>^(4,5)-TRA->TA^(4,5)1JP>(4,5)"
                            "-TRA->FP^(3,6)1JP^(4,5),RS:FP*FP^(4,5)1JP0B")
    s = play(pos(text), "MV:K(1,10)->(1,9)", "FI:JU/FP(3,6)1JP->(4,5)",
             "FI:JU/TA(3,5)1JP>->(4,5)", "END", "MV:K(10,10)->(10,9)", "END")
    assert [p.kind for p in at(s, "e4")] == ["FP"] and 3 not in s.pieces


def test_trip_continues_outside_the_budget_01_R15_14_01_R4_7() -> None:
    """01/R15.14: a trip under way takes no Fire: at ply 3 (after the step) both Fires are still
    free, so two new trips may start."""
    text = KINGS + "piece B TA> e3 G JP\npiece B FP f2 G JP\npiece B RP g2 G JP\n"
    s = play(pos(text), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)", "END",
             "MV:K(10,10)->(10,9)", "END")
    assert s.pieces[3].cell == (4, 5, "A") and s.turn.fires == 0
    s = play(s, "FI:JU/FP(2,6)1JP->(4,6)", "FI:JU/RP(2,7)1JP->(4,7)")
    assert [s.pieces[i].level for i in (3, 4, 5)] == ["A", "A", "A"]
    refused(s, "FI:FL/FP^(2,6)1JP->(3,6)", "01/R4.3")


def test_no_move_and_no_pick_up_during_a_trip_RUL_31() -> None:
    """RUL-31: during a trip the piece cannot Move, Pick-up, or Drop/Exchange the article in use;
    it may fire weapons (the Tank's inherent Flamer)."""
    s = play(pos(TRIP + "piece B FP d3 G\n"), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)")
    acts = {a for a in legal(s) if "TA^" in a}
    assert acts and all(a.startswith("FI:FL/TA^(3,5)1JP>") for a in acts)
    refused(s, "DR:TA^(3,5)1JP>vJP", "RUL-29")


def test_trip_rise_counts_as_leaving_for_reinforce_RUL_31_RUL_34() -> None:
    """RUL-31, RUL-34: the Jump Pack rise leaves the Ground of the activation square."""
    s = play(pos(KINGS + "piece B SP d8 G JP\nreinforcement B JE d8\n"), "MV:K(1,10)->(1,9)",
             "FI:JU/SP(8,4)1JP->(8,2)")
    assert "RE:(8,4)JE" in legal(s)
    s = play(s, "RE:(8,4)JE")
    assert one(s, "d8", "JE").side == "B" and one(s, "d8", "SP", "A").trip is not None


def test_stunned_traveller_falls_and_drops_its_articles_A_8_01_R15_16_RUL_12() -> None:
    """A-8, 01/R15.16, RUL-12: the Tank on its trip at e3 A is stunned by White's airborne
    Chopper firing south from e7 A: it drops its JP (to e3 G) and comes down to e3 G, stun 3."""
    s = play(pos(TRIP + "piece W CH> e7 A\n"), "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)",
             "END", "FI:ST/CH^(7,5)>->(6,5)")
    tank = s.pieces[3]
    assert (tank.cell, tank.trip, tank.stun, held(s, tank)) == ((3, 5, "G"), None, 3, [])
    assert ground(s, "e3") == ["JP"]
    assert s.record.results[-2:] == [api.parse_turn("MV:-,RS:CH*TA^(3,5)1JP>3B,TAv(3,5)")
                                     .results[0], api.parse_turn("MV:-,RS:TAv(3,5)").results[0]]


def test_stunned_traveller_that_cannot_come_down_is_destroyed_A_8_RUL_12() -> None:
    """A-8, RUL-12: after the rise Black's Flamer Pawn takes e3 G (d2 -> e3); the stunned Tank
    cannot come down (Tank + Pawn may not share) and is destroyed: ``STK``."""
    s = pos(TRIP + "piece B FP d2 G\npiece W CH> e7 A\n")
    s = play(s, "FI:JU/TA(3,5)1JP>->(6,5)", "MV:FP(2,4)->(3,5)", "END", "FI:ST/CH^(7,5)>->(6,5)")
    assert 3 not in s.pieces
    assert ground(s, "e3") == ["JP"]
    assert s.record.results[-1] == api.parse_turn("MV:-,RS:STK*TA^(3,5)1JP>0B").results[0]


# -- one action per piece (01/R20.1, 01/§20 O2, 02/D23) -----------------------------------------

def test_one_action_per_piece_transport_counts_carrying_does_not_01_R20_1() -> None:
    """01/R20.1 O2: firing one's own transport article counts as the piece's action (the Bike
    rider may not fire again: its Stunner), but being carried is not an action of the passenger
    (the Jet carried by the Chopper may still fire its SAM)."""
    s = play(pos(KINGS + "piece B SP c3 G BI\n", one_action_per_piece=True),
             "FI:BI/SP(3,3)1BI->(4,3)")
    assert _fires(s, "FI:ST/") == set()
    refused(s, "FI:ST/SP(4,3)1BI->(5,3)", "02/D23")
    s = pos(KINGS + "piece B CH> e5 G\npiece B JE e5 G\n", one_action_per_piece=True)
    s = play(s, "MV:CH(5,5)>->^(7,6)-TRA->JE(5,5)^(7,6)")
    assert "FI:SL/JE^(7,6)->(8,6)" in legal(s)


# -- reinforcements (01/R16, 02/D10, 04/N11, A-18, A-24, RUL-33, RUL-34) ------------------------

def test_standard_reinforcements_per_player_01_R16_1_R16_4_R21_3_02_D10() -> None:
    """01/R16.1, R16.4, R21.3, 02/D10: each player has 10 reinforcements: 2 Jets, 2 Subs, its own
    secondary government piece, Bulldozer, Cleric, Tank, AAA, Destroyer (White under
    Dictatorship gets an Assistant, 'AS')."""
    s = api.new_game(api.Options(gov_white="dictatorship"))
    for side, secondary in (("B", "Q"), ("W", "AS")):
        kinds = sorted(k for owner, k, _ in s.reinforcements.values() if owner == side)
        assert kinds == sorted(["JE", "JE", "SU", "SU", secondary, "DO", "CL", "TA", "AAA",
                                "DS"])


def test_activation_squares_in_enemy_territory_01_R16_2_RUL_33() -> None:
    """01/R16.2, RUL-33: Black's activation squares are on rank 8, White's on rank 3 (the
    enemy's half), one per square (04/N11)."""
    s = api.new_game()
    assert {sq for sq, v in s.reinforcements.items() if v[0] == "B"} == {(8, c) for c in
                                                                         range(1, 11)}
    assert {sq for sq, v in s.reinforcements.items() if v[0] == "W"} == {(3, c) for c in
                                                                         range(1, 11)}


@pytest.mark.parametrize("text, acts", [
    ("piece B SP d8 G BI\n", ["MV:K(1,10)->(1,9)", "FI:BI/SP(8,4)1BI->(8,3)"]),
    ("piece B CH> d8 G\npiece B SP d8 G\n", ["MV:CH(8,4)>->(6,3)-TRA->SP(8,4)(6,3)"]),
    ("piece B DO d8 G\npiece B SP d8 G\n", ["MV:DO(8,4)->(7,4),DO>(7,4)SP(8,4)"]),
])
def test_any_way_of_leaving_counts_01_R16_3_RUL_34_A_24(text: str, acts: list[str]) -> None:
    """01/R16.3, RUL-34, A-18, A-24: leaving d8 by Bike, by being carried or by being nudged
    counts; the Jet appears at Ground level on d8 in the same turn, with nothing held."""
    s = play(pos(KINGS + text + "reinforcement B JE d8\n"), *acts)
    assert at(s, "d8") == []
    s = play(s, "RE:(8,4)JE")
    jet = one(s, "d8", "JE")
    assert (jet.side, jet.level, jet.arts, jet.stun) == ("B", "G", (), 0)


def test_reinforcement_may_make_the_turns_move_RUL_34() -> None:
    """RUL-34: the new piece may make the turn's Move if it has not been made (the Bike ride is
    a Fire, so the Move is still open)."""
    s = play(pos(KINGS + "piece B SP d8 G BI\nreinforcement B JE d8\n"), "FI:BI/SP(8,4)1BI->(8,3)",
             "RE:(8,4)JE")
    assert "MV:JE(8,4)->^(8,4)" in legal(s)


def test_reinforcements_enter_empty_handed_01_R16_5_R19_3() -> None:
    """01/R16.5, R19.3: a reinforcement cannot be given articles in a position."""
    with pytest.raises(SaveError, match="line 3"):
        pos(KINGS + "reinforcement B JE d8 FL\n")


def test_own_territory_activation_square_is_an_ordinary_reinforcement_01_R16_6() -> None:
    """01/R16.6: an editor activation square in the owner's own half works the same way."""
    s = play(pos(KINGS + "piece B RP c2 G\nreinforcement B DS c2\n"), "MV:RP(2,3)->(3,4)",
             "RE:(2,3)DS")
    assert one(s, "c2", "DS").side == "B"


def test_handed_reinforcement_alone_on_its_square_04_N11() -> None:
    """04/N11: a handed reinforcement must be the only reinforcement on its square: a position
    with a second reinforcement on the square of a handed one is refused, naming the line."""
    with pytest.raises(SaveError, match=r"line 4: .*N11"):
        pos(KINGS + "reinforcement B TA> a8\nreinforcement B JE a8\n")
    with pytest.raises(SaveError, match=r"line 4: .*N11"):
        pos(KINGS + "reinforcement B JE a8\nreinforcement B CL< a8\n")
