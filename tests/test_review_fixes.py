"""Rule bugs found by the engine review, each pinned by a scenario worked out by hand from
00-rulings.md (the rule id is in each docstring)."""
from __future__ import annotations

from engine_helpers import at, one, pos
from fire_helpers import act, add_projectile, idle, last_line, on_trip, rs, where


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


def test_homing_lock_lost_for_good_when_the_target_leaves_its_level_RUL_16() -> None:
    """RUL-16, A-9: the lock is lost when the target leaves the projectile's level (here: it is
    carried down to the Ground); it is not restored when the target rises again in the same
    turn. A Black SAM on e3 A (last step north) homes on a White Tank carried in the Air by a
    White Chopper on e5 A. White's Chopper lands on g4 G with the Tank (lock lost); the Tank
    then fires its Jump Pack and rises to g4 A. In the end phase the SAM flies on north as a
    directed projectile to e4 A; it does not turn towards g4 A (that would be f4 A)."""
    s = pos("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W CH> e5 A\n"
            "piece W TA> e5 A JP")
    tank = one(s, "e5", "TA", "A")
    add_projectile(s, "S", "B", "e3", 1, 0, target=tank.sid)
    s = act(s, "MV:CH^(5,5)>->(4,7)-TRA->TA^(5,5)1JP>(4,7)", "FI:JU/TA(4,7)1JP>->(4,8)")
    assert [p.sid for p in at(s, "g4", "A")] == [tank.sid]
    s = act(s, "END")
    assert last_line(s).endswith(",RS:S->(4,5)(1,0)")
    (sam,) = s.projectiles
    assert (sam.row, sam.col, sam.dr, sam.dc, sam.target) == (4, 5, 1, 0, 0)


def test_stun_counts_down_for_a_piece_converted_to_the_mover_RUL_11() -> None:
    """RUL-11, RUL-13: 'at the end of each turn of the piece's owner, the counter goes down by 1
    if the piece was already stunned when that turn began'; a converted piece keeps its counter
    and the countdown follows the new owner's turns. The White Rocket Pawn on e5 is stunned
    (counter 2) when ply 1 begins; Black converts it during ply 1, so at the end of ply 1 (a turn
    of its owner, Black) it counts down to 1; White's ply 2 does not count; ply 3 brings it to
    0."""
    s = pos("piece B K j1 G\npiece B CP e4 G\npiece W K j10 G\npiece W RP e5 G stun=2")
    s = act(s, "FI:CS/CP(4,5)->(5,5)")
    pawn = one(s, "e5", "RP")
    assert (pawn.side, pawn.stun) == ("B", 2)
    s = act(s, "K", "END")
    assert one(s, "e5", "RP").stun == 1
    s = idle(s)
    assert one(s, "e5", "RP").stun == 1
    s = idle(s)
    assert one(s, "e5", "RP").stun == 0


def test_exchange_lock_attempts_in_canonical_order_RUL_49() -> None:
    """RUL-49, RUL-19, RUL-40: sources acquired in one event attempt their locks holder by
    holder in canonical order, each seeing the locks made before it. The Tank (serial 2, b4,
    article 1) and the Destroyer (serial 3, c4, article 2) swap their unlocked Anti-Stealth
    articles. Both holders are nearest to the hidden White Flamer Pawn on d6 (distance 2; the
    one on a9 is at 5). The Tank comes first: its new article 2 locks d6 (serial 5); the
    Destroyer's new article 1 then takes a9 (serial 6)."""
    s = pos("piece B K j1 G\npiece B TA> b4 G ASH\npiece B DS c4 G ASH\npiece W K j10 G\n"
            "piece W FP d6 G SH\npiece W FP a9 G SH")
    assert s.locks == {}
    s = act(s, "EX:TA(4,2)1ASH>->ASH<=>ASH<-DS(4,3)1ASH")
    assert s.pieces[2].arts == (2,) and s.pieces[3].arts == (1,)
    assert s.locks == {("a", 2): 5, ("a", 1): 6}


def test_last_trip_step_passes_through_the_destination_cell_docs_RV_1() -> None:
    """docs/rulings.md RV-1 (RUL-15, RUL-31, RUL-41, RUL-48): the step onto the destination and
    the landing are one displacement; the traveller passes through the destination's Air cell,
    so a SAM waiting on e6 A does not hit the White Tank that steps e5 A -> e6 A and lands on
    e6 G in White's start phase. The SAM stays on e6 A."""
    s = pos("piece B K j1 G\npiece W K j10 G\npiece W TA> e5 A JP")
    on_trip(s, "e5", "A", "JP", ("e6",))
    add_projectile(s, "S", "B", "d6", 0, 1)
    s = act(s, "K", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:S->(6,5)(0,1)"
    assert rs(s) == ""
    assert [(p.kind, p.level, p.trip) for p in at(s, "e6")] == [("TA", "G", None)]
    assert where(s) == [("S", "e6", 0, 1)]


def test_second_stunned_traveller_that_cannot_come_down_is_written_stk_only_RUL_12() -> None:
    """RUL-12, RUL-41 (steps 4 and 6), RUL-36: two White travellers on e5 A (a Bulldozer,
    serial 4, and a Tank, serial 5, both on Jump Pack trips) are stunned by one Black Chopper
    ray. They come down one at a time in canonical order: the Bulldozer joins the Destroyer on
    e5 G; the Ground is then full, so the Tank cannot come down and dies. Its stun is written
    as `STK` alone, not as a stun followed by `STK`."""
    from dataclasses import replace

    s = pos("piece B K j1 G\npiece B CH> e2 A\npiece W K j10 G\npiece W DO e5 A JP\n"
            "piece W TA> e5 A JP\npiece W DS e5 G")
    for sid in (4, 5):
        p = s.pieces[sid]
        s.put(replace(p, trip=(p.arts[0], "A", 0, 1, ((6, 5),))))
    s = act(s, "FI:ST/CH^(2,5)>->(3,5)")
    assert rs(s) == "CH*DO^(5,5)1JP3W,DOv(5,5),STK*TA^(5,5)1JP>0W"
    assert sorted(p.kind for p in at(s, "e5") if p.level == "G") == ["DO", "DS"]
    assert 5 not in s.pieces
