"""Issue 13 items 1 and 2: group fire under ``fire_limit_rule = per_piece`` (RUL-4, RUL-5) and
transport articles of a primary piece with ``primary_may_fly_or_dive`` off (01/R6.10,
03/M1.2.3).

Expected values are worked out by hand from the cited rules; pieces are numbered in listed
order (RUL-40); the game starts at ply 1, so a weapon with rate of fire 4 fired at ply 1 is
ready again at ply 1 + 2 x 4 = 9 (RUL-6).
"""
from __future__ import annotations

from engine.effects import counter
from engine_helpers import legal, one, pos, refused
from fire_helpers import act

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _fires(state, prefix: str = "") -> set[str]:
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


# -- item 1: per_piece keeps group fire (RUL-4, RUL-5) -------------------------------------------

def test_per_piece_flame_groups_inherent_and_article_RUL_5() -> None:
    """RUL-5 under RUL-4 ``per_piece``: a Tank (inherent Flamer) holding a Flamer article fires
    both together: the Flamer Pawn [XXX AFL AFL] (defence 3, survives) receives 2 Flamer hits,
    and the article starts its countdown (ready at ply 9) as the inherent Flamer does."""
    text = KINGS + "piece B TA> e4 G FL\npiece W FP e5 G XXX AFL AFL\n"
    s = act(pos(text, fire_limit_rule="per_piece"), "FI:FL/TA(4,5)1FL>->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 2
    tank = one(s, "e4", "TA")
    assert s.art_ready[tank.arts[0]] == 9 and dict(tank.ready)["FL"] == 9


def test_per_piece_jet_sam_strength_counts_every_source_RUL_5() -> None:
    """RUL-5 (and RUL-52) under ``per_piece``: a Jet's inherent SAM and its SL article make one
    SAM of strength 2; both sources count down to ply 9."""
    s = act(pos(KINGS + "piece B JE e5 A SL", fire_limit_rule="per_piece"),
            "FI:SL/JE^(5,5)1SL->(6,5)")
    (proj,) = s.projectiles
    assert (proj.kind, proj.strength) == ("S", 2)
    jet = one(s, "e5", "JE", "A")
    assert s.art_ready[jet.arts[0]] == 9 and dict(jet.ready)["SL"] == 9


def test_per_piece_still_one_fire_per_piece_RUL_4() -> None:
    """RUL-4 ``per_piece``: after the grouped Flamer Fire the Tank [XXX FL ST] takes part in no
    further Fire this turn: its Stunner article is not offered and is refused naming RUL-4."""
    text = KINGS + "piece B TA> e4 G XXX FL ST\npiece W FP e5 G XXX AFL AFL\n"
    s = act(pos(text, fire_limit_rule="per_piece"), "FI:FL/TA(4,5)3XXXFLST>->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 2
    assert _fires(s) == set()
    refused(s, "FI:ST/TA(4,5)3XXXFLST>->(4,6)", "RUL-4")


def test_per_piece_article_only_source_fires_alone_RUL_5() -> None:
    """RUL-5, RUL-6 under ``per_piece``: a King (no inherent Flamer) with two Flamer articles
    fires strength 2, and both articles count down (04/N5)."""
    text = "piece B K e4 G XXX FL FL\npiece W K j10 G\npiece W FP e5 G XXX AFL AFL\n"
    s = act(pos(text, fire_limit_rule="per_piece"), "FI:FL/K(4,5)3XXXFLFL->(5,5)")
    assert counter(s, one(s, "e5", "FP").sid, "FL") == 2
    king = one(s, "e4", "K")
    assert [s.art_ready.get(a, 0) for a in king.arts] == [0, 9, 9]


# -- item 2: primary pieces and transport articles (01/R6.10, 03/M1.2.3) -------------------------

def test_primary_may_not_jump_pack_with_option_off_01_R6_10() -> None:
    """01/R6.10, 03/M1.2.3 (01/§20 O3, 02/D21): with ``primary_may_fly_or_dive`` off the King's
    own Jump Pack Fire would take it to the Air: it is not offered and is refused naming
    01/R6.10, the King staying on the Ground. With the option on (default) it is offered."""
    text = "piece B K e5 G JP\npiece W K j10 G\n"
    assert "FI:JU/K(5,5)1JP->(7,5)" in legal(pos(text))
    s = pos(text, primary_may_fly_or_dive=False)
    assert _fires(s, "JU/") == set()
    refused(s, "FI:JU/K(5,5)1JP->(7,5)", "01/R6.10")
    assert one(s, "e5", "K").trip is None


def test_primary_may_not_scuba_with_option_off_03_M1_2_3() -> None:
    """03/M1.2.3, 01/R6.10: the same for the Scuba (the Sub level)."""
    text = "piece B K e5 G SC\npiece W K j10 G\n"
    assert "FI:SC/K(5,5)1SC->(7,5)" in legal(pos(text))
    s = pos(text, primary_may_fly_or_dive=False)
    assert _fires(s, "SC/") == set()
    refused(s, "FI:SC/K(5,5)1SC->(7,5)", "01/R6.10")


def test_option_off_leaves_others_and_the_bike_alone_01_R6_10() -> None:
    """01/R6.10 forbids only the primary piece's flying or diving (docs/rulings.md RV-4): the
    secondary Queen still fires a Jump Pack, and the King still rides a Bike (Ground to
    Ground)."""
    text = ("piece B K e5 G BI\npiece B Q c3 G JP\npiece W K j10 G\n")
    s = pos(text, primary_may_fly_or_dive=False)
    assert "FI:JU/Q(3,3)1JP->(5,3)" in _fires(s, "JU/")
    assert "FI:BI/K(5,5)1BI->(6,5)" in _fires(s, "BI/")
    s = act(s, "FI:JU/Q(3,3)1JP->(5,3)")
    assert one(s, "c3", "Q", "A").trip is not None
