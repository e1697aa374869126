"""Two partial states, one engine (issue 8 item 1; DESIGN §4; docs/hidden.md).

Each side's engine state holds its own pieces in full and, of the enemy, only what
``observe()`` shows (``engine.partial.partial_state``). Actions are resolved by the side that
makes them on its own partial state, the other side answering about its hidden pieces
(``PeerAnswerer``); the two sides then exchange ``Consequences`` and ``Shown``.

* Hand-laid positions: the exact pieces each side holds after a capture of a hidden piece
  (HQ-1), a Stunner ray on one (HQ-4), a nudge that moves one (HQ-3), a lock (HQ-11), a
  projectile of the owner's own hitting its own hidden piece (HQ-8), a hidden Sub's Moves
  (HQ-14, HQ-16), and what the messages carry.
* Seeded random games under five option sets that bring hiding into play: after every action
  each side's state equals ``partial_state`` of the omniscient state, holds no enemy piece
  hidden from it, and generates the same legal actions as the omniscient state.
"""
from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from typing import Any

import pytest

from engine import api
from engine.actions import EndTurn, Fire
from engine.errors import RuleError
from engine.partial import (Consequences, Opening, Side, enemy_hidden_held, known_diff,
                            known_key, partial_state, play)
from engine.rules import legal_actions
from engine.state import GameState, Piece
from engine.visibility import hidden_from
from engine_helpers import pos


def _start(state: GameState) -> dict[str, Side]:
    return {s: Side.from_omniscient(state, s) for s in "BW"}


Sent = list[dict[str, Consequences]]


def _act(omni: GameState, sides: dict[str, Side], *texts: str) -> tuple[GameState, Sent]:
    """Apply actions to the omniscient state and to both sides; check the invariant each time."""
    sent = []
    for text in texts:
        action = EndTurn() if text == "END" else api.parse_action(text)
        omni = api.apply_action(omni, action)
        sent.append(play(sides, action))
        for s in "BW":
            assert known_diff(sides[s].state, omni, s) == "", (text, s)
            assert enemy_hidden_held(sides[s].state, omni, s) == []
    return omni, sent


def _cells(side: Side) -> list[tuple[int, str, str, int, int, str]]:
    return sorted((p.sid, p.kind, p.side, p.row, p.col, p.level)
                  for p in side.state.pieces.values())


# -- partial_state -------------------------------------------------------------------------------

def test_partial_state_of_the_standard_start_rul_18() -> None:
    """RUL-18, 02/§2: Black's state holds its 28 pieces and 26 White ones: not the two stealthy
    AAAs (c9, h9; serials 46 and 54 as RUL-40 numbers the set-up), which White's own state
    holds; the ground and reinforcements are the same for both (RUL-50 b)."""
    omni = api.new_game()
    black, white = partial_state(omni, "B"), partial_state(omni, "W")
    assert len(black.pieces) == 54 and len(white.pieces) == 54
    assert {s for s in omni.pieces if s not in black.pieces} == {46, 54}
    assert [(omni.pieces[s].kind, omni.pieces[s].square) for s in (46, 54)] == \
        [("AAA", (9, 8)), ("AAA", (9, 3))]
    assert {s for s in omni.pieces if s not in white.pieces} == {18, 26}
    assert black.ground == white.ground == omni.ground
    assert black.reinforcements == omni.reinforcements


def test_partial_state_keeps_the_locks_of_held_sources_rul_19() -> None:
    """RUL-19: at the standard start the two Stealth Pawns (serials 21 on e2 and 49 on f9) lock
    each other; both sources are on both sides' boards, so both states keep both locks."""
    omni = api.new_game()
    assert omni.locks == {("p", 21): 49, ("p", 49): 21}
    assert partial_state(omni, "B").locks == partial_state(omni, "W").locks == omni.locks


