"""Rule ids of 02 (glossary and defaults), 03 (movement) and 04 (history and its censoring) that
no other test cited (issue 13 item 4).

Every expected value is worked out by hand from the rule the test cites (00-rulings.md wins
over the parts). Squares are written e4 in positions and (row, col) = (4,5) in notation; Black
moves first and its forward direction is increasing row (03/M0.1, 04/U71).
"""
from __future__ import annotations

import random

import pytest

from engine import api
from engine.actions import Move
from engine.notation import NotationError, format_turn, parse_turn
from engine.view import history_for, observe
from engine_helpers import at, ground, held, legal, one, play, pos
from fire_helpers import act, idle, rs, where
from movement_helpers import dests

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def fires(state, prefix: str = "") -> set[str]:
    """Legal Fires whose text starts with ``FI:<prefix>``."""
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


# -- 02: glossary -------------------------------------------------------------------------------

def test_02_g2_white_is_the_other_player_and_moves_second():
    """02/G2: White is the other player. The standard game gives White its own 28 pieces (on
    its home rows 9 and 10), White moves after Black's first turn, and a result that happens to
    a White piece carries the colour letter W (04/H6)."""
    s = api.new_game()
    white = [p for p in s.pieces.values() if p.side == "W"]
    assert len(white) == 28 and {p.side for p in s.pieces.values()} == {"B", "W"}
    assert {p.row for p in white} == {9, 10}
    assert api.side_to_move(s) == "black"
    s = play(s, "MV:JE(1,4)->^(1,4)", "END")
    assert api.side_to_move(s) == "white" and s.ply == 2
    # a White piece stunned by Black: the result names it W
    s = act(pos(KINGS + "piece B SP e2 G\npiece W DO e5 G"), "FI:ST/SP(2,5)->(3,5)")
    assert rs(s) == "SP*DO(5,5)3W"


def test_02_g10_either_side_may_be_a_human_or_the_computer():
    """02/G10: a side's controller may be the user, a hotseat human or the computer opponent.
    Hotseat: nobody plays for either side and the view follows the side to move. Against the
    computer as White: after Black's turn the computer plays White's whole turn and it is
    Black's turn again. The computer as Black opens the game (Black moves first, 02/G1)."""
    from ui.session import Session

    hot = Session(api.new_game())
    assert (hot.state.ply, hot.viewer) == (1, "B")
    assert hot.apply(api.parse_action("MV:JE(1,4)->^(1,4)")) is None
    assert hot.apply(api.EndTurn()) is None
    assert (hot.state.ply, hot.viewer, len(hot.state.history)) == (2, "W", 1)

    vs_white = Session(api.new_game(), computer="W", seed=5)
    assert vs_white.state.ply == 1 and vs_white.viewer == "B"
    before = vs_white.state
    assert vs_white.apply(api.parse_action("MV:JE(1,4)->^(1,4)")) is None
    assert vs_white.apply(api.EndTurn()) is None
    s = vs_white.state
    assert (s.ply, s.side_to_move, len(s.history), vs_white.viewer) == (3, "B", 2, "B")
    move = parse_turn(s.history[1]).move            # White's line: a White piece moved
    mover = [p for p in before.pieces.values()
             if (p.row, p.col, p.level) == (move.piece.row, move.piece.col, move.piece.level)
             and p.kind == move.piece.kind]
    assert mover and all(p.side == "W" for p in mover)

    vs_black = Session(api.new_game(), computer="B", seed=5)
    assert (vs_black.state.ply, vs_black.state.side_to_move, vs_black.viewer) == (2, "W", "W")
    assert len(vs_black.state.history) == 1


