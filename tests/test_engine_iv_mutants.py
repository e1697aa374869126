"""Issue 13 item 3: tests for breaks the engine suite did not notice.

Each test names, in its docstring, the mutation of the engine it kills ("Kills: ..."); every
one was applied by hand, the test seen failing, and the mutation reverted. Expected values are
worked out by hand from the cited rules; pieces are numbered in listed order (RUL-40); Black
moves first, ply 1; Black's forward is up the ranks (row + 1).
"""
from __future__ import annotations

import pytest

from engine import api
from engine.errors import RuleError
from engine.history import dumps, loads
from engine.movegen import chopper_routes
from engine.movetypes import chopper_routes3
from engine.visibility import hidden_from
from engine_helpers import at, held, legal, one, play, pos, refused
from fire_helpers import act, add_projectile, on_trip, rs, where
from movement_helpers import moves, name

KINGS = "piece B K j1 G\npiece W K j10 G\n"
G, A, S = "G", "A", "S"


def _exchanges(state) -> set[str]:
    return {a for a in legal(state) if a.startswith("EX:")}


def _nudges(state, square: str) -> set[tuple[str, tuple]]:
    return {(name(m.row, m.col), m.doze) for m in moves(state, square, kind="DO") if m.doze}


# -- Chopper Move onto a cell at capacity (03/M1.10, 01/R5.1) -----------------------------------

def test_chopper_move_onto_a_full_cell_is_not_legal_01_R5_1() -> None:
    """01/R5.1, 03/M1.10: the Right Chopper on e5 reaches c7 (own offset (-2,2)); c7's Ground
    already holds two Black pieces (Sub + Tank, 01/R5.4 met), so the Ground Move there is not
    offered and is refused naming 01/R5.1, while the Move to c7's empty Air is offered.

    Kills: deleting ``if not self.enter(movers, r, c, lv, capture=True): continue`` in
    ``movegen._Gen._chopper``."""
    s = pos(KINGS + "piece B CH> e5 G\npiece B SU c7 G\npiece B TA> c7 G\n")
    assert "MV:CH(5,5)>->^(7,3)" in legal(s)
    assert "MV:CH(5,5)>->(7,3)" not in legal(s)
    refused(s, "MV:CH(5,5)>->(7,3)", "01/R5.1")


def test_chopper_with_passenger_onto_a_cell_with_one_piece_01_R5_1() -> None:
    """01/R5.1, RUL-25: Chopper + passenger Jet into c7's Ground, which holds one Black Sub,
    would make three pieces: only the Chopper alone may go there.

    Kills: the same deletion in ``movegen._Gen._chopper`` (movers = Chopper + passenger)."""
    s = pos(KINGS + "piece B CH> e5 G\npiece B JE e5 G\npiece B SU c7 G\n")
    got = legal(s)
    assert "MV:CH(5,5)>->(7,3)" in got
    assert "MV:CH(5,5)>->(7,3)-TRA->JE(5,5)(7,3)" not in got
    assert "MV:CH(5,5)>->^(7,3)-TRA->JE(5,5)^(7,3)" in got


# -- nudges (03/M1.3.6, RUL-26, RUL-45) --------------------------------------------------------

def test_nudge_may_not_land_friend_beside_enemy_03_M1_3_6() -> None:
    """03/M1.3.6, RUL-14: DO + FP on e5, a Black Sub on e6, a White Sub on e7 (not adjacent, not
    a member). North with {FP} is blocked (e6 keeps its Sub: three pieces); north with {FP, e6}
    would put the Black Sub on e7 beside the White Sub, one mixed Ground cell, though both
    coexist: blocked too. With a Black Sub on e7 instead, that nudge is legal.

    Kills: dropping the side test ``len({x.side for x in group}) > 1`` in
    ``movegen._group_ok``."""
    text = KINGS + "piece B DO e5 G\npiece B FP e5 G moved\npiece B SU e6 G\n"
    nudge = "MV:DO(5,5)->(6,5),DO>(6,5)FP(5,5),SU(6,5)"
    s = pos(text + "piece W SU e7 G\n")
    assert not {d for d, _ in _nudges(s, "e5")} & {"e6"}
    refused(s, nudge, "RUL-26")
    friendly = pos(text + "piece B SU e7 G\n")
    assert ("e6", (("FP", 5, 5), ("SU", 6, 5))) in _nudges(friendly, "e5")


