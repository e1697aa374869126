"""Fire and the direct weapons: Flamer, Stunner, Conversion, the restricted rocket, defences,
group fire, fire limits and rates of fire (01/R11-R13, R17; 04/N1-N8; 02/G13, G18-G20,
G26-G31, D13, D17-D19, D25-D29; RUL-4..RUL-14, RUL-17, RUL-40..RUL-42, RUL-52).

Every expected value is worked out by hand from the rule cited in the test. Squares are
written e4 in positions and (row, col) = (4,5) in notation. Idle turns are King shuffles.
Travelling projectiles are in tests/test_projectiles.py, the 00/T scenarios in
tests/test_scenarios_fire.py.
"""
from __future__ import annotations

import pytest

from engine.actions import Fire, PieceDesc
from engine.api import NotationError, RuleError, apply_action, parse_action
from engine.effects import ANTI, counter, defence
from engine.pieces import ARTICLES, TRANSPORTS, WEAPONS
from engine_helpers import at, ground, held, legal, one, pos, refused
from fire_helpers import act, add_projectile, idle, last_line, on_trip, rs


def fires(state, prefix: str = "") -> set[str]:
    """Legal Fires whose text starts with ``FI:<prefix>``."""
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


KINGS = "piece B K j1 G\npiece W K j10 G\n"


# -- 01/R11, 02/G13: what can be fired ----------------------------------------------------------

@pytest.mark.parametrize("article", ARTICLES)
def test_r11_1_only_weapons_and_transports_fire(article):
    """01/R11.1, 02/G13: the six weapons and the three transports can be fired; Stealth,
    Anti-Stealth, XXX and the six Anti- articles cannot (a Bulldozer has no inherent ability)."""
    s = pos(KINGS + f"piece B DO e5 G {article}")
    offered = {a.split("/")[0][3:] for a in fires(s, "") if "/DO(" in a}
    fireable = article in WEAPONS or article in TRANSPORTS
    token = "JU" if article == "JP" else article
    assert offered == ({token} if fireable else set())


def test_r11_1_non_fireable_article_refused():
    """01/R11.1, 01/R4.9: asking a Bulldozer to fire its Anti-Flamer is refused by the rules
    (and the notation has no such firing token)."""
    s = pos(KINGS + "piece B DO e5 G AFL")
    action = Fire("AFL", PieceDesc("DO", "G", 5, 5, ("AFL",)), 6, 5)
    with pytest.raises(RuleError) as err:
        apply_action(s, action)
    assert err.value.rule == "01/R4.9"
    with pytest.raises(NotationError):
        parse_action("FI:AFL/DO(5,5)1AFL->(6,5)")


# -- RUL-8, 01/R12.3: directions ---------------------------------------------------------------

def test_rul8_directions_are_the_on_board_king_steps():
    """RUL-8, 01/R12.3, 04/U37: a Flamer is aimed at one of the 8 neighbouring squares that is
    on the board: 8 in the middle, 3 in the corner a1."""
    s = pos(KINGS + "piece B FP e5 G\npiece B SP a1 G")
    assert fires(s, "FL/") == {f"FI:FL/FP(5,5)->({r},{c})" for r in (4, 5, 6) for c in (4, 5, 6)
                               if (r, c) != (5, 5)}
    assert fires(s, "ST/") == {"FI:ST/SP(1,1)->(2,1)", "FI:ST/SP(1,1)->(1,2)",
                               "FI:ST/SP(1,1)->(2,2)"}
    refused(s, "FI:FL/FP(5,5)->(7,5)", "RUL-9")        # not a neighbouring square


# -- Flamer: 01/R12.4, 02/G18, D19, RUL-9, R12.13 ---------------------------------------------

def test_rul9_flamer_default_reach_1_and_friendly_fire():
    """RUL-9, 02/D19, 01/R12.13: reach 1 by default; friendly pieces burn too (a Black Tank on
    e6); the Rocket Pawn on e7 is out of reach."""
    s = pos(KINGS + "piece B FP e5 G\npiece B TA> e6 G\npiece W RP e7 G")
    s = act(s, "FI:FL/FP(5,5)->(6,5)")
    assert rs(s) == "FP*TA(6,5)>0B"
    assert at(s, "e6") == [] and [p.kind for p in at(s, "e7")] == ["RP"]


def test_r12_4_flamer_range_2_no_shielding():
    """01/R12.4, RUL-9 with `flamer_range` = 2: both squares burn, the first does not shield
    the second, and both pieces of a shared cell burn (R13.8 separately: the Pawn's
    Anti-Flamer saves only it)."""
    s = pos(KINGS + "piece B TA> e4 G\npiece W DS e5 G\npiece W FP e5 G\npiece W RP e6 G",
            flamer_range=2)
    s = act(s, "FI:FL/TA(4,5)>->(5,5)")
    assert rs(s) == "TA*DS(5,5)0W,TA*RP(6,5)0W"
    assert [p.kind for p in at(s, "e5")] == ["FP"] and at(s, "e6") == []


def test_r12_1_flamer_works_on_its_own_level():
    """01/R12.1, RUL-9: a Jet in the Air flaming north burns e6 A but not e6 G."""
    s = pos(KINGS + "piece B JE e5 A FL\npiece W JE e6 A\npiece W RP e6 G")
    s = act(s, "FI:FL/JE^(5,5)1FL->(6,5)")
    assert rs(s) == "JE*JE^(6,5)0W"
    assert at(s, "e6", "A") == [] and [p.kind for p in at(s, "e6")] == ["RP"]


