"""Pure renderer of the board: ``draw_board(surface, view, ...)`` (STYLE "Modules, UI").

Depends only on its arguments, like python-chess ``chess.svg.board``. It draws a
``PlayerView``, so an enemy piece hidden from the viewer (RUL-18, 04/U45) is never drawn: the
renderer cannot see it. It returns the list of tokens it drew so tests can check exactly that.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pygame

from engine.view import PlayerView

from . import art, theme
from .layout import LAYOUT, Layout, cell_rect, level_rect

__all__ = ["DrawnToken", "draw_board", "drawn_over", "edges", "piece_label"]

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
               lay: Layout = LAYOUT, reinforcements: bool = True,
               piece_set: str = "simple", damage: Sequence[pygame.Rect] | None = None) -> list[DrawnToken]:
    """Draw ``view`` from ``view.player``'s seat; returns every token drawn, in drawing order.

    02/§2.1 square colours; 04/U44 level colours, yellow highlights and yellow stun counters;
    04/U25 a corner mark on each square holding a reinforcement (not its type), if asked;
    Air top strip, Ground middle, Sub bottom; White's view is Black's rotated 180°.

    ``damage`` None draws the whole board (on a background the caller filled). A list says that
    ``surface`` still holds what the last ``draw_board`` on it left there, with whatever
    ``drawn_over`` reported since, except inside those rectangles; the caller then leaves the
    board and its ``edges`` alone, and only the squares whose contents changed, the marks drawn
    last time and the damaged parts are drawn again (issue 12 item 7); the picture is the same.
    """
    viewer = view.player
    tokens = _tokens(view)
    marks = tuple((r.row, r.col, r.side) for r in view.reinforcements) if reinforcements else ()
    layer, drawn = _composed(viewer, lay, tokens, marks, piece_set)
    cells = _LAST[viewer, lay, marks, piece_set][0]
    area = pygame.Rect(lay.board_x, lay.board_y, lay.board_size, lay.board_size)
    memo = _SCREENS.get(id(surface))
    labels = True
    if damage is not None and memo is not None and memo.surface is surface and memo.layer is layer \
            and memo.area == area:
        old = memo.cells
        stale = [cell_rect(*c, viewer, lay).inflate(2, 2)          # a corner mark reaches 1 px over
                 for c in old.keys() | cells.keys() if old.get(c) != cells.get(c)]
        for rect in (*stale, *memo.over, *damage):
            part = rect.clip(area)
            if part:
                surface.blit(layer, part, part.move(-area.x, -area.y))
        labels = any(r.collidelist(edges(lay)) >= 0 for r in (*memo.over, *damage))
    else:
        surface.blit(layer, area.topleft)
    if labels and damage is not None:          # the caller left the edges to us
        for part in edges(lay):
            surface.fill(theme.BACKGROUND, part)
    if len(_SCREENS) >= 4 and id(surface) not in _SCREENS:
        _SCREENS.clear()
    over: list[pygame.Rect] = []
    _SCREENS[id(surface)] = _OnScreen(surface, layer, cells, area, over)
    if labels:
        _labels(surface, viewer, lay)
    for row, col in highlights:
        over.append(pygame.draw.rect(surface, theme.HIGHLIGHT, cell_rect(row, col, viewer, lay), 3))
    if selection is not None:
        over.append(pygame.draw.rect(surface, theme.SELECTED, cell_rect(*selection, viewer, lay), 3))
    if cursor is not None:
        over.append(pygame.draw.rect(surface, theme.CURSOR, cell_rect(*cursor, viewer, lay).inflate(-6, -6), 1))
    return list(drawn)


def edges(lay: Layout = LAYOUT) -> list[pygame.Rect]:
    """Where the row and column labels go (04/U71): the band between the task bar and the
    board, the full width of the window, and the column left of the board. ``draw_board``
    with ``damage`` fills them (background) and labels them itself, or leaves them as they are
    when nothing was drawn over them."""
    return [pygame.Rect(0, lay.bar, lay.width, lay.board_y - lay.bar),
            pygame.Rect(0, lay.board_y, lay.board_x, lay.board_size)]


def drawn_over(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The caller drew over ``rect`` of the board it last drew on ``surface`` (a marker, a
    line, a box): the next ``draw_board`` with ``damage`` draws that part again."""
    memo = _SCREENS.get(id(surface))
    if memo is not None and memo.surface is surface:
        memo.over.append(pygame.Rect(rect))


