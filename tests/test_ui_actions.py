"""Turn actions by mouse on the game screen (04/U38-U42), through the Shell with real events."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui.editor_model import EditorBuffer, EPiece
from ui.layout import cell_rect
from ui.menus import menus
from ui.session import Session
from ui.shell import Shell


def click_square(shell: Shell, row: int, col: int) -> None:
    pos = cell_rect(row, col, shell.session.viewer).center
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.05)


def last_action(shell: Shell) -> str:
    return api.format_action(shell.session.state.actions[-1])


def test_u3_the_window_opens_on_a_new_game_with_black_to_move(screen: pygame.Surface) -> None:
    """04/U3: the program opens on a newly started game, Black to move."""
    shell = Shell(Session(api.new_game()), screen)
    shell.pump([], 0.05)
    scene = shell.driver.scene
    assert scene.view.player == "B" and scene.view.ply == 1          # type: ignore[union-attr]
    assert scene._title() == "Black's view, ply 1, Black to move"    # type: ignore[union-attr]


def test_u38_u39_u40_pick_up_drop_and_exchange_by_clicks(screen: pygame.Surface) -> None:
    """04/U38: click the piece, then its square: the article there is picked up; 04/U39: the
    same clicks with an article carried and none on the ground drop it; 04/U40: the piece,
    then the receiving piece: the article is handed over."""
    moved = api.apply_action(api.new_game(), api.parse_action("MV:SHP(2,5)->(4,7)"))
    shell = Shell(Session(moved), screen)
    click_square(shell, 4, 7)
    click_square(shell, 4, 7)
    assert last_action(shell) == "PU:SHP(4,7)^ACS"
    click_square(shell, 4, 7)
    click_square(shell, 1, 6)
    assert last_action(shell) == "EX:SHP(4,7)1ACS->ACS->Q(1,6)"
    shell = Shell(Session(api.apply_action(moved, api.parse_action("PU:SHP(4,7)^ACS"))), screen)
    click_square(shell, 4, 7)
    click_square(shell, 4, 7)
    assert last_action(shell) == "DR:SHP(4,7)1ACSvACS"


def test_u42_end_turn_from_the_actions_menu_after_the_move(screen: pygame.Surface) -> None:
    """04/U42: End Turn is chosen from the Actions menu once the turn is finished (04/U32: a
    Move first; before it the item is greyed and says why)."""
    shell = Shell(Session(api.new_game()), screen)
    item = {i.command: i for i in dict(menus(shell.context()))["Actions"]}
    assert not item["end_turn"].enabled and "04/U32" in item["end_turn"].why_not
    click_square(shell, 2, 5)
    click_square(shell, 4, 7)
    for title_or_item in ("Actions", "end_turn"):
        rect = shell.menu.title_rect(title_or_item) if title_or_item == "Actions" else shell.menu.item_rect("end_turn")
        pos = rect.center
        shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                    pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                    pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.05)
        shell.pump([], 0.05)
    assert shell.session.state.ply == 2 and shell.session.state.side_to_move == "W"


def test_u49_the_editor_checks_little_two_primary_pieces_are_allowed() -> None:
    """04/U49: nothing stops a side having two primary government pieces."""
    b = EditorBuffer()
    for piece in (EPiece("B", "K", 1, 5), EPiece("B", "K", 1, 4), EPiece("W", "K", 10, 5)):
        b.add_piece(piece)
    state, problems = b.check()
    assert problems == [] and state is not None
    assert sorted(p.kind for p in state.pieces.values() if p.side == "B") == ["K", "K"]


def test_u52_a_save_restarts_the_game_and_undoes_back_through_it(screen: pygame.Surface, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """04/U52: a saved game restarts from its history and can be undone back through it."""
    s0 = api.new_game()
    s1 = api.apply_action(s0, api.parse_action("MV:SHP(2,5)->(4,7)"))
    s2 = api.apply_action(s1, api.EndTurn())
    save = tmp_path / "g.wec"
    api.save(s2, save)
    shell = Shell(Session(api.new_game()), screen, autosave=save)
    shell.command("continue")
    assert api.state_hash(shell.session.state) == api.state_hash(s2)
    shell.command("undo")
    assert api.state_hash(shell.session.state) == api.state_hash(s1)
    shell.command("undo")
    assert api.state_hash(shell.session.state) == api.state_hash(s0)


def test_u34_the_pointer_shows_the_left_buttons_action(screen: pygame.Surface) -> None:
    """04/U34: the pointer's shape shows what the button will do: Move at the start of a turn,
    Fire once a piece was chosen with the right button."""
    shell = Shell(Session(api.new_game()), screen)
    shell.pump([], 0.05)
    assert shell.driver.scene.pointer == "move"                     # type: ignore[union-attr]
    fires = [a for a in api.legal_actions(shell.session.state) if type(a).__name__ == "Fire"]
    square = (fires[0].piece.row, fires[0].piece.col)
    pos = cell_rect(*square, "B").center
    shell.pump([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3)], 0.05)
    assert shell.driver.scene.pointer == "fire"                     # type: ignore[union-attr]
