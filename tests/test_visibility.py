"""Who sees what: Stealth, submersion, detection, locks and reveals.

01/R14.1-R14.10, 02/D2-D8, D14, D15, D21, G25, G37, 04/N9; 00/A-2, A-3, A-11, A-25, A-29;
RUL-18, RUL-19, RUL-20, RUL-49, RUL-50 (a). Expected values are derived from the rule texts:
every position lists its pieces in serial order (RUL-40), so piece 1 is the first listed.
"""
from __future__ import annotations

from engine import api
from engine.visibility import hidden_from
from engine_helpers import at, ground, held, legal, one, play, pos

NONE: frozenset[int] = frozenset()
KINGS = "piece B K j1 G\npiece W K j10 G\n"


def _locked(state: api.GameState) -> set[int]:
    return set(state.locks.values())


# -- hiding reasons (01/R14.1-R14.3, RUL-18) ----------------------------------------------------

def test_own_pieces_are_always_visible_to_their_owner_RUL_18_01_R14_1() -> None:
    """RUL-18: own pieces are always visible to their owner; the same stealthy and submerged
    pieces are hidden from the enemy."""
    s = pos(KINGS + "piece B AAA e4 G\npiece B SU c5 S\npiece B TA> f3 G SH\n")
    assert hidden_from(s, "B") == NONE
    assert hidden_from(s, "W") == {3, 4, 5}


def test_inherent_and_article_stealth_01_R14_2_02_D2() -> None:
    """01/R14.2, 02/D2: the AAA and the Stealth Pawn have inherent Stealth; any other piece gains
    it from the SH article; a piece without Stealth is seen."""
    s = pos(KINGS + "piece W AAA c5 G\npiece W SHP d5 G\npiece W CL< e5 G SH\n"
                    "piece W CL> f5 G\n")
    assert hidden_from(s, "B") == {3, 4, 5}


def test_stealth_never_stacks_RUL_18() -> None:
    """RUL-18: Stealth never stacks: an AAA holding an SH article is made visible by one lock."""
    s = pos(KINGS + "piece B SHP a1 G\npiece W AAA c5 G SH\nlock a1 G c5 G\n")
    assert hidden_from(s, "B") == NONE


def test_stealth_on_a_primary_piece_has_no_effect_01_R14_2_01_R9_5_02_D21_RUL_18() -> None:
    """01/R14.2, 02/D21, RUL-18: an editor-placed SH on a primary government piece has no effect
    while stealthy_primary_allowed is off; with it on, the King is hidden (01/§20 O4)."""
    text = "piece B K j1 G\npiece W K j10 G SH\n"
    assert hidden_from(pos(text), "B") == NONE
    assert hidden_from(pos(text, stealthy_primary_allowed=True), "B") == {2}


def test_sub_level_hides_any_piece_01_R14_3_02_D3() -> None:
    """01/R14.3, 02/D3: a piece at Sub level is hidden unless detected; a Sub at Ground is not."""
    s = pos(KINGS + "piece W SU c5 S\npiece W DO e6 S\npiece W SU g5 G\n")
    assert hidden_from(s, "B") == {3, 4}


def test_every_torpedo_launcher_detects_submerged_pieces_01_R14_3_02_G37_A_11() -> None:
    """01/R14.3, 01/R12.10, 02/G37, A-11: the Destroyer, the Sub, the SAM-and-Torpedo Pawn and a
    held TL article each detect a submerged enemy within 3 squares (distance ignores levels)."""
    for detector in ("DS e4 G", "SU e4 S", "SOP e4 G", "TA> e4 G TL", "SU e4 G"):
        s = pos(KINGS + f"piece B {detector}\npiece W SU h7 S\npiece W SU i8 S\n")
        assert hidden_from(s, "B") == {5}, detector


