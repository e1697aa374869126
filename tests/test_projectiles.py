"""Rockets, SAMs and torpedoes in flight (01/R12.2, R12.8-R12.10, R12.13; 02/G21-G23,
G32-G34, D16, D28; RUL-15, RUL-16, RUL-46; options `projectile_speed`, `homing_range`).

Expected squares are worked out by hand, turn by turn: a projectile is created next to its
firer (directed) or one king-step towards its target (homing), does not move at the end of
the ply that created it, then moves `projectile_speed` squares at the end of every ply.
Projectiles "from an earlier turn" are put into ``state.projectiles`` directly
(fire_helpers.add_projectile, created at ply 0); all others are fired in the test.
"""
from __future__ import annotations

from engine.effects import counter
from engine_helpers import at, ground, legal, one, pos, refused
from fire_helpers import act, add_projectile, idle, last_line, rs, where

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def fires(state, prefix: str = "") -> set[str]:
    """Legal Fires whose text starts with ``FI:<prefix>``."""
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


# -- creation: 01/R12.2, RUL-15 -----------------------------------------------------------------

def test_r12_2_rocket_from_the_air_flies_at_ground_level():
    """01/R12.2 (the text's example), RUL-15: a Rocket Pawn carried in the Air by a Chopper
    fires north; the rocket is created at d6 G, not in the Air."""
    s = pos(KINGS + "piece B CH> d5 A\npiece B RP d5 A moved\npiece W JE d6 A")
    s = act(s, "FI:RL/RP^(5,4)->(6,4)")
    assert rs(s) == "R->(6,4)(1,0)"
    (proj,) = s.projectiles
    assert (proj.kind, proj.level, proj.row, proj.col) == ("R", "G", 6, 4)
    assert [p.kind for p in at(s, "d6", "A")] == ["JE"]          # another level: not hit


def test_r12_2_sam_and_torpedo_levels():
    """01/R12.2, 02/G22, G23: a SAM fired from the Ground is created in the Air, a torpedo
    from the Ground at the Sub level, each in the neighbouring square of the direction."""
    s = pos(KINGS + "piece B SOP e4 G\npiece B DS b4 G")
    s = act(s, "FI:SL/SOP(4,5)->(5,6)", "FI:TL/DS(4,2)->(3,1)")
    assert rs(s) == "S->(5,6)(1,1),T->(3,1)(-1,-1)"
    assert [(p.kind, p.level, p.row, p.col) for p in s.projectiles] == [
        ("S", "A", 5, 6), ("T", "S", 3, 1)]


def test_rul15_immediate_hit_on_creation_friendly_fire():
    """RUL-15 (immediate hit), 01/R12.13: a rocket created on a cell holding a friendly
    Bulldozer hits it at once, destroys it and is removed."""
    s = act(pos(KINGS + "piece B RP e4 G\npiece B DO e5 G"), "FI:RL/RP(4,5)->(5,5)")
    assert rs(s) == "R->(5,5)(1,0),Rv(5,5),RK*DO(5,5)0B"
    assert at(s, "e5") == [] and s.projectiles == ()


def test_r12_8_used_up_even_when_nothing_is_destroyed():
    """01/R12.8, RUL-15, RUL-7: a rocket hitting a Rocket Pawn (1 <= 1 Anti-Rocket) is used up
    although nothing is destroyed; the Pawn's counter is 1."""
    s = act(pos(KINGS + "piece B RP e4 G\npiece W RP e5 G"), "FI:RL/RP(4,5)->(5,5)")
    assert rs(s) == "R->(5,5)(1,0),Rv(5,5)"
    assert s.projectiles == () and counter(s, one(s, "e5", "RP").sid, "RL") == 1


def test_rockets_never_home():
    """01/R12.9, 02/G21, RUL-16: a Rocket Pawn offers only the 8 directed rockets, never a
    homing one (no `=>` target), even with an enemy next to it."""
    s = pos(KINGS + "piece B RP e4 G\npiece W DO e6 G")
    assert len(fires(s, "RL/")) == 8 and not any("=>" in a for a in fires(s, "RL/"))


# -- travel: RUL-15, RUL-46, projectile_speed ---------------------------------------------------

def test_rul15_directed_rocket_leaves_the_board_unwritten():
    """RUL-15, RUL-36: a rocket created on b9 heading north reaches b10 at the end of ply 2 and
    leaves the board at the end of ply 3; leaving is not written."""
    s = pos("piece B K j1 G\npiece W K j9 G\npiece B RP b8 G moved")
    s = act(s, "FI:RL/RP(8,2)->(9,2)", "K", "END")
    assert where(s) == [("R", "b9", 1, 0)]
    s = act(s, "MV:K(9,10)->(9,9)", "END")
    assert last_line(s) == "MV:K(9,10)->(9,9),RS:R->(10,2)(1,0)"
    s = idle(s)
    assert last_line(s) == "MV:K(1,9)->(1,10)" and s.projectiles == ()


