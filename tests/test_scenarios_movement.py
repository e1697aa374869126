"""Movement test scenarios of 00-rulings.md §3 and §5.3 (T1-T8, T22, T23, T27, T30, T31, T38,
T40, T41, T45), played through the engine's public API.

Expected values are the scenario texts' own (checked by hand against 03/M1 and the rulings).
Here the Conversion of T8 is replaced by placing the already converted Pawn (the tests were
written before firing); test_scenarios_rulings3.py plays T8 with the Cleric's real Conversion.
"""
from __future__ import annotations

import pytest

from engine.actions import Move
from engine.api import EndTurn, RuleError, apply_action, legal_actions
from movement_helpers import all_moves, dests, moves, play, pos, sq, where


def test_t1_tank_exact_range_takes_the_king():
    """00/T1, RUL-21, RUL-2, 03/M1.8.2, M0.10: the right Tank a1 reaches only d8 (a2..a5, b6, c7
    are crossed, not destinations) and takes the King there; Black wins at once."""
    state = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K d8 G")
    assert dests(state, "a1") == {"d8"}
    after = play(state, "MV:TA(1,1)>->(8,4)")
    assert after.result == "B"
    assert after.history == ("MV:TA(1,1)>->(8,4),RS:TA*K(8,4)0W",)
    assert legal_actions(after) == []


def test_t2_tank_blocking_is_per_level():
    """00/T2, RUL-21, 03/M0.9: the W Pawn on b6 (path step 5) blocks d8; the Jet on a3 A does
    not; without the Pawn d8 is legal."""
    text = "piece B K j1 G\npiece B TA> a1 G\npiece B JE a3 A\npiece W K j10 G\n"
    assert dests(pos(text + "piece W SP b6 G"), "a1") == set()
    with pytest.raises(RuleError) as err:
        play(pos(text + "piece W SP b6 G"), "MV:TA(1,1)>->(8,4)")
    assert err.value.rule == "03/M1.8"
    assert dests(pos(text), "a1") == {"d8"}


def test_t3_white_tank_rotated():
    """00/T3, RUL-32, 03/M0.1, M0.4: White's right Tank j10 reaches only g3 (j9..j6, i5, h4)."""
    state = pos("to-move W\npiece W TA> j10 G\npiece W K a10 G\npiece B K a1 G")
    assert dests(state, "j10") == {"g3"}
    after = play(state, "MV:TA(10,10)>->(3,7)", "END")
    assert after.history == ("MV:TA(10,10)>->(3,7)",)
    blocked = pos("to-move W\npiece W TA> j10 G\npiece W K a10 G\npiece B K a1 G\n"
                  "piece B DS h4 G")
    assert dests(blocked, "j10") == set()


def test_t4_left_cleric_exact_range():
    """00/T4, RUL-21, RUL-32, 03/M1.9.3: the left Cleric c1 reaches only f8 (d2, e3, f4, g5, h6,
    g7); a Pawn on g7 leaves it without a Move."""
    state = pos("piece B K j1 G\npiece B CL< c1 G\npiece W K j10 G")
    assert dests(state, "c1") == {"f8"}
    blocked = pos("piece B K j1 G\npiece B CL< c1 G\npiece W K j10 G\npiece B RP g7 G moved")
    assert dests(blocked, "c1") == set()
    assert all_moves(blocked) == {"j1->i1", "j1->i2", "j1->j2", "g7->f8", "g7->h8"}


def test_t5_chopper_3d_route():
    """00/T5, 03/M1.10.3: f6 (and g6, whose only intermediate is f5) is unreachable at both
    levels: e5 G and f5 G are blocked and the Chopper cannot rise at e4 (Jet on e4 A); c6 is
    reachable via d5. Without the Jet all 16 cells are reachable (e4 A -> e5 A -> f6 A)."""
    base = "piece B K j1 G\npiece B CH> e4 G\npiece B FP e5 G\npiece B SP f5 G\npiece W K j10 G\n"
    every = {"c6", "f6", "g6", "c5", "g3", "c2", "d2", "g2"}
    got = dests(pos(base + "piece B JE e4 A"), "e4", kind="CH")
    assert got == {s + lv for s in every - {"f6", "g6"} for lv in ("", "^")}
    got = dests(pos(base), "e4", kind="CH")
    assert got == {s + lv for s in every for lv in ("", "^")}


