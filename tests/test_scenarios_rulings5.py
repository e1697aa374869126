"""Edge cases of 00-rulings.md §5.2 (RUL-39 .. RUL-53) that the other tests leave open, played
through the engine's public API (positions, notation, ``apply_action``).

The §5.3 scenarios (T11, T15 corrected; T39-T46) are in test_scenarios_fire.py,
test_scenarios_movement.py and test_scenarios_hidden.py. Pieces and articles are numbered in
the order the position lists them (RUL-40). Expected values come from the ruling texts, worked
out by hand, never from engine output.
"""
from __future__ import annotations

import pytest

from engine import api
from engine.api import EndTurn, RuleError, apply_action
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, one, pos, refused
from fire_helpers import act, add_projectile, last_line, rs, where

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _moves(state, prefix: str = "") -> set[str]:
    return {a for a in legal(state) if a.startswith("MV:" + prefix)}


# -- RUL-42: descents and carriers --------------------------------------------------------------

def test_sub_carrier_destroyed_passenger_comes_up_to_the_ground_RUL_42() -> None:
    """RUL-42 ("From the Sub level that is upward"), RUL-41 steps 4 and 6, RUL-51 (b): a Black
    torpedo created on e5 S hits the White Sub (no Anti-Torpedo: destroyed) and its passenger,
    a Tank [ATL] (1 <= 1: survives). The Tank is off its native level, has lost its carrier and
    comes *up* to e5 G, keeping ATL; the kill is written before the descent ``TAv(5,5)``."""
    s = pos(KINGS + "piece B DS e4 G\npiece W SU e5 S\npiece W TA> e5 S ATL")
    s = act(s, "FI:TL/DS(4,5)->(5,5)")
    assert rs(s) == "T->(5,5)(1,0),Tv(5,5),TK*SUv(5,5)0W,TAv(5,5)"
    assert at(s, "e5", "S") == []
    tank = one(s, "e5", "TA")
    assert (tank.sid, tank.side) == (5, "W") and held(s, tank) == ["ATL"]
    assert s.projectiles == ()


def test_descent_blocked_by_a_piece_hidden_from_its_owner_RUL_42() -> None:
    """RUL-42 ("Every piece counts, hidden ones included"), RUL-12: T39 with a White AAA (inherent
    Stealth, hidden from Black) on d5 G instead of the Rocket Pawn: the Tank cannot come down
    (an enemy holds the cell) and is destroyed; its AFL goes to d5 G."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A AFL stun=2\n"
            "piece W K j10 G\npiece W JE d6 A FL\npiece W AAA d5 G")
    assert 6 in hidden_from(s, "B")
    s = act(s, "FI:FL/JE^(6,4)1FL->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B,TA*TA^(5,4)1AFL>0B"
    assert 2 not in s.pieces and 3 not in s.pieces
    assert [p.kind for p in at(s, "d5")] == ["AAA"] and ground(s, "d5") == ["AFL"]


def test_passenger_destroyed_carrier_unaffected_RUL_42() -> None:
    """RUL-42 ("When the passenger is destroyed: the carrier is unaffected"): a flame on d5 A
    burns the carried Tank (no Anti-Flamer); the Chopper [AFL] survives (1 <= 1) and stays in
    the Air with its AFL, not stunned."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A AFL\npiece B TA> d5 A\n"
            "piece W K j10 G\npiece W JE d6 A FL")
    s = act(s, "FI:FL/JE^(6,4)1FL->(5,4)")
    assert rs(s) == "JE*TA^(5,4)>0B"
    (ch,) = at(s, "d5", "A")
    assert (ch.sid, ch.kind, ch.side, ch.stun) == (2, "CH", "B", 0)
    assert held(s, ch) == ["AFL"] and ground(s, "d5") == []


