"""Colours and fonts of the front end (04/U22 would make these user preferences)."""
from __future__ import annotations

import pygame

Colour = tuple[int, int, int]

LIGHT_SQUARE: Colour = (236, 232, 214)       # 02/§2.1: white squares
DARK_SQUARE: Colour = (52, 56, 62)           # 02/§2.1: black squares (rank + file odd)
STRIP_LINE: Colour = (128, 128, 128)
HIGHLIGHT: Colour = (250, 220, 40)           # 04/U35, U44: yellow highlight
SELECTED: Colour = (255, 120, 0)
CURSOR: Colour = (0, 200, 255)
STUN: Colour = (255, 230, 0)                 # 04/U44: stun counter drawn in yellow
ARTICLE: Colour = (210, 120, 20)
PROJECTILE: Colour = (220, 30, 30)
BACKGROUND: Colour = (24, 26, 30)
TEXT: Colour = (230, 230, 230)
DIM: Colour = (150, 150, 150)
ERROR: Colour = (255, 110, 110)
BAR: Colour = (60, 64, 80)
REINFORCEMENT: dict[str, Colour] = {"B": (150, 60, 200), "W": (220, 160, 255)}   # 04/U25 corner marks

# 04/U44: Air pieces blue (dark for Black, lighter for White), Sub green likewise; Ground
# pieces ordinary black and white.
PIECE_FILL: dict[tuple[str, str], Colour] = {
    ("B", "A"): (20, 40, 150), ("W", "A"): (120, 170, 255),
    ("B", "S"): (0, 95, 35), ("W", "S"): (120, 215, 140),
    ("B", "G"): (16, 16, 16), ("W", "G"): (250, 250, 250),
}
PIECE_TEXT: dict[str, Colour] = {"B": (255, 255, 255), "W": (0, 0, 0)}


def square_colour(row: int, col: int) -> Colour:
    """02/§2.1: a square is black when rank + file is odd, white otherwise."""
    return DARK_SQUARE if (row + col) % 2 else LIGHT_SQUARE


_FONTS: dict[int, pygame.font.Font] = {}
_TEXTS: dict[tuple[int, str, Colour], pygame.Surface] = {}
_FITS: dict[tuple[int, str, int], str] = {}
_CACHE_MAX = 4096


def font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` (initialises the font module on first use; the cache
    is dropped by ``pygame.quit()``, since a Font used after it crashes SDL_ttf)."""
    if not pygame.font.get_init():
        _FONTS.clear()
        pygame.font.init()
    if not _FONTS:
        pygame.register_quit(_clear)
    if size not in _FONTS:
        _FONTS[size] = pygame.font.Font(None, size)
    return _FONTS[size]


def text(size: int, value: str, colour: Colour) -> pygame.Surface:
    """``value`` rendered (antialiased) at ``size`` in ``colour``; cached, since rendering text
    is most of a frame's cost (issue 12 item 7)."""
    key = (size, value, colour)
    img = _TEXTS.get(key)
    if img is None:
        if len(_TEXTS) >= _CACHE_MAX:
            _TEXTS.clear()
        img = _TEXTS[key] = font(size).render(value, True, colour)
    return img


def fit(size: int, value: str, width: int) -> str:
    """``value`` cut with an ellipsis to fit ``width`` pixels at ``size`` (cached; the cut point
    is found by bisection, not one character at a time)."""
    key = (size, value, width)
    out = _FITS.get(key)
    if out is None:
        f = font(size)
        if f.size(value)[0] <= width:
            out = value
        else:
            lo, hi = 0, len(value)          # longest prefix whose text + ellipsis fits
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if f.size(value[:mid] + "…")[0] <= width:
                    lo = mid
                else:
                    hi = mid - 1
            out = value[:lo] + "…"
        if len(_FITS) >= _CACHE_MAX:
            _FITS.clear()
        _FITS[key] = out
    return out


def _clear() -> None:
    """Drop every font and rendered text (``pygame.quit()`` invalidates them)."""
    _FONTS.clear()
    _TEXTS.clear()
    _FITS.clear()
