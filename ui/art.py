"""Pictures of pieces, articles, projectiles and badges, drawn by the project (04/U24, 04/U44).

Pure: every function depends only on its arguments (and pygame); nothing is read from disk
and there is no engine state. Pictures are generated on first use and cached, so a frame only
blits. Two piece sets, as 04/U24 has them: ``"simple"`` (bold silhouettes for 20-28 px
squares) and ``"detailed"`` (the same pieces with their smaller parts, for 40-60 px).

Colours follow 04/U44: a piece is filled with ``theme.PIECE_FILL[side, level]`` (Air blue,
Sub green, dark for Black and light for White; Ground black or white) and drawn in
``theme.PIECE_TEXT[side]``, with a bold outline in that colour, so it reads on both square
colours (02/§2.1). Handed pieces (03/M0.3: Tank, Cleric, Chopper) face their hand: ``">"``
faces right on screen and ``"<"`` is its mirror image, in every viewer's view (the move sets of
M0.4 are unchanged by the 180° turn of White's view, so a left Tank's moves look the same to
both players, and so does its picture). Badges (stun counters, rate-of-fire countdowns) are a
dark pill with a light rim, so their text reads on every tint (04/U44: the yellow stun counter
was invisible on White's pieces).

API::

    piece_image(kind, side, level="G", hand="", size=24, piece_set="simple") -> Surface
    preload(size, piece_set) -> int                                      # warm the cache
    ghost_image(kind, side, level, hand, size, piece_set) -> Surface     # 04/U29 last seen
    article_icon(code, size) -> Surface
    projectile_icon(kind, side, dr, dc, size, viewer="B", homing=False) -> Surface
    badge(text, size, colour=STUN_COLOUR) -> Surface

Run ``python -m ui.art --sheet docs/screenshots/pieces.png`` for a contact sheet of them all.
"""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

import pygame

from . import theme
from .art_glyphs import SHIELD, STEEL, Ink, colour_ink, draw_glyph, draw_rocket
from .art_pen import Colour, Pen
from .art_pieces import DRAW

__all__ = ["SETS", "KIND_ORDER", "ARTICLE_ORDER", "HANDED", "STUN_COLOUR", "RATE_COLOUR",
           "BADGE_BG", "BADGE_RIM", "piece_image", "ghost_image", "article_icon",
           "projectile_icon", "badge", "preload", "luminance", "contrast_ratio", "clear_cache",
           "main"]

SETS = ("simple", "detailed")
#: the 23 piece types (engine/pieces.py KINDS), in its order
KIND_ORDER = ("K", "DI", "AV", "PR", "Q", "AS", "AC", "PM", "TA", "CL", "CH", "DO", "DS", "AAA",
              "SU", "JE", "RP", "FP", "SP", "CP", "SOP", "XP", "SHP")
#: the 18 article types (engine/pieces.py ARTICLES; ``JU`` is accepted for ``JP``, RUL-35)
ARTICLE_ORDER = ("FL", "ST", "CS", "RL", "SL", "TL", "BI", "JP", "SC", "AFL", "AST", "ACS",
                 "ARL", "ASL", "ATL", "SH", "ASH", "XXX")
HANDED = frozenset({"TA", "CL", "CH"})
_DEFENCE = {"AFL": "FL", "AST": "ST", "ACS": "CS", "ARL": "RL", "ASL": "SL", "ATL": "TL"}
_PROJECTILE = {"R": ("RL", "G"), "S": ("SL", "A"), "T": ("TL", "S")}

STUN_COLOUR: Colour = theme.STUN          # 04/U44: the stun counter is yellow
RATE_COLOUR: Colour = (120, 215, 255)     # rate-of-fire countdown: cyan, apart from the stun
BADGE_BG: Colour = (18, 18, 18)
BADGE_RIM: Colour = (240, 240, 240)
_INK: Colour = (28, 28, 28)               # article icons' outline
_TILE = {"weapon": (255, 238, 205), "defence": (222, 232, 246), "transport": (214, 240, 214),
         "other": (236, 226, 246)}
_OUTLINE = {"simple": 5.0, "detailed": 3.6}   # outer outline, units of the 100-unit box

_CACHE: dict[tuple, pygame.Surface] = {}
_CACHE_MAX = 4096


def _cached(key: tuple) -> pygame.Surface | None:
    if not _CACHE:
        pygame.register_quit(clear_cache)
    return _CACHE.get(key)


