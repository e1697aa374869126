"""The interface for outsiders (issue 13 item 5): an action's result as structured events, their
public form per player, piece ids in actions and the legal actions of one piece or square.

Every expected event list is written by hand from the rule cited. Positions use the
engine.position format: pieces are numbered in the order listed (RUL-40), articles too.
Squares are e5 in positions and (row, col) = (5,5) in notation and events.
"""
from __future__ import annotations

import random
import re

import pytest

from engine import api
from engine.api import (ArticleDropped, ArticleGiven, ArticlePicked, ArticlePlaced, Captured,
                        Converted, Destroyed, GameEnded, HiddenAgain, Moved, ProjectileCreated,
                        ProjectileHit, ProjectileLost, ProjectileStepped, Reinforced, Revealed,
                        Stunned, TurnBegan, events_for)
from engine_helpers import play, pos

KINGS = "piece B K a1 G\npiece W K j10 G\n"


def act(state: api.GameState, text: str) -> tuple[api.GameState, tuple[api.Event, ...]]:
    """Apply one action written in notation (``END`` ends the turn); the state and its events."""
    action = api.EndTurn() if text == "END" else api.parse_action(text)
    return api.apply_action_events(state, action)


def places(event: api.Event) -> set[tuple[object, ...]]:
    """Every square and cell an event names."""
    out = set()
    for name in event.__dataclass_fields__:                         # type: ignore[union-attr]
        v = getattr(event, name)
        if isinstance(v, tuple) and len(v) in (2, 3) and all(isinstance(x, int) for x in v[:2]):
            out.add(v)
    return out


def squares(events: tuple[api.Event, ...]) -> set[tuple[object, ...]]:
    """The squares (row, col) the events name."""
    return {p[:2] for e in events for p in places(e)}


# -- captures, articles ------------------------------------------------------------------------

def test_r6_3_capture_by_moving_events():
    """01/R6.3, 03/M0.10: the King moving onto the enemy Pawn's square takes it; RUL-12: the
    Pawn's Flamer is placed on its own square's Ground, which is empty."""
    s = pos("piece B K e5 G\npiece W K j10 G\npiece W RP e6 G FL")
    _, events = act(s, "MV:K(5,5)->(6,5)")
    assert events == (
        Moved(1, "K", "B", (5, 5, "G"), (6, 5, "G"), "move", "BW", "BW"),
        Captured(3, "RP", "W", (6, 5, "G"), 1, "BW", "B"),
        ArticlePlaced(1, "FL", (6, 5), 3, "W", "BW"),
    )


def test_r6_3_capture_public_forms():
    """RUL-37, RUL-50 a: the loser sees its own Pawn taken but not the capturer's serial; the
    winner sees the Pawn without its serial (an enemy piece is never named by serial)."""
    s = pos("piece B K e5 G\npiece W K j10 G\npiece W RP e6 G FL")
    _, events = act(s, "MV:K(5,5)->(6,5)")
    assert events_for(events, "W") == (
        Moved(0, "K", "B", (5, 5, "G"), (6, 5, "G"), "move", "BW", "BW"),
        Captured(3, "RP", "W", (6, 5, "G"), 0, "BW", "B"),
        ArticlePlaced(1, "FL", (6, 5), 3, "W", "BW"),
    )
    assert events_for(events, "B") == (
        Moved(1, "K", "B", (5, 5, "G"), (6, 5, "G"), "move", "BW", "BW"),
        Captured(0, "RP", "W", (6, 5, "G"), 1, "BW", "B"),
        ArticlePlaced(1, "FL", (6, 5), 0, "W", "BW"),
    )


