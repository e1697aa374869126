"""Movement rules of Weaponized Chess movement: 03/M0, 03/M1 and the rulings they touch.

Every expected value is derived by hand from the rules or from the offsets copy
``tests/data/movement-offsets.json`` (03 "Offsets file"), never by running the engine.
Scenario tests (00/T1..T45) are in ``test_scenarios_movement.py``. 03/M1.6.4 and M1.7.7
(surfacing / landing breaks a homing lock) need firing (Engine II) and are not tested here.
"""
from __future__ import annotations

import pytest

from engine.actions import Move
from engine.api import RuleError, apply_action, legal_actions, parse_action
from engine.options import Options
from engine.visibility import hidden_from
from movement_helpers import (OFFSETS, WC, all_moves, dests, moves, name, on_board, play, pos,
                              sq, to_square, where)

SQUARES = [(r, c) for r in range(1, 11) for c in range(1, 11)]
RANGES = (6, 7, 8)
OPTION_OF = {"QueenTank": "queen_tank_range", "QueenCleric": "queen_cleric_range"}
HANDS = {"right": ">", "left": "<"}

# (kind, hand) -> list of (paths, range option); the Queen combines four (03/M1.11.1)
RANGED = {
    ("TA", ">"): [(WC["tank"]["right"]["paths"], "tank_range")],
    ("TA", "<"): [(WC["tank"]["left"]["paths"], "tank_range")],
    ("CL", ">"): [(WC["cleric"]["right"]["paths"], "cleric_range")],
    ("CL", "<"): [(WC["cleric"]["left"]["paths"], "cleric_range")],
    ("Q", ""): [(WC[c["piece"]][c["variety"]]["paths"], OPTION_OF[c["range_option"]])
                for c in WC["secondary_government"]["components"]],
}
RANGE_OPTIONS = ("tank_range", "cleric_range", "queen_tank_range", "queen_cleric_range")


def expected_ranged(side: str, origin: tuple[int, int], spec: list, opts: dict,
                    blocked: frozenset = frozenset()) -> set[str]:
    """03/M0.8, M0.9, M0.2: path[r-1] of each path whose first r squares are on the board and
    whose first r-1 squares are not in ``blocked`` (pieces at the mover's level)."""
    out = set()
    for paths, option in spec:
        r = opts[option]
        for path in paths:
            steps = [to_square(side, origin, off) for off in path[:r]]
            if all(on_board(*s) for s in steps) and not any(s in blocked for s in steps[:-1]):
                out.add(name(*steps[-1]))
    return out


def king_squares(forbidden: set) -> tuple[str, str]:
    """Two squares for the Kings, away from every path square of the piece under test."""
    order = [(1, 10), (10, 10), (10, 1), (1, 1)] + SQUARES
    free = [s for s in order if s not in forbidden]
    return name(*free[0]), name(*free[1])


def ranged_footprint(side: str, origin: tuple[int, int], spec: list) -> set:
    out = {origin}
    for paths, _ in spec:
        for path in paths:
            out |= {to_square(side, origin, off) for off in path}
    return out


def piece_line(side: str, kind: str, hand: str, at: tuple[int, int], level: str = "G") -> str:
    return f"piece {side} {kind}{hand} {name(*at)} {level}"


def ranged_position(side, kind, hand, origin, opts, extra=()):
    kb, kw = king_squares(ranged_footprint(side, origin, RANGED[(kind, hand)]))
    text = "\n".join([f"to-move {side}", f"piece B K {kb} G", f"piece W K {kw} G",
                      piece_line(side, kind, hand, origin), *extra])
    return pos(text, **opts)


# -- 03/M1.8, M1.9, M1.11 against the offsets file, every square, both sides -------------------

def test_offsets_file_paths_match_its_destination_lists():
    """03 'Offsets file', 03/M0.12: paths[i][r-1] are the listed range-r destinations (+ and *)."""
    for piece in ("tank", "cleric"):
        for hand in ("right", "left"):
            entry = WC[piece][hand]
            for r in RANGES:
                ends = sorted(p[r - 1] for p in entry["paths"])
                assert ends == sorted(entry["destinations_by_range"][str(r)])
            assert entry["destinations_range_7"] == entry["destinations_by_range"]["7"]
    queen = WC["secondary_government"]
    for r in RANGES:
        ends = {tuple(p[r - 1]) for paths, _ in RANGED[("Q", "")] for p in paths}
        assert ends == {tuple(o) for o in queen["destinations_if_both_queen_ranges_equal"][str(r)]}


@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("rng", RANGES)
@pytest.mark.parametrize("kind,hand", [("TA", ">"), ("TA", "<"), ("CL", ">"), ("CL", "<")])
def test_m1_8_m1_9_ranged_destinations_every_square(kind, hand, rng, side):
    """03/M1.8.1-M1.8.3, M1.8.6, M1.9.1-M1.9.4, M0.1, M0.2, M0.8, M0.13, RUL-21: on an otherwise empty
    board the piece's destinations are exactly the on-board range-r path ends from the offsets
    file (White's offsets rotated 180 degrees), from every square of the board; the other
    range options do not affect it."""
    option = RANGED[(kind, hand)][0][1]
    other = {6: 8, 7: 6, 8: 7}[rng]
    opts = {o: (rng if o == option else other) for o in RANGE_OPTIONS}
    wrong = []
    for origin in SQUARES:
        state = ranged_position(side, kind, hand, origin, opts)
        want = expected_ranged(side, origin, RANGED[(kind, hand)], opts)
        got = dests(state, name(*origin), kind=kind)
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("qt,qc", [(6, 6), (7, 7), (8, 8), (6, 8), (8, 6), (7, 6)])
def test_m1_11_queen_destinations_every_square(qt, qc, side):
    """03/M1.11.1-M1.11.3, M0.13, RUL-21: the Queen's destinations are the union of the right and
    left Tank paths at queen_tank_range and the right and left Cleric paths at
    queen_cleric_range (offsets file), from every square; tank_range and cleric_range (set to
    another value) do not affect it."""
    opts = {"queen_tank_range": qt, "queen_cleric_range": qc,
            "tank_range": {6: 7, 7: 8, 8: 6}[qt], "cleric_range": {6: 8, 7: 8, 8: 6}[qc]}
    wrong = []
    for origin in SQUARES:
        state = ranged_position(side, "Q", "", origin, opts)
        want = expected_ranged(side, origin, RANGED[("Q", "")], opts)
        got = dests(state, name(*origin), kind="Q")
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