def test_projectile_speed_2_steps_one_event_each():
    """RUL-15 `projectile_speed` = 2, RUL-46(d): fired at ply 1 on b3, the rocket makes two
    steps at the end of ply 2 (b4, b5) and at the end of ply 3 hits on the first sub-step (b6)
    and goes no further."""
    s = pos(KINGS + "piece B RP b2 G\npiece W DO b6 G\npiece W DO b7 G", projectile_speed=2)
    s = act(s, "FI:RL/RP(2,2)->(3,2)", "K", "END")
    assert where(s) == [("R", "b3", 1, 0)]
    s = idle(s)
    assert last_line(s) == "MV:K(10,10)->(10,9),RS:R->(4,2)(1,0),R->(5,2)(1,0)"
    s = idle(s)
    assert last_line(s) == "MV:K(1,9)->(1,10),RS:R->(6,2)(1,0),Rv(6,2),RK*DO(6,2)0W"
    assert s.projectiles == () and [p.kind for p in at(s, "b7")] == ["DO"]


def test_rul15_passing_through_does_not_trigger_and_no_blocking():
    """RUL-15: projectiles never block paths and a piece passing through a projectile's cell is
    not hit: a Jet flies e4 A -> e6 A over a SAM waiting on e5 A."""
    s = pos(KINGS + "piece B JE e4 A")
    add_projectile(s, "S", "W", "e5", 0, 1)
    s = act(s, "MV:JE^(4,5)->^(6,5)")
    assert rs(s) == "" and [p.kind for p in at(s, "e6", "A")] == ["JE"]
    assert where(s) == [("S", "e5", 0, 1)]


def test_rul15_landing_into_a_projectile_cell_is_hit():
    """RUL-15 (a level change into the cell): a Jet landing on e5 G where a rocket waits is
    hit at once after the arrival and destroyed."""
    s = pos(KINGS + "piece B JE e5 A")
    add_projectile(s, "R", "W", "e5", -1, 0)
    s = act(s, "MV:JE^(5,5)->(5,5)")
    assert rs(s) == "Rv(5,5),RK*JE(5,5)0B"
    assert at(s, "e5") == [] and s.projectiles == ()