def test_rul29_exchange_drop_and_pickup_events():
    """RUL-29: an Exchange with a neighbour, a Drop and a Pick-up each name the article and the
    square or the two pieces (the Destroyer's Flamer is article 1, the Scuba on e5 article 2)."""
    s = pos(KINGS + "piece B DO e5 G\npiece B DS e6 G FL\narticle SC e5")
    s, given = act(s, "EX:DS(6,5)1FL->FL->DO(5,5)")
    assert given == (ArticleGiven(1, "FL", 4, 3, "B", "BW"),)
    s, dropped = act(s, "DR:DO(5,5)1FLvFL")
    assert dropped == (ArticleDropped(1, "FL", (5, 5), 3, "B", "BW"),)
    s = pos(KINGS + "piece B DO e5 G\narticle SC e5")
    _, picked = act(s, "PU:DO(5,5)^SC")
    assert picked == (ArticlePicked(1, "SC", (5, 5), 3, "B", "BW"),)


# -- weapons -----------------------------------------------------------------------------------

def test_rul11_stun_events():
    """RUL-11: the Stunner ray stops at the first occupied cell, e8; the Bulldozer has no
    Anti-Stunner, so it is stunned for 3 turns and (RUL-12) its Anti-Flamer goes to e8."""
    s = pos(KINGS + "piece B SP e5 G\npiece W DO e8 G AFL")
    _, events = act(s, "FI:ST/SP(5,5)->(6,5)")
    assert events == (
        Stunned(4, "DO", "W", (8, 5, "G"), 3, "BW", "B"),
        ArticlePlaced(1, "AFL", (8, 5), 4, "W", "BW"),
    )


def test_rul9_flame_destroys():
    """RUL-9, RUL-7: the Flamer Pawn's flame on e6 destroys the Rocket Pawn there, which has no
    Anti-Flamer."""
    s = pos(KINGS + "piece B FP e5 G\npiece W RP e6 G")
    _, events = act(s, "FI:FL/FP(5,5)->(6,5)")
    assert events == (Destroyed(4, "RP", "W", (6, 5, "G"), "flame", "BW", "B"),)


def test_rul42_passenger_falls_when_its_chopper_is_destroyed():
    """RUL-42, RUL-15 immediate hit, RUL-46 c: the SAM created in e6's Air hits the Chopper and
    its Tank passenger together; the Chopper has no Anti-SAM and is destroyed, the Tank's Anti-SAM
    holds (RUL-7) and, without its carrier, it comes down to e6's empty Ground."""
    s = pos(KINGS + "piece B SOP e5 G\npiece W CH> e6 A\npiece W TA> e6 A ASL")
    _, events = act(s, "FI:SL/SOP(5,5)->(6,5)")
    assert events == (
        ProjectileCreated(1, "S", "B", (6, 5, "A"), 1, 0, 1),
        ProjectileHit(1, "S", (6, 5, "A")),
        Destroyed(4, "CH", "W", (6, 5, "A"), "sam", "BW", "B"),
        Moved(5, "TA", "W", (6, 5, "A"), (6, 5, "G"), "fell", "BW", "BW"),
    )


def test_rul19_lock_on_pickup_reveals_the_stealthy_piece():
    """RUL-19, RUL-18: picking up an Anti-Stealth locks it on the nearest hidden stealthy enemy,
    White's AAA on h8, which becomes visible to Black (no reveal expiry: until 0). The owner is
    told too; Black's public form names it without its serial."""
    s = pos(KINGS + "piece B DO e5 G\npiece W AAA h8 G\narticle ASH e5")
    assert 4 in api.hidden_from(s, "B")
    _, events = act(s, "PU:DO(5,5)^ASH")
    assert events == (ArticlePicked(1, "ASH", (5, 5), 3, "B", "BW"),
                      Revealed(4, "AAA", "W", (8, 8, "G"), "B", 0))
    assert events_for(events, "W") == (ArticlePicked(1, "ASH", (5, 5), 0, "B", "BW"),
                                       Revealed(4, "AAA", "W", (8, 8, "G"), "B", 0))
    assert events_for(events, "B")[1] == Revealed(0, "AAA", "W", (8, 8, "G"), "B", 0)


