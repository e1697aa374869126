"""Two people, two windows, one WiFi game (issue 9): two ``NetShell`` windows in this process,
each drawing on its own surface with its own ``NetBridge`` (real mDNS and TLS on 127.0.0.1),
driven only by mouse and keyboard events posted to each window, read from what each screen
shows (the screens' own models and pixels).

Screenshots of the real windows go to ``$WEC_SCREENSHOTS`` when it is set (docs/screenshots/).
"""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

import engine.api as engine
from engine.actions import EndTurn, Move
from engine.notation import format_action
from net import frontend as fe
from net.bridge import BridgeConfig, NetBridge
from net.human import HumanDriver, audit_verdict
from net.outputs import Event
from net.peers import PeerStore
from net_helpers import FAST, make_cfg
from ui import choices
from ui.home_screen import HomeScreen
from ui.layout import LAYOUT, cell_rect
from ui.lobby_screen import LobbyScreen, peer_words
from ui.net_session import LAST_ACTION_COLOUR, NetGameScene, NetSession
from ui.net_shell import NetShell
from ui.panel_view import end_button, list_row_rect
from ui.session import Session
from ui.setup_screen import SetupScreen
from ui.words import describe

LOOPBACK = ["127.0.0.1"]
WAIT = 90.0                 # a hang guard only: nothing here measures time
TIMEOUTS = replace(FAST, confirm=60.0, dead=10.0)
PLY_LIMIT = 12
SHOTS = os.environ.get("WEC_SCREENSHOTS")


class Window:
    """One laptop: a NetShell on its own surface; input only as pygame events."""

    def __init__(self, tmp: Path, name: str, hint_after: float = -1) -> None:
        cfg = make_cfg(tmp, name, engine, timeouts=TIMEOUTS)
        self.name, self.fp, self.data_dir = name, cfg.identity.fingerprint, cfg.data_dir
        self.surface = pygame.Surface((LAYOUT.width, LAYOUT.height))
        self.cfg = BridgeConfig(cfg, interfaces=LOOPBACK, hint_after=hint_after, backoff=0.05)
        self.shell = NetShell(Session(engine.new_game()), self.surface, bridge_factory=lambda: NetBridge(self.cfg))

    def frame(self, events: list[pygame.event.Event] | None = None) -> None:
        self.shell.pump(list(events or []), 0.05)

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        """A real press and release at ``pos`` and a frame for the widgets to react."""
        self.frame([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                    pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                    pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)])
        self.frame()

    def press(self, element: Any) -> None:
        assert element.is_enabled, f"{self.name}: {element.text!r} is disabled"
        self.click(element.rect.center)

    def key(self, k: int) -> None:
        self.frame([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""),
                    pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="")])
        self.frame()

    def type(self, text: str) -> None:
        self.frame([pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text])

    def pick(self, dropdown: Any, text: str) -> None:
        """Open a drop-down by a click and click its item ``text``."""
        self.press(dropdown)
        items = dropdown.current_state.options_selection_list.item_list
        button = next(i["button_element"] for i in items if i["text"] == text)
        self.click(button.rect.center)

    def shot(self, name: str) -> None:
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.shell.dirty = True
            self.frame()
            pygame.image.save(self.surface, str(Path(SHOTS) / f"{name}.png"))

    @property
    def lobby(self) -> LobbyScreen:
        assert isinstance(self.shell.screen, LobbyScreen), self.shell.screen
        return self.shell.screen

    @property
    def setup(self) -> SetupScreen:
        assert isinstance(self.shell.screen, SetupScreen), self.shell.screen
        return self.shell.screen

    @property
    def scene(self) -> NetGameScene:
        scene = self.shell.driver.scene
        assert isinstance(scene, NetGameScene), scene
        return scene


def until(windows: tuple[Window, ...], ok: Callable[[], bool], what: str) -> None:
    """Run frames on every window until ``ok()`` (a hang guard, not a time limit under test)."""
    deadline = time.monotonic() + WAIT
    while not ok():
        assert time.monotonic() < deadline, f"never happened: {what}; " + "; ".join(
            f"{w.name} saw {[type(e).__name__ for e in w.shell.seen if not isinstance(e, fe.PeersChanged)]}"
            for w in windows)
        for w in windows:
            w.frame()
        time.sleep(0.01)


@pytest.fixture
def windows(tmp_path: Path) -> Iterator[tuple[Window, Window]]:
    pygame.init()
    pygame.display.set_mode((LAYOUT.width, LAYOUT.height))     # one display; each window its own surface
    alice, bob = Window(tmp_path, "Alice"), Window(tmp_path, "Bob")
    try:
        yield alice, bob
    finally:
        alice.shell.close_bridge()
        bob.shell.close_bridge()
        pygame.quit()


def _peer_button(w: Window, fp: str) -> Any:
    key = next(p.key for p in w.lobby.peers if p.fingerprint == fp)
    return w.lobby.peer_buttons[key]


