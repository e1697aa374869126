"""The critical-path shortcuts of hidden play (issue 10 item 6; docs/rulings.md P-10, P-11):
asserted on the signed messages two real machines exchange (net.hidden_pair: the transcript both
sides hold), never on time, from hand-laid positions; each state checked against the
omniscient engine.

White's King j10 and Black's King j1 are visible (no hiding reason); Black's Queen a1 and its
Destroyer d1 (a Torpedo Launcher holder, RUL-18) are visible; White's Sub d5 stands submerged,
hidden from Black until a Torpedo Launcher zone (range 3, 02/D15) reaches it.
"""
from __future__ import annotations

from typing import Any

import engine.api as engine
from engine.partial import enemy_hidden_held, known_diff
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire import HiddenQuery
from net.hidden_wire_psi import ZONE_N, HiddenPsi, psi_messages
from test_net_hidden_psi import _positioned, engine_question_kind

POSITION = ("piece W K j10 G\npiece B K j1 G\npiece B DS d1 G moved\npiece W SU d5 S moved\n"
            "piece B Q a1 G moved\n")
OPENING = ["MV:Q(1,1)->(4,8)", "END"]        # Black's first turn: zone tests run, their results kept


def _tags(wire: list[tuple[str, Any]]) -> list[str]:
    return [f"{c[0]}:{m.TAG}" + (f"/{'zone' if m.n == ZONE_N else m.n}" if isinstance(m, HiddenPsi) else "")
            for c, m in wire]


def _play(texts: list[str], white: type = HiddenLockstep, position: str = POSITION,
          black: type = HiddenLockstep) -> tuple[HiddenPair, Any, list[list[str]]]:
    """The pair after ``texts`` from ``position``, the omniscient state, each action's messages."""
    eng = _positioned(position)
    options = engine.Options()
    pair = HiddenPair(eng, options, machines={
        "white": white(eng, options, "white", b"g" * 32, seed=b"w" * 32),
        "black": black(eng, options, "black", b"g" * 32, seed=b"b" * 32)})
    omni = eng.new_game(options)
    per: list[list[str]] = []
    for text in texts:
        w0 = len(pair.wire)
        pair.act(text)
        if pair.stops:
            per.append(_tags(pair.wire[w0:]))
            break
        omni = engine.apply_action(omni, engine.parse_action(text))
        per.append(_tags(pair.wire[w0:]))
    return pair, omni, per


def _agrees(pair: HiddenPair, omni: Any) -> None:
    for m in pair.machines.values():
        assert known_diff(m.state_value, omni, m.me) == ""
        assert enemy_hidden_held(m.state_value, omni, m.me) == []


def assert_caught(pair: HiddenPair, catcher: str, reason: str, tag: str) -> None:
    """``catcher`` caught the other side first, by breach (RUL-53, docs/rulings.md N-6), for
    ``reason``, with the other side's ``tag`` message as its only evidence."""
    loser = "white" if catcher == "black" else "black"
    assert pair.caught and pair.caught[0][0] == catcher
    assert pair.caught[0][1].startswith(f"{loser} lost by breach: ")
    assert reason in pair.caught[0][1]
    assert [e.data["tag"] for e in pair.events[catcher] if e.kind == "hidden-evidence"] == [tag]


def test_a_quiet_public_move_runs_no_zone_test_and_asks_one_question_p_10() -> None:
    """P-10, P-11, HQ-1, HQ-10: White's visible King (no hiding reason, no detector) steps to j9
    touching nothing of Black's: the event's two zone tests are not run (both sides keep their
    last results and decide so alike), and the plain path question ``first`` answered "nothing
    there" is not followed by ``open_on``: one question, then event, ack, shown. Both sides' views
    are the omniscient engine's."""
    pair, omni, per = _play(OPENING + ["MV:K(10,10)->(9,10)"])
    assert pair.stops == []
    assert per[-1] == ["w:hidden-query", "b:hidden-answer", "w:event", "b:ack", "w:shown"]
    queries = [m for c, m in pair.wire[-5:] if isinstance(m, HiddenQuery)]
    assert [engine_question_kind(q.question) for q in queries] == ["first"]
    white, black = pair.machines["white"], pair.machines["black"]
    assert white.stats["quiet_events"] == black.stats["quiet_events"] == 1
    applied = [e for e in pair.events["white"] if e.kind == "applied"][-1]
    assert applied.data["quiet"] and applied.data["questions"] == 1
    _agrees(pair, omni)