def test_rul13_conversion_event_is_public():
    """RUL-13: the Conversion Pawn converts the White Pawn next to it (no Anti-Conversion); both
    players see it in full, the old owner lost the piece and the new one has it."""
    s = pos(KINGS + "piece B CP e5 G\npiece W RP e6 G")
    _, events = act(s, "FI:CS/CP(5,5)->(6,5)")
    assert events == (Converted(4, "RP", "B", (6, 5, "G"), "BW", "B"),)
    assert events_for(events, "W") == events_for(events, "B") == events


def test_rul15_projectile_created_and_hit_at_once():
    """RUL-15 immediate hit, RUL-46: a rocket created in an occupied cell hits at once; the
    Flamer Pawn has no Anti-Rocket (RUL-7), so it is destroyed."""
    s = pos(KINGS + "piece B RP e5 G\npiece W FP e6 G")
    _, events = act(s, "FI:RL/RP(5,5)->(6,5)")
    assert events == (
        ProjectileCreated(1, "R", "B", (6, 5, "G"), 1, 0, 1),
        ProjectileHit(1, "R", (6, 5, "G")),
        Destroyed(4, "FP", "W", (6, 5, "G"), "rocket", "BW", "B"),
    )


def test_rul15_projectile_steps_hits_and_leaves_the_board():
    """RUL-15 end phase, RUL-46 c: the rocket steps from e5 to e6 and hits the Flamer Pawn there;
    the SAM on a5 flying towards column 0 leaves the board; the next ply begins (RUL-1)."""
    s = pos(KINGS + "piece W FP e6 G\n"
            "projectile R B e5 1 0 strength=1 created=0 id=1\n"
            "projectile S W a5 0 -1 strength=1 created=0 id=2\n")
    s = play(s, "MV:K(1,1)->(2,2)")
    _, events = act(s, "END")
    assert events == (
        ProjectileStepped(1, "R", (5, 5, "G"), (6, 5, "G"), 1, 0),
        ProjectileHit(1, "R", (6, 5, "G")),
        Destroyed(3, "FP", "W", (6, 5, "G"), "rocket", "BW", "B"),
        ProjectileLost(2, "S", (5, 1, "A")),
        TurnBegan(2, "W"),
    )


def test_rul46_e_hit_by_own_projectile_shown_to_its_side():
    """RUL-46 e, RUL-51 a: a hit on a hidden enemy piece is caused by the projectile's side,
    which sees the kill (without the serial); the hidden piece's owner sees it whole."""
    s = pos(KINGS + "piece W AAA e6 G\nprojectile R B e5 1 0 strength=1 created=0 id=1\n")
    assert 3 in api.hidden_from(s, "B")                   # the AAA is stealthy (RUL-18)
    s = play(s, "MV:K(1,1)->(2,2)")
    _, events = act(s, "END")
    kill = Destroyed(3, "AAA", "W", (6, 5, "G"), "rocket", "W", "B")
    assert kill in events
    assert Destroyed(0, "AAA", "W", (6, 5, "G"), "rocket", "W", "B") in events_for(events, "B")
    assert kill in events_for(events, "W")


# -- visibility ----------------------------------------------------------------------------------

def test_rul20_fire_reveals_and_the_reveal_expires():
    """RUL-20: the stealthy AAA (RUL-18) is revealed when it fires, until the end of Black's next
    turn (ply 3); at that end phase it is hidden again, while its SAM steps on (RUL-15)."""
    s = pos("to-move W\n" + KINGS + "piece W AAA e5 G")
    s, fired = act(s, "FI:SL/AAA(5,5)->(6,5)")
    assert fired == (
        ProjectileCreated(1, "S", "W", (6, 5, "A"), 1, 0, 1),
        Revealed(3, "AAA", "W", (5, 5, "G"), "B", 3),
    )
    assert events_for(fired, "B")[1] == Revealed(0, "AAA", "W", (5, 5, "G"), "B", 3)
    s = play(s, "MV:K(10,10)->(9,10)", "END", "MV:K(1,1)->(2,2)")
    _, ended = act(s, "END")
    assert ended == (
        ProjectileStepped(1, "S", (6, 5, "A"), (7, 5, "A"), 1, 0),
        TurnBegan(4, "W"),
        HiddenAgain(3, "AAA", "W", (5, 5, "G"), "B"),
    )
    assert events_for(ended, "B")[2] == HiddenAgain(0, "AAA", "W", (5, 5, "G"), "B")


