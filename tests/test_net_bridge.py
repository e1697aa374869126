"""Two people over WiFi, through the bridge a window drives (issue 9): real mDNS and TLS on 127.0.0.1.

Two ``NetBridge`` instances in this process, each with its own network thread, are driven only
by posted commands and read only through their event queues, as a window's frame loop does.
"""
from __future__ import annotations

import queue
import subprocess
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

import engine.api as engine
from net import frontend as fe
from net.bridge import BridgeConfig, NetBridge
from net.lobby import diagnose, peers_snapshot
from net.discovery import PeerInfo
from net.peers import KnownPeer, PeerStore
from net_helpers import FAST, make_cfg

LOOPBACK = ["127.0.0.1"]
WAIT = 60.0          # generous: the machine is shared; nothing here measures time
TIMEOUTS = replace(FAST, confirm=60.0, dead=10.0)
PLY_LIMIT = 12


class Player:
    """One bridge and everything it has said; ``wait`` takes the first matching event not yet taken."""

    def __init__(self, tmp: Path, name: str) -> None:
        cfg = make_cfg(tmp, name, engine, timeouts=TIMEOUTS)
        self.fp = cfg.identity.fingerprint
        self.bridge = NetBridge(BridgeConfig(cfg, interfaces=LOOPBACK, hint_after=-1, backoff=0.05))
        self.seen: list[Any] = []
        self._pending: list[Any] = []

    def post(self, command: Any) -> None:
        self.bridge.post(command)

    def wait(self, cls: type, pred: Callable[[Any], bool] = lambda e: True, timeout: float = WAIT) -> Any:
        for i, event in enumerate(self._pending):
            if isinstance(event, cls) and pred(event):
                return self._pending.pop(i)
        while True:
            event = self.bridge.events.get(timeout=timeout)   # queue.Empty fails the test
            self.seen.append(event)
            if isinstance(event, cls) and pred(event):
                return event
            self._pending.append(event)

    def poll(self) -> Any | None:
        """The next event not yet taken, or None right now."""
        if self._pending:
            return self._pending.pop(0)
        try:
            event = self.bridge.events.get(timeout=0.02)
        except queue.Empty:
            return None
        self.seen.append(event)
        return event

    def of(self, cls: type) -> list[Any]:
        return [e for e in self.seen if isinstance(e, cls)]


@pytest.fixture
def players(tmp_path: Path):
    alice, bob = Player(tmp_path, "Alice"), Player(tmp_path, "Bob")
    try:
        alice.bridge.start()
        bob.bridge.start()
        yield alice, bob
    finally:
        alice.bridge.close()
        bob.bridge.close()


def _lobby_has(player: Player, fp: str, **fields: Any) -> fe.LobbyPeer:
    def ok(e: fe.PeersChanged) -> bool:
        return any(p.fingerprint == fp and all(getattr(p, k) == v for k, v in fields.items()) for p in e.peers)
    event = player.wait(fe.PeersChanged, ok)
    return next(p for p in event.peers if p.fingerprint == fp)


