"""PSI values computed ahead and the unblinding asker in hidden play (issue 10 item 6;
net/psi.py ``warm``, ``Blinder.unblind``; net/hidden_play_psi.py ``_psi_warm``).

Both only move or shorten the asker's and responder's own computation: every signed message
must be byte for byte what the plain computation sends (the audit's honest re-run of the peer
reproduces every ``psi`` message, docs/protocol.md "PSI in play"), the results the same, and
both audits must pass. 00/HQ-10 (the zone test), 00/HQ-17 and RUL-37 (the audit).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import engine.api as engine
from net import psi
from net.frames import pack
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire_psi import HiddenPsi


class Counting(HiddenLockstep):
    """Counts the zone answers that took the responder built ahead (and those that did not)."""

    def _answering_responder(self, qid: int, root: bytes) -> Any:
        warmed = self._warm_zr
        zr = super()._answering_responder(qid, root)
        key = "reused" if warmed is not None and zr is warmed[1] else "built"
        self.stats[key] = self.stats.get(key, 0) + 1
        return zr


def _game(options: Any, fast: bool, actions: int = 30, seed: int = 7) -> HiddenPair:
    saved = psi.UNBLIND_COST, HiddenLockstep.psi_warm
    psi.UNBLIND_COST, HiddenLockstep.psi_warm = (saved[0], True) if fast else (float("inf"), False)
    try:
        pair = HiddenPair(engine, options, machine=Counting)
        rng = random.Random(seed)
        n = 0
        while pair.mover is not None and not pair.stops and n < actions:
            m = pair.machines[pair.mover]
            legal = engine.legal_actions(m.state_value)
            ends = [a for a in legal if isinstance(a, engine.EndTurn)]
            pair.act(engine.format_action(ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)), legal=True)
            n += 1
        pair.command(pair.mover, pair.machines[pair.mover].resign())
        return pair
    finally:
        psi.UNBLIND_COST, HiddenLockstep.psi_warm = saved


@pytest.mark.parametrize("opts", [{}, {"stealth_range_detection": True}])
def test_hq10_zone_tests_computed_ahead_send_the_same_bytes_and_pass_both_audits(opts: dict[str, Any]) -> None:
    """The same seeded game with the speed-ups on and off: the same signed transcript, message for
    message (every psi message's bytes), the same stats, both audits pass (HQ-17); with them on
    the zone answers took the responder built ahead after our own send."""
    options = engine.Options(**opts)
    fast, slow = _game(options, True), _game(options, False)
    assert not fast.stops and not slow.stops
    assert [(c, m.TAG, pack(m.fields())) for c, m in fast.wire] == [(c, m.TAG, pack(m.fields())) for c, m in slow.wire]
    psi_msgs = sum(isinstance(m, HiddenPsi) for _, m in fast.wire)
    assert psi_msgs > 20
    for pair in (fast, slow):
        assert all(m.verdict is not None and m.verdict.ok for m in pair.machines.values())
    reused = sum(m.stats.get("reused", 0) for m in fast.machines.values())
    zone_tests = sum(m.stats["zone_tests"] for m in fast.machines.values())
    assert zone_tests > 10 and reused == zone_tests
    assert sum(m.stats.get("reused", 0) for m in slow.machines.values()) == 0


def test_a_warmed_value_is_used_only_for_the_very_point_and_scalar_it_was_computed_for() -> None:
    """``warm`` on one zone (cells A), then the real responder is built for another (cells B, the
    state changed meanwhile): its set is exactly the set a cold build for B sends."""
    ctx = psi.PsiContext(b"g" * 32, 3, 2047, "HQ-10", "white")
    secret = (bytes(range(32)), bytes(range(1, 33)))
    a = [(r, c, "zone-U") for r in range(3) for c in range(3)]
    b = [(r, c, "zone-U") for r in range(1, 4) for c in range(3)]
    assert psi.warm(lambda: psi.PsiResponder(ctx, "set", 12, a, 100, b"r" * 32, *secret))
    warm_b = psi.PsiResponder(ctx, "set", 12, b, 100, b"r" * 32, *secret)
    psi._WARM.clear()
    cold_b = psi.PsiResponder(ctx, "set", 12, b, 100, b"r" * 32, *secret)
    cold_a = psi.PsiResponder(ctx, "set", 12, a, 100, b"r" * 32, *secret)
    assert warm_b.z == cold_b.z and warm_b.cell_of == cold_b.cell_of and warm_b.z != cold_a.z


def test_a_failing_warm_build_is_swallowed_and_the_real_build_still_raises() -> None:
    """A speculative build that fails (too many cells for the set) changes nothing; the real one
    raises the PsiError the rules call for."""
    ctx = psi.PsiContext(b"g" * 32, 3, 2047, "HQ-10", "white")
    cells = [(r, c, "zone-U") for r in range(10) for c in range(10)]
    build = lambda: psi.PsiResponder(ctx, "set", 12, cells, 50, b"r" * 32, bytes(32), bytes(32))  # noqa: E731
    assert psi.warm(build) is False
    with pytest.raises(psi.PsiError, match="do not fit"):
        build()


class ShrinkingViewer(HiddenLockstep):
    """A lying peer: its zone set (the responder of the other side's zone test, the party computed
    ahead after its own send) leaves out one square of its zone (HQ-10)."""

    lied = 0

    def _zone_responder(self, qid: int, root: bytes) -> Any:
        zr = super()._zone_responder(qid, root)
        if zr.cells:
            cells = zr.cells[1:]
            zr.psi = psi.PsiResponder(zr.rec.ctx, "set", zr.size, cells, zr.psi.z_size, root,
                                      *self._secret(self.them, qid, "responder"))
            zr.cells = cells
            if not getattr(psi._LOCAL, "warming", False):
                ShrinkingViewer.lied += 1
        return zr


def test_hq10_a_viewer_that_shrinks_its_warmed_zone_set_is_named_by_the_audit() -> None:
    """HQ-10, RUL-37: White's zone sets leave a square out; with the speed-ups on (White's set
    warmed after its own send, never kept since its build is overridden) Black's audit, the
    honest re-run of White with its opened secret, names White's signed 'psi-reply' and its z."""
    ShrinkingViewer.lied = 0
    gid = hashlib.sha256(b"warm liar game").digest()
    pair = HiddenPair(engine, engine.Options(), machines={
        "white": ShrinkingViewer(engine, engine.Options(), "white", gid, seed=hashlib.sha256(b"w").digest()),
        "black": HiddenLockstep(engine, engine.Options(), "black", gid, seed=hashlib.sha256(b"b").digest())})
    rng = random.Random(7)
    n = 0
    while pair.mover is not None and not pair.stops and n < 30:
        m = pair.machines[pair.mover]
        legal = engine.legal_actions(m.state_value)
        ends = [a for a in legal if isinstance(a, engine.EndTurn)]
        pair.act(engine.format_action(ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)), legal=True)
        n += 1
    assert ShrinkingViewer.lied > 0
    assert pair.machines["white"]._warm_zr is None          # an overridden build is never kept
    honest = pair.machines["black"]
    if not pair.stops:
        pair.command(pair.mover, pair.machines[pair.mover].resign())
    assert honest.verdict is not None and not honest.verdict.ok, pair.stops
    assert "'psi-reply' of PSI exchange" in honest.verdict.report and "differs in z" in honest.verdict.report, \
        honest.verdict.report


