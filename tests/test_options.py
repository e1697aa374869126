"""Pre-game options: defaults, validation, round trips, and the effect of changing each one.

02/D1-D29, RUL-38 (every default), 01/§20 O1-O10, R20.1-R20.2, 01/R18.1-R18.4 (as far as the
engine goes: the censored history is engine/view.py's), 01/R19.2-R19.4 (editor positions),
01/R21.1-R21.7 (standard game), 04/N12, RUL-53. Options exercised in test_visibility.py and
test_transport.py (invisibility, detection, reveals, transport, nudging) are only listed here.
"""
from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import pytest

from engine import api
from engine.errors import GameOverError, RuleError, SaveError
from engine.options import Options
from engine.visibility import hidden_from
from engine_helpers import at, legal, one, play, pos, refused

KINGS = "piece B K j1 G\npiece W K j10 G\n"


# -- defaults (02/D1-D29, RUL-38) -----------------------------------------------------------------

DEFAULTS: list[tuple[str, dict[str, Any]]] = [
    ("02/D1", {"movement_type": "weaponized_chess"}),
    ("02/D2", {"stealth_invisibility": True}),
    ("02/D3", {"submerged_invisibility": True}),
    ("02/D4", {"reveal_stealth_on_fire": True}),
    ("02/D5", {"stealth_lock_on": True}),
    ("02/D6", {"reveal_stealth_on_capture": True}),
    ("02/D7", {"reveal_submerged_on_fire": True}),
    ("02/D8", {"submerged_detect_range": 3}),
    ("02/D9", {"gov_black": "monarchy", "gov_white": "monarchy"}),
    ("02/D10", {"reinforcement_layout": "standard"}),
    ("02/D13", {"restricted_rocket_range": 0}),
    ("02/D14", {"stealth_range_detection": False, "stealth_detect_range": 3}),
    ("02/D15", {"submerged_detect_range": 3}),
    ("02/D16", {"homing_range": 3}),
    ("02/D17", {"stun_range": 9}),
    ("02/D18", {"stun_duration": 3}),
    ("02/D19", {"flamer_range": 1}),
    ("02/D20", {"enemy_nudging": True}),
    ("02/D21", {"stealthy_primary_allowed": False, "primary_may_fly_or_dive": True}),
    ("02/D22", {"transport_ground_to_ground_only": True}),
    ("02/D23", {"one_action_per_piece": False, "move_only": False}),
    ("02/D24", {"competitive": False}),
    ("02/D25", {"rate_stunner": 2}),
    ("02/D26", {"rate_flamer": 4}),
    ("02/D27", {"rate_conversion": 4}),
    ("02/D28", {"rate_rocket": 4, "rate_sam": 4, "rate_torpedo": 4}),
    ("RUL-21", {"tank_range": 7, "cleric_range": 7, "queen_tank_range": 7,
                "queen_cleric_range": 7}),
    ("RUL-38 sub_jet_combat", {"sub_jet_combat": False}),
    ("RUL-15", {"projectile_speed": 1}),
    ("RUL-4", {"fire_limit_rule": "per_source"}),
    ("RUL-18", {"detection_dominance": "submerge"}),
    ("RUL-30/31", {"bike_distance": 1, "transport_max_distance": 3, "transport_speed": 1}),
    ("RUL-11", {"stunned_may_act": True}),
    ("RUL-22", {"chopper_must_land_next_turn": True}),
    ("RUL-24", {"coexistence_set": "union"}),
    ("RUL-32", {"handedness_scheme": "inward"}),
    ("RUL-53", {"ply_limit": 0}),
]


@pytest.mark.parametrize("rule, values", DEFAULTS, ids=[d[0] for d in DEFAULTS])
def test_default_value_02_D1_D29_RUL_38(rule: str, values: dict[str, Any]) -> None:
    """02/D1-D29 and RUL-38: Options() holds the consolidated default of every option."""
    o = Options()
    assert {k: getattr(o, k) for k in values} == values


def test_every_option_has_a_listed_default_RUL_38() -> None:
    """RUL-38: the default table above covers every option field the engine has, except the
    Mass Destruction Pawn variant that belongs to the movement types."""
    listed = {k for _, values in DEFAULTS for k in values}
    assert set(Options().to_dict()) - listed <= {"md_pawn_variant"}


