"""Which questions of hidden play go through PSI and which go plain (docs/rulings.md P-1, P-7;
docs/protocol.md leak table, HQ-1, HQ-10): asserted on the signed messages the two machines
exchange, in one process (net.hidden_pair), from hand-laid positions.

Black's Queen on d1 moves to (8,7); White's stealthy Rocket Pawn on d4 (hidden from Black, RUL-18)
stands where the move's path question (HQ-1 ``first``) and the taken pieces' question
(``open_on``) must ask White. When the Queen is visible to White, the questions name nothing White
does not see (its start and destination are in the action's public text, RUL-37): they go plain.
When the Queen carries Stealth (hidden from White), they go through PSI and the only plain
question is the follow-up ``open_on`` of the cells the PSI found (P-3).
"""
from __future__ import annotations

import types

import engine.api as engine
from engine_helpers import pos
from engine.partial import enemy_hidden_held, known_diff
from net import hidden_psi as hp
from net.hidden_pair import HiddenPair
from net.hidden_wire import HiddenAck, HiddenEvent, HiddenQuery
from net.hidden_wire_psi import ZONE_N, HiddenPsi, psi_messages
from test_net_hidden_psi import _positioned, engine_detectors, engine_question_kind, leaks

MOVE = {False: "MV:Q(1,4)->(8,7)", True: "MV:Q(1,4)1SH->(8,7)"}


def _position(hidden_mover: bool) -> str:
    return ("piece W K j10 G\npiece W RP d4 G SH moved\npiece B K j1 G\n"
            f"piece B Q d1 G{' SH' if hidden_mover else ''} moved\n")


def _play(hidden_mover: bool) -> tuple[HiddenPair, list[tuple[str, object]]]:
    """The pair after Black's Queen move; every machine state checked against the omniscient one."""
    text = _position(hidden_mover)
    eng = _positioned(text)
    options = engine.Options()
    pair = HiddenPair(eng, options)
    pair.act(MOVE[hidden_mover])
    assert pair.stops == []
    omni = engine.apply_action(eng.new_game(options), engine.parse_action(MOVE[hidden_mover]))
    for m in pair.machines.values():
        assert known_diff(m.state_value, omni, m.me) == ""
        assert enemy_hidden_held(m.state_value, omni, m.me) == []
    return pair, list(pair.wire)


def _black_questions(wire: list[tuple[str, object]]) -> tuple[list[str], list[str]]:
    """(kinds of Black's plain hidden-query, kinds of Black's psi-ask) in the move's event."""
    plain, psi = [], []
    for colour, msg in wire:
        if colour != "black":
            continue
        if isinstance(msg, HiddenQuery):
            plain.append(engine_question_kind(msg.question))
        elif isinstance(msg, HiddenPsi):
            psi += [i.kind for i in psi_messages(msg) if isinstance(i, hp.PsiAsk)]
    return plain, psi


def test_a_visible_movers_path_question_goes_plain_hq_1() -> None:
    """HQ-1, P-7: the Queen is visible to White, so its path and taken-piece questions are plain
    signed hidden-query messages (no psi-ask): they disclose only squares of a piece White holds
    and the action's public text names; the result is the omniscient engine's."""
    pair, wire = _play(hidden_mover=False)
    plain, psi = _black_questions(wire)
    assert plain[:2] == ["first", "open_on"]
    assert psi == []
    assert not any(isinstance(m, HiddenPsi) and m.n != ZONE_N for _, m in wire)   # only zone tests
    assert pair.machines["black"].stats["psi_questions"] == 0


def test_a_hidden_movers_path_question_goes_through_psi_hq_1() -> None:
    """HQ-1, P-1: the stealthy Queen is hidden from White, so its path question goes through PSI
    (psi-ask ``first``, then psi-steps), the taken pieces through PSI ``open_on``, and the only plain
    question is the follow-up ``open_on`` of the cells found (P-3); no psi message of Black carries
    one of its cells in clear or unblinded."""
    pair, wire = _play(hidden_mover=True)
    plain, psi = _black_questions(wire)
    assert psi == ["first", "open_on"]
    assert "first" not in plain and plain.count("open_on") <= 1
    black = pair.machines["black"]
    assert black.stats["psi_questions"] == 2
    for colour, msg in wire:
        if isinstance(msg, HiddenPsi):
            assert leaks(pair.machines[colour], msg) == []


