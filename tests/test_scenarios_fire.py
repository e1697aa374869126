"""Weapon test scenarios of 00-rulings.md §3 and §5.3 (T9-T17 with the corrected T11 and T15,
T32, T39, T42, T46), played through the engine's public API.

Expected values are the scenario texts' own, recomputed by hand from the rules they cite.
Piece serials follow the listed order (RUL-40). Idle turns are King shuffles (j1<->i1,
j10<->i10). Projectiles "from an earlier turn" (T32, T42) are put into ``state.projectiles``
directly (fire_helpers.add_projectile); the Jump Pack trip of T13 is set on the piece directly
(fire_helpers.on_trip), as written before the position format had ``trip=`` and
``projectile`` lines; test_scenarios_rulings3.py sets T13 and T32 up through the format.
"""
from __future__ import annotations

import pytest

from engine.api import EndTurn, RuleError, apply_action
from engine.effects import counter
from engine_helpers import at, ground, held, legal, one, pos, refused
from fire_helpers import act, add_projectile, idle, last_line, on_trip, rs, where


def _fires(state, prefix: str) -> set[str]:
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


# -- T9 ---------------------------------------------------------------------------------------

T9 = "piece B K j1 G\npiece B TA> e4 G\npiece B FP d4 G\npiece W K e5 G\npiece W RP e6 G"


def test_t9_flamer_reach_1_and_counting_against_anti_flamer():
    """00/T9, RUL-9, RUL-7, RUL-4, RUL-2: the first flame leaves the King at counter 1 (= its
    1 inherent Anti-Flamer), e6 untouched; the second Fire makes it 2 > 1: Black wins at once."""
    s = pos(T9)
    s = act(s, "FI:FL/TA(4,5)>->(5,5)")
    king = one(s, "e5", "K")
    assert counter(s, king.sid, "FL") == 1
    assert rs(s) == ""
    rp = one(s, "e6", "RP")
    assert counter(s, rp.sid, "FL") == 0
    s = act(s, "FI:FL/FP(4,4)->(5,5)")
    assert s.result == "B"
    assert at(s, "e5") == [] and at(s, "e6") == [rp]
    assert s.history == ("MV:-,FI1:FL/TA(4,5)>->(5,5),FI2:FL/FP(4,4)->(5,5),RS:FP*K(5,5)0W",)


def test_t9_variant_flamer_range_2_burns_e6():
    """00/T9 variant, RUL-9 (`flamer_range` = 2, 01/R12.4): Fire 1 also destroys the Rocket
    Pawn on e6 (no Anti-Flamer); the King survives it."""
    s = act(pos(T9, flamer_range=2), "FI:FL/TA(4,5)>->(5,5)")
    assert rs(s) == "TA*RP(6,5)0W"
    assert at(s, "e6") == [] and [p.kind for p in at(s, "e5")] == ["K"]
    assert s.result is None


# -- T10 --------------------------------------------------------------------------------------

T10 = "piece B K j1 G\npiece B TA> e4 G FL\npiece W K j10 G\npiece W FP e5 G AFL"


def test_t10_group_fire_strength_2_against_defence_2():
    """00/T10, RUL-5, 04/N2: inherent Flamer + FL article fire as ONE Fire of strength 2; the
    Pawn's defence is 2 (inherent AFL + article), 2 <= 2: it survives; one Fire is used."""
    s = act(pos(T10), "FI:FL/TA(4,5)1FL>->(5,5)")
    fp = one(s, "e5", "FP")
    assert counter(s, fp.sid, "FL") == 2
    assert held(s, fp) == ["AFL"] and rs(s) == ""
    assert s.turn.fires == 1
    assert _fires(s, "FL/TA") == set()                 # both Flamer sources took part
    other = act(pos(T10 + "\npiece B SP a2 G"), "FI:FL/TA(4,5)1FL>->(5,5)")
    assert "FI:ST/SP(2,1)->(3,1)" in legal(other)       # the second Fire is still available


