"""Hidden play with the PSI exchanges wired in (issue 8 item 4; net/hidden_play_psi.py): the zone
test each way after every event instead of disclosed detectors, the remote questions of hidden
actors and the lock search through private set intersection, their secrets derived from each
side's salt secret, the audit re-running them byte for byte. In-process pairs of machines and a
real TLS game on 127.0.0.1.

Rule ids: HQ-10 (the zone test), HQ-1 (a hidden mover's path), HQ-11 (the lock search), RUL-18
(what a side sees), RUL-37 (hidden actions and the audit).
"""
from __future__ import annotations

import random
import types
from pathlib import Path
from typing import Any

import pytest

import engine.api as engine
from engine.partial import enemy_hidden_held, known_diff, known_key
from engine_helpers import pos
from net import hidden_psi as hp
from net.frames import pack
from net.hidden_messages import PsiQuery, PsiReply, PsiStep, PsiStepReply
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire import HiddenAck, HiddenEvent, HiddenQuery
from net.hidden_wire_psi import HiddenPsi, psi_messages
from net.psi import PsiAsker, PsiResponder, cell_u
from net.wal import read
from net_helpers import run
from test_net_hidden import DEEP, STEALTH, _audited, _bots, _omniscient, _tls_game

ASKER_SENT = (hp.PsiAsk, PsiQuery, PsiStep)       # what the asker of an exchange sends
RESPONDER_SENT = (PsiReply, PsiStepReply)