def test_02_g27_anti_stunner_protects_against_one_stun():
    """02/G27, RUL-7: a Pawn [AST] hit by one Stunner ray is not stunned (1 hit <= 1 defence);
    a second ray in the same turn stuns it (2 > 1): stun 3 (02/D18), and it drops the AST
    (RUL-12). Without the AST one ray stuns it."""
    s = pos(KINGS + "piece B SP e2 G\npiece B SP b5 G\npiece W RP e5 G AST moved")
    s = act(s, "FI:ST/SP(2,5)->(3,5)")
    rp = one(s, "e5", "RP")
    assert rs(s) == "" and rp.stun == 0 and held(s, rp) == ["AST"]
    s = act(s, "FI:ST/SP(5,2)->(5,3)")
    rp = one(s, "e5", "RP")
    assert rs(s) == "SP*RP(5,5)1AST3W" and rp.stun == 3 and held(s, rp) == []
    assert ground(s, "e5") == ["AST"]
    bare = act(pos(KINGS + "piece B SP e2 G\npiece W RP e5 G moved"), "FI:ST/SP(2,5)->(3,5)")
    assert one(bare, "e5", "RP").stun == 3


def test_02_g28_anti_rocket_protects_against_one_rocket_hit():
    """02/G28, RUL-7: a Bulldozer [ARL] survives one Rocket hit and is destroyed by a second in
    the same turn (`RK`), its ARL left on the ground (RUL-12). Rockets fired onto an adjacent
    occupied square hit there at once. Without the ARL one Rocket destroys it."""
    s = pos(KINGS + "piece B RP e4 G moved\npiece B RP d4 G moved\npiece W DO e5 G ARL")
    s = act(s, "FI:RL/RP(4,5)->(5,5)")
    assert rs(s) == "R->(5,5)(1,0),Rv(5,5)" and [p.kind for p in at(s, "e5")] == ["DO"]
    s = act(s, "FI:RL/RP(4,4)->(5,5)")
    assert rs(s) == "R->(5,5)(1,0),Rv(5,5),R->(5,5)(1,1),Rv(5,5),RK*DO(5,5)1ARL0W"
    assert at(s, "e5") == [] and ground(s, "e5") == ["ARL"]
    bare = act(pos(KINGS + "piece B RP e4 G moved\npiece W DO e5 G"), "FI:RL/RP(4,5)->(5,5)")
    assert rs(bare) == "R->(5,5)(1,0),Rv(5,5),RK*DO(5,5)0W"


def test_02_g31_anti_flamer_protects_against_one_flamer_attack():
    """02/G31, RUL-7: a Bulldozer [AFL] survives one flame of strength 1 and burns at the second
    (two Flamer Pawns) in the same turn; its AFL is left on the ground. Without the AFL one
    flame burns it."""
    s = pos(KINGS + "piece B FP e4 G moved\npiece B FP d4 G moved\npiece W DO e5 G AFL")
    s = act(s, "FI:FL/FP(4,5)->(5,5)")
    assert rs(s) == "" and [p.kind for p in at(s, "e5")] == ["DO"]
    s = act(s, "FI:FL/FP(4,4)->(5,5)")
    assert rs(s) == "FP*DO(5,5)1AFL0W" and at(s, "e5") == [] and ground(s, "e5") == ["AFL"]
    bare = act(pos(KINGS + "piece B FP e4 G moved\npiece W DO e5 G"), "FI:FL/FP(4,5)->(5,5)")
    assert rs(bare) == "FP*DO(5,5)0W"


def test_02_g33_sam_launch_article_fires_sams():
    """02/G33: a Bulldozer (no inherent weapon) holding a SAM Launch may fire SAMs in the 8
    directions; the Fire creates a SAM (`S`) on the adjacent square moving that way. It
    destroys a Jet in the Air there (`SK`). Without the article it has no Fire."""
    s = pos(KINGS + "piece B DO e5 G SL")
    assert fires(s) == {f"FI:SL/DO(5,5)1SL->({r},{c})" for r, c in
                        ((4, 4), (4, 5), (4, 6), (5, 4), (5, 6), (6, 4), (6, 5), (6, 6))}
    s = act(s, "FI:SL/DO(5,5)1SL->(6,5)")
    assert rs(s) == "S->(6,5)(1,0)" and where(s) == [("S", "e6", 1, 0)]
    jet = act(pos(KINGS + "piece B DO e5 G SL\npiece W JE e6 A"), "FI:SL/DO(5,5)1SL->(6,5)")
    assert rs(jet) == "S->(6,5)(1,0),Sv(6,5),SK*JE^(6,5)0W" and at(jet, "e6", "A") == []
    assert fires(pos(KINGS + "piece B DO e5 G")) == set()


