"""Actions and history lines in words for people (issue 12 item 3), in U71 coordinates."""
from __future__ import annotations

from engine import api
from engine.actions import AIR, Drop, EndTurn, Exchange, Fire, Move, PickUp, PieceDesc, Reinforce
from engine.notation import parse_turn
from ui.words import describe, describe_turn, square


def test_square_uses_u71_coordinates_and_names_the_level() -> None:
    """04/U71: (row,column), row 1 Black's nearest row; Ground is not named, Air and Sub are."""
    assert square(2, 5) == "(2,5)"
    assert square(3, 5, "A") == "(3,5) in the Air"
    assert square(3, 5, "S") == "(3,5) under water"


def test_a_move_reads_with_names_and_squares() -> None:
    """04/U71: the Stealth Pawn's opening move, in words."""
    action = api.parse_action("MV:SHP(2,5)->(4,7)")
    assert describe(action) == "Stealth Pawn (2,5) to (4,7)"


def test_a_move_onto_a_seen_enemy_says_what_it_takes() -> None:
    """04/U71, RUL-18: a capture is worded only for an enemy the viewer sees."""
    state = api.new_game()
    view = api.observe(state, "B")
    enemy = next(s for s in view.seen if s.level == "G")
    move = Move(PieceDesc("TA", "G", enemy.row - 1, enemy.col), "G", enemy.row, enemy.col)
    assert describe(move, view).endswith(f", takes {describe_kind(enemy.kind)}")
    hidden = view._replace(seen=())
    assert "takes" not in describe(move, hidden)


def describe_kind(kind: str) -> str:
    from engine.pieces import KINDS
    return KINDS[kind].name


def test_fires_pickups_drops_exchanges_reinforcements_end_turn() -> None:
    """04/U71: every kind of action has its words."""
    tank = PieceDesc("TA", "G", 2, 5, orient=">")
    jet = PieceDesc("JE", AIR, 7, 7)
    assert describe(Fire("FL", tank, 3, 5)) == "Tank (2,5) fires Flamer towards (3,5)"
    assert describe(Fire("RL", tank, target=jet)) == "Tank (2,5) fires Rocket Launcher at Jet (7,7) in the Air"
    assert describe(Fire("BI", tank, 4, 5)) == "Tank (2,5) uses the Bike to go to (4,5)"
    assert describe(PickUp(tank, "SH")) == "Tank (2,5) picks up Stealth"
    assert describe(Drop(tank, "ASL")) == "Tank (2,5) drops Anti-SAM"
    sub = PieceDesc("SU", "G", 2, 6)
    assert describe(Exchange(tank, "FL", sub)) == "Tank (2,5) gives Flamer to Sub (2,6)"
    assert describe(Exchange(tank, "FL", sub, "TL")) == \
        "Tank (2,5) swaps Flamer for Torpedo Launcher with Sub (2,6)"
    assert describe(Reinforce(1, 3, "TA", "<")) == "Reinforcement: a Tank enters at (1,3)"
    assert describe(EndTurn()) == "End Turn"


def test_a_history_line_in_words() -> None:
    """04/H7: a line's parts in printing order, in words."""
    turn = parse_turn("MV:SHP(2,5)->(4,7),PU:SHP(4,7)^SH")
    assert describe_turn(turn) == "Stealth Pawn (2,5) to (4,7); Stealth Pawn (4,7) picks up Stealth"


def test_results_read_as_the_h20_readings() -> None:
    """04/H20: a projectile in flight, one that ended, a kill with its stun, a piece stopped early."""
    turn = parse_turn("MV:TA(2,5)->(3,5),RS:R->(5,5)(1,0),Rv(6,5),RK*JE^(7,7)0W,TAv(3,5)")
    words = describe_turn(turn)
    assert words.endswith("— Rocket at (5,5), Rocket ended at (6,5), "
                          "White Jet (7,7) in the Air destroyed by a Rocket, Tank stopped at (3,5)")


def _scene_after(actions: int):  # type: ignore[no-untyped-def]
    import os
    import random
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from ui.scenes import GameScene
    rng, state = random.Random(5), api.new_game()
    while len(state.history) < actions:
        state = api.apply_action(state, api.random_action(state, rng))
    side = state.side_to_move
    return state, GameScene(api.observe(state, side), api.legal_actions(state), api.history_for(state, side))


def test_history_rows_hold_whole_lines_and_n_switches_to_notation() -> None:
    """04/H7: every history line is shown whole (wrapped, never cut); N switches words/notation."""
    import pygame
    from ui.panel_view import history_rect, wrapped_history
    pygame.font.init()
    state, scene = _scene_after(12)
    width = history_rect(scene.lay).width
    assert scene.history_lines()[0] == describe_turn(parse_turn(state.history[0]))
    scene.event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n"))
    assert scene.history_lines()[:12] == list(state.history)
    rows = wrapped_history(state.history[:1], width)
    assert "".join(text for _, text in rows).replace(" ", "") == state.history[0].replace(" ", "")


def test_the_mouse_wheel_scrolls_the_history_back() -> None:
    """04/U26: the history scrolls: a wheel notch up over it shows three rows further back."""
    import pygame
    from ui.panel_view import history_rect
    pygame.font.init()
    _, scene = _scene_after(30)
    assert scene.history_top is None                         # follows the newest rows
    pos = history_rect(scene.lay).center
    scene.event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, pos=pos))
    first = scene.history_top
    assert first is not None
    scene.event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, pos=pos))
    assert scene.history_top == first - 3
    for _ in range(3):
        scene.event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, pos=pos))
    assert scene.history_top is None                         # back at the newest: follows again


def test_messages_are_words_first_and_rule_ids_in_the_details() -> None:
    """Issue 12 item 3: a refusal reads in words; its rule id goes to a details line."""
    from ui.words import split_rule
    assert split_rule("03/M0.10: a Tank cannot take its own side") == ("A Tank cannot take its own side", "03/M0.10")
    assert split_rule("a competitive game has no undo (04/U31, 02/D24)") == \
        ("A competitive game has no undo", "04/U31, 02/D24")
    assert split_rule("RUL-6: the Flamer is reloading") == ("The Flamer is reloading", "RUL-6")
    assert split_rule("Left-click a piece") == ("Left-click a piece", "")
