"""Test scenarios of 00-rulings.md §3 (with the §5.3 corrections) that the other scenario tests
cover only loosely: 00/T8 played with the real Conversion Fire, the "ready from" plies of 00/T11,
00/T35 printed and parsed by the engine itself, and 00/T13 and 00/T32 set up through the
position format (the other tests put the trip and the rockets into the state directly).

Expected values are the scenario texts' own and the rulings they cite (RUL-13, RUL-27, RUL-6,
RUL-35), never engine output. Pieces are numbered in the order the setup lists them (RUL-40).
Idle turns are King shuffles (fire_helpers: j1 <-> i1, j10 <-> i10).
"""
from __future__ import annotations

from engine import api
from engine_helpers import legal, moves_of, one, pos
from fire_helpers import act, idle


def _fires(state: api.GameState, prefix: str) -> set[str]:
    return {a for a in legal(state) if a.startswith("FI:" + prefix)}


# -- 00/T8 Converted Pawn and no promotion (RUL-13, RUL-27) -------------------------------------

T8 = "piece B K j1 G\npiece B CL< a8 G\npiece W K f10 G\npiece W SP b9 G\n"
CONVERT_B9 = "FI:CS/CL(8,1)<->(9,2)"          # the Cleric a8 fires Conversion north-east at b9 G


def test_t8_conversion_turns_the_pawn_and_its_forward() -> None:
    """00/T8, RUL-13: the Cleric's Conversion north-east at b9 G makes the Stunner Pawn Black at
    once; its forward is north (RUL-27), so its only Moves are the diagonal forward squares a10
    and c10 -- at ply 1 (Black's Move is still unused) and again at ply 3."""
    s = pos(T8)
    assert CONVERT_B9 in legal(s)
    s = act(s, CONVERT_B9)
    pawn = one(s, "b9", "SP")
    assert pawn.side == "B"
    want = {"MV:SP(9,2)->(10,1)", "MV:SP(9,2)->(10,3)"}
    assert moves_of(s, "SP(9,2)") == want
    s = act(s, "K", "END", "MV:K(10,6)->(10,7)", "END")
    assert s.ply == 3
    assert one(s, "b9", "SP").side == "B"
    assert moves_of(s, "SP(9,2)") == want


def test_t8_converted_pawn_captures_on_a9_b10_c9() -> None:
    """00/T8, RUL-27: with enemies on a9, b10 and c9 the converted Pawn may also capture there
    (its left, front and right attack squares as Black); a10 and c10 stay move squares."""
    s = pos(T8 + "piece W RP a9 G moved\npiece W CP b10 G moved\npiece W FP c9 G moved\n")
    s = act(s, CONVERT_B9)
    assert one(s, "b9", "SP").side == "B"
    assert moves_of(s, "SP(9,2)") == {"MV:SP(9,2)->(10,1)", "MV:SP(9,2)->(10,3)",
                                       "MV:SP(9,2)->(9,1)", "MV:SP(9,2)->(10,2)",
                                       "MV:SP(9,2)->(9,3)"}


def test_t8_no_promotion_and_no_forward_move_on_rank_10() -> None:
    """00/T8, RUL-27: after b9 -> c10 the converted Pawn is still a Stunner Pawn (no promotion)
    and has no Move from rank 10 at ply 3 (nothing to capture left or right)."""
    s = act(pos(T8), CONVERT_B9, "MV:SP(9,2)->(10,3)", "END", "MV:K(10,6)->(10,7)", "END")
    assert s.ply == 3
    pawn = one(s, "c10", "SP")
    assert (pawn.kind, pawn.side) == ("SP", "B")
    assert moves_of(s, "SP(10,3)") == set()


def test_t8_last_rank_pawn_only_captures_sideways() -> None:
    """00/T8, RUL-27 ("A Pawn on the last rank can only capture left or right"): with a White
    Pawn on d10 the converted Pawn on c10 has exactly the capture on d10."""
    s = act(pos(T8 + "piece W RP d10 G moved\n"), CONVERT_B9, "MV:SP(9,2)->(10,3)", "END",
            "MV:K(10,6)->(10,7)", "END")
    assert s.ply == 3
    assert moves_of(s, "SP(10,3)") == {"MV:SP(10,3)->(10,4)"}


def test_t8_converted_pawn_has_no_two_square_move() -> None:
    """00/T8, RUL-13, RUL-27 ("A converted Pawn never has the 2-square move"): at b9 the 2-square
    move would leave the board, so this checks it where it would exist. A Black Stunner Pawn
    placed on e5 (its starting square, RUL-27, never moved) has d6, f6, c7 and g7; a White one
    placed there and converted by a Black Cleric on d4 has only d6 and f6."""
    native = pos("piece B K j1 G\npiece B SP e5 G\npiece W K j10 G\n")
    assert moves_of(native, "SP(5,5)") == {"MV:SP(5,5)->(6,4)", "MV:SP(5,5)->(6,6)",
                                            "MV:SP(5,5)->(7,3)", "MV:SP(5,5)->(7,7)"}
    s = pos("piece B K j1 G\npiece B CL< d4 G\npiece W K j10 G\npiece W SP e5 G\n")
    s = act(s, "FI:CS/CL(4,4)<->(5,5)")
    assert one(s, "e5", "SP").side == "B"
    assert moves_of(s, "SP(5,5)") == {"MV:SP(5,5)->(6,4)", "MV:SP(5,5)->(6,6)"}


# -- 00/T11 (corrected) "ready from" plies (RUL-6) ----------------------------------------------

