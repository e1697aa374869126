"""Issue 4 ("Network play I") audit items closed with real TLS sockets on 127.0.0.1 and the real
engine: write stalls, crash between the write-ahead log and the send, resume only between the
same identities and roles, the game id bound to the agreed options, undo over the network and
the atomic autosave. Each test names its issue item.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

import engine.api as engine
from net import certs
from engine.options import _CHOICES
from net.chain import SIG_CONTEXT, ChainReader
from net.frames import encode_frame
from net.frames import unpack_strict
from engine.partial import known_key
from net.hidden_wire import HiddenAck, HiddenAnswer, HiddenEvent
from net.messages import Ping, Signed, UndoAnswer, UndoRequest, encode_link
from net.saves import load_save, verify_transcript
import net.session as session_mod
from net.session import Host, Outcome, join, play_as_guest
from net.wal import read
from net.keys import check_public_key, verify
from net.match import Match
from net.negotiation import GOV_FIELDS, Setup, game_id, options_hash
from net.outputs import Event, Send
from net.transport import _checked
from net_evil import Evil
from net_helpers import FAST, QuickBot, make_cfg, run
from test_net_cli import activated, wec

REPO = Path(__file__).resolve().parent.parent


def _wal(cfg: Any) -> bytes:
    (path,) = (cfg.data_dir / "games").glob("active-*.wal")
    return path.read_bytes()


async def _ended(host: Host, n: int = 1, timeout: float = 50.0) -> Outcome:   # a hang guard, not a margin
    async def wait() -> Outcome:
        while len(host.connections) < n:
            await asyncio.sleep(0.01)
        return host.connections[n - 1]
    return await asyncio.wait_for(wait(), timeout)


# ---------------------------------------------------------------------------------------------
# item 1: a peer that stops reading
# ---------------------------------------------------------------------------------------------

def test_peer_that_stops_reading_is_dropped_when_our_write_blocks(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """issue 4 item 1: stall. The peer keeps sending (pings, which we must answer) but stops
    reading, so its receive buffer and then our send buffer fill and our write blocks: we drop
    it once a write has not completed within ``Timeouts.frame``, with a logged reason, our log
    and engine state unchanged, and our socket closed at once (not left flushing to a peer
    that will never read)."""
    timeouts = dataclasses.replace(FAST, frame=0.5, max_frames_per_second=10**6)

    async def body() -> tuple[Outcome, bytes, bytes, float, int]:
        hc = make_cfg(tmp_path, "host", engine, timeouts=timeouts)
        host = Host(hc, QuickBot(engine, 1, "white"), "127.0.0.1", 0)
        port = await host.start()
        evil = Evil(tmp_path, hc)
        try:
            host_pem = certs.make_cert(hc.identity).cert_pem.decode()
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # a small window: fills quickly
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            reader, writer = await asyncio.open_connection(sock=sock, ssl=certs.client_context(evil.certs, host_pem),
                                                           server_hostname="")
            evil.link = _checked(reader, writer, FAST, "evil")
            await evil.hello()
            await evil.setup_as_black()
            while "started" not in host.driver.kinds():  # type: ignore[attr-defined]
                await asyncio.sleep(0.001)
            before = _wal(hc)
            assert host.active_link is not None
            host_sock = host.active_link.writer.get_extra_info("socket")
            # a small kernel send buffer on our side too, so the stall shows in well under a second
            host_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            evil.link.writer.transport.pause_reading()   # the evil peer stops reading ...
            ping = encode_frame(encode_link(Ping(1)))
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            while not host.connections:                   # ... but keeps sending pings
                evil.link.writer.write(ping * 200)
                await asyncio.sleep(0.002)
                if evil.link.writer.transport.get_write_buffer_size() > 1 << 20:
                    await asyncio.sleep(0.05)
            waited = loop.time() - t0
            out = await _ended(host)
            return out, before, _wal(hc), waited, host_sock.fileno()
        finally:
            if evil.link is not None:
                evil.link.writer.transport.abort()
            await host.close()

    with caplog.at_level(logging.WARNING, logger="wec.net"):
        out, before, after, waited, fd = run(body())
    assert out.status == "disconnected"
    assert out.reason == "dropped: peer did not read our frame within 0.5 s"
    assert "disconnected: dropped: peer did not read our frame within 0.5 s" in caplog.text
    assert waited >= 0.5           # dropped at the write deadline, not before (no upper margin: issue 10 item 7)
    assert after == before and out.match.play.index == 0            # our state unchanged
    assert fd == -1                                                  # our socket is closed already


# ---------------------------------------------------------------------------------------------
# item 3: resume only between the same identities and roles (colours)
# ---------------------------------------------------------------------------------------------

async def _unfinished(tmp: Path) -> tuple[Any, Any, dict[str, str]]:
    """Host and guest play two actions over real TLS, then the link drops: both keep an
    unfinished game (write-ahead log) with each other. Returns both configs and the colours."""
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine)
    host_bot, guest_bot = QuickBot(engine, 1, "white"), QuickBot(engine, 2, "black", max_actions=2)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()

    async def drop() -> None:
        while guest_bot.kinds().count("applied") < 2:
            await asyncio.sleep(0.001)
        assert host.active_link is not None
        host.active_link.writer.transport.abort()
    task = asyncio.ensure_future(drop())
    try:
        out = await join(gc, guest_bot, "127.0.0.1", port)
        await _ended(host, 2)   # after the pairing connection
    finally:
        task.cancel()
        await host.close()
    assert out.status == "disconnected" and out.match is not None and out.match.play is not None
    return hc, gc, {"host": host_bot.colour, "guest": out.match.colour}


def test_unfinished_game_does_not_resume_with_roles_swapped(tmp_path: Path) -> None:
    """issue 4 item 3: resume only between the same identities and colours. The unfinished
    game was played host=white / guest=black; when the two laptops come back with the roles
    swapped (the old guest hosts), both refuse to resume and say why; neither log changes."""
    async def body() -> tuple[Outcome, Outcome, bytes, bytes, bytes, bytes]:
        hc, gc, colours = await _unfinished(tmp_path)
        h_before, g_before = _wal(hc), _wal(gc)
        swapped = Host(gc, QuickBot(engine, 3), "127.0.0.1", 0)
        port = await swapped.start()
        try:
            guest_out = await join(hc, QuickBot(engine, 4), "127.0.0.1", port)
            host_out = await _ended(swapped, 2)   # the first connection was join's pin probe
        finally:
            await swapped.close()
        chain = read(next((gc.data_dir / "games").glob("active-*.wal")))[0].chain_id
        played = f"{hc.identity.fingerprint[:16]} as host (white), {gc.identity.fingerprint[:16]} as guest (black)"
        return host_out, guest_out, h_before, _wal(hc), g_before, _wal(gc), chain, played

    host_out, guest_out, h_before, h_after, g_before, g_after, chain, played = run(body())
    assert host_out.status == guest_out.status == "refused"
    assert host_out.reason == (f"cannot resume game {chain.hex()[:12]}: the roles differ from the saved game "
                               f"({played}); a game resumes only with the same roles and colours: let the same "
                               "laptop host again, or start with --new-game on both to abandon it")
    assert guest_out.reason == "peer refused: " + host_out.reason     # the other side is told why
    assert h_after == h_before and g_after == g_before                # neither unfinished game changed


def test_unfinished_game_does_not_resume_with_another_identity(tmp_path: Path) -> None:
    """issue 4 item 3: resume only between the same identities. The guest's laptop comes back
    with a new identity key but its old data (its log of the unfinished game, copied over);
    it pairs again and joins. Both sides refuse to resume, each naming the identity the game
    was played with; the host's unfinished game with the old identity is untouched."""
    async def body() -> tuple[Outcome, Outcome, bytes, bytes, bytes]:
        hc, gc, _ = await _unfinished(tmp_path)
        h_before = _wal(hc)
        g2 = make_cfg(tmp_path, "guest2", engine)                     # a new key ...
        shutil.copytree(gc.data_dir / "games", g2.data_dir / "games")  # ... with the old games
        host = Host(hc, QuickBot(engine, 3), "127.0.0.1", 0)
        port = await host.start()
        try:
            guest_out = await join(g2, QuickBot(engine, 4), "127.0.0.1", port)   # pairs, then joins
            host_out = await _ended(host, 2)                                        # after the pairing
        finally:
            await host.close()
        chain = read(next((gc.data_dir / "games").glob("active-*.wal")))[0].chain_id
        return host_out, guest_out, h_before, _wal(hc), chain

    host_out, guest_out, h_before, h_after, chain = run(body())
    hc, gc, g2 = (make_cfg(tmp_path, n, engine) for n in ("host", "guest", "guest2"))
    old, new = gc.identity.fingerprint[:16], g2.identity.fingerprint[:16]
    assert host_out.status == guest_out.status == "refused"
    assert host_out.reason == (f"cannot resume game {chain.hex()[:12]}: it was played with another identity "
                               f"({old}), not with this peer ({new})")
    assert guest_out.reason == (f"cannot resume game {chain.hex()[:12]}: it was started by another identity of "
                                f"this installation ({old}), not the current one ({new}); start with --new-game "
                                "to set it aside")
    assert h_after == h_before
    assert len(list((hc.data_dir / "games").glob("active-*.wal"))) == 1   # no game was started with the new key