def test_carrier_converted_native_passenger_forms_a_mixed_cell_RUL_42() -> None:
    """RUL-42 ("A native passenger that does not convert forms a mixed cell with its former
    carrier"), RUL-14, RUL-40 (conversion keeps the serial): the White Conversion hits d5 A;
    the Chopper converts, the Jet [ACS] (1 <= 1) stays Black and is not killed (native in the
    Air). d5 A holds the White Chopper (serial 2) and the Black Jet (serial 3)."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B JE d5 A ACS\n"
            "piece W K j10 G\npiece W JE d6 A CS")
    s = act(s, "FI:CS/JE^(6,4)1CS->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B"
    assert [(p.sid, p.kind, p.side) for p in at(s, "d5", "A")] == [(2, "CH", "W"), (3, "JE", "B")]


def test_carrier_stunned_native_passenger_may_move_away_RUL_42() -> None:
    """RUL-42 ("When the carrier is stunned ... a native passenger may Move away on its own"),
    RUL-10, RUL-22: a White Stunner ray from d7 A stops at d5 A; the Chopper is stunned (3), the
    Jet [AST] is not (1 <= 1). On Black's turn the stunned Chopper has no Move (its obligation
    lapses) and the Jet flies off d5 A."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B JE d5 A AST\n"
            "piece W K j10 G\npiece W JE d7 A ST")
    s = act(s, "FI:ST/JE^(7,4)1ST->(6,4)")
    assert rs(s) == "JE*CH^(5,4)>3B"
    s = act(s, "K", "END")
    assert one(s, "d5", "CH", "A").stun == 3 and one(s, "d5", "JE", "A").stun == 0
    assert _moves(s, "CH") == set()
    assert "MV:JE^(5,4)1AST->^(4,4)" in _moves(s, "JE")
    s = act(s, "MV:JE^(5,4)1AST->^(4,4)")
    assert [p.kind for p in at(s, "d5", "A")] == ["CH"]
    assert [p.kind for p in at(s, "d4", "A")] == ["JE"]


# -- RUL-43: other entries into a mixed cell with a hidden member --------------------------------

def test_nudge_landing_on_a_hidden_mixed_cell_stalls_RUL_43() -> None:
    """RUL-43 ("A nudge landing ... into a mixed cell finds it full. The result is a stall"),
    RUL-45, RUL-51 (b): c5 G holds a Black Destroyer and a White AAA hidden from Black (mixed).
    West with d5 chosen would put the Stunner Pawn beside the Destroyer, legal as Black sees it;
    at execution c5 is full: nothing moves and ``DOv(4,5)`` is written."""
    s = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece B SP d5 G moved\n"
            "piece B DS c5 G\npiece W K j10 G\npiece W AAA c5 G")
    nudge = "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4)"
    assert 7 in hidden_from(s, "B") and nudge in legal(s)
    s = act(s, nudge)
    assert [p.kind for p in at(s, "e4")] == ["DO", "FP"]
    assert [p.kind for p in at(s, "d5")] == ["SP"]
    assert [p.kind for p in at(s, "c5")] == ["DS", "AAA"] and at(s, "d4") == []
    assert s.turn.moved and _moves(s) == set()
    assert 7 in hidden_from(s, "B")
    s = act(s, "END")
    assert s.history == ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RS:DOv(4,5)",)


def test_bike_ride_into_a_hidden_mixed_cell_crashes_RUL_43() -> None:
    """RUL-43 ("A ... Bike ride ... into a mixed cell finds it full. The result is ... a
    crash"), RUL-30, RUL-51 (b): the Bulldozer [BI] rides to e5, where Black sees only its own
    Destroyer (Bulldozer + Destroyer may share); a White AAA hidden from Black is there too. The
    ride crashes: the rider stays on e4, the Fire is used, ``DOv(4,5)`` is written."""
    s = pos(KINGS + "piece B DO e4 G BI\npiece B DS e5 G\npiece W AAA e5 G")
    assert 5 in hidden_from(s, "B")
    assert "FI:BI/DO(4,5)1BI->(5,5)" in legal(s)
    s = act(s, "FI:BI/DO(4,5)1BI->(5,5)")
    assert s.pieces[3].cell == (4, 5, "G") and s.turn.fires == 1
    assert [p.kind for p in at(s, "e5")] == ["DS", "AAA"]
    assert rs(s) == "DOv(4,5)"


# -- RUL-44 (a): when the Chopper obligation is tested ------------------------------------------

