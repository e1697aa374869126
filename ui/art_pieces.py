"""The 23 piece pictures (02 glossary, engine/pieces.py KINDS), drawn in 100 x 100 units.

Handed pieces (03/M0.3: Tank, Cleric, Chopper) are drawn facing right here (the ``>`` hand);
``ui.art`` mirrors them for ``<``. Government pieces stand on a plinth, as chess pieces do, and
are told apart by their heads: King a crown with a cross, Queen a tiara of five pearls,
Dictator a peaked officer's cap and epaulettes, Avatar a halo with rays, President a top hat,
Assassin a pointed hood and a dagger, Acolyte a round cowl and a candle, Prime Minister a
bowler hat and a despatch box. Pawns are chess pawns with their weapon's emblem on the body.
With ``pen.detailed`` (04/U24 detailed set) each picture gains its smaller parts.
"""
from __future__ import annotations

from collections.abc import Callable

from .art_glyphs import MONO, colour_ink, draw_glyph
from .art_pen import Pen, arc_points, ellipse_points

__all__ = ["DRAW", "PAWN_EMBLEM", "EMBLEM_HALF"]


def _plinth(p: Pen, x0: float = 16, x1: float = 84, y0: float = 85) -> None:
    p.rect(x0, y0, x1, 94, 3)
    if p.detailed:
        p.lines([(x0 + 4, y0 + 4), (x1 - 4, y0 + 4)], 2.0)


def _chess_body(p: Pen) -> None:
    _plinth(p)
    p.poly([(27, 86), (35, 72), (39, 58), (40, 50), (60, 50), (61, 58), (65, 72), (73, 86)])
    p.rect(33, 43, 67, 51, 2)
    if p.detailed:
        p.lines([(37, 66), (63, 66)], 2.0)
        p.lines([(35, 77), (65, 77)], 2.0)


def _king(p: Pen) -> None:
    _chess_body(p)
    p.poly([(30, 44), (25, 25), (38, 34), (50, 21), (62, 34), (75, 25), (70, 44)])
    p.poly([(46.5, 6), (53.5, 6), (53.5, 10), (59, 10), (59, 16), (53.5, 16), (53.5, 22),
            (46.5, 22), (46.5, 16), (41, 16), (41, 10), (46.5, 10)])
    if p.detailed:
        p.lines([(29, 39), (71, 39)], 2.0)
        for x in (38, 50, 62):
            p.circle(x, 35 if x != 50 else 32, 2.5, "L", None)


def _queen(p: Pen) -> None:
    _chess_body(p)
    p.poly([(31, 44), (21, 22), (33, 33), (36, 16), (44, 31), (50, 13), (56, 31), (64, 16),
            (67, 33), (79, 22), (69, 44)])
    for x, y in ((21, 20), (36, 14), (50, 10), (64, 14), (79, 20)):
        p.circle(x, y, 4.2)
    if p.detailed:
        p.lines([(30, 39), (70, 39)], 2.0)
        p.circle(50, 34, 3, "L", None)


def _suit(p: Pen) -> None:
    _plinth(p, 18, 82)
    p.poly([(22, 86), (24, 66), (33, 58), (44, 55), (56, 55), (67, 58), (76, 66), (78, 86)])


def _dictator(p: Pen) -> None:
    _plinth(p, 18, 82)
    p.poly([(25, 86), (23, 66), (29, 59), (40, 55), (60, 55), (71, 59), (77, 66), (75, 86)])
    p.rect(14, 55, 34, 63, 3)
    p.rect(66, 55, 86, 63, 3)
    p.rect(44, 47, 56, 57)
    p.circle(50, 41, 10.5)
    p.poly([(31, 33), (24, 18), (34, 11), (66, 11), (76, 18), (69, 33)])
    p.poly([(30, 31), (70, 31), (67, 38), (33, 38)], "L", "L")
    _star(p, 50, 21, 6.5, "L")
    if p.detailed:
        for x in (18, 22, 26, 30, 70, 74, 78, 82):
            p.lines([(x, 63), (x, 67)], 1.6)
        p.lines([(50, 60), (50, 84)], 1.6)
        for y in (64, 72, 80):
            p.circle(50, y, 1.8, "L", None)
        p.circle(38, 68, 3, "L", None)
        p.circle(31, 68, 3, "L", None)
        p.lines([(26, 78), (74, 78)], 2.2)


def _star(p: Pen, x: float, y: float, r: float, fill: str = "L") -> None:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -90 + 36 * i
        pts.append(arc_points(x, y, rr, a, a, 1)[0])
    p.poly(pts, fill, None)


