"""The window's menus, options screen and dialogs, driven by real pygame mouse and keyboard
events through ``ui.shell.Shell`` (SDL dummy driver; pygame-gui widgets)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui.layout import cell_rect
from ui.menus import MENU_TITLES, NOT_YET, MenuContext, menus
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import Shell

SHP_MOVE = "MV:SHP(2,5)->(4,7)"


def click(shell: Shell, pos: tuple[int, int], button: int = 1) -> None:
    """A real press and release at ``pos``, then two frames for the widgets to react."""
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)], 0.05)
    shell.pump([], 0.05)


def key(shell: Shell, k: int, ctrl: bool = False) -> None:
    mod = pygame.KMOD_CTRL if ctrl else 0
    shell.pump([pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""),
                pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="")], 0.05)
    shell.pump([], 0.05)


def choose(shell: Shell, title: str, command: str) -> None:
    """Open menu ``title`` by a click and click its item ``command``."""
    click(shell, shell.menu.title_rect(title).center)
    click(shell, shell.menu.item_rect(command).center)


def status(shell: Shell) -> str:
    scene = shell.driver.scene
    assert isinstance(scene, GameScene)
    return scene.status


def test_the_bar_has_the_five_menus_of_u5() -> None:
    """04/U5: File, Play Change, View, Undo, Actions, in that order."""
    assert MENU_TITLES == ("File", "Play Change", "View", "Undo", "Actions")
    assert [t for t, _ in menus(MenuContext())] == list(MENU_TITLES)


def test_undo_is_disabled_in_a_competitive_game_and_says_why() -> None:
    """04/U31: Undo works only in non-competitive games."""
    items = dict(menus(MenuContext(competitive=True, can_undo=True)))["Undo"]
    assert all(not i.enabled and "04/U31" in i.why_not for i in items)
    items = dict(menus(MenuContext(competitive=False, can_undo=True)))["Undo"]
    assert all(i.enabled for i in items)


def test_rule_options_are_fixed_once_the_game_started() -> None:
    """04/U15: the pre-game options change only before the first move."""
    item = next(i for i in dict(menus(MenuContext(started=True)))["Play Change"] if i.command == "options")
    assert not item.enabled and "04/U15" in item.why_not


def test_file_new_game_options_screen_start_with_a_changed_option(screen: pygame.Surface) -> None:
    """04/U6, U15, RUL-38: New game opens every option in words with the standard values marked;
    Start begins a game with the chosen options."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "File", "new")
    options = shell.options
    assert options is not None
    assert set(options.controls) == set(api.Options().to_dict())
    assert options.controls["tank_range"].selected_option[0] == "7 (standard)"
    options.choose("tank_range", 6)
    click(shell, options.start.rect.center)
    assert shell.options is None
    assert shell.session.state.options == api.Options(tank_range=6)
    assert shell.session.state.ply == 1 and not shell.session.state.actions


def test_options_that_do_not_go_together_are_refused_in_words(screen: pygame.Surface) -> None:
    """03/M1.0.15: Sub/Jet combat needs another movement type; Start says so and starts nothing."""
    shell = Shell(Session(api.new_game()), screen)
    before = api.state_hash(shell.session.state)
    key(shell, pygame.K_n, ctrl=True)                          # Ctrl+N: File > New game
    assert shell.options is not None
    shell.options.choose("sub_jet_combat", True)
    click(shell, shell.options.start.rect.center)
    assert shell.options is not None
    assert shell.options.message.text.startswith("These rules do not go together")
    assert "03/M1.0.15" in shell.options.details.text
    click(shell, shell.options.cancel.rect.center)
    assert shell.options is None and api.state_hash(shell.session.state) == before


def test_undo_menu_takes_back_a_move_across_the_turn(screen: pygame.Surface) -> None:
    """04/U31: Undo goes back through the game, also past End Turn, in a non-competitive game."""
    state = api.new_game()
    moved = api.apply_action(state, api.parse_action(SHP_MOVE))
    ended = api.apply_action(moved, api.EndTurn())
    shell = Shell(Session(ended), screen)
    choose(shell, "Undo", "undo")
    assert api.state_hash(shell.session.state) == api.state_hash(moved)
    choose(shell, "Undo", "undo")
    assert api.state_hash(shell.session.state) == api.state_hash(state)
    assert status(shell) == "undone"


