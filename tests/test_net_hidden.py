"""Hidden play over the network (issue 8 items 1, 2, 3, 5, 6): each laptop holds its own pieces and
only what it may see of the enemy; hidden actions travel as commitments; answers are bound to
the answerer's root; the end-of-game audit re-checks the peer. In-process pairs of machines
(``net.hidden_pair``) and real TLS games on 127.0.0.1.

Rule ids: RUL-18 (what a side sees), RUL-37 (hidden actions), HQ-14 (announcements),
HQ-16 (visibility changes), HQ-17 (the full record at the end).
"""
from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
from pathlib import Path
from typing import Any

import pytest

import engine.api as engine
from engine.partial import enemy_hidden_held, known_diff, known_key
from engine.visibility import hidden_from
from net.audit_log import audit_log
from net.hidden_pair import HiddenPair
from net.hidden_play import HiddenLockstep
from net.hidden_wire import AuditOpen, HiddenAnswer, HiddenEvent
from net.messages import Claim
from net.session import Host, play_as_guest
from net.wal import read
from net_helpers import QuickBot, make_cfg, run
from wec_p2p.cli import main

#: option sets that bring stealth, submerged Subs and detection into play (tests/test_partial.py)
STEALTH = dict(detection_dominance="stealth", stealth_range_detection=True, stealth_detect_range=2)
DEEP = dict(submerged_detect_range=0, stealthy_primary_allowed=True, transport_ground_to_ground_only=False)
#: in-process machines with the questions and zones in clear (``hidden_psi`` 0, as the TLS games
#: below ask for): this file is about hidden play itself; tests/test_net_hidden_psi.py plays the PSI
PLAIN = functools.partial(HiddenLockstep, psi=False)
NO_REVEALS = dict(submerged_detect_range=1, reveal_stealth_on_fire=False, reveal_submerged_on_fire=False,
                  reveal_stealth_on_capture=False, homing_range=6)


def _play_pair(opts: dict[str, Any], seed: int, actions: int) -> tuple[HiddenPair, Any, int]:
    """A seeded game between two in-process machines, checked after every action against the
    omniscient engine: each side's state is what it may know (RUL-18), nothing hidden held."""
    options = engine.Options(**opts)
    pair = HiddenPair(engine, options, machine=PLAIN)
    rng = random.Random(seed)
    omni = engine.new_game(options)
    hidden_plies = 0
    for n in range(actions):
        colour = pair.mover
        if colour is None:
            break
        legal = engine.legal_actions(pair.machines[colour].state_value)
        assert legal == engine.legal_actions(omni), (seed, n)
        fires = [a for a in legal if isinstance(a, engine.Fire)]
        action = rng.choice(fires if fires and rng.random() < 0.5 else legal)
        pair.act(engine.format_action(action), legal=True)
        omni = engine.apply_action(omni, action)
        assert pair.stops == []
        for c, m in pair.machines.items():
            s = m.me
            assert known_diff(m.state_value, omni, s) == "", (seed, n, c)
            assert enemy_hidden_held(m.state_value, omni, s) == []
            hidden_plies += len(hidden_from(omni, s))
    return pair, omni, hidden_plies


@pytest.mark.parametrize("opts, seed", [(STEALTH, 1), (DEEP, 2), (NO_REVEALS, 3)])
def test_in_process_games_agree_with_the_omniscient_engine_and_pass_the_audit(opts: dict[str, Any],
                                                                              seed: int) -> None:
    """RUL-18, HQ-14: after every action each side's partial state equals what it may know of the
    omniscient state; hidden actions travel as commitments; resigning at the end runs the audit
    (HQ-17), which passes on both sides and fills in the enemy's hidden actions."""
    pair, omni, plies = _play_pair(opts, seed, 120)
    assert plies > 0
    mover = pair.mover
    if mover is not None:       # end the game by a resignation: the audit runs on every ending
        pair.command(mover, pair.machines[mover].resign())
    verdicts = [m.verdict for m in pair.machines.values()]
    assert all(v is not None and v.ok for v in verdicts), [v.report for v in verdicts if v]
    white, black = pair.machines["white"], pair.machines["black"]
    assert white.history == black.history and "?" not in white.history
    assert white.final_hash == black.final_hash == engine.state_hash(omni)
    hidden = sum(isinstance(msg, HiddenEvent) and msg.commit is not None for _, msg in pair.wire)
    assert hidden == white.stats["hidden_actions"] + black.stats["hidden_actions"]