def test_a_detectors_move_still_runs_the_owners_zone_test_rul_18() -> None:
    """RUL-18, P-10: Black's visible Destroyer (a Torpedo Launcher holder, no hiding reason) steps
    from d1 to d2, bringing White's submerged Sub on d5 into its zone. Black's zones change, so
    White's zone test runs: its query is the standing one White sent at the end of Black's start
    phase (P-14: nothing of White's changed since), which Black answers right after its event;
    White's next standing query follows alone, then its ack. Black's hiding squares and White's
    zones do not change, so Black's own test keeps its result (``shown`` follows the ack at once).
    Black sees the Sub afterwards, as the omniscient engine says; with White's test skipped it
    would not."""
    pair, omni, per = _play(OPENING + ["MV:K(10,10)->(9,10)", "END", "MV:DS(1,4)->(2,4)"])
    assert pair.stops == []
    assert per[-1][-5:] == ["b:event", "b:psi/zone", "w:psi/zone", "w:ack", "b:shown"]
    answered = [m for c, m in pair.wire[-4:-3]][0]
    assert [type(x).__name__ for x in psi_messages(answered)] == ["PsiReply"]   # to White's standing query
    white, black = pair.machines["white"], pair.machines["black"]
    assert white.stats["kept_zone_tests"] == black.stats["kept_zone_tests"] == 3   # K move 2, DS move 1
    sub = next(s for s, p in omni.pieces.items() if p.kind == "SU")
    assert sub in black.state_value.pieces
    _agrees(pair, omni)


def test_a_move_whose_path_holds_a_hidden_piece_still_asks_open_on_hq_1() -> None:
    """HQ-1, P-11: when ``first`` finds a hidden piece, the pieces there are asked (``open_on``):
    the shortcut applies only to a ``first`` answered "nothing there". The visible Queen of
    tests/test_net_psi_skip.py moves through the square of White's stealthy Rocket Pawn."""
    from test_net_psi_skip import _black_questions, _play as skip_play
    _pair, wire = skip_play(hidden_mover=False)
    plain, psi = _black_questions(wire)
    assert plain[:2] == ["first", "open_on"] and psi == []


class _AcksWithoutItsZoneTest(HiddenLockstep):
    """An owner that keeps its last zone-test result for every public Move (acks at once): it
    would keep pieces the resolver's new zones reach hidden."""

    def _psi_owner_show(self, cur: Any, det_r: Any) -> Any:
        if cur.peer_text and self.zone_found is not None:
            self._pe(cur).acked = True
            return self._owner_ack(cur, self._kept_zones(det_r.locked))
        return super()._psi_owner_show(cur, det_r)


def test_an_owner_that_skips_its_zone_test_where_p_10_does_not_allow_is_refused() -> None:
    """HQ-10, P-10: Black's Destroyer move changes Black's zones; a White machine that acks it
    without its zone test is refused by Black at that ``ack``, with evidence naming it; White
    loses by breach (RUL-53, docs/rulings.md N-6): Black's claim follows the ``ack`` at once."""
    pair, _omni, per = _play(OPENING + ["MV:K(10,10)->(9,10)", "END", "MV:DS(1,4)->(2,4)"],
                             white=_AcksWithoutItsZoneTest)
    # White's answer to Black's zone test (its query went with Black's event) crosses the claim
    assert list(per[-1][-3:]) == ["w:ack", "w:psi/zone", "b:claim"]
    assert_caught(pair, "black", "'ack' before the owner's zone test", "ack")


ARTICLES = POSITION + "piece W RP h10 G moved\narticle FL h10\narticle SH h10\n"


def test_a_pick_up_of_a_flamer_runs_no_zone_test_p_13() -> None:
    """P-13, HQ-10, RUL-18: White's visible Rocket Pawn on h10 picks up the Flamer lying there:
    no piece moves and no hiding reason or detector changes hands, so neither zone test runs
    (both sides keep their last results and decide so alike): event, ack, shown. Both views are
    the omniscient engine's."""
    pair, omni, per = _play(OPENING + ["PU:RP(10,8)^FL"], position=ARTICLES)
    assert pair.stops == []
    assert per[-1] == ["w:event", "b:ack", "w:shown"]
    white, black = pair.machines["white"], pair.machines["black"]
    assert white.stats["kept_zone_tests"] == black.stats["kept_zone_tests"] == 2
    _agrees(pair, omni)


