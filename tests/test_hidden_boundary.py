"""The hidden-information boundary: player views, the partial answerer and censored histories.

DESIGN §3 ("one engine, two answerers"), STYLE "one observe(state, player)", 00/RUL-18..RUL-20,
RUL-36, RUL-37, RUL-50, RUL-51, HQ-1..HQ-17, 04/C1-C8; scenarios 00/T21, T34, T36, T41.

* 200 seeded random games resolve every action twice from the same position, once with the
  omniscient answerer and once with ``PartialAnswerer`` (which knows only the owner's view):
  the two results are identical at every action and the final state hashes are equal;
  every position's views show no enemy piece hidden from the viewer, and hiding the viewer's
  unseen enemies changes nothing in its view; at the end the two views rebuild the state.
* Hand-laid positions give exact expected views, written out field by field.
* Censored histories: 00/T34 exactly, and one test per RUL-37 bullet.
"""
from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from typing import Any

import pytest

from engine import api
from engine.actions import Fire
from engine.board import has_ability
from engine.notation import parse_turn
from engine.state import GameState, enemy
from engine.view import (GroundArticle, LockView, OwnPiece, PlayerView, ProjectileView,
                         Reinforcement, SeenPiece, history_for, observe, view_key)
from engine.visibility import hidden_from
from engine_helpers import play, pos
from partial_answerer import PartialAnswerer, own_piece

GAMES = 200
ACTIONS = 150
STATE_FIELDS = ("ply", "pieces", "art_ready", "ground", "reinforcements", "next_sid", "locks",
                "reveals", "projectiles", "next_pid", "hits", "result", "end_reason", "turn",
                "history", "orders", "record", "actions")


# -- seeded random games (HQ-1..HQ-13, RUL-18, RUL-50) -------------------------------------------

def _same_state(a: GameState, b: GameState) -> str:
    """'' when every field that makes the state hash is equal, else the first differing field."""
    return next((f for f in STATE_FIELDS if getattr(a, f) != getattr(b, f)), "")


def _check_views(state: GameState) -> None:
    """RUL-18: a view holds exactly the viewer's pieces and the enemy pieces it sees."""
    for side in ("B", "W"):
        view = observe(state, side)
        hidden = hidden_from(state, side)
        assert [p.sid for p in view.own] == sorted(s for s, p in state.pieces.items()
                                                   if p.side == side)
        visible = sorted((p.row, p.col, p.level, p.kind, p.hand, state.codes(p))
                         for p in state.pieces.values() if p.side != side and p.sid not in hidden)
        assert sorted((p.row, p.col, p.level, p.kind, p.hand, p.codes) for p in view.seen) == \
            visible
        assert all(p.side == enemy(side) for p in view.seen)
        assert not any(q.target in hidden for q in view.projectiles)


def _without_hidden_bystanders(state: GameState, side: str) -> GameState:
    """The state less the enemy pieces hidden from ``side`` that detect nothing (no Torpedo
    Launcher, no Anti-Stealth: HQ-10 and HQ-11 disclose detectors to their targets' owner)."""
    out = state.clone()
    for sid in hidden_from(state, side):
        p = state.pieces[sid]
        if not has_ability(state, p, "TL") and not has_ability(state, p, "ASH") and \
                not any(t == sid for t in state.locks.values()):
            del out.pieces[sid]
            out.hits.pop(sid, None)
            out.reveals.pop(sid, None)
    out.touch()
    return out


