"""Articles: Pick-up, Drop, Exchange, capacity and XXX, placement of lost articles, locks at
pick-up, and the Reinforce action (01/R9.5-R9.6, R10; 02/G6, G14-G17, G24, G25, G37, D5, D14,
D21, D23; RUL-11, RUL-12, RUL-18, RUL-19, RUL-28, RUL-29, RUL-34, RUL-47, RUL-49; 00/T20, T22,
T27, T28, T29, T37, T43, T44)."""
from __future__ import annotations

from collections import Counter

from engine import api
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _article_census(state: api.GameState) -> Counter[int]:
    """01/R10.1: every article id is either on one square's Ground or held by one piece."""
    places: Counter[int] = Counter()
    for aids in state.ground.values():
        places.update(aids)
    for p in state.pieces.values():
        places.update(p.arts)
    return places


# -- capacity and XXX (RUL-28, 00/T28) ----------------------------------------------------------

T28 = KINGS + """
piece B XP f2 G AFL ARL
piece B TA> a1 G XXX FL AFL
article ST f2
"""


def test_xxx_pawn_full_cannot_pick_up_00_T28_RUL_28() -> None:
    """00/T28, RUL-28, 01/R10.7: the XXX Pawn holds 2 (AFL, ARL) and may not pick up ST."""
    s = pos(T28)
    refused(s, "PU:XP(2,6)2AFLARL^ST", "RUL-28")
    assert "PU:XP(2,6)2AFLARL^ST" not in legal(s)


def test_drop_then_pick_up_in_one_turn_00_T28_01_R4_5() -> None:
    """00/T28: Drop ARL (f2 then holds ST, ARL), then Pick-up ST: the Pawn ends with AFL, ST and
    f2 holds ARL. One Drop and one Pick-up in the same turn (01/R4.5)."""
    s = play(pos(T28), "DR:XP(2,6)2AFLARLvARL")
    assert ground(s, "f2") == ["ST", "ARL"]
    s = play(s, "PU:XP(2,6)1AFL^ST")
    xp = one(s, "f2", "XP")
    assert held(s, xp) == ["AFL", "ST"]
    assert ground(s, "f2") == ["ARL"]


def test_tank_cannot_drop_its_xxx_but_may_drop_fl_00_T28_RUL_28() -> None:
    """00/T28 (a later turn): the Tank's Drop of XXX is illegal (2 left, capacity 1); FL is legal
    and leaves XXX, AFL."""
    s = play(pos(T28), "MV:K(1,10)->(2,10)", "END", "MV:K(10,10)->(9,10)", "END")
    assert s.ply == 3
    refused(s, "DR:TA(1,1)3XXXFLAFL>vXXX", "RUL-28")
    s = play(s, "DR:TA(1,1)3XXXFLAFL>vFL")
    assert held(s, one(s, "a1", "TA")) == ["XXX", "AFL"]
    assert ground(s, "a1") == ["FL"]


def test_xxx_not_given_away_while_holding_two_others_RUL_28() -> None:
    """RUL-28: the XXX article cannot be given away while its holder keeps 2 other articles; the
    FL may be given (Tank keeps XXX, AFL)."""
    s = pos(KINGS + "piece B TA> e4 G XXX FL AFL\npiece B DS f5 G\n")
    refused(s, "EX:TA(4,5)3XXXFLAFL>->XXX->DS(5,6)", "RUL-28")
    s = play(s, "EX:TA(4,5)3XXXFLAFL>->FL->DS(5,6)")
    assert held(s, one(s, "e4", "TA")) == ["XXX", "AFL"]
    assert held(s, one(s, "f5", "DS")) == ["FL"]


def test_capacity_one_without_xxx_01_R10_6_02_G14() -> None:
    """01/R10.6, 02/G14: a piece holds 1 article; a second Pick-up is illegal (RUL-28)."""
    s = pos(KINGS + "piece B TA> e5 G FL\narticle SC e5\n")
    refused(s, "PU:TA(5,5)1FL>^SC", "RUL-28")
    assert not any(a.startswith("PU:") for a in legal(s))