def test_t6_chopper_must_land_next_turn():
    """00/T6, RUL-22, RUL-44(a), 03/M1.10.1, M1.10.2: after d1 -> e3 A, Black's only Moves at
    ply 3 are Chopper landings on c5, f5, g5, c4, g2, c1, d1, g1 (never in the Air, never in
    place); End Turn without a Move is refused. With the option off the King may move too."""
    landings = {f"e3^->{s}" for s in ["c5", "f5", "g5", "c4", "g2", "c1", "d1", "g1"]}
    king = {"j1->i1", "j1->i2", "j1->j2"}
    for must_land, want in ((True, landings), (False, landings | king)):
        state = pos("piece B K j1 G\npiece B CH> d1 G\npiece W K j10 G",
                    chopper_must_land_next_turn=must_land)
        assert "e3^" in dests(state, "d1")
        state = play(state, "MV:CH(1,4)>->^(3,5)", "END", "MV:K(10,10)->(9,10)", "END")
        assert all_moves(state) == want
        if must_land:
            with pytest.raises(RuleError) as err:
                play(state, "MV:K(1,10)->(1,9)")
            assert err.value.rule == "RUL-22"
            with pytest.raises(RuleError) as err:
                apply_action(state, EndTurn())
            assert err.value.rule == "RUL-44"


def test_t7_pawn_moves_and_attacks():
    """00/T7, RUL-27, 03/M1.1, A-14, RUL-24: exactly e3 (take), d2 (take) and f3 (share with the
    Destroyer); not f2, d3, c4 or g4."""
    state = pos("piece B K j1 G\npiece B FP e2 G\npiece B DS f3 G\npiece W K j10 G\n"
                "piece W RP e3 G\npiece W SP d2 G\npiece W CP d3 G")
    assert dests(state, "e2") == {"e3", "d2", "f3"}
    after = play(state, "MV:FP(2,5)->(3,6)", "END")
    assert ("B", "FP", "f3") in where(after) and ("B", "DS", "f3") in where(after)
    after = play(state, "MV:FP(2,5)->(2,4)", "END")
    assert after.history == ("MV:FP(2,5)->(2,4),RS:FP*SP(2,4)0W",)


def test_t8_converted_pawn_no_two_square_move_no_promotion():
    """00/T8, RUL-13, RUL-27: the W Stunner Pawn b9, converted by the Cleric's Conversion, is
    Black: forward north, moves a10/c10 only, no 2-square move, no promotion on rank 10.
    (Firing is Engine II: the position places the converted Pawn -- Black, no longer on its
    starting square -- instead of firing.)"""
    text = "piece B K j1 G\npiece B CL< a8 G\npiece W K f10 G\npiece B SP b9 G moved\n"
    state = pos(text)
    assert dests(state, "b9") == {"a10", "c10"}
    foes = pos(text + "piece W RP a9 G moved\npiece W CP b10 G\npiece W FP c9 G moved")
    assert dests(foes, "b9") == {"a10", "c10", "a9", "b10", "c9"}
    after = play(state, "MV:SP(9,2)->(10,3)", "END", "MV:K(10,6)->(10,7)", "END")
    assert dests(after, "c10") == set()
    assert ("B", "SP", "c10") in where(after)


