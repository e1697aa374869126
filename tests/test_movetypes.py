"""Standard Chess movement (03/M2) and Mass Destruction Chess movement (03/M3), option 02/D1.

Every expected value comes from the copy of the verified offsets
``tests/data/movement-offsets.json`` (``movement_types.standard_chess`` and
``movement_types.mass_destruction_chess``) or is worked out by hand from the rule text, never
from engine output. White's offsets are Black's turned 180 degrees (03/M0.1, file
``conventions.board_mapping``). Squares are ``e4`` (file = column, rank = row).
"""
from __future__ import annotations

import random

import pytest

from engine import api
from engine.actions import Move
from engine.api import RuleError, apply_action, parse_action
from engine.options import Options
from movement_helpers import (OFFSETS, all_moves, dests, moves, name, on_board, play, pos, sq,
                              to_square, where)

SC = OFFSETS["movement_types"]["standard_chess"]
MD = OFFSETS["movement_types"]["mass_destruction_chess"]
TYPES = {"standard_chess": SC, "mass_destruction_chess": MD}
SQUARES = [(r, c) for r in range(1, 11) for c in range(1, 11)]
RANGES = (6, 7, 8)
RANGE_OPTIONS = ("tank_range", "cleric_range", "queen_tank_range", "queen_cleric_range")
OPTION_OF = {"QueenTank": "queen_tank_range", "QueenCleric": "queen_cleric_range"}
HANDS = {">": "right", "<": "left"}
RING = ["d6", "e6", "f6", "d5", "f5", "d4", "e4", "f4"]      # the 8 neighbours of e5
KINGS = "piece B K j1 G\npiece W K a10 G\n"


def spec(table: dict, kind: str, hand: str) -> list:
    """(paths, range option) pairs of a ranged piece, from the offsets file."""
    if kind == "TA":
        return [(table["tank"][HANDS[hand]]["paths"], "tank_range")]
    if kind == "CL":
        return [(table["cleric"][HANDS[hand]]["paths"], "cleric_range")]
    out = []
    for comp in table["secondary_government"]["components"]:
        hands = ["right", "left"] if comp["variety"] == "any" else [comp["variety"]]
        for h in hands:
            out.append((table[comp["piece"]][h]["paths"], OPTION_OF[comp["range_option"]]))
    return out


def expected_ranged(side, origin, pieces_spec, opts, blocked=frozenset()) -> set[str]:
    """03/M0.2, M0.8, M0.9: path[r-1] of each path whose first r squares are on the board and
    whose first r-1 squares are not in ``blocked``."""
    out = set()
    for paths, option in pieces_spec:
        r = opts[option]
        for path in paths:
            steps = [to_square(side, origin, off) for off in path[:r]]
            if all(on_board(*s) for s in steps) and not any(s in blocked for s in steps[:-1]):
                out.add(name(*steps[-1]))
    return out


def footprint(side, origin, pieces_spec) -> set:
    out = {origin}
    for paths, _ in pieces_spec:
        for path in paths:
            out |= {to_square(side, origin, off) for off in path}
    return out


def king_squares(forbidden: set) -> tuple[str, str]:
    order = [(1, 10), (10, 10), (10, 1), (1, 1)] + SQUARES
    free = [s for s in order if s not in forbidden]
    return name(*free[0]), name(*free[1])


def position(side, lines, forbidden, **opts):
    kb, kw = king_squares(forbidden)
    return pos("\n".join([f"to-move {side}", f"piece B K {kb} G", f"piece W K {kw} G", *lines]),
               **opts)


# -- 02/D1 and the options of 03/M2.0, M3.0 ---------------------------------------------------

def test_02_d1_movement_type_values():
    """02/D1, RUL-38: Weaponized Chess movement is the default; the other two types are
    accepted; anything else is refused naming the option."""
    assert Options().movement_type == "weaponized_chess" == OFFSETS["defaults"]["movement_type"]
    for mt in ("weaponized_chess", "standard_chess", "mass_destruction_chess"):
        assert Options(movement_type=mt).movement_type == mt
    for bad in ("mass_destruction", "chess", "", 1):
        with pytest.raises(ValueError, match="movement_type"):
            Options(movement_type=bad)


def test_m2_0_4_m3_0_4_rul38_sub_jet_combat_option():
    """RUL-38, 03/M1.0.15, M2.0.4, M3.0.4: sub_jet_combat is off by default; Weaponized Chess
    movement has no such option; Standard Chess offers it without conditions; Mass Destruction
    only together with Move-Only."""
    assert Options().sub_jet_combat is False
    with pytest.raises(ValueError, match="sub_jet_combat"):
        Options(sub_jet_combat=True)
    assert Options(movement_type="standard_chess", sub_jet_combat=True).sub_jet_combat
    with pytest.raises(ValueError, match="M3.0.4"):
        Options(movement_type="mass_destruction_chess", sub_jet_combat=True)
    assert Options(movement_type="mass_destruction_chess", sub_jet_combat=True, move_only=True)
    with pytest.raises(ValueError, match="sub_jet_combat"):
        Options().replace(sub_jet_combat=True)
    with pytest.raises(ValueError):
        Options(movement_type="standard_chess", sub_jet_combat=1)