def test_a_hidden_action_travels_as_a_commitment_and_is_opened_only_at_the_audit() -> None:
    """RUL-37, HQ-14: the text of an action whose actor the peer cannot see is never sent during
    play; its ``event`` carries a 32-byte commitment; the audit opens it."""
    for seed in range(4, 12):
        pair, _, _ = _play_pair(DEEP, seed, 150)
        events = [(c, msg) for c, msg in pair.wire if isinstance(msg, HiddenEvent) and msg.commit is not None]
        if events:
            break
    assert events, "no hidden action in 8 seeded games"
    colour, first = events[0]
    machine = pair.machines[colour]
    text = dict(machine.own_hidden)[first.index]
    assert first.text == "" and len(first.commit) == 32
    during_play = b"".join(repr(msg).encode() for _, msg in pair.wire)
    assert text.encode() not in during_play
    peer = pair.machines["black" if colour == "white" else "white"]
    assert peer.history[first.index] == "?"
    mover = pair.mover
    if mover is not None:
        pair.command(mover, pair.machines[mover].resign())
    assert peer.verdict.ok and peer.history[first.index] == text


def test_a_forged_opening_in_an_answer_stops_the_game_naming_the_message() -> None:
    """Issue 8 item 3: a piece an answer opens is checked against the answerer's root at once;
    a changed leaf value (another piece opened) stops the game with the message named."""
    forged: list[Any] = []

    def tap(sender: str, msg: Any) -> Any:   # the first answer that opens a piece: one byte changed
        if isinstance(msg, HiddenAnswer) and msg.opened and not forged:
            slot, value, salt, path = msg.opened[0]
            forged.append(msg)
            return dataclasses.replace(msg, opened=[[slot, value[:-1] + bytes([value[-1] ^ 1]), salt, path]]
                                       + msg.opened[1:])
        return msg
    for seed in range(20, 40):
        pair = HiddenPair(engine, engine.Options(**STEALTH), machine=PLAIN)
        pair.tap = tap
        rng = random.Random(seed)
        for _ in range(300):
            colour = pair.mover
            if colour is None or pair.stops:
                break
            legal = engine.legal_actions(pair.machines[colour].state_value)
            fires = [a for a in legal if isinstance(a, engine.Fire)]
            pair.act(engine.format_action(rng.choice(fires if fires and rng.random() < 0.7 else legal)), legal=True)
        if forged:
            break
    assert forged, "no answer opened a piece in 20 seeded games"
    assert pair.caught and "commitment refused" in pair.caught[0][1] and "'hidden-answer'" in pair.caught[0][1]
    assert f"seq {len([1 for c, m in pair.wire if c != pair.caught[0][0]]) - 1}" in pair.caught[0][1]


def test_an_audit_with_a_changed_hidden_action_names_the_commitment() -> None:
    """Issue 8 item 5: a side that opens one of its hidden actions as another text is caught by
    the audit, naming the action and the peer's signed event."""
    for seed in range(4, 12):
        pair, _, _ = _play_pair(DEEP, seed, 150)
        hid = {c: m.own_hidden for c, m in pair.machines.items() if m.own_hidden}
        if hid:
            break
    assert hid
    liar_colour = next(iter(hid))
    liar = pair.machines[liar_colour]
    index, text = liar.own_hidden[0]
    liar.own_hidden[0] = (index, "END")
    mover = pair.mover
    if mover is not None:
        pair.command(mover, pair.machines[mover].resign())
    honest = pair.machines["black" if liar_colour == "white" else "white"]
    assert honest.verdict is not None and not honest.verdict.ok
    assert f"action {index}" in honest.verdict.report and "does not open" in honest.verdict.report
    assert any("audit failed" in reason for c, reason in pair.caught if c != liar_colour)