def test_m1_11_2_queen_range7_from_e5_and_c3():
    """03/M1.11.2, M1.11.5 ('X' = the + squares): range-7 offsets (+-3,+-7), (+-7,+-3); from e5 all leave the board, from c3
    only (3,7) = f10 and (7,3) = j6 remain (Black)."""
    state = pos("piece B K j1 G\npiece B Q e5 G\npiece W K a10 G")
    assert dests(state, "e5") == set()
    state = pos("piece B K j1 G\npiece B Q c3 G\npiece W K a10 G")
    assert dests(state, "c3") == {"f10", "j6"}


@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("hand", [">", "<"])
@pytest.mark.parametrize("level", ["G", "A"])
def test_m1_10_1_chopper_destinations_every_square(hand, level, side):
    """03/M1.10.1, M1.10.2, M0.1, M0.2: the Chopper reaches exactly its 8 offsets of the offsets
    file that are on the board; from the Ground it may end on the Ground or in the Air, from the
    Air only on the Ground; never its own square."""
    entry = WC["chopper"]["right" if hand == ">" else "left"]
    levels = ["G", "A"] if level == "G" else ["G"]
    assert entry["levels"]["from_ground" if level == "G" else "from_air"] == \
        [{"G": "ground", "A": "air"}[lv] for lv in levels]
    wrong = []
    for origin in SQUARES:
        targets = {to_square(side, origin, off) for off in entry["destinations"]}
        near = {(origin[0] + a, origin[1] + b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
        kb, kw = king_squares(targets | near)
        state = pos("\n".join([f"to-move {side}", f"piece B K {kb} G", f"piece W K {kw} G",
                               piece_line(side, "CH", hand, origin, level)]))
        want = {name(r, c, lv) for r, c in targets if on_board(r, c) for lv in levels}
        got = dests(state, name(*origin), level)
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


# -- 03/M0.9 paths blocked per level, square by square -----------------------------------------

def _path_origin(side, spec_paths, i, r):
    for origin in SQUARES:
        if all(on_board(*to_square(side, origin, off)) for off in spec_paths[i][:r]):
            return origin
    raise AssertionError("no origin keeps the path on the board")


@pytest.mark.parametrize("rng", RANGES)
@pytest.mark.parametrize("kind,hand", [("TA", ">"), ("TA", "<"), ("CL", ">"), ("CL", "<")])
def test_m0_9_every_path_square_blocks_at_its_level_only(kind, hand, rng):
    """03/M0.9 (i), M1.8.4, M1.9.4, RUL-21: a friendly or enemy piece on any of the first r-1
    squares of a path removes that path's destination; a piece in the Air above the same square
    does not block a Ground mover."""
    spec = RANGED[(kind, hand)]
    paths = spec[0][0]
    opts = {o: rng for o in RANGE_OPTIONS}
    wrong = []
    for i in range(4):
        origin = _path_origin("B", paths, i, rng)
        foot = ranged_footprint("B", origin, spec)
        for k in range(1, rng):
            block = to_square("B", origin, paths[i][k - 1])
            for line, blocks in ((f"piece B DS {name(*block)} G", True),
                                 (f"piece W DS {name(*block)} G", True),
                                 (f"piece B JE {name(*block)} A", False)):
                kb, kw = king_squares(foot)
                state = pos("\n".join([f"piece B K {kb} G", f"piece W K {kw} G",
                                       piece_line("B", kind, hand, origin), line]), **opts)
                want = expected_ranged("B", origin, spec, opts,
                                       frozenset({block}) if blocks else frozenset())
                got = dests(state, name(*origin), kind=kind)
                if got != want:
                    wrong.append((name(*origin), i, k, line, sorted(got), sorted(want)))
    assert wrong == []


def test_m0_9_ii_articles_on_the_ground_never_block():
    """03/M0.9 (ii): articles lying on the Tank's path do not block (a1 -> d8 via a2..c7)."""
    state = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\narticle FL a3\narticle ST c7")
    assert dests(state, "a1") == {"d8"}


def test_m0_9_iii_queen_paths_block_like_tank_and_cleric_paths():
    """03/M0.9 (iii), M1.11.1, M1.8.7: B Queen c3, range 7. f10 is reached by the right Tank
    forward path (c4..c7, d8, e9) and the left Cleric path (d4, e5, f6, g7, h8, g9); j6 by the
    left Tank path (d3..g3, h4, i5) and the right Cleric path (d4, e5, f6, g7, h8, i7)."""
    base = "piece B K j1 G\npiece B Q c3 G\npiece W K a10 G\n"
    assert dests(pos(base + "piece B FP c5 G moved"), "c3", kind="Q") == {"f10", "j6"}
    assert dests(pos(base + "piece B FP e5 G moved"), "c3", kind="Q") == {"f10", "j6"}
    assert dests(pos(base + "piece B FP c5 G moved\npiece B FP e5 G moved"), "c3",
                 kind="Q") == {"j6"}
    assert dests(pos(base + "piece B FP c5 G moved\npiece B FP e5 G moved\n"
                     "piece B FP f3 G moved"), "c3", kind="Q") == set()


# -- 03/M0.1 - M0.7 ---------------------------------------------------------------------------

def test_m0_1_pawn_forward_depends_on_owner():
    """03/M0.1, M1.1.2, M1.1.3: Black's forward is north, White's south; White's (dx, dy) is
    (-dcol, -drow). B Pawn e4 (on origin): d5, f5, c6, g6. W Pawn e7: f6, d6, g5, c5."""
    black = pos("piece B K j1 G\npiece B FP e4 G\npiece W K a10 G")
    assert dests(black, "e4") == {"d5", "f5", "c6", "g6"}
    white = pos("to-move W\npiece B K j1 G\npiece W FP e7 G\npiece W K a10 G")
    assert dests(white, "e7") == {"f6", "d6", "g5", "c5"}


def test_m0_2_path_that_leaves_and_reenters_the_board_is_unavailable():
    """03/M0.2, M1.9.2: B right Cleric a6: its forward-right path b7, c8, d9, e10, f11 (off),
    g10, h9 leaves the board, so h9 (range 7), g10 (range 6) and i10 (range 8) are not
    destinations; its other paths leave the board too."""
    for rng in RANGES:
        state = pos("piece B K j1 G\npiece B CL> a6 G\npiece W K j10 G", cleric_range=rng)
        assert dests(state, "a6") == set()


def test_m0_3_handedness_and_notation_mark():
    """03/M0.3, M1.8.2, M1.8.3: from a1 a right Tank reaches d8 only, a left Tank h4 only
    (b1..e1, f2, g3); the history marks the hand with > and <."""
    right = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G")
    left = pos("piece B K j1 G\npiece B TA< a1 G\npiece W K j10 G")
    assert dests(right, "a1") == {"d8"}
    assert dests(left, "a1") == {"h4"}
    after = play(left, "MV:TA(1,1)<->(4,8)", "END")
    assert after.history == ("MV:TA(1,1)<->(4,8)",)


def test_m0_4_same_board_squares_for_both_owners_and_mirror_hands():
    """03/M0.4: Tank, Cleric, Chopper and Queen sets are invariant under a 180-degree turn, so a
    piece has the same destination squares whoever owns it; left = mirror of right."""
    for piece in ("tank", "cleric"):
        for r in RANGES:
            right = {tuple(o) for o in WC[piece]["right"]["destinations_by_range"][str(r)]}
            left = {tuple(o) for o in WC[piece]["left"]["destinations_by_range"][str(r)]}
            assert right == {(-x, -y) for x, y in right}
            assert left == {(-x, y) for x, y in right}
    right = {tuple(o) for o in WC["chopper"]["right"]["destinations"]}
    assert {tuple(o) for o in WC["chopper"]["left"]["destinations"]} == {(-x, y) for x, y in right}
    # c3: a Black and a White right Tank both reach only f10 (Black's forward path, White's back
    # path: c4, c5, c6, c7, d8, e9).
    b = pos("piece B K j1 G\npiece B TA> c3 G\npiece W K a10 G")
    w = pos("to-move W\npiece B K j1 G\npiece W TA> c3 G\npiece W K a10 G")
    assert dests(b, "c3") == dests(w, "c3") == {"f10"}


def test_m0_5_pieces_stay_on_their_level():
    """03/M0.5, M1.2.3: a King (or Tank) never changes level by its own Move: 8 Ground squares."""
    state = pos("piece B K e5 G\npiece W K j10 G")
    assert dests(state, "e5") == {"d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4"}


def test_m0_6_one_move_per_turn():
    """03/M0.6, 01/R4.2: after the Move no further Move is offered or accepted."""
    state = play(pos("piece B K e5 G\npiece B DS a1 G\npiece W K j10 G"), "MV:K(5,5)->(6,5)")
    assert [a for a in legal_actions(state) if isinstance(a, Move)] == []
    with pytest.raises(RuleError) as err:
        apply_action(state, parse_action("MV:DS(1,1)->(2,1)"))
    assert err.value.rule == "01/R4.2"


def test_m0_6_stunned_piece_cannot_move():
    """03/M0.6, RUL-11: a stunned piece has no Move."""
    state = pos("piece B K j1 G\npiece B DS e5 G stun=2\npiece W K j10 G")
    assert dests(state, "e5") == set()
    with pytest.raises(RuleError) as err:
        apply_action(state, parse_action("MV:DS(5,5)->(6,5)"))
    assert err.value.rule == "RUL-11"


@pytest.mark.parametrize("kind", ["DO", "DS", "AAA", "SU"])
def test_m0_7_non_combat_movers_cannot_enter_a_visible_enemy(kind):
    """03/M0.7, M1.3.1, M1.4.1, M1.5.1, M1.6.3, M1.0.15: Bulldozer, Destroyer, AAA and Sub never
    take: the square holding a visible enemy (e6) is not a destination."""
    state = pos(f"piece B K j1 G\npiece B {kind} e5 G\npiece W K j10 G\npiece W RP e6 G moved")
    want = {"d6", "f6", "d5", "f5", "d4", "e4", "f4"} | ({"e5v"} if kind == "SU" else set())
    assert dests(state, "e5") == want


def test_m0_7_combat_king_takes():
    """03/M0.7, M1.2.1: the King is a combat mover and takes the enemy on e6."""
    state = pos("piece B K e5 G\npiece W K j10 G\npiece W RP e6 G moved")
    assert dests(state, "e5") == {"d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4"}
    after = play(state, "MV:K(5,5)->(6,5)", "END")
    assert after.history == ("MV:K(5,5)->(6,5),RS:K*RP(6,5)0W",)


def test_m0_7_a27_cleric_and_queen_are_combat_movers():
    """03/M0.7, A-27, M1.9.4, M1.11.6: the Cleric and the Queen take on their destinations."""
    state = pos("piece B K j1 G\npiece B CL< c1 G\npiece W K j10 G\npiece W RP f8 G moved")
    after = play(state, "MV:CL(1,3)<->(8,6)", "END")
    assert after.history == ("MV:CL(1,3)<->(8,6),RS:CL*RP(8,6)0W",)
    assert ("W", "RP", "f8") not in where(after)
    state = pos("piece B K j1 G\npiece B Q c3 G\npiece W K a10 G\npiece W RP f10 G moved")
    after = play(state, "MV:Q(3,3)->(10,6)", "END")
    assert after.history == ("MV:Q(3,3)->(10,6),RS:Q*RP(10,6)0W",)


# -- 03/M0.10 destination, capacity, capture --------------------------------------------------

def test_m0_10_a28_every_enemy_on_the_level_taken_other_levels_untouched():
    """03/M0.10, A-28, M1.8.5, RUL-51(b): the Tank a1 -> d8 takes both White pieces on d8 G
    (canonical order) and leaves the White Jet on d8 A."""
    state = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\npiece W DS d8 G\n"
                "piece W DO d8 G\npiece W JE d8 A")
    after = play(state, "MV:TA(1,1)>->(8,4)", "END")
    assert after.history == ("MV:TA(1,1)>->(8,4),RS:TA*DS(8,4)0W,TA*DO(8,4)0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "TA>", "d8"), ("W", "K", "j10"),
                            ("W", "JE", "d8^")}


@pytest.mark.parametrize("occupants,legal", [
    (["B JE"], True),              # Jet has Coexistence (RUL-24 union)
    (["B DS"], True),
    (["B RP"], False),             # Tank + Pawn: neither coexists (01/R5.4)
    (["B JE", "B DS"], False),     # three pieces (01/R5.1)
    (["B JE", "W DS"], False),     # mixed cell (A-22, RUL-43: capacity)
    (["W DS", "W DO"], True),      # capture of both
])
def test_m0_10_rul24_destination_capacity(occupants, legal):
    """03/M0.10, 01/R5, RUL-24, A-22, RUL-43: whether d8 G can receive the Tank from a1."""
    extra = "\n".join(f"piece {o.split()[0]} {o.split()[1]} d8 G" +
                      (" moved" if o.endswith("P") else "") for o in occupants)
    state = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\n" + extra)
    assert dests(state, "a1") == ({"d8"} if legal else set())


@pytest.mark.parametrize("cset,king_to_e4", [("union", True), ("glossary", True),
                                             ("overview", False)])
def test_rul24_coexistence_set_option(cset, king_to_e4):
    """RUL-24: King e3 may join a Jet on e4 under the union and glossary lists, not under the
    overview list (no Jet); it never joins the Pawn on d4."""
    state = pos("piece B K e3 G\npiece B JE e4 G\npiece B FP d4 G moved\npiece W K j10 G",
                coexistence_set=cset)
    want = {"d3", "f3", "f4", "d2", "e2", "f2"} | ({"e4"} if king_to_e4 else set())
    assert dests(state, "e3", kind="K") == want


def test_m0_10_stealthy_capturer_becomes_visible():
    """03/M0.10, RUL-20: a White right Tank holding Stealth is hidden from Black until it takes
    the Pawn on g3 (j10 -> g3 via j9..j6, i5, h4)."""
    state = pos("to-move W\npiece B K j1 G\npiece B RP g3 G moved\npiece W K a10 G\n"
                "piece W TA> j10 G SH")
    tank = next(p.sid for p in state.pieces.values() if p.kind == "TA")
    assert tank in hidden_from(state, "B")
    [move] = moves(state, "j10", kind="TA")
    after = apply_action(state, move)
    assert tank not in hidden_from(after, "B")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("W", "TA>", "g3")}