# -- 02: defaults -------------------------------------------------------------------------------

def test_02_d29_firing_turn_is_the_first_turn_of_the_countdown():
    """02/D29, RUL-6: a Stunner (rate 2) fired at ply 1 counts ply 1 as its first countdown turn
    and ply 3 as its second, so it fires again at ply 5 (not ply 7); a Flamer article (rate 4)
    fired at ply 1 fires again at ply 9. The countdown is shown with the firing piece: its
    view carries the first ply it may fire again, for its owner and for the enemy."""
    s = pos(KINGS + "piece B SP e2 G moved\npiece B DO d2 G FL")
    s = act(s, "FI:ST/SP(2,5)->(3,5)", "FI:FL/DO(2,4)1FL->(3,4)")
    for view in (observe(s, "B").own, observe(s, "W").seen):
        shown = {(p.kind, p.ready, p.art_ready) for p in view if p.kind in ("SP", "DO")}
        assert shown == {("SP", (("ST", 5),), ()), ("DO", (), (9,))}
    s = act(s, "K", "END")
    ready = {}
    while s.ply < 11:
        s = idle(s)
        ready[s.ply] = {a.split("/")[0] for a in fires(s)}
        s = idle(s)
    assert ready == {3: set(), 5: {"FI:ST"}, 7: {"FI:ST"}, 9: {"FI:ST", "FI:FL"},
                     11: {"FI:ST", "FI:FL"}}


# -- 03: movement -------------------------------------------------------------------------------

def test_03_m1_5_aaa_one_square_any_direction_non_combat():
    """03/M1.5: a Black AAA on e5 moves one square in the 8 directions on its level (03/M1.5.2
    offsets): d4, e4, f4, d5, f5, d6, e6, f6; it is non-combat, so the visible White Pawn's
    square f6 is not a destination; an enemy Jet in the Air of e6 does not block its Ground
    step to e6."""
    s = pos(KINGS + "piece B AAA e5 G\npiece W RP f6 G moved\npiece W JE e6 A")
    assert dests(s, "e5") == {"d4", "e4", "f4", "d5", "f5", "d6", "e6"}
    s = play(s, "MV:AAA(5,5)->(6,5)")
    assert [(p.kind, p.side) for p in at(s, "e6")] == [("AAA", "B")]
    assert [p.kind for p in at(s, "f6")] == ["RP"]


def test_03_m2_9_standard_chess_cleric_moves_exactly_range_diagonally():
    """03/M2.9: under Standard Chess movement a Cleric moves diagonally exactly `range` squares,
    not to the edge like a bishop. From c2 (row 2, col 3) the only diagonal with 7 squares on
    the board reaches j9 (7,7); range 6 reaches i8; range 8 reaches nothing ((8,8) from c2 is
    row 10, column 11, off the board). A piece on f5, on the path d3-i8, removes j9; a White
    piece on j9 is taken (combat, M1.9.4)."""
    text = KINGS.replace("j10", "a10") + "piece B CL< c2 G\n"
    assert dests(pos(text, movement_type="standard_chess"), "c2") == {"j9"}
    assert dests(pos(text, movement_type="standard_chess", cleric_range=6), "c2") == {"i8"}
    assert dests(pos(text, movement_type="standard_chess", cleric_range=8), "c2") == set()
    blocked = pos(text + "piece W RP f5 G moved", movement_type="standard_chess")
    assert dests(blocked, "c2") == set()
    s = pos(text + "piece W DO j9 G", movement_type="standard_chess")
    s = play(s, "MV:CL(2,3)<->(9,10)")
    assert [(p.kind, p.side) for p in at(s, "j9")] == [("CL", "B")]


