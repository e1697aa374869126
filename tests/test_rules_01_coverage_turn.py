"""Coverage of the 01-overview rules on reading the reference, the board, setup, winning, the
action budget and the option defaults that no other test cited (issue 13 item 4): 01/R0.1,
R0.2, R1.6, R2.2, R3.4-R3.6, R4.4, R4.7, R4.8, R4.11, R20.2.

Every expected value is worked out by hand from the rule cited in the test (and 00-rulings.md,
which wins), never taken from the engine. Squares are e4 in positions, (row, col) in notation.
"""
from __future__ import annotations

import pytest

from engine import api
from engine.pieces import KINDS
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, moves_of, one, play, pos, refused, setup_json
from fire_helpers import on_trip

KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _dests(actions: set[str]) -> set[str]:
    return {a.split("->", 1)[1] for a in actions}


# -- 01/R0.1: the later, more detailed section wins -----------------------------------------------

def test_01_R0_1_later_sections_override_the_overview() -> None:
    """01/R0.1: where a later section contradicts the overview, the later one wins.
    * 01/R12.11 gives the restricted rocket range 1; 02/D13 (RUL-17) gives 0: the Jet over e5
      has no rocket Fire at the White Tank on f5 (distance 1), only at the one right below it.
    * 01/R5.6 says a Jet and a Cleric may not share a level; 02/G35 (RUL-24) gives the Jet
      Coexistence: the Cleric may end its Move on the Jet's cell.
    * 01/R12.4 flames 2 squares; 02/D19 (RUL-9) flamer range 1: the Pawn on e7 survives a
      flame from e5 that destroys the Tank on e6."""
    s = pos(KINGS + "piece B JE e5 A\npiece W TA< e5 G\npiece W TA> f5 G\n")
    rockets = {a for a in legal(s) if a.startswith("FI:RL/")}
    assert rockets == {"FI:RL/JE^(5,5)=>TA(5,5)<"}
    s = pos(KINGS + "piece B CL> a1 G\npiece B JE h4 G\n")
    s = play(s, "MV:CL(1,1)>->(4,8)")   # 03/M1.9: the right Cleric's 7-step zigzag a1 -> h4
    assert sorted(p.kind for p in at(s, "h4")) == ["CL", "JE"]
    s = play(pos(KINGS + "piece B FP e5 G moved\npiece W TA< e6 G\npiece W RP e7 G moved\n"),
             "FI:FL/FP(5,5)->(6,5)")
    assert at(s, "e6") == [] and [p.kind for p in at(s, "e7")] == ["RP"]


# -- 01/R0.2: names and codes -------------------------------------------------------------------

PIECE_CODES = ["RP", "FP", "SHP", "SP", "CP", "XP", "SOP", "TA>", "DO", "SU", "CH>", "DS",
               "AAA", "CL>", "JE", "K", "DI", "AV", "PR", "Q", "AS", "AC", "PM"]
ARTICLE_CODES = ["FL", "ST", "CS", "RL", "SL", "TL", "SH", "AFL", "AST", "ACS", "ARL", "ASL",
                 "ATL", "ASH", "BI", "JP", "SC", "XXX"]


@pytest.mark.parametrize("code", PIECE_CODES)
def test_01_R0_2_every_piece_code_names_a_piece(code: str) -> None:
    """01/R0.2: each notation code of the table names one piece type a position can hold."""
    s = pos(KINGS.replace("j1", "a1") + f"piece B {code} e5 G\n")
    assert [p.kind + p.hand for p in at(s, "e5")] == [code]


def test_01_R0_2_article_codes_and_names() -> None:
    """01/R0.2: the 18 article codes all name articles that can lie on the board; the Jump Pack
    is also written JU (in a Fire, 04/H15); the Theocracy secondary piece is the Acolyte; an
    unknown code such as MS ("missile") is refused."""
    lines = "".join(f"article {c} {'abcdefghi'[i // 2]}5\n" for i, c in enumerate(ARTICLE_CODES))
    s = pos(KINGS + lines)
    assert sorted(c for sq in s.ground.values() for c in (s.art_code[a] for a in sq)) == \
        sorted(ARTICLE_CODES)
    assert api.parse_action("FI:JU/TA(4,5)1JP>->(6,5)").article in ("JP", "JU")
    assert KINDS["AC"].name == "Acolyte"
    with pytest.raises(api.SaveError):
        pos(KINGS + "article MS e5\n")


# -- 01/R1.6: square colour has no effect -------------------------------------------------------