def _setup(host: Player, guest: Player) -> dict[str, Player]:
    """Lobby, pairing, colours, governments, one approved and one rejected rule change, Finish."""
    host.post(fe.Host())
    hosting = host.wait(fe.Hosting)
    assert hosting.port > 0
    seen_host = _lobby_has(guest, host.fp, hosting=True, state="new", name="Alice")
    assert seen_host.address == f"127.0.0.1:{hosting.port}" and seen_host.short_fp == host.fp[:16]
    me = guest.of(fe.PeersChanged)[-1].me
    assert me.fingerprint == guest.fp and me.addresses == ("127.0.0.1",) and me.name == "Bob"
    _lobby_has(host, guest.fp, state="new", name="Bob")

    guest.post(fe.Join(seen_host.key))
    codes = host.wait(fe.PairingCode), guest.wait(fe.PairingCode)
    assert codes[0].code == codes[1].code and len(codes[0].code) >= 6
    assert (codes[0].peer_name, codes[1].peer_name) == ("Bob", "Alice")
    host.post(fe.ConfirmCode(True))
    guest.post(fe.ConfirmCode(True))
    assert host.wait(fe.PeerRemembered).fingerprint == guest.fp
    assert guest.wait(fe.PeerRemembered).fingerprint == host.fp
    assert host.wait(fe.Connected).role == "host" and guest.wait(fe.Connected).role == "guest"
    _lobby_has(guest, host.fp, state="in a game")   # it advertises "playing" now; and it is pinned

    for p, gov in ((host, "theocracy"), (guest, "dictatorship")):
        p.post(fe.ChooseColour("white"))
        p.post(fe.ChooseGovernment(gov))
    tosses = host.wait(fe.ColourToss), guest.wait(fe.ColourToss)
    assert {tosses[0].mine, tosses[1].mine} == {"white", "black"}
    assert tosses[0].toss_winner in ("me", "peer")
    assert {tosses[0].toss_winner, tosses[1].toss_winner} == {"me", "peer"}
    winner = host if tosses[0].toss_winner == "me" else guest
    assert (tosses[0] if winner is host else tosses[1]).mine == "white"   # the winner got what it asked

    guest.post(fe.RequestRuleChange("ply_limit", PLY_LIMIT))
    asked = host.wait(fe.RuleChangeRequested)
    assert asked.changes == (("ply_limit", PLY_LIMIT),)
    host.post(fe.AnswerRuleChange(asked.rid, True))
    assert guest.wait(fe.RuleChangeAnswered, lambda e: e.rid == asked.rid).accepted is True
    guest.post(fe.RequestRuleChange("tank_range", 8))
    asked2 = host.wait(fe.RuleChangeRequested)
    assert asked2.changes == (("tank_range", 8),) and asked2.rid == asked.rid + 1
    host.post(fe.AnswerRuleChange(asked2.rid, False, "keep the standard tank range"))
    answer = guest.wait(fe.RuleChangeAnswered, lambda e: e.rid == asked2.rid)
    assert (answer.accepted, answer.by, answer.reason) == (False, "peer", "keep the standard tank range")
    assert host.wait(fe.RuleChangeAnswered, lambda e: e.rid == asked2.rid).by == "me"

    guest.post(fe.RequestRuleChange("gov_white", "monarchy"))   # 04/U21: governments are never requested
    refused = guest.wait(fe.CommandRefused)
    assert refused.reason == "gov_white is chosen secretly by its player, not requested"
    for p in (host, guest):
        p.wait(fe.SetupChanged, lambda e: e.ready and all(r.status != "pending" for r in e.requests)
               and len(e.requests) == 2)
        p.post(fe.FinishSetup())
    agreed = host.wait(fe.RulesAgreed), guest.wait(fe.RulesAgreed)
    assert agreed[0] == agreed[1]
    assert ("ply_limit", PLY_LIMIT) in agreed[0].changed and ("tank_range", 7) in agreed[0].options
    assert {("gov_white", "theocracy" if winner is host else "dictatorship")} <= set(agreed[0].options)
    started = host.wait(fe.GameStarted), guest.wait(fe.GameStarted)
    assert started[0].game_id == started[1].game_id
    assert (started[0].colour, started[1].colour) == (tosses[0].mine, tosses[1].mine)
    assert started[0].view.ply == 1 and started[0].view.side_to_move == "B"   # 04/U61: Black first
    return {started[0].colour: host, started[1].colour: guest}


Special = Callable[[str, Player, fe.YourTurn, dict[str, Any]], bool]


def _play(by_colour: dict[str, Player], special: Special | None = None) -> dict[str, fe.GameOver]:
    """Answer every YourTurn with a seeded action (END after two actions) until both see GameOver.

    ``special(colour, player, event, st)`` may take a YourTurn instead (True: handled). Seeds are
    per colour, so the game does not depend on which laptop won the toss."""
    st: dict[str, Any] = {"rng": {c: random.Random(c) for c in by_colour}, "in_turn": {c: 0 for c in by_colour},
                          "turn": {c: 0 for c in by_colour}, "view": {}, "over": {}}
    over: dict[str, fe.GameOver] = st["over"]
    deadline = time.monotonic() + 600
    while len(over) < 2:
        progressed = False
        for colour, p in by_colour.items():
            event = p.poll() if colour not in over else None
            if event is None:
                continue
            progressed = True
            assert not isinstance(event, (fe.CommandRefused, fe.ActionRefused)), event
            if isinstance(event, (fe.MyActionApplied, fe.PeerActed)):
                st["view"][colour] = event.view
            if isinstance(event, fe.GameOver):
                over[colour] = event
            elif isinstance(event, fe.YourTurn):
                if st["in_turn"][colour] == 0:
                    st["turn"][colour] += 1
                if special is not None and special(colour, p, event, st):
                    continue
                if event.end_turn is not None and (st["in_turn"][colour] >= 2 or len(event.legal) == 1):
                    text = event.end_turn
                    st["in_turn"][colour] = 0
                else:
                    text = st["rng"][colour].choice([t for t in event.legal if t != event.end_turn])
                    st["in_turn"][colour] += 1
                p.post(fe.Act(text))
        if not progressed:
            assert time.monotonic() < deadline, "the game stalled"   # a hang guard, not a margin
    return over