def test_rul37_hidden_move_has_no_event_with_its_square_for_the_enemy():
    """RUL-37, RUL-18: the hidden AAA's Move from e5 to e6 is a full event for White and nothing
    at all for Black: no event of Black's public form names either square."""
    s = pos("to-move W\n" + KINGS + "piece W AAA e5 G")
    _, events = act(s, "MV:AAA(5,5)->(6,5)")
    assert events == (Moved(3, "AAA", "W", (5, 5, "G"), (6, 5, "G"), "move", "W", "W"),)
    assert events_for(events, "W") == events
    assert events_for(events, "B") == ()
    assert not squares(events_for(events, "B")) & {(5, 5), (6, 5)}


def test_rul37_hidden_pickup_shows_the_ground_but_not_the_actor():
    """RUL-50 c: a hidden piece's Pick-up shows as a change of that square's ground articles,
    without the actor."""
    s = pos("to-move W\n" + KINGS + "piece W AAA e5 G\narticle SC e5")
    _, events = act(s, "PU:AAA(5,5)^SC")
    assert events == (ArticlePicked(1, "SC", (5, 5), 3, "W", "W"),)
    assert events_for(events, "B") == (ArticlePicked(1, "SC", (5, 5), 0, "W", "W"),)


def test_rul37_move_into_hiding_shows_only_its_start():
    """RUL-37: an enemy seen just before its Move but hidden just after shows where it left from
    and not where it went (the Sub dives: hiding reason U, RUL-18); its last-seen cell is the
    Ground it left (RUL-50 a, 04/U29), never the Sub level it is on."""
    s = pos("to-move W\n" + KINGS + "piece W SU e5 G")
    _, events = act(s, "MV:SU(5,5)->v(5,5)")
    assert events == (Moved(3, "SU", "W", (5, 5, "G"), (5, 5, "S"), "move", "BW", "W"),
                      HiddenAgain(3, "SU", "W", (5, 5, "G"), "B"))
    assert events_for(events, "B") == (Moved(0, "SU", "W", (5, 5, "G"), None, "move", "BW", "W"),
                                       HiddenAgain(0, "SU", "W", (5, 5, "G"), "B"))
    assert (5, 5, "S") not in {p for e in events_for(events, "B") for p in places(e)}


# -- transport, reinforcements, game end ----------------------------------------------------------

def test_rul31_trip_rise_steps_and_landing():
    """RUL-31: the Jump Pack Fire lifts the Bulldozer to e5's Air; its start phases step it to
    e6 and e7 (one square each, transport_speed 1) and it lands on e7's Ground."""
    s = pos(KINGS + "piece B DO e5 G JP")
    s, fired = act(s, "FI:JU/DO(5,5)1JP->(7,5)")
    assert fired == (Moved(3, "DO", "B", (5, 5, "G"), (5, 5, "A"), "trip", "BW", "BW"),)
    s = play(s, "MV:K(1,1)->(2,2)")
    s, first = act(s, "END")
    assert first == (TurnBegan(2, "W"),)
    s = play(s, "MV:K(10,10)->(9,10)")
    s, second = act(s, "END")
    assert second == (TurnBegan(3, "B"),
                      Moved(3, "DO", "B", (5, 5, "A"), (6, 5, "A"), "trip", "BW", "BW"))
    s = play(s, "MV:K(2,2)->(2,3)", "END", "MV:K(9,10)->(9,9)")
    _, third = act(s, "END")
    assert third == (TurnBegan(5, "B"),
                     Moved(3, "DO", "B", (6, 5, "A"), (7, 5, "A"), "trip", "BW", "BW"),
                     Moved(3, "DO", "B", (7, 5, "A"), (7, 5, "G"), "trip", "BW", "BW"))