def test_piece_with_xxx_holds_three_02_G24_01_R10_7() -> None:
    """02/G24, 01/R10.7: with an XXX article a piece holds 3 in all, the XXX included."""
    s = pos(KINGS + "piece B TA> e5 G XXX FL\narticle SC e5\n")
    s = play(s, "PU:TA(5,5)2XXXFL>^SC")
    assert held(s, one(s, "e5", "TA")) == ["XXX", "FL", "SC"]
    s = pos(KINGS + "piece B TA> e5 G XXX FL SC\narticle AFL e5\n")
    refused(s, "PU:TA(5,5)3XXXFLSC>^AFL", "RUL-28")


def test_xxx_does_not_stack_02_G24() -> None:
    """02/G24: a second XXX adds nothing: XXX, XXX, FL is full (capacity 3, not 5)."""
    s = pos(KINGS + "piece B TA> e5 G XXX XXX FL\narticle SC e5\n")
    refused(s, "PU:TA(5,5)3XXXXXXFL>^SC", "RUL-28")


def test_xxx_pawn_with_xxx_article_still_holds_two_RUL_28_A_16() -> None:
    """RUL-28, A-16: a held XXX adds nothing to the XXX Pawn and takes one of its 2 places."""
    s = pos(KINGS + "piece B XP e5 G XXX\narticle FL e5\n")
    s = play(s, "PU:XP(5,5)1XXX^FL")
    assert held(s, one(s, "e5", "XP")) == ["XXX", "FL"]
    s = pos(KINGS + "piece B XP e5 G XXX FL\narticle AFL e5\n")
    refused(s, "PU:XP(5,5)2XXXFL^AFL", "RUL-28")


# -- Pick-up and Drop (RUL-29, 01/R10.8-R10.9) ---------------------------------------------------

def test_pick_up_takes_from_own_square_only_01_R10_8_02_G14() -> None:
    """01/R10.8, 02/G14: a piece picks up only from its own square's Ground."""
    s = pos(KINGS + "piece B TA> e5 G\narticle SC e6\n")
    refused(s, "PU:TA(5,5)>^SC", "RUL-29")
    assert not any(a.startswith("PU:") for a in legal(s))


def test_pick_up_moves_the_article_from_ground_to_holder_02_G14_01_R10_1() -> None:
    """02/G14, 01/R10.1: the article leaves the Ground and is held; the census is unchanged."""
    s = pos(KINGS + "piece B TA> e5 G\narticle SC e5\narticle FL e5\n")
    before = _article_census(s)
    s = play(s, "PU:TA(5,5)>^FL")
    assert held(s, one(s, "e5", "TA")) == ["FL"] and ground(s, "e5") == ["SC"]
    assert _article_census(s) == before and set(before.values()) == {1}


def test_no_pick_up_in_air_or_sub_01_R10_8_02_G14() -> None:
    """01/R10.8, 02/G14, RUL-29: pieces in the Air or at Sub level cannot pick up."""
    s = pos(KINGS + "piece B JE e5 A\npiece B SU d5 S\narticle SC e5\narticle SC d5\n")
    refused(s, "PU:JE^(5,5)^SC", "01/R10.8")
    refused(s, "PU:SUv(5,4)^SC", "01/R10.8")
    assert not any(a.startswith("PU:") for a in legal(s))


def test_drop_from_the_air_lands_on_own_ground_01_R10_9_RUL_29_02_G15() -> None:
    """01/R10.9, RUL-29, 02/G15: a Drop from any level puts the article on the Ground of the
    piece's own square."""
    s = pos(KINGS + "piece B JE e5 A SL\narticle SC e5\n")
    s = play(s, "DR:JE^(5,5)1SLvSL")
    assert held(s, one(s, "e5", "JE", "A")) == []
    assert ground(s, "e5") == ["SC", "SL"]


def test_drop_refused_when_ground_full_01_R10_9_RUL_29() -> None:
    """01/R10.9, RUL-29: no Drop onto a Ground already holding 2 articles."""
    s = pos(KINGS + "piece B TA> e5 G FL\narticle SC e5\narticle BI e5\n")
    refused(s, "DR:TA(5,5)1FL>vFL", "RUL-29")
    assert not any(a.startswith("DR:") for a in legal(s))


def test_inherent_abilities_cannot_be_dropped_or_given_01_R10_5() -> None:
    """01/R10.5: an inherent ability (the Flamer Pawn's FL) is not an article: no Drop, no
    Exchange."""
    s = pos(KINGS + "piece B FP e5 G\npiece B DS e6 G\n")
    refused(s, "DR:FP(5,5)vFL", "RUL-29")
    refused(s, "EX:FP(5,5)->FL->DS(6,5)", "RUL-29")