def _check_draw_by_ply_limit(by_colour: dict[str, Player], over: dict[str, fe.GameOver]) -> None:
    white, black = over["white"], over["black"]
    assert (white.result, black.result) == ("draw", "draw")
    assert white.reason == black.reason == f"ply limit {PLY_LIMIT} (RUL-53)"
    assert white.state_hash == black.state_hash
    assert white.view.ply == PLY_LIMIT and black.view.result == "draw"
    for colour, p in by_colour.items():
        ends = [e for e in p.seen if isinstance(e, (fe.MyActionApplied, fe.PeerActed)) and e.text == "END"]
        assert len(ends) == PLY_LIMIT          # 12 turns, 6 ended by each side's own Act
        assert len([e for e in p.of(fe.MyActionApplied) if e.text == "END"]) == PLY_LIMIT // 2
        ended = p.wait(fe.SessionEnded)
        assert (ended.status, ended.result) == ("finished", "draw")


def test_two_people_pair_negotiate_play_and_finish_through_the_bridge(players: tuple[Player, Player]) -> None:
    """04/U59: both see each other in PEERS, pair with the same code confirmed on both; 04/U61: one
    rule change approved, one rejected; 04/U21: each government chosen secretly, never requested
    (a request for one is refused), both shown once the rules are agreed; 12 turns played by Act commands, an undo request rejected
    (the state unchanged), and the game over on both (RUL-53 ply limit)."""
    host, guest = players
    by_colour = _setup(host, guest)

    def undo_once(colour: str, p: Player, event: fe.YourTurn, st: dict[str, Any]) -> bool:
        if colour != "black" or st["turn"][colour] != 3 or st["in_turn"][colour] != 1 or st.get("undo"):
            return False
        st["undo"] = True
        before = st["view"][colour]
        p.post(fe.RequestUndo())
        white = by_colour["white"]
        asked = white.wait(fe.UndoRequested)
        applied = [e.index for e in p.seen if isinstance(e, (fe.MyActionApplied, fe.PeerActed))]
        assert asked.index == max(applied)              # take back the last action
        white.post(fe.AnswerUndo(False, "no take-backs"))
        answer = p.wait(fe.UndoAnswered)
        assert (answer.asked_by, answer.accepted, answer.reason) == ("me", False, "no take-backs")
        assert answer.view == before                    # nothing was undone
        told = white.wait(fe.UndoAnswered)
        assert (told.asked_by, told.accepted) == ("peer", False)
        return True   # the driver says YourTurn again now that the request is settled

    over = _play(by_colour, undo_once)
    assert [type(e) for e in by_colour["black"].of(fe.UndoAnswered)] == [fe.UndoAnswered]
    _check_draw_by_ply_limit(by_colour, over)


def test_a_dropped_link_shows_connection_lost_and_the_game_resumes_by_itself(
        players: tuple[Player, Player]) -> None:
    """Issue 9 item 5 (04/U58): the WiFi drops mid-game; both screens say so, the guest comes back
    by itself, and the game goes on from where it was to its end, equal on both."""
    host, guest = players
    by_colour = _setup(host, guest)

    def drop_once(colour: str, p: Player, event: fe.YourTurn, st: dict[str, Any]) -> bool:
        if colour != "white" or st["turn"][colour] != 2 or st.get("dropped"):
            return False
        st["dropped"] = True
        loop = host.bridge._loop   # the WiFi drops: abort the host's live TCP connection
        active = host.bridge._host.active_link if host.bridge._host is not None else None
        assert loop is not None and active is not None
        loop.call_soon_threadsafe(active.writer.transport.abort)
        for q in (host, guest):
            assert q.wait(fe.ConnectionLost).reason
            assert q.wait(fe.Resumed).peer == (guest.fp if q is host else host.fp)
        again = p.wait(fe.YourTurn)          # where it stopped: same move, same view
        assert again.index == event.index and again.legal == event.legal and again.view == event.view
        st["in_turn"][colour] = 0
        st["turn"][colour] -= 1
        p._pending.insert(0, again)          # let the normal loop act on it
        return True

    over = _play(by_colour, drop_once)
    _check_draw_by_ply_limit(by_colour, over)