# ---------------------------------------------------------------------------------------------
# item 5: undo over the network
# ---------------------------------------------------------------------------------------------

#: the host bot of the recorded games resigns after this many actions: the game still ends (and is
#: audited) on both sides, in step; its length is not what these tests check
SHORT = 30


class Recorder(QuickBot):
    """The random bot, recording our state hash after every event. With ``ask_undo`` its first
    action is a move (not END, so the turn goes on and no action of the peer can cross the
    request), and then it asks to take that move back."""

    def __init__(self, *args: Any, ask_undo: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.ask_undo, self.asked = ask_undo, False
        self.match: Any = None
        self.seen: list[tuple[str, dict[str, Any], str | None, int | None]] = []
        self.hashes: list[tuple[str, str | None]] = []   # our whole (partial) state's hash, per event
        self.before: str | None = None   # hash before our first action
        self.after: str | None = None    # hash after it, when we asked to undo it

    def decide(self, match: Any) -> Any:
        self.match = match
        play = match.play
        if self.ask_undo and not self.asked and play is not None and play.my_move():
            if self.before is None:
                self.before = _key(play)
                text = next(t for t in map(engine.format_action, engine.legal_actions(play.state_value))
                            if t != "END")
                self.actions += 1
                return play.act(text)
            self.asked, self.after = True, _key(play)
            return play.request_undo()
        return super().decide(match)

    def on_event(self, event: Any) -> None:
        super().on_event(event)
        play = self.match.play if self.match is not None else None
        self.seen.append((event.kind, dict(event.data), _key(play) if play else None,
                          play.index if play else None))
        self.hashes.append((event.kind, engine.state_hash(play.state_value) if play else None))

    def at(self, kind: str) -> list[tuple[dict[str, Any], str | None, int | None]]:
        return [(data, h, index) for k, data, h, index in self.seen if k == kind]


def _key(play: Any) -> str:
    """What our side knows now (hidden play: each side holds a partial state, docs/rulings.md
    HN-1), comparable with ``known_key`` of the omniscient state."""
    return known_key(play.state_value, play.me)


def _omni_keys(options: Any, history: list[str], n: int) -> list[dict[str, str]]:
    """known_key of the omniscient state after each of the first ``n`` actions, per side."""
    state = engine.new_game(options)
    keys = [{s: known_key(state, s) for s in "BW"}]
    for text in history[:n]:
        state = engine.apply_action(state, engine.parse_action(text))
        keys.append({s: known_key(state, s) for s in "BW"})
    return keys


async def _recorded_game(tmp: Path, host_bot: QuickBot, guest_bot: QuickBot) -> tuple[Outcome, Outcome, Any, Any]:
    hc, gc = make_cfg(tmp, "host", engine), make_cfg(tmp, "guest", engine)
    host = Host(hc, host_bot, "127.0.0.1", 0)
    port = await host.start()
    try:
        guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=1)
        host_out = await host.wait(60)
    finally:
        await host.close()
    return host_out, guest_out, hc, gc


