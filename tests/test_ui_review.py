"""Review fixes of the window (issue 12): each test failed before its fix. Driven by real
pygame events through ``ui.shell.Shell`` (SDL dummy driver)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from engine import api
from engine.notation import parse_action
from ui.session import Session
from ui.shell import Shell

from test_ui_shell import click, key, screen  # noqa: F401  (the shell tests' real-event helpers)

SHP_MOVE = "MV:SHP(2,5)->(4,7)"


def test_ctrl_z_typed_in_the_file_dialog_edits_the_field_not_the_game(screen: pygame.Surface) -> None:
    """04/U31 undo is a menu shortcut, but Ctrl+Z typed while the file name field has the
    keyboard belongs to the field: the game keeps its Move (and no second dialog opens on
    Ctrl+O)."""
    session = Session(api.new_game())
    session.apply(parse_action(SHP_MOVE))
    shell = Shell(session, screen)
    key(shell, pygame.K_o, ctrl=True)
    dialog = shell.dialog
    assert dialog is not None
    click(shell, dialog.file_path_text_line.rect.center)          # the field takes the keyboard
    assert dialog.file_path_text_line.is_focused
    key(shell, pygame.K_z, ctrl=True)
    key(shell, pygame.K_o, ctrl=True)
    assert [str(a) for a in shell.session.state.actions] == [str(parse_action(SHP_MOVE))]
    assert shell.dialog is dialog


def test_the_editors_to_move_list_shows_the_buffers_side(screen: pygame.Surface) -> None:
    """04/U10: the current position becomes the editor's buffer, White to move included; the
    To move list must say so (else choosing Black there changes nothing), and it follows a
    Standard start (Black to move, 02/§2.1) too."""
    session = Session(api.new_game())
    session.apply(parse_action(SHP_MOVE))
    session.apply(parse_action("END"))
    assert session.state.side_to_move == "W"
    shell = Shell(session, screen)
    key(shell, pygame.K_e, ctrl=True)
    editor = shell.editor
    assert editor is not None and editor.buffer.to_move == "W"
    assert editor.menus["to_move"].selected_option[0] == "White"
    assert editor.values()["to_move"] == "White"
    click(shell, editor.buttons["standard"].rect.center)
    assert editor.buffer.to_move == "B"
    assert editor.menus["to_move"].selected_option[0] == "Black"


def test_a_left_click_on_a_fire_target_selects_that_piece_instead_of_firing() -> None:
    """04/U33: the left button selects things to Move, the right to Fire; 04/U37: a Fire's
    target is right-clicked. After right-clicking the Tank at (1,1) (its Flamer may fire
    towards (1,2)), a left click on the Sub at (1,2) selects the Sub's moves; it does not
    fire the Flamer at its own Sub."""
    from ui.layout import cell_rect
    from ui.scenes import Apply, GameScene

    state = api.new_game()
    scene = GameScene(api.observe(state, "B"), api.legal_actions(state), [])

    def press(cell: tuple[int, int], button: int) -> list[object]:
        return list(scene.event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_rect(*cell, "B").center,
                                                   button=button)))

    assert press((1, 1), 3) == [] and (1, 2) in [(a.row, a.col) for a in scene.group]
    out = press((1, 2), 1)
    assert not any(isinstance(o, Apply) for o in out)
    assert scene.selection == (1, 2)
    assert scene.group and all(type(a).__name__ != "Fire" for a in scene.group)
    assert all((a.piece.row, a.piece.col) == (1, 2) for a in scene.group)