def test_commands_before_a_connection_are_refused_with_a_reason(players: tuple[Player, Player]) -> None:
    """04/U61: no game command is carried out without a game (nothing is queued for later)."""
    alice, _ = players
    alice.post(fe.Act("END"))
    refused = alice.wait(fe.CommandRefused)
    assert refused.command == fe.Act("END") and "not connected" in refused.reason
    alice.post(fe.ConfirmCode(True))
    assert "no pairing code" in alice.wait(fe.CommandRefused).reason
    alice.post(fe.Join("nobody-here"))
    assert "not host:port" in alice.wait(fe.Problem).message


def test_refused_pairing_pins_nothing_and_says_so_on_both(players: tuple[Player, Player]) -> None:
    """04/U59 step 3: first contact is allowed only when both confirm; a "no" pins nothing."""
    host, guest = players
    host.post(fe.Host())
    port = host.wait(fe.Hosting).port
    guest.post(fe.Join(f"127.0.0.1:{port}"))
    host.wait(fe.PairingCode)
    guest.wait(fe.PairingCode)
    host.post(fe.ConfirmCode(True))
    guest.post(fe.ConfirmCode(False))
    assert "not" in guest.wait(fe.PairingFailed).reason
    assert host.wait(fe.PairingFailed).reason
    assert not host.of(fe.PeerRemembered) and not guest.of(fe.PeerRemembered)
    assert PeerStore(host.bridge.net.data_dir).all() == PeerStore(guest.bridge.net.data_dir).all() == []
    assert _lobby_has(guest, host.fp, hosting=True).state == "new"


def test_lobby_states_paired_new_and_in_a_game() -> None:
    """04/U59: each peer shows paired / new / in a game; ME (another window of ours) is not a peer;
    a shared name and a pinned peer's name on another identity are marked."""
    fps = ["a" * 64, "b" * 64, "c" * 64, "d" * 64]
    seen = [PeerInfo("Cy", 1, fps[2], "playing", "10.0.0.3", 4003, "wec-c"),
            PeerInfo("Al", 1, fps[0], "hosting", "10.0.0.1", 4001, "wec-a"),
            PeerInfo("Bo", 1, fps[1], "idle", "10.0.0.2", 0, "wec-b"),
            PeerInfo("Me", 1, fps[3], "idle", "10.0.0.4", 0, "wec-d")]
    pins = [KnownPeer(fps[0], "", "", "", "Al"), KnownPeer(fps[2], "", "", "", "Cy")]
    assert peers_snapshot(seen, pins, own_fp=fps[3]) == (
        fe.LobbyPeer("wec-a", "Al", fps[0], "paired", True, "10.0.0.1:4001"),
        fe.LobbyPeer("wec-b", "Bo", fps[1], "new", False, "10.0.0.2:0"),
        fe.LobbyPeer("wec-c", "Cy", fps[2], "in a game", False, "10.0.0.3:4003"))
    # names are claims: a second "Al" is marked as not the pinned one, and both "Bo"s as sharing a name
    more = seen + [PeerInfo("Al", 1, "e" * 64, "hosting", "10.0.0.5", 4005, "wec-e"),
                   PeerInfo("Bo", 1, "f" * 64, "idle", "10.0.0.6", 0, "wec-f")]
    marked = {p.key: (p.same_name, p.not_pinned_as) for p in peers_snapshot(more, pins, own_fp=fps[3])}
    assert marked == {"wec-a": (True, None), "wec-e": (True, fps[0]), "wec-b": (True, None),
                      "wec-f": (True, None), "wec-c": (False, None)}