def _avatar(p: Pen) -> None:
    _plinth(p, 18, 82)
    for i in range(12):
        a = -90 + 30 * i
        tip = arc_points(50, 33, 27, a, a, 1)[0]
        b0 = arc_points(50, 33, 19, a - 11, a - 11, 1)[0]
        b1 = arc_points(50, 33, 19, a + 11, a + 11, 1)[0]
        p.poly([b0, tip, b1])
    p.circle(50, 33, 21)
    p.circle(50, 33, 15.5, None, "L", 2.4)
    p.poly([(22, 86), (31, 63), (40, 55), (60, 55), (69, 63), (78, 86)])
    p.circle(50, 45, 10)
    p.poly([(45, 74), (50, 62), (55, 74)], "L", None)
    if p.detailed:
        p.circle(50, 41, 1.8, "L", None)
        p.lines([(36, 66), (32, 84)], 1.8)
        p.lines([(64, 66), (68, 84)], 1.8)
        p.lines([(28, 80), (72, 80)], 1.8)


def _president(p: Pen) -> None:
    _suit(p)
    p.poly([(47, 57), (53, 57), (55, 72), (50, 78), (45, 72)], "L", None)
    p.circle(50, 45, 10)
    p.rect(37, 8, 63, 34)
    p.rect(37, 26, 63, 31, 0, "L", None)
    p.rect(29, 32, 71, 37, 2)
    if p.detailed:
        p.lines([(40, 57), (50, 74), (60, 57)], 1.8)
        _star(p, 34, 70, 5, "L")
        p.lines([(50, 78), (50, 86)], 1.6)


def _assassin(p: Pen) -> None:
    _plinth(p, 18, 82)
    p.poly([(20, 86), (30, 57), (38, 46), (62, 46), (70, 57), (80, 86)])
    p.poly([(31, 58), (33, 31), (41, 17), (53, 7), (57, 16), (65, 30), (69, 58)])
    p.ellipse(50, 39, 10, 12, "L", None)
    p.circle(45.5, 38, 2.4, "F", None)
    p.circle(54.5, 38, 2.4, "F", None)
    p.poly([(78, 58), (82, 24), (86, 58)])                      # dagger blade
    p.rect(72, 57, 92, 62, 1.5)
    p.rect(79, 62, 85, 76, 1.5)
    if p.detailed:
        p.lines([(82, 30), (82, 55)], 1.4)
        p.lines([(40, 58), (50, 84)], 1.8)
        p.lines([(60, 58), (50, 84)], 1.8)


def _acolyte(p: Pen) -> None:
    _plinth(p, 18, 82)
    p.poly([(22, 86), (28, 62), (37, 51), (63, 51), (72, 62), (78, 86)])
    p.circle(48, 37, 17)
    p.circle(48, 39, 9.5)
    p.rect(69, 46, 79, 76, 1.5)                                  # candle
    p.poly([(74, 18), (79, 31), (78, 38), (74, 42), (70, 38), (69, 31)])
    p.ellipse(66, 68, 7, 4.5)                                     # hand
    if p.detailed:
        p.poly([(74, 28), (76, 35), (74, 39), (72, 35)], "L", None)
        p.lines([(48, 56), (48, 84)], 1.8)
        p.lines([(30, 78), (66, 78)], 1.8)


def _prime_minister(p: Pen) -> None:
    _suit(p)
    p.lines([(41, 57), (50, 68), (59, 57)], 2.4)
    p.circle(50, 45, 10)
    p.poly([(50 + 12 * x, 34 + 14 * y) for x, y in arc_points(0, 0, 1, 180, 360, 12)])
    p.rect(34, 32, 66, 37, 2.5)
    p.rect(60, 67, 90, 86, 2, "L", "L")                          # despatch box
    p.arc(75, 67, 5.5, 180, 360, 2.6)
    if p.detailed:
        p.rect(60, 67, 90, 86, 2, (170, 30, 30), "L", 2.0)
        _star(p, 75, 76, 4.5, (240, 200, 60))
        p.lines([(50, 68), (50, 86)], 1.6)
        p.circle(34, 64, 2.5, "L", None)


def _tank(p: Pen) -> None:
    p.rect(8, 66, 88, 88, 11)
    wheels = (19, 33, 47, 61, 75) if p.detailed else (21, 40, 58, 76)
    r = 6 if p.detailed else 7
    for x in wheels:
        p.circle(x, 77, r)
    p.poly([(12, 66), (19, 54), (82, 54), (90, 66)])
    p.poly([(31, 54), (35, 43), (44, 37), (63, 37), (69, 44), (71, 54)])
    p.rect(66, 42, 89, 48)
    p.rect(87, 39.5, 94, 50.5, 1)
    if p.detailed:
        p.rect(44, 32, 56, 37, 1)
        p.lines([(40, 38), (33, 14)], 1.6)
        for x in range(14, 84, 6):
            p.lines([(x, 66), (x + 2, 66)], 2.4)
        p.lines([(20, 60), (82, 60)], 1.4)


