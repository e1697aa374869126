"""The resolver's ``shown`` before the owner's ack (docs/rulings.md P-15, docs/protocol.md "PSI in
play" step 6; HQ-10, RUL-19; issue 10 item 6): the resolver's ``shown`` (its pieces the owner sees
now) needs only its own zone test's result and the owner's lock targets, so the owner's answer to
that test carries its lock targets and the resolver sends ``shown`` on it, while the owner's ack
is on its way; the ack, checked to name the same targets, finishes the event.

Asserted on the signed messages two real machines exchange (net.hidden_pair), from the hand-laid
position of tests/test_net_quiet.py with a lock of Black's Anti-Stealth on White's Stealth Pawn
added, and over a seeded random game with P-15 on and off; every lying owner is refused at its
first message out of place, that message named as the only evidence (RUL-53, docs/rulings.md N-6).
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import engine.api as engine
from engine.state import state_hash
from net.hidden_messages import PsiReply
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire import HiddenAck
from net.hidden_wire_psi import ZONE_N, HiddenPsi, psi_messages
from test_net_quiet import ARTICLES, OPENING, _agrees, _play, assert_caught

#: Black's Cannon holds an Anti-Stealth article locked on White's Stealth Pawn on e9 (RUL-19)
LOCKED = ARTICLES + "piece W SHP e9 G moved\npiece B CL< b9 G moved ASH\nlock b9 G ASH e9 G\n"
PICK_UP_STEALTH = OPENING + ["PU:RP(10,8)^SH"]
PAWN = 7          # the Stealth Pawn's serial (the seventh piece listed, RUL-40)


def _zone_answer(sender: str, m: Any) -> bool:
    return (sender == "black" and isinstance(m, HiddenPsi) and m.n == ZONE_N
            and any(isinstance(x, PsiReply) and x.qid % 1024 == ZONE_N for x in psi_messages(m)))


def test_the_resolvers_shown_goes_on_the_owners_zone_answer_before_its_ack_p_15() -> None:
    """P-15, RUL-19, HQ-10: White picks up the Stealth article (its zone test runs). Black's
    answer to White's test names Black's lock target, the Stealth Pawn; White sends its
    ``shown`` on that answer, before it has Black's ack, which names the same target. Both views
    are the omniscient engine's: Black sees the locked Pawn."""
    pair, omni, per = _play(PICK_UP_STEALTH, position=LOCKED)
    assert pair.stops == [] and omni.locks == {("a", 3): PAWN}
    assert per[-1] == ["w:event", "w:psi/zone", "w:psi/zone", "b:psi/zone", "b:ack", "w:shown"]
    msgs = pair.wire[-len(per[-1]):]
    answers = [m for c, m in msgs if _zone_answer(c, m)]
    assert [m.locks for m in answers] == [[PAWN]]
    assert [m.targets for c, m in msgs if isinstance(m, HiddenAck)] == [[PAWN]]
    assert all(m.locks is None for c, m in msgs if isinstance(m, HiddenPsi) and m not in answers)
    white = pair.machines["white"]
    # White's record: Black's answer, our shown, then Black's ack
    assert [(own, m.TAG) for own, _s, m in white.transcript[-3:]] == [(False, "psi"), (True, "shown"),
                                                                       (False, "ack")]
    assert white.stats["early_shown"] == 2       # White's start phase and the pick-up
    assert PAWN in pair.machines["black"].state_value.pieces
    _agrees(pair, omni)


class _Late(HiddenLockstep):
    """P-15 off: the resolver's ``shown`` waits for the owner's ack, as before."""
    early_shown = False


def test_p_15_changes_when_the_shown_is_sent_not_what_is_sent_p_15() -> None:
    """P-15, RUL-50: the same seeded random game (Fires half the time) with P-15 on and off in
    both machines: every message each side signs is the same, byte for byte and in the same
    order, and both end in the same states; with it on the resolver sent ``shown`` early in
    most of its events."""
    runs = []
    for cls in (HiddenLockstep, _Late):
        options = engine.Options()
        pair = HiddenPair(engine, options, machines={
            c: cls(engine, options, c, b"g" * 32, seed=c[0].encode() * 32) for c in ("white", "black")})
        rng = random.Random(5)
        for _ in range(50):
            if pair.mover is None or pair.stops:
                break
            legal = engine.legal_actions(pair.machines[pair.mover].state_value)
            fires = [a for a in legal if isinstance(a, engine.Fire)]
            pair.act(engine.format_action(rng.choice(fires if fires and rng.random() < 0.5 else legal)), legal=True)
        assert pair.stops == []
        runs.append(pair)
    on, off = runs
    for colour in ("white", "black"):
        assert [m for c, m in on.wire if c == colour] == [m for c, m in off.wire if c == colour]
        assert state_hash(on.machines[colour].state_value) == state_hash(off.machines[colour].state_value)
    early = sum(m.stats["early_shown"] for m in on.machines.values())
    assert early > 10 and sum(m.stats["early_shown"] for m in off.machines.values()) == 0


def _tap(change: Any) -> Any:
    def tap(sender: str, m: Any) -> Any:
        return change(m) if _zone_answer(sender, m) else m
    return tap


def _caught_on_pick_up(tap: Any) -> HiddenPair:
    pair, _omni, _per = _play(OPENING, position=LOCKED)
    assert pair.stops == []
    pair.tap = tap
    pair.act(PICK_UP_STEALTH[-1])
    return pair


def test_an_owner_whose_zone_answer_names_no_lock_targets_loses_p_15() -> None:
    """P-15, RUL-53: Black's answer to White's zone test, before its ack, without its lock
    targets: White refuses that answer and claims."""
    pair = _caught_on_pick_up(_tap(lambda m: dataclasses.replace(m, locks=None)))
    assert_caught(pair, "white", "without its lock targets, before its ack", "psi")


def test_an_owner_whose_ack_names_other_lock_targets_than_its_zone_answer_loses_p_15() -> None:
    """P-15, RUL-19, RUL-53: Black's zone answer names no lock target (so White's shown leaves
    the locked Pawn out), its ack names the Pawn: White refuses the ack and claims."""
    pair = _caught_on_pick_up(_tap(lambda m: dataclasses.replace(m, locks=[])))
    assert_caught(pair, "white", "names other lock targets than its answer to our zone test", "ack")


def test_lock_targets_out_of_order_or_repeated_are_refused_p_15() -> None:
    """P-15, RUL-53: the lock targets in Black's zone answer repeated: refused as not canonical."""
    pair = _caught_on_pick_up(_tap(lambda m: dataclasses.replace(m, locks=[PAWN, PAWN])))
    assert_caught(pair, "white", "not in ascending order without repeats", "psi")


def test_lock_targets_in_the_resolvers_zone_query_are_refused_p_15() -> None:
    """P-15, RUL-53: White's zone-test query (sent with its event) names lock targets, which only
    the owner's zone answer may: Black refuses it and claims."""
    def tap(sender: str, m: Any) -> Any:
        if sender == "white" and isinstance(m, HiddenPsi) and m.n == ZONE_N and m.locks is None:
            return dataclasses.replace(m, locks=[])
        return m
    pair = _caught_on_pick_up(tap)
    assert_caught(pair, "black", "lock targets in a psi message that is not the owner's answer", "psi")