def test_empty_lobby_diagnosis_names_the_causes_and_this_laptops_addresses() -> None:
    """Issue 9 item 2 (04/U59): multicast blocked, wrong interface, client isolation, firewall."""
    d = diagnose([("wlan0", "192.168.1.20"), ("docker0", "172.17.0.1")], port=41000)
    assert d.addresses == ("192.168.1.20", "172.17.0.1") and d.port == 41000
    causes = [r.cause for r in d.reasons]
    assert causes[0].startswith("the WiFi blocks multicast") and "192.168.1.20:41000" in d.reasons[0].advice
    assert causes[1] == "the wrong interface: this laptop has several networks (docker0 look like a VPN or virtual adapter)"
    assert causes[2].startswith("client isolation") and "hotspot" in d.reasons[2].advice
    assert causes[3].startswith("a firewall") and "5353/udp" in d.reasons[3].advice
    assert d.lines()[0] == "No other game found. This laptop's addresses: 192.168.1.20:41000, 172.17.0.1:41000"
    single = diagnose([("wlan0", "10.42.0.5")])
    assert single.reasons[1].cause == "the two laptops are on different networks"
    assert "host the game first" in single.reasons[0].advice
    nothing = diagnose([])
    assert [r.cause for r in nothing.reasons] == ["this laptop is on no network"]


def test_a_pinned_peer_with_another_identity_is_refused_with_the_way_to_forget_it(tmp_path: Path) -> None:
    """Issue 9 item 3 (04/U59 step 3): a remembered peer presenting another identity is a warning and
    is refused; ForgetPeer removes the old pin, after which the next connection pairs again."""
    alice, bob = Player(tmp_path, "Alice"), Player(tmp_path, "Bob")
    mallory = Player(tmp_path, "Mallory")
    try:
        alice.bridge.start()
        bob.bridge.start()
        alice.post(fe.Host())
        port = alice.wait(fe.Hosting).port
        bob.post(fe.Join(f"127.0.0.1:{port}"))
        for p in (alice, bob):
            p.wait(fe.PairingCode)
            p.post(fe.ConfirmCode(True))
        assert bob.wait(fe.PeerRemembered).fingerprint == alice.fp
        bob.wait(fe.Connected)
        bob.post(fe.Quit())                 # leave during setup; then Alice's laptop is "reinstalled"
        alice.wait(fe.ConnectionLost)
        alice.bridge.close()
        mallory.bridge = NetBridge(replace(mallory.bridge.cfg, port=port))
        mallory.bridge.start()
        mallory.post(fe.Host())
        assert mallory.wait(fe.Hosting).port == port
        bob.post(fe.Join(f"127.0.0.1:{port}"))
        warning = bob.wait(fe.IdentityWarning)
        assert warning.fingerprint == alice.fp and "IDENTITY CHANGED" in warning.message
        assert warning.forget == f"wec peers --forget {alice.fp[:16]}"
        assert not bob.of(fe.PairingCode)[1:]          # refused: no new pairing was offered
        bob.post(fe.ForgetPeer(alice.fp))
        bob.post(fe.Join(f"127.0.0.1:{port}"))
        codes = bob.wait(fe.PairingCode), mallory.wait(fe.PairingCode)
        assert codes[0].code == codes[1].code and codes[0].peer_name == "Mallory"
    finally:
        for p in (alice, bob, mallory):
            p.bridge.close()


def test_quit_mid_game_closes_everything_and_the_other_side_waits(players: tuple[Player, Player]) -> None:
    """Issue 9 item 5: leaving is never a lost game here: the other side shows the lost connection
    (the unfinished game stays in both logs to resume); every thread and socket is released."""
    host, guest = players
    _setup(host, guest)
    guest.post(fe.Quit())
    assert host.wait(fe.ConnectionLost).reason
    host.post(fe.Quit())
    guest.post(fe.Act("END"))
    assert "not connected" in guest.wait(fe.CommandRefused).reason
    assert list(Path(host.bridge.net.games_dir).glob("active-*.wal"))
    assert list(Path(guest.bridge.net.games_dir).glob("active-*.wal"))