def test_obliged_chopper_stunned_during_the_turn_frees_the_move_RUL_44() -> None:
    """RUL-44 (a) ("If at that moment an obliged Chopper that is still ... not stunned has a
    legal Move ... Otherwise any Move is allowed"), RUL-10 (friendly pieces are hit): the
    Chopper on e3 A is obliged, so the King may not move; Black's own Jet [ST] on e1 A stuns it
    (e2 A empty); now the King Move is allowed."""
    s = pos("piece B K j1 G\npiece B CH> e3 A\npiece B JE e1 A ST\npiece W K j10 G")
    refused(s, "MV:K(1,10)->(1,9)", "RUL-22")
    s = act(s, "FI:ST/JE^(1,5)1ST->(2,5)")
    assert rs(s) == "JE*CH^(3,5)>3B"
    assert "MV:K(1,10)->(1,9)" in legal(s) and _moves(s, "CH") == set()
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert s.ply == 2


def test_obligation_tested_at_the_move_not_at_the_start_RUL_44() -> None:
    """RUL-44 (a) ("The obliged Choppers are fixed in the start phase ... 'At least one has a
    legal Move' is tested when the player makes the turn's Move and when the player asks to end
    the turn"), RUL-25, RUL-42: the Chopper [AFL] on e3 A carries a stunned Tank, so at first it
    has no Move and the King may move. Black's Jet [FL] on e2 A burns the Tank (no AFL); the
    Chopper (1 <= 1) survives and now has legal Moves: the King Move and End Turn are refused,
    and a Chopper Move is accepted."""
    s = pos("piece B K j1 G\npiece B CH> e3 A AFL\npiece B TA> e3 A stun=2\n"
            "piece B JE e2 A FL\npiece W K j10 G")
    assert "MV:K(1,10)->(1,9)" in legal(s) and _moves(s, "CH") == set()
    s = act(s, "FI:FL/JE^(2,5)1FL->(3,5)")
    assert rs(s) == "JE*TA^(3,5)>0B"
    assert _moves(s, "CH") != set()
    assert {m for m in _moves(s) if not m.startswith("MV:CH")} == set()
    refused(s, "MV:K(1,10)->(1,9)", "RUL-22")
    with pytest.raises(RuleError) as err:
        apply_action(s, EndTurn())
    assert err.value.rule == "RUL-44"
    s = act(s, "MV:CH^(3,5)1AFL>->(5,6)")
    assert one(s, "f5", "CH").side == "B"


# -- RUL-45: a hidden stunned member -------------------------------------------------------------

def test_nudge_with_a_hidden_stunned_member_stalls_RUL_45() -> None:
    """RUL-45 ("The nudge stalls (RUL-23) if ... a hidden member is stunned"; "A stalled nudge
    moves nothing, causes no hit, reveals nothing, and uses up the Move"), RUL-51 (b): T41 with
    the hidden AAA on f5 stunned. Black's west nudge with f5 is legal from its view and stalls;
    the record keeps the members Black selected and writes ``DOv(4,5)``. A rocket waiting on
    d4 G, where the Bulldozer would have landed (RUL-26: a member landing on a projectile is
    hit), stays untouched."""
    s = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n"
            "piece W FP f5 G moved\npiece W AAA f5 G stun=2")
    add_projectile(s, "R", "W", "d4", 0, -1)
    nudge = "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6)"
    assert hidden_from(s, "B") == {6} and nudge in legal(s)
    s = act(s, nudge)
    assert [p.kind for p in at(s, "e4")] == ["DO", "FP"]
    assert [p.kind for p in at(s, "f5")] == ["FP", "AAA"]
    assert at(s, "d4") == [] and at(s, "e5") == []
    assert hidden_from(s, "B") == {6} and s.reveals == {}
    assert where(s) == [("R", "d4", 0, -1)] and rs(s) == "DOv(4,5)"
    assert s.turn.moved and _moves(s) == set()
    s = act(s, "END")
    assert s.history == ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6),RS:DOv(4,5),"
                         "R->(4,3)(0,-1)",)


# -- RUL-46 (b): projectiles swapping squares ----------------------------------------------------

def test_projectiles_swapping_squares_pass_each_other_RUL_46() -> None:
    """RUL-46 (b) ("Two projectiles that swap squares in one step pass each other"): a Black
    rocket on c4 heading north and a White one on c5 heading south swap squares at the end of
    Black's ply; both stay in play, in creation order."""
    s = pos(KINGS)
    add_projectile(s, "R", "B", "c4", 1, 0)
    add_projectile(s, "R", "W", "c5", -1, 0)
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:R->(5,3)(1,0),R->(4,3)(-1,0)"
    assert where(s) == [("R", "c5", 1, 0), ("R", "c4", -1, 0)]