def test_m3_0_3_pawn_variant_option():
    """03/M3.0.3, M3.1: three Pawn variants (the offsets file's names); the preset is the
    first-listed, 'all sides and forward'; other values are refused."""
    assert set(MD["pawn"]) - {"rule", "note"} == {"all_sides_and_forward", "all_forward",
                                                  "all_but_directly_ahead"}
    assert Options().md_pawn_variant == "all_sides_and_forward"
    for v in ("all_sides_and_forward", "all_forward", "all_but_directly_ahead"):
        assert Options(movement_type="mass_destruction_chess", md_pawn_variant=v).md_pawn_variant == v
    with pytest.raises(ValueError, match="md_pawn_variant"):
        Options(md_pawn_variant="all")


def test_options_round_trip_through_a_save():
    """02/D1, 04/H1: a game with another movement type saves and reloads with its options."""
    o = Options(movement_type="mass_destruction_chess", md_pawn_variant="all_forward",
                move_only=True, sub_jet_combat=True)
    s = api.new_game(o)
    assert api.loads(api.dumps(s)).options == o


# -- 03/M2.8, M2.9, M3.8, M3.9: Tank and Cleric, every square, both sides ---------------------

def test_offsets_file_paths_match_its_destination_lists():
    """03 'Offsets file', M2.8.3, M2.9.3, M3.8.2, M3.8.3, M3.9.2, M3.9.3: paths[i][r-1] are the
    listed range-r destinations; Standard Chess right and left entries are identical (M2.8.2,
    M2.9.2)."""
    for table in TYPES.values():
        for piece in ("tank", "cleric"):
            for hand in ("right", "left"):
                entry = table[piece][hand]
                for r in RANGES:
                    assert sorted(p[r - 1] for p in entry["paths"]) == \
                        sorted(entry["destinations_by_range"][str(r)])
    for piece in ("tank", "cleric"):
        assert SC[piece]["right"]["paths"] == SC[piece]["left"]["paths"]


@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("rng", RANGES)
@pytest.mark.parametrize("kind,hand", [("TA", ">"), ("TA", "<"), ("CL", ">"), ("CL", "<")])
@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_8_m2_9_m3_8_m3_9_ranged_destinations_every_square(mt, kind, hand, rng, side):
    """03/M2.8.1-M2.8.4, M2.9.1-M2.9.4, M3.8.1-M3.8.5, M3.9.1-M3.9.4, M0.1, M0.2, M0.8, RUL-21:
    on an otherwise empty board the destinations are exactly the on-board range-r path ends
    of the offsets file, from every square; the other range options do not matter."""
    sp = spec(TYPES[mt], kind, hand)
    option = sp[0][1]
    other = {6: 8, 7: 6, 8: 7}[rng]
    opts = {o: (rng if o == option else other) for o in RANGE_OPTIONS}
    wrong = []
    for origin in SQUARES:
        state = position(side, [f"piece {side} {kind}{hand} {name(*origin)} G"],
                         footprint(side, origin, sp), movement_type=mt, **opts)
        want = expected_ranged(side, origin, sp, opts)
        got = dests(state, name(*origin), kind=kind)
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("qt,qc", [(6, 6), (7, 7), (8, 8), (6, 8), (8, 7)])
@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_11_m3_11_queen_destinations_every_square(mt, qt, qc, side):
    """03/M2.11.1, M2.11.2, M3.11.1-M3.11.3, M0.13: the Queen's destinations are the union of
    the Tank paths at queen_tank_range and the Cleric paths at queen_cleric_range (offsets
    file), from every square; tank_range and cleric_range do not affect it."""
    sp = spec(TYPES[mt], "Q", "")
    opts = {"queen_tank_range": qt, "queen_cleric_range": qc,
            "tank_range": {6: 7, 7: 8, 8: 6}[qt], "cleric_range": {6: 8, 7: 6, 8: 6}[qc]}
    wrong = []
    for origin in SQUARES:
        state = position(side, [f"piece {side} Q {name(*origin)} G"],
                         footprint(side, origin, sp), movement_type=mt, **opts)
        want = expected_ranged(side, origin, sp, opts)
        got = dests(state, name(*origin), kind="Q")
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_11_2_m3_11_2_queen_offset_lists(mt):
    """03/M2.11.2, M3.11.2, M3.11.3: the union of the component paths gives the listed Queen
    sets (8 / 16 squares at range 7; MD range 8 includes (0,8), the drawing slip read as *)."""
    table = TYPES[mt]
    sp = spec(table, "Q", "")
    for r in RANGES:
        ends = {tuple(p[r - 1]) for paths, _ in sp for p in paths}
        assert ends == {tuple(o) for o in
                        table["secondary_government"]["destinations_if_both_queen_ranges_equal"][str(r)]}
    assert len(table["secondary_government"]["destinations_range_7"]) == \
        {"standard_chess": 8, "mass_destruction_chess": 16}[mt]
    if mt == "mass_destruction_chess":
        assert [0, 8] in table["secondary_government"]["destinations_if_both_queen_ranges_equal"]["8"]


def test_m2_8_2_m2_9_2_hands_move_alike():
    """03/M2.8.2, M2.9.2, M0.3: under Standard Chess movement a right and a left Tank (Cleric)
    on c3 reach the same squares: Tank c10 (0,7), j3 (7,0); Cleric j10 (7,7)."""
    for kind, want in (("TA", {"c10", "j3"}), ("CL", {"j10"})):
        got = [dests(pos(KINGS + f"piece B {kind}{h} c3 G", movement_type="standard_chess"),
                     "c3", kind=kind) for h in "><"]
        assert got == [want, want]