# ---- real TLS games ---------------------------------------------------------------------------

def _bots(opts: dict[str, Any], resign_after: int = 60, psi: bool = False) -> tuple[QuickBot, QuickBot]:
    """Host and guest bots of a TLS game under ``opts``, both asking for ``NO_PSI`` unless ``psi``."""
    return (QuickBot(engine, seed=11, colour="white", psi=psi),
            QuickBot(engine, seed=12, colour="black", requests=[opts], resign_after=resign_after, psi=psi))


async def _tls_game(tmp: Path, host_bot: QuickBot, guest_bot: QuickBot, kill_after: int | None = None,
                    **kw: Any) -> tuple[Any, ...]:
    hc, gc = make_cfg(tmp, "host", engine, **kw), make_cfg(tmp, "guest", engine, **kw)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    killed: list[int] = []

    async def killer() -> None:
        while guest_bot.actions + host_bot.actions < (kill_after or 0):
            await asyncio.sleep(0.001)
        assert host.active_link is not None
        host.active_link.writer.transport.abort()   # the WiFi drops mid-game
        killed.append(guest_bot.actions + host_bot.actions)

    task = asyncio.ensure_future(killer()) if kill_after else None
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=5, backoff=0.05)
        host_out = await host.wait(60)
    finally:
        if task:
            task.cancel()
        await host.close()
    return hc, gc, host_out, guest_out, killed


def _audited(out: Any) -> HiddenLockstep:
    play = out.match.play
    assert isinstance(play, HiddenLockstep)
    assert play.verdict is not None and play.verdict.ok, play.verdict
    return play


def _omniscient(opts: dict[str, Any], history: list[str]) -> Any:
    state = engine.new_game(engine.Options(**opts))
    for text in history:
        state = engine.apply_action(state, engine.parse_action(text))
    return state


def test_tls_bot_game_with_stealth_ends_with_the_audit_passed_on_both_sides(tmp_path: Path) -> None:
    """HN-1, HQ-17: a bot game under stealth dominance over real TLS on 127.0.0.1 finishes; both
    audits pass; each side's final partial state is what it may know of the omniscient replay of
    the (now complete) history, and the outcome hashes agree (the audited final state)."""
    host_bot, guest_bot = _bots(STEALTH, resign_after=30)
    hc, gc, host_out, guest_out, _ = run(_tls_game(tmp_path, host_bot, guest_bot), 400)
    assert (host_out.status, guest_out.status) == ("finished", "finished"), (host_out.reason, guest_out.reason)
    host_play, guest_play = _audited(host_out), _audited(guest_out)
    assert host_play.history == guest_play.history and "?" not in host_play.history
    assert sum(m.stats["hidden_actions"] for m in (host_play, guest_play)) > 0   # commitments were in play
    omni = _omniscient(STEALTH, host_play.history)
    for play in (host_play, guest_play):
        assert known_key(play.state_value, play.me) == known_key(omni, play.me)
    assert host_out.state_hash == guest_out.state_hash == engine.state_hash(omni)
    assert any(e.kind == "audit" and e.data["ok"] for e in guest_bot.events)
    # `wec audit LOG` re-runs the same audit offline from each side's finished log
    for out, play in ((host_out, host_play), (guest_out, guest_play)):
        offline = audit_log(engine, out.transcript)
        assert (offline.ok, offline.report) == (True, play.verdict.report)
    assert main(["audit", str(guest_out.transcript)]) == 0
    assert main(["audit", str(guest_out.transcript.with_suffix(".save"))]) == 0