# -- RUL-47: leaving, and a projectile on Q ------------------------------------------------------

def test_piece_destroyed_on_q_has_not_left_RUL_47() -> None:
    """RUL-47 ("P being captured, destroyed or converted on Q is not leaving"), RUL-34: Black's
    Rocket Pawn stands on d8 (Black's Jet activation square) at the start of the turn; Black's
    own Flamer Pawn burns it there. d8 G is empty, but the Reinforce is illegal."""
    s = pos("piece B K j1 G\npiece B RP d8 G moved\npiece B FP d7 G moved\npiece W K j10 G\n"
            "reinforcement B JE d8")
    s = act(s, "FI:FL/FP(7,4)->(8,4)")
    assert rs(s) == "FP*RP(8,4)0B" and at(s, "d8") == []
    assert "RE:(8,4)JE" not in legal(s)
    with pytest.raises(RuleError) as err:
        act(s, "RE:(8,4)JE")
    assert err.value.rule in ("RUL-34", "RUL-47")


def test_projectile_on_q_does_not_block_the_new_piece_is_hit_RUL_47() -> None:
    """RUL-47 ("A projectile in Q's Ground cell does not block. The new piece is hit on
    appearing"), RUL-15, RUL-40: the King leaves d8; the Rocket Pawn's rocket is created on the
    empty d8 G; the Reinforce is still legal, the Jet (serial 4) appears and is destroyed by the
    rocket at once (no Anti-Rocket); the reinforcement is used."""
    s = pos("piece B K d8 G\npiece B RP d7 G moved\npiece W K j10 G\nreinforcement B JE d8")
    s = act(s, "MV:K(8,4)->(8,3)", "FI:RL/RP(7,4)->(8,4)")
    assert where(s) == [("R", "d8", 1, 0)]
    assert "RE:(8,4)JE" in legal(s)
    new, events = api.apply_action_events(s, api.parse_action("RE:(8,4)JE"))
    assert rs(new) == "R->(8,4)(1,0),Rv(8,4),RK*JE(8,4)0B"
    assert at(new, "d8") == [] and new.projectiles == () and new.reinforcements == {}
    assert [e.sid for e in events if isinstance(e, api.Reinforced)] == [4]


# -- RUL-48: travellers and projectile cells; RUL-41 step 10 in the start phase -------------------

def test_trip_step_into_a_projectile_cell_is_no_crash_the_piece_is_hit_RUL_48() -> None:
    """RUL-48 ("A step ... into a cell that holds only projectiles is not a crash. The piece
    arrives and is hit"), RUL-15, RUL-12: a Black SAM steps e7 A -> e6 A at the end of Black's
    ply (e6 A empty: no hit). In White's start phase the Jump-Pack Tank steps e5 A -> e6 A, is
    hit (no Anti-SAM) and destroyed; its JP is placed on e6 G; the SAM is removed."""
    s = pos("ply 3\n" + KINGS + "piece W TA> e5 A JP trip=JP:A:2:1:e6-e7")
    add_projectile(s, "S", "B", "e7", -1, 0, created=2)
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert s.ply == 4
    assert 3 not in s.pieces and s.projectiles == ()
    assert ground(s, "e6") == ["JP"]
    assert at(s, "e6", "A") == [] and at(s, "e6") == [] and at(s, "e7") == []


def test_game_end_checked_after_each_traveller_step_RUL_41() -> None:
    """RUL-41 step 10 ("In the start phase, the check follows each traveller's step"), RUL-48,
    RUL-31, RUL-2: White's King on a Jump Pack trip (first Fire) lands on e6, blocked by a Black
    Pawn: it cannot come down and is destroyed, so White (the mover) loses at once. The Tank's
    trip (a later Fire) never takes its step."""
    s = pos("ply 3\npiece B K j1 G\npiece B RP e6 G moved\npiece W K e5 A JP trip=JP:A:2:1:e6\n"
            "piece W TA> c6 A JP trip=JP:A:2:2:c7")
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert s.result == "B" and api.outcome(s) == "black"
    assert 3 not in s.pieces
    assert s.pieces[4].cell == (6, 3, "A") and s.pieces[4].trip is not None


# -- RUL-49: several sources of one holder -------------------------------------------------------