@pytest.mark.parametrize("mt", ["weaponized_chess", "mass_destruction_chess"])
def test_03_m3_2_md_king_bulldozer_destroyer_aaa_move_as_in_m1(mt):
    """03/M3.2 (M3.3-M3.5): under Mass Destruction movement King, Bulldozer, Destroyer and AAA
    move as in M1.2-M1.5: one square in the 8 directions; the King takes (White Pawn f6 is a
    destination), the other three are non-combat (the White Pawns next to them are not)."""
    s = pos("piece B K e5 G\npiece B DO c3 G\npiece B DS h3 G\npiece B AAA c8 G\n"
            "piece W K a10 G\npiece W RP f6 G moved\npiece W RP b4 G moved\n"
            "piece W RP i4 G moved\npiece W RP d9 G moved", movement_type=mt)
    assert dests(s, "e5") == {"d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"}
    assert dests(s, "c3") == {"b2", "c2", "d2", "b3", "d3", "c4", "d4"}
    assert dests(s, "h3") == {"g2", "h2", "i2", "g3", "i3", "g4", "h4"}
    assert dests(s, "c8") == {"b7", "c7", "d7", "b8", "d8", "b9", "c9"}
    after = play(s, "MV:K(5,5)->(6,6)")
    assert [(p.kind, p.side) for p in at(after, "f6")] == [("K", "B")]


def test_03_m3_7_md_jet_combat_only_with_move_only_and_not_on_two_square_moves():
    """03/M3.7: a Mass Destruction Jet moves as in M1.7 and is non-combat unless Move-Only is
    on and Sub/Jet movement is combat; then every Jet Move is combat except the 2-square Air
    move. B Jet e5 A; W Jets d4 A (1 square) and e7 A (2 squares straight), W Pawn under it on
    e5 G. Non-combat: the 16 Air squares less d4, e7 (enemies) and c3 (behind d4), no landing.
    Combat: d4 A and the landing on e5 join; e7 A never does. A Jet on e5 G under an enemy
    Jet launches onto it only with combat, and takes it."""
    base = {"d5^", "d6^", "e4^", "e6^", "f4^", "f5^", "f6^", "c5^", "c7^", "e3^", "g3^",
            "g5^", "g7^"}
    text = (KINGS.replace("j10", "a10") + "piece B JE e5 A\npiece W JE e7 A\npiece W JE d4 A\n"
            "piece W RP e5 G moved")
    md = {"movement_type": "mass_destruction_chess"}
    combat = {**md, "move_only": True, "sub_jet_combat": True}
    assert dests(pos(text, **md), "e5", "A") == base
    assert dests(pos(text, **md, move_only=True), "e5", "A") == base
    assert dests(pos(text, **combat), "e5", "A") == base | {"d4^", "e5"}
    launch = KINGS.replace("j10", "a10") + "piece B JE e5 G\npiece W JE e5 A"
    assert dests(pos(launch, **md, move_only=True), "e5") == set()
    s = play(pos(launch, **combat), "MV:JE(5,5)->^(5,5)")
    assert [(p.kind, p.side) for p in at(s, "e5", "A")] == [("JE", "B")]


# -- 04: the history notation -------------------------------------------------------------------

H4_PIECE_TYPES = ("DO TA CH JE SU DS AAA CL Q K PR PM DI AS AC AV RP FP SHP SP CP XP SOP").split()
H4_ARTICLES = "FL ST CS TL RL SL SH XXX ARL ASL ATL ACS AST AFL ASH BI SC JP".split()
H4_FIRING_ARTICLES = "FL ST CS RL TL SL BI SC JU".split()