def test_partial_state_forgets_what_a_hidden_piece_gives_away_rul_50() -> None:
    """RUL-50 (b), RUL-7, RUL-6: a hidden White Flamer Pawn [SH] hit this turn, with its Stealth
    article: Black's state holds neither the piece, nor its hit counter, nor its article's
    countdown; the visible Stunner Pawn's counter and the ground article stay."""
    omni = pos("piece B K j1 G\npiece W K j10 G\npiece W FP d7 G SH\npiece W SP f7 G\n"
               "article AFL c5\n")
    fp = next(p for p in omni.pieces.values() if p.kind == "FP")
    sp = next(p for p in omni.pieces.values() if p.kind == "SP")
    omni.hits = {fp.sid: (("FL", 1),), sp.sid: (("ST", 1),)}
    omni.art_ready = {fp.arts[0]: 9}
    black = partial_state(omni, "B")
    assert fp.sid not in black.pieces and sp.sid in black.pieces
    assert black.hits == {sp.sid: (("ST", 1),)}
    assert black.art_ready == {}
    assert list(black.ground.values()) == list(omni.ground.values())
    assert partial_state(omni, "W").hits == omni.hits
    assert known_key(black, "B") == known_key(omni, "B")
    key = known_key(omni, "B")
    omni.hits = {fp.sid: (("FL", 2),), sp.sid: (("ST", 1),)}      # the hidden one: unseen
    assert known_key(omni, "B") == key
    omni.hits = {fp.sid: (("FL", 1),), sp.sid: (("ST", 2),)}      # the visible one: seen
    assert known_key(omni, "B") != key


# -- hand-laid events ----------------------------------------------------------------------------

def test_capture_of_a_hidden_piece_is_opened_and_sent_back_hq_1() -> None:
    """HQ-1, RUL-23: Black's Pawn b2 -> d4 meets White's hidden Pawn [SH] on c3: it stops on c3
    and takes it. The answer opened the piece into Black's working state only; White's state
    learns its loss from the Consequences (the piece, None), which also carry the public Move."""
    omni = pos("piece B K j1 G\npiece B RP b2 G\npiece W K j10 G\npiece W RP c3 G SH moved\n")
    sides = _start(omni)
    assert 4 not in sides["B"].state.pieces and 4 in sides["W"].state.pieces
    omni, sent = _act(omni, sides, "MV:RP(2,2)->(4,4)")
    assert sent[0]["action"].yours == ((4, None),)
    assert api.format_action(sent[0]["action"].action) == "MV:RP(2,2)->(4,4)"
    for s in "BW":
        assert _cells(sides[s]) == [(1, "K", "B", 1, 10, "G"), (2, "RP", "B", 3, 3, "G"),
                                    (3, "K", "W", 10, 10, "G")]
        assert sides[s].state.ground == {(3, 3): (1,)}          # the Stealth article (RUL-12)
    assert sides["B"].opened == 1 and sides["B"].asked["hidden_on"] >= 1


def test_stunner_ray_on_a_hidden_piece_shows_it_hq_4() -> None:
    """HQ-4, RUL-10, RUL-12: Black's Stunner on e2 fires north; the ray stops on White's hidden
    Pawn [SH] on e5, stuns it for 3 and knocks its Stealth off to the ground of e5; without
    Stealth it is visible, so Black's state now holds it with its counter (HQ-16)."""
    omni = pos("piece B K j1 G\npiece B SP e2 G\npiece W K j10 G\npiece W RP e5 G SH moved\n")
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:K(1,10)->(2,10)", "FI:ST/SP(2,5)->(3,5)")
    (sid, op), = sent[1]["action"].yours
    assert sid == 4 and op == Opening(Piece(4, "RP", "W", 5, 5, "G", stun=3), hits=(("ST", 1),))
    for s in "BW":
        assert sides[s].state.pieces[4] == Piece(4, "RP", "W", 5, 5, "G", stun=3)
        assert sides[s].state.ground == {(5, 5): (1,)}