def _rebuild(state: GameState) -> None:
    """The two views together give back the pieces, counters, ground and projectiles."""
    b, w = observe(state, "B"), observe(state, "W")
    pieces = {p.sid: own_piece(p) for p in b.own + w.own}
    assert pieces == state.pieces
    assert {p.sid: p.hits for p in b.own + w.own if p.hits} == \
        {s: h for s, h in state.hits.items() if s in state.pieces}
    assert {p.sid: p.revealed_until for p in b.own + w.own if p.revealed_until} == \
        {s: n for s, n in state.reveals.items() if s in state.pieces}
    assert (b.ground, b.reinforcements, b.result) == (w.ground, w.reinforcements, w.result)
    ground = [(r, c, state.art_code[a], state.art_ready.get(a, 0))
              for (r, c), aids in sorted(state.ground.items()) for a in aids]
    assert [tuple(g) for g in b.ground] == ground
    for pb, pw, real in zip(b.projectiles, w.projectiles, state.projectiles, strict=True):
        assert pb[:-1] == pw[:-1]
        named = (pb.target or pw.target)
        living = real.target if real.target in state.pieces else 0     # a dead target: lost lock
        assert (pb.pid, pb.kind, pb.side, pb.row, pb.col, pb.dr, pb.dc, pb.strength,
                pb.created, named) == (real.pid, real.kind, real.side, real.row, real.col,
                                       real.dr, real.dc, real.strength, real.created, living)


def play_both(seed: int) -> tuple[int, int, str, str, Counter[str], Counter[str]]:
    """One seeded game; every action resolved by both answerers from the same position."""
    rng = random.Random(seed)
    state = api.new_game()
    answerer = PartialAnswerer()
    fired: Counter[str] = Counter()
    n = 0
    while state.result is None and n < ACTIONS:
        action = rng.choice(api.legal_actions(state))
        omniscient = api.apply_action(state, action)
        partial = api.apply_action(state, action, answerer=answerer)
        diff = _same_state(omniscient, partial)
        assert not diff, f"seed {seed} action {n} {api.format_action(action)}: {diff} differs"
        if isinstance(action, Fire):
            fired[action.article] += 1
        state = partial
        _check_views(state)
        if n % 5 == 0:
            for side in ("B", "W"):
                assert observe(_without_hidden_bystanders(state, side), side) == \
                    observe(state, side)
        n += 1
    _rebuild(state)
    return (seed, n, api.state_hash(omniscient), api.state_hash(state), fired, answerer.asked)