def test_torpedo_launcher_does_not_detect_stealth_anti_stealth_not_sub_02_G37_RUL_18() -> None:
    """02/G37, RUL-18: a Torpedo Launcher does not neutralise Stealth, and an Anti-Stealth (even
    with range detection on) does not neutralise submersion."""
    s = pos(KINGS + "piece B DS e4 G\npiece W AAA e5 G\n")
    assert hidden_from(s, "B") == {4}
    s = pos(KINGS + "piece B SHP e4 G\npiece W SU e5 S\n", stealth_range_detection=True)
    assert hidden_from(s, "B") == {4}


def test_invisibility_off_everyone_sees_everything_01_R14_8_01_S20_O1() -> None:
    """01/R14.8, 01/§20 O1, 02/D2, D3: with both invisibility options off nothing is hidden;
    with only one off, the other reason still hides."""
    text = KINGS + "piece W AAA c5 G\npiece W SU e6 S\n"
    assert hidden_from(pos(text), "B") == {3, 4}
    assert hidden_from(pos(text, stealth_invisibility=False, submerged_invisibility=False),
                       "B") == NONE
    assert hidden_from(pos(text, stealth_invisibility=False), "B") == {4}
    assert hidden_from(pos(text, submerged_invisibility=False), "B") == {3}


# -- locks (01/R14.4, R14.5, RUL-19, RUL-49, A-25, 02/G25, D5) ----------------------------------

def test_lock_persists_at_any_distance_01_R14_4_RUL_19() -> None:
    """01/R14.4, RUL-19: a locked piece is visible to the locking side at any distance (a1 to
    j9 is 9 squares)."""
    s = pos(KINGS + "piece B SHP a1 G\npiece W AAA i9 G\npiece W AAA j9 G\nlock a1 G j9 G\n")
    assert hidden_from(s, "B") == {4}


def test_lock_persists_when_the_target_loses_its_stealth_RUL_19() -> None:
    """RUL-19: the lock persists even if the target loses its Stealth: the Bulldozer drops its SH
    and picks it up again; it stays locked and visible throughout."""
    s = pos("to-move W\n" + KINGS + "piece B SHP a1 G\npiece W DO d6 G SH\nlock a1 G d6 G\n")
    assert s.locks == {("p", 3): 4} and hidden_from(s, "B") == NONE
    s = play(s, "DR:DO(6,4)1SHvSH")
    assert s.locks == {("p", 3): 4}
    s = play(s, "PU:DO(6,4)^SH")
    assert s.locks == {("p", 3): 4} and hidden_from(s, "B") == NONE


def test_standard_start_mutual_lock_ends_when_a_stealth_pawn_is_taken_01_R14_5() -> None:
    """01/R14.5, A-25: the two Stealth Pawns locked on each other are visible; when Black's takes
    White's (attack square straight ahead, 03/M1.1.2) both locks end (target destroyed, source
    captured). Black's Pawn, stealthy and now unlocked, is revealed by the capture (RUL-20) for
    White's next turn, then hidden."""
    s = pos(KINGS + "piece B SHP e5 G\npiece W SHP e6 G\nlock e5 G e6 G\nlock e6 G e5 G\n")
    assert hidden_from(s, "B") == NONE and hidden_from(s, "W") == NONE
    s = play(s, "MV:SHP(5,5)->(6,5)")
    assert s.locks == {}
    assert hidden_from(s, "W") == NONE
    s = play(s, "END", "MV:K(10,10)->(10,9)", "END")
    assert hidden_from(s, "W") == {3}


def test_mutual_lock_ends_when_a_stealth_pawn_is_converted_01_R14_5_RUL_19() -> None:
    """01/R14.5, RUL-19: converting White's Stealth Pawn ends both locks (its target and its
    source change sides); its Anti-Stealth, now Black's, finds no hidden stealthy White piece."""
    s = pos(KINGS + "piece B SHP e5 G\npiece B CP d5 G\npiece W SHP e6 G\n"
                    "lock e5 G e6 G\nlock e6 G e5 G\n")
    s = play(s, "FI:CS/CP(5,4)->(6,5)")
    assert s.pieces[5].side == "B"
    assert s.locks == {}


