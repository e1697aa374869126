"""Weapon and article glyphs, shared by the pawns' emblems and the article icons (04/U24).

A glyph is drawn in a box centred on (cx, cy) with half-size ``s`` units, through an ``Ink``:
``MONO`` draws it solid in the line colour with holes in the fill (a pawn's emblem in the
simple set); ``colour_ink(code)`` draws it in its own colours outlined in the line colour
(article icons, the detailed set). Glyph shapes: Flamer a flame, Stunner a lightning bolt,
Conversion two turning arrows, Rocket Launch a fat rocket with its exhaust, SAM Launch a
slim upright missile, Torpedo Launch a torpedo under a wave, Stealth a crossed-out eye,
Anti-Stealth an open eye with rays, XXX a crate, Bike a bicycle, Jump Pack twin jets,
Scuba a mask and snorkel; a defence is a shield holding its weapon's glyph (01/§11, G26-G31).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from .art_pen import Colour, ColourRole, Pen, Point, arc_points

__all__ = ["Ink", "MONO", "colour_ink", "draw_glyph", "GLYPHS", "SHIELD", "STEEL"]

STEEL: Colour = (178, 182, 190)


class Ink(NamedTuple):
    """Colour roles of a glyph: its body, its holes and inner parts, and its outline."""

    main: ColourRole
    inner: ColourRole
    edge: ColourRole
    width: float = 0.0          # outline width, units (0: the pen's interior line)


MONO = Ink("L", "F", None)

_ACCENT: dict[str, tuple[Colour, Colour]] = {
    "FL": ((250, 110, 20), (255, 225, 70)),
    "ST": ((255, 222, 0), (255, 255, 255)),
    "CS": ((175, 85, 225), (255, 255, 255)),
    "RL": ((215, 40, 40), (255, 170, 40)),
    "SL": ((70, 160, 250), (235, 235, 240)),
    "SOP": ((70, 160, 250), (235, 235, 240)),
    "TL": ((30, 160, 110), (90, 150, 230)),
    "SH": ((205, 205, 215), (40, 40, 40)),
    "ASH": ((255, 255, 255), (40, 110, 200)),
    "XXX": ((195, 135, 70), (120, 75, 30)),
    "BI": ((60, 60, 60), (225, 40, 40)),
    "JP": ((160, 160, 172), (255, 150, 30)),
    "SC": ((255, 200, 0), (150, 215, 255)),
}


def colour_ink(code: str, edge: ColourRole = "L", width: float = 0.0) -> Ink:
    """The glyph's own colours, outlined in ``edge``."""
    main, inner = _ACCENT[code]
    return Ink(main, inner, edge, width)


Tf = Callable[[float, float], Point]


def _tf(cx: float, cy: float, s: float, turn: float = 0.0) -> Tf:
    c, d = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return lambda x, y: (cx + (x * c - y * d) * s, cy + (x * d + y * c) * s)


def _poly(pen: Pen, t: Tf, pts: list[Point], fill: ColourRole, ink: Ink) -> None:
    pen.poly([t(x, y) for x, y in pts], fill, ink.edge, ink.width or None)


