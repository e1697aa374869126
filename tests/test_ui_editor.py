"""The board editor on screen (04/U46-U51), driven by real mouse events through the Shell."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui import theme
from ui.editor_model import EditorBuffer, EPiece
from ui.layout import cell_rect
from ui.session import Session
from ui.shell import Shell


def click(shell: Shell, pos: tuple[int, int]) -> None:
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.05)
    shell.pump([], 0.05)


def open_editor(shell: Shell) -> None:
    click(shell, shell.menu.title_rect("File").center)
    click(shell, shell.menu.item_rect("editor").center)
    assert shell.editor is not None


def test_the_current_position_becomes_the_editors_buffer(screen: pygame.Surface) -> None:
    """04/U10: opening the editor takes the game's position (56 pieces, 68 articles, 20
    reinforcements at the standard start)."""
    shell = Shell(Session(api.new_game()), screen)
    open_editor(shell)
    assert shell.editor is not None
    b = shell.editor.buffer
    assert (len(b.pieces), len(b.articles), len(b.reinforcements)) == (56, 68, 20)


def test_build_a_board_by_clicks_check_it_and_play_from_it(screen: pygame.Surface) -> None:
    """04/U46, U47: clear, add pieces with a choice from every set, lay an article, add a
    reinforcement; Check marks a problem on its square; fixed, Play starts the game there."""
    shell = Shell(Session(api.new_game()), screen)
    open_editor(shell)
    ed = shell.editor
    assert ed is not None
    click(shell, ed.buttons["clear"].rect.center)
    assert ed.buffer.pieces == []
    ed.choose("kind", "King (K)")
    click(shell, cell_rect(1, 5, "B").center)                  # Black King e1
    ed.choose("side", "White")
    click(shell, cell_rect(10, 5, "B").center)                 # White King e10
    ed.choose("side", "Black")
    ed.choose("kind", "Tank (TA)")
    ed.choose("hand", "right hand")
    ed.articles_entry.set_text("SH")
    click(shell, cell_rect(1, 1, "B").center)                  # Black Tank> a1 carrying Stealth
    ed.choose("tool", "Lay article")
    ed.choose("article", "Flamer (FL)")
    click(shell, cell_rect(5, 5, "B").center)
    ed.choose("tool", "Add piece")
    ed.choose("kind", "Queen (Q)")
    ed.choose("hand", "no hand")
    ed.articles_entry.set_text("")
    click(shell, cell_rect(1, 5, "B").center)                  # a second piece on e1: no Coexistence
    click(shell, ed.buttons["check"].rect.center)
    assert [p.square for p in ed.problems] == [(1, 5)]
    assert "01/R5.4" in ed.problems[0].text
    shell.pump([], 0.05)
    c = screen.get_at(cell_rect(1, 5, "B").topleft)
    assert (c.r, c.g, c.b) == theme.ERROR                      # marked on its square
    ed.choose("tool", "Remove")
    click(shell, cell_rect(1, 5, "B").center)                  # the Queen goes (last placed)
    click(shell, ed.buttons["play"].rect.center)
    assert shell.editor is None
    state = shell.session.state
    kinds = sorted((p.side, p.kind, p.row, p.col, p.hand) for p in state.pieces.values())
    assert kinds == [("B", "K", 1, 5, ""), ("B", "TA", 1, 1, ">"), ("W", "K", 10, 5, "")]
    tank = next(p for p in state.pieces.values() if p.kind == "TA")
    assert [state.art_code[a] for a in tank.arts] == ["SH"]
    assert [state.art_code[a] for a in state.ground[(5, 5)]] == ["FL"]
    assert state.side_to_move == "B" and state.ply == 1


def test_the_editor_is_refused_in_a_competitive_game(screen: pygame.Surface) -> None:
    """04/U10: the editor is available only outside competitive games."""
    shell = Shell(Session(api.new_game(api.Options(competitive=True))), screen)
    shell.command("editor")
    assert shell.editor is None


def test_a_handed_piece_without_its_hand_is_refused_with_the_reason() -> None:
    """03/M0.3: a Tank is a left or right variety; the engine's reason reaches the square."""
    b = EditorBuffer()
    b.add_piece(EPiece("B", "K", 1, 5))
    b.add_piece(EPiece("W", "K", 10, 5))
    b.add_piece(EPiece("B", "TA", 1, 1))
    state, problems = b.check()
    assert state is None
    assert problems == [problems[0]._replace(square=(1, 1), text="TA needs a hand (< or >)")]