def test_lock_choice_nearest_then_lower_rank_then_lower_file_RUL_19() -> None:
    """RUL-19 choice of target: smallest distance, then lower rank, then lower file. From e5:
    AAAs on c7 and g3 are both at 2, g3 has the lower rank; then c3 vs g3 (same rank): c3."""
    base = KINGS + "piece B CP e5 G\narticle ASH e5\n"
    s = play(pos(base + "piece W AAA c7 G\npiece W AAA g3 G\npiece W AAA e9 G\n"),
             "PU:CP(5,5)^ASH")
    assert _locked(s) == {5}
    s = play(pos(base + "piece W AAA g3 G\npiece W AAA c3 G\n"), "PU:CP(5,5)^ASH")
    assert _locked(s) == {5}


def test_lock_choice_level_order_ground_first_RUL_19() -> None:
    """RUL-19 key 4: same square, Ground before Sub: a stealthy Sub [SH] on c3 S (hidden) and an
    AAA on c3 G: the AAA is locked, though the Sub is listed first."""
    s = pos(KINGS + "piece B CP e5 G\narticle ASH e5\npiece W SU c3 S SH\npiece W AAA c3 G\n")
    assert hidden_from(s, "B") == {4, 5}
    s = play(s, "PU:CP(5,5)^ASH")
    assert _locked(s) == {5} and hidden_from(s, "B") == {4}


def test_no_retry_of_a_lock_later_RUL_19() -> None:
    """RUL-19: a source that found no hidden stealthy enemy when acquired does not try again.
    The AAA fired at ply 2 (revealed, so not a candidate); Black picks up ASH at ply 3 (no lock);
    at ply 4 the reveal is over and the AAA is hidden again."""
    s = pos("to-move W\npiece B K j1 G\npiece B CP b4 G\npiece W K j10 G\npiece W AAA c9 G\n"
            "article ASH b4\n")
    s = play(s, "MV:K(10,10)->(10,9)", "FI:SL/AAA(9,3)->(8,3)", "END")
    assert hidden_from(s, "B") == NONE
    s = play(s, "PU:CP(4,2)^ASH")
    assert s.locks == {}
    s = play(s, "MV:K(1,10)->(1,9)", "END")
    assert s.ply == 4 and s.locks == {} and hidden_from(s, "B") == {4}


def test_stun_knocking_off_the_source_ends_the_lock_RUL_19_RUL_12() -> None:
    """RUL-19: a lock ends when its article is knocked off by a stun. Black's Pawn picks up ASH
    on b4 (locks the Bulldozer); White's Stunner Pawn on b7 fires south: the first piece on the
    ray is the Pawn, stunned for 3; its ASH goes to b4's Ground (RUL-12) and the Bulldozer is
    hidden again."""
    s = pos(KINGS + "piece B CP b4 G\npiece W SP b7 G\npiece W DO d6 G SH\narticle ASH b4\n")
    s = play(s, "PU:CP(4,2)^ASH", "MV:K(1,10)->(1,9)", "END")
    assert _locked(s) == {5} and hidden_from(s, "B") == NONE
    s = play(s, "FI:ST/SP(7,2)->(6,2)")
    assert s.pieces[3].stun == 3 and ground(s, "b4") == ["ASH"]
    assert s.locks == {} and hidden_from(s, "B") == {5}


def test_destroying_the_target_ends_the_lock_RUL_19() -> None:
    """RUL-19: a lock ends when its target is destroyed."""
    s = pos(KINGS + "piece B SHP a1 G\npiece B RP c5 G\npiece W DO c6 G SH\nlock a1 G c6 G\n")
    s = play(s, "MV:RP(5,3)->(6,3)")
    assert 5 not in s.pieces and s.locks == {}