def test_m3_8_5_md_tank_hands_differ_only_at_odd_range():
    """03/M3.8.5: B Tank e1: at range 6 both hands reach e7 (0,6); at range 8 both reach e9;
    at range 7 the right Tank reaches d8 (-1,7) and the left one f8 (1,7)."""
    def d(hand, rng):
        return dests(pos(KINGS + f"piece B TA{hand} e1 G", movement_type="mass_destruction_chess",
                         tank_range=rng), "e1", kind="TA")
    assert d(">", 6) == d("<", 6) == {"e7"}
    assert d(">", 8) == d("<", 8) == {"e9"}
    assert (d(">", 7), d("<", 7)) == ({"d8"}, {"f8"})


# -- 03/M0.9 blocking for Standard Chess and Mass Destruction paths ----------------------------

def _path_origin(side, path, r):
    for origin in SQUARES:
        if all(on_board(*to_square(side, origin, off)) for off in path[:r]):
            return origin
    raise AssertionError("no origin keeps the path on the board")


@pytest.mark.parametrize("rng", RANGES)
@pytest.mark.parametrize("kind,hand", [("TA", ">"), ("TA", "<"), ("CL", ">"), ("CL", "<")])
@pytest.mark.parametrize("mt", list(TYPES))
def test_m0_9_every_path_square_blocks_at_its_level_only(mt, kind, hand, rng):
    """03/M0.9 (i), (iv), M2.8.4, M2.9.4, M3.8.4, M3.9.4, RUL-21: a friendly or enemy piece
    on any of the first r-1 squares of a path removes that path's destination; a Jet in the
    Air above it does not block the Ground mover."""
    sp = spec(TYPES[mt], kind, hand)
    paths = sp[0][0]
    opts = {o: rng for o in RANGE_OPTIONS}
    wrong = []
    for i in range(4):
        origin = _path_origin("W", paths[i], rng)
        for k in range(1, rng):
            block = to_square("W", origin, paths[i][k - 1])
            for line, blocks in ((f"piece W DS {name(*block)} G", True),
                                 (f"piece B DS {name(*block)} G", True),
                                 (f"piece W JE {name(*block)} A", False)):
                state = position("W", [f"piece W {kind}{hand} {name(*origin)} G", line],
                                 footprint("W", origin, sp), movement_type=mt, **opts)
                want = expected_ranged("W", origin, sp, opts,
                                       frozenset({block}) if blocks else frozenset())
                got = dests(state, name(*origin), kind=kind)
                if got != want:
                    wrong.append((name(*origin), i, k, line, sorted(got), sorted(want)))
    assert wrong == []


def test_m3_8_4_squares_off_the_zigzag_do_not_block():
    """03/M3.8.4: B right Tank e1, range 7: forward path f2, e3, d4, e5, f6, e7 -> d8.
    Pieces on e2 and e4 (straight ahead at odd distances) are not on it; one on e3 is."""
    base = KINGS + "piece B TA> e1 G\n"
    opts = {"movement_type": "mass_destruction_chess"}
    assert dests(pos(base + "piece B DS e2 G\npiece W DS e4 G", **opts), "e1", kind="TA") == {"d8"}
    assert dests(pos(base + "piece B DS e3 G", **opts), "e1", kind="TA") == set()


def test_m3_9_4_spiral_blocked_next_to_the_cleric():
    """03/M3.9.4, M3.9.2: B left Cleric e5 (range 7) reaches d10 (-1,5) via d4, c5, b6, b7,
    b8, c9 and j6 (5,1) via d6, e7, f8, g8, h8, i7; (-5,-1) and (1,-5) are off the board. A
    piece on f6 (step 1 of the forward-right spiral, which leaves the board) changes nothing;
    a piece on d6, right next to the Cleric, removes j6."""
    opts = {"movement_type": "mass_destruction_chess"}
    base = "piece B K a1 G\npiece W K a10 G\npiece B CL< e5 G\n"
    assert dests(pos(base, **opts), "e5", kind="CL") == {"d10", "j6"}
    assert dests(pos(base + "piece B DS f6 G", **opts), "e5", kind="CL") == {"d10", "j6"}
    assert dests(pos(base + "piece W DS d6 G", **opts), "e5", kind="CL") == {"d10"}


def test_m3_11_4_queen_paths_block_one_by_one():
    """03/M3.11.4, M3.11.2, M0.10, RUL-24: B Queen e3 (MD, ranges 7), worked by hand:
    d10 (-1,7) right Tank forward f4, e5, d6, e7, f8, e9; f10 (1,7) left Tank forward d4, e5,
    f6, e7, d8, e9; d8 (-1,5) left Cleric d2, c3, b4, b5, b6, c7; f8 (1,5) right Cleric f2,
    g3, h4, h5, h6, g7; j4 (5,1) left Cleric d4, e5, f6, g6, h6, i5. The other eleven offsets
    leave the board on the way. A friendly Jet on f8 (Coexistence) blocks the right Tank's
    zigzag, so d10 goes, while f8 stays a destination of the Cleric spiral that ends there."""
    opts = {"movement_type": "mass_destruction_chess"}
    base = KINGS + "piece B Q e3 G\n"
    assert dests(pos(base, **opts), "e3", kind="Q") == {"d10", "f10", "d8", "f8", "j4"}
    assert dests(pos(base + "piece B JE f8 G", **opts), "e3", kind="Q") == \
        {"f10", "d8", "f8", "j4"}
    # a Pawn on e5 (no Coexistence, on three of the paths) leaves d8 and f8 only
    assert dests(pos(base + "piece B RP e5 G moved", **opts), "e3", kind="Q") == {"d8", "f8"}