def _tags(out: Outcome) -> list[tuple[str, str]]:
    """(direction, message tag) of every message in a finished game's transcript."""
    header, entries, _ = read(out.transcript)
    return [(e.direction, unpack_strict(e.signed.payload)[5][0]) for e in entries]


@pytest.mark.parametrize("approve", [True, False])
def test_undo_over_the_network_needs_the_peers_approval(tmp_path: Path, approve: bool) -> None:
    """issue 4 item 5: undo over the network (04/U56). In a non-competitive game the guest
    (black, first to move) moves, then asks to take it back. Approved: the move is undone on
    both sides (equal hashes, equal to the hash before the move). Rejected: nothing changes on
    either side. Either way the game then goes on to its end with equal hashes."""
    host_bot = Recorder(engine, 1, "white", approve_undo=approve, resign_after=SHORT)
    guest_bot = Recorder(engine, 2, "black", ask_undo=True)
    host_out, guest_out, _, _ = run(_recorded_game(tmp_path, host_bot, guest_bot), 300)
    ((g_answer, g_hash, g_index),) = guest_bot.at("undo-answer")
    ((h_answer, h_hash, h_index),) = host_bot.at("undo-answer")
    assert g_answer["accept"] is h_answer["accept"] is approve
    assert host_bot.at("undo-request")[0][0] == {"index": 1}
    assert g_hash == (guest_bot.before if approve else guest_bot.after)
    assert g_index == h_index == (0 if approve else 1)
    # each side holds what it may know of the omniscient state before (approved) or after the move
    play = guest_out.match.play
    first = next(t for t in map(engine.format_action, engine.legal_actions(engine.new_game(play.options)))
                 if t != "END")
    keys = _omni_keys(play.options, [first], 1)[g_index]
    assert (g_hash, h_hash) == (keys["B"], keys["W"])
    assert guest_bot.before != guest_bot.after
    # the game went on to its end, in step
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.state_hash == guest_out.state_hash
    assert host_out.match.play.history == guest_out.match.play.history
    assert ("out", "undo-request") in _tags(guest_out) and ("in", "undo-answer") in _tags(guest_out)
    assert ("in", "undo-request") in _tags(host_out) and ("out", "undo-answer") in _tags(host_out)


