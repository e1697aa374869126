"""Coverage of the 01-overview rules on hidden pieces and the board editor that no other test
cited (issue 13 item 4): 01/R14.11, R14.12, R19.1, R19.3, R19.5, R19.6.

The editor has no window yet; its buffer is the position file (engine.position), which is what
these tests drive. Every expected value is worked out by hand from the rule cited in the test
(and 00-rulings.md, which wins), never taken from the engine.
"""
from __future__ import annotations

import random

import pytest

from engine import api
from engine.position import format_position, parse_position
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, one, play, pos

KINGS = "piece B K j1 G\npiece W K j10 G\n"


# -- 01/R14.11, 01/R14.12: hidden pieces -----------------------------------------------------------

def test_01_R14_11_detectors_see_what_comes_close() -> None:
    """01/R14.11, A-11: the Black Destroyer on e3 does not see the White Sub submerged on e7
    (distance 4, beyond the detection range 3) but sees it once it comes to e6 (distance 3)."""
    s = pos("to-move W\n" + KINGS + "piece B DS e3 G\npiece W SU e7 S\n")
    sub = one(s, "e7", "SU", "S")
    assert sub.sid in hidden_from(s, "B")
    s = play(s, "MV:SUv(7,5)->v(6,5)")
    assert sub.sid not in hidden_from(s, "B")


def test_01_R14_12_hidden_activity_left_out_until_the_game_ends() -> None:
    """01/R14.12, RUL-37: in a competitive game White's stealthy AAA moves i9 -> h9 unseen. Black's
    history shows only ``MV:?``, White's the full line. Black then takes the White King, the game
    is over, and Black's history shows the AAA's Move in full."""
    s = pos("to-move W\npiece B K e4 G\npiece W K e5 G\npiece W AAA i9 G\n", competitive=True)
    s = play(s, "MV:AAA(9,9)->(9,8)", "END")
    assert api.history_for(s, "B") == ["MV:?"]
    assert api.history_for(s, "W") == ["MV:AAA(9,9)->(9,8)"]
    s = play(s, "MV:K(4,5)->(5,5)")
    assert api.outcome(s) == "black"
    assert api.history_for(s, "B")[0] == "MV:AAA(9,9)->(9,8)"


# -- 01/R19.1, R19.3, R19.5, R19.6: the board editor -----------------------------------------------

def test_01_R19_1_current_position_becomes_the_editing_buffer() -> None:
    """01/R19.1: after two turns of play (a Pick-up, a stun), the position written for the editor
    holds the board as it is now: the same pieces on the same cells with the same articles and
    stun counters, the same ground articles, the same side to move. Edited (the Scuba moved to
    another square) it loads as a new board."""
    s = pos(KINGS + "piece B TA> e4 G\narticle FL e4\narticle SC c3\npiece B SP b2 G moved\n"
            "piece W TA< b5 G\n")
    s = play(s, "PU:TA(4,5)>^FL", "FI:ST/SP(2,2)->(3,2)", "MV:K(1,10)->(2,10)", "END")
    buffer = format_position(s)
    again = parse_position(buffer, s.options)
    def board(state: api.GameState) -> list[tuple[object, ...]]:
        return sorted((p.side, p.kind, p.hand, p.row, p.col, p.level,
                       tuple(state.codes(p)), p.stun) for p in state.pieces.values())
    assert board(again) == board(s) == [
        ("B", "K", "", 2, 10, "G", (), 0), ("B", "SP", "", 2, 2, "G", (), 0),
        ("B", "TA", ">", 4, 5, "G", ("FL",), 0), ("W", "K", "", 10, 10, "G", (), 0),
        ("W", "TA", "<", 5, 2, "G", (), 3)]
    assert ground(again, "c3") == ["SC"] and ground(again, "e4") == []
    assert api.side_to_move(again) == "white"
    edited = parse_position(buffer.replace("article SC c3", "article SC h6"), s.options)
    assert ground(edited, "h6") == ["SC"] and ground(edited, "c3") == []


def test_01_R19_3_editor_moves_reinforcements_but_gives_them_no_articles() -> None:
    """01/R19.3, R16.5: the editor may put a Black Jet reinforcement on c7 instead of its standard
    square, and it arrives empty-handed; a reinforcement line naming an article is refused with
    its line number and nothing is loaded."""
    s = pos("piece B K c7 G\npiece W K j10 G\nreinforcement B JE c7\n")
    s = play(s, "MV:K(7,3)->(6,3)", "RE:(7,3)JE")
    jet = one(s, "c7", "JE")
    assert held(s, jet) == [] and jet.side == "B"
    with pytest.raises(api.SaveError) as err:
        pos("piece B K c7 G\npiece W K j10 G\nreinforcement B JE c7 FL\n")
    assert "line 3" in str(err.value)


GROUND_ONLY = """
piece B K e1 G
piece B Q f1 G
piece B TA> a1 G
piece B CL< c1 G
piece B DO d2 G
piece B FP b3 G
piece B RP e3 G
piece B SP g3 G
piece B CP i3 G
piece W K e10 G
piece W Q f10 G
piece W TA< j10 G
piece W CL> h10 G
piece W DO g9 G
piece W FP i8 G
piece W RP f8 G
piece W SP d8 G
piece W CP b8 G
article FL c5
article RL h5
article BI e5
article ST f6
article AFL a6
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_01_R19_5_without_air_and_sub_pieces_the_game_stays_on_the_ground(seed: int) -> None:
    """01/R19.5: a board with no piece that travels off the Ground (no Jet, Chopper, Sub), no
    Jump Pack or Scuba and no SAM or Torpedo Launcher (so no AAA or Destroyer either) plays as a
    one-level game: in 60 seeded random plies no legal Move ever leads to the Air or Sub level,
    every piece stays on the Ground, and the only projectiles are rockets."""
    rng = random.Random(seed)
    s = pos(GROUND_ONLY)
    for _ in range(200):
        if api.outcome(s) is not None or s.ply > 60:
            break
        actions = api.legal_actions(s)
        assert all(a.level == "G" for a in actions if isinstance(a, api.Move))
        s = api.apply_action(s, api.random_action(s, rng))
        assert {p.level for p in s.pieces.values()} == {"G"}
        assert {p.kind for p in s.projectiles} <= {"R"}
    assert s.ply > 10


def test_01_R19_6_editor_articles_against_a_piece_type() -> None:
    """01/R19.6, 01/R12.10, A-11: the editor lays a Torpedo Launcher on e4 against White's Subs.
    Before the Pick-up the White Sub submerged on e7 is hidden from Black; once the Black Tank on
    e4 holds the launcher, the Sub (distance 3) is detected."""
    s = pos(KINGS + "piece B TA> e4 G\narticle TL e4\npiece W SU e7 S\n")
    sub = one(s, "e7", "SU", "S")
    assert sub.sid in hidden_from(s, "B")
    s = play(s, "PU:TA(4,5)>^TL")
    assert sub.sid not in hidden_from(s, "B")
    assert [p.kind for p in at(s, "e7", "S")] == ["SU"]
