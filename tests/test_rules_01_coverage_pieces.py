"""Coverage of the 01-overview piece rules no other test cited (issue 13 item 4): Coexistence
and "multi-pieces", government pieces, Pawns, AAA and Bulldozer, the nudge group size and the
Bike (01/R5.7, R6.2, R6.4, R7.2-R7.4, R7.6, R8.2, R8.3, R9.1, R9.2, R15.6, R15.11, R15.17).

Every expected value is worked out by hand from the rule cited in the test (and 00-rulings.md,
which wins), never taken from the engine. Squares are e4 in positions, (row, col) in notation.
"""
from __future__ import annotations

import pytest

from engine import api
from engine.api import RuleError
from engine_helpers import at, held, legal, moves_of, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _dests(actions: set[str]) -> set[str]:
    """Destination squares of Move texts ``MV:X->(r,c)`` (no passenger, no nudge)."""
    return {a.split("->", 1)[1] for a in actions if "," not in a.split("->", 1)[1][5:]}


def _fires(state: api.GameState, piece: str) -> set[str]:
    """Article tokens of the legal Fires of the piece written ``piece`` (e.g. ``AAA(4,5)``)."""
    return {a.split("/")[0][3:] for a in legal(state) if a.startswith("FI:") and f"/{piece}" in a}


# -- 01/R5.7, 01/R15.17: "multi-pieces" are no game concept -------------------------------------

def test_01_R5_7_two_pieces_on_one_level_move_apart() -> None:
    """01/R5.7: a King and a Destroyer sharing e4 G are two pieces, not one "multi-piece": each
    has its own Moves, there is no Move taking both, and after the King's Move the Destroyer
    stays alone on e4 with its article (breaking it: moving co-located friends together)."""
    s = pos(KINGS.replace("j1", "a1") + "piece B K e4 G\npiece B DS e4 G AFL\n")
    ring = {"(5,4)", "(5,5)", "(5,6)", "(4,4)", "(4,6)", "(3,4)", "(3,5)", "(3,6)"}
    assert _dests(moves_of(s, "K(4,5)")) == ring
    assert _dests(moves_of(s, "DS(4,5)1AFL")) == ring
    assert not any("-TRA->" in m for m in legal(s))          # neither carries the other
    s = play(s, "MV:K(4,5)->(5,5)")
    assert [p.kind for p in at(s, "e4")] == ["DS"]
    assert [p.kind for p in at(s, "e5")] == ["K"]
    assert held(s, one(s, "e4", "DS")) == ["AFL"]


def test_01_R15_17_nudged_group_does_not_stay_together() -> None:
    """01/R15.17: the pieces of a nudge move together only in that Move. In Black's next turn
    the Bulldozer moves alone from e5 to e6; the co-located Pawn it pushed stays on e5, and the
    adjacent Pawn it pushed stays on d5 (no group survives the nudge)."""
    s = pos(KINGS + "piece B DO e4 G\npiece B FP e4 G moved\npiece B SP d4 G moved\n")
    s = play(s, "MV:DO(4,5)->(5,5),DO>(5,5)FP(4,5),SP(4,4)", "END", "MV:K(10,10)->(10,9)", "END")
    assert sorted(p.kind for p in at(s, "e5")) == ["DO", "FP"]
    assert [p.kind for p in at(s, "d5")] == ["SP"]
    s = play(s, "MV:DO(5,5)->(6,5)")
    assert [p.kind for p in at(s, "e6")] == ["DO"]
    assert [p.kind for p in at(s, "e5")] == ["FP"]
    assert [p.kind for p in at(s, "d5")] == ["SP"]


def test_01_R15_17_pieces_on_trips_are_separate_fires() -> None:
    """01/R15.17: two pieces set off by transport articles in one turn are two Fires of two
    sources, not one group action: the two Bike rides use up both Fires (01/R4.3), so a third
    Fire is refused naming 01/R4.3, and each rider ends on its own chosen square."""
    s = pos(KINGS + "piece B DS c3 G BI\npiece B DS g3 G BI\npiece B FP e2 G\n")
    s = play(s, "FI:BI/DS(3,3)1BI->(4,3)", "FI:BI/DS(3,7)1BI->(4,7)")
    assert [p.kind for p in at(s, "c4")] == ["DS"] and [p.kind for p in at(s, "g4")] == ["DS"]
    assert at(s, "c3") == [] and at(s, "g3") == []
    refused(s, "FI:FL/FP(2,5)->(3,5)", "01/R4.3")


# -- 01/R6.2, 01/R9.1, 01/R9.2: government pieces -------------------------------------------------

