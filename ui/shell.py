"""The window around the game: the menu bar, the options screen, file dialogs and messages.

``Shell`` owns the pygame-gui manager (menus, dialogs, text fields, scrolling lists and
tooltips are pygame-gui's, issue 12 item 6) and the game ``Driver``. Each frame it routes every
event: a shortcut or a menu item becomes a command (``ui.menus``), a widget event goes to the
widget, anything else to the game scene. It draws only when something changed.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryLine
from pygame_gui.windows import UIFileDialog, UIMessageWindow

from engine import api
from engine.options import Options

from .app import QUIET_EVENTS, Driver, next_events, script_events
from .layout import LAYOUT, Layout
from .editor_model import EditorBuffer
from .editor_screen import EditorScreen, EditRules, LeaveEditor, PlayPosition
from .menu_bar import BAR_HEIGHT, MenuBar, Refusal
from .menus import NOT_YET, MenuContext, shortcut_command
from .option_words import GROUPS, describe_option, value_words
from .panel_view import draw_progress
from .options_screen import Cancelled, OptionsScreen, StartGame
from .scenes import GameScene
from .session import Session

__all__ = ["Shell", "COMPUTER_EVENT"]


def _post_wake() -> None:
    """From the worker thread: wake the frame loop (pygame 2's event queue takes posts from
    any thread)."""
    try:
        pygame.event.post(pygame.event.Event(COMPUTER_EVENT))
    except pygame.error:
        pass                              # the window is closing

#: posted by the computer's worker thread when it has an action (wakes a sleeping frame loop)
COMPUTER_EVENT = pygame.event.custom_type()

_WIDGET_EVENTS = [pygame_gui.UI_BUTTON_PRESSED, pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                  pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED,
                  pygame_gui.UI_FILE_DIALOG_PATH_PICKED, pygame_gui.UI_WINDOW_CLOSE,
                  pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED]

#: the window shows something else than what was drawn (exposed, restored, resized): draw it all
REDRAW_EVENTS = frozenset({pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED,
                           pygame.WINDOWMAXIMIZED, pygame.WINDOWSIZECHANGED})

#: after this long without input or change pygame-gui has nothing left to animate (its tooltips
#: appear after 1 s of hover); its update is skipped until the next input (idle < 2 %, issue 12)
WIDGETS_SETTLE_S = 2.0


class Shell:
    """One window: the game screen with its menus, or the options screen."""

    def __init__(self, session: Session, surface: pygame.Surface, autosave: Path | None = None,
                 lay: Layout = LAYOUT) -> None:
        self.surface, self.lay, self.autosave = surface, lay, autosave
        if not pygame.font.get_init():
            pygame.font.init()                       # pygame-gui's fonts need it
        self.manager = pygame_gui.UIManager((lay.width, lay.height))
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": size, "style": "bold", "antialiased": "1"}
                                    for size in (14, 24)])   # 24: the pairing code (04/U59)
        self.driver = Driver(session, surface)
        self.menu = MenuBar(self.manager, self.context())
        self.options: OptionsScreen | None = None
        self.editor: EditorScreen | None = None
        self.options_for_editor = False
        self.dialog: UIFileDialog | None = None
        self.dialog_purpose = ""
        self.message: UIMessageWindow | None = None
        self.dirty = True
        self._look: list[tuple[Any, tuple[int, int, int, int], bool]] = []
        self.quiet = 0.0                   # seconds of frames without input or change
        self.drew = False                  # the last frame drew something (so flip it)
        self.progress_shown: list[tuple[int, int]] = []   # what the loading bar showed (tests)
        self._cursor = -1
        #: what covers the last game frame on the surface: the widgets drawn over it (None: the
        #: surface holds something else, the next game frame is drawn whole)
        self._over_game: list[pygame.Rect] | None = None
        #: the computer thinks in a worker thread while the frame loop runs (``run`` without a
        #: script, ``wec window --control``); scripted and test frames keep it synchronous
        self.background = False
        self.inputs_while_thinking = 0    # keys and clicks handled during the computer's thinking

    @property
    def session(self) -> Session:
        """The game being played."""
        return self.driver.session

    @property
    def running(self) -> bool:
        """False once the player quit."""
        return self.driver.running

    def context(self) -> MenuContext:
        """What the menus need to know about the game now."""
        s, scene = self.session.state, self.driver.scene
        return MenuContext(
            competitive=s.options.competitive, started=bool(s.history or s.actions),
            vs_computer=self.session.computer is not None,
            can_undo=bool(s.history or s.actions),
            can_end_turn=isinstance(scene, GameScene) and any(type(a).__name__ == "EndTurn" for a in scene.actions),
            my_turn=isinstance(scene, GameScene) and bool(scene.actions),
            has_autosave=self.autosave is not None and self.autosave.exists())

    # -- the frame -------------------------------------------------------------------------------

    def pump(self, events: list[pygame.event.Event] | None = None, dt: float = 0.0) -> bool:
        """One frame: route ``events`` (or the queue's), update the widgets, draw if anything
        changed; returns False once the player quit."""
        self._computer()
        fed = False
        for e in pygame.event.get() if events is None else events:
            self.feed(e)
            fed = True
        for _ in range(8):                 # the widgets' own events (posted while handling these)
            posted = pygame.event.get(_WIDGET_EVENTS)
            if not posted:
                break
            for e in posted:
                self.feed(e)
        self.quiet = 0.0 if fed or self.dirty or self.driver.dirty else self.quiet + dt
        if self.quiet <= WIDGETS_SETTLE_S or self._typing():
            self.manager.update(dt)        # hover, tooltips, a caret: none of them without input
            look = self.widget_look()
            if look != self._look:         # a widget's picture changed (hover, tooltip, caret)
                self._look, self.dirty = look, True
        if self.dirty or self.driver.dirty:
            self.draw()
        return self.running

    def widget_look(self) -> list[tuple[Any, tuple[int, int, int, int], bool]]:
        """What the widgets show: each one's picture (by identity), place and visibility.
        pygame-gui swaps a widget's picture when it is hovered, pressed or retexted and adds a
        sprite for a tooltip; mouse motion alone draws nothing else (issue 12 item 7)."""
        return [(s.image, tuple(s.rect), bool(s.visible)) for s in self.manager.get_sprite_group().sprites()]

    def _computer(self) -> None:
        """Take the worker's actions and hint (``Session.poll``); show them."""
        session = self.session
        if not isinstance(session, Session):
            return                        # a WiFi game: no computer here
        if session.background != self.background:
            session.background = self.background
            session.wake = _post_wake if self.background else None
        if not session.poll():
            return
        hint, session.hint_text = session.hint_text, None
        if self.options is None and self.editor is None:
            status = "the computer is thinking..." if session.thinking else ""
            self.driver.refresh(status)
            if hint is not None:
                self.driver.say(*hint)
        self.menu.set_context(self.context())
        self.dirty = True

    def feed(self, e: pygame.event.Event) -> None:
        """One event: shortcut, widget, menu command or the game scene."""
        if e.type == COMPUTER_EVENT:
            return                        # only a wake-up: ``_computer`` ran this frame
        if e.type == pygame.QUIT:         # the window's close button (or SIGTERM), on every screen
            self.command("quit")
            return
        if e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and \
                isinstance(self.session, Session) and self.session.thinking:
            self.inputs_while_thinking += 1        # answered although the computer thinks
        if e.type not in QUIET_EVENTS:
            self.dirty = True
        if e.type == pygame.KEYDOWN and self.options is None and self.editor is None \
                and not self._typing():
            command = shortcut_command(e.key, getattr(e, "mod", 0))
            if command is not None:
                self.command(command)
                return
        if self.manager.process_events(e):
            return
        command = self.menu.ui_event(e)
        if isinstance(command, Refusal):
            self.refused(command.why)
            return
        if command is not None:
            self.command(command)
            return
        if self._widget_event(e):
            return
        if self.options is None and self.editor is None and self.dialog is None and not self._over_menu(e):
            self.driver.feed(e)
            self.menu.set_context(self.context())

    def draw(self) -> None:
        """The game scene (or the options screen's background), then every widget."""
        game = self.editor is None and self.options is None
        if self.editor is not None and self.options is None:
            self.editor.draw(self.surface)
        elif self.options is None:
            self.driver.invalidate()
            self.driver.damage = self._over_game
            self.driver.pump([])
        else:
            self.surface.fill((24, 26, 30))
        self.manager.draw_ui(self.surface)
        self._over_game = [pygame.Rect(s.rect.topleft, s.image.get_size())   # where draw_ui blitted
                           for s in self.manager.get_sprite_group().sprites()
                           if s.visible and s.image is not None] if game else None
        self._pointer()
        self.dirty, self.drew = False, True
        self.driver.dirty = False          # the editor or options screen is shown, not the scene

    def forget_screen(self) -> None:
        """Something else was drawn on the surface (a window exposed, another mode): the next
        frame is drawn whole."""
        self._over_game = None
        self.dirty = True

    def refused(self, why: str) -> None:
        """A greyed menu item was clicked: its reason where this screen shows messages."""
        if self.options is not None:
            self.options.say(why, "")
        elif self.editor is not None:
            self.editor.status = why
        else:
            self.driver.say(why, error=True)
        self.dirty = True

    def _typing(self) -> bool:
        """A text field (the file dialog's name) has the keyboard: its keys are its own."""
        return any(isinstance(el, UITextEntryLine) for el in self.manager.get_focus_set() or ())

    def _pointer(self) -> None:
        """04/U34: a crosshair while a Fire is being aimed, a hand otherwise on the board."""
        scene = self.driver.scene
        want = pygame.SYSTEM_CURSOR_CROSSHAIR if getattr(scene, "pointer", "") == "fire" else pygame.SYSTEM_CURSOR_ARROW
        if want != self._cursor:
            try:
                pygame.mouse.set_cursor(want)
            except pygame.error:
                pass                        # no cursors without a real display
            self._cursor = want

    def _over_menu(self, e: pygame.event.Event) -> bool:
        pos = getattr(e, "pos", None)
        if e.type != pygame.MOUSEBUTTONDOWN or pos is None:
            return False
        return pos[1] < BAR_HEIGHT or (self.menu.panel is not None and self.menu.panel.rect.collidepoint(pos))

    def _widget_event(self, e: pygame.event.Event) -> bool:
        if self.editor is not None and self.dialog is None and self.options is None:
            if self._over_menu(e):
                return True
            out = self.editor.ui_event(e)
            if isinstance(out, EditRules):
                self._open_options(self.editor.buffer.options, "The rules for this position", "Use these rules")
                self.options_for_editor = True
            elif isinstance(out, PlayPosition):
                self._close_editor()
                self._start(out.state, "a game from the edited position")
            elif isinstance(out, LeaveEditor):
                self._close_editor()
            return True
        if self.options is not None:
            out = self.options.ui_event(e)
            if isinstance(out, StartGame) and self.options_for_editor and self.editor is not None:
                self._close_options()
                self.editor.buffer.options = out.options          # back to the editor
                self.editor.status = "the rules of this position are set"
            elif isinstance(out, StartGame):
                self._close_options()
                self._new_game(out.options)
            elif isinstance(out, Cancelled):
                self._close_options()
            return True
        if e.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and e.ui_element is self.dialog:
            self.dialog = None
            self._picked(Path(e.text))
            return True
        if e.type == pygame_gui.UI_WINDOW_CLOSE and e.ui_element is self.dialog:
            self.dialog = None
            return True
        return False

    def run(self, script: str | None = None) -> int:
        """The frame loop until the player quits (or, with ``script``, until it is used up); it
        sleeps while nothing happens and draws only after a change (issue 12 item 7)."""
        steps = script_events(script, lambda: self.session.viewer) if script is not None else None
        self.background = steps is None   # a person at the window: think in the background
        blocking = pygame.display.get_driver() not in ("dummy", "offscreen")
        clock = pygame.time.Clock()
        while self.running:
            if steps is not None:
                batch = next(steps, None)
                if batch is None:
                    break
                self.pump(batch, clock.tick() / 1000)
                pygame.display.flip()
                continue
            events = next_events(blocking)
            if any(e.type in REDRAW_EVENTS for e in events):
                self.forget_screen()
            self.drew = False
            self.pump(events, clock.tick() / 1000)
            if self.drew:
                pygame.display.flip()
        return 0

    # -- commands --------------------------------------------------------------------------------

    def command(self, name: str) -> None:
        """Carry out a menu command (04/U5-U32); a refused one says why on the status line."""
        handler = getattr(self, "_do_" + name, None)
        if name in NOT_YET:
            self.driver.say(NOT_YET[name], error=True)
            return
        if handler is None:
            self.driver.say(f"'{name}' is not in this version yet", error=True)
            return
        handler()
        self.menu.set_context(self.context())
        self.dirty = True

    def _do_new(self) -> None:
        self._open_options(Options(competitive=self.session.state.options.competitive), "New game: the rules")

    def _do_options(self) -> None:
        ctx = self.context()
        if ctx.started or ctx.competitive:
            self.driver.say("the rules are fixed once the first move is made (04/U15)", error=True)
            return
        self._open_options(self.session.state.options, "The rules of this game")

    def _do_editor(self) -> None:
        """04/U10: the current position becomes the editor's buffer (not in competitive games)."""
        if self.session.state.options.competitive:
            self.driver.say("the board editor is not available in a competitive game (04/U10)", error=True)
            return
        self.menu.close()
        self._close_options()
        self._close_editor()
        self.editor = EditorScreen(self.manager, EditorBuffer.from_state(self.session.state), self.lay)

    def _close_editor(self) -> None:
        if self.editor is not None:
            self.editor.kill()
        self.editor = None

    def _do_competitive(self) -> None:
        """02/D24: switch competitive mode before the first move (a fresh game with the same
        rules but that one)."""
        s = self.session.state
        if s.history or s.actions:
            self.driver.say("a game becomes competitive only before its first move (04/U15, 02/D24)", error=True)
            return
        on = not s.options.competitive
        self._start(api.new_game(s.options.replace(competitive=on)),
                    "competitive game: no undo, each side's history censored (RUL-37)" if on else
                    "non-competitive game")

    def _do_load(self) -> None:
        self._file_dialog("load", "Load a game", existing=True)

    def _do_save(self) -> None:
        self._file_dialog("save", "Save the game", existing=False)

    def _do_continue(self) -> None:
        if self.autosave is None or not self.autosave.exists():
            self.driver.say("there is no unfinished game to continue (04/U9)", error=True)
            return
        self._load(self.autosave)

    def _do_quit(self) -> None:
        self.driver.running = False

    def _do_hint(self) -> None:
        text, error = self.session.hint()
        self.driver.refresh()
        self.driver.say(text, error=error)

    def _do_switch_sides(self) -> None:
        self._result(self.session.switch_sides(), "you now play " + self._human_colour())

    def _do_undo(self) -> None:
        self._result(self.session.undo(), "undone")

    def _do_undo_turn(self) -> None:
        self._result(self.session.undo_turn(), "back to the start of the turn")

    def _do_words(self) -> None:
        on = self.driver.toggle("words")
        self.driver.say("history and choices in words" if on else "history and choices in the notation (04/H7)")

    def _do_reinforcements(self) -> None:
        on = self.driver.toggle("show_reinforcements")
        self.driver.say("reinforcement squares marked (04/U25)" if on else "reinforcement marks hidden")

    def _do_last_seen(self) -> None:
        on = self.driver.toggle("show_last_seen")
        self.driver.say("last-seen markers shown (04/U29)" if on else "last-seen markers hidden (04/U29)")

    def _do_piece_set(self) -> None:
        on = self.driver.toggle("piece_set")
        self.driver.say(f"the {on} piece set (04/U24)")

    def _do_big_board_only(self) -> None:
        on = self.driver.toggle("small_boards")
        self.driver.say("the three small boards are shown (04/U4)" if on else "big board only (04/U28)")

    def _do_end_turn(self) -> None:
        if isinstance(self.driver.scene, GameScene):
            for out in self.driver.scene._end_turn():
                self.driver.handle(out)

    def _do_hint_move(self) -> None:
        self.driver.say("Move: click one of your pieces, then one of the yellow squares (04/U33, U35)")

    def _do_hint_fire(self) -> None:
        self.driver.say("Fire: right-click one of your pieces (or F on the cursor), then a yellow square (04/U37)")

    def _do_status(self) -> None:
        """04/U23: the game's set-up as text."""
        opts = self.session.state.options
        lines = [f"<b>{group}</b><br>" + "<br>".join(
            f"{describe_option(n).label}: {value_words(n, getattr(opts, n))}" for n in names)
            for group, names in GROUPS]
        self.message = UIMessageWindow(pygame.Rect(200, 60, 700, 600), "<br><br>".join(lines), self.manager,
                                       window_title="Game status")

    # -- helpers -------------------------------------------------------------------------------

    def _human_colour(self) -> str:
        return {"B": "White", "W": "Black"}.get(self.session.computer or "", "both sides")

    def _result(self, error: str | None, done: str) -> None:
        if error is None and self.session.privacy_pending:      # hotseat: the other player's turn now
            self.driver._after(None)
            return
        self.driver.refresh()
        self.driver.say(error if error is not None else done, error=error is not None)

    def _open_options(self, options: Options, title: str, start_label: str = "Start") -> None:
        self.menu.close()
        self._close_options()
        rect = pygame.Rect(40, BAR_HEIGHT + 10, self.lay.width - 80, self.lay.height - BAR_HEIGHT - 20)
        self.options = OptionsScreen(self.manager, rect, options, title, start_label)

    def _close_options(self) -> None:
        if self.options is not None:
            self.options.kill()
        self.options, self.options_for_editor = None, False

    def _new_game(self, options: Options) -> None:
        """04/U6: a new game with ``options``; against the computer it plays if it starts."""
        self._start(api.new_game(options), "a new game")

    def _start(self, state: api.GameState, status: str) -> None:
        self._close_editor()                  # a game started from the menu replaces the editor
        old = self.session
        self.driver.session = Session(state, computer=old.computer, seed=1, save_path=old.save_path,
                                      level=old.level, seconds=old.seconds)
        self.driver.refresh(status=status)

    def _file_dialog(self, purpose: str, title: str, existing: bool) -> None:
        self.menu.close()
        if self.dialog is not None:
            self.dialog.kill()                # one file dialog at a time
        start = str(self.autosave.parent if self.autosave is not None else Path.cwd())
        self.dialog = UIFileDialog(pygame.Rect(200, 80, 600, 500), self.manager, window_title=title,
                                   initial_file_path=start, allow_existing_files_only=existing)
        self.dialog_purpose = purpose

    def _picked(self, path: Path) -> None:
        if self.dialog_purpose == "load":
            self._load(path)
        else:
            error = self.session.save(path)
            self.driver.say(error if error is not None else f"saved to {path}", error=error is not None)

    def _loading(self, name: str) -> Callable[[int, int], None]:
        """A progress callback that draws "Loading NAME" and a bar while a long save replays
        (issue 12 item 7); it redraws at most every 2% so loading stays fast."""
        shown = [-1]

        def progress(done: int, total: int) -> None:
            step = 50 * done // max(1, total)
            if step == shown[0] or total < 50:
                return
            shown[0] = step
            self.progress_shown.append((done, total))
            draw_progress(self.surface, f"Loading {name}: turn line {done} of {total}", done / max(1, total),
                          self.lay)
            self.forget_screen()
            if pygame.display.get_surface() is self.surface:
                pygame.display.flip()
        return progress

    def _load(self, path: Path) -> None:
        """04/U7, U9: play on from a save file; an unreadable one says why and changes nothing."""
        try:
            state = api.load(path, progress=self._loading(path.name))
        except (OSError, api.SaveError) as exc:
            self.driver.say(f"cannot load {path.name}: {exc}", error=True)
            return
        self._start(state, f"loaded {path.name}")