def _store(key: tuple, img: pygame.Surface) -> pygame.Surface:
    """Cache ``img``; with a window open, in the window's pixel format (faster blits)."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        img = img.convert_alpha()
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = img
    return img


def clear_cache() -> None:
    """Forget every generated picture."""
    _CACHE.clear()


def piece_image(kind: str, side: str, level: str = "G", hand: str = "", size: int = 24,
                piece_set: str = "simple") -> pygame.Surface:
    """The picture of a ``kind`` piece of ``side`` ("B"/"W") at ``level`` ("G"/"A"/"S"), a
    ``size`` x ``size`` SRCALPHA surface (cached; do not draw on it).

    04/U24 piece sets; 04/U44 colours; 03/M0.3 hands: a Tank, Cleric or Chopper faces right for
    ``">"`` (also when no hand is given) and left for ``"<"``; other kinds ignore ``hand``.
    Raises ``KeyError`` for an unknown kind, side, level or set.
    """
    if piece_set not in _OUTLINE:
        raise KeyError(f"unknown piece set {piece_set!r} (04/U24: {', '.join(SETS)})")
    hand = ("<" if hand == "<" else ">") if kind in HANDED else ""
    key = ("piece", kind, side, level, hand, size, piece_set)
    img = _cached(key)
    if img is None:
        if hand == "<":
            img = pygame.transform.flip(piece_image(kind, side, level, ">", size, piece_set),
                                        True, False)
        else:
            draw = DRAW[kind]
            pen = Pen(size, theme.PIECE_FILL[side, level], theme.PIECE_TEXT[side],
                      piece_set == "detailed")
            draw(pen)
            img = pen.finish(_OUTLINE[piece_set])
        img = _store(key, img)
    return img


def preload(size: int, piece_set: str = "simple") -> int:
    """Generate every piece picture at ``size`` (all kinds, sides, levels and hands) so that no
    frame pays for it later; returns how many pictures there are."""
    n = 0
    for kind in KIND_ORDER:
        for side in "BW":
            for level in "GAS":
                for hand in ("<", ">") if kind in HANDED else ("",):
                    piece_image(kind, side, level, hand, size, piece_set)
                    n += 1
    return n


def ghost_image(kind: str, side: str, level: str = "G", hand: str = "", size: int = 24,
                piece_set: str = "simple", alpha: int = 90) -> pygame.Surface:
    """04/U29: the see-through marker where an enemy stealth piece was last seen (the piece's
    picture at ``alpha``/255 opacity)."""
    key = ("ghost", kind, side, level, hand, size, piece_set, alpha)
    img = _cached(key)
    if img is None:
        img = piece_image(kind, side, level, hand, size, piece_set).copy()
        img.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
        img = _store(key, img)
    return img


def _article_class(code: str) -> str:
    if code in _DEFENCE:
        return "defence"
    if code in ("BI", "JP", "SC"):
        return "transport"
    if code in ("SH", "ASH", "XXX"):
        return "other"
    return "weapon"


def article_icon(code: str, size: int = 16) -> pygame.Surface:
    """A ``size`` x ``size`` icon of article ``code`` (04/H9c token; ``JU`` means ``JP``).

    A rounded tile (tinted by class: weapon, defence, transport, other) holding the article's
    glyph; a defence is a steel shield holding its weapon's glyph (G26-G31). Cached.
    """
    code = "JP" if code == "JU" else code
    key = ("article", code, size)
    img = _cached(key)
    if img is None:
        cls = _article_class(code)
        pen = Pen(size, _TILE[cls], _INK, size >= 28)
        pen.rect(4, 4, 96, 96, 18, "F", "L", 7)
        if cls == "defence":
            pen.poly([(50 + 42 * x, 52 + 42 * y) for x, y in SHIELD], STEEL, "L", 6)
            draw_glyph(pen, _DEFENCE[code], 50, 47, 30, colour_ink(_DEFENCE[code], "L", 3.5))
        else:
            draw_glyph(pen, code, 50, 50, 37, colour_ink(code, "L", 5.5))
        img = _store(key, pen.finish())
    return img


def _screen_step(dr: int, dc: int, viewer: str) -> tuple[int, int]:
    """A board step as a screen step (x right, y down) in ``viewer``'s view (ui/layout.py:
    Black sees row 1 at the bottom; White's view is turned 180°)."""
    return (-dc, dr) if viewer == "W" else (dc, -dr)


