"""A frame that draws only the changed parts of the board shows exactly what a whole redraw
shows (issue 12 item 7: "redraw only ... dirty regions where valid", with no change in what is
drawn). Along a seeded hotseat game driven by real events (clicks that select and move, hovers
that open and close a crowded cell's box, a menu dropped over the board, N, End Turn and the
privacy screen), after every frame the window is compared pixel for pixel with the same scene
and widgets drawn whole on a second surface."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui import choices, scenes
from ui.cell_view import cell_lines
from ui.layout import LAYOUT, cell_rect
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import Shell


def _busy_start(seed: int = 2) -> api.GameState:
    """A seeded mid-game at the start of a turn with pieces on all three levels and a
    projectile in flight (as the mover sees them)."""
    rng, state = random.Random(seed), api.new_game()
    for n in range(2000):
        assert state.result is None, "the seeded game ended before a busy start of a turn"
        view = api.observe(state, state.side_to_move)
        levels = {p.level for p in (*view.own, *view.seen)}
        if n > 80 and not state.actions and view.projectiles and levels == {"A", "G", "S"}:
            return state
        state = api.apply_action(state, api.random_action(state, rng))
    raise AssertionError("no busy start of a turn in the seeded game")


class Window:
    """The shell on the display, and the whole-redraw reference of every frame."""

    def __init__(self, screen: pygame.Surface, state: api.GameState) -> None:
        self.screen, self.shell = screen, Shell(Session(state), screen)
        self.reference = pygame.Surface(screen.get_size()).convert()
        self.frames = 0
        self.partial: list[int] = []              # board drawn with a known screen (damage given)
        draw = scenes.draw_board

        def spy(surface: pygame.Surface, *args, **kw):  # type: ignore[no-untyped-def]
            if surface is screen and kw.get("damage") is not None:
                self.partial.append(self.frames)
            return draw(surface, *args, **kw)
        self._undo = lambda: setattr(scenes, "draw_board", draw)
        scenes.draw_board = spy
        self.shell.pump([], 0.05)

    def pump(self, events: list[pygame.event.Event]) -> None:
        self.shell.pump(events, 0.05)
        self.frames += 1
        scene = self.shell.driver.scene
        scene.draw(self.reference)                     # no damage: drawn whole
        self.shell.manager.draw_ui(self.reference)
        shown = pygame.image.tobytes(self.screen, "RGB")
        whole = pygame.image.tobytes(self.reference, "RGB")
        if shown != whole:
            if os.environ.get("WEC_DIRTY_DEBUG"):
                pygame.image.save(self.screen, "/tmp/frame12/shown.png")
                pygame.image.save(self.reference, "/tmp/frame12/whole.png")
            w = self.screen.get_width()
            first = next(i for i in range(len(shown)) if shown[i] != whole[i]) // 3
            raise AssertionError(f"frame {self.frames} differs from a whole redraw, first at pixel "
                                 f"{(first % w, first // w)}")

    def scene(self) -> GameScene:
        scene = self.shell.driver.scene
        assert isinstance(scene, GameScene)
        return scene

    def at(self, cell: tuple[int, int]) -> tuple[int, int]:
        return cell_rect(*cell, self.scene().view.player).center

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        self.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                   pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                   pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)])
        self.pump([])

    def hover(self, pos: tuple[int, int]) -> None:
        self.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0))])

    def key(self, k: int) -> None:
        self.pump([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""),
                   pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="")])


def _crowded(scene: GameScene) -> list[tuple[int, int]]:
    """Squares whose hover box opens (more than one line of contents)."""
    return [(r, c) for r in range(1, 11) for c in range(1, 11)
            if len(lines := cell_lines(scene.view, r, c)) > 2 or any(x.startswith("  ") for x in lines)]


def test_partial_frames_equal_whole_redraws_along_a_game(screen: pygame.Surface) -> None:
    """04/U35 selection and highlights, 04/U4 the board, 04/U17 the privacy screen: every frame
    of the window equals the whole redraw of what it shows."""
    w = Window(screen, _busy_start())
    rng = random.Random(7)
    moves = 0
    for turn in range(6):
        scene = w.scene()
        crowded = _crowded(scene)
        assert crowded, "the busy board has crowded squares"
        for cell in rng.sample(crowded, min(3, len(crowded))):
            w.hover(w.at(cell))                        # the box opens beside the square
        w.hover((LAYOUT.width - 20, LAYOUT.height - 20))   # and closes
        w.click(w.shell.menu.title_rect("View").center)   # a menu dropped over the board
        w.key(pygame.K_ESCAPE)
        w.click((LAYOUT.width - 20, LAYOUT.height - 20))
        w.key(pygame.K_n)                              # history in notation, then words again
        w.key(pygame.K_n)
        sources = sorted({c for a in scene.actions if (c := choices.source_cell(a)) is not None
                          and choices.actions_from(scene.actions, c, False)})
        assert sources, "the mover has actions at the start of the turn"
        w.click(w.at(rng.choice(sources)))             # selected: highlights and the list
        w.click(w.at(rng.choice(sources)))
        group = w.scene().group
        moved = [a for a in group if type(a).__name__ == "Move"]
        if moved:
            target = choices.target_cell(moved[0])
            assert target is not None
            w.click(w.at(target))                      # the Move: a new scene, a few squares change
            if w.scene().pending:
                w.key(pygame.K_RETURN)
            moves += 1
        w.key(pygame.K_e)                              # End Turn (04/U42), the privacy screen
        w.key(pygame.K_SPACE)                          # the other player's seat
    w._undo()
    assert moves >= 3
    assert len(w.partial) > w.frames // 2, "most frames drew only the board's changed parts"


def test_the_wifi_scene_last_action_frames_are_drawn_again_where_they_were(screen: pygame.Surface) -> None:
    """04/U4 the board; the WiFi board frames the peer's last action (its squares): when the
    next frame frames other squares, the old frames are gone as in a whole redraw."""
    from ui.net_session import NetGameScene

    state = _busy_start()
    view = api.observe(state, state.side_to_move)
    reference = pygame.Surface(screen.get_size()).convert()
    first = NetGameScene(view, [], [], last_cells=((1, 1), (5, 5)), last_words="Tank (1,1) → (5,5)")
    first.draw(screen)
    second = NetGameScene(view, [], [], last_cells=((9, 9),), last_words="Tank (9,9)")
    second.draw(screen, [])                      # the screen holds the first frame, nothing over it
    second.draw(reference)
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(reference, "RGB")