def test_flamer_at_the_board_edge_stops():
    """RUL-9 (range 2), RUL-8: cells off the board are skipped; a Flamer on e9 firing north
    reaches e10 only."""
    s = pos("piece B K j1 G\npiece W K a10 G\npiece B FP e9 G moved\npiece W RP e10 G",
            flamer_range=2)
    s = act(s, "FI:FL/FP(9,5)->(10,5)")
    assert rs(s) == "FP*RP(10,5)0W"


# -- Stunner: 01/R12.5, R12.6, 02/G20, D17, D18, RUL-10, RUL-11 -------------------------------

def test_rul10_stunner_first_cell_friendly_both_pieces():
    """RUL-10, 01/R12.6, R12.13: the ray stops at the first occupied cell even if it is
    friendly; both pieces there are stunned (counter 3, 02/D18); the piece behind is not."""
    s = pos(KINGS + "piece B SP a5 G\npiece B DO c5 G\npiece B DS c5 G\npiece W TA< e5 G")
    s = act(s, "FI:ST/SP(5,1)->(5,2)")
    assert rs(s) == "SP*DO(5,3)3B,SP*DS(5,3)3B"
    assert [p.stun for p in at(s, "c5")] == [3, 3]
    assert one(s, "e5", "TA").stun == 0 and counter(s, one(s, "e5", "TA").sid, "ST") == 0


def test_r12_5_stun_is_not_lethal():
    """01/R12.5, RUL-11: a stun destroys nothing: the King stunned stays on the board and the
    game goes on."""
    s = act(pos("piece B K j1 G\npiece B SP e2 G\npiece W K e6 G"), "FI:ST/SP(2,5)->(3,5)")
    assert rs(s) == "SP*K(6,5)3W" and s.result is None and one(s, "e6", "K").stun == 3


@pytest.mark.parametrize("stun_range, stunned", [(9, 3), (3, 0), (4, 3)])
def test_d17_stun_range_option(stun_range, stunned):
    """02/D17, RUL-10 `stun_range`: a piece 4 squares away is reached with range 9 or 4, not
    with range 3 (the Fire then has no effect but still counts, RUL-50 d)."""
    s = pos(KINGS + "piece B SP a2 G\npiece W TA< e2 G", stun_range=stun_range)
    s = act(s, "FI:ST/SP(2,1)->(2,2)")
    assert one(s, "e2", "TA").stun == stunned
    assert s.turn.fires == 1 and dict(one(s, "a2", "SP").ready)["ST"] == 5


def test_rul10_empty_ray_counts_as_a_fire():
    """RUL-10, RUL-50(d): a ray meeting nothing still uses a Fire and starts the countdown."""
    s = act(pos(KINGS + "piece B SP a2 G"), "FI:ST/SP(2,1)->(3,1)")
    assert rs(s) == "" and s.turn.fires == 1
    assert dict(one(s, "a2", "SP").ready) == {"ST": 5}


def test_a29_stunner_hits_a_hidden_piece():
    """A-29, RUL-10, 02/G20: a hidden enemy (a stealthy AAA, unseen by Black) is physically
    present: the ray stops at it and stuns it; the visible Tank behind it is untouched."""
    s = pos(KINGS + "piece B SP a5 G\npiece W AAA c5 G\npiece W TA< e5 G")
    s = act(s, "FI:ST/SP(5,1)->(5,2)")
    assert one(s, "c5", "AAA").stun == 3 and one(s, "e5", "TA").stun == 0
    assert rs(s) == "SP*AAA(5,3)3W"


@pytest.mark.parametrize("duration", [1, 2, 3])
def test_d18_stun_duration_option(duration):
    """02/D18, RUL-11 `stun_duration`: the counter is set to the duration and goes down by 1 at
    the end of each of its owner's turns; the piece may Move once it is 0."""
    s = pos(KINGS + "piece B SP e2 G\npiece W DO e6 G", stun_duration=duration)
    s = act(s, "FI:ST/SP(2,5)->(3,5)", "K", "END")
    assert one(s, "e6", "DO").stun == duration
    for left in range(duration - 1, -1, -1):
        assert not any(a.startswith("MV:DO(6,5)") for a in legal(s))
        s = idle(s)                                       # White's turn: counts down
        assert one(s, "e6", "DO").stun == left
        s = idle(s)                                       # Black's turn: unchanged
        assert one(s, "e6", "DO").stun == left
    assert "MV:DO(6,5)->(5,5)" in legal(s)


def test_rul11_countdown_only_if_stunned_when_the_turn_began():
    """RUL-11: a piece stunned during its owner's own turn (a friendly Stunner) is not counted
    down at the end of that turn: 3 after it, 2 after the owner's next turn."""
    s = pos(KINGS + "piece B SP e2 G\npiece B DO e4 G")
    s = act(s, "FI:ST/SP(2,5)->(3,5)", "K", "END")
    assert one(s, "e4", "DO").stun == 3
    s = idle(s, 2)
    assert one(s, "e4", "DO").stun == 2


def test_rul11_stunned_piece_cannot_move_but_may_fire_pick_up_drop():
    """RUL-11 (`stunned_may_act` on, the default): a stunned piece cannot Move or fire a
    transport article, but may fire weapons, Pick-up and Drop."""
    s = pos(KINGS + "piece B SP e5 G stun=2\npiece B DO c3 G BI stun=2\narticle AFL e5")
    refused(s, "MV:SP(5,5)->(6,4)", "RUL-11")
    assert not any(a.startswith("FI:BI/") for a in legal(s))
    refused(s, "FI:BI/DO(3,3)1BI->(4,3)", "RUL-11")
    s = act(s, "FI:ST/SP(5,5)->(6,5)", "PU:SP(5,5)^AFL", "DR:DO(3,3)1BIvBI")
    assert held(s, one(s, "e5", "SP")) == ["AFL"] and ground(s, "c3") == ["BI"]