def _lobby_and_pairing(alice: Window, bob: Window) -> None:
    """04/U59: home > Play over WiFi on both; each lists the other under PEERS; Bob connects; the
    same code on both screens, confirmed on both; both remember the other."""
    both = (alice, bob)
    for w in both:
        w.press(w.shell.screen.buttons["wifi"])
        assert isinstance(w.shell.screen, LobbyScreen)
    until(both, lambda: all(any(p.fingerprint == o.fp and p.hosting for p in w.lobby.peers)
                            for w, o in ((alice, bob), (bob, alice))), "both laptops under PEERS")
    seen = next(p for p in bob.lobby.peers if p.fingerprint == alice.fp)
    assert (seen.name, seen.short_fp, seen.state) == ("Alice", alice.fp[:16], "new")
    assert _peer_button(bob, alice.fp).text == peer_words(seen)
    assert f"Alice   {alice.fp[:16]}   new" in _peer_button(bob, alice.fp).text
    until(both, lambda: alice.lobby.me is not None and alice.lobby.me.port > 0, "ME with its port")
    me = alice.lobby.me
    assert me is not None and me.fingerprint == alice.fp and me.addresses == ("127.0.0.1",)
    assert f"127.0.0.1:{me.port}" in alice.lobby.me_box.html_text
    bob.shot("wifi-lobby")
    assert not bob.lobby.connect.is_enabled                 # nothing selected yet
    bob.press(_peer_button(bob, alice.fp))
    bob.press(bob.lobby.connect)
    until(both, lambda: all(w.lobby.dialog_kind == "code" for w in both), "the pairing code on both")
    codes = [w.lobby.code for w in both]
    assert codes[0] is not None and codes[1] is not None and codes[0].code == codes[1].code
    assert (codes[0].peer_name, codes[1].peer_name) == ("Bob", "Alice")
    for w in both:
        assert w.lobby.code is not None and w.lobby.code.code in w.lobby.dialog_text.html_text
    alice.shot("wifi-pairing-code")
    for w in both:
        w.press(w.lobby.dialog_buttons["yes"])
    until(both, lambda: all(isinstance(w.shell.screen, SetupScreen) for w in both), "the setup screen on both")
    assert [p.fingerprint for p in PeerStore(alice.data_dir).all()] == [bob.fp]
    assert [p.fingerprint for p in PeerStore(bob.data_dir).all()] == [alice.fp]


def _negotiate(alice: Window, bob: Window) -> dict[str, Window]:
    """04/U60: both ask for White, the coin decides; 04/U21: governments need no approval; 04/U61:
    Bob's turn limit approved by Alice, his tank range rejected; Finish on both; rules shown."""
    both = (alice, bob)
    for w in both:
        w.press(w.setup.white)
    alice.pick(alice.setup.gov, "Theocracy (Avatar, Acolyte)")
    for w in both:
        w.press(w.setup.gov_button)
    until(both, lambda: all(w.setup.toss is not None for w in both), "the colour toss on both")
    mine = {w.setup.toss.mine for w in both}            # type: ignore[union-attr]
    assert mine == {"white", "black"}
    assert {w.setup.toss.toss_winner for w in both} == {"me", "peer"}   # type: ignore[union-attr]
    for w in both:
        assert w.setup.colour_label.text.startswith(f"you play {w.setup.toss.mine.capitalize()}")  # type: ignore

    bob.pick(bob.setup.option, "Turn limit")
    bob.click(bob.setup.value.rect.center)
    bob.key(pygame.K_END)
    bob.key(pygame.K_BACKSPACE)
    bob.type(str(PLY_LIMIT))
    assert bob.setup.value.get_text() == str(PLY_LIMIT)
    bob.press(bob.setup.request)
    until(both, lambda: alice.setup.dialog is not None, "Bob's request on Alice's screen")
    assert "Turn limit: 12 (standard: no limit)" in alice.setup.dialog_text.html_text
    alice.shot("wifi-rule-request")
    alice.press(alice.setup.approve)
    until(both, lambda: any(a.accepted for a in bob.setup.answers), "the approval on Bob's screen")
    assert bob.setup.answers[-1].changes == (("ply_limit", PLY_LIMIT),)

    bob.pick(bob.setup.option, "Tank range")
    bob.pick(bob.setup.value, "8")
    bob.press(bob.setup.request)
    until(both, lambda: alice.setup.dialog is not None, "the second request on Alice's screen")
    assert "Tank range: 8 (standard: 7)" in alice.setup.dialog_text.html_text
    alice.press(alice.setup.reject)
    until(both, lambda: len(bob.setup.answers) == 2, "the rejection on Bob's screen")
    assert (bob.setup.answers[1].accepted, bob.setup.answers[1].changes) == (False, (("tank_range", 8),))
    until(both, lambda: all(w.setup.setup is not None and w.setup.setup.ready for w in both), "ready on both")
    for w in both:
        assert "Turn limit: 12" in w.setup.agreed.html_text and "Tank range" not in w.setup.agreed.html_text
        assert "rejected" in w.setup.requests.html_text and "accepted" in w.setup.requests.html_text
        w.press(w.setup.finish)
    until(both, lambda: all(w.shell.net_session is not None for w in both), "the board on both")
    by_colour = {w.shell.net_session.colour: w for w in both}   # type: ignore[union-attr]
    assert set(by_colour) == {"white", "black"}
    for w in both:
        assert w.shell.agreed is not None and ("ply_limit", PLY_LIMIT) in w.shell.agreed.changed
        assert dict(w.shell.agreed.options)["tank_range"] == 7
        notice = w.shell.notice
        assert notice is not None and "Turn limit: 12" in notice.text_block.html_text
        w.press(notice.dismiss_button)
    govs = dict(alice.shell.agreed.options)                     # type: ignore[union-attr]
    assert govs["gov_" + alice.shell.net_session.colour] == "theocracy"   # type: ignore[union-attr]
    return by_colour


