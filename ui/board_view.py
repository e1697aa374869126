"""Pure renderer of the board: ``draw_board(surface, view, ...)`` (STYLE "Modules, UI").

Depends only on its arguments, like python-chess ``chess.svg.board``. It draws a
``PlayerView``, so an enemy piece hidden from the viewer (RUL-18, 04/U45) is never drawn: the
renderer cannot see it. It returns the list of tokens it drew so tests can check exactly that.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

import pygame

from engine.view import PlayerView

from . import theme
from .layout import LAYOUT, Layout, cell_rect, level_rect

__all__ = ["DrawnToken", "draw_board", "piece_label"]

Cell = tuple[int, int]


class DrawnToken(NamedTuple):
    """One thing drawn on the board: what it was and where."""

    what: str          # "piece", "article" or "projectile"
    text: str
    side: str          # "B", "W" or "" (ground articles)
    row: int
    col: int
    level: str
    rect: pygame.Rect


def piece_label(kind: str, hand: str, n_articles: int, stun: int) -> str:
    """04/H11 token with hand mark, then ``+n`` held articles and ``sN`` stun (04/U44)."""
    text = kind + hand
    if n_articles:
        text += f"+{n_articles}"
    if stun:
        text += f"s{stun}"
    return text


def draw_board(surface: pygame.Surface, view: PlayerView, selection: Cell | None = None,
               highlights: Iterable[Cell] = (), cursor: Cell | None = None,
               lay: Layout = LAYOUT, reinforcements: bool = True) -> list[DrawnToken]:
    """Draw ``view`` from ``view.player``'s seat; returns every token drawn, in drawing order.

    02/§2.1 square colours; 04/U44 level colours, yellow highlights and yellow stun counters;
    04/U25 a corner mark on each square holding a reinforcement (not its type), if asked;
    Air top strip, Ground middle, Sub bottom; White's view is Black's rotated 180°.
    """
    viewer = view.player
    surface.blit(_background(viewer, lay), (lay.board_x, lay.board_y))
    _labels(surface, viewer, lay)
    if reinforcements:
        for r in view.reinforcements:
            rect = cell_rect(r.row, r.col, viewer, lay)
            corner = [rect.topright, (rect.right - 12, rect.top), (rect.right, rect.top + 12)]
            pygame.draw.polygon(surface, theme.REINFORCEMENT[r.side], corner)
    for row, col in highlights:
        pygame.draw.rect(surface, theme.HIGHLIGHT, cell_rect(row, col, viewer, lay), 3)
    if selection is not None:
        pygame.draw.rect(surface, theme.SELECTED, cell_rect(*selection, viewer, lay), 3)
    if cursor is not None:
        pygame.draw.rect(surface, theme.CURSOR, cell_rect(*cursor, viewer, lay).inflate(-6, -6), 1)
    drawn: list[DrawnToken] = []
    for (row, col, level), items in sorted(_tokens(view).items()):
        strip = level_rect(cell_rect(row, col, viewer, lay), level, lay)
        drawn += _strip(surface, strip, row, col, level, items)
    return drawn


# -- helpers -----------------------------------------------------------------------------------

_Item = tuple[str, str, str, int]      # (what, text, side, stun)


def _tokens(view: PlayerView) -> dict[tuple[int, int, str], list[_Item]]:
    out: dict[tuple[int, int, str], list[_Item]] = defaultdict(list)
    for p in view.own:
        out[p.row, p.col, p.level].append(
            ("piece", piece_label(p.kind, p.hand, len(p.codes), p.stun), p.side, p.stun))
    for s in view.seen:
        out[s.row, s.col, s.level].append(
            ("piece", piece_label(s.kind, s.hand, len(s.codes), s.stun), s.side, s.stun))
    for g in view.ground:
        out[g.row, g.col, "G"].append(("article", g.code, "", 0))
    for pr in view.projectiles:
        out[pr.row, pr.col, pr.level].append(("projectile", "*" + pr.kind, pr.side, 0))
    return out


def _labels(surface: pygame.Surface, viewer: str, lay: Layout) -> None:
    """04/U71: row numbers on the left edge, column numbers along the top, as ``viewer`` sits."""
    for n in range(1, 11):
        row_rect, col_rect = cell_rect(n, 1, viewer, lay), cell_rect(1, n, viewer, lay)
        img = theme.text(16, str(n), theme.DIM)
        surface.blit(img, img.get_rect(midright=(lay.board_x - 4, row_rect.centery)))
        surface.blit(img, img.get_rect(midbottom=(col_rect.centerx, lay.board_y - 2)))


_BACKGROUNDS: dict[tuple[str, Layout], pygame.Surface] = {}


def _background(viewer: str, lay: Layout) -> pygame.Surface:
    """The empty board as ``viewer`` sees it, drawn once per viewer and layout."""
    key = (viewer, lay)
    if key not in _BACKGROUNDS:
        board = pygame.Surface((lay.board_size, lay.board_size))
        shifted = lay._replace(board_x=0, board_y=0)
        for row in range(1, 11):
            for col in range(1, 11):
                _square(board, cell_rect(row, col, viewer, shifted), row, col, shifted)
        _BACKGROUNDS[key] = board
    return _BACKGROUNDS[key]


def _square(surface: pygame.Surface, rect: pygame.Rect, row: int, col: int, lay: Layout) -> None:
    surface.fill(theme.square_colour(row, col), rect)
    air, sub = level_rect(rect, "A", lay), level_rect(rect, "S", lay)
    pygame.draw.line(surface, theme.STRIP_LINE, air.bottomleft, (air.right - 1, air.bottom))
    pygame.draw.line(surface, theme.STRIP_LINE, sub.topleft, (sub.right - 1, sub.top))


_STRIPS: dict[tuple[int, int, str, tuple[_Item, ...]], tuple[pygame.Surface, list[pygame.Rect]]] = {}


def _strip(surface: pygame.Surface, strip: pygame.Rect, row: int, col: int, level: str,
           items: list[_Item]) -> list[DrawnToken]:
    """Blit the strip's tokens, drawn once per content and cached (issue 12 item 7)."""
    key = (strip.width, strip.height, level, tuple(items))
    cached = _STRIPS.get(key)
    if cached is None:
        if len(_STRIPS) >= 2048:
            _STRIPS.clear()
        image = pygame.Surface(strip.size, pygame.SRCALPHA)
        local, x, rects = image.get_rect(), 0, []
        size = 15 if len(items) <= 2 else 12
        for what, text, side, stun in items:
            rect = _token(image, local, x, what, text, side, level, size, stun)
            rects.append(rect)
            x = rect.right + 1
        cached = _STRIPS[key] = (image, rects)
    image, rects = cached
    surface.blit(image, strip.topleft)
    return [DrawnToken(what, text, side, row, col, level, r.move(strip.x, strip.y))
            for (what, text, side, _), r in zip(items, rects)]