def test_rul11_stunned_may_act_off():
    """RUL-11 option `stunned_may_act` off: a stunned piece takes no action at all."""
    s = pos(KINGS + "piece B SP e5 G stun=2\narticle AFL e5", stunned_may_act=False)
    assert not any("SP(5,5)" in a for a in legal(s))
    refused(s, "FI:ST/SP(5,5)->(6,5)", "RUL-11")
    refused(s, "PU:SP(5,5)^AFL", "RUL-11")


def test_rul11_defences_of_a_stunned_piece_count():
    """RUL-11, RUL-7: a stunned Flamer Pawn keeps its inherent Anti-Flamer: one flame does not
    destroy it."""
    s = pos(KINGS + "piece B FP e4 G\npiece W FP e5 G stun=3")
    s = act(s, "FI:FL/FP(4,5)->(5,5)")
    assert rs(s) == "" and one(s, "e5", "FP").stun == 3


# -- Article placement: 04/N6, N8, RUL-12, 02/G6 ----------------------------------------------

def test_n8_black_ring_1_order():
    """04/N8, RUL-12: own square first, then ahead left-to-right (Black's left is file a):
    d6, e6, f6, then left d5, right f5, then behind d4, e4, f4. With e5, d6 full and one
    article on e6, AFL fills e6 and ARL goes to f6."""
    s = pos(KINGS + "piece W SP e2 G\npiece B XP e5 G AFL ARL\n"
            "article SH e5\narticle SH e5\narticle SC d6\narticle SC d6\narticle BI e6")
    s = act(s, "MV:K(1,10)->(1,9)", "END", "FI:ST/SP(2,5)->(3,5)")
    assert rs(s) == "SP*XP(5,5)2AFLARL3B"
    assert ground(s, "e6") == ["BI", "AFL"] and ground(s, "f6") == ["ARL"]


def test_n8_left_then_right_column():
    """04/N8, RUL-12: with the three squares ahead full, the left square (d5 for Black) comes
    before the right one (f5); then f5."""
    full = "".join(f"article SC {q}\narticle SC {q}\n" for q in ("e5", "d6", "e6", "f6"))
    s = pos(KINGS + "piece W SP e2 G\npiece B XP e5 G AFL ARL\narticle BI d5\n" + full)
    s = act(s, "MV:K(1,10)->(1,9)", "END", "FI:ST/SP(2,5)->(3,5)")
    assert ground(s, "d5") == ["BI", "AFL"] and ground(s, "f5") == ["ARL"]


def test_rul12_ring_2_white_viewpoint():
    """RUL-12 rings k >= 2, 04/N8 viewpoint: for a White piece on e5 with its square and all of
    ring 1 full, ring 2 starts with the row 2 ahead (rank 3) from White's left (file j side):
    g3, then f3. g3 holds one article already."""
    ring1 = ("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6", "e5")
    full = "".join(f"article SC {q}\narticle SC {q}\n" for q in ring1)
    s = pos(KINGS + "piece B SP e9 G moved\npiece W XP e5 G AFL ARL\narticle BI g3\n" + full)
    s = act(s, "FI:ST/SP(9,5)->(8,5)")
    assert rs(s) == "SP*XP(5,5)2AFLARL3W"
    assert ground(s, "g3") == ["BI", "AFL"] and ground(s, "f3") == ["ARL"]


def test_rul12_destroyed_piece_articles_are_placed():
    """RUL-12, 02/G6: the articles of a burnt piece are permanent and are placed in acquisition
    order: XXX fills e6 (which held one article), ARL goes on to White's ring 1, first square
    f5 (row ahead = rank 5, from White's left)."""
    s = pos(KINGS + "piece B FP e5 G\npiece W TA< e6 G XXX ARL\narticle BI e6")
    s = act(s, "FI:FL/FP(5,5)->(6,5)")
    assert rs(s) == "FP*TA(6,5)2XXXARL<0W"
    assert ground(s, "e6") == ["BI", "XXX"] and ground(s, "f5") == ["ARL"]


# -- Conversion: 01/R12.7, 02/G19, RUL-13, RUL-14, 01/R17, 04/N7 -------------------------------

def test_rul13_conversion_keeps_everything_and_only_enemies():
    """RUL-13, 01/R12.7: the stunned enemy Tank on d6 converts and keeps its square, article,
    stun counter and the article's rate-of-fire countdown; the friendly Destroyer targeted on
    e4 is unaffected and receives no hit."""
    s = pos("piece B K j1 G\npiece B CP e5 G\npiece B DS e4 G\npiece W K j10 G\n"
            "piece W TA< d6 G ST stun=2")
    s.art_ready[one(s, "d6", "TA").arts[0]] = 4
    s = act(s, "FI:CS/CP(5,5)->(6,4)")
    tank = one(s, "d6", "TA")
    assert (tank.side, tank.stun, held(s, tank)) == ("B", 2, ["ST"])
    assert s.art_ready[tank.arts[0]] == 4
    assert rs(s) == "CP*TA(6,4)1ST<2W"
    assert not any(a.startswith("FI:ST/TA") for a in legal(s))     # countdown kept (RUL-6)
    s2 = act(pos("piece B K j1 G\npiece B CL< e5 G\npiece B DS e4 G\npiece W K j10 G"),
             "FI:CS/CL(5,5)<->(4,5)")
    assert rs(s2) == "" and counter(s2, one(s2, "e4", "DS").sid, "CS") == 0
    assert one(s2, "e4", "DS").side == "B"