@pytest.mark.slow
def test_partial_answerer_resolves_200_random_games_identically_hq_1_to_hq_13() -> None:
    """DESIGN §3, HQ-1..HQ-13: answering from the owner's view alone (PartialAnswerer) gives the
    same result as the omniscient answerer for every action of 200 seeded games; RUL-18: every
    view holds no enemy piece hidden from its player, and removing those pieces leaves the view
    unchanged; RUL-50: the two views rebuild pieces, ground and projectiles at the end."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        results = pool.map(play_both, range(GAMES), chunksize=4)
    assert len(results) == GAMES
    assert all(omni == part for _, _, omni, part, _, _ in results)
    fired = sum((r[4] for r in results), Counter())
    asked = sum((r[5] for r in results), Counter())
    assert set(fired) >= {"FL", "ST", "CS", "RL", "SL", "TL"}, fired      # all weapons in play
    assert set(asked) == {"first_hidden", "any_route_clear", "hidden_on", "any_hidden",
                          "lock_target", "hit_outcomes", "homing_step", "nudge_outcome"}, asked
    assert sum(r[1] for r in results) >= GAMES * 100


# -- hand-laid views (00/T21, T36, RUL-18, RUL-19, RUL-50) ---------------------------------------

T21 = """
to-move W
piece B K j1 G
piece B RP e5 G moved
piece W K j10 G
piece W RP e6 G SH
piece W AAA h9 G
"""


def _own(sid: int, kind: str, side: str, row: int, col: int, level: str = "G",
         **extra: Any) -> OwnPiece:
    base: dict[str, Any] = dict(hand="", arts=(), codes=(), art_ready=(), stun=0, origin=False,
                                trip=None, ready=(), hits=(), revealed_until=0, stealthy=False,
                                exposed=True, locked=False)
    base.update(extra)
    return OwnPiece(sid, kind, side, row, col, level, **base)


def _seen(kind: str, side: str, row: int, col: int, level: str = "G", **extra: Any) -> SeenPiece:
    base: dict[str, Any] = dict(hand="", codes=(), art_ready=(), stun=0, ready=(),
                                revealed_until=0, travelling=False)
    base.update(extra)
    return SeenPiece(kind, side, row, col, level, **base)


def test_t21_views_before_and_after_the_reveals_rul_20_rul_50() -> None:
    """00/T21, RUL-20, RUL-50 (b): Black sees only the White King until the hidden Pawn [SH]
    captures on e5 and the hidden AAA fires a SAM west; then both are on Black's view (revealed
    until ply 3, the AAA's SAM countdown ply 2 + 2*4 = 10), the SAM is public at g9 A; from ply 4
    they are gone again. White sees its own pieces in full, unseen by Black before, seen after."""
    s = pos(T21)
    before = observe(s, "B")
    assert before == PlayerView(
        "B", 2, "W", s.options, None, "",
        own=(_own(1, "K", "B", 1, 10), _own(2, "RP", "B", 5, 5)),
        seen=(_seen("K", "W", 10, 10),), ground=(), projectiles=(), reinforcements=(),
        locks=(), turn=None)
    assert observe(s, "W").own == (
        _own(3, "K", "W", 10, 10),
        _own(4, "RP", "W", 6, 5, arts=(1,), codes=("SH",), art_ready=(0,), origin=True,
             stealthy=True, exposed=False),
        _own(5, "AAA", "W", 9, 8, stealthy=True, exposed=False))
    s = play(s, "MV:RP(6,5)1SH->(5,5)", "FI:SL/AAA(9,8)->(9,7)")
    after = observe(s, "B")
    assert after.own == (_own(1, "K", "B", 1, 10),)
    assert after.seen == (_seen("RP", "W", 5, 5, codes=("SH",), art_ready=(0,), revealed_until=3),
                          _seen("AAA", "W", 9, 8, ready=(("SL", 10),), revealed_until=3),
                          _seen("K", "W", 10, 10))
    assert after.projectiles == (ProjectileView(1, "S", "W", 9, 7, "A", 0, -1, 1, 2, False, 0),)
    white = observe(s, "W")
    assert [(p.sid, p.exposed, p.revealed_until) for p in white.own] == \
        [(3, True, 0), (4, True, 3), (5, True, 3)]
    assert white.turn is not None and white.turn.actions == (
        "MV:RP(6,5)1SH->(5,5)", "FI:SL/AAA(9,8)->(9,7)")
    s = play(s, "END", "MV:K(1,10)->(2,10)", "END")
    assert observe(s, "B").seen == (_seen("K", "W", 10, 10),)
    # RUL-15: the SAM does not step at the end of its creation turn; it stepped once, g9 -> f9,
    # at the end of ply 3. It stays public while its firer is hidden again.
    assert observe(s, "B").projectiles == (
        ProjectileView(1, "S", "W", 9, 6, "A", 0, -1, 1, 2, False, 0),)


def test_t36_dominance_in_the_view_rul_18() -> None:
    """00/T36, RUL-18: the Sub [SH] on e6 S is on Black's view under 'submerge' dominance (the
    Destroyer's Torpedo Launcher is 2 squares away) and absent under 'stealth'; surfaced on
    e6 G it is absent under either. White's view says whether Black sees it (exposed)."""
    text = "piece B K j1 G\npiece B DS e4 G\npiece W K j10 G\npiece W SU e6 S SH\n"
    sub = _seen("SU", "W", 6, 5, "S", codes=("SH",), art_ready=(0,))
    assert observe(pos(text), "B").seen == (sub, _seen("K", "W", 10, 10))
    assert observe(pos(text, detection_dominance="stealth"), "B").seen == \
        (_seen("K", "W", 10, 10),)
    for dominance in ("submerge", "stealth"):
        s = pos(text.replace("e6 S", "e6 G"), detection_dominance=dominance)
        assert observe(s, "B").seen == (_seen("K", "W", 10, 10),)
        assert observe(s, "W").own[1] == _own(4, "SU", "W", 6, 5, arts=(1,), codes=("SH",),
                                              art_ready=(0,), stealthy=True, exposed=False)
    assert observe(pos(text), "W").own[1].exposed is True