def test_nudge_moves_the_owners_hidden_member_hq_3() -> None:
    """00/T41, HQ-3, RUL-45: Black's nudge moves White's hidden AAA on f5 with the visible Flamer
    Pawn to e5. White's state holds its AAA on e5 (sent back as its new value); Black's
    state never holds it, before or after."""
    omni = pos("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G\npiece W K j10 G\n"
               "piece W FP f5 G\npiece W AAA f5 G\n")
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6)")
    assert [(s, op.piece.square if op else None) for s, op in sent[0]["action"].yours] == \
        [(5, (5, 5)), (6, (5, 5))]
    assert sides["W"].state.pieces[6] == Piece(6, "AAA", "W", 5, 5, "G")
    assert 6 not in sides["B"].state.pieces
    assert sides["B"].state.pieces[5] == Piece(5, "FP", "W", 5, 5, "G")


def test_lock_on_pick_up_shows_the_target_hq_11() -> None:
    """HQ-11, RUL-19: Black's Pawn on c3 picks up Anti-Stealth; the lock takes White's only
    hidden stealthy piece, the Pawn [SH] on e7, which Black then sees (its S reason is
    neutralised, RUL-18): both states hold the lock and the Pawn."""
    omni = pos("piece B K j1 G\npiece B RP c3 G moved\narticle ASH c3\npiece W K j10 G\n"
               "piece W RP e7 G SH moved\n")
    sides = _start(omni)
    assert 4 not in sides["B"].state.pieces
    omni, _ = _act(omni, sides, "MV:K(1,10)->(2,10)", "PU:RP(3,3)^ASH")
    for s in "BW":
        assert sides[s].state.locks == {("a", 1): 4}
        assert sides[s].state.pieces[4] == Piece(4, "RP", "W", 7, 5, "G", arts=(2,))
    assert sides["B"].asked["lock_target"] == 1


def test_own_projectile_on_own_hidden_piece_hq_8() -> None:
    """HQ-8 ("this includes B's own projectiles"), RUL-15: White's rocket fired south from c8
    steps to c6 at the end of Black's turn, which Black resolves; White's own hidden AAA on c6
    is destroyed. Black never holds the AAA; White learns the loss ((4, None))."""
    omni = pos("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W RP c8 G moved\n"
               "piece W AAA c6 G\n")
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:K(10,10)->(10,9)", "FI:RL/RP(8,3)->(7,3)", "END",
                      "MV:K(1,10)->(2,10)", "END")
    assert sent[-1]["action"].yours == ((4, None),)
    assert omni.history[-1] == "MV:K(1,10)->(2,10),RS:R->(6,3)(-1,0),Rv(6,3),RK*AAA(6,3)0W"
    assert 4 not in sides["W"].state.pieces and omni.projectiles == ()
    assert sides["B"].state.projectiles == sides["W"].state.projectiles == ()


def test_hidden_sub_moves_travel_as_consequences_only_hq_14_hq_16() -> None:
    """00/T34, HQ-14, HQ-16, RUL-37: the submerged Sub's Move e8 -> e7 is hidden from Black: the
    Consequences carry no action and no piece. Its Move to e6 (3 squares from Black's
    Destroyer, RUL-18) carries no action either (its start square was hidden), but White's
    Shown puts the Sub on Black's board."""
    omni = pos("to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e8 S\n")
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:SUv(8,5)->v(7,5)", "END", "MV:K(1,10)->(2,10)", "END")
    assert sent[0]["action"].action is None and sent[0]["action"].yours == ()
    assert 4 not in sides["B"].state.pieces
    assert sides["W"].state.pieces[4] == Piece(4, "SU", "W", 7, 5, "S")
    omni, sent = _act(omni, sides, "MV:SUv(7,5)->v(6,5)")
    assert sent[0]["action"].action is None
    assert sides["B"].state.pieces[4] == Piece(4, "SU", "W", 6, 5, "S")
    assert 4 in sides["W"].exposed