def test_an_empty_lobby_explains_why_and_shows_this_laptops_addresses(tmp_path: Path) -> None:
    """Issue 9 item 2 (04/U59): nothing found after ``hint_after`` seconds: the diagnosis, with the
    non-loopback IPv4 addresses of the interfaces that are up (as ``ip -4 addr`` lists them)."""
    ip = subprocess.run(["ip", "-4", "-o", "addr", "show", "up"], capture_output=True, text=True, check=False)
    if ip.returncode != 0:
        pytest.skip("needs iproute2")
    expected = {line.split()[3].split("/")[0] for line in ip.stdout.splitlines()} - {"127.0.0.1"}
    cfg = make_cfg(tmp_path, "Alone", engine, timeouts=TIMEOUTS)
    with NetBridge(BridgeConfig(cfg, discovery=False, hint_after=0.0)) as bridge:
        p = Player.__new__(Player)
        p.bridge, p.seen, p._pending = bridge, [], []
        found = p.wait(fe.NothingFound).diagnosis
        assert set(found.addresses) == expected and "127.0.0.1" not in found.addresses
        assert [r.cause for r in found.reasons][-2:] == [
            "client isolation: the access point keeps its guests apart",
            "a firewall drops mDNS (UDP 5353) or the game port"]
        assert p.of(fe.PeersChanged)[0].peers == ()
        assert set(p.of(fe.PeersChanged)[0].me.addresses) == expected


def test_resign_in_ones_own_turn_ends_the_game_on_both_screens(players: tuple[Player, Player]) -> None:
    """RUL-53: resignation during one's own turn (not in the other's); the other side wins, on
    both screens."""
    host, guest = players
    by_colour = _setup(host, guest)
    black, white = by_colour["black"], by_colour["white"]
    black.wait(fe.YourTurn)
    white.post(fe.Resign())
    refused = white.wait(fe.CommandRefused, lambda e: e.command == fe.Resign())
    assert refused.reason.startswith("RUL-53: a player may resign only during its own turn")
    black.post(fe.Resign())
    results = black.wait(fe.GameOver), white.wait(fe.GameOver)
    assert [r.result for r in results] == ["white", "white"]
    assert results[0].reason == results[1].reason and "black resigned (RUL-53)" in results[0].reason
    assert results[0].state_hash == results[1].state_hash
    assert (black.wait(fe.SessionEnded).result, white.wait(fe.SessionEnded).result) == ("white", "white")


def test_bad_actions_from_the_window_are_refused_and_change_nothing(players: tuple[Player, Player]) -> None:
    """03/M0.7 (an illegal move named by its rule), a notation error and an action out of turn are
    refused with the reason; the position is unchanged on both sides and play goes on."""
    host, guest = players
    by_colour = _setup(host, guest)
    black, white = by_colour["black"], by_colour["white"]
    turn = black.wait(fe.YourTurn)
    black.post(fe.Act("MV:DO(1,2)->(9,9)"))
    refused = black.wait(fe.CommandRefused)
    assert refused.command == fe.Act("MV:DO(1,2)->(9,9)")
    assert refused.reason == "03/M0.7: DO(1,2)->(9,9): a non-combat piece cannot take the enemy piece there"
    black.post(fe.Act("MV:nonsense"))
    assert black.wait(fe.CommandRefused).reason == "unknown piece type at 4 in 'MV:nonsense'"
    white.post(fe.Act("END"))
    assert white.wait(fe.CommandRefused).reason == "not our move"
    black.post(fe.Act(turn.legal[0]))
    applied = black.wait(fe.MyActionApplied)
    seen = white.wait(fe.PeerActed)
    assert (applied.index, applied.text) == (seen.index, seen.text) == (1, turn.legal[0])
    assert applied.view.ply == turn.view.ply == 1 and applied.view != turn.view


def test_a_draw_offered_and_accepted_ends_the_game_as_a_draw_on_both(players: tuple[Player, Player]) -> None:
    """RUL-53: Black offers a draw in its turn; White says yes at once (while Black still moves),
    and the acceptance goes out when White's next turn begins: a draw on both screens."""
    host, guest = players
    by_colour = _setup(host, guest)
    black, white = by_colour["black"], by_colour["white"]
    turn = black.wait(fe.YourTurn)
    black.post(fe.OfferDraw())
    assert white.wait(fe.DrawOffered).turn == 0
    white.post(fe.AnswerDraw(True))            # not White's turn yet: kept until it is
    black.post(fe.Act(turn.legal[0]))
    black.post(fe.Act(black.wait(fe.YourTurn, lambda e: e.index == 1).end_turn))
    results = black.wait(fe.GameOver), white.wait(fe.GameOver)
    assert [r.result for r in results] == ["draw", "draw"]
    assert results[0].reason == results[1].reason and "draw agreed" in results[0].reason
    assert results[0].state_hash == results[1].state_hash
    draws = (fe.OfferDraw, fe.AnswerDraw)
    assert [e for e in black.of(fe.CommandRefused) + white.of(fe.CommandRefused) if isinstance(e.command, draws)] == []