def test_undo_turn_and_switch_sides_against_the_computer(screen: pygame.Surface) -> None:
    """04/U16: switching sides hands the human's colour to the computer, which plays at once;
    04/U31: undo against the computer goes back to before the human's own action."""
    session = Session(api.new_game(), computer="W")
    shell = Shell(session, screen)
    click(shell, cell_rect(2, 5, "B").center)
    click(shell, cell_rect(4, 7, "B").center)
    key(shell, pygame.K_e)                                       # End Turn; White (computer) plays
    assert shell.session.state.side_to_move == "B" and shell.session.state.ply == 3
    choose(shell, "Undo", "undo")                                # back over White's turn and ours
    assert shell.session.state.ply == 1 and len(shell.session.state.actions) == 1
    choose(shell, "Play Change", "switch_sides")
    assert shell.session.computer == "B"
    assert shell.session.state.side_to_move == "W"              # the computer finished Black's turn
    assert status(shell) == "you now play White"


def test_save_then_load_through_the_file_dialog(screen: pygame.Surface, tmp_path: Path) -> None:
    """04/U7, U8: File > Save writes the history; File > Load plays on from it."""
    moved = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    shell = Shell(Session(moved), screen)
    target = tmp_path / "mine.wec"
    choose(shell, "File", "save")
    assert shell.dialog is not None
    shell.dialog.file_path_text_line.set_text(str(target))
    shell.dialog.current_file_path = target
    shell.dialog.ok_button.enable()
    click(shell, shell.dialog.ok_button.rect.center)
    assert target.exists() and status(shell) == f"saved to {target}"
    assert api.state_hash(api.load(target)) == api.state_hash(moved)
    shell2 = Shell(Session(api.new_game()), screen)
    choose(shell2, "File", "load")
    assert shell2.dialog is not None
    shell2.dialog.file_path_text_line.set_text(str(target))
    shell2.dialog.current_file_path = target
    shell2.dialog.ok_button.enable()
    click(shell2, shell2.dialog.ok_button.rect.center)
    assert api.state_hash(shell2.session.state) == api.state_hash(moved)


def test_continue_after_a_crash_loads_the_autosave(screen: pygame.Surface, tmp_path: Path) -> None:
    """04/U9: File > Continue plays on from the last autosaved turn."""
    autosave = tmp_path / "unfinished.wec"
    moved = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    api.save(api.apply_action(moved, api.EndTurn()), autosave)
    shell = Shell(Session(api.new_game()), screen, autosave=autosave)
    choose(shell, "File", "continue")
    assert shell.session.state.ply == 2
    assert status(shell) == "loaded unfinished.wec"


def test_a_damaged_save_is_refused_and_the_game_kept(screen: pygame.Surface, tmp_path: Path) -> None:
    """Bad input loses nothing: loading a damaged save names it and keeps the game on screen."""
    bad = tmp_path / "bad.wec"
    bad.write_text("# WEC game 1\nnot a save\n")
    moved = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    shell = Shell(Session(moved), screen, autosave=bad)
    choose(shell, "File", "continue")
    assert api.state_hash(shell.session.state) == api.state_hash(moved)
    assert status(shell).startswith("cannot load bad.wec")