def test_standard_start_view_rul_18_rul_19_rul_50() -> None:
    """02/§2, RUL-19, RUL-50 (b): at the standard start Black sees 26 of White's 28 pieces (the
    two AAAs on c9 and h9 are stealthy; the Stealth Pawn f9 is locked by Black's e2 Stealth
    Pawn), holds that one lock, and both views share the 68 ground articles and the 20 waiting
    reinforcements. White's turn data is hidden from Black during Black's turn and vice versa."""
    s = api.new_game()
    b, w = observe(s, "B"), observe(s, "W")
    assert (len(b.own), len(b.seen), len(w.own), len(w.seen)) == (28, 26, 28, 26)
    assert not any(p.kind == "AAA" for p in b.seen)
    assert b.locks == (LockView(("p", 21), ("SHP", 9, 6, "G")),)
    assert w.locks == (LockView(("p", 49), ("SHP", 2, 5, "G")),)
    assert [p.locked for p in b.own if p.kind == "SHP"] == [True]
    assert (len(b.ground), len(b.reinforcements)) == (68, 20)
    assert (b.ground, b.reinforcements, b.projectiles) == (w.ground, w.reinforcements,
                                                          w.projectiles)
    assert b.turn is not None and w.turn is None


HIDDEN_BASE = """
piece B K j1 G
piece B DS e3 G
piece B RP b2 G
piece W K j10 G
piece W RP g7 G moved
article AFL c5
reinforcement W TA> h9
"""


@pytest.mark.parametrize("variant", [
    "",                                       # no hidden piece at all
    "piece W SU e8 S\n",                      # a submerged Sub out of the Destroyer's range
    "piece W SU b9 S\npiece W SU h8 S\n",     # two of them elsewhere
    "piece W TA> c7 G SH\n",                  # a stealthy Tank
    "piece W RP c7 G SH stun=2\n",            # a stunned stealthy Pawn on the same square
])
def test_hidden_enemy_pieces_do_not_change_my_view_rul_18_style(variant: str) -> None:
    """STYLE 'test that nothing leaks', RUL-18: states that differ only in the enemy's hidden
    pieces (their number, type, cell, articles, stun) give Black equal views and view keys."""
    plain = observe(pos(HIDDEN_BASE), "B")
    s = pos(HIDDEN_BASE + variant)
    assert observe(s, "B") == plain
    assert view_key(observe(s, "B")) == view_key(plain)
    if variant:                               # not vacuous: White's own view does change
        assert observe(s, "W") != observe(pos(HIDDEN_BASE), "W")


def test_a_visible_difference_changes_the_view_rul_18() -> None:
    """RUL-18: the same Sub one square nearer (distance 3 from the Destroyer) is seen: the views
    differ, so the equality above is not blind."""
    far = observe(pos(HIDDEN_BASE + "piece W SU e7 S\n"), "B")
    near = observe(pos(HIDDEN_BASE + "piece W SU e6 S\n"), "B")
    assert far == observe(pos(HIDDEN_BASE), "B")
    assert near != far and _seen("SU", "W", 6, 5, "S") in near.seen


def test_public_part_rul_50_b() -> None:
    """RUL-50 (b): ground articles (square, type, countdown), the reinforcements of both sides and
    stun counters of visible pieces are public; a hidden piece's stun counter is not."""
    s = pos(HIDDEN_BASE + "piece W FP d7 G stun=2\npiece W RP c7 G SH stun=3\n")
    b, w = observe(s, "B"), observe(s, "W")
    assert b.ground == w.ground == (GroundArticle(5, 3, "AFL", 0),)
    assert b.reinforcements == w.reinforcements == (Reinforcement(9, 8, "W", "TA", ">"),)
    assert _seen("FP", "W", 7, 4, stun=2) in b.seen
    assert not any(p.stun == 3 for p in b.seen)