def test_nudge_stalls_on_a_hidden_enemy_beside_a_member_RUL_45_03_M1_3_6() -> None:
    """RUL-45, RUL-23, 03/M1.3.6: as above but the piece on e7 is a White AAA (inherent Stealth,
    hidden from Black, coexists). Black sees e7 empty, so the nudge north with {FP, e6} is
    legal; at execution the Sub would land beside a hidden enemy, so the nudge stalls: nothing
    moves, the Move is used and the record writes ``DOv(5,5)``.

    Kills: dropping ``everyone[0].side != everyone[1].side`` in ``movegen.shift_ok``."""
    s = pos(KINGS + "piece B DO e5 G\npiece B FP e5 G moved\npiece B SU e6 G\n"
            "piece W AAA e7 G\n")
    nudge = "MV:DO(5,5)->(6,5),DO>(6,5)FP(5,5),SU(6,5)"
    assert nudge in legal(s)
    s = play(s, nudge)
    assert [p.kind for p in at(s, "e5")] == ["DO", "FP"]
    assert [p.kind for p in at(s, "e6")] == ["SU"] and [p.kind for p in at(s, "e7")] == ["AAA"]
    assert rs(s) == "DOv(5,5)" and s.turn.moved


def test_nudge_members_never_land_off_the_board_RUL_26() -> None:
    """RUL-26, 03/M1.3.6: DO + FP on e2, a Black Pawn on e1 (Black's back rank). The e1 Pawn
    may join only the nudges that keep it on the board (forward-left, forward, forward-right,
    left, right: 5 directions x 2 groups); back-left and back-right move DO + FP alone; back
    is blocked (e1 keeps its Pawn). 12 nudges; the back nudge with e1 is refused.

    Kills: ``usable = squares`` instead of the ``on_board(sq[0] + dr, sq[1] + dc)`` filter in
    ``movegen._Gen._nudges``."""
    s = pos(KINGS + "piece B DO e2 G\npiece B FP e2 G moved\npiece B SP e1 G moved\n")
    solo, both = (("FP", 2, 5),), (("FP", 2, 5), ("SP", 1, 5))
    want = {(d, g) for d in ("d3", "e3", "f3", "d2", "f2") for g in (solo, both)}
    want |= {("d1", solo), ("f1", solo)}
    assert _nudges(s, "e2") == want
    refused(s, "MV:DO(2,5)->(1,5),DO>(1,5)FP(2,5),SP(1,5)", "RUL-26")


# -- Chopper route order (RUL-23, RUL-44 c) ----------------------------------------------------

def test_chopper_routes_fewest_air_cells_first_RUL_44() -> None:
    """RUL-44 (c), RUL-23: e5 Ground to f7 Ground (middle squares e6, f6). Order: fewest Air
    cells entered (start not counted), then middle squares by rank then file, then at the first
    differing cell the Ground one first:
    0 Air: via e6, via f6; 2 Air: e6 G-then-A, e6 A-then-G, f6 G-then-A, f6 A-then-G;
    3 Air: all-Air via e6, via f6.

    Kills: taking ``airs`` out of the sort key of ``movegen.chopper_routes`` (or counting
    Ground cells instead of Air cells)."""
    want = (
        ((6, 5, G), (7, 6, G)),
        ((6, 6, G), (7, 6, G)),
        ((6, 5, G), (6, 5, A), (7, 6, A), (7, 6, G)),
        ((5, 5, A), (6, 5, A), (6, 5, G), (7, 6, G)),
        ((6, 6, G), (6, 6, A), (7, 6, A), (7, 6, G)),
        ((5, 5, A), (6, 6, A), (6, 6, G), (7, 6, G)),
        ((5, 5, A), (6, 5, A), (7, 6, A), (7, 6, G)),
        ((5, 5, A), (6, 6, A), (7, 6, A), (7, 6, G)),
    )
    assert chopper_routes((5, 5, G), (7, 6, G)) == want