def test_view_status_words_and_actions_end_turn(screen: pygame.Surface) -> None:
    """04/U23: Game status shows the options in words; 04/U26: the history switches between
    words and notation; 04/U32: Actions > End Turn ends the turn after the Move."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "View", "status")
    assert shell.message is not None and "Tank range: 7" in shell.message.text_block.html_text
    click(shell, shell.message.dismiss_button.rect.center)     # the window covers the board
    assert not shell.message.alive()
    choose(shell, "View", "words")
    assert shell.driver.prefs["words"] is False
    click(shell, cell_rect(2, 5, "B").center)
    click(shell, cell_rect(4, 7, "B").center)
    choose(shell, "Actions", "end_turn")
    assert shell.session.state.ply == 2


def test_file_quit_and_ctrl_q(screen: pygame.Surface) -> None:
    """File > Quit (and its shortcut) ends the frame loop."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "File", "quit")
    assert not shell.running
    shell = Shell(Session(api.new_game()), screen)
    key(shell, pygame.K_q, ctrl=True)
    assert not shell.running


def test_small_boards_show_each_level_and_big_board_only_hides_them(screen: pygame.Surface) -> None:
    """04/U4: three small boards, one per level, show every own and seen piece of that level;
    04/U28: View > Big board only stops drawing them."""
    shell = Shell(Session(api.new_game()), screen)
    shell.pump([], 0.05)
    scene = shell.driver.scene
    assert isinstance(scene, GameScene)
    view = scene.view
    expected = sorted({(p.level, p.row, p.col, p.side) for p in view.own} |
                      {(s.level, s.row, s.col, s.side) for s in view.seen})
    assert sorted(scene.small_dots) == expected
    assert {lv for lv, *_ in scene.small_dots} == {"G"}          # at the start all are on the Ground
    choose(shell, "View", "big_board_only")
    shell.pump([], 0.05)
    assert shell.driver.scene.small_dots == []                   # type: ignore[union-attr]


def test_reinforcement_marks_follow_the_view_switch(screen: pygame.Surface) -> None:
    """04/U25: a reinforcement's square is marked (not its type); View switches the marks off."""
    from ui import theme
    shell = Shell(Session(api.new_game()), screen)
    shell.pump([], 0.05)
    scene = shell.driver.scene
    assert isinstance(scene, GameScene)
    r = scene.view.reinforcements[0]
    corner = cell_rect(r.row, r.col, "B").topright
    pos = (corner[0] - 2, corner[1] + 1)
    c = screen.get_at(pos)
    assert (c.r, c.g, c.b) == theme.REINFORCEMENT[r.side]
    choose(shell, "View", "reinforcements")
    shell.pump([], 0.05)
    c = screen.get_at(pos)
    assert (c.r, c.g, c.b) != theme.REINFORCEMENT[r.side]


def test_items_not_built_yet_are_greyed_with_the_reason() -> None:
    """04/U11 is listed but not built in the window yet: greyed, the tooltip says why."""
    items = {i.command: i for _, entries in menus(MenuContext()) for i in entries}
    assert items["editor"].enabled
    assert items["wifi"].enabled                                 # issue 9: the lobby (ui.net_shell)
    for command in NOT_YET:
        assert not items[command].enabled and items[command].why_not


def test_view_piece_shape_switches_to_the_detailed_set(screen: pygame.Surface) -> None:
    """04/U24: View > Simple / detailed pieces changes the pictures on the board."""
    shell = Shell(Session(api.new_game()), screen)
    shell.pump([], 0.05)
    area = pygame.Rect(cell_rect(1, 5, "B"))                     # Black's King
    before = pygame.image.tobytes(screen.subsurface(area), "RGB")
    choose(shell, "View", "piece_set")
    shell.pump([], 0.05)
    assert shell.driver.prefs["piece_set"] == "detailed"
    assert pygame.image.tobytes(screen.subsurface(area), "RGB") != before


def test_loading_a_long_save_shows_its_progress(screen: pygame.Surface, tmp_path: Path) -> None:
    """A long game's save replays with a progress bar: it advances to the last line and the
    game then stands at the saved state."""
    import random
    rng, state = random.Random(4), api.new_game()
    while len(state.history) < 120 and state.result is None:
        state = api.apply_action(state, api.random_action(state, rng))
    save = tmp_path / "long.wec"
    api.save(state, save)
    shell = Shell(Session(api.new_game()), screen, autosave=save)
    choose(shell, "File", "continue")
    shown = shell.progress_shown
    assert len(shown) >= 10
    assert [d for d, _ in shown] == sorted(d for d, _ in shown)
    assert shown[-1][0] == shown[-1][1]
    assert api.state_hash(shell.session.state) == api.state_hash(api.load(save))