def _pick_file(shell: Shell, path: object) -> None:
    ed = shell.editor
    assert ed is not None and ed.dialog is not None
    ed.dialog.file_path_text_line.set_text(str(path))
    ed.dialog.current_file_path = path
    ed.dialog.ok_button.enable()
    click(shell, ed.dialog.ok_button.rect.center)


def test_reinforcement_stun_standard_save_load_rules_and_back(screen: pygame.Surface, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """04/U47: a reinforcement is placed with its own tool; a stun is set on a piece; Standard
    start refills the board; the position saves to a file and loads back; Rules sets the
    position's options (04/U15); Back leaves the game as it was."""
    shell = Shell(Session(api.new_game()), screen)
    before = api.state_hash(shell.session.state)
    open_editor(shell)
    ed = shell.editor
    assert ed is not None
    click(shell, ed.buttons["clear"].rect.center)
    ed.choose("kind", "King (K)")
    click(shell, cell_rect(1, 5, "B").center)
    ed.choose("side", "White")
    click(shell, cell_rect(10, 5, "B").center)
    ed.choose("tool", "Add reinforcement")
    ed.choose("kind", "Jet (JE)")
    click(shell, cell_rect(10, 2, "B").center)
    assert [(r.side, r.kind, r.row, r.col) for r in ed.buffer.reinforcements] == [("W", "JE", 10, 2)]
    ed.choose("tool", "Set stun")
    ed.choose("stun", "2")
    click(shell, cell_rect(10, 5, "B").center)
    assert [p.stun for p in ed.buffer.pieces] == [0, 2]
    target = tmp_path / "two-kings.wecpos"
    click(shell, ed.buttons["save"].rect.center)
    _pick_file(shell, target)
    assert "reinforcement W JE b10" in target.read_text()
    click(shell, ed.buttons["standard"].rect.center)
    assert len(shell.editor.buffer.pieces) == 56                 # type: ignore[union-attr]
    click(shell, shell.editor.buttons["load"].rect.center)       # type: ignore[union-attr]
    _pick_file(shell, target)
    ed = shell.editor
    assert ed is not None and [p.kind for p in ed.buffer.pieces] == ["K", "K"]
    click(shell, ed.buttons["rules"].rect.center)
    assert shell.options is not None
    shell.options.choose("stun_duration", 2)
    click(shell, shell.options.start.rect.center)
    assert shell.options is None and shell.editor is not None
    assert shell.editor.buffer.options.stun_duration == 2
    click(shell, shell.editor.buttons["back"].rect.center)
    assert shell.editor is None and api.state_hash(shell.session.state) == before


def test_u50_too_many_articles_on_a_square_are_marked_there() -> None:
    """04/U50 (01/R1.5): a square holds at most two articles on the ground; a third one laid in
    the editor is refused by the check, marked on that square."""
    from ui.editor_model import EArticle
    b = EditorBuffer()
    b.add_piece(EPiece("B", "K", 1, 5))
    b.add_piece(EPiece("W", "K", 10, 5))
    for code in ("FL", "SH", "TL"):
        b.add_article(EArticle(code, 5, 5))
    state, problems = b.check()
    assert state is None
    assert [(p.square, "01/R1.5" in p.text) for p in problems] == [((5, 5), True)]