def test_chopper_three_step_routes_fewest_air_cells_first_RUL_44() -> None:
    """RUL-44 (c), 03/M3.10: e5 Ground to f8 Ground in three steps: the six all-Ground routes
    come first, by middle squares (d6-e7, e6-e7, e6-f7, f6-e7, f6-f7, f6-g7); every other
    route enters at least 2 Air cells.

    Kills: taking ``airs`` out of the sort key of ``movetypes.chopper_routes3``."""
    routes = chopper_routes3((5, 5, G), (8, 6, G))
    mids = [((6, 4), (7, 5)), ((6, 5), (7, 5)), ((6, 5), (7, 6)), ((6, 6), (7, 5)),
            ((6, 6), (7, 6)), ((6, 6), (7, 7))]
    assert routes[:6] == tuple(((*a, G), (*b, G), (8, 6, G)) for a, b in mids)
    assert min(sum(c[2] == A for c in r) for r in routes[6:]) == 2


# -- Exchanges (01/R10.10, RUL-28) ------------------------------------------------------------

def test_two_way_swap_exchange_offered_once_and_applied_01_R10_10() -> None:
    """01/R10.10: a Tank [FL] and a Bulldozer [ST] next to each other, capacity 1 each: no
    one-way Exchange fits (RUL-28); the swap is offered once, written giver = lower serial, and
    swaps the two articles. Written the other way round it is accepted too.

    Kills: deleting the swap loop (``if r.sid > g.sid: ...``) in ``rules._exchanges``, or
    turning ``r.sid > g.sid`` into ``r.sid < g.sid``."""
    s = pos(KINGS + "piece B TA> e4 G FL\npiece B DO e5 G ST\n")
    assert _exchanges(s) == {"EX:TA(4,5)1FL>->FL<=>ST<-DO(5,5)1ST"}
    after = play(s, "EX:TA(4,5)1FL>->FL<=>ST<-DO(5,5)1ST")
    assert held(after, one(after, "e4", "TA")) == ["ST"]
    assert held(after, one(after, "e5", "DO")) == ["FL"]
    back = play(s, "EX:DO(5,5)1ST->ST<=>FL<-TA(4,5)1FL>")
    assert held(back, one(back, "e4", "TA")) == ["ST"]


def test_swap_refused_when_only_the_giver_would_be_over_RUL_28() -> None:
    """RUL-28: Tank [XXX ST AFL] and Bulldozer [FL]. Swapping the XXX for the FL leaves the Tank
    with 3 articles and no XXX (capacity 1): refused though the Bulldozer would fit. Offered:
    only ST<=>FL and AFL<=>FL (every one-way Exchange overfills one side).

    Kills: ``or`` -> ``and`` between the two ``_fits`` tests in ``rules._swap_ok`` (the legal
    set) and in ``rules._check_exchange`` (the refusal would name RUL-18, not RUL-28)."""
    s = pos(KINGS + "piece B TA> e4 G XXX ST AFL\npiece B DO e5 G FL\n")
    assert _exchanges(s) == {"EX:TA(4,5)3XXXSTAFL>->ST<=>FL<-DO(5,5)1FL",
                             "EX:TA(4,5)3XXXSTAFL>->AFL<=>FL<-DO(5,5)1FL"}
    refused(s, "EX:TA(4,5)3XXXSTAFL>->XXX<=>FL<-DO(5,5)1FL", "RUL-28")


def test_swap_refused_when_only_the_receiver_would_be_over_RUL_28() -> None:
    """RUL-28: Tank [FL] gives its FL for the Bulldozer's XXX; the Tank would fit, the Bulldozer
    [XXX ST AFL] would keep 3 articles without XXX: refused naming RUL-28, not offered.

    Kills: ``or`` -> ``and`` between the two ``_fits`` tests in ``rules._check_exchange`` /
    ``rules._swap_ok``."""
    s = pos(KINGS + "piece B TA> e4 G FL\npiece B DO e5 G XXX ST AFL\n")
    assert "EX:TA(4,5)1FL>->FL<=>XXX<-DO(5,5)3XXXSTAFL" not in _exchanges(s)
    refused(s, "EX:TA(4,5)1FL>->FL<=>XXX<-DO(5,5)3XXXSTAFL", "RUL-28")


