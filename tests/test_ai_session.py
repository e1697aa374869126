"""The computer opponent in the local game (04/U18; issue 11): hint and switching sides."""
from __future__ import annotations

from engine import api
from ui.session import Session


def test_hint_is_a_legal_action_of_the_humans_side_04_U18() -> None:
    """04/U18: against the computer, H asks it for a hint: a legal action of the human's side,
    computed from the human's view; nothing is applied."""
    state = api.new_game()
    session = Session(state, computer="W", level="greedy", seconds=0.2)
    before = api.state_hash(session.state)
    text, error = session.hint()
    assert not error and text.startswith("hint: ")
    legal = {api.format_action(a) for a in api.legal_actions(session.state)}
    assert text[len("hint: "):] in legal
    assert api.state_hash(session.state) == before


def test_switch_sides_hands_the_computer_the_side_to_move_04_U16() -> None:
    """04/U16: the human (Black, to move) switches sides: the computer now plays Black and
    plays its whole turn at once; the human is White."""
    session = Session(api.new_game(), computer="W", level="random")
    assert session.switch_sides() is None
    assert session.computer == "B" and session.viewer == "W"
    assert session.state.ply == 2 and len(session.state.history) == 1


def test_no_switching_sides_in_a_competitive_game_02_D24() -> None:
    """02/D24: a competitive game refuses the switch, naming the rule; nothing changes."""
    session = Session(api.new_game(api.Options(competitive=True)), computer="W", level="random")
    before = api.state_hash(session.state)
    assert session.switch_sides() == "sides cannot be switched in a competitive game (04/U16, 02/D24)"
    assert session.computer == "W" and api.state_hash(session.state) == before


def test_hint_refused_in_hotseat_when_not_your_turn() -> None:
    """A hint is for the human's side only: not while the computer is to move."""
    session = Session(api.new_game(), computer="W", level="random")
    session.computer = "B"                      # as if it were the computer's turn now
    assert session.hint() == ("no hint: it is not your turn", True)


def test_hint_menu_item_and_shortcut() -> None:
    """The Actions menu offers the hint on the player's turn only, Ctrl+H is its shortcut."""
    import pygame

    from ui.menus import MenuContext, menus, shortcut_command

    def item(ctx: MenuContext):                  # type: ignore[no-untyped-def]
        return next(i for _title, items in menus(ctx) for i in items if i.command == "hint")

    assert shortcut_command(pygame.K_h, pygame.KMOD_CTRL) == "hint"
    assert item(MenuContext(my_turn=True)).enabled
    assert not item(MenuContext(my_turn=False)).enabled