def test_the_zone_test_stays_psi_when_no_detector_is_hidden_hq_10() -> None:
    """HQ-10, P-7: Black has no hidden piece and no detector at all, yet the zone test runs through
    PSI both ways after the event and no event or ack carries a zone square: whether the viewer's
    detectors are all visible is known to the viewer alone, so skipping the exchange would tell
    the owner so (docs/rulings.md P-7)."""
    pair, wire = _play(hidden_mover=False)
    zone = {colour for colour, m in wire if isinstance(m, HiddenPsi) and m.n == ZONE_N}
    assert zone == {"white", "black"}
    for _, msg in wire:
        if isinstance(msg, (HiddenEvent, HiddenAck)):
            u, s, _locked = engine_detectors(msg.det)
            assert u == [] and s == []


# -- P-8: public sizes; P-9: the audit's matching shortcut ------------------------------------------

def test_zone_caps_bound_the_pieces_that_can_hide_in_the_standard_setup_p_8() -> None:
    """P-8, RUL-25, RUL-18: in the standard set-up the owner's zone-test list is padded per zone to
    2 x Subs + Scuba articles (zone U) and Stealth-kind pieces + Stealth articles (zone S), counted
    over both sides of the start, not to every serial (56); each serial issued later counts as a
    possible Sub and Stealth kind."""
    from engine.pieces import KINDS
    options = engine.Options(stealth_range_detection=True)
    start = engine.new_game(options)
    kinds = [p.kind for p in start.pieces.values()]
    codes = list(start.art_code.values())
    subs, stealthy = kinds.count("SU"), sum("SH" in KINDS[k].inherent for k in kinds)
    want_u, want_s = 2 * subs + codes.count("SC"), stealthy + codes.count("SH")
    caps = hp.zone_caps(start)
    assert hp.capped_zone_sizes(start, caps) == (want_u + want_s, 200)
    assert want_u + want_s < 2 * (start.next_sid - 1)
    later = start.clone()
    later.next_sid += 3                                     # three reinforcements entered
    assert hp.capped_zone_sizes(later, caps) == (want_u + 6 + want_s + 3, 200)


def test_no_zone_test_runs_when_the_options_leave_no_zone_anything_to_neutralise_p_8() -> None:
    """P-8, RUL-18: with submerged_invisibility off and no stealth_range_detection no piece has a
    hiding reason a zone neutralises: the events carry no zone test, and both sides still know
    exactly what the omniscient engine lets them (the stealthy Pawn stays hidden)."""
    import types

    from engine_helpers import pos
    start = pos(_position(hidden_mover=True), submerged_invisibility=False)
    names = {k: getattr(engine, k) for k in dir(engine) if not k.startswith("__")}
    eng = types.SimpleNamespace(**{**names, "new_game": lambda options=None: start.clone()})
    options = start.options
    assert not options.submerged_invisibility and not options.stealth_range_detection
    pair = HiddenPair(eng, options)
    pair.act(MOVE[True])
    assert pair.stops == []
    assert not any(isinstance(m, HiddenPsi) and m.n == ZONE_N for _, m in pair.wire)
    omni = engine.apply_action(eng.new_game(options), engine.parse_action(MOVE[True]))
    for m in pair.machines.values():
        assert known_diff(m.state_value, omni, m.me) == ""
        assert enemy_hidden_held(m.state_value, omni, m.me) == []
    mover = pair.mover
    pair.command(mover, pair.machines[mover].resign())
    assert all(m.verdict.ok for m in pair.machines.values())


def test_the_audit_reads_matches_from_its_own_record_only_for_the_set_it_sent_p_9() -> None:
    """P-9, HQ-10: an asker given the responder's record (set and cells) finds the same matches
    as by raising the set to its scalar; given a reply whose set differs from the record it falls
    back to the X25519 matching and still finds the true ones."""
    from net.psi import PsiAsker, PsiContext, PsiResponder
    ctx = PsiContext(bytes(32), 7, 3, "HQ-10", "W")
    mine = [(5, 5, "zone-U"), (2, 9, "zone-U"), (7, 1, "zone-U")]
    zone = [(5, 5, "zone-U"), (7, 1, "zone-U"), (3, 3, "zone-U")]
    results = []
    for oracle in (None, "record", "other"):
        r = PsiResponder(ctx, "set", 10, zone, 20, b"r" * 32, b"\x05" * 32, b"\x06" * 32)
        a = PsiAsker(ctx, "set", mine, 10, b"a" * 32, b"r" * 32, b"\x07" * 32, b"\x08" * 32)
        if oracle == "record":
            a.use_oracle(r.z, r.cell_of)
        elif oracle == "other":
            a.use_oracle(list(reversed(r.z)), r.cell_of)      # not the set the reply carries
        a.on_reply(r.on_query(a.query()), 20)
        results.append((sorted(a.matched), a._oracle_on))
    assert results == [([0, 2], False), ([0, 2], True), ([0, 2], False)]