def test_04_h4_every_printed_token_and_part_reads_and_prints_back():
    """04/H4: the grammar as printed. Every Piece_type and Article token (less TK/RK/SK, which
    RUL-35 makes results only), every Firing_article, and a line with every part in the printed
    order (Move, Transport, two Fires, Pickup, Exchange, Reinforce, Drop, Results) read and
    print back unchanged."""
    for kind in H4_PIECE_TYPES:
        line = f"MV:{kind}(1,1)->(2,1)"
        assert format_turn(parse_turn(line)) == line
    for art in H4_ARTICLES:
        line = f"MV:DO(1,1)1{art}->(2,1)"
        assert format_turn(parse_turn(line)) == line
    for art in ("TK", "RK", "SK"):                 # RUL-35 overrides the printed Article list
        with pytest.raises(NotationError):
            parse_turn(f"MV:DO(1,1)1{art}->(2,1)")
    for art in H4_FIRING_ARTICLES:
        line = f"MV:-,FI1:{art}/DO(1,1)->(1,2)"
        assert format_turn(parse_turn(line)) == line
    full = ("MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5),FI1:FL/TA(5,1)1FL>->(6,1),"
            "FI2:SL/AAA(2,3)=>JE^(6,4)1XXX,PU:K(2,6)^AFL,EX:PM(1,5)1ARL->ARL<=>FL<-TA(3,1)1FL>,"
            "RE:(1,4)JE,DR:TA(3,2)1FL>vFL,RS:RK*CL(7,2)1ST<0W,STK*JE^(5,5)0B,S->(4,2)(1,-1),"
            "Tv(5,5)")
    turn = parse_turn(full)
    assert format_turn(turn) == full
    assert [f.article for f in turn.fires] == ["FL", "SL"]
    assert turn.pickup is not None and turn.exchange is not None and turn.drop is not None


H5_MARKS = ("|", "[", "]", "{", "}", "..", " ")


def test_04_h5_meta_symbols_never_appear_in_a_record():
    """04/H5: `|`, `[ ]`, `{ }` and `..` are meta-symbols of the grammar and never appear in a
    real record, and names are simply concatenated (no separators, no spaces): no line of
    seeded games of the computer opponent holds one, and the parser refuses a line with one
    inserted."""
    lines = []
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        s = api.new_game()
        while s.ply < 40 and s.result is None:
            s = api.apply_action(s, api.random_action(s, rng))
        lines += s.history
    assert len(lines) >= 30
    for mark in H5_MARKS:
        assert [line for line in lines if mark in line] == [], mark
        for broken in (f"MV:K(1,5){mark}->(2,5)", f"MV:K(1,5)->(2,5){mark}",
                       f"MV:DO(1,1)1{mark}FL->(2,1)"):
            with pytest.raises(NotationError):
                parse_turn(broken)


def test_04_h10_squares_are_row_column_from_blacks_side():
    """04/H10, 04/U71: a square is `(Row,Column)`, decimals 1-10 without spaces; row 1 is
    Black's nearest row and columns count to Black's right. In the standard game Black's Jets
    on d1 and g1 launch as `(1,4)` and `(1,7)`, White's on d10 and g10 as `(10,4)`, `(10,7)`.
    Indices 0 and 11, a leading zero and a space are refused."""
    s = api.new_game()
    assert {a for a in legal(s) if a.startswith("MV:JE")} == \
        {"MV:JE(1,4)->^(1,4)", "MV:JE(1,7)->^(1,7)"}
    s = play(s, "MV:JE(1,7)->^(1,7)", "END")
    assert s.history == ("MV:JE(1,7)->^(1,7)",)
    assert {a for a in legal(s) if a.startswith("MV:JE")} == \
        {"MV:JE(10,4)->^(10,4)", "MV:JE(10,7)->^(10,7)"}
    assert [p.kind for p in at(s, "g1", "A")] == ["JE"]
    assert format_turn(parse_turn("MV:TA(10,10)>->(10,3)")) == "MV:TA(10,10)>->(10,3)"
    for bad in ("MV:K(0,5)->(1,5)", "MV:K(11,5)->(1,5)", "MV:K(01,5)->(1,4)",
                "MV:K(1, 5)->(1,4)", "MV:K(1,5)->( 1,4)"):
        with pytest.raises(NotationError):
            parse_turn(bad)