def test_rul15_projectile_hits_a_hidden_piece():
    """RUL-15 (visible or hidden), RUL-46(a): a rocket stepping into f5 G hits the stealthy
    White AAA there (hidden from Black, whose rocket it is) and destroys it."""
    s = pos(KINGS + "piece W AAA f5 G")
    add_projectile(s, "R", "B", "f4", 1, 0)
    s = act(s, "K", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:R->(5,6)(1,0),Rv(5,6),RK*AAA(5,6)0W"
    assert at(s, "f5") == []


def test_rul46c_piece_arriving_in_a_cell_with_two_projectiles():
    """RUL-46(c), 04/N1: a White Destroyer [ARL] steps onto c5 where two rockets lie; both hit
    together with strength 2 > 1 and are removed; its ARL is placed on c5."""
    s = pos("to-move W\n" + KINGS + "piece W DS c6 G ARL")
    add_projectile(s, "R", "B", "c5", 1, 0)
    add_projectile(s, "R", "W", "c5", -1, 0)
    s = act(s, "MV:DS(6,3)1ARL->(5,3)")
    assert rs(s) == "Rv(5,3),Rv(5,3),RK*DS(5,3)1ARL0W"
    assert s.projectiles == () and ground(s, "c5") == ["ARL"]


def test_rul15_end_phase_hit_counts_in_that_turn():
    """RUL-15 (each hit counts in the turn in which it happens), RUL-7: at ply 1 a Jet's
    restricted rocket hits the Destroyer [ARL] (1 <= 1); at the end of ply 1 a Black rocket
    enters its cell: counter 2 > 1, destroyed."""
    s = pos(KINGS + "piece B JE e5 A\npiece W DS e5 G ARL")
    add_projectile(s, "R", "B", "e4", 1, 0)
    s = act(s, "FI:RL/JE^(5,5)=>DS(5,5)1ARL")
    assert rs(s) == "Rv(5,5)"
    s = act(s, "K", "END")
    assert last_line(s) == ("MV:K(1,10)->(1,9),FI1:RL/JE^(5,5)=>DS(5,5)1ARL,RS:Rv(5,5),"
                            "R->(5,5)(1,0),Rv(5,5),RK*DS(5,5)1ARL0W")


def test_rul46e_projectile_keeps_its_side_after_the_firer_converts():
    """RUL-46(e): the rocket belongs to Black (its firer's side at creation) even after White
    converts the Rocket Pawn at ply 2."""
    s = pos(KINGS + "piece B RP e5 G moved\npiece W CP f6 G")
    s = act(s, "FI:RL/RP(5,5)->(4,5)", "K", "END")
    s = act(s, "FI:CS/CP(6,6)->(5,5)")
    assert one(s, "e5", "RP").side == "W"
    assert [p.side for p in s.projectiles] == ["B"]


# -- homing: 01/R12.9, 02/G22, G23, D16, A-9, A-10, RUL-16 --------------------------------------

def test_a10_homing_targets_enemy_visible_same_level_in_range():
    """A-10, RUL-16, 02/D16: an AAA on e4 may home its SAM onto the White Jet on g6 A
    (distance 2) only: not the friendly Jet f5 A, not the hidden Jet [SH] on c4 A, not the
    Jet on e8 A (distance 4), not the Ground Tank on e5."""
    s = pos(KINGS + "piece B AAA e4 G\npiece B JE f5 A\npiece W JE g6 A\npiece W JE c4 A SH\n"
            "piece W JE e8 A\npiece W TA< e5 G")
    assert {a for a in fires(s, "SL/AAA") if "=>" in a} == {"FI:SL/AAA(4,5)=>JE^(6,7)"}
    refused(s, "FI:SL/AAA(4,5)=>JE^(8,5)", "RUL-16")


def test_homing_range_option():
    """RUL-38 `homing_range`: with range 2 a Jet at distance 3 is out of reach, with 3 it is
    in (the default, 02/D16)."""
    text = KINGS + "piece B AAA e4 G\npiece W JE h7 A"
    assert {a for a in fires(pos(text, homing_range=2), "SL/") if "=>" in a} == set()
    assert {a for a in fires(pos(text), "SL/") if "=>" in a} == {"FI:SL/AAA(4,5)=>JE^(7,8)"}


def test_rul16_homing_creation_and_steps_follow_the_target():
    """RUL-15, RUL-16, A-9: the SAM starts one king-step towards the Jet on h7 A (f5 A, offset
    (1,1)), then steps one square closer each ply towards the target's current square; the Jet
    moving on (h7 A -> h9 A at ply 2) does not break the lock. Steps: g6 (1,1) at the end of
    ply 2, h7 (1,1) at ply 3, h8 (1,0) at ply 4, and at the end of ply 5 it enters h9 and
    destroys the Jet (`SK`)."""
    s = pos(KINGS + "piece B AAA e4 G\npiece W JE h7 A")
    s = act(s, "FI:SL/AAA(4,5)=>JE^(7,8)", "K", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),FI1:SL/AAA(4,5)=>JE^(7,8),RS:S->(5,6)(1,1)"
    s = act(s, "MV:JE^(7,8)->^(9,8)", "END")
    assert last_line(s).endswith(",RS:S->(6,7)(1,1)")
    s = idle(s)
    assert where(s) == [("S", "h7", 1, 1)]
    s = idle(s)
    assert where(s) == [("S", "h8", 1, 0)]
    s = idle(s)
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:S->(9,8)(1,0),Sv(9,8),SK*JE^(9,8)0W"
    assert s.projectiles == ()


def test_rul16_homing_at_distance_0_hits_at_once():
    """RUL-15: a homing SAM whose target is in the firer's own square is created in that
    square and hits at once: the AAA on e4 G fires at the White Jet on e4 A."""
    s = act(pos(KINGS + "piece B AAA e4 G\npiece W JE e4 A"), "FI:SL/AAA(4,5)=>JE^(4,5)")
    assert rs(s) == "S->(4,5)(0,0),Sv(4,5),SK*JE^(4,5)0W"


def test_rul16_lock_lost_when_the_target_lands():
    """RUL-16, 02/G23, A-9: the Jet lands at ply 2; the SAM continues as a directed SAM in the
    direction of its last step (the creation offset (1,0)) and passes over the Jet."""
    s = pos(KINGS + "piece B AAA e4 G\npiece W JE e7 A")
    s = act(s, "FI:SL/AAA(4,5)=>JE^(7,5)", "K", "END")
    s = act(s, "MV:JE^(7,5)->(7,5)", "END")
    assert where(s) == [("S", "e6", 1, 0)] and s.projectiles[0].target == 0
    s = idle(s)
    assert where(s) == [("S", "e7", 1, 0)] and [p.kind for p in at(s, "e7")] == ["JE"]


def test_rul16_lock_lost_when_the_target_is_destroyed_keeps_last_step():
    """RUL-16: the target Jet (g7 A) is burnt by a Black Jet at ply 3 before the end phase; the
    SAM, whose last step was (1,1), continues diagonally as a directed SAM: h7 A."""
    s = pos(KINGS + "piece B AAA e4 G\npiece B JE g8 A FL\npiece W JE g7 A")
    s = act(s, "FI:SL/AAA(4,5)=>JE^(7,7)", "K", "END")
    assert where(s) == [("S", "f5", 1, 1)]
    s = idle(s)
    assert where(s) == [("S", "g6", 1, 1)]
    s = act(s, "FI:FL/JE^(8,7)1FL->(7,7)")
    assert rs(s) == "JE*JE^(7,7)0W"
    s = act(s, "K", "END")
    assert where(s) == [("S", "h7", 1, 1)] and s.projectiles[0].target == 0


def test_rul16_lock_lost_when_the_target_is_converted():
    """RUL-16, RUL-15 (friendly or enemy): converted to Black at ply 3, the target breaks the
    lock; the SAM (on e5 A, last step (0,1)) goes on east as a directed SAM, enters f5 A where
    the converted Jet still is, and destroys it."""
    s = pos(KINGS + "piece B AAA c5 G\npiece B JE f4 A CS\npiece W JE f5 A")
    s = act(s, "FI:SL/AAA(5,3)=>JE^(5,6)", "K", "END")
    assert where(s) == [("S", "d5", 0, 1)]
    s = idle(s)
    assert where(s) == [("S", "e5", 0, 1)]
    s = act(s, "FI:CS/JE^(4,6)1CS->(5,6)")
    assert one(s, "f5", "JE", "A").side == "B"
    s = act(s, "K", "END")
    assert last_line(s).endswith(",RS:JE*JE^(5,6)0W,S->(5,6)(0,1),Sv(5,6),SK*JE^(5,6)0B")


def test_g34_torpedo_article_detects_and_homes():
    """01/R12.10, 02/G34, D15, RUL-16: a Bulldozer holding a Torpedo Launch sees the White Sub
    on e7 S (distance 3) and may home a torpedo onto it; on e8 S (distance 4) the Sub is hidden
    and not a target. The torpedo starts at e5 S."""
    near = pos(KINGS + "piece B DO e4 G TL\npiece W SU e7 S")
    assert {a for a in fires(near, "TL/") if "=>" in a} == {"FI:TL/DO(4,5)1TL=>SUv(7,5)"}
    s = act(near, "FI:TL/DO(4,5)1TL=>SUv(7,5)")
    assert rs(s) == "T->(5,5)(1,0)"
    far = pos(KINGS + "piece B DO e4 G TL\npiece W SU e8 S")
    assert {a for a in fires(far, "TL/") if "=>" in a} == set()


def test_a9_hiding_does_not_break_a_torpedo_lock():
    """A-9, RUL-16, 02/G22: the Sub dives out of detection range (e7 S -> e8 S, hidden) at
    ply 2; the torpedo keeps homing: e6 (ply 2), e7 (ply 3), hits e8 at the end of ply 4."""
    s = pos(KINGS + "piece B DS e4 G\npiece W SU e7 S")
    s = act(s, "FI:TL/DS(4,5)=>SUv(7,5)", "K", "END")
    s = act(s, "MV:SUv(7,5)->v(8,5)", "END")
    assert where(s) == [("T", "e6", 1, 0)] and s.projectiles[0].target != 0
    s = idle(s)
    assert where(s) == [("T", "e7", 1, 0)]
    s = idle(s)
    assert last_line(s) == "MV:K(10,10)->(10,9),RS:T->(8,5)(1,0),Tv(8,5),TK*SUv(8,5)0W"


def test_g32_g34_launch_articles_create_their_projectiles():
    """02/G32-G34, 01/R12.2: a Bulldozer (no inherent weapon) holding a Rocket, SAM or Torpedo
    Launch fires it north from e4: the projectile is created on e5 at Ground, Air or Sub."""
    for article, kind, level in (("RL", "R", "G"), ("SL", "S", "A"), ("TL", "T", "S")):
        s = act(pos(KINGS + f"piece B DO e4 G {article}"), f"FI:{article}/DO(4,5)1{article}->(5,5)")
        assert rs(s) == f"{kind}->(5,5)(1,0)"
        assert [(p.kind, p.level, p.strength) for p in s.projectiles] == [(kind, level, 1)]