def test_articles_are_not_pieces_01_R10_1_02_G5_G6() -> None:
    """02/G5-G6, 01/R10.1: an article never moves by itself: a Move carries the held article
    with its holder and leaves the ground ones where they lie."""
    s = pos(KINGS + "piece B DS e5 G FL\narticle SC e5\n")
    s = play(s, "MV:DS(5,5)1FL->(6,5)")
    assert held(s, one(s, "e6", "DS")) == ["FL"] and ground(s, "e5") == ["SC"]


# -- Exchange (RUL-29, A-17, 00/T29, 01/R9.6, 02/G16) -------------------------------------------

T29 = KINGS + """
piece B TA> e4 G FL
piece B FP g4 G
piece B DS f5 G
piece B Q a8 G
"""


def test_exchange_needs_adjacency_00_T29_A_17() -> None:
    """00/T29, A-17: Tank e4 and Pawn g4 are at distance 2: illegal."""
    refused(pos(T29), "EX:TA(4,5)1FL>->FL->FP(4,7)", "A-17")


def test_exchange_transfer_at_distance_one_00_T29_02_G16() -> None:
    """00/T29, 02/G16: Tank -> Destroyer transfer of FL at distance 1."""
    s = play(pos(T29), "EX:TA(4,5)1FL>->FL->DS(5,6)")
    assert held(s, one(s, "e4", "TA")) == [] and held(s, one(s, "f5", "DS")) == ["FL"]
    assert s.record.exchange == api.parse_action("EX:TA(4,5)1FL>->FL->DS(5,6)")


def test_secondary_piece_exchanges_at_any_distance_00_T29_01_R9_6() -> None:
    """00/T29, 01/R9.6, 02/G16, 02/G35: the Queen on a8 and the Tank on e4 (distance 4)."""
    s = play(pos(T29), "EX:TA(4,5)1FL>->FL->Q(8,1)")
    assert held(s, one(s, "a8", "Q")) == ["FL"]
    assert "EX:TA(4,5)1FL>->FL->Q(8,1)" in legal(pos(T29))


def test_exchange_at_different_levels_RUL_29() -> None:
    """RUL-29: distance is between squares, at any levels: a Jet in the Air over e5 and a Tank on
    e4 swap (``<=>``): each ends with the other's article."""
    s = pos(KINGS + "piece B JE e5 A SL\npiece B TA> e4 G FL\n")
    s = play(s, "EX:JE^(5,5)1SL->SL<=>FL<-TA(4,5)1FL>")
    assert held(s, one(s, "e5", "JE", "A")) == ["FL"]
    assert held(s, one(s, "e4", "TA")) == ["SL"]


def test_one_exchange_per_turn_01_R4_5() -> None:
    """01/R4.5: at most one Exchange per turn."""
    s = play(pos(T29), "EX:TA(4,5)1FL>->FL->DS(5,6)")
    refused(s, "EX:DS(5,6)1FL->FL->TA(4,5)>", "01/R4.5")


# -- Stealth and the primary piece (RUL-18, 00/T37, 01/R9.5, 02/D21) ---------------------------

def test_primary_may_not_pick_up_stealth_00_T37_01_R9_5_02_D21() -> None:
    """00/T37, 01/R9.5, 02/D21: the King's Pick-up of SH is illegal by default ..."""
    text = "piece B K b5 G\npiece W K j10 G\narticle SH b5\n"
    refused(pos(text), "PU:K(5,2)^SH", "RUL-18")
    assert "PU:K(5,2)^SH" not in legal(pos(text))


def test_primary_may_pick_up_stealth_when_allowed_00_T37() -> None:
    """00/T37: ... and legal with stealthy_primary_allowed on; the King is then hidden."""
    s = pos("piece B K b5 G\npiece W K j10 G\narticle SH b5\n", stealthy_primary_allowed=True)
    s = play(s, "PU:K(5,2)^SH")
    assert held(s, one(s, "b5", "K")) == ["SH"]
    assert hidden_from(s, "W") == {1}


def test_primary_may_not_receive_stealth_RUL_18() -> None:
    """RUL-18: nor receive Stealth in an Exchange."""
    s = pos("piece B K b5 G\npiece B TA> b6 G SH\npiece W K j10 G\n")
    refused(s, "EX:TA(6,2)1SH>->SH->K(5,2)", "RUL-18")