class _OnScreen(NamedTuple):
    """What the last ``draw_board`` left on a surface: the layer and its contents then, and the
    rectangles drawn over the board since."""

    surface: pygame.Surface
    layer: pygame.Surface
    cells: dict[Cell, Any]
    area: pygame.Rect
    over: list[pygame.Rect]


_SCREENS: dict[int, _OnScreen] = {}


#: per seat, layout, marks and piece set: the tokens object last composed, the layer, the tokens drawn
_COMPOSED: dict[tuple[Any, ...], tuple[Any, pygame.Surface, tuple[DrawnToken, ...]]] = {}
_LAST: dict[tuple[Any, ...], tuple[dict[Cell, Any], pygame.Surface, dict[Cell, list[DrawnToken]]]] = {}


def _by_cell(tokens: dict[tuple[int, int, str], list[_Item]]) -> dict[Cell, list[tuple[str, tuple[_Item, ...]]]]:
    """Each square's strips in level order (Air, Ground, Sub) with their tokens."""
    out: dict[Cell, list[tuple[str, tuple[_Item, ...]]]] = {}
    for (row, col, level), items in tokens.items():
        strips = out.get((row, col))
        if strips is None:
            out[row, col] = [(level, tuple(items))]
        else:
            strips.append((level, tuple(items)))
            strips.sort(key=_level_of)
    return out


def _level_of(strip: tuple[str, Any]) -> str:
    return strip[0]


def _composed(viewer: str, lay: Layout, tokens: dict[tuple[int, int, str], list[_Item]],
              marks: tuple[tuple[int, int, str], ...], piece_set: str) -> tuple[pygame.Surface, tuple[DrawnToken, ...]]:
    """The board with its squares, reinforcement marks and every token. A frame of the same
    view (a selection, a highlight or the hover box changed) reuses it whole; after an action
    only the squares whose contents changed are drawn again (issue 12 item 7)."""
    base = (viewer, lay, marks, piece_set)
    cached = _COMPOSED.get(base)
    if cached is not None and cached[0] is tokens:
        return cached[1], cached[2]
    by_cell = _by_cell(tokens)
    previous = _LAST.get(base)
    if previous is None:
        layer, drawn_at, changed = _background(viewer, lay).copy(), {}, set(by_cell)
        changed |= {(r, c) for r, c, _ in marks}
    else:
        old_cells, layer, old_drawn = previous
        drawn_at = dict(old_drawn)
        changed = {c for c in old_cells.keys() | by_cell.keys() if old_cells.get(c) != by_cell.get(c)}
    local = lay._replace(board_x=0, board_y=0)
    mark_at = {(r, c): side for r, c, side in marks}
    for cell in sorted(changed):
        rect = cell_rect(*cell, viewer, local)
        layer.blit(_background(viewer, lay), rect, rect)
        if cell in mark_at:
            corner = [rect.topright, (rect.right - 12, rect.top), (rect.right, rect.top + 12)]
            pygame.draw.polygon(layer, theme.REINFORCEMENT[mark_at[cell]], corner)
        drawn_at[cell] = []
        for level, items in by_cell.get(cell, ()):
            strip = level_rect(rect, level, local)
            drawn_at[cell] += _strip(layer, strip, *cell, level, list(items), viewer, piece_set,
                                     (lay.board_x, lay.board_y))
    if base not in _LAST and len(_LAST) >= 4:
        _LAST.clear()                        # a few seats and mark sets at most (editor edits)
        _COMPOSED.clear()
    _LAST[base] = (by_cell, layer, drawn_at)
    drawn = tuple(d for cell in sorted(drawn_at) for d in drawn_at[cell])
    _COMPOSED[base] = (tokens, layer, drawn)
    return layer, drawn


# -- helpers -----------------------------------------------------------------------------------

_Item = tuple[str, str, str, int, tuple[object, ...]]   # (what, text, side, stun, picture key)


_LAST_TOKENS: list[Any] = [None, None]        # (view, its tokens): frames of one view share them


def _tokens(view: PlayerView) -> dict[tuple[int, int, str], list[_Item]]:
    """What each strip holds (worked out once per view object)."""
    if _LAST_TOKENS[0] is view:
        return _LAST_TOKENS[1]  # type: ignore[no-any-return]
    out = _tokens_of(view)
    _LAST_TOKENS[:] = [view, out]
    return out