def test_04_h13_transport_parts_for_passengers_and_trips():
    """04/H13, RUL-36: one Transport part for each piece other than the Move piece and dozed
    pieces that changes square or level this turn: the piece as it was, then its level and
    square now, no trailing Articles. A Chopper's Jet passenger: `-TRA->JE(5,5)(3,4)`. A Jump
    Pack trip c3 -> c5 (risen at ply 1): the step of ply 3 `-TRA->DO^(3,3)1JP^(4,3)`; at ply 5
    the step and the landing `-TRA->DO^(4,3)1JP^(5,3)-TRA->DO^(5,3)1JP(5,3)`. A nudge writes
    its pieces in the Doze part only."""
    s = pos(KINGS + "piece B CH> e5 G\npiece B JE e5 G")
    s = play(s, "MV:CH(5,5)>->(3,4)-TRA->JE(5,5)(3,4)", "END")
    assert s.history == ("MV:CH(5,5)>->(3,4)-TRA->JE(5,5)(3,4)",)
    assert sorted(p.kind for p in at(s, "d3")) == ["CH", "JE"]

    s = act(pos(KINGS + "piece B DO c3 G JP"), "FI:JU/DO(3,3)1JP->(5,3)", "K", "END")
    assert s.history[-1] == "MV:K(1,10)->(1,9),FI1:JU/DO(3,3)1JP->(5,3)"
    s = act(idle(s), "K", "END")
    assert s.history[-1] == "MV:K(1,9)->(1,10)-TRA->DO^(3,3)1JP^(4,3)"
    s = act(idle(s), "K", "END")
    assert s.history[-1] == "MV:K(1,10)->(1,9)-TRA->DO^(4,3)1JP^(5,3)-TRA->DO^(5,3)1JP(5,3)"
    assert [p.kind for p in at(s, "c5")] == ["DO"]

    s = pos(KINGS + "piece B DO e4 G\npiece B FP e4 G\npiece B RP f5 G moved")
    s = play(s, "MV:DO(4,5)->(3,5),DO>(3,5)FP(4,5),RP(5,6)", "END")
    assert s.history == ("MV:DO(4,5)->(3,5),DO>(3,5)FP(4,5),RP(5,6)",)


# -- 04: what a competitive history hides ---------------------------------------------------------

# White: a Stealth-holding Pawn (hidden: lock-on only, range detection off), a Sub at b8 S far
# from Black's Destroyer (hidden) and a Sub at h4 S within 3 of it (detected, 02/D8, D15).
HIDDEN = ("to-move W\npiece B K j1 G\npiece B DS g2 G\npiece B SU b2 S\npiece W K j10 G\n"
          "piece W RP e8 G SH moved\npiece W SU b8 S\npiece W SU h4 S\n")
HIDDEN_PLAY = ("MV:RP(8,5)1SH->(7,4)", "END", "MV:SUv(2,2)->v(3,2)", "END",
               "MV:SUv(8,2)->v(7,2)", "END", "MV:K(1,10)->(1,9)", "END",
               "MV:SUv(4,8)->v(5,8)", "END")
HIDDEN_FULL = ["MV:RP(8,5)1SH->(7,4)", "MV:SUv(2,2)->v(3,2)", "MV:SUv(8,2)->v(7,2)",
               "MV:K(1,10)->(1,9)", "MV:SUv(4,8)->v(5,8)"]