# -- Reinforce (RUL-34) ------------------------------------------------------------------------

def test_vacated_square_without_a_reinforcement_RUL_34() -> None:
    """RUL-34 conditions 2 and 4: the Destroyer leaves c3, where no reinforcement waits; the
    King on d8 (a Black Jet waits there) stays. No Reinforce is offered; one on c3 is refused
    naming RUL-34 (nothing waits there), one on d8 too (not vacated); c3 is not recorded as an
    activation square left this turn.

    Kills: ``waiting is None or`` dropped from the first test of ``rules._check_reinforce``
    (a TypeError instead of the refusal), and ``track_leave`` recording any square left."""
    s = pos("piece B K d8 G\npiece W K j10 G\npiece B DS c3 G\nreinforcement B JE d8\n")
    s = play(s, "MV:DS(3,3)->(4,3)")
    assert not {a for a in legal(s) if a.startswith("RE:")}
    assert s.turn.vacated == frozenset()
    refused(s, "RE:(3,3)JE", "RUL-34")
    refused(s, "RE:(8,4)JE", "RUL-34")


def test_vacated_square_of_an_enemy_reinforcement_RUL_34() -> None:
    """RUL-34 condition 4 ("Q's owner"): a White reinforcement waits on c3, where a Black
    Destroyer stands; the Destroyer leaves. c3 is not Black's activation square: nothing is
    recorded as vacated, no Reinforce is offered and ``RE:(3,3)JE`` is refused naming RUL-34.

    Kills: dropping ``if owner == side`` from ``rules.begin_turn``'s watch list."""
    s = pos("piece B K j1 G\npiece W K j10 G\npiece B DS c3 G\nreinforcement W JE c3\n")
    s = play(s, "MV:DS(3,3)->(4,3)")
    assert s.turn.vacated == frozenset()
    assert not {a for a in legal(s) if a.startswith("RE:")}
    refused(s, "RE:(3,3)JE", "RUL-34")


# -- the #order line of a save (04/H3) ---------------------------------------------------------

def test_save_writes_the_played_order_when_it_differs_04_H3() -> None:
    """04/H3 (docs/rulings.md E-1): Black fires before its Move; the line prints the Move first,
    so ``#order FI1,MV`` follows it. White's turn is in printing order: no ``#order`` line.
    Loading gives back the same orders and the same state hash.

    Kills: ``if order:`` -> ``if not order:`` (or deleting the ``#order`` write) in
    ``history.dumps``; ``tags != printed`` -> ``tags == printed`` in ``rules.finish_line``;
    the ``#order`` line not read back in ``history.loads``."""
    s = pos(KINGS + "piece B TA> e4 G\n")
    s = play(s, "FI:FL/TA(4,5)>->(5,5)", "MV:K(1,10)->(1,9)", "END", "MV:K(10,10)->(10,9)", "END")
    body = dumps(s).split("\n")[3:]
    assert body == ["MV:K(1,10)->(1,9),FI1:FL/TA(4,5)>->(5,5)", "#order FI1,MV",
                    "MV:K(10,10)->(10,9)", ""]
    back = loads(dumps(s))
    assert back.orders == ("FI1,MV", "")
    assert api.state_hash(back) == api.state_hash(s)


# -- Jump Pack / Scuba trips (RUL-30, RUL-31) --------------------------------------------------