# -- stunned pieces and action options (RUL-11, 02/D23) ---------------------------------------

def test_stunned_piece_may_pick_up_drop_exchange_RUL_11_RUL_29() -> None:
    """RUL-11, RUL-29: a stunned piece cannot Move but may Pick-up, Drop and Exchange."""
    s = pos("piece B K j1 G\npiece B TA> e5 G stun=2 FL\npiece B DS e6 G\n"
            "piece W K j10 G\narticle SC e5\n")
    assert not any(m.startswith("MV:TA") for m in legal(s))
    s = play(s, "DR:TA(5,5)1FL>vFL", "PU:TA(5,5)>^SC", "EX:TA(5,5)1SC>->SC->DS(6,5)")
    assert held(s, one(s, "e6", "DS")) == ["SC"] and ground(s, "e5") == ["FL"]


def test_stunned_piece_takes_no_action_when_option_off_RUL_11() -> None:
    """RUL-11 option stunned_may_act off: a stunned piece takes no action at all."""
    s = pos("piece B K j1 G\npiece B TA> e5 G stun=2\npiece W K j10 G\narticle SC e5\n",
            stunned_may_act=False)
    refused(s, "PU:TA(5,5)>^SC", "RUL-11")


def test_one_action_per_piece_02_D23_01_R4_10() -> None:
    """02/D23, 01/R4.10: with one_action_per_piece, the piece that moved may not also pick up."""
    s = pos(KINGS + "piece B DS e5 G\narticle SC e6\narticle SC e5\n", one_action_per_piece=True)
    s2 = play(s, "MV:DS(5,5)->(6,5)")
    refused(s2, "PU:DS(6,5)^SC", "02/D23")
    s3 = play(s, "PU:DS(5,5)^SC")
    assert not any(m.startswith("MV:DS") for m in legal(s3))
    assert any(m.startswith("MV:K") for m in legal(s3))


def test_move_only_option_02_D23_01_R4_10() -> None:
    """02/D23, 01/R4.10: with move_only, Pick-up (and every non-Move action) is refused."""
    s = pos(KINGS + "piece B TA> e5 G\narticle SC e5\n", move_only=True)
    refused(s, "PU:TA(5,5)>^SC", "02/D23")
    assert all(a.startswith("MV:") or a == "END" for a in legal(s))


# -- placement of a captured piece's articles (RUL-12, 02/G6, 00/T22) ---------------------------

def test_captured_piece_articles_stay_on_its_square_RUL_12_02_G6() -> None:
    """RUL-12, 02/G6: articles are permanent; a captured piece's article goes to its own
    square's Ground when there is room."""
    s = pos("piece B K e4 G\npiece W K j10 G\npiece W TA< e5 G FL\n")
    before = sorted(s.art_code)
    s = play(s, "MV:K(4,5)->(5,5)")
    assert ground(s, "e5") == ["FL"]
    assert sorted(_article_census(s)) == before


def test_hidden_piece_stops_tank_and_sh_goes_forward_left_00_T22_RUL_12() -> None:
    """00/T22 variant, RUL-12, RUL-23: the Tank ordered a1 -> d8 stops on a4 and takes the hidden
    Pawn; a4 already holds 2 articles, so SH goes to b3, White's forward-left of a4."""
    s = pos("""
        piece B K j1 G
        piece B TA> a1 G
        piece W K j10 G
        piece W RP a4 G SH
        article TL a4
        article ATL a4
    """)
    assert hidden_from(s, "B") == {4}
    assert "MV:TA(1,1)>->(8,4)" in legal(s)
    s = play(s, "MV:TA(1,1)>->(8,4)", "END")
    assert s.history == ("MV:TA(1,1)>->(8,4),RS:TAv(4,1),TA*RP(4,1)1SH0W",)
    assert [p.kind for p in at(s, "a4")] == ["TA"]
    assert ground(s, "a4") == ["TL", "ATL"] and ground(s, "b3") == ["SH"]


