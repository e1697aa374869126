"""Competitive mode in hotseat: each player's screen shows the history censored for that player
(RUL-37, 04/C1), switched on before the game from the options screen (02/D24, 04/U15)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random

import pygame
import pytest
from ui_screen import screen  # noqa: F401  (the shared window fixture)

from engine import api
from ui.scenes import GameScene
from ui.session import Session
from ui.shell import Shell


def _hidden_mover_lines(state: api.GameState, viewer: str) -> list[int]:
    """Indices of finished lines whose censored form for ``viewer`` differs from the full line."""
    shown = api.history_for(state, viewer)
    return [i for i, (a, b) in enumerate(zip(shown, state.history)) if a != b]


def test_each_hotseat_player_sees_only_their_censored_history(screen: pygame.Surface) -> None:
    """RUL-37: in a running competitive game the screen's history for each side leaves out (or
    marks '?') what that side did not see; the other side's screen shows its own version."""
    rng = random.Random(7)
    session = Session(api.new_game(api.Options(competitive=True)))
    shell = Shell(session, screen)
    censored_seen = {"B": 0, "W": 0}
    for n in range(240):
        state = shell.session.state
        if state.result is not None:
            break
        shell.session.state = api.apply_action(state, api.random_action(state, rng))
        if n % 12:
            continue                            # history_for replays the game: look now and then
        shell.driver.refresh()
        scene = shell.driver.scene
        assert isinstance(scene, GameScene)
        scene.words = False                                    # the notation, as censored
        viewer = scene.view.player
        shown = scene.history_lines()[:len(shell.session.state.history)]
        assert shown == api.history_for(shell.session.state, viewer)
        if _hidden_mover_lines(shell.session.state, viewer):
            censored_seen[viewer] += 1
            assert shown != list(shell.session.state.history)
    assert censored_seen["B"] > 0 and censored_seen["W"] > 0, censored_seen


def test_competitive_mode_is_switched_on_before_the_game_from_the_options_screen(
        screen: pygame.Surface) -> None:
    """02/D24, 04/U15: New game > Competitive game on > Start gives a competitive game, whose
    Undo menu is then disabled (04/U31)."""
    shell = Shell(Session(api.new_game()), screen)
    shell.command("new")
    assert shell.options is not None
    shell.options.choose("competitive", True)
    start = shell.options.start.rect.center
    shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=start, button=1)], 0.05)
    assert shell.session.state.options.competitive
    assert not shell.context().can_undo or shell.context().competitive
    assert shell.session.undo() == "a competitive game has no undo (04/U31, 02/D24)"


def test_last_seen_markers_stand_where_an_enemy_was_last_seen(screen: pygame.Surface) -> None:
    """04/U29: when an enemy piece the player saw becomes hidden, a see-through marker stands
    where the player last saw it: a square where observe() showed that piece before the action
    and shows none of its type after it."""
    rng = random.Random(3)
    session = Session(api.new_game())
    found = None
    for _ in range(600):
        before = session.state
        if before.result is not None:
            break
        views = {v: api.observe(before, v) for v in ("B", "W")}
        counts = {v: len(session.last_seen[v]) for v in ("B", "W")}
        assert session.apply(api.random_action(before, rng)) is None
        session.privacy_pending = False
        for v in ("B", "W"):
            if len(session.last_seen[v]) > counts[v]:
                found = (v, session.last_seen[v][-1], views[v])
                break
        if found:
            break
    assert found is not None, "no enemy piece hid in 600 actions"
    viewer, mark, view_before = found
    cell = (mark.row, mark.col, mark.level)
    assert any((s.row, s.col, s.level, s.kind) == (*cell, mark.kind) for s in view_before.seen)
    after = api.observe(session.state, viewer)
    assert not any((s.row, s.col, s.level, s.kind) == (*cell, mark.kind) for s in after.seen)
    scene = session.scene() if session.viewer == viewer else None
    if scene is not None:
        assert mark in scene.last_seen


def test_play_change_competitive_mode_before_the_first_move(screen: pygame.Surface) -> None:
    """02/D24: Play Change > Competitive mode switches it before the first move, not after."""
    def menu(shell: Shell, title: str, command: str) -> None:
        for rect in (lambda: shell.menu.title_rect(title), lambda: shell.menu.item_rect(command)):
            pos = rect().center
            shell.pump([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)], 0.05)
            shell.pump([], 0.05)

    shell = Shell(Session(api.new_game()), screen)
    menu(shell, "Play Change", "competitive")
    assert shell.session.state.options.competitive
    menu(shell, "Play Change", "competitive")
    assert not shell.session.state.options.competitive
    moved = api.apply_action(shell.session.state, api.parse_action("MV:SHP(2,5)->(4,7)"))
    shell = Shell(Session(moved), screen)
    shell.command("competitive")
    assert not shell.session.state.options.competitive
    assert api.state_hash(shell.session.state) == api.state_hash(moved)