def _clicks_for(scene: NetGameScene, rng: random.Random) -> tuple[Move, list[tuple[int, int]]]:
    """Two left clicks (piece, destination) that choose one Move, seeded."""
    moves = []
    for a in scene.actions:
        if isinstance(a, Move):
            src, dst = choices.source_cell(a), choices.target_cell(a)
            if choices.actions_to(choices.actions_from(scene.actions, src, False), dst) == [a]:
                moves.append(a)
    move = rng.choice(moves)
    return move, [cell_rect(*choices.source_cell(move), scene.view.player).center,
            cell_rect(*choices.target_cell(move), scene.view.player).center]


def test_two_windows_pair_negotiate_play_undo_and_finish_over_wifi(windows: tuple[Window, Window]) -> None:
    """Issue 9 (04/U59, U60, U61, U31): the lobby, the code on both, one rule approved and one
    rejected, 12 turns by clicks on both boards with the peer's last action framed and in words,
    "waiting for…" on the idle side, an undo request refused, the game over on both (RUL-53)."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    by_colour = _negotiate(alice, bob)
    black, white = by_colour["black"], by_colour["white"]
    rng = random.Random(9)
    until(both, lambda: bool(black.scene.actions), "Black's move first (04/U61)")
    assert not white.scene.actions and white.scene.banner.startswith("waiting for Black")
    white.shot("wifi-waiting")
    turns, undo_done = 0, False
    while black.shell.net_session.over is None or white.shell.net_session.over is None:   # type: ignore
        mover = next((w for w in both if w.scene.actions and w.shell.net_session.sent is None), None)  # type: ignore
        if mover is None:
            for w in both:
                w.frame()
            time.sleep(0.01)
            continue
        other = white if mover is black else black
        session = mover.shell.net_session
        assert session is not None and other.shell.net_session is not None
        if not session.view.turn or not session.view.turn.actions:      # the turn's Move, by two clicks
            before = len(other.shell.net_session.turns) + len(other.shell.net_session.this_turn)
            move, (src, dst) = _clicks_for(mover.scene, rng)
            before_move = mover.shell.net_session.view      # what the mover saw: the enemies it takes
            mover.click(src)
            assert mover.scene.selection is not None
            mover.click(dst)
            sent = format_action(move)
            until(both, lambda: any(isinstance(e, fe.MyActionApplied) and e.text == sent
                                    for e in mover.shell.seen[-4:]), "the move applied on both")
            until(both, lambda: len(other.shell.net_session.this_turn)           # type: ignore[union-attr]
                  + len(other.shell.net_session.turns) == before + 1, "the move on the other screen")  # type: ignore
            seen_as = next(e for e in reversed(other.shell.seen) if isinstance(e, fe.PeerActed)).text
            if seen_as == "?":   # a piece the other side cannot see moved: shown as "?" (RUL-37, HN-2)
                continue
            assert other.shell.net_session.last is not None and other.shell.net_session.last[0] == sent
            action = engine.parse_action(sent)
            assert other.scene.last_words.endswith(describe(action, before_move))
            cell = cell_rect(*choices.target_cell(action), other.scene.view.player)
            other.shell.dirty = True
            other.frame()
            assert tuple(other.surface.get_at(cell.topleft))[:3] == LAST_ACTION_COLOUR
            assert len(other.shell.net_session.this_turn) + len(other.shell.net_session.turns) == before + 1
            continue
        if mover is black and turns >= 2 and not undo_done:              # ask to take the Move back
            undo_done = True
            view_before = session.view
            mover.key(pygame.K_z)
            until(both, lambda: other.shell.undo_panel is not None, "the undo request on the other screen")
            other.shot("wifi-undo-request")
            other.press(other.shell.undo_buttons["no"])
            until(both, lambda: any(isinstance(e, fe.UndoAnswered) for e in mover.shell.seen), "the answer")
            answer = next(e for e in mover.shell.seen if isinstance(e, fe.UndoAnswered))
            assert (answer.asked_by, answer.accepted) == ("me", False)
            diff = [f for f in view_before._fields if getattr(view_before, f) != getattr(session.view, f)]
            assert diff == [], [(f, getattr(view_before, f), getattr(session.view, f)) for f in diff]
            assert mover.scene.status.startswith("your undo request was refused")
            until(both, lambda: bool(mover.scene.actions), "the turn goes on after the refusal")
            continue
        assert any(isinstance(a, EndTurn) for a in mover.scene.actions)
        mover.click(end_button().center)
        turns += 1
        until(both, lambda: not mover.scene.actions or mover.shell.net_session.over is not None,  # type: ignore
              "the turn ended")
    assert turns == PLY_LIMIT and undo_done
    for w in both:
        over = w.shell.net_session.over                                  # type: ignore[union-attr]
        assert over is not None and (over.result, over.reason) == ("draw", f"ply limit {PLY_LIMIT} (RUL-53)")
        assert w.scene.view.result == "draw" and w.scene._title().startswith("Game over: Draw")
        assert w.shell.notice is not None and "Game over: A draw" in w.shell.notice.text_block.html_text
        ends = [e for e in w.shell.seen if isinstance(e, (fe.PeerActed, fe.MyActionApplied)) and e.text == "END"]
        assert len(ends) == PLY_LIMIT
        assert len(w.shell.net_session.turns) == PLY_LIMIT                # type: ignore[union-attr]
        # issue 9 item 5: the result first, "Checking the game (audit)…", then the verdict, then GameOver
        kinds = [type(e) for e in w.shell.seen if isinstance(e, (fe.AuditStarted, fe.AuditVerdict, fe.GameOver))]
        assert kinds == [fe.AuditStarted, fe.AuditVerdict, fe.GameOver]
        started = next(e for e in w.shell.seen if isinstance(e, fe.AuditStarted))
        assert (started.result, started.reason) == ("draw", f"ply limit {PLY_LIMIT} (RUL-53)")
        verdict = next(e for e in w.shell.seen if isinstance(e, fe.AuditVerdict))
        assert verdict.passed and verdict.report.startswith("audit passed")
        assert w.scene.audit == "Audit passed: nobody lied"
        assert "Audit passed: nobody lied" in w.shell.notice.text_block.html_text
    assert black.shell.net_session.over.state_hash == white.shell.net_session.over.state_hash  # type: ignore
    black.shot("wifi-game-over")


def test_empty_lobby_says_why_with_this_laptops_addresses(tmp_path: Path) -> None:
    """Issue 9 item 2 (04/U59): alone, the lobby explains what may block discovery and shows the
    address to type on the other laptop; the host:port field joins by address."""
    pygame.init()
    pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    w = Window(tmp_path, "Alone", hint_after=0.0)
    try:
        w.press(w.shell.screen.buttons["wifi"])
        until((w,), lambda: w.lobby.diagnosed is not None, "the diagnosis")
        text = w.lobby.diagnosis.html_text
        assert w.lobby.diagnosis.visible and text.startswith("No other game found. This laptop's addresses:")
        assert "client isolation" in text and "a firewall drops mDNS" in text
        w.click(w.lobby.address.rect.center)
        w.type("nobody-here")
        w.press(w.lobby.connect_address)
        until((w,), lambda: "not host:port" in w.lobby.message.text, "the refusal of a bad address")
        assert w.lobby.message.text.startswith("Problem:")
        until((w,), lambda: sum(isinstance(e, fe.Hosting) for e in w.shell.seen) >= 2, "hosting again")
    finally:
        w.shell.close_bridge()
        pygame.quit()


def test_resign_from_the_window_ends_the_game_on_both_screens(windows: tuple[Window, Window]) -> None:
    """RUL-53: Resign during one's own turn, confirmed in a dialog; the other side wins, on both
    screens, with the same final state."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    by_colour = _negotiate(alice, bob)
    black, white = by_colour["black"], by_colour["white"]
    until(both, lambda: bool(black.scene.actions), "Black's turn")
    black.press(black.shell.game_buttons["resign"])
    assert black.shell.question == "resign"
    black.press(black.shell.undo_buttons["yes"])
    until(both, lambda: all(w.shell.net_session.over is not None for w in both), "game over on both")  # type: ignore
    overs = [w.shell.net_session.over for w in both]                     # type: ignore[union-attr]
    assert [o.result for o in overs] == ["white", "white"]               # type: ignore[union-attr]
    assert all("black resigned (RUL-53)" in o.reason for o in overs)     # type: ignore[union-attr]
    assert overs[0].state_hash == overs[1].state_hash                    # type: ignore[union-attr]
    for w in both:
        assert w.scene._title().startswith("Game over: White wins")
        assert "Game over: White wins" in w.shell.notice.text_block.html_text   # type: ignore[union-attr]
        assert not w.shell.game_buttons
        assert w.scene.audit == "Audit passed: nobody lied"                     # issue 9 item 5


