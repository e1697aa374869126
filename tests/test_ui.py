"""The pygame front end, headless (SDL dummy drivers): renderer, clicks, privacy, ``wec play``."""
from __future__ import annotations

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from engine import api
from ui import theme
from ui.app import Driver
from ui.board_view import draw_board
from ui.layout import LAYOUT, cell_rect
from ui.scenes import GameScene, PrivacyScene
from ui.session import Session
from wec_p2p import cli

SHP_MOVE = "MV:SHP(2,5)->(4,7)"


@pytest.fixture
def surface() -> Iterator[pygame.Surface]:
    pygame.init()
    yield pygame.display.set_mode((LAYOUT.width, LAYOUT.height))
    pygame.quit()


def screen_cell(i: int, j: int) -> tuple[int, int]:
    """A pixel inside the border of the screen cell in column ``i``, row ``j`` (0,0 = top left)."""
    return LAYOUT.board_x + i * LAYOUT.cell + 1, LAYOUT.board_y + j * LAYOUT.cell + 1


def rgb(surface: pygame.Surface, pos: tuple[int, int]) -> tuple[int, int, int]:
    """The colour of one pixel without alpha."""
    c = surface.get_at(pos)
    return c.r, c.g, c.b


def click(cell: tuple[int, int], viewer: str, button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_rect(*cell, viewer).center,
                                         button=button))


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def test_square_colours_black_view(surface: pygame.Surface) -> None:
    """02/§2.1: black when rank + file is odd; Black's view has rank 1 at the bottom, a on the left."""
    draw_board(surface, api.observe(api.new_game(), "B"))
    assert rgb(surface, screen_cell(0, 9)) == theme.LIGHT_SQUARE    # a1
    assert rgb(surface, screen_cell(9, 9)) == theme.DARK_SQUARE     # j1
    assert rgb(surface, screen_cell(0, 8)) == theme.DARK_SQUARE     # a2
    assert rgb(surface, screen_cell(9, 0)) == theme.LIGHT_SQUARE    # j10


def test_white_view_is_rotated(surface: pygame.Surface) -> None:
    """02/§2.1 own view: White sees rank 10 at the bottom and file j on its left (180° rotation)."""
    drawn = draw_board(surface, api.observe(api.new_game(), "W"))
    assert rgb(surface, screen_cell(9, 0)) == theme.LIGHT_SQUARE    # a1, top right
    assert rgb(surface, screen_cell(0, 0)) == theme.DARK_SQUARE     # j1, top left
    king = next(t for t in drawn if t.text == "K" and t.side == "W")      # K at f10
    assert cell_rect(10, 6, "W").contains(king.rect)
    assert cell_rect(10, 6, "W").topleft == (LAYOUT.board_x + 4 * LAYOUT.cell,
                                             LAYOUT.board_y + 9 * LAYOUT.cell)


def test_hidden_enemy_piece_is_not_drawn(surface: pygame.Surface) -> None:
    """RUL-18, 04/U45: White's AAA are hidden from Black at the start and never drawn for Black."""
    state = api.new_game()
    black = draw_board(surface, api.observe(state, "B"))
    white = draw_board(surface, api.observe(state, "W"))
    assert [(t.side, t.row, t.col) for t in black if t.text == "AAA"] == [("B", 2, 3), ("B", 2, 8)]
    assert [(t.side, t.row, t.col) for t in white if t.text == "AAA"] == [("W", 9, 3), ("W", 9, 8)]
    assert not any(t.side == "W" and t.text == "AAA" for t in black)
    assert sum(t.what == "piece" for t in black) == 28 + 26


def test_random_game_draws_exactly_the_view(surface: pygame.Surface) -> None:
    """RUL-18, 04/U45: along a seeded random game each view draws one token per own or seen piece."""
    state, rng = api.new_game(), random.Random(5)
    while state.ply < 40 and state.result is None:
        state = api.apply_action(state, api.random_action(state, rng))
        if state.ply % 8 == 0 and not state.actions:
            for viewer in ("B", "W"):
                view = api.observe(state, viewer)
                pieces = [t for t in draw_board(surface, view) if t.what == "piece"]
                assert len(pieces) == len(view.own) + len(view.seen)
                assert sum(t.what == "piece" and t.side != viewer for t in pieces) == len(view.seen)