def test_several_sources_acquired_at_once_lock_different_pieces_RUL_49() -> None:
    """RUL-49: converting a White Stealth Pawn holding an ASH article gives Black two sources at
    once; the inherent one locks first (nearest: the AAA on e7 at distance 2), the article then
    locks the next hidden one (the AAA on a5 at distance 4): never the same piece twice."""
    s = pos(KINGS + "piece B CP e4 G\npiece W SHP e5 G ASH\npiece W AAA e7 G\npiece W AAA a5 G\n")
    assert hidden_from(s, "B") == {4, 5, 6}
    s = play(s, "FI:CS/CP(4,5)->(5,5)")
    (aid,) = s.pieces[4].arts
    assert s.pieces[4].side == "B"
    assert s.locks == {("p", 4): 5, ("a", aid): 6}
    assert hidden_from(s, "B") == NONE


def test_lock_on_option_off_no_lock_02_D5() -> None:
    """02/D5 off: picking up ASH makes no lock; the AAA stays hidden."""
    text = KINGS + "piece B CP b4 G\narticle ASH b4\npiece W AAA c6 G\n"
    assert _locked(play(pos(text), "PU:CP(4,2)^ASH")) == {4}
    s = play(pos(text, stealth_lock_on=False), "PU:CP(4,2)^ASH")
    assert s.locks == {} and hidden_from(s, "B") == {4}


# -- range detection (01/R14.6, 01/§20 O7, 02/D14, G25, RUL-18, RUL-49) --------------------------

def test_stealth_range_detection_off_by_default_02_D14_01_S20_O7() -> None:
    """02/D14, RUL-18: range detection for Stealth is off by default: an unlocked Anti-Stealth
    next to an AAA does not see it."""
    assert hidden_from(pos(KINGS + "piece B CP e4 G ASH\npiece W AAA e5 G\n"), "B") == {4}


def test_stealth_range_detection_on_01_R14_6_RUL_49() -> None:
    """01/R14.6, RUL-18, RUL-49: with stealth_range_detection on, a piece holding Anti-Stealth
    (inherent or article) sees stealthy enemies within stealth_detect_range (3), not at 4."""
    for detector in ("SHP e4 G", "CP e4 G ASH"):
        s = pos(KINGS + f"piece B {detector}\npiece W AAA e7 G\npiece W AAA e8 G\n",
                stealth_range_detection=True)
        assert hidden_from(s, "B") == {5}, detector


def test_stealth_detect_range_option_02_D14() -> None:
    """02/D14: stealth_detect_range changes the detector range (1: the AAA at 2 is hidden; 5:
    the AAA at 4 is seen)."""
    text = KINGS + "piece B SHP e4 G\npiece W AAA e6 G\npiece W AAA e8 G\n"
    assert hidden_from(pos(text, stealth_range_detection=True, stealth_detect_range=1),
                       "B") == {4, 5}
    assert hidden_from(pos(text, stealth_range_detection=True, stealth_detect_range=5),
                       "B") == NONE


def test_lock_and_range_detection_together_02_G25() -> None:
    """02/G25: lock-on and range detection can both be active: a far locked AAA and a near
    unlocked one are both seen, a far unlocked one is not."""
    s = pos(KINGS + "piece B SHP a1 G\npiece W AAA j8 G\npiece W AAA b3 G\npiece W AAA e9 G\n"
                    "lock a1 G j8 G\n", stealth_range_detection=True)
    assert hidden_from(s, "B") == {6}


def test_submerged_detect_range_option_02_D15() -> None:
    """02/D15: submerged_detect_range (default 3) changes the Torpedo Launcher's range."""
    text = KINGS + "piece B DS e4 G\npiece W SU e6 S\npiece W SU e8 S\n"
    assert hidden_from(pos(text), "B") == {5}
    assert hidden_from(pos(text, submerged_detect_range=1), "B") == {4, 5}
    assert hidden_from(pos(text, submerged_detect_range=4), "B") == NONE
    assert hidden_from(pos(text, submerged_detect_range=0), "B") == {4, 5}


# -- dominance (04/N9, RUL-18, 00/T36) ----------------------------------------------------------