# -- 03/M0.11, RUL-23: hidden enemy pieces stop a Move ----------------------------------------

def test_m0_11_hidden_destination_is_offered_and_taken_by_non_combat_mover():
    """03/M0.11 (a), RUL-23: a Destroyer's destination e5 looks empty (the W Pawn holds SH); the
    Destroyer is offered e5, ends there and takes the hidden Pawn; SH is placed on e5 G."""
    state = pos("piece B K j1 G\npiece B DS e4 G\npiece W K j10 G\npiece W RP e5 G moved SH")
    assert "e5" in dests(state, "e4")
    after = play(state, "MV:DS(4,5)->(5,5)", "END")
    assert after.history == ("MV:DS(4,5)->(5,5),RS:DS*RP(5,5)1SH0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "DS", "e5"), ("W", "K", "j10")}
    assert [after.art_code[a] for a in after.ground[sq("e5")]] == ["SH"]


def test_m0_11_jet_stops_at_hidden_jet_on_its_air_path():
    """03/M0.11, M1.7.5, RUL-23, RUL-51(c): Jet e4 A -> e6 A meets a hidden W Jet on e5 A,
    stops there and takes it."""
    state = pos("piece B K j1 G\npiece B JE e4 A\npiece W K j10 G\npiece W JE e5 A SH")
    assert {"e5^", "e6^"} <= dests(state, "e4", "A")
    after = play(state, "MV:JE^(4,5)->^(6,5)", "END")
    assert after.history == ("MV:JE^(4,5)->^(6,5),RS:JEv(5,5),JE*JE^(5,5)1SH0W",)
    assert ("B", "JE", "e5^") in where(after)


def test_m0_11_rul23_pawn_two_square_move_stops_on_hidden_piece():
    """03/M0.11, RUL-23, RUL-27: the Pawn e2 -> g4 runs into a hidden Pawn on f3 and takes it."""
    state = pos("piece B K j1 G\npiece B FP e2 G\npiece W K j10 G\npiece W RP f3 G moved SH")
    assert dests(state, "e2") == {"d3", "f3", "c4", "g4"}
    after = play(state, "MV:FP(2,5)->(4,7)", "END")
    assert after.history == ("MV:FP(2,5)->(4,7),RS:FPv(3,6),FP*RP(3,6)1SH0W",)
    assert ("B", "FP", "f3") in where(after)


def test_rul27_hidden_enemy_on_attack_square_is_not_offered():
    """RUL-27, 03/M1.1.5: attack squares are entered only to take a *visible* enemy; a hidden
    one on e5 is not offered; a hidden one on the move square f5 is entered and taken."""
    state = pos("piece B K j1 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                "piece W RP e5 G moved SH\npiece W SP f5 G moved SH")
    assert dests(state, "e4") == {"d5", "f5"}
    after = play(state, "MV:FP(4,5)->(5,6)", "END")
    assert after.history == ("MV:FP(4,5)->(5,6),RS:FP*SP(5,6)1SH0W",)


# -- 03/M0.13, M1.0 ---------------------------------------------------------------------------

@pytest.mark.parametrize("option", RANGE_OPTIONS)
def test_m0_13_m1_0_14_range_options_default_7_only_6_to_8(option):
    """03/M0.13, M1.0.14, RUL-21, RUL-38: the four range options default to 7 (as the offsets
    file says) and accept only 6, 7 and 8."""
    assert getattr(Options(), option) == 7 == OFFSETS["defaults"][option]
    for good in RANGES:
        assert getattr(Options(**{option: good}), option) == good
    for bad in (5, 9, 0):
        with pytest.raises(ValueError):
            Options(**{option: bad})


def test_m1_0_9_a26_enemy_nudging_default_on_and_option_off():
    """03/M1.0.9, A-26, M1.3.7, M1.3.10, 02/D20: by default the Bulldozer may nudge an adjacent enemy
    (e5); with enemy_nudging off no nudge includes it."""
    text = "piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n" \
           "piece W RP e5 G moved"
    on = {m.doze for m in moves(pos(text), "e4", kind="DO") if m.doze}
    off = {m.doze for m in moves(pos(text, enemy_nudging=False), "e4", kind="DO") if m.doze}
    assert any(("RP", 5, 5) in d for d in on)
    assert not any(("RP", 5, 5) in d for d in off)
    assert Options().enemy_nudging is True


# -- 03/M1.1 Pawn -----------------------------------------------------------------------------

def test_m1_1_1_m1_1_2_pawn_moves_and_attacks():
    """03/M1.1.1, M1.1.2, M1.1.5: B Pawn e4 (has moved): moves d5, f5; attacks e5, d4, f4 only
    when a visible enemy is there; a friend there is neither."""
    empty = pos("piece B K j1 G\npiece B FP e4 G moved\npiece W K j10 G")
    assert dests(empty, "e4") == {"d5", "f5"}
    enemies = pos("piece B K j1 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                  "piece W RP e5 G moved\npiece W SP d4 G moved\npiece W CP f4 G moved")
    assert dests(enemies, "e4") == {"d5", "f5", "e5", "d4", "f4"}
    friends = pos("piece B K j1 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                  "piece B DS e5 G\npiece B DO d4 G")
    assert dests(friends, "e4") == {"d5", "f5"}
    after = play(enemies, "MV:FP(4,5)->(4,4)", "END")
    assert after.history == ("MV:FP(4,5)->(4,4),RS:FP*SP(4,4)0W",)


def test_m1_1_5_rul27_move_square_with_visible_enemy_is_illegal():
    """03/M1.1.5, RUL-27: a move square (d5) holding a visible enemy cannot be entered."""
    state = pos("piece B K j1 G\npiece B FP e4 G moved\npiece W K j10 G\npiece W RP d5 G moved")
    assert dests(state, "e4") == {"f5"}
    with pytest.raises(RuleError) as err:
        apply_action(state, parse_action("MV:FP(4,5)->(5,4)"))
    assert err.value.rule == "03/M1.1"


def test_m1_1_3_m1_1_6_a14_two_square_move_needs_clear_intermediate():
    """03/M1.1.3, M1.1.6, A-14, RUL-27: on its origin square the Pawn also has c6 and g6; a piece
    on d5 (either side, or a friend that could share) blocks c6 but not g6."""
    state = pos("piece B K j1 G\npiece B FP e4 G\npiece W K j10 G\npiece B DS d5 G")
    assert dests(state, "e4") == {"d5", "f5", "g6"}
    state = pos("piece B K j1 G\npiece B FP e4 G\npiece W K j10 G\npiece W DS d5 G")
    assert dests(state, "e4") == {"f5", "g6"}


def test_m1_1_3_two_square_destination_must_be_enterable():
    """03/M1.1.3, RUL-27: the 2-square destination follows the move-square rule (no enemy)."""
    state = pos("piece B K j1 G\npiece B FP e4 G\npiece W K j10 G\npiece W DS g6 G")
    assert dests(state, "e4") == {"d5", "f5", "c6"}


def test_m1_1_7_a14_pawn_that_left_its_square_and_came_back_has_no_two_square_move():
    """03/M1.1.7, A-14, M1.3: the e2 Pawn is nudged to f2 and back to e2; it never moved by
    itself, but it has left its starting square, so g4 is not offered (only f3)."""
    state = pos("piece B K j1 G\npiece B DO d3 G\npiece B DS d3 G\npiece B FP e2 G\n"
                "piece W K j10 G")
    assert dests(state, "e2") == {"f3", "g4"}        # d3 full, c4 via d3 blocked
    state = play(state, "MV:DO(3,4)->(3,5),DO>(3,5)DS(3,4),FP(2,5)", "END",
                 "MV:K(10,10)->(9,10)", "END",
                 "MV:DO(3,5)->(3,4),DO>(3,4)DS(3,5),FP(2,6)", "END",
                 "MV:K(9,10)->(10,10)", "END")
    assert ("B", "FP", "e2") in where(state)
    assert dests(state, "e2") == {"f3"}


def test_m1_1_7_moved_pawn_has_no_two_square_move():
    """03/M1.1.3, M1.1.7: after its own first Move the Pawn has only its 2 move squares."""
    state = play(pos("piece B K j1 G\npiece B FP e2 G\npiece W K j10 G"),
                 "MV:FP(2,5)->(3,6)", "END", "MV:K(10,10)->(9,10)", "END")
    assert dests(state, "f3") == {"e4", "g4"}


def test_m1_1_8_rul27_no_promotion_on_the_last_rank():
    """03/M1.1.8, RUL-27: a Black Pawn on e10 can only take left or right; it stays a Pawn."""
    state = pos("piece B K j1 G\npiece B FP e10 G moved\npiece W K a10 G\npiece W SP f10 G moved")
    assert dests(state, "e10") == {"f10"}
    after = play(state, "MV:FP(10,5)->(10,6)", "END")
    assert ("B", "FP", "f10") in where(after)
    alone = pos("piece B K j1 G\npiece B FP e10 G moved\npiece W K a10 G")
    assert dests(alone, "e10") == set()


# -- 03/M1.2 King, M1.4 Destroyer, M1.5 AAA ----------------------------------------------------

@pytest.mark.parametrize("kind", ["K", "DO", "DS", "AAA"])
def test_m1_2_m1_3_2_m1_4_m1_5_one_square_steps(kind):
    """03/M1.2.2, M1.3.2, M1.4.2, M1.5.2, M0.2: 8 king steps on the own level (offsets file);
    in the corner a1 only 3 remain."""
    key = {"K": "primary_government", "DO": "bulldozer", "DS": "destroyer", "AAA": "aaa"}[kind]
    entry = WC[key]
    offsets = entry["plain_move"]["offsets"] if kind == "DO" else entry["offsets"]
    for at in ("e5", "a1"):
        king = "" if kind == "K" else "piece B K j1 G\n"
        state = pos(f"{king}piece B {kind} {at} G\npiece W K j10 G")
        want = {name(*s) for s in (to_square("B", sq(at), o) for o in offsets) if on_board(*s)}
        assert dests(state, at, kind=kind) == want
    assert len(want) == 3


# -- 03/M1.3 Bulldozer nudges (RUL-26, RUL-45) -------------------------------------------------

def test_m1_3_4_rul26_nudge_needs_a_colocated_friendly_piece():
    """03/M1.3.4, RUL-26, RUL-39: without a co-located friend only plain Moves exist; a stunned
    or enemy co-located piece does not qualify (T38 covers the stunned Sub)."""
    alone = pos("piece B K j1 G\npiece B DO e4 G\npiece B SP d5 G moved\npiece W K j10 G")
    assert [m for m in moves(alone, "e4", kind="DO") if m.doze] == []
    mixed = pos("piece B K j1 G\npiece B DO e4 G\npiece W RP e4 G moved\npiece B SP d5 G moved\n"
                "piece W K j10 G")
    assert [m for m in moves(mixed, "e4", kind="DO") if m.doze] == []


def test_m1_3_5_m1_3_8_nudge_groups_and_directions():
    """03/M1.3.5, M1.3.6, M1.3.8, RUL-26: DO+FP on e4, one adjacent piece on d5. Groups: {FP},
    {FP, d5}. With {FP} every direction is free except north-west (d5 is not vacated);
    with {FP, d5} all 8 directions (d5 -> c6, d6, e6, c5, e5, c4, d4, e4)."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece B SP d5 G moved\n"
                "piece W K j10 G")
    got = {(name(m.row, m.col), m.doze) for m in moves(state, "e4", kind="DO") if m.doze}
    ring = ["d5", "e5", "f5", "d4", "f4", "d3", "e3", "f3"]
    solo = {(d, (("FP", 4, 5),)) for d in ring if d != "d5"}
    group = {(d, (("FP", 4, 5), ("SP", 5, 4))) for d in ring}
    assert got == solo | group


def test_m1_3_6_unblocked_counts_squares_vacated_by_members():
    """03/M1.3.3, M1.3.6, M1.3.7, RUL-26: DO+FP on e4, W Pawn on e5. North is blocked for {FP} alone
    (e5 holds an enemy that is not part of the nudge) but legal with e5 in the group: the Pawn
    goes to e6 and DO+FP take e5, which it vacated. Nothing is taken."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                "piece W RP e5 G moved")
    got = {(name(m.row, m.col), m.doze) for m in moves(state, "e4", kind="DO") if m.doze}
    assert ("e5", (("FP", 4, 5),)) not in got
    assert ("e5", (("FP", 4, 5), ("RP", 5, 5))) in got
    after = play(state, "MV:DO(4,5)->(5,5),DO>(5,5)FP(4,5),RP(5,5)", "END")
    assert where(after) == {("B", "K", "j1"), ("B", "DO", "e5"), ("B", "FP", "e5"),
                            ("W", "K", "j10"), ("W", "RP", "e6")}
    assert after.history == ("MV:DO(4,5)->(5,5),DO>(5,5)FP(4,5),RP(5,5)",)


def test_m1_3_6_drag_away_from_the_nudged_piece():
    """03/M1.3.6: the Bulldozer drags as well as pushes: east with d4 moves SP d4 -> e4."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece B SP d4 G moved\n"
                "piece W K j10 G")
    after = play(state, "MV:DO(4,5)->(4,6),DO>(4,6)FP(4,5),SP(4,4)")
    assert where(after) == {("B", "K", "j1"), ("B", "DO", "f4"), ("B", "FP", "f4"),
                            ("B", "SP", "e4"), ("W", "K", "j10")}


def test_m1_3_5_at_most_four_adjacent_pieces():
    """03/M1.3.5, M1.3.6, RUL-26: adjacent pieces on d3, e3, f3 and two on d4 (5 in all).
    North: every choice of squares with at most 4 pieces, except those that push the d3 Pawn
    onto d4 while d4's two pieces stay (3 pieces); never all 5."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\n"
                "piece B SP d3 G moved\npiece B RP e3 G moved\npiece B CP f3 G moved\n"
                "piece B DS d4 G\npiece B JE d4 G\npiece W K j10 G")
    groups = {"d3": [("SP", 3, 4)], "e3": [("RP", 3, 5)], "f3": [("CP", 3, 6)],
              "d4": [("DS", 4, 4), ("JE", 4, 4)]}
    want = set()
    for n in range(16):
        chosen = [s for i, s in enumerate(groups) if n >> i & 1]
        members = [m for s in chosen for m in groups[s]]
        if len(members) <= 4 and not ("d3" in chosen and "d4" not in chosen):
            want.add(frozenset(members))
    north = {frozenset(m.doze[1:]) for m in moves(state, "e4", kind="DO")
             if m.doze and (m.row, m.col) == (5, 5)}
    assert len(want) == 11
    assert north == want
    assert max(len(m.doze) for m in moves(state, "e4", kind="DO")) == 5   # FP + 4


def test_m1_3_9_nudge_never_takes():
    """03/M1.3.9, M1.3.6, RUL-26: west would push the d5 Pawn onto the W Pawn on c5 (not a
    member, not adjacent): every group with d5 is blocked west; {FP} alone goes to d4."""
    state = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G moved\npiece W K j10 G\n"
                "piece B SP d5 G moved\npiece W RP c5 G moved")
    west = [m.doze for m in moves(state, "e4", kind="DO") if m.doze and (m.row, m.col) == (4, 4)]
    assert west == [(("FP", 4, 5),)]


# -- 03/M1.6 Sub ------------------------------------------------------------------------------

def test_m1_6_1_m1_6_2_sub_moves_dive_and_surface():
    """03/M1.6.1, M1.6.2, M0.5: on the Ground 8 steps plus the dive; at the Sub level 8 steps
    plus surfacing; never the Air."""
    ring = ["d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4"]
    g = pos("piece B K j1 G\npiece B SU e5 G\npiece W K j10 G")
    assert dests(g, "e5") == set(ring) | {"e5v"}
    s = pos("piece B K j1 G\npiece B SU e5 S\npiece W K j10 G")
    assert dests(s, "e5", "S") == {x + "v" for x in ring} | {"e5"}


def test_m1_6_3_sub_is_non_combat_at_both_levels():
    """03/M1.6.3, M1.0.15: a visible enemy Sub (detected, distance 1) on f6 S and a W Pawn on
    e5 G are not destinations: no step onto f6 S, no surfacing."""
    state = pos("piece B K j1 G\npiece B SU e5 S\npiece W K j10 G\npiece W SU f6 S\n"
                "piece W RP e5 G moved")
    ring = ["d6", "e6", "d5", "f5", "d4", "e4", "f4"]
    assert dests(state, "e5", "S") == {x + "v" for x in ring}


def test_m1_6_5_rul25_sub_carries_and_passenger_off_native_level():
    """03/M1.6.5, RUL-25, RUL-39: a Bulldozer at the Sub level with a Sub has no Move of its
    own; every Sub Move takes it along; a stunned passenger stops the Sub."""
    state = pos("piece B K j1 G\npiece B SU e5 S\npiece B DO e5 S\npiece W K j10 G")
    assert moves(state, "e5", "S", kind="DO") == []
    sub = moves(state, "e5", "S", kind="SU")
    assert {(name(m.row, m.col, m.level), m.passenger.kind) for m in sub} == \
        {(x + "v", "DO") for x in ["d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4"]} | \
        {("e5", "DO")}
    after = play(state, "MV:SUv(5,5)->(5,5)-TRA->DOv(5,5)(5,5)")
    assert ("B", "DO", "e5") in where(after) and ("B", "SU", "e5") in where(after)
    stunned = pos("piece B K j1 G\npiece B SU e5 S\npiece B DO e5 S stun=2\npiece W K j10 G")
    assert moves(stunned, "e5", "S") == []


# -- 03/M1.7 Jet (A-13) -----------------------------------------------------------------------

def _jet_air(at):
    air = WC["jet"]["air_moves_recommended"]
    return [to_square("B", sq(at), o) for o in air["one_square"] + air["two_squares_straight"]]


def test_m1_7_2_jet_on_the_ground_only_launches():
    """03/M1.7.1, M1.7.2: a Jet on the Ground has only the launch to its own Air cell; it may
    launch into a friendly Jet's cell (Coexistence) but not an enemy's."""
    assert dests(pos("piece B K j1 G\npiece B JE e5 G\npiece W K j10 G"), "e5") == {"e5^"}
    friend = pos("piece B K j1 G\npiece B JE e5 G\npiece B JE e5 A\npiece W K j10 G")
    assert dests(friend, "e5", "G") == {"e5^"}
    foe = pos("piece B K j1 G\npiece B JE e5 G\npiece W JE e5 A\npiece W K j10 G")
    assert dests(foe, "e5", "G") == set()


def test_m1_7_3_a13_jet_air_moves_16_squares_and_landing():
    """03/M1.7.3, M1.7.6 (a), A-13, RUL-39: in the Air the Jet lands in place or moves 1 or 2 squares along
    one of the 8 lines (16 squares); the (1,2)-type squares are not destinations."""
    state = pos("piece B K j1 G\npiece B JE e5 A\npiece W K j10 G")
    want = {name(r, c, "A") for r, c in _jet_air("e5")} | {"e5"}
    assert len(want) == 17
    assert dests(state, "e5", "A") == want
    assert "f7^" not in want and "g6^" not in want


def test_m1_7_3_m0_2_jet_in_the_corner():
    """03/M1.7.3, M0.2: from a1 A only a2, b2, b1, a3, c3, c1 (Air) and the landing remain."""
    state = pos("piece B K j1 G\npiece B JE a1 A\npiece W K j10 G")
    assert dests(state, "a1", "A") == {"a2^", "b2^", "b1^", "a3^", "c3^", "c1^", "a1"}


def test_m1_7_4_m1_7_5_jet_blocking_and_non_combat():
    """03/M1.7.4, M1.7.5, M0.9 (i): a friendly Jet on f6 A may be joined but blocks g7 A; a
    visible enemy Jet on e6 A is not a destination and blocks e7 A; a Ground piece on d4 does
    not block c3 A; an enemy on e5 G forbids landing."""
    state = pos("piece B K j1 G\npiece B JE e5 A\npiece B JE f6 A\npiece W JE e6 A\n"
                "piece B DS d4 G\npiece W RP e5 G moved\npiece W K j10 G")
    want = {name(r, c, "A") for r, c in _jet_air("e5")} - {"g7^", "e6^", "e7^"}
    assert dests(state, "e5", "A") == want


# -- 03/M1.8, M1.9 notes ------------------------------------------------------------------------

@pytest.mark.parametrize("rng,same", [(6, False), (7, True), (8, True)])
def test_m1_8_7_m1_9_5_right_tank_equals_left_cleric_at_7_and_8(rng, same):
    """03/M1.8.7, M1.9.5: at ranges 7 and 8 a right Tank and a left Cleric reach the same
    squares (and left Tank = right Cleric); at range 6 they differ (offsets file)."""
    for tank, cleric in (("right", "left"), ("left", "right")):
        t = {tuple(o) for o in WC["tank"][tank]["destinations_by_range"][str(rng)]}
        c = {tuple(o) for o in WC["cleric"][cleric]["destinations_by_range"][str(rng)]}
        assert (t == c) is same
    # on the board: from c3 a right Tank and a left Cleric both reach f10 only at range 7
    if rng == 7:
        t = pos("piece B K j1 G\npiece B TA> c3 G\npiece W K a10 G")
        c = pos("piece B K j1 G\npiece B CL< c3 G\npiece W K a10 G")
        assert dests(t, "c3") == dests(c, "c3") == {"f10"}


# -- 03/M1.10 Chopper ---------------------------------------------------------------------------

def test_m1_10_3_chopper_ducks_under_an_air_obstruction():
    """03/M1.10.3: Chopper e4 A, Jets on e5 A and f5 A. f6 G is reached by descending at e4
    (e4 G, e5 G or f5 G, f6 G); with e4 G also occupied it is unreachable."""
    base = "piece B K j1 G\npiece B CH> e4 A\npiece B JE e5 A\npiece B JE f5 A\npiece W K j10 G\n"
    assert "f6" in dests(pos(base), "e4", "A")
    blocked = pos(base + "piece B DS e4 G")
    got = dests(blocked, "e4", "A", kind="CH")
    assert "f6" not in got
    # the other destinations of a right Chopper on e4 stay reachable
    assert got == {"c6", "c5", "g3", "c2", "d2", "g2"}       # g6 needs f5 too


def test_m1_10_4_chopper_capture_only_on_its_destination_level():
    """03/M1.10.4, M1.10.2, M0.10: a right Chopper on d1 G reaches b3, e3, f3, b2 on the Ground
    or in the Air. Ending on e3 A takes the W Jet there; the W Pawn on b3 G is untouched."""
    state = pos("piece B K j1 G\npiece B CH> d1 G\npiece W K j10 G\npiece W RP b3 G moved\n"
                "piece W JE e3 A")
    assert dests(state, "d1") == {"b3", "b3^", "e3", "e3^", "f3", "f3^", "b2", "b2^"}
    after = play(state, "MV:CH(1,4)>->^(3,5)", "END")
    assert after.history == ("MV:CH(1,4)>->^(3,5),RS:CH*JE^(3,5)0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "CH>", "e3^"), ("W", "K", "j10"),
                            ("W", "RP", "b3")}


def test_rul22_rul44a_obligation_lapses_when_the_chopper_cannot_move():
    """RUL-22, RUL-44(a): a stunned airborne Chopper has no Move, so the King may move."""
    state = pos("piece B K j1 G\npiece B CH> e3 A stun=2\npiece W K j10 G")
    assert all_moves(state) == {"j1->i1", "j1->i2", "j1->j2"}


def test_rul25_passenger_off_native_level_rides_every_move():
    """RUL-25, RUL-39, RUL-42: a Tank carried in the Air by a Chopper has no Move of its own;
    every Chopper Move lands with it; stunned, it pins the Chopper (and the obligation lapses)."""
    state = pos("piece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A\npiece W K j10 G")
    assert moves(state, "d5", "A", kind="TA") == []
    ch = moves(state, "d5", "A", kind="CH")
    # right Chopper d5: b7, e7, f7, b6, f4, b3, c3, f3 -- all on the Ground, Tank aboard
    assert {(name(m.row, m.col, m.level), m.passenger.kind if m.passenger else None)
            for m in ch} == {(s, "TA") for s in ["b7", "e7", "f7", "b6", "f4", "b3", "c3", "f3"]}
    stunned = pos("piece B K j1 G\npiece B CH> d5 A\npiece B TA> d5 A stun=2\npiece W K j10 G")
    assert all_moves(stunned) == {"j1->i1", "j1->i2", "j1->j2"}


# -- 03/M1.11 Queen -----------------------------------------------------------------------------

def test_m1_11_3_queen_ranges_are_independent_of_tank_and_cleric_ranges():
    """03/M1.11.3, M0.13: QueenTank 6 / QueenCleric 8 (Tank 8, Cleric 6) from c3 (Black). Tank
    range-6 ends on the board: (2,6) e9 via c4..c7, d8; (-2,6) a9 via c4..c7, b8; (6,-2) i1
    via d3..g3, h2; (6,2) i5 via d3..g3, h4. Every Cleric range-8 end is off the board."""
    state = pos("piece B K j1 G\npiece B Q c3 G\npiece W K a10 G", queen_tank_range=6,
                queen_cleric_range=8, tank_range=8, cleric_range=6)
    assert dests(state, "c3") == {"e9", "a9", "i1", "i5"}


def test_rul23_chopper_flies_a_route_free_of_pieces_to_a_visible_capture():
    """RUL-23 (Chopper routes), RUL-39, 03/M1.10.3: a route is the cells entered *before* the
    destination (the destination only obeys M0.10). Chopper e3 G -> g5 G to take the visible W
    Pawn: the first route e3 G, f4 G meets a hidden Stealth Pawn on f4 G, but the route e3 A,
    f4 A, g5 A is free of all pieces, so the Chopper flies it and takes the Pawn on g5."""
    state = pos("piece B K j1 G\npiece B CH> e3 G\npiece W K j10 G\npiece W RP g5 G moved\n"
                "piece W SHP f4 G")
    assert "g5" in dests(state, "e3")
    after = play(state, "MV:CH(3,5)>->(5,7)", "END")
    assert after.history == ("MV:CH(3,5)>->(5,7),RS:CH*RP(5,7)0W",)
    assert where(after) == {("B", "K", "j1"), ("B", "CH>", "g5"), ("W", "K", "j10"),
                            ("W", "SHP", "f4")}


def test_m1_1_2_m1_1_4_pawn_offsets_match_the_offsets_file():
    """03/M1.1.2, M1.1.3, M1.1.4, M0.1: both sides' Pawn destinations from the offsets file:
    move squares and origin extras (board empty), attack squares only with enemies on them."""
    pawn = WC["pawn"]["default"]
    for side, at, foe in (("B", "e4", "W"), ("W", "e7", "B")):
        origin = sq(at)
        quiet = {name(*to_square(side, origin, o))
                 for o in pawn["move_non_capturing"] + pawn["extra_move_on_origin_square"]}
        attack = [to_square(side, origin, o) for o in pawn["capture_only"]]
        text = f"to-move {side}\npiece B K j1 G\npiece W K a10 G\npiece {side} FP {at} G\n"
        assert dests(pos(text), at) == quiet
        foes = "".join(f"piece {foe} DS {name(*s)} G\n" for s in attack)
        assert dests(pos(text + foes), at) == quiet | {name(*s) for s in attack}


def test_m1_0_10_m1_2_3_kings_may_be_carried_into_the_air():
    """03/M1.0.10, M1.2.3, RUL-25, 01/§20 O3: no restrictions on Kings: a Chopper may take the
    co-located King into the Air (e3 A); with primary_may_fly_or_dive off only to the Ground."""
    text = "piece B K d1 G\npiece B CH> d1 G\npiece W K j10 G"
    def carried(state):
        return {name(m.row, m.col, m.level) for m in moves(state, "d1", kind="CH")
                if m.passenger is not None and m.passenger.kind == "K"}
    ground = {"b3", "e3", "f3", "b2"}
    assert carried(pos(text)) == ground | {s + "^" for s in ground}
    assert carried(pos(text, primary_may_fly_or_dive=False)) == ground


def test_m1_11_4_queen_diagram_has_76_path_cells():
    """03/M1.11.4, M1.11.1: the union of the four component paths (8 steps) covers the 76
    marked cells of the Queen diagram (offsets file)."""
    cells = {tuple(off) for paths, _ in RANGED[("Q", "")] for p in paths for off in p}
    assert len(cells) == 76