def test_rul13_converted_stun_counts_down_on_the_new_owner_turns():
    """RUL-13, RUL-11: a converted stunned piece (counter 2) counts down at the end of its new
    owner's (Black's) turns: 1 after ply 1, unchanged after White's ply 2."""
    s = pos("piece B K j1 G\npiece B CP e5 G\npiece W K j10 G\npiece W TA< e6 G stun=2")
    s = act(s, "FI:CS/CP(5,5)->(6,5)", "K", "END")
    assert one(s, "e6", "TA").stun == 1           # already stunned when ply 1 began; Black's now
    s = idle(s)
    assert one(s, "e6", "TA").stun == 1
    s = idle(s)
    assert one(s, "e6", "TA").stun == 0


def test_t8_converted_pawn_forward_and_no_double_step():
    """00/T8, RUL-13, RUL-27: the Cleric converts the never-moved White Stunner Pawn on b9; it
    becomes Black, its forward is north and it has no 2-square move."""
    s = pos("piece B K j1 G\npiece B CL< a8 G\npiece W K f10 G\npiece W SP b9 G")
    s = act(s, "FI:CS/CL(8,1)<->(9,2)")
    assert rs(s) == "CL*SP(9,2)0W"
    s = act(s, "K", "END", "MV:K(10,6)->(10,7)", "END")
    assert {a for a in legal(s) if a.startswith("MV:SP(9,2)")} == {
        "MV:SP(9,2)->(10,1)", "MV:SP(9,2)->(10,3)"}


def test_g19_converting_the_king_ends_the_game():
    """02/G19, RUL-13, RUL-2: a King without Anti-Conversion next to a Conversion Pawn is
    converted; the game ends and Black wins."""
    s = act(pos("piece B K j1 G\npiece B CP e5 G\npiece W K e6 G"), "FI:CS/CP(5,5)->(6,5)")
    assert s.result == "B"
    assert s.history == ("MV:-,FI1:CS/CP(5,5)->(6,5),RS:CP*K(6,5)0W",)


def test_r12_1_conversion_on_level_only():
    """01/R12.1, RUL-13: a Ground Conversion does not touch the Jet above the target square."""
    s = act(pos(KINGS + "piece B CP e5 G\npiece W JE e6 A"), "FI:CS/CP(5,5)->(6,5)")
    assert rs(s) == "" and at(s, "e6", "A")[0].side == "W"


def test_r17_2_mixed_cell_weapons_treat_each_piece_and_converted_back():
    """01/R17.1-R17.2, RUL-14: a mixed cell (B Jet + W Jet on e5 A, left by an earlier
    Conversion): a Black Conversion converts only the White Jet (the Black one gets no hit) and
    the cell stops being mixed; a Flamer burns both pieces of such a cell."""
    mixed = KINGS + "piece B JE e4 A CS\npiece B JE e5 A\npiece W JE e5 A\n"
    s = act(pos(mixed), "FI:CS/JE^(4,5)1CS->(5,5)")
    assert rs(s) == "JE*JE^(5,5)0W"
    assert [p.side for p in at(s, "e5", "A")] == ["B", "B"]
    s = act(pos(mixed.replace("CS", "FL")), "FI:FL/JE^(4,5)1FL->(5,5)")
    assert rs(s) == "JE*JE^(5,5)0B,JE*JE^(5,5)0W" and at(s, "e5", "A") == []