def test_the_game_over_screen_says_checking_then_a_failed_audits_turn_claim_and_signed_message() -> None:
    """Issue 9 item 5: the game-over screen says "Checking the game (audit)…" while the audit runs
    and then its verdict; a failed audit names the turn, the false claim and the peer's signed
    message (the report as net/hidden_audit.py writes it, docs/protocol.md "The audit")."""
    view = engine.observe(engine.new_game(engine.Options()), "W")
    session = NetSession(_Posted(), "white", view)
    assert session.scene().audit == ""
    session.on_event(fe.AuditStarted("white", "black resigned (RUL-53)"))
    scene = session.scene()
    assert scene.audit == "Checking the game (audit)…" and scene.actions == []
    assert scene._title() == "Game over: White wins, black resigned (RUL-53)"
    report = ("event 7, action 9, turn 4: the peer's signed 'answer' (seq 23) is not what an honest machine "
              "sends there: cons differs (claimed 1, honest 0)")
    session.on_event(audit_verdict(False, report))
    scene = session.scene()
    assert scene.audit == ("Audit failed: turn 4, the peer's signed 'answer' (seq 23) is not what an honest "
                           "machine sends there: cons differs (claimed 1, honest 0) — proven by signed message #23")
    assert session.apply(engine.parse_action("END")) == "the game is over"