def _idle_game(idle: bool, actions: int = 30, seed: int = 7) -> tuple[HiddenPair, dict[str, int]]:
    """The seeded game of ``_game`` (speed-ups on); with ``idle`` both machines run their work
    ahead (``idle_step``) to its end before every action, as a session does while it waits for
    the player or the peer. Counts, until the resignation, the X25519 operations computed by a
    party as it is built (``critical``) and by the builds right after our own send (``after_send``)."""
    counts = {"critical": 0, "after_send": 0}
    real = psi.Blinder.blind

    def counted(self: psi.Blinder, u: bytes, what: str = "value") -> bytes:
        if u not in self._memo:
            counts["after_send" if self._warming else "critical"] += 1
        return real(self, u, what)

    psi._WARM.clear()
    psi.Blinder.blind = counted             # type: ignore[method-assign]
    try:
        pair = HiddenPair(engine, engine.Options())
        rng = random.Random(seed)
        n = 0
        while pair.mover is not None and not pair.stops and n < actions:
            if idle:
                for m in pair.machines.values():
                    steps = 0
                    while m.idle_step():
                        steps += 1
                        assert steps < 1000         # a bounded amount of work per wait
            m = pair.machines[pair.mover]
            legal = engine.legal_actions(m.state_value)
            ends = [a for a in legal if isinstance(a, engine.EndTurn)]
            pair.act(engine.format_action(ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)), legal=True)
            n += 1
        seen = dict(counts)
        pair.command(pair.mover, pair.machines[pair.mover].resign())
    finally:
        psi.Blinder.blind = real            # type: ignore[method-assign]
    return pair, seen


def test_hq10_work_ahead_while_waiting_sends_the_same_bytes_and_leaves_less_for_the_event() -> None:
    """HQ-10, HQ-17: the next event's zone-test blindings computed while a side waits
    (``idle_step``) change no signed byte of the game and both audits still pass; what is left
    to compute when the event comes (right after our own send and as the parties are built) is
    less than half of it without the work ahead."""
    ahead, cold = _idle_game(True), _idle_game(False)
    assert not ahead[0].stops and not cold[0].stops
    assert [(c, m.TAG, pack(m.fields())) for c, m in ahead[0].wire] == \
        [(c, m.TAG, pack(m.fields())) for c, m in cold[0].wire]
    for pair, _ in (ahead, cold):
        assert all(m.verdict is not None and m.verdict.ok for m in pair.machines.values())
    left = ahead[1]["after_send"] + ahead[1]["critical"]
    before = cold[1]["after_send"] + cold[1]["critical"]
    assert before > 1000 and left * 2 < before, (ahead[1], cold[1])
    assert all(not m.idle_step() for m in ahead[0].machines.values())    # the game is over: nothing to do