def test_placement_ring_one_uses_the_owners_view_RUL_12_04_N8() -> None:
    """RUL-12, 04/N8: a White Tank on e5 holding XXX, FL, AFL (acquired in that order) is taken;
    e5 is full, so the search runs White's ring 1: f4 (forward-left, full), e4 (1 article),
    d4 (1), f5 (left) ...: XXX -> e4, FL -> d4, AFL -> f5."""
    s = pos("""
        piece B K f6 G
        piece W K j10 G
        piece W TA< e5 G XXX FL AFL
        article SC e5
        article BI e5
        article TL f4
        article SL f4
        article ST e4
        article ASL d4
    """)
    s = play(s, "MV:K(6,6)->(5,5)")
    assert ground(s, "e5") == ["SC", "BI"]
    assert ground(s, "f4") == ["TL", "SL"]
    assert ground(s, "e4") == ["ST", "XXX"]
    assert ground(s, "d4") == ["ASL", "FL"]
    assert ground(s, "f5") == ["AFL"]
    assert ground(s, "d5") == [] and ground(s, "d6") == []


def test_placement_ring_two_order_RUL_12() -> None:
    """RUL-12: a Black Destroyer on e5 holding SH is taken with e5 and its whole ring 1 full.
    Ring 2 for Black: row 7 from c7 to g7 (all full), then the column to Black's left from the
    row 1 ahead down: c6 (full), c5: SH -> c5."""
    full = ["e5", "d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4",
            "c7", "d7", "e7", "f7", "g7", "c6"]
    lines = ["to-move W", "piece B K a1 G", "piece W K e6 G", "piece B DS e5 G SH"]
    lines += [f"article TL {sq}\narticle ATL {sq}" for sq in full]
    s = play(pos("\n".join(lines)), "MV:K(6,5)->(5,5)")
    assert ground(s, "c5") == ["SH"]
    for sq in full:
        assert ground(s, sq) == ["TL", "ATL"], sq
    assert ground(s, "c4") == [] and ground(s, "g6") == []


# -- locks at pick-up (RUL-19, RUL-49, 00/T20, T44, 02/G25, G37) --------------------------------

T20 = """
piece B K j1 G
piece B CP b4 G
piece W K j10 G
piece W AAA c9 G
piece W DO d6 G SH
article ASH b4
"""


# 00/T20 itself and its range-detection variant: tests/test_scenarios_hidden.py


def test_no_lock_on_a_submerged_piece_02_G37_RUL_18() -> None:
    """02/G37, RUL-18: submerged pieces have no lock-on mode: picking up ASH with only a hidden
    submerged (not stealthy) Sub around makes no lock and the Sub stays hidden."""
    s = pos(T20.replace("piece W AAA c9 G\npiece W DO d6 G SH\n", "piece W SU d6 S\n"))
    assert hidden_from(s, "B") == {4}
    s = play(s, "PU:CP(4,2)^ASH")
    assert s.locks == {} and hidden_from(s, "B") == {4}


def test_no_lock_when_lock_on_is_off_02_D5() -> None:
    """02/D5 off: picking up ASH makes no lock."""
    s = play(pos(T20, stealth_lock_on=False), "PU:CP(4,2)^ASH")
    assert s.locks == {} and hidden_from(s, "B") == {4, 5}


def test_exchange_keeps_the_lock_RUL_19() -> None:
    """RUL-19: exchanging a locked Anti-Stealth between friendly pieces keeps the lock."""
    s = pos(T20 + "piece B DS c5 G\n")
    s = play(s, "PU:CP(4,2)^ASH", "EX:CP(4,2)1ASH->ASH->DS(5,3)")
    aid = s.pieces[6].arts[0]
    assert s.art_code[aid] == "ASH"
    assert s.locks == {("a", aid): 5}
    assert hidden_from(s, "B") == {4}


def test_receipt_in_an_exchange_attempts_a_lock_RUL_19() -> None:
    """RUL-19: an unlocked Anti-Stealth received in an Exchange locks; the target is the nearest
    to the receiver: from c8 the AAA on c9 (distance 1) rather than the Bulldozer (distance 2)."""
    s = pos("""
        piece B K j1 G
        piece B TA> b8 G ASH
        piece B DS c8 G
        piece W K j10 G
        piece W AAA c9 G
        piece W DO d6 G SH
    """)
    assert s.locks == {}
    s = play(s, "EX:TA(8,2)1ASH>->ASH->DS(8,3)")
    assert list(s.locks.values()) == [5]
    assert hidden_from(s, "B") == {6}