def test_a_game_ended_by_an_audit_claim_says_no_audit_and_an_abandoned_one_says_nothing() -> None:
    """Issue 9 item 5 (N-2): when a side did not open its secrets in time its opponent claims the
    win and no audit was possible: the screen says so; an abandoned game had no audit to show."""
    view = engine.observe(engine.new_game(engine.Options()), "W")
    shown: list[object] = []
    driver = HumanDriver(engine, shown.append)
    detail = "black did not open its secrets for the audit within 60 s; white claimed the win: no openings"
    driver.on_event(Event("game-over", {"outcome": "white", "ending": "audit", "detail": detail,
                                        "state_hash": "00"}))
    assert [type(e) for e in shown] == [fe.AuditVerdict, fe.GameOver]
    session = NetSession(_Posted(), "white", view)
    session.on_event(fe.AuditStarted("white", "black resigned (RUL-53)"))
    for e in shown:
        session.on_event(e)
    assert session.scene().audit == f"No audit: {detail}"
    abandoned = NetSession(_Posted(), "white", view)
    abandoned.on_event(fe.GameOver("white", "black left the game (N-2)", "00", None))
    assert abandoned.scene().audit == ""


def test_our_applied_action_leaves_no_stale_legal_actions_on_the_board() -> None:
    """Issue 9 (the "13 turns" flake): between our action applied and the next YourTurn / Waiting
    the board offers no action (the old legal list would let End Turn be clicked twice)."""
    state = engine.new_game(engine.Options())
    view = engine.observe(state, "B")
    session = NetSession(_Posted(), "black", view)
    legal = tuple(engine.format_action(a) for a in engine.legal_actions(state))
    session.on_event(fe.YourTurn(0, legal, None, view))
    assert session.scene().actions
    session.on_event(fe.MyActionApplied(1, legal[0], view))
    assert session.scene().actions == []
    session.on_event(fe.PeerActed(2, "END", view))
    assert session.scene().actions == []


def test_our_end_turn_on_its_way_stays_on_its_way_when_the_turn_is_said_again_after_a_resume() -> None:
    """Issue 9 (the "13 turns" flake, 04/U42): End Turn posted right after a resume, then the
    bridge says YourTurn again for the same action index (its status re-said after the rebuild):
    the End Turn is still on its way, so the board offers no second one; a lost link offers none."""
    state = engine.new_game(engine.Options())
    view = engine.observe(state, "B")
    posted = _Posted()
    session = NetSession(posted, "black", view)
    legal = tuple(engine.format_action(a) for a in engine.legal_actions(state))
    session.on_event(fe.YourTurn(4, legal, None, view))
    session.on_event(fe.ConnectionLost("peer closed the connection"))
    assert session.scene().actions == [] and session.legal == []
    session.on_event(fe.Resumed("peer"))
    session.on_event(fe.YourTurn(4, legal, None, view))
    first = session.legal[0]
    assert session.apply(first) is None and posted.posted == [fe.Act(engine.format_action(first))]
    session.on_event(fe.YourTurn(4, legal, None, view))            # the same turn said again
    assert session.scene().actions == []
    assert session.apply(first) == "your last action is still on its way to the other laptop"
    assert len(posted.posted) == 1
    session.on_event(fe.MyActionApplied(5, engine.format_action(first), view))
    session.on_event(fe.YourTurn(5, legal, None, view))             # the next action's turn
    assert session.scene().actions


class _Posted:
    """A bridge stand-in that keeps what the session posts (nothing is sent anywhere)."""

    def __init__(self) -> None:
        self.posted: list[object] = []

    def post(self, command: object) -> None:
        self.posted.append(command)


def test_a_draw_offered_in_the_window_and_accepted_ends_the_game_drawn(windows: tuple[Window, Window]) -> None:
    """RUL-53: White offers a draw during its turn (after its Move); Black accepts in the dialog;
    the game is drawn on both screens."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    by_colour = _negotiate(alice, bob)
    black, white = by_colour["black"], by_colour["white"]
    rng = random.Random(3)
    for mover in (black, white):                       # one Move and End Turn each
        until(both, lambda: bool(mover.scene.actions) and mover.shell.net_session.sent is None, "a turn")  # type: ignore
        _, (src, dst) = _clicks_for(mover.scene, rng)
        mover.click(src)
        mover.click(dst)
        until(both, lambda: any(isinstance(a, EndTurn) for a in mover.scene.actions), "the Move applied")
        if mover is white:
            mover.press(mover.shell.game_buttons["draw"])
            until(both, lambda: black.shell.question == "draw", "the offer on Black's screen")
            black.press(black.shell.undo_buttons["yes"])
        mover.click(end_button().center)
    until(both, lambda: all(w.shell.net_session.over is not None for w in both), "game over on both")  # type: ignore
    overs = [w.shell.net_session.over for w in both]                     # type: ignore[union-attr]
    assert [o.result for o in overs] == ["draw", "draw"]                 # type: ignore[union-attr]
    assert overs[0].reason == overs[1].reason and overs[0].state_hash == overs[1].state_hash  # type: ignore
    for w in both:
        assert w.scene._title().startswith("Game over: Draw")


def _connect_by_address(guest: Window, host: Window, port: int) -> None:
    """The guest types the host's host:port in its lobby and presses Connect to address."""
    for w in (host, guest):
        if not isinstance(w.shell.screen, LobbyScreen):
            w.press(w.shell.screen.buttons["wifi"])
    until((host, guest), lambda: host.lobby.me is not None and host.lobby.me.port == port, "the host's port")
    if guest.lobby.address.get_text() != f"127.0.0.1:{port}":      # still typed from the last try
        guest.click(guest.lobby.address.rect.center)
        guest.type(f"127.0.0.1:{port}")
    guest.press(guest.lobby.connect_address)


