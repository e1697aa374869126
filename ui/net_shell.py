"""The window with the home screen and WiFi play (issue 9): ``Shell`` plus the network screens.

``NetShell`` is ``ui.shell.Shell`` (menus, options, editor, file dialogs, the board) with:
the home screen ``wec`` opens on (``ui.home_screen``), File > Play over WiFi opening the lobby
(``ui.lobby_screen``), the setup screen once the other laptop is connected
(``ui.setup_screen``), and the game itself as a ``ui.net_session.NetSession``. The network
core runs in a ``net.bridge.NetBridge`` made by ``bridge_factory`` when WiFi play is first
chosen; every frame drains its events (never blocking) before routing the window's own.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel, UITextBox
from pygame_gui.windows import UIMessageWindow

from engine import api
from net import frontend as fe
from net.licence import LicenceError
from net.negotiation import NET_OPTIONS

from .app import next_events
from .home_screen import HomeScreen
from .layout import LAYOUT, Layout
from .licence_screen import ACTIVATED, BACK, Activation, LicenceScreen
from .lobby_screen import AFRESH, LEAVE, LobbyScreen
from .menu_bar import BAR_HEIGHT
from .menus import MenuContext
from .net_session import NetGameScene, NetSession, winner_words
from .option_words import describe_option, value_words
from .scenes import SIDE_NAME
from .session import Session
from .setup_screen import SetupScreen, change_words
from .shell import REDRAW_EVENTS, Shell

__all__ = ["NetShell", "NET_REFUSED", "NET_WAKE_MS"]

#: menu commands a WiFi game in progress does not allow, and why
NET_REFUSED = {
    "new": "leave the WiFi game first (Quit): a WiFi game cannot be replaced (04/U62)",
    "load": "a saved game cannot be played as a WiFi game (04/U63)",
    "continue": "a WiFi game resumes by itself when the other laptop is back",
    "editor": "the board editor is not available in a WiFi game (04/U10)",
    "options": "the rules were agreed before the first move (04/U61)",
    "switch_sides": "in a WiFi game each laptop plays its own colour",
    "undo_turn": "in a WiFi game ask for one undo at a time (Undo last action, Ctrl+Z)",
}
NET_WAKE_MS = 20       # while a bridge runs, the frame loop looks at its events this often


class NetShell(Shell):
    """One window: home, lobby, setup and the WiFi game, besides everything ``Shell`` does."""

    def __init__(self, session: Session, surface: pygame.Surface, autosave: Path | None = None,
                 lay: Layout = LAYOUT, bridge_factory: Callable[[], Any] | None = None, home: bool = True,
                 activation: Activation | None = None) -> None:
        super().__init__(session, surface, autosave, lay)
        self.bridge_factory = bridge_factory
        self.activation = activation              # issue 9 item 6: the licence screen's work
        self.bridge: Any = None
        self.screen: HomeScreen | LobbyScreen | SetupScreen | LicenceScreen | None = None
        self.joining = False
        self.peer_name = "the other player"
        self.agreed: fe.RulesAgreed | None = None
        self.seen: list[Any] = []            # every bridge event, in order (tests read it)
        self.undo_panel: UIPanel | None = None      # a question to answer: undo, draw, resign
        self.undo_buttons: dict[str, UIButton] = {}
        self.question = ""                          # "undo", "draw" (the peer's offer) or "resign" (ours)
        self.game_buttons: dict[str, UIButton] = {}  # Offer a draw, Resign (RUL-53)
        self.notice: UIMessageWindow | None = None
        if home:
            self.open_home()

    # -- screens ----------------------------------------------------------------------------

    def _rect(self) -> pygame.Rect:
        return pygame.Rect(40, BAR_HEIGHT + 10, self.lay.width - 80, self.lay.height - BAR_HEIGHT - 20)

    def _close_screen(self) -> None:
        if self.screen is not None:
            self.screen.kill()
        self.screen = None
        self.dirty = True

    def open_home(self) -> None:
        """The home screen (issue 9 item 1)."""
        self.menu.close()
        self._close_screen()
        self.screen = HomeScreen(self.manager, self._rect())

    @property
    def lobby(self) -> LobbyScreen | None:
        """The lobby, when it is the screen shown."""
        return self.screen if isinstance(self.screen, LobbyScreen) else None

    @property
    def setup(self) -> SetupScreen | None:
        """The setup screen, when it is the screen shown."""
        return self.screen if isinstance(self.screen, SetupScreen) else None

    @property
    def net_session(self) -> NetSession | None:
        """The WiFi game being played, if any."""
        return self.session if isinstance(self.session, NetSession) else None

    def context(self) -> MenuContext:
        """As ``Shell.context``, marked as a network game when one is played."""
        return super().context()._replace(network=self.net_session is not None)

    # -- commands ---------------------------------------------------------------------------

    def command(self, name: str) -> None:
        """Menu commands; WiFi ones here, the rest as in ``Shell`` (refused in a WiFi game)."""
        if name == "wifi":
            self._do_wifi()
        elif name == "home":
            self.open_home()
        elif self.net_session is not None and name in NET_REFUSED:
            self.driver.say(NET_REFUSED[name], error=True)
        else:
            if name in ("new", "load", "editor", "options", "continue"):
                self._close_screen()
            super().command(name)
            return
        self.menu.set_context(self.context())
        self.dirty = True

    def _do_wifi(self) -> None:
        """File > Play over WiFi (04/U11, U59): the lobby; this laptop waits for a guest meanwhile."""
        if self.net_session is not None:
            self.driver.say("a WiFi game is already being played", error=True)
            return
        self.menu.close()
        self._close_screen()
        self.screen = LobbyScreen(self.manager, self._rect())
        if self.bridge is None:
            try:
                if self.bridge_factory is None:
                    raise RuntimeError("this window was opened without network play")
                self.bridge = self.bridge_factory()
                self.bridge.start()
            except LicenceError as exc:
                self.bridge = None
                if self.activation is None:
                    self.screen.say(f"WiFi play cannot start: {exc.detail}", error=True)
                    return
                self._close_screen()                 # issue 9 item 6: offer the activation
                self.screen = LicenceScreen(self.manager, self._rect(), exc.detail, self.activation)
                self.screen.details.set_text(f"details: {exc.code}")
                return
            except Exception as exc:  # noqa: BLE001 - interface, anything: say it, keep the window
                self.bridge = None
                self.screen.say(f"WiFi play cannot start: {exc}", error=True)
                return
        self._post(fe.Host())

    def refused(self, why: str) -> None:
        """As ``Shell.refused``; on the lobby or setup screen, on its message line."""
        say = getattr(self.screen, "say", None)
        if say is not None and self.options is None and self.editor is None:
            say(why, error=True)
            self.dirty = True
            return
        super().refused(why)

    def _do_quit(self) -> None:
        self.close_bridge()
        super()._do_quit()

    def _do_undo(self) -> None:
        session = self.net_session
        if session is None:
            super()._do_undo()
            return
        error = session.undo()
        self.driver.refresh()
        if error is not None:
            self.driver.say(error, error=True)

    def close_bridge(self) -> None:
        """Leave the network (an unfinished WiFi game stays in the logs and resumes next time)."""
        if self.bridge is not None:
            self.bridge.close()
        self.bridge = None

    def _post(self, command: Any) -> None:
        if self.bridge is None:
            return
        if isinstance(command, fe.Join):
            self.joining = True
        self.bridge.post(command)

    def _home(self, choice: str | None) -> None:
        if choice is None:
            return
        if choice in ("hotseat", "vs_computer"):
            self._close_screen()
            self.driver.session = Session(api.new_game(), computer="W" if choice == "vs_computer" else None,
                                          seed=1, save_path=self.autosave)
            self.driver.refresh(status="a new game: Black moves first (04/U3)")
            self.menu.set_context(self.context())
        else:
            self.command(choice)

    # -- the frame --------------------------------------------------------------------------

    def pump(self, events: list[pygame.event.Event] | None = None, dt: float = 0.0) -> bool:
        """One frame: the bridge's events first, then the window's (``Shell.pump``)."""
        self.net_tick()
        self._tick_clock()
        return super().pump(events, dt)

    def _tick_clock(self) -> None:
        """The move time limit's countdown: drawn again when its whole seconds change (N-4)."""
        session, scene = self.net_session, self.driver.scene
        if session is None or not session.move_limit or not isinstance(scene, NetGameScene):
            return
        words = session.clock_words()
        if words != scene.clock:
            scene.clock = words
            self.driver.dirty = True

    def net_tick(self) -> None:
        """Take every event the network side has queued (never waits)."""
        if self.bridge is None:
            return
        for ev in self.bridge.drain():
            self.seen.append(ev)
            self._net_event(ev)
            self.dirty = True

    def _net_event(self, ev: Any) -> None:
        session = self.net_session
        if session is not None:
            if session.on_event(ev):
                self.driver.refresh()
                self.menu.set_context(self.context())
                if isinstance(ev, fe.UndoRequested):
                    self._undo_dialog(ev)
                elif isinstance(ev, fe.DrawOffered):
                    who = SIDE_NAME["W" if session.side == "B" else "B"]
                    self._ask("draw", f"<b>{who} offers a draw</b> (RUL-53). Answer during your turn.",
                              "Accept the draw", "Decline")
                elif isinstance(ev, (fe.DrawLapsed, fe.DrawDeclined)) and self.question == "draw":
                    self._close_undo()
                elif isinstance(ev, (fe.AuditStarted, fe.AuditVerdict, fe.GameOver)):
                    self._game_over(session)
            return
        if isinstance(ev, fe.GameStarted):
            self._start_net(ev)
            return
        if isinstance(ev, fe.RulesAgreed):
            self.agreed = ev
            return
        if isinstance(ev, fe.PairingCode):
            self.peer_name = ev.peer_name
        if isinstance(ev, fe.Connected):
            self.joining = False
            self.bridge.set_new_game(False)          # an unfinished game was set aside once, no more
            self.peer_name = self._name_of(ev.peer)
            self._close_screen()
            self.screen = SetupScreen(self.manager, self._rect(), self.peer_name)
            return
        if self.joining and isinstance(ev, (fe.Problem, fe.PairingFailed, fe.IdentityWarning, fe.SessionEnded)):
            self.joining = False
            self._post(fe.Host())                # the join failed: be findable again
        if isinstance(ev, fe.SessionEnded) and self.lobby is None and self.setup is not None:
            self._close_screen()
            self.screen = LobbyScreen(self.manager, self._rect())
            self.screen.say(f"the other laptop left: {ev.reason or ev.status}", error=True)
            self._post(fe.Host())
            return
        if self.screen is not None and not isinstance(self.screen, HomeScreen):
            self.screen.on_event(ev)

    def _name_of(self, fingerprint: str) -> str:
        for ev in reversed(self.seen):
            if isinstance(ev, fe.PeersChanged):
                for p in ev.peers:
                    if p.fingerprint == fingerprint:
                        return p.name
                break
        return self.peer_name if self.peer_name != "the other player" else fingerprint[:16]

    def _start_net(self, ev: fe.GameStarted) -> None:
        """The game begins: the board for our colour, and the agreed rules shown (04/U61)."""
        self._close_screen()
        self.driver.session = NetSession(self.bridge, ev.colour, ev.view)
        self.driver.session.move_limit = int(dict(self._net_options_agreed()).get("move_time_limit", 0))
        self.driver.refresh(status=f"you play {ev.colour.capitalize()}; Black moves first (04/U61)")
        self.menu.set_context(self.context())
        lines = [f"You play <b>{ev.colour.capitalize()}</b> against {self.peer_name}."]
        if self.agreed is not None:
            changed = [(k, v) for k, v in self.agreed.changed if not k.startswith("gov_")]
            changed += self._net_options_agreed()
            lines.append("Rules changed from the standard game: " + (change_words(tuple(changed)) if changed
                                                                    else "none"))
            govs = dict(self.agreed.options)
            lines.append("Governments: " + ", ".join(
                f"{side}: {value_words('gov_' + side.lower(), govs.get('gov_' + side.lower()))}"
                for side in ("Black", "White")))
        lines.append(f"{describe_option('competitive').label}: "
                     f"{value_words('competitive', ev.view.options.competitive)}")
        self.notice = UIMessageWindow(pygame.Rect(300, 150, 620, 320), "<br><br>".join(lines), self.manager,
                                      window_title="The agreed rules")
        y = self.lay.board_y + self.lay.board_size + 8
        self.game_buttons = {
            "draw": UIButton(pygame.Rect(self.lay.width - 290, y, 140, 30), "Offer a draw", self.manager,
                             tool_tip_text="during your turn (RUL-53)"),
            "resign": UIButton(pygame.Rect(self.lay.width - 140, y, 120, 30), "Resign", self.manager,
                               tool_tip_text="during your turn (RUL-53)")}

    def _net_options_agreed(self) -> list[tuple[str, Any]]:
        """The network game's own options agreed in setup (a move time limit), from the last
        setup the bridge reported (``RulesAgreed`` lists the engine's options only)."""
        last = next((ev for ev in reversed(self.seen) if isinstance(ev, fe.SetupChanged)), None)
        return [] if last is None else [(k, v) for k, v in last.options if k in NET_OPTIONS]

    def _undo_dialog(self, ev: fe.UndoRequested) -> None:
        session = self.net_session
        assert session is not None
        who = SIDE_NAME["W" if session.side == "B" else "B"]
        self._ask("undo", f"<b>{who} asks to take back its last action</b> (action {ev.index}, 04/U31).",
                  "Allow the undo", "Refuse")

    def _ask(self, kind: str, html: str, yes: str, no: str) -> None:
        """A question over the board with two answers (the undo request, a draw offer, resigning)."""
        self._close_undo()
        self.undo_panel = UIPanel(pygame.Rect(380, 250, 560, 200), starting_height=10, manager=self.manager)
        UITextBox(html, pygame.Rect(10, 10, 536, 110), self.manager, container=self.undo_panel)
        self.undo_buttons = {
            "yes": UIButton(pygame.Rect(10, 136, 260, 44), yes, self.manager, container=self.undo_panel),
            "no": UIButton(pygame.Rect(286, 136, 260, 44), no, self.manager, container=self.undo_panel)}
        self.question = kind

    def _answer(self, kind: str, yes: bool) -> None:
        session = self.net_session
        assert session is not None
        self._close_undo()
        if kind == "undo":
            session.answer_undo(yes, "" if yes else "refused on the other laptop")
            self.driver.refresh(status="undo " + ("allowed" if yes else "refused"))
        elif kind == "draw":
            session.draw_offered = False
            self._post(fe.AnswerDraw(yes))
            self.driver.say("draw accepted" if yes else "draw declined")
        elif kind == "resign" and yes:
            self._post(fe.Resign())
            self.driver.say("you resigned")

    def _close_undo(self) -> None:
        if self.undo_panel is not None:
            self.undo_panel.kill()
        self.undo_panel, self.undo_buttons, self.question = None, {}, ""

    def _game_over(self, session: NetSession) -> None:
        """The game-over dialog: the result, then the audit ("Checking the game (audit)…" while it
        runs, then its verdict), rebuilt as each of them arrives (issue 9 item 5)."""
        self._close_undo()
        for button in self.game_buttons.values():
            button.kill()
        self.game_buttons = {}
        end = session.over or session.ending
        audit = session.audit_words()
        if end is not None:
            winner = winner_words(end.result).replace("Draw", "A draw")
            text, title = f"<b>Game over: {winner}</b><br><br>{end.reason}<br><br>{audit}", "Game over"
        else:
            text, title = f"<b>The game is stopped</b><br><br>{audit}", "Audit failed"
        if self.notice is not None and self.notice.alive():
            self.notice.kill()
        self.notice = UIMessageWindow(pygame.Rect(380, 250, 560, 260), text, self.manager, window_title=title)

    def _widget_event(self, e: pygame.event.Event) -> bool:
        if e.type == pygame_gui.UI_BUTTON_PRESSED and self.undo_buttons and self.net_session is not None:
            for name, button in self.undo_buttons.items():
                if e.ui_element is button:
                    self._answer(self.question, name == "yes")
                    return True
        if e.type == pygame_gui.UI_BUTTON_PRESSED and self.game_buttons:
            if e.ui_element is self.game_buttons.get("draw"):
                self._post(fe.OfferDraw())
                self.driver.say("draw offered: the other player answers during their turn (RUL-53)")
                return True
            if e.ui_element is self.game_buttons.get("resign"):
                self._ask("resign", "<b>Resign this game?</b> The other player wins (RUL-53).", "Resign", "Play on")
                return True
        if self.screen is not None and self.options is None and self.editor is None and self.dialog is None:
            if self._over_menu(e):
                return True
            if isinstance(self.screen, HomeScreen):
                self._home(self.screen.ui_event(e))
            elif isinstance(self.screen, LicenceScreen):
                outcome = self.screen.ui_event(e)
                if outcome == ACTIVATED:
                    self._do_wifi()                  # licensed now: on to the lobby
                elif outcome == BACK:
                    self.open_home()
            else:
                for command in self.screen.ui_event(e):
                    if command == LEAVE:
                        self.close_bridge()          # no more hosting or discovery: home
                        self.open_home()
                        break
                    if command == AFRESH:
                        if self.bridge is not None:
                            self.bridge.set_new_game(True)   # for the next connection only (Connected)
                        continue
                    self._post(command)
            return True
        return super()._widget_event(e)

    def draw(self) -> None:
        """A network screen (or the home screen) with the widgets, else as ``Shell.draw``."""
        if self.screen is not None and self.options is None and self.editor is None:
            self.surface.fill((24, 26, 30))
            self.manager.draw_ui(self.surface)
            self.forget_screen()           # the game is not on the surface
            self.dirty, self.drew = False, True
            self.driver.dirty = False      # the scene is not shown: no redraw for it until it is
            return
        super().draw()

    def run(self, script: str | None = None) -> int:
        """As ``Shell.run``; while the network runs it also wakes every ``NET_WAKE_MS``."""
        if script is not None:
            return super().run(script)
        blocking = pygame.display.get_driver() not in ("dummy", "offscreen")
        clock = pygame.time.Clock()
        try:
            while self.running:
                if self.bridge is not None and blocking:
                    first = pygame.event.wait(NET_WAKE_MS)
                    events = ([first] if first.type != pygame.NOEVENT else []) + pygame.event.get()
                else:
                    events = next_events(blocking)
                if any(e.type in REDRAW_EVENTS for e in events):
                    self.forget_screen()
                self.drew = False
                self.pump(events, clock.tick() / 1000)
                if self.drew:
                    pygame.display.flip()
        finally:
            self.close_bridge()
        return 0