def test_m0_9_iv_standard_lines_block_like_chess_lines():
    """03/M0.9 (iv), M2.8.4, M2.11.1: B Queen a1 (SC, ranges 7) reaches a8, h1, h8; a piece on
    a5 removes a8 only; one on d4 removes h8 only; one in the Air of b1 removes nothing."""
    opts = {"movement_type": "standard_chess"}
    base = "piece B K j5 G\npiece W K j10 G\npiece B Q a1 G\n"
    assert dests(pos(base, **opts), "a1", kind="Q") == {"a8", "h1", "h8"}
    assert dests(pos(base + "piece W DS a5 G", **opts), "a1", kind="Q") == {"h1", "h8"}
    assert dests(pos(base + "piece B DS d4 G", **opts), "a1", kind="Q") == {"a8", "h1"}
    assert dests(pos(base + "piece B JE b1 A", **opts), "a1", kind="Q") == {"a8", "h1", "h8"}


# -- combat and hidden pieces (03/M0.7, M0.10, M0.11, RUL-23) ---------------------------------

def test_m2_8_4_m0_10_tank_takes_every_enemy_on_its_level():
    """03/M2.8.4, M0.10, A-28: SC Tank a1 -> a8 takes both White pieces on a8 G, not the Jet
    in the Air."""
    state = pos("piece B K j1 G\npiece B TA> a1 G\npiece W K j10 G\npiece W DS a8 G\n"
                "piece W DO a8 G\npiece W JE a8 A", movement_type="standard_chess")
    after = play(state, "MV:TA(1,1)>->(8,1)", "END")
    assert where(after) == {("B", "K", "j1"), ("B", "TA>", "a8"), ("W", "K", "j10"),
                            ("W", "JE", "a8^")}


def test_m3_9_4_a27_md_cleric_and_queen_take():
    """03/M3.9.4, M3.11.1, A-27: MD left Cleric e5 takes the Pawn on j6 (5,1); MD Queen e1
    takes the King's guard on d8 (right Tank zigzag f2, e3, d4, e5, f6, e7 -> d8)."""
    state = pos("piece B K a1 G\npiece W K a10 G\npiece B CL< e5 G\npiece W RP j6 G moved",
                movement_type="mass_destruction_chess")
    after = play(state, "MV:CL(5,5)<->(6,10)")
    assert ("W", "RP", "j6") not in where(after) and ("B", "CL<", "j6") in where(after)
    state = pos(KINGS + "piece B Q e1 G\npiece W RP d8 G moved",
                movement_type="mass_destruction_chess")
    after = play(state, "MV:Q(1,5)->(8,4)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "Q", "d8")}


def test_m0_11_rul23_sc_tank_stops_at_hidden_piece():
    """03/M0.11, RUL-23, M2.8.1: SC Tank e1 -> e8 (path e2..e7) meets a hidden Stealth Pawn on
    e4, stops there and takes it; the history shows the stop."""
    state = pos(KINGS + "piece B TA> e1 G\npiece W SHP e4 G moved",
                movement_type="standard_chess")
    assert dests(state, "e1", kind="TA") == {"e8"}
    after = play(state, "MV:TA(1,5)>->(8,5)", "END")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "TA>", "e4")}
    assert after.history[0].startswith("MV:TA(1,5)>->(8,5),RS:TAv(4,5),TA*SHP(4,5)")


def test_m0_11_rul23_md_tank_stops_on_zigzag():
    """03/M0.11, RUL-23, M3.8.2: MD right Tank e1 -> d8 (f2, e3, d4, e5, f6, e7) meets a
    hidden Stealth Pawn on d4 and stops there; one hidden on e4 (off the zigzag) is passed."""
    opts = {"movement_type": "mass_destruction_chess"}
    state = pos(KINGS + "piece B TA> e1 G\npiece W SHP d4 G moved", **opts)
    after = play(state, "MV:TA(1,5)>->(8,4)")
    assert ("B", "TA>", "d4") in where(after) and ("W", "SHP", "d4") not in where(after)
    state = pos(KINGS + "piece B TA> e1 G\npiece W SHP e4 G moved", **opts)
    after = play(state, "MV:TA(1,5)>->(8,4)")
    assert ("B", "TA>", "d8") in where(after) and ("W", "SHP", "e4") in where(after)


def test_illegal_move_names_the_movement_type_rule():
    """02/D1, 03/M2.8, M3.9: a Weaponized Chess destination is refused under the other types,
    naming their rule."""
    state = pos(KINGS + "piece B TA> a1 G", movement_type="standard_chess")
    with pytest.raises(RuleError) as err:
        apply_action(state, parse_action("MV:TA(1,1)>->(8,4)"))       # M1.8.2 square
    assert err.value.rule == "03/M2.8"
    state = pos(KINGS + "piece B CL< c1 G", movement_type="mass_destruction_chess")
    with pytest.raises(RuleError) as err:
        apply_action(state, parse_action("MV:CL(1,3)<->(8,6)"))       # M1.9.3 square
    assert err.value.rule == "03/M3.9"


# -- 03/M2.1 Pawn ------------------------------------------------------------------------------

