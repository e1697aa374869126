"""Position files hold any state a game can reach (issue 13 item 6): ply, projectiles in flight,
rate-of-fire countdowns, trips under way, reveals and their expiry, hit counters, locks held by
articles, the turn in progress. Written and read back, a state keeps its hash, history aside
(``position_hash``: the state hash without the finished lines, the current turn's record and
actions and the start position).

Expected values are written by hand from the format (engine/position.py) and the rule cited.
"""
from __future__ import annotations

import multiprocessing
import os
import random

import pytest

from engine import api
from engine.errors import SaveError
from engine.position import format_position, parse_position, position_hash, position_key
from engine.state import Projectile, to_dict
from engine_helpers import play, pos, refused

KINGS = "piece B K a1 G\npiece W K j10 G\n"
GAMES = 200
ACTIONS = 60


def round_trip(state: api.GameState) -> api.GameState:
    """The state written as a position file and read back with the same options."""
    return parse_position(format_position(state), state.options)


def _play_and_round_trip(seed: int) -> tuple[int, set[str]]:
    """One seeded game: every state after every action round-trips; (states, features seen)."""
    rng = random.Random(seed)
    state = api.new_game()
    seen: set[str] = set()
    states = 0
    for _ in range(ACTIONS):
        if state.result is not None:
            break
        state = api.apply_action(state, api.random_action(state, rng))
        text = format_position(state)
        back = parse_position(text, state.options)
        assert position_hash(back) == position_hash(state), (seed, text)
        assert format_position(back) == text, (seed, text)
        if states % 25 == 0:                      # and it plays on the same (STYLE: one order)
            assert api.legal_actions(back) == api.legal_actions(state), (seed, text)
        seen.update(w for w in FEATURES if w in text)
        states += 1
    return states, seen


FEATURES = ("projectile", "trip=", " ASH ", "revealed=", "removed", "ready=", "hits=", "fired=",
            "art-ready=", "next-id", "stun=")


@pytest.mark.slow
def test_rul1_200_seeded_games_round_trip_every_state():
    """RUL-1, RUL-40, 01/R19.1: in 200 seeded random games every state reached after every
    action (mid-turn ones too) is written and read back to the same hash, history aside, and
    writes the same text again (every 25th offers the same legal actions); the games reach projectiles, trips, article locks, reveals,
    countdowns, hit counters, stuns and removed pieces the turn still remembers."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(max(1, min(2, os.cpu_count() or 1))) as pool:
        results = pool.map(_play_and_round_trip, range(GAMES), chunksize=10)
    assert sum(n for n, _ in results) > GAMES * ACTIONS * 0.9
    assert set().union(*(seen for _, seen in results)) == set(FEATURES)


def test_rul1_history_aside_means_only_the_history_differs():
    """RUL-1, 04/H2: a read-back state differs from the original only in its history, record,
    actions and start: the full state hashes differ, the position hashes are equal."""
    s = play(api.new_game(), "MV:CH(1,4)>->^(3,5)", "END", "MV:CH(10,7)>->^(8,6)")
    back = round_trip(s)
    assert api.state_hash(back) != api.state_hash(s)
    a, b = to_dict(s), to_dict(back)
    assert {k for k in a if a[k] != b[k]} <= {"history", "orders", "record", "actions", "start"}
    assert position_key(back) == position_key(s)


def test_r2_3_ply_line_sets_the_side_to_move():
    """01/R2.3: Black plays the odd plies, White the even ones; ``ply 37`` is Black's turn and a
    ``to-move`` that disagrees is refused."""
    s = pos("ply 37\n" + KINGS)
    assert (s.ply, s.side_to_move) == (37, "B")
    with pytest.raises(SaveError, match="ply 38 is not a turn of B"):
        pos("ply 38\nto-move B\n" + KINGS)


def test_rul15_projectile_line_is_the_projectile():
    """RUL-15, RUL-16, RUL-46 e: a projectile line gives the projectile exactly: type, owner,
    cell, last step, strength, homing target, creation ply and id."""
    s = pos(KINGS + "piece W FP e9 G\nprojectile S B e5 1 1 strength=2 created=0 target=3 id=7")
    assert s.projectiles == (Projectile(7, "S", "B", 5, 5, 1, 1, 2, 3, 0),)
    assert s.next_pid == 8


def test_rul6_countdown_line_keeps_the_tank_from_firing():
    """RUL-6: ``ready=FL:3`` says the Tank's Flamer may fire again from ply 3: at ply 1 the
    Fire is refused by RUL-6, at ply 3 it is offered."""
    text = KINGS + "piece B TA> e5 G ready=FL:3\n"
    refused(pos(text), "FI:FL/TA(5,5)>->(6,5)", "RUL-6")
    later = pos("ply 3\n" + text)
    assert api.parse_action("FI:FL/TA(5,5)>->(6,5)") in api.legal_actions(later)


def test_rul31_trip_under_way_and_the_start_phase():
    """RUL-31, RUL-1: a Bulldozer on a Jump Pack trip in e6's Air with e7 still to go. With a
    ``turn`` line the start phase has run and it waits; without one the start phase runs when
    the file is read: it steps to e7 and lands there."""
    trip = KINGS + "piece B DO e6 A JP trip=JP:A:1:1:e7\n"
    waiting = pos("ply 3\n" + trip + "turn\n")
    (do,) = [p for p in waiting.pieces.values() if p.kind == "DO"]
    assert (do.cell, do.trip) == ((6, 5, "A"), (1, "A", 1, 1, ((7, 5),)))
    landed = pos("ply 3\n" + trip)
    (do,) = [p for p in landed.pieces.values() if p.kind == "DO"]
    assert (do.cell, do.trip) == ((7, 5, "G"), None)


def test_rul20_reveal_line_and_its_expiry():
    """RUL-20: ``revealed=1`` keeps White's stealthy AAA visible to Black until the end of ply 1;
    when Black's turn ends the AAA is hidden again (RUL-18)."""
    s = pos(KINGS + "piece W AAA e5 G revealed=1\n")
    assert 3 not in api.hidden_from(s, "B")
    s = play(s, "MV:K(1,1)->(2,2)", "END")
    assert 3 in api.hidden_from(s, "B")