def test_capturing_the_holder_ends_its_lock_RUL_19() -> None:
    """RUL-19: a lock ends when its source is captured with its holder (White King takes the
    Pawn holding the locked ASH); the Bulldozer is hidden again."""
    s = play(pos(T20.replace("piece W K j10 G", "piece W K c5 G")), "PU:CP(4,2)^ASH",
             "MV:K(1,10)->(2,10)", "END")
    assert hidden_from(s, "B") == {4}
    s = play(s, "MV:K(5,3)->(4,2)")
    assert s.locks == {}
    assert hidden_from(s, "B") == {4, 5}
    assert ground(s, "b4") == ["ASH"]


# -- Reinforce (RUL-34, RUL-47, 00/T27, T43, 02/G17, 01/R16) ------------------------------------

T27 = """
piece B K d7 G
piece W K j10 G
reinforcement B JE d8
"""


def test_reinforce_needs_a_piece_there_at_turn_start_00_T27_RUL_34() -> None:
    """00/T27 ply 1: King d7 -> d8; a Reinforce is illegal (no friendly piece on d8 when the turn
    began)."""
    s = play(pos(T27), "MV:K(7,4)->(8,4)")
    refused(s, "RE:(8,4)JE", "RUL-34")


def test_reinforce_after_leaving_00_T27_RUL_34_02_G17() -> None:
    """00/T27 ply 3: King d8 -> c8, then Reinforce: a Black Jet with nothing held appears on d8 G
    with the next serial (RUL-40); history ``MV:K(8,4)->(8,3),RE:(8,4)JE``."""
    s = play(pos(T27), "MV:K(7,4)->(8,4)", "END", "MV:K(10,10)->(9,10)", "END",
             "MV:K(8,4)->(8,3)")
    assert "RE:(8,4)JE" in legal(s)
    s = play(s, "RE:(8,4)JE")
    jet = one(s, "d8", "JE")
    assert (jet.sid, jet.side, jet.arts, jet.stun, jet.hand) == (3, "B", (), 0, "")
    assert s.reinforcements == {}
    s = play(s, "END")
    assert s.history[-1] == "MV:K(8,4)->(8,3),RE:(8,4)JE"


def test_reinforce_not_in_a_later_turn_00_T27_variant() -> None:
    """00/T27 variant: the King leaves d8 at ply 3 without a Reinforce; at ply 5 it is illegal."""
    s = play(pos(T27), "MV:K(7,4)->(8,4)", "END", "MV:K(10,10)->(9,10)", "END",
             "MV:K(8,4)->(8,3)", "END", "MV:K(9,10)->(10,10)", "END")
    assert s.ply == 5
    refused(s, "RE:(8,4)JE", "RUL-34")
    s = play(s, "MV:K(8,3)->(7,3)")
    refused(s, "RE:(8,4)JE", "RUL-34")


def test_handed_reinforcement_00_T27_variant_RUL_33() -> None:
    """00/T27 variant, RUL-33: Black's a8 reinforcement appears as a Right Tank, ``RE:(8,1)TA>``."""
    s = pos("piece B K a8 G\npiece W K j10 G\nreinforcement B TA> a8\n")
    s = play(s, "MV:K(8,1)->(7,1)", "RE:(8,1)TA>", "END")
    tank = one(s, "a8", "TA")
    assert (tank.hand, tank.side, tank.arts) == (">", "B", ())
    assert s.history == ("MV:K(8,1)->(7,1),RE:(8,1)TA>",)


def test_reinforce_needs_an_empty_ground_RUL_34() -> None:
    """RUL-34 condition 3: the King leaves d8 but a friendly Jet is still on d8 G: illegal."""
    s = pos("piece B K d8 G\npiece B JE d8 G\npiece W K j10 G\nreinforcement B JE d8\n")
    s = play(s, "MV:K(8,4)->(8,3)")
    refused(s, "RE:(8,4)JE", "RUL-34")


def test_reinforce_only_the_waiting_kind_and_side_RUL_34() -> None:
    """RUL-34 condition 4: only the reinforcement waiting there, and only the owner's."""
    s = play(pos(T27.replace("d7", "d8")), "MV:K(8,4)->(8,3)")
    refused(s, "RE:(8,4)SU", "RUL-34")
    s = pos("piece B K j1 G\npiece W K d3 G\nreinforcement B JE d3\n", )
    s = play(s, "MV:K(1,10)->(2,10)", "END", "MV:K(3,4)->(3,3)")
    refused(s, "RE:(3,4)JE", "RUL-34")