def test_articles_of_one_holder_lock_in_acquisition_order_RUL_49() -> None:
    """RUL-49 ("for each holder, the inherent source first, then its articles in acquisition
    order"; "two sources never lock the same piece"), RUL-19: converting a White XXX Pawn [ASH
    ASH] on e5 gives Black two article sources at once. The first-acquired article (id 1) locks
    the nearest hidden piece (AAA e7, distance 2), the second (id 2) the next (AAA a5,
    distance 4)."""
    s = pos(KINGS + "piece B CP e4 G\npiece W XP e5 G ASH ASH\npiece W AAA e7 G\n"
            "piece W AAA a5 G")
    assert s.pieces[4].arts == (1, 2) and hidden_from(s, "B") == {5, 6}
    s = act(s, "FI:CS/CP(4,5)->(5,5)")
    assert s.pieces[4].side == "B"
    assert s.locks == {("a", 1): 5, ("a", 2): 6}
    assert hidden_from(s, "B") == frozenset()


# -- RUL-41 step 8: a lock ends when its source is dropped --------------------------------------

def test_lock_ends_when_its_source_article_is_dropped_RUL_41() -> None:
    """RUL-41 step 8 ("End the locks whose target or source was ... dropped"), RUL-19: the
    Conversion Pawn's ASH on b4 locks the Bulldozer [SH] on d6; Black drops the ASH: the lock
    ends and the Bulldozer is hidden again."""
    s = pos(KINGS + "piece B CP b4 G ASH\npiece W DO d6 G SH\nlock b4 G ASH d6 G")
    assert s.locks == {("a", 1): 4} and hidden_from(s, "B") == frozenset()
    s = act(s, "DR:CP(4,2)1ASHvASH")
    assert s.locks == {} and hidden_from(s, "B") == {4}
    assert ground(s, "b4") == ["ASH"]


# -- RUL-52: homing group Fire -------------------------------------------------------------------

def test_homing_group_fire_makes_one_projectile_with_one_target_RUL_52() -> None:
    """RUL-52 ("A homing group Fire makes one projectile with one target"), RUL-5: the AAA's
    inherent SAM and its SL article fire together, homing on the White Jet on g6 A: one SAM of
    strength 2, targeting the Jet (serial 4), created one king-step towards it (f5 A)."""
    s = pos(KINGS + "piece B AAA e4 G SL\npiece W JE g6 A")
    s = act(s, "FI:SL/AAA(4,5)1SL=>JE^(6,7)")
    (proj,) = s.projectiles
    assert (proj.kind, proj.side, proj.strength, proj.target) == ("S", "B", 2, 4)
    assert (proj.row, proj.col) == (5, 6)
    assert rs(s) == "S->(5,6)(1,1)"


# -- RUL-41 steps 5 and 6: articles of the destroyed first, then those of a failed descent -----

def test_failed_descent_places_its_articles_after_step_5_RUL_41() -> None:
    """RUL-41 step 5 (articles of the pieces destroyed in steps 1-4) before step 6 ("A piece
    that cannot come down is destroyed and its articles are placed at once"), RUL-12: T39's
    variant with the Chopper holding ARL and an SC already lying on d5 G. The Chopper's ARL is
    placed first and fills d5 (2 articles); the Tank, unable to come down (W Rocket Pawn on d5
    G), is destroyed next, and its AFL goes to c6, the first square of Black's ring 1 (the row
    ahead, from Black's left)."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A ARL\npiece B TA> d5 A AFL stun=2\n"
            "piece W K j10 G\npiece W JE d6 A FL\npiece W RP d5 G\narticle SC d5")
    s = act(s, "FI:FL/JE^(6,4)1FL->(5,4)")
    assert rs(s) == "JE*CH^(5,4)1ARL>0B,TA*TA^(5,4)1AFL>0B"
    assert ground(s, "d5") == ["SC", "ARL"] and ground(s, "c6") == ["AFL"]


# -- RUL-40: a reinforcement takes the next unused serial -------------------------------------

def test_reinforcement_takes_the_next_unused_serial_RUL_40() -> None:
    """RUL-40 ("A reinforcement receives the next unused number when it appears"): pieces 1-4
    are listed; Black's Flamer Pawn destroys White's Rocket Pawn (serial 4) before the
    Reinforce, so serial 4 is no longer on the board, but it has been used: the Jet is 5."""
    s = pos("piece B K d8 G\npiece B FP c7 G moved\npiece W K j10 G\npiece W RP c8 G moved\n"
            "reinforcement B JE d8")
    s = act(s, "MV:K(8,4)->(9,4)", "FI:FL/FP(7,3)->(8,3)")
    assert rs(s) == "FP*RP(8,3)0W" and sorted(s.pieces) == [1, 2, 3]
    s = act(s, "RE:(8,4)JE")
    jet = one(s, "d8", "JE")
    assert (jet.sid, jet.side) == (5, "B")


# -- RUL-51 (a): who caused a descent or a crash ---------------------------------------------

def test_fall_after_a_fire_is_caused_by_the_firer_RUL_51() -> None:
    """RUL-51 (a) ("descents ... are caused by the side that caused the event which set off the
    chain"): in T39's variant the Tank that cannot come down is destroyed by falling, caused by
    White, whose Fire destroyed its carrier."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A AFL stun=2\n"
            "piece W K j10 G\npiece W JE d6 A FL\npiece W RP d5 G")
    _, events = api.apply_action_events(s, api.parse_action("FI:FL/JE^(6,4)1FL->(5,4)"))
    gone = {e.sid: (e.reason, e.cause) for e in events if isinstance(e, api.Destroyed)}
    assert gone == {2: ("flame", "W"), 3: ("fall", "W")}