def projectile_icon(kind: str, side: str, dr: int, dc: int, size: int = 24, viewer: str = "B",
                    homing: bool = False) -> pygame.Surface:
    """A projectile in flight (RUL-15: ``"R"`` Rocket, ``"S"`` SAM, ``"T"`` Torpedo) of
    ``side``, pointing and arrowed along its board step (dr, dc) as ``viewer`` sees the board.

    Tinted like a piece at its level (Rocket Ground, SAM Air, Torpedo Sub; 04/U44). A red
    arrow gives the direction; ``homing`` adds a red target ring (G22, G23). Cached.
    """
    sx, sy = _screen_step(dr, dc, viewer)
    key = ("projectile", kind, side, sx, sy, size, homing)
    img = _cached(key)
    if img is None:
        glyph, level = _PROJECTILE[kind]
        angle = math.degrees(math.atan2(sy, sx)) if (sx or sy) else 0.0
        pen = Pen(size, theme.PIECE_FILL[side, level], theme.PIECE_TEXT[side], size >= 36,
                  angle)
        ink = Ink("F", "L", "L", 4.0)
        if kind == "R":
            draw_rocket(pen, 40, 50, 36, ink, 90.0)
        elif kind == "S":
            draw_glyph(pen, "SL", 40, 50, 36, ink, 90.0)
        else:
            draw_glyph(pen, "TORPEDO", 38, 50, 38, ink)
        if sx or sy:
            pen.poly([(96, 50), (78, 34), (83, 50), (78, 66)], theme.PROJECTILE, _INK, 3.5)
        if homing:
            pen = _reticle(pen)
        img = _store(key, pen.finish(4.0))
    return img


def _reticle(pen: Pen) -> Pen:
    """A red target ring in the top-right corner, upright whatever the pen's turn."""
    upright = Pen(pen.size, pen.fill, pen.line)
    upright.surf = pen.surf
    upright.circle(80, 20, 12, None, theme.PROJECTILE, 5)
    for a, b in (((80, 4), (80, 14)), ((80, 26), (80, 36)), ((64, 20), (74, 20)),
                 ((86, 20), (96, 20))):
        upright.lines([a, b], 4, theme.PROJECTILE)
    return upright