def test_undo_is_refused_in_a_competitive_game_on_both_sides(tmp_path: Path) -> None:
    """issue 4 item 5: in a competitive game (02/D24) our side refuses to ask for an undo
    (nothing is sent, the game goes on to its end), and a peer that asks anyway is answered
    "no" by our engine with rule 02/D24, its state unchanged."""
    host_bot = Recorder(engine, 1, "white", resign_after=SHORT)
    guest_bot = Recorder(engine, 2, "black", ask_undo=True, requests=[{"competitive": True}])
    host_out, guest_out, _, _ = run(_recorded_game(tmp_path, host_bot, guest_bot), 300)
    assert guest_out.match.play.options.competitive
    assert [d["reason"] for d, _, _ in guest_bot.at("command-refused")] == [
        "02/D24: undo is locked in a competitive game"]
    assert guest_bot.asked and not host_bot.at("undo-request") and not guest_bot.at("undo-answer")
    assert all(tag not in ("undo-request", "undo-answer") for _, tag in _tags(guest_out) + _tags(host_out))
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.state_hash == guest_out.state_hash

    # the other side: a peer that sends the request anyway
    async def body(tmp: Path) -> tuple[Any, list[Any], str, str, int]:
        hc = make_cfg(tmp, "host", engine)
        bot = Recorder(engine, 1, "white")
        host = Host(hc, bot, "127.0.0.1", 0)
        port = await host.start()
        evil = Evil(tmp, hc)
        try:
            await evil.connect(port, FAST)
            await evil.hello()
            await evil.setup_as_black(requests=[{"competitive": True}])
            play = evil.match.play
            text = next(t for t in map(engine.format_action, engine.legal_actions(play.state_value)) if t != "END")
            await evil.send(play.act(text).message)
            assert isinstance(await evil.pump(), (HiddenAnswer, HiddenAck))
            while play.cur is not None:   # the rest of our action's exchange
                await evil.pump()
            before = _omni_keys(play.options, [text], 1)[1]["W"]   # what white may know after it
            await evil.send(UndoRequest(1), feed=False)
            answer = await evil.pump()
            while not bot.at("undo-refused"):
                await asyncio.sleep(0.001)
            host_play = bot.match.play
            return answer, bot.at("undo-refused"), before, _key(host_play), host_play.index
        finally:
            if evil.link is not None:
                await evil.link.close()
            await host.close()

    answer, refused, before, host_hash, host_index = run(body(tmp_path / "evil-asks"))
    assert answer == UndoAnswer(1, False, "02/D24: undo is locked in a competitive game")
    assert [d["reason"] for d, _, _ in refused] == ["02/D24: undo is locked in a competitive game"]
    assert host_hash == before and host_index == 1


class CrossingAsker(Recorder):
    """Black (first to move): one move and END, then, once white's start phase is done on its
    side, asks to take its END back although it is white's move. Then the random bot."""

    def decide(self, match: Any) -> Any:
        self.match = match
        play = match.play
        if play is None or self.asked:
            return super().decide(match)
        if play.my_move():
            moves = [t for t in map(engine.format_action, engine.legal_actions(play.state_value)) if t != "END"]
            self.actions += 1
            return play.act(moves[0] if play.index == 0 else "END")
        if play.index == 2 and play.cur is None and play.turn == 1:
            self.asked, self.after = True, _key(play)
            return play.request_undo()
        return None


def _transcript(out: Outcome) -> list[tuple[str, str, dict[str, Any]]]:
    """(direction, tag, fields) of every message in a finished game's log, in log order."""
    _, entries, _ = read(out.transcript)
    return [(e.direction, *unpack_strict(e.signed.payload)[5]) for e in entries]


def test_undo_request_crossing_the_peers_action_is_answered_no(tmp_path: Path, monkeypatch: Any) -> None:
    """issue 4 item 5: an undo request sent when it is not our move can cross the peer's next
    action in flight. The guest (black) moves and ENDs its turn; the host (white) sends the last
    message of its start phase (``shown``) and, in the same write, its first action, so that when
    the guest reads that message and asks to undo its END, white's action is already on the wire. The host, whose action
    awaits its result, answers "no" with the reason (it used to stop the game with "undo request
    out of turn"); the guest applies white's action and hears the reason. Nothing is undone on
    either side and the game goes on to its end with equal hashes."""
    accept_tls = session_mod.accept_tls

    async def holding_accept(*args: Any, **kw: Any) -> Any:
        link = await accept_tls(*args, **kw)
        send, held = link.send, {"msg": None, "done": False}

        async def holding_send(msg: Any) -> None:
            if isinstance(msg, Signed) and not held["done"]:
                if held["msg"] is None:
                    tag, fields = unpack_strict(msg.payload)[5]
                    if tag == "shown":
                        held["msg"] = msg   # the end of the host's start phase leaves with its next message
                        return
                else:
                    held["done"] = True
                    await send(held["msg"])
            await send(msg)
        link.send = holding_send
        return link

    monkeypatch.setattr(session_mod, "accept_tls", holding_accept)
    host_bot = Recorder(engine, 1, "white", resign_after=SHORT)
    guest_bot = CrossingAsker(engine, 2, "black")
    host_out, guest_out, _, _ = run(_recorded_game(tmp_path, host_bot, guest_bot), 300)

    # the crossing really happened: each side sent its message before it read the other's
    host_log, guest_log = _transcript(host_out), _transcript(guest_out)
    def action_2(t: str, f: dict[str, Any]) -> bool:   # white's first action: its first sealed message
        return t in ("hidden-query", "event") and f.get("seal") is not None
    host_order = [(d, t) for d, t, f in host_log if t == "undo-request" or (d == "out" and action_2(t, f))][:2]
    guest_order = [(d, t) for d, t, f in guest_log if t == "undo-request" or (d == "in" and action_2(t, f))][:2]
    assert [d for d, _ in host_order] == ["out", "in"] and host_order[1][1] == "undo-request"
    assert [d for d, _ in guest_order] == ["out", "in"] and guest_order[0][1] == "undo-request"
    # the host answered "no" at once, its driver never asked, nothing undone
    reason = "the other side had already acted (its action 2 crossed the undo request); nothing was undone"
    assert [f for d, t, f in host_log if t == "undo-answer"] == [{"index": 2, "accept": False, "reason": reason}]
    assert not host_bot.at("undo-request") and not host_bot.at("undo-answer")
    ((refused, h_hash, h_index),) = host_bot.at("undo-refused")
    assert refused == {"index": 2, "reason": reason}
    # the guest is told it was rejected, and why; its END stays, white's action is applied
    ((answer, g_hash, g_index),) = guest_bot.at("undo-answer")
    assert answer == {"accept": False, "reason": reason}
    history = host_out.match.play.history
    assert history == guest_out.match.play.history and history[1] == "END"
    keys = _omni_keys(host_out.match.play.options, history, 3)
    assert (h_index, h_hash) == (2, keys[2]["W"])    # white's action was being resolved
    assert guest_bot.after == keys[2]["B"]
    # the "no" reaches the guest while white's action is being resolved (its questions, or its
    # event awaiting the end): nothing undone, the action then completes (history above)
    assert g_index == 2
    # the game went on to its end, in step
    assert (host_out.status, guest_out.status) == ("finished", "finished")
    assert host_out.state_hash == guest_out.state_hash