def test_stealth_dominance_with_a_lock_04_N9_RUL_18() -> None:
    """04/N9, RUL-18: a stealthy Sub at Sub level that is locked but out of Torpedo range is
    visible when Stealth dominates (S neutralised) and hidden when submersion dominates (U not
    neutralised)."""
    text = KINGS + "piece B SHP a1 G\npiece W SU h8 S SH\nlock a1 G h8 S\n"
    assert hidden_from(pos(text), "B") == {4}
    assert hidden_from(pos(text, detection_dominance="stealth"), "B") == NONE


def test_submerge_dominance_torpedo_detection_wins_04_N9() -> None:
    """04/N9 'Submerge dominates': a Torpedo Launcher that detects a stealthy piece at Sub level
    makes it visible; Stealth adds nothing there."""
    text = KINGS + "piece B SU e4 S\npiece W SU e6 S SH\n"
    assert hidden_from(pos(text), "B") == NONE
    assert hidden_from(pos(text, detection_dominance="stealth"), "B") == {4}


# -- reveals (01/R14.7, R14.10, RUL-20, A-2, A-3, 02/D4, D6, D7) --------------------------------

def test_fire_of_an_article_weapon_reveals_01_R14_7_02_D4() -> None:
    """01/R14.7, 01/§20 O8, 02/D4, A-3: a stealthy XXX Pawn [SH FL] that fires its FL is revealed at once,
    until the end of Black's next turn."""
    text = "to-move W\n" + KINGS + "piece W XP e6 G SH FL\n"
    s = pos(text)
    assert hidden_from(s, "B") == {3}
    s = play(s, "FI:FL/XP(6,5)2SHFL->(5,5)")
    assert hidden_from(s, "B") == NONE and s.reveals == {3: 3}
    s = play(s, "MV:K(10,10)->(10,9)", "END")
    assert hidden_from(s, "B") == NONE
    s = play(s, "MV:K(1,10)->(1,9)", "END")
    assert hidden_from(s, "B") == {3} and s.reveals == {}
    s = pos(text, reveal_stealth_on_fire=False)
    assert hidden_from(play(s, "FI:FL/XP(6,5)2SHFL->(5,5)"), "B") == {3}


def test_transport_fire_reveals_RUL_20_RUL_30() -> None:
    """RUL-20, RUL-30: a transport Fire reveals a hidden firer too (a stealthy XXX Pawn's Bike)."""
    s = pos("to-move W\n" + KINGS + "piece W XP e6 G SH BI\n")
    s = play(s, "FI:BI/XP(6,5)2SHBI->(5,5)")
    assert one(s, "e5", "XP").sid == 3
    assert hidden_from(s, "B") == NONE


def test_submerged_fire_reveals_02_D7() -> None:
    """02/D7, A-3: a hidden submerged Sub that fires a torpedo is revealed; with
    reveal_submerged_on_fire off it stays hidden."""
    text = "to-move W\n" + KINGS + "piece W SU e6 S\n"
    assert hidden_from(play(pos(text), "FI:TL/SUv(6,5)->(5,5)"), "B") == NONE
    s = play(pos(text, reveal_submerged_on_fire=False), "FI:TL/SUv(6,5)->(5,5)")
    assert hidden_from(s, "B") == {3}


def test_capture_reveals_stealth_for_one_enemy_turn_01_R14_10_A_2_02_D6() -> None:
    """A-2 (overriding 01/R14.10's 'no such rule'), 02/D6, RUL-20: a stealthy Flamer Pawn [SH]
    that captures is revealed for the enemy's next turn; with reveal_stealth_on_capture off it stays
    hidden."""
    text = "to-move W\n" + KINGS + "piece W FP e6 G SH\npiece B RP e5 G\n"
    s = play(pos(text), "MV:FP(6,5)1SH->(5,5)")
    assert 4 not in s.pieces and hidden_from(s, "B") == NONE
    s = play(pos(text, reveal_stealth_on_capture=False), "MV:FP(6,5)1SH->(5,5)")
    assert hidden_from(s, "B") == {3}