def test_click_piece_then_destination_applies_that_move(surface: pygame.Surface) -> None:
    """04/U35: click the SHP, its squares turn yellow, click (4,7): exactly that Move is applied."""
    session = Session(api.new_game())
    driver = Driver(session, surface)
    click((2, 5), "B")
    driver.pump()
    assert rgb(surface, cell_rect(4, 7, "B").topleft) == theme.HIGHLIGHT
    click((4, 7), "B")
    driver.pump()
    expected = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    assert api.state_hash(session.state) == api.state_hash(expected)


def test_arrow_keys_and_enter_make_the_same_move(surface: pygame.Surface) -> None:
    """Keyboard path: the cursor starts on a1 in Black's view; arrows move it, Enter clicks."""
    session = Session(api.new_game())
    driver = Driver(session, surface)
    for k in [pygame.K_UP] + [pygame.K_RIGHT] * 4 + [pygame.K_RETURN, pygame.K_UP, pygame.K_UP,
                                                     pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_RETURN]:
        key(k)
    driver.pump()
    expected = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    assert api.state_hash(session.state) == api.state_hash(expected)


def test_several_actions_to_one_square_ask_with_a_list(surface: pygame.Surface) -> None:
    """04/U36: the Bulldozer reaches (2,2) by a plain Move and by nudges; the scene lists them."""
    session = Session(api.new_game())
    driver = Driver(session, surface)
    click((1, 2), "B")
    click((2, 2), "B")
    driver.pump()
    scene = driver.scene
    assert isinstance(scene, GameScene) and len(scene.pending) > 1
    key(pygame.K_DOWN)
    key(pygame.K_RETURN)
    driver.pump()
    expected = api.apply_action(api.new_game(), scene.pending[1])
    assert api.state_hash(session.state) == api.state_hash(expected)


def test_right_click_selects_fires(surface: pygame.Surface) -> None:
    """04/U33, U37: the right button selects the piece's Fires; their direction squares turn yellow."""
    driver = Driver(Session(api.new_game()), surface)
    click((1, 1), "B", button=3)
    driver.pump()
    scene = driver.scene
    assert isinstance(scene, GameScene)
    assert [api.format_action(a) for a in scene.group] == [
        "FI:FL/TA(1,1)>->(2,1)", "FI:FL/TA(1,1)>->(2,2)", "FI:FL/TA(1,1)>->(1,2)"]


def test_end_turn_before_move_shows_the_error(surface: pygame.Surface) -> None:
    """04/U32: End Turn needs the Move first; a refused scripted action shows its RuleError rule id."""
    session = Session(api.new_game())
    driver = Driver(session, surface)
    key(pygame.K_e)
    driver.pump()
    assert isinstance(driver.scene, GameScene) and driver.scene.error
    assert "04/U32" in driver.scene.status
    pygame.event.post(pygame.event.Event(pygame.USEREVENT, action=api.parse_action("MV:SHP(2,5)->(6,9)")))
    driver.pump()
    assert driver.scene.error and session.state.ply == 1 and not session.state.actions


def test_hotseat_privacy_screen_between_turns(surface: pygame.Surface) -> None:
    """04/U17: after Black ends the turn a privacy screen shows no position; then White's view."""
    session = Session(api.new_game())
    driver = Driver(session, surface)
    click((2, 5), "B")
    click((4, 7), "B")
    key(pygame.K_e)
    driver.pump()
    assert isinstance(driver.scene, PrivacyScene) and driver.drawn == []
    assert rgb(surface, screen_cell(0, 9)) == (0, 0, 0)
    key(pygame.K_SPACE)
    driver.pump()
    assert isinstance(driver.scene, GameScene) and driver.scene.view.player == "W"
    assert driver.scene.actions and not any(t.side == "B" and t.text == "AAA" for t in driver.drawn)


def test_wec_play_vs_computer_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """04/U18: ``wec play --vs-computer --script`` plays turns headless, autosaves, and --load resumes."""
    save = tmp_path / "game.wec"
    script = "click 2,5; click 4,7; key e; act MV:DO(1,2)->(1,1); key e"   # the computer stuns the King (RUL-11)
    code = cli.main(["play", "--headless", "--vs-computer", "--seed", "3", "--save", str(save),
                     "--script", script])
    out = capsys.readouterr().out
    assert code == 0 and "RESULT ply=5 to_move=B" in out
    loaded = api.load(save)
    assert loaded.ply == 5 and api.state_hash(loaded) in out
    code = cli.main(["play", "--headless", "--load", str(save), "--script", "wait"])
    assert code == 0 and api.state_hash(loaded) in capsys.readouterr().out