def test_hidden_piece_fire_that_reveals_it_is_public_rul_20() -> None:
    """RUL-20, RUL-37, 00/T21: White's hidden AAA fires a SAM west; the Fire reveals it, so the
    Consequences carry the Fire and Black's state holds the AAA (revealed until ply 3)."""
    omni = pos("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W AAA h9 G\n")
    sides = _start(omni)
    assert 3 not in sides["B"].state.pieces
    omni, sent = _act(omni, sides, "MV:K(10,10)->(10,9)", "FI:SL/AAA(9,8)->(9,7)")
    assert api.format_action(sent[1]["action"].action) == "FI:SL/AAA(9,8)->(9,7)"
    assert sides["B"].state.pieces[3].square == (9, 8)
    assert sides["B"].state.reveals == {3: 3}


def test_hidden_fire_that_stays_hidden_sends_only_its_public_side_hq_15() -> None:
    """HQ-15, RUL-20 (reveal_stealth_on_fire off), RUL-12: White's hidden Flamer Pawn [SH] burns
    White's own hidden Pawn [SH] on e6. Black's Consequences carry no action and no piece of
    Black's; the one public trace is the Pawn's Stealth article on the ground of e6."""
    omni = pos("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W FP e7 G SH moved\n"
               "piece W RP e6 G SH moved\n", reveal_stealth_on_fire=False)
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:K(10,10)->(10,9)", "FI:FL/FP(7,5)1SH->(6,5)")
    c = sent[1]["action"]
    assert (c.action, c.yours) == (None, ())
    assert c.ground == (((6, 5), (2,)),)
    assert sides["B"].state.ground == {(6, 5): (2,)}
    assert _cells(sides["B"]) == [(1, "K", "B", 1, 10, "G"), (2, "K", "W", 10, 9, "G")]
    assert 4 not in sides["W"].state.pieces and 3 in sides["W"].state.pieces


def test_an_illegal_action_changes_neither_side_rul_6() -> None:
    """STYLE "bad input loses nothing", RUL-6: a Fire whose weapon is not ready yet is refused by
    the side that tries it with the rule it breaks, before the peer is asked anything; both
    sides' states are unchanged."""
    omni = pos("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W AAA h9 G\n")
    sides = _start(omni)
    omni, _ = _act(omni, sides, "MV:K(10,10)->(10,9)", "FI:SL/AAA(9,8)->(9,7)")
    keys = {s: known_key(sides[s].state, s) for s in "BW"}
    asked = dict(sides["W"].asked)
    with pytest.raises(RuleError) as info:
        play(sides, api.parse_action("FI:SL/AAA(9,8)->(8,8)"))
    assert info.value.rule == "RUL-6"
    assert {s: known_key(sides[s].state, s) for s in "BW"} == keys
    assert sides["W"].asked == asked


# -- the hidden-information scenarios of 00-rulings.md, replayed on two partial states ------------

def _kings(omni: GameState, sides: dict[str, Side], plies: int) -> GameState:
    """Harmless King shuffles (j1 <-> i1, j10 <-> i10), one per ply, through both sides."""
    for _ in range(plies):
        side = omni.side_to_move
        row = 1 if side == "B" else 10
        king = next(p for p in omni.pieces.values() if p.side == side and p.kind == "K")
        dest = 9 if king.col == 10 else 10
        omni, _ = _act(omni, sides, f"MV:K({row},{king.col})->({row},{dest})", "END")
    return omni


T19 = "piece B K j1 G\npiece B DS e4 G\npiece W K j10 G\npiece W SU e7 S\n"


