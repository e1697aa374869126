"""Full network games between two installations over real TLS sockets on 127.0.0.1.

DESIGN §4, 04/U59–U61: pairing with a short code, rule negotiation (one request approved,
one rejected), a colour clash settled by the coin, a complete bot game; both state hashes
equal and both signed transcripts verify. Also resume after a killed link and the
identity-change refusal.
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

import engine.api as engine
from net.errors import IdentityChanged, PairingFailed
from net.identity import load_or_create
from net.peers import PeerStore
from net.saves import load_save, verify_transcript
from net.session import Host, join, play_as_guest
from net.wal import read
from net_helpers import NO_PSI, QuickBot, make_cfg, no, run


def _bots() -> tuple[QuickBot, QuickBot]:
    # the guest asks for NO_PSI last (rid 2), after the two requests the tests count
    host_bot = QuickBot(engine, seed=1, colour="white", gov="theocracy",
                        approve=lambda changes: "stun_range" not in changes, psi=True)
    guest_bot = QuickBot(engine, seed=2, colour="white", gov="democracy",
                         requests=[{"tank_range": 8}, {"stun_range": 1}, NO_PSI], psi=True)
    return host_bot, guest_bot


async def _game(tmp: Path, host_bot: QuickBot, guest_bot: QuickBot, kill_after: int | None = None):
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    killed = []

    async def killer() -> None:
        while guest_bot.actions + host_bot.actions < (kill_after or 0):
            await asyncio.sleep(0.001)
        assert host.active_link is not None
        host.active_link.writer.transport.abort()  # the WiFi drops mid-turn
        killed.append(guest_bot.actions + host_bot.actions)

    task = asyncio.ensure_future(killer()) if kill_after else None
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=5, backoff=0.05)
        host_out = await host.wait(60)   # a hang guard (issue 10 item 7)
    finally:
        if task:
            task.cancel()
        await host.close()
    return hc, gc, host, host_out, guest_out, killed


def test_full_bot_game_pairs_negotiates_and_ends_with_equal_hashes(tmp_path: Path) -> None:
    """04/U59–U61: pair, one request approved and one rejected, colour clash, game to its end."""
    host_bot, guest_bot = _bots()
    hc, gc, host, host_out, guest_out, _ = run(_game(tmp_path, host_bot, guest_bot))
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.state_hash == guest_out.state_hash
    assert host_out.outcome == guest_out.outcome and host_out.outcome in ("white", "black", "draw")
    assert host_out.game_id == guest_out.game_id
    # negotiation: tank_range approved, stun_range rejected, governments revealed together
    options = guest_out.match.play.options
    assert (options.tank_range, options.stun_range) == (8, 9)
    answers = [e.data for e in guest_bot.events if e.kind == "rule-answer"]
    assert [(a["rid"], a["accept"]) for a in answers] == [(0, True), (1, False), (2, True)]
    assert not guest_out.match.play.psi_on
    # colour clash (both chose white): the coin gave white to exactly one side
    colours = {host_out.match.colour, guest_out.match.colour}
    assert colours == {"white", "black"}
    toss = [e.data for e in guest_bot.events if e.kind == "colours"][0]
    assert toss["toss_winner"] in ("host", "guest") and toss["colours"][toss["toss_winner"]] == "white"
    govs = {options.gov_white, options.gov_black}
    assert govs == {"theocracy", "democracy"}
    # both transcripts verify and hold the same actions
    for cfg, out in ((hc, host_out), (gc, guest_out)):
        header, entries, _ = read(out.transcript)
        summary = verify_transcript(header, entries)
        assert summary.ours > 0 and summary.theirs > 0
        saved_header, saved_entries, saved_hash = load_save(out.transcript.with_suffix(".save"))
        assert saved_hash == out.state_hash and len(saved_entries) == len(entries)
    assert host_out.match.play.history == guest_out.match.play.history
    assert not list((hc.data_dir / "games").glob("active-*"))
    assert len(PeerStore(hc.data_dir).all()) == len(PeerStore(gc.data_dir).all()) == 1


def test_killed_connection_mid_turn_resumes_with_nothing_lost(tmp_path: Path) -> None:
    """DESIGN §4 resume: the link is aborted mid-game; the guest reconnects and the game ends
    with identical histories (no action lost or applied twice) and equal hashes."""
    host_bot, guest_bot = _bots()
    hc, gc, host, host_out, guest_out, killed = run(_game(tmp_path, host_bot, guest_bot, kill_after=30))
    assert killed and killed[0] >= 30
    assert [o.status for o in host.connections].count("disconnected") >= 1
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.state_hash == guest_out.state_hash
    h_hist, g_hist = host_out.match.play.history, guest_out.match.play.history
    assert h_hist == g_hist
    assert len(h_hist) == host_bot.actions + guest_bot.actions  # each action applied exactly once
    for out in (host_out, guest_out):
        header, entries, _ = read(out.transcript)
        verify_transcript(header, entries)


def test_changed_identity_of_pinned_peer_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """04/U59 step 3 (asked only once) and DESIGN §4: a pinned host that comes back with a new
    key is refused with an identity-changed warning; nothing is re-pinned; no fallback to pairing."""
    async def scenario() -> tuple[str, list[str]]:
        hc, gc = make_cfg(tmp_path, "host", engine), make_cfg(tmp_path, "guest", engine)
        host = Host(hc, QuickBot(engine, 1), "127.0.0.1", 0)
        port = await host.start()
        try:  # first contact: pair (then play a short game would follow; stop after pairing)
            from net.session import run_pairing  # noqa: F401  (pairing runs inside join)
            guest_bot = QuickBot(engine, 2, max_actions=0)
            task = asyncio.ensure_future(join(gc, guest_bot, "127.0.0.1", port))
            while not PeerStore(gc.data_dir).all():
                await asyncio.sleep(0.01)
            task.cancel()
            try:
                await task
            except BaseException:
                pass
        finally:
            await host.close()
        before = PeerStore(gc.data_dir).all()
        # the "same" host reinstalled: new key, same address and port
        (hc.data_dir / "identity.key").unlink()
        hc2 = make_cfg(tmp_path, "host", engine)
        host2 = Host(hc2, QuickBot(engine, 1), "127.0.0.1", port)
        await host2.start()
        try:
            with pytest.raises(IdentityChanged) as info:
                await join(gc, QuickBot(engine, 2), "127.0.0.1", port)
        finally:
            await host2.close()
        assert PeerStore(gc.data_dir).all() == before
        return str(info.value), [p.fingerprint for p in before]

    message, _ = run(scenario())
    assert "IDENTITY CHANGED" in message and "possible impostor" in message


def test_pairing_not_confirmed_pins_nothing(tmp_path: Path) -> None:
    """04/U59 step 3: if one player does not confirm the code, neither side pins the other."""
    async def scenario() -> str:
        hc = make_cfg(tmp_path, "host", engine, confirm=no)
        gc = make_cfg(tmp_path, "guest", engine)
        host = Host(hc, QuickBot(engine, 1), "127.0.0.1", 0)
        port = await host.start()
        try:
            with pytest.raises(PairingFailed) as info:
                await join(gc, QuickBot(engine, 2), "127.0.0.1", port)
        finally:
            await host.close()
        assert PeerStore(hc.data_dir).all() == [] and PeerStore(gc.data_dir).all() == []
        return str(info.value)

    assert "did not confirm" in run(scenario())
