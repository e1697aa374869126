"""Screen geometry: where each square is drawn for a viewer, and which square a pixel is in.

04/U4: a task bar across the top, the large board in the centre-left, panels on the right.
02/§2.1 and 04/U71: row 1 is Black's back rank, columns count to Black's right. Each player
sees the board from their own seat: Black at the bottom in Black's view; White's view is the
same board rotated 180°.
"""
from __future__ import annotations

from typing import NamedTuple

import pygame

__all__ = ["Layout", "LAYOUT", "cell_rect", "cell_at", "level_rect"]


class Layout(NamedTuple):
    """Pixel geometry of the game screen."""

    width: int = 1366
    height: int = 768
    bar: int = 28                     # the task bar's height (04/U4)
    board_x: int = 34                 # room for the row labels (04/U71)
    board_y: int = 50                 # room for the column labels
    cell: int = 64
    margin: int = 3                   # a border of pure square colour around each cell
    panel_x: int = 680
    menus: int = 560                  # the menu buttons' width at the left of the task bar

    @property
    def board_size(self) -> int:
        """Pixel width (and height) of the 10x10 board."""
        return self.cell * 10


LAYOUT = Layout()
AIR_SHARE, GROUND_SHARE = 0.27, 0.46    # Air top strip, Ground middle, Sub bottom (rest)


def cell_rect(row: int, col: int, viewer: str, lay: Layout = LAYOUT) -> pygame.Rect:
    """The screen rectangle of square (row, col) as ``viewer`` ("B"/"W") sees the board."""
    if viewer == "W":
        x, y = lay.board_x + (10 - col) * lay.cell, lay.board_y + (row - 1) * lay.cell
    else:
        x, y = lay.board_x + (col - 1) * lay.cell, lay.board_y + (10 - row) * lay.cell
    return pygame.Rect(x, y, lay.cell, lay.cell)


def cell_at(pos: tuple[int, int], viewer: str, lay: Layout = LAYOUT) -> tuple[int, int] | None:
    """The (row, col) under pixel ``pos`` in ``viewer``'s view, or None off the board."""
    dx, dy = pos[0] - lay.board_x, pos[1] - lay.board_y
    if not (0 <= dx < lay.board_size and 0 <= dy < lay.board_size):
        return None
    i, j = dx // lay.cell, dy // lay.cell
    if viewer == "W":
        return j + 1, 10 - i
    return 10 - j, i + 1


def level_rect(cell: pygame.Rect, level: str, lay: Layout = LAYOUT) -> pygame.Rect:
    """The strip of ``cell`` for ``level``: Air top, Ground middle, Sub bottom (03/M1 levels)."""
    inner = cell.inflate(-2 * lay.margin, -2 * lay.margin)
    air = int(inner.height * AIR_SHARE)
    ground = int(inner.height * GROUND_SHARE)
    if level == "A":
        return pygame.Rect(inner.x, inner.y, inner.width, air)
    if level == "G":
        return pygame.Rect(inner.x, inner.y + air, inner.width, ground)
    return pygame.Rect(inner.x, inner.y + air + ground, inner.width, inner.height - air - ground)
