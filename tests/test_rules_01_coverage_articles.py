"""Coverage of the 01-overview article and defence rules no other test cited (issue 13 item 4):
Exchange, articles of a stunned piece, articles as wealth, the XXX article's name, the Anti-
defences and the mixed cell (01/R10.10-R10.12, R11.2, R13.2-R13.4, R13.8, R17.2).

Every expected value is worked out by hand from the rule cited in the test (and 00-rulings.md,
which wins), never taken from the engine. Squares are e4 in positions, (row, col) in notation.
"""
from __future__ import annotations

from engine import api
from engine_helpers import at, ground, held, legal, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _articles(state: api.GameState) -> list[str]:
    """Every article token in the game, on the ground or held, sorted."""
    codes = [state.art_code[a] for aids in state.ground.values() for a in aids]
    codes += [state.art_code[a] for p in state.pieces.values() for a in p.arts]
    return sorted(codes)


# -- 01/R10.10: Exchange ------------------------------------------------------------------------

def test_01_R10_10_transfer_moves_one_article_between_levels() -> None:
    """01/R10.10, RUL-29: an Exchange passes the Tank's Flamer (e4 Ground) to the Jet in the Air
    over e5 (next to each other, any levels): the Tank then holds nothing, the Jet the Flamer."""
    s = pos(KINGS + "piece B TA> e4 G FL\npiece B JE e5 A\n")
    s = play(s, "EX:TA(4,5)1FL>->FL->JE^(5,5)")
    assert held(s, one(s, "e4", "TA")) == []
    assert held(s, one(s, "e5", "JE", "A")) == ["FL"]


def test_01_R10_10_swap_exchanges_both_articles() -> None:
    """01/R10.10: two pieces swap articles in one Exchange: the Tank's Flamer for the Jet's
    Anti-SAM; afterwards the Tank holds ASL and the Jet FL, and a second Exchange in the same
    turn is refused (01/R4.5)."""
    s = pos(KINGS + "piece B TA> e4 G FL\npiece B JE f5 A ASL\n")
    s = play(s, "EX:TA(4,5)1FL>->FL<=>ASL<-JE^(5,6)1ASL")
    assert held(s, one(s, "e4", "TA")) == ["ASL"]
    assert held(s, one(s, "f5", "JE", "A")) == ["FL"]
    refused(s, "EX:TA(4,5)1ASL>->ASL<=>FL<-JE^(5,6)1FL", "01/R4.5")


def test_01_R10_10_exchange_range_is_next_to_each_other() -> None:
    """01/R10.10, A-17: two ordinary pieces two squares apart (e4, e6) cannot exchange: none is
    offered and asking for one is refused naming A-17."""
    s = pos(KINGS + "piece B TA> e4 G FL\npiece B DS e6 G\n")
    assert not any(a.startswith("EX:") for a in legal(s))
    refused(s, "EX:TA(4,5)1FL>->FL->DS(6,5)", "A-17")


# -- 01/R10.11: a stunned piece drops everything -------------------------------------------------

def test_01_R10_11_stunned_piece_drops_all_its_articles() -> None:
    """01/R10.11, RUL-12: the White Tank on e5 holding XXX, FL, AFL is stunned by the Black
    Stunner Pawn on e4. All three leave it, in acquisition order: XXX and FL fill e5's Ground,
    AFL goes to the first square of ring 1, the row ahead of White (row 4) from White's left
    (file j side): f4. The Tank keeps nothing and has stun counter 3."""
    s = pos(KINGS + "piece B SP e4 G moved\npiece W TA< e5 G XXX FL AFL\n")
    s = play(s, "FI:ST/SP(4,5)->(5,5)")
    tank = one(s, "e5", "TA")
    assert held(s, tank) == [] and tank.stun == 3
    assert ground(s, "e5") == ["XXX", "FL"]
    assert ground(s, "f4") == ["AFL"]
    assert ground(s, "d4") == [] and ground(s, "e4") == []


# -- 01/R10.12: articles as wealth ---------------------------------------------------------------