def test_04_c2_competitive_history_leaves_out_invisible_enemy_pieces():
    """04/C2, RUL-37: in a competitive game Black's history leaves out the moves of White's
    undetected Stealth piece and undetected submerged Sub (`MV:?`); the Sub within 3 of Black's
    Destroyer (Torpedo Launch detection) is shown in full."""
    s = play(pos(HIDDEN, competitive=True), *HIDDEN_PLAY)
    assert list(s.history) == HIDDEN_FULL
    assert history_for(s, "B") == ["MV:?", "MV:SUv(2,2)->v(3,2)", "MV:?", "MV:K(1,10)->(1,9)",
                                   "MV:SUv(4,8)->v(5,8)"]


def test_04_c3_each_side_sees_its_own_activity_hotseat_filters_for_the_side_to_move():
    """04/C3, RUL-37 Hotseat: the hiding is done from each viewer's side: White reads its own
    hidden pieces' moves in full and Black's hidden Sub as `MV:?`; Black reads its own Sub in
    full. A competitive hotseat game shows the history filtered for the side to move."""
    from ui.session import Session

    s = play(pos(HIDDEN, competitive=True), *HIDDEN_PLAY)
    assert history_for(s, "W") == ["MV:RP(8,5)1SH->(7,4)", "MV:?", "MV:SUv(8,2)->v(7,2)",
                                   "MV:K(1,10)->(1,9)", "MV:SUv(4,8)->v(5,8)"]
    assert history_for(s, "B")[1] == "MV:SUv(2,2)->v(3,2)"
    hot = Session(s)
    assert s.side_to_move == "B" and hot.scene().history == history_for(s, "B")
    assert hot.apply(api.parse_action("MV:K(1,9)->(1,10)")) is None
    assert hot.apply(api.EndTurn()) is None
    assert hot.state.side_to_move == "W"
    assert hot.scene().history == history_for(hot.state, "W")
    assert hot.scene().history[1] == "MV:?"


def test_04_c6_a_move_stopped_by_an_invisible_enemy_shows_the_stop_and_the_take():
    """04/C6, RUL-37 (results caused by the viewer), 04/H21: a Standard Chess Tank sent a1 -> a8
    stops on a5, where a hidden White Pawn [SH] stood, and takes it. Black's own competitive
    history shows the requested Move, where its Tank stopped (`TAv(5,1)`) and what it took."""
    text = "piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\npiece W RP a5 G SH moved\n"
    s = play(pos(text, competitive=True, movement_type="standard_chess"),
             "MV:TA(1,1)>->(8,1)", "END")
    line = "MV:TA(1,1)>->(8,1),RS:TAv(5,1),TA*RP(5,1)1SH0W"
    assert s.history == (line,)
    assert history_for(s, "B") == [line] and history_for(s, "W") == [line]
    assert [(p.kind, p.side) for p in at(s, "a5")] == [("TA", "B")]


def test_04_c8_non_competitive_history_shows_everything():
    """04/C8, RUL-37: the same game, not competitive: both players' histories are the full
    record, hidden pieces' moves included."""
    s = play(pos(HIDDEN), *HIDDEN_PLAY)
    assert history_for(s, "B") == HIDDEN_FULL and history_for(s, "W") == HIDDEN_FULL


def test_04_c9_board_display_is_separate_from_the_history():
    """04/C9: hiding on the board is separate from hiding in the history. In the non-competitive
    game Black's history shows every White move (04/C8), yet Black's board view still holds
    only the White pieces it sees: the King and the detected Sub on h5 S, not the Stealth Pawn
    on d7 or the Sub on b7 S."""
    s = play(pos(HIDDEN), *HIDDEN_PLAY)
    assert history_for(s, "B") == HIDDEN_FULL
    assert sorted((p.kind, p.row, p.col, p.level) for p in observe(s, "B").seen) == \
        [("K", 10, 10, "G"), ("SU", 5, 8, "S")]
    assert sorted((p.kind, p.row, p.col, p.level) for p in observe(s, "W").seen) == \
        [("DS", 2, 7, "G"), ("K", 1, 9, "G")]