@pytest.mark.parametrize("side,at", [("B", "e2"), ("W", "e9"), ("B", "a5"), ("W", "j6")])
def test_m2_1_1_pawn_offsets_from_the_file(side, at):
    """03/M2.1.1, M2.1.3, M0.1: on its starting square the Pawn moves (0,1) or (0,2); its
    capture squares (+-1,1) are destinations only with an enemy on them; once moved, (0,2) is
    gone (M1.1.7, A-14)."""
    pawn = SC["pawn"]["default"]
    foe = "W" if side == "B" else "B"
    origin = sq(at)
    quiet = [to_square(side, origin, o) for o in pawn["move_non_capturing"]]
    extra = [to_square(side, origin, o) for o in pawn["extra_move_on_origin_square"]]
    attack = [s for s in (to_square(side, origin, o) for o in pawn["capture_only"])
              if on_board(*s)]
    text = f"to-move {side}\n{KINGS}piece {side} FP {at} G"
    opts = {"movement_type": "standard_chess"}
    assert dests(pos(text, **opts), at) == {name(*s) for s in quiet + extra}
    assert dests(pos(text + " moved", **opts), at) == {name(*s) for s in quiet}
    foes = "".join(f"\npiece {foe} DS {name(*s)} G" for s in attack)
    assert dests(pos(text + foes, **opts), at) == {name(*s) for s in quiet + extra + attack}


def test_m2_1_3_two_square_move_needs_the_first_square_clear():
    """03/M2.1.3, M0.9 (v), RUL-27: B Pawn e2: an enemy or a friendly Pawn on e3 removes e3
    and e4; a friendly Destroyer on e3 may be joined (Coexistence, docs M-1) but still blocks
    e4; an enemy on e4 removes e4 only (a move square never takes)."""
    opts = {"movement_type": "standard_chess"}
    base = KINGS + "piece B FP e2 G\n"
    assert dests(pos(base + "piece W DS e3 G", **opts), "e2") == set()
    assert dests(pos(base + "piece B RP e3 G moved", **opts), "e2") == set()
    assert dests(pos(base + "piece B DS e3 G", **opts), "e2") == {"e3"}
    assert dests(pos(base + "piece W DS e4 G", **opts), "e2") == {"e3"}
    assert dests(pos(base + "piece B DS e4 G", **opts), "e2") == {"e3", "e4"}


def test_m2_1_2_rul27_captures_only_visible_enemies_and_no_promotion():
    """03/M2.1.2, RUL-27: the capture squares d5/f5 of B Pawn e4 need a visible enemy (a hidden
    Stealth Pawn on f5 is not offered, a friendly piece on d5 is not a destination); a Pawn on
    the last rank has no Move and stays a Pawn."""
    opts = {"movement_type": "standard_chess"}
    state = pos(KINGS + "piece B FP e4 G moved\npiece W SHP f5 G moved\npiece B DS d5 G", **opts)
    assert dests(state, "e4") == {"e5"}
    state = pos(KINGS + "piece B FP e10 G moved", **opts)
    assert dests(state, "e10") == set()


def test_m2_1_m0_11_rul23_pawn_stops_on_hidden_piece():
    """03/M0.11, RUL-23, M2.1.3: SC B Pawn e2 -> e4 meets a hidden Stealth Pawn on e3, stops
    and takes it."""
    state = pos(KINGS + "piece B FP e2 G\npiece W SHP e3 G moved", movement_type="standard_chess")
    assert dests(state, "e2") == {"e3", "e4"}
    after = play(state, "MV:FP(2,5)->(4,5)")
    assert ("B", "FP", "e3") in where(after) and ("W", "SHP", "e3") not in where(after)


def test_m2_1_capture_plays():
    """03/M2.1.1, M0.10: SC W Pawn e9 takes the B Destroyer on d8 ((1,1) for White is d8)."""
    state = pos("to-move W\n" + KINGS + "piece W FP e9 G\npiece B DS d8 G",
                movement_type="standard_chess")
    after = play(state, "MV:FP(9,5)->(8,4)")
    assert ("W", "FP", "d8") in where(after) and ("B", "DS", "d8") not in where(after)


# -- 03/M3.1 Mass Destruction Pawn ------------------------------------------------------------

@pytest.mark.parametrize("variant", ["all_sides_and_forward", "all_forward",
                                     "all_but_directly_ahead"])
@pytest.mark.parametrize("side,at", [("B", "e2"), ("W", "e9"), ("B", "a5"), ("W", "a5")])
def test_m3_1_pawn_variants_move_and_take_on_the_same_squares(variant, side, at):
    """03/M3.1.1-M3.1.5, M0.1: every on-board square of the variant is a destination when
    empty and when a visible enemy stands there; the starting square gives no 2-square move
    (M3.1.2); a friendly Pawn (no Coexistence) on one of them removes it."""
    offs = MD["pawn"][variant]["move_or_capture"]
    foe = "W" if side == "B" else "B"
    squares = [s for s in (to_square(side, sq(at), o) for o in offs) if on_board(*s)]
    want = {name(*s) for s in squares}
    opts = {"movement_type": "mass_destruction_chess", "md_pawn_variant": variant}
    text = f"to-move {side}\n{KINGS}piece {side} FP {at} G"
    assert dests(pos(text, **opts), at) == want
    foes = "".join(f"\npiece {foe} DS {name(*s)} G" for s in squares)
    assert dests(pos(text + foes, **opts), at) == want
    friend = f"\npiece {side} RP {name(*squares[0])} G moved"
    assert dests(pos(text + friend, **opts), at) == want - {name(*squares[0])}