def test_tls_game_resumes_after_a_dropped_link_and_still_passes_the_audit(tmp_path: Path) -> None:
    """Issue 8 item 6: the link drops mid-game; the guest reconnects and both machines are rebuilt
    from their own logs (our salt secret and actions are in our log only); the game ends with
    both audits passed."""
    host_bot, guest_bot = _bots(STEALTH)
    hc, gc, host_out, guest_out, killed = run(_tls_game(tmp_path, host_bot, guest_bot, kill_after=40), 400)
    assert killed
    assert (host_out.status, guest_out.status) == ("finished", "finished"), (host_out.reason, guest_out.reason)
    host_play, guest_play = _audited(host_out), _audited(guest_out)
    assert host_play.history == guest_play.history
    assert host_out.state_hash == guest_out.state_hash


def test_the_guests_log_names_no_hidden_host_piece_square(tmp_path: Path) -> None:
    """RUL-18, issue 8 item 1: the guest's finished log, up to the host's audit openings, holds
    no ``KIND(row,col)`` of a host piece while that piece was hidden from the guest (checked at
    every action of the omniscient replay), while it does name host pieces it saw."""
    host_bot, guest_bot = _bots(DEEP, resign_after=30, psi=True)   # a leak test: PSI on, the default
    hc, gc, host_out, guest_out, _ = run(_tls_game(tmp_path, host_bot, guest_bot), 400)
    assert guest_out.status == "finished", guest_out.reason
    assert guest_out.match.play.psi_on
    guest_play = _audited(guest_out)
    host_side, guest_side = ("W", "B") if guest_play.me == "B" else ("B", "W")
    _, entries, _ = read(guest_out.transcript)
    blob = b""
    for e in entries:
        if b"audit-open" in e.signed.payload and e.direction == "in":
            break
        blob += e.signed.payload + repr(e.secrets).encode()
    state = engine.new_game(engine.Options(**DEEP))
    hidden_texts, seen_texts = set(), set()
    for text in [None] + guest_play.history:
        if text is not None:
            state = engine.apply_action(state, engine.parse_action(text))
        hidden = hidden_from(state, guest_side)
        for sid, p in state.pieces.items():
            if p.side == host_side:
                (hidden_texts if sid in hidden else seen_texts).add(f"{p.kind}({p.row},{p.col})".encode())
    only_hidden = hidden_texts - seen_texts
    assert only_hidden, "no host piece was hidden from the guest"
    leaked = sorted(t for t in only_hidden if t in blob)
    assert leaked == [], leaked
    assert any(t in blob for t in seen_texts)


def test_a_side_that_does_not_open_its_secrets_loses_by_an_audit_claim() -> None:
    """HN-4, issue 8 item 5: after the end, a side whose ``audit-open`` never arrives is claimed
    against once the audit's time limit runs (the peer clock says so); the claimant wins whatever
    the ending, and no audit verdict is given."""
    pair, _, _ = _play_pair(STEALTH, 5, 30)
    pair.tap = lambda sender, msg: None if isinstance(msg, AuditOpen) and sender == "white" else msg
    real_feed = {c: m.feed for c, m in pair.machines.items()}
    black = pair.machines["black"]
    black.feed = lambda own, msg, secrets=None: [] if msg is None else real_feed["black"](own, msg, secrets)
    mover = pair.mover
    assert mover is not None
    pair.command(mover, pair.machines[mover].resign())        # the game is over: both must open
    assert black.auditing and black.peer_clock() == black.audit_seconds and black.clock_kind == "audit"
    pair.command("black", black.claim(black.clock_kind, "no openings within the limit"))
    assert black.result is not None and (black.result["outcome"], black.result["ending"]) == ("black", "audit")
    assert black.verdict is None and black.state.name == "FINISHED"
    claims = [msg for c, msg in pair.wire if c == "black" and isinstance(msg, Claim)]
    assert [c.kind for c in claims] == ["audit"]      # the signed claim is black's evidence