def test_a_projectile_cell_is_asked_plain_in_an_end_phase_hq_8() -> None:
    """HQ-8 ("asker discloses nothing; projectiles are public"), docs/rulings.md P-12, RUL-15:
    White's rocket fired south from c8 steps to c6 at the end of Black's turn, which Black
    resolves; White's own hidden AAA on c6 is destroyed. An end phase sends its questions
    through PSI (``use_psi``), but the projectile's cell names nothing of Black's pieces, so both
    HQ-8 questions (is a piece of White's there, which) go as plain signed ``hidden-query``
    messages, one round trip each, not as a PSI ``first`` of one cell padded to ten steps; the
    result is the omniscient engine's on both sides and both audits pass."""
    text = "to-move W\npiece B K j1 G\npiece W K j10 G\npiece W RP c8 G moved\npiece W AAA c6 G\n"
    eng = _positioned(text)
    options = engine.Options()
    pair = HiddenPair(eng, options)
    omni = eng.new_game(options)
    for action in ("MV:K(10,10)->(10,9)", "FI:RL/RP(8,3)->(7,3)", "END", "MV:K(1,10)->(2,10)"):
        pair.act(action)
        omni = engine.apply_action(omni, engine.parse_action(action))
    w0 = len(pair.wire)
    pair.act("END")
    omni = engine.apply_action(omni, engine.parse_action("END"))
    assert pair.stops == []
    assert omni.history[-1] == "MV:K(1,10)->(2,10),RS:R->(6,3)(-1,0),Rv(6,3),RK*AAA(6,3)0W"
    end = pair.wire[w0:]
    black_queries = [he_question(m.question) for c, m in end if c == "black" and isinstance(m, HiddenQuery)]
    assert [(q.kind, [tuple(x) for x in q.args[0]]) for q in black_queries[:2]] == \
        [("first", [(6, 3, "G")]), ("open_on", [(6, 3, "G")])]
    plain, psi = _black_questions(end)
    assert psi == []
    assert not any(isinstance(m, HiddenPsi) and m.n != ZONE_N for _, m in end)   # only zone tests
    for m in pair.machines.values():
        assert known_diff(m.state_value, omni, m.me) == ""
        assert enemy_hidden_held(m.state_value, omni, m.me) == []
    assert 4 not in pair.machines["white"].state_value.pieces
    pair.command("white", pair.machines["white"].resign())
    assert pair.stops == []
    assert [m.verdict.ok for m in pair.machines.values()] == [True, True]


def he_question(blob: bytes) -> object:
    from net.hidden_engine import load_question
    return load_question(blob)


def test_a_hidden_firers_projectile_hitting_at_creation_stays_in_psi_rul_20() -> None:
    """RUL-20 (``reveal_stealth_on_fire`` off), HQ-8, P-12: White's stealthy Rocket Pawn on c8,
    hidden from Black, fires a rocket south; White's own AAA (with Anti-Rocket) stands on c7,
    the creation cell, and survives. The projectile is created and vanishes in the same hidden
    event, so Black never sees its cell: the creation-time hit questions are not marked public
    and no plain message of White's names c7 (it stands next to the hidden firer)."""
    text = "to-move W\npiece B K j1 G\npiece W K j10 G\npiece W RP c8 G SH moved\npiece W AAA c7 G ARL\n"
    start = pos(text, reveal_stealth_on_fire=False)
    options = start.options
    eng = types.SimpleNamespace(**{**{k: getattr(engine, k) for k in dir(engine) if not k.startswith("__")},
                                   "new_game": lambda options=None: start.clone()})
    pair = HiddenPair(eng, options)
    pair.act("FI:RL/RP(8,3)1SH->(7,3)")
    assert pair.stops == []
    omni = engine.apply_action(start.clone(), engine.parse_action("FI:RL/RP(8,3)1SH->(7,3)"))
    assert omni.projectiles == ()
    for m in pair.machines.values():
        assert known_diff(m.state_value, omni, m.me) == ""
        assert enemy_hidden_held(m.state_value, omni, m.me) == []
    white_plain = [he_question(m.question) for c, m in pair.wire if c == "white" and isinstance(m, HiddenQuery)]
    assert not any((7, 3, "G") in [tuple(x) for x in q.args[0]] for q in white_plain), white_plain
    assert pair.machines["white"].stats["psi_questions"] >= 1