def test_01_R1_6_square_colour_changes_nothing() -> None:
    """01/R1.6: e5 is a white square, f5 a black one (R1.2: black when row + column is odd).
    The same pieces one column apart have the same Moves and Fires, shifted by one column."""
    def offsets(square: str, col: int) -> set[str]:
        left = chr(ord(square[0]) - 2)
        s = pos(f"piece B K {left}1 G\npiece W K {left}10 G\npiece B JE {square} A\n"
                f"piece B FP {square} G\npiece B DO {left}5 G\n")
        out = set()
        for a in legal(s):
            for r in range(1, 11):
                for c in range(1, 11):
                    a = a.replace(f"({r},{c})", f"({r},{c - col:+d})")
            out.add(a)
        return out
    assert offsets("e5", 5) == offsets("f5", 6)


# -- 01/R2.2: starting positions --------------------------------------------------------------

def test_01_R2_2_standard_game_starts_in_the_predefined_position() -> None:
    """01/R2.2, 02/§2.2: a new standard game has every piece of tests/data/standard-setup.json on
    its square, on the Ground, and nothing else; Black is to move at ply 1."""
    data = setup_json()
    code = {t: v["wec_code"] for t, v in data["piece_types"].items()}
    code = {t: {"STP": "SP"}.get(c, c) for t, c in code.items()}      # RUL-35 alias
    want = sorted((p["side"][0].upper(), code[p["type"]], p["row"], p["col"])
                  for p in data["pieces"])
    s = api.new_game()
    got = sorted((p.side, p.kind, p.row, p.col) for p in s.pieces.values())
    assert got == want
    assert {p.level for p in s.pieces.values()} == {"G"}
    assert (s.ply, api.side_to_move(s)) == (1, "black")


def test_01_R2_2_editor_board_starts_as_written() -> None:
    """01/R2.2, 01/R19.1: a board made in the editor (a position file) starts a game with exactly
    the pieces and articles written, and play goes on from it."""
    s = pos(KINGS + "piece B TA> e4 G FL\narticle SC c3\nreinforcement B JE d8\n")
    assert sorted((p.side, p.kind, p.row, p.col) for p in s.pieces.values()) == [
        ("B", "K", 1, 10), ("B", "TA", 4, 5), ("W", "K", 10, 10)]
    assert ground(s, "c3") == ["SC"] and held(s, one(s, "e4", "TA")) == ["FL"]
    assert s.reinforcements == {(8, 4): ("B", "JE", "")}
    assert play(s, "MV:K(1,10)->(2,10)", "END").ply == 2


# -- 01/R3.4-R3.6: winning ---------------------------------------------------------------------

def test_01_R3_4_taking_the_primary_by_capture() -> None:
    """01/R3.4 (first way): the Black King on e4 captures the White King on e5: Black wins."""
    s = play(pos("piece B K e4 G\npiece W K e5 G\n"), "MV:K(4,5)->(5,5)")
    assert api.outcome(s) == "black"


def test_01_R3_4_taking_the_primary_by_a_weapon_hit() -> None:
    """01/R3.4 (second way): a single flame from the Black Tank on e4 destroys the White
    Dictator on e5 (Anti-Conversion and Anti-Rocket only, 01/R9.2): Black wins."""
    s = pos("piece B K j1 G\npiece B TA> e4 G\npiece W DI e5 G\n", gov_white="dictatorship")
    s = play(s, "FI:FL/TA(4,5)>->(5,5)")
    assert at(s, "e5") == [] and api.outcome(s) == "black"


def test_01_R3_4_taking_the_primary_by_conversion() -> None:
    """01/R3.4 (third way): the Black Cleric converts the White King on e5 (no Anti-Conversion):
    the King becomes Black's and Black wins."""
    s = play(pos("piece B K j1 G\npiece B CL> e4 G\npiece W K e5 G\n"), "FI:CS/CL(4,5)>->(5,5)")
    assert [(p.kind, p.side) for p in at(s, "e5")] == [("K", "B")]
    assert api.outcome(s) == "black"


def test_01_R3_5_other_pieces_do_not_decide_the_game() -> None:
    """01/R3.5: the Black Tank's flame destroys White's Queen and Destroyer on e5, White's only
    pieces besides its King: the game goes on (no result), and White plays its next turn."""
    s = pos("piece B K j1 G\npiece B TA> e4 G\npiece W K a10 G\npiece W Q e5 G\npiece W DS e5 G\n")
    s = play(s, "FI:FL/TA(4,5)>->(5,5)")
    assert at(s, "e5") == [] and api.outcome(s) is None
    s = play(s, "MV:K(1,10)->(2,10)", "END")
    assert api.side_to_move(s) == "white" and moves_of(s, "K(10,1)")


