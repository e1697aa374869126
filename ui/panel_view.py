"""Pure renderers of everything around the board: task bar, side panel, status, privacy.

04/U4: menus across the top, panels on the right; 04/U26: the history in WEC notation (the
caller passes ``history_for`` of the viewer, RUL-37). Hit rectangles come from the same
functions the scene uses to read clicks, so drawing and clicking always agree.
"""
from __future__ import annotations

from collections.abc import Sequence

import pygame

from . import theme
from .layout import LAYOUT, Layout

__all__ = ["BAR_ITEMS", "LIST_ROWS", "end_button", "list_row_rect", "draw_bar", "draw_panel",
           "draw_status", "draw_privacy"]

BAR_ITEMS = ("Move: left-click", "Fire: right-click / F", "End Turn: E", "Undo: Z",
             "Cancel: Esc", "Quit: Q")
LIST_ROWS = 14
ROW_H = 18


def end_button(lay: Layout = LAYOUT) -> pygame.Rect:
    """The End Turn button (04/U42)."""
    return pygame.Rect(lay.panel_x, lay.board_y, 120, 26)


def list_row_rect(i: int, lay: Layout = LAYOUT) -> pygame.Rect:
    """Screen row ``i`` (0-based, of LIST_ROWS) of the action list."""
    return pygame.Rect(lay.panel_x, lay.board_y + 56 + i * ROW_H, lay.width - lay.panel_x - 10, ROW_H)


def draw_bar(surface: pygame.Surface, title: str, lay: Layout = LAYOUT) -> None:
    """04/U4, U32: the task bar with the turn actions and their keys."""
    surface.fill(theme.BAR, pygame.Rect(0, 0, lay.width, lay.bar))
    text = title + "   |   " + "   ".join(BAR_ITEMS)
    surface.blit(theme.text(18, text, theme.TEXT), (8, 7))


def draw_panel(surface: pygame.Surface, heading: str, items: Sequence[str], cursor: int,
               top: int, can_end: bool, history: Sequence[str], lay: Layout = LAYOUT) -> None:
    """The End Turn button, the action list (rows ``top``.. with ``cursor`` marked) and history."""
    button = end_button(lay)
    pygame.draw.rect(surface, theme.HIGHLIGHT if can_end else theme.DIM, button, border_radius=4)
    surface.blit(theme.text(20, "End Turn (E)", (0, 0, 0)), (button.x + 8, button.y + 5))
    surface.blit(theme.text(18, heading, theme.TEXT), (lay.panel_x, lay.board_y + 36))
    for i, text in enumerate(items[top:top + LIST_ROWS]):
        rect = list_row_rect(i, lay)
        if top + i == cursor:
            pygame.draw.rect(surface, theme.BAR, rect)
        surface.blit(theme.text(18, theme.fit(18, text, rect.width - 8), theme.TEXT), (rect.x + 4, rect.y + 2))
    y = list_row_rect(LIST_ROWS, lay).y + 12
    surface.blit(theme.text(18, "History (04/U26)", theme.DIM), (lay.panel_x, y))
    shown = list(history)[-(max(1, (lay.height - y - 50) // 16)):]
    for j, line in enumerate(shown):
        text = theme.fit(16, line, lay.width - lay.panel_x - 10)
        surface.blit(theme.text(16, text, theme.TEXT), (lay.panel_x, y + 20 + j * 16))


def draw_status(surface: pygame.Surface, text: str, error: bool, lay: Layout = LAYOUT) -> None:
    """The status line under the board: the last RuleError's message, or a hint."""
    y = lay.board_y + lay.board_size + 8
    colour = theme.ERROR if error else theme.TEXT
    surface.blit(theme.text(20, text, colour), (lay.board_x, y))


def draw_privacy(surface: pygame.Surface, side_name: str, lay: Layout = LAYOUT) -> None:
    """Hotseat privacy screen (04/U17): nothing of the position, only whose turn it is."""
    surface.fill((0, 0, 0))
    f = theme.font(40)
    img = f.render(f"Pass the laptop to {side_name} — press any key", True, theme.TEXT)
    surface.blit(img, img.get_rect(center=(lay.width // 2, lay.height // 2)))