def badge(text: str, size: int = 14, colour: Colour = STUN_COLOUR) -> pygame.Surface:
    """A counter badge ``size`` px high: ``text`` in ``colour`` on a dark pill with a light rim.

    04/U44: stun counters (``STUN_COLOUR``, yellow) and rate-of-fire countdowns
    (``RATE_COLOUR``) must read on every piece tint: the dark body contrasts with the light
    fills, the rim with the dark ones, and the text always stands on the dark body. Cached.
    """
    key = ("badge", text, size, colour)
    img = _cached(key)
    if img is None:
        f = theme.font(max(8, round(size * 1.15)))
        label = f.render(text, True, colour)
        w = max(size, label.get_width() + size // 2 + 2)
        img = pygame.Surface((w, size), pygame.SRCALPHA)
        rim = max(1, round(size / 9))
        pygame.draw.rect(img, BADGE_RIM, img.get_rect(), border_radius=size // 2)
        pygame.draw.rect(img, BADGE_BG, img.get_rect().inflate(-2 * rim, -2 * rim),
                         border_radius=max(1, size // 2 - rim))
        img.blit(label, label.get_rect(center=(w / 2, size / 2 + 0.5)))
        img = _store(key, img)
    return img


def luminance(c: Sequence[int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG 2 contrast ratio (1..21) of two colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# -- contact sheet ------------------------------------------------------------------------
_NAMES = {"K": "King", "DI": "Dictator", "AV": "Avatar", "PR": "President", "Q": "Queen",
          "AS": "Assassin", "AC": "Acolyte", "PM": "Prime Minister", "TA": "Tank",
          "CL": "Cleric", "CH": "Chopper", "DO": "Bulldozer", "DS": "Destroyer", "AAA": "AAA",
          "SU": "Sub", "JE": "Jet", "RP": "Rocket Pawn", "FP": "Flamer Pawn",
          "SP": "Stunner Pawn", "CP": "Conversion Pawn", "SOP": "SAM/Torpedo Pawn",
          "XP": "XXX Pawn", "SHP": "Stealth Pawn"}
_ART_NAMES = {"FL": "Flamer", "ST": "Stunner", "CS": "Conversion", "RL": "Rocket L.",
              "SL": "SAM L.", "TL": "Torpedo L.", "BI": "Bike", "JP": "Jump Pack",
              "SC": "Scuba", "AFL": "Anti-Flamer", "AST": "Anti-Stun", "ACS": "Anti-Conv.",
              "ARL": "Anti-Rocket", "ASL": "Anti-SAM", "ATL": "Anti-Torp.", "SH": "Stealth",
              "ASH": "Anti-Stealth", "XXX": "XXX box"}
_COLUMNS = [(s, lv, ">") for s in "BW" for lv in "GAS"] + [("B", "G", "<"), ("W", "G", "<")]


def contact_sheet(simple: int = 28, detailed: int = 56) -> pygame.Surface:
    """Every piece in both sets, sides, levels and hands; every article, projectile and badge."""
    label_w, pad = 150, 6
    cs, cd = simple + pad, detailed + pad
    cols = len(_COLUMNS)
    width = label_w + cols * cs + 24 + cols * cd + pad
    height = 40 + len(KIND_ORDER) * cd + 600
    sheet = pygame.Surface((width, height))
    sheet.fill(theme.BACKGROUND)
    sheet.blit(theme.text(20, "04/U24 piece sets: simple (%d px) and detailed (%d px); "
                          "04/U44 colours: Black/White x Ground/Air/Sub; last two: left hand"
                          % (simple, detailed), theme.TEXT), (pad, 10))
    y = 40
    for kind in KIND_ORDER:
        sheet.blit(theme.text(18, f"{kind}  {_NAMES[kind]}", theme.TEXT), (pad, y + cd // 2 - 6))
        for base, cell, sz, set_ in ((label_w, cs, simple, "simple"),
                                     (label_w + cols * cs + 24, cd, detailed, "detailed")):
            for i, (side, level, hand) in enumerate(_COLUMNS):
                x = base + i * cell
                top = y + (cd - cell) // 2
                sheet.fill(theme.square_colour(i, KIND_ORDER.index(kind)), (x, top, cell, cell))
                if hand == "<" and kind not in HANDED:
                    continue
                sheet.blit(piece_image(kind, side, level, hand, sz, set_),
                           (x + pad // 2, top + pad // 2))
        y += cd
    y += 10
    sheet.blit(theme.text(20, "Articles (16 px and 32 px)", theme.TEXT), (pad, y))
    y += 24
    for i, code in enumerate(ARTICLE_ORDER):
        x = pad + (i % 6) * 150
        yy = y + (i // 6) * 58
        sheet.blit(article_icon(code, 32), (x, yy))
        sheet.blit(article_icon(code, 16), (x + 36, yy + 8))
        sheet.blit(theme.text(16, f"{code} {_ART_NAMES[code]}", theme.TEXT), (x, yy + 36))
    y += 3 * 58 + 6
    sheet.blit(theme.text(20, "Projectiles (R Rocket, S SAM, T Torpedo) in 8 directions, "
                          "homing; badges", theme.TEXT), (pad, y))
    y += 24
    x = pad
    dirs = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    for kind in "RST":
        for side in "BW":
            for i, (dr, dc) in enumerate(dirs):
                sheet.fill(theme.square_colour(i, 0), (x, y, 36, 36))
                sheet.blit(projectile_icon(kind, side, dr, dc, 32, "B", i == 0), (x + 2, y + 2))
                x += 38
            x += 8
        if x > width - 700:
            x, y = pad, y + 42
    y += 46
    sheet.blit(theme.text(20, "Badges: stun (yellow) and rate of fire (cyan) on every tint",
                          theme.TEXT), (pad, y))
    y += 26
    x = pad
    for side in "BW":
        for level in "GAS":
            sheet.fill(theme.square_colour(x // 70, 0), (x, y, 64, 64))
            sheet.blit(piece_image("TA", side, level, ">", 56, "detailed"), (x + 4, y + 4))
            sheet.blit(badge("3", 18, STUN_COLOUR), (x + 34, y + 40))
            sheet.blit(badge("2", 18, RATE_COLOUR), (x + 4, y + 2))
            sheet.blit(piece_image("RP", side, level, "", 24, "simple"), (x + 70, y + 20))
            sheet.blit(badge("1", 12, STUN_COLOUR), (x + 84, y + 34))
            x += 104
    sheet.fill(theme.LIGHT_SQUARE, (x + 6, y, 64, 64))
    sheet.blit(ghost_image("SHP", "W", "G", "", 56, "detailed"), (x + 10, y + 4))
    sheet.blit(theme.text(16, "U29 last seen", theme.TEXT), (x + 76, y + 24))
    return sheet.subsurface((0, 0, width, y + 72)).copy()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ui.art --sheet FILE``: write the contact sheet as a PNG."""
    ap = argparse.ArgumentParser(prog="python -m ui.art", description=__doc__.split("\n")[0])
    ap.add_argument("--sheet", required=True, help="PNG file to write")
    ap.add_argument("--simple", type=int, default=28, help="simple set size, px")
    ap.add_argument("--detailed", type=int, default=56, help="detailed set size, px")
    args = ap.parse_args(argv)
    pygame.font.init()
    pygame.image.save(contact_sheet(args.simple, args.detailed), args.sheet)
    print(f"wrote {args.sheet}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