def test_hidden_torpedo_launcher_exposes_my_sub_hq_10() -> None:
    """HQ-10 ('Asker discloses T') and HQ-16: whether my own piece is seen is part of my view, so
    a hidden enemy Torpedo Launcher (a stealthy Destroyer, which a Torpedo Launcher does not
    detect) within 3 squares of my submerged Sub shows up as my Sub being exposed, and as
    nothing else. This is the one disclosure the plain exchange makes."""
    base = "piece B K j1 G\npiece B SU e5 S\npiece W K j10 G\n"
    alone, near = observe(pos(base), "B"), observe(pos(base + "piece W DS e8 G SH\n"), "B")
    assert alone.own[1].exposed is False and near.own[1].exposed is True
    assert near._replace(own=alone.own) == alone


# -- censored histories (RUL-37, RUL-51 d, 04/C1-C8) ---------------------------------------------

T34 = "to-move W\npiece B K j1 G\npiece B DS e3 G\npiece W K j10 G\npiece W SU e8 S\n"


def test_t34_competitive_history_censoring_rul_37() -> None:
    """00/T34: the saved and White lines are `MV:SUv(8,5)->v(7,5)`, Black's is `MV:?`; the later
    Move e7 S -> e6 S (seen afterwards) shows to Black as `MV:?->v(6,5)`; no line is back-filled."""
    s = play(pos(T34, competitive=True), "MV:SUv(8,5)->v(7,5)", "END")
    assert s.history == ("MV:SUv(8,5)->v(7,5)",)
    assert api.dumps(s).splitlines()[3:] == ["MV:SUv(8,5)->v(7,5)"]
    assert history_for(s, "W") == ["MV:SUv(8,5)->v(7,5)"]
    assert history_for(s, "B") == ["MV:?"]
    s = play(s, "MV:K(1,10)->(2,10)", "END", "MV:SUv(7,5)->v(6,5)", "END")
    assert history_for(s, "B") == ["MV:?", "MV:K(1,10)->(2,10)", "MV:?->v(6,5)"]
    assert history_for(s, "W") == list(s.history)


def test_t34_full_after_the_end_and_in_non_competitive_games_04_c4_c8() -> None:
    """00/T34, A-20, 04/C4, C8, RUL-37: after the game ends (here by the RUL-53 ply limit) Black
    sees the full line; in a non-competitive game it sees it at once."""
    ended = play(pos(T34, competitive=True, ply_limit=2), "MV:SUv(8,5)->v(7,5)", "END")
    assert ended.result == "draw"
    assert history_for(ended, "B") == ["MV:SUv(8,5)->v(7,5)"]
    open_game = play(pos(T34), "MV:SUv(8,5)->v(7,5)", "END")
    assert history_for(open_game, "B") == ["MV:SUv(8,5)->v(7,5)"]


def test_move_destination_censored_when_hidden_after_rul_37() -> None:
    """RUL-37 Move part: a Sub seen on e6 S (distance 3) that moves to e7 S (distance 4) shows its
    description and `?` for its destination."""
    s = play(pos(T34.replace("e8 S", "e6 S"), competitive=True), "MV:SUv(6,5)->v(7,5)", "END")
    assert history_for(s, "B") == ["MV:SUv(6,5)->?"]