def test_new_game_with_default_options_is_the_standard_game_02_D11_D12_R21_4() -> None:
    """02/D11, D12, 02/§3.3, 01/R21.4: the standard game lays the 68 articles of the map,
    among them 4 XXX, all unowned, at most 2 per square."""
    s = api.new_game()
    codes = Counter(s.art_code[a] for aids in s.ground.values() for a in aids)
    assert codes == {"TL": 8, "SL": 8, "SH": 6, "ASH": 6, "ATL": 4, "ASL": 4, "BI": 4, "JP": 4,
                     "SC": 4, "XXX": 4, "FL": 2, "ST": 2, "CS": 2, "RL": 2, "AFL": 2, "AST": 2,
                     "ACS": 2, "ARL": 2}
    assert not any(p.arts for p in s.pieces.values())
    assert max(len(a) for a in s.ground.values()) == 2


# -- validation and round trips -------------------------------------------------------------------

@pytest.mark.parametrize("data, named", [
    ({"no_such_option": 1}, "no_such_option"),
    ({"tank_range": 9}, "tank_range"),
    ({"stun_duration": 0}, "stun_duration"),
    ({"bike_distance": 4}, "bike_distance"),
    ({"transport_max_distance": 10}, "transport_max_distance"),
    ({"ply_limit": -1}, "ply_limit"),
    ({"detection_dominance": "radar"}, "detection_dominance"),
    ({"gov_white": "anarchy"}, "gov_white"),
    ({"movement_type": "checkers"}, "movement_type"),
    ({"competitive": 1}, "competitive"),
    ({"homing_range": True}, "homing_range"),
    ({"rate_sam": "4"}, "rate_sam"),
])
def test_from_dict_rejects_naming_the_option(data: dict[str, Any], named: str) -> None:
    """Options.from_dict refuses unknown or out-of-range options, naming the option."""
    with pytest.raises(ValueError, match=named):
        Options.from_dict(data)


def test_from_dict_rejects_a_non_mapping() -> None:
    """Options.from_dict refuses anything but a mapping."""
    with pytest.raises(ValueError, match="mapping"):
        Options.from_dict([("tank_range", 7)])  # type: ignore[arg-type]


def test_to_dict_from_dict_round_trip() -> None:
    """to_dict/from_dict round-trip, through JSON too, for the defaults and for a changed set;
    a partial dict fills in the defaults."""
    changed = Options(gov_black="democracy", stun_range=4, detection_dominance="stealth",
                      bike_distance=3, competitive=True, ply_limit=600,
                      stealth_range_detection=True)
    for o in (Options(), changed):
        assert Options.from_dict(o.to_dict()) == o
        assert Options.from_dict(json.loads(json.dumps(o.to_dict()))) == o
    assert Options.from_dict({"stun_range": 4}) == Options(stun_range=4)
    assert Options.from_dict({}) == Options()
    assert Options().replace(flamer_range=2) == Options(flamer_range=2)