def _bulldozer(p: Pen) -> None:
    p.rect(24, 72, 90, 91, 9.5)                                  # track
    for x in (34, 52, 70) if not p.detailed else (33, 45, 57, 69, 81):
        p.circle(x, 81.5, 6 if not p.detailed else 4.5)
    p.rect(54, 26, 84, 56, 2)                                    # cab
    p.rect(59, 31, 79, 48, 1, "L", None)
    if p.detailed:
        p.rect(34, 38, 40, 54)                                   # exhaust
        p.rect(32, 35, 42, 38, 1)
    p.poly([(26, 72), (28, 56), (36, 52), (88, 52), (88, 72)])  # engine body
    p.bar(20, 66, 40, 64, 6)                                     # push arm
    p.poly([(7, 40), (16, 38), (23, 48), (23, 84), (17, 94), (7, 94), (12, 84), (12, 50)])
    if p.detailed:
        p.rect(60, 32, 78, 47, 1, (160, 205, 240), None)
        for x in (34, 40, 46):
            p.lines([(x, 57), (x, 67)], 1.4)
        p.lines([(13, 60), (18, 60)], 1.4)
        p.lines([(13, 76), (18, 76)], 1.4)
        p.bar(88, 62, 94, 80, 3)                                 # ripper


def _chopper(p: Pen) -> None:
    p.poly([(40, 45), (10, 44), (10, 52), (40, 60)])              # tail boom
    p.poly([(7, 30), (15, 30), (19, 50), (8, 53)])                # tail fin
    if p.detailed:
        p.circle(12, 40, 5.5, "F", "L")
    p.lines([(48, 68), (44, 82)], 4.5)
    p.lines([(72, 68), (74, 82)], 4.5)
    p.lines([(30, 82), (84, 82), (91, 75)], 5.5)
    p.poly(ellipse_points(62, 53, 28, 18))
    p.poly([(63, 36), (75, 37), (84, 44), (89, 54), (64, 54)], "L", None)
    p.rect(52, 24, 58, 37)
    p.rect(7, 18, 93, 25, 3)
    if p.detailed:
        p.rect(63, 36, 87, 52, 0, None, None)
        p.poly([(66, 39), (75, 40), (82, 46), (85, 52), (67, 52)], (160, 205, 240), None)
        p.lines([(44, 54), (58, 54)], 1.4)
        p.circle(55, 21, 3.5, "L", None)
        p.lines([(12, 35), (12, 45)], 1.4)


def _jet(p: Pen) -> None:
    p.poly([(46, 34), (8, 66), (8, 74), (46, 64)])
    p.poly([(54, 34), (92, 66), (92, 74), (54, 64)])
    p.poly([(46, 74), (30, 86), (30, 91), (46, 87)])
    p.poly([(54, 74), (70, 86), (70, 91), (54, 87)])
    p.poly([(50, 6), (55, 17), (57, 30), (57, 91), (43, 91), (43, 30), (45, 17)])
    p.ellipse(50, 25, 3.4, 8.5, "L", None)
    if p.detailed:
        p.ellipse(50, 24, 2, 6, (160, 205, 240), None)
        p.rect(22, 58, 26, 70, 1)
        p.rect(74, 58, 78, 70, 1)
        p.lines([(50, 38), (50, 86)], 1.4)
        p.lines([(44, 50), (36, 50)], 1.4)
        p.lines([(56, 50), (64, 50)], 1.4)


def _sub(p: Pen) -> None:
    p.poly([(14, 58), (6, 46), (13, 46), (21, 58)])
    p.poly([(14, 72), (6, 84), (13, 84), (21, 72)])
    p.poly([(22, 54)] + arc_points(80, 65, 11, -90, 90, 15) + [(22, 76), (8, 68), (8, 62)])
    p.poly([(48, 54), (52, 37), (67, 37), (71, 54)])
    p.rect(43, 43, 76, 47, 1)
    p.lines([(60, 37), (60, 24), (67, 24)], 3.5)
    if p.detailed:
        for x in (32, 44, 80):
            p.circle(x, 65, 2.4, "L", None)
        p.lines([(24, 70), (86, 70)], 1.4)
        p.lines([(4, 64), (4, 66)], 3.0)