def test_reinforce_fails_on_a_hidden_occupant_00_T43_RUL_47() -> None:
    """00/T43, RUL-47: the Bulldozer leaves d8, where a hidden White AAA [ACS] remains (mixed
    cell); the Reinforce is legal from Black's view but fails: no Jet, d8 keeps its Jet, the turn's
    Reinforce is used, the AAA stays hidden; record ``MV:DO(8,4)->(8,3),RE:(8,4)JE``."""
    s = pos("""
        piece B K j1 G
        piece B DO d8 G
        piece W AAA d8 G ACS
        piece W K j10 G
        reinforcement B JE d8
    """)
    assert hidden_from(s, "B") == {3}
    s = play(s, "MV:DO(8,4)->(8,3)")
    assert "RE:(8,4)JE" in legal(s)
    s = play(s, "RE:(8,4)JE")
    assert [p.kind for p in at(s, "d8")] == ["AAA"]
    assert s.reinforcements == {(8, 4): ("B", "JE", "")}
    assert hidden_from(s, "B") == {3}
    refused(s, "RE:(8,4)JE", "RUL-34")
    s = play(s, "END")
    assert s.history == ("MV:DO(8,4)->(8,3),RE:(8,4)JE",)


# -- visibility that needs no fire (RUL-18, RUL-20, 00/T36, 02/D6, D8, D15, G37, A-2) ----------

def test_torpedo_detection_range_02_D8_D15_G37() -> None:
    """02/D8, D15, G37, A-11: a submerged Sub is seen by an enemy Torpedo Launcher (the
    Destroyer's) within 3 squares and hidden at 4."""
    base = "piece B K j1 G\npiece B DS e4 G\npiece W K j10 G\n"
    assert hidden_from(pos(base + "piece W SU e7 S\n"), "B") == frozenset()
    assert hidden_from(pos(base + "piece W SU e8 S\n"), "B") == {4}
    assert hidden_from(pos(base + "piece W SU e8 G\n"), "B") == frozenset()     # not submerged
    assert hidden_from(pos(base + "piece W SU e8 S\n", submerged_invisibility=False), "B") == \
        frozenset()                                                                   # 02/D3


def test_stealth_submerge_dominance_00_T36_RUL_18() -> None:
    """00/T36: a Sub [SH] on e6 S is visible to the Destroyer at e4 under 'submerge' dominance,
    hidden under 'stealth'; surfaced on e6 G it is hidden under either (a Torpedo Launcher does
    not detect Stealth)."""
    text = "piece B K j1 G\npiece B DS e4 G\npiece W K j10 G\npiece W SU e6 S SH\n"
    assert hidden_from(pos(text), "B") == frozenset()
    assert hidden_from(pos(text, detection_dominance="stealth"), "B") == {4}
    for dominance in ("submerge", "stealth"):
        assert hidden_from(pos(text.replace("e6 S", "e6 G"), detection_dominance=dominance),
                           "B") == {4}


REVEAL = """
to-move W
piece B K j1 G
piece B RP e5 G moved
piece W K j10 G
piece W RP e6 G SH
"""


def test_capture_reveals_a_stealthy_piece_for_one_enemy_turn_02_D6_A_2_RUL_20() -> None:
    """02/D6, A-2, RUL-20, 00/T21 (capture half): the hidden White Pawn [SH] takes on e5 (its
    front square) at ply 2; it is visible to Black for the rest of ply 2 and during ply 3, and
    hidden again from ply 4."""
    s = pos(REVEAL)
    assert hidden_from(s, "B") == {4}
    s = play(s, "MV:RP(6,5)1SH->(5,5)")
    assert hidden_from(s, "B") == frozenset()
    s = play(s, "END")
    assert s.ply == 3 and hidden_from(s, "B") == frozenset()
    s = play(s, "MV:K(1,10)->(2,10)", "END")
    assert s.ply == 4 and hidden_from(s, "B") == {4}


def test_no_reveal_on_capture_when_option_off_02_D6() -> None:
    """02/D6 off: the capturing Stealth piece stays hidden."""
    s = play(pos(REVEAL, reveal_stealth_on_capture=False), "MV:RP(6,5)1SH->(5,5)")
    assert hidden_from(s, "B") == {4}