def test_01_R10_12_articles_change_hands_and_are_never_lost() -> None:
    """01/R10.12, RUL-12, 02/G6: the Black King captures the article-rich White Tank on e5; the
    Tank's Stunner is not lost but lies on e5, and the King, now article-rich, picks it up in
    the same turn. The game's articles are the same before and after."""
    s = pos(KINGS + "piece B K e4 G\npiece W TA< e5 G ST\n")
    before = _articles(s)
    s = play(s, "MV:K(4,5)->(5,5)")
    assert ground(s, "e5") == ["ST"]
    s = play(s, "PU:K(5,5)^ST")
    assert held(s, one(s, "e5", "K")) == ["ST"]
    assert _articles(s) == before == ["ST"]


# -- 01/R11.2: the XXX article's name --------------------------------------------------------------

def test_01_R11_2_xxx_article_is_written_xxx() -> None:
    """01/R11.2, 04/H9c: whatever the interface calls it ("XXX box"), the article's token is
    ``XXX``; a Tank picking one up then holds 3 articles at most (01/R10.7)."""
    s = pos(KINGS + "piece B TA> e4 G\narticle XXX e4\narticle FL e4\n")
    assert "PU:TA(4,5)>^XXX" in legal(s)
    action = api.parse_action("PU:TA(4,5)>^XXX")
    assert action.article == "XXX" and api.format_action(action) == "PU:TA(4,5)>^XXX"
    s = play(s, "PU:TA(4,5)>^XXX")
    assert held(s, one(s, "e4", "TA")) == ["XXX"]
    assert "PU:TA(4,5)1XXX>^FL" in legal(
        play(s, "MV:K(1,10)->(2,10)", "END", "MV:K(10,10)->(10,9)", "END"))


# -- 01/R13.2-R13.4, 01/R13.8: defences -----------------------------------------------------------

def test_01_R13_2_anti_stunner_cannot_be_stunned() -> None:
    """01/R13.2: the Stunner ray from e4 stops at the White Tank on e5, which holds an
    Anti-Stunner: it is not stunned and keeps its article; the Tank without it on e6 behind is
    not reached (RUL-10: the ray stops at the first occupied cell)."""
    s = pos(KINGS + "piece B SP e4 G moved\npiece W TA< e5 G AST\npiece W TA> e6 G\n")
    s = play(s, "FI:ST/SP(4,5)->(5,5)")
    tank = one(s, "e5", "TA")
    assert tank.stun == 0 and held(s, tank) == ["AST"]
    assert one(s, "e6", "TA").stun == 0
    bare = play(pos(KINGS + "piece B SP e4 G moved\npiece W TA< e5 G\n"), "FI:ST/SP(4,5)->(5,5)")
    assert one(bare, "e5", "TA").stun == 3


def test_01_R13_3_anti_conversion_cannot_be_converted() -> None:
    """01/R13.3: the Black Cleric's Conversion at e5 leaves the White Tank holding Anti-Conversion
    White; without it the Tank becomes Black."""
    s = play(pos(KINGS + "piece B CL> e4 G\npiece W TA< e5 G ACS\n"), "FI:CS/CL(4,5)>->(5,5)")
    assert one(s, "e5", "TA").side == "W"
    bare = play(pos(KINGS + "piece B CL> e4 G\npiece W TA< e5 G\n"), "FI:CS/CL(4,5)>->(5,5)")
    assert one(bare, "e5", "TA").side == "B"


def test_01_R13_4_anti_rocket_stops_the_restricted_rocket_too() -> None:
    """01/R13.4, RUL-17: the Black Jet over e5 fires its restricted rocket (range 0) at the White
    Tank below it: with an Anti-Rocket the Tank survives, without one it is destroyed."""
    s = play(pos(KINGS + "piece B JE e5 A\npiece W TA< e5 G ARL\n"), "FI:RL/JE^(5,5)=>TA(5,5)1ARL<")
    assert [(p.kind, held(s, p)) for p in at(s, "e5")] == [("TA", ["ARL"])]
    bare = play(pos(KINGS + "piece B JE e5 A\npiece W TA< e5 G\n"), "FI:RL/JE^(5,5)=>TA(5,5)<")
    assert at(bare, "e5") == []


def test_01_R13_4_anti_rocket_stops_a_travelling_rocket() -> None:
    """01/R13.4: a rocket from the Rocket Pawn on e4 is created on e5 and hits the White Tank
    there at once (RUL-15); the Tank holds an Anti-Rocket and survives, and the rocket is used up
    (R12.8), so it does not go on to e6."""
    s = play(pos(KINGS + "piece B RP e4 G moved\npiece W TA< e5 G ARL\n"), "FI:RL/RP(4,5)->(5,5)")
    assert [p.kind for p in at(s, "e5")] == ["TA"]
    assert s.projectiles == ()