def test_rul34_reinforce_event():
    """RUL-34: the King leaves its activation square e3; the waiting Bulldozer enters there with
    the next serial (RUL-40), and the marker's use is public (RUL-50 c)."""
    s = pos("piece B K e3 G\npiece W K j10 G\nreinforcement B DO e3")
    s = play(s, "MV:K(3,5)->(2,5)")
    _, events = act(s, "RE:(3,5)DO")
    assert events == (Reinforced(3, "DO", "B", (3, 5, "G"), "BW"),)
    assert events_for(events, "W") == (Reinforced(0, "DO", "B", (3, 5, "G"), "BW"),)


def test_rul2_taking_the_primary_piece_ends_the_game():
    """RUL-2: taking the enemy's primary government piece ends the game at once."""
    s = pos("piece B K e5 G\npiece W K e6 G\npiece W Q j10 G")
    _, events = act(s, "MV:K(5,5)->(6,5)")
    assert events == (
        Moved(1, "K", "B", (5, 5, "G"), (6, 5, "G"), "move", "BW", "BW"),
        Captured(2, "K", "W", (6, 5, "G"), 1, "BW", "B"),
        GameEnded("B", "primary government piece lost (RUL-2)"),
    )


# -- the contract: values, determinism, no trace ------------------------------------------------

def _replay(state: api.GameState, events: tuple[api.Event, ...]) -> tuple[dict, dict]:
    """The pieces' (cell, side) and the projectiles' cells after applying the events' motions
    to ``state``; each motion must start where the piece or projectile was."""
    pieces = {sid: (p.cell, p.side) for sid, p in state.pieces.items()}
    shots = {p.pid: (p.row, p.col, p.level) for p in state.projectiles}
    for e in events:
        if isinstance(e, Moved):
            assert pieces[e.sid][0] == e.frm, e
            pieces[e.sid] = (e.to, pieces[e.sid][1])
        elif isinstance(e, (Captured, Destroyed)):
            assert pieces.pop(e.sid)[0] == e.cell, e
        elif isinstance(e, Converted):
            pieces[e.sid] = (pieces[e.sid][0], e.side)
        elif isinstance(e, Reinforced):
            pieces[e.sid] = (e.cell, e.side)
        elif isinstance(e, ProjectileCreated):
            shots[e.pid] = e.cell
        elif isinstance(e, ProjectileStepped):
            assert shots[e.pid] == e.frm, e
            shots[e.pid] = e.to
        elif isinstance(e, (ProjectileHit, ProjectileLost)):
            assert shots.pop(e.pid) == e.cell, e
    return pieces, shots


@pytest.mark.parametrize("seed, options", [(13, {}), (14, {"projectile_speed": 3,
                                                            "transport_speed": 3})])
def test_rul40_events_leave_no_trace_and_account_for_every_change(seed, options):
    """RUL-40, DESIGN determinism: deriving events changes neither state's hash and gives equal
    events twice; over a seeded game (also with projectiles and trips at speed 3, RUL-15,
    RUL-31) the events' motions, removals, conversions and projectile steps applied to the
    state before give exactly the pieces and projectiles of the state after."""
    rng = random.Random(seed)
    state = api.new_game(api.Options(**options))
    for _ in range(200):
        if state.result is not None:
            break
        action = api.random_action(state, rng)
        h = api.state_hash(state)
        new, events = api.apply_action_events(state, action)
        h_new = api.state_hash(new)
        assert api.derive_events(state, action, new) == events
        assert (api.state_hash(state), api.state_hash(new)) == (h, h_new)
        pieces, shots = _replay(state, events)
        assert pieces == {sid: (p.cell, p.side) for sid, p in new.pieces.items()}
        assert shots == {p.pid: (p.row, p.col, p.level) for p in new.projectiles}
        state = new


def test_r4_8_illegal_action_gives_no_events_and_changes_nothing():
    """01/R4.8, RUL-11: an illegal action raises RuleError naming the rule; no events, and the
    state's hash is unchanged."""
    s = pos(KINGS + "piece B SP e5 G stun=2")
    h = api.state_hash(s)
    try:
        api.apply_action_events(s, api.parse_action("MV:SP(5,5)->(6,5)"))
    except api.RuleError as exc:
        assert exc.rule == "RUL-11"
    else:
        raise AssertionError("a stunned piece moved")
    assert api.state_hash(s) == h