def test_same_row_trips_go_straight_along_the_row_RUL_31() -> None:
    """RUL-31: a destination on the start's row is straight (one path shape, no ``<``/``>``):
    a Jump Pack from e5 to h5 flies f5, g5, h5 (Air); a Scuba from e5 to b5 dives d5, c5, b5;
    on the start's file likewise: a Jump Pack from e5 to e8 flies e6, e7, e8.

    Kills: ``sr = (dr > 0) - (dr < 0)`` mutated to ``(dr > 0) - (dr <= 0)`` in
    ``fire.trip_path`` (a row trip then bends off its row), the same for ``sc`` (a file trip
    bends off its file), and ``m == 0 or m == n`` -> ``m == n`` in ``fire.trip_shapes``."""
    s = pos(KINGS + "piece B TA> e5 G JP\n")
    jumps = {a for a in legal(s) if a.startswith("FI:JU/") and a.split("->")[1][:5] == "(5,8)"}
    assert jumps == {"FI:JU/TA(5,5)1JP>->(5,8)"}
    s = play(s, "FI:JU/TA(5,5)1JP>->(5,8)")
    assert one(s, "e5", "TA", A).trip[4] == ((5, 6), (5, 7), (5, 8))
    s = pos(KINGS + "piece B TA> e5 G SC\n")
    s = play(s, "FI:SC/TA(5,5)1SC>->(5,2)")
    assert one(s, "e5", "TA", S).trip[4] == ((5, 4), (5, 3), (5, 2))
    s = play(pos(KINGS + "piece B TA> e5 G JP\n"), "FI:JU/TA(5,5)1JP>->(8,5)")
    assert one(s, "e5", "TA", A).trip[4] == ((6, 5), (7, 5), (8, 5))


def test_rising_into_a_projectile_cell_is_hit_RUL_31_RUL_15() -> None:
    """RUL-31, RUL-15: a White SAM waits in e5's Air; the Tank on e5 fires its Jump Pack and
    rises into that cell: the SAM hits at once (strength 1, no Anti-SAM) and the Tank is
    destroyed; the SAM is used up; the Jump Pack falls to e5's Ground (RUL-12).

    Kills: deleting ``arrival_hits(state, [p.sid])`` in ``fire._take_off``."""
    s = pos(KINGS + "piece B TA> e5 G JP\n")
    add_projectile(s, "S", "W", "e5", 1, 0)
    s = act(s, "FI:JU/TA(5,5)1JP>->(8,5)")
    assert at(s, "e5", A) == [] and at(s, "e5") == []
    assert s.projectiles == ()
    assert rs(s) == "Sv(5,5),SK*TA^(5,5)1JP>0B"


def test_stunned_piece_firing_a_transport_names_RUL_11() -> None:
    """RUL-11, RUL-30: with ``stunned_may_act`` on (default) a stunned Tank may fire weapons but
    not its Jump Pack: not offered, and refused naming RUL-11 (not RUL-30).

    Kills: the RUL-11 of the stun case in ``fire._transport_ok`` changed to RUL-30 (before the
    fix: ``"RUL-11" if p.stun > 0 else "RUL-30"`` -> ``"RUL-30"`` in ``fire._check_fire_by``),
    or the stun test deleted."""
    s = pos(KINGS + "piece B TA> e5 G JP stun=2\n")
    assert {a for a in legal(s) if a.startswith("FI:JU/")} == set()
    assert {a for a in legal(s) if a.startswith("FI:FL/")}
    refused(s, "FI:JU/TA(5,5)1JP>->(7,5)", "RUL-11")


def test_traveller_may_not_start_a_second_trip_RUL_30() -> None:
    """RUL-30 ("not be on a trip"), RUL-25 special forces: a Tank [XXX JP JP] already on a Jump
    Pack trip in the Air; Jump Pack Fires from the Air are allowed by special forces, and its
    second Jump Pack is free, but it may not start a second trip: not offered, refused naming
    RUL-30.

    Kills: deleting the ``p.trip is not None`` test in ``fire._transport_ok``."""
    s = pos(KINGS + "piece B TA> e5 A XXX JP JP\n", transport_ground_to_ground_only=False)
    on_trip(s, "e5", A, "JP", ("e6", "e7"))
    assert {a for a in legal(s) if a.startswith("FI:JU/")} == set()
    refused(s, "FI:JU/TA^(5,5)3XXXJPJP>->(5,7)", "RUL-30")


# -- projectiles (RUL-15, RUL-46) --------------------------------------------------------------