def test_a_pick_up_of_stealth_still_runs_both_zone_tests_rul_18() -> None:
    """RUL-18, P-13: the same Pawn picks up the Stealth article instead: it gains hiding reason
    S, so both zone tests run, at once: right after its event White sends its own query, then
    its answer to Black's standing query (sent at the end of White's start phase, P-14); Black
    its reply to White's query with its next standing query, then its ack, and White's
    ``shown`` (docs/protocol.md "PSI in play"): three steps in sequence. Black no longer sees
    the Pawn (no Anti-Stealth zone of Black's reaches h10), as the omniscient engine says."""
    pair, omni, per = _play(OPENING + ["PU:RP(10,8)^SH"], position=ARTICLES)
    assert pair.stops == []
    assert per[-1] == ["w:event", "w:psi/zone", "w:psi/zone", "b:psi/zone", "b:ack", "w:shown"]
    kinds = [[type(x).__name__ for x in psi_messages(m)] for c, m in pair.wire[-5:-2]]
    assert kinds == [["PsiQuery"], ["PsiReply"], ["PsiReply", "PsiQuery"]]
    rp = next(s for s, p in omni.pieces.items() if p.kind == "RP" and p.side == "W")
    assert rp not in pair.machines["black"].state_value.pieces
    _agrees(pair, omni)


class _SaysFlamerTakesStealth(HiddenLockstep):
    """White picks up the Stealth article but writes the event's text as a pick-up of the Flamer
    (a quiet article under P-13), hoping both zone tests are skipped and its Pawn stays hidden;
    its consequences (signed, in clear) still record the Stealth pick-up."""

    def act(self, text: str, legal: bool = False) -> Any:
        from net.hidden_play import Ev
        from net.outputs import Send
        fake = text.replace("^SH", "^FL")
        if fake == text:
            return super().act(text, legal)
        cur = Ev("resolver", self.index, self.engine.parse_action(text), fake)
        first = self._step(cur, preview=True)
        self._cached = (fake, (cur, first))
        return Send(first)

    def _quiet(self, cur: Any, before: Any, action: Any, c: Any, actor_side: str) -> Any:
        if actor_side == self.me and cur.text:
            action = self.engine.parse_action(cur.text)     # decides "quiet" from its own fake text
        return super()._quiet(cur, before, action, c, actor_side)


def test_an_event_whose_text_is_not_its_consequences_action_is_refused_p_13() -> None:
    """P-13, HQ-10, RUL-53: the text in clear of White's event names a Flamer pick-up, its
    signed consequences a Stealth pick-up: Black refuses the event at once (it would otherwise
    keep both zone tests on the text's word and lose sight of the Pawn), and White loses by
    breach with that ``event`` as evidence."""
    pair, _omni, per = _play(OPENING + ["PU:RP(10,8)^SH"], white=_SaysFlamerTakesStealth, position=ARTICLES)
    assert per[-1][:1] == ["w:event"] and "b:ack" not in per[-1] and "b:claim" in per[-1]
    assert_caught(pair, "black", "the event's action text is not the action its consequences record", "event")


DROP = POSITION + "piece W RP h10 G moved FL\n"


def test_a_drop_of_a_flamer_runs_no_zone_test_p_13() -> None:
    """P-13, RUL-29: White's visible Rocket Pawn on h10 drops the Flamer it holds: the ground of
    h10 gains exactly that article and nothing else changes, so neither zone test runs: event,
    ack, shown; both views are the omniscient engine's, the Flamer on h10's ground."""
    pair, omni, per = _play(OPENING + ["DR:RP(10,8)1FLvFL"], position=DROP)
    assert pair.stops == []
    assert per[-1] == ["w:event", "b:ack", "w:shown"]
    black = pair.machines["black"].state_value
    assert [black.art_code[a] for a in black.ground[(10, 8)]] == ["FL"]
    _agrees(pair, omni)


def test_a_pick_up_whose_ground_is_not_what_it_says_keeps_no_zone_test_p_13() -> None:
    """P-13, RUL-29: the quiet pick-up of the Flamer keeps both zone tests (its consequences as
    White's machine signs them); the same consequences with the Stealth article gone from h10's
    ground instead, as a lying resolver could send them, keep neither, so a resolver that skipped
    its tests on them is refused."""
    import dataclasses

    from net import hidden_engine as he
    from net.hidden_quiet import kept_tests
    from net.hidden_wire import HiddenEvent
    pair, _omni, _per = _play(OPENING, position=ARTICLES)
    before = pair.machines["black"].state_value
    pair.act("PU:RP(10,8)^FL")
    event = [m for c, m in pair.wire if isinstance(m, HiddenEvent)][-1]
    c = he.load_consequences(event.cons)
    action = engine.parse_action("PU:RP(10,8)^FL")
    assert kept_tests(before, "W", action, c) == (True, True)
    fl, sh = (next(a for a in before.ground[(10, 8)] if before.art_code[a] == code) for code in ("FL", "SH"))
    forged = dataclasses.replace(c, ground=tuple((sq, (fl,) if sq == (10, 8) else aids) for sq, aids in c.ground))
    assert dict(forged.ground)[(10, 8)] == (fl,) and sh not in dict(forged.ground)[(10, 8)]
    assert kept_tests(before, "W", action, forged) == (False, False)