# ---------------------------------------------------------------------------------------------
# item 4: the agreed options in the game id
# ---------------------------------------------------------------------------------------------

CHAIN = bytes(range(32))


def _setup_game_id(guest_requests: list[dict[str, Any]], host_requests: list[dict[str, Any]] = (),
                   guest_gov: str = "monarchy", approve: bool = True) -> bytes:
    """Both setup machines (real engine) on one chain id, messages delivered in order; returns the
    game id both sides started with (asserted equal). Nonces and salts are fresh on every call."""
    sides = {"host": Setup(engine, CHAIN, "host"), "guest": Setup(engine, CHAIN, "guest")}
    started: dict[str, bytes] = {}

    def deliver(role: str, send: Send) -> None:
        queue = [(role, send)]
        while queue:
            who, out = queue.pop(0)
            other = "guest" if who == "host" else "host"
            for side, own in ((who, True), (other, False)):
                for o in sides[side].feed(own, out.message, out.secrets if own else None):
                    if isinstance(o, Send):
                        queue.append((side, o))
                    elif isinstance(o, Event) and o.kind == "started":
                        started[side] = o.data["game_id"]

    h, g = sides["host"], sides["guest"]
    deliver("host", h.choose_colour("white"))
    deliver("guest", g.choose_colour("black"))
    deliver("host", h.commit_gov("monarchy"))
    deliver("guest", g.commit_gov(guest_gov))
    for role, requests in (("guest", guest_requests), ("host", host_requests)):
        for changes in requests:
            deliver(role, sides[role].request(changes))
            other = "host" if role == "guest" else "guest"
            (pending,) = [rid for side, rid in sides[other].pending() if side == role]
            deliver(other, sides[other].answer(pending, approve))
    deliver("host", h.finish())
    deliver("guest", g.finish())
    assert started["host"] == started["guest"]
    return started["host"]


BASES = ({}, {"movement_type": "standard_chess"}, {"movement_type": "mass_destruction_chess"})


def _one_change(name: str, value: Any) -> tuple[dict[str, Any], Any] | None:
    """A valid set of options (``base`` changes from the defaults) and another valid value of
    option ``name`` on top of it (some options only exist with another movement type); None if
    the option has a single value (nothing to agree on)."""
    if isinstance(value, bool):
        candidates: list[Any] = [not value]
    elif isinstance(value, int):
        candidates = [value + 1, value - 1]
    else:
        candidates = [c for c in _CHOICES[name] if c != value]
    for base in BASES:
        for candidate in candidates:
            if base.get(name, value) == candidate:
                continue
            try:
                engine.Options().replace(**{**base, name: candidate})
                return base, candidate
            except ValueError:
                continue
    return None


def test_game_id_changes_with_any_one_agreed_option() -> None:
    """issue 4 item 4: agreed options in the game id. On one chain, setups that differ only in
    one agreed option (each option in turn, or one side's secret government) give different game
    ids; the same options give the same id however they were reached (fresh nonces, no request,
    a rejected request, or the same change asked by the other side)."""
    base = _setup_game_id([])
    assert _setup_game_id([]) == base                                   # fresh nonces and salts
    assert _setup_game_id([{"tank_range": 8}], approve=False) == base   # rejected: same options
    assert _setup_game_id([{"tank_range": 8}]) == _setup_game_id([], [{"tank_range": 8}])
    bases = {tuple(b.items()): _setup_game_id([b] if b else []) for b in BASES}
    ids = set(bases.values())
    assert len(ids) == len(BASES)                                       # movement_type changed alone
    for name, value in engine.Options().to_dict().items():
        if name in GOV_FIELDS or name == "movement_type":
            continue
        change = _one_change(name, value)
        if change is None:
            assert name == "handedness_scheme" and len(_CHOICES[name]) == 1
            continue
        base, other = change
        changed = _setup_game_id([base, {name: other}] if base else [{name: other}])
        assert changed != bases[tuple(base.items())] and changed not in ids, name
        ids.add(changed)
    assert _setup_game_id([], guest_gov="democracy") not in ids
    assert len(ids) == len(BASES) + len(engine.Options().to_dict()) - len(GOV_FIELDS) - 2