def test_new_projectile_waits_while_an_older_one_steps_RUL_15() -> None:
    """RUL-15: a Black rocket from an earlier turn on e5 heading north, and a rocket the Rocket
    Pawn on c3 creates this turn on c4: at the end of the turn only the older one steps (e6);
    the new one stays on c4 until the next end phase.

    Kills: deleting ``if p.created == state.ply: stepped.append(p); continue`` in
    ``projectiles.step_all``."""
    s = pos(KINGS + "piece B RP c3 G\n")
    add_projectile(s, "R", "B", "e5", 1, 0)
    s = act(s, "FI:RL/RP(3,3)->(4,3)", "K", "END")
    assert where(s) == [("R", "e6", 1, 0), ("R", "c4", 1, 0)]


def test_both_sides_projectiles_in_one_cell_hit_together_RUL_46() -> None:
    """RUL-46 (c), RUL-15: a White rocket on e4 heading north and a Black rocket on e6 heading
    south both step into e5, where a Black Rocket Pawn stands (defence 1 against rockets). They
    hit together, strength 1 + 1 = 2: the Pawn is destroyed and both rockets are removed.

    Kills: a joint hit that takes only the projectiles of the first one's side
    (``here = [p ... if ... and p.side == first.side]``) or only the first one's strength
    (``strength = here[0].strength``) in ``projectiles._hit_cells``."""
    s = pos(KINGS + "piece B RP e5 G moved\n")
    add_projectile(s, "R", "W", "e4", 1, 0)
    add_projectile(s, "R", "B", "e6", -1, 0)
    s = act(s, "K", "END")
    assert at(s, "e5") == [] and s.projectiles == ()
    assert s.history[-1].endswith("RS:R->(5,5)(1,0),R->(5,5)(-1,0),Rv(5,5),Rv(5,5),RK*RP(5,5)0B")


# -- lock order (RUL-19, RUL-49) ---------------------------------------------------------------

def test_lock_order_ground_before_air_in_one_square_RUL_19() -> None:
    """RUL-19 key 4, RUL-49: the Tank on e3 picks up Anti-Stealth; two hidden stealthy White
    pieces are 2 squares away on e5, a Jet with Stealth in the Air (serial 3) and a Stealth
    Pawn on the Ground (serial 4). Same distance, rank and file: the Ground piece is locked.

    Kills: dropping ``LEVEL_ORDER[p.level]`` from the key in ``visibility.lock_candidates``
    (the lower serial, the Jet, would be locked)."""
    s = pos(KINGS + "piece W JE e5 A SH\npiece W SHP e5 G moved\npiece B TA> e3 G\n"
            "article ASH e3\n")
    assert hidden_from(s, "B") == {3, 4}
    s = play(s, "PU:TA(3,5)>^ASH")
    assert list(s.locks.values()) == [4]


def test_lock_order_rank_before_level_RUL_19() -> None:
    """RUL-19 keys 2 and 4, RUL-49: an Air Jet with Stealth on e1 (rank 1) and a Stealth Pawn on
    e5's Ground (rank 5), both 2 squares from the Tank on e3: lower rank wins over Ground
    level, so the Jet is locked.

    Kills: moving ``LEVEL_ORDER[p.level]`` before rank and file in the key of
    ``visibility.lock_candidates``."""
    s = pos(KINGS + "piece W SHP e5 G moved\npiece W JE e1 A SH\npiece B TA> e3 G\n"
            "article ASH e3\n")
    s = play(s, "PU:TA(3,5)>^ASH")
    assert list(s.locks.values()) == [4]


# -- a non-action (01/R4.8) --------------------------------------------------------------------

@pytest.mark.parametrize("thing", ["MV:K(1,10)->(1,9)", None, 42])
def test_apply_action_refuses_a_non_action_01_R4_8(thing) -> None:
    """01/R4.8 defines the actions; anything else given to ``apply_action`` (notation text not
    parsed, None, a number) is refused naming 01/R4.8 and the state is unchanged.

    Kills: deleting the final ``raise RuleError("01/R4.8", ...)`` of ``rules.apply_action``
    (an UnboundLocalError instead) or changing its rule id."""
    s = pos(KINGS)
    before = api.state_hash(s)
    with pytest.raises(RuleError) as info:
        api.apply_action(s, thing)
    assert info.value.rule == "01/R4.8"
    assert api.state_hash(s) == before