def test_a_paired_laptop_is_not_asked_again_and_another_identity_is_refused_with_forget(
        tmp_path: Path) -> None:
    """Issue 9 item 3 (04/U59): the first contact shows the code and both confirm; the same laptop
    coming back is connected without a code; a reinstalled laptop (another identity) at the
    remembered address is refused with a warning and a Forget button, and after Forget the next
    connection pairs again with a code."""
    pygame.init()
    pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def alice_laptop(folder: str) -> Window:
        w = Window(tmp_path / folder, "Alice")
        w.cfg = replace(w.cfg, port=port)            # the laptop listens where Bob remembers it
        return w

    alice, bob = alice_laptop("first"), Window(tmp_path, "Bob")
    opened = [alice, bob]
    try:
        _connect_by_address(bob, alice, port)
        until((alice, bob), lambda: all(w.lobby.dialog_kind == "code" for w in (alice, bob)), "the code on both")
        for w in (alice, bob):
            w.press(w.lobby.dialog_buttons["yes"])
        until((alice, bob), lambda: all(isinstance(w.shell.screen, SetupScreen) for w in (alice, bob)), "setup")
        assert [p.fingerprint for p in PeerStore(bob.data_dir).all()] == [alice.fp]

        for w in (alice, bob):                       # both windows closed; the same two laptops again
            w.shell.close_bridge()
        alice, bob = alice_laptop("first"), Window(tmp_path, "Bob")
        opened += [alice, bob]
        assert (alice.fp, bob.fp) == (opened[0].fp, opened[1].fp)
        _connect_by_address(bob, alice, port)
        until((alice, bob), lambda: all(isinstance(w.shell.screen, SetupScreen) for w in (alice, bob)),
              "setup without a code")
        assert not any(isinstance(e, fe.PairingCode) for e in bob.shell.seen + alice.shell.seen)

        for w in (alice, bob):                       # Alice's laptop reinstalled: another identity
            w.shell.close_bridge()
        old = alice.fp
        alice, bob = alice_laptop("reinstalled"), Window(tmp_path, "Bob")
        opened += [alice, bob]
        assert alice.fp != old
        _connect_by_address(bob, alice, port)
        until((alice, bob), lambda: bob.lobby.dialog_kind == "identity", "the warning on Bob's screen")
        text = bob.lobby.dialog_text.html_text      # type: ignore[union-attr]
        assert "another identity" in text and "refused" in text.lower()
        assert not any(isinstance(w.shell.screen, SetupScreen) for w in (alice, bob))
        assert [p.fingerprint for p in PeerStore(bob.data_dir).all()] == [old]      # nothing re-pinned
        bob.press(bob.lobby.dialog_buttons["forget"])
        until((alice, bob), lambda: PeerStore(bob.data_dir).all() == [], "the old pin forgotten")

        _connect_by_address(bob, alice, port)      # pairs again, with a code on both screens
        until((alice, bob), lambda: all(w.lobby.dialog_kind == "code" for w in (alice, bob)), "a code again")
        assert alice.lobby.code is not None and bob.lobby.code is not None
        assert alice.lobby.code.code == bob.lobby.code.code
    finally:
        for w in opened:
            w.shell.close_bridge()
        pygame.quit()


