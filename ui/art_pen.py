"""A drawing pen for the project's own piece art (04/U24): shapes in a 100 x 100 unit box.

Every picture is drawn with pygame primitives (polygons, circles, lines) on a canvas
``SUPERSAMPLE`` times larger than asked, then given a bold outer outline and smooth-scaled down,
which antialiases it. Nothing is read from disk. Colours are named by role: ``"F"`` the fill
(the side and level tint of 04/U44), ``"L"`` the line colour (its contrast), or an RGB tuple.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

__all__ = ["Pen", "SUPERSAMPLE", "Colour", "ColourRole", "Point", "arc_points", "ellipse_points",
           "rect_points"]

SUPERSAMPLE = 4
Colour = tuple[int, int, int]
Point = tuple[float, float]
ColourRole = str | Colour | None


class Pen:
    """Draws on an SRCALPHA canvas of ``size * SUPERSAMPLE`` pixels in 0..100 units.

    ``angle`` (degrees, clockwise on screen) turns every point about the centre (50, 50), which
    is how projectiles point their way. Circles keep their radius, so a turned picture is exact.
    """

    def __init__(self, size: int, fill: Colour, line: Colour, detailed: bool = False,
                 angle: float = 0.0) -> None:
        self.size = max(1, size)
        self.n = self.size * SUPERSAMPLE
        self.k = self.n / 100.0
        self.fill, self.line, self.detailed = fill, line, detailed
        self.lw = 3.0 if detailed else 3.8          # interior line width, units
        self.surf = pygame.Surface((self.n, self.n), pygame.SRCALPHA)
        self.surf.fill((*line, 0))                  # transparent, but line-coloured at the edges
        self._cos, self._sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    # -- geometry -------------------------------------------------------------------------
    def colour(self, role: ColourRole) -> Colour:
        """The RGB colour of a role."""
        if role == "F":
            return self.fill
        if role == "L":
            return self.line
        assert isinstance(role, tuple)
        return role

    def pt(self, x: float, y: float) -> Point:
        """Canvas pixel of unit point (x, y)."""
        dx, dy = x - 50.0, y - 50.0
        x, y = 50.0 + dx * self._cos - dy * self._sin, 50.0 + dx * self._sin + dy * self._cos
        return x * self.k, y * self.k

    def px(self, units: float) -> int:
        """A length in canvas pixels (at least 1)."""
        return max(1, round(units * self.k))

    # -- primitives -----------------------------------------------------------------------
    def poly(self, pts: Sequence[Point], fill: ColourRole = "F", line: ColourRole = "L",
             width: float | None = None) -> None:
        """A filled polygon with an outline of ``width`` units (default: the interior line)."""
        q = [self.pt(x, y) for x, y in pts]
        if fill is not None:
            pygame.draw.polygon(self.surf, self.colour(fill), q)
        if line is not None:
            self._stroke(q, True, self.colour(line), self.px(self.lw if width is None else width))

    def lines(self, pts: Sequence[Point], width: float | None = None, colour: ColourRole = "L",
              closed: bool = False) -> None:
        """A polyline with round joins and caps."""
        q = [self.pt(x, y) for x, y in pts]
        self._stroke(q, closed, self.colour(colour), self.px(self.lw if width is None else width))

    def circle(self, x: float, y: float, r: float, fill: ColourRole = "F",
               line: ColourRole = "L", width: float | None = None) -> None:
        """A disc, its outline centred on the rim."""
        c, rr = self.pt(x, y), r * self.k
        if fill is not None:
            pygame.draw.circle(self.surf, self.colour(fill), c, rr)
        if line is not None:
            w = self.px(self.lw if width is None else width)
            pygame.draw.circle(self.surf, self.colour(line), c, rr + w / 2, w)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: ColourRole = "F",
                line: ColourRole = "L", width: float | None = None) -> None:
        """An ellipse centred on (x, y), drawn as a polygon so that it turns with the pen."""
        self.poly(ellipse_points(x, y, rx, ry), fill, line, width)

    def rect(self, x0: float, y0: float, x1: float, y1: float, radius: float = 0.0,
             fill: ColourRole = "F", line: ColourRole = "L", width: float | None = None) -> None:
        """A rectangle with optionally rounded corners."""
        self.poly(rect_points(x0, y0, x1, y1, radius), fill, line, width)

    def bar(self, x0: float, y0: float, x1: float, y1: float, w: float, fill: ColourRole = "F",
            line: ColourRole = "L", width: float | None = None) -> None:
        """A straight bar ``w`` units thick from (x0, y0) to (x1, y1) (barrels, staffs)."""
        d = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / d * w / 2, (x1 - x0) / d * w / 2
        self.poly([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)],
                  fill, line, width)

    def arc(self, x: float, y: float, r: float, a0: float, a1: float, width: float | None = None,
            colour: ColourRole = "L") -> None:
        """A thick arc from angle ``a0`` to ``a1`` (degrees, clockwise from +x on screen)."""
        self.lines(arc_points(x, y, r, a0, a1), width, colour)

    def _stroke(self, q: list[Point], closed: bool, colour: Colour, w: int) -> None:
        if len(q) < 2:
            return
        pygame.draw.lines(self.surf, colour, closed, q, w)
        if w > 2:
            for p in q:
                pygame.draw.circle(self.surf, colour, p, w / 2)

    # -- result ---------------------------------------------------------------------------
    def finish(self, outline: float = 0.0) -> pygame.Surface:
        """The picture at its asked size, with a bold outer outline of ``outline`` units.

        The outline is the silhouette dilated by blitting it at 16 offsets around a circle; it
        makes every piece readable on both square colours (02/§2.1) and every level tint.
        """
        surf = self.surf
        if outline > 0:
            r = outline * self.k
            sil = pygame.mask.from_surface(surf, 8).to_surface(
                setcolor=(*self.line, 255), unsetcolor=(*self.line, 0))
            out = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            out.fill((*self.line, 0))
            for i in range(16):
                a = math.tau * i / 16
                out.blit(sil, (round(r * math.cos(a)), round(r * math.sin(a))))
            out.blit(surf, (0, 0))
            surf = out
        return pygame.transform.smoothscale(surf, (self.size, self.size))


def ellipse_points(x: float, y: float, rx: float, ry: float, n: int = 40) -> list[Point]:
    """Points around an ellipse."""
    return [(x + rx * math.cos(math.tau * i / n), y + ry * math.sin(math.tau * i / n))
            for i in range(n)]


def arc_points(x: float, y: float, r: float, a0: float, a1: float, step: float = 8.0
               ) -> list[Point]:
    """Points along an arc, angles in degrees clockwise from +x on screen."""
    n = max(2, int(abs(a1 - a0) / step) + 1)
    return [(x + r * math.cos(math.radians(a0 + (a1 - a0) * i / (n - 1))),
             y + r * math.sin(math.radians(a0 + (a1 - a0) * i / (n - 1)))) for i in range(n)]


def rect_points(x0: float, y0: float, x1: float, y1: float, radius: float = 0.0) -> list[Point]:
    """Corners of a rectangle, rounded with ``radius`` units."""
    if radius <= 0:
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    return (arc_points(x1 - r, y0 + r, r, -90, 0, 15) + arc_points(x1 - r, y1 - r, r, 0, 90, 15)
            + arc_points(x0 + r, y1 - r, r, 90, 180, 15)
            + arc_points(x0 + r, y0 + r, r, 180, 270, 15))