def test_01_R3_6_both_primaries_in_one_turn_the_mover_loses() -> None:
    """01/R3.6 (overridden by A-1, RUL-2): the Black Tank holding a Flamer article fires with
    strength 2 (RUL-5) over 2 squares (flamer_range 2): the Black King on e5 and the White King
    on e6 each have one Anti-Flamer and both are destroyed in Black's turn. Not a draw: the
    mover, Black, loses."""
    s = pos("piece B TA> e4 G FL\npiece B K e5 G\npiece W K e6 G\n", flamer_range=2)
    s = play(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    assert at(s, "e5") == [] and at(s, "e6") == []
    assert api.outcome(s) == "white"


def test_01_R3_6_own_primary_destroyed_by_friendly_fire() -> None:
    """01/R3.6, R12.13: in its own turn Black's strength-2 flame destroys its own King on e5:
    Black has lost."""
    s = pos("piece B TA> e4 G FL\npiece B K e5 G\npiece W K j10 G\n")
    s = play(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    assert api.outcome(s) == "white"


# -- 01/R4.4, R4.7, R4.8, R4.11: the action budget --------------------------------------------

def test_01_R4_4_each_source_fires_once_per_turn() -> None:
    """01/R4.4 reading (A), RUL-4: the Tank's inherent Flamer and its Stunner article are two
    sources, so both fire this turn (two Fires): the flame destroys the White Destroyer on d4,
    the Stunner stuns the White Tank on e6 (breaking it: reading B, one Fire per piece)."""
    s = pos(KINGS + "piece B TA> e4 G ST\npiece W TA< e6 G\npiece W DS d4 G\n")
    s = play(s, "FI:FL/TA(4,5)1ST>->(4,4)", "FI:ST/TA(4,5)1ST>->(5,5)")
    assert at(s, "d4") == []
    assert one(s, "e6", "TA").stun == 3


def test_01_R4_4_a_transport_article_fires_once_per_turn() -> None:
    """01/R4.4 (recommended: a transport article fires at most once per turn), RUL-4: transport
    articles have no rate of fire (RUL-6), so only the source limit stops a second Bike ride of
    the same Destroyer in one turn (c3 -> c4, then c4 -> c5 refused naming RUL-4, with one Fire
    of the budget left: the Flamer Pawn may still fire)."""
    s = pos(KINGS + "piece B DS c3 G BI\npiece B FP e2 G\n")
    s = play(s, "FI:BI/DS(3,3)1BI->(4,3)")
    refused(s, "FI:BI/DS(4,3)1BI->(5,3)", "RUL-4")
    assert "FI:FL/FP(2,5)->(3,5)" in legal(s)


def test_01_R4_4_a_jets_two_inherent_weapons_are_one_source() -> None:
    """01/R4.4 reading (A): after the Jet over e5 fires its SAM, its restricted rocket at the
    White Tank below is refused (RUL-4); under ``fire_limit_rule = per_weapon`` (reading C) it
    is allowed and destroys the Tank."""
    text = KINGS + "piece B JE e5 A\npiece W TA< e5 G\n"
    s = play(pos(text), "FI:SL/JE^(5,5)->(6,5)")
    refused(s, "FI:RL/JE^(5,5)=>TA(5,5)<", "RUL-4")
    c = play(pos(text, fire_limit_rule="per_weapon"), "FI:SL/JE^(5,5)->(6,5)",
             "FI:RL/JE^(5,5)=>TA(5,5)<")
    assert at(c, "e5") == []


def test_01_R4_7_a_transport_fire_counts_toward_the_two_fires() -> None:
    """01/R4.7: a Bike Fire is a Fire: after it and one Flamer Fire, a further Fire is refused
    naming 01/R4.3 (at most two Fires per turn)."""
    s = pos(KINGS + "piece B DS c3 G BI\npiece B FP e2 G\npiece B SP b2 G moved\n")
    s = play(s, "FI:BI/DS(3,3)1BI->(4,3)", "FI:FL/FP(2,5)->(3,5)")
    refused(s, "FI:ST/SP(2,2)->(3,2)", "01/R4.3")


def test_01_R4_7_continuing_trip_uses_neither_move_nor_fire() -> None:
    """01/R4.7, R15.14: a Jump Pack trip fired earlier advances by itself at the start of Black's
    turn (e4 Air -> e5 Air); Black still owes its Move (End Turn refused, 01/R4.2) and still has
    both Fires."""
    s = pos("to-move W\n" + KINGS + "piece B TA> e4 A JP\npiece B FP b2 G moved\n"
            "piece B SP g2 G moved\n")
    on_trip(s, "e4", "A", "JP", ("e5", "e6"))
    s = play(s, "MV:K(10,10)->(10,9)", "END")
    assert [p.kind for p in at(s, "e5", "A")] == ["TA"] and at(s, "e4", "A") == []
    refused(s, "END", "01/R4.2")
    s = play(s, "FI:FL/FP(2,2)->(3,2)", "FI:ST/SP(2,7)->(3,7)", "MV:K(1,10)->(2,10)", "END")
    assert s.ply == 4


def test_01_R4_8_each_action_does_what_its_definition_says() -> None:
    """01/R4.8: Move changes a piece's square (the King d8 -> c8); Reinforce makes a waiting
    reinforcement appear (the Jet on d8, which the King has just left, RUL-34); Pick-up takes the
    unowned Flamer from e4's Ground into the Tank's hand; Exchange passes it to the Destroyer on
    f5; Drop puts the Destroyer's Bike onto f5's Ground. Fire is covered by the other tests."""
    s = pos("piece B K d8 G\npiece W K j10 G\npiece B TA> e4 G\narticle FL e4\n"
            "piece B DS f5 G BI\nreinforcement B JE d8\n")
    s = play(s, "MV:K(8,4)->(8,3)")
    assert [p.kind for p in at(s, "c8")] == ["K"] and at(s, "d8") == []
    s = play(s, "RE:(8,4)JE")
    assert [(p.kind, p.side) for p in at(s, "d8")] == [("JE", "B")] and s.reinforcements == {}
    s = play(s, "PU:TA(4,5)>^FL")
    assert held(s, one(s, "e4", "TA")) == ["FL"] and ground(s, "e4") == []
    s = play(s, "DR:DS(5,6)1BIvBI")
    assert held(s, one(s, "f5", "DS")) == [] and ground(s, "f5") == ["BI"]
    s = play(s, "EX:TA(4,5)1FL>->FL->DS(5,6)")
    assert held(s, one(s, "e4", "TA")) == [] and held(s, one(s, "f5", "DS")) == ["FL"]


def test_01_R4_11_no_fire_while_reloading() -> None:
    """01/R4.11, RUL-6, A-12: the Stunner (rate 2) fired on ply 1 is still reloading on ply 3
    (refused, RUL-6) and fires again on ply 5."""
    s = pos(KINGS + "piece B SP e2 G moved\n")
    s = play(s, "FI:ST/SP(2,5)->(3,5)", "MV:K(1,10)->(2,10)", "END", "MV:K(10,10)->(9,10)", "END")
    assert s.ply == 3
    refused(s, "FI:ST/SP(2,5)->(3,5)", "RUL-6")
    s = play(s, "MV:K(2,10)->(1,10)", "END", "MV:K(9,10)->(10,10)", "END")
    assert s.ply == 5
    assert "FI:ST/SP(2,5)->(3,5)" in legal(s)


# -- 01/R20.2: option defaults --------------------------------------------------------------------

def test_01_R20_2_option_defaults() -> None:
    """01/R20.2 with the rulings that settle its defaults: O1 invisibility on; O2 and O6 off;
    O3 primary pieces may fly or dive; O4 no stealthy primary; O5 restricted rocket range 0
    (RUL-17 overrides 1); O7 lock-only detection for Stealth (RUL-18); O8 firing reveals, for
    stealthy and submerged pieces (A-3: the manual's unstated default is 'yes'); O9 special
    forces off (A-19); O10 rates Stunner 2, Flamer, Conversion and the launchers 4 (A-12)."""
    o = api.Options()
    assert (o.stealth_invisibility, o.submerged_invisibility) == (True, True)
    assert (o.one_action_per_piece, o.move_only) == (False, False)
    assert o.primary_may_fly_or_dive is True and o.stealthy_primary_allowed is False
    assert o.restricted_rocket_range == 0 and o.stealth_range_detection is False
    assert (o.reveal_stealth_on_fire, o.reveal_submerged_on_fire) == (True, True)
    assert o.transport_ground_to_ground_only is True
    assert [o.rate_of_fire(w) for w in ("ST", "FL", "CS", "RL", "SL", "TL")] == [2, 4, 4, 4, 4, 4]


def test_01_R20_2_o8_default_firing_reveals() -> None:
    """01/R20.2 (O8 default, A-3): White's stealthy AAA on h8 is hidden from Black until it fires
    its SAM; right after the Fire Black sees it."""
    s = pos("to-move W\n" + KINGS + "piece W AAA h8 G\n")
    aaa = one(s, "h8", "AAA")
    assert aaa.sid in hidden_from(s, "B")
    s = play(s, "FI:SL/AAA(8,8)->(7,8)")
    assert aaa.sid not in hidden_from(s, "B")