def _tokens_of(view: PlayerView) -> dict[tuple[int, int, str], list[_Item]]:
    """What each strip holds, with what its picture needs: a piece's kind, hand, carried
    articles and the turns until its next weapon is ready (RUL-6); a projectile's heading."""
    out: dict[tuple[int, int, str], list[_Item]] = defaultdict(list)
    ply = view.ply
    for p in (*view.own, *view.seen):
        out[p.row, p.col, p.level].append(_piece_item(p, ply))
    for g in view.ground:
        item = _ARTICLE_ITEMS.get(g.code)
        if item is None:
            item = _ARTICLE_ITEMS[g.code] = ("article", g.code, "", 0, (g.code,))
        out[g.row, g.col, "G"].append(item)
    for pr in view.projectiles:
        out[pr.row, pr.col, pr.level].append(("projectile", "*" + pr.kind, pr.side, 0,
                                              (pr.kind, pr.dr, pr.dc, pr.homing)))
    return out


_ARTICLE_ITEMS: dict[str, _Item] = {}         # an article on the ground: the same token for a code


def _piece_item(p: Any, ply: int) -> _Item:
    codes, stun = tuple(p.codes), p.stun
    return ("piece", piece_label(p.kind, p.hand, len(codes), stun), p.side, stun,
            (p.kind, p.hand, codes, _reload(p, ply)))


def _reload(p: Any, ply: int) -> int:
    """Turns until the piece's first reloading weapon is ready again (0: none reloading)."""
    first = 0
    for _, r in getattr(p, "ready", ()):
        if r > ply and (not first or r < first):
            first = r
    for r in getattr(p, "art_ready", ()):
        if r > ply and (not first or r < first):
            first = r
    return first - ply if first else 0


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


_STRIPS: dict[tuple[Any, ...], tuple[pygame.Surface, list[pygame.Rect]]] = {}


def _strip(surface: pygame.Surface, strip: pygame.Rect, row: int, col: int, level: str,
           items: list[_Item], viewer: str, piece_set: str,
           offset: tuple[int, int] = (0, 0)) -> list[DrawnToken]:
    """Blit the strip's tokens, drawn once per content and cached (issue 12 item 7)."""
    key = (strip.width, strip.height, level, tuple(items), viewer, piece_set)
    cached = _STRIPS.get(key)
    if cached is None:
        if len(_STRIPS) >= 2048:
            _STRIPS.clear()
        image = pygame.Surface(strip.size, pygame.SRCALPHA)
        rects, x = [], 0
        size = strip.height - 1
        right = strip.width                    # ground articles line up from the right
        for item in items:
            if item[0] == "article":
                icon = art.article_icon(str(item[4][0]), max(8, int(size * 0.6)))
                right -= icon.get_width() + 1
                rect = image.blit(icon, (max(x, right), (size - icon.get_height()) // 2 + 1))
            else:
                rect = _picture(image, x, size, item, level, viewer, piece_set)
                x = rect.right + 1
            rects.append(rect)
        if pygame.display.get_surface() is not None:
            image = image.convert_alpha()          # the display's format blits several times faster
        cached = _STRIPS[key] = (image, rects)
    image, rects = cached
    surface.blit(image, strip.topleft)
    dx, dy = strip.x + offset[0], strip.y + offset[1]
    return [DrawnToken(what, text, side, row, col, level, r.move(dx, dy))
            for (what, text, side, _, _), r in zip(items, rects)]


def _picture(surface: pygame.Surface, x: int, size: int, item: _Item, level: str, viewer: str,
             piece_set: str) -> pygame.Rect:
    """One token as a picture (04/U24): a piece with its carried articles as small icons, its
    stun counter (yellow) and reload countdown (cyan) as badges (04/U44); an article icon; a
    projectile pointing its way (RUL-15), ringed when homing (RUL-16)."""
    what, _, side, stun, key = item
    if what == "projectile":
        kind, dr, dc, homing = key
        return surface.blit(art.projectile_icon(str(kind), side, int(dr), int(dc), size, viewer, bool(homing)), (x, 0))  # type: ignore[call-overload]
    kind, hand, codes, wait = key
    rect = surface.blit(art.piece_image(str(kind), side, level, str(hand), size, piece_set), (x, 0))
    small = max(6, size // 2 - 1)
    for i, code in enumerate(codes):                                   # type: ignore[attr-defined]
        rect = rect.union(surface.blit(art.article_icon(code, small), (rect.right, (i % 2) * (small + 1))))
    if stun:
        b = art.badge(str(stun), max(8, size // 2), art.STUN_COLOUR)
        surface.blit(b, (x + size - b.get_width() // 2 - 2, size - b.get_height()))
    if wait:
        b = art.badge(str(wait), max(8, size // 2), art.RATE_COLOUR)
        surface.blit(b, (x, 0))
    return rect