def test_game_id_is_signed_by_both_sides(tmp_path: Path) -> None:
    """issue 4 item 4: over real TLS, both sides start the same game id; it is
    H(chain id, options hash), and each side's last signed ``finish`` carries that options hash
    in a payload naming that chain: both signatures verify with the two identity keys, and the
    options hash is the one of the options actually in play."""
    async def body() -> tuple[Outcome, Outcome, Any, Any]:
        hc, gc = make_cfg(tmp_path, "host", engine), make_cfg(tmp_path, "guest", engine)
        host_bot = QuickBot(engine, 1, "white", max_actions=0)
        guest_bot = QuickBot(engine, 2, "black", requests=[{"tank_range": 8}], max_actions=0)
        host = Host(hc, host_bot, "127.0.0.1", 0)
        port = await host.start()

        async def drop() -> None:
            while "started" not in host_bot.kinds() or "started" not in guest_bot.kinds():
                await asyncio.sleep(0.001)
            assert host.active_link is not None
            host.active_link.writer.transport.abort()
        task = asyncio.ensure_future(drop())
        try:
            guest_out = await join(gc, guest_bot, "127.0.0.1", port)
            host_out = await _ended(host, 2)   # after the pairing connection
        finally:
            task.cancel()
            await host.close()
        return host_out, guest_out, hc, gc

    host_out, guest_out, hc, gc = run(body())
    h_id, g_id = host_out.match.game_id, guest_out.match.game_id
    assert h_id == g_id is not None
    options = guest_out.match.play.options
    assert options.tank_range == 8
    agreed = {**options.to_dict(), "hidden_psi": 0}   # the engine's options and the network option asked for
    assert guest_out.match.setup.options_dict() == agreed
    expected_hash = options_hash(agreed, "white")
    for cfg in (hc, gc):
        header, entries, _ = read(next((cfg.data_dir / "games").glob("active-*.wal")))
        finishes = {}
        for entry in entries:
            v, chain, sender, _, _, body_ = unpack_strict(entry.signed.payload)
            if body_[0] == "finish":
                assert verify(check_public_key(sender), entry.signed.sig, SIG_CONTEXT + entry.signed.payload)
                assert chain == header.chain_id
                finishes[sender] = body_[1]["options_hash"]          # the last one counts
        assert set(finishes) == {hc.identity.public_bytes, gc.identity.public_bytes}
        assert set(finishes.values()) == {expected_hash}
        assert game_id(header.chain_id, expected_hash) == h_id
        # one option different on the same chain would be another game
        other = options_hash({**agreed, "tank_range": 7}, "white")
        assert game_id(header.chain_id, other) != h_id


# ---------------------------------------------------------------------------------------------
# item 6: autosave after every turn, atomic
# ---------------------------------------------------------------------------------------------

def test_autosave_after_every_turn_always_loads(tmp_path: Path) -> None:
    """issue 4 item 6: autosave after every turn. While a real game runs, the guest's save file
    is read over and over: once it exists it never goes missing, always loads (``net.saves``),
    its transcript verifies, and it holds the state hash of a turn's end, turn after turn;
    when the game ends the save holds the final hash."""
    seen: list[str] = []
    problems: list[str] = []

    async def watch(path: Path, stop: asyncio.Event) -> None:
        while not stop.is_set():
            if path.exists() or seen:
                try:
                    header, entries, state_hash = load_save(path)
                    verify_transcript(header, entries)
                except Exception as exc:   # noqa: BLE001  (any failure is the finding)
                    if list(path.parent.glob("*.finished.save")):
                        return                          # the game ended: the save was moved
                    problems.append(repr(exc))
                else:
                    if not seen or seen[-1] != state_hash:
                        seen.append(state_hash)
            await asyncio.sleep(0.001)

    async def body() -> tuple[Outcome, Outcome, Any]:
        # save_interval 0: every turn of the bots is saved (players take longer than the default
        # interval over each turn, so each of theirs is saved anyway)
        hc, gc = (make_cfg(tmp_path, "host", engine, save_interval=0),
                  make_cfg(tmp_path, "guest", engine, save_interval=0))
        # a few turns are enough to see saves follow each other (the watcher below is busy)
        host_bot, guest_bot = Recorder(engine, 1, "white", resign_after=12), Recorder(engine, 2, "black")
        host = Host(hc, host_bot, "127.0.0.1", 0)
        port = await host.start()
        stop = asyncio.Event()
        watcher = asyncio.ensure_future(watch(gc.active_wal(hc.identity.public_bytes).with_suffix(".save"), stop))
        try:
            guest_out = await play_as_guest(gc, guest_bot, "127.0.0.1", port, attempts=1)
            host_out = await host.wait(60)
        finally:
            stop.set()
            await watcher
            await host.close()
        return host_out, guest_out, guest_bot

    host_out, guest_out, guest_bot = run(body(), 300)
    assert guest_out.status == "finished" and not problems
    # each save holds our state's hash as it was at a turn's end (hidden play: our partial state,
    # HN-5), and the last one the audited final state's
    agreed = [h for k, h in guest_bot.hashes if k == "turn-ok"] + [guest_out.state_hash]
    assert len(seen) >= 2 and seen == sorted(seen, key=agreed.index)   # agreed turns, in order
    final = load_save(guest_out.transcript.with_suffix(".save"))
    assert final[2] == guest_out.state_hash == host_out.state_hash