def _flame(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _poly(pen, t, [(-0.02, -1.02), (0.3, -0.62), (0.42, -0.3), (0.6, -0.72), (0.72, -0.25),
                   (0.74, 0.25), (0.58, 0.66), (0.3, 0.92), (0.0, 0.98), (-0.3, 0.92),
                   (-0.58, 0.66), (-0.74, 0.25), (-0.66, -0.2), (-0.48, -0.52), (-0.38, -0.15),
                   (-0.22, -0.62)], ink.main, ink)
    inner = ink.inner
    _poly(pen, t, [(0.02, -0.1), (0.22, 0.22), (0.33, 0.52), (0.2, 0.8), (0.0, 0.86),
                   (-0.2, 0.8), (-0.33, 0.52), (-0.2, 0.28)], inner, ink)


def _bolt(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _poly(pen, t, [(0.15, -1.0), (0.68, -1.0), (0.2, -0.22), (0.62, -0.22), (-0.42, 1.0),
                   (-0.08, 0.12), (-0.55, 0.12)], ink.main, ink)


def _conversion(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    w = 0.27 * s
    for a0, a1 in ((195.0, 320.0), (15.0, 140.0)):
        pts = arc_points(0.0, 0.0, 0.62, a0, a1, 10.0)
        if ink.edge is not None:
            pen.lines([t(x, y) for x, y in pts], w + 2 * pen.lw, ink.edge)
        pen.lines([t(x, y) for x, y in pts], w, ink.main)
        a = math.radians(a1)
        ex, ey = 0.62 * math.cos(a), 0.62 * math.sin(a)
        tx, ty = -math.sin(a), math.cos(a)           # clockwise tangent
        nx, ny = math.cos(a), math.sin(a)
        _poly(pen, t, [(ex + tx * 0.42, ey + ty * 0.42), (ex + nx * 0.36, ey + ny * 0.36),
                       (ex - nx * 0.36, ey - ny * 0.36)], ink.main, ink)


def _rocket(pen: Pen, t0: Tf, s: float, ink: Ink, turn: float = 45.0) -> None:
    cx, cy = t0(0.0, 0.0)
    t = _tf(cx, cy, s, turn)
    _poly(pen, t, [(-0.15, 0.5), (0.0, 1.05), (0.15, 0.5)],
          ink.inner if ink.edge is not None else ink.main, ink)              # exhaust
    for m in (1, -1):
        _poly(pen, t, [(0.2 * m, 0.05), (0.52 * m, 0.55), (0.52 * m, 0.72), (0.2 * m, 0.48)],
              ink.main, ink)
    _poly(pen, t, [(0.0, -1.05), (0.17, -0.85), (0.27, -0.55), (0.27, 0.5), (-0.27, 0.5),
                   (-0.27, -0.55), (-0.17, -0.85)], ink.main, ink)
    if ink.edge is None:
        p0, p1 = t(-0.27, -0.4), t(0.27, -0.4)
        pen.lines([p0, p1], 0.12 * s, ink.inner)
    if pen.detailed:
        pen.lines([t(-0.24, -0.45), t(0.24, -0.45)], None, ink.inner)


def _sam(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    for m in (1, -1):
        _poly(pen, t, [(0.24 * m, -0.32), (0.58 * m, 0.0), (0.58 * m, 0.16), (0.24 * m, 0.1)],
              ink.main, ink)
        _poly(pen, t, [(0.24 * m, 0.4), (0.62 * m, 0.8), (0.62 * m, 0.98), (0.24 * m, 0.82)],
              ink.main, ink)
    _poly(pen, t, [(0.0, -1.02), (0.19, -0.8), (0.27, -0.56), (0.27, 0.94), (-0.27, 0.94),
                   (-0.27, -0.56), (-0.19, -0.8)], ink.main, ink)
    if ink.edge is not None and pen.detailed:
        _poly(pen, t, [(0.0, -1.02), (0.19, -0.8), (0.26, -0.6), (-0.26, -0.6),
                       (-0.19, -0.8)], ink.inner, ink)


def _torpedo_body(pen: Pen, t: Tf, ink: Ink, y: float = 0.2) -> None:
    _poly(pen, t, [(-0.68, y - 0.2), (-0.95, y - 0.42), (-0.95, y + 0.42), (-0.68, y + 0.2)],
          ink.main, ink)
    nose = arc_points(0.6, y, 0.26, -90.0, 90.0, 15.0)
    _poly(pen, t, [(-0.72, y - 0.26)] + nose + [(-0.72, y + 0.26)], ink.main, ink)
    _poly(pen, t, [(0.42, y - 0.25), (0.6, y - 0.26)] + arc_points(0.6, y, 0.26, -90.0, 90.0, 15.0)
          + [(0.42, y + 0.25)], ink.inner, ink)


def _wave(pen: Pen, t: Tf, s: float, ink: Ink, y: float, x0: float = -0.95,
          x1: float = 0.95) -> None:
    n = 20
    wave = [(x0 + (x1 - x0) * i / (n - 1), y + 0.13 * math.sin(i * math.pi / 2.5))
            for i in range(n)]
    if ink.edge is not None:
        pen.lines([t(x, y) for x, y in wave], 0.2 * s + 2 * (ink.width or pen.lw), ink.edge)
    pen.lines([t(x, y) for x, y in wave], 0.2 * s, ink.main)


def _torpedo(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _torpedo_body(pen, t, ink)
    _wave(pen, t, s, ink, -0.6)


def _torpedo_alone(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _torpedo_body(pen, t, ink, 0.0)


def _sam_torpedo(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    cx, cy = t(0.0, 0.0)
    _sam(pen, _tf(cx, cy - 0.22 * s, 0.78 * s), s, ink)
    _wave(pen, t, s, ink, 0.78)


def _almond(t: Tf, h: float = 0.55) -> list[Point]:
    top = [(0.95 * u, -h * (1 - u * u)) for u in (i / 8 - 1 for i in range(17))]
    return [t(x, y) for x, y in top] + [t(x, -y) for x, y in reversed(top[1:-1])]


def _eye(pen: Pen, t: Tf, s: float, ink: Ink, slashed: bool) -> None:
    pen.poly(_almond(t), ink.main, ink.edge, ink.width or None)
    cx, cy = t(0.0, 0.0)
    pen.circle(cx, cy, 0.32 * s, ink.inner, None)
    if pen.detailed or ink.edge is None:
        pen.circle(cx, cy, 0.12 * s, ink.main, None)
    if slashed:
        a, b = t(-0.85, 0.85), t(0.85, -0.85)
        pen.lines([a, b], 0.38 * s, ink.main if ink.edge is None else "F")
        pen.lines([a, b], 0.18 * s, ink.inner if ink.edge is None else ink.edge)


def _stealth(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _eye(pen, t, s, ink, True)


def _anti_stealth(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    ray = ink.edge if ink.edge is not None else ink.main
    for a in (-90.0, -135.0, -45.0):
        c, d = math.cos(math.radians(a)), math.sin(math.radians(a))
        pen.lines([t(0.7 * c, 0.7 * d), t(1.0 * c, 1.0 * d)], 0.16 * s, ray)
    cx, cy = t(0.0, 0.15)
    _eye(pen, _tf(cx, cy, s * 0.95), s * 0.95, ink, False)


def _crate(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    _poly(pen, t, [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)], ink.main, ink)
    w = 0.2 * s
    pen.lines([t(-0.62, -0.62), t(0.62, 0.62)], w, ink.inner)
    pen.lines([t(-0.62, 0.62), t(0.62, -0.62)], w, ink.inner)
    if pen.detailed:
        pen.lines([t(-0.62, -0.62), t(0.62, -0.62), t(0.62, 0.62), t(-0.62, 0.62)], w * 0.6,
                  ink.inner, True)


def _bike(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    w = 0.14 * s
    for x in (-0.56, 0.56):
        cx, cy = t(x, 0.36)
        pen.circle(cx, cy, 0.36 * s, None, ink.main, w)
    frame = [(-0.56, 0.36), (-0.12, -0.28), (0.36, -0.28), (0.56, 0.36)]
    pen.lines([t(*p) for p in frame], w, ink.inner)
    pen.lines([t(-0.12, -0.28), t(0.04, 0.36), t(-0.56, 0.36)], w, ink.inner)
    pen.lines([t(0.36, -0.28), t(0.3, -0.55), t(0.52, -0.6)], w, ink.main)
    pen.lines([t(-0.28, -0.48), t(0.0, -0.48)], w * 1.3, ink.main)


def _jump_pack(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    for x in (-0.3, 0.3):
        _poly(pen, t, [(x - 0.1, 0.45), (x, 1.0), (x + 0.1, 0.45)], ink.inner, ink)
        _poly(pen, t, [(x - 0.14, 0.25), (x + 0.14, 0.25), (x + 0.2, 0.45), (x - 0.2, 0.45)],
              ink.main, ink)
        cx, cy = t(x, 0.0)
        pen.rect(cx - 0.26 * s, cy - 0.9 * s, cx + 0.26 * s, cy + 0.3 * s, 0.2 * s, ink.main,
                 ink.edge, ink.width or None)
    _poly(pen, t, [(-0.08, -0.6), (0.08, -0.6), (0.08, 0.1), (-0.08, 0.1)], ink.main, ink)


def _scuba(pen: Pen, t: Tf, s: float, ink: Ink) -> None:
    tube = [(0.62, 0.15), (0.78, 0.2), (0.8, -0.85), (0.6, -0.95)]
    if ink.edge is not None:
        pen.lines([t(*p) for p in tube], 0.2 * s + 2 * pen.lw, ink.edge)
    pen.lines([t(*p) for p in tube], 0.2 * s, ink.main)
    cx, cy = t(-0.12, -0.05)
    pen.rect(cx - 0.78 * s, cy - 0.42 * s, cx + 0.72 * s, cy + 0.42 * s, 0.3 * s, ink.main,
             ink.edge, ink.width or None)
    for x in (-0.5, 0.25):
        lx, ly = t(x, -0.05)
        pen.rect(lx - 0.28 * s, ly - 0.24 * s, lx + 0.28 * s, ly + 0.24 * s, 0.12 * s, ink.inner,
                 None)


_Fn = Callable[[Pen, Tf, float, Ink], None]

GLYPHS: dict[str, _Fn] = {
    "FL": _flame, "ST": _bolt, "CS": _conversion, "RL": _rocket, "SL": _sam, "TL": _torpedo,
    "SH": _stealth, "ASH": _anti_stealth, "XXX": _crate, "BI": _bike, "JP": _jump_pack,
    "SC": _scuba, "SOP": _sam_torpedo, "TORPEDO": _torpedo_alone,
}

SHIELD: list[Point] = [(0.0, -1.0), (0.55, -0.82), (0.9, -0.78), (0.86, 0.05), (0.6, 0.55),
                       (0.0, 1.0), (-0.6, 0.55), (-0.86, 0.05), (-0.9, -0.78), (-0.55, -0.82)]


def draw_glyph(pen: Pen, code: str, cx: float, cy: float, s: float, ink: Ink,
               turn: float = 0.0) -> None:
    """Draw glyph ``code`` (a key of ``GLYPHS``) centred on (cx, cy), half-size ``s`` units."""
    GLYPHS[code](pen, _tf(cx, cy, s, turn), s, ink)


def draw_rocket(pen: Pen, cx: float, cy: float, s: float, ink: Ink, turn: float) -> None:
    """A rocket pointing ``turn`` degrees clockwise from up (projectiles point their way)."""
    _rocket(pen, _tf(cx, cy, s), s, ink, turn)