def test_01_R13_8_protection_is_per_piece() -> None:
    """01/R13.8: the rocket created on e5 hits both White pieces there: the Destroyer (no
    Anti-Rocket) is destroyed and the Tank holding an Anti-Rocket survives, alone on e5."""
    s = pos(KINGS + "piece B RP e4 G moved\npiece W DS e5 G\npiece W TA< e5 G ARL\n")
    s = play(s, "FI:RL/RP(4,5)->(5,5)")
    assert [(p.kind, p.side) for p in at(s, "e5")] == [("TA", "W")]


# -- 01/R17.2: how long a mixed cell lasts -------------------------------------------------------

MIXED = """
piece B K a1 G
piece B CL> e5 G
piece B K d5 G
piece W PR e6 G
piece W DO e6 G
piece W DS e8 G
piece W FP f7 G moved
piece W CL< d7 G
"""


def _mixed() -> api.GameState:
    """Black's Cleric converts e6: the Bulldozer turns Black, the President (Anti-Conversion)
    stays White, so e6 G holds both sides (01/R17.1)."""
    s = play(pos(MIXED), "FI:CS/CL(5,5)>->(6,5)")
    assert sorted((p.kind, p.side) for p in at(s, "e6")) == [("DO", "B"), ("PR", "W")]
    return s


def test_01_R17_2_mixed_cell_ends_when_one_piece_leaves() -> None:
    """01/R17.2, A-22: while e6 is mixed, the Black King on d5 may not move into it (refused,
    RUL-14). White's President leaves e6 for e7; e6 then holds only the Black Bulldozer, and in
    Black's next turn the King may join it there (Coexistence of the Bulldozer)."""
    s = _mixed()
    assert "MV:K(5,4)->(6,5)" not in legal(s)
    refused(s, "MV:K(5,4)->(6,5)", "RUL-14")
    s = play(s, "MV:K(1,1)->(1,2)", "END", "MV:PR(6,5)->(7,5)", "END")
    assert [(p.kind, p.side) for p in at(s, "e6")] == [("DO", "B")]
    s = play(s, "MV:K(5,4)->(6,5)")
    assert sorted((p.kind, p.side) for p in at(s, "e6")) == [("DO", "B"), ("K", "B")]


def test_01_R17_2_mixed_cell_ends_when_one_piece_is_destroyed() -> None:
    """01/R17.2: White's Flamer Pawn on f7 flames e6 (range 1): the President survives (inherent
    Anti-Flamer), the converted Bulldozer is destroyed. e6 is no longer mixed, so the White
    Destroyer on e7, which could not enter it before the flame, now joins the President."""
    s = play(_mixed(), "MV:K(1,1)->(1,2)", "END")
    s = play(s, "MV:DS(8,5)->(7,5)", "END", "MV:K(1,2)->(1,1)", "END")
    assert "MV:DS(7,5)->(6,5)" not in legal(s)
    s = play(s, "FI:FL/FP(7,6)->(6,5)")
    assert [(p.kind, p.side) for p in at(s, "e6")] == [("PR", "W")]
    s = play(s, "MV:DS(7,5)->(6,5)")
    assert sorted((p.kind, p.side) for p in at(s, "e6")) == [("DS", "W"), ("PR", "W")]


def test_01_R17_2_mixed_cell_ends_when_converted_back() -> None:
    """01/R17.2: White's Cleric on d7 converts the Bulldozer on e6 back (the President, White,
    is unaffected, R12.7). e6 then holds White pieces only, so it is an ordinary enemy cell:
    the Black King on d5, refused entry while it was mixed, now captures into it, taking both
    pieces (A-28) and with them the President: Black wins (RUL-2)."""
    s = play(_mixed(), "MV:K(1,1)->(1,2)", "END", "FI:CS/CL(7,4)<->(6,5)")
    assert sorted((p.kind, p.side) for p in at(s, "e6")) == [("DO", "W"), ("PR", "W")]
    s = play(s, "MV:DS(8,5)->(8,6)", "END")
    assert "MV:K(5,4)->(6,5)" in legal(s)
    s = play(s, "MV:K(5,4)->(6,5)")
    assert [(p.kind, p.side) for p in at(s, "e6")] == [("K", "B")]
    assert api.outcome(s) == "black"
