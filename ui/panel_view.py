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
from .words import split_rule

__all__ = ["BAR_ITEMS", "LIST_ROWS", "HISTORY_ROW", "end_button", "list_row_rect", "history_rect",
           "wrapped_history", "draw_bar", "draw_panel", "draw_status", "draw_privacy", "draw_progress"]

BAR_ITEMS = ("End Turn: E", "Undo: Z", "Cancel: Esc", "Words/notation: N")
LIST_ROWS = 12
ROW_H = 18
LIST_TOP = 146                  # below the End Turn button and the small boards (04/U4)


def end_button(lay: Layout = LAYOUT) -> pygame.Rect:
    """The End Turn button (04/U42)."""
    return pygame.Rect(lay.panel_x, lay.board_y, 120, 26)


def list_row_rect(i: int, lay: Layout = LAYOUT) -> pygame.Rect:
    """Screen row ``i`` (0-based, of LIST_ROWS) of the action list."""
    return pygame.Rect(lay.panel_x, lay.board_y + LIST_TOP + i * ROW_H, lay.width - lay.panel_x - 10, ROW_H)


def draw_bar(surface: pygame.Surface, title: str, lay: Layout = LAYOUT) -> None:
    """04/U4, U32: the task bar with the turn actions and their keys."""
    surface.fill(theme.BAR, pygame.Rect(0, 0, lay.width, lay.bar))
    text = theme.fit(18, title + "   |   " + "   ".join(BAR_ITEMS), lay.width - lay.menus - 16)
    surface.blit(theme.text(18, text, theme.TEXT), (lay.menus + 8, 7))


def draw_panel(surface: pygame.Surface, heading: str, items: Sequence[str], cursor: int,
               top: int, can_end: bool, history: Sequence[str], lay: Layout = LAYOUT,
               history_top: int | None = None, history_title: str = "History") -> None:
    """The End Turn button, the action list (rows ``top``.. with ``cursor`` marked) and the
    history, wrapped to whole lines; ``history_top`` is the first wrapped row shown (None: the
    newest rows)."""
    button = end_button(lay)
    pygame.draw.rect(surface, theme.HIGHLIGHT if can_end else theme.DIM, button, border_radius=4)
    surface.blit(theme.text(20, "End Turn (E)", (0, 0, 0)), (button.x + 8, button.y + 5))
    surface.blit(theme.text(18, heading, theme.TEXT), (lay.panel_x, lay.board_y + LIST_TOP - 20))
    for i, text in enumerate(items[top:top + LIST_ROWS]):
        rect = list_row_rect(i, lay)
        if top + i == cursor:
            pygame.draw.rect(surface, theme.BAR, rect)
        surface.blit(theme.text(18, theme.fit(18, text, rect.width - 8), theme.TEXT), (rect.x + 4, rect.y + 2))
    if len(items) > LIST_ROWS:
        more = f"{top + 1}-{min(len(items), top + LIST_ROWS)} of {len(items)} (wheel / PgUp PgDn)"
        surface.blit(theme.text(16, more, theme.DIM), (lay.panel_x + 330, lay.board_y + LIST_TOP - 18))
    area = history_rect(lay)
    rows = wrapped_history(history, area.width)
    visible = area.height // HISTORY_ROW
    first = max(0, len(rows) - visible) if history_top is None else max(0, min(history_top, len(rows) - visible))
    title = f"{history_title} ({first + 1}-{min(len(rows), first + visible)} of {len(rows)} rows)" if rows \
        else history_title
    surface.blit(theme.text(18, title, theme.DIM), (area.x, area.y - 20))
    for j, (indent, line) in enumerate(rows[first:first + visible]):
        surface.blit(theme.text(16, line, theme.TEXT), (area.x + indent, area.y + j * HISTORY_ROW))


HISTORY_ROW = 16


def history_rect(lay: Layout = LAYOUT) -> pygame.Rect:
    """Where the history rows are drawn (and where the mouse wheel scrolls them)."""
    y = list_row_rect(LIST_ROWS, lay).y + 32
    return pygame.Rect(lay.panel_x, y, lay.width - lay.panel_x - 10, lay.height - y - 8)


_WRAPS: dict[tuple[str, int], list[tuple[int, str]]] = {}


def wrapped_history(lines: Sequence[str], width: int) -> list[tuple[int, str]]:
    """Every history line as whole rows of at most ``width`` pixels: (indent, text) pairs,
    continuation rows indented; lines break after a comma, a semicolon or a space."""
    out: list[tuple[int, str]] = []
    for line in lines:
        key = (line, width)
        if key not in _WRAPS:
            if len(_WRAPS) > 4096:
                _WRAPS.clear()
            _WRAPS[key] = _wrap(line, width)
        out += _WRAPS[key]
    return out


def _wrap(line: str, width: int) -> list[tuple[int, str]]:
    f, rows, indent = theme.font(16), [], 0
    while line:
        room = width - indent
        if f.size(line)[0] <= room:
            rows.append((indent, line))
            break
        cut = _break_at(f, line, room)
        rows.append((indent, line[:cut]))
        line, indent = line[cut:].lstrip(" "), 14
    return rows


def _break_at(f: pygame.font.Font, line: str, room: int) -> int:
    """The longest prefix that fits ``room``, ending after a , ; or space when there is one."""
    lo, hi = 1, len(line)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(line[:mid])[0] <= room:
            lo = mid
        else:
            hi = mid - 1
    depth, breaks = 0, []
    for i, ch in enumerate(line[:lo]):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ",; ":
            breaks.append(i + 1)           # never inside a square's "(row,col)"
    good = [b for b in breaks if b > lo - 60]
    return good[-1] if good else lo


def draw_status(surface: pygame.Surface, text: str, error: bool, lay: Layout = LAYOUT) -> None:
    """The status line under the board: the last refusal or a hint in words, and the rule it
    names in a smaller details line (issue 12 item 3: rule ids only in a details line)."""
    y = lay.board_y + lay.board_size + 8
    colour = theme.ERROR if error else theme.TEXT
    words, rule = split_rule(text)
    surface.blit(theme.text(20, theme.fit(20, words, lay.panel_x - lay.board_x - 8), colour), (lay.board_x, y))
    if rule:
        surface.blit(theme.text(16, f"details: rule {rule}", theme.DIM), (lay.board_x, y + 24))


def draw_privacy(surface: pygame.Surface, side_name: str, lay: Layout = LAYOUT) -> None:
    """Hotseat privacy screen (04/U17): nothing of the position, only whose turn it is."""
    surface.fill((0, 0, 0))
    f = theme.font(40)
    img = f.render(f"Pass the laptop to {side_name} — press any key", True, theme.TEXT)
    surface.blit(img, img.get_rect(center=(lay.width // 2, lay.height // 2)))



def draw_progress(surface: pygame.Surface, text: str, share: float, lay: Layout = LAYOUT) -> None:
    """A box in the middle of the screen: ``text`` over a bar filled to ``share`` (0..1)."""
    box = pygame.Rect(0, 0, 560, 90)
    box.center = (lay.width // 2, lay.height // 2)
    pygame.draw.rect(surface, theme.BAR, box, border_radius=8)
    surface.blit(theme.text(20, text, theme.TEXT), (box.x + 20, box.y + 16))
    bar = pygame.Rect(box.x + 20, box.y + 50, box.width - 40, 20)
    pygame.draw.rect(surface, theme.DIM, bar, 1)
    pygame.draw.rect(surface, theme.HIGHLIGHT, (bar.x, bar.y, int(bar.width * max(0.0, min(1.0, share))), bar.height))