def test_options_of_a_game_cannot_be_changed_in_place_01_R18_2() -> None:
    """01/R18.2 (as far as the engine goes): a game's options are one frozen value."""
    s = api.new_game(Options(competitive=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.options.competitive = False  # type: ignore[misc]


# -- modes and undo (01/R18, 02/D24) --------------------------------------------------------------

def test_competitive_locks_undo_01_R18_1_R18_2_R18_4_02_D24() -> None:
    """01/R18.1, 02/D24: a new game is non-competitive and undo works (01/R18.4); in a
    competitive game undo is refused naming 02/D24."""
    s = api.new_game()
    assert s.options.competitive is False
    first = api.legal_actions(s)[0]
    after = api.apply_action(s, first)
    assert api.state_hash(api.undo(after)) == api.state_hash(s)
    c = api.new_game(Options(competitive=True))
    after = api.apply_action(c, api.legal_actions(c)[0])
    with pytest.raises(RuleError) as info:
        api.undo(after)
    assert info.value.rule == "02/D24"


# -- the effect of each option (01/§20, 02/§4) ---------------------------------------------------

def test_government_option_per_side_02_D9() -> None:
    """02/D9, 01/R2.5: each side chooses its own government; White's Theocracy puts the
    Avatollah (primary, 'AV') on f10 and the Acolyte ('AC', secondary) on e10, while Black
    keeps King e1 and Queen f1."""
    s = api.new_game(Options(gov_white="theocracy"))
    assert [s.pieces[x].kind for x in s.at(10, 6, "G")] == ["AV"]
    assert [s.pieces[x].kind for x in s.at(10, 5, "G")] == ["AC"]
    assert [s.pieces[x].kind for x in s.at(1, 5, "G")] == ["K"]
    assert [s.pieces[x].kind for x in s.at(1, 6, "G")] == ["Q"]


@pytest.mark.parametrize("movement", ["weaponized_chess", "standard_chess",
                                      "mass_destruction_chess"])
def test_movement_type_choices_02_D1(movement: str) -> None:
    """02/D1: the three movement types are accepted (their moves: tests/test_movetypes.py)."""
    assert Options.from_dict({"movement_type": movement}).movement_type == movement


def test_restricted_rocket_range_02_D13_01_S20_O5() -> None:
    """02/D13, RUL-17, O5: the Jet's restricted rocket reaches only the Ground directly below at
    range 0; at range 1 also the neighbouring Ground cells; the Sub follows the same option."""
    targets = "piece W RP e5 G\npiece W RP f6 G\npiece W RP h8 G\n"
    for firer, desc in (("JE e5 A", "JE^(5,5)"), ("SU e5 S", "SUv(5,5)")):
        text = KINGS + f"piece B {firer}\n" + targets
        want0 = {f"FI:RL/{desc}=>RP(5,5)"}
        want1 = want0 | {f"FI:RL/{desc}=>RP(6,6)"}
        got0 = {a for a in legal(pos(text)) if a.startswith("FI:RL/") and "=>" in a}
        got1 = {a for a in legal(pos(text, restricted_rocket_range=1))
                if a.startswith("FI:RL/") and "=>" in a}
        assert (got0, got1) == (want0, want1), firer


def test_homing_range_option_02_D16() -> None:
    """02/D16, A-10: a Jet at distance 4 becomes a legal homing target with homing_range 4."""
    text = KINGS + "piece B AAA e4 G\npiece W JE e8 A\n"
    assert not any("=>" in a for a in legal(pos(text)))
    assert "FI:SL/AAA(4,5)=>JE^(8,5)" in legal(pos(text, homing_range=4))


def test_stun_range_and_duration_02_D17_D18() -> None:
    """02/D17: the stun ray reaches the Pawn 4 squares away by default (range 9) but not with
    stun_range 3; 02/D18: the stun lasts stun_duration (3 by default, 1 when set)."""
    text = KINGS + "piece B SP e2 G\npiece W RP e6 G\n"
    assert play(pos(text), "FI:ST/SP(2,5)->(3,5)").pieces[4].stun == 3
    assert play(pos(text, stun_range=3), "FI:ST/SP(2,5)->(3,5)").pieces[4].stun == 0
    assert play(pos(text, stun_duration=1), "FI:ST/SP(2,5)->(3,5)").pieces[4].stun == 1


def test_flamer_range_02_D19() -> None:
    """02/D19, RUL-9: at range 1 the flame burns only the adjacent square (e5); at range 2 also
    e6. Rocket Pawns have no Anti-Flamer."""
    text = KINGS + "piece B TA> e4 G\npiece W RP e5 G\npiece W RP e6 G\n"
    assert sorted(play(pos(text), "FI:FL/TA(4,5)>->(5,5)").pieces) == [1, 2, 3, 5]
    assert sorted(play(pos(text, flamer_range=2), "FI:FL/TA(4,5)>->(5,5)").pieces) == [1, 2, 3]


def test_primary_may_fly_or_dive_01_S20_O3_02_D21() -> None:
    """01/§20 O3, 02/D21 (docs/rulings.md M-5): by default a Chopper may lift the King; with
    primary_may_fly_or_dive off it may carry it only at Ground level."""
    text = "piece B K e5 G\npiece B CH> e5 G\npiece W K j10 G\n"
    air, ground = "MV:CH(5,5)>->^(7,6)-TRA->K(5,5)^(7,6)", "MV:CH(5,5)>->(7,6)-TRA->K(5,5)(7,6)"
    assert {air, ground} <= legal(pos(text))
    off = legal(pos(text, primary_may_fly_or_dive=False))
    assert ground in off and air not in off


def test_stealthy_primary_allowed_01_S20_O4() -> None:
    """01/§20 O4, 02/D21: see 00/T37 (tests/test_scenarios_hidden.py); with the option on a
    King holding SH is hidden."""
    assert hidden_from(pos("piece B K j1 G SH\npiece W K j10 G\n", stealthy_primary_allowed=True),
                       "W") == {1}


def test_move_only_01_S20_O6_02_D23() -> None:
    """01/§20 O6, 02/D23: with move_only, a piece holding a weapon and standing on an article
    is offered Moves only."""
    text = KINGS + "piece B SP e2 G ST\narticle FL e2\n"
    acts = legal(pos(text, move_only=True))
    assert acts and all(a.startswith("MV:") for a in acts)
    assert any(a.startswith(("FI:", "PU:", "DR:")) for a in legal(pos(text)))


@pytest.mark.parametrize("option, first_again", [({}, 5), ({"rate_stunner": 1}, 3),
                                                 ({"rate_stunner": 3}, 7)])
def test_rate_of_fire_stunner_02_D25_D29_01_S20_O10(option: dict[str, int],
                                                    first_again: int) -> None:
    """02/D25, D29, O10: a Stunner fired at ply 1 (own turn 1, counting as the first turn of the
    countdown) may fire again from own turn 1 + rate: ply 5 for rate 2, ply 3 for 1, ply 7 for 3."""
    s = play(pos(KINGS + "piece B SP e2 G\n", **option), "FI:ST/SP(2,5)->(3,5)")
    for ply in range(1, 9, 2):
        if ply > 1:
            assert s.ply == ply
            offered = "FI:ST/SP(2,5)->(3,5)" in legal(s)
            assert offered == (ply >= first_again), ply
        col = s.pieces[1].col
        s = play(s, f"MV:K(1,{col})->(1,{19 - col})", "END")
        wcol = s.pieces[2].col
        s = play(s, f"MV:K(10,{wcol})->(10,{19 - wcol})", "END")


@pytest.mark.parametrize("weapon, text, fire", [
    ("rate_flamer", "piece B TA> e3 G", "FI:FL/TA(3,5)>->(4,5)"),
    ("rate_conversion", "piece B CL< e3 G", "FI:CS/CL(3,5)<->(4,5)"),
    ("rate_rocket", "piece B RP e3 G", "FI:RL/RP(3,5)->(4,4)"),
    ("rate_sam", "piece B AAA e3 G", "FI:SL/AAA(3,5)->(4,5)"),
    ("rate_torpedo", "piece B DS e3 G", "FI:TL/DS(3,5)->(4,5)"),
])
def test_rates_of_fire_four_by_default_02_D26_D27_D28(weapon: str, text: str, fire: str) -> None:
    """02/D26-D28, RUL-6: Flamer, Conversion, Rocket, SAM and Torpedo wait 4 own turns: fired
    at ply 1, refused at ply 7 (RUL-6), offered at ply 9; with the rate set to 1, at ply 3."""
    s = play(pos(KINGS + text + "\n"), fire)
    for _ in range(3):
        s = _kings(s)
    assert s.ply == 7 and fire not in legal(s)
    refused(s, fire, "RUL-6")
    s = _kings(s)
    assert s.ply == 9 and fire in legal(s)
    s = _kings(play(pos(KINGS + text + "\n", **{weapon: 1}), fire))
    assert s.ply == 3 and fire in legal(s)


def _king(state: api.GameState) -> str:
    side = state.side_to_move
    k = next(p for p in state.pieces.values() if p.side == side and p.kind == "K")
    row = 1 if side == "B" else 10
    return f"MV:K({row},{k.col})->({row},{19 - k.col})"


def _kings(state: api.GameState) -> api.GameState:
    """One Black and one White King shuffle (j <-> i file), ending two plies later."""
    if not state.turn.moved:
        state = play(state, _king(state))
    state = play(state, "END")
    return play(state, _king(state), "END")


def test_fire_limit_rule_per_piece_RUL_4() -> None:
    """RUL-4 option fire_limit_rule: per_source (default) lets a Tank fire its inherent Flamer
    and its Stunner article in one turn; per_piece allows one Fire per piece."""
    text = KINGS + "piece B TA> e3 G ST\n"
    s = play(pos(text), "FI:FL/TA(3,5)1ST>->(4,5)")
    assert "FI:ST/TA(3,5)1ST>->(4,5)" in legal(s)
    s = play(pos(text, fire_limit_rule="per_piece"), "FI:FL/TA(3,5)1ST>->(4,5)")
    assert not any(a.startswith("FI:") for a in legal(s))


def test_projectile_speed_RUL_15() -> None:
    """RUL-15 projectile_speed: a rocket created at e4 at ply 1 is on e5 after ply 2 by default,
    on e6 with speed 2 (two steps in the end phase)."""
    for speed, row in ((1, 5), (2, 6)):
        s = pos(KINGS + "piece B RP e3 G\n", projectile_speed=speed)
        s = _kings(play(s, "FI:RL/RP(3,5)->(4,5)"))
        assert [(p.row, p.col) for p in s.projectiles] == [(row, 5)], speed


def test_stunned_may_act_RUL_11() -> None:
    """RUL-11 stunned_may_act: a stunned Pawn may Drop its article by default, not when off."""
    text = KINGS + "piece B RP e3 G FL stun=2\n"
    assert "DR:RP(3,5)1FLvFL" in legal(pos(text))
    assert "DR:RP(3,5)1FLvFL" not in legal(pos(text, stunned_may_act=False))


def test_chopper_must_land_next_turn_RUL_22() -> None:
    """RUL-22: an airborne Chopper at the start of the turn must make the Move (a King Move is
    refused); with chopper_must_land_next_turn off the King may move."""
    text = KINGS + "piece B CH> e5 A\n"
    refused(pos(text), "MV:K(1,10)->(1,9)", "RUL-22")
    s = play(pos(text, chopper_must_land_next_turn=False), "MV:K(1,10)->(1,9)", "END")
    assert s.pieces[3].cell == (5, 5, "A")


@pytest.mark.parametrize("partner, union, overview, glossary", [
    ("JE", True, False, True), ("DO", True, True, False), ("DS", True, True, True),
    ("CL<", False, False, False)])
def test_coexistence_set_RUL_24(partner: str, union: bool, overview: bool,
                                glossary: bool) -> None:
    """RUL-24 coexistence_set: the King may step onto a friendly Jet's square under 'union' and
    'glossary' but not 'overview'; onto a Bulldozer's under 'union' and 'overview' only; onto a
    Destroyer's under all three; never onto a Cleric's (01/R5.4)."""
    text = f"piece B K e4 G\npiece B {partner} e5 G\npiece W K j10 G\n"
    for setting, allowed in (("union", union), ("overview", overview), ("glossary", glossary)):
        assert ("MV:K(4,5)->(5,5)" in legal(pos(text, coexistence_set=setting))) == allowed, \
            setting


def test_reinforcement_layout_none_RUL_33_02_D10() -> None:
    """RUL-33, 02/D10: reinforcement_layout none: nothing waits; standard: 20 squares."""
    assert api.new_game(Options(reinforcement_layout="none")).reinforcements == {}
    assert len(api.new_game().reinforcements) == 20


def test_ply_limit_draws_RUL_53() -> None:
    """RUL-53 ply_limit: a game still undecided at the end of ply 2 is drawn when the limit is 2;
    no action is accepted afterwards. 0 means no limit."""
    s = play(pos(KINGS, ply_limit=2), "MV:K(1,10)->(1,9)", "END", "MV:K(10,10)->(10,9)", "END")
    assert (s.result, api.outcome(s), s.ply) == ("draw", "draw", 2)
    with pytest.raises(GameOverError):
        play(s, "MV:K(1,9)->(1,10)")
    s = play(pos(KINGS), "MV:K(1,10)->(1,9)", "END", "MV:K(10,10)->(10,9)", "END")
    assert s.result is None and s.ply == 3


# -- board editor positions (01/R19.2-R19.4) -------------------------------------------------------

def test_editor_limits_two_articles_per_square_01_R19_2() -> None:
    """01/R19.2: at most 2 articles per square, at most 200 on a board."""
    with pytest.raises(SaveError, match="more than 2 articles"):
        pos(KINGS + "article FL e5\narticle ST e5\narticle CS e5\n")
    squares = [f"{f}{r}" for r in range(1, 11) for f in "abcdefghij"]
    many = "".join(f"article FL {sq}\narticle ST {sq}\n" for sq in squares[:99])
    assert len(pos(KINGS + many + "article CS j10\narticle CS j10\n").art_code) == 200
    with pytest.raises(SaveError, match="more than 200 articles"):
        pos(KINGS + "piece B TA> e4 G FL\n" + many + "article CS j10\narticle CS j10\n")


def test_editor_sets_stun_state_01_R19_4_RUL_3() -> None:
    """01/R19.4, RUL-3: the editor can set a stun counter; a position whose mover has no legal
    Move is accepted (RUL-3 keeps the check as a warning), and the turn ends without a Move."""
    s = pos("piece B K j1 G stun=2\npiece W K j10 G\n")
    assert s.pieces[1].stun == 2
    assert legal(s) == {"END"}
    s = play(s, "END")
    assert s.history == ("MV:-",)


# -- the standard game (01/R21, 02/§2.7) ----------------------------------------------------------

def test_standard_army_01_R21_1_R21_2_R21_5_R21_7() -> None:
    """01/R21.1 table: 10 Pawns, 2 each of Tank, Bulldozer, Sub, Chopper, Destroyer, AAA, Cleric,
    Jet, 1 primary, 1 secondary: 28 a side (02/§2.6; R21.1's "30 in total" contradicts its own
    table and 02, which takes precedence); R21.2: one Stealth Pawn, no SAM-and-Torpedo Pawn;
    R21.5: each Chopper shares its Ground cell with a Jet; R21.7: Black moves first."""
    s = api.new_game()
    pawns = {"RP", "FP", "SP", "CP", "XP", "SHP", "SOP"}
    for side in "BW":
        kinds = Counter(p.kind for p in s.pieces.values() if p.side == side)
        assert sum(kinds.values()) == 28
        assert sum(n for k, n in kinds.items() if k in pawns) == 10
        assert kinds["SHP"] == 1 and kinds["SOP"] == 0
        assert {k: kinds[k] for k in ("TA", "DO", "SU", "CH", "DS", "AAA", "CL", "JE", "K", "Q")} \
            == {"TA": 2, "DO": 2, "SU": 2, "CH": 2, "DS": 2, "AAA": 2, "CL": 2, "JE": 2, "K": 1,
                "Q": 1}
        for ch in (p for p in s.pieces.values() if p.side == side and p.kind == "CH"):
            assert sorted(s.pieces[x].kind for x in s.at(*ch.cell)) == ["CH", "JE"]
    assert all(p.level == "G" for p in s.pieces.values())
    assert api.side_to_move(s) == "black" and s.ply == 1


def test_standard_start_visibility_01_R21_6() -> None:
    """01/R21.6: at the start only the two AAAs of each side are hidden from the enemy (the
    Stealth Pawns are locked, the Subs are on the Ground)."""
    s = api.new_game()
    for side, enemy in (("B", "W"), ("W", "B")):
        assert sorted(s.pieces[x].kind for x in hidden_from(s, side)) == ["AAA", "AAA"]
        assert {s.pieces[x].side for x in hidden_from(s, side)} == {enemy}


# -- several primary pieces (04/N12, A-21) ---------------------------------------------------------

def test_losing_any_primary_piece_ends_the_game_04_N12_A_21() -> None:
    """04/N12, A-21: Black has two Kings; White's Rocket Pawn takes the one on e5 (its attack
    square ahead) and White wins although Black still has a King."""
    s = pos("to-move W\npiece B K a1 G\npiece B K e5 G\npiece W K j10 G\npiece W RP e6 G\n")
    s = play(s, "MV:RP(6,5)->(5,5)")
    assert s.result == "W" and s.end_reason == "primary government piece lost (RUL-2)"
    assert [p.kind for p in at(s, "a1")] == ["K"]


def test_mover_loses_when_its_own_primary_falls_too_04_N12_A_1() -> None:
    """04/N12, A-1, RUL-2: Black's Tank [FL], flamer_range 2, burns north with strength 2 (two
    Flamers) through its own King on e5 and White's on e6 (one Anti-Flamer each): both Kings
    fall in one event and the mover, Black, loses."""
    s = pos("piece B K e5 G\npiece B TA> e4 G FL\npiece W K e6 G\n", flamer_range=2)
    s = play(s, "FI:FL/TA(4,5)1FL>->(5,5)")
    assert not any(p.kind == "K" for p in s.pieces.values())
    assert s.result == "W"
    assert one(s, "e4", "TA").side == "B"
