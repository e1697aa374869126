"""The menu bar's model: five menus (04/U5), their items, shortcuts and when each is enabled.

Pure: ``menus(ctx)`` lists what the bar shows for a game in context ``ctx`` and
``shortcut_command(key, mod)`` maps a key press to the same commands, so a click and its
shortcut always do the same thing. ``ui.menu_bar`` draws it with pygame-gui.
"""
from __future__ import annotations

from typing import NamedTuple

import pygame

__all__ = ["MenuItem", "MenuContext", "MENU_TITLES", "NOT_YET", "menus", "shortcut_command", "SHORTCUTS"]

MENU_TITLES = ("File", "Play Change", "View", "Undo", "Actions")      # 04/U5


class MenuContext(NamedTuple):
    """What decides which items are enabled."""

    competitive: bool = False        # 02/D24: no undo, no rule changes (04/U15, U31)
    started: bool = False            # a move has been made: the options are fixed (04/U15)
    vs_computer: bool = False        # 04/U16: switch sides
    can_undo: bool = False           # 04/U31
    can_end_turn: bool = False       # 04/U32
    my_turn: bool = True
    has_autosave: bool = False       # 04/U9
    network: bool = False            # a WiFi game: rule changes are requests (04/U21)


class MenuItem(NamedTuple):
    """One item: its words, the command it gives, its shortcut's words, enabled or not (and why)."""

    label: str
    command: str
    shortcut: str = ""
    enabled: bool = True
    why_not: str = ""


#: (key, needs Ctrl) -> command. Single keys work only on the game screen, as before.
SHORTCUTS: dict[tuple[int, bool], str] = {
    (pygame.K_n, True): "new", (pygame.K_o, True): "load", (pygame.K_s, True): "save",
    (pygame.K_q, True): "quit", (pygame.K_z, True): "undo", (pygame.K_e, True): "editor",
    (pygame.K_w, True): "wifi", (pygame.K_r, True): "continue", (pygame.K_F2, False): "options",
    (pygame.K_F3, False): "switch_sides", (pygame.K_F4, False): "competitive", (pygame.K_F5, False): "status", (pygame.K_F6, False): "words",
    (pygame.K_F7, False): "reinforcements", (pygame.K_F8, False): "last_seen",
    (pygame.K_F9, False): "piece_set", (pygame.K_F10, False): "big_board_only",
}


def shortcut_command(key: int, mod: int) -> str | None:
    """The command of a key press (``mod``: pygame's modifier bits), or None."""
    return SHORTCUTS.get((key, bool(mod & pygame.KMOD_CTRL)))


#: Items shown but not built yet, with what to do meanwhile (greyed, the reason in the tooltip).
NOT_YET = {
}


def menus(ctx: MenuContext) -> list[tuple[str, list[MenuItem]]]:
    """The five menus for ``ctx``, in bar order (04/U5-U32)."""
    return [(title, [_not_yet(i) for i in items]) for title, items in _menus(ctx)]


def _not_yet(item: MenuItem) -> MenuItem:
    why = NOT_YET.get(item.command)
    return item._replace(enabled=False, why_not=why) if why else item


def _menus(ctx: MenuContext) -> list[tuple[str, list[MenuItem]]]:
    no_undo = "competitive games have no undo (04/U31)" if ctx.competitive else "nothing to undo"
    fixed = ("a competitive game's rules are fixed (04/U15)" if ctx.competitive
             else "the rules are fixed once the first move is made (04/U15)")
    return [
        ("File", [
            MenuItem("New game…", "new", "Ctrl+N"),                                       # 04/U6
            MenuItem("Load game…", "load", "Ctrl+O"),                                     # 04/U7
            MenuItem("Save game…", "save", "Ctrl+S", not ctx.network, "a WiFi game saves itself"),
            MenuItem("Continue after a crash", "continue", "Ctrl+R", ctx.has_autosave,    # 04/U9
                     "no unfinished game was left"),
            MenuItem("Board editor", "editor", "Ctrl+E", not ctx.competitive,             # 04/U10
                     "not in a competitive game (04/U10)"),
            MenuItem("Play over WiFi…", "wifi", "Ctrl+W"),                                # 04/U11
            MenuItem("Quit", "quit", "Ctrl+Q"),
        ]),
        ("Play Change", [
            MenuItem("Rule options…", "options", "F2", not (ctx.started or ctx.competitive), fixed),
            MenuItem("Competitive mode on / off", "competitive", "F4", not ctx.started,     # 02/D24
                     "a game becomes competitive only before its first move (04/U15, 02/D24)"),
            MenuItem("Switch sides", "switch_sides", "F3", ctx.vs_computer and not ctx.competitive,  # U16
                     "only against the computer, in a non-competitive game (04/U16)"),
        ]),
        ("View", [
            MenuItem("Game status", "status", "F5"),                                      # 04/U23
            MenuItem("History in words / notation", "words", "F6"),                       # 04/U26
            MenuItem("Show reinforcements", "reinforcements", "F7"),                      # 04/U25
            MenuItem("Last-seen markers", "last_seen", "F8"),                             # 04/U29
            MenuItem("Simple / detailed pieces", "piece_set", "F9"),                      # 04/U24
            MenuItem("Big board only", "big_board_only", "F10"),                          # 04/U28
        ]),
        ("Undo", [
            MenuItem("Undo last action", "undo", "Ctrl+Z", ctx.can_undo and not ctx.competitive,  # U31
                     no_undo),
            MenuItem("Undo to the start of the turn", "undo_turn", "", ctx.can_undo and not ctx.competitive,
                     no_undo),
        ]),
        ("Actions", [
            MenuItem("Move: click a piece, then a yellow square", "hint_move", "", ctx.my_turn),  # U33
            MenuItem("Fire: right-click a piece (or F)", "hint_fire", "", ctx.my_turn),          # U37
            MenuItem("End Turn", "end_turn", "E", ctx.can_end_turn,                               # U32
                     "make your Move first (04/U32)"),
        ]),
    ]