def _destroyer(p: Pen) -> None:
    p.lines([(54, 36), (54, 12)], 2.6)
    p.lines([(48, 18), (60, 18)], 2.6)
    p.poly([(31, 30), (42, 30), (44, 47), (30, 47)])
    p.rect(26, 46, 62, 60)
    p.rect(47, 35, 63, 48)
    p.bar(76, 52, 92, 45, 3)
    p.poly([(68, 58), (70, 50), (80, 50), (82, 58)])
    p.bar(20, 53, 8, 47, 3)
    p.poly([(14, 58), (16, 50), (24, 50), (26, 58)])
    p.poly([(6, 58), (94, 55), (85, 78), (14, 78)])
    if p.detailed:
        for x in (24, 36, 48, 60, 72):
            p.circle(x, 66, 2, "L", None)
        p.rect(50, 38, 60, 42, 0, (160, 205, 240), None)
        p.lines([(16, 73), (84, 71)], 1.4)
        p.poly([(54, 12), (62, 14), (54, 16)], (210, 40, 40), None)
        p.lines([(6, 86), (20, 83), (34, 86), (48, 83), (62, 86), (76, 83), (92, 86)], 1.8)


def _aaa(p: Pen) -> None:
    p.bar(42, 58, 75, 19, 10)
    p.bar(56, 62, 88, 25, 10)
    p.poly([(30, 76), (34, 55), (66, 55), (70, 76)])
    p.circle(50, 56, 14)
    p.poly([(8, 74), (92, 74), (86, 84), (14, 84)])
    p.circle(24, 85, 8)
    p.circle(76, 85, 8)
    if p.detailed:
        p.circle(24, 85, 3, "L", None)
        p.circle(76, 85, 3, "L", None)
        p.lines([(44, 50), (70, 20)], 1.4)
        p.lines([(58, 54), (84, 26)], 1.4)
        p.rect(14, 64, 28, 74, 1)
        p.lines([(17, 69), (25, 69)], 1.4)
        p.circle(50, 56, 4, "L", None)


def _cleric(p: Pen) -> None:
    p.poly([(24, 94), (30, 67), (38, 53), (62, 53), (70, 67), (76, 94)])
    p.poly([(58, 56), (80, 59), (81, 67), (60, 67)])
    p.bar(82, 94, 82, 22, 5)
    p.arc(75.5, 21, 7, 0, -210, 5)
    p.circle(81, 63, 4.5)
    p.circle(50, 45, 9)
    p.poly([(38, 39), (37, 23), (50, 7), (63, 23), (62, 39)])
    p.rect(47.5, 22, 52.5, 36, 0, "L", None)
    p.rect(43, 26.5, 57, 31, 0, "L", None)
    if p.detailed:
        p.lines([(44, 13), (50, 21)], 1.6)
        p.lines([(38, 34), (62, 34)], 1.6)
        p.rect(44, 56, 50, 93, 0, None, "L", 1.6)
        p.rect(50, 56, 56, 93, 0, None, "L", 1.6)
        p.arc(75.5, 21, 3, 0, -200, 1.4)


def _pawn(kind: str) -> Callable[[Pen], None]:
    emblem = PAWN_EMBLEM[kind]

    def draw(p: Pen) -> None:
        _plinth(p, 10, 90, 86)
        p.poly([(13, 87), (19, 64), (29, 49), (37, 42), (63, 42), (71, 49), (81, 64), (87, 87)])
        p.rect(35, 35, 65, 42, 2)
        p.circle(50, 21, 12)
        ink = colour_ink(emblem, "L", 2.4) if p.detailed else MONO
        draw_glyph(p, emblem, 50, 67, EMBLEM_HALF, ink)
    return draw


EMBLEM_HALF = 22.0     # half-size of a pawn's emblem, units; centred on (50, 67)
#: each pawn's emblem: its weapon glyph (02 glossary; FP flame, RP rocket, SP stun bolt...)
PAWN_EMBLEM = {"RP": "RL", "FP": "FL", "SP": "ST", "CP": "CS", "SOP": "SOP", "XP": "XXX",
               "SHP": "SH"}

DRAW: dict[str, Callable[[Pen], None]] = {
    "K": _king, "DI": _dictator, "AV": _avatar, "PR": _president,
    "Q": _queen, "AS": _assassin, "AC": _acolyte, "PM": _prime_minister,
    "TA": _tank, "CL": _cleric, "CH": _chopper, "DO": _bulldozer, "DS": _destroyer,
    "AAA": _aaa, "SU": _sub, "JE": _jet,
    **{k: _pawn(k) for k in PAWN_EMBLEM},
}