GOV = {"monarchy": ("K", "Q"), "dictatorship": ("DI", "AS"), "theocracy": ("AV", "AC"),
       "democracy": ("PR", "PM")}


@pytest.mark.parametrize("gov", sorted(GOV))
def test_01_R6_2_primary_and_secondary_types_move_alike(gov: str) -> None:
    """01/R6.2: all primary types move identically (one square in the 8 directions, 03/M1.2.2),
    all secondary types identically (from a1 on an empty board: d8 and h4, 03/M1.11.2). Checked
    on White's side here, from j10 / e6 (breaking it: giving one type another movement class)."""
    p, q = GOV[gov]
    s = pos(f"to-move W\npiece B K a1 G\npiece W {p} e6 G\npiece W {q} j10 G\n", gov_white=gov)
    assert _dests(moves_of(s, f"{p}(6,5)")) == {
        f"({6 + dr},{5 + dc})" for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)}
    # White's own offsets (dx right, dy forward) (3,7), (7,3) from j10 are g3 and c7
    assert _dests(moves_of(s, f"{q}(10,10)")) == {"(3,7)", "(7,3)"}


@pytest.mark.parametrize("black,white", [("monarchy", "democracy"), ("dictatorship", "theocracy"),
                                          ("theocracy", "monarchy"), ("democracy", "dictatorship")])
def test_01_R9_1_government_type_fixes_the_government_pieces(black: str, white: str) -> None:
    """01/R9.1: each side's government type decides its primary and secondary piece types
    (Monarchy King/Queen, Dictatorship Dictator/Assassin, Theocracy Avatar/Acolyte, Democracy
    President/Prime Minister); one of each is on the board at the start, and the waiting
    secondary reinforcement is of the same government (01/R16.4)."""
    s = api.new_game(api.Options(gov_black=black, gov_white=white))
    gov_kinds = {k for pair in GOV.values() for k in pair}
    for side, gov in (("B", black), ("W", white)):
        on_board = sorted(p.kind for p in s.pieces.values()
                          if p.side == side and p.kind in gov_kinds)
        assert on_board == sorted(GOV[gov])
        waiting = [k for (o, k, _h) in s.reinforcements.values() if o == side and k in gov_kinds]
        assert waiting == [GOV[gov][1]]


# R9.2 table: each government piece's two inherent defences
DEFENCES = {"K": {"AFL", "ARL"}, "DI": {"ACS", "ARL"}, "AV": {"AST", "ARL"}, "PR": {"ACS", "AFL"},
            "Q": {"ACS", "AST"}, "AS": {"AFL", "AST"}, "AC": {"AFL", "ACS"}, "PM": {"ARL", "AST"}}
# The Black Pawn on e4 that attacks e5 with each weapon, and the defence that stops it.
ATTACKS = {"FP": ("FL", "AFL"), "SP": ("ST", "AST"), "CP": ("CS", "ACS"), "RP": ("RL", "ARL")}


@pytest.mark.parametrize("kind", sorted(DEFENCES))
@pytest.mark.parametrize("pawn", sorted(ATTACKS))
def test_01_R9_2_government_defences(kind: str, pawn: str) -> None:
    """01/R9.2: government pieces have defensive inherent abilities only, per the table. A White
    government piece on e5 is hit once by a Black Pawn on e4 (flame, stun, conversion, or a
    rocket created on e5 that hits at once, RUL-15); it is unaffected exactly when the table
    gives it the matching Anti- ability, otherwise destroyed, stunned (counter 3, RUL-11) or
    converted to Black. It is never offered a Fire of its own."""
    weapon, anti = ATTACKS[pawn]
    extra = "" if kind in ("K", "DI", "AV", "PR") else "piece W K j10 G\n"
    s = pos(f"piece B K j1 G\npiece B {pawn} e4 G moved\npiece W {kind} e5 G\n" + extra)
    s = play(s, f"FI:{weapon}/{pawn}(4,5)->(5,5)")
    there = at(s, "e5")
    protected = anti in DEFENCES[kind]
    if protected:
        assert [(p.kind, p.side, p.stun) for p in there] == [(kind, "W", 0)]
    elif weapon in ("FL", "RL"):
        assert there == []
    elif weapon == "ST":
        assert [(p.kind, p.side, p.stun) for p in there] == [(kind, "W", 3)]
    else:
        assert [(p.kind, p.side) for p in there] == [(kind, "B")]


