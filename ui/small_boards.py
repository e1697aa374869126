"""The three small boards (04/U4): one per level, Air, Ground and Sub, beside the big board.

Pure renderer of a ``PlayerView``: a dot for each own or seen piece on that level (04/U44
colours), a small mark for projectiles, and the selected square outlined. "Big board only"
(04/U28) simply does not call it. Nothing hidden from the viewer is drawn (RUL-18).
"""
from __future__ import annotations

import pygame

from engine.view import PlayerView

from . import theme
from .layout import LAYOUT, Layout

__all__ = ["SMALL_CELL", "small_boards_rect", "draw_small_boards"]

SMALL_CELL = 10
_LEVELS = (("A", "Air"), ("G", "Ground"), ("S", "Sub"))
_GAP = 12
_MUTED = ((120, 120, 112), (70, 72, 78))      # the squares, quieter than the pieces


def small_boards_rect(lay: Layout = LAYOUT) -> pygame.Rect:
    """Where the three boards and their captions go: the panel's top right."""
    w = 3 * 10 * SMALL_CELL + 2 * _GAP
    return pygame.Rect(lay.width - w - 10, lay.board_y, w, 10 * SMALL_CELL + 18)


def draw_small_boards(surface: pygame.Surface, view: PlayerView, selection: tuple[int, int] | None = None,
                      lay: Layout = LAYOUT) -> list[tuple[str, int, int, str]]:
    """Draw the three level boards from ``view.player``'s seat; returns (level, row, col, side)
    of every dot drawn, for tests. Each level's picture is made once per content and reused
    (a Move usually changes one level: issue 12 item 7)."""
    area = small_boards_rect(lay)
    dots = tuple(sorted({(p.level, p.row, p.col, p.side) for p in view.own} |
                        {(s.level, s.row, s.col, s.side) for s in view.seen}))
    shots = tuple(sorted((pr.level, pr.row, pr.col) for pr in view.projectiles))
    surface.fill(theme.BACKGROUND, area)
    for i, (level, name) in enumerate(_LEVELS):
        key = (view.player, level, tuple(d for d in dots if d[0] == level),
               tuple(s for s in shots if s[0] == level), selection, area.height)
        image = _PICTURES.get(key)
        if image is None:
            if len(_PICTURES) >= 96:
                _PICTURES.clear()
            image = _PICTURES[key] = _picture(view.player, name, key[2], key[3], selection, area.height)
        surface.blit(image, (area.x + i * (10 * SMALL_CELL + _GAP), area.y))
    return [(lv, r, c, side) for lv, r, c, side in dots]


_PICTURES: dict[tuple[object, ...], pygame.Surface] = {}


def _picture(viewer: str, name: str, dots: tuple[tuple[str, int, int, str], ...],
             shots: tuple[tuple[str, int, int], ...], selection: tuple[int, int] | None,
             height: int) -> pygame.Surface:
    """One level's board with its caption, dots, projectile marks and the selected square."""
    image = pygame.Surface((10 * SMALL_CELL, height))
    image.fill(theme.BACKGROUND)
    image.blit(theme.text(14, name, theme.DIM), (0, 0))
    top = 16
    image.blit(_empty_board(), (0, top))
    for level, row, col, side in dots:
        centre = _cell(0, top, row, col, viewer).center
        pygame.draw.circle(image, theme.PIECE_FILL[side, level], centre, 4)
        pygame.draw.circle(image, theme.STRIP_LINE, centre, 4, 1)
    for _, row, col in shots:
        pygame.draw.circle(image, theme.PROJECTILE, _cell(0, top, row, col, viewer).center, 2)
    if selection is not None:
        pygame.draw.rect(image, theme.SELECTED, _cell(0, top, *selection, viewer), 1)
    return image


_EMPTY: list[pygame.Surface] = []


def _empty_board() -> pygame.Surface:
    """One small empty board, drawn once (the squares' pattern is the same from both seats)."""
    if not _EMPTY:
        board = pygame.Surface((10 * SMALL_CELL, 10 * SMALL_CELL))
        for row in range(1, 11):
            for col in range(1, 11):
                board.fill(_MUTED[(row + col) % 2], _cell(0, 0, row, col, "B"))
        _EMPTY.append(board)
    return _EMPTY[0]


def _cell(x: int, top: int, row: int, col: int, viewer: str) -> pygame.Rect:
    if viewer == "W":
        return pygame.Rect(x + (10 - col) * SMALL_CELL, top + (row - 1) * SMALL_CELL, SMALL_CELL, SMALL_CELL)
    return pygame.Rect(x + (col - 1) * SMALL_CELL, top + (10 - row) * SMALL_CELL, SMALL_CELL, SMALL_CELL)