def test_rul19_lock_held_by_an_article():
    """RUL-19: ``lock e5 G ASH e7 G`` is the lock of the Destroyer's held Anti-Stealth (article 1)
    on White's stealthy Bulldozer; it makes the Bulldozer visible to Black."""
    s = pos(KINGS + "piece B DS e5 G ASH\npiece W DO e7 G SH\nlock e5 G ASH e7 G\n")
    assert s.locks == {("a", 1): 4}
    assert 4 not in api.hidden_from(s, "B")


def test_rul19_ambiguous_lock_source_is_refused_not_guessed():
    """RUL-19: the XXX Pawn holds two Anti-Stealth articles, so ``lock e5 G ASH e7 G`` could be
    either one's: refused, naming the line; ``source=a.2`` names the second and is accepted."""
    text = KINGS + "piece B XP e5 G ASH ASH\npiece W DO e7 G SH\n"
    with pytest.raises(SaveError, match=r"line 5: ambiguous lock source on e5 G"):
        pos(text + "lock e5 G ASH e7 G\n")
    assert pos(text + "lock e5 G ASH e7 G source=a.2\n").locks == {("a", 2): 4}


def test_rul19_ambiguous_lock_target_is_refused():
    """RUL-19, RUL-24: two White pieces share e7 (Bulldozer and Destroyer coexist); a lock by
    cell cannot say which it holds: refused; ``target=5`` names the Destroyer."""
    text = KINGS + "piece B SHP e5 G\npiece W DO e7 G SH\npiece W DS e7 G SH\n"
    with pytest.raises(SaveError, match="ambiguous lock target on e7 G"):
        pos(text + "lock e5 G e7 G\n")
    assert pos(text + "lock e5 G e7 G target=5\n").locks == {("p", 3): 5}


def test_rul40_ids_kept_and_checked():
    """RUL-40: serials and article ids given in the file are kept; the others are numbered in
    file order around them; an id used twice is refused."""
    s = pos("piece B K a1 G id=9\npiece W K j10 G\npiece B XP e5 G FL SC arts=4,2\n"
            "article ASH e6\n")
    assert sorted(s.pieces) == [1, 2, 9] and s.pieces[2].arts == (4, 2)
    assert s.ground == {(6, 5): (1,)} and s.next_sid == 10
    with pytest.raises(SaveError, match="piece id 9 is used twice"):
        pos("piece B K a1 G id=9\npiece W K j10 G id=9\n")


def test_r19_1_every_problem_reported_at_once():
    """01/R19.1, STYLE editor validation: a file with several problems names each with its line
    number, and nothing is half-read."""
    with pytest.raises(SaveError) as info:
        pos(KINGS + "piece B DO e5 G stun=x\nprojectile Q B e5 1 0\nturn fired=zz.1\n")
    text = str(info.value)
    assert "line 3: stun must be a whole number" in text
    assert "line 4: a projectile is R, S or T" in text
    assert "cannot read the Fire source 'zz.1'" in text


def test_r19_1_turn_in_progress_round_trips_its_budget():
    """01/R19.1, RUL-1, 01/R4.2: after a Move the written turn says the Move is made, so the read
    state refuses a second Move and may end the turn."""
    s = play(api.new_game(), "MV:CH(1,4)>->^(3,5)")
    back = round_trip(s)
    assert back.turn == s.turn and back.turn.moved
    refused(back, "MV:CH(1,7)<->^(3,6)", "01/R4.2")
    assert api.EndTurn() in api.legal_actions(back)
