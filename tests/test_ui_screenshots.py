"""Screenshots of the real window at 1366x768 (issue 12), taken through the Shell with the SDL
dummy driver. Written to ``$WEC_SCREENSHOTS`` when set (``docs/screenshots`` holds the ones the
README shows), else to a temporary folder; each is checked to show what it claims."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random
from pathlib import Path

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui.layout import cell_rect
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import Shell


@pytest.fixture
def out(tmp_path: Path) -> Path:
    target = Path(os.environ.get("WEC_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def _mid_game() -> api.GameState:
    """A seeded game at a moment with pieces on all three levels and a projectile in flight."""
    rng, state = random.Random(11), api.new_game()
    for _ in range(900):
        if state.result is not None:
            break
        state = api.apply_action(state, api.random_action(state, rng))
        view = api.observe(state, state.side_to_move)
        levels = {p.level for p in view.own} | {s.level for s in view.seen}
        if levels == {"G", "A", "S"} and view.projectiles and len(state.history) > 20:
            return state
    raise AssertionError("no such moment in the seeded game")


def _shot(shell: Shell, screen: pygame.Surface, path: Path) -> None:
    shell.dirty = True
    shell.pump([], 0.05)
    pygame.image.save(screen, str(path))
    assert path.stat().st_size > 10_000


def test_screenshots_of_the_window(screen: pygame.Surface, out: Path) -> None:
    """04/U4: the start; a mid-game with all three levels, a projectile in flight and a
    crowded square opened; the options screen (04/U6); the editor (04/U46); a game over."""
    shell = Shell(Session(api.new_game()), screen)
    _shot(shell, screen, out / "start.png")

    state = _mid_game()
    shell = Shell(Session(state), screen)
    scene = shell.driver.scene
    assert isinstance(scene, GameScene)
    crowded = max(((p.row, p.col) for p in scene.view.own),
                  key=lambda rc: sum((p.row, p.col) == rc for p in scene.view.own) * 10 +
                  sum(len(p.codes) for p in scene.view.own if (p.row, p.col) == rc))
    pos = cell_rect(*crowded, scene.view.player).center
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))], 0.05)
    assert scene.hover == crowded
    _shot(shell, screen, out / "mid-game.png")

    shell.command("new")
    assert shell.options is not None
    _shot(shell, screen, out / "options.png")
    shell.command("quit")

    shell = Shell(Session(api.new_game()), screen)
    shell.command("editor")
    assert shell.editor is not None
    shell.editor.press("check")
    _shot(shell, screen, out / "editor.png")

    rng, state = random.Random(2), api.new_game(api.Options(ply_limit=12))
    while state.result is None:
        state = api.apply_action(state, api.random_action(state, rng))
    shell = Shell(Session(state), screen)
    scene = shell.driver.scene
    assert isinstance(scene, GameScene) and scene._title().startswith("Game over")
    _shot(shell, screen, out / "game-over.png")