def test_t19_torpedo_homes_on_a_hidden_sub_hq_9() -> None:
    """00/T19, HQ-9, RUL-16: Black's homing torpedo keeps its lock on the Sub after it dives out
    of the Destroyer's range (hidden from Black); at the end of Black's ply 3 Black resolves the
    step and asks White for the direction; at the end of ply 4 the torpedo enters e8 S and
    destroys the Sub. Black's state never holds the Sub while it is hidden."""
    omni = pos(T19)
    sides = _start(omni)
    omni, _ = _act(omni, sides, "MV:K(1,10)->(1,9)", "FI:TL/DS(4,5)=>SUv(7,5)", "END",
                   "MV:SUv(7,5)->v(8,5)")
    assert 4 not in sides["B"].state.pieces and sides["W"].state.pieces[4].cell == (8, 5, "S")
    omni, _ = _act(omni, sides, "END")
    omni = _kings(omni, sides, 1)
    assert sides["B"].asked["homing_step"] == 1
    assert [(p.row, p.col, p.target) for p in sides["B"].state.projectiles] == [(7, 5, 4)]
    omni = _kings(omni, sides, 1)
    assert omni.history[3] == "MV:K(10,10)->(10,9),RS:T->(8,5)(1,0),Tv(8,5),TK*SUv(8,5)0W"
    assert 4 not in sides["W"].state.pieces and sides["W"].state.projectiles == ()


def test_t43_reinforce_fails_on_a_hidden_occupant_hq_13() -> None:
    """00/T43, HQ-13, RUL-47: Black's Reinforce on d8 fails on White's hidden AAA: Black's state
    keeps the waiting Jet marker and holds no AAA; White's AAA stays on d8."""
    omni = pos("piece B K j1 G\npiece B DO d8 G\npiece W AAA d8 G ACS\npiece W K j10 G\n"
               "reinforcement B JE d8\n")
    sides = _start(omni)
    omni, _ = _act(omni, sides, "MV:DO(8,4)->(8,3)", "RE:(8,4)JE", "END")
    for s in "BW":
        assert sides[s].state.reinforcements == {(8, 4): ("B", "JE", "")}
        assert not any(p.kind == "JE" for p in sides[s].state.pieces.values())
    assert 3 not in sides["B"].state.pieces and sides["W"].state.pieces[3].square == (8, 4)
    assert sides["B"].asked["any_hidden"] == 1 and sides["B"].opened == 0   # nothing opened


def test_t25_landing_on_a_hidden_piece_destroys_the_traveller_hq_12() -> None:
    """00/T25 variant A with the blocker hidden, HQ-12, RUL-48: Black's Tank flies its Jump Pack
    towards e6; White's hidden AAA stands on e6 G. Black resolves its own start phase of ply 7,
    asks White whether e6 G is enterable, and the landing destroys the Tank; its Jump Pack goes
    to the ground of e6 (RUL-12). Black never holds the AAA."""
    omni = pos("piece B K j1 G\npiece B TA> e3 G JP\npiece W K j10 G\npiece W AAA e6 G\n")
    sides = _start(omni)
    omni, _ = _act(omni, sides, "MV:K(1,10)->(1,9)", "FI:JU/TA(3,5)1JP>->(6,5)", "END")
    omni = _kings(omni, sides, 5)
    assert omni.ply == 7 and 2 not in omni.pieces
    for s in "BW":
        assert 2 not in sides[s].state.pieces
        assert sides[s].state.ground == {(6, 5): (1,)}
    assert 4 not in sides["B"].state.pieces
    assert sides["B"].opened == 0                   # HQ-12 reveals only "something is there"