def test_n7_conversion_kill_when_the_passenger_converts():
    """04/N7 (both cases), RUL-14, A-23, RUL-36: the Chopper holds Anti-Conversion and stays
    Black; the carried Tank converts, cannot stay in the Air without a carrier of its new side
    and is destroyed. Its conversion is a kill, so it is written once, as `CK` with its colour
    before the Fire."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A ACS\npiece B TA> d5 A\n"
            "piece W K j10 G\npiece W JE d6 A CS")
    s = act(s, "FI:CS/JE^(6,4)1CS->(5,4)")
    assert rs(s) == "CK*TA^(5,4)>0B"
    (ch,) = at(s, "d5", "A")
    assert (ch.kind, ch.side) == ("CH", "B")


def test_n7_both_convert_no_kill():
    """04/N7, RUL-14: the Chopper and its passenger both convert: still one side together, no
    conversion kill; both are written in canonical order."""
    s = pos("to-move W\npiece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A\n"
            "piece W K j10 G\npiece W JE d6 A CS")
    s = act(s, "FI:CS/JE^(6,4)1CS->(5,4)")
    assert rs(s) == "JE*CH^(5,4)>0B,JE*TA^(5,4)>0B"
    assert [(p.kind, p.side) for p in at(s, "d5", "A")] == [("CH", "W"), ("TA", "W")]


# -- Defences: 01/R13, 02/G26-G31, 04/N1, N4, N5, RUL-7 -----------------------------------------

def test_r13_9_every_weapon_has_its_anti_article():
    """01/R13.9, 02/G26-G31, RUL-7: each of the six weapon types has one matching Anti-
    article, and the defence is 1 per held article plus 1 for the inherent ability."""
    assert ANTI == {"FL": "AFL", "ST": "AST", "CS": "ACS", "RL": "ARL", "SL": "ASL", "TL": "ATL"}
    s = pos(KINGS + "piece B XP e5 G AFL AFL\npiece B FP e4 G XXX AFL AFL")
    assert defence(s, one(s, "e5", "XP"), "FL") == 2
    assert defence(s, one(s, "e4", "FP"), "FL") == 3      # 04/N4: a pawn reaches 3
    assert defence(s, one(s, "e4", "FP"), "RL") == 0


def test_r13_1_counters_reset_every_turn():
    """01/R13.1, RUL-7, 04/N1 (per turn): the King survives one flame at ply 1 and one at ply 3
    (two Flamers of different pieces); the counter is back to 0 at ply 3."""
    s = pos("piece B K j1 G\npiece B FP d4 G\npiece B TA> f4 G\npiece W K e5 G\n"
            "piece W DO a10 G")
    s = act(s, "FI:FL/FP(4,4)->(5,5)", "K", "END", "MV:DO(10,1)->(10,2)", "END")
    king = one(s, "e5", "K")
    assert counter(s, king.sid, "FL") == 0
    s = act(s, "FI:FL/TA(4,6)>->(5,5)")
    assert counter(s, king.sid, "FL") == 1 and s.result is None


def test_r13_1_stun_strips_anti_flamer_before_the_flame():
    """01/R13.1 example, RUL-7 (current defence at each hit): the King [AFL] has defence 2; a
    Stunner first makes it drop AFL, so a strength-2 flame (Tank + FL) then destroys it."""
    s = pos("piece B K j1 G\npiece B SP e2 G\npiece B TA> d4 G FL\npiece W K e5 G AFL")
    s = act(s, "FI:ST/SP(2,5)->(3,5)")
    assert rs(s) == "SP*K(5,5)1AFL3W" and ground(s, "e5") == ["AFL"]
    s = act(s, "FI:FL/TA(4,4)1FL>->(5,5)")
    assert s.result == "B"
    assert s.history[-1].endswith(",RS:SP*K(5,5)1AFL3W,TA*K(5,5)0W")


def test_rul7_no_recheck_when_the_defence_shrinks():
    """RUL-7: flamed with strength 2 against defence 2 (inherent + AFL) the King survives;
    a later stun strips AFL (defence 1 < counter 2) but without a new Flamer hit there is no
    re-check: it survives the turn."""
    s = pos("piece B K j1 G\npiece B SP e2 G\npiece B TA> d4 G FL\npiece W K e5 G AFL")
    s = act(s, "FI:FL/TA(4,4)1FL>->(5,5)", "FI:ST/SP(2,5)->(3,5)")
    king = one(s, "e5", "K")
    assert counter(s, king.sid, "FL") == 2 and defence(s, king, "FL") == 1
    assert s.result is None and rs(s) == "SP*K(5,5)1AFL3W"


def test_n4_n5_strongest_attack_and_defence():
    """04/N4, N5, RUL-5: a Tank [XXX FL FL] fires strength 3; a Flamer Pawn [XXX AFL AFL]
    (defence 3) survives it, a Tank [XXX AFL AFL] (no inherent AFL, defence 2) burns."""
    s = pos(KINGS + "piece B TA> e4 G XXX FL FL\npiece W FP e5 G XXX AFL AFL\n"
            "piece W TA< d5 G XXX AFL AFL")
    s = act(s, "FI:FL/TA(4,5)3XXXFLFL>->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 3 and rs(s) == ""
    s = pos(KINGS + "piece B TA> e4 G XXX FL FL\npiece W TA< e5 G XXX AFL AFL")
    s = act(s, "FI:FL/TA(4,5)3XXXFLFL>->(5,5)")
    assert rs(s) == "TA*TA(5,5)3XXXAFLAFL<0W"


def test_n5_piece_without_the_weapon_reaches_2():
    """04/N5: a King (no inherent Flamer) [XXX FL FL] fires a strength-2 flame."""
    s = pos("piece B K e4 G XXX FL FL\npiece W K j10 G\npiece W FP e5 G AFL")
    s = act(s, "FI:FL/K(4,5)3XXXFLFL->(5,5)")
    fp = one(s, "e5", "FP")
    assert counter(s, fp.sid, "FL") == 2 and defence(s, fp, "FL") == 2 and rs(s) == ""


# -- Group fire and limits: 04/N2, RUL-4, RUL-5, RUL-52 -----------------------------------------

def test_rul5_group_excludes_a_source_still_counting_down():
    """RUL-5, RUL-6 (countdown survives an Exchange): the Bulldozer fires its FL at ply 1 and
    hands it to the Tank; at ply 3 the Tank's Flamer fires with strength 1 only (the article is
    ready from ply 9); at ply 9 the article fires alone (strength 1); at ply 11 both together."""
    s = pos("piece B K j1 G\npiece B TA> e4 G\npiece B DO d4 G FL\npiece W K j10 G\n"
            "piece W FP e5 G AFL")
    s = act(s, "FI:FL/DO(4,4)1FL->(5,4)", "EX:DO(4,4)1FL->FL->TA(4,5)>", "K", "END")
    s = idle(s)
    assert fires(s, "FL/TA") == {f"FI:FL/TA(4,5)1FL>->({r},{c})" for r, c in
                                 ((3, 4), (3, 5), (3, 6), (4, 4), (4, 6), (5, 4), (5, 5),
                                  (5, 6))}
    s = act(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 1
    s = act(s, "K", "END")
    s = idle(s, 5)
    assert s.ply == 9                       # the article is ready again, the inherent (fired
    branch = act(s, "FI:FL/TA(4,5)1FL>->(5,5)")        # at ply 3) only from ply 11
    assert counter(branch, one(branch, "e5", "FP").sid, "FL") == 1
    s = idle(s, 2)
    assert s.ply == 11
    s = act(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 2


def test_rul4_article_fired_cannot_fire_again_after_exchange():
    """RUL-4: an article that has fired cannot fire again in the turn, even after an Exchange
    (its countdown, RUL-6, is also running, and is what the engine reports first)."""
    s = pos("piece B K j1 G\npiece B TA> e4 G\npiece B DO d4 G ST\npiece W K j10 G")
    s = act(s, "FI:ST/DO(4,4)1ST->(5,4)", "EX:DO(4,4)1ST->ST->TA(4,5)>")
    assert fires(s, "ST/") == set()
    refused(s, "FI:ST/TA(4,5)1ST>->(5,5)", "RUL-6")


def test_rul4_per_piece_option():
    """RUL-4 `fire_limit_rule` = per_piece: the Tank of T11 fires its Flamer and then may not
    fire its ST article in the same turn."""
    s = pos(KINGS + "piece B TA> e4 G ST", fire_limit_rule="per_piece")
    s = act(s, "FI:FL/TA(4,5)1ST>->(5,5)")
    assert fires(s, "") == set()
    refused(s, "FI:ST/TA(4,5)1ST>->(4,6)", "RUL-4")
    s = act(pos(KINGS + "piece B TA> e4 G ST"), "FI:FL/TA(4,5)1ST>->(5,5)")
    assert fires(s, "ST/TA") != set()                        # per_source allows it


def test_rul4_per_weapon_option_jet_fires_both_inherent_weapons():
    """RUL-4 `fire_limit_rule` = per_weapon: the Jet of corrected T11 fires its SAM and then
    its restricted rocket in the same turn (each inherent ability is its own source)."""
    s = pos(KINGS + "piece B JE c6 A\npiece W CP c6 G", fire_limit_rule="per_weapon")
    s = act(s, "FI:SL/JE^(6,3)->(7,3)", "FI:RL/JE^(6,3)=>CP(6,3)")
    assert rs(s) == "S->(7,3)(1,0),Rv(6,3),RK*CP(6,3)0W"
    s = pos(KINGS + "piece B JE c6 A\npiece W CP c6 G")
    s = act(s, "FI:SL/JE^(6,3)->(7,3)")
    refused(s, "FI:RL/JE^(6,3)=>CP(6,3)", "RUL-4")


def test_rul52_jet_rocket_article_pulls_in_the_inherent_rocket():
    """RUL-52, RUL-17, 04/N5: a Jet [XXX RL RL] fires a restricted rocket of strength 3 (the
    inherent source joins): the Rocket Pawn [ARL] below (defence 2) is destroyed; the Jet's
    inherent source may not fire its SAM afterwards."""
    s = pos(KINGS + "piece B JE e5 A XXX RL RL\npiece W RP e5 G ARL")
    s = act(s, "FI:RL/JE^(5,5)3XXXRLRL=>RP(5,5)1ARL")
    assert rs(s) == "Rv(5,5),RK*RP(5,5)1ARL0W"
    assert fires(s, "SL/") == set() and s.projectiles == ()
    refused(s, "FI:SL/JE^(5,5)3XXXRLRL->(6,5)", "RUL-4")


def test_rul52_sam_pulls_in_held_sam_articles():
    """RUL-52, RUL-5: the Jet's inherent SAM and its SL article fire together: one SAM of
    strength 2, and the SL article counts down too."""
    s = act(pos(KINGS + "piece B JE e5 A SL"), "FI:SL/JE^(5,5)1SL->(6,5)")
    (proj,) = s.projectiles
    assert (proj.kind, proj.strength) == ("S", 2)
    jet = one(s, "e5", "JE", "A")
    assert s.art_ready[jet.arts[0]] == 9 and dict(jet.ready)["SL"] == 9


def test_rul52_transport_articles_never_grouped():
    """RUL-52, RUL-4: a Bulldozer [XXX BI BI] fires one Bike per Fire; the other Bike is a
    separate source and may fire in the same turn."""
    s = pos(KINGS + "piece B DO e4 G XXX BI BI")
    s = act(s, "FI:BI/DO(4,5)3XXXBIBI->(5,5)")
    assert one(s, "e5", "DO") is not None
    assert "FI:BI/DO(5,5)3XXXBIBI->(6,5)" in legal(s)
    s = act(s, "FI:BI/DO(5,5)3XXXBIBI->(6,5)")
    assert [p.kind for p in at(s, "e6")] == ["DO"] and s.turn.fires == 2


# -- Rates of fire: 01/R12.12, 02/D25-D29, RUL-6 ------------------------------------------------

RATE_CASES = [  # weapon, piece, fire (aimed at nothing), option name
    ("ST", "SP", "FI:ST/SP(2,5)->(3,5)", "rate_stunner"),
    ("FL", "FP", "FI:FL/FP(2,5)->(3,5)", "rate_flamer"),
    ("CS", "CP", "FI:CS/CP(2,5)->(3,5)", "rate_conversion"),
    ("RL", "RP", "FI:RL/RP(2,5)->(2,4)", "rate_rocket"),
    ("SL", "SOP", "FI:SL/SOP(2,5)->(2,4)", "rate_sam"),
    ("TL", "DS", "FI:TL/DS(2,5)->(2,4)", "rate_torpedo"),
]


def _ready_plies(kind: str, fire: str, weapon: str, last: int, **options) -> list[int]:
    """Black plies 3, 5, ... ``last`` at which the weapon fired at ply 1 may fire again."""
    s = pos(KINGS + f"piece B {kind} e2 G", **options)
    s = act(s, fire, "K", "END")
    out = []
    while s.ply < last:
        s = idle(s)
        if any(a.startswith(f"FI:{weapon}/") for a in legal(s)):
            out.append(s.ply)
        s = idle(s)
    return out


@pytest.mark.parametrize("weapon, kind, fire, option", RATE_CASES)
def test_d25_d29_default_rates(weapon, kind, fire, option):
    """02/D25-D29, A-12, RUL-6: a weapon fired at ply 1 is ready again at ply 1 + 2r: Stunner
    (r = 2) from ply 5, the others (r = 4) from ply 9; the firing turn counts as the first."""
    first = 5 if weapon == "ST" else 9
    assert _ready_plies(kind, fire, weapon, 11) == list(range(first, 12, 2))


@pytest.mark.parametrize("weapon, kind, fire, option", RATE_CASES)
def test_rate_options(weapon, kind, fire, option):
    """RUL-38 `rate_*` options, RUL-6: with rate 1 the weapon fires again at ply 3, with rate 3
    at ply 7."""
    assert _ready_plies(kind, fire, weapon, 3, **{option: 1}) == [3]
    assert _ready_plies(kind, fire, weapon, 7, **{option: 3}) == [7]


def test_rul6_jet_abilities_have_separate_countdowns():
    """RUL-6: a Jet's SAM (fired at ply 1) and its restricted rocket are timed separately: at
    ply 3 the rocket may fire, the SAM may not."""
    s = pos(KINGS + "piece B JE c6 A\npiece W CP c6 G")
    s = act(s, "FI:SL/JE^(6,3)->(7,3)", "K", "END")
    s = idle(s)
    assert fires(s, "SL/") == set() and fires(s, "RL/") == {"FI:RL/JE^(6,3)=>CP(6,3)"}


def test_rul6_countdown_survives_drop_and_enemy_pickup():
    """RUL-6: the countdown belongs to the article. Black fires ST at ply 1 and drops it; White
    picks it up at ply 2; it is not ready for White at ply 4 and is at ply 6 (>= ply 5)."""
    s = pos("piece B K j1 G\npiece B DO e5 G ST\npiece W K j10 G\npiece W DO e6 G")
    s = act(s, "FI:ST/DO(5,5)1ST->(4,5)", "DR:DO(5,5)1STvST", "MV:DO(5,5)->(4,5)", "END")
    s = act(s, "MV:DO(6,5)->(5,5)", "PU:DO(5,5)^ST", "END")
    s = idle(s)
    assert s.ply == 4 and fires(s, "ST/") == set()
    s = idle(s, 2)
    assert s.ply == 6 and "FI:ST/DO(5,5)1ST->(4,5)" in legal(s)


def test_rul6_transport_articles_have_no_rate():
    """RUL-6, 01/R12.12: a Bike fired at ply 1 can be fired again at ply 3."""
    s = pos(KINGS + "piece B DO e4 G BI")
    s = act(s, "FI:BI/DO(4,5)1BI->(5,5)", "K", "END")
    s = idle(s)
    assert "FI:BI/DO(5,5)1BI->(6,5)" in legal(s)


# -- Restricted rocket: 01/R12.11, 02/D13, RUL-17 -----------------------------------------------

def test_rul17_target_must_be_visible_and_friendly_fire_allowed():
    """RUL-17, 01/R12.13: a hidden enemy (stealthy Stealth Pawn) below the Jet is no target; a
    friendly Pawn below is, and it is destroyed."""
    s = pos(KINGS + "piece B JE e5 A\npiece W SHP e5 G\npiece B JE c5 A\npiece B RP c5 G moved")
    assert fires(s, "RL/JE") == {"FI:RL/JE^(5,3)=>RP(5,3)"}
    refused(s, "FI:RL/JE^(5,5)=>SHP(5,5)", "RUL-17")
    s = act(s, "FI:RL/JE^(5,3)=>RP(5,3)")
    assert rs(s) == "Rv(5,3)" and one(s, "c5", "RP") is not None   # own ARL: 1 <= 1
    s = pos(KINGS + "piece B JE c5 A\npiece B SP c5 G moved")
    s = act(s, "FI:RL/JE^(5,3)=>SP(5,3)")
    assert rs(s) == "Rv(5,3),RK*SP(5,3)0B"


def test_rul17_range_1_from_the_ground_excludes_own_cell():
    """RUL-17 with `restricted_rocket_range` = 1: a Sub on e5 G may target visible pieces on the
    Ground of the 8 neighbouring squares, never its own cell."""
    s = pos(KINGS + "piece B SU e5 G\npiece W RP e6 G\npiece W SP f4 G\npiece W CP e7 G",
            restricted_rocket_range=1)
    assert fires(s, "RL/") == {"FI:RL/SU(5,5)=>RP(6,5)", "FI:RL/SU(5,5)=>SP(4,6)"}


def test_rul17_hits_every_piece_of_the_cell_and_reveals_a_sub():
    """RUL-17, RUL-20, A-3: a submerged (hidden) Sub fires its restricted rocket at the Ground
    of its square: both pieces there (Destroyer, Bulldozer) are destroyed; the Sub is revealed
    to White; its rocket is timed (ready from ply 9)."""
    s = pos(KINGS + "piece B SU e5 S\npiece W DS e5 G\npiece W DO e5 G")
    s = act(s, "FI:RL/SUv(5,5)=>DS(5,5)")
    assert rs(s) == "Rv(5,5),RK*DS(5,5)0W,RK*DO(5,5)0W"
    sub = one(s, "e5", "SU", "S")
    assert sub.sid in s.reveals and dict(sub.ready)["RL"] == 9


# -- Falling and descents: 02/G20, A-8, RUL-12, RUL-41, RUL-42 ----------------------------------

def test_rul41_fallen_traveller_hit_by_a_waiting_rocket():
    """RUL-41 step 7, RUL-15, RUL-42: the stunned Jump-Pack Tank comes down on e5 G, where a
    Black rocket waits: the rocket hits it after the descent (no Anti-Rocket): destroyed."""
    s = pos("piece B K j1 G\npiece B JE e2 A ST\npiece W K j10 G\npiece W TA< e5 A JP")
    on_trip(s, "e5", "A", "JP", ("e6",))
    add_projectile(s, "R", "B", "e5", 1, 0)
    s = act(s, "FI:ST/JE^(2,5)1ST->(3,5)")
    assert rs(s) == "JE*TA^(5,5)1JP<3W,TAv(5,5),Rv(5,5),RK*TA(5,5)<0W"
    assert at(s, "e5") == [] and s.projectiles == () and ground(s, "e5") == ["JP"]


def test_rul42_native_passenger_stays_when_the_carrier_burns():
    """RUL-42, RUL-14 (each piece separately): a flame on e5 A burns the Chopper and a Jet
    without Anti-Flamer; a Jet [AFL] survives and stays in the Air (native level)."""
    s = pos(KINGS + "piece B JE e4 A FL\npiece W CH< e5 A\npiece W JE e5 A ASL")
    s = act(s, "FI:FL/JE^(4,5)1FL->(5,5)")
    assert rs(s) == "JE*CH^(5,5)<0W,JE*JE^(5,5)1ASL0W"
    s = pos(KINGS + "piece B JE e4 A FL\npiece W CH< e5 A\npiece W JE e5 A AFL")
    s = act(s, "FI:FL/JE^(4,5)1FL->(5,5)")
    assert rs(s) == "JE*CH^(5,5)<0W"
    assert [p.kind for p in at(s, "e5", "A")] == ["JE"]


def test_rul42_stunned_carrier_keeps_its_passenger():
    """RUL-42: a stunned Chopper drops its own articles and keeps its passenger in the Air; the
    passenger does not come down and cannot be flown away."""
    s = pos(KINGS + "piece B SP e2 G\npiece B JE e3 A ST\npiece W CH< e5 A AFL\n"
            "piece W TA< e5 A ARL")
    s = act(s, "FI:ST/JE^(3,5)1ST->(4,5)")
    assert rs(s) == "JE*CH^(5,5)1AFL<3W,JE*TA^(5,5)1ARL<3W"
    assert [(p.kind, p.stun) for p in at(s, "e5", "A")] == [("CH", 3), ("TA", 3)]
    assert ground(s, "e5") == ["AFL", "ARL"]


# -- further defences and articles: 01/R13.5-R13.7, 02/G29, G30, 04/N3 --------------------------

def test_r13_5_g29_anti_sam_one_hit_per_turn():
    """01/R13.5, 02/G29, RUL-7: a Jet [ASL] survives one SAM hit (1 <= 1) and is destroyed by a
    second SAM in the same turn (2 > 1). Both SAMs are created on its cell and hit at once."""
    s = pos(KINGS + "piece B AAA e4 G\npiece B SOP d4 G\npiece W JE e5 A ASL")
    s = act(s, "FI:SL/AAA(4,5)->(5,5)")
    assert rs(s) == "S->(5,5)(1,0),Sv(5,5)" and s.projectiles == ()
    s = act(s, "FI:SL/SOP(4,4)->(5,5)")
    assert rs(s) == "S->(5,5)(1,0),Sv(5,5),S->(5,5)(1,1),Sv(5,5),SK*JE^(5,5)1ASL0W"
    assert ground(s, "e5") == ["ASL"]


def test_r13_6_g30_anti_torpedo():
    """01/R13.6, 02/G30, RUL-7: a Sub [ATL] survives a torpedo (1 <= 1); without it, it is
    destroyed (`TK`)."""
    s = act(pos(KINGS + "piece B DS e4 G\npiece W SU e5 S ATL"), "FI:TL/DS(4,5)->(5,5)")
    assert rs(s) == "T->(5,5)(1,0),Tv(5,5)" and len(at(s, "e5", "S")) == 1
    s = act(pos(KINGS + "piece B DS e4 G\npiece W SU e5 S"), "FI:TL/DS(4,5)->(5,5)")
    assert rs(s) == "T->(5,5)(1,0),Tv(5,5),TK*SUv(5,5)0W"


def test_r13_7_anti_stealth_sees_by_locking_on():
    """01/R13.7, 02/G25, RUL-19: picking up an Anti-Stealth locks onto the hidden stealthy
    Bulldozer [SH], which becomes visible to Black."""
    from engine.visibility import hidden_from

    s = pos(KINGS + "piece B CP b4 G\narticle ASH b4\npiece W DO d6 G SH")
    dozer = one(s, "d6", "DO")
    assert dozer.sid in hidden_from(s, "B")
    s = act(s, "PU:CP(4,2)^ASH")
    assert dozer.sid not in hidden_from(s, "B")


def test_n3_xxx_does_not_stack():
    """04/N3, 02/G24: a second XXX adds nothing: a Bulldozer may hold XXX, XXX and one more
    article (3), not four."""
    from engine.errors import SaveError

    s = pos(KINGS + "piece B DO e4 G XXX XXX FL")
    assert held(s, one(s, "e4", "DO")) == ["XXX", "XXX", "FL"]
    with pytest.raises(SaveError, match="over capacity"):
        pos(KINGS + "piece B DO e4 G XXX XXX FL FL")