@pytest.mark.parametrize("kind", sorted(DEFENCES))
def test_01_R9_2_government_pieces_have_no_fire(kind: str) -> None:
    """01/R9.2: a government piece's inherent abilities are defensive only: holding nothing it
    is offered no Fire (breaking it: giving one an inherent weapon)."""
    w = pos(f"to-move W\npiece B K j1 G\npiece W {kind} e5 G\npiece W K j10 G\n")
    assert not any(a.startswith("FI:") for a in legal(w))


# -- 01/R6.4: combining -------------------------------------------------------------------------

def test_01_R6_4_move_ends_on_a_friend_when_coexistence_allows() -> None:
    """01/R6.4: the King on e4 may end its Move on e5 G, which holds a friendly Destroyer
    (Coexistence, R5.4), and both are then there; it may not end on d5, which holds a friendly
    Pawn (neither has Coexistence), and the refusal names 01/R5.4."""
    s = pos(KINGS + "piece B K e4 G\npiece B DS e5 G\npiece B FP d5 G moved\n")
    dests = _dests(moves_of(s, "K(4,5)"))
    assert "(5,5)" in dests and "(5,4)" not in dests
    refused(s, "MV:K(4,5)->(5,4)", "01/R5.4")
    s = play(s, "MV:K(4,5)->(5,5)")
    assert sorted(p.kind for p in at(s, "e5")) == ["DS", "K"]


# -- 01/R7.2-R7.4, 01/R7.6: Pawns ---------------------------------------------------------------

def test_01_R7_2_first_move_has_four_destinations() -> None:
    """01/R7.2: a Black Pawn on its origin square e2 has (+1,+-1) d3, f3 and (+2,+-2) c4, g4."""
    s = pos(KINGS + "piece B CP e2 G\n")
    assert _dests(moves_of(s, "CP(2,5)")) == {"(3,4)", "(3,6)", "(4,3)", "(4,7)"}
    s = play(s, "MV:CP(2,5)->(4,7)")
    assert [p.kind for p in at(s, "g4")] == ["CP"] and at(s, "e2") == []


def test_01_R7_3_after_leaving_the_origin_only_two() -> None:
    """01/R7.3: after its 2-square first move to c4 the Pawn has only b5 and d5 (not a6 or e6);
    a Pawn placed as having left its origin (``moved``) has only the two 1-square squares."""
    s = pos(KINGS + "piece B SP e2 G\n")
    s = play(s, "MV:SP(2,5)->(4,3)", "END", "MV:K(10,10)->(10,9)", "END")
    assert _dests(moves_of(s, "SP(4,3)")) == {"(5,2)", "(5,4)"}
    s = pos(KINGS + "piece B SP e5 G moved\n")
    assert _dests(moves_of(s, "SP(5,5)")) == {"(6,4)", "(6,6)"}


def test_01_R7_4_white_forward_is_toward_row_1() -> None:
    """01/R7.4, R2.4: a White Pawn's +1 row is a lower row number: from its origin e9 it has
    d8, f8, c7, g7; having left it, from e5 only d4 and f4."""
    s = pos("to-move W\n" + KINGS + "piece W FP e9 G\npiece W RP b5 G moved\n")
    assert _dests(moves_of(s, "FP(9,5)")) == {"(8,4)", "(8,6)", "(7,3)", "(7,7)"}
    assert _dests(moves_of(s, "RP(5,2)")) == {"(4,1)", "(4,3)"}


@pytest.mark.parametrize("pawn,weapon", [("FP", "FL"), ("RP", "RL"), ("SP", "ST"), ("CP", "CS")])
def test_01_R7_6_pawn_weapon_and_its_own_defence(pawn: str, weapon: str) -> None:
    """01/R7.6, R7.7: each of these Pawns has a weapon plus the defence against that weapon. It is
    offered Fires of its weapon only; the same weapon fired once at an enemy Pawn of its own type
    on e5 has no effect, while the Tank on f5 (no defence) is destroyed, stunned or converted."""
    s = pos(KINGS + f"piece B {pawn} e4 G moved\npiece W {pawn} e5 G moved\npiece W TA< f5 G\n")
    assert _fires(s, f"{pawn}(4,5)") == {weapon}
    same = play(s, f"FI:{weapon}/{pawn}(4,5)->(5,5)")
    assert [(p.kind, p.side, p.stun) for p in at(same, "e5")] == [(pawn, "W", 0)]
    other = play(s, f"FI:{weapon}/{pawn}(4,5)->(5,6)")
    want = {"FL": [], "RL": [], "ST": [("TA", "W", 3)], "CS": [("TA", "B", 0)]}[weapon]
    assert [(p.kind, p.side, p.stun) for p in at(other, "f5")] == want


# -- 01/R8.2, 01/R8.3: AAA and Bulldozer ---------------------------------------------------------