def test_a_move_time_limit_is_asked_for_and_agreed_in_the_window(windows: tuple[Window, Window]) -> None:
    """Issue 9 item 7 (`wec host --request move_time_limit=60` in the window; docs/rulings.md N-4,
    04/U61): Bob picks "Move time limit" in the rule list and types 60; Alice's screen asks her in
    words and she approves; the agreed rules on both say it, and so does the notice at the start;
    during the game the countdown is shown on both boards and starts afresh after each action."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    bob.pick(bob.setup.option, "Move time limit")
    assert bob.setup.value.get_text() == "0"                   # the standard: no limit
    bob.click(bob.setup.value.rect.center)
    bob.key(pygame.K_END)
    bob.key(pygame.K_BACKSPACE)
    bob.type("60")
    bob.press(bob.setup.request)
    until(both, lambda: alice.setup.dialog is not None, "Bob's request on Alice's screen")
    assert "Move time limit: 60 s (standard: no limit)" in alice.setup.dialog_text.html_text
    alice.press(alice.setup.approve)
    until(both, lambda: any(a.accepted for a in bob.setup.answers), "the approval on Bob's screen")
    assert bob.setup.answers[-1].changes == (("move_time_limit", 60),)
    for w in both:
        w.press(w.setup.white)
        w.press(w.setup.gov_button)
    until(both, lambda: all(w.setup.setup is not None and w.setup.setup.ready for w in both), "ready on both")
    for w in both:
        assert "Move time limit: 60 s" in w.setup.agreed.html_text
        w.press(w.setup.finish)
    until(both, lambda: all(w.shell.net_session is not None for w in both), "the board on both")
    for w in both:
        notice = w.shell.notice
        assert notice is not None and "Move time limit: 60 s" in notice.text_block.html_text
        w.press(notice.dismiss_button)
    by_colour = {w.shell.net_session.colour: w for w in both}   # type: ignore[union-attr]
    black, white = by_colour["black"], by_colour["white"]
    until(both, lambda: black.scene.clock.startswith("you have"), "Black's countdown")
    until(both, lambda: white.scene.clock.startswith("Black has"), "Black's clock on White's")

    def left(w: Window) -> int:
        return int(w.scene.clock.split(" has " if " has " in w.scene.clock else " have ")[1].split(" s ")[0])
    assert left(black) <= 60
    until(both, lambda: left(black) < 60, "the countdown running")            # drawn again as it runs
    started = black.shell.net_session.clock_from                      # type: ignore[union-attr]
    move, clicks = _clicks_for(black.scene, random.Random(3))
    for pos in clicks:
        black.click(pos)
    until(both, lambda: white.shell.net_session.last is not None, "the move on White's screen")  # type: ignore
    until(both, lambda: black.shell.net_session.clock_from != started,     # type: ignore[union-attr]
          "a fresh clock for Black's next action")


def test_back_leaves_the_lobby_and_the_network(windows: tuple[Window, Window]) -> None:
    """04/U59: a player who opened the lobby can go back: Bob presses Back to the home screen;
    his window shows the home screen with no network running (no hosting, no discovery), and
    Alice's PEERS no longer lists him; File > Play over WiFi (04/U11) opens the lobby again and he
    is listed again."""
    alice, bob = windows
    both = (alice, bob)
    for w in both:
        w.press(w.shell.screen.buttons["wifi"])
    until(both, lambda: any(p.fingerprint == bob.fp for p in alice.lobby.peers), "Bob under Alice's PEERS")
    bob.press(bob.lobby.back)
    assert isinstance(bob.shell.screen, HomeScreen) and bob.shell.bridge is None
    until(both, lambda: not any(p.fingerprint == bob.fp for p in alice.lobby.peers), "Bob gone from PEERS")
    bob.click(bob.shell.menu.title_rect("File").center)          # 04/U11: File > Play over WiFi
    bob.click(bob.shell.menu.item_rect("wifi").center)
    assert isinstance(bob.shell.screen, LobbyScreen) and bob.shell.bridge is not None
    until(both, lambda: any(p.fingerprint == bob.fp and p.hosting for p in alice.lobby.peers), "Bob listed again")


def test_a_refused_connection_is_said_in_the_lobby_which_waits_for_a_guest_again(
        windows: tuple[Window, Window], tmp_path: Path) -> None:
    """04/U59, 04/U62: Alice and Bob start a game, and both windows close; Bob's record of it is
    lost, so the two laptops hold different unfinished games and the connection is refused. Both
    lobbies say why in words (they used to say nothing) and Bob's laptop waits for a guest again;
    Alice sets her unfinished game aside with the lobby's button and Bob's next connection starts a
    new game (the window's ``--new-game``, once)."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    for w in both:
        w.press(w.setup.white)
        w.press(w.setup.gov_button)
    until(both, lambda: all(w.setup.setup is not None and w.setup.setup.ready for w in both), "ready on both")
    for w in both:
        w.press(w.setup.finish)
    until(both, lambda: all(w.shell.net_session is not None for w in both), "the board on both")
    for w in both:
        w.shell.close_bridge()
    lost = list((bob.data_dir / "games").glob("active-*.wal"))
    assert len(lost) == 1
    lost[0].unlink()                                    # Bob's laptop lost its record of the game
    alice, bob = Window(tmp_path, "Alice"), Window(tmp_path, "Bob")
    both = (alice, bob)
    try:
        for w in both:
            w.press(w.shell.screen.buttons["wifi"])
        until(both, lambda: any(p.fingerprint == alice.fp and p.hosting for p in bob.lobby.peers), "Alice listed")
        bob.press(_peer_button(bob, alice.fp))
        bob.press(bob.lobby.connect)
        until(both, lambda: bob.lobby.message.text.startswith("Problem: not connected"), "the refusal said")
        assert "different unfinished games" in bob.lobby.message.text
        until(both, lambda: alice.lobby.message.text.startswith("Problem: refused the other laptop"),
              "the refusal said on the host's screen too")
        assert "different unfinished games" in alice.lobby.message.text
        assert isinstance(bob.shell.screen, LobbyScreen) and bob.shell.net_session is None
        mark = max(i for i, e in enumerate(bob.shell.seen) if isinstance(e, fe.SessionEnded))
        until(both, lambda: any(isinstance(e, fe.Hosting) for e in bob.shell.seen[mark:]), "Bob hosting again")
        # 04/U62: Alice, who holds the unfinished game, sets it aside (`--new-game` in the window)
        assert "--new-game" not in alice.lobby.message.text and "Set the unfinished game aside" in \
            alice.lobby.message.text
        alice.press(alice.lobby.afresh)
        bob.press(_peer_button(bob, alice.fp))
        bob.press(bob.lobby.connect)
        until(both, lambda: all(isinstance(w.shell.screen, SetupScreen) for w in both), "setup: a new game")
        assert len(list((alice.data_dir / "games").glob("active-*.abandoned-*"))) == 1   # kept aside
        assert alice.shell.bridge.net.new_game is False                                  # once only
    finally:
        for w in both:
            w.shell.close_bridge()


def test_peers_rows_say_the_name_warnings_and_how_many_are_not_shown(tmp_path: Path) -> None:
    """04/U59 with issue 10 item 3 (names are claims): a PEERS row says when another laptop uses
    the same name and when a laptop uses a paired laptop's name with another identity (possible
    impostor); with more laptops than rows the lobby says how many are not shown and what to do.
    The lobby is fed the bridge's PeersChanged events as the bridge sends them."""
    pygame.init()
    surface = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    try:
        shell = NetShell(Session(engine.new_game()), surface)
        shell.command("wifi")                            # no network here: the lobby alone
        lobby = shell.lobby
        assert lobby is not None
        me = fe.Me("Me", "f" * 64, ("192.168.1.5",))
        twins = (fe.LobbyPeer("a", "Ann", "a" * 64, "new", True, "192.168.1.6:4100", same_name=True),
                 fe.LobbyPeer("b", "Ann", "b" * 64, "new", True, "192.168.1.7:4100", same_name=True),
                 fe.LobbyPeer("c", "Bob", "c" * 64, "new", True, "192.168.1.8:4100", not_pinned_as="d" * 64))
        lobby.on_event(fe.PeersChanged(twins, me))
        shell.pump([], 0.05)
        texts = [b.text for b in lobby.peer_buttons.values()]
        assert texts[0].endswith("· name used twice") and texts[0].startswith("Ann   aaaa")
        assert texts[2].endswith("· NOT your paired Bob")
        tip = lobby.peer_buttons["c"].tool_tip_text
        assert "dddddddddddddddd" in tip and "possible impostor" in tip
        assert lobby.more.text == ""
        many = tuple(fe.LobbyPeer(f"k{i}", f"Laptop {i}", f"{i:x}" * 64, "new", True, f"10.0.0.{i}:4100")
                     for i in range(1, 10))
        lobby.on_event(fe.PeersChanged(many, me))
        shell.pump([], 0.05)
        assert len(lobby.peer_buttons) == 6
        assert lobby.more.text.startswith("… and 3 more: type the address")
    finally:
        pygame.quit()


def test_the_peers_move_onto_its_own_piece_takes_nothing_in_words(windows: tuple[Window, Window]) -> None:
    """04/U71 words (issue 12 item 3) for the peer's action (issue 9 item 5): Black moves a piece
    onto a square its own piece shares (RUL-24); White's screen writes the move without "takes"
    (it used to list Black's own pieces there as taken: the words were read from White's view
    after the move), and White's history line says the same words as Black's."""
    alice, bob = windows
    both = (alice, bob)
    _lobby_and_pairing(alice, bob)
    for w in both:
        w.press(w.setup.white)
        w.press(w.setup.gov_button)
    until(both, lambda: all(w.setup.setup is not None and w.setup.setup.ready for w in both), "ready on both")
    for w in both:
        w.press(w.setup.finish)
    until(both, lambda: all(w.shell.net_session is not None for w in both), "the board on both")
    for w in both:
        w.press(w.shell.notice.dismiss_button)            # type: ignore[union-attr]
    by_colour = {w.shell.net_session.colour: w for w in both}   # type: ignore[union-attr]
    black, white = by_colour["black"], by_colour["white"]
    until(both, lambda: bool(black.scene.actions), "Black to move")
    own = {(p.row, p.col, p.level) for p in black.scene.view.own}
    # White sees the mover and every piece of the destination (RUL-18): the action travels in clear
    unseen = {(p.row, p.col, p.level) for p in black.scene.view.own if not p.exposed}
    onto_own = [a for a in black.scene.actions if isinstance(a, Move) and (a.row, a.col, a.level) in own
                and (a.piece.row, a.piece.col, a.piece.level) not in unseen and (a.row, a.col, a.level) not in unseen
                and choices.actions_to(choices.actions_from(black.scene.actions, choices.source_cell(a), False),
                                       choices.target_cell(a)) == [a]]
    assert onto_own, "no Move of a piece White sees onto a square Black's own piece holds"
    move = onto_own[0]
    for cell in (choices.source_cell(move), choices.target_cell(move)):
        black.click(cell_rect(*cell, "B").center)
    until(both, lambda: white.shell.net_session.last is not None, "the move on White's screen")  # type: ignore
    words = white.shell.net_session.last[1]                  # type: ignore[union-attr]
    assert "takes" not in words and words == describe(move)       # the move's words, nothing taken
    until(both, lambda: bool(black.shell.net_session.this_turn), "the move in Black's history")  # type: ignore
    assert white.shell.net_session.this_turn == black.shell.net_session.this_turn   # type: ignore[union-attr]

