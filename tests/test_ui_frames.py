"""The frame loop draws only when something changed, and a missing display is said at once
(issue 12 item 7: light on a battery)."""
from __future__ import annotations

import os
import subprocess
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator

import pygame
import pytest

from engine import api
from ui.app import Driver
from ui.layout import LAYOUT, cell_rect
from ui.session import Session


@pytest.fixture
def driver() -> Iterator[Driver]:
    pygame.init()
    surface = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    yield Driver(Session(api.new_game()), surface)
    pygame.quit()


def _counting(driver: Driver) -> list[int]:
    """Wrap the scene's draw so the test sees how often it ran."""
    calls: list[int] = []
    draw = driver.scene.draw

    def counted(surface: pygame.Surface):  # type: ignore[no-untyped-def]
        calls.append(1)
        return draw(surface)
    driver.scene.draw = counted  # type: ignore[method-assign]
    return calls


def test_idle_frames_do_not_redraw(driver: Driver) -> None:
    """The first frame draws; frames with no event, or only mouse motion, draw nothing."""
    calls = _counting(driver)
    driver.pump([])
    assert len(calls) == 1
    for _ in range(20):
        driver.pump([])
    driver.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0))])
    assert len(calls) == 1


def test_a_click_redraws_once_and_shows_its_result(driver: Driver) -> None:
    """04/U35: a click on Black's SHP draws once more, with its target squares highlighted."""
    calls = _counting(driver)
    driver.pump([])
    pos = cell_rect(2, 5, "B").center
    driver.pump([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)])
    assert len(calls) == 2
    assert driver.scene.selection == (2, 5)
    driver.pump([])
    assert len(calls) == 2


def test_wec_play_without_a_display_says_so_and_exits_2() -> None:
    """SDL's offscreen fallback (no DISPLAY) would run an invisible window: refuse in one line."""
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    done = subprocess.run([sys.executable, "-m", "wec_p2p.cli", "play"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wec play: no display to open a window on")


def test_hovering_a_crowded_square_reads_it_in_full(driver: Driver) -> None:
    """04/U44, RUL-18: the mouse over a square lists what is there, in words; moving within the
    square draws nothing new; an enemy piece hidden from the viewer is never listed."""
    from ui.cell_view import cell_lines
    calls = _counting(driver)
    driver.pump([])
    pos = cell_rect(1, 2, "B").center                   # Black's Bulldozer and Sub share b1
    driver.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))])
    assert len(calls) == 2
    driver.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=(pos[0] + 2, pos[1]), rel=(1, 0),
                                    buttons=(0, 0, 0))])
    assert len(calls) == 2
    lines = cell_lines(driver.scene.view, 1, 2)  # type: ignore[union-attr]
    assert lines == ["Square (1,2)", "Ground:", "  your Bulldozer", "  your Sub"]
    view = api.observe(api.new_game(), "B")
    white_sub = next(s for s in view.seen if s.kind == "SU")
    assert "White Sub" in " ".join(cell_lines(view, white_sub.row, white_sub.col))
    hidden = view._replace(seen=tuple(s for s in view.seen if s.kind != "SU"))
    assert "Sub" not in " ".join(cell_lines(hidden, white_sub.row, white_sub.col))


def test_a_homing_projectile_points_at_the_viewers_piece_it_is_locked_on() -> None:
    """RUL-16: a homing Rocket locked on Black's King is drawn with a red line towards the King
    in Black's view; White, whose target it is not, sees no line."""
    from engine.position import parse_position
    from ui import theme
    from ui.scenes import GameScene
    pygame.init()
    surface = pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    try:
        state = parse_position("# WEC position 1\nto-move B\npiece B K e1 G\npiece W K e10 G\n"
                               "projectile R W e5 0 0 strength=1 created=1 target=1\n")
        reds = []
        for viewer in ("B", "W"):
            GameScene(api.observe(state, viewer), [], []).draw(surface)
            pos = cell_rect(3, 5, viewer).center
            column = [surface.get_at((pos[0] + dx, y)) for dx in (-1, 0, 1)
                      for y in range(pos[1] - 32, pos[1] + 32)]
            reds.append(any((c.r, c.g, c.b) == theme.PROJECTILE for c in column))
        assert reds == [True, False]                       # e3 lies between e5 and e1
    finally:
        pygame.quit()