SAVER = r"""
import os, signal, sys
from pathlib import Path
import net.saves as saves
from net.frames import pack
from net.wal import Header

path, mode, crash_at = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
header = Header(bytes(32), "host", bytes(32), bytes(32))
packed = [pack(["out", os.urandom(60000), bytes(64), None])] * 100    # a 6 MB transcript: a long write
real, calls = saves.write_atomic, []
def write_atomic(target, data):
    if Path(target) == path:
        calls.append(target)
        if mode == "crash-before-write" and len(calls) == crash_at:   # die as the new save is written
            os.kill(os.getpid(), signal.SIGKILL)
        print("writing", flush=True)
    real(target, data)
saves.write_atomic = write_atomic
start = int(sys.argv[4])
for i in range(start, start + 10**6):
    saves.write_packed_save(path, header, packed, f"hash-{i}")
    print("done", i, flush=True)
"""


def _saver(path: Path, mode: str, crash_at: int = 0, start: int = 0) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", SAVER, str(path), mode, str(crash_at), str(start)], cwd=REPO,
                            text=True, stdout=subprocess.PIPE)


def test_save_killed_between_keeping_the_backup_and_writing_keeps_a_complete_save(tmp_path: Path) -> None:
    """issue 4 item 6: atomic autosave. A process killed (SIGKILL) after it kept the previous
    save as ``.bak`` and before the new one was written still leaves a complete save in place
    (the previous one): the backup is a hard link, never a rename of the save away."""
    path = tmp_path / "active-x.save"
    proc = _saver(path, "crash-before-write", crash_at=3)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL and out.split() == ["writing", "done", "0", "writing", "done", "1"]
    assert load_save(path)[2] == "hash-1"                  # the last save completed
    assert load_save(path.with_suffix(".save.bak"))[2] == "hash-1"


def test_save_killed_mid_write_never_leaves_a_corrupt_save(tmp_path: Path) -> None:
    """issue 4 item 6: atomic autosave. A process writing a 6 MB save again and again is killed
    (SIGKILL) at random moments: every time, the save in place loads and is the last one
    completed (or the one being written, if its rename was done); a temp file left by the
    interrupted write is never taken for the save, and the next save removes it."""
    path = tmp_path / "active-x.save"
    rng = random.Random(4)
    left_temp, last = 0, -1
    for attempt in range(12):
        proc = _saver(path, "loop", start=last + 1)
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]     # writing, done N, writing (N+1)
        assert lines[1].startswith("done") and lines[2] == "writing\n", lines
        time.sleep(rng.uniform(0.0, 0.005))                      # kill it inside that write, mostly
        proc.kill()
        lines += proc.stdout.read().splitlines()
        proc.wait()
        completed = max(int(line.split()[1]) for line in lines if line.startswith("done"))
        state_hash = load_save(path)[2]
        assert state_hash in (f"hash-{completed}", f"hash-{completed + 1}"), (state_hash, completed)
        last = int(state_hash.removeprefix("hash-"))
        temps = list(tmp_path.glob(".tmp-active-x.save-*"))
        left_temp += bool(temps)
        if left_temp >= 2 and attempt >= 3:
            break
    assert left_temp >= 1, "no kill landed inside a write"
    proc = _saver(path, "loop", start=last + 1)            # the next save clears the leftovers
    assert proc.stdout is not None
    assert [proc.stdout.readline() for _ in range(2)][1].startswith("done")
    proc.kill()
    proc.communicate()
    assert load_save(path)[2].startswith("hash-")
    assert len(list(tmp_path.glob(".tmp-active-x.save-*"))) <= 1   # at most the one being written when killed


# ---------------------------------------------------------------------------------------------
# item 2: write-ahead log before send, process crash
# ---------------------------------------------------------------------------------------------