def test_t21_reveals_by_the_action_count_as_visible_rul_37() -> None:
    """RUL-37 other parts and results, 00/T21: the hidden Pawn's capture is `MV:?->(5,5)` (hidden
    before, revealed after); the hidden AAA's Fire reveals it, so the Fire part is shown; the
    capture of Black's Pawn (Black's piece) and the SAM (a projectile record) are shown."""
    s = play(pos(T21, competitive=True), "MV:RP(6,5)1SH->(5,5)", "FI:SL/AAA(9,8)->(9,7)", "END")
    assert s.history == ("MV:RP(6,5)1SH->(5,5),FI1:SL/AAA(9,8)->(9,7),RS:RP*RP(5,5)0B,"
                         "S->(9,7)(0,-1)",)
    assert history_for(s, "B") == ["MV:?->(5,5),FI1:SL/AAA(9,8)->(9,7),RS:RP*RP(5,5)0B,"
                                   "S->(9,7)(0,-1)"]


def test_hidden_firer_and_its_results_are_left_out_rul_37() -> None:
    """RUL-37, RUL-20 option off: a Flamer Pawn [SH] that stays hidden when it fires burns a
    hidden friendly Pawn [SH]: Black sees neither the Fire part nor the kill (not caused by
    Black, not Black's piece, not seen); White sees both."""
    text = ("to-move W\npiece B K j1 G\npiece W K j10 G\npiece W FP e7 G SH moved\n"
            "piece W RP e6 G SH moved\n")
    s = play(pos(text, competitive=True, reveal_stealth_on_fire=False),
             "MV:K(10,10)->(10,9)", "FI:FL/FP(7,5)1SH->(6,5)", "END")
    assert s.history == ("MV:K(10,10)->(10,9),FI1:FL/FP(7,5)1SH->(6,5),RS:FP*RP(6,5)1SH0W",)
    assert history_for(s, "B") == ["MV:K(10,10)->(10,9)"]
    assert history_for(s, "W") == list(s.history)


def test_results_of_my_own_action_on_hidden_pieces_are_shown_rul_37_rul_51_a() -> None:
    """RUL-37 results, RUL-51 (a), HQ-4: Black's Stunner ray stops on the hidden Pawn [SH] on e5;
    the stun (caused by Black) is in Black's history in full, with the piece as it was."""
    text = "piece B K j1 G\npiece B SP e2 G\npiece W K j10 G\npiece W RP e5 G SH moved\n"
    s = play(pos(text, competitive=True), "MV:K(1,10)->(2,10)", "FI:ST/SP(2,5)->(3,5)", "END")
    line = "MV:K(1,10)->(2,10),FI1:ST/SP(2,5)->(3,5),RS:SP*RP(5,5)1SH3W"
    assert s.history == (line,)
    assert history_for(s, "B") == [line] and history_for(s, "W") == [line]


def test_hidden_pick_up_is_left_out_rul_37_rul_50_c() -> None:
    """RUL-37, RUL-50 (c): a hidden AAA's Pick-up is not in Black's history (Black sees only the
    ground change); White's history has it."""
    text = "to-move W\npiece B K j1 G\npiece W K j10 G\npiece W AAA h9 G\narticle AFL h9\n"
    s = play(pos(text, competitive=True), "MV:K(10,10)->(10,9)", "PU:AAA(9,8)^AFL", "END")
    assert s.history == ("MV:K(10,10)->(10,9),PU:AAA(9,8)^AFL",)
    assert history_for(s, "B") == ["MV:K(10,10)->(10,9)"]
    assert observe(s, "B").ground == ()


def test_t41_hidden_doze_entry_omitted_rul_37() -> None:
    """00/T41, RUL-37: Black's nudge moves the hidden AAA too; Black's history leaves out the
    `AAA(5,6)` entry, White's keeps the full record."""
    text = ("piece B K j1 G\npiece B DO e4 G\npiece B FP e4 G\npiece W K j10 G\n"
            "piece W FP f5 G\npiece W AAA f5 G\n")
    s = play(pos(text, competitive=True), "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6)", "END")
    full = "MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6),AAA(5,6)"
    assert s.history == (full,)
    assert history_for(s, "B") == ["MV:DO(4,5)->(4,4),DO>(4,4)FP(4,5),FP(5,6)"]
    assert history_for(s, "W") == [full]