def test_start_phase_crash_is_caused_by_no_side_RUL_51() -> None:
    """RUL-51 (a) ("a crash in the start phase is caused by no side"), RUL-48 (blocked landing
    destroys the traveller): White's Jump-Pack Tank lands on e6 in White's start phase, where a
    Black Pawn stands; it is destroyed by the fall, and no side caused it."""
    s = pos("ply 3\n" + KINGS + "piece B RP e6 G moved\npiece W TA> e5 A JP trip=JP:A:2:1:e6")
    s = act(s, "MV:K(1,10)->(1,9)")
    new, events = api.apply_action_events(s, EndTurn())
    assert 4 not in new.pieces and new.ply == 4 and ground(new, "e6") == ["JP"]
    gone = [(e.sid, e.reason, e.cause) for e in events if isinstance(e, api.Destroyed)]
    assert gone == [(4, "fall", "")]


# -- RUL-52 / RUL-17: a Jet's Rocket Launcher article after its inherent source has fired ------

def test_jet_rocket_article_alone_is_still_a_restricted_rocket_RUL_52() -> None:
    """RUL-52 (the inherent rocket joins only "if it is ready and has not fired"), RUL-17
    ("Every rocket Fire by a Jet or a Sub is a restricted-rocket Fire"), RUL-4: the Jet fires its
    inherent SAM; its held RL article (a separate source) may still fire, alone (strength 1),
    and it is a restricted rocket: the Destroyer below (no Anti-Rocket) is hit at once and no
    rocket is left travelling."""
    s = pos(KINGS + "piece B JE e5 A RL\npiece W DS e5 G")
    s = act(s, "FI:SL/JE^(5,5)1RL->(6,5)")
    assert [(p.kind, p.strength) for p in s.projectiles] == [("S", 1)]
    assert "FI:RL/JE^(5,5)1RL=>DS(5,5)" in legal(s)
    s = act(s, "FI:RL/JE^(5,5)1RL=>DS(5,5)")
    assert rs(s) == "S->(6,5)(1,0),Rv(5,5),RK*DS(5,5)0W"
    assert at(s, "e5") == [] and [p.kind for p in s.projectiles] == ["S"]


# -- RUL-44 (a): a Chopper converted during the turn is not obliged in it ---------------------

def test_chopper_converted_in_the_air_is_obliged_only_from_next_turn_RUL_44() -> None:
    """RUL-44 (a) ("The obliged Choppers are fixed in the start phase: the mover's Choppers that
    are in the Air at that moment"), RUL-22: Black's Jet [CS] converts the White Chopper on e5
    A. It was not Black's at Black's start phase, so the King may still make the Move; at
    Black's next turn it is in the Air at the start and obliged."""
    s = pos(KINGS + "piece B JE e4 A CS\npiece W CH< e5 A")
    s = act(s, "FI:CS/JE^(4,5)1CS->(5,5)")
    assert rs(s) == "JE*CH^(5,5)<0W" and one(s, "e5", "CH", "A").side == "B"
    assert "MV:K(1,10)->(1,9)" in legal(s)
    s = act(s, "MV:K(1,10)->(1,9)", "END", "MV:K(10,10)->(10,9)", "END")
    assert s.ply == 3
    refused(s, "MV:K(1,9)->(1,10)", "RUL-22")
    assert _moves(s, "CH") != set() and _moves(s) == _moves(s, "CH")