def test_01_R8_2_aaa_harms_only_the_air_unless_it_holds_a_weapon() -> None:
    """01/R8.2: an AAA's only Fire is its SAM; fired north from e4 it makes a SAM in e5's Air
    (RUL-15), which destroys the White Jet there and leaves the White Tank on e5's Ground
    untouched. Once it has picked up a Flamer it is offered the Flamer too."""
    s = pos(KINGS + "piece B AAA e4 G\narticle FL e4\npiece W TA< e5 G\npiece W JE e5 A\n")
    assert _fires(s, "AAA(4,5)") == {"SL"}
    after = play(s, "FI:SL/AAA(4,5)->(5,5)")
    assert at(after, "e5", "A") == []
    assert [(p.kind, p.side) for p in at(after, "e5")] == [("TA", "W")]
    armed = play(s, "PU:AAA(4,5)^FL")
    assert _fires(armed, "AAA(4,5)1FL") == {"SL", "FL"}


def test_01_R8_3_bulldozer_has_no_inherent_ability() -> None:
    """01/R8.3: a Bulldozer holding nothing is offered no Fire, and it has no defence either: a
    single flame from the White Tank destroys it (a Destroyer, which also has no Anti-Flamer, is
    the control on the other side)."""
    s = pos(KINGS + "piece B DO e4 G\n")
    assert not any(a.startswith("FI:") for a in legal(s))
    w = pos("to-move W\n" + KINGS + "piece B DO e4 G\npiece W TA< e5 G\n")
    w = play(w, "FI:FL/TA(5,5)<->(4,5)")
    assert at(w, "e4") == []


# -- 01/R15.6: nudge group size --------------------------------------------------------------------

def test_01_R15_6_nudge_moves_one_coincident_and_at_most_four_adjacent() -> None:
    """01/R15.6, RUL-26: with the co-located Flamer Pawn and five friendly Pawns on d3, e3, f3,
    d5 and f5, every nudge takes the co-located Pawn first plus at most 4 adjacent pieces (6
    pieces with the Bulldozer); a 4-adjacent nudge is offered, and one naming all 5 is refused
    naming RUL-26."""
    s = pos(KINGS + "piece B DO e4 G\npiece B FP e4 G moved\npiece B SP d3 G moved\n"
            "piece B RP e3 G moved\npiece B CP f3 G moved\npiece B SP d5 G moved\n"
            "piece B CP f5 G moved\n")
    nudges = [a for a in api.legal_actions(s) if isinstance(a, api.Move) and a.doze]
    assert nudges and all(m.doze[0] == ("FP", 4, 5) for m in nudges)
    assert max(len(m.doze) - 1 for m in nudges) == 4
    groups = {frozenset(m.doze[1:]) for m in nudges if (m.row, m.col) == (5, 5)}
    four = frozenset({("SP", 3, 4), ("RP", 3, 5), ("CP", 3, 6), ("SP", 5, 4)})
    assert four in groups
    five = next(m for m in nudges if (m.row, m.col) == (5, 5) and frozenset(m.doze[1:]) == four)
    too_many = api.Move(five.piece, "G", 5, 5, doze=five.doze + (("CP", 5, 6),))
    before = api.state_hash(s)
    with pytest.raises(RuleError) as err:
        api.apply_action(s, too_many)
    assert err.value.rule == "RUL-26"
    assert api.state_hash(s) == before


# -- 01/R15.11: the Bike -------------------------------------------------------------------------

def test_01_R15_11_bike_one_square_never_capturing() -> None:
    """01/R15.11, RUL-30: a Destroyer's Bike takes it one square in any direction along the
    Ground, in the same turn and without using the Move: the 8 neighbours of e4 except e5,
    where a visible White Tank stands (the Bike never captures); d5 holds a friendly Pawn, which
    the Destroyer may join (Coexistence)."""
    s = pos(KINGS + "piece B DS e4 G BI\npiece W TA< e5 G\npiece B FP d5 G moved\n")
    rides = {a.split("->")[1] for a in legal(s) if a.startswith("FI:BI/")}
    assert rides == {"(5,4)", "(5,6)", "(4,4)", "(4,6)", "(3,4)", "(3,5)", "(3,6)"}
    s = play(s, "FI:BI/DS(4,5)1BI->(3,6)")
    assert [p.kind for p in at(s, "f3")] == ["DS"] and at(s, "e4") == []
    assert [(p.kind, p.side) for p in at(s, "e5")] == [("TA", "W")]
    assert moves_of(s, "K(1,10)")                    # the turn's Move is still to be made