def test_t20_lock_ends_when_the_source_is_dropped_rul_19() -> None:
    """00/T20, RUL-19: the Pawn's Anti-Stealth locks the hidden Bulldozer [SH] (distance 2), which
    Black then holds; it moves d6 -> d7 and stays held; the Drop ends the lock and Black's state
    withdraws it (HQ-16); the AAA on c9 is never held by Black."""
    omni = pos("piece B K j1 G\npiece B CP b4 G\npiece W K j10 G\npiece W AAA c9 G\n"
               "piece W DO d6 G SH\narticle ASH b4\n")
    sides = _start(omni)
    omni, _ = _act(omni, sides, "PU:CP(4,2)^ASH")
    assert sides["B"].state.locks == {("a", 2): 5} and 5 in sides["B"].state.pieces
    omni, _ = _act(omni, sides, "MV:K(1,10)->(1,9)", "END", "MV:DO(6,4)1SH->(7,4)", "END")
    assert sides["B"].state.pieces[5].square == (7, 4)
    omni, _ = _act(omni, sides, "DR:CP(4,2)1ASHvASH")
    assert sides["B"].state.locks == {} and 5 not in sides["B"].state.pieces
    assert 4 not in sides["B"].state.pieces


def test_t44_lock_tie_break_inside_one_cell_rul_49() -> None:
    """00/T44, RUL-49, HQ-11: AAA and Flamer Pawn [SH] share d6; White answers the lock question
    with the AAA (listed first); Black's state then holds the AAA and not the Flamer Pawn."""
    omni = pos("piece B K j1 G\npiece B CP b4 G\npiece W K j10 G\npiece W AAA d6 G\n"
               "piece W FP d6 G SH\narticle ASH b4\n")
    sides = _start(omni)
    omni, _ = _act(omni, sides, "PU:CP(4,2)^ASH")
    assert sides["B"].state.locks == {("a", 2): 4}   # article 1 is the Pawn's Stealth
    assert 4 in sides["B"].state.pieces and 5 not in sides["B"].state.pieces


def test_conversion_of_a_hidden_piece_hq_6() -> None:
    """HQ-6, RUL-13: Black's Conversion Pawn fires at e5, where White's Pawn [SH] hides; it
    converts and is Black's, fully known to Black; with its Stealth it is hidden from White
    now, so White's state holds it no more (yours: (4, None))."""
    omni = pos("piece B K j1 G\npiece B CP e4 G moved\npiece W K j10 G\npiece W RP e5 G SH moved\n")
    sides = _start(omni)
    omni, sent = _act(omni, sides, "MV:K(1,10)->(2,10)", "FI:CS/CP(4,5)->(5,5)")
    assert sent[1]["action"].yours == ((4, None),)
    assert sides["B"].state.pieces[4] == Piece(4, "RP", "B", 5, 5, "G", arts=(1,))
    assert 4 not in sides["W"].state.pieces


# -- seeded random games ---------------------------------------------------------------------------

OPTION_SETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "stealth-dominance": dict(detection_dominance="stealth", stealth_range_detection=True,
                              stealth_detect_range=2),
    "no-reveals": dict(submerged_detect_range=1, reveal_stealth_on_fire=False,
                       reveal_submerged_on_fire=False, reveal_stealth_on_capture=False,
                       homing_range=6),
    "fast": dict(stealth_lock_on=False, bike_distance=3, transport_speed=2, projectile_speed=2,
                 flamer_range=2),
    "deep": dict(submerged_detect_range=0, stealthy_primary_allowed=True,
                 transport_ground_to_ground_only=False, competitive=True),
}
#: a crowded middle board: submerged Subs, stealthy pieces, Destroyers, Stealth Pawns, transport
#: articles and Anti-Stealth on the ground, within a few squares of each other
SKIRMISH = """
piece B K a1 G
piece B Q b1 G
piece B SU d4 S
piece B SU g5 S
piece B DS e3 G
piece B SHP f4 G moved
piece B AAA c5 G
piece B RP e5 G SH moved
piece B FP d5 G SH moved
piece B SP h4 G moved
piece B CP c4 G moved
piece B DO f5 G
piece B FP f5 G moved
piece B CH> g3 G
piece B XP b4 G JP SH moved
piece B SOP i5 G moved
piece B TA< h2 G
piece B JE j3 G
piece B RP a4 G BI moved
piece W K j10 G
piece W Q i10 G
piece W SU g7 S
piece W SU d6 S
piece W DS f8 G
piece W SHP e7 G moved
piece W AAA h6 G
piece W RP f6 G SH moved
piece W FP g6 G SH moved
piece W SP c7 G moved
piece W CP h7 G moved
piece W DO e6 G
piece W FP e6 G moved
piece W CH< d8 G
piece W XP i7 G JP SH moved
piece W SOP b6 G moved
piece W TA> c9 G
piece W JE a8 G
piece W RP j7 G BI moved
article ASH d7
article SC c6
article SH f3
article ASH g8
article SC h5
article ATL e4
"""
GAMES_PER_SET = 2          # from each start, under each option set
ACTIONS = 150