#: ``wec`` with the test vendor key and a crash point: on its Nth own action message (already in
#: the write-ahead log, as every message is before ``Link.send``), record the payload, then die by
#: SIGKILL before sending it, after sending half of its frame, or right after sending it.
CRASHING = r"""
import os, signal, sys
import net.vendor_key as v
v.VENDOR_PUBLIC_KEY = bytes.fromhex(sys.argv[1])
mode, nth, record = sys.argv[2], int(sys.argv[3]), sys.argv[4]
import net.transport as transport
from net.frames import encode_frame, unpack_strict
from net.messages import Signed, encode_link
real, seen = transport.Link.send, []
async def send(self, msg):
    tag, fields = unpack_strict(msg.payload)[5] if isinstance(msg, Signed) else ("", {})
    if tag in ("hidden-query", "event") and fields["seal"] is not None:   # our action's first message
        seen.append(msg)
        if len(seen) == nth:
            with open(record, "wb") as f:
                f.write(msg.payload)
            if mode == "during":
                frame = encode_frame(encode_link(msg))
                self.writer.write(frame[: len(frame) // 2])
                await self.writer.drain()
            if mode == "after":
                await real(self, msg)
            os.kill(os.getpid(), signal.SIGKILL)
    return await real(self, msg)
transport.Link.send = send
from wec_p2p.cli import main
sys.exit(main(sys.argv[5:]))
"""


def _replayed(transcript: Path) -> tuple[str, int, int]:
    """Rebuild the game from a finished transcript: (state hash, actions applied, action events)."""
    header, entries, _ = read(transcript)
    verify_transcript(header, entries)
    match = Match(engine, header.chain_id, header.role)
    readers = {"out": ChainReader(header.me, header.chain_id), "in": ChainReader(header.peer, header.chain_id)}
    oks = 0
    for entry in entries:
        verified = readers[entry.direction].check(entry.signed)
        assert verified is not None
        readers[entry.direction].accept(verified)
        match.feed(entry.direction == "out", verified.message, entry.secrets)
        oks += isinstance(verified.message, HiddenEvent) and bool(verified.message.text or verified.message.commit)
    assert match.finished
    return match.play.final_hash, match.play.index, oks


@pytest.mark.parametrize("mode", ["before", "during", "after"])
def test_wec_killed_after_logging_an_action_resumes_without_equivocation(tmp_path: Path, mode: str) -> None:
    """issue 4 item 2: write-ahead log before send, process crash. A real ``wec join`` is killed
    (SIGKILL) right after its 3rd action was logged: before sending it, half-way through its
    frame, or just after sending it. Restarted with the same data dir, it resumes: the host saw
    exactly one message with that sequence number (byte-identical to the logged one; no
    equivocation, no evidence), the game ends with equal hashes on both sides, and a replay of
    each transcript applies every action exactly once."""
    vendor = Ed25519PrivateKey.generate()
    pub = vendor.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    host_env, guest_env = activated(tmp_path, "a", vendor), activated(tmp_path, "b", vendor)
    record = tmp_path / "crashed-payload"
    host = wec(vendor, host_env, "host", "--bot", "random", "--seed", "1", "--interface", "127.0.0.1",
               "--auto-confirm", "--no-discovery", "--bot-resign-after", str(SHORT))
    try:
        assert host.stdout is not None
        port = re.search(r"on port (\d+)", host.stdout.readline())
        assert port
        join = ["join", f"127.0.0.1:{port.group(1)}", "--bot", "random", "--seed", "2", "--auto-confirm",
                "--request", "hidden_psi=0"]   # a bulk game: hidden play's questions in clear (P-6)
        crashing = subprocess.Popen([sys.executable, "-c", CRASHING, pub, mode, "3", str(record), *join],
                                    env=guest_env, cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        crashing.communicate(timeout=180)
        assert crashing.returncode == -signal.SIGKILL
        logged = record.read_bytes()
        (wal_path,) = (tmp_path / "b" / "games").glob("active-*.wal")
        assert [e.signed.payload for e in read(wal_path)[1] if e.direction == "out"][-1] == logged  # logged first
        guest = wec(vendor, guest_env, *join)                                                      # restarted
        g_out, g_err = guest.communicate(timeout=180)
        h_out, h_err = host.communicate(timeout=60)
    finally:
        host.kill()
        host.communicate()
    assert guest.returncode == 0 and host.returncode == 0, g_err + h_err
    g_res = re.search(r"RESULT status=finished outcome=(\w+) hash=(\w+) game=(\w+) transcript=(\S+)", g_out)
    h_res = re.search(r"RESULT status=finished outcome=(\w+) hash=(\w+) game=(\w+) transcript=(\S+)", h_out)
    assert g_res and h_res and g_res.groups()[:3] == h_res.groups()[:3]
    assert "equivocation" not in h_err and not (tmp_path / "a" / "evidence").exists()
    # the host holds exactly one message with the crashed message's number: the logged bytes
    seq = unpack_strict(logged)[3]
    header, entries, _ = read(Path(h_res.group(4)))
    theirs = [e.signed.payload for e in entries if e.direction == "in"]
    assert [unpack_strict(p)[3] for p in theirs] == list(range(len(theirs)))
    assert theirs[seq] == logged
    # nothing lost, nothing applied twice: the host's signed transcript replays to the common hash
    state_hash, applied, oks = _replayed(Path(h_res.group(4)))
    assert state_hash == h_res.group(2) and applied == oks