def test_m3_1_1_md_pawn_takes_straight_ahead():
    """03/M3.1.1, M3.1.3, M0.10, RUL-27: MD B Pawn e4 ('all sides and forward') takes the W
    Destroyer on e5, and sideways the W Pawn on d4; on e10 it keeps d10 and f10."""
    opts = {"movement_type": "mass_destruction_chess"}
    state = pos(KINGS + "piece B FP e4 G moved\npiece W DS e5 G", **opts)
    after = play(state, "MV:FP(4,5)->(5,5)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "FP", "e5")}
    state = pos(KINGS + "piece B FP e4 G moved\npiece W RP d4 G moved", **opts)
    after = play(state, "MV:FP(4,5)->(4,4)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "FP", "d4")}
    # RUL-27 (no promotion): on the last rank only the sideways squares remain
    assert dests(pos(KINGS + "piece B FP e10 G moved", **opts), "e10") == {"d10", "f10"}


# -- King, Bulldozer, Destroyer, AAA (03/M2.2-M2.5, M3.2-M3.5) -------------------------------

@pytest.mark.parametrize("mt", list(TYPES))
@pytest.mark.parametrize("kind,key", [("K", "primary_government"), ("DS", "destroyer"),
                                      ("AAA", "aaa"), ("DO", "bulldozer")])
def test_m2_2_m2_5_m3_2_m3_5_one_step_pieces(mt, kind, key):
    """03/M2.2.1, M2.3-M2.5, M3.2-M3.5, M0.7: 8 neighbours from the file for both sides; a
    visible enemy on one is taken only by the King (combat flag of the file)."""
    entry = TYPES[mt][key]
    offs = entry["offsets"] if "offsets" in entry else entry["plain_move"]["offsets"]
    for side in ("B", "W"):
        foe = "W" if side == "B" else "B"
        ring = {name(*to_square(side, sq("e5"), o)) for o in offs}
        text = f"to-move {side}\npiece B K j1 G\npiece W K a10 G\n" \
               f"piece {side} {kind} e5 G\npiece {foe} RP e6 G moved"
        got = dests(pos(text, movement_type=mt), "e5", kind=kind)
        assert got == (ring if entry["combat"] else ring - {"e6"})
    assert entry["combat"] is (kind == "K")


@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_3_m3_3_bulldozer_nudges(mt):
    """03/M2.3, M3.3, M1.3.3-M1.3.9, RUL-26: nudging is unchanged: DO+FP on e4 with a Pawn on
    d5 may shift north-east as a group, and the nudge never takes."""
    state = pos(KINGS + "piece B DO e4 G\npiece B FP e4 G moved\npiece B SP d5 G moved",
                movement_type=mt)
    after = play(state, "MV:DO(4,5)->(5,6),DO>(5,6)FP(4,5),SP(5,4)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "DO", "f5"),
                            ("B", "FP", "f5"), ("B", "SP", "e6")}


# -- Sub and Jet (03/M2.6, M2.7, M3.6, M3.7) ------------------------------------------------------

COMBAT_OPTS = {
    "standard_chess": {"movement_type": "standard_chess", "sub_jet_combat": True},
    "mass_destruction_chess": {"movement_type": "mass_destruction_chess", "sub_jet_combat": True,
                               "move_only": True},
}
PLAIN_OPTS = {
    "standard_chess": {"movement_type": "standard_chess"},
    "mass_destruction_chess": {"movement_type": "mass_destruction_chess", "move_only": True},
}


@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_6_m3_6_sub_moves_as_m1(mt):
    """03/M2.6.1, M3.6.1, M1.6.2: 8 steps on its level plus dive or surface (offsets file)."""
    offs = TYPES[mt]["sub"]["horizontal"]["offsets"]
    ring = {name(*to_square("B", sq("e5"), o)) for o in offs}
    assert ring == set(RING)
    g = pos(KINGS + "piece B SU e5 G", movement_type=mt)
    assert dests(g, "e5") == ring | {"e5v"}
    s = pos(KINGS + "piece B SU e5 S", movement_type=mt)
    assert dests(s, "e5", "S") == {x + "v" for x in ring} | {"e5"}


@pytest.mark.parametrize("mt", list(TYPES))
@pytest.mark.parametrize("combat", [False, True])
def test_m2_6_2_m3_6_2_sub_combat_option(mt, combat):
    """03/M2.6.2, M3.6.1, M3.6.2, M1.6.3: a B Sub on e5 S sees (Torpedo Launcher, distance 1)
    a W Sub on f6 S and has a W Pawn above it on e5 G. Non-combat: neither cell is a
    destination. Combat: both are, and surfacing takes the Pawn."""
    opts = (COMBAT_OPTS if combat else PLAIN_OPTS)[mt]
    state = pos(KINGS + "piece B SU e5 S\npiece W SU f6 S\npiece W RP e5 G moved", **opts)
    base = {x + "v" for x in RING if x != "f6"}
    assert dests(state, "e5", "S") == (base | {"f6v", "e5"} if combat else base)
    if combat:
        after = play(state, "MV:SUv(5,5)->(5,5)")
        assert ("B", "SU", "e5") in where(after) and ("W", "RP", "e5") not in where(after)
        after = play(state, "MV:SUv(5,5)->v(6,6)")
        assert ("B", "SU", "f6v") in where(after) and ("W", "SU", "f6v") not in where(after)


def test_m2_6_2_sub_dive_takes():
    """03/M2.6.2: a combat Sub on e5 G dives onto the (detected) W Sub on e5 S and takes it."""
    state = pos(KINGS + "piece B SU e5 G\npiece W SU e5 S", **COMBAT_OPTS["standard_chess"])
    assert "e5v" in dests(state, "e5")
    after = play(state, "MV:SU(5,5)->v(5,5)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "SU", "e5v")}


def test_rul25_combat_sub_carrying_a_passenger_does_not_take():
    """RUL-25, 01/R15.4, 03/M2.6.2, T31: a combat Sub alone may step onto the W Pawn on b2; with
    the Bulldozer aboard it may not (only a Chopper captures while carrying); diving with it
    stays legal."""
    state = pos("piece B K j1 G\npiece B SU b1 G\npiece B DO b1 G\npiece W K j10 G\n"
                "piece W SP b2 G moved", **COMBAT_OPTS["standard_chess"])
    sub = moves(state, "b1", kind="SU")
    alone = {name(m.row, m.col, m.level) for m in sub if m.passenger is None}
    carried = {name(m.row, m.col, m.level) for m in sub if m.passenger is not None}
    assert alone == {"a2", "b2", "c2", "a1", "c1", "b1v"}
    assert carried == {"a2", "c2", "a1", "c1", "b1v"}


def test_m3_6_1_md_sub_without_move_only_is_non_combat():
    """03/M3.6.1, M3.0.4: under Mass Destruction without Move-Only there is no combat option,
    so the Sub never takes (the W Pawn's square d6 is not a destination)."""
    state = pos(KINGS + "piece B SU e5 G\npiece W RP d6 G moved",
                movement_type="mass_destruction_chess")
    assert dests(state, "e5") == (set(RING) - {"d6"}) | {"e5v"}


@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_7_1_m3_7_1_jet_moves_as_m1(mt):
    """03/M2.7.1, M3.7.1, M1.7.3, A-13: launch only from the Ground; in the Air, land in place
    or 1 or 2 squares along the 8 lines (offsets file's recommended set)."""
    air = TYPES[mt]["jet"]["air_moves_recommended"]
    assert TYPES[mt]["jet"]["ground_moves"] == []
    want = {name(*to_square("W", sq("e5"), o), "A")
            for o in air["one_square"] + air["two_squares_straight"]}
    assert dests(pos("to-move W\n" + KINGS + "piece W JE e5 G", movement_type=mt), "e5") == \
        {"e5^"}
    assert dests(pos("to-move W\n" + KINGS + "piece W JE e5 A", movement_type=mt), "e5", "A") == \
        want | {"e5"}


@pytest.mark.parametrize("mt", list(TYPES))
@pytest.mark.parametrize("combat", [False, True])
def test_m2_7_2_m3_7_2_jet_combat_option(mt, combat):
    """03/M2.7.2, M3.7.2, M1.7.4, M1.7.5: B Jet e5 A; W Jets on f6 A (1 square) and e7 A
    (2 squares), W Pawn on e5 G. With combat: f6 A and the landing on e5 are destinations,
    e7 A is not (2-square moves never take); g7 A lies behind f6 and stays blocked. Without
    combat none of the three."""
    opts = (COMBAT_OPTS if combat else PLAIN_OPTS)[mt]
    state = pos(KINGS + "piece B JE e5 A\npiece W JE f6 A\npiece W JE e7 A\n"
                "piece W RP e5 G moved", **opts)
    air = MD["jet"]["air_moves_recommended"]
    every = {name(*to_square("B", sq("e5"), o), "A")
             for o in air["one_square"] + air["two_squares_straight"]}
    base = every - {"f6^", "e7^", "g7^"}
    assert dests(state, "e5", "A") == (base | {"f6^", "e5"} if combat else base)
    if combat:
        after = play(state, "MV:JE^(5,5)->^(6,6)")
        assert ("B", "JE", "f6^") in where(after) and ("W", "JE", "f6^") not in where(after)
        after = play(state, "MV:JE^(5,5)->(5,5)")
        assert ("B", "JE", "e5") in where(after) and ("W", "RP", "e5") not in where(after)


def test_m2_7_2_jet_launch_takes():
    """03/M2.7.2: a combat Jet on e5 G launches onto the W Jet in e5's Air and takes it."""
    state = pos(KINGS + "piece B JE e5 G\npiece W JE e5 A", **COMBAT_OPTS["standard_chess"])
    assert dests(state, "e5") == {"e5^"}
    after = play(state, "MV:JE(5,5)->^(5,5)")
    assert where(after) == {("B", "K", "j1"), ("W", "K", "a10"), ("B", "JE", "e5^")}
    plain = pos(KINGS + "piece B JE e5 G\npiece W JE e5 A", movement_type="standard_chess")
    assert dests(plain, "e5") == set()


# -- Chopper (03/M2.10, M3.10) -------------------------------------------------------------------

@pytest.mark.parametrize("side", ["B", "W"])
@pytest.mark.parametrize("hand", [">", "<"])
@pytest.mark.parametrize("level", ["G", "A"])
@pytest.mark.parametrize("mt", list(TYPES))
def test_m2_10_m3_10_chopper_destinations_every_square(mt, level, hand, side):
    """03/M2.10.1, M3.10.1, M1.10.2, M0.1, M0.2: the Chopper reaches exactly its 8 offsets of
    the offsets file that are on the board, from the Ground on the Ground or in the Air, from
    the Air on the Ground; Standard Chess hands are identical."""
    entry = TYPES[mt]["chopper"][HANDS[hand]]
    levels = ["G", "A"] if level == "G" else ["G"]
    assert entry["levels"]["from_ground" if level == "G" else "from_air"] == \
        [{"G": "ground", "A": "air"}[lv] for lv in levels]
    wrong = []
    for origin in SQUARES:
        targets = {to_square(side, origin, off) for off in entry["destinations"]}
        near = {(origin[0] + a, origin[1] + b) for a in range(-2, 3) for b in range(-2, 3)}
        state = position(side, [f"piece {side} CH{hand} {name(*origin)} {level}"],
                         targets | near, movement_type=mt)
        want = {name(r, c, lv) for r, c in targets if on_board(r, c) for lv in levels}
        got = dests(state, name(*origin), level)
        if got != want:
            wrong.append((name(*origin), sorted(got), sorted(want)))
    assert wrong == []


def test_m2_10_2_chopper_does_not_jump_like_a_knight():
    """03/M2.10.2, M1.10.3: SC Chopper e4 G: Ground and Air of d5, e5, f5 filled, so the
    forward knight squares d6 and f6 (routes through row 5 only) are unreachable, the others
    stay; a chess knight would jump."""
    text = KINGS + "piece B CH> e4 G\n" + "".join(
        f"piece B DS {s} G\npiece B JE {s} A\n" for s in ("d5", "e5", "f5"))
    got = dests(pos(text, movement_type="standard_chess"), "e4", kind="CH")
    want = {"c5", "g5", "c3", "g3", "d2", "f2"}
    assert got == want | {s + "^" for s in want}


def test_m3_10_2_three_step_route_hops_over_ground_pieces():
    """03/M3.10.1, M3.10.2, M1.10.3: MD right Chopper e4 G reaches f7 (1,3) by 3 king steps,
    each one square closer: through row 5 (d5, e5 or f5), then row 6 (e6, f6 or g6). Ground
    pieces on d5, e5, f5 leave the Air route; Air pieces there too make f7 unreachable; a
    4-step detour round c5 or g5 is not a route."""
    opts = {"movement_type": "mass_destruction_chess"}
    base = KINGS + "piece B CH> e4 G\n"
    assert {"f7", "f7^"} <= dests(pos(base, **opts), "e4", kind="CH")
    ground = "".join(f"piece B DS {s} G\n" for s in ("d5", "e5", "f5"))
    assert {"f7", "f7^"} <= dests(pos(base + ground, **opts), "e4", kind="CH")
    air = "".join(f"piece B JE {s} A\n" for s in ("d5", "e5", "f5"))
    got = dests(pos(base + ground + air, **opts), "e4", kind="CH")
    assert "f7" not in got and "f7^" not in got
    row6 = "".join(f"piece B DS {s} G\npiece B JE {s} A\n" for s in ("e6", "f6", "g6"))
    got = dests(pos(base + row6, **opts), "e4", kind="CH")
    assert "f7" not in got and "f7^" not in got
    assert "c6" in got                                      # (-2,2) through d5


def test_m3_10_2_rul23_chopper_stops_at_hidden_piece_on_a_three_step_route():
    """03/M0.11, M3.10.2, RUL-23, RUL-44: MD right Chopper e4 G -> f7 G. Friendly pieces fill
    d5 G, f5 G and the Air of d5, e5, f5, so every route the mover sees as free passes e5 G,
    where a hidden Stealth Pawn stands: the Chopper stops on e5 and takes it."""
    text = KINGS + "piece B CH> e4 G\npiece W SHP e5 G moved\n" + \
        "piece B DS d5 G\npiece B DS f5 G\n" + \
        "".join(f"piece B JE {s} A\n" for s in ("d5", "e5", "f5"))
    state = pos(text, movement_type="mass_destruction_chess")
    assert "f7" in dests(state, "e4", kind="CH")
    after = play(state, "MV:CH(4,5)>->(7,6)")
    assert ("B", "CH>", "e5") in where(after) and ("W", "SHP", "e5") not in where(after)


def test_m3_10_2_rul22_md_chopper_must_land():
    """RUL-22, 03/M3.10.2, M1.10.2: an airborne MD Chopper's Moves end on the Ground and are
    the only Moves offered: right Chopper e4 A -> f7, c6, g6, b5, h3, c2, g2, d1."""
    state = pos(KINGS + "piece B CH> e4 A", movement_type="mass_destruction_chess")
    assert all_moves(state) == {f"e4^->{s}" for s in
                                ("f7", "c6", "g6", "b5", "h3", "c2", "g2", "d1")}


# -- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("opts", [
    {"movement_type": "standard_chess", "sub_jet_combat": True},
    {"movement_type": "mass_destruction_chess", "md_pawn_variant": "all_but_directly_ahead"},
    {"movement_type": "mass_destruction_chess", "move_only": True, "sub_jet_combat": True},
])
def test_02_d1_random_games_save_and_replay(opts):
    """02/D1, 04/H1: seeded random play from the standard set-up under each movement type;
    every Move offered is accepted, and the saved game reloads to the same state."""
    rng = random.Random(7)
    s = api.new_game(Options(**opts))
    for _ in range(60):
        legal = api.legal_actions(s)
        if not legal:
            break
        s = api.apply_action(s, rng.choice(legal))
    assert api.state_hash(api.loads(api.dumps(s))) == api.state_hash(s)
    assert any(isinstance(a, Move) for a in api.legal_actions(api.new_game(Options(**opts))))