def test_t22_move_runs_into_hidden_piece():
    """00/T22, RUL-23, RUL-12, RUL-36, 03/M0.11, 04/H21: Tank a1 -> d8 stops on a4, takes the
    hidden Pawn; SH goes to a4 G, or to b3 (White's forward-left) when a4 already holds 2."""
    text = "piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\npiece W RP a4 G SH\n"
    state = pos(text)
    assert dests(state, "a1") == {"d8"}
    after = play(state, "MV:TA(1,1)>->(8,4)", "END")
    assert after.history == ("MV:TA(1,1)>->(8,4),RS:TAv(4,1),TA*RP(4,1)1SH0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "TA>", "a4"), ("W", "K", "j10")}
    assert [after.art_code[a] for a in after.ground[sq("a4")]] == ["SH"]
    full = play(pos(text + "article FL a4\narticle ST a4"), "MV:TA(1,1)>->(8,4)", "END")
    assert [full.art_code[a] for a in full.ground[sq("a4")]] == ["FL", "ST"]
    assert [full.art_code[a] for a in full.ground[sq("b3")]] == ["SH"]


T23 = ("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece B SP d5 G moved\n"
       "piece W K f5 G\npiece W RP f4 G moved\n")


def test_t23_bulldozer_nudge():
    """00/T23, RUL-26, RUL-24, 03/M1.3: with {e4 Pawn, d5, f4} north is blocked (the W Pawn
    would join its King on f5); west moves DO+FP to d4, d5 -> c5, the W Pawn f4 -> e4."""
    state = pos(T23)
    full = frozenset({("FP", 4, 5), ("SP", 5, 4), ("RP", 4, 6)})
    nudges = [((m.row, m.col), frozenset(m.doze)) for m in moves(state, "e4", kind="DO")]
    assert ((5, 5), full) not in nudges
    assert ((4, 4), full) in nudges
    after = play(state, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(4,6)", "END")
    assert where(after) == {("B", "K", "j1"), ("B", "DO", "d4"), ("B", "FP", "d4"),
                            ("B", "SP", "c5"), ("W", "K", "f5"), ("W", "RP", "e4")}
    assert after.history == ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(4,6)",)


def test_t23_variant_a_no_colocated_piece_no_nudge():
    """00/T23 variant A, RUL-26, 03/M1.3.4: without the co-located Pawn only plain Moves."""
    state = pos(T23.replace("piece B FP e4 G moved\n", ""))
    assert [m for m in moves(state, "e4", kind="DO") if m.doze] == []
    assert dests(state, "e4", kind="DO") == {"e5", "d5", "d4", "d3", "e3", "f3"}   # d5: shares


def test_t23_variant_b_hidden_piece_stalls_the_nudge():
    """00/T23 variant B, RUL-23, RUL-45, RUL-51(b): a hidden W Pawn [SH] on d4: west stalls,
    nothing moves, the Move is used up and recorded with DOv(4,5)."""
    state = pos(T23 + "piece W RP d4 G moved SH")
    before = where(state)
    after = play(state, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(4,6)")
    assert where(after) == before
    assert [a for a in legal_actions(after) if isinstance(a, Move)] == []
    after = play(after, "END")
    assert after.history == ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(4,6),RS:DOv(4,5)",)


def test_t27_reinforce_after_leaving_the_activation_square():
    """00/T27, RUL-34, A-18: arriving on d8 does not allow a Reinforce; leaving it in a later
    turn does, and the Jet appears on d8 G holding nothing."""
    state = pos("piece B K d7 G\npiece W K j10 G\nreinforcement B JE d8")
    state = play(state, "MV:K(7,4)->(8,4)")
    with pytest.raises(RuleError) as err:
        play(state, "RE:(8,4)JE")
    assert err.value.rule == "RUL-34"
    state = play(state, "END", "MV:K(10,10)->(9,10)", "END")
    done = play(state, "MV:K(8,4)->(8,3)", "RE:(8,4)JE", "END")
    assert done.history[-1] == "MV:K(8,4)->(8,3),RE:(8,4)JE"
    [jet] = [p for p in done.pieces.values() if p.kind == "JE"]
    assert (jet.side, jet.row, jet.col, jet.level, jet.arts) == ("B", 8, 4, "G", ())
    late = play(state, "MV:K(8,4)->(8,3)", "END", "MV:K(9,10)->(10,10)", "END")
    with pytest.raises(RuleError) as err:
        play(late, "RE:(8,4)JE")
    assert err.value.rule == "RUL-34"


def test_t27_variant_right_tank_reinforcement():
    """00/T27 variant, RUL-33: Black's a8 reinforcement appears as a Right Tank (RE:(8,1)TA>)."""
    state = pos("piece B K a8 G\npiece W K j10 G\nreinforcement B TA> a8")
    done = play(state, "MV:K(8,1)->(8,2)", "RE:(8,1)TA>", "END")
    assert done.history == ("MV:K(8,1)->(8,2),RE:(8,1)TA>",)
    assert ("B", "TA>", "a8") in where(done)


def test_t30_coexistence_union():
    """00/T30, RUL-24: King e3 -> e4 shares with the Jet; -> d4 (Pawn) is illegal; with a second
    Black piece on e4 the King cannot enter (3 pieces)."""
    text = "piece B K e3 G\npiece B JE e4 G\npiece B FP d4 G\npiece W K j10 G\n"
    state = pos(text)
    assert "e4" in dests(state, "e3", kind="K") and "d4" not in dests(state, "e3", kind="K")
    assert ("B", "K", "e4") in where(play(state, "MV:K(3,5)->(4,5)"))
    with pytest.raises(RuleError):
        play(state, "MV:K(3,5)->(4,4)")
    assert "e4" not in dests(pos(text + "piece B DS e4 G"), "e3", kind="K")


T31 = ("piece B K j1 G\npiece B CH> d1 G\npiece B JE d1 G\npiece B SU b1 G\npiece B DO b1 G\n"
       "piece W K j10 G\npiece W RP e3 G\npiece W SP b2 G\n")


def test_t31_chopper_carries_and_captures():
    """00/T31, RUL-25, 01/R15.4, 03/M1.10.4: the Chopper takes the Jet to e3 G and the Chopper
    takes the Pawn; both end on e3 G."""
    after = play(pos(T31), "MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5)", "END")
    assert after.history == ("MV:CH(1,4)>->(3,5)-TRA->JE(1,4)(3,5),RS:CH*RP(3,5)0W",)
    assert ("B", "CH>", "e3") in where(after) and ("B", "JE", "e3") in where(after)
    assert ("W", "RP", "e3") not in where(after)


def test_t31_sub_does_not_capture_but_dives_with_passenger():
    """00/T31, RUL-25, 03/M1.6.3: the Sub cannot move onto the W Pawn on b2 (with or without the
    Bulldozer); diving with the Bulldozer puts both on b1 S."""
    state = pos(T31)
    for text in ("MV:SU(1,2)->(2,2)-TRA->DO(1,2)(2,2)", "MV:SU(1,2)->(2,2)"):
        with pytest.raises(RuleError) as err:
            play(state, text)
        assert err.value.rule == "03/M0.7"
    after = play(state, "MV:SU(1,2)->v(1,2)-TRA->DO(1,2)v(1,2)")
    assert ("B", "SU", "b1v") in where(after) and ("B", "DO", "b1v") in where(after)


def test_t38_stunned_pieces_are_not_moved_by_others():
    """00/T38, RUL-11, RUL-25, RUL-26: the Chopper may move but not take the stunned Jet; the
    Bulldozer cannot nudge its stunned Sub but may step; stunned pieces have no Move."""
    state = pos("piece B K j1 G\npiece B CH> d1 G\npiece B JE d1 G stun=2\npiece B DO b1 G\n"
                "piece B SU b1 G stun=2\npiece W K j10 G")
    ch = moves(state, "d1", kind="CH")
    assert [m for m in ch if m.passenger is not None] == []
    assert {f"{chr(96 + m.col)}{m.row}" + ("^" if m.level == "A" else "") for m in ch} == \
        {"b3", "b3^", "e3", "e3^", "f3", "f3^", "b2", "b2^"}
    assert [m for m in moves(state, "b1", kind="DO") if m.doze] == []
    assert dests(state, "b1", kind="DO") == {"a1", "c1", "a2", "b2", "c2"}
    assert moves(state, "d1", kind="JE") == [] and moves(state, "b1", kind="SU") == []


def test_t40_mixed_cell_with_hidden_member():
    """00/T40, RUL-43, RUL-23, RUL-22: Chopper c3 G -> e5 A is offered (Black sees only its own
    Jet there), takes the hidden W Jet, SH lands on e5 G; the cell is no longer mixed and the
    Chopper must land at ply 3."""
    state = pos("piece B K j1 G\npiece B JE e5 A\npiece B CH> c3 G\npiece W K j10 G\n"
                "piece W JE e5 A SH")
    assert "e5^" in dests(state, "c3", kind="CH")
    after = play(state, "MV:CH(3,3)>->^(5,5)", "END")
    assert after.history == ("MV:CH(3,3)>->^(5,5),RS:CH*JE^(5,5)1SH0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "JE", "e5^"), ("B", "CH>", "e5^"),
                            ("W", "K", "j10")}
    assert [after.art_code[a] for a in after.ground[sq("e5")]] == ["SH"]
    after = play(after, "MV:K(10,10)->(9,10)", "END")
    assert all_moves(after) == {f"e5^->{s}" for s in
                                ["c7", "f7", "g7", "c6", "g4", "c3", "d3", "g3"]}


def test_t41_nudge_moves_a_hidden_member():
    """00/T41, RUL-45, RUL-37: west with f5 chosen moves the visible W Pawn and the hidden AAA
    to e5; the full record lists the AAA; the AAA stays hidden."""
    from engine.visibility import hidden_from

    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                "piece W FP f5 G moved\npiece W AAA f5 G")
    after = play(state, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6)", "END")
    assert after.history == ("MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6),AAA(5,6)",)
    assert where(after) == {("B", "K", "j1"), ("B", "DO", "d4"), ("B", "FP", "d4"),
                            ("W", "K", "j10"), ("W", "FP", "e5"), ("W", "AAA", "e5")}
    aaa = next(p.sid for p in after.pieces.values() if p.kind == "AAA")
    assert aaa in hidden_from(after, "B")


def test_t41_variant_stall_by_true_count():
    """00/T41 variant, RUL-45, RUL-51(b): 4 pieces as Black sees them, 5 in truth: the nudge
    stalls although every landing cell is empty; the record keeps the members Black selected
    (not the hidden AAA) and writes DOv(4,5)."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                "piece W FP f5 G moved\npiece W AAA f5 G\npiece B SP d5 G moved\n"
                "piece B RP d3 G moved\npiece B DS f3 G")
    before = where(state)
    after = play(state, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(3,4),DS(3,6),FP(5,6)",
                 "END")
    assert where(after) == before
    assert after.history == (
        "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),SP(5,4),RP(3,4),DS(3,6),FP(5,6),RS:DOv(4,5)",)


def test_t45_chopper_stops_in_the_air_while_obliged():
    """00/T45, RUL-44, RUL-23, RUL-51, 03/M1.10.5: the obliged Chopper e3 A chooses g5 G; every
    route passes f4 A (e3 G holds its own Pawn); the first route (one Air cell) stops at f4 A
    and takes the hidden Jet; SH goes to f4 G; next turn it is obliged again."""
    state = pos("piece B K j1 G\npiece B CH> e3 A\npiece B RP e3 G\npiece W K j10 G\n"
                "piece W JE f4 A SH")
    assert all_moves(state) == {f"e3^->{s}" for s in
                                ["c5", "f5", "g5", "c4", "g2", "c1", "d1", "g1"]}
    after = play(state, "MV:CH^(3,5)>->(5,7)", "END")
    assert after.history == ("MV:CH^(3,5)>->(5,7),RS:CHv(4,6),CH*JE^(4,6)1SH0W",)
    assert ("B", "CH>", "f4^") in where(after)
    assert [after.art_code[a] for a in after.ground[sq("f4")]] == ["SH"]
    after = play(after, "MV:K(10,10)->(9,10)", "END")
    assert all_moves(after) == {f"f4^->{s}" for s in
                                ["d6", "g6", "h6", "d5", "h3", "d2", "e2", "h2"]}