# -- hidden pieces exist physically (01/R14.9, A-29) ---------------------------------------------

def test_stunner_stops_at_an_undetected_stealthy_enemy_01_R14_9_A_29() -> None:
    """01/R14.9, A-29, RUL-10: the Stunner ray north from e2 stops at the hidden Pawn [SH] on e5
    (not the King on e8 behind it) and stuns it for 3; its SH drops to e5 G, so it is no longer
    stealthy and Black sees it."""
    s = pos("piece B K j1 G\npiece B SP e2 G\npiece W K e8 G\npiece W RP e5 G SH\n")
    assert hidden_from(s, "B") == {4}
    s = play(s, "FI:ST/SP(2,5)->(3,5)")
    assert (s.pieces[4].stun, s.pieces[3].stun) == (3, 0)
    assert held(s, s.pieces[4]) == [] and ground(s, "e5") == ["SH"]
    assert hidden_from(s, "B") == NONE


def test_projectile_hits_a_hidden_piece_01_R14_9() -> None:
    """01/R14.9 (derived), RUL-15: a rocket created at e4 G at ply 1 steps to e5 G at the end of
    ply 2 and destroys the hidden AAA there (no Anti-Rocket); the results are written in ply 2's
    line (RUL-36)."""
    s = pos("piece B K j1 G\npiece B RP e3 G\npiece W K j10 G\npiece W AAA e5 G\n")
    assert hidden_from(s, "B") == {4}
    s = play(s, "MV:K(1,10)->(1,9)", "FI:RL/RP(3,5)->(4,5)", "END", "MV:K(10,10)->(10,9)", "END")
    assert 4 not in s.pieces and s.projectiles == ()
    assert s.history[1] == "MV:K(10,10)->(10,9),RS:R->(5,5)(1,0),Rv(5,5),RK*AAA(5,5)0W"


def test_hidden_piece_is_absent_for_move_generation_RUL_3_03_M0_11() -> None:
    """03/M0.11, RUL-3, 01/R14.9: a hidden enemy does not block the mover's offered Moves: the
    King on e4 is offered e5, where a hidden AAA stands, like any empty square."""
    s = pos("piece B K e4 G\npiece W K j10 G\npiece W AAA e5 G\n")
    assert "MV:K(4,5)->(5,5)" in legal(s)
    assert [p.kind for p in at(s, "e5")] == ["AAA"]


def test_saved_history_of_a_competitive_game_is_full_01_R18_3_R14_12_A_20_RUL_37() -> None:
    """01/R18.3, R14.12, A-20, RUL-37: the censoring of a competitive game is a view (engine/
    view.py); the game's own history and its save always hold the full line, hidden enemy
    moves included."""
    s = pos("to-move W\n" + KINGS + "piece W AAA c9 G\n", competitive=True)
    s = play(s, "MV:AAA(9,3)->(8,3)", "END")
    assert hidden_from(s, "B") == {3}
    assert s.history == ("MV:AAA(9,3)->(8,3)",)
    assert api.dumps(s).splitlines()[-1] == "MV:AAA(9,3)->(8,3)"


def test_submerged_zone_is_every_square_within_range_of_a_detector_02_D15() -> None:
    """02/D15 with RUL-8 distances: the zone U of Black's Torpedo Launchers (a DS in the corner
    a1 and one on c3, range 1) is exactly the squares within one king step of either, cut at the
    board's edge: a1 b1 a2 b2 around the corner and the nine squares b2..d4 around c3."""
    from engine.position import parse_square
    from engine.visibility import detection_zones
    s = pos(KINGS + "piece B DS a1 G\npiece B DS c3 G\n", submerged_detect_range=1)
    want = {parse_square(q) for q in ("a1", "b1", "a2", "b2", "c2", "d2", "b3", "c3", "d3",
                                      "b4", "c4", "d4")}
    assert detection_zones(s, "B").submerged == want
    assert detection_zones(s, "W").submerged == NONE