def _game(opts: dict[str, Any], seed: int, actions: int, psi: bool = True,
          machine: type = HiddenLockstep, liar: str | None = None) -> tuple[HiddenPair, Any]:
    """A seeded in-process game; with ``liar`` (a colour) that side runs ``machine``. After every
    action each honest side's state is what it may know of the omniscient state (RUL-18)."""
    options = engine.Options(**opts)
    gid = bytes(32)
    seeds = (b"w" * 32, b"b" * 32)
    ms = {c: (machine if c == liar else HiddenLockstep)(engine, options, c, gid, seed=s, psi=psi)
          for c, s in zip(("white", "black"), seeds)}
    pair = HiddenPair(engine, options, machines=ms)
    rng = random.Random(seed)
    omni = engine.new_game(options)
    for _ in range(actions):
        colour = pair.mover
        if colour is None or pair.stops:
            break
        legal = engine.legal_actions(pair.machines[colour].state_value)
        fires = [a for a in legal if isinstance(a, engine.Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else legal)
        pair.act(engine.format_action(action), legal=True)
        omni = engine.apply_action(omni, action)
        if liar is None:
            assert pair.stops == []
            for c, m in pair.machines.items():
                assert known_diff(m.state_value, omni, m.me) == "", (seed, c)
                assert enemy_hidden_held(m.state_value, omni, m.me) == []
    return pair, omni


def _resign(pair: HiddenPair) -> None:
    mover = pair.mover
    if mover is not None:
        pair.command(mover, pair.machines[mover].resign())


def leaks(sender: Any, msg: Any) -> list[str]:
    """The asker's or responder's cells of ``sender`` (its own record of every exchange) that
    appear in clear in its ``psi`` message: their canonical msgpack, or their unblinded point
    under the exchange's context (tests/test_hidden_psi.py's checks)."""
    out = []
    for inner, raw in zip(psi_messages(msg), msg.msgs):
        asker = sender.me if isinstance(inner, ASKER_SENT) else sender.them
        ctx, cells = sender.psi_cells[(asker, inner.qid)]
        if isinstance(inner, PsiQuery):
            points = set(inner.x)
        elif isinstance(inner, PsiReply):
            points = set(inner.z) | set(inner.y)
        elif isinstance(inner, PsiStep):
            points = {inner.x}
        elif isinstance(inner, PsiStepReply):
            points = {inner.y}
        else:
            points = set()
        for c in cells:
            if pack(list(c)) in raw:
                out.append(f"{inner.TAG} {inner.qid} carries {c} in clear")
            if cell_u(ctx, c) in points:
                out.append(f"{inner.TAG} {inner.qid} carries {c} unblinded")
    return out


@pytest.mark.slow
def test_in_process_games_with_psi_agree_with_the_omniscient_engine_and_pass_the_audit() -> None:
    """HQ-10, HQ-1, RUL-18, RUL-37: with PSI on, after every action each side knows exactly what
    the rules let it know; the zone test ran both ways after every event (but a quiet public
    Move, P-10), hidden actors' remote
    questions went through PSI; no event or ack names a zone square; no PSI message carries a cell
    of its sender in clear; the audit (the honest re-run reproducing every PSI message) passes;
    the same game with the option off gives the same history without any PSI message."""
    for opts, seed in ((STEALTH, 1), (DEEP, 2)):
        pair, omni = _game(opts, seed, 70)
        _resign(pair)
        white, black = pair.machines["white"], pair.machines["black"]
        assert white.verdict.ok and black.verdict.ok, (white.verdict.report, black.verdict.report)
        assert white.final_hash == black.final_hash
        events = white.ev
        # both ways, each event, but the tests a public Move keeps (docs/rulings.md P-10), decided
        # alike on both sides
        assert white.stats["kept_zone_tests"] == black.stats["kept_zone_tests"]
        assert white.stats["quiet_events"] == black.stats["quiet_events"]
        # the owner's test: its fresh query after the event, or its standing query answered with
        # the event (P-14), which most events within a turn use
        standing = white.stats["standing_answered"] + black.stats["standing_answered"]
        assert white.stats["zone_tests"] + black.stats["zone_tests"] + standing \
            + white.stats["kept_zone_tests"] >= 2 * (events - 2)
        assert standing > 0
        assert white.stats["psi_questions"] + black.stats["psi_questions"] > 0
        psi_msgs = [(c, m) for c, m in pair.wire if isinstance(m, HiddenPsi)]
        assert psi_msgs
        found = []
        for colour, msg in psi_msgs:
            found += leaks(pair.machines[colour], msg)
        assert found == [], found[:5]
        for _, msg in pair.wire:
            if isinstance(msg, (HiddenEvent, HiddenAck)):
                u, s, _locked = engine_detectors(msg.det)
                assert u == [] and s == [], msg.TAG
            if isinstance(msg, HiddenQuery):
                assert engine_question_kind(msg.question) != "lock"   # HQ-11 always through PSI
        plain, _ = _game(opts, seed, 70, psi=False)
        _resign(plain)
        assert plain.machines["white"].history == white.history
        assert not any(isinstance(m, HiddenPsi) for _, m in plain.wire)
        assert plain.machines["white"].verdict.ok


def engine_detectors(blob: bytes) -> list[Any]:
    from net.frames import unpack_strict
    return unpack_strict(blob)


def engine_question_kind(blob: bytes) -> str:
    from net.hidden_engine import load_question
    return load_question(blob).kind


def _positioned(text: str) -> Any:
    """``engine`` whose new game is the position ``text`` (an agreed start for a test pair)."""
    start = pos(text)
    names = {k: getattr(engine, k) for k in dir(engine) if not k.startswith("__")}
    return types.SimpleNamespace(**{**names, "new_game": lambda options=None: start.clone()})


def test_a_hidden_holders_lock_goes_through_psi_in_play_hq_11() -> None:
    """HQ-11, RUL-19, RUL-49: Black's hidden Stealth Pawn on c3 picks up Anti-Stealth; White's
    hidden stealthy Pawns stand on e7 (distance 4) and b9 (6). The lock search runs as PSI over
    the 300 cells (then lock_in in clear): Black sees the e7 Pawn, not b9; no message White
    receives names c3; the audit passes on both sides."""
    eng = _positioned("piece B K j1 G\npiece B SHP c3 G moved\narticle ASH c3\npiece W K j10 G\n"
                      "piece W RP e7 G SH moved\npiece W RP b9 G SH moved\n")
    options = engine.Options()
    pair = HiddenPair(eng, options)
    pair.act("MV:K(1,10)->(2,10)")
    pair.act("PU:SHP(3,3)^ASH")
    assert pair.stops == []
    black, white = pair.machines["black"], pair.machines["white"]
    assert black.psi_kinds.get("lock") == 1 and black.stats["psi_follow_ups"] == 1
    assert set(black.state_value.locks.values()) == {4} and 5 not in black.state_value.pieces
    assert black.state_value.pieces[4].square == (7, 5)
    steps = [m for c, m in pair.wire if c == "black" and isinstance(m, HiddenPsi)
             and any(isinstance(i, PsiStep) for i in psi_messages(m))]
    assert len(steps) == 299                                   # one psi-step per further cell
    for c, m in pair.wire:
        if isinstance(m, HiddenPsi):
            assert leaks(pair.machines[c], m) == []
    _resign(pair)
    assert black.verdict.ok and white.verdict.ok, (black.verdict.report, white.verdict.report)


class HidingOwner(HiddenLockstep):
    """A lying peer: in its zone tests it leaves out the square of one of its hidden pieces, so
    the viewer never sees that piece even inside its zone (HQ-10)."""

    lied = 0

    def _zone_asker(self, qid: int, root: bytes) -> Any:
        za = super()._zone_asker(qid, root)
        if za.cells:
            cells = za.cells[1:]
            za.psi = PsiAsker(za.rec.ctx, "set", cells, za.psi.size, root, za.psi.peer_root,
                              *self._secret(self.me, qid, "asker"))
            za.cells = cells
            HidingOwner.lied += 1
        return za


class NothingThereOwner(HiddenLockstep):
    """A lying peer: answers every PSI question from an empty set ("nothing there", HQ-1)."""

    lied = 0

    def _question_responder(self, ask: Any, qid: int, root: bytes) -> Any:
        qr = super()._question_responder(ask, qid, root)
        if qr.cells:
            qr.psi = PsiResponder(qr.rec.ctx, qr.mode, ask.size, (), ask.z_size, root,
                                  *self._secret(self.them, qid, "responder"))
            qr.cells = ()
            NothingThereOwner.lied += 1
        return qr


@pytest.mark.slow
def test_a_peer_that_lies_in_a_psi_exchange_is_named_by_the_audit_hq_10_hq_1() -> None:
    """HQ-10, HQ-1, RUL-37: a peer that hides one of its squares from the zone test, or answers a
    PSI question from an empty set, is caught: the honest side's audit (the honest re-run of the
    peer with its opened secret) names the peer's signed 'psi' message and its seq (or play stops
    at once when the lie breaks the public state)."""
    for machine, opts, seed, claim in ((HidingOwner, STEALTH, 1, "'psi-query' of PSI exchange 1023 (HQ-10) differs in x"),
                                       (NothingThereOwner, DEEP, 2, "'psi-reply' of PSI exchange")):
        machine.lied = 0
        pair, _ = _game(opts, seed, 70, machine=machine, liar="white")
        assert machine.lied > 0
        honest = pair.machines["black"]
        if not pair.stops:
            _resign(pair)
        if honest.verdict is not None:
            assert not honest.verdict.ok
            assert "'psi'" in honest.verdict.report and "seq" in honest.verdict.report, honest.verdict.report
            assert claim in honest.verdict.report, honest.verdict.report
            assert any(c == "black" and "audit failed" in r for c, r in pair.caught), pair.caught
        else:
            assert any(c == "black" for c, _ in pair.caught), pair.caught


def test_tls_bot_game_with_psi_passes_the_audit_and_receives_no_cell_in_clear(tmp_path: Path) -> None:
    """HQ-10, HQ-1, RUL-18, RUL-37: a bot game with stealth and submerged Subs over real TLS on
    127.0.0.1 with PSI on (the default): both audits pass, each final state is what that side may
    know of the omniscient replay of the history; every psi message in each side's log (its
    decrypted, signed frames) carries no cell of its sender in clear."""
    opts = {**STEALTH, **{k: v for k, v in DEEP.items() if k != "stealthy_primary_allowed"}}
    host_bot, guest_bot = _bots(opts, resign_after=30, psi=True)
    hc, gc, host_out, guest_out, _ = run(_tls_game(tmp_path, host_bot, guest_bot), 600)
    assert (host_out.status, guest_out.status) == ("finished", "finished"), (host_out.reason, guest_out.reason)
    host_play, guest_play = _audited(host_out), _audited(guest_out)
    assert host_play.psi_on and guest_play.psi_on
    assert host_play.history == guest_play.history and "?" not in host_play.history
    omni = _omniscient(opts, host_play.history)
    for play in (host_play, guest_play):
        assert known_key(play.state_value, play.me) == known_key(omni, play.me)
    assert host_out.state_hash == guest_out.state_hash == engine.state_hash(omni)
    assert host_play.stats["zone_tests"] > 0 and host_play.stats["psi_messages"] > 0
    from net.chain import ChainReader
    checked = 0
    for out, sender in ((guest_out, host_play), (host_out, guest_play)):
        header, entries, _ = read(out.transcript)
        reader = ChainReader(header.peer, header.chain_id)
        for e in entries:
            if e.direction != "in":
                continue
            v = reader.check(e.signed)
            reader.accept(v)
            if isinstance(v.message, HiddenPsi):
                assert leaks(sender, v.message) == []
                checked += 1
            if isinstance(v.message, (HiddenEvent, HiddenAck)):
                u, s, _ = engine_detectors(v.message.det)
                assert u == [] and s == []
    assert checked > 0


def test_the_hidden_psi_option_is_a_network_option_with_default_on_p_6() -> None:
    """P-6 (docs/rulings.md), HQ-10: ``hidden_psi`` is negotiated like ``move_time_limit``: 1 unless
    both sides agreed to 0, outside the engine's options, in the options hash only when 0; any
    other value is refused naming the option and its range."""
    import pytest
    from net.negotiation import NET_OPTIONS, check_net_option, split_options
    assert NET_OPTIONS["hidden_psi"][0] == 1
    engine_opts, net_opts = split_options({**engine.Options().to_dict(), "hidden_psi": 0})
    assert net_opts["hidden_psi"] == 0 and "hidden_psi" not in engine_opts
    assert split_options(engine.Options().to_dict())[1]["hidden_psi"] == 1
    with pytest.raises(ValueError, match="hidden_psi must be an integer from 0 to 1"):
        check_net_option("hidden_psi", 2)
    m = HiddenLockstep(engine, engine.Options(), "white", bytes(32), seed=b"s" * 32, psi=False)
    assert not m.psi_on