def test_trip_destination_censored_and_hidden_steps_omitted_rul_51_d() -> None:
    """RUL-51 (d), RUL-37: a stealthy XXX Pawn fires its Jump Pack toward c6 (revealed by the
    Fire until the end of ply 3): Black reads `->?` for the destination; the step of ply 4 (the
    reveal over, hidden again) is left out of Black's line; White reads everything."""
    text = "to-move W\npiece B K j1 G\npiece W K j10 G\npiece W XP c8 G JP SH moved\n"
    s = play(pos(text, competitive=True), "MV:K(10,10)->(10,9)", "FI:JU/XP(8,3)2JPSH->(6,3)",
             "END", "MV:K(1,10)->(2,10)", "END", "MV:K(10,9)->(10,10)", "END")
    assert s.history == ("MV:K(10,10)->(10,9),FI1:JU/XP(8,3)2JPSH->(6,3)",
                         "MV:K(1,10)->(2,10)",
                         "MV:K(10,9)->(10,10)-TRA->XP^(8,3)2JPSH^(7,3)")
    assert history_for(s, "B") == ["MV:K(10,10)->(10,9),FI1:JU/XP(8,3)2JPSH->?",
                                   "MV:K(1,10)->(2,10)", "MV:K(10,9)->(10,10)"]
    assert history_for(s, "W") == list(s.history)


def test_censored_lines_are_display_only_n_1() -> None:
    """docs/rulings.md N-1, RUL-36: `?` never reaches a save; the parser refuses it."""
    s = play(pos(T34, competitive=True), "MV:SUv(8,5)->v(7,5)", "END")
    assert "?" not in api.dumps(s)
    with pytest.raises(api.NotationError):
        parse_turn(history_for(s, "B")[0])


def test_random_competitive_games_never_back_fill_and_only_remove_rul_37() -> None:
    """RUL-37 'no back-filling', 04/C5: in seeded competitive games each viewer's history only
    grows (earlier lines never change while the game runs); a censored line without `?` is the
    saved line with parts, Doze entries or results left out, never anything added; a
    non-competitive game's views are the saved history."""
    for seed in (3, 8):
        rng = random.Random(seed)
        state = api.new_game(api.Options(competitive=True))
        shown: dict[str, list[str]] = {"B": [], "W": []}
        for n in range(160):
            if state.result is not None:
                break
            state = api.apply_action(state, rng.choice(api.legal_actions(state)))
            if n % 40 == 39 or n == 159:
                for side in ("B", "W"):
                    now = history_for(state, side)
                    assert now[:len(shown[side])] == shown[side]
                    assert len(now) == len(state.history)
                    for censored, full in zip(now, state.history):
                        _only_removed(censored, full)
                    shown[side] = now
    open_game = api.new_game()
    rng = random.Random(5)
    for _ in range(60):
        open_game = api.apply_action(open_game, rng.choice(api.legal_actions(open_game)))
    assert history_for(open_game, "B") == history_for(open_game, "W") == list(open_game.history)


def _only_removed(censored: str, full: str) -> None:
    """``censored`` is ``full`` less parts, Doze entries or results (lines with no `?`)."""
    if "?" in censored:
        assert censored.startswith("MV:?") or "->?" in censored or "MV:" in censored
        return
    c, f = parse_turn(censored), parse_turn(full)
    assert c.move is not None and f.move is not None
    assert (c.move.piece, c.move.level, c.move.row, c.move.col) == \
        (f.move.piece, f.move.level, f.move.row, f.move.col)
    assert _subsequence(c.move.doze, f.move.doze)
    assert _subsequence(c.transports, f.transports) and _subsequence(c.fires, f.fires)
    assert _subsequence(c.results, f.results)
    for part in ("pickup", "exchange", "reinforce", "drop"):
        assert getattr(c, part) in (None, getattr(f, part))


def _subsequence(small: tuple[Any, ...], big: tuple[Any, ...]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)