# -- RUL-50 (b): countdowns of visible pieces and projectiles are public -----------------------

def test_countdowns_and_projectiles_are_public_RUL_50() -> None:
    """RUL-50 (b) ("every projectile (cell, level, type and last step)"; "the stun counters and
    rate-of-fire countdowns of visible pieces"), RUL-6: White's Rocket Pawn fires south at ply 2
    (ready again from ply 10); Black's view shows that countdown and the rocket on e6 G with its
    step (-1, 0)."""
    s = pos("to-move W\n" + KINGS + "piece W RP e7 G moved")
    s = act(s, "FI:RL/RP(7,5)->(6,5)")
    view = api.observe(s, "B")
    (rp,) = [p for p in view.seen if p.kind == "RP"]
    assert dict(rp.ready) == {"RL": 10}
    assert [(p.kind, p.side, p.row, p.col, p.level, p.dr, p.dc) for p in view.projectiles] == \
        [("R", "W", 6, 5, "G", -1, 0)]


# -- RUL-43 with a non-combat mover; RUL-43 / RUL-48 landings ---------------------------------

def test_jet_into_a_mixed_cell_with_a_hidden_member_takes_it_RUL_43() -> None:
    """RUL-43 ("Move generation offers it ... the mover stops there and takes every enemy piece
    in the cell"), RUL-23 (stop-and-take for every Move, combat or not): e5 A holds a Black Jet
    and a White Jet [SH] hidden from Black. Black's Jet e3 A -> e5 A (Jet + Jet may share) is
    offered and takes the hidden Jet; SH goes to e5 G; e5 A holds the two Black Jets."""
    s = pos(KINGS + "piece B JE e3 A\npiece B JE e5 A\npiece W JE e5 A SH")
    assert 5 in hidden_from(s, "B")
    assert "MV:JE^(3,5)->^(5,5)" in legal(s)
    s = act(s, "MV:JE^(3,5)->^(5,5)")
    assert rs(s) == "JE*JE^(5,5)1SH0W"
    assert [(p.sid, p.side) for p in at(s, "e5", "A")] == [(3, "B"), (4, "B")]
    assert ground(s, "e5") == ["SH"]


def test_landing_into_a_hidden_mixed_cell_destroys_the_traveller_RUL_43() -> None:
    """RUL-43 ("A ... landing ... into a mixed cell finds it full. The result is ... a crash"),
    RUL-48 ("A blocked landing destroys the traveller"), RUL-31: White's Jump-Pack Tank lands on
    e6, where White sees only its own Destroyer (Tank + Destroyer may share) but a Black AAA
    hidden from White stands too. The landing is blocked: the Tank is destroyed and its JP is
    placed on e6's Ground."""
    s = pos("ply 3\n" + KINGS + "piece W TA> e5 A JP trip=JP:A:2:1:e6\npiece W DS e6 G\n"
            "piece B AAA e6 G")
    assert 5 in hidden_from(s, "W")
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert s.ply == 4 and 3 not in s.pieces
    assert [p.kind for p in at(s, "e6")] == ["DS", "AAA"] and ground(s, "e6") == ["JP"]


def test_landing_on_a_projectile_cell_is_no_crash_the_piece_is_hit_RUL_48() -> None:
    """RUL-48 ("A ... landing into a cell that holds only projectiles is not a crash. The piece
    arrives and is hit"), RUL-15: a Black rocket steps e7 -> e6 G at the end of Black's ply
    (e6 empty). White's Jump-Pack Tank lands on e6 G in its start phase, is hit (no Anti-Rocket)
    and destroyed; JP goes to e6 G; the rocket is removed."""
    s = pos("ply 3\n" + KINGS + "piece W TA> e5 A JP trip=JP:A:2:1:e6")
    add_projectile(s, "R", "B", "e7", -1, 0, created=2)
    s = act(s, "MV:K(1,10)->(1,9)", "END")
    assert s.ply == 4 and 3 not in s.pieces and s.projectiles == ()
    assert ground(s, "e6") == ["JP"] and at(s, "e6") == []