T11 = ("piece B K j1 G\npiece B TA> e4 G ST\npiece B SP b2 G\npiece B JE c6 A\n"
       "piece W K j10 G\npiece W RP e5 G\npiece W SP h4 G\npiece W CP c6 G")
TANK_FL = "FI:FL/TA(4,5)1ST>->(5,5)"
TANK_ST = "FI:ST/TA(4,5)1ST>->(4,6)"


def test_t11_tank_st_ready_from_ply_5_flamer_from_ply_9() -> None:
    """00/T11, RUL-6, A-12: both Tank sources fired at ply 1. The ST article (rate 2) is not
    ready at ply 3 and is ready from ply 5; the inherent Flamer (rate 4) is not ready at plies 3,
    5 and 7 and is ready from ply 9."""
    s = act(pos(T11), TANK_FL, TANK_ST, "K", "END")
    s = idle(s)
    assert s.ply == 3
    assert _fires(s, "FL/TA") == set() and _fires(s, "ST/TA") == set()
    s = idle(s, 2)
    assert s.ply == 5
    assert TANK_ST in legal(s)
    assert _fires(s, "FL/TA") == set()
    s = idle(s, 2)
    assert s.ply == 7
    assert _fires(s, "FL/TA") == set()
    s = idle(s, 2)
    assert s.ply == 9
    assert TANK_FL in legal(s)


# -- 00/T35 Notation tokens (RUL-35) ------------------------------------------------------------

T35_SP = "piece B K j1 G\npiece B SP b2 G\npiece W K j10 G\n"


def test_t35_stunner_pawn_fire_printed_sp_and_stp_read_as_sp() -> None:
    """00/T35, RUL-35: the Black Stunner Pawn b2 firing its Stunner east is printed
    ``FI1:ST/SP(2,2)->(2,3)``; ``ST/STP(2,2)->(2,3)`` is read as the same action."""
    s = pos(T35_SP)
    assert api.parse_action("FI:ST/STP(2,2)->(2,3)") == api.parse_action("FI:ST/SP(2,2)->(2,3)")
    canonical = act(s, "FI:ST/SP(2,2)->(2,3)", "K", "END")
    assert canonical.history == ("MV:K(1,10)->(1,9),FI1:ST/SP(2,2)->(2,3)",)
    alias = act(s, "FI:ST/STP(2,2)->(2,3)", "K", "END")
    assert alias.history == canonical.history
    assert api.state_hash(alias) == api.state_hash(canonical)


T35_JP = "piece B K j1 G\npiece B TA> e3 G JP\npiece W K j10 G\n"


def test_t35_jump_pack_fire_printed_ju_and_aliases_accepted() -> None:
    """00/T35, RUL-35: the Tank of T25 firing its Jump Pack is printed
    ``FI1:JU/TA(3,5)1JP>->(6,5)``; ``JP`` as the firing token and ``JU`` in the article list are
    accepted and give the same Fire."""
    s = pos(T35_JP)
    canonical = act(s, "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)", "END")
    assert canonical.history == ("MV:K(1,10)->(1,9),FI1:JU/TA(3,5)1JP>->(6,5)",)
    for alias in ("FI:JP/TA(3,5)1JP>->(6,5)", "FI:JU/TA(3,5)1JU>->(6,5)",
                  "FI:JP/TA(3,5)1JU>->(6,5)"):
        other = act(s, "MV:K(1,10)->(1,9)", alias, "END")
        assert other.history == canonical.history, alias
        assert api.state_hash(other) == api.state_hash(canonical), alias


# -- 00/T13 and 00/T32 set up through the position format alone (no state surgery) -------------

def test_t13_stunned_travelling_tank_destroyed_position_format() -> None:
    """00/T13, RUL-12, RUL-11: the W Tank on e5 A is on a Jump Pack trip begun at White's
    ply 2 (the position file's ``trip=`` item needs an earlier ply, so Black acts at ply 3, not
    1); the Jet's ST article fired north stuns it (e3 A, e4 A empty), JP is placed on e5 G, and
    it cannot come down onto the enemy Pawn: ``STK*TA^(5,5)1JP<0W``."""
    s = pos("ply 3\npiece B K j1 G\npiece B JE e2 A ST\npiece B RP e5 G\npiece W K j10 G\n"
            "piece W TA< e5 A JP trip=JP:A:2:1:e6\n")
    s = act(s, "FI:ST/JE^(2,5)1ST->(3,5)", "K", "END")
    assert s.history == ("MV:K(1,10)->(1,9),FI1:ST/JE^(2,5)1ST->(3,5),RS:STK*TA^(5,5)1JP<0W",)
    assert not any(p.kind == "TA" for p in s.pieces.values())
    assert [s.art_code[a] for a in s.ground[(5, 5)]] == ["JP"]


def test_t32_both_presidents_lost_mover_loses_position_format() -> None:
    """00/T32, RUL-2, RUL-15, A-1: rockets from earlier turns (``projectile`` items): R1
    (White's) on c6 heading south, R2 (Black's) on h4 heading north. Black plays a2 -> b3 and
    ends the turn; both enter the Presidents' cells in the same end-phase step; Black, the mover,
    lost its own primary piece: Black loses."""
    text = ("piece B PR c5 G\npiece B SP a2 G\npiece W PR h5 G\n"
            "projectile R W c6 -1 0 strength=1 created=0\n"
            "projectile R B h4 1 0 strength=1 created=0\n")
    s = act(pos(text, gov_black="democracy", gov_white="democracy"), "MV:SP(2,1)->(3,2)", "END")
    assert api.outcome(s) == "white"
    assert not any(p.kind == "PR" for p in s.pieces.values())