def test_load_progress_is_told_every_line() -> None:
    """engine.history.loads tells progress(done, total) for every line, ending at total."""
    state = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    state = api.apply_action(state, api.EndTurn())
    calls: list[tuple[int, int]] = []
    api.loads(api.dumps(state), progress=lambda d, t: calls.append((d, t)))
    total = len(state.history)
    assert calls == [(i, total) for i in range(total)] + [(total, total)]


def test_play_change_rule_options_before_the_first_move(screen: pygame.Surface) -> None:
    """04/U15: Play Change > Rule options changes the rules while no move is made yet."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "Play Change", "options")
    assert shell.options is not None
    shell.options.choose("tank_range", 8)
    click(shell, shell.options.start.rect.center)
    assert shell.session.state.options.tank_range == 8


def test_undo_to_the_start_of_the_turn(screen: pygame.Surface) -> None:
    """04/U31: Undo > Undo to the start of the turn takes back all of this turn's actions."""
    start = api.new_game()
    moved = api.apply_action(start, api.parse_action(SHP_MOVE))
    picked = next(a for a in api.legal_actions(moved) if type(a).__name__ == "PickUp")
    shell = Shell(Session(api.apply_action(moved, picked)), screen)
    choose(shell, "Undo", "undo_turn")
    assert api.state_hash(shell.session.state) == api.state_hash(start)


def test_actions_menu_hints_and_view_last_seen_switch(screen: pygame.Surface) -> None:
    """04/U33, U37: the Actions menu says how to Move and Fire; 04/U29: View switches the
    last-seen markers."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "Actions", "hint_move")
    assert status(shell).startswith("Move: click one of your pieces")
    choose(shell, "Actions", "hint_fire")
    assert status(shell).startswith("Fire: right-click")
    choose(shell, "View", "last_seen")
    assert shell.driver.prefs["show_last_seen"] is False
    assert shell.driver.scene.show_last_seen is False        # type: ignore[union-attr]


def test_hotseat_undo_into_the_other_players_turn_shows_the_privacy_screen(screen: pygame.Surface) -> None:
    """04/U17: undoing back over End Turn hands the screen to the other player: the privacy
    screen comes first, then that player's view."""
    from ui.scenes import PrivacyScene
    moved = api.apply_action(api.new_game(), api.parse_action(SHP_MOVE))
    shell = Shell(Session(api.apply_action(moved, api.EndTurn())), screen)
    assert shell.session.viewer == "W"
    choose(shell, "Undo", "undo")
    assert api.state_hash(shell.session.state) == api.state_hash(moved)
    assert isinstance(shell.driver.scene, PrivacyScene) and shell.driver.scene.next_side == "B"


def test_a_new_game_from_the_menu_closes_the_editor(screen: pygame.Surface) -> None:
    """File > New game while the editor is open starts the game and leaves the editor."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "File", "editor")
    assert shell.editor is not None
    shell.command("new")
    assert shell.options is not None
    click(shell, shell.options.start.rect.center)
    assert shell.editor is None and shell.options is None


def test_u20_stealth_submerge_dominance_is_an_option_in_words(screen: pygame.Surface) -> None:
    """04/U20 (RUL-18): the options screen offers which detection wins, in words, the standard
    value marked; choosing "stealth wins" starts the game with it."""
    shell = Shell(Session(api.new_game()), screen)
    choose(shell, "File", "new")
    assert shell.options is not None
    menu = shell.options.controls["detection_dominance"]
    assert menu.selected_option[0] == "submerged wins (standard)"
    assert sorted(shell.options._value_of["detection_dominance"]) == ["stealth wins", "submerged wins (standard)"]
    shell.options.choose("detection_dominance", "stealth")
    click(shell, shell.options.start.rect.center)
    assert shell.session.state.options.detection_dominance == "stealth"