def seeded_action(rng: random.Random, acts: list[Any]) -> Any:
    """The seeded random players' pick among the legal ``acts``: half the time a Fire when there
    is one, so weapons meet hidden pieces more often."""
    fires = [a for a in acts if isinstance(a, Fire)]
    return rng.choice(fires if fires and rng.random() < 0.5 else acts)


def play_partial(args: tuple[str, int, str]) -> dict[str, Any]:
    """One seeded game, omniscient and partial side by side; the invariant after every action."""
    name, seed, start = args
    rng = random.Random(seed)
    opts = OPTION_SETS[name]
    omni = api.new_game(api.Options(**opts)) if start == "standard" else pos(SKIRMISH, **opts)
    sides = _start(omni)
    hidden_plies = hidden_actions = n = 0
    while omni.result is None and n < ACTIONS:
        acts = api.legal_actions(omni)
        assert legal_actions(sides[omni.side_to_move].state) == acts, (name, start, seed, n)
        action = seeded_action(rng, acts)
        omni = api.apply_action(omni, action)
        sent = play(sides, action)
        hidden_actions += sent["action"].action is None
        for s in "BW":
            diff = known_diff(sides[s].state, omni, s)
            assert diff == "", f"{name} {start} seed {seed} action {n} " \
                f"{api.format_action(action)} {s}: {diff}"
            assert enemy_hidden_held(sides[s].state, omni, s) == []
            hidden_plies += len(hidden_from(omni, s))
        n += 1
    asked = Counter(sides["B"].asked) + Counter(sides["W"].asked)
    return {"actions": n, "hidden_plies": hidden_plies, "hidden_actions": hidden_actions,
            "asked": asked, "opened": sides["B"].opened + sides["W"].opened,
            "over_opened": sides["B"].over_opened + sides["W"].over_opened}


@pytest.mark.slow
def test_two_partial_states_follow_the_omniscient_game_rul_18_hq_1_to_hq_16() -> None:
    """DESIGN §4, RUL-18, HQ-1..HQ-16: in 20 seeded games (2 from the standard start and 2
    from SKIRMISH under each of 5 option sets: defaults, stealth dominance with range
    detection, no reveals, fast projectiles and transport, deep hiding in a competitive game)
    each side's state equals partial_state of the omniscient state after every action, never
    holds an enemy piece hidden from it, and generates the mover's legal actions exactly as the
    omniscient state does."""
    jobs = [(name, seed, start) for name in OPTION_SETS for seed in range(GAMES_PER_SET)
            for start in ("standard", "skirmish")]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(play_partial, jobs, chunksize=2)
    asked = sum((r["asked"] for r in results), Counter())
    assert sum(r["actions"] for r in results) >= len(jobs) * 100
    assert sum(r["hidden_actions"] for r in results) > 0          # (c) hidden actions ran
    assert sum(r["opened"] for r in results) > 0                  # answers opened pieces
    assert sum(r["hidden_plies"] for r in results) > 10_000
    assert {"first_hidden", "hidden_on", "any_hidden", "hit_outcomes", "homing_step",
            "lock_target"} <= set(asked), asked