# -- piece ids and the legal actions of one piece or square --------------------------------------

def test_rul40_action_pieces_and_actions_of_one_piece():
    """RUL-40: an action names its pieces by serial (mover, homing target, Exchange partners);
    the legal actions of one piece are exactly the listed ones it takes part in."""
    s = pos(KINGS + "piece B DO e5 G FL\npiece B DS e6 G")
    ex = api.parse_action("EX:DO(5,5)1FL->FL->DS(6,5)")
    assert api.action_pieces(s, ex) == (3, 4)
    assert api.action_pieces(s, api.parse_action("MV:K(1,1)->(2,2)")) == (1,)
    assert api.action_pieces(s, api.EndTurn()) == ()
    mine = api.actions_of(s, 4)
    assert ex in mine
    assert all(4 in api.action_pieces(s, a) for a in mine)
    assert [a for a in api.legal_actions(s) if 4 in api.action_pieces(s, a)] == mine
    assert api.actions_of(s, 2) == []                       # White's King: not its turn


def test_rul8_actions_at_one_square():
    """RUL-8: the King in the corner a1 has 3 Moves (its on-board king steps), and they are the
    legal actions of square a1; e5's level A holds nothing."""
    s = pos(KINGS + "piece B DO e5 G")
    assert {api.format_action(a) for a in api.actions_at(s, 1, 1)} == {
        "MV:K(1,1)->(1,2)", "MV:K(1,1)->(2,1)", "MV:K(1,1)->(2,2)"}
    assert api.actions_at(s, 5, 5, "A") == []


def test_rul18_cell_view_is_what_the_side_sees():
    """RUL-18: White's stealthy AAA on e5 is in White's view of the cell with its serial and
    absent from Black's; a ground article there is public (RUL-50 b)."""
    s = pos(KINGS + "piece W AAA e5 G\narticle SC e5")
    white = api.cell_view(s, "W", 5, 5, "G")
    black = api.cell_view(s, "B", 5, 5, "G")
    assert [p.sid for p in white.own] == [3] and white.seen == ()
    assert black.own == () and black.seen == ()
    assert [g.code for g in black.ground] == ["SC"] == [g.code for g in white.ground]


_MV = re.compile(r"MV:(\?|.*?\)[<>]?\d*[A-Z]*[<>]?)(?:->(\?|[v^]?\(\d+,\d+\)))?")


def test_rul37_public_moves_agree_with_the_censored_history():
    """RUL-37: in seeded competitive games, each player's public form of a Move shows its start
    exactly when that player's censored history prints the mover, and its end exactly when it
    prints the destination (``MV:?`` when neither): two independent censors agree."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = api.new_game(api.Options(competitive=True))
        public: dict[int, dict[str, Moved | None]] = {}
        for _ in range(150):
            action = api.random_action(state, rng)
            ply = state.ply
            new, events = api.apply_action_events(state, action)
            if new.result is not None:
                break                      # a finished game shows everyone everything (RUL-37)
            if isinstance(action, api.Move):
                for viewer in "BW":
                    shown = [e for e in events_for(events, viewer)
                             if isinstance(e, Moved) and e.how == "move"]
                    public.setdefault(ply, {})[viewer] = shown[0] if shown else None
            state = new
        for viewer in "BW":
            for ply, line in enumerate(api.history_for(state, viewer), start=1):
                if ply not in public:
                    continue
                match = _MV.match(line)
                assert match is not None, line
                src, dst = match.groups()
                move = public[ply][viewer]
                if move is None:
                    assert (src, dst) == ("?", None), (seed, ply, viewer, line)
                else:
                    assert (src == "?", dst == "?") == (move.frm is None, move.to is None), \
                        (seed, ply, viewer, line, move)
                checked += 1
    assert checked > 500