def _token(surface: pygame.Surface, strip: pygame.Rect, x: int, what: str, text: str,
           side: str, level: str, size: int, stun: int = 0) -> pygame.Rect:
    size = size if what == "piece" else size - 2
    mark = f"s{stun}" if stun else ""
    text = text[:len(text) - len(mark)]
    if what == "piece":
        fg, bg = theme.PIECE_TEXT[side], theme.PIECE_FILL[side, level]
    else:
        fg, bg = (theme.ARTICLE if what == "article" else theme.PROJECTILE), None
    img = theme.text(size, text, fg)
    stun_img = theme.text(size, mark, theme.STUN) if mark else None     # 04/U44: stun in yellow
    width = img.get_width() + (stun_img.get_width() if stun_img else 0)
    rect = pygame.Rect(x, strip.y, width + 4, strip.height)
    rect = rect.clip(strip) if rect.right > strip.right else rect
    old_clip = surface.get_clip()
    surface.set_clip(strip)
    if bg is not None:
        pygame.draw.rect(surface, bg, rect, border_radius=3)
        pygame.draw.rect(surface, theme.STRIP_LINE, rect, 1, border_radius=3)
    y = rect.y + (rect.height - img.get_height()) // 2
    surface.blit(img, (rect.x + 2, y))
    if stun_img is not None:
        surface.blit(stun_img, (rect.x + 2 + img.get_width(), y))
    surface.set_clip(old_clip)
    return rect
