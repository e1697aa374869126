"""Every screen of the window draws only when something changed, and draws what pygame-gui's
widgets change by themselves (hover, tooltips) when they do (issue 12 item 7, idle < 2 %).

Driven by real pygame events into a real ``Shell`` / ``NetShell`` (SDL dummy driver); the
pointer is moved with ``pygame.mouse.set_pos`` as well as a posted MOUSEMOTION, since pygame-gui
reads the pointer's position from SDL for hovering.
"""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)
from pygame_gui.elements import UITooltip

from engine import api
from engine.options import Options
from ui.layout import LAYOUT
from ui.net_shell import NetShell
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import WIDGETS_SETTLE_S, Shell

DT = 0.05


def point(shell: Shell, pos: tuple[int, int]) -> None:
    pygame.mouse.set_pos(pos)
    frame(shell, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))])


def click(shell: Shell, pos: tuple[int, int]) -> None:
    pygame.mouse.set_pos(pos)
    frame(shell, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                  pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    frame(shell)


def frame(shell: Shell, events: list[pygame.event.Event] | None = None) -> bool:
    """One frame; True when it drew."""
    shell.drew = False
    shell.pump(list(events or []), DT)
    return shell.drew


def idle_draws(shell: Shell, frames: int = 100) -> int:
    """Let the widgets settle, then count the frames that drew among ``frames`` idle ones."""
    for _ in range(int(WIDGETS_SETTLE_S / DT) + 2):
        frame(shell)
    return sum(frame(shell) for _ in range(frames))


def choose(shell: Shell, title: str, command: str) -> None:
    click(shell, shell.menu.title_rect(title).center)
    click(shell, shell.menu.item_rect(command).center)


def test_no_screen_redraws_while_nothing_happens(screen: pygame.Surface) -> None:
    """Issue 12 item 7: the home screen, the options screen opened from it, the board editor and
    the game draw nothing in 100 idle frames (they used to draw every frame but the game's)."""
    shell = NetShell(Session(api.new_game()), screen)
    assert shell.screen is not None
    assert idle_draws(shell) == 0                                   # home
    choose(shell, "File", "new")
    assert shell.options is not None
    assert idle_draws(shell) == 0                                   # New game: the rules
    click(shell, shell.options.cancel.rect.center)
    assert shell.options is None
    choose(shell, "File", "editor")
    assert shell.editor is not None
    assert idle_draws(shell) == 0                                   # the board editor
    click(shell, shell.editor.buttons["back"].rect.center)
    assert shell.editor is None
    assert isinstance(shell.driver.scene, GameScene)
    assert idle_draws(shell) == 0                                   # the game


def test_hovering_a_button_draws_its_hovered_look_once(screen: pygame.Surface) -> None:
    """pygame-gui hovers a button by itself (no event of ours): the frame after the pointer
    arrives draws the button lighter, then nothing more is drawn while the pointer rests."""
    shell = NetShell(Session(api.new_game()), screen)
    button = shell.screen.buttons["hotseat"]                        # type: ignore[union-attr]
    inside = (button.rect.x + 6, button.rect.centery)
    idle_draws(shell, 1)
    before = screen.get_at(inside)
    point(shell, inside)
    drew = [shell.drew] + [frame(shell) for _ in range(3)]
    assert drew[0] or drew[1]                                       # drawn as soon as pygame-gui hovered it
    after = screen.get_at(inside)
    assert sum(after[:3]) > sum(before[:3])                         # lighter: the hovered colour
    assert idle_draws(shell) == 0


def test_a_greyed_menu_item_shows_why_in_its_tooltip_and_when_clicked(screen: pygame.Surface) -> None:
    """04/U31 via 04/U5: in a competitive game Undo is greyed; resting the pointer on it shows the
    reason in a tooltip (drawn on the screen), and clicking it says the reason on the status line
    and undoes nothing."""
    shell = Shell(Session(api.new_game(Options(competitive=True))), screen)
    state = shell.session.state
    click(shell, shell.menu.title_rect("Undo").center)
    rect = shell.menu.item_rect("undo")
    point(shell, rect.center)
    tips: list[UITooltip] = []
    drew = False
    for _ in range(int(1.5 / DT)):                                 # pygame-gui's tooltip delay is 1 s
        drew = frame(shell) or drew
        tips = [s for s in shell.manager.get_sprite_group().sprites() if isinstance(s, UITooltip)]
        if tips:
            break
    assert tips, "no tooltip on the greyed item"
    assert "competitive games have no undo" in tips[0].text_block.html_text and "04/U31" in \
        tips[0].text_block.html_text
    frame(shell)
    centre = tips[0].rect.center
    assert screen.get_at(centre)[:3] != screen.get_at((centre[0], LAYOUT.height - 2))[:3]   # drawn
    click(shell, rect.center)
    scene = shell.driver.scene
    assert isinstance(scene, GameScene)
    assert scene.status.startswith("competitive games have no undo") and scene.error
    assert shell.session.state is state                              # nothing undone


def test_closing_the_window_quits_from_every_screen(screen: pygame.Surface) -> None:
    """The window manager's close button (pygame.QUIT; SDL also turns SIGTERM into it) ends the
    program on the home screen, the options screen, the editor and the game alike (it used to
    be swallowed by every screen but the game)."""
    def home() -> Shell:
        return NetShell(Session(api.new_game()), screen)

    def options() -> Shell:
        shell = home()
        choose(shell, "File", "new")
        assert shell.options is not None
        return shell

    def editor() -> Shell:
        shell = Shell(Session(api.new_game()), screen)
        choose(shell, "File", "editor")
        assert shell.editor is not None
        return shell

    def game() -> Shell:
        return Shell(Session(api.new_game()), screen)

    for make in (home, options, editor, game):
        shell = make()
        frame(shell)
        assert shell.running
        frame(shell, [pygame.event.Event(pygame.QUIT)])
        assert not shell.running, make.__name__


def test_a_real_wec_window_process_ends_on_sigterm(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A real ``wec window --headless --control`` process on its home screen (its first screen
    model read back) ends with status 0 when told to terminate (SDL turns SIGTERM into QUIT)."""
    import json
    import signal
    import subprocess
    import sys
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", WEC_DATA_DIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "wec_p2p.cli", "window", "--headless", "--control"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["screen"] == "home"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