def test_t10_shared_cooldown_both_sources_ready_at_ply_9():
    """00/T10, RUL-6, 02/D26, D29: fired at ply 1 -> neither Tank Flamer source may fire at
    plies 3, 5 or 7; both fire together again at ply 9 (strength 2)."""
    s = act(pos(T10), "FI:FL/TA(4,5)1FL>->(5,5)", "K", "END")
    s = idle(s)                                        # White's ply 2
    for ply in (3, 5, 7):
        assert s.ply == ply
        assert _fires(s, "FL/TA") == set()
        refused(s, "FI:FL/TA(4,5)1FL>->(5,5)", "RUL-6")
        s = idle(s, 2)
    assert s.ply == 9
    assert "FI:FL/TA(4,5)1FL>->(5,5)" in legal(s)
    s = act(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    fp = one(s, "e5", "FP")
    assert counter(s, fp.sid, "FL") == 2                # strength 2 again: both took part
    tank = one(s, "e4", "TA")
    assert dict(tank.ready)["FL"] == 17 and s.art_ready[tank.arts[0]] == 17


def test_t10_variant_king_defence_1_destroyed():
    """00/T10 variant: a White King on e5 (defence 1) is destroyed by strength 2; Black wins."""
    s = act(pos("piece B K j1 G\npiece B TA> e4 G FL\npiece W K e5 G"),
            "FI:FL/TA(4,5)1FL>->(5,5)")
    assert s.result == "B"
    assert s.history == ("MV:-,FI1:FL/TA(4,5)1FL>->(5,5),RS:TA*K(5,5)0W",)


# -- T11 (corrected, §5.3) --------------------------------------------------------------------

T11 = ("piece B K j1 G\npiece B TA> e4 G ST\npiece B SP b2 G\npiece B JE c6 A\n"
       "piece W K j10 G\npiece W RP e5 G\npiece W SP h4 G\npiece W CP c6 G")


def test_t11_per_source_limit_two_fires():
    """00/T11, RUL-4, RUL-10, RUL-7, 01/R4.3: the Tank's inherent Flamer and its ST article are
    two sources (two Fires). The ray passes f4, g4 and stops at h4 (1 <= 1 Anti-Stunner, not
    stunned). A third Fire is illegal."""
    s = act(pos(T11), "FI:FL/TA(4,5)1ST>->(5,5)")
    assert rs(s) == "TA*RP(5,5)0W"
    s = act(s, "FI:ST/TA(4,5)1ST>->(4,6)")
    wsp = one(s, "h4", "SP")
    assert counter(s, wsp.sid, "ST") == 1 and wsp.stun == 0
    assert rs(s) == "TA*RP(5,5)0W"
    assert _fires(s, "") == set()
    refused(s, "FI:ST/SP(2,2)->(3,2)", "01/R4.3")
    s = act(s, "K", "END")
    assert last_line(s) == ("MV:K(1,10)->(1,9),FI1:FL/TA(4,5)1ST>->(5,5),"
                            "FI2:ST/TA(4,5)1ST>->(4,6),RS:TA*RP(5,5)0W")


def test_t11_ply3_rates_and_jet_single_inherent_source():
    """00/T11 corrected, RUL-6, RUL-4, RUL-17: at ply 3 the ST article (ready from ply 5) and
    the Flamer (from 9) are not ready; after the Jet's SAM its restricted rocket at c6 G is
    illegal (same inherent source); without the SAM it destroys the Conversion Pawn."""
    s = act(pos(T11), "FI:FL/TA(4,5)1ST>->(5,5)", "FI:ST/TA(4,5)1ST>->(4,6)", "K", "END")
    s = idle(s)
    assert s.ply == 3
    assert _fires(s, "FL/TA") == set() and _fires(s, "ST/TA") == set()
    tank = one(s, "e4", "TA")
    assert dict(tank.ready)["FL"] == 9 and s.art_ready[tank.arts[0]] == 5
    assert "FI:RL/JE^(6,3)=>CP(6,3)" in legal(s)
    fired = act(s, "FI:SL/JE^(6,3)->(7,3)")
    assert _fires(fired, "RL/JE") == set()
    refused(fired, "FI:RL/JE^(6,3)=>CP(6,3)", "RUL-4")
    rocket = act(s, "FI:RL/JE^(6,3)=>CP(6,3)")
    assert rs(rocket) == "Rv(6,3),RK*CP(6,3)0W"
    assert at(rocket, "c6") == [] and rocket.projectiles == ()


# -- T12 --------------------------------------------------------------------------------------

T12 = ("piece B K j1 G\npiece B CH> e2 G\npiece W K j10 G\npiece W XP e6 G AFL ARL\n"
       "piece W RP e8 G\narticle SC e6")


def _xp_moves(state) -> set[str]:
    return {a for a in legal(state) if a.startswith("MV:XP(6,5)")}


def test_t12_stun_first_cell_placement_and_countdown():
    """00/T12, RUL-10, RUL-11, RUL-12, RUL-36, 04/N8: e3-e5 empty, e6 hit; AFL joins SC on e6,
    ARL goes to f5 (White's forward-left); counter 3, then 2, 1, 0 after plies 2, 4, 6."""
    s = act(pos(T12), "FI:ST/CH(2,5)>->(3,5)")
    xp = one(s, "e6", "XP")
    assert xp.stun == 3 and held(s, xp) == []
    assert rs(s) == "CH*XP(6,5)2AFLARL3W"
    assert ground(s, "e6") == ["SC", "AFL"] and ground(s, "f5") == ["ARL"]
    assert counter(s, one(s, "e8", "RP").sid, "ST") == 0
    s = act(s, "K", "END")
    for ply, after in ((2, 2), (4, 1), (6, 0)):
        assert s.ply == ply and _xp_moves(s) == set()
        s = idle(s)
        assert one(s, "e6", "XP").stun == after
        s = idle(s)
    assert s.ply == 8
    assert _xp_moves(s) == {"MV:XP(6,5)->(5,4)", "MV:XP(6,5)->(5,6)", "MV:XP(6,5)->(4,3)",
                            "MV:XP(6,5)->(4,7)"}


def test_t12_variant_restun_resets_to_3():
    """00/T12 variant, RUL-11: a second stun at ply 5 (counter 1) resets it to 3 (never
    more): stuck at plies 6, 8 and 10, free at ply 12."""
    s = act(pos(T12), "FI:ST/CH(2,5)>->(3,5)", "K", "END")
    s = idle(s, 3)
    assert s.ply == 5 and one(s, "e6", "XP").stun == 1
    s = act(s, "FI:ST/CH(2,5)>->(3,5)")
    assert rs(s) == "CH*XP(6,5)3W" and one(s, "e6", "XP").stun == 3
    s = act(s, "K", "END")
    for ply, after in ((6, 2), (8, 1), (10, 0)):
        assert s.ply == ply and _xp_moves(s) == set()
        s = idle(s, 2)
        assert one(s, "e6", "XP").stun == after
    assert s.ply == 12 and _xp_moves(s) != set()


# -- T13 --------------------------------------------------------------------------------------

def _t13(extra: str = "piece B RP e5 G\n"):
    s = pos("piece B K j1 G\npiece B JE e2 A ST\n" + extra +
            "piece W K j10 G\npiece W TA< e5 A JP")
    on_trip(s, "e5", "A", "JP", ("e6",))
    return s


def test_t13_stunned_flier_cannot_come_down_is_destroyed():
    """00/T13, RUL-12, RUL-11, 02/G20, 04/H9e: e3 A, e4 A empty; the travelling Tank is
    stunned, drops JP on e5 G and cannot come down (enemy Pawn on e5 G): `STK`."""
    s = act(_t13(), "FI:ST/JE^(2,5)1ST->(3,5)")
    assert at(s, "e5", "A") == []
    assert ground(s, "e5") == ["JP"]
    assert rs(s) == "STK*TA^(5,5)1JP<0W"
    assert [p.kind for p in at(s, "e5")] == ["RP"]


def test_t13_variant_lands_stunned():
    """00/T13 variant, RUL-12, RUL-42, RUL-51(b): with e5 G empty the Tank comes down to e5 G,
    stunned 3, no longer travelling; JP lies on e5."""
    s = act(_t13(""), "FI:ST/JE^(2,5)1ST->(3,5)")
    tank = one(s, "e5", "TA")
    assert tank.stun == 3 and tank.trip is None and held(s, tank) == []
    assert ground(s, "e5") == ["JP"]
    assert rs(s) == "JE*TA^(5,5)1JP<3W,TAv(5,5)"


# -- T14 --------------------------------------------------------------------------------------

T14 = ("piece B K j1 G\npiece B JE e4 A CS\npiece W K j10 G\npiece W JE e5 A ACS\n"
       "piece W JE e5 A\npiece W JE e7 A")


def test_t14_conversion_makes_a_mixed_cell():
    """00/T14 (and §5.3), RUL-13, RUL-14, RUL-24, RUL-7, 01/R17.1: J1 (1 <= 1 Anti-Conversion)
    stays White, J2 turns Black; nobody may enter e5 A; J1 cannot take J2; J1 leaving ends it."""
    s = act(pos(T14), "FI:CS/JE^(4,5)1CS->(5,5)")
    j1, j2 = at(s, "e5", "A")
    assert (j1.sid, j1.side, j2.sid, j2.side) == (4, "W", 5, "B")
    assert rs(s) == "JE*JE^(5,5)0W"
    s = act(s, "K", "END")
    moves = {a for a in legal(s) if a.startswith("MV:")}
    assert "MV:JE^(7,5)->^(6,5)" in moves               # J3 moves, but not 2 squares into e5 A
    assert not any(m.endswith("->^(5,5)") for m in moves)
    s = act(s, "MV:JE^(5,5)1ACS->^(4,4)")
    assert [(p.sid, p.side) for p in at(s, "e5", "A")] == [(5, "B")]


# -- T15 (corrected, §5.3) --------------------------------------------------------------------

def test_t15_conversion_kill_of_a_passenger():
    """00/T15 corrected, RUL-14, RUL-25, RUL-22, A-23, 04/N7: the Chopper converts, the Tank
    (1 <= 1) stays Black without support: `CK`; its ACS is placed on d5 G; the now-White
    Chopper must land on White's next turn."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A ACS\n"
            "piece W K j10 G\npiece W JE d6 A CS")
    s = act(s, "FI:CS/JE^(6,4)1CS->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B,CK*TA^(5,4)1ACS>0B"
    (ch,) = at(s, "d5", "A")
    assert (ch.kind, ch.side) == ("CH", "W")
    assert 3 not in s.pieces and ground(s, "d5") == ["ACS"]
    s = idle(s, 2)
    assert s.ply == 4 and s.turn.obliged == {ch.sid}
    moves = {a for a in legal(s) if a.startswith("MV:")}
    assert moves and all(m.startswith("MV:CH^(5,4)>->(") for m in moves)
    with pytest.raises(RuleError) as err:
        apply_action(s, EndTurn())
    assert err.value.rule == "RUL-44"


# -- T16 --------------------------------------------------------------------------------------

T16 = "piece B K j1 G\npiece B RP b2 G\npiece W K j10 G\npiece W SP b7 G"


def test_t16_rocket_travel_and_hit():
    """00/T16, RUL-15, RUL-6, RUL-36, 02/D28: created at b3 (not moved at the end of ply 1),
    b4..b6 after plies 2..4, hits b7 at the end of ply 5; the Pawn fires again from ply 9."""
    s = act(pos(T16), "FI:RL/RP(2,2)->(3,2)")
    assert rs(s) == "R->(3,2)(1,0)"
    s = act(s, "K", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),FI1:RL/RP(2,2)->(3,2),RS:R->(3,2)(1,0)"
    assert where(s) == [("R", "b3", 1, 0)]
    for ply, square in ((2, "b4"), (3, "b5"), (4, "b6")):
        s = idle(s)
        assert last_line(s).endswith(f",RS:R->({square[1]},2)(1,0)")
        assert where(s) == [("R", square, 1, 0)]
    assert _fires(s, "RL/RP") == set()
    s = idle(s)
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:R->(7,2)(1,0),Rv(7,2),RK*SP(7,2)0W"
    assert s.projectiles == () and at(s, "b7") == []
    s = idle(s)
    assert s.ply == 7 and _fires(s, "RL/RP") == set()
    s = idle(s, 2)
    assert s.ply == 9 and "FI:RL/RP(2,2)->(3,2)" in legal(s)


def test_t16_variant_a_piece_moves_onto_the_rocket():
    """00/T16 variant A, RUL-15 (a piece entering a projectile's cell): the Destroyer moves
    a3 -> b4 at ply 3 where the rocket is; it is destroyed at once and the rocket is gone."""
    s = act(pos(T16 + "\npiece B DS a3 G"), "FI:RL/RP(2,2)->(3,2)", "K", "END")
    s = idle(s)
    assert where(s) == [("R", "b4", 1, 0)]
    s = act(s, "MV:DS(3,1)->(4,2)")
    assert rs(s) == "Rv(4,2),RK*DS(4,2)0B"
    assert at(s, "b4") == [] and s.projectiles == ()


def test_t16_variant_b_jet_in_the_air_is_never_hit():
    """00/T16 variant B, RUL-15, RUL-46(a), 01/R12.2: the rocket flies at Ground level under a
    Black Jet on b5 A and still hits b7 G at the end of ply 5."""
    s = act(pos(T16 + "\npiece B JE b5 A"), "FI:RL/RP(2,2)->(3,2)", "K", "END")
    s = idle(s, 2)
    assert where(s) == [("R", "b5", 1, 0)] and len(at(s, "b5", "A")) == 1
    s = idle(s, 2)
    assert last_line(s).endswith(",RS:R->(7,2)(1,0),Rv(7,2),RK*SP(7,2)0W")
    assert [p.kind for p in at(s, "b5", "A")] == ["JE"]


# -- T17 --------------------------------------------------------------------------------------

T17 = "piece B K j1 G\npiece B JE e5 A\npiece W K j10 G\npiece W SP e5 G\npiece W CP e6 G"


def test_t17_restricted_rocket_range_0():
    """00/T17, RUL-17, RUL-7, 02/D13: the Stunner Pawn below the Jet is destroyed at once, no
    travelling rocket; e6 G is not a target at range 0."""
    s = pos(T17)
    assert _fires(s, "RL/") == {"FI:RL/JE^(5,5)=>SP(5,5)"}
    refused(s, "FI:RL/JE^(5,5)=>CP(6,5)", "RUL-17")
    s = act(s, "FI:RL/JE^(5,5)=>SP(5,5)")
    assert rs(s) == "Rv(5,5),RK*SP(5,5)0W"
    assert at(s, "e5") == [] and s.projectiles == ()


def test_t17_jet_on_the_ground_cannot_fire_it():
    """00/T17, RUL-17: a Jet standing on e5 G has no target (its own cell is excluded)."""
    s = pos("piece B K j1 G\npiece B JE e5 G\npiece W K j10 G\npiece W CP e6 G")
    assert _fires(s, "RL/") == set()


def test_t17_variants_range_1_and_anti_rocket():
    """00/T17 variants, RUL-17, RUL-38: `restricted_rocket_range` = 1 makes e6 G a target from
    e5 A; a Rocket Pawn on e5 G survives (1 <= 1 Anti-Rocket)."""
    s = pos(T17, restricted_rocket_range=1)
    assert _fires(s, "RL/") == {"FI:RL/JE^(5,5)=>SP(5,5)", "FI:RL/JE^(5,5)=>CP(6,5)"}
    s = act(s, "FI:RL/JE^(5,5)=>CP(6,5)")
    assert rs(s) == "Rv(6,5),RK*CP(6,5)0W"
    s = act(pos("piece B K j1 G\npiece B JE e5 A\npiece W K j10 G\npiece W RP e5 G"),
            "FI:RL/JE^(5,5)=>RP(5,5)")
    assert rs(s) == "Rv(5,5)" and [p.kind for p in at(s, "e5")] == ["RP"]


# -- T32 --------------------------------------------------------------------------------------

def _t32(r1: bool = True, r2: bool = True):
    s = pos("piece B PR c5 G\npiece B SP a2 G\npiece W PR h5 G",
            gov_black="democracy", gov_white="democracy")
    if r1:
        add_projectile(s, "R", "W", "c6", -1, 0)
    if r2:
        add_projectile(s, "R", "B", "h4", 1, 0)
    return s


def test_t32_both_presidents_lost_in_one_turn_mover_loses():
    """00/T32, RUL-2, RUL-15, RUL-41, A-1: R1 enters c5 and R2 enters h5 in one projectile step;
    both Presidents (no Anti-Rocket) fall; Black, the mover, lost its own: Black loses."""
    s = act(_t32(), "MV:SP(2,1)->(3,2)", "END")
    assert s.result == "W"
    assert s.history == ("MV:SP(2,1)->(3,2),RS:R->(5,3)(-1,0),R->(5,8)(1,0),Rv(5,3),Rv(5,8),"
                         "RK*PR(5,3)0B,RK*PR(5,8)0W",)
    assert [p.kind for p in s.pieces.values()] == ["SP"]


@pytest.mark.parametrize("r1, r2, winner", [(False, True, "B"), (True, False, "W")])
def test_t32_variants(r1, r2, winner):
    """00/T32 variants, RUL-2: without R1 Black wins; without R2 Black loses."""
    s = act(_t32(r1, r2), "MV:SP(2,1)->(3,2)", "END")
    assert s.result == winner


# -- T39 --------------------------------------------------------------------------------------

T39 = ("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A AFL stun=2\n"
       "piece W K j10 G\npiece W JE d6 A FL\n")


def test_t39_stunned_passenger_comes_down():
    """00/T39, RUL-42, RUL-41, RUL-51(b): the Chopper burns; the Tank (1 <= 1) has lost its
    carrier off its native level and comes down to d5 G although stunned, keeping AFL and
    counter 2."""
    s = act(pos(T39), "FI:FL/JE^(6,4)1FL->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B,TAv(5,4)"
    assert at(s, "d5", "A") == []
    tank = one(s, "d5", "TA")
    assert held(s, tank) == ["AFL"] and tank.stun == 2
    s = act(s, "K", "END")
    assert one(s, "d5", "TA").stun == 2              # White's turn does not count down (RUL-11)


def test_t39_variant_cannot_come_down():
    """00/T39 variant, RUL-42, RUL-12, RUL-36: a W Rocket Pawn on d5 G: the Tank is destroyed
    (own type as cause), its AFL placed on d5 G."""
    s = act(pos(T39 + "piece W RP d5 G"), "FI:FL/JE^(6,4)1FL->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B,TA*TA^(5,4)1AFL>0B"
    assert ground(s, "d5") == ["AFL"] and [p.kind for p in at(s, "d5")] == ["RP"]


# -- T42 --------------------------------------------------------------------------------------

def _t42(extra: str = ""):
    s = pos("piece B K j1 G\npiece W K j10 G\n" + extra)
    add_projectile(s, "R", "B", "c4", 1, 0)
    add_projectile(s, "R", "W", "c6", -1, 0)
    return s


def test_t42_projectiles_pass_each_other():
    """00/T42, RUL-46(b): both rockets enter the empty c5 G together and stay; next ply R1 is on
    c6 and R2 on c4."""
    s = act(_t42(), "MV:K(1,10)->(1,9)", "END")
    assert last_line(s) == "MV:K(1,10)->(1,9),RS:R->(5,3)(1,0),R->(5,3)(-1,0)"
    assert where(s) == [("R", "c5", 1, 0), ("R", "c5", -1, 0)]
    s = idle(s)
    assert where(s) == [("R", "c6", 1, 0), ("R", "c4", -1, 0)]


def test_t42_variant_joint_hit():
    """00/T42 variant, RUL-46(c), RUL-7, 04/N1: a W Destroyer [ARL] on c5 G takes 2 Rocket hits
    against defence 1; its ARL is placed on c5 G; both rockets are removed."""
    s = act(_t42("piece W DS c5 G ARL"), "MV:K(1,10)->(1,9)", "END")
    assert last_line(s) == ("MV:K(1,10)->(1,9),RS:R->(5,3)(1,0),R->(5,3)(-1,0),Rv(5,3),"
                            "Rv(5,3),RK*DS(5,3)1ARL0W")
    assert at(s, "c5") == [] and ground(s, "c5") == ["ARL"] and s.projectiles == ()


def test_t42_variant_jet_above_never_hit():
    """00/T42 variant, RUL-46(a): a W Jet on c5 A is ignored by the Ground rockets."""
    s = act(_t42("piece W JE c5 A"), "MV:K(1,10)->(1,9)", "END")
    assert where(s) == [("R", "c5", 1, 0), ("R", "c5", -1, 0)]
    assert [p.kind for p in at(s, "c5", "A")] == ["JE"]


# -- T46 --------------------------------------------------------------------------------------

def test_t46_two_stunned_pieces_drop_in_canonical_order():
    """00/T46, RUL-40, RUL-41, RUL-12: both e5 pieces stunned (3); the Destroyer (lower serial)
    places AFL first on f4 (White's ring 1, first square), then the Pawn's ARL finds f4 full and
    goes to e4."""
    s = pos("piece B K j1 G\npiece B SP e2 G\npiece W K j10 G\npiece W DS e5 G AFL\n"
            "piece W FP e5 G ARL\narticle ST e5\narticle CS e5\narticle FL f4")
    s = act(s, "FI:ST/SP(2,5)->(3,5)")
    assert rs(s) == "SP*DS(5,5)1AFL3W,SP*FP(5,5)1ARL3W"
    assert [(p.kind, p.stun) for p in at(s, "e5")] == [("DS", 3), ("FP", 3)]
    assert ground(s, "e5") == ["ST", "CS"]
    assert ground(s, "f4") == ["FL", "AFL"]
    assert ground(s, "e4") == ["ARL"]
